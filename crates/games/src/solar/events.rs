//! The past-tense events of Solar Crisis and how an event changes the
//! state (`docs/rules/solar.md`).
//!
//! The state is purely the fold of the events: [`apply`] is infallible,
//! deterministic and total (it tolerates odd events, such as a scenario's
//! unvalidated `given:` lines, without panicking).
//!
//! **Randomness.** The game's [`GameRng`] lives in the state. Every event
//! that drew from it (a shuffle, a roll, a random steal) carries the
//! generator *as it was after the draw*, and [`apply`] stores it: the fold
//! of the log reproduces the stream bit for bit and `apply` never draws.
//! The bag and the deck are shuffled when they are formed and drawn from
//! the front, so a draw needs no randomness of its own; their order is in
//! the state (and in the shuffle events) but is nobody's to see: views and
//! narration leave it out, as they leave out the hands.

use super::basics::board::{Phase, Piece, Planet, PlayerCount};
use super::basics::cards::{self, CardId, CardKind, Timing, OWN_CARDS};
use super::basics::tiles::{AlienTile, TileId, TileRef};
use super::state::{
    Claim, Dice, Die, Holdings, LossDemand, MercuryOffer, Options, SeatState, State, TensionTarget, TurnState,
    UnitCounts,
};
use orrery_engine::{GameRng, Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
// ---------------------------------------------------------------------------
// Events

/// Why money changed hands.
/// A roll for the First Player marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRoll {
    /// Who rolled.
    pub seat: Seat,
    /// The three dice.
    pub dice: Dice,
}

// ---------------------------------------------------------------------------
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoneyReason {
    /// The £12 of set-up.
    SetUp,
    /// A Windfall tile.
    Windfall,
    /// A card's effect (Trade Deal, Reserve Funds...) or price (Saboteurs).
    Card(CardId),
    /// Units bought.
    Purchase,
    /// A Mercury power.
    MercuryPower,
    /// Space Pirates!
    Pirates,
}

/// The action a turn's action was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    /// `move` (with or without a claim).
    Move,
    /// `claim`.
    Claim,
    /// `buy`.
    Buy,
    /// An Action card.
    Card,
    /// `pass`.
    Pass,
}

/// Past-tense facts; the state is their fold. Seats are 0-based in JSON.
/// Events that drew from the generator carry it as it was after the draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A game was set up: colours taken (each hand holds the 4 own cards),
    /// the 55 tiles in the bag and the 40 cards in the deck (unshuffled),
    /// the generator seeded.
    GameSetUp {
        players: PlayerCount,
        seed: u64,
        options: Options,
    },
    /// The deck was shuffled into this order.
    DeckShuffled { order: Vec<CardId>, rng: Box<GameRng> },
    /// The bag was shuffled into this draw order.
    BagShuffled { order: Vec<TileId>, rng: Box<GameRng> },
    /// Cards were dealt from the deck at set-up (secret: the seat's own).
    CardsDealt { seat: Seat, cards: Vec<CardId> },
    /// A round of first-player rolls (re-rolls are among the tied only).
    FirstPlayerRolled { rolls: Vec<SeatRoll>, rng: Box<GameRng> },
    /// The First Player marker was taken (the roll, or the last Pass cube).
    FirstPlayerMarkerTaken { seat: Seat },
    /// A period began (1 to 3).
    PeriodBegan { period: u32 },
    /// A phase of the period began.
    PhaseBegan { phase: Phase },
    /// The Pass cubes were placed (the ones taken are returned first).
    PassCubesPlaced { cubes: u32 },
    /// Tiles were discarded from a planet (Ganymede's Crisis tiles, Crisis
    /// Team, Emergency Powers): they leave the game.
    TilesDiscarded { planet: Planet, tiles: Vec<TileId> },
    /// Tiles were drawn from the bag and placed face up (Phase 2, Survey).
    TilesDrawn { planet: Planet, tiles: Vec<TileId> },
    /// A round of the Player Actions phase began.
    RoundBegan { round: u32 },
    /// A seat's turn began.
    TurnBegan { seat: Seat },
    /// The seat took an action (Move and Buy Benefits are used up by theirs).
    ActionTaken { seat: Seat, action: ActionKind },
    /// The seat took a Pass cube (the card drawn is its own event).
    Passed { seat: Seat },
    /// Overtime: a cube taken this period (from `from`'s) went back on the Pass card.
    PassCubeReturned { seat: Seat, from: Seat },
    /// Cards were drawn from the deck (secret: the seat's own).
    CardsDrawn { seat: Seat, cards: Vec<CardId> },
    /// The empty deck was made from the shuffled discard pile.
    DeckReshuffled { order: Vec<CardId>, rng: Box<GameRng> },
    /// A card was played: a deck card goes to the discard pile, an own card
    /// leaves the game. Its effects are their own events.
    CardPlayed { seat: Seat, card: CardId },
    /// Cards were discarded face up (the hand limit).
    CardsDiscarded { seat: Seat, cards: Vec<CardId> },
    /// Espionage: the seat saw `target`'s hand and owes a pick.
    HandRevealed { seat: Seat, target: Seat },
    /// A chosen card was taken from a rival's hand (Espionage).
    CardTaken { seat: Seat, from: Seat, card: CardId },
    /// A random card was taken from a rival's hand (Mercury power A).
    CardStolen {
        seat: Seat,
        from: Seat,
        card: CardId,
        rng: Box<GameRng>,
    },
    /// Money taken from the bank.
    MoneyGained {
        seat: Seat,
        amount: u32,
        reason: MoneyReason,
    },
    /// Money paid to the bank (never below £0).
    MoneyPaid {
        seat: Seat,
        amount: u32,
        reason: MoneyReason,
    },
    /// Units placed from the supply in orbit, ready.
    UnitsPlaced {
        seat: Seat,
        planet: Planet,
        units: UnitCounts,
    },
    /// Ready units moved, arriving in orbit.
    UnitsMoved {
        seat: Seat,
        from: Planet,
        to: Planet,
        units: UnitCounts,
    },
    /// Ready units went to the surface (a claim's payment).
    UnitsSpent {
        seat: Seat,
        planet: Planet,
        units: UnitCounts,
    },
    /// Units were destroyed, back to the supply.
    UnitsLost {
        seat: Seat,
        planet: Planet,
        ready: UnitCounts,
        spent: UnitCounts,
    },
    /// Phase 6: every unit on a surface went back into orbit.
    UnitsReturnedToOrbit,
    /// A mine or factory was put on a planet.
    PieceGained { seat: Seat, planet: Planet, piece: Piece },
    /// A mine or factory was removed, back to the supply.
    PieceLost { seat: Seat, planet: Planet, piece: Piece },
    /// A rolled claim was declared.
    ClaimDeclared {
        seat: Seat,
        planet: Planet,
        tile: TileRef,
        target: Option<TensionTarget>,
        defence: u32,
    },
    /// The claim's dice.
    ClaimRolled { seat: Seat, dice: Dice, rng: Box<GameRng> },
    /// Recalibrate: die 1, 2 or 3 was rerolled.
    DieRerolled {
        seat: Seat,
        die: u8,
        value: Die,
        rng: Box<GameRng>,
    },
    /// A bag tile was claimed: kept (Big Game, Crisis) or discarded.
    TileClaimed { seat: Seat, planet: Planet, tile: TileId },
    /// An Alien tile was claimed: kept for 2 VP, the planet cleared.
    AlienDestroyed {
        seat: Seat,
        alien: AlienTile,
        planet: Planet,
    },
    /// The rolled claim ended (paid or given up).
    ClaimEnded { seat: Seat, succeeded: bool },
    /// Agitators: a Crisis tile moved to an adjacent planet.
    TileMoved { tile: TileId, from: Planet, to: Planet },
    /// Phase 4: the crisis dice.
    CrisisRolled { dice: Dice, rng: Box<GameRng> },
    /// The kept skulls went on these skull-marked tiles (one entry per die).
    CrisisDicePlaced { tiles: Vec<TileId> },
    /// Every planet's crisis level for this phase.
    CrisisLevelsSet { levels: BTreeMap<Planet, u32> },
    /// The crisis of this planet is resolved now.
    CrisisResolving { planet: Planet, level: u32 },
    /// Mercury's leader may use powers.
    MercuryPowersOffered { seat: Seat, level: u32 },
    /// Mercury's leader used or declined the powers.
    MercuryPowersEnded { seat: Seat },
    /// Seats owe crisis losses.
    LossesDemanded { demands: Vec<LossDemand> },
    /// The seat's losses were taken (the losses are their own events).
    LossesTaken { seat: Seat },
    /// The damage to Earth was rolled (Moon or Mars flipped).
    DamageRolled {
        planet: Planet,
        dice: Dice,
        damage: u32,
        rng: Box<GameRng>,
    },
    /// Everything on a planet was removed: units, mines, factories and
    /// bag tiles (a flip; in games begun before 2026-11-28, the invasion
    /// and an alien arriving too).
    PlanetWiped { planet: Planet },
    /// An Alien tile took a planet (the invasion, an alien arriving): every
    /// unit (orbit and surface), mine and factory there was removed; its
    /// tiles stay ("Remove all units, mines, factories (including orbit)").
    PlanetOverrun { planet: Planet },
    /// A planet flipped, for the rest of the game.
    PlanetFlipped { planet: Planet },
    /// An Alien tile was placed (the invasion).
    AlienPlaced { alien: AlienTile, planet: Planet },
    /// An Alien tile advanced along the alien path.
    AlienMoved { alien: AlienTile, from: Planet, to: Planet },
    /// Phase 4 step 5: the dice were taken back.
    CrisisDiceReturned,
    /// Phase 5: income.
    IncomePaid { seat: Seat, amount: u32 },
    /// A period ended.
    PeriodEnded { period: u32 },
    /// The game ended. `vp` per seat when scored; empty when everyone lost.
    GameEnded { outcome: Outcome, vp: Vec<u32> },
    /// The seat left the game (it resigned, or the host resigned it): its
    /// units, mines and factories leave the board (back to its supply),
    /// `hand` (its whole hand) goes face up to the discard pile (own cards
    /// leave the game, as played ones do); the First Player marker, if it
    /// held it, passes clockwise; a Mercury offer or losses owed by it
    /// lapse, and an Espionage look at its hand ends.
    Resigned { seat: Seat, hand: Vec<CardId> },
}

// ---------------------------------------------------------------------------
// Apply

/// Takes the most recently gained copy of `card` out of `cards`.
fn take_latest(cards: &mut Vec<CardId>, card: CardId) -> bool {
    match cards.iter().rposition(|&c| c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
    }
}

/// Takes the first copy of `item` out of `items`.
fn take_first<T: PartialEq>(items: &mut Vec<T>, item: &T) -> bool {
    match items.iter().position(|x| x == item) {
        Some(i) => {
            items.remove(i);
            true
        }
        None => false,
    }
}

/// A card leaving a hand face up: deck cards go on the discard pile, own
/// cards leave the game.
fn to_discard_pile(discard: &mut Vec<CardId>, card: CardId) {
    if !card.is_own() {
        discard.push(card);
    }
}

impl State {
    fn remove_tile(&mut self, planet: Planet, tile: TileId) {
        take_first(&mut self.planet_mut(planet).tiles, &tile);
        self.crisis_dice.remove(&tile);
    }

    fn add_tile(&mut self, planet: Planet, tile: TileId) {
        let tiles = &mut self.planet_mut(planet).tiles;
        if !tiles.contains(&tile) {
            tiles.push(tile);
            tiles.sort();
        }
    }

    fn gain_cards(&mut self, seat: Seat, cards: &[CardId]) {
        for &card in cards {
            take_first(&mut self.deck, &card);
        }
        if let Some(s) = self.seat_mut(seat) {
            s.hand.extend_from_slice(cards);
        }
    }

    fn move_card(&mut self, from: Seat, to: Seat, card: CardId) {
        let taken = self.seat_mut(from).is_some_and(|s| take_latest(&mut s.hand, card));
        if taken {
            if let Some(s) = self.seat_mut(to) {
                s.hand.push(card);
            }
        }
    }

    fn with_holdings(&mut self, seat: Seat, planet: Planet, f: impl FnOnce(&mut Holdings)) {
        if let Some(s) = self.seat_mut(seat) {
            f(s.at_mut(planet));
            s.tidy();
        }
    }
}

/// Apply one event. Infallible and total: counts saturate, unknown seats
/// and missing cards or tiles are ignored.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::GameSetUp { players, seed, options } => {
            *state = State::empty();
            state.players = players.get();
            state.seed = *seed;
            state.options = options.clone();
            *state.rng = GameRng::seeded(*seed);
            state.seats = (0..players.get())
                .map(|_| SeatState {
                    hand: OWN_CARDS.to_vec(),
                    ..SeatState::default()
                })
                .collect();
            state.bag = TileId::all().collect();
            state.deck = cards::deck();
        }
        Event::DeckShuffled { order, rng } => {
            state.deck = order.clone();
            state.rng = rng.clone();
        }
        Event::BagShuffled { order, rng } => {
            state.bag = order.clone();
            state.rng = rng.clone();
        }
        Event::CardsDealt { seat, cards } | Event::CardsDrawn { seat, cards } => {
            state.gain_cards(*seat, cards);
        }
        Event::FirstPlayerRolled { rng, .. } => {
            state.rng = rng.clone();
        }
        Event::FirstPlayerMarkerTaken { seat } => {
            state.first_player = Some(*seat);
        }
        Event::PeriodBegan { period } => {
            state.period = *period;
            state.phase = None;
            state.round = 0;
            state.turn = None;
        }
        Event::PhaseBegan { phase } => {
            state.boundaries += 1;
            state.phase = Some(*phase);
            state.turn = None;
            if *phase == Phase::PlayerActions {
                state.round = 0;
            }
        }
        Event::PassCubesPlaced { cubes } => {
            state.pass_cubes = *cubes;
            for s in &mut state.seats {
                s.cubes_taken = 0;
            }
        }
        Event::TilesDiscarded { planet, tiles } => {
            for &tile in tiles {
                state.remove_tile(*planet, tile);
                state.discarded_tiles.push(tile);
            }
        }
        Event::TilesDrawn { planet, tiles } => {
            for &tile in tiles {
                take_first(&mut state.bag, &tile);
                state.add_tile(*planet, tile);
            }
        }
        Event::RoundBegan { round } => {
            // Round 1 begins with its phase: one boundary.
            if *round > 1 {
                state.boundaries += 1;
            }
            state.round = *round;
        }
        Event::TurnBegan { seat } => {
            state.turn = Some(TurnState::new(*seat));
        }
        Event::ActionTaken { action, .. } => {
            if let Some(t) = &mut state.turn {
                t.actions_taken = t.actions_taken.saturating_add(1);
                match action {
                    ActionKind::Move => t.move_benefits.clear(),
                    ActionKind::Buy => t.buy_benefits.clear(),
                    ActionKind::Claim | ActionKind::Card | ActionKind::Pass => {}
                }
            }
        }
        Event::Passed { seat } => {
            state.pass_cubes = state.pass_cubes.saturating_sub(1);
            if let Some(s) = state.seat_mut(*seat) {
                s.cubes_taken = s.cubes_taken.saturating_add(1);
            }
        }
        Event::PassCubeReturned { from, .. } => {
            state.pass_cubes = state.pass_cubes.saturating_add(1);
            if let Some(s) = state.seat_mut(*from) {
                s.cubes_taken = s.cubes_taken.saturating_sub(1);
            }
        }
        Event::DeckReshuffled { order, rng } => {
            for card in order {
                take_first(&mut state.discard, card);
            }
            state.deck.extend_from_slice(order);
            state.rng = rng.clone();
        }
        Event::CardPlayed { seat, card } => {
            let played = state.seat_mut(*seat).is_some_and(|s| take_latest(&mut s.hand, *card));
            if played {
                to_discard_pile(&mut state.discard, *card);
            }
            if let Some(t) = state.turn.as_mut().filter(|t| t.seat == *seat) {
                t.played.push(*card);
                match card.kind() {
                    CardKind::Benefit(Timing::Move) => t.move_benefits.push(*card),
                    CardKind::Benefit(Timing::Buy) => t.buy_benefits.push(*card),
                    CardKind::Benefit(Timing::Claim) => {
                        if let Some(c) = &mut t.claim {
                            c.cards.push(*card);
                        }
                    }
                    CardKind::FreeAction | CardKind::Action => {}
                }
            }
        }
        Event::CardsDiscarded { seat, cards } => {
            for &card in cards {
                if state.seat_mut(*seat).is_some_and(|s| take_latest(&mut s.hand, card)) {
                    to_discard_pile(&mut state.discard, card);
                }
            }
        }
        Event::HandRevealed { seat, target } => {
            if let Some(t) = state.turn.as_mut().filter(|t| t.seat == *seat) {
                t.espionage = Some(*target);
            }
        }
        Event::CardTaken { seat, from, card } => {
            state.move_card(*from, *seat, *card);
            if let Some(t) = state.turn.as_mut().filter(|t| t.seat == *seat) {
                t.espionage = None;
            }
        }
        Event::CardStolen { seat, from, card, rng } => {
            state.move_card(*from, *seat, *card);
            state.rng = rng.clone();
        }
        Event::MoneyGained { seat, amount, .. } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.money = s.money.saturating_add(*amount);
            }
        }
        Event::MoneyPaid { seat, amount, .. } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.money = s.money.saturating_sub(*amount);
            }
        }
        Event::UnitsPlaced { seat, planet, units } => {
            state.with_holdings(*seat, *planet, |h| h.orbit = h.orbit.plus(*units));
        }
        Event::UnitsMoved { seat, from, to, units } => {
            let moving = state.ready_units(*seat, *from);
            let moved = UnitCounts::NONE.plus(*units).minus(units.minus(moving));
            state.with_holdings(*seat, *from, |h| h.orbit = h.orbit.minus(moved));
            state.with_holdings(*seat, *to, |h| h.orbit = h.orbit.plus(moved));
        }
        Event::UnitsSpent { seat, planet, units } => {
            state.with_holdings(*seat, *planet, |h| {
                let spent = units.minus(units.minus(h.orbit));
                h.orbit = h.orbit.minus(spent);
                h.surface = h.surface.plus(spent);
            });
        }
        Event::UnitsLost {
            seat,
            planet,
            ready,
            spent,
        } => {
            state.with_holdings(*seat, *planet, |h| {
                h.orbit = h.orbit.minus(*ready);
                h.surface = h.surface.minus(*spent);
            });
        }
        Event::UnitsReturnedToOrbit => {
            for s in &mut state.seats {
                for h in s.planets.values_mut() {
                    h.orbit = h.orbit.plus(h.surface);
                    h.surface = UnitCounts::NONE;
                }
            }
        }
        Event::PieceGained { seat, planet, piece } => {
            state.with_holdings(*seat, *planet, |h| {
                let n = h.pieces_mut(*piece);
                *n = n.saturating_add(1);
            });
        }
        Event::PieceLost { seat, planet, piece } => {
            state.with_holdings(*seat, *planet, |h| {
                let n = h.pieces_mut(*piece);
                *n = n.saturating_sub(1);
            });
        }
        Event::ClaimDeclared {
            seat,
            planet,
            tile,
            target,
            defence,
        } => {
            if let Some(t) = state.turn.as_mut().filter(|t| t.seat == *seat) {
                t.claim = Some(Claim {
                    seat: *seat,
                    planet: *planet,
                    tile: *tile,
                    target: *target,
                    defence: *defence,
                    dice: None,
                    cards: Vec::new(),
                });
            }
        }
        Event::ClaimRolled { seat, dice, rng } => {
            if let Some(c) = state
                .turn
                .as_mut()
                .and_then(|t| t.claim.as_mut())
                .filter(|c| c.seat == *seat)
            {
                c.dice = Some(*dice);
            }
            state.rng = rng.clone();
        }
        Event::DieRerolled { seat, die, value, rng } => {
            if let Some(c) = state
                .turn
                .as_mut()
                .and_then(|t| t.claim.as_mut())
                .filter(|c| c.seat == *seat)
            {
                if let Some(d) = c
                    .dice
                    .as_mut()
                    .and_then(|dice| usize::from(*die).checked_sub(1).and_then(|i| dice.get_mut(i)))
                {
                    *d = *value;
                }
            }
            state.rng = rng.clone();
        }
        Event::TileClaimed { seat, planet, tile } => {
            state.remove_tile(*planet, *tile);
            if tile.kind().gain().keeps_tile() {
                if let Some(s) = state.seat_mut(*seat) {
                    s.kept.push(TileRef::Bag(*tile));
                }
            } else {
                state.discarded_tiles.push(*tile);
            }
        }
        Event::AlienDestroyed { seat, alien, planet } => {
            state.aliens.remove(alien);
            state.planet_mut(*planet).cleared = true;
            if let Some(s) = state.seat_mut(*seat) {
                s.kept.push(TileRef::Alien(*alien));
            }
        }
        Event::ClaimEnded { seat, .. } => {
            if let Some(t) = state.turn.as_mut().filter(|t| t.seat == *seat) {
                t.claim = None;
            }
        }
        Event::TileMoved { tile, from, to } => {
            let dice = state.crisis_dice.get(tile).copied();
            if take_first(&mut state.planet_mut(*from).tiles, tile) {
                state.add_tile(*to, *tile);
                if let Some(d) = dice {
                    state.crisis_dice.insert(*tile, d);
                }
            }
        }
        Event::CrisisRolled { rng, .. } | Event::DamageRolled { rng, .. } => {
            state.rng = rng.clone();
        }
        Event::CrisisDicePlaced { tiles } => {
            for &tile in tiles {
                let n = state.crisis_dice.entry(tile).or_insert(0);
                *n = n.saturating_add(1);
            }
        }
        Event::CrisisLevelsSet { levels } => {
            state.crisis_levels = levels.clone();
        }
        Event::CrisisResolving { planet, .. } => {
            state.crisis = Some(*planet);
        }
        Event::MercuryPowersOffered { seat, level } => {
            state.mercury = Some(MercuryOffer {
                seat: *seat,
                level: *level,
            });
        }
        Event::MercuryPowersEnded { .. } => {
            state.mercury = None;
        }
        Event::LossesDemanded { demands } => {
            for d in demands {
                state.losses.retain(|x| x.seat != d.seat);
                state.losses.push(d.clone());
            }
        }
        Event::LossesTaken { seat } => {
            state.losses.retain(|d| d.seat != *seat);
        }
        Event::PlanetWiped { planet } => {
            for s in &mut state.seats {
                s.planets.remove(planet);
            }
            let tiles = std::mem::take(&mut state.planet_mut(*planet).tiles);
            for tile in tiles {
                state.crisis_dice.remove(&tile);
                state.discarded_tiles.push(tile);
            }
        }
        Event::PlanetOverrun { planet } => {
            for s in &mut state.seats {
                s.planets.remove(planet);
            }
        }
        Event::PlanetFlipped { planet } => {
            state.planet_mut(*planet).flipped = true;
        }
        Event::AlienPlaced { alien, planet } => {
            state.aliens.insert(*alien, *planet);
            state.invaded = true;
        }
        Event::AlienMoved { alien, to, .. } => {
            if let Some(at) = state.aliens.get_mut(alien) {
                *at = *to;
            }
        }
        Event::CrisisDiceReturned => {
            state.crisis_dice.clear();
            state.crisis_levels.clear();
            state.crisis = None;
            state.mercury = None;
            state.losses.clear();
        }
        Event::IncomePaid { seat, amount } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.money = s.money.saturating_add(*amount);
            }
        }
        Event::PeriodEnded { .. } => {
            state.phase = None;
            state.turn = None;
        }
        Event::Resigned { seat, hand } => resign(state, *seat, hand),
        Event::GameEnded { outcome, vp } => {
            state.boundaries += 1;
            state.outcome = Some(outcome.clone());
            state.final_vp = vp.clone();
            state.turn = None;
            state.losses.clear();
            state.mercury = None;
        }
    }
}

/// See [`Event::Resigned`].
fn resign(state: &mut State, seat: Seat, hand: &[CardId]) {
    if state.seat(seat).is_none() {
        return;
    }
    if !state.resigned.contains(&seat) {
        state.resigned.push(seat);
    }
    if let Some(s) = state.seat_mut(seat) {
        s.planets.clear();
    }
    for &card in hand {
        if state.seat_mut(seat).is_some_and(|s| take_latest(&mut s.hand, card)) {
            to_discard_pile(&mut state.discard, card);
        }
    }
    if state.first_player == Some(seat) {
        let next = state.next_seat(seat);
        state.first_player = (next != seat).then_some(next);
    }
    if let Some(t) = state.turn.as_mut().filter(|t| t.espionage == Some(seat)) {
        t.espionage = None;
    }
    if state.mercury.is_some_and(|m| m.seat == seat) {
        state.mercury = None;
    }
    state.losses.retain(|d| d.seat != seat);
}

/// Folds events onto the empty state.
pub fn fold<'a>(events: impl IntoIterator<Item = &'a Event>) -> State {
    let mut state = State::empty();
    for e in events {
        apply(&mut state, e);
    }
    state
}

#[cfg(test)]
mod tests;
