//! Which rules' events random play reaches and which the computer player
//! reaches (issue 31): for each game system, `--games` whole games with
//! every seat playing uniformly random legal orders, and as many with
//! every seat a computer player; the events of each kind are counted.
//!
//! ```sh
//! cargo run --release --example reach -- --game all --games 20 --level easy
//! ```
//!
//! Prints, per game, every kind of event either reached, with its count
//! under each policy and a mark where only one policy reached it, then
//! how many games each policy finished.

mod support;

use clap::Parser;
use orrery::engine::bot::Effort;
use orrery::engine::{GameConfig, GameRng};
use orrery::games::GameKind;
use std::collections::BTreeMap;

#[derive(Parser)]
#[command(about = "Count the events random play and the computer player reach")]
struct Args {
    /// A game key, a comma-separated list, or `all`.
    #[arg(long, default_value = "all")]
    game: String,
    /// Players per game (each game's fewest when absent).
    #[arg(long)]
    players: Option<u8>,
    /// Games per policy.
    #[arg(long, default_value_t = 20)]
    games: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The computer players' difficulty.
    #[arg(long, default_value = "easy")]
    level: String,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// A game still going after this many decisions is cut off.
    #[arg(long, default_value_t = 20_000)]
    max_decisions: usize,
}

/// One game: every seat the computer player (`Some`) or random (`None`).
/// The events' kinds counted, and whether it finished.
fn play(kind: GameKind, players: u8, seed: u64, bot: Option<Effort>, max: usize) -> (BTreeMap<String, usize>, bool) {
    let events = kind.setup(&GameConfig::new(players, seed)).expect("set-up");
    let mut counts = BTreeMap::new();
    for e in &events {
        *counts.entry(e.variant()).or_insert(0) += 1;
    }
    let mut state = kind.fold(&events).expect("fold");
    let mut rng = GameRng::seeded(seed ^ 0x0072_6561_6368);
    for _ in 0..max {
        if state.outcome().is_some() {
            break;
        }
        let pending = state.pending();
        let Some(p) = pending.iter().find(|p| !p.submitted) else {
            break;
        };
        let line = match bot {
            Some(effort) => state.bot_order(p.seat, effort, &mut rng),
            None => rng.pick(&state.legal_commands(p.seat)).cloned(),
        };
        let Some(line) = line else { break };
        let events = state.decide(p.seat, &line).expect("a chosen order is legal");
        for e in &events {
            *counts.entry(e.variant()).or_insert(0) += 1;
            state.apply(e).expect("apply");
        }
    }
    (counts, state.outcome().is_some())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let kinds = support::kinds(&args.game)?;
    let effort = Effort::named(&args.level).ok_or_else(|| anyhow::anyhow!("--level: easy, normal or hard"))?;
    for kind in kinds {
        let players = args.players.unwrap_or(*kind.player_counts().start());
        let mut columns = Vec::new();
        for bot in [None, Some(effort)] {
            let games = support::in_parallel(args.games, args.threads, |i| {
                play(kind, players, args.seed + i as u64, bot, args.max_decisions)
            });
            let mut total = (BTreeMap::<String, usize>::new(), 0usize);
            for (counts, finished) in games {
                for (k, n) in counts {
                    *total.0.entry(k).or_insert(0) += n;
                }
                total.1 += usize::from(finished);
            }
            columns.push(total);
        }
        println!(
            "\n{} ({players} players, {} games each; finished: random {}, computer ({}) {})",
            kind.name(),
            args.games,
            columns[0].1,
            args.level,
            columns[1].1
        );
        println!("| event | random | computer player | |");
        println!("|---|---|---|---|");
        let mut names: Vec<&String> = columns[0].0.keys().chain(columns[1].0.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let r = columns[0].0.get(name).copied().unwrap_or(0);
            let b = columns[1].0.get(name).copied().unwrap_or(0);
            let mark = match (r, b) {
                (0, _) => "computer player only",
                (_, 0) => "random only",
                _ => "",
            };
            println!("| {name} | {r} | {b} | {mark} |");
        }
    }
    Ok(())
}
