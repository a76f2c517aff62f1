//! Orrery: asynchronous play-by-post space strategy board games on Discord.
//!
//! This package is the `orrery` binary: the bot, the terminal playtest and
//! the maintenance commands ([`cli`]). The layers are crates of their own,
//! re-exported here under their layer's name (see `docs/ARCHITECTURE.md`):
//! - [`engine`] (`orrery-engine`): ids, RNG, decision model, the `Ruleset` contract. Pure.
//! - [`games`] (`orrery-games`): the rulesets, the registry that dispatches to
//!   them, and the rules-scenario runner ([`scenario`]). Pure.
//! - [`store`] (`orrery-store`): the event log and game rows in SQLite or PostgreSQL.
//! - [`service`] (`orrery-service`): transport-agnostic requests in, replies and outbox messages out.
//! - [`discord`] (`orrery-discord`): the serenity + poise transport.

pub mod cli;

pub use orrery_discord as discord;
pub use orrery_engine as engine;
pub use orrery_games as games;
pub use orrery_games::scenario;
pub use orrery_service as service;
pub use orrery_store as store;
