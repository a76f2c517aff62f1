//! Discord, through the fake Discord (`tests/support/`) and the real `orrery` binary: whole games as people play them, DMs and threads, the host's clock, several processes, the kill -9 soak.

#[path = "../support/mod.rs"]
mod support;

mod bots;
mod dms;
mod e2e;
mod empires;
mod host;
mod limits;
mod play;
mod shards;
mod soak;
mod solar;
mod spectrum;
mod starlanes;
mod threads;
