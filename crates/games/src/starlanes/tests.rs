//! Unit tests of the Starlanes ruleset through the `Ruleset` contract.

use super::*;
use orrery_engine::{GameRng, Ruleset};

fn start(players: u8, seed: u64) -> State {
    Starlanes::fold(&Starlanes::setup(&GameConfig::new(players, seed)).unwrap())
}

fn play(st: &mut State, seat: Seat, text: &str) -> Vec<Event> {
    let a = Starlanes::parse(&CommandLine::parse(text).unwrap()).unwrap();
    let ev = Starlanes::decide(st, seat, &a).unwrap_or_else(|e| panic!("{text}: {e}"));
    for e in &ev {
        Starlanes::apply(st, e);
    }
    ev
}

#[test]
fn setup_as_written() {
    let st = start(3, 5);
    assert_eq!(st.universal.len(), 3);
    assert!(st.market[0].is_some() && st.market[1].is_some() && st.market[2].is_none());
    assert_eq!(st.deck.len(), 18 - 5);
    assert_eq!(st.token, Seat(2), "the last player starts with the scoring token");
    assert_eq!(st.active, Seat(0));
    assert_eq!(Starlanes::phase(&st).number, 1);
}

#[test]
fn views_hide_the_deck_order_only() {
    let st = start(4, 9);
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(3))] {
        let v = Starlanes::view(&st, viewer);
        assert_eq!(v.deck_size, st.deck.len());
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("\"deck\""), "{json}");
        // Nothing but the viewer differs between viewers: no other secrets.
        let mut p = Starlanes::view(&st, Viewer::Public);
        p.viewer = viewer;
        assert_eq!(p, v);
    }
    // Two states differing only in deck order give the same public view and board.
    let mut other = st.clone();
    other.deck.reverse();
    assert_ne!(other.deck, st.deck);
    assert_eq!(
        Starlanes::view(&other, Viewer::Public),
        Starlanes::view(&st, Viewer::Public)
    );
    let names: Vec<String> = vec!["a".into(), "b".into(), "c".into(), "d".into()];
    let a = Starlanes::scene(&Starlanes::view(&st, Viewer::Public), &names);
    let b = Starlanes::scene(&Starlanes::view(&other, Viewer::Public), &names);
    assert_eq!(a, b);
    // The set-up narration does not list the deck.
    let ev = Starlanes::setup(&GameConfig::new(4, 9)).unwrap();
    let text = Starlanes::narrate(&ev[0], Viewer::Public, &names).unwrap();
    for t in &st.deck {
        assert!(!text.contains(t.name()), "{text}");
    }
}

#[test]
fn phase_increments_once_per_turn_and_at_the_end() {
    let mut st = start(2, 1);
    let p1 = Starlanes::phase(&st).number;
    play(&mut st, Seat(0), "produce at:Vega");
    assert_eq!(Starlanes::phase(&st).number, p1);
    play(&mut st, Seat(0), "end");
    assert_eq!(Starlanes::phase(&st).number, p1 + 1);
    assert_eq!(Starlanes::default_action(&st, Seat(1)), Some(Action::End));
    assert_eq!(Starlanes::default_action(&st, Seat(0)), None);
}

#[test]
fn legal_orders_round_trip_and_are_accepted() {
    let mut rng = GameRng::seeded(3);
    for seed in 0..20 {
        let mut st = start(2 + (seed % 3) as u8, seed);
        for _ in 0..300 {
            if st.outcome.is_some() {
                break;
            }
            let seat = st.active;
            let legal = Starlanes::legal_actions(&st, seat);
            for a in &legal {
                let line = Starlanes::unparse(a);
                assert_eq!(
                    &Starlanes::parse(&CommandLine::parse(&line.to_string()).unwrap()).unwrap(),
                    a
                );
            }
            let a = rng.pick(&legal).unwrap().clone();
            let ev = Starlanes::decide(&st, seat, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            for e in &ev {
                Starlanes::apply(&mut st, e);
            }
        }
    }
}

#[test]
fn moves_list_only_reachable_planets() {
    let st = start(2, 1);
    let legal: Vec<String> = Starlanes::legal_actions(&st, Seat(0))
        .iter()
        .map(|a| Starlanes::unparse(a).to_string())
        .collect();
    assert!(legal.contains(&"move to:Mira from:Vega=3".to_string()));
    assert!(!legal.iter().any(|l| l.contains("to:Nexus")), "{legal:?}");
    assert!(!legal.iter().any(|l| l.starts_with("buy")));
}

#[test]
fn boards_render() {
    for players in 2..=4 {
        let st = start(players, 2);
        let names: Vec<String> = (0..players).map(|i| format!("Player {i}")).collect();
        let png = orrery_render::render_png(&Starlanes::scene(&Starlanes::view(&st, Viewer::Public), &names)).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}

#[test]
fn random_option_uses_the_generator() {
    let mut c = GameConfig::new(3, 4);
    c.options = serde_json::json!({"map": "random", "rounds": 12});
    let st = Starlanes::fold(&Starlanes::setup(&c).unwrap());
    assert_eq!(st.options.rounds, 12);
    assert!(st.map.is_sound(3));
    c.options = serde_json::json!({"map": "spiral"});
    assert!(Starlanes::setup(&c).is_err());
}

/// The side panel at its most crowded: every tech in every market slot and
/// universal position, players owning many techs (some exhausted), long
/// names, 2 to 4 players. Tech descriptions are shown whole, on at most three
/// lines, never below `TECH_TEXT_MIN` px (9 px in Discord's ~550 px
/// preview of the 1600 px board), and no panel text leaves the panel or
/// overlaps another; no text on the board is under `MIN_TEXT`, and every
/// player's techs are listed under the map.
#[test]
fn side_panel_tech_texts_are_legible_and_fit() {
    use orrery_render::{text_box, Item};
    use scene::{PANEL_BOX, TECH_TEXT_MAX, TECH_TEXT_MIN};
    assert!(TECH_TEXT_MIN * 550.0 / scene::WIDTH as f32 >= 9.0);
    let (left, top, width, bottom) = PANEL_BOX;
    let mut sizes_used = std::collections::BTreeSet::new();
    for players in 2..=4u8 {
        let base = start(players, 7);
        let names: Vec<String> = (0..players).map(|i| format!("Commander Number {i}")).collect();
        // Steps of 3: every tech is shown both as a universal and as a market tech.
        for k in (0..Tech::ALL.len()).step_by(3) {
            // A hoarder: the first player owns the whole deck.
            let hoarders: &[bool] = if k % 9 == 0 { &[false, true] } else { &[false] };
            for &hoarder in hoarders {
                let mut st = base.clone();
                let tech = |i: usize| Tech::ALL[(k + i) % Tech::ALL.len()];
                st.universal = (0..3).map(tech).collect();
                st.market = [
                    Some(tech(3)),
                    Some(tech(4)),
                    if k % 2 == 0 { Some(tech(5)) } else { None },
                ];
                for (i, ps) in st.seats.iter_mut().enumerate() {
                    ps.techs = if hoarder && i == 0 {
                        Tech::ALL.to_vec()
                    } else {
                        (0..Tech::ALL.len())
                            .filter(|j| j % players as usize == i)
                            .map(tech)
                            .chain(st.universal.iter().copied())
                            .collect()
                    };
                    ps.exhausted_techs = ps
                        .techs
                        .iter()
                        .copied()
                        .filter(|t| t.kind() != basics::Kind::Combat)
                        .collect();
                    ps.vp = 5;
                    ps.science = 12;
                }
                let view = Starlanes::view(&st, Viewer::Public);
                let sc = Starlanes::scene(&view, &names);
                let texts: Vec<&orrery_render::Text> = sc
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Text(t) if t.x >= left => Some(t),
                        _ => None,
                    })
                    .collect();
                let what = format!("{players} players, rotation {k}, hoarder {hoarder}");
                for t in &texts {
                    let (x, y, w, h) = text_box(t);
                    assert!(
                        x >= left + 4.0 && x + w <= left + width - 4.0 && y >= top && y + h <= bottom - 4.0,
                        "`{}` ({x},{y} {w}x{h}) leaves the panel: {what}",
                        t.text
                    );
                    assert!(t.size >= scene::MIN_TEXT, "`{}` at {} px: {what}", t.text, t.size);
                }
                for (i, a) in texts.iter().enumerate() {
                    for b in &texts[i + 1..] {
                        let (ax, ay, aw, ah) = text_box(a);
                        let (bx, by, bw, bh) = text_box(b);
                        let apart =
                            ax + aw <= bx + 1.0 || bx + bw <= ax + 1.0 || ay + ah <= by + 1.0 || by + bh <= ay + 1.0;
                        assert!(apart, "`{}` overlaps `{}`: {what}", a.text, b.text);
                    }
                }
                // Every text on the board at least MIN_TEXT, inside the canvas;
                // every owned tech named under the map (left of the panel).
                let under_map: String = sc
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Text(t) => {
                            assert!(t.size >= scene::MIN_TEXT, "`{}` at {} px: {what}", t.text, t.size);
                            let (x, y, w, h) = text_box(t);
                            assert!(
                                x >= 0.0 && y >= 0.0 && x + w <= 1600.5 && y + h <= 1200.5,
                                "`{}` off the board",
                                t.text
                            );
                            (t.x < left).then(|| t.text.clone())
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join(" · ");
                for ps in &st.seats {
                    for tech in &ps.techs {
                        assert!(under_map.contains(tech.name()), "{tech:?} not listed: {what}");
                    }
                }
                // Every tech on offer: its whole text, in one to three lines.
                let offered: Vec<Tech> = st
                    .universal
                    .iter()
                    .copied()
                    .chain(st.market.iter().flatten().copied())
                    .collect();
                for tech in offered {
                    // The name in bold, then the description's lines under it.
                    let at = texts
                        .iter()
                        .position(|t| t.bold && t.text == tech.name())
                        .unwrap_or_else(|| panic!("{tech:?} is not shown: {what}"));
                    let lines: Vec<&&orrery_render::Text> = texts[at + 1..]
                        .iter()
                        .take_while(|t| !t.bold && t.x == texts[at].x)
                        .collect();
                    let shown: Vec<&str> = lines.iter().map(|t| t.text.as_str()).collect();
                    assert!(
                        (1..=3).contains(&lines.len()) && shown.join(" ") == tech.text(),
                        "{tech:?} shown as {shown:?}: {what}"
                    );
                    for l in lines {
                        assert!(l.size >= TECH_TEXT_MIN, "`{}` at {} px: {what}", l.text, l.size);
                        sizes_used.insert(l.size as u32);
                    }
                }
            }
        }
    }
    eprintln!("tech text sizes used: {sizes_used:?}");
    assert!(sizes_used.contains(&(TECH_TEXT_MAX as u32)), "{sizes_used:?}");
    // A board as the game starts has room for the largest size.
    let st = start(3, 2);
    let sc = Starlanes::scene(
        &Starlanes::view(&st, Viewer::Public),
        &["a".into(), "b".into(), "c".into()],
    );
    let desc = st.universal[0].text();
    assert!(sc
        .items
        .iter()
        .any(|i| matches!(i, Item::Text(t) if desc.starts_with(t.text.as_str()) && t.size == TECH_TEXT_MAX)));
}

/// A move from two planets with chosen counts is not in the legal list
/// (too many combinations) but autocomplete offers it once the first
/// source and a comma are typed, and only what `decide` accepts.
#[test]
fn mixed_multi_planet_moves_are_offered_by_autocomplete() {
    let mut st = start(2, 1);
    let vega = st.map.index("Vega").unwrap();
    let mira = st.map.index("Mira").unwrap();
    let to = (0..st.map.planets.len())
        .find(|&p| st.map.adjacent(p, vega) && st.map.adjacent(p, mira) && st.forces[p].is_none())
        .expect("a planet next to Vega and Mira");
    let to_name = st.map.planets[to].name.clone();
    st.forces[mira] = Some((Seat(0), 2));
    let filled = vec![("to".to_string(), to_name.clone())];
    let more = |partial: &str| Starlanes::complete_more(&st, Seat(0), "move", "from", &filled, partial);

    let offered = more("Vega=2,");
    assert_eq!(offered, ["Vega=2,Mira", "Vega=2,Mira=1", "Vega=2,Mira=2"]);
    let legal: Vec<String> = Starlanes::legal_actions(&st, Seat(0))
        .iter()
        .map(|a| Starlanes::unparse(a).to_string())
        .collect();
    for v in &offered {
        let line = CommandLine::parse(&format!("move to:{to_name} from:{v}")).unwrap();
        let action = Starlanes::parse(&line).unwrap();
        assert!(Starlanes::decide(&st, Seat(0), &action).is_ok(), "{line}");
        if v.contains('=') && v.ends_with(char::is_numeric) {
            assert!(!legal.contains(&line.to_string()), "{line} is listed already");
        }
    }
    // Typing narrows; spaces after the comma are fine.
    assert_eq!(more("vega=1, mira="), ["vega=1,Mira=1", "vega=1,Mira=2"]);
    assert!(more("Vega=2,X").is_empty());
    // Nothing without a comma, for a source already listed or out of range,
    // for other options and orders, or for a seat whose turn it is not.
    assert!(more("Vega=2").is_empty());
    assert!(
        more("Mira=1,").iter().all(|v| v.starts_with("Mira=1,Vega")),
        "{:?}",
        more("Mira=1,")
    );
    assert!(more("Vega=4,").is_empty(), "Vega has 3 forces");
    assert!(Starlanes::complete_more(&st, Seat(0), "move", "to", &filled, "Vega=2,").is_empty());
    assert!(Starlanes::complete_more(&st, Seat(0), "use", "from", &filled, "Vega=2,").is_empty());
    assert!(Starlanes::complete_more(&st, Seat(1), "move", "from", &filled, "Vega=2,").is_empty());
}

/// Hexes are stored in the log (the map of `GameStarted`) and the state:
/// their JSON must stay byte-identical wherever the type lives, or stored
/// games stop loading.
#[test]
fn stored_hexes_keep_their_json() {
    use orrery_engine::Hex;
    let lane = map::Lane {
        hex: Hex::new(1, -1),
        ends: (Hex::new(0, -1), Hex::new(2, -1)),
    };
    assert_eq!(
        serde_json::to_string(&lane).unwrap(),
        r#"{"hex":{"q":1,"r":-1},"ends":[{"q":0,"r":-1},{"q":2,"r":-1}]}"#
    );
    let stored = r#"{"hex":{"q":1,"r":-1},"ends":[{"q":0,"r":-1},{"q":2,"r":-1}]}"#;
    assert_eq!(serde_json::from_str::<map::Lane>(stored).unwrap(), lane);
    let events = Starlanes::setup(&GameConfig::new(2, 1)).unwrap();
    let Event::GameStarted { map, .. } = &events[0] else {
        panic!("the set-up begins with GameStarted: {:?}", events[0]);
    };
    let json = serde_json::to_string(&events[0]).unwrap();
    let centre = map
        .planets
        .iter()
        .find(|p| p.hex == Hex::new(0, 0))
        .expect("a planet at the centre");
    assert!(
        json.contains(&format!(r#"{{"name":"{}","hex":{{"q":0,"r":0}},"#, centre.name)),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), events[0]);
}

fn control_of(st: &State, seat: Seat, text: &str) -> orrery_engine::Control {
    let a = Starlanes::parse(&CommandLine::parse(text).unwrap()).unwrap();
    assert!(Starlanes::legal_actions(st, seat).contains(&a), "`{text}` is not legal");
    Starlanes::control(st, seat, &a, &[])
}

#[test]
fn orders_are_offered_in_words() {
    use orrery_engine::ControlStyle;
    let mut st = start(2, 1);
    let vega = st.planet("Vega");
    let c = control_of(&st, Seat(0), "produce at:Vega");
    assert!(c.label.starts_with("Produce at Vega (+"), "{c:?}");
    assert_eq!(c.group, "Produce or refresh");
    assert_eq!(control_of(&st, Seat(0), "refresh").label, "Refresh planets and techs");
    let end = control_of(&st, Seat(0), "end");
    assert_eq!((end.label.as_str(), end.style), ("End turn", ControlStyle::End));
    assert_eq!(
        end.confirm.as_deref(),
        Some("End your turn? You can still take your Action.")
    );
    // An enemy next door: the move says it attacks.
    let next = st.map.neighbors(vega)[0];
    let next_name = st.map.planets[next].name.clone();
    Starlanes::apply(
        &mut st,
        &Event::ForcesSet {
            planet: next_name.clone(),
            seat: Some(Seat(1)),
            forces: 1,
        },
    );
    let c = control_of(&st, Seat(0), &format!("move to:{next_name} from:Vega=2"));
    assert_eq!(c.label, format!("Move 2 from Vega to {next_name} (attack 1)"));
    assert_eq!(c.style, ControlStyle::Main);
    // Seat 2 holds the scoring token in a 2-player game.
    play(&mut st, Seat(0), "end");
    let end = control_of(&st, Seat(1), "end");
    assert_eq!(end.label, "End turn and score");
    // Buying shows the price.
    Starlanes::apply(
        &mut st,
        &Event::ScienceSet {
            seat: Seat(1),
            science: 9,
        },
    );
    st.may_buy = true;
    let tech = st.universal[0];
    let c = control_of(&st, Seat(1), &format!("buy tech:{}", tech.name()));
    assert_eq!(c.label, format!("Buy {} (2 science)", tech.name()));
    assert_eq!(c.group, "Buy a tech");
}

#[test]
fn only_what_reveals_nothing_takes_back() {
    let mut st = start(2, 1);
    let all = |ev: &[Event]| ev.iter().all(Starlanes::takes_back);
    // Production: known yield, nothing drawn.
    assert!(all(&play(&mut st, Seat(0), "produce at:Vega")));
    // Ending the turn: scoring, the next player's turn.
    assert!(!all(&play(&mut st, Seat(0), "end")));
    // A plain move into an empty planet.
    let mine: Vec<usize> = (0..st.forces.len())
        .filter(|&p| st.holder(p) == Some(Seat(1)))
        .collect();
    let from = mine[0];
    let to = st
        .map
        .neighbors(from)
        .into_iter()
        .find(|&p| st.holder(p).is_none())
        .expect("an empty neighbour");
    let text = format!(
        "move to:{} from:{}=1",
        st.map.planets[to].name, st.map.planets[from].name
    );
    assert!(all(&play(&mut st, Seat(1), &text)));
    // A purchase refills the market from the hidden deck: no take-back,
    // unless the deck is empty.
    let drawn = Event::MarketCycled {
        market: [None; 3],
        discarded: None,
        drawn: Some(Tech::Levy),
    };
    assert!(!Starlanes::takes_back(&drawn));
    let empty = Event::MarketCycled {
        market: [None; 3],
        discarded: None,
        drawn: None,
    };
    assert!(Starlanes::takes_back(&empty));
    assert!(Starlanes::takes_back(&Event::TechBought {
        seat: Seat(1),
        tech: Tech::Levy,
        cost: 2,
        slot: None,
    }));
    // A move into an enemy planet fights: no take-back.
    let target = st
        .map
        .neighbors(from)
        .into_iter()
        .find(|&p| p != to)
        .expect("another neighbour");
    let target_name = st.map.planets[target].name.clone();
    Starlanes::apply(
        &mut st,
        &Event::ForcesSet {
            planet: target_name.clone(),
            seat: Some(Seat(0)),
            forces: 1,
        },
    );
    st.action_taken = false;
    let line = format!("move to:{target_name} from:{}=1", st.map.planets[from].name);
    let ev = play(&mut st, Seat(1), &line);
    assert!(ev.iter().any(|e| matches!(e, Event::CombatResolved { .. })));
    assert!(!all(&ev));
}

#[test]
fn a_turn_out_of_order_is_refused_without_seat_numbers_from_the_game() {
    let st = start(2, 1);
    let err = Starlanes::decide(&st, Seat(1), &Action::End).unwrap_err();
    // The game names the seats it waits on as seats (the service names
    // the players).
    let Rejection::NotYourDecision { waiting, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*waiting, vec![Seat(0)]);
    assert_eq!(
        err.to_string(),
        "nothing is asked of seat 2 right now; the game is waiting on seat 1"
    );
}

fn resign(st: &mut State, seat: Seat) -> Vec<Event> {
    let ev = Starlanes::resign(st, seat).unwrap_or_else(|e| panic!("{seat} resigns: {e}"));
    for e in &ev {
        Starlanes::apply(st, e);
    }
    ev
}

#[test]
fn a_resigned_seat_keeps_its_forces_in_civil_disorder_and_is_skipped() {
    let mut st = start(3, 4);
    let home = st
        .forces
        .iter()
        .position(|f| matches!(f, Some((s, _)) if *s == Seat(1)))
        .unwrap();
    let before = st.forces[home];
    // Seat 2 resigns during seat 1's turn: its forces stay, it owes nothing.
    let ev = resign(&mut st, Seat(1));
    assert_eq!(
        ev,
        vec![Event::Resigned {
            seat: Seat(1),
            planets: 1,
            forces: 3
        }]
    );
    assert_eq!(st.forces[home], before, "the forces stay where they are");
    assert!(Starlanes::legal_actions(&st, Seat(1)).is_empty());
    assert!(Starlanes::pending(&st).iter().all(|p| p.seat != Seat(1)));
    let names: Vec<String> = vec!["Ada".into(), "Bo".into(), "Cy".into()];
    let text = Starlanes::narrate(&ev[0], Viewer::Public, &names).unwrap();
    assert_eq!(
        text,
        "🏳️ Bo resigned: their 3 forces on 1 planet stay in civil disorder: they hold and defend, but never move, produce or score."
    );
    // Twice is refused.
    let err = Starlanes::resign(&st, Seat(1)).unwrap_err();
    assert!(err.to_string().contains("already resigned"), "{err}");
    // The turn goes from seat 1 straight to seat 3.
    let ev = play(&mut st, Seat(0), "end");
    assert!(
        ev.contains(&Event::TurnBegan {
            seat: Seat(2),
            round: 1
        }),
        "{ev:?}"
    );
    // Seat 3 holds the scoring token and scores; the token skips seat 2.
    let ev = play(&mut st, Seat(2), "end");
    assert!(ev.contains(&Event::TokenPassed { to: Seat(0) }), "{ev:?}");
    assert!(
        ev.contains(&Event::TurnBegan {
            seat: Seat(0),
            round: 2
        }),
        "{ev:?}"
    );
    // The board and the view say so.
    let view = Starlanes::view(&st, Viewer::Public);
    assert!(view.seats[1].resigned && !view.seats[0].resigned);
    let sc = Starlanes::scene(&view, &names);
    assert!(sc
        .items
        .iter()
        .any(|i| matches!(i, orrery_render::Item::Text(t) if t.text.starts_with("Bo · resigned"))));
}

#[test]
fn a_resigning_turn_holder_passes_the_turn_and_the_token() {
    let mut st = start(3, 4);
    play(&mut st, Seat(0), "end");
    play(&mut st, Seat(1), "end");
    // Seat 3 holds the token and the turn, and resigns mid-turn.
    assert_eq!((st.active, st.token), (Seat(2), Seat(2)));
    play(&mut st, Seat(2), "produce at:Rigel");
    let ev = resign(&mut st, Seat(2));
    assert!(matches!(ev[0], Event::Resigned { seat: Seat(2), .. }));
    assert_eq!(
        ev[1..],
        [
            Event::TokenPassed { to: Seat(1) },
            Event::TurnBegan {
                seat: Seat(0),
                round: 2
            }
        ]
    );
    assert_eq!((st.active, st.token, st.action_taken), (Seat(0), Seat(1), false));
    // Its stars no longer count at scoring.
    let nexus = st.planet("Nexus");
    st.forces[nexus] = Some((Seat(2), 5));
    play(&mut st, Seat(0), "end");
    let ev = play(&mut st, Seat(1), "end");
    assert!(
        ev.contains(&Event::Scored {
            seat: None,
            stars: vec![0, 0, 0]
        }),
        "{ev:?}"
    );
}

#[test]
fn the_last_player_left_wins_at_once() {
    let mut st = start(2, 1);
    let ev = resign(&mut st, Seat(0));
    assert_eq!(
        ev[1],
        Event::GameOver {
            outcome: Outcome::Winner {
                seat: Seat(1),
                reason: "the others resigned".into()
            }
        }
    );
    assert!(Starlanes::pending(&st).is_empty());
    assert_eq!(Starlanes::resign(&st, Seat(1)), Err(Rejection::GameOver));
    assert_eq!(
        Starlanes::standings(&st),
        vec![(Seat(1), "0 VP".to_string()), (Seat(0), "resigned (0 VP)".to_string())]
    );
}

#[test]
fn the_round_limit_crowns_only_players_still_playing() {
    let mut st = start(3, 2);
    st.options.rounds = 1;
    st.seats[2].vp = 3;
    resign(&mut st, Seat(2));
    play(&mut st, Seat(0), "end");
    let ev = play(&mut st, Seat(1), "end");
    let Some(Event::GameOver { outcome }) = ev.last() else {
        panic!("{ev:?}")
    };
    assert_eq!(outcome.winners(), vec![Seat(0), Seat(1)]);
}

/// Whole games by the test player, one seat resigning at a random point:
/// each ends (by VP, the round limit, or the last player left), nobody is
/// asked anything of a resigned seat, and the log folds to the state.
#[test]
fn games_with_a_resignation_end_and_replay() {
    let mut rng = GameRng::seeded(28);
    let mut resigned_games = 0;
    for seed in 0..24u64 {
        let players = 2 + (seed % 3) as u8;
        let mut events = Starlanes::setup(&GameConfig::new(players, seed)).unwrap();
        let mut st = Starlanes::fold(&events);
        let resign_at = rng.below(120);
        let mut out: Vec<Seat> = Vec::new();
        for step in 0..20_000u32 {
            if st.outcome.is_some() {
                break;
            }
            assert!(step < 19_999, "seed {seed}: no end");
            let ev = if step == resign_at || (step > resign_at && step % 97 == 0 && out.len() + 2 < players as usize) {
                let seat = Seat(rng.below(u32::from(players)) as u8);
                match Starlanes::resign(&st, seat) {
                    Ok(ev) => {
                        out.push(seat);
                        ev
                    }
                    Err(e) => {
                        assert!(out.contains(&seat), "seed {seed}: {e}");
                        continue;
                    }
                }
            } else {
                let seat = st.active;
                assert!(!out.contains(&seat), "seed {seed}: a resigned seat's turn");
                let legal = Starlanes::legal_actions(&st, seat);
                let a = hooks::test_order(&st, seat, &legal).unwrap();
                Starlanes::decide(&st, seat, &a).unwrap()
            };
            for e in &ev {
                Starlanes::apply(&mut st, e);
            }
            events.extend(ev);
            for s in &out {
                assert!(Starlanes::legal_actions(&st, *s).is_empty());
            }
        }
        let outcome = st.outcome.clone().expect("the game ended");
        assert!(
            outcome.winners().iter().all(|w| !out.contains(w)),
            "seed {seed}: {outcome:?}"
        );
        if out.len() + 1 == players as usize {
            assert_eq!(outcome.reason(), "the others resigned");
        }
        resigned_games += usize::from(!out.is_empty());
        assert_eq!(Starlanes::fold(&events), st, "seed {seed}: replay differs");
    }
    assert!(resigned_games >= 12, "only {resigned_games} games saw a resignation");
}
