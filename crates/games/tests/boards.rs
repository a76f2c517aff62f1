//! Boards for a chat column: Discord shows an attached image about 550 px
//! wide until it is opened. The smallest text of every board of every
//! game, for the public and for each seat, along a whole game at its
//! largest player count, measured at that width (the scene's font sizes,
//! which are exact, scaled by 550 / the board's width) must be at least
//! 9 px, at every player count.
//!
//! One test per game: `cargo test -p orrery-games --test boards empires`.
//! With `ORRERY_BOARDS_DIR=/some/dir` each test also writes the board
//! with the smallest text and the last public board there as PNG, to look
//! at them.

// A test may read its environment and write the boards it measured; the
// games it measures stay pure (the crate's clippy.toml).
#![allow(clippy::disallowed_methods)]

use orrery_engine::{GameConfig, Seat, Viewer};
use orrery_games::{AnyState, GameKind};
use orrery_render::{Item, Scene};

/// The width Discord shows an image at in the chat column.
const CHAT_WIDTH: f32 = 550.0;
/// The smallest text a player can read there, in px: the goal.
const LEGIBLE: f32 = 9.0;

/// Games whose boards are below the goal yet, held to where they stand (a
/// ratchet: raise a floor when a board gets better, delete it at the goal).
/// None is left: every game's boards reach the goal.
const FLOOR: &[(&str, f32)] = &[];

/// The smallest text of `scene` once shown `CHAT_WIDTH` wide, and what it says.
fn smallest_text(scene: &Scene) -> Option<(f32, String)> {
    let scale = CHAT_WIDTH / scene.width as f32;
    scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) if !t.text.trim().is_empty() => Some((t.size * scale, t.text.clone())),
            Item::Legend {
                size, title, entries, ..
            } if !entries.is_empty() || !title.is_empty() => Some((size * scale, format!("legend {title}"))),
            _ => None,
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// A whole game of `kind` with `players` players and each game's
/// test player: every board seen along the way (public and each seat's),
/// sampled every few orders.
fn boards_of(kind: GameKind, players: u8, seed: u64) -> Vec<(String, Scene)> {
    let config = GameConfig::new(players, seed);
    let events = kind.setup(&config).expect("set-up");
    let mut state: AnyState = kind.fold(&events).expect("fold");
    let names: Vec<String> = (1..=players).map(|i| format!("Player {i}")).collect();
    let mut out = Vec::new();
    let mut n = 0;
    loop {
        if n % 7 == 0 || state.outcome().is_some() {
            out.push((
                format!("{} public after {n} orders, {players} players", kind.key()),
                state.scene(Viewer::Public, &names),
            ));
            for s in 0..players {
                let seat = Seat(s);
                out.push((
                    format!("{} seat {} after {n} orders, {players} players", kind.key(), s + 1),
                    state.scene(Viewer::Seat(seat), &names),
                ));
            }
        }
        if state.outcome().is_some() || n >= 400 {
            break;
        }
        let Some(p) = state.pending().into_iter().find(|p| !p.submitted) else {
            break;
        };
        let line = state.test_order(p.seat).expect("the test player has an order");
        for e in state.decide(p.seat, &line).expect("the test order is legal") {
            state.apply(&e).expect("applies");
        }
        n += 1;
    }
    out
}

/// Checks every board of `key` at every player count against the goal, and
/// prints where its smallest text is (and with `ORRERY_BOARDS_DIR` set,
/// writes the boards there).
fn check(key: &str) {
    let kind = *GameKind::ALL
        .iter()
        .find(|k| k.key() == key)
        .expect("a registered game");
    let boards: Vec<(String, Scene)> = kind
        .player_counts()
        .flat_map(|players| boards_of(kind, players, 5))
        .collect();
    let mut worst: Option<(f32, String, usize)> = None;
    for (i, (_, scene)) in boards.iter().enumerate() {
        if let Some((px, text)) = smallest_text(scene) {
            if worst.as_ref().is_none_or(|w| px < w.0) {
                worst = Some((px, text, i));
            }
        }
    }
    let (px, text, at) = worst.expect("a board with text");
    let (what, scene) = &boards[at];
    let report = format!(
        "{key}: smallest text {px:.1} px at {CHAT_WIDTH} px wide ({} px board; {what}: {text:?})",
        scene.width
    );
    eprintln!("{report}");
    if let Ok(dir) = std::env::var("ORRERY_BOARDS_DIR") {
        let dir = std::path::Path::new(&dir);
        std::fs::create_dir_all(dir).expect("ORRERY_BOARDS_DIR can be made");
        let last_public = boards
            .iter()
            .rev()
            .find(|(w, _)| w.contains("public"))
            .expect("a public board");
        for (name, scene) in [("smallest", scene), ("last-public", &last_public.1)] {
            let png = orrery_render::render_png(scene).expect("renders");
            std::fs::write(dir.join(format!("{key}-{name}.png")), png).expect("writes the board");
        }
    }
    let floor = FLOOR.iter().find(|(k, _)| *k == key).map_or(LEGIBLE, |(_, f)| *f);
    assert!(px >= floor, "{key}: {px:.1} px, under {floor} px\n{report}");
}

#[test]
fn every_game_is_listed_here() {
    let keys: Vec<&str> = GameKind::ALL.iter().map(|k| k.key()).collect();
    assert_eq!(keys.len(), 5, "a new game needs its own test below: {keys:?}");
    for (k, _) in FLOOR {
        assert!(keys.contains(k), "FLOOR names an unknown game {k}");
    }
}

#[test]
fn hyperspace() {
    check("hyperspace");
}

#[test]
fn starlanes() {
    check("starlanes");
}

#[test]
fn solar() {
    check("solar");
}

#[test]
fn spectrum() {
    check("spectrum");
}

#[test]
fn empires() {
    check("empires");
}
