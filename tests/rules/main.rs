//! The rules scenarios (`tests/scenarios/`, one runner), and the architecture's invariants a test checks by reading the source.

mod invariants;
mod modules;
mod scenarios;
