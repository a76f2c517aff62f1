//! Seeded, structure-aware fuzzing of every text input Orrery reads.
//!
//! The stable toolchain has no libFuzzer, so each target mutates real,
//! valid inputs (legal orders of mid-game states, the rules scenarios,
//! stored events and cached states of played games, the grammar's own
//! options) with token and byte mutations, and checks a property of the
//! code under test besides "no panic". Every input is generated from its
//! own generator, seeded by `(seed, index)`, so any one input is
//! reproduced by `--seed S --only INDEX`.
//!
//! Shared by `examples/fuzz.rs` (the long run) and `tests/fuzz.rs` (a
//! short run on every `cargo test`).
#![allow(dead_code)]

use orrery::engine::{CommandLine, GameConfig, GameId, GameRng, Rejection, Seat, UserId};
use orrery::games::{waiting_seats, ActionError, AnyEvent, AnyState, GameKind, PlatformEvent, Rewind};
use orrery::service::grammar::{self, OptionKind, OptionValue, Top, Wire};
use orrery::service::{format_duration, parse_duration, players_as_seats, Request, TimeOfDay};
use orrery::store::codec;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// Every target, in the order `--target all` runs them: the command
/// line, each game's orders (named by the game's key, from the registry:
/// a new game is fuzzed without a line here), then the rest.
pub fn targets() -> Vec<&'static str> {
    let mut all = vec!["command"];
    all.extend(GameKind::ALL.iter().map(|k| k.key()));
    all.extend(OTHER_TARGETS);
    all
}

const OTHER_TARGETS: &[&str] = &["grammar", "terminal", "scenario", "events", "state"];

/// How a run goes.
#[derive(Clone, Debug)]
pub struct Options {
    pub seed: u64,
    pub inputs: u64,
    /// Run this one input only (reproducing a failure).
    pub only: Option<u64>,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// Print a line to stderr about every ten seconds: inputs run so far,
    /// the rate and the failures, for long runs.
    pub progress: bool,
}

/// An input that broke a property (or panicked), with how to reproduce it.
#[derive(Clone, Debug)]
pub struct Failure {
    pub target: String,
    pub seed: u64,
    pub index: u64,
    pub input: String,
    pub problem: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut input = self.input.clone();
        if input.len() > 3000 {
            let mut cut = 3000;
            while !input.is_char_boundary(cut) {
                cut -= 1;
            }
            input.truncate(cut);
            input.push('…');
        }
        write!(
            f,
            "{}: {}\n  reproduce: cargo run --release --example fuzz -- --target {} --seed {} --only {}\n  input: {input}",
            self.target, self.problem, self.target, self.seed, self.index
        )
    }
}

/// What a run of one target did.
#[derive(Clone, Debug)]
pub struct Report {
    pub target: String,
    pub inputs: u64,
    /// How many inputs ended in each class of outcome ("accepted:depart",
    /// "parse-error", "illegal:end", …).
    pub classes: BTreeMap<String, u64>,
    pub setup: Duration,
    pub elapsed: Duration,
    pub failures: Vec<Failure>,
}

impl Report {
    pub fn summary(&self) -> String {
        format!(
            "{:<11} {:>9} inputs {:>5} classes {:>8.1}s (+{:.1}s set-up) {:>7.1} µs/input  {} failure(s)",
            self.target,
            self.inputs,
            self.classes.len(),
            self.elapsed.as_secs_f64(),
            self.setup.as_secs_f64(),
            self.elapsed.as_secs_f64() * 1e6 / self.inputs.max(1) as f64,
            self.failures.len()
        )
    }
}

/// Run one target.
pub fn run(target: &str, opts: &Options) -> Result<Report, String> {
    let t0 = Instant::now();
    match target {
        "command" => Ok(drive(target, &CommandTarget::new(), opts, t0)),
        game if GameKind::from_key(game).is_some() => {
            let kind = GameKind::from_key(game).expect("a game");
            Ok(drive(target, &OrderTarget::new(kind)?, opts, t0))
        }
        "grammar" => Ok(drive(target, &GrammarTarget::new(), opts, t0)),
        "terminal" => Ok(drive(target, &TerminalTarget::new(), opts, t0)),
        "scenario" => Ok(drive(target, &ScenarioTarget::new()?, opts, t0)),
        "events" => Ok(drive(target, &EventTarget::new()?, opts, t0)),
        "state" => Ok(drive(target, &StateTarget::new()?, opts, t0)),
        other => Err(format!(
            "unknown target `{other}`; the targets are all, {}",
            targets().join(", ")
        )),
    }
}

/// One fuzz target: a generator of inputs and the property each must keep.
trait Fuzz {
    type Input: Debug;
    fn generate(&self, g: &mut Gen) -> Self::Input;
    /// `Ok(class)` when the property holds; `Err(problem)` when not.
    fn check(&self, input: &Self::Input) -> Result<String, String>;
}

std::thread_local! {
    /// Set while this thread runs fuzz inputs: the panic hook keeps the
    /// message here instead of printing it.
    static CAUGHT: std::cell::RefCell<Option<Option<String>>> = const { std::cell::RefCell::new(None) };
}

fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let fuzzing = CAUGHT.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        let payload = info
                            .payload()
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| info.payload().downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "(non-text panic)".into());
                        let at = info.location().map(|l| format!(" at {l}")).unwrap_or_default();
                        *slot = Some(format!("{payload}{at}"));
                        true
                    }
                    None => false,
                }
            });
            if !fuzzing {
                previous(info);
            }
        }));
    });
}

fn drive<F: Fuzz>(name: &str, target: &F, opts: &Options, t0: Instant) -> Report {
    install_hook();
    let setup = t0.elapsed();
    let start = Instant::now();
    let mut report = Report {
        target: name.to_string(),
        inputs: 0,
        classes: BTreeMap::new(),
        setup,
        elapsed: Duration::ZERO,
        failures: Vec::new(),
    };
    let indices: Box<dyn Iterator<Item = u64>> = match opts.only {
        Some(i) => Box::new(std::iter::once(i)),
        None => Box::new(0..opts.inputs),
    };
    CAUGHT.with(|c| *c.borrow_mut() = Some(None));
    let mut last_progress = Instant::now();
    for index in indices {
        if opts.progress && report.inputs % 1024 == 0 && last_progress.elapsed() >= Duration::from_secs(10) {
            last_progress = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "  {name}: {} of {} inputs ({:.0}%) in {secs:.0} s, {:.0} inputs/s, {} failure(s)",
                report.inputs,
                opts.inputs,
                report.inputs as f64 * 100.0 / opts.inputs.max(1) as f64,
                report.inputs as f64 / secs,
                report.failures.len()
            );
        }
        let mut g = Gen::new(opts.seed, index);
        report.inputs += 1;
        let caught = || {
            let msg = CAUGHT.with(|c| c.borrow_mut().as_mut().and_then(Option::take));
            format!("panic: {}", msg.unwrap_or_default())
        };
        let (shown, problem) = match catch_unwind(AssertUnwindSafe(|| target.generate(&mut g))) {
            Err(_) => ("(while generating)".to_string(), caught()),
            Ok(input) => match catch_unwind(AssertUnwindSafe(|| target.check(&input))) {
                Ok(Ok(class)) => {
                    *report.classes.entry(class).or_default() += 1;
                    continue;
                }
                Ok(Err(problem)) => (format!("{input:?}"), problem),
                Err(_) => (format!("{input:?}"), caught()),
            },
        };
        *report.classes.entry("FAILURE".into()).or_default() += 1;
        report.failures.push(Failure {
            target: name.to_string(),
            seed: opts.seed,
            index,
            input: shown,
            problem,
        });
        if report.failures.len() >= opts.max_failures {
            break;
        }
    }
    CAUGHT.with(|c| *c.borrow_mut() = None);
    report.elapsed = start.elapsed();
    report
}

// ---------------------------------------------------------------------
// The generator and the mutations
// ---------------------------------------------------------------------

/// A seeded generator for one input: the crate's own portable `GameRng`.
pub struct Gen(GameRng);

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Gen {
    pub fn new(seed: u64, index: u64) -> Gen {
        Gen(GameRng::seeded(splitmix(seed ^ splitmix(index))))
    }
    /// `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.0.below(n.min(u32::MAX as usize) as u32) as usize
        }
    }
    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub fn i64(&mut self) -> i64 {
        self.0.between(i64::MIN, i64::MAX)
    }
}

/// Numbers at the edges of every integer type, and a few that are not integers.
pub const BOUNDARY_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "7",
    "255",
    "256",
    "999",
    "1000",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9007199254740991",
    "9007199254740992",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211455",
    "340282366920938463463374607431768211456",
    "1e308",
    "1e309",
    "-1e309",
    "0.5",
    "1.0",
    "NaN",
    "inf",
    "0x10",
    "+5",
    "05",
    "٣",
    "５",
];

/// Characters that break naive text handling.
const ODD_CHARS: &[char] = &[
    '"', ':', '\\', ' ', '\t', '\n', '\r', '\0', '\u{a0}', '\u{3000}', '\u{200b}', '\u{202e}', '\u{feff}', 'é', 'ß',
    'İ', 'ǅ', 'Σ', '🚀', '\u{fffd}', '\u{301}', '#', '@', '/', ',', '=', '+', '-', '{', '}', '[', ']', '0', '9', '`',
    '*', '<', '>', '\'',
];

/// Odd words: empty, whitespace only, very long, mixed scripts.
fn odd_word(g: &mut Gen) -> String {
    match g.below(12) {
        0 => String::new(),
        1 => " ".into(),
        2 => "\u{3000}".into(),
        3 => "a".repeat(1 + g.below(20_000)),
        4 => "🚀".repeat(1 + g.below(3_000)),
        5 => "Ωmega\u{301}".into(),
        6 => "\u{202e}evil".into(),
        7 => "İSTANBUL".into(),
        8 => "\"\"".into(),
        9 => "a:b:c".into(),
        10 => "@".into(),
        _ => g.pick(BOUNDARY_NUMBERS).to_string(),
    }
}

/// A random token: a boundary number, an odd word, or one of `dict`.
fn token(g: &mut Gen, dict: &[String]) -> String {
    match g.below(4) {
        0 => g.pick(BOUNDARY_NUMBERS).to_string(),
        1 => odd_word(g),
        _ if !dict.is_empty() => g.pick(dict).clone(),
        _ => odd_word(g),
    }
}

/// The longest mutated text, in characters (or twice the text mutated,
/// for long texts such as stored states): several times what Discord lets
/// anyone send (6,000 characters in all a command's options, 4,000 in a
/// message), so every length limit is crossed, without repeated
/// repetitions growing an input to gigabytes.
pub const MAX_TEXT_CHARS: usize = 60_000;

/// Byte and token mutations of `text`: deletions, duplications, splices
/// from `donors`, inserted tokens from `dict`, odd characters, truncation,
/// repetition (very long inputs, up to [`MAX_TEXT_CHARS`]), case flips.
/// One to four of them, or (rarely) a burst of sixteen.
pub fn mutate_text(g: &mut Gen, text: &str, dict: &[String], donors: &[String]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let limit = MAX_TEXT_CHARS.max(2 * chars.len());
    let n = if g.one_in(20) { 16 } else { 1 + g.below(4) };
    for _ in 0..n {
        let len = chars.len();
        let at = g.below(len + 1);
        let span = |g: &mut Gen| {
            let most = if g.one_in(4) { len.max(1) } else { 8 };
            1 + g.below(most)
        };
        match g.below(11) {
            0 if len > 0 => {
                let end = (at + span(g)).min(len);
                chars.drain(at..end);
            }
            1 if len > 0 => {
                let at = at.min(len - 1);
                let end = (at + span(g)).min(len);
                let piece: Vec<char> = chars[at..end].to_vec();
                chars.splice(end..end, piece);
            }
            2 => {
                let t: Vec<char> = token(g, dict).chars().collect();
                chars.splice(at..at, t);
            }
            3 if !donors.is_empty() => {
                let d: Vec<char> = g.pick(donors).chars().collect();
                if !d.is_empty() {
                    let from = g.below(d.len());
                    let to = (from + 1 + g.below(40)).min(d.len());
                    chars.splice(at..at, d[from..to].iter().copied());
                }
            }
            4 if len > 0 => {
                let at = at.min(len - 1);
                chars[at] = *g.pick(ODD_CHARS);
            }
            5 => chars.insert(at, *g.pick(ODD_CHARS)),
            6 => {
                // Replace a whitespace-separated word.
                let s: String = chars.iter().collect();
                let words: Vec<&str> = s.split(' ').collect();
                let i = g.below(words.len());
                let t = token(g, dict);
                let out: Vec<String> = words
                    .iter()
                    .enumerate()
                    .map(|(j, w)| if j == i { t.clone() } else { w.to_string() })
                    .collect();
                chars = out.join(" ").chars().collect();
            }
            7 => chars.truncate(at),
            8 if len > 0 => {
                let at = at.min(len - 1);
                let end = (at + span(g)).min(len);
                let piece: Vec<char> = chars[at..end].to_vec();
                let times = if g.one_in(3) { 1000 } else { 2 + g.below(10) };
                let times = times.min(limit.saturating_sub(len) / piece.len()).max(1);
                let rep: Vec<char> = std::iter::repeat_n(piece, times).flatten().collect();
                chars.splice(end..end, rep);
            }
            9 if len > 0 => {
                let at = at.min(len - 1);
                let end = (at + span(g)).min(len);
                for c in &mut chars[at..end] {
                    *c = if c.is_uppercase() {
                        c.to_lowercase().next().unwrap_or(*c)
                    } else {
                        c.to_uppercase().next().unwrap_or(*c)
                    };
                }
            }
            _ => {
                // Random bytes, read as a transport would (lossy UTF-8).
                let bytes: Vec<u8> = (0..1 + g.below(12)).map(|_| g.below(256) as u8).collect();
                chars.splice(at..at, String::from_utf8_lossy(&bytes).chars());
            }
        }
        chars.truncate(limit);
    }
    chars.into_iter().collect()
}

/// The first few words of a message, without the parts that vary
/// (quoted values, numbers), as an outcome class.
fn class_of(prefix: &str, msg: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in msg.chars() {
        match c {
            '`' => in_code = !in_code,
            _ if in_code => {}
            c if c.is_ascii_digit() => {}
            c => out.push(c),
        }
    }
    let words: Vec<&str> = out
        .split(|c: char| c.is_whitespace() || c == ':' || c == ',' || c == '.')
        .filter(|w| !w.is_empty())
        .take(4)
        .collect();
    format!("{prefix}:{}", words.join(" ").to_lowercase())
}

fn nonempty(what: &str, msg: &str) -> Result<(), String> {
    if msg.trim().is_empty() {
        Err(format!("{what} has an empty message"))
    } else {
        Ok(())
    }
}

// ---------------------------------------------------------------------
// Played games: mid-game states, their legal orders, their events
// ---------------------------------------------------------------------

/// A game played by random legal orders: states along the way and every event.
struct Played {
    snapshots: Vec<AnyState>,
    events: Vec<AnyEvent>,
}

/// Play `kind` with `players` from `seed`, random legal orders, keeping a
/// snapshot at the given step numbers (and the last state).
fn play(kind: GameKind, players: u8, seed: u64, keep: &[usize], max_steps: usize) -> Result<Played, String> {
    let setup = kind
        .setup(&GameConfig::new(players, seed))
        .map_err(|e| format!("{kind:?} set-up: {e}"))?;
    let mut state = kind.fold(&setup).map_err(|e| e.to_string())?;
    let mut events = setup;
    let mut snapshots = Vec::new();
    let mut g = Gen::new(seed, u64::from(players));
    for step in 0..=max_steps {
        if keep.contains(&step) {
            snapshots.push(state.clone());
        }
        if state.outcome().is_some() || step == max_steps {
            break;
        }
        let pending = state.pending();
        let Some(p) = pending.iter().find(|p| !p.submitted) else {
            break;
        };
        let legal = state.legal_commands(p.seat);
        if legal.is_empty() {
            break;
        }
        let line = g.pick(&legal).clone();
        let new = state
            .decide(p.seat, &line)
            .map_err(|e| format!("{kind:?} seed {seed}: the legal order `{line}` was refused: {e}"))?;
        for e in &new {
            state.apply(e).map_err(|e| e.to_string())?;
        }
        events.extend(new);
    }
    snapshots.push(state);
    Ok(Played { snapshots, events })
}

const KEEP: &[usize] = &[0, 1, 3, 8, 20, 50, 120, 300, 700];

fn names_for(players: usize) -> Vec<String> {
    ["alice", "Bob the Bold", "carol", "dave", "Ève", "frank", "gus", "hal"]
        .iter()
        .take(players)
        .map(|s| s.to_string())
        .collect()
}

/// Every `word` of `line` (name, keys, values, value parts split on `/`).
fn words_of(line: &CommandLine, into: &mut Vec<String>) {
    into.push(line.name.clone());
    for (k, v) in &line.args {
        into.push(k.clone());
        into.push(v.clone());
        if v.contains('/') {
            into.extend(v.split('/').map(str::to_string));
        }
    }
}

fn dedup(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    v
}

// ---------------------------------------------------------------------
// Target: CommandLine::parse
// ---------------------------------------------------------------------

struct CommandTarget {
    corpus: Vec<String>,
    dict: Vec<String>,
}

impl CommandTarget {
    fn new() -> Self {
        let mut corpus: Vec<String> = vec![
            "depart from:Algol ships:5".into(),
            "card name:\"Gravity Well\"".into(),
            "Depart from:Algol ships:5 note:\"two words\"".into(),
            "end".into(),
            "play card:espionage player:\"Bob the Bold\"".into(),
            "power kill:@Carol/tank/mars".into(),
            "move from:earth to:mars ships:1".into(),
            "x a:\"\" b:c:d".into(),
        ];
        let mut dict = Vec::new();
        for &kind in GameKind::ALL {
            for spec in kind.commands() {
                let mut line = spec.name.to_string();
                dict.push(spec.name.to_string());
                for p in &spec.params {
                    dict.push(p.name.to_string());
                    dict.push(format!("{}:", p.name));
                    line.push_str(&format!(
                        " {}:{}",
                        p.name,
                        p.description.split(' ').next().unwrap_or("x")
                    ));
                }
                corpus.push(line);
            }
        }
        CommandTarget {
            corpus,
            dict: dedup(dict),
        }
    }
}

impl Fuzz for CommandTarget {
    type Input = String;
    fn generate(&self, g: &mut Gen) -> String {
        let base = g.pick(&self.corpus);
        mutate_text(g, base, &self.dict, &self.corpus)
    }
    fn check(&self, text: &String) -> Result<String, String> {
        check_command_text(text).map(|c| c.0)
    }
}

/// The properties of `CommandLine::parse` on `text`: an error says what is
/// wrong (and how to write an order); a line parses again from its own
/// rendering to the same line; its helpers answer without panicking and
/// their errors name the option.
fn check_command_text(text: &str) -> Result<(String, Option<CommandLine>), String> {
    match CommandLine::parse(text) {
        Err(e) => {
            nonempty("a parse error", &e.message)?;
            nonempty("a parse error's usage", &e.usage)?;
            Ok((class_of("parse-error", &e.message), None))
        }
        Ok(line) => {
            check_line_round_trip(&line)?;
            for (k, _) in &line.args {
                match line.number(k, "usage") {
                    Ok(n) => {
                        let raw = line.get(k).unwrap_or_default();
                        if raw.trim().parse::<u32>() != Ok(n) {
                            return Err(format!("`{k}:{raw}` read as the number {n}"));
                        }
                    }
                    Err(e) => {
                        if !e.message.contains(k.as_str()) {
                            return Err(format!("the number error `{}` does not name `{k}`", e.message));
                        }
                    }
                }
            }
            if let Err(e) = line.only(&[], "usage") {
                if !line.args.iter().any(|(k, _)| e.message.contains(k.as_str())) {
                    return Err(format!("`only` refused without naming the option: {}", e.message));
                }
            }
            Ok(("ok".into(), Some(line)))
        }
    }
}

/// A parsed line renders to text that parses to the same line (the
/// buttons of a prompt carry orders as this text).
fn check_line_round_trip(line: &CommandLine) -> Result<(), String> {
    let shown = line.to_string();
    match CommandLine::parse(&shown) {
        Ok(again) if &again == line => Ok(()),
        Ok(again) => Err(format!("`{shown}` parses to {again:?}, not {line:?}")),
        Err(e) => Err(format!("{line:?} renders as `{shown}`, which does not parse: {e}")),
    }
}

// ---------------------------------------------------------------------
// Targets: a game's orders through the generic path
// ---------------------------------------------------------------------

struct Position {
    state: AnyState,
    /// A copy, to check that deciding changed nothing.
    pristine: AnyState,
    names: Vec<String>,
    pending: Vec<Seat>,
    legal: Vec<(Seat, Vec<CommandLine>)>,
}

struct OrderTarget {
    kind: GameKind,
    positions: Vec<Position>,
    /// Names, keys and values of the legal orders and the command specs.
    vocab: Vec<String>,
    keys: Vec<String>,
    names: Vec<String>,
    lines: Vec<String>,
}

impl OrderTarget {
    fn new(kind: GameKind) -> Result<Self, String> {
        let mut positions = Vec::new();
        let mut vocab = Vec::new();
        let mut keys = Vec::new();
        let mut names = Vec::new();
        let mut lines = Vec::new();
        for spec in kind.commands() {
            names.push(spec.name.to_string());
            for p in &spec.params {
                keys.push(p.name.to_string());
            }
        }
        let counts = kind.player_counts();
        for seed in 1..=3u64 {
            for players in [*counts.start(), *counts.end()] {
                let played = play(kind, players, seed * 101 + u64::from(players), KEEP, 1500)?;
                for state in played.snapshots {
                    let pending = waiting_seats(&state.pending());
                    let mut legal = Vec::new();
                    for seat in 0..players {
                        let seat = Seat(seat);
                        let l = state.legal_commands(seat);
                        // Every legal order is accepted, and its text reads back as itself.
                        for line in l.iter().take(150) {
                            check_line_round_trip(line).map_err(|e| format!("{kind:?}: a legal order: {e}"))?;
                            state
                                .decide(seat, line)
                                .map_err(|e| format!("{kind:?}: the legal order `{line}` of {seat} is refused: {e}"))?;
                            words_of(line, &mut vocab);
                            lines.push(line.to_string());
                        }
                        if !l.is_empty() {
                            legal.push((seat, l));
                        }
                    }
                    let names = names_for(usize::from(players));
                    vocab.extend(names.iter().cloned());
                    vocab.extend(names.iter().map(|n| format!("@{n}")));
                    positions.push(Position {
                        pristine: state.clone(),
                        state,
                        names,
                        pending,
                        legal,
                    });
                }
            }
        }
        Ok(OrderTarget {
            kind,
            positions,
            vocab: dedup(vocab),
            keys: dedup(keys),
            names: dedup(names),
            lines: dedup(lines),
        })
    }

    fn mutate_line(&self, g: &mut Gen, mut line: CommandLine, pos: &Position) -> CommandLine {
        for _ in 0..1 + g.below(3) {
            let n = line.args.len();
            match g.below(9) {
                0 | 1 if n > 0 => {
                    let i = g.below(n);
                    line.args[i].1 = match g.below(6) {
                        0 => g.pick(BOUNDARY_NUMBERS).to_string(),
                        1 => odd_word(g),
                        2 => g.pick(&pos.names).clone(),
                        3 => {
                            let v = line.args[i].1.clone();
                            mutate_text(g, &v, &self.vocab, &self.lines)
                        }
                        _ => g.pick(&self.vocab).clone(),
                    };
                }
                2 if n > 0 => {
                    line.args.remove(g.below(n));
                }
                3 if n > 0 => {
                    let a = line.args[g.below(n)].clone();
                    line.args.push(a);
                }
                4 => {
                    let k = if g.one_in(3) {
                        odd_word(g)
                    } else {
                        g.pick(&self.keys).clone()
                    };
                    let v = token(g, &self.vocab);
                    line.args.push((k, v));
                }
                5 if n > 0 => {
                    let i = g.below(n);
                    line.args[i].0 = g.pick(&self.keys).clone();
                }
                6 => {
                    line.name = if g.one_in(4) {
                        odd_word(g)
                    } else {
                        g.pick(&self.names).clone()
                    };
                }
                7 if n > 1 => {
                    let (a, b) = (g.below(n), g.below(n));
                    line.args.swap(a, b);
                }
                _ => {}
            }
        }
        line
    }
}

/// An order as a transport delivers it: typed options (Discord) or a line
/// of text (the terminal).
#[derive(Debug)]
enum Written {
    Line(CommandLine),
    Text(String),
}

#[derive(Debug)]
struct OrderInput {
    position: usize,
    seat: Seat,
    order: Written,
}

impl Fuzz for OrderTarget {
    type Input = OrderInput;
    fn generate(&self, g: &mut Gen) -> OrderInput {
        let position = g.below(self.positions.len());
        let pos = &self.positions[position];
        let players = pos.names.len() as u8;
        let seat = match g.below(10) {
            0 => Seat(g.below(players as usize) as u8),
            1 => Seat(players + g.below(256 - players as usize) as u8),
            _ if !pos.pending.is_empty() => *g.pick(&pos.pending),
            _ => Seat(g.below(players as usize) as u8),
        };
        let own = pos.legal.iter().find(|(s, _)| *s == seat).map(|(_, l)| l);
        let base = match own {
            Some(l) if !g.one_in(8) => g.pick(l).clone(),
            _ if !pos.legal.is_empty() && !g.one_in(4) => {
                let (_, l) = g.pick(&pos.legal);
                g.pick(l).clone()
            }
            _ => {
                let mut line = CommandLine::new(g.pick(&self.names).clone());
                for _ in 0..g.below(4) {
                    line.args
                        .push((g.pick(&self.keys).clone(), g.pick(&self.vocab).clone()));
                }
                line
            }
        };
        // Some orders as given (legal ones must pass), the rest mutated.
        let line = if g.one_in(10) {
            base
        } else {
            self.mutate_line(g, base, pos)
        };
        let order = if g.one_in(3) {
            let text = line.to_string();
            Written::Text(if g.one_in(4) {
                text
            } else {
                mutate_text(g, &text, &self.vocab, &self.lines)
            })
        } else {
            Written::Line(line)
        };
        OrderInput { position, seat, order }
    }

    fn check(&self, input: &OrderInput) -> Result<String, String> {
        let pos = &self.positions[input.position];
        let line = match &input.order {
            Written::Line(l) => l.clone(),
            Written::Text(t) => match check_command_text(t)? {
                (class, None) => return Ok(class),
                (_, Some(l)) => l,
            },
        };
        // The service reads players' names first, as it does for every order.
        let line = match players_as_seats(self.kind, &line, &pos.names) {
            Ok(l) => l,
            Err(why) => {
                nonempty("an unknown player", &why)?;
                if !why.contains("no player called") {
                    return Err(format!("an unknown player is refused with: {why}"));
                }
                return Ok("unknown-player".into());
            }
        };
        let result = pos.state.decide(input.seat, &line);
        if pos.state != pos.pristine {
            return Err("deciding changed the state".into());
        }
        let pending = pos.state.pending();
        match result {
            Err(ActionError::Parse(e)) => {
                nonempty("a parse error", &e.message)?;
                nonempty("a parse error's usage", &e.usage)?;
                Ok(format!(
                    "parse-error:{}",
                    line.name.chars().take(20).collect::<String>()
                ))
            }
            Err(ActionError::Rejected(Rejection::GameOver)) => {
                if pos.state.outcome().is_none() {
                    return Err("`the game is over` while it is not".into());
                }
                Ok("game-over".into())
            }
            Err(ActionError::Rejected(Rejection::NotYourDecision { seat, waiting })) => {
                if pending.iter().any(|p| p.seat == seat) {
                    return Err(format!(
                        "{seat} is told nothing is asked of it, but it owes {pending:?}"
                    ));
                }
                if waiting != waiting_seats(&pending) {
                    return Err(format!(
                        "the waiting seats {waiting:?} are not the pending ones {pending:?}"
                    ));
                }
                Ok("not-your-decision".into())
            }
            Err(ActionError::Rejected(Rejection::Illegal { reason, .. })) => {
                nonempty("a rejection", &reason)?;
                Ok(format!("illegal:{}", line.name))
            }
            Ok(events) => {
                if !pending.iter().any(|p| p.seat == input.seat) && !pos.state.any_time(&line) {
                    return Err(format!("{} owes nothing, yet its order was accepted", input.seat));
                }
                let mut after = pos.state.clone();
                for e in &events {
                    after
                        .apply(e)
                        .map_err(|e| format!("an accepted order's event does not apply: {e}"))?;
                    let stored = codec::encode(e).map_err(|e| format!("an event does not encode: {e}"))?;
                    let back = codec::decode(stored.version, &stored.json)
                        .map_err(|why| format!("an event does not decode: {why}"))?;
                    if &back != e {
                        return Err(format!("an event changes through the store: {e:?} -> {back:?}"));
                    }
                }
                let stored = codec::encode_state(&after).map_err(|e| format!("the state does not encode: {e}"))?;
                if codec::decode_state(GameId(1), &stored).as_ref() != Some(&after) {
                    return Err("the state after the order does not read back as itself".into());
                }
                let _ = after.phase();
                for p in after.pending() {
                    let _ = after.legal_commands(p.seat);
                }
                Ok(format!("accepted:{}", line.name))
            }
        }
    }
}

// ---------------------------------------------------------------------
// Target: the /game and /host grammar
// ---------------------------------------------------------------------

/// Values of each kind of option as people write them.
/// The largest whole number Discord carries exactly: a boundary to try.
const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

fn sample_text(kind: OptionKind) -> &'static [&'static str] {
    match kind {
        OptionKind::Game => &["3", "#3", "0", "-1"],
        OptionKind::System => &[
            "hyperspace",
            "starlanes",
            "solar",
            "spectrum",
            "empires",
            "Hyperspace",
            " solar ",
        ],
        OptionKind::Seat => &["2", "1", "alice", "@bob", "0", "-3", "257", "Bob the Bold"],
        OptionKind::Phase | OptionKind::Seed | OptionKind::Line => &["2", "0", "1", "999", "1000"],
        OptionKind::GameOptions => &[
            "rounds:10",
            "map:random rounds:3",
            "round_limit:30 auto_losses:true",
            "auto_combat:on rules:basic",
            "rounds:500",
            "mines:false",
            "rounds:",
            "map:\"fixed\"",
        ],
        OptionKind::Section => &["Combat", "setup", ""],
        OptionKind::Duration => &["12h", "30m", "2d", "1w", "1d12h", "0m", "48H", " 1 h "],
        OptionKind::Points => &["24h,2h", "off", "none", "1h", "12h,1h,30m", ",", "0h"],
        OptionKind::KindDeadlines => &[
            "combat-card=2h,losses=12h",
            "default",
            "off",
            "turn=default",
            "turn:1d",
            "=",
            "a=b",
        ],
        OptionKind::TimeOfDay => &[
            "18:00",
            "18:00+02:00",
            "07:30-05:00",
            "off",
            "18:00 UTC",
            "23:59Z",
            "24:00",
        ],
        OptionKind::Missed => &["default", "wait", "Wait"],
        OptionKind::Pick => &["red", "Blue", " violet ", "grey", "purple", ""],
        OptionKind::Private => &["dms", "thread", "threads", "DMs", " thread "],
        OptionKind::Level => &["easy", "Normal", " hard ", "medium"],
        OptionKind::Flag => &["true", "false", "on", "off", "yes", "no"],
        OptionKind::Player => &["@dave", "dave", "@", "Bob the Bold"],
    }
}

fn all_samples() -> Vec<String> {
    let mut v = Vec::new();
    for sub in grammar::SUBCOMMANDS.iter().chain(std::iter::once(&grammar::MYGAMES)) {
        v.push(sub.name.to_string());
        for o in sub.options {
            v.push(o.name.to_string());
            v.extend(sample_text(o.kind).iter().map(|s| s.to_string()));
        }
    }
    dedup(v)
}

struct GrammarTarget {
    dict: Vec<String>,
}

impl GrammarTarget {
    fn new() -> Self {
        GrammarTarget { dict: all_samples() }
    }
}

#[derive(Debug)]
enum Given {
    /// Typed values, as Discord delivers them.
    Typed(Vec<(String, OptionValue)>),
    /// `key:value` text, as the terminal reads it.
    Text(Vec<(String, String)>),
}

#[derive(Debug)]
struct GrammarInput {
    top: Top,
    sub: String,
    given: Given,
}

fn text_value(g: &mut Gen, kind: OptionKind, dict: &[String]) -> String {
    let base = g.pick(sample_text(kind)).to_string();
    if g.one_in(3) {
        base
    } else if g.one_in(5) {
        token(g, dict)
    } else {
        mutate_text(g, &base, dict, dict)
    }
}

fn typed_value(g: &mut Gen, kind: OptionKind, dict: &[String]) -> OptionValue {
    // Mostly the option's own wire type, sometimes another.
    let wire = if g.one_in(8) {
        *g.pick(&[Wire::Text, Wire::Integer, Wire::Boolean, Wire::User])
    } else {
        kind.wire()
    };
    match wire {
        Wire::Text => OptionValue::Text(text_value(g, kind, dict)),
        Wire::Integer => OptionValue::Integer(match g.below(4) {
            0 => g.i64(),
            1 => *g.pick(&[
                0,
                -1,
                1,
                i64::MIN,
                i64::MAX,
                // The most Discord carries exactly, and just past it.
                MAX_SAFE_INTEGER,
                MAX_SAFE_INTEGER + 1,
                -MAX_SAFE_INTEGER - 1,
                999,
                1000,
                u32::MAX as i64,
            ]),
            _ => g.below(1000) as i64 - 10,
        }),
        Wire::Boolean => OptionValue::Boolean(g.one_in(2)),
        Wire::User => OptionValue::User {
            id: UserId(g.below(10) as u64),
            name: text_value(g, OptionKind::Player, dict),
        },
    }
}

impl Fuzz for GrammarTarget {
    type Input = GrammarInput;
    fn generate(&self, g: &mut Gen) -> GrammarInput {
        let cmd = g.pick(grammar::SUBCOMMANDS);
        let top = if g.one_in(10) {
            *g.pick(&Top::ALL)
        } else {
            cmd.top.unwrap_or(Top::Game)
        };
        let sub = if g.one_in(12) {
            mutate_text(g, cmd.name, &self.dict, &self.dict)
        } else {
            cmd.name.to_string()
        };
        let mut names: Vec<(String, OptionKind)> = Vec::new();
        for o in cmd.options {
            if o.required || !g.one_in(2) {
                names.push((o.name.to_string(), o.kind));
            }
        }
        if g.one_in(8) && !names.is_empty() {
            names.remove(g.below(names.len()));
        }
        if g.one_in(8) && !names.is_empty() {
            let dup = g.pick(&names).clone();
            names.push(dup);
        }
        if g.one_in(8) {
            let other = g.pick(grammar::SUBCOMMANDS);
            if let Some(o) = other.options.first() {
                names.push((o.name.to_string(), o.kind));
            } else {
                names.push((token(g, &self.dict), OptionKind::Duration));
            }
        }
        let given = if g.one_in(2) {
            Given::Typed(
                names
                    .iter()
                    .map(|(n, k)| (n.clone(), typed_value(g, *k, &self.dict)))
                    .collect(),
            )
        } else {
            Given::Text(
                names
                    .iter()
                    .map(|(n, k)| (n.clone(), text_value(g, *k, &self.dict)))
                    .collect(),
            )
        };
        GrammarInput { top, sub, given }
    }

    fn check(&self, input: &GrammarInput) -> Result<String, String> {
        let user = |name: &str| UserId(name.len() as u64);
        let (values, names): (Vec<(String, OptionValue)>, Vec<&str>) = match &input.given {
            Given::Typed(v) => (v.clone(), v.iter().map(|(n, _)| n.as_str()).collect()),
            Given::Text(args) => {
                let names = args.iter().map(|(n, _)| n.as_str()).collect();
                match grammar::subcommand(input.top, &input.sub) {
                    None => (vec![], names),
                    Some(cmd) => match grammar::read_text(cmd, args, &user) {
                        Ok(v) => (v, names),
                        Err(why) => {
                            nonempty("a value the terminal cannot read", &why)?;
                            if !args.iter().any(|(n, _)| why.contains(n.as_str())) {
                                return Err(format!("`{why}` does not name the option"));
                            }
                            return Ok(class_of("unreadable", &why));
                        }
                    },
                }
            }
        };
        match grammar::parse_command(input.top, &input.sub, &values) {
            Err(why) => {
                nonempty("a refused command", &why)?;
                let cmd = grammar::subcommand(input.top, &input.sub);
                let written = |v: &OptionValue| match v {
                    OptionValue::Text(t) => !t.trim().is_empty() && why.contains(t.trim()),
                    _ => false,
                };
                let named = names.iter().any(|n| why.contains(n))
                    || values.iter().any(|(_, v)| written(v))
                    || why.contains(&format!("/{} {}", input.top.name(), input.sub.trim()))
                    || why.contains(input.sub.as_str())
                    || cmd.is_some_and(|c| c.options.iter().any(|o| why.contains(o.name)));
                if !named {
                    return Err(format!("`{why}` names neither the command nor an option"));
                }
                Ok(class_of("refused", &why))
            }
            Ok(request) => {
                check_request(&request)?;
                Ok(format!("ok:{}", variant(&request)))
            }
        }
    }
}

fn variant(r: &Request) -> String {
    let s = format!("{r:?}");
    s.split([' ', '{', '(']).next().unwrap_or_default().to_string()
}

/// What a request the grammar accepted must satisfy.
fn check_request(r: &Request) -> Result<(), String> {
    match r {
        Request::Settings { change, .. } => {
            if let Some(ms) = change.deadline_ms {
                check_duration(ms)?;
            }
            for ms in change.reminders_ms.iter().flatten() {
                check_duration(*ms)?;
            }
            for (kind, ms) in &change.deadline_by_kind {
                if kind.is_empty() {
                    return Err(format!("a per-decision deadline without a kind: {change:?}"));
                }
                if let Some(ms) = ms {
                    check_duration(*ms)?;
                }
            }
            if let Some(Some(t)) = change.time_of_day {
                if !(0..1440).contains(&t.minute) || t.offset_minutes.abs() > 14 * 60 {
                    return Err(format!("a time of day out of range: {t:?}"));
                }
                let again = TimeOfDay::parse(&t.to_string()).map_err(|e| format!("`{t}` does not read back: {e}"))?;
                if again != t {
                    return Err(format!("`{t}` reads back as {again:?}, not {t:?}"));
                }
            }
            Ok(())
        }
        Request::Extend { by_ms, .. } => check_duration(*by_ms),
        Request::Rollback { phase, .. } | Request::History { phase: Some(phase), .. } => {
            if (*phase as i64) < 0 {
                return Err(format!("phase {phase} is not a phase number"));
            }
            Ok(())
        }
        Request::Order { line, .. } => {
            if line.get("game").is_some() {
                return Err(format!("the order `{line}` still carries its `game` option"));
            }
            check_line_round_trip(line)
        }
        Request::New {
            kind, options: Some(o), ..
        } => {
            let Some(map) = o.as_object() else {
                return Err(format!("options are not an object: {o}"));
            };
            for (key, value) in map {
                let Some(declared) = kind.options().iter().find(|o| o.key == key) else {
                    return Err(format!("`{key}` is not an option of {kind:?}"));
                };
                if declared.check(value).is_err() {
                    return Err(format!("`{key}:{value}` does not fit {kind:?}"));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A duration the grammar read: not negative, and written back the way
/// messages show it, it reads as itself (whole minutes).
fn check_duration(ms: i64) -> Result<(), String> {
    if ms < 0 {
        return Err(format!("a negative duration: {ms} ms"));
    }
    if ms > 0 && ms % 60_000 == 0 {
        let shown = format_duration(ms);
        if parse_duration(&shown) != Ok(ms) {
            return Err(format!(
                "{ms} ms is shown as `{shown}`, which reads as {:?}",
                parse_duration(&shown)
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// Target: the terminal's slash lines
// ---------------------------------------------------------------------

struct TerminalTarget {
    corpus: Vec<String>,
    dict: Vec<String>,
}

impl TerminalTarget {
    fn new() -> Self {
        let mut corpus: Vec<String> = vec![
            "/game new game:hyperspace".into(),
            "/game new game:starlanes options:\"rounds:12 map:random\" seed:3".into(),
            "/game join game:4".into(),
            "/hyperspace depart from:Algol ships:5 game:2".into(),
            "/host replace seat:2 player:@dave".into(),
            "/host disorder seat:1 on:true game:3".into(),
            "/host settings auto_resolve:false time_of_day:18:00+02:00 decision_deadlines:combat-card=2h".into(),
            "/game reminders points:12h,1h".into(),
            "/host extend by:12h".into(),
            "/host rollback phase:4".into(),
            "/mygames".into(),
            "/sheet remove line:2".into(),
            "/solar play card:espionage player:\"Bob the Bold\"".into(),
        ];
        for sub in grammar::SUBCOMMANDS {
            let mut line = sub.path();
            for o in sub.options {
                line.push_str(&format!(" {}:{}", o.name, sample_text(o.kind)[0]));
            }
            corpus.push(line);
        }
        for &kind in GameKind::ALL {
            for spec in kind.commands() {
                let mut line = format!("/{} {}", kind.key(), spec.name);
                for p in &spec.params {
                    line.push_str(&format!(" {}:{}", p.name, if p.required { "1" } else { "x" }));
                }
                corpus.push(line);
            }
        }
        let mut dict = all_samples();
        dict.extend(["/game", "/host", "/mygames", "/hyperspace", "game:", "game:#2"].map(String::from));
        TerminalTarget {
            corpus,
            dict: dedup(dict),
        }
    }
}

impl Fuzz for TerminalTarget {
    type Input = String;
    fn generate(&self, g: &mut Gen) -> String {
        let base = g.pick(&self.corpus);
        mutate_text(g, base, &self.dict, &self.corpus)
    }
    fn check(&self, text: &String) -> Result<String, String> {
        let user = |name: &str| UserId(name.len() as u64);
        match orrery::service::slash::parse_slash(text, &user) {
            Err(why) => {
                nonempty("a refused line", &why)?;
                Ok(class_of("refused", &why))
            }
            Ok(request) => {
                check_request(&request)?;
                Ok(format!("ok:{}", variant(&request)))
            }
        }
    }
}

// ---------------------------------------------------------------------
// Target: rules scenario files
// ---------------------------------------------------------------------

struct ScenarioTarget {
    files: Vec<(String, String)>,
    lines: Vec<String>,
}

impl ScenarioTarget {
    fn new() -> Result<Self, String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
        let mut files = Vec::new();
        for game in std::fs::read_dir(&root).map_err(|e| format!("{}: {e}", root.display()))? {
            let game = game.map_err(|e| e.to_string())?.path();
            let Ok(entries) = std::fs::read_dir(&game) else {
                continue;
            };
            for f in entries {
                let f = f.map_err(|e| e.to_string())?.path();
                if f.extension().is_some_and(|e| e == "scn") {
                    let text = std::fs::read_to_string(&f).map_err(|e| e.to_string())?;
                    let name = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
                    files.push((name, text));
                }
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(format!("no scenarios under {}", root.display()));
        }
        let lines = dedup(
            files
                .iter()
                .flat_map(|(_, t)| t.lines().map(str::to_string))
                .filter(|l| l.len() < 400)
                .collect(),
        );
        Ok(ScenarioTarget { files, lines })
    }
}

#[derive(Debug)]
struct ScenarioInput {
    file: String,
    text: String,
}

impl Fuzz for ScenarioTarget {
    type Input = ScenarioInput;
    fn generate(&self, g: &mut Gen) -> ScenarioInput {
        let (file, text) = g.pick(&self.files);
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for _ in 0..1 + g.below(3) {
            let n = lines.len();
            let i = g.below(n.max(1));
            match g.below(7) {
                0 if n > 0 => {
                    lines.remove(i);
                }
                1 if n > 0 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                2 if n > 1 => {
                    let j = g.below(n);
                    lines.swap(i, j);
                }
                3 => lines.insert(i.min(n), g.pick(&self.lines).clone()),
                4 => lines.truncate(i),
                _ if n > 0 => {
                    let dict: Vec<String> = Vec::new();
                    lines[i] = mutate_text(g, &lines[i], &dict, &self.lines);
                }
                _ => {}
            }
        }
        let text = if g.one_in(50) {
            let joined = lines.join("\n");
            mutate_text(g, &joined, &[], &self.lines)
        } else {
            lines.join("\n")
        };
        ScenarioInput {
            file: file.clone(),
            text,
        }
    }

    fn check(&self, input: &ScenarioInput) -> Result<String, String> {
        match orrery::scenario::run_text(&input.text) {
            Ok(()) => Ok("passes".into()),
            Err(f) => {
                nonempty("a scenario failure", &f.message)?;
                let lines = input.text.lines().count();
                if f.line > lines {
                    return Err(format!("the failure is on line {}, of {lines}", f.line));
                }
                Ok(class_of("fails", &f.message))
            }
        }
    }
}

// ---------------------------------------------------------------------
// Targets: stored event JSON and cached states
// ---------------------------------------------------------------------

/// A JSON token: where it is in the text and what it is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Str,
    Num,
    Lit,
    Open,
    Close,
    Colon,
    Comma,
}

fn lex(json: &str) -> Vec<(Tok, usize, usize)> {
    let b = json.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok = match c {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                Tok::Str
            }
            b'-' | b'0'..=b'9' => {
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    i += 1;
                }
                Tok::Num
            }
            b't' | b'f' | b'n' => {
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                Tok::Lit
            }
            b'{' | b'[' => {
                i += 1;
                Tok::Open
            }
            b'}' | b']' => {
                i += 1;
                Tok::Close
            }
            b':' => {
                i += 1;
                Tok::Colon
            }
            b',' => {
                i += 1;
                Tok::Comma
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.push((tok, start, i.min(b.len())));
    }
    out
}

/// The end of the value starting at token `t` (its closing bracket for
/// an object or array).
fn value_end(toks: &[(Tok, usize, usize)], t: usize) -> usize {
    if toks[t].0 != Tok::Open {
        return toks[t].2;
    }
    let mut depth = 0usize;
    for &(k, _, end) in &toks[t..] {
        match k {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    return end;
                }
            }
            _ => {}
        }
    }
    toks.last().map_or(0, |t| t.2)
}

const JSON_VALUES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-1",
    "[]",
    "{}",
    "\"\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"🚀\"",
    "[null]",
    "{\"type\":null}",
    "1.5",
    "1e400",
];

/// A stored document: its text and its tokens (lexed once).
struct Doc {
    json: String,
    toks: Vec<(Tok, usize, usize)>,
}

impl Doc {
    fn new(json: String) -> Doc {
        let toks = lex(&json);
        Doc { json, toks }
    }
}

/// Structure-aware mutations of a JSON document: numbers set to boundary
/// values, strings to other strings (of the document, odd, very long),
/// values of one type replaced by another, a value or a `"key": value`
/// member deleted or duplicated, deep nesting; and, sometimes, plain text
/// mutations on top.
fn mutate_json(g: &mut Gen, doc: &Doc, strings: &[String]) -> String {
    let toks = &doc.toks;
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for _ in 0..1 + g.below(3) {
        if toks.is_empty() {
            break;
        }
        let t = g.below(toks.len());
        let (kind, start, end) = toks[t];
        let edit = match (g.below(8), kind) {
            (0 | 1, Tok::Num) => (start, end, g.pick(BOUNDARY_NUMBERS).to_string()),
            (0 | 1, Tok::Str) => {
                let s = match g.below(4) {
                    0 => format!("{:?}", odd_word(g)),
                    1 => format!("\"{}\"", g.pick(BOUNDARY_NUMBERS)),
                    _ => g.pick(strings).clone(),
                };
                (start, end, s)
            }
            (2, Tok::Str | Tok::Num | Tok::Lit | Tok::Open) => {
                (start, value_end(toks, t), g.pick(JSON_VALUES).to_string())
            }
            (3, Tok::Open) => {
                // Duplicate the value (as the next element).
                let end = value_end(toks, t);
                let piece = doc.json[start..end].to_string();
                (end, end, format!(",{piece}"))
            }
            (4, Tok::Str) if toks.get(t + 1).is_some_and(|n| n.0 == Tok::Colon) && t + 2 < toks.len() => {
                // Delete a member, with its comma.
                let mut end = value_end(toks, t + 2);
                if doc.json[end..].starts_with(',') {
                    end += 1;
                }
                (start, end, String::new())
            }
            (5, Tok::Open | Tok::Str | Tok::Num) => {
                let depth = *g.pick(&[1, 2, 10, 127, 128, 129, 1000, 100_000]);
                let end = value_end(toks, t);
                let inner = &doc.json[start..end];
                (start, end, format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth)))
            }
            (6, Tok::Str) if toks.get(t + 1).is_some_and(|n| n.0 == Tok::Colon) => {
                // A member added next to this one, with an existing key (a duplicate) or a new one.
                let key = if g.one_in(2) {
                    doc.json[start..end].to_string()
                } else {
                    g.pick(strings).clone()
                };
                (start, start, format!("{key}:{},", g.pick(JSON_VALUES)))
            }
            _ => (start, end, doc.json[start..end].to_string()),
        };
        edits.push(edit);
    }
    // Apply from the back, skipping edits that overlap one applied.
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut json = doc.json.clone();
    let mut limit = usize::MAX;
    for (start, end, with) in edits {
        if end > limit || start > end {
            continue;
        }
        json.replace_range(start..end, &with);
        limit = start;
    }
    if g.one_in(6) {
        json = mutate_text(g, &json, strings, &[]);
    }
    json
}

fn strings_of(docs: &[Doc]) -> Vec<String> {
    let mut v = Vec::new();
    for d in docs {
        for &(k, s, e) in &d.toks {
            if k == Tok::Str && e - s < 60 {
                v.push(d.json[s..e].to_string());
            }
        }
    }
    dedup(v)
}

/// Games of every kind, played a while.
fn played_games() -> Result<Vec<Played>, String> {
    let mut out = Vec::new();
    for &kind in GameKind::ALL {
        for seed in 1..=2u64 {
            let players = *kind.player_counts().end();
            out.push(play(kind, players, seed * 7, &[5, 40, 200, 900], 2000)?);
        }
    }
    Ok(out)
}

struct EventTarget {
    docs: Vec<Doc>,
    strings: Vec<String>,
}

impl EventTarget {
    fn new() -> Result<Self, String> {
        let mut events: Vec<AnyEvent> = played_games()?.into_iter().flat_map(|p| p.events).collect();
        for (to_seq, why) in [
            (0, Rewind::Undo),
            (5, Rewind::Phase { phase: 2 }),
            (i64::MAX, Rewind::Phase { phase: u32::MAX }),
        ] {
            events.push(AnyEvent::Platform(PlatformEvent::RolledBack { to_seq, why, undone: 3 }));
        }
        let mut jsons = Vec::new();
        for e in &events {
            jsons.push(codec::encode(e).map_err(|e| e.to_string())?.json);
        }
        let docs: Vec<Doc> = dedup(jsons).into_iter().map(Doc::new).collect();
        let strings = strings_of(&docs);
        Ok(EventTarget { docs, strings })
    }
}

#[derive(Debug)]
struct Row {
    version: i64,
    json: String,
}

impl Fuzz for EventTarget {
    type Input = Row;
    fn generate(&self, g: &mut Gen) -> Row {
        let doc = g.pick(&self.docs);
        let version = if g.one_in(10) {
            *g.pick(&[0, -1, 2, 3, i64::MAX, i64::MIN, codec::FIRST_VERSION - 1])
        } else {
            codec::EVENT_VERSION
        };
        let json = if g.one_in(20) {
            doc.json.clone()
        } else {
            mutate_json(g, doc, &self.strings)
        };
        Row { version, json }
    }

    fn check(&self, row: &Row) -> Result<String, String> {
        match codec::decode(row.version, &row.json) {
            Err(why) => {
                nonempty("a refused event row", &why)?;
                let outside = row.version < codec::FIRST_VERSION || row.version > codec::EVENT_VERSION;
                if outside && !why.contains("version") {
                    return Err(format!("version {} is refused without saying so: {why}", row.version));
                }
                Ok(class_of("refused", &why))
            }
            Ok(event) => {
                if row.version < codec::FIRST_VERSION || row.version > codec::EVENT_VERSION {
                    return Err(format!("a row of version {} was read", row.version));
                }
                let again = codec::encode(&event).map_err(|e| format!("a read event does not encode: {e}"))?;
                let back = codec::decode(again.version, &again.json)
                    .map_err(|why| format!("a read event does not read back: {why}"))?;
                if back != event {
                    return Err(format!("{event:?} reads back as {back:?}"));
                }
                let value = serde_json::to_value(&event).map_err(|e| e.to_string())?;
                let ty = value["event"]["type"].as_str().unwrap_or("?").to_string();
                Ok(format!("read:{}:{ty}", event.key()))
            }
        }
    }
}

struct StateTarget {
    docs: Vec<Doc>,
    strings: Vec<String>,
}

impl StateTarget {
    fn new() -> Result<Self, String> {
        let mut jsons = Vec::new();
        for p in played_games()? {
            for s in &p.snapshots {
                jsons.push(codec::encode_state(s).map_err(|e| e.to_string())?);
            }
        }
        let docs: Vec<Doc> = dedup(jsons).into_iter().map(Doc::new).collect();
        let strings = strings_of(&docs);
        Ok(StateTarget { docs, strings })
    }
}

impl Fuzz for StateTarget {
    type Input = String;
    fn generate(&self, g: &mut Gen) -> String {
        let doc = g.pick(&self.docs);
        if g.one_in(20) {
            doc.json.clone()
        } else {
            mutate_json(g, doc, &self.strings)
        }
    }

    fn check(&self, json: &String) -> Result<String, String> {
        match codec::decode_state(GameId(1), json) {
            None => Ok("refolded".into()),
            Some(state) => {
                let again = codec::encode_state(&state).map_err(|e| format!("a read state does not encode: {e}"))?;
                if codec::decode_state(GameId(1), &again).as_ref() != Some(&state) {
                    return Err("a read state does not read back as itself".into());
                }
                Ok(format!("read:{}", state.kind().key()))
            }
        }
    }
}
