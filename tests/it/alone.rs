//! The modules whose tests run alone (`common::alone`): they measure CPU time on a 2-core
//! machine (fairness, frozen bots, spinners), fork dozens of processes, or hold bots to limits
//! that need their share of the CPU in time (the hostile tournament: a memory hog must reach
//! its limit within its move, a spinner its CPU limit within its game). libtest starts tests in
//! the order of their names, and `alone::` sorts first: these run as one block at the start of
//! the run, where no other test is under way, instead of each waiting halfway through the run
//! for the test beside it to end while the test after it waits in turn.

#[path = "hostile.rs"]
mod hostile;
#[path = "nplayer.rs"]
mod nplayer;
#[path = "processes.rs"]
mod processes;
