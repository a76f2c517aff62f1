//! Hyperspace: fleets ride warp tokens along a hyperspace track across a
//! two-layer board of 24 sectors; combat cards decide close battles.
//!
//! The rules a player reads are in `docs/rules/hyperspace.md`.
//!
//! The folder follows the layout of every game folder:
//! - [`basics`]: the board (sectors, stars, resources, the sector count) and
//!   the seven combat cards with the combat result, as parts.
//! - [`state`]: the state and the questions it answers.
//! - [`events`]: the past-tense events and `apply`.
//! - [`setup`]: the options and the table before the first turn.
//! - [`orders`]: `Action`, its text and the command specs.
//! - [`rules`]: who owes what, legality, `decide`, the automatic flow.
//! - [`view`]: per-viewer views and narration.
//! - [`controls`]: labels and groups of the legal orders.
//! - [`scene`]: the board picture.

pub mod basics;
pub mod controls;
pub mod events;
pub mod hooks;
pub mod orders;
pub mod rules;
pub mod scene;
pub mod setup;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use basics::{Card, Sector, Star};
pub use events::Event;
pub use orders::Action;
pub use state::{Options, State};
pub use view::View;

use orrery_engine::{
    CommandLine, CommandSpec, Control, GameConfig, GameRng, Outcome, ParseError, Pending, PhaseInfo, Rejection,
    Ruleset, Seat, SetupError, SetupOption, Viewer,
};
use orrery_render::Scene;

/// The Hyperspace ruleset.
pub struct Hyperspace;

/// The phase label and the turn holder ([`PhaseInfo`]), for the state and
/// for the board's header (built from a view): "Round 3 · Battle at Vega".
pub fn phase_label(
    over: bool,
    not_started: bool,
    round: u32,
    battle: Option<Star>,
    active: Seat,
) -> (String, Option<Seat>) {
    match (over, not_started, battle) {
        (true, _, _) => (format!("Round {round} · Game over"), None),
        (false, true, _) => ("Setting up".to_string(), None),
        (false, false, Some(star)) => (format!("Round {round} · Battle at {}", star.name()), Some(active)),
        (false, false, None) => (format!("Round {round}"), Some(active)),
    }
}

impl Ruleset for Hyperspace {
    const KEY: &'static str = "hyperspace";
    const NAME: &'static str = "Hyperspace";
    const DECISION_KINDS: &'static [&'static str] = &["turn", "combat-card", "losses", "retreat"];
    const DECISION_NAMES: &'static [(&'static str, &'static str)] = &[
        ("turn", "turn"),
        ("combat-card", "combat card"),
        ("losses", "choosing losses"),
        ("retreat", "retreat"),
    ];
    const OPTIONS: &'static [SetupOption] = &setup::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/hyperspace.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn player_counts() -> std::ops::RangeInclusive<u8> {
        2..=4
    }

    fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
        let (mut s, mut ev) = setup::setup(config)?;
        rules::first_turn(&mut s, &mut ev);
        Ok(ev)
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
        let (label, turn) = phase_label(
            state.outcome.is_some(),
            state.stage == state::Stage::NotStarted,
            state.round,
            state.battle().map(|b| b.star),
            state.active,
        );
        // One more once the game is over, so the final board is posted too.
        let number = state.turn + u32::from(state.outcome.is_some());
        PhaseInfo { number, label, turn }
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
}
