//! The game systems Orrery hosts, and the enum that dispatches to them.
//!
//! Each system implements [`Ruleset`]. Code above the engine (service,
//! store, transports) works with [`GameKind`], [`AnyState`] and
//! [`AnyEvent`], which dispatch to the typed rulesets; the logic itself is
//! written once, generically, in the `generic_*` functions below.

pub mod hyperspace;
mod replay;
pub mod starlanes;

pub use replay::{PlatformEvent, Replay, Rewind};

use crate::engine::{
    CommandLine, CommandSpec, GameConfig, Outcome, ParseError, Pending, PhaseInfo, Rejection, Ruleset, Seat,
    SetupError, Viewer,
};
use orrery_render::Scene;
use serde::{Deserialize, Serialize};

/// Which game system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Hyperspace,
    Starlanes,
}

/// The typed state of a game of any system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", content = "state", rename_all = "lowercase")]
pub enum AnyState {
    Hyperspace(<hyperspace::Hyperspace as Ruleset>::State),
    Starlanes(<starlanes::Starlanes as Ruleset>::State),
}

/// One logged event of a game of any system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", content = "event", rename_all = "lowercase")]
pub enum AnyEvent {
    Hyperspace(<hyperspace::Hyperspace as Ruleset>::Event),
    Starlanes(<starlanes::Starlanes as Ruleset>::Event),
    /// An entry of the platform's own (a roll-back); see [`Replay`].
    Platform(PlatformEvent),
}

/// An order that was not accepted: either it could not be read, or it was
/// read but is not legal now. Both explain themselves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("I couldn't read that order: {0}")]
    Parse(#[from] ParseError),
    #[error("That order isn't legal now: {0}")]
    Rejected(#[from] Rejection),
}

/// An event from another game system reached this state (the log is
/// corrupt), or a platform entry reached [`AnyState::apply`], which only
/// [`Replay`] can fold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event of game `{event}` cannot apply to a `{state}` game")]
pub struct WrongGame {
    pub state: &'static str,
    pub event: &'static str,
}

/// Ties a ruleset to its enum variants.
pub trait Registered: Ruleset {
    const KIND: GameKind;
    fn wrap_state(state: Self::State) -> AnyState;
    fn wrap_event(event: Self::Event) -> AnyEvent;
    fn unwrap_event(event: &AnyEvent) -> Option<&Self::Event>;
}

impl Registered for hyperspace::Hyperspace {
    const KIND: GameKind = GameKind::Hyperspace;
    fn wrap_state(state: Self::State) -> AnyState {
        AnyState::Hyperspace(state)
    }
    fn wrap_event(event: Self::Event) -> AnyEvent {
        AnyEvent::Hyperspace(event)
    }
    #[allow(unreachable_patterns)]
    fn unwrap_event(event: &AnyEvent) -> Option<&Self::Event> {
        match event {
            AnyEvent::Hyperspace(e) => Some(e),
            _ => None,
        }
    }
}

impl Registered for starlanes::Starlanes {
    const KIND: GameKind = GameKind::Starlanes;
    fn wrap_state(state: Self::State) -> AnyState {
        AnyState::Starlanes(state)
    }
    fn wrap_event(event: Self::Event) -> AnyEvent {
        AnyEvent::Starlanes(event)
    }
    fn unwrap_event(event: &AnyEvent) -> Option<&Self::Event> {
        match event {
            AnyEvent::Starlanes(e) => Some(e),
            _ => None,
        }
    }
}

/// Run `$body` with `$R` bound to the ruleset type of a [`GameKind`].
macro_rules! with_kind {
    ($kind:expr, $R:ident => $body:expr) => {
        match $kind {
            GameKind::Hyperspace => {
                type $R = hyperspace::Hyperspace;
                $body
            }
            GameKind::Starlanes => {
                type $R = starlanes::Starlanes;
                $body
            }
        }
    };
}

/// Run `$body` with `$R` bound to the ruleset and `$s` to the typed state.
macro_rules! with_state {
    ($state:expr, $R:ident, $s:ident => $body:expr) => {
        match $state {
            AnyState::Hyperspace($s) => {
                type $R = hyperspace::Hyperspace;
                $body
            }
            AnyState::Starlanes($s) => {
                type $R = starlanes::Starlanes;
                $body
            }
        }
    };
}

impl GameKind {
    pub const ALL: &'static [GameKind] = &[GameKind::Hyperspace, GameKind::Starlanes];

    pub fn key(self) -> &'static str {
        with_kind!(self, R => R::KEY)
    }

    pub fn name(self) -> &'static str {
        with_kind!(self, R => R::NAME)
    }

    pub fn from_key(key: &str) -> Option<GameKind> {
        let key = key.trim().to_ascii_lowercase();
        GameKind::ALL.iter().copied().find(|k| k.key() == key)
    }

    pub fn player_counts(self) -> std::ops::RangeInclusive<u8> {
        with_kind!(self, R => R::player_counts())
    }

    pub fn commands(self) -> Vec<CommandSpec> {
        with_kind!(self, R => R::commands())
    }

    /// The set-up events of a new game.
    pub fn setup(self, config: &GameConfig) -> Result<Vec<AnyEvent>, SetupError> {
        with_kind!(self, R => {
            let counts = R::player_counts();
            if !counts.contains(&config.players) {
                return Err(SetupError(format!(
                    "{} is for {} to {} players, not {}",
                    R::NAME,
                    counts.start(),
                    counts.end(),
                    config.players
                )));
            }
            Ok(R::setup(config)?.into_iter().map(R::wrap_event).collect())
        })
    }

    pub fn empty(self) -> AnyState {
        with_kind!(self, R => R::wrap_state(R::empty()))
    }

    /// State = fold of events.
    pub fn fold<'a>(self, events: impl IntoIterator<Item = &'a AnyEvent>) -> Result<AnyState, WrongGame> {
        let mut state = self.empty();
        for e in events {
            state.apply(e)?;
        }
        Ok(state)
    }
}

impl GameKind {
    /// Every kind of decision ([`Pending::kind`]) the game's ruleset asks for.
    pub fn decision_kinds(self) -> &'static [&'static str] {
        match self {
            GameKind::Hyperspace => hyperspace::DECISION_KINDS,
            GameKind::Starlanes => starlanes::DECISION_KINDS,
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl AnyState {
    pub fn kind(&self) -> GameKind {
        with_state!(self, R, _s => R::KIND)
    }

    pub fn pending(&self) -> Vec<Pending> {
        with_state!(self, R, s => R::pending(s))
    }

    /// Every legal order for `seat`, as canonical command lines.
    pub fn legal_commands(&self, seat: Seat) -> Vec<CommandLine> {
        with_state!(self, R, s => R::legal_actions(s, seat).iter().map(R::unparse).collect())
    }

    /// Autocomplete values beyond the legal orders' own (see
    /// [`Ruleset::complete_more`]).
    pub fn complete_more(
        &self,
        seat: Seat,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Vec<String> {
        with_state!(self, R, s => R::complete_more(s, seat, command, option, filled, partial))
    }

    /// Parse and decide an order. Changes nothing.
    pub fn decide(&self, seat: Seat, line: &CommandLine) -> Result<Vec<AnyEvent>, ActionError> {
        with_state!(self, R, s => generic_decide::<R>(s, seat, line))
    }

    pub fn apply(&mut self, event: &AnyEvent) -> Result<(), WrongGame> {
        let kind = self.kind();
        with_state!(self, R, s => {
            let e = R::unwrap_event(event).ok_or(WrongGame { state: kind.key(), event: event.key() })?;
            R::apply(s, e);
            Ok(())
        })
    }

    /// The viewer's view as JSON (for tests, the CLI and debugging).
    pub fn view_json(&self, viewer: Viewer) -> serde_json::Value {
        with_state!(self, R, s => serde_json::to_value(R::view(s, viewer)).expect("views serialize"))
    }

    /// The board as `viewer` may see it. Built from the view only.
    pub fn scene(&self, viewer: Viewer, names: &[String]) -> Scene {
        with_state!(self, R, s => R::scene(&R::view(s, viewer), names))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_state!(self, R, s => R::outcome(s))
    }

    pub fn phase(&self) -> PhaseInfo {
        with_state!(self, R, s => R::phase(s))
    }

    pub fn default_command(&self, seat: Seat) -> Option<CommandLine> {
        with_state!(self, R, s => R::default_action(s, seat).map(|a| R::unparse(&a)))
    }
}

impl AnyEvent {
    /// The game system of a ruleset entry; `None` for a platform entry.
    pub fn kind(&self) -> Option<GameKind> {
        match self {
            AnyEvent::Hyperspace(_) => Some(GameKind::Hyperspace),
            AnyEvent::Starlanes(_) => Some(GameKind::Starlanes),
            AnyEvent::Platform(_) => None,
        }
    }

    /// The `game` tag of the entry ("hyperspace", ..., "platform").
    pub fn key(&self) -> &'static str {
        self.kind().map_or("platform", GameKind::key)
    }

    /// The event in a sentence, as `viewer` may learn of it.
    pub fn narrate(&self, viewer: Viewer, names: &[String]) -> Option<String> {
        match self {
            AnyEvent::Hyperspace(e) => hyperspace::Hyperspace::narrate(e, viewer, names),
            AnyEvent::Starlanes(e) => starlanes::Starlanes::narrate(e, viewer, names),
            AnyEvent::Platform(e) => Some(e.narrate()),
        }
    }
}

/// Parse, check the seat owes a decision, then let the ruleset decide.
pub fn generic_decide<R: Registered>(
    state: &R::State,
    seat: Seat,
    line: &CommandLine,
) -> Result<Vec<AnyEvent>, ActionError> {
    if R::outcome(state).is_some() {
        return Err(Rejection::GameOver.into());
    }
    let action = R::parse(line)?;
    let pending = R::pending(state);
    if !pending.iter().any(|p| p.seat == seat) {
        let waiting = describe_waiting(&pending);
        return Err(Rejection::NotYourDecision { seat, waiting }.into());
    }
    Ok(R::decide(state, seat, &action)?
        .into_iter()
        .map(R::wrap_event)
        .collect())
}

/// "seat 2 (turn)", "seat 1 and seat 3 (combat-card)".
pub fn describe_waiting(pending: &[Pending]) -> String {
    if pending.is_empty() {
        return "nobody".into();
    }
    pending
        .iter()
        .map(|p| format!("{} ({})", p.seat, p.kind))
        .collect::<Vec<_>>()
        .join(", ")
}
