//! The store on both backends, and the fixture logs: whole recorded games every release must replay.

#[path = "../common/mod.rs"]
mod common;
#[path = "../pgdb/mod.rs"]
mod pgdb;

mod backends;
mod fixtures;
mod storage;
