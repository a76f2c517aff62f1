//! How strong the computer player is (issue 31): whole games of each system
//! between one computer player and opponents that play uniformly random
//! legal orders, or the deadline's defaults (what a seat in civil disorder
//! plays), played on the rules engine alone.
//!
//! ```sh
//! cargo run --release --example strength -- --game all --players 2 --games 100
//! cargo run --release --example strength -- --game starlanes --players 4 --opponent random
//! cargo run --release --example strength -- --game solar --level random   # the first seat's baseline
//! ```
//!
//! The computer player sits in the first seat, as with `orrery play GAME
//! --auto --bots 1`: game `i` is set up with seed `--seed + i`, and every
//! order is drawn as that command draws it (a generator seeded from the
//! game's seed, the log's length and the seat; forced orders played as the
//! service plays them), so `orrery play GAME --players 2 --auto --bots 1
//! --seed S` replays one game of a `--opponent random` run. `--level
//! random` puts a random player in the first seat instead: the first
//! seat's own advantage, to read the computer player's figures against.
//!
//! Prints, per game system and opponent: games, wins of the first seat
//! (shared victories count as a share), games everyone lost, games not
//! finished within `--max-decisions`, the mean margin (the first seat's
//! final count minus the best other seat's: VP, points or planets, as the
//! game's standings say), and the computer player's milliseconds per
//! decision (median and 99th percentile; decisions with one legal order
//! are not timed, they take no thinking). `--verbose` prints each game's
//! result; `STRENGTH_TRACE=1` in the environment prints every order.

mod support;

use clap::Parser;
use orrery::engine::bot::Effort;
use orrery::engine::{GameConfig, GameRng, Outcome, Seat};
use orrery::games::{AnyState, GameKind};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "Measure the computer player against random and default players")]
struct Args {
    /// A game key, a comma-separated list, or `all`.
    #[arg(long, default_value = "all")]
    game: String,
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The first game's seed; game `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `random`, `default` or `both`.
    #[arg(long, default_value = "both")]
    opponent: String,
    /// The first seat's player: easy, normal, hard, or random.
    #[arg(long, default_value = "normal")]
    level: String,
    /// Worker threads (games are played in parallel).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// A game still going after this many decisions counts as unfinished.
    #[arg(long, default_value_t = 20_000)]
    max_decisions: usize,
    /// Print every game's seed, result and standings.
    #[arg(long)]
    verbose: bool,
    /// Append every timed decision's milliseconds (one a line, with the
    /// game and opponent) to this file, so that a pairing measured in
    /// several runs can be summed up whole: its median and p99 are not
    /// the runs' own.
    #[arg(long)]
    times: Option<std::path::PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opponent {
    Random,
    Default,
}

impl Opponent {
    fn name(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::Default => "default",
        }
    }
}

/// One finished (or abandoned) game.
struct Played {
    /// The first seat's share of the victory (1, 1/k of a shared one, 0).
    won: f64,
    all_lost: bool,
    finished: bool,
    /// First seat's count minus the best other seat's, when the standings
    /// give counts.
    margin: Option<i64>,
    /// The computer player's thinking times.
    thinking: Vec<Duration>,
    decisions: usize,
    seed: u64,
    /// The result, as the game says it, and the standings.
    summary: String,
}

/// The leading number of a standing ("12 VP", "3 planets").
fn count(standing: &str) -> Option<i64> {
    let digits: String = standing.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The order generator of `orrery play --auto` for this decision.
fn order_rng(seed: u64, seq: u64, seat: Seat) -> GameRng {
    GameRng::seeded(seed ^ seq.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seat.0 as u64)
}

fn play(kind: GameKind, players: u8, seed: u64, first: Option<Effort>, opponent: Opponent, max: usize) -> Played {
    let events = kind.setup(&GameConfig::new(players, seed)).expect("set-up");
    let mut seq = events.len() as u64;
    let mut state: AnyState = kind.fold(&events).expect("fold");
    let mut thinking = Vec::new();
    let mut decisions = 0;
    while state.outcome().is_none() && decisions < max {
        let pending = state.pending();
        let owing: Vec<_> = pending.iter().filter(|p| !p.submitted).collect();
        // Forced orders first, for whoever owes them (as the service does).
        let forced = owing
            .iter()
            .find_map(|p| state.forced_command(p.seat).map(|(line, _)| (p.seat, line)));
        let (seat, line) = match forced {
            Some(f) => f,
            None => {
                let Some(p) = owing.first() else { break };
                let mut rng = order_rng(seed, seq, p.seat);
                let line = if p.seat == Seat(0) {
                    match first {
                        Some(effort) => {
                            let legal = state.legal_commands(p.seat).len();
                            let start = Instant::now();
                            let line = state.bot_order(p.seat, effort, &mut rng);
                            if legal > 1 {
                                thinking.push(start.elapsed());
                            }
                            line
                        }
                        None => rng.pick(&state.legal_commands(p.seat)).cloned(),
                    }
                } else {
                    match opponent {
                        Opponent::Random => rng.pick(&state.legal_commands(p.seat)).cloned(),
                        Opponent::Default => state.default_command(p.seat),
                    }
                };
                let Some(line) = line else { break };
                (p.seat, line)
            }
        };
        if std::env::var_os("STRENGTH_TRACE").is_some() {
            println!("{seq} seat {}: {line}", seat.0 + 1);
        }
        let events = match state.decide(seat, &line) {
            Ok(e) => e,
            Err(e) => panic!("{kind} seed {seed}: a chosen order was refused: {line}: {e}"),
        };
        for e in &events {
            state.apply(e).expect("apply");
        }
        seq += events.len() as u64;
        decisions += 1;
    }
    let outcome = state.outcome();
    let won = match &outcome {
        Some(Outcome::Winner { seat, .. }) => f64::from(u8::from(*seat == Seat(0))),
        Some(Outcome::Shared { seats, .. }) if seats.contains(&Seat(0)) => 1.0 / seats.len() as f64,
        _ => 0.0,
    };
    let standings = state.standings();
    let mine = standings
        .iter()
        .find(|(s, _)| *s == Seat(0))
        .and_then(|(_, t)| count(t));
    let best_other = standings
        .iter()
        .filter(|(s, _)| *s != Seat(0))
        .filter_map(|(_, t)| count(t))
        .max();
    let summary = format!(
        "{} events, {} — {}",
        seq,
        outcome.as_ref().map_or("unfinished", |o| o.reason()),
        standings
            .iter()
            .map(|(s, t)| format!("seat {}: {t}", s.0 + 1))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Played {
        seed,
        summary,
        won,
        all_lost: matches!(outcome, Some(Outcome::AllLose { .. })),
        finished: outcome.is_some(),
        margin: mine.zip(best_other).map(|(a, b)| a - b),
        thinking,
        decisions,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let kinds = support::kinds(&args.game)?;
    let first = match args.level.as_str() {
        "random" => None,
        word => Some(Effort::named(word).ok_or_else(|| anyhow::anyhow!("--level: easy, normal, hard or random"))?),
    };
    let opponents = match args.opponent.as_str() {
        "random" => vec![Opponent::Random],
        "default" => vec![Opponent::Default],
        "both" => vec![Opponent::Random, Opponent::Default],
        _ => anyhow::bail!("--opponent: random, default or both"),
    };
    println!(
        "First seat: {} · {} players · {} games per pairing from seed {} · {} threads",
        args.level, args.players, args.games, args.seed, args.threads
    );
    println!("| game | opponent | games | first seat wins | everyone lost | unfinished | mean margin | ms/decision median | p99 | decisions timed | s |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for kind in kinds {
        if !kind.player_counts().contains(&args.players) {
            println!(
                "| {} | — | {} is for {:?} players |",
                kind.name(),
                kind.name(),
                kind.player_counts()
            );
            continue;
        }
        for &opponent in &opponents {
            let start = Instant::now();
            let results = support::in_parallel(args.games, args.threads, |i| {
                play(
                    kind,
                    args.players,
                    args.seed + i as u64,
                    first,
                    opponent,
                    args.max_decisions,
                )
            });
            if args.verbose {
                for r in &results {
                    println!("seed {}: first seat {} — {}", r.seed, r.won, r.summary);
                }
            }
            let n = results.len();
            let wins: f64 = results.iter().map(|r| r.won).sum();
            let all_lost = results.iter().filter(|r| r.all_lost).count();
            let unfinished = results.iter().filter(|r| !r.finished).count();
            let margins: Vec<i64> = results.iter().filter_map(|r| r.margin).collect();
            let margin = if margins.is_empty() {
                "—".to_string()
            } else {
                format!("{:+.1}", margins.iter().sum::<i64>() as f64 / margins.len() as f64)
            };
            let mut times: Vec<Duration> = results.iter().flat_map(|r| r.thinking.iter().copied()).collect();
            if let Some(path) = &args.times {
                use std::io::Write;
                let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
                for t in &times {
                    writeln!(
                        file,
                        "{} {} {:.3}",
                        kind.key(),
                        opponent.name(),
                        t.as_secs_f64() * 1000.0
                    )?;
                }
            }
            times.sort_unstable();
            let decisions: usize = results.iter().map(|r| r.decisions).sum();
            println!(
                "| {} | {} | {n} | {wins} ({:.0}%) | {all_lost} | {unfinished} | {margin} | {:.2} | {:.2} | {} of {decisions} | {:.0} |",
                kind.name(),
                opponent.name(),
                100.0 * wins / n.max(1) as f64,
                percentile(&times, 0.5),
                percentile(&times, 0.99),
                times.len(),
                start.elapsed().as_secs_f64(),
            );
        }
    }
    Ok(())
}
