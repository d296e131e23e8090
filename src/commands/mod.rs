//! One module per command, each with the options the command line was parsed into. A command
//! uses the library below it and never another command: what two commands share lives below
//! them (the referee's `MatchOptions`, the `engine` that plays the games, `BotSpec::for_game`, the
//! log reader).
//! `series` is `arena duel` and `arena match` alike: a duel is a match of two bots, summed up
//! with the statistics of two.

pub mod check;
pub mod games;
pub mod perft;
pub mod ratings;
pub mod replay;
pub mod report;
pub mod run;
pub mod series;
