//! Starlanes: a race to 6 victory points on a hex map of planets joined by
//! hyperlanes; one Action plus Free Actions per turn, a cycling tech
//! market, and a scoring token that moves against turn order.
//!
//! The rules a player reads are in `docs/rules/starlanes.md`.
//!
//! The folder follows the layout of every game folder:
//! - [`basics`]: the numbers of the rules page, the 18-card tech deck and
//!   combat resolution.
//! - [`map`]: planets, hyperlanes, adjacency, fixed and random fair maps.
//! - [`state`]: the state and the questions it answers.
//! - [`events`]: the past-tense events and `apply`.
//! - [`setup`]: the options and the set-up events.
//! - [`orders`]: `Action`, its text and the command specs.
//! - [`rules`]: legality, pending decisions, turn flow and scoring.
//! - [`view`]: views (the deck order stays hidden) and narration.
//! - [`controls`]: labels and groups of the legal orders, autocomplete.
//! - [`scene`]: the board picture.

pub mod basics;
pub mod controls;
pub mod events;
pub mod hooks;
pub mod map;
pub mod orders;
pub mod rules;
pub mod scene;
pub mod setup;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use basics::Tech;
pub use events::Event;
pub use orders::Action;
pub use state::{Options, State};
pub use view::View;

use orrery_engine::{
    CommandLine, CommandSpec, Control, GameConfig, GameRng, Outcome, ParseError, Pending, PhaseInfo, Rejection,
    Ruleset, Seat, SetupError, SetupOption, Viewer,
};
use orrery_render::Scene;

/// The Starlanes ruleset.
pub struct Starlanes;

/// The phase label and the turn holder ([`PhaseInfo`]), for the state and
/// for the board (built from a view): "Round 3".
pub fn phase_label(over: bool, not_started: bool, round: u32, active: Seat) -> (String, Option<Seat>) {
    if over {
        (format!("Round {round} · Game over"), None)
    } else if not_started {
        ("Setting up".to_string(), None)
    } else {
        (format!("Round {round}"), Some(active))
    }
}

impl Ruleset for Starlanes {
    const KEY: &'static str = "starlanes";
    const NAME: &'static str = "Starlanes";
    const DECISION_KINDS: &'static [&'static str] = &["turn"];
    const DECISION_NAMES: &'static [(&'static str, &'static str)] = &[("turn", "turn")];
    const OPTIONS: &'static [SetupOption] = &setup::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/starlanes.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn player_counts() -> std::ops::RangeInclusive<u8> {
        2..=4
    }

    fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
        setup::setup(config)
    }

    fn empty() -> State {
        State::empty()
    }

    fn pending(state: &State) -> Vec<Pending> {
        rules::pending(state)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        rules::legal_actions(state, seat)
    }

    fn decide(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
        rules::decide(state, seat, action)
    }

    fn apply(state: &mut State, event: &Event) {
        events::apply(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
        view::narrate(event, viewer, names)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn standings(state: &State) -> Vec<(Seat, String)> {
        rules::standings(state)
    }

    fn resign(state: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
        rules::resign(state, seat)
    }

    fn phase(state: &State) -> PhaseInfo {
        let (label, turn) = phase_label(state.outcome.is_some(), state.players == 0, state.round, state.active);
        // One board per turn, and one more once the game is over.
        PhaseInfo {
            number: state.turn + u32::from(state.outcome.is_some()),
            label,
            turn,
        }
    }

    fn parse(line: &CommandLine) -> Result<Action, ParseError> {
        orders::parse(line)
    }

    fn unparse(action: &Action) -> CommandLine {
        orders::unparse(action)
    }

    fn commands() -> Vec<CommandSpec> {
        orders::commands()
    }

    fn scene(view: &View, names: &[String]) -> Scene {
        scene::scene(view, names)
    }

    fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
        hooks::scramble(state, keep, private_only, rng)
    }

    fn evaluate(state: &State, seat: Seat) -> f64 {
        hooks::evaluate(state, seat)
    }

    fn test_order(state: &State, seat: Seat, legal: &[Action]) -> Option<Action> {
        hooks::test_order(state, seat, legal)
    }

    fn default_action(state: &State, seat: Seat) -> Option<Action> {
        rules::default_action(state, seat)
    }

    fn control(state: &State, seat: Seat, action: &Action, _names: &[String]) -> Control {
        controls::control(state, seat, action)
    }

    fn takes_back(event: &Event) -> bool {
        controls::takes_back(event)
    }

    fn complete_more(
        state: &State,
        seat: Seat,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Vec<String> {
        controls::complete_sources(state, seat, command, option, filled, partial)
    }
}
