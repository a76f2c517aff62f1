//! Properties over every registered game (random legal play, replay, hidden state), and the short fuzz run.

#[path = "../fuzz_support/mod.rs"]
mod fuzz_support;

mod bots;
mod fuzz;
mod games;
mod reach;
