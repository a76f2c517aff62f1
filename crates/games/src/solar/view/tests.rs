use super::*;
use crate::solar::basics::board::PERIODS;
use crate::solar::events::apply;
use crate::solar::rules;
use crate::solar::setup::open_period;
use crate::solar::state::TurnState;
use crate::solar::{events, setup};
use orrery_engine::{GameConfig, GameRng};

fn names() -> Vec<String> {
    ["alice", "bob", "carol", "dave", "erin"].map(String::from).to_vec()
}

fn json(v: &View) -> String {
    serde_json::to_string(v).expect("a view serializes")
}

/// A game set up and opened: period 1, round 1, the First Player's turn.
fn started(players: u8, seed: u64) -> State {
    let events = setup::setup(&GameConfig::new(players, seed)).expect("set-up");
    let mut s = events::fold(&events);
    for e in open_period(&s) {
        apply(&mut s, &e);
    }
    s
}

// ---------------------------------------------------------------------------
// Hidden information, by perturbation

/// `state` with everything `keep` cannot know changed: the deck's and the
/// bag's order, and the cards of every hand but `keep`'s (and, while
/// `keep` is spying, the target's) pooled with the deck, shuffled and dealt
/// back, so every hand keeps its size.
fn perturbed(state: &State, keep: Viewer, rng: &mut GameRng) -> State {
    let mut s = state.clone();
    let mut known: Vec<Seat> = keep.seat().into_iter().collect();
    if let Some(t) = s.turn.as_ref().filter(|t| keep.sees_secrets_of(t.seat)) {
        known.extend(t.espionage);
    }
    let others: Vec<Seat> = s.seat_ids().filter(|x| !known.contains(x)).collect();
    let mut pool: Vec<CardId> = s.deck.clone();
    for &seat in &others {
        pool.extend(s.seats[seat.index()].hand.iter().copied());
    }
    rng.shuffle(&mut pool);
    let mut cards = pool.into_iter();
    let deck_len = s.deck.len();
    s.deck = cards.by_ref().take(deck_len).collect();
    for &seat in &others {
        let n = s.seats[seat.index()].hand.len();
        s.seats[seat.index()].hand = cards.by_ref().take(n).collect();
    }
    rng.shuffle(&mut s.bag);
    *s.rng = GameRng::seeded(u64::from(rng.below(1_000_000)));
    s.seed ^= 0x5ec2e7;
    s
}

/// Every viewer's view of `state` is unchanged by what it cannot know, and
/// only a seat's own view holds a hand.
fn check_views(state: &State, rng: &mut GameRng, at: &str) {
    let viewers: Vec<Viewer> = std::iter::once(Viewer::Public)
        .chain(state.seat_ids().map(Viewer::Seat))
        .collect();
    for viewer in viewers {
        let v = view(state, viewer);
        for sv in &v.seats {
            assert_eq!(
                sv.hand.is_some(),
                viewer.sees_secrets_of(sv.seat),
                "{at}: {viewer:?} sees the hand of {}",
                sv.seat
            );
        }
        let before = json(&v);
        for _ in 0..2 {
            let other = perturbed(state, viewer, rng);
            assert_eq!(before, json(&view(&other, viewer)), "{at}: {viewer:?}'s view leaks");
        }
    }
}

/// The names of the cards an event names in public (played, discarded,
/// paid for).
fn public_cards(event: &Event) -> Vec<CardId> {
    let reason = |r: &MoneyReason| match r {
        MoneyReason::Card(c) => vec![*c],
        _ => Vec::new(),
    };
    match event {
        Event::CardPlayed { card, .. } => vec![*card],
        Event::CardsDiscarded { cards, .. } => cards.clone(),
        Event::MoneyGained { reason: r, .. } | Event::MoneyPaid { reason: r, .. } => reason(r),
        _ => Vec::new(),
    }
}

/// `event` with its hidden content changed: other cards drawn, dealt,
/// taken or stolen, another order for a shuffle, another generator.
fn disguised(event: &Event) -> Event {
    let rng = Box::new(GameRng::seeded(0xd15c));
    let other = |c: &CardId| {
        if *c == CardId::Espionage {
            CardId::Mercenaries
        } else {
            CardId::Espionage
        }
    };
    let mut e = event.clone();
    match &mut e {
        Event::CardsDealt { cards, .. } | Event::CardsDrawn { cards, .. } => {
            for c in cards.iter_mut() {
                *c = other(c);
            }
        }
        Event::CardTaken { card, .. } => *card = other(card),
        Event::CardStolen { card, rng: r, .. } => {
            *card = other(card);
            *r = rng;
        }
        Event::DeckShuffled { order, rng: r } | Event::DeckReshuffled { order, rng: r } => {
            order.reverse();
            *r = rng;
        }
        Event::BagShuffled { order, rng: r } => {
            order.reverse();
            *r = rng;
        }
        Event::FirstPlayerRolled { rng: r, .. }
        | Event::ClaimRolled { rng: r, .. }
        | Event::DieRerolled { rng: r, .. }
        | Event::CrisisRolled { rng: r, .. }
        | Event::DamageRolled { rng: r, .. } => *r = rng,
        Event::GameSetUp { seed, .. } => *seed ^= 0xd15c,
        _ => {}
    }
    e
}

/// What the public and the uninvolved learn of `event` does not depend on
/// its hidden content; public narration names no card but the public ones,
/// and no tile still in the bag.
fn check_narration(event: &Event, state_before: &State, names: &[String], at: &str) {
    let involved: Vec<Seat> = match event {
        Event::CardsDealt { seat, .. } | Event::CardsDrawn { seat, .. } => vec![*seat],
        Event::CardTaken { seat, from, .. } | Event::CardStolen { seat, from, .. } => vec![*seat, *from],
        _ => Vec::new(),
    };
    let other = disguised(event);
    let viewers = std::iter::once(Viewer::Public).chain(state_before.seat_ids().map(Viewer::Seat));
    for viewer in viewers {
        if viewer.seat().is_some_and(|s| involved.contains(&s)) {
            continue;
        }
        assert_eq!(
            narrate(event, viewer, names),
            narrate(&other, viewer, names),
            "{at}: {viewer:?} learns hidden content of {event:?}"
        );
    }
    let Some(text) = narrate(event, Viewer::Public, names) else {
        return;
    };
    let allowed = public_cards(event);
    for card in CardId::ALL {
        if !allowed.contains(&card) {
            assert!(!text.contains(card.name()), "{at}: public `{text}` names {card}");
        }
    }
    for tile in &state_before.bag {
        let placed = matches!(event, Event::TilesDrawn { tiles, .. } if tiles.contains(tile));
        if !placed {
            assert!(
                !text.contains(&format!("{tile} ")) && !text.ends_with(&format!("{tile}.")),
                "{at}: `{text}` names bag tile {tile}"
            );
        }
    }
    assert!(!text.contains("rng") && !text.contains("seed"), "{at}: `{text}`");
}

/// One seeded random game to its end, checking views and narration along
/// the way (views at every `every`th decision).
fn playout(players: u8, seed: u64, every: u32, seen: &mut BTreeMap<&'static str, u32>) {
    let names = names();
    let names = &names[..usize::from(players)];
    let mut c = GameConfig::new(players, seed);
    c.options = serde_json::json!({ "auto_losses": seed % 3 == 0 });
    let mut log = setup::setup(&c).expect("set-up");
    let mut s = State::empty();
    let mut check_rng = GameRng::seeded(seed ^ 0x71e3);
    let mut play_rng = GameRng::seeded(seed ^ 0xC1515);
    for e in &log {
        check_narration(e, &s, names, &format!("{players}p seed {seed} set-up"));
        apply(&mut s, e);
    }
    let open = open_period(&s);
    log.extend(open.iter().cloned());
    let mut pending_events = open;
    let mut steps = 0u32;
    loop {
        for e in &pending_events {
            let at = format!("{players}p seed {seed} step {steps}");
            check_narration(e, &s, names, &at);
            let kind = match e {
                Event::CardsDrawn { .. } => Some("cards drawn"),
                Event::CardPlayed { .. } => Some("cards played"),
                Event::HandRevealed { .. } => Some("espionage"),
                Event::CardTaken { .. } | Event::CardStolen { .. } => Some("cards taken"),
                _ => None,
            };
            if let Some(kind) = kind {
                *seen.entry(kind).or_insert(0) += 1;
            }
            apply(&mut s, e);
        }
        if steps % every == 0 || s.is_over() {
            check_views(&s, &mut check_rng, &format!("{players}p seed {seed} step {steps}"));
            // The phase label never names anyone.
            let info = phase(&s);
            for n in names {
                assert!(!info.label.contains(n.as_str()), "{}", info.label);
            }
        }
        if s.is_over() {
            break;
        }
        let Some(p) = rules::pending(&s).first().cloned() else {
            panic!("{players}p seed {seed}: nothing pending and no outcome");
        };
        let legal = rules::legal_actions(&s, p.seat);
        let a = match play_rng.pick(&legal) {
            Some(a) => a.clone(),
            None => rules::default_action(&s, p.seat).expect("a default"),
        };
        pending_events = rules::decide(&s, p.seat, &a).unwrap_or_else(|e| panic!("{players}p seed {seed}: {a:?}: {e}"));
        log.extend(pending_events.iter().cloned());
        steps += 1;
        assert!(steps < 10_000, "{players}p seed {seed}: no end");
    }
    *seen.entry("games").or_insert(0) += 1;
    if s.period == PERIODS {
        *seen.entry("full games").or_insert(0) += 1;
    }
}

#[test]
fn hidden_information_never_reaches_views_or_public_narration() {
    let mut seen = BTreeMap::new();
    for players in 2..=5u8 {
        for seed in 0..30u64 {
            playout(players, seed, 3, &mut seen);
        }
    }
    assert_eq!(seen.get("games").copied(), Some(120));
    assert!(seen.get("full games").copied().unwrap_or(0) > 0, "{seen:?}");
    assert!(seen.get("cards drawn").copied().unwrap_or(0) > 0, "{seen:?}");
    // What the random games reached (card plays, Espionage and steals once
    // the cards layer lists them among the legal actions).
    println!("{seen:?}");
}

// ---------------------------------------------------------------------------
// Views

#[test]
fn public_view_has_no_hands_and_a_seat_sees_its_own() {
    let s = started(3, 7);
    let public = view(&s, Viewer::Public);
    assert!(public.seats.iter().all(|sv| sv.hand.is_none()));
    assert!(public.seats.iter().all(|sv| sv.hand_size == 6), "4 own cards + 2 dealt");
    assert_eq!(public.deck_size, 40 - 6);
    let mine = view(&s, Viewer::Seat(Seat(1)));
    assert_eq!(mine.seats[1].hand.as_ref(), Some(&s.seats[1].hand));
    assert!(mine.seats[0].hand.is_none() && mine.seats[2].hand.is_none());
    // The bag: sorted contents, counts per type that add up.
    let bag = &public.bag;
    assert!(bag.tiles.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(bag.count as usize, s.bag.len());
    assert_eq!(bag.by_kind.iter().map(|(_, n)| n).sum::<u32>(), bag.count);
    let on_board: usize = public.planets.iter().map(|p| p.tiles.len()).sum();
    assert_eq!(on_board + bag.tiles.len(), 55);
    // Neither the seed nor the generator is in any view.
    let text = json(&public);
    assert!(!text.contains("rng") && !text.contains("seed"), "{text}");
}

#[test]
fn espionage_shows_the_target_hand_to_the_spy_only() {
    let mut s = started(3, 7);
    let spy = s.turn_seat().expect("a turn");
    let target = s.next_seat(spy);
    apply(&mut s, &Event::HandRevealed { seat: spy, target });
    let mut expected = s.seats[target.index()].hand.clone();
    expected.sort();
    let seen = view(&s, Viewer::Seat(spy)).espionage.expect("the spy sees");
    assert_eq!(seen.target, target);
    assert_eq!(seen.hand, expected);
    assert!(view(&s, Viewer::Public).espionage.is_none());
    assert!(view(&s, Viewer::Seat(target)).espionage.is_none());
    // Everyone sees that the spy looks at the target's hand.
    assert_eq!(view(&s, Viewer::Public).turn.and_then(|t| t.espionage), Some(target));
    // Without the look, the turn's espionage is empty.
    s.turn = Some(TurnState {
        espionage: None,
        ..s.turn.clone().expect("a turn")
    });
    assert!(view(&s, Viewer::Seat(spy)).espionage.is_none());
}

#[test]
fn prompts_are_the_owing_seat_s_only() {
    let s = started(2, 3);
    let seat = s.turn_seat().expect("a turn");
    let public = view(&s, Viewer::Public);
    assert_eq!(public.pending.len(), 1);
    assert_eq!(public.pending[0].seat, seat);
    assert_eq!(public.pending[0].kind, "turn");
    assert!(public.pending[0].prompt.is_none());
    assert!(view(&s, Viewer::Seat(seat)).pending[0].prompt.is_some());
}

// ---------------------------------------------------------------------------
// Narration

#[test]
fn drawn_cards_are_named_to_the_drawer_only() {
    let names = names();
    let e = Event::CardsDrawn {
        seat: Seat(0),
        cards: vec![CardId::Mercenaries, CardId::TradeDeal],
    };
    assert_eq!(
        narrate(&e, Viewer::Public, &names).as_deref(),
        Some("alice drew 2 cards.")
    );
    assert_eq!(
        narrate(&e, Viewer::Seat(Seat(1)), &names).as_deref(),
        Some("alice drew 2 cards.")
    );
    assert_eq!(
        narrate(&e, Viewer::Seat(Seat(0)), &names).as_deref(),
        Some("You drew Mercenaries and Trade Deal.")
    );
    let one = Event::CardsDealt {
        seat: Seat(2),
        cards: vec![CardId::Survey],
    };
    assert_eq!(
        narrate(&one, Viewer::Public, &names).as_deref(),
        Some("carol was dealt 1 card.")
    );
    assert_eq!(
        narrate(&one, Viewer::Seat(Seat(2)), &names).as_deref(),
        Some("You were dealt Survey.")
    );
}

#[test]
fn taken_cards_are_named_to_the_two_players_only() {
    let names = names();
    let e = Event::CardTaken {
        seat: Seat(0),
        from: Seat(1),
        card: CardId::HeavyLift,
    };
    assert_eq!(
        narrate(&e, Viewer::Seat(Seat(0)), &names).as_deref(),
        Some("You took Heavy Lift from bob.")
    );
    assert_eq!(
        narrate(&e, Viewer::Seat(Seat(1)), &names).as_deref(),
        Some("alice took Heavy Lift from you.")
    );
    assert_eq!(
        narrate(&e, Viewer::Seat(Seat(2)), &names).as_deref(),
        Some("alice took a card from bob.")
    );
    assert_eq!(
        narrate(&e, Viewer::Public, &names).as_deref(),
        Some("alice took a card from bob.")
    );
    let stolen = Event::CardStolen {
        seat: Seat(1),
        from: Seat(0),
        card: CardId::WarBonds,
        rng: Box::new(GameRng::seeded(1)),
    };
    assert_eq!(
        narrate(&stolen, Viewer::Public, &names).as_deref(),
        Some("bob stole at random a card from alice.")
    );
}

#[test]
fn shuffles_and_public_events_read_plainly() {
    let names = names();
    let shuffled = Event::DeckShuffled {
        order: crate::solar::basics::cards::deck(),
        rng: Box::new(GameRng::seeded(9)),
    };
    assert_eq!(
        narrate(&shuffled, Viewer::Seat(Seat(0)), &names).as_deref(),
        Some("The deck of 40 cards was shuffled.")
    );
    let played = Event::CardPlayed {
        seat: Seat(1),
        card: CardId::Mercenaries,
    };
    assert_eq!(
        narrate(&played, Viewer::Public, &names).as_deref(),
        Some("bob played Mercenaries.")
    );
    let moved = Event::UnitsMoved {
        seat: Seat(2),
        from: Planet::Earth,
        to: Planet::Mars,
        units: UnitCounts::new(3, 1, 0),
    };
    assert_eq!(
        narrate(&moved, Viewer::Public, &names).as_deref(),
        Some("carol moved 3 infantry, 1 spaceship from Earth to Mars.")
    );
    let tile = TileId::new(12).expect("tile");
    let drawn = Event::TilesDrawn {
        planet: Planet::Mars,
        tiles: vec![tile],
    };
    assert_eq!(
        narrate(&drawn, Viewer::Public, &names).as_deref(),
        Some("Tiles placed on Mars: #12 (Mine, defence 3).")
    );
    assert_eq!(narrate(&Event::CrisisDiceReturned, Viewer::Public, &names), None);
    // A name missing from the slice falls back to the seat number.
    let passed = Event::Passed { seat: Seat(4) };
    assert_eq!(
        narrate(&passed, Viewer::Public, &names[..2]).as_deref(),
        Some("seat 5 passed and took a Pass cube.")
    );
}

// ---------------------------------------------------------------------------
// Where the game is

#[test]
fn phase_labels() {
    let set_up = events::fold(&setup::setup(&GameConfig::new(3, 7)).expect("set-up"));
    let info = phase(&set_up);
    assert_eq!(info.label, "Setting up");
    assert_eq!(info.turn, None);
    assert_eq!(info.number, 0);

    let mut s = started(3, 7);
    let info = phase(&s);
    assert_eq!(info.label, "Period 1 · Player actions · Round 1");
    // No turn holder in the title: turns pass within a round, and a
    // header naming one would soon be wrong.
    assert!(s.turn_seat().is_some());
    assert_eq!(info.turn, None);
    assert_eq!(info.number, 3);
    assert_eq!(info.title(&names()), "Period 1 · Player actions · Round 1");

    apply(&mut s, &Event::RoundBegan { round: 2 });
    assert_eq!(phase(&s).label, "Period 1 · Player actions · Round 2");
    assert_eq!(phase(&s).number, 4, "a round begun is a boundary: a board is posted");

    apply(&mut s, &Event::PhaseBegan { phase: Phase::Crises });
    assert_eq!(phase(&s).label, "Period 1 · Crises");
    assert_eq!(phase(&s).number, 5);
    apply(
        &mut s,
        &Event::CrisisResolving {
            planet: Planet::Mars,
            level: 2,
        },
    );
    assert_eq!(phase(&s).label, "Period 1 · Crises · Mars");
    assert_eq!(phase(&s).turn, None);

    apply(&mut s, &Event::PeriodEnded { period: 1 });
    assert_eq!(phase(&s).label, "Period 1");
    apply(&mut s, &Event::PeriodBegan { period: 2 });
    apply(&mut s, &Event::PhaseBegan { phase: Phase::Tiles });
    assert_eq!(phase(&s).label, "Period 2 · Tiles");
    assert_eq!(phase(&s).number, 6);

    apply(
        &mut s,
        &Event::GameEnded {
            outcome: Outcome::AllLose {
                reason: "the aliens reached Earth".into(),
            },
            vp: Vec::new(),
        },
    );
    assert_eq!(phase(&s).label, "Period 2 · Game over");
    assert_eq!(phase(&s).number, 7);
    assert_eq!(phase(&s).turn, None);
}
