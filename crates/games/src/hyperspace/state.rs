//! The game state and the questions it answers (the fold of the events:
//! `events`).

use super::basics::{Card, Sector, Star, TOKENS};
use orrery_engine::{Outcome, Seat, Simultaneous};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Ruleset options (`config.options`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// The game ends after this many rounds at the latest (1..=200).
    pub rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { rounds: 25 }
    }
}

/// One warp token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    /// In the player's supply, free to use.
    Ready,
    /// Used this turn for a same-sector journey; back at the end of the turn.
    Spent,
    /// On the hyperspace track.
    Flight { square: u8, ships: u32, from: Sector },
    /// Moved past the last square: destroyed, gone for the rest of the game.
    Lost,
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    /// The starting home star (where ships are produced).
    pub home: Star,
    /// Who holds this home star against its owner, if it is captured.
    pub captured_by: Option<Seat>,
    /// Cards in hand (public).
    pub hand: Vec<Card>,
    /// Cards played since the last recycling, oldest first.
    pub played: Vec<Card>,
    pub tokens: Vec<Token>,
    pub eliminated: bool,
    /// The player resigned (and is out, as `eliminated`): their ships were
    /// removed and their home star is an ordinary star from then on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

impl SeatState {
    pub(super) fn new(home: Star) -> Self {
        SeatState {
            home,
            captured_by: None,
            hand: Card::ALL.to_vec(),
            played: Vec::new(),
            tokens: vec![Token::Ready; TOKENS as usize],
            eliminated: false,
            resigned: false,
        }
    }

    /// Index (0-based) of the first ready token.
    pub fn free_token(&self) -> Option<usize> {
        self.tokens.iter().position(|t| *t == Token::Ready)
    }

    /// Tokens lost in space (gone for good).
    pub fn lost_tokens(&self) -> u8 {
        self.tokens.iter().filter(|t| **t == Token::Lost).count() as u8
    }

    pub fn ships_in_flight(&self) -> u32 {
        self.tokens
            .iter()
            .map(|t| match t {
                Token::Flight { ships, .. } => *ships,
                _ => 0,
            })
            .sum()
    }
}

/// The step of a combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStep {
    /// Both sides pick a card in secret.
    Cards { picks: Simultaneous<Card> },
    /// The victor chooses the losses.
    Losses { victor: Seat, loser: Seat },
    /// `seat` may retreat (the loser first, then the victor).
    Retreat { seat: Seat, victor: Seat, loser: Seat },
    /// The combat is over; fight again or end the battle.
    Resolved,
}

/// A battle in progress at one star, between the active player and one
/// defender.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub star: Star,
    pub attacker: Seat,
    pub defender: Seat,
    /// 1 for the first combat, then 2, 3... ("fight again").
    pub combat: u32,
    pub step: BattleStep,
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Before set-up.
    NotStarted,
    /// The active player departs and arrives. Once a fleet has arrived,
    /// departures are over for the turn.
    Moving {
        departures_open: bool,
    },
    /// Between battles, or after movement: the next battle or the end of
    /// the turn follows automatically.
    Resolving,
    Battle(Battle),
    /// The turn has ended; the next one follows automatically.
    TurnOver,
    Over,
}

/// The last combat revealed (shown on the board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatReport {
    /// The round it was fought in.
    pub round: u32,
    pub star: Star,
    pub attacker: Seat,
    pub attacker_card: Card,
    pub attacker_total: u32,
    pub defender: Seat,
    pub defender_card: Card,
    pub defender_total: u32,
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    pub options: Options,
    /// Current round (1-based; 0 before the first turn).
    pub round: u32,
    /// Turns begun so far (the phase number).
    pub turn: u32,
    pub active: Seat,
    pub seats: Vec<SeatState>,
    /// Ships per star, per seat. Every star is present.
    pub ships: BTreeMap<Star, Vec<u32>>,
    pub stage: Stage,
    pub last_combat: Option<CombatReport>,
    pub outcome: Option<Outcome>,
    /// Final scores, once the game has ended.
    pub final_scores: Option<Vec<u32>>,
}

impl State {
    pub fn empty() -> State {
        State {
            players: 0,
            options: Options::default(),
            round: 0,
            turn: 0,
            active: Seat(0),
            seats: Vec::new(),
            ships: BTreeMap::new(),
            stage: Stage::NotStarted,
            last_combat: None,
            outcome: None,
            final_scores: None,
        }
    }

    pub fn seat_ids(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.seats.len())
    }

    /// Ships of `seat` at `star`.
    pub fn ships_at(&self, star: Star, seat: Seat) -> u32 {
        self.ships
            .get(&star)
            .and_then(|v| v.get(seat.index()))
            .copied()
            .unwrap_or(0)
    }

    pub(super) fn ships_mut(&mut self, star: Star, seat: Seat) -> Option<&mut u32> {
        let n = self.seats.len();
        let v = self.ships.entry(star).or_insert_with(|| vec![0; n]);
        if v.len() < n {
            v.resize(n, 0);
        }
        v.get_mut(seat.index())
    }

    pub(super) fn add_ships(&mut self, star: Star, seat: Seat, n: u32) {
        if let Some(v) = self.ships_mut(star, seat) {
            *v = v.saturating_add(n);
        }
    }

    pub(super) fn remove_ships(&mut self, star: Star, seat: Seat, n: u32) {
        if let Some(v) = self.ships_mut(star, seat) {
            *v = v.saturating_sub(n);
        }
    }

    pub fn seat(&self, seat: Seat) -> Option<&SeatState> {
        self.seats.get(seat.index())
    }

    pub(super) fn seat_mut(&mut self, seat: Seat) -> Option<&mut SeatState> {
        self.seats.get_mut(seat.index())
    }

    /// Ships of `seat` on stars.
    pub fn ships_on_board(&self, seat: Seat) -> u32 {
        self.ships
            .values()
            .map(|v| v.get(seat.index()).copied().unwrap_or(0))
            .sum()
    }

    /// Ships on stars and on warp tokens.
    pub fn total_ships(&self, seat: Seat) -> u32 {
        self.ships_on_board(seat) + self.seat(seat).map_or(0, SeatState::ships_in_flight)
    }

    /// Does `seat` possess `star`? Any ship there, or its own home star while
    /// not captured.
    pub fn possesses(&self, seat: Seat, star: Star) -> bool {
        if self.ships_at(star, seat) > 0 {
            return true;
        }
        self.seat(seat)
            .is_some_and(|s| s.home == star && s.captured_by.is_none() && !s.resigned)
    }

    /// The home star whose owner is `seat`... and the owner of a star that is
    /// a home star in this game. A resigned player's home star is an
    /// ordinary star.
    pub fn home_owner(&self, star: Star) -> Option<Seat> {
        self.seat_ids()
            .find(|s| self.seats[s.index()].home == star && !self.seats[s.index()].resigned)
    }

    /// Complete (+, O) pairs among the stars `seat` possesses.
    pub fn pairs(&self, seat: Seat) -> u32 {
        let (mut plus, mut pop) = (0u32, 0u32);
        for star in Star::all() {
            if self.possesses(seat, star) {
                let r = star.resources();
                plus += r.plus as u32;
                pop += r.pop as u32;
            }
        }
        plus.min(pop)
    }

    /// Seats with ships at `star`.
    pub fn occupants(&self, star: Star) -> Vec<Seat> {
        self.seat_ids().filter(|s| self.ships_at(star, *s) > 0).collect()
    }

    /// The round-limit score: 1 per star possessed, 2 more per home star held
    /// (your own while not captured, or a rival's you hold with ships).
    pub fn score(&self, seat: Seat) -> u32 {
        let Some(me) = self.seat(seat) else { return 0 };
        if me.eliminated {
            return 0;
        }
        let mut score = 0;
        for star in Star::all() {
            if self.possesses(seat, star) {
                score += 1;
                if let Some(owner) = self.home_owner(star) {
                    let own_held = owner == seat && me.captured_by.is_none();
                    let rival_held = owner != seat && self.ships_at(star, seat) > 0;
                    if own_held || rival_held {
                        score += 2;
                    }
                }
            }
        }
        score
    }

    pub fn battle(&self) -> Option<&Battle> {
        match &self.stage {
            Stage::Battle(b) => Some(b),
            _ => None,
        }
    }

    pub(super) fn battle_mut(&mut self) -> Option<&mut Battle> {
        match &mut self.stage {
            Stage::Battle(b) => Some(b),
            _ => None,
        }
    }

    /// May `seat` retreat from `star` now? Needs ships there and a free token.
    pub fn can_retreat(&self, seat: Seat, star: Star) -> bool {
        self.ships_at(star, seat) > 0 && self.seat(seat).is_some_and(|s| s.free_token().is_some())
    }

    /// The retreat step that follows `after` (None: right after losses).
    pub(super) fn next_retreat_step(&self, victor: Seat, loser: Seat, star: Star, after: Option<Seat>) -> BattleStep {
        if after.is_none() && self.can_retreat(loser, star) {
            return BattleStep::Retreat {
                seat: loser,
                victor,
                loser,
            };
        }
        if after != Some(victor) && self.can_retreat(victor, star) {
            return BattleStep::Retreat {
                seat: victor,
                victor,
                loser,
            };
        }
        BattleStep::Resolved
    }

    pub(super) fn set_token(&mut self, seat: Seat, token: u8, value: Token) {
        if let Some(s) = self.seat_mut(seat) {
            if let Some(t) = (token as usize).checked_sub(1).and_then(|i| s.tokens.get_mut(i)) {
                *t = value;
            }
        }
    }

    pub(super) fn after_retreat(&mut self, seat: Seat) {
        let next = match self.battle() {
            Some(Battle {
                star,
                step: BattleStep::Retreat { victor, loser, .. },
                ..
            }) => Some(self.next_retreat_step(*victor, *loser, *star, Some(seat))),
            _ => None,
        };
        if let (Some(next), Some(b)) = (next, self.battle_mut()) {
            b.step = next;
        }
    }
}
