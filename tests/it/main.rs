//! The integration tests, one binary: each module runs the real `arena` binary against real bot
//! processes (scripts under `tests/bots/` and `bots/`), as users do. One binary links once, where
//! thirty linked thirty times; shared helpers are in `common`.

mod alone;

mod batalo;
mod check;
mod cli;
mod common;
mod compat;
mod cron;
mod dama;
mod disk;
mod duel;
mod failures;
mod folders;
mod fuzz_games;
mod fuzz_spec;
mod json_games;
mod krom;
mod limits;
mod loa;
mod messages;
mod perft;
mod referee;
mod report;
mod sandbox;
mod scripts;
mod sdk;
mod streams;
mod structure;
mod terminal;
mod tournament;
mod tournament_openings;
mod tournament_places;
