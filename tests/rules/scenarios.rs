//! Every rules scenario under tests/scenarios/, checked by the one runner
//! that `orrery scenario` uses.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read scenario dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "scn") {
            out.push(p);
        }
    }
}

#[test]
fn all_scenarios_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    assert!(!all.is_empty(), "no scenario files under {}", root.display());
    let failures: Vec<String> = all
        .iter()
        .filter_map(|f| {
            orrery::cli::run_scenario_file(f)
                .err()
                .map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    eprintln!("{} passed, {} failed", all.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "failing scenarios:\n{}", failures.join("\n"));
}

#[test]
fn every_game_has_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    for kind in orrery::games::GameKind::ALL {
        let mut fs = Vec::new();
        let dir = root.join(kind.key());
        assert!(dir.is_dir(), "no scenario directory for {kind}");
        files(&dir, &mut fs);
        assert!(fs.len() >= 10, "{kind} has only {} scenarios", fs.len());
    }
}
