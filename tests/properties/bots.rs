//! The computer player (`orrery_engine::bot`, issue 31) never cheats: with
//! its own generator fixed, its weighing of a seat's orders (and so its
//! order) is the same in two states that differ only in what that seat
//! cannot know (the scramble the non-interference property uses), in every
//! game. It holds because every game's scramble is canonical: the world it
//! draws depends on the generator and on what the kept seat knows, never
//! on the hidden values themselves. The property bites: a bot that plays
//! out the true state (`world = state.clone()` in `bot::appraise`) fails
//! it in all five games (Solar Crisis, Space Empires at the first position
//! checked, Spectrum War at the second, Hyperspace at its first card picked
//! by the other side, Starlanes in its eighth game, where a playout
//! reaches the deck).

use orrery::engine::bot::Effort;
use orrery::engine::{GameConfig, GameRng, Seat};
use orrery::games::{AnyState, GameKind};

/// Positions checked per game, at least.
const POSITIONS: usize = 200;

/// Positions checked in one game at most (so at least 8 games a game).
const PER_GAME: usize = 25;

#[test]
fn the_computer_player_decides_only_on_what_its_seat_knows() {
    // One thread per game: the games are independent.
    std::thread::scope(|scope| {
        for &kind in GameKind::ALL {
            scope.spawn(move || decides_only_on_what_its_seat_knows(kind));
        }
    });
}

/// The state as a whole, to tell whether a scramble changed anything.
fn whole(s: &AnyState) -> String {
    serde_json::to_string(s).expect("states serialize")
}

fn decides_only_on_what_its_seat_knows(kind: GameKind) {
    let effort = Effort {
        samples: 2,
        depth: 60,
        candidates: 4,
    };
    let started = std::time::Instant::now();
    // Games of 2 players and more (solitaire hides nothing from its one
    // seat), each count in turn.
    let counts: Vec<u8> = kind.player_counts().filter(|n| *n >= 2).collect();
    let mut checked = 0;
    let mut differed = 0;
    // Positions whose hidden state the scramble did change (else the
    // check would prove nothing).
    let mut changed = 0;
    let mut seed = 0u64;
    while checked < POSITIONS && seed < 400 {
        let players = counts[seed as usize % counts.len()];
        let mut config = GameConfig::new(players, seed);
        // Every other Space Empires game with every advanced and optional
        // rule (cloaked Raiders, aliens, Doomsday Machines; teams at 4).
        if kind == GameKind::Empires && seed % 2 == 1 {
            config.options = serde_json::json!({
                "rules": "advanced", "warp_points": true, "slingshot": true, "instant_upgrade": true,
                "research_gearing": true, "unpredictable_research": true, "teams": players == 4,
                "doomsday": true
            });
        }
        let events = kind.setup(&config).expect("set-up");
        let mut state = kind.fold(&events).expect("fold");
        let mut rng = GameRng::seeded(seed ^ 0xb07);
        // Positions spread over many games, some deep into them.
        let stride = 5 + 10 * (seed % 3) as u32;
        let mut here = 0;
        let mut step = 0u32;
        while state.outcome().is_none() && step < 1500 && here < PER_GAME && checked < POSITIONS {
            step += 1;
            let pending = state.pending();
            let Some(p) = pending.iter().find(|p| !p.submitted) else {
                break;
            };
            if state.legal_commands(p.seat).len() > 1 {
                if let Some(other) = state.scramble(&[p.seat], false, &mut rng) {
                    let hidden_changed = whole(&other) != whole(&state);
                    // Every `stride`th position, and one where the scramble
                    // changed something while such are under half of those
                    // checked (in Hyperspace only a battle's card picked by
                    // the other side is hidden).
                    if step % stride == 0 || (hidden_changed && changed * 2 < checked) {
                        check(kind, seed, step, &state, &other, p.seat, effort);
                        let public = orrery::engine::Viewer::Public;
                        differed += usize::from(other.view_json(public) != state.view_json(public));
                        changed += usize::from(hidden_changed);
                        checked += 1;
                        here += 1;
                    }
                }
            }
            let legal = state.legal_commands(p.seat);
            let line = rng.pick(&legal).expect("a legal order").clone();
            for e in state.decide(p.seat, &line).expect("legal") {
                state.apply(&e).expect("apply");
            }
        }
        seed += 1;
    }
    eprintln!(
        "{kind}: {checked} positions checked in {seed} games, {changed} with hidden state changed, \
         {differed} with a different public view (must be 0) ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
    assert!(checked >= POSITIONS, "{kind}: only {checked} positions");
    assert!(
        changed * 4 >= checked,
        "{kind}: the scramble seldom changed anything ({changed} of {checked})"
    );
    assert_eq!(differed, 0, "{kind}: the scramble changed what everybody sees");
}

/// The player's weighing of every order of `seat`, and its order, are the
/// same to the last bit in `state` and in `other`.
fn check(kind: GameKind, seed: u64, step: u32, state: &AnyState, other: &AnyState, seat: Seat, effort: Effort) {
    let own = |n: u32| GameRng::seeded(u64::from(step) * 7 + u64::from(n));
    let a = state.bot_appraisal(seat, effort, &mut own(0));
    let b = other.bot_appraisal(seat, effort, &mut own(0));
    assert_eq!(
        a, b,
        "{kind} seed {seed} step {step}: the weighing changed with hidden state"
    );
    assert_eq!(
        state.bot_order(seat, effort, &mut own(1)),
        other.bot_order(seat, effort, &mut own(1)),
        "{kind} seed {seed} step {step}: the choice changed with hidden state"
    );
}
