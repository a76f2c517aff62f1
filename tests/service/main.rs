//! The service, driven as a transport drives it (`tests/common/`): requests in, replies and outbox messages out; deadlines and the scheduler, host tools, order sheets, what players see, live messages, concurrent submitters.

#[path = "../common/mod.rs"]
mod common;
#[path = "../pgdb/mod.rs"]
mod pgdb;
#[path = "../support/policy.rs"]
#[allow(dead_code)]
mod policy;

mod bots;
mod concurrency;
mod damaged;
mod deadlines;
mod feel;
mod health;
mod host;
mod live;
mod reads;
mod requests;
mod sheets;
mod stale;
mod storage;
mod unavailable;
