//! Unit tests of the Space Empires ruleset through the `Ruleset` contract:
//! the set-up, whole random games, and the economy's worked examples.

use super::basics::{Kind, Worth};
use super::rules::economy;
use super::state::{Line, Phase};
use super::*;
use orrery_engine::{GameRng, Ruleset, SheetEdit};

fn start(players: u8, seed: u64) -> State {
    Empires::fold(&Empires::setup(&GameConfig::new(players, seed)).unwrap())
}

/// Play random legal orders until the game ends (sheets marked ready a
/// quarter of the time); the number of decisions.
fn random_game(players: u8, seed: u64) -> (State, Vec<Event>, usize) {
    let mut events = Empires::setup(&GameConfig::new(players, seed)).unwrap();
    let mut st = Empires::fold(&events);
    let mut rng = GameRng::seeded(seed ^ 0xe5);
    let mut n = 0;
    while st.outcome.is_none() {
        assert!(n < 200_000, "seed {seed}: no end");
        let pending = Empires::pending(&st);
        let owing: Vec<_> = pending.iter().filter(|p| !p.submitted).collect();
        assert!(!owing.is_empty(), "seed {seed}: nobody owes: {:?}", st.phase);
        let p = owing[rng.below(owing.len() as u32) as usize];
        let legal = Empires::legal_actions(&st, p.seat);
        assert!(
            !legal.is_empty(),
            "seed {seed}: {} owes {} with no order",
            p.seat,
            p.kind
        );
        let pick = if p.sheet && legal.contains(&Action::Sheet(SheetEdit::Ready)) && rng.below(4) == 0 {
            Action::Sheet(SheetEdit::Ready)
        } else {
            rng.pick(&legal).unwrap().clone()
        };
        let new = Empires::decide(&st, p.seat, &pick)
            .unwrap_or_else(|e| panic!("seed {seed}: legal `{}` refused: {e}", Empires::unparse(&pick)));
        for e in &new {
            Empires::apply(&mut st, e);
        }
        events.extend(new);
        n += 1;
    }
    (st, events, n)
}

#[test]
fn setup_as_recorded() {
    let st = start(2, 1);
    assert_eq!(st.colonies.len(), 2);
    for c in &st.colonies {
        assert_eq!(c.worth, Worth::Home(20));
        assert_eq!(c.yards, 4);
    }
    for seat in [Seat(0), Seat(1)] {
        let kinds: Vec<Kind> = st.units_of(seat).map(|u| u.kind).collect();
        assert_eq!(kinds.iter().filter(|k| **k == Kind::Scout).count(), 3);
        assert_eq!(kinds.iter().filter(|k| **k == Kind::ColonyShip).count(), 3);
        assert_eq!(kinds.iter().filter(|k| **k == Kind::Miner).count(), 1);
        assert_eq!(st.empire(seat).cp, 0);
        assert!(st.units_of(seat).all(|u| u.hex == st.board.homeworld(seat)));
    }
    assert_eq!(st.phase, Phase::Movement);
    assert_eq!(st.round, 1);
    assert_eq!(st.spots.len(), 85 - 2);
    assert!(st.spots.iter().all(|p| !p.face_up));
}

#[test]
fn random_games_end_and_replay() {
    for seed in 0..6u64 {
        let players = 2 + (seed % 3) as u8;
        let (st, events, n) = random_game(players, seed);
        assert_eq!(Empires::fold(&events), st, "seed {seed}: replay differs");
        assert!(Empires::pending(&st).is_empty());
        assert!(n > 50, "seed {seed}: only {n} decisions");
    }
}

#[test]
fn first_economic_phase_pays_twenty_less_the_scouts() {
    // Three turns of nothing but `end`, then the sheet: 20 - 3 = 17 CP.
    let mut st = start(2, 3);
    while st.phase != Phase::Economic {
        let seat = Empires::pending(&st)[0].seat;
        for e in Empires::decide(&st, seat, &Action::End).unwrap() {
            Empires::apply(&mut st, &e);
        }
    }
    let f = economy::Forecast::of(&st, Seat(0));
    assert_eq!((f.colony_income, f.maintenance, f.available(0)), (20, 3, 17));
    // A Ship Size 2 line and a Destroyer in the same phase: 10 + 9 = 19 > 17.
    let home = st.board.homeworld(Seat(0));
    let lines = vec![
        Line::Research {
            tech: basics::Tech::Size,
        },
        Line::Buy {
            kind: Kind::Destroyer,
            at: home,
            ships: 1,
            into: None,
        },
    ];
    let err = economy::check(&st, Seat(0), &lines).unwrap_err();
    assert!(err.contains("spends 19 CP; you have 17"), "{err}");
    // Two Scouts: 12 CP and 2 hull points of the homeworld's 4.
    let two = vec![Line::Buy {
        kind: Kind::Scout,
        at: home,
        ships: 2,
        into: None,
    }];
    assert_eq!(economy::check(&st, Seat(0), &two).unwrap().spent, 12);
    let five = vec![Line::Buy {
        kind: Kind::Scout,
        at: home,
        ships: 5,
        into: None,
    }];
    assert!(economy::check(&st, Seat(0), &five).is_err());
}

/// Options (rules page, *Options*; plan 123): `rounds` from 3 to 40, the
/// future keys accepted only as `false`, unknown keys refused, all at set-up.
#[test]
fn options_ranges_and_future_keys() {
    let setup = |options: serde_json::Value| {
        let mut config = GameConfig::new(2, 1);
        config.options = options;
        Empires::setup(&config).map(|events| Empires::fold(&events).options)
    };
    let ok = setup(serde_json::json!({"rounds": 3, "auto_combat": true, "rules": "basic"})).unwrap();
    assert_eq!((ok.rounds, ok.auto_combat), (3, true));
    assert_eq!(setup(serde_json::json!({"rounds": 40})).unwrap().rounds, 40);
    assert_eq!(setup(serde_json::json!({})).unwrap().rounds, 12);
    for bad in [
        serde_json::json!({"rounds": 2}),
        serde_json::json!({"rounds": 41}),
        serde_json::json!({"rounds": "ten"}),
        serde_json::json!({"machines": 4}),
        serde_json::json!({"colour": "red"}),
    ] {
        assert!(setup(bad.clone()).is_err(), "{bad} was accepted");
    }
    let e = setup(serde_json::json!({"colour": "red"})).unwrap_err();
    assert!(e.0.contains("unknown option `colour`"), "{}", e.0);
    // Doomsday Machines: three unless agreed otherwise (17.1).
    assert_eq!(setup(serde_json::json!({"doomsday": true})).unwrap().doomsday, 3);
    assert_eq!(
        setup(serde_json::json!({"doomsday": true, "machines": 1}))
            .unwrap()
            .doomsday,
        1
    );
    assert_eq!(setup(serde_json::json!({"machines": 2})).unwrap().doomsday, 0);
    // `rules: advanced`: every advanced rule on.
    let adv = setup(serde_json::json!({"rules": "advanced"})).unwrap();
    assert!(
        adv.pipelines && adv.carriers && adv.point_defense && adv.raiders && adv.mines && adv.aliens,
        "{adv:?}"
    );
    assert!(!adv.warp_points && !adv.slingshot, "optional rules stay off: {adv:?}");
    // Every player starts on fire at will with `auto_combat`.
    let mut config = GameConfig::new(2, 1);
    config.options = serde_json::json!({"auto_combat": true});
    let st = Empires::fold(&Empires::setup(&config).unwrap());
    assert!(st.empires.iter().all(|e| e.standing.auto));
}

#[test]
fn scrap_is_completed_though_not_listed() {
    let st = start(2, 1);
    let Phase::Movement = st.phase else {
        panic!("{:?}", st.phase)
    };
    let mover = st.active_seat().expect("a player moves first");
    let other = Seat(1 - mover.0);
    let all = Empires::complete_more(&st, mover, "scrap", "unit", &[], "");
    // Every counter of the mover may be scrapped in its movement phase: 3
    // Scouts, 3 Colony Ships and the Miner.
    assert_eq!(all.len(), 7, "{all:?}");
    for label in &all {
        let line = CommandLine::new("scrap").arg("unit", label);
        let action = Empires::parse(&line).unwrap();
        assert!(Empires::decide(&st, mover, &action).is_ok(), "{line}");
        assert!(
            !Empires::legal_actions(&st, mover).contains(&action),
            "scrap is not listed"
        );
    }
    // What is typed narrows the values; the other player, not moving, gets
    // none, nor does another option or order.
    let first = &all[0];
    let narrowed = Empires::complete_more(&st, mover, "scrap", "unit", &[], &first[..first.len() - 1]);
    assert!(narrowed.contains(first) && narrowed.len() < all.len(), "{narrowed:?}");
    assert!(Empires::complete_more(&st, other, "scrap", "unit", &[], "").is_empty());
    assert!(Empires::complete_more(&st, mover, "move", "unit", &[], "").is_empty());
    assert!(Empires::complete_more(&st, mover, "scrap", "at", &[], "").is_empty());
}

/// Bases and Ship Yards are placed face down (text 7.6.2): the Economic
/// Phase's narration and the scrapping of a face-down one name them to
/// their owner only.
#[test]
fn face_down_installations_are_told_to_their_owner_only() {
    let names = vec!["Ann".to_string(), "Bob".to_string()];
    let ledger: events::Ledger = serde_json::from_str(
        r#"{"seat":0,"colony_income":0,"mineral_income":0,"maintenance":0,"bid":0,"spent":0,"carried":0,"lost":0,
            "levels":{"size":2,"attack":0,"defense":0,"tactics":0,"move":1,"yard":1,"terraform":0,"explore":0},
            "wrecks":[],"scrapped":[],"scrapped_at":[],"bought":[],"added":[],
            "built":[[{"q":-6,"r":2},"Base"],[{"q":-6,"r":3},"ShipYard"]]}"#,
    )
    .unwrap();
    let carried = Event::EconomyCarriedOut {
        ledgers: vec![ledger],
        rng: Box::new(GameRng::seeded(1)),
    };
    let hex = orrery_engine::Hex { q: -6, r: 2 };
    let secret = Event::InstallationScrapped {
        at: hex,
        what: Kind::Base,
        secret_of: Some(Seat(0)),
    };
    let open = Event::InstallationScrapped {
        at: hex,
        what: Kind::Base,
        secret_of: None,
    };
    let tell = |e: &Event, v: Viewer| view::narrate(e, v, &names).unwrap_or_default();
    let own = tell(&carried, Viewer::Seat(Seat(0)));
    assert!(own.contains("Base at") && own.contains("Ship Yard at"), "{own}");
    for v in [Viewer::Public, Viewer::Seat(Seat(1))] {
        let t = tell(&carried, v);
        assert!(!t.contains("Base") && !t.contains("Yard"), "{v:?}: {t}");
        assert_eq!(tell(&secret, v), "", "{v:?}");
        assert!(tell(&open, v).contains("Base"), "{v:?}");
    }
    assert!(tell(&secret, Viewer::Seat(Seat(0))).contains("face down"));
}

/// Whole random games in which one or two seats resign at random points
/// (in any phase: movement, combat, mid-battle, the economic sheet, the
/// bid winner's choice): each ends, a resigned seat is never asked
/// anything and owns nothing, nobody resigned wins, and the log folds to
/// the state.
#[test]
fn games_with_a_resignation_end_and_replay() {
    let mut rng = GameRng::seeded(28);
    let mut phases = std::collections::BTreeSet::new();
    for seed in 0..16u64 {
        let players = 2 + (seed % 3) as u8;
        let mut events = Empires::setup(&GameConfig::new(players, seed)).unwrap();
        let mut st = Empires::fold(&events);
        // The first resignation waits for a phase of its own kind.
        let want = ["Movement", "Combat", "Economic", "First"][(seed % 4) as usize];
        let resign_at = rng.below(400);
        let mut out: Vec<Seat> = Vec::new();
        let mut step = 0u32;
        let phase = |st: &State| format!("{:?}", st.phase).split([' ', '{']).next().unwrap().to_string();
        while st.outcome.is_none() {
            step += 1;
            assert!(step < 200_000, "seed {seed}: no end");
            let first = out.is_empty() && step >= resign_at && phase(&st) == want;
            let second = step > resign_at && step % 97 == 0 && !out.is_empty() && out.len() + 2 < players as usize;
            let new = if first || second {
                let seat = match st.battle.as_ref().and(st.defender) {
                    // Mid-battle, the defender.
                    Some(d) if first => d,
                    _ => Seat(rng.below(u32::from(players)) as u8),
                };
                match Empires::resign(&st, seat) {
                    Ok(ev) => {
                        phases.insert(phase(&st) + if st.battle.is_some() { " (mid-battle)" } else { "" });
                        out.push(seat);
                        ev
                    }
                    Err(e) => {
                        assert!(out.contains(&seat), "seed {seed}: {e}");
                        assert!(e.to_string().contains("already resigned"), "{e}");
                        continue;
                    }
                }
            } else {
                let pending = Empires::pending(&st);
                let owing: Vec<_> = pending.iter().filter(|p| !p.submitted).collect();
                assert!(!owing.is_empty(), "seed {seed}: nobody owes: {:?}", st.phase);
                let p = owing[rng.below(owing.len() as u32) as usize];
                assert!(!out.contains(&p.seat), "seed {seed}: a resigned seat is asked");
                let legal = Empires::legal_actions(&st, p.seat);
                let pick = if p.sheet && rng.below(4) == 0 {
                    Action::Sheet(SheetEdit::Ready)
                } else {
                    rng.pick(&legal).unwrap().clone()
                };
                Empires::decide(&st, p.seat, &pick)
                    .unwrap_or_else(|e| panic!("seed {seed}: `{}` refused: {e}", Empires::unparse(&pick)))
            };
            for e in &new {
                Empires::apply(&mut st, e);
            }
            events.extend(new);
            for seat in &out {
                assert!(st.units_of(*seat).next().is_none() && st.colonies_of(*seat).next().is_none());
                assert!(!st.order.contains(seat));
            }
        }
        let outcome = st.outcome.clone().unwrap();
        assert!(
            outcome.winners().iter().all(|w| !out.contains(w)),
            "seed {seed}: {outcome:?}"
        );
        assert_eq!(Empires::fold(&events), st, "seed {seed}: replay differs");
    }
    // Resignations fell in every kind of phase, one in a battle.
    for kind in ["Movement", "Combat (mid-battle)", "Economic", "First"] {
        assert!(phases.contains(kind), "{kind}: {phases:?}");
    }
}

/// Unpredictable research (text 19.2): the owner reads its dice and what
/// they reached; another player reads nothing of them.
#[test]
fn research_dice_are_told_to_their_owner_only() {
    use super::events::{Event, Ledger, Rolled};
    use super::view::narrate;
    use orrery_engine::Viewer;
    let st = start(2, 1);
    let ledger = Ledger {
        seat: Seat(0),
        colony_income: 20,
        mineral_income: 0,
        trade_income: 0,
        maintenance: 3,
        bid: 0,
        spent: 25,
        carried: 0,
        lost: 0,
        levels: st.empire(Seat(0)).levels,
        wrecks: Vec::new(),
        scrapped: Vec::new(),
        unseen: Vec::new(),
        scrapped_at: Vec::new(),
        bought: Vec::new(),
        added: Vec::new(),
        built: Vec::new(),
        research: 25,
        grants: 5,
        rolls: vec![Rolled {
            tech: super::basics::Tech::Attack,
            dice: vec![7, 5, 6, 1],
            total: 19,
            needed: 20,
            reached: false,
        }],
    };
    let e = Event::EconomyCarriedOut {
        ledgers: vec![ledger],
        rng: st.rng.clone(),
    };
    let names = ["Ann".to_string(), "Bo".to_string()];
    let own = narrate(&e, Viewer::Seat(Seat(0)), &names).unwrap_or_default();
    assert!(
        own.contains(
            "research Attack rolled 7, 5, 6, 1: 19 of 20 needed, short of Attack 1, carried to the next phase."
        ),
        "{own}"
    );
    let other = narrate(&e, Viewer::Seat(Seat(1)), &names).unwrap_or_default();
    assert!(!other.contains("rolled"), "{other}");
    let public = narrate(&e, Viewer::Public, &names).unwrap_or_default();
    assert!(!public.contains("rolled"), "{public}");
}

/// MS Pipelines (advanced rule 10) are drawn as a chain: a dashed line in
/// the owner's colour between adjacent hexes that hold one, on every
/// board (pipelines are face up); a lone pipeline draws none.
#[test]
fn pipeline_chains_are_drawn() {
    use super::basics::Levels;
    use super::state::new_unit;
    use orrery_engine::{Hex, Viewer};
    use orrery_render::Item;
    let mut st = start(2, 1);
    let pipes = [
        (20, Hex { q: -6, r: 3 }),
        (21, Hex { q: -5, r: 3 }),
        (22, Hex { q: -4, r: 3 }),
        (23, Hex { q: -4, r: 1 }),
    ];
    for (n, hex) in pipes {
        let label = super::basics::Label {
            owner: Seat(0),
            number: n,
        };
        st.units
            .push(new_unit(label, Kind::Pipeline, 1, Levels::default(), hex));
    }
    let colour = super::scene::seat_colour(Seat(0));
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))] {
        let scene = super::scene::scene(&Empires::view(&st, viewer), &["a".into(), "b".into()]);
        let chain_lines = scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Line { stroke, dashed: true, .. } if stroke.color == colour))
            .count();
        assert_eq!(chain_lines, 2, "{viewer:?}: A4-B4 and B4-C5, none to the lone C2");
    }
}

/// Aliens (advanced rule 14) are drawn as a green badge with their number,
/// for every viewer, face down or not; their types never show when face
/// down.
#[test]
fn aliens_are_drawn_with_their_number() {
    use orrery_engine::{Hex, Viewer};
    use orrery_render::Item;
    let mut st = start(2, 1);
    let at = Hex { q: -2, r: 3 };
    let spot = st.spot_mut(at).expect("a deep-space marker");
    spot.face_up = true;
    spot.aliens = vec![Kind::Scout, Kind::Dreadnaught, Kind::Destroyer];
    spot.aliens_hidden = true;
    let badge = orrery_render::Color::rgb(40, 150, 60);
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))] {
        let view = Empires::view(&st, viewer);
        let seen = view.spots.iter().find(|p| p.hex == at).expect("the spot");
        assert_eq!(seen.aliens, vec![None, None, None], "{viewer:?}");
        let scene = super::scene::scene(&view, &["a".into(), "b".into()]);
        let badges = scene
            .items
            .iter()
            .filter(|i| matches!(i, Item::Circle { fill: Some(c), .. } if *c == badge))
            .count();
        assert_eq!(badges, 1, "{viewer:?}");
        assert!(
            scene.items.iter().any(|i| matches!(i, Item::Text(t) if t.text == "3")),
            "{viewer:?}: the badge's number"
        );
    }
}

/// Cloaked Raiders (advanced rule 12.1): a move, split or scrap kept from a
/// seat is not told to it, nor in the channel; its owner reads it; a
/// Raider bought is not among the new counters others read of.
#[test]
fn unseen_raiders_are_not_narrated() {
    use super::basics::Label;
    use super::events::Doom;
    use super::view::narrate;
    use orrery_engine::{Hex, Viewer};
    let names = ["Ann".to_string(), "Bo".to_string()];
    let r = Label {
        owner: Seat(0),
        number: 20,
    };
    let at = Hex { q: -2, r: 2 };
    let moved = Event::Moved {
        units: vec![r],
        path: vec![at],
        stopped: false,
        shown: Vec::new(),
        piped: Vec::new(),
        hidden_from: vec![Seat(1)],
    };
    let scrapped = Event::Destroyed {
        at,
        units: vec![r],
        kinds: vec![Kind::Raider],
        why: Doom::Scrapped,
        hidden_from: vec![Seat(1)],
    };
    for e in [&moved, &scrapped] {
        assert!(narrate(e, Viewer::Seat(Seat(0)), &names).is_some_and(|t| t.contains("A20")));
        assert_eq!(narrate(e, Viewer::Seat(Seat(1)), &names), None);
        assert_eq!(narrate(e, Viewer::Public, &names), None);
    }
    let ambush = Event::AmbushOrdered { seat: Seat(0), at };
    assert!(narrate(&ambush, Viewer::Seat(Seat(0)), &names).is_some());
    assert_eq!(narrate(&ambush, Viewer::Seat(Seat(1)), &names), None);
    assert_eq!(narrate(&ambush, Viewer::Public, &names), None);
}

/// Team play: only for 4 players; seats 1 and 3 against 2 and 4; the
/// aliens' chooser is the next player to the left of the other team (14.2:
/// "a player from the other team"), a teammate never.
#[test]
fn teams_are_for_four_players_and_choose_across() {
    let setup = |players: u8| {
        let mut config = GameConfig::new(players, 1);
        config.options = serde_json::json!({"teams": true});
        Empires::setup(&config)
    };
    let e = setup(2).unwrap_err();
    assert!(e.0.contains("`teams: true` is for 4 players"), "{}", e.0);
    assert!(setup(3).is_err());
    let mut st = Empires::fold(&setup(4).unwrap());
    assert!(st.allied(Seat(0), Seat(2)) && st.allied(Seat(1), Seat(3)));
    assert!(!st.allied(Seat(0), Seat(1)) && !st.allied(Seat(2), Seat(3)));
    assert_eq!(st.side_of(Seat(1)), vec![Seat(1), Seat(3)]);
    assert_eq!(st.left_of(Seat(0)), Seat(1));
    st.empires[1].resigned = true;
    assert_eq!(st.left_of(Seat(0)), Seat(3));
}

/// The movement phase's legal orders skip most checks by a first test of
/// the counter (its kind, whether it has moved) and check moves without
/// building their events: they must still list every one-hex move, split
/// of one ship, colonization, tow, deposit, look and upgrade the orders'
/// own functions accept, in positions of random games.
#[test]
fn movement_orders_list_all_that_the_rules_accept() {
    use super::rules::movement;
    let mut checked = 0;
    for seed in 0..4u64 {
        let mut st = start(2 + (seed % 2) as u8, seed);
        let mut rng = GameRng::seeded(seed ^ 0x31);
        for _ in 0..3_000 {
            if st.outcome.is_some() {
                break;
            }
            let pending = Empires::pending(&st);
            let Some(p) = pending.iter().find(|p| !p.submitted) else {
                break;
            };
            let legal = Empires::legal_actions(&st, p.seat);
            if st.phase == Phase::Movement {
                let seat = p.seat;
                let listed = |a: Action| assert!(legal.contains(&a), "seed {seed}: {a:?} accepted, not listed");
                for u in st.units_of(seat) {
                    let name = super::rules::label_text(u.label);
                    for to in st.neighbours(u.hex) {
                        if movement::move_units(&st, seat, &[u.label], &[to]).is_ok() {
                            listed(Action::Move {
                                units: vec![name.clone()],
                                path: vec![st.board.name(to)],
                                slingshot: false,
                            });
                        }
                    }
                    for to in st.board.neighbours(u.hex) {
                        if movement::peek(&st, seat, u.label, to).is_ok() {
                            listed(Action::Peek {
                                unit: name.clone(),
                                at: st.board.name(to),
                            });
                        }
                    }
                    let one = |ok: bool, a: Action| {
                        if ok {
                            listed(a)
                        }
                    };
                    let unit = name;
                    one(
                        u.ships > 1 && movement::split(&st, seat, u.label, 1).is_ok(),
                        Action::Split {
                            unit: unit.clone(),
                            ships: 1,
                        },
                    );
                    one(
                        movement::colonize(&st, seat, u.label).is_ok(),
                        Action::Colonize { unit: unit.clone() },
                    );
                    one(movement::tow(&st, u.label).is_ok(), Action::Tow { unit: unit.clone() });
                    one(
                        movement::deposit(&st, seat, u.label).is_ok(),
                        Action::Deposit { unit: unit.clone() },
                    );
                    one(
                        movement::upgrade(&st, seat, u.label).is_ok(),
                        Action::Upgrade { unit: unit.clone() },
                    );
                    for v in st.units_of(seat).filter(|v| v.label > u.label) {
                        one(
                            movement::merge(&st, u.label, v.label).is_ok(),
                            Action::Merge {
                                unit: unit.clone(),
                                into: super::rules::label_text(v.label),
                            },
                        );
                    }
                    checked += 1;
                }
            }
            let pick = if p.sheet && legal.contains(&Action::Sheet(SheetEdit::Ready)) && rng.below(4) == 0 {
                Action::Sheet(SheetEdit::Ready)
            } else {
                rng.pick(&legal).unwrap().clone()
            };
            for e in Empires::decide(&st, p.seat, &pick).unwrap() {
                Empires::apply(&mut st, &e);
            }
        }
    }
    assert!(checked > 10_000, "only {checked} counters checked");
}
