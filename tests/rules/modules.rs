//! The module structure, read from the source: no import circles inside
//! any crate, and every game folder laid out alike (docs/ARCHITECTURE.md,
//! "A game folder").
//!
//! A module's references to other modules are its `use` paths and inline
//! paths starting `crate::`, `super::` or `self::` (test code, comments
//! and strings left out). A reference between a module and its own parent
//! or child is not an import (a parent declares and re-exports its
//! children); every other reference is an edge between the two sibling
//! modules, under their nearest common parent, that contain the two ends.

use crate::invariants::literals_and_code;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module, as the path of names from its crate's root (`[]` is the root).
type ModPath = Vec<String>;

/// The modules of one crate: each module's file(s), relative to `src/`.
struct Crate {
    name: String,
    modules: BTreeMap<ModPath, PathBuf>,
}

fn crates_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates")
}

fn read_crate(name: &str) -> Crate {
    let src = crates_root().join(name).join("src");
    let mut modules = BTreeMap::new();
    fn walk(dir: &Path, path: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                let mut sub = path.clone();
                sub.push(stem);
                walk(&p, &sub, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let module = if stem == "mod" || stem == "lib" {
                    path.clone()
                } else {
                    let mut m = path.clone();
                    m.push(stem);
                    m
                };
                out.insert(module, p);
            }
        }
    }
    walk(&src, &Vec::new(), &mut modules);
    Crate {
        name: name.to_string(),
        modules,
    }
}

/// Test modules may use anything: they are not part of the structure.
fn is_test(module: &ModPath) -> bool {
    module.iter().any(|m| m == "tests" || m == "testkit")
}

/// `use` trees expanded into flat paths: `super::{a::B, c}` gives
/// `super::a::B` and `super::c`; `x::{self, Y}` gives `x` and `x::Y`;
/// renames (`as`) are dropped.
fn expand_use(tree: &str) -> Vec<String> {
    // Drop `as NAME` first, then every space.
    let mut words = Vec::new();
    let mut tokens = tree.split_whitespace().peekable();
    while let Some(t) = tokens.next() {
        if t == "as" {
            // The new name, with any `,` or `}` glued to it kept.
            if let Some(name) = tokens.next() {
                words.push(
                    name.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                        .to_string(),
                );
            }
        } else {
            words.push(t.to_string());
        }
    }
    let tree: String = words.concat();
    fn join(a: &str, b: &str) -> String {
        match (a.is_empty(), b.is_empty()) {
            (true, _) => b.to_string(),
            (_, true) => a.to_string(),
            _ => format!("{a}::{b}"),
        }
    }
    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        // Split `tree` at top-level commas.
        let mut depth = 0;
        let mut start = 0;
        let mut parts = Vec::new();
        for (i, c) in tree.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&tree[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&tree[start..]);
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            if let Some(open) = part.find('{') {
                let head = part[..open].trim_end_matches("::");
                let inner = part[open + 1..].strip_suffix('}').unwrap_or(&part[open + 1..]);
                expand(&join(prefix, head), inner, out);
            } else if part == "self" {
                out.push(prefix.to_string());
            } else {
                out.push(join(prefix, part));
            }
        }
    }
    let mut out = Vec::new();
    expand("", &tree, &mut out);
    out
}

/// The paths a module's code names: its `use` trees and its inline paths
/// starting `crate::`, `super::` or `self::`.
fn named_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = String::new();
    let mut i = 0;
    let bytes = code.as_bytes();
    while i < code.len() {
        let at_word = i == 0 || !(bytes[i - 1] as char).is_alphanumeric() && bytes[i - 1] != b'_';
        if at_word && code[i..].starts_with("use ") {
            let end = code[i..].find(';').map_or(code.len(), |e| i + e);
            out.extend(expand_use(&code[i + 4..end]));
            i = end + 1;
        } else {
            rest.push(bytes[i] as char);
            i += 1;
        }
    }
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(pos) = rest[from..].find(start) {
            let at = from + pos;
            from = at + start.len();
            if at > 0 {
                let before = rest.as_bytes()[at - 1] as char;
                if before.is_alphanumeric() || before == '_' || before == ':' {
                    continue;
                }
            }
            let path: String = rest[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            out.push(path.trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module a path names, from module `from`: the longest known module
/// its leading names reach. `None` for paths outside the crate.
fn resolve(path: &str, from: &ModPath, known: &BTreeMap<ModPath, PathBuf>) -> Option<ModPath> {
    // A file `x.rs` is module `x`, whose `super` is its parent; a folder
    // module `x/mod.rs` likewise.
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: ModPath = match segs.first().copied() {
        Some("crate") => {
            segs.remove(0);
            Vec::new()
        }
        Some("super") | Some("self") => {
            let mut b = from.clone();
            while let Some(first) = segs.first().copied() {
                match first {
                    "super" => {
                        b.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                segs.remove(0);
            }
            b
        }
        _ => return None,
    };
    let mut found = base.clone();
    for s in segs {
        base.push(s.to_string());
        if known.contains_key(&base) {
            found = base.clone();
        } else {
            break;
        }
    }
    Some(found)
}

/// The edges between sibling modules of one crate: `(a, b)` where a
/// module inside `a` names one inside `b`, `a` and `b` children of one
/// parent. Test modules left out.
fn sibling_edges(krate: &Crate) -> BTreeSet<(ModPath, ModPath)> {
    let mut edges = BTreeSet::new();
    for (module, file) in &krate.modules {
        if is_test(module) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let text = text.split("#[cfg(test)]").next().unwrap_or(&text);
        let (_, code) = literals_and_code(text);
        for path in named_paths(&code) {
            let Some(target) = resolve(&path, module, &krate.modules) else {
                continue;
            };
            if is_test(&target) {
                continue;
            }
            // Parent and child, or the module itself: not an import.
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == module.len() || common == target.len() {
                continue;
            }
            let a = module[..=common].to_vec();
            let b = target[..=common].to_vec();
            edges.insert((a, b));
        }
    }
    edges
}

/// The strongly connected groups of more than one module (Tarjan).
fn circles(edges: &BTreeSet<(ModPath, ModPath)>) -> Vec<Vec<ModPath>> {
    let nodes: BTreeSet<&ModPath> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let nodes: Vec<&ModPath> = nodes.into_iter().collect();
    let index_of = |m: &ModPath| nodes.iter().position(|n| *n == m).unwrap();
    let mut adj = vec![Vec::new(); nodes.len()];
    for (a, b) in edges {
        adj[index_of(a)].push(index_of(b));
    }
    struct T {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(v: usize, adj: &[Vec<usize>], t: &mut T) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &adj[v] {
            match t.index[w] {
                None => {
                    visit(w, adj, t);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(i) if t.on[w] => t.low[v] = t.low[v].min(i),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut group = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                group.push(w);
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                t.out.push(group);
            }
        }
    }
    let n = nodes.len();
    let mut t = T {
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(v, &adj, &mut t);
        }
    }
    t.out
        .into_iter()
        .map(|g| {
            let mut g: Vec<ModPath> = g.into_iter().map(|i| nodes[i].clone()).collect();
            g.sort();
            g
        })
        .collect()
}

const CRATES: [&str; 5] = ["engine", "games", "store", "service", "discord"];

/// No module of any crate imports a module that (through others) imports
/// it back.
#[test]
fn no_import_circles_inside_any_crate() {
    let mut found = Vec::new();
    let mut modules = 0;
    for name in CRATES {
        let krate = read_crate(name);
        modules += krate.modules.len();
        for group in circles(&sibling_edges(&krate)) {
            let names: Vec<String> = group.iter().map(|m| m.join("::")).collect();
            found.push(format!("{}: {}", krate.name, names.join(" ⇄ ")));
        }
    }
    assert!(
        modules > 60,
        "only {modules} modules read: is the layout still crates/<name>/src?"
    );
    assert!(found.is_empty(), "import circles:\n{found:#?}");
}

/// The modules of a game folder (`crates/games/src/<game>/`), in order: a
/// module may use the modules before it, never one after it. Each is a
/// file or a folder of its own parts (`rules/combat.rs`).
const LAYOUT: [&str; 12] = [
    "basics", "map", "state", "events", "setup", "orders", "rules", "view", "controls", "scene", "hooks", "tests",
];

/// The modules every game has (`map`, `hooks` and `tests` as it needs).
const REQUIRED: [&str; 9] = [
    "basics", "state", "events", "setup", "orders", "rules", "view", "controls", "scene",
];

/// The longest a file that is not a test may be, in lines of code (its
/// test module left out).
const LONGEST: usize = 1_200;

/// Every game folder laid out alike: the modules of [`LAYOUT`] and no
/// others, each using only those before it, no game using another game,
/// no file over [`LONGEST`] lines of code but tests.
#[test]
fn every_game_folder_follows_the_layout() {
    let krate = read_crate("games");
    let edges = sibling_edges(&krate);
    let games: Vec<String> = krate
        .modules
        .keys()
        .filter(|m| m.len() == 1 && krate.modules[*m].ends_with("mod.rs") && m[0] != "shared")
        .map(|m| m[0].clone())
        .collect();
    assert!(games.len() >= 5, "game folders: {games:?}");
    let mut problems = Vec::new();
    for (a, b) in &edges {
        if a.len() == 1 && games.contains(&a[0]) && games.contains(&b[0]) {
            problems.push(format!("{} uses {}", a[0], b[0]));
        }
    }
    for game in &games {
        let parts: Vec<&String> = krate
            .modules
            .keys()
            .filter(|m| m.len() == 2 && &m[0] == game)
            .map(|m| &m[1])
            .collect();
        for p in &parts {
            if !LAYOUT.contains(&p.as_str()) {
                problems.push(format!("{game}::{p} is not a module of the layout {LAYOUT:?}"));
            }
        }
        for r in REQUIRED {
            if !parts.iter().any(|p| *p == r) {
                problems.push(format!("{game} has no module `{r}`"));
            }
        }
        let rank = |m: &str| LAYOUT.iter().position(|l| *l == m);
        for (a, b) in &edges {
            if a.len() == 2 && &a[0] == game {
                if let (Some(ra), Some(rb)) = (rank(&a[1]), rank(&b[1])) {
                    if rb > ra {
                        problems.push(format!("{game}::{} uses {game}::{}, which comes after it", a[1], b[1]));
                    }
                }
            }
        }
        for (module, file) in &krate.modules {
            if module.first() == Some(game) && !is_test(module) {
                let text = std::fs::read_to_string(file).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or(&text).lines().count();
                if code > LONGEST {
                    problems.push(format!("{} has {code} lines of code, over {LONGEST}", file.display()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "game folders:\n{}", problems.join("\n"));
}

/// The checker finds what it looks for: a circle of two sibling modules
/// through a brace-group `use`, and none through a parent's re-export.
#[test]
fn the_circle_check_sees_a_circle() {
    assert_eq!(
        expand_use("super::{advance::Advance, compose, state::{self, Event as E}}"),
        [
            "super::advance::Advance",
            "super::compose",
            "super::state",
            "super::state::Event"
        ]
    );
    let paths = named_paths("use super::{a::B, c};\nfn f() { crate::d::e(); x_super::y; }");
    assert_eq!(paths, ["super::a::B", "super::c", "crate::d::e"]);
    let mut known = BTreeMap::new();
    for m in [
        vec![],
        vec!["a".to_string()],
        vec!["b".to_string()],
        vec!["b".to_string(), "c".to_string()],
    ] {
        known.insert(m, PathBuf::new());
    }
    let b_c = vec!["b".to_string(), "c".to_string()];
    assert_eq!(resolve("super::super::a::X", &b_c, &known), Some(vec!["a".to_string()]));
    assert_eq!(
        resolve("crate::b::c::f", &vec!["a".to_string()], &known),
        Some(b_c.clone())
    );
    let edges: BTreeSet<(ModPath, ModPath)> = [
        (vec!["a".to_string()], vec!["b".to_string()]),
        (vec!["b".to_string()], vec!["a".to_string()]),
    ]
    .into_iter()
    .collect();
    assert_eq!(circles(&edges).len(), 1);
}

/// Every change a request makes goes through the service's one change
/// pipeline, `Service::change` (crates/service/src/change.rs): no other
/// module takes a game's lock, calls the commit path or writes a game
/// through the store, except where listed here with the reason.
#[test]
fn only_the_change_pipeline_locks_and_writes() {
    const PIPELINE: &str = "change.rs";
    // (call, the other files allowed to make it, why)
    const CALLS: &[(&str, &[&str], &str)] = &[
        ("self.lock(", &["lib.rs"], "where the lock is defined"),
        (".commit_seen(", &["commit.rs"], "where it is defined"),
        (".write(", &["commit.rs"], "where it is defined"),
        (
            ".try_commit(",
            &["commit.rs", "drafts.rs", "scheduling.rs", "private.rs"],
            "the background workers' lockless conditional writes: stale drafts, reminders, refused DMs",
        ),
        ("store.commit(", &["commit.rs"], "the one write of a game in play"),
        (
            "store.add_seat(",
            &["lobby.rs"],
            "a new game seats its host as it is created",
        ),
        ("store.add_seat_picking(", &[], ""),
        ("store.set_pick(", &[], ""),
        ("store.remove_seat(", &[], ""),
        ("store.set_status(", &[], ""),
        ("store.set_deadline(", &[], ""),
        ("store.clear_deadline(", &[], ""),
        ("store.set_reminded(", &[], ""),
    ];
    let src = crates_root().join("service").join("src");
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let (_, code) = literals_and_code(&text);
            let code: String = code.split_whitespace().collect();
            files.push((path.file_name().unwrap().to_string_lossy().to_string(), code));
        }
    }
    assert!(files.len() > 20, "only {} service files read", files.len());
    let pipeline = &files.iter().find(|(f, _)| f == PIPELINE).expect("change.rs").1;
    for call in [
        "self.lock(",
        "self.reload(",
        ".commit_seen(",
        ".write(",
        "store.add_seat_picking(",
        "store.set_pick(",
    ] {
        assert!(
            pipeline.contains(call),
            "the pipeline no longer makes `{call}`: update this test"
        );
    }
    let mut wrong = Vec::new();
    for (call, allowed, _) in CALLS {
        for (file, code) in &files {
            if file != PIPELINE && !allowed.contains(&file.as_str()) && code.contains(call) {
                wrong.push(format!("{file} calls `{call}`"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "outside the change pipeline (return a `Changed` from `Service::change` instead):\n{}",
        wrong.join("\n")
    );
}
