//! The game state, the events, and how an event changes the state.
//!
//! The state is purely the fold of the events: [`apply`] is infallible and
//! deterministic, and tolerates odd events (scenario `given:` lines are not
//! validated) without panicking.

use super::board::{Sector, Star, STAR_COUNT};
use super::cards::{Card, WinReason};
use orrery_engine::{Outcome, Seat, Simultaneous};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Warp tokens per player.
pub const TOKENS: u8 = 5;
/// Ships each player starts with at their home star.
pub const STARTING_SHIPS: u32 = 15;

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
}

impl SeatState {
    fn new(home: Star) -> Self {
        SeatState {
            home,
            captured_by: None,
            hand: Card::ALL.to_vec(),
            played: Vec::new(),
            tokens: vec![Token::Ready; TOKENS as usize],
            eliminated: false,
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

/// Past-tense facts. Seats are 0-based in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A game for `players` was set up with these home stars (seat order).
    GameSetUp {
        players: u8,
        options: Options,
        homes: Vec<Star>,
    },
    /// Ships were placed at a star (set-up; scenarios use it to build positions).
    ShipsPlaced {
        seat: Seat,
        star: Star,
        ships: u32,
    },
    /// Ships were taken off a star (scenarios use it to build positions).
    ShipsRemoved {
        seat: Seat,
        star: Star,
        ships: u32,
    },
    /// A warp token was put on the track (scenarios). `token` is 1-based.
    TokenPlaced {
        seat: Seat,
        token: u8,
        square: u8,
        ships: u32,
        from: Sector,
    },
    /// A hand and played pile were arranged (scenarios).
    HandArranged {
        seat: Seat,
        hand: Vec<Card>,
        played: Vec<Card>,
    },
    /// The next turn began (`turn` counts every turn of the game).
    TurnBegan {
        seat: Seat,
        round: u32,
        turn: u32,
        production: bool,
    },
    ShipsProduced {
        seat: Seat,
        star: Star,
        ships: u32,
    },
    /// The active player's tokens on the track moved one square forward.
    WarpTokensAdvanced {
        seat: Seat,
        tokens: Vec<u8>,
    },
    /// A token moved past the last square: it and its ships are lost.
    WarpTokenLost {
        seat: Seat,
        token: u8,
        ships: u32,
        from: Sector,
    },
    /// Ships left a star on a warp token (placed on the entry square).
    FleetDeparted {
        seat: Seat,
        token: u8,
        from: Star,
        ships: u32,
        sector: Sector,
    },
    /// A same-sector journey: immediate, but the token is used this turn.
    FleetJumped {
        seat: Seat,
        token: u8,
        from: Star,
        to: Star,
        ships: u32,
    },
    FleetArrived {
        seat: Seat,
        token: u8,
        star: Star,
        ships: u32,
        square: u8,
    },
    MovementEnded {
        seat: Seat,
    },
    BattleBegan {
        star: Star,
        attacker: Seat,
        defender: Seat,
        attacker_ships: u32,
        defender_ships: u32,
    },
    /// Fight again: both sides still have ships at the star.
    CombatRenewed {
        star: Star,
        combat: u32,
        attacker_ships: u32,
        defender_ships: u32,
    },
    /// A secret pick. Logged, but only narrated to its seat.
    CombatCardPicked {
        seat: Seat,
        card: Card,
    },
    CombatCardsRevealed {
        star: Star,
        attacker: Seat,
        attacker_card: Card,
        attacker_total: u32,
        defender: Seat,
        defender_card: Card,
        defender_total: u32,
    },
    /// After playing the last card, the earlier played cards return.
    HandRecycled {
        seat: Seat,
        cards: Vec<Card>,
    },
    CombatWon {
        star: Star,
        victor: Seat,
        loser: Seat,
        reason: WinReason,
    },
    LossesTaken {
        star: Star,
        victor: Seat,
        loser: Seat,
        chosen: u32,
        loser_lost: u32,
        victor_lost: u32,
    },
    FleetRetreated {
        seat: Seat,
        star: Star,
        ships: u32,
        token: u8,
        sector: Sector,
    },
    RetreatDeclined {
        seat: Seat,
        star: Star,
    },
    BattleEnded {
        star: Star,
        holder: Option<Seat>,
    },
    HomeStarCaptured {
        owner: Seat,
        star: Star,
        by: Seat,
    },
    HomeStarRecovered {
        owner: Seat,
        star: Star,
    },
    PlayerEliminated {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
    },
    GameEnded {
        outcome: Outcome,
        scores: Vec<u32>,
    },
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

    fn ships_mut(&mut self, star: Star, seat: Seat) -> Option<&mut u32> {
        let n = self.seats.len();
        let v = self.ships.entry(star).or_insert_with(|| vec![0; n]);
        if v.len() < n {
            v.resize(n, 0);
        }
        v.get_mut(seat.index())
    }

    fn add_ships(&mut self, star: Star, seat: Seat, n: u32) {
        if let Some(v) = self.ships_mut(star, seat) {
            *v = v.saturating_add(n);
        }
    }

    fn remove_ships(&mut self, star: Star, seat: Seat, n: u32) {
        if let Some(v) = self.ships_mut(star, seat) {
            *v = v.saturating_sub(n);
        }
    }

    pub fn seat(&self, seat: Seat) -> Option<&SeatState> {
        self.seats.get(seat.index())
    }

    fn seat_mut(&mut self, seat: Seat) -> Option<&mut SeatState> {
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
            .is_some_and(|s| s.home == star && s.captured_by.is_none())
    }

    /// The home star whose owner is `seat`... and the owner of a star that is
    /// a home star in this game.
    pub fn home_owner(&self, star: Star) -> Option<Seat> {
        self.seat_ids().find(|s| self.seats[s.index()].home == star)
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

    fn battle_mut(&mut self) -> Option<&mut Battle> {
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
    fn next_retreat_step(&self, victor: Seat, loser: Seat, star: Star, after: Option<Seat>) -> BattleStep {
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

    fn set_token(&mut self, seat: Seat, token: u8, value: Token) {
        if let Some(s) = self.seat_mut(seat) {
            if let Some(t) = (token as usize).checked_sub(1).and_then(|i| s.tokens.get_mut(i)) {
                *t = value;
            }
        }
    }

    fn after_retreat(&mut self, seat: Seat) {
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

fn remove_card(cards: &mut Vec<Card>, card: Card) {
    if let Some(i) = cards.iter().position(|c| *c == card) {
        cards.remove(i);
    }
}

/// Apply one event.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::GameSetUp {
            players,
            options,
            homes,
        } => {
            *state = State::empty();
            state.players = *players;
            state.options = options.clone();
            state.seats = homes.iter().map(|h| SeatState::new(*h)).collect();
            let n = state.seats.len();
            state.ships = (0..STAR_COUNT as usize)
                .filter_map(Star::from_index)
                .map(|s| (s, vec![0; n]))
                .collect();
        }
        Event::ShipsPlaced { seat, star, ships } | Event::ShipsProduced { seat, star, ships } => {
            state.add_ships(*star, *seat, *ships);
        }
        Event::ShipsRemoved { seat, star, ships } => {
            state.remove_ships(*star, *seat, *ships);
        }
        Event::TokenPlaced {
            seat,
            token,
            square,
            ships,
            from,
        } => {
            state.set_token(
                *seat,
                *token,
                Token::Flight {
                    square: *square,
                    ships: *ships,
                    from: *from,
                },
            );
        }
        Event::HandArranged { seat, hand, played } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.hand = hand.clone();
                s.played = played.clone();
            }
        }
        Event::TurnBegan { seat, round, turn, .. } => {
            state.active = *seat;
            state.round = *round;
            state.turn = *turn;
            state.stage = Stage::Moving { departures_open: true };
        }
        Event::WarpTokensAdvanced { seat, tokens } => {
            if let Some(s) = state.seat_mut(*seat) {
                for k in tokens {
                    if let Some(Token::Flight { square, .. }) =
                        (*k as usize).checked_sub(1).and_then(|i| s.tokens.get_mut(i))
                    {
                        *square = square.saturating_add(1);
                    }
                }
            }
        }
        Event::WarpTokenLost { seat, token, .. } => {
            state.set_token(*seat, *token, Token::Lost);
        }
        Event::FleetDeparted {
            seat,
            token,
            from,
            ships,
            sector,
        } => {
            state.remove_ships(*from, *seat, *ships);
            state.set_token(
                *seat,
                *token,
                Token::Flight {
                    square: 0,
                    ships: *ships,
                    from: *sector,
                },
            );
        }
        Event::FleetJumped {
            seat,
            token,
            from,
            to,
            ships,
        } => {
            state.remove_ships(*from, *seat, *ships);
            state.add_ships(*to, *seat, *ships);
            state.set_token(*seat, *token, Token::Spent);
        }
        Event::FleetArrived {
            seat,
            token,
            star,
            ships,
            ..
        } => {
            state.add_ships(*star, *seat, *ships);
            state.set_token(*seat, *token, Token::Ready);
            if let Stage::Moving { departures_open } = &mut state.stage {
                *departures_open = false;
            }
        }
        Event::MovementEnded { .. } | Event::BattleEnded { .. } => {
            state.stage = Stage::Resolving;
        }
        Event::BattleBegan {
            star,
            attacker,
            defender,
            ..
        } => {
            state.stage = Stage::Battle(Battle {
                star: *star,
                attacker: *attacker,
                defender: *defender,
                combat: 1,
                step: BattleStep::Cards {
                    picks: Simultaneous::new([*attacker, *defender]),
                },
            });
        }
        Event::CombatRenewed { combat, .. } => {
            if let Some(b) = state.battle_mut() {
                b.combat = *combat;
                b.step = BattleStep::Cards {
                    picks: Simultaneous::new([b.attacker, b.defender]),
                };
            }
        }
        Event::CombatCardPicked { seat, card } => {
            if let Some(Battle {
                step: BattleStep::Cards { picks },
                ..
            }) = state.battle_mut()
            {
                if picks.owes(*seat) {
                    picks.submit(*seat, *card);
                }
            }
        }
        Event::CombatCardsRevealed {
            star,
            attacker,
            attacker_card,
            attacker_total,
            defender,
            defender_card,
            defender_total,
        } => {
            for (seat, card) in [(*attacker, *attacker_card), (*defender, *defender_card)] {
                if let Some(s) = state.seat_mut(seat) {
                    remove_card(&mut s.hand, card);
                    s.played.push(card);
                }
            }
            state.last_combat = Some(CombatReport {
                round: state.round,
                star: *star,
                attacker: *attacker,
                attacker_card: *attacker_card,
                attacker_total: *attacker_total,
                defender: *defender,
                defender_card: *defender_card,
                defender_total: *defender_total,
            });
        }
        Event::HandRecycled { seat, cards } => {
            if let Some(s) = state.seat_mut(*seat) {
                for c in cards {
                    remove_card(&mut s.played, *c);
                    s.hand.push(*c);
                }
                s.hand.sort();
            }
        }
        Event::CombatWon { victor, loser, .. } => {
            if let Some(b) = state.battle_mut() {
                b.step = BattleStep::Losses {
                    victor: *victor,
                    loser: *loser,
                };
            }
        }
        Event::LossesTaken {
            star,
            victor,
            loser,
            loser_lost,
            victor_lost,
            ..
        } => {
            state.remove_ships(*star, *loser, *loser_lost);
            state.remove_ships(*star, *victor, *victor_lost);
            let next = state.next_retreat_step(*victor, *loser, *star, None);
            if let Some(b) = state.battle_mut() {
                b.step = next;
            }
        }
        Event::FleetRetreated {
            seat,
            star,
            ships,
            token,
            sector,
        } => {
            state.remove_ships(*star, *seat, *ships);
            state.set_token(
                *seat,
                *token,
                Token::Flight {
                    square: 0,
                    ships: *ships,
                    from: *sector,
                },
            );
            state.after_retreat(*seat);
        }
        Event::RetreatDeclined { seat, .. } => {
            state.after_retreat(*seat);
        }
        Event::HomeStarCaptured { owner, by, .. } => {
            if let Some(s) = state.seat_mut(*owner) {
                s.captured_by = Some(*by);
            }
        }
        Event::HomeStarRecovered { owner, .. } => {
            if let Some(s) = state.seat_mut(*owner) {
                s.captured_by = None;
            }
        }
        Event::PlayerEliminated { seat } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.eliminated = true;
            }
        }
        Event::TurnEnded { seat } => {
            if let Some(s) = state.seat_mut(*seat) {
                for t in &mut s.tokens {
                    if *t == Token::Spent {
                        *t = Token::Ready;
                    }
                }
            }
            state.stage = Stage::TurnOver;
        }
        Event::GameEnded { outcome, scores } => {
            state.outcome = Some(outcome.clone());
            state.final_scores = Some(scores.clone());
            state.stage = Stage::Over;
        }
    }
}
