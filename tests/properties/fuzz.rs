//! The short fuzz run: a few thousand inputs per target on every test run
//! (the long one is `cargo run --release --example fuzz`; see
//! `tests/fuzz_support/mod.rs` for the targets and their properties).

use crate::fuzz_support::{run, Options, Report};

fn short(target: &str, inputs: u64) -> Report {
    let opts = Options {
        seed: 20261125,
        inputs,
        only: None,
        max_failures: 5,
        progress: false,
    };
    let report = run(target, &opts).unwrap_or_else(|e| panic!("{target}: {e}"));
    println!("{}", report.summary());
    let failures: Vec<String> = report.failures.iter().map(|f| f.to_string()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(report.inputs, inputs);
    report
}

/// The classes of outcome whose name starts with `prefix`, and how many inputs ended so.
fn count(report: &Report, prefix: &str) -> u64 {
    report
        .classes
        .iter()
        .filter(|(c, _)| c.starts_with(prefix))
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn command_lines() {
    let r = short("command", 4000);
    assert!(count(&r, "ok") > 0 && count(&r, "parse-error") > 0, "{:?}", r.classes);
}

#[test]
fn orders_of_every_game() {
    for game in orrery::games::GameKind::ALL.iter().map(|k| k.key()) {
        let r = short(game, 1500);
        // The generator reaches every kind of answer: accepted orders,
        // refusals of each kind.
        for class in ["accepted:", "illegal:", "parse-error", "not-your-decision"] {
            assert!(count(&r, class) > 0, "{game}: no `{class}` in {:?}", r.classes);
        }
    }
}

#[test]
fn game_and_host_options() {
    let r = short("grammar", 4000);
    assert!(count(&r, "ok:") > 0 && count(&r, "refused:") > 0, "{:?}", r.classes);
    let r = short("terminal", 4000);
    assert!(count(&r, "ok:") > 0 && count(&r, "refused:") > 0, "{:?}", r.classes);
}

#[test]
fn scenario_files() {
    let r = short("scenario", 400);
    assert!(count(&r, "passes") > 0 && count(&r, "fails:") > 0, "{:?}", r.classes);
}

#[test]
fn stored_events_and_states() {
    let r = short("events", 3000);
    assert!(count(&r, "read:") > 0 && count(&r, "refused:") > 0, "{:?}", r.classes);
    let r = short("state", 1000);
    assert!(count(&r, "read:") > 0 && count(&r, "refolded") > 0, "{:?}", r.classes);
}
