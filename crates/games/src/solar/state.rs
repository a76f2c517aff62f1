//! The state of a game of Solar Crisis and the questions it answers
//! (`docs/rules/solar.md`): seats, planets, the bag, the deck, the turn,
//! the crisis phase; the dice and unit counts they hold. No rules: what
//! changes the state is [`super::events`], what may be ordered is
//! [`super::rules`].
//!
//! **Randomness.** The game's [`GameRng`] lives in the state; see
//! [`super::events`] for how the fold reproduces its stream.

use super::basics::board::{
    Phase, Piece, Planet, PlayerCount, UnitKind, BUY_LIMIT, DEFAULT_ROUND_LIMIT, DICE, DIE_FACES, HAND_LIMIT,
    MOVE_RANGE,
};
use super::basics::cards::CardId;
use super::basics::tiles::{AlienTile, TileId, TileKind, TileRef};
use orrery_engine::{GameRng, Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

// ---------------------------------------------------------------------------
// Options

/// Ruleset options (`config.options`), as the page's *Options* section
/// lists them: `{"round_limit": 12, "auto_losses": true}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// "from the round after this one, a Player Actions phase allows only
    /// `pass`" (default 10, 4–30).
    pub round_limit: u32,
    /// "when true, nobody is asked about crisis losses ...; the bot uses
    /// the loss order" (default false).
    pub auto_losses: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            round_limit: DEFAULT_ROUND_LIMIT,
            auto_losses: false,
        }
    }
}

// ---------------------------------------------------------------------------
// Dice

/// One die as rolled: "faces **skull, 1, 2, 3, 4, 5**. A skull counts as
/// **0**." Serialized as its value (0 = skull).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Die(u8);

/// A die value that no face shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a die shows skull (0) or 1 to 5, not {0}")]
pub struct BadDie(pub u8);

impl Die {
    /// The skull face (value 0).
    pub const SKULL: Die = Die(0);

    /// `None` for a value no face shows.
    pub fn new(value: u8) -> Option<Die> {
        DIE_FACES.contains(&u32::from(value)).then_some(Die(value))
    }

    /// One roll from the game's generator.
    pub fn roll(rng: &mut GameRng) -> Die {
        let face = rng.below(DIE_FACES.len() as u32) as usize;
        let value = DIE_FACES.get(face).copied().unwrap_or(0);
        Die(u8::try_from(value).unwrap_or(0))
    }

    /// The value: a skull counts as 0.
    pub fn value(self) -> u32 {
        u32::from(self.0)
    }

    /// Whether the die shows the skull (a casualty, or a crisis die kept).
    pub fn is_skull(self) -> bool {
        self.0 == 0
    }
}

impl TryFrom<u8> for Die {
    type Error = BadDie;
    fn try_from(value: u8) -> Result<Die, BadDie> {
        Die::new(value).ok_or(BadDie(value))
    }
}

impl From<Die> for u8 {
    fn from(die: Die) -> u8 {
        die.0
    }
}

/// "skull", "1" ... "5".
impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_skull() {
            f.write_str("skull")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// "Every roll ... is of this many dice": the three dice, numbered die 1, 2, 3.
pub type Dice = [Die; DICE];

/// Rolls the three dice.
pub fn roll_dice(rng: &mut GameRng) -> Dice {
    [Die::roll(rng), Die::roll(rng), Die::roll(rng)]
}

/// The sum of the dice (skull 0): the first-player roll and the damage to Earth.
pub fn dice_total(dice: &Dice) -> u32 {
    dice.iter().map(|d| d.value()).sum()
}

/// "**highest die − lowest die** (skull = 0; the middle die is dropped)":
/// the dice part of a claim's cost.
pub fn dice_spread(dice: &Dice) -> u32 {
    let hi = dice.iter().map(|d| d.value()).max().unwrap_or(0);
    let lo = dice.iter().map(|d| d.value()).min().unwrap_or(0);
    hi - lo
}

/// Skulls among the dice ("the dropped middle die counts too").
pub fn skulls(dice: &Dice) -> u32 {
    dice.iter().filter(|d| d.is_skull()).count() as u32
}

// ---------------------------------------------------------------------------
// Units and holdings

/// A number of units of each type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct UnitCounts {
    /// Infantry.
    pub infantry: u32,
    /// Spaceships.
    pub spaceship: u32,
    /// Tanks.
    pub tank: u32,
}

impl UnitCounts {
    /// No units.
    pub const NONE: UnitCounts = UnitCounts {
        infantry: 0,
        spaceship: 0,
        tank: 0,
    };

    /// `n` units of one type.
    pub fn of(kind: UnitKind, n: u32) -> UnitCounts {
        let mut u = UnitCounts::NONE;
        *u.get_mut(kind) = n;
        u
    }

    /// So many infantry, spaceships and tanks.
    pub fn new(infantry: u32, spaceship: u32, tank: u32) -> UnitCounts {
        UnitCounts {
            infantry,
            spaceship,
            tank,
        }
    }

    /// The count of one type.
    pub fn get(self, kind: UnitKind) -> u32 {
        match kind {
            UnitKind::Infantry => self.infantry,
            UnitKind::Spaceship => self.spaceship,
            UnitKind::Tank => self.tank,
        }
    }

    /// The count of one type, to change.
    pub fn get_mut(&mut self, kind: UnitKind) -> &mut u32 {
        match kind {
            UnitKind::Infantry => &mut self.infantry,
            UnitKind::Spaceship => &mut self.spaceship,
            UnitKind::Tank => &mut self.tank,
        }
    }

    /// All units, of every type.
    pub fn total(self) -> u32 {
        UnitKind::ALL.iter().map(|&k| self.get(k)).fold(0, u32::saturating_add)
    }

    /// Combat points (infantry 1, spaceship 1, tank 2): what they pay, or
    /// a Tension claim's defence.
    pub fn cp(self) -> u32 {
        UnitKind::ALL
            .iter()
            .map(|&k| self.get(k).saturating_mul(k.cp()))
            .fold(0, u32::saturating_add)
    }

    /// No unit at all.
    pub fn is_empty(self) -> bool {
        self.total() == 0
    }

    /// Both counts added, type by type.
    pub fn plus(self, other: UnitCounts) -> UnitCounts {
        let mut u = self;
        for k in UnitKind::ALL {
            *u.get_mut(k) = self.get(k).saturating_add(other.get(k));
        }
        u
    }

    /// `other` taken away, type by type, never below 0.
    pub fn minus(self, other: UnitCounts) -> UnitCounts {
        let mut u = self;
        for k in UnitKind::ALL {
            *u.get_mut(k) = self.get(k).saturating_sub(other.get(k));
        }
        u
    }

    /// Whether every count is at least `other`'s.
    pub fn covers(self, other: UnitCounts) -> bool {
        UnitKind::ALL.iter().all(|&k| self.get(k) >= other.get(k))
    }
}

/// "3 infantry, 1 spaceship", "no units".
impl fmt::Display for UnitCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = UnitKind::ALL
            .iter()
            .filter(|&&k| self.get(k) > 0)
            .map(|&k| {
                let n = self.get(k);
                match (k, n) {
                    (UnitKind::Infantry, _) | (_, 1) => format!("{n} {}", k.name()),
                    _ => format!("{n} {}s", k.name()),
                }
            })
            .collect();
        if parts.is_empty() {
            f.write_str("no units")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// What one colour has at one planet: units in orbit (ready) and on the
/// surface (spent), mines and factories.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Holdings {
    /// "Units in orbit are ready".
    pub orbit: UnitCounts,
    /// "units on the surface are spent".
    pub surface: UnitCounts,
    /// Mines here.
    pub mines: u32,
    /// Factories here.
    pub factories: u32,
}

impl Holdings {
    /// Units in orbit and on the surface.
    pub fn units(&self) -> UnitCounts {
        self.orbit.plus(self.surface)
    }

    /// Mines or factories.
    pub fn pieces(&self, piece: Piece) -> u32 {
        match piece {
            Piece::Mine => self.mines,
            Piece::Factory => self.factories,
        }
    }

    pub(super) fn pieces_mut(&mut self, piece: Piece) -> &mut u32 {
        match piece {
            Piece::Mine => &mut self.mines,
            Piece::Factory => &mut self.factories,
        }
    }

    /// "Income on a planet" = £3 per mine + £2 per factory.
    pub fn income(&self) -> u32 {
        Piece::ALL
            .iter()
            .map(|&p| self.pieces(p).saturating_mul(p.income()))
            .fold(0, u32::saturating_add)
    }

    /// Nothing at all here (no units, no pieces).
    pub fn is_empty(&self) -> bool {
        self.units().is_empty() && self.mines == 0 && self.factories == 0
    }
}

// ---------------------------------------------------------------------------
// Seats and planets

/// One player (one colour).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    /// Money, public, never below £0.
    pub money: u32,
    /// The hand, **oldest gain first**: the deadline default of a discard
    /// is "the most recently gained cards, the last one first". Own cards
    /// are in it too (they are the same for every colour). Secret.
    pub hand: Vec<CardId>,
    /// Units, mines and factories per planet (a planet with nothing is absent).
    pub planets: BTreeMap<Planet, Holdings>,
    /// Kept Big Game, Crisis and Alien tiles, for scoring.
    pub kept: Vec<TileRef>,
    /// Pass cubes taken this period.
    pub cubes_taken: u32,
}

impl SeatState {
    /// What the colour has at `planet`.
    pub fn at(&self, planet: Planet) -> Holdings {
        self.planets.get(&planet).copied().unwrap_or_default()
    }

    pub(super) fn at_mut(&mut self, planet: Planet) -> &mut Holdings {
        self.planets.entry(planet).or_default()
    }

    /// Drops planets where nothing is left, so equal positions are equal states.
    pub(super) fn tidy(&mut self) {
        self.planets.retain(|_, h| !h.is_empty());
    }

    /// Units of one type on the board (orbit and surface, every planet).
    pub fn units_on_board(&self, kind: UnitKind) -> u32 {
        self.planets
            .values()
            .map(|h| h.units().get(kind))
            .fold(0, u32::saturating_add)
    }

    /// Mines or factories on the board.
    pub fn pieces_on_board(&self, piece: Piece) -> u32 {
        self.planets
            .values()
            .map(|h| h.pieces(piece))
            .fold(0, u32::saturating_add)
    }

    /// The own cards in the hand (stolen ones included).
    pub fn own_cards_held(&self) -> Vec<CardId> {
        self.hand.iter().copied().filter(|c| c.is_own()).collect()
    }

    /// VP from kept tiles: Big Game 1, Crisis 1, Alien 2.
    pub fn tile_vp(&self) -> u32 {
        self.kept.iter().map(|t| t.kind().gain().vp()).sum()
    }
}

/// One planet of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlanetState {
    /// Face-up bag tiles here, by number.
    pub tiles: Vec<TileId>,
    /// Flipped by a level-4+ crisis: for the rest of the game.
    pub flipped: bool,
    /// An alien was destroyed here: aliens never enter it again.
    pub cleared: bool,
}

/// A Tension claim's target: a rival's piece on the claimed planet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensionTarget {
    /// The defender.
    pub seat: Seat,
    /// The piece taken over.
    pub piece: Piece,
}

/// A claim of a defended, Tension or Alien tile in progress (declared, then
/// rolled; the claimant owes `pay` or `giveup`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The claimant.
    pub seat: Seat,
    /// Where the tile is.
    pub planet: Planet,
    /// The tile claimed (a bag tile or an Alien tile).
    pub tile: TileRef,
    /// A Tension claim's target.
    pub target: Option<TensionTarget>,
    /// The defence value as declared (a Tension claim: the defender's units).
    pub defence: u32,
    /// The dice, once rolled (rerolls replace a die).
    pub dice: Option<Dice>,
    /// Claim Benefits played for this claim, in order.
    pub cards: Vec<CardId>,
}

impl Claim {
    /// The defence that counts: halved (rounded down) by Infiltrators.
    pub fn effective_defence(&self) -> u32 {
        if self.cards.contains(&CardId::Infiltrators) {
            self.defence / 2
        } else {
            self.defence
        }
    }

    /// "Cost in combat points (CP) = highest die − lowest die + the defence
    /// value"; with Perfect Plan the dice add nothing.
    pub fn cost(&self) -> u32 {
        let dice = match (&self.dice, self.cards.contains(&CardId::PerfectPlan)) {
            (Some(d), false) => dice_spread(d),
            _ => 0,
        };
        dice.saturating_add(self.effective_defence())
    }

    /// CP the played cards add (Mercenaries +2, Orbital Bombardment +3,
    /// Trophy Hunters +4, Elite Troops +3; each copy counts).
    pub fn card_cp(&self) -> u32 {
        self.cards.iter().map(|c| c.params().cp).fold(0, u32::saturating_add)
    }

    /// Casualties: one per skull, less what the cards cancel.
    pub fn casualties(&self) -> u32 {
        let cancelled = self
            .cards
            .iter()
            .map(|c| c.params().fewer_casualties)
            .fold(0, u32::saturating_add);
        self.dice.as_ref().map_or(0, skulls).saturating_sub(cancelled)
    }
}

/// The turn in progress in Phase 3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    /// Whose turn it is.
    pub seat: Seat,
    /// Actions taken this turn (the one action, then Double Time's).
    pub actions_taken: u32,
    /// Every card played this turn, in order.
    pub played: Vec<CardId>,
    /// Move Benefits waiting for this turn's next Move.
    pub move_benefits: Vec<CardId>,
    /// Buy Benefits waiting for this turn's next Buy.
    pub buy_benefits: Vec<CardId>,
    /// A rolled claim in progress.
    pub claim: Option<Claim>,
    /// Espionage: the rival whose hand the player sees and takes a card from.
    pub espionage: Option<Seat>,
}

impl TurnState {
    pub(super) fn new(seat: Seat) -> TurnState {
        TurnState {
            seat,
            actions_taken: 0,
            played: Vec::new(),
            move_benefits: Vec::new(),
            buy_benefits: Vec::new(),
            claim: None,
            espionage: None,
        }
    }

    /// Actions this turn may have: 1, plus one per Double Time played.
    pub fn actions_allowed(&self) -> u32 {
        let extra = self.played.iter().filter(|&&c| c == CardId::DoubleTime).count() as u32;
        1 + extra
    }

    /// The next Move's range: 2, or 3 with Afterburners or Rapid
    /// Deployment ("range ... permissions do not add up").
    pub fn move_range(&self) -> u32 {
        self.move_benefits
            .iter()
            .filter_map(|c| c.params().move_range)
            .max()
            .unwrap_or(MOVE_RANGE)
    }

    /// Whether the next Move may take ready tanks (Heavy Lift, Rapid Deployment).
    pub fn move_takes_tanks(&self) -> bool {
        self.move_benefits.iter().any(|c| c.params().moves_tanks)
    }

    /// The next Buy's most units: 2, or 3 with War Bonds.
    pub fn buy_limit(&self) -> u32 {
        self.buy_benefits
            .iter()
            .filter_map(|c| c.params().buy_limit)
            .max()
            .unwrap_or(BUY_LIMIT)
    }

    /// £ off each unit of the next Buy (War Bonds; two count twice).
    pub fn buy_discount(&self) -> u32 {
        self.buy_benefits
            .iter()
            .map(|c| c.params().discount)
            .fold(0, u32::saturating_add)
    }
}

/// How a seat must choose losses in a crisis (the `lose` order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LossKind {
    /// Military units, and a piece for each unit it cannot lose (Venus
    /// level 2–3; the damage to Earth).
    UnitsThenPieces,
    /// Mines or factories only (Earth and Mars level 2–3; Titan pirates).
    Pieces,
}

/// Losses one seat owes and must choose (or the loss order chooses).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossDemand {
    /// Who owes the losses.
    pub seat: Seat,
    /// How many things.
    pub count: u32,
    /// Units first, or pieces only.
    pub kind: LossKind,
    /// Where they may come from, in the loss order's preference.
    pub planets: Vec<Planet>,
}

/// The Mercury leader's powers, offered in a crisis phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MercuryOffer {
    /// The Mercury leader.
    pub seat: Seat,
    /// Mercury's crisis level: 1 gives power A, 2 A and B, 3+ all three.
    pub level: u32,
}
// The state

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// 0 before set-up, then 2 to 5.
    pub players: u8,
    /// The seed the game was set up with.
    pub seed: u64,
    pub options: Options,
    /// The game's generator, as after the last draw.
    pub rng: Box<GameRng>,
    /// 0 during set-up, then 1 to 3.
    pub period: u32,
    /// The phase of the period; `None` during set-up and between periods.
    pub phase: Option<Phase>,
    /// The round of the Player Actions phase (0 before its first turn).
    pub round: u32,
    /// Who holds the First Player marker.
    pub first_player: Option<Seat>,
    /// The turn in progress (Phase 3 only).
    pub turn: Option<TurnState>,
    pub seats: Vec<SeatState>,
    /// Every planet, in planet order.
    pub planets: BTreeMap<Planet, PlanetState>,
    /// The bag: the tiles still in it, in draw order (first drawn first).
    /// Its contents are public, its order nobody's.
    pub bag: Vec<TileId>,
    /// Bag tiles that left the game (discarded after a claim, by a card,
    /// on Ganymede, by a flip or an alien).
    pub discarded_tiles: Vec<TileId>,
    /// The deck, in draw order (first drawn first). Nobody's to see.
    pub deck: Vec<CardId>,
    /// The discard pile, face up, oldest first.
    pub discard: Vec<CardId>,
    /// Where each Alien tile on the board stands.
    pub aliens: BTreeMap<AlienTile, Planet>,
    /// The invasion has happened ("once per game").
    pub invaded: bool,
    /// Pass cubes left on the Pass card.
    pub pass_cubes: u32,
    /// Crisis dice on skull-marked Crisis tiles (Phase 4).
    pub crisis_dice: BTreeMap<TileId, u32>,
    /// The crisis levels set in Phase 4 step 3.
    pub crisis_levels: BTreeMap<Planet, u32>,
    /// The planet whose crisis is being resolved.
    pub crisis: Option<Planet>,
    /// Mercury's powers, offered and not yet used or declined.
    pub mercury: Option<MercuryOffer>,
    /// Crisis losses still to be chosen.
    pub losses: Vec<LossDemand>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
    /// Final VP per seat, once scored (empty when everyone lost).
    pub final_vp: Vec<u32>,
    /// Seats that resigned, in the order they left: out of the game, their
    /// units, mines and factories removed; they take no turn, owe nothing
    /// and cannot win. Absent from the stored states of games nobody left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<Seat>,
    /// Boundaries passed: a phase begun, a round of the Player Actions
    /// phase begun, the game ended. The service posts a board at each.
    #[serde(default)]
    pub boundaries: u32,
}

impl Default for State {
    fn default() -> Self {
        State::empty()
    }
}

// ---------------------------------------------------------------------------
// Queries

impl State {
    /// The state before any event.
    pub fn empty() -> State {
        State {
            players: 0,
            seed: 0,
            options: Options::default(),
            rng: Box::new(GameRng::seeded(0)),
            period: 0,
            phase: None,
            round: 0,
            first_player: None,
            turn: None,
            seats: Vec::new(),
            planets: Planet::ALL.iter().map(|&p| (p, PlanetState::default())).collect(),
            bag: Vec::new(),
            discarded_tiles: Vec::new(),
            deck: Vec::new(),
            discard: Vec::new(),
            aliens: BTreeMap::new(),
            invaded: false,
            pass_cubes: 0,
            crisis_dice: BTreeMap::new(),
            crisis_levels: BTreeMap::new(),
            crisis: None,
            mercury: None,
            losses: Vec::new(),
            outcome: None,
            final_vp: Vec::new(),
            resigned: Vec::new(),
            boundaries: 0,
        }
    }

    /// The player count, once set up.
    pub fn player_count(&self) -> Option<PlayerCount> {
        PlayerCount::new(self.players)
    }

    /// Every seat, in seat order.
    pub fn seat_ids(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.seats.len())
    }

    /// One colour; `None` for a seat the game does not have.
    pub fn seat(&self, seat: Seat) -> Option<&SeatState> {
        self.seats.get(seat.index())
    }

    pub(super) fn seat_mut(&mut self, seat: Seat) -> Option<&mut SeatState> {
        self.seats.get_mut(seat.index())
    }

    /// What `seat` has at `planet` (nothing for an unknown seat).
    pub fn holdings(&self, seat: Seat, planet: Planet) -> Holdings {
        self.seat(seat).map(|s| s.at(planet)).unwrap_or_default()
    }

    /// `seat`'s units at `planet`, orbit and surface.
    pub fn units_at(&self, seat: Seat, planet: Planet) -> UnitCounts {
        self.holdings(seat, planet).units()
    }

    /// `seat`'s ready units (in orbit) at `planet`.
    pub fn ready_units(&self, seat: Seat, planet: Planet) -> UnitCounts {
        self.holdings(seat, planet).orbit
    }

    /// `seat`'s spent units (on the surface) at `planet`.
    pub fn spent_units(&self, seat: Seat, planet: Planet) -> UnitCounts {
        self.holdings(seat, planet).surface
    }

    /// `seat`'s income on `planet`: £3 per mine + £2 per factory.
    pub fn income_on(&self, seat: Seat, planet: Planet) -> u32 {
        self.holdings(seat, planet).income()
    }

    /// `seat`'s Phase 5 income: every mine and factory anywhere.
    pub fn income(&self, seat: Seat) -> u32 {
        Planet::ALL
            .iter()
            .map(|&p| self.income_on(seat, p))
            .fold(0, u32::saturating_add)
    }

    /// The seats with the highest income on `planet`, if it is more than £0
    /// ("Highest income needs more than £0"). Several on a tie.
    pub fn income_leaders(&self, planet: Planet) -> Vec<Seat> {
        let best = self.seat_ids().map(|s| self.income_on(s, planet)).max().unwrap_or(0);
        if best == 0 {
            return Vec::new();
        }
        self.seat_ids().filter(|&s| self.income_on(s, planet) == best).collect()
    }

    /// `seat`'s money (public).
    pub fn money(&self, seat: Seat) -> u32 {
        self.seat(seat).map_or(0, |s| s.money)
    }

    /// Cards in `seat`'s hand (public).
    pub fn hand_size(&self, seat: Seat) -> u32 {
        self.seat(seat).map_or(0, |s| s.hand.len() as u32)
    }

    /// Cards `seat` must discard to get down to the hand limit.
    pub fn over_hand_limit(&self, seat: Seat) -> u32 {
        self.hand_size(seat).saturating_sub(HAND_LIMIT)
    }

    /// Units of one type `seat` has in the supply ("can never have more than").
    pub fn units_in_supply(&self, seat: Seat, kind: UnitKind) -> u32 {
        let used = self.seat(seat).map_or(0, |s| s.units_on_board(kind));
        kind.limit().saturating_sub(used)
    }

    /// Mines or factories `seat` has in the supply.
    pub fn pieces_in_supply(&self, seat: Seat, piece: Piece) -> u32 {
        let used = self.seat(seat).map_or(0, |s| s.pieces_on_board(piece));
        piece.limit().saturating_sub(used)
    }

    /// Mines plus factories `seat` has on the board (the second tie-break).
    pub fn pieces_on_board(&self, seat: Seat) -> u32 {
        self.seat(seat).map_or(0, |s| {
            s.pieces_on_board(Piece::Mine) + s.pieces_on_board(Piece::Factory)
        })
    }

    /// Planets where `seat` has at least one mine or factory (Tax Collection).
    pub fn planets_with_pieces(&self, seat: Seat) -> Vec<Planet> {
        Planet::ALL
            .into_iter()
            .filter(|&p| {
                let h = self.holdings(seat, p);
                h.mines + h.factories > 0
            })
            .collect()
    }

    /// Pass cubes left on the Pass card.
    pub fn cubes_left(&self) -> u32 {
        self.pass_cubes
    }

    /// Pass cubes taken this period, by everyone.
    pub fn cubes_taken(&self) -> u32 {
        self.seats.iter().map(|s| s.cubes_taken).sum()
    }

    /// The planet's state (every planet is present).
    pub fn planet(&self, planet: Planet) -> PlanetState {
        self.planets.get(&planet).cloned().unwrap_or_default()
    }

    pub(super) fn planet_mut(&mut self, planet: Planet) -> &mut PlanetState {
        self.planets.entry(planet).or_default()
    }

    /// Face-up bag tiles on `planet`, by number.
    pub fn tiles_at(&self, planet: Planet) -> Vec<TileId> {
        self.planets.get(&planet).map(|p| p.tiles.clone()).unwrap_or_default()
    }

    /// Where a bag tile lies face up, if it does.
    pub fn tile_planet(&self, tile: TileId) -> Option<Planet> {
        self.planets
            .iter()
            .find(|(_, p)| p.tiles.contains(&tile))
            .map(|(&planet, _)| planet)
    }

    /// Whether `planet` has flipped.
    pub fn is_flipped(&self, planet: Planet) -> bool {
        self.planets.get(&planet).is_some_and(|p| p.flipped)
    }

    /// Whether an alien was destroyed on `planet`.
    pub fn is_cleared(&self, planet: Planet) -> bool {
        self.planets.get(&planet).is_some_and(|p| p.cleared)
    }

    /// The Alien tile on `planet`, if any.
    pub fn alien_at(&self, planet: Planet) -> Option<AlienTile> {
        self.aliens.iter().find(|(_, &p)| p == planet).map(|(&a, _)| a)
    }

    /// Whether Phase 2 places tiles on `planet`: not flipped, no Alien tile.
    pub fn takes_tiles(&self, planet: Planet) -> bool {
        !self.is_flipped(planet) && self.alien_at(planet).is_none()
    }

    /// Crisis tiles on `planet`.
    pub fn crisis_tiles_at(&self, planet: Planet) -> Vec<TileId> {
        self.tiles_at(planet)
            .into_iter()
            .filter(|t| t.kind() == TileKind::Crisis)
            .collect()
    }

    /// "Crisis level of each planet = its Crisis tiles + the dice on it",
    /// as the board stands now.
    pub fn crisis_level(&self, planet: Planet) -> u32 {
        self.crisis_tiles_at(planet)
            .iter()
            .map(|t| 1 + self.crisis_dice.get(t).copied().unwrap_or(0))
            .sum()
    }

    /// The skull-marked Crisis tiles on the board in the order crisis dice
    /// take them: planet order, then tile number.
    pub fn skull_marked_tiles(&self) -> Vec<TileId> {
        Planet::ALL
            .iter()
            .flat_map(|&p| self.crisis_tiles_at(p))
            .filter(|t| t.skull_marked())
            .collect()
    }

    /// Seats still in the game (those that did not resign), from the First
    /// Player clockwise ("player order").
    pub fn turn_order(&self) -> Vec<Seat> {
        let n = self.seats.len();
        let first = self.first_player.map_or(0, Seat::index);
        (0..n)
            .filter_map(|i| u8::try_from((first + i) % n).ok())
            .map(Seat)
            .filter(|s| !self.has_resigned(*s))
            .collect()
    }

    /// The seat after `seat`, clockwise, skipping seats that resigned
    /// (`seat` itself when no other is left).
    pub fn next_seat(&self, seat: Seat) -> Seat {
        let n = self.seats.len().max(1);
        (1..=n)
            .filter_map(|k| u8::try_from((seat.index() + k) % n).ok())
            .map(Seat)
            .find(|s| !self.has_resigned(*s))
            .unwrap_or(seat)
    }

    /// Whether `seat` resigned.
    pub fn has_resigned(&self, seat: Seat) -> bool {
        self.resigned.contains(&seat)
    }

    /// Seats still in the game, in seat order.
    pub fn in_play(&self) -> Vec<Seat> {
        self.seat_ids().filter(|s| !self.has_resigned(*s)).collect()
    }

    /// Whose turn it is.
    pub fn turn_seat(&self) -> Option<Seat> {
        self.turn.as_ref().map(|t| t.seat)
    }

    /// The rolled claim in progress.
    pub fn claim(&self) -> Option<&Claim> {
        self.turn.as_ref().and_then(|t| t.claim.as_ref())
    }

    /// Whether the round limit allows only `pass` now ("From round 11").
    pub fn passing_only(&self) -> bool {
        self.phase == Some(Phase::PlayerActions) && self.round > self.options.round_limit
    }

    /// Whether `seat` may still be asked about `planet`'s crisis losses.
    pub fn owes_losses(&self, seat: Seat) -> Option<&LossDemand> {
        self.losses.iter().find(|d| d.seat == seat)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
}

#[cfg(test)]
mod tests;
