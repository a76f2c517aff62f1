//! The board picture's tests: every text legible in a chat column
//! ([`SMALL`], 27 px, or more: 9 px at 550 px wide), no two
//! texts overlapping, everything on the canvas, for 2 to 6 players from
//! the start to the end of a war; ships only on a seat's own board, each
//! in a counter in its own column, dark ones dashed. Set SPECTRUM_PNG_DIR
//! to keep the PNGs.

use super::super::basics::ships::{Class, Ship};
use super::super::orders::Action;
use super::super::state::{Faction, State};
use super::super::view::{view, View};
use super::super::Spectrum;
use super::*;
use orrery_engine::{GameConfig, GameRng, Outcome, Ruleset, Viewer};
use orrery_render::{render_png, text_box, Item, Text};

/// A text's box: x, y, width, height.
type Rect = (f32, f32, f32, f32);

fn names(n: u8) -> Vec<String> {
    [
        "Alice",
        "Bob",
        "Carol the Very Long-Named Admiral",
        "Dmitri",
        "Eve",
        "Fred",
    ]
    .iter()
    .take(usize::from(n))
    .map(|s| s.to_string())
    .collect()
}

fn texts(sc: &Scene) -> Vec<&Text> {
    sc.items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn has_text(sc: &Scene, needle: &str) -> bool {
    texts(sc).iter().any(|t| t.text.contains(needle))
}

fn start(players: u8, seed: u64) -> State {
    let events = Spectrum::setup(&GameConfig::new(players, seed)).expect("set-up");
    let mut s = Spectrum::empty();
    for e in &events {
        Spectrum::apply(&mut s, e);
    }
    s
}

/// One random legal step (lines written more often than sheets readied
/// back); false when the war is over or nobody owes anything.
fn step(s: &mut State, rng: &mut GameRng) -> bool {
    if s.outcome.is_some() {
        return false;
    }
    let pending = Spectrum::pending(s);
    let owing: Vec<_> = pending.iter().filter(|p| !p.submitted).collect();
    let Some(p) = rng.pick(&owing) else {
        return false;
    };
    let seat = p.seat;
    let legal: Vec<Action> = Spectrum::legal_actions(s, seat)
        .into_iter()
        .filter(|a| matches!(a, Action::Add(_)))
        .collect();
    let a = match rng.pick(&legal) {
        Some(a) if rng.below(3) > 0 => a.clone(),
        _ => match Spectrum::default_action(s, seat) {
            Some(a) => a,
            None => return false,
        },
    };
    let events = Spectrum::decide(s, seat, &a).expect("a legal action");
    for e in &events {
        Spectrum::apply(s, e);
    }
    true
}

fn play_until(s: &mut State, rng: &mut GameRng, stop: impl Fn(&State) -> bool) {
    for _ in 0..40_000 {
        if stop(s) || !step(s, rng) {
            return;
        }
    }
}

/// The start, turn 3, a late turn and the end of a war.
fn positions(players: u8, seed: u64) -> Vec<(&'static str, State)> {
    let mut out = Vec::new();
    let mut s = start(players, seed);
    out.push(("start", s.clone()));
    let mut rng = GameRng::seeded(seed ^ 0x5BEC);
    play_until(&mut s, &mut rng, |s| s.turn >= 3);
    out.push(("turn3", s.clone()));
    play_until(&mut s, &mut rng, |s| s.turn >= 10);
    out.push(("late", s.clone()));
    play_until(&mut s, &mut rng, |_| false);
    out.push(("over", s));
    out
}

fn png_out(sc: &Scene, name: &str) {
    let png = render_png(sc).expect("renders");
    assert_eq!(&png[1..4], b"PNG");
    assert!(png.len() < 1_500_000, "{name}: {} bytes", png.len());
    crate::shared::testing::write_debug_png("SPECTRUM_PNG_DIR", name, &png);
}

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 + 1.0 < b.0 + b.2 && b.0 + 1.0 < a.0 + a.2 && a.1 + 1.0 < b.1 + b.3 && b.1 + 1.0 < a.1 + a.3
}

/// The counter rectangles drawn.
fn counter_rects(sc: &Scene) -> Vec<Rect> {
    sc.items
        .iter()
        .filter_map(|i| match i {
            Item::Rect { x, y, w, h, .. }
                if *h == COUNTER_H && (*w == COUNTER_W || *w == 2.0 * COUNTER_W + SLOT_GAP) =>
            {
                Some((*x, *y, *w, *h))
            }
            _ => None,
        })
        .collect()
}

/// Size, legible texts on the canvas and apart, every planet and player
/// named, and the ships' counters where their ships are.
fn check(v: &View, sc: &Scene, names: &[String], label: &str) {
    assert_eq!((sc.width, sc.height), (WIDTH, HEIGHT), "{label}");
    let (wd, ht) = (WIDTH as f32, HEIGHT as f32);
    for t in texts(sc) {
        assert!(t.size >= SMALL, "{label}: {:?} is {} px", t.text, t.size);
        let (x, y, w, h) = text_box(t);
        assert!(
            x >= 0.0 && y >= 0.0 && x + w <= wd && y + h <= ht,
            "{label}: {:?} off the canvas at {x},{y} {w}x{h}",
            t.text
        );
    }
    let boxes: Vec<(&str, Rect)> = texts(sc).iter().map(|t| (t.text.as_str(), text_box(t))).collect();
    for (i, (a, ra)) in boxes.iter().enumerate() {
        for (b, rb) in boxes.iter().skip(i + 1) {
            assert!(!overlaps(*ra, *rb), "{label}: {a:?} {ra:?} overlaps {b:?} {rb:?}");
        }
    }
    for item in &sc.items {
        let pts: Vec<(f32, f32)> = match item {
            Item::Rect { x, y, w, h, .. } => vec![(*x, *y), (x + w, y + h)],
            Item::Circle { cx, cy, r, .. } => vec![(cx - r, cy - r), (cx + r, cy + r)],
            Item::Polygon { points, .. } | Item::Line { points, .. } => points.clone(),
            _ => Vec::new(),
        };
        for (x, y) in pts {
            assert!(
                (-0.5..=wd + 0.5).contains(&x) && (-0.5..=ht + 0.5).contains(&y),
                "{label}: a shape off the canvas at {x},{y}"
            );
        }
    }
    for p in &v.planets {
        assert!(
            texts(sc).iter().any(|t| t.text == p.name),
            "{label}: planet {} not named",
            p.name
        );
    }
    for i in 0..v.players.len() {
        let n = name_of(names, Seat(i as u8));
        let short: String = n.chars().take(4).collect();
        assert!(has_text(sc, &short), "{label}: player {n} not named");
    }
    // Counters: one per player's ships on a space (or a "+N"), each in its
    // ship's column, none over another, and every ship counted once.
    let cs = counters(v);
    let rects = counter_rects(sc);
    assert_eq!(rects.len(), cs.len(), "{label}: counters drawn");
    let lay = layout();
    for (i, c) in cs.iter().enumerate() {
        let centre = (c.at.0 + c.w / 2.0, c.at.1 + COUNTER_H / 2.0);
        assert_eq!(
            lay.pixel_to_hex(centre),
            c.space.col,
            "{label}: counter {c:?} outside its column"
        );
        let r = (c.at.0, c.at.1, c.w, COUNTER_H);
        assert!(rects.contains(&r), "{label}: counter {c:?} not drawn");
        for d in cs.iter().skip(i + 1) {
            assert!(
                !overlaps(r, (d.at.0, d.at.1, d.w, COUNTER_H)),
                "{label}: counters {c:?} and {d:?} overlap"
            );
        }
    }
    let counted: usize = cs.iter().map(|c| c.count).sum();
    assert_eq!(counted, v.ships.len(), "{label}: every ship seen counted once");
}

/// The viewer's own ships: every one in a counter of its own (dark ones in
/// a dark counter, drawn dashed) unless its space is crowded.
fn check_own_ships(v: &View, sc: &Scene, label: &str) {
    let own = v.own.as_ref().expect("a seat's view");
    let cs = counters(v);
    for s in v.ships.iter().filter(|s| s.owner == own.seat) {
        let c = cs
            .iter()
            .find(|c| c.space == s.at && c.owner == Some(own.seat) && c.dark == s.dark)
            .unwrap_or_else(|| panic!("{label}: no counter for {}", s.id));
        if s.dark {
            let dashed_there = sc
                .items
                .iter()
                .any(|i| matches!(i, Item::Line { points, dashed: true, .. } if points.first() == Some(&c.at)));
            assert!(dashed_there, "{label}: dark {} not dashed", s.id);
        }
    }
}

#[test]
fn every_player_count_and_depth_fits_the_canvas_and_renders() {
    for players in 2..=6u8 {
        let names = names(players);
        for seed in [1u64, 5] {
            for (depth, s) in positions(players, seed) {
                let viewers = std::iter::once(Viewer::Public).chain(Seat::all(players as usize).map(Viewer::Seat));
                for viewer in viewers {
                    let v = view(&s, viewer);
                    let sc = scene(&v, &names);
                    let label = format!("{players}p seed {seed} {depth} {viewer:?}");
                    check(&v, &sc, &names, &label);
                    if v.own.is_some() {
                        check_own_ships(&v, &sc, &label);
                    }
                    if seed == 1 && matches!(viewer, Viewer::Public | Viewer::Seat(Seat(0))) {
                        let who = if viewer == Viewer::Public { "public" } else { "seat0" };
                        png_out(&sc, &format!("spectrum_{players}p_{depth}_{who}"));
                    }
                }
            }
        }
    }
}

#[test]
fn the_public_board_draws_no_ship_and_a_seat_sees_its_own() {
    let mut seen_own = 0;
    for players in [2u8, 4, 6] {
        let names = names(players);
        for (depth, s) in positions(players, 9) {
            let public = view(&s, Viewer::Public);
            let sc = scene(&public, &names);
            assert!(counters(&public).is_empty());
            assert!(
                counter_rects(&sc).is_empty(),
                "{players}p {depth}: ships on the public board"
            );
            assert!(has_text(&sc, "Public board"));
            assert!(!has_text(&sc, "Your points"));
            for seat in Seat::all(players as usize) {
                let v = view(&s, Viewer::Seat(seat));
                let sc = scene(&v, &names);
                let own = v.own.as_ref().expect("own");
                assert!(has_text(&sc, &format!("Your points: {}", own.points)));
                let mine = v.ships.iter().filter(|x| x.owner == seat).count();
                assert!(has_text(&sc, &format!("Your ships: {mine}")));
                if mine > 0 {
                    seen_own += 1;
                    let rects = counter_rects(&sc);
                    let c = counters(&v);
                    assert!(
                        c.iter()
                            .any(|c| c.owner == Some(seat) && rects.contains(&(c.at.0, c.at.1, c.w, COUNTER_H))),
                        "{players}p {depth}: {seat:?} has no counter for its ships"
                    );
                }
            }
        }
    }
    assert!(seen_own > 0, "no random war built a ship");
}

/// A late board with everything at once: dark ships, a crowded space,
/// charted jumps, sensors, runs, alliances, an empire, a winner.
#[test]
fn a_crowded_late_board_shows_everything_legibly() {
    let players = 6;
    let names = names(players);
    let mut s = start(players, 3);
    let mut rng = GameRng::seeded(77);
    play_until(&mut s, &mut rng, |s| s.turn >= 6);
    let mut v = view(&s, Viewer::Seat(Seat(0)));
    let me = Seat(0);
    let colour = v.players[0].colour;
    let home = v
        .planets
        .iter()
        .find(|p| p.owner == Some(me))
        .map(|p| p.space)
        .unwrap_or(v.planets[0].space);
    let above = Space::new(home.col, if home.level == 3 { 1 } else { 3 });
    let mut n = 90u8;
    let mut ship = |owner: Seat, class: Class, at: Space, dark: bool| {
        n -= 1;
        let c = v.players[owner.index()].colour;
        let mut x = Ship::new(super::super::basics::ShipId { colour: c, number: n }, owner, class, at);
        x.dark = dark;
        x
    };
    let mut extra = vec![
        ship(me, Class::Cruiser, home, false),
        ship(me, Class::Cruiser, home, false),
        ship(me, Class::Scout, home, true),
        ship(Seat(1), Class::Fighter, home, false),
        ship(Seat(2), Class::Fighter, home, false),
    ];
    for o in 0..6u8 {
        extra.push(ship(Seat(o), Class::Frigate, above, false));
    }
    for k in 0..30 {
        let p = &v.planets[k % v.planets.len()];
        extra.push(ship(me, Class::ALL[k % 7], p.space, k % 5 == 0));
    }
    let _ = colour;
    v.ships.extend(extra);
    let spaces: Vec<Space> = v.planets.iter().map(|p| p.space).collect();
    if let Some(own) = v.own.as_mut() {
        own.chart = vec![
            (spaces[3], spaces[20]),
            (above, spaces[30]),
            (spaces[30], Space::new(spaces[30].col, 1)),
        ];
        own.sensed = spaces.clone();
        own.points = 123;
        own.declared = Some(Faction {
            members: vec![me, Seat(1), Seat(2)],
            empire: true,
            run: 0,
        });
    }
    v.players[0].run = 2;
    v.players[3].out = true;
    v.alliances = vec![
        (Seat(0), Seat(1)),
        (Seat(0), Seat(2)),
        (Seat(3), Seat(4)),
        (Seat(2), Seat(5)),
    ];
    v.factions = vec![
        Faction {
            members: vec![Seat(0), Seat(1), Seat(2)],
            empire: true,
            run: 2,
        },
        Faction {
            members: vec![Seat(3), Seat(4)],
            empire: false,
            run: 1,
        },
    ];
    v.outcome = Some(Outcome::Winner {
        seat: me,
        reason: "held 25 or more planets at the beginning of three successive turns".into(),
    });
    let sc = scene(&v, &names);
    check(&v, &sc, &names, "crowded");
    check_own_ships(&v, &sc, "crowded");
    for t in [
        "Alice wins!",
        "25+ planets: 2 of 3 turns",
        "out of the war",
        "empire of Alice",
        "Your points: 123",
    ] {
        assert!(has_text(&sc, t), "{t} missing");
    }
    // Six players on one space: a "+N" counter for the ones that do not fit.
    assert!(counters(&v).iter().any(|c| c.owner.is_none() && c.space == above));
    assert!(has_text(&sc, "… and "), "the ship list says how many are left out");
    png_out(&sc, "spectrum_crowded");
    let public = {
        let mut p = view(&s, Viewer::Public);
        p.outcome = v.outcome.clone();
        p.factions = v.factions.clone();
        p
    };
    let sc = scene(&public, &names);
    check(&public, &sc, &names, "crowded public");
    for c in Colour::WHEEL {
        assert!(texts(&sc).iter().any(|t| t.text == c.name()), "the wheel names {c}");
    }
    png_out(&sc, "spectrum_crowded_public");
}

/// The wheel gives the viewer's income for every colour.
#[test]
fn the_wheel_shows_the_viewers_income() {
    let s = start(3, 2);
    for seat in Seat::all(3) {
        let v = view(&s, Viewer::Seat(seat));
        let sc = scene(&v, &names(3));
        let mine = v.players[seat.index()].colour;
        for c in Colour::WHEEL.iter().chain([&Colour::Gray]) {
            let income = c.income_for(mine).to_string();
            assert!(
                texts(&sc).iter().any(|t| t.text == income),
                "{seat:?}: income {income} for {c}"
            );
        }
        assert!(has_text(&sc, "Your income"));
    }
}

#[test]
fn a_resigned_player_is_marked_in_the_players_panel() {
    let mut s = start(3, 2);
    let names = names(3);
    assert!(!has_text(&scene(&view(&s, Viewer::Public), &names), "resigned"));
    for e in Spectrum::resign(&s, Seat(1)).expect("resign") {
        Spectrum::apply(&mut s, &e);
    }
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))] {
        let v = view(&s, viewer);
        assert!(v.players[1].resigned && v.players[1].out);
        let sc = scene(&v, &names);
        assert!(has_text(&sc, "resigned: left the war"), "{viewer:?}");
        check(&v, &sc, &names, "resigned");
    }
}
