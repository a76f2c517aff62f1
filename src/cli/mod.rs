//! The `orrery` binary's subcommands.

pub mod play;

use crate::store::Store;
use anyhow::Context as _;
use std::path::{Path, PathBuf};

/// `orrery scenario FILE...`: run rules scenarios; prints `N passed, M
/// failed`. A directory runs every `.scn` file below it.
pub fn scenario(paths: &[PathBuf]) -> anyhow::Result<bool> {
    let mut files = Vec::new();
    for p in paths {
        collect_scenarios(p, &mut files)?;
    }
    if files.is_empty() {
        anyhow::bail!("no scenario files found in {paths:?}");
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        match run_scenario_file(f) {
            Ok(()) => passed += 1,
            Err(e) => {
                failed += 1;
                println!("FAIL {}: {e}", f.display());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Run one scenario file from disk (the runner itself, in the pure games
/// crate, reads text).
pub fn run_scenario_file(path: &Path) -> Result<(), crate::scenario::Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| crate::scenario::Failure {
        line: 0,
        message: format!("cannot read {}: {e}", path.display()),
    })?;
    crate::scenario::run_text(&text)
}

fn collect_scenarios(p: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .with_context(|| format!("reading {}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "scn") {
                collect_scenarios(&e, out)?;
            }
        }
    } else {
        out.push(p.to_path_buf());
    }
    Ok(())
}

/// Fold `events` through [`crate::games::Replay`], comparing each snapshot
/// with the fold at its position. The final state, and the positions of the
/// snapshots that differ (or do not decode, or name no entry of the log).
fn fold_checking(
    kind: crate::games::GameKind,
    events: &[(i64, crate::games::AnyEvent)],
    snapshots: &[(i64, Option<crate::games::AnyState>)],
) -> Result<(crate::games::AnyState, Vec<i64>), crate::games::FoldError> {
    let mut replay = crate::games::Replay::new(kind);
    let mut wrong = Vec::new();
    let mut next = snapshots.iter().peekable();
    for (seq, e) in events {
        replay.push(*seq, e)?;
        while let Some((at, snap)) = next.next_if(|(at, _)| at <= seq) {
            if *at != *seq || snap.as_ref() != Some(replay.state()) {
                wrong.push(*at);
            }
        }
    }
    wrong.extend(next.map(|(at, _)| *at));
    Ok((replay.into_state(), wrong))
}

/// `orrery replay`: re-fold every stored game from its event log and check
/// it matches the stored state. Returns whether all are consistent.
/// It only reads, so it runs beside a bot that holds a SQLite file.
pub async fn replay(db: &str) -> anyhow::Result<bool> {
    let store = Store::connect_beside(db).await?;
    let games = store.all_games().await?;
    let mut bad = 0;
    for g in &games {
        // A damaged game is reported, and the others are checked all the same.
        let damaged = |entry: i64, why: &str| {
            println!(
                "game {} ({}): DAMAGED from entry {entry} — {why}; the game cannot be loaded until it is repaired",
                g.id,
                g.kind.key()
            )
        };
        if let Some(entry) = g.damaged {
            bad += 1;
            damaged(
                entry,
                "that entry does not decode or apply, and the cached state is unreadable",
            );
            continue;
        }
        let events = match store.events(g.id).await {
            Ok(events) => events,
            Err(crate::store::StoreError::Damaged { entry, why, .. }) => {
                bad += 1;
                damaged(entry, &format!("that entry does not decode: {why}"));
                continue;
            }
            Err(e) => {
                bad += 1;
                println!(
                    "game {} ({}): INCONSISTENT — its log does not read: {e}",
                    g.id,
                    g.kind.key()
                );
                continue;
            }
        };
        let Some(stored) = &g.state else {
            println!(
                "game {} ({}): {} — no state yet, {} events",
                g.id,
                g.kind.key(),
                g.status.as_str(),
                events.len()
            );
            continue;
        };
        let gaps = events.iter().enumerate().any(|(i, (seq, _))| *seq != i as i64 + 1);
        // Roll-backs included: the fold of the whole log, as written; each
        // snapshot is checked against the fold at its position on the way.
        let snapshots = match store.snapshots(g.id).await {
            Ok(snapshots) => snapshots,
            Err(e) => {
                bad += 1;
                println!(
                    "game {} ({}): INCONSISTENT — its snapshots do not read: {e}",
                    g.id,
                    g.kind.key()
                );
                continue;
            }
        };
        let folded = fold_checking(g.kind, &events, &snapshots);
        match folded {
            Ok((state, wrong)) if wrong.is_empty() && &state == stored && !gaps && events.len() as i64 == g.seq => {
                println!(
                    "game {} ({}): consistent, {} events, {} snapshots",
                    g.id,
                    g.kind.key(),
                    events.len(),
                    snapshots.len()
                )
            }
            Ok((state, wrong)) => {
                bad += 1;
                let what = if wrong.is_empty() {
                    String::new()
                } else {
                    format!("; snapshots that differ from the fold at entries {wrong:?}")
                };
                println!(
                    "game {} ({}): INCONSISTENT — the fold of {} events {} the stored state (stored seq {}, gaps: {gaps}){what}",
                    g.id,
                    g.kind.key(),
                    events.len(),
                    if &state == stored { "matches" } else { "differs from" },
                    g.seq
                );
            }
            Err(e) => {
                bad += 1;
                damaged(e.entry, &format!("that entry decodes but does not apply: {}", e.why));
            }
        }
    }
    println!(
        "{} games checked, {} consistent, {bad} inconsistent",
        games.len(),
        games.len() - bad
    );
    Ok(bad == 0)
}
