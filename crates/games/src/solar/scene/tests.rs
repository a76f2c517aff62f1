//! The board picture's tests: every player count and depth fits and renders;
//! hands only on their holder's board. Set SOLAR_PNG_DIR to keep the PNGs.

use super::super::basics::board::{Phase, Planet};
use super::super::basics::tiles::AlienTile;
use super::super::events::{apply, Event};
use super::super::rules;
use super::super::state::{LossDemand, State};
use super::super::tests::kit::{board_with, start};
use super::super::view::{view, View};
use super::*;
use orrery_engine::GameRng;
use orrery_render::{render_png, text_box, Item, Text};

/// A text's box: x, y, width, height.
type Rect = (f32, f32, f32, f32);

fn names(n: u8) -> Vec<String> {
    ["Alice", "Bob", "Carol the Very Long-Named Admiral", "Dmitri", "Eve"]
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

fn find<'a>(sc: &'a Scene, exact: &str) -> Option<&'a Text> {
    texts(sc).into_iter().find(|t| t.text == exact)
}

/// One random legal step; false when the game is over or stuck.
fn step(s: &mut State, rng: &mut GameRng) -> bool {
    if s.is_over() {
        return false;
    }
    let pending = rules::pending(s);
    let Some(p) = pending.first() else {
        return false;
    };
    let legal = rules::legal_actions(s, p.seat);
    let a = match rng.pick(&legal) {
        Some(a) => a.clone(),
        None => match rules::default_action(s, p.seat) {
            Some(a) => a,
            None => return false,
        },
    };
    let events = rules::decide(s, p.seat, &a).expect("a legal action");
    for e in &events {
        apply(s, e);
    }
    true
}

/// Random play until `stop` holds (or the game ends); at most 20 000 steps.
fn play_until(s: &mut State, rng: &mut GameRng, stop: impl Fn(&State) -> bool) {
    for _ in 0..20_000 {
        if stop(s) || !step(s, rng) {
            return;
        }
    }
}

/// Positions at several depths: start, mid-period, crises, game over.
fn positions(players: u8, seed: u64) -> Vec<(&'static str, State)> {
    let mut out = Vec::new();
    let mut s = start(players, seed);
    out.push(("start", s.clone()));
    let mut rng = GameRng::seeded(seed ^ 0x5CE4E);
    for _ in 0..12 {
        step(&mut s, &mut rng);
    }
    out.push(("mid", s.clone()));
    play_until(&mut s, &mut rng, |s| s.phase == Some(Phase::Crises));
    out.push(("crises", s.clone()));
    play_until(&mut s, &mut rng, |s| {
        s.period >= 2 && s.phase == Some(Phase::PlayerActions) && s.round >= 2
    });
    out.push(("period2", s.clone()));
    play_until(&mut s, &mut rng, |_| false);
    out.push(("over", s));
    out
}

fn png_out(sc: &Scene, name: &str) -> Vec<u8> {
    let png = render_png(sc).expect("renders");
    assert_eq!(&png[1..4], b"PNG");
    crate::shared::testing::write_debug_png("SOLAR_PNG_DIR", name, &png);
    png
}

/// Size, text sizes and boxes, every planet and player named, the Moon
/// under Earth, each planet's first tile shown.
fn check(v: &View, sc: &Scene, names: &[String], label: &str) {
    assert_eq!((sc.width, sc.height), (1600, 1200), "{label}");
    for t in texts(sc) {
        // 9 px once shown 550 px wide in a chat column.
        assert!(t.size >= 27.0, "{label}: {:?} is {} px", t.text, t.size);
        let (x, y, w, h) = text_box(t);
        assert!(
            x >= 0.0 && y >= 0.0 && x + w <= 1600.0 && y + h <= 1200.0,
            "{label}: {:?} off the canvas at {x},{y} {w}x{h}",
            t.text
        );
    }
    let boxes: Vec<(&str, Rect)> = texts(sc).iter().map(|t| (t.text.as_str(), text_box(t))).collect();
    for (i, (a, ra)) in boxes.iter().enumerate() {
        for (b, rb) in boxes.iter().skip(i + 1) {
            let overlap_x = ra.0 + 1.0 < rb.0 + rb.2 && rb.0 + 1.0 < ra.0 + ra.2;
            let overlap_y = ra.1 + 1.0 < rb.1 + rb.3 && rb.1 + 1.0 < ra.1 + ra.3;
            assert!(!(overlap_x && overlap_y), "{label}: {a:?} {ra:?} overlaps {b:?} {rb:?}");
        }
    }
    for p in Planet::ALL {
        assert!(find(sc, p.name()).is_some(), "{label}: planet {p} not named");
    }
    for seat in &v.seats {
        let n = name_of(names, seat.seat);
        assert!(has_text(sc, &n), "{label}: player {n} not named");
    }
    let earth = text_box(find(sc, "Earth").expect("Earth"));
    let moon = text_box(find(sc, "Moon").expect("Moon"));
    assert!(moon.1 > earth.1 + earth.3, "{label}: the Moon is not under Earth");
    assert!(
        moon.0 < earth.0 + earth.2 && earth.0 < moon.0 + moon.2,
        "{label}: the Moon is not in Earth's column"
    );
    for pv in &v.planets {
        // Every tile: a chip in its planet's box, or listed in the side
        // panel when the box has no room.
        for t in &pv.tiles {
            let listed = format!("{} {} {}", t.id, kind_word(t.kind), defence_word(t.defence));
            assert!(
                find(sc, &t.id.to_string()).is_some() || has_text(sc, &listed),
                "{label}: tile {} on {} not shown",
                t.id,
                pv.planet
            );
        }
        if let Some(a) = pv.alien {
            assert!(
                find(sc, &format!("ALIEN {a}")).is_some(),
                "{label}: alien {a} not shown"
            );
        }
    }
    let level = |p: &PlanetView| level_of(v, p);
    for pv in &v.planets {
        assert!(has_text(sc, &format!("Crisis {}", level(pv))), "{label}");
    }
}

#[test]
fn every_player_count_and_depth_fits_the_canvas_and_renders() {
    let mut largest = 0usize;
    for players in 2..=5u8 {
        let names = names(players);
        for seed in [1u64, 7, 13, 21, 34] {
            for (depth, s) in positions(players, seed) {
                for viewer in [Viewer::Public, Viewer::Seat(Seat(0))] {
                    let v = view(&s, viewer);
                    let sc = scene(&v, &names);
                    let label = format!("{players}p seed {seed} {depth} {viewer:?}");
                    let who = if viewer == Viewer::Public { "public" } else { "seat0" };
                    let png = png_out(&sc, &format!("solar_{players}p_s{seed}_{depth}_{who}"));
                    check(&v, &sc, &names, &label);
                    largest = largest.max(png.len());
                }
            }
        }
    }
    assert!(largest < 1_500_000, "largest PNG {largest} bytes");
}

#[test]
fn header_names_the_phase_and_the_outcome() {
    let names = names(3);
    let s = start(3, 3);
    let sc = scene(&view(&s, Viewer::Public), &names);
    let header = phase_label(&view(&s, Viewer::Public));
    assert_eq!(header, super::super::view::phase(&s).label);
    assert!(has_text(&sc, &format!("Solar Crisis · {header}")));
    let mut rng = GameRng::seeded(3);
    let mut s = s;
    play_until(&mut s, &mut rng, |s| {
        s.phase == Some(Phase::Crises) && s.crisis.is_some()
    });
    let v = view(&s, Viewer::Public);
    assert_eq!(phase_label(&v), super::super::view::phase(&s).label);
    if let Some(p) = v.crisis {
        assert!(has_text(&scene(&v, &names), &format!("Crises · {p}")));
    }
    play_until(&mut s, &mut rng, |_| false);
    let v = view(&s, Viewer::Public);
    assert_eq!(phase_label(&v), super::super::view::phase(&s).label);
    let sc = scene(&v, &names);
    assert!(has_text(&sc, "Game over"));
    match v.outcome.as_ref().expect("over") {
        Outcome::AllLose { .. } => assert!(has_text(&sc, "Everyone loses — ")),
        o => {
            for w in o.winners() {
                let n = name_of(&names, w);
                let vp = vp_of(&v, w);
                assert!(has_text(&sc, &n) && has_text(&sc, &format!("with {vp} VP")));
            }
        }
    }
}

#[test]
fn a_public_board_shows_no_hand_and_a_seat_sees_its_own() {
    for players in 2..=5u8 {
        let names = names(players);
        for (depth, s) in positions(players, 11) {
            let public = view(&s, Viewer::Public);
            // Card names the public may see anyway (discard pile, played).
            let mut open: Vec<&str> = public.discard.iter().map(|c| c.name()).collect();
            if let Some(t) = &public.turn {
                open.extend(t.played.iter().map(|c| c.name()));
                if let Some(c) = &t.claim {
                    open.extend(c.cards.iter().map(|c| c.name()));
                }
            }
            let sc = scene(&public, &names);
            for seat in s.seat_ids() {
                let own = view(&s, Viewer::Seat(seat));
                let hand = own.seats[seat.index()].hand.clone().expect("own hand");
                for card in &hand {
                    if !open.contains(&card.name()) {
                        assert!(
                            !has_text(&sc, card.name()),
                            "{players}p {depth}: public board names {card} from a hand"
                        );
                    }
                }
                let mine = scene(&own, &names);
                for card in &hand {
                    assert!(
                        find(&mine, card.name()).is_some(),
                        "{players}p {depth}: seat {seat:?} does not see its {card}"
                    );
                }
                // Nobody else's hand in a seat's own board.
                for other in s.seat_ids().filter(|&o| o != seat) {
                    assert!(own.seats[other.index()].hand.is_none());
                }
            }
        }
    }
}

#[test]
fn tiles_aliens_flips_and_holdings_are_drawn() {
    let names = names(4);
    let mut s = start(4, 5);
    board_with(
        &mut s,
        &[
            (Planet::Mars, 44),
            (Planet::Mars, 12),
            (Planet::Moon, 50),
            (Planet::Earth, 34),
        ],
    );
    for _ in 0..4 {
        apply(
            &mut s,
            &Event::CrisisDicePlaced {
                tiles: vec![super::super::tests::kit::tile(44)],
            },
        );
    }
    apply(
        &mut s,
        &Event::CrisisDicePlaced {
            tiles: vec![super::super::tests::kit::tile(12)],
        },
    );
    apply(&mut s, &Event::PlanetFlipped { planet: Planet::Venus });
    apply(
        &mut s,
        &Event::AlienPlaced {
            alien: AlienTile::A1,
            planet: Planet::KuiperBelt,
        },
    );
    let v = view(&s, Viewer::Public);
    let sc = scene(&v, &names);
    check(&v, &sc, &names, "fixed board");
    for t in [
        "#44",
        "#12",
        "#50",
        "#34",
        "def 3",
        "def units",
        "FLIPPED",
        "ALIEN A1",
        "defence 7",
        "☠",
        "×4",
        "×1",
        "Crisis 5",
    ] {
        assert!(find(&sc, t).is_some(), "{t} missing");
    }
    // The four crisis dice on #44 are told on its chip, in Mars's box.
    let (mx, my, mw, mh) = planet_rect(&v, planets_bottom(&v, &names), Planet::Mars);
    let dice = text_box(find(&sc, "×4").expect("×4"));
    assert!(dice.0 >= mx && dice.0 + dice.2 <= mx + mw && dice.1 >= my && dice.1 + dice.3 <= my + mh);
    // Each colour's start at Earth: 4 infantry, 2 spaceships, a factory.
    assert!(texts(&sc).iter().filter(|t| t.text == "4i 2s").count() >= 4);
    assert!(texts(&sc).iter().filter(|t| t.text == "F1").count() >= 4);
    // The income ranking: four factories tie for 1st on Earth, and a tie
    // scores the higher place, 7 VP each (Earth: 7 / 4 / 2).
    let (ex, ey, ew, eh) = planet_rect(&v, planets_bottom(&v, &names), Planet::Earth);
    let in_earth = texts(&sc)
        .iter()
        .filter(|t| t.text == "7")
        .filter(|t| {
            let (x, y, _, _) = text_box(t);
            x >= ex && x <= ex + ew && y >= ey && y <= ey + eh
        })
        .count();
    assert_eq!(in_earth, 4);
    // The Moon's tile sits in the Moon's box, under Earth's.
    let (mx, my, mw, mh) = planet_rect(&v, planets_bottom(&v, &names), Planet::Moon);
    let t50 = text_box(find(&sc, "#50").expect("#50"));
    assert!(t50.0 >= mx && t50.0 <= mx + mw && t50.1 >= my && t50.1 <= my + mh);
    png_out(&sc, "solar_fixed_board");
    // Phase 4: Mars resolving, losses owed, Mercury's offer.
    apply(&mut s, &Event::PhaseBegan { phase: Phase::Crises });
    let levels = [(Planet::Mars, 5), (Planet::Mercury, 2)].into_iter().collect();
    apply(&mut s, &Event::CrisisLevelsSet { levels });
    apply(
        &mut s,
        &Event::CrisisResolving {
            planet: Planet::Mars,
            level: 5,
        },
    );
    apply(
        &mut s,
        &Event::MercuryPowersOffered {
            seat: Seat(1),
            level: 2,
        },
    );
    let demands = vec![LossDemand {
        seat: Seat(2),
        count: 2,
        kind: LossKind::UnitsThenPieces,
        planets: vec![Planet::Earth, Planet::Mars],
    }];
    apply(&mut s, &Event::LossesDemanded { demands });
    let v = view(&s, Viewer::Public);
    let sc = scene(&v, &names);
    check(&v, &sc, &names, "crises board");
    for t in [
        "Solar Crisis · Period 1 · Crises · Mars",
        "Crisis 2",
        "owes 2 units (or pieces)",
        "from Earth, Mars",
        "Mercury's powers: Bob may use them",
        "level 2",
    ] {
        assert!(has_text(&sc, t), "{t} missing");
    }
    let mars = find(&sc, "Mars").expect("Mars");
    assert_eq!(mars.color, GOLD, "the planet resolving is highlighted");
    png_out(&sc, "solar_crises_board");
    // Everyone loses: said in the header, in red.
    let reason = "the robots of Earth rebelled".to_string();
    apply(
        &mut s,
        &Event::GameEnded {
            outcome: Outcome::AllLose { reason },
            vp: Vec::new(),
        },
    );
    let v = view(&s, Viewer::Public);
    let sc = scene(&v, &names);
    check(&v, &sc, &names, "all lose");
    let t = find(&sc, "Everyone loses — the robots of Earth rebelled").expect("all lose in the header");
    assert_eq!(t.color, ALERT);
    assert!(has_text(&sc, "Game over"));
    png_out(&sc, "solar_all_lose");
}

#[test]
fn a_claim_in_progress_shows_its_dice() {
    let mut found = false;
    for seed in 0..40u64 {
        let players = 2 + (seed % 4) as u8;
        let names = names(players);
        let mut s = start(players, seed);
        let mut rng = GameRng::seeded(seed);
        play_until(&mut s, &mut rng, |s| {
            s.turn
                .as_ref()
                .and_then(|t| t.claim.as_ref())
                .is_some_and(|c| c.dice.is_some())
        });
        let v = view(&s, Viewer::Public);
        let Some(claim) = v.turn.as_ref().and_then(|t| t.claim.clone()) else {
            continue;
        };
        let sc = scene(&v, &names);
        check(&v, &sc, &names, "claim");
        assert!(has_text(&sc, "Claim: "));
        assert!(has_text(&sc, &format!("cost {} CP", claim.cost)));
        assert!(has_text(&sc, &format!("casualties {}", claim.casualties)));
        if !found {
            png_out(&sc, "solar_claim");
        }
        found = true;
    }
    assert!(found, "no random game reached a rolled claim");
}

#[test]
fn a_resigned_player_is_marked_in_the_players_panel() {
    let mut s = start(4, 3);
    let names = names(4);
    assert!(!has_text(&scene(&view(&s, Viewer::Public), &names), "RESIGNED"));
    for e in rules::resign(&s, Seat(2)).expect("resign") {
        apply(&mut s, &e);
    }
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(2))] {
        let v = view(&s, viewer);
        assert!(v.seats[2].resigned);
        let sc = scene(&v, &names);
        assert!(find(&sc, "RESIGNED").is_some(), "{viewer:?}");
        check(&v, &sc, &names, "resigned");
    }
}
