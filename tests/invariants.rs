//! The architecture's invariants that a test can check by reading the
//! source (docs/ARCHITECTURE.md states them): the rules engine is pure.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// Lines of code (comments dropped) outside `#[cfg(test)]` modules' own
/// test files (`tests.rs`, which may write debug PNGs).
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_string()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

/// Nothing under `src/engine` or `src/games` touches tokio, serenity,
/// poise, sqlx, the clock, the OS random generator, files, the network or
/// the environment: rulesets are functions of their arguments, and
/// randomness comes only from the `GameRng` inside the state.
#[test]
fn the_rules_engine_is_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let forbidden = [
        "tokio",
        "serenity",
        "poise",
        "sqlx",
        "SystemTime",
        "Instant",
        "chrono",
        "thread_rng",
        "rand::rng",
        "OsRng",
        "getrandom",
        "from_entropy",
        "from_os_rng",
        "RandomState",
        "std::fs",
        "std::net",
        "std::env",
        "std::process",
        "std::thread",
        "crate::service",
        "crate::store",
        "crate::discord",
        "crate::cli",
    ];
    let mut found = Vec::new();
    let mut files = 0;
    for dir in ["engine", "games"] {
        for f in rust_files(&root.join(dir)) {
            // A ruleset's own unit tests may write debug pictures.
            if f.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            files += 1;
            for (n, line) in code_lines(&f) {
                for word in forbidden {
                    if line.contains(word) {
                        found.push(format!("{}:{n}: `{word}` in: {}", f.display(), line.trim()));
                    }
                }
            }
        }
    }
    assert!(
        files >= 10,
        "only {files} files scanned: is the layout still src/engine, src/games?"
    );
    assert!(found.is_empty(), "the engine must stay pure:\n{}", found.join("\n"));
}

/// The scan above really finds what it looks for (so an empty result
/// means something).
#[test]
fn the_purity_scan_sees_a_forbidden_call() {
    let dir = std::env::temp_dir().join(format!("orrery-invariants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("x.rs");
    std::fs::write(
        &f,
        "// SystemTime in a comment is fine\nlet t = std::time::SystemTime::now();\n",
    )
    .unwrap();
    let lines = code_lines(&f);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].1.contains("SystemTime"));
    std::fs::remove_dir_all(&dir).unwrap();
}
