//! Orrery: asynchronous play-by-post space strategy board games on Discord.
//!
//! Layers, from the pure core outwards (see `docs/ARCHITECTURE.md`):
//! - [`engine`]: ids, RNG, decision model, the `Ruleset` contract. Pure.
//! - [`games`]: the rulesets, and the enum that dispatches to them. Pure.
//! - [`scenario`]: rules scenarios as data, checked by one runner.
//! - [`store`]: the event log and game rows in SQLite or PostgreSQL (sqlx).
//! - [`service`]: transport-agnostic requests in, replies and outbox messages out.
//! - [`discord`]: the serenity + poise transport.
//! - [`cli`]: the `orrery` binary's subcommands, including the terminal playtest.

pub mod cli;
pub mod discord;
pub mod engine;
pub mod games;
pub mod scenario;
pub mod service;
pub mod store;
