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

/// Nothing under `crates/engine` or `crates/games` touches tokio, serenity,
/// poise, sqlx, the clock, the OS random generator, files, the network or
/// the environment: rulesets are functions of their arguments, and
/// randomness comes only from the `GameRng` inside the state.
#[test]
fn the_rules_engine_is_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
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
    for dir in ["engine/src", "games/src"] {
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
        "only {files} files scanned: is the layout still crates/engine, crates/games?"
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
