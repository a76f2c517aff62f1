//! Hyperspace: fleets ride warp tokens along a hyperspace track across a
//! two-layer board of 24 sectors; combat cards decide close battles.
//!
//! The rules a player reads are in `docs/rules/hyperspace.md`.
//!
//! - [`board`]: sectors, stars, resources, the sector count (distance).
//! - [`cards`]: the seven combat cards and the combat result.
//! - [`state`]: state, events, `apply`.
//! - [`rules`]: orders, legality, pending decisions, the automatic flow.
//! - [`view`]: per-viewer views and narration.
//! - [`scene`]: the board picture.

pub mod board;
pub mod cards;
pub mod controls;
pub mod hooks;
pub mod rules;
pub mod scene;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use board::{Sector, Star};
pub use cards::Card;
pub use rules::Action;
pub use state::{Event, Options, State};
pub use view::View;

use orrery_engine::{
    GameRng,
    CommandLine, CommandSpec, Control, GameConfig, Outcome, ParamKind, ParamSpec, ParseError, Pending, PhaseInfo, Rejection,
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
    const OPTIONS: &'static [SetupOption] = &rules::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/hyperspace.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn player_counts() -> std::ops::RangeInclusive<u8> {
        2..=4
    }

    fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
        rules::setup(config)
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
        state::apply(state, event)
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
        rules::parse(line)
    }

    fn unparse(action: &Action) -> CommandLine {
        rules::unparse(action)
    }

    fn commands() -> Vec<CommandSpec> {
        let p = ParamSpec::new;
        vec![
            CommandSpec {
                name: "depart",
                description: "Put ships from a star on a free warp token (or jump within the sector with to:)",
                params: vec![
                    p("from", "Star the ships leave", ParamKind::Text, true),
                    p("ships", "How many ships", ParamKind::Number, true),
                    p(
                        "to",
                        "The other star of the same sector (an immediate journey)",
                        ParamKind::Text,
                        false,
                    ),
                ],
            },
            CommandSpec {
                name: "arrive",
                description: "Land a warp token's fleet at a star whose sector count equals the token's square",
                params: vec![
                    p("token", "Warp token number (1-5)", ParamKind::Number, true),
                    p("at", "Destination star", ParamKind::Text, true),
                ],
            },
            CommandSpec {
                name: "end",
                description: "End movement; battles follow",
                params: vec![],
            },
            CommandSpec {
                name: "card",
                description: "Pick your combat card in secret",
                params: vec![p(
                    "name",
                    "Spy, Ensign, Lieutenant, Tactician, Captain, Commodore or Admiral",
                    ParamKind::Text,
                    true,
                )],
            },
            CommandSpec {
                name: "losses",
                description: "As victor: the loser loses n ships, you lose n-1",
                params: vec![p("n", "From 1 to the losing fleet's ships", ParamKind::Number, true)],
            },
            CommandSpec {
                name: "retreat",
                description: "Retreat ships from the battle onto a free warp token (0 stays)",
                params: vec![p("ships", "How many ships retreat", ParamKind::Number, true)],
            },
        ]
    }

    fn scene(view: &View, names: &[String]) -> Scene {
        scene::scene(view, names)
    }

    fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
        hooks::scramble(state, keep, private_only, rng)
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
