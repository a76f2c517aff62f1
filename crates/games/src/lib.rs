//! The game systems Orrery hosts, and the enum that dispatches to them.
//!
//! Each system implements [`Ruleset`]. Code above the engine (service,
//! store, transports) works with [`GameKind`], [`AnyState`] and
//! [`AnyEvent`], which dispatch to the typed rulesets; the logic itself is
//! written once, generically, in the `generic_*` functions below.

mod replay;
pub mod scenario;
pub mod shared;

pub use replay::{FoldError, PlatformEvent, Replay, Rewind};

use orrery_engine::{
    CommandGroup, CommandLine, CommandSpec, Control, GameConfig, GameRng, Outcome, ParseError, Pending, PhaseInfo,
    Rejection, Ruleset, Seat, SetupError, SetupOption, SheetVerb, Viewer,
};
use orrery_render::Scene;
use serde::{Deserialize, Serialize};

/// Declares the registry from one line per game system, `module::Ruleset`:
/// the module (`crates/games/src/<module>/`), the enums' variants (named after the
/// ruleset type; their serde tag is that name in lowercase, which must equal
/// [`Ruleset::KEY`]: a test checks it), the [`Registered`] impls,
/// [`GameKind::ALL`] and the dispatch macros `with_kind!`, `with_state!` and
/// `with_event!`. Everything else about a game comes from its [`Ruleset`].
macro_rules! games {
    ($($module:ident :: $R:ident),+ $(,)?) => {
        games!(@emit ($) $($module::$R),+);
    };
    // `$d` is a literal `$`, for the macros this one defines.
    (@emit ($d:tt) $($module:ident :: $R:ident),+) => {
        $(pub mod $module;)+

        /// Which game system.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum GameKind {
            $($R,)+
        }

        /// The typed state of a game of any system.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", content = "state", rename_all = "lowercase")]
        pub enum AnyState {
            $($R(<$module::$R as Ruleset>::State),)+
        }

        /// One logged event of a game of any system.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", content = "event", rename_all = "lowercase")]
        pub enum AnyEvent {
            $($R(<$module::$R as Ruleset>::Event),)+
            /// An entry of the platform's own (a roll-back); see [`Replay`].
            Platform(PlatformEvent),
        }

        $(
            impl Registered for $module::$R {
                const KIND: GameKind = GameKind::$R;
                fn wrap_state(state: Self::State) -> AnyState {
                    AnyState::$R(state)
                }
                fn wrap_event(event: Self::Event) -> AnyEvent {
                    AnyEvent::$R(event)
                }
                fn unwrap_event(event: &AnyEvent) -> Option<&Self::Event> {
                    match event {
                        AnyEvent::$R(e) => Some(e),
                        _ => None,
                    }
                }
                fn unwrap_state(state: &AnyState) -> Option<&Self::State> {
                    match state {
                        AnyState::$R(s) => Some(s),
                        _ => None,
                    }
                }
            }
        )+

        impl GameKind {
            /// Every registered game system, in registry order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$R),+];
        }

        /// Run `$body` with `$T` bound to the ruleset type of a [`GameKind`].
        macro_rules! with_kind {
            ($d kind:expr, $d T:ident => $d body:expr) => {
                match $d kind {
                    $(GameKind::$R => {
                        type $d T = $module::$R;
                        $d body
                    })+
                }
            };
        }

        /// Run `$body` with `$T` bound to the ruleset and `$s` to the typed
        /// state.
        macro_rules! with_state {
            ($d state:expr, $d T:ident, $d s:ident => $d body:expr) => {
                match $d state {
                    $(AnyState::$R($d s) => {
                        type $d T = $module::$R;
                        $d body
                    })+
                }
            };
        }

        /// Run `$body` with `$T` bound to the ruleset and `$e` to the typed
        /// event of a ruleset entry, or `$platform` with `$p` bound to a
        /// platform entry.
        macro_rules! with_event {
            ($d event:expr, $d T:ident, $d e:ident => $d body:expr, $d p:ident => $d platform:expr) => {
                match $d event {
                    $(AnyEvent::$R($d e) => {
                        type $d T = $module::$R;
                        $d body
                    })+
                    AnyEvent::Platform($d p) => $d platform,
                }
            };
        }
    };
}

// The registry. Adding a game: its folder under `crates/games/src/`, one line here,
// its rules page (`Ruleset::RULES_PAGE`) and its scenarios.
games! {
    hyperspace::Hyperspace,
    starlanes::Starlanes,
    solar::Solar,
    spectrum::Spectrum,
    empires::Empires,
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

/// A command a game's orders are given under (see
/// [`GameKind::order_commands`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderCommand {
    /// `hyperspace`, `empires-combat`.
    pub name: String,
    pub description: String,
    pub specs: Vec<CommandSpec>,
}

/// Ties a ruleset to its enum variants.
pub trait Registered: Ruleset {
    const KIND: GameKind;
    fn wrap_state(state: Self::State) -> AnyState;
    fn wrap_event(event: Self::Event) -> AnyEvent;
    fn unwrap_event(event: &AnyEvent) -> Option<&Self::Event>;
    fn unwrap_state(state: &AnyState) -> Option<&Self::State>;
}

impl GameKind {
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

    /// The commands the game's orders are given under: its main one (named
    /// by its key) with every order of no group, then one per
    /// [`CommandGroup`] (`empires-combat`), in the order declared.
    pub fn order_commands(self) -> Vec<OrderCommand> {
        let groups: &'static [CommandGroup] = with_kind!(self, R => R::COMMAND_GROUPS);
        let specs = self.commands();
        let in_group = |name: &str| groups.iter().any(|g| g.orders.contains(&name));
        let mut out = vec![OrderCommand {
            name: self.key().to_string(),
            description: format!("Give an order in your game of {}", self.name()),
            specs: specs.iter().filter(|s| !in_group(s.name)).cloned().collect(),
        }];
        for g in groups {
            out.push(OrderCommand {
                name: format!("{}-{}", self.key(), g.name),
                description: format!("{}: {}", self.name(), g.description),
                specs: specs.iter().filter(|s| g.orders.contains(&s.name)).cloned().collect(),
            });
        }
        out
    }

    /// The command order `order` is given under (`empires-combat` for
    /// Space Empires' `fire`); the main command for any other name.
    pub fn command_of(self, order: &str) -> String {
        self.order_commands()
            .into_iter()
            .find(|c| c.specs.iter().any(|s| s.name == order))
            .map_or_else(|| self.key().to_string(), |c| c.name)
    }

    /// The game whose order command is called `name` (`empires`,
    /// `empires-combat`), with that command.
    pub fn from_command(name: &str) -> Option<(GameKind, OrderCommand)> {
        let name = name.trim().to_ascii_lowercase();
        GameKind::ALL
            .iter()
            .find_map(|k| k.order_commands().into_iter().find(|c| c.name == name).map(|c| (*k, c)))
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
    /// Every kind of decision ([`Pending::kind`]) the game's ruleset asks for
    /// ([`Ruleset::DECISION_KINDS`]).
    pub fn decision_kinds(self) -> &'static [&'static str] {
        with_kind!(self, R => R::DECISION_KINDS)
    }

    /// A decision kind in words ([`Ruleset::DECISION_NAMES`]): "paying for
    /// a claim", "combat card".
    pub fn decision_name(self, kind: &str) -> String {
        with_kind!(self, R => R::decision_name(kind))
    }

    /// The order that makes the sheet edit `verb`, for a game with order
    /// sheets ([`Ruleset::sheet_verb`]); `None` when the game has none.
    pub fn sheet_command(self, verb: SheetVerb) -> Option<CommandLine> {
        with_kind!(self, R => R::sheet_verb(verb).map(|a| R::unparse(&a)))
    }

    /// Whether each seat gets its own board at every phase boundary
    /// ([`Ruleset::PRIVATE_BOARDS`]).
    pub fn private_boards(self) -> bool {
        with_kind!(self, R => R::PRIVATE_BOARDS)
    }

    /// The choice players make for their seat on joining, if the game has one.
    pub fn seat_pick(self) -> Option<orrery_engine::SeatPick> {
        with_kind!(self, R => R::SEAT_PICK)
    }

    /// The game's set-up options ([`Ruleset::OPTIONS`]).
    pub fn options(self) -> &'static [SetupOption] {
        with_kind!(self, R => R::OPTIONS)
    }

    /// The game's rules page, Markdown ([`Ruleset::RULES_PAGE`]).
    pub fn rules_page(self) -> &'static str {
        with_kind!(self, R => R::RULES_PAGE)
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

    /// The computer player's order for `seat` (see `orrery_engine::bot`),
    /// its randomness from `rng`; `None` when it has no legal order.
    pub fn bot_order(&self, seat: Seat, effort: orrery_engine::bot::Effort, rng: &mut GameRng) -> Option<CommandLine> {
        with_state!(self, R, s => orrery_engine::bot::choose::<R>(s, seat, effort, rng).map(|a| R::unparse(&a)))
    }

    /// The computer player's weighing of `seat`'s orders (see
    /// `orrery_engine::bot::appraise`): each order it looked at and its
    /// mean result.
    pub fn bot_appraisal(
        &self,
        seat: Seat,
        effort: orrery_engine::bot::Effort,
        rng: &mut GameRng,
    ) -> Vec<(CommandLine, f64)> {
        with_state!(self, R, s => orrery_engine::bot::appraise::<R>(s, seat, effort, rng)
            .into_iter()
            .map(|(a, v)| (R::unparse(&a), v))
            .collect())
    }

    /// Every legal order for `seat`, as canonical command lines.
    pub fn legal_commands(&self, seat: Seat) -> Vec<CommandLine> {
        with_state!(self, R, s => R::legal_actions(s, seat).iter().map(R::unparse).collect())
    }

    /// Every legal order for `seat` with how it is offered to a person
    /// (see [`Ruleset::control`]), in the ruleset's order; `names` are the
    /// seats' display names.
    pub fn legal_controls(&self, seat: Seat, names: &[String]) -> Vec<(CommandLine, Control)> {
        with_state!(self, R, s => {
            let actions = R::legal_actions(s, seat);
            let controls = R::controls(s, seat, &actions, names);
            actions.iter().map(R::unparse).zip(controls).collect()
        })
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

    /// The events of `seat` leaving the game ([`Ruleset::resign`]).
    /// Changes nothing.
    pub fn resign(&self, seat: Seat) -> Result<Vec<AnyEvent>, ActionError> {
        with_state!(self, R, s => R::resign(s, seat)
            .map(|events| events.into_iter().map(R::wrap_event).collect())
            .map_err(ActionError::Rejected))
    }

    pub fn apply(&mut self, event: &AnyEvent) -> Result<(), WrongGame> {
        let kind = self.kind();
        with_state!(self, R, s => {
            let e = R::unwrap_event(event).ok_or(WrongGame { state: kind.key(), event: event.key() })?;
            R::apply(s, e);
            Ok(())
        })
    }

    /// The same game with what no seat of `keep` may know drawn anew
    /// ([`Ruleset::scramble`]); `None` when the game hides nothing more.
    pub fn scramble(&self, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<AnyState> {
        with_state!(self, R, s => R::scramble(s, keep, private_only, rng).map(R::wrap_state))
    }

    /// The viewer's view as JSON (for tests, the CLI and debugging).
    /// The whole-game tests' order for `seat` ([`Ruleset::test_order`]),
    /// if it owes a decision and has a legal order.
    pub fn test_order(&self, seat: Seat) -> Option<CommandLine> {
        with_state!(self, R, s => {
            let legal = R::legal_actions(s, seat);
            if legal.is_empty() || !R::pending(s).iter().any(|p| p.seat == seat && !p.submitted) {
                return None;
            }
            R::test_order(s, seat, &legal).map(|a| R::unparse(&a))
        })
    }

    pub fn view_json(&self, viewer: Viewer) -> serde_json::Value {
        with_state!(self, R, s => serde_json::to_value(R::view(s, viewer)).expect("views serialize"))
    }

    /// The board as `viewer` may see it. Built from the view only.
    pub fn scene(&self, viewer: Viewer, names: &[String]) -> Scene {
        with_state!(self, R, s => R::scene(&R::view(s, viewer), names))
    }

    /// Whether `viewer`'s board now tells it something it did not see in
    /// `before` (the same game earlier): see [`Ruleset::news`].
    pub fn news_since(&self, before: &AnyState, viewer: Viewer) -> bool {
        with_state!(self, R, s => match R::unwrap_state(before) {
            Some(b) => R::news(&R::view(b, viewer), &R::view(s, viewer)),
            None => true,
        })
    }

    /// Every seat's final standing, best first, once the game is over
    /// ([`Ruleset::standings`]).
    pub fn standings(&self) -> Vec<(Seat, String)> {
        if self.outcome().is_none() {
            return Vec::new();
        }
        with_state!(self, R, s => R::standings(s))
    }

    /// Whether `line` is an order a seat may give while the game does not
    /// wait on it ([`Ruleset::any_time`]).
    pub fn any_time(&self, line: &CommandLine) -> bool {
        with_state!(self, R, _s => R::parse(line).is_ok_and(|a| R::any_time(&a)))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_state!(self, R, s => R::outcome(s))
    }

    pub fn phase(&self) -> PhaseInfo {
        with_state!(self, R, s => R::phase(s))
    }

    /// The seat's order sheet in words, while it owes one
    /// ([`Ruleset::sheet_lines`]).
    pub fn sheet_lines(&self, seat: Seat, names: &[String]) -> Option<Vec<String>> {
        with_state!(self, R, s => R::sheet_lines(s, seat, names))
    }

    pub fn default_command(&self, seat: Seat) -> Option<CommandLine> {
        with_state!(self, R, s => R::default_action(s, seat).map(|a| R::unparse(&a)))
    }

    /// The order `seat` is forced to give now, and why
    /// ([`Ruleset::forced`]).
    pub fn forced_command(&self, seat: Seat) -> Option<(CommandLine, String)> {
        with_state!(self, R, s => R::forced(s, seat).map(|(a, why)| (R::unparse(&a), why)))
    }
}

impl AnyEvent {
    /// The game system of a ruleset entry; `None` for a platform entry.
    pub fn kind(&self) -> Option<GameKind> {
        with_event!(self, R, _e => Some(R::KIND), _p => None)
    }

    /// The `game` tag of the entry ("hyperspace", ..., "platform").
    pub fn key(&self) -> &'static str {
        self.kind().map_or("platform", GameKind::key)
    }

    /// The kind of event: its variant's name as stored ("CardPlayed"),
    /// for counting which rules a game reached.
    pub fn variant(&self) -> String {
        match serde_json::to_value(self).ok().as_ref().map(|v| &v["event"]) {
            Some(serde_json::Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
            Some(serde_json::Value::String(s)) => s.clone(),
            _ => String::new(),
        }
    }

    /// Whether an action with this event may be taken back by its player
    /// (see [`Ruleset::takes_back`]). Platform entries never may.
    pub fn takes_back(&self) -> bool {
        with_event!(self, R, e => R::takes_back(e), _p => false)
    }

    /// The event in a sentence, as `viewer` may learn of it.
    pub fn narrate(&self, viewer: Viewer, names: &[String]) -> Option<String> {
        with_event!(self, R, e => R::narrate(e, viewer, names), p => Some(p.narrate(names)))
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
    // Where who owes is itself secret, the ruleset refuses in its own
    // words, naming nobody.
    let secretly_owed = pending.iter().any(|p| p.undisclosed);
    if !R::any_time(&action) && !pending.iter().any(|p| p.seat == seat) && !secretly_owed {
        let waiting = waiting_seats(&pending);
        return Err(Rejection::NotYourDecision { seat, waiting }.into());
    }
    Ok(R::decide(state, seat, &action)?
        .into_iter()
        .map(R::wrap_event)
        .collect())
}

/// The seats `pending` holds, once each, in order.
pub fn waiting_seats(pending: &[Pending]) -> Vec<Seat> {
    let mut seats: Vec<Seat> = pending.iter().map(|p| p.seat).collect();
    seats.dedup();
    seats
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_event_is_counted_by_its_variant_name() {
        let events = GameKind::Solar.setup(&GameConfig::new(2, 1)).unwrap();
        assert_eq!(events[0].variant(), "GameSetUp");
        for kind in GameKind::ALL {
            for e in kind.setup(&GameConfig::new(*kind.player_counts().start(), 1)).unwrap() {
                let name = e.variant();
                assert!(name.starts_with(|c: char| c.is_ascii_uppercase()), "{kind}: `{name}`");
            }
        }
    }

    /// Every decision a game asks for is named in words where the game
    /// says what it waits on, and only its own kinds are named.
    #[test]
    fn every_decision_kind_has_a_name_in_words() {
        for &kind in GameKind::ALL {
            let names: &[(&str, &str)] = with_kind!(kind, R => R::DECISION_NAMES);
            for k in kind.decision_kinds() {
                assert!(names.iter().any(|(n, _)| n == k), "{kind:?}: {k} has no name");
            }
            for (k, name) in names {
                assert!(
                    kind.decision_kinds().contains(k),
                    "{kind:?}: {k} is not a decision kind"
                );
                assert!(!name.is_empty());
            }
        }
        assert_eq!(GameKind::Solar.decision_name("pay"), "paying for a claim");
        assert_eq!(GameKind::Hyperspace.decision_name("combat-card"), "combat card");
        assert_eq!(GameKind::Starlanes.decision_name("un-known"), "un known");
    }

    /// The database and the logs store the serde tag; commands and
    /// `from_key` use `Ruleset::KEY`. They are one name, for every game.
    #[test]
    fn every_games_key_is_its_serde_tag() {
        assert!(!GameKind::ALL.is_empty());
        for &kind in GameKind::ALL {
            let key = kind.key();
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                json!(key),
                "{kind:?}: GameKind tag"
            );
            assert_eq!(serde_json::from_value::<GameKind>(json!(key)).unwrap(), kind);
            assert_eq!(GameKind::from_key(key), Some(kind));

            let state = kind.empty();
            assert_eq!(state.kind(), kind);
            let stored = serde_json::to_value(&state).unwrap();
            assert_eq!(stored["game"], json!(key), "{kind:?}: AnyState tag");
            let text = serde_json::to_string(&state).unwrap();
            assert_eq!(serde_json::from_str::<AnyState>(&text).unwrap(), state);

            let players = *kind.player_counts().start();
            let events = kind.setup(&GameConfig::new(players, 7)).unwrap();
            assert!(!events.is_empty(), "{kind:?}: a set-up has events");
            for event in &events {
                assert_eq!(event.kind(), Some(kind));
                assert_eq!(event.key(), key);
                let stored = serde_json::to_value(event).unwrap();
                assert_eq!(stored["game"], json!(key), "{kind:?}: AnyEvent tag");
                // Read back from text, as the store does.
                let text = serde_json::to_string(event).unwrap();
                assert_eq!(&serde_json::from_str::<AnyEvent>(&text).unwrap(), event);
            }
        }
        let platform = AnyEvent::Platform(PlatformEvent::RolledBack {
            to_seq: 3,
            why: Rewind::Undo,
            undone: 1,
        });
        assert_eq!(serde_json::to_value(&platform).unwrap()["game"], json!("platform"));
        assert_eq!(platform.kind(), None);
    }

    #[test]
    fn keys_are_unique_and_every_game_has_a_page_and_decisions() {
        let keys: std::collections::BTreeSet<&str> = GameKind::ALL.iter().map(|k| k.key()).collect();
        assert_eq!(keys.len(), GameKind::ALL.len());
        assert!(!keys.contains("platform"), "`platform` is the platform's own tag");
        for &kind in GameKind::ALL {
            assert!(
                kind.rules_page().starts_with(&format!("# {}\n", kind.name())),
                "{kind:?}: the rules page starts with its title"
            );
            assert!(!kind.decision_kinds().is_empty());
        }
    }

    /// Every order is under exactly one of its game's commands, each
    /// command has orders, and a group names only orders the game has.
    #[test]
    fn every_order_has_one_command() {
        for &kind in GameKind::ALL {
            let commands = kind.order_commands();
            assert_eq!(commands[0].name, kind.key());
            let mut placed: Vec<&str> = commands.iter().flat_map(|c| c.specs.iter().map(|s| s.name)).collect();
            assert!(
                commands.iter().all(|c| !c.specs.is_empty()),
                "{kind:?}: an empty command"
            );
            placed.sort();
            let mut all: Vec<&str> = kind.commands().iter().map(|s| s.name).collect();
            all.sort();
            assert_eq!(placed, all, "{kind:?}: each order once");
            let groups: &[CommandGroup] = with_kind!(kind, R => R::COMMAND_GROUPS);
            for g in groups {
                assert!(g.orders.iter().all(|o| all.contains(o)), "{kind:?} {}", g.name);
            }
            for s in kind.commands() {
                let (k, c) = GameKind::from_command(&kind.command_of(s.name)).unwrap();
                assert!(k == kind && c.specs.iter().any(|x| x.name == s.name));
            }
        }
        assert!(GameKind::from_command("chess").is_none());
    }

    /// Every game's declared options are what its set-up reads: each
    /// option's default and bounds (or words) are accepted, the values just
    /// outside refused, and so is a key it does not declare.
    #[test]
    fn every_game_reads_the_options_it_declares() {
        use orrery_engine::OptionValues;
        for &kind in GameKind::ALL {
            // Accepted for some number of players (Space Empires' teams
            // only for 4), as the lobby checks them.
            let probe = |options: serde_json::Value| {
                let mut last = None;
                for players in kind.player_counts() {
                    let mut c = GameConfig::new(players, 1);
                    c.options = options.clone();
                    match kind.setup(&c) {
                        Ok(events) => return Ok(events),
                        Err(e) => last = Some(e),
                    }
                }
                Err(last.expect("a game has a player count"))
            };
            assert!(probe(serde_json::Value::Null).is_ok(), "{kind:?}: the defaults");
            let e = probe(json!({"no_such_option": 1})).unwrap_err();
            assert!(e.0.contains("no_such_option"), "{kind:?}: {e}");
            for o in kind.options() {
                let ok = |v: serde_json::Value| probe(json!({ o.key: v })).is_ok();
                assert!(!o.description.is_empty(), "{kind:?} {}", o.key);
                assert!(ok(o.values.default_value()), "{kind:?} {}: its default", o.key);
                match o.values {
                    OptionValues::Whole { min, max, .. } => {
                        assert!(ok(min.into()) && ok(max.into()), "{kind:?} {}", o.key);
                        assert!(!ok((min - 1).into()) && !ok((max + 1).into()), "{kind:?} {}", o.key);
                    }
                    OptionValues::Words { words, .. } => {
                        assert!(words.iter().any(|w| ok((*w).into())), "{kind:?} {}", o.key);
                        assert!(!ok("nonsense".into()), "{kind:?} {}", o.key);
                    }
                    OptionValues::Flag { .. } => {
                        assert!(
                            ok(true.into()) && ok(false.into()) && !ok(1.into()),
                            "{kind:?} {}",
                            o.key
                        );
                    }
                    OptionValues::Reserved => assert!(ok(false.into()) && !ok(true.into()), "{kind:?} {}", o.key),
                }
            }
        }
    }

    #[test]
    fn an_event_of_another_game_does_not_apply() {
        let [a, b, ..] = GameKind::ALL else { return };
        let event = b
            .setup(&GameConfig::new(*b.player_counts().start(), 1))
            .unwrap()
            .remove(0);
        let mut state = a.empty();
        let err = state.apply(&event).unwrap_err();
        assert_eq!((err.state, err.event), (a.key(), b.key()));
    }
}
