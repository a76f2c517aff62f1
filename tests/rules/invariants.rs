//! The architecture's invariants that a test can check by reading the
//! source (docs/ARCHITECTURE.md states them): the rules engine is pure,
//! and the service speaks no transport's language.

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

/// The engine and the games are pure, by the compiler: their crates
/// depend (directly or through any other crate) on no runtime, database,
/// Discord, clock or OS-randomness crate, so nothing in them can name one.
#[test]
fn the_engine_crates_depend_on_no_runtime_database_or_discord_crate() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // This machine's platform only: the others' crates need not be here.
    let rustc = std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--locked",
            "--filter-platform",
            &host,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let name_of = |id: &str| {
        meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| p["name"].as_str().unwrap().to_string())
            .unwrap()
    };
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let forbidden = [
        "tokio",
        "mio",
        "sqlx",
        "sqlx-core",
        "serenity",
        "poise",
        "reqwest",
        "hyper",
        "chrono",
        "time",
        "getrandom",
    ];
    for root in ["orrery-engine", "orrery-games"] {
        // Normal dependencies only: dev-dependencies never reach the library.
        let mut seen = std::collections::BTreeSet::new();
        let mut todo: Vec<String> = nodes
            .iter()
            .filter(|n| name_of(n["id"].as_str().unwrap()) == root)
            .map(|n| n["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(todo.len(), 1, "{root} is a package of the workspace");
        while let Some(id) = todo.pop() {
            if !seen.insert(id.clone()) {
                continue;
            }
            let node = nodes.iter().find(|n| n["id"] == id.as_str()).unwrap();
            for dep in node["deps"].as_array().unwrap() {
                let normal = dep["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null());
                if normal {
                    todo.push(dep["pkg"].as_str().unwrap().to_string());
                }
            }
        }
        let names: Vec<String> = seen.iter().map(|id| name_of(id)).collect();
        let bad: Vec<&String> = names.iter().filter(|n| forbidden.contains(&n.as_str())).collect();
        assert!(names.len() > 5, "{root} depends on {names:?}");
        assert!(bad.is_empty(), "{root} depends on {bad:?} (all: {names:?})");
    }
}

/// And no call in them reaches the clock, the OS random generator, the
/// environment, files, the network, processes or threads, nor uses a hash
/// container seeded per process: each crate's `clippy.toml` forbids them
/// by path (`cargo clippy -- -D warnings`, run by CI). The two files say
/// the same, and name what they must.
#[test]
fn clippy_forbids_impure_calls_in_the_engine_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let engine = std::fs::read_to_string(root.join("engine/clippy.toml")).expect("crates/engine/clippy.toml");
    let games = std::fs::read_to_string(root.join("games/clippy.toml")).expect("crates/games/clippy.toml");
    assert_eq!(engine, games, "the engine's and the games' clippy.toml differ");
    for path in [
        "std::time::SystemTime::now",
        "std::time::Instant::now",
        "std::env::var",
        "std::fs::write",
        "std::thread::spawn",
        "std::process::Command::new",
        "std::collections::HashMap",
        "std::collections::HashSet",
        "std::net::TcpStream",
    ] {
        assert!(
            engine.contains(&format!("\"{path}\"")),
            "clippy.toml does not forbid {path}"
        );
    }
}

/// String literals and the other code of a Rust source, comments left
/// out (a small lexer: enough for this crate's sources).
pub(crate) fn literals_and_code(src: &str) -> (Vec<String>, String) {
    let b: Vec<char> = src.chars().collect();
    let (mut lits, mut code) = (Vec::new(), String::new());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !b[i.saturating_sub(1)].is_alphanumeric() {
            let mut j = i + 1;
            while b.get(j) == Some(&'#') {
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                code.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let rest: String = b[j + 1..].iter().collect();
            let end = rest.find(&close).expect("raw string closes");
            lits.push(rest[..end].to_string());
            i = j + 1 + rest[..end].chars().count() + close.chars().count();
        } else if c == '"' {
            let mut lit = String::new();
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    lit.push(b[i]);
                    i += 1;
                }
                lit.push(b[i]);
                i += 1;
            }
            lits.push(lit);
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            code.push(c);
            i += 1;
        }
    }
    (lits, code)
}

/// Discord markup in string literals, and Discord's length limits, in
/// a source file's code (its test module left out).
fn discord_traces(src: &str) -> Vec<String> {
    let mut found = discord_markup(src);
    let src = src.split("#[cfg(test)]").next().unwrap_or(src);
    let (_, code) = literals_and_code(src);
    for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let n = word.replace('_', "");
        if ["2000", "1900", "1800", "1500", "1400", "1200"].contains(&n.as_str()) {
            found.push(format!("the length limit {word}"));
        }
        if ["POST_LIMIT", "MESSAGE_LIMIT"].contains(&word) {
            found.push(word.to_string());
        }
    }
    if code.contains("clip(") {
        found.push("clip(".into());
    }
    found
}

/// Discord markup in a source file's string literals (its test module
/// left out).
fn discord_markup(src: &str) -> Vec<String> {
    let src = src.split("#[cfg(test)]").next().unwrap_or(src);
    let (lits, _) = literals_and_code(src);
    let mut found = Vec::new();
    for l in &lits {
        for m in ["<t:", "<#", "<@", "**"] {
            if l.contains(m) {
                found.push(format!("{m} in \"{l}\""));
            }
        }
    }
    found
}

#[test]
fn the_markup_scanner_finds_markup_in_literals_only() {
    let src = r##"
        // "<t:1:R>" in a comment, and **bold** in a doc:
        /// **Hyperspace** `x`
        fn f() -> String { format!("in <#{}> at {}", 1, '"') }
        const POST_LIMIT: usize = 1_900;
        fn g() { let c = '\''; let s = r#"**x**"#; clip(&s, 2_000); }
    "##;
    let found = discord_traces(src);
    assert_eq!(
        found,
        vec![
            "<# in \"in <#{}> at {}\"".to_string(),
            "** in \"**x**\"".to_string(),
            "POST_LIMIT".to_string(),
            "the length limit 1_900".to_string(),
            "the length limit 2_000".to_string(),
            "clip(".to_string(),
        ]
    );
    assert!(discord_traces("fn f() { let t = 1_700_000_000_999; }").is_empty());
}

/// Only the Discord crate speaks Discord: no Discord markup in any string
/// of the engine, the games or the service (the crates whose words reach
/// players), and none of Discord's message length limits in the service,
/// which writes the texts (the games' numbers are pixels).
#[test]
fn no_discord_markup_or_limits_outside_the_discord_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut files = 0;
    let mut found = Vec::new();
    for dir in ["engine/src", "games/src", "service/src"] {
        for path in rust_files(&root.join(dir)) {
            files += 1;
            let src = std::fs::read_to_string(&path).unwrap();
            let traces = if dir.starts_with("service") {
                discord_traces(&src)
            } else {
                discord_markup(&src)
            };
            found.extend(traces.into_iter().map(|f| format!("{}: {f}", path.display())));
        }
    }
    assert!(files >= 40, "read {files} files under {}", root.display());
    assert!(
        found.is_empty(),
        "Discord outside crates/discord:\n{}",
        found.join("\n")
    );
}
