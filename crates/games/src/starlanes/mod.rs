//! Starlanes: a race to 6 victory points on a hex map of planets joined by
//! hyperlanes; one Action plus Free Actions per turn, a cycling tech
//! market, and a scoring token that moves against turn order.
//!
//! The rules a player reads are in `docs/rules/starlanes.md`.
//!
//! - [`map`]: planets, hyperlanes, adjacency, fixed and random fair maps.
//! - [`techs`]: the 18-card tech deck and combat resolution.
//! - [`state`]: state, events, `apply`.
//! - [`rules`]: orders, legality, pending decisions, turn flow and scoring.
//! - [`view`]: views (the deck order stays hidden) and narration.
//! - [`scene`]: the board picture.

pub mod controls;
pub mod hooks;
pub mod map;
pub mod rules;
pub mod scene;
pub mod state;
pub mod techs;
pub mod view;

#[cfg(test)]
mod tests;

pub use rules::Action;
pub use state::{Event, Options, State};
pub use techs::Tech;
pub use view::View;

use orrery_engine::{
    GameRng,
    CommandLine, CommandSpec, Control, GameConfig, Outcome, ParamKind, ParamSpec, ParseError, Pending, PhaseInfo, Rejection,
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
    const OPTIONS: &'static [SetupOption] = &rules::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/starlanes.md");
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
            state.players == 0,
            state.round,
            state.active,
        );
        // One board per turn, and one more once the game is over.
        PhaseInfo {
            number: state.turn + u32::from(state.outcome.is_some()),
            label,
            turn,
        }
    }

    fn parse(line: &CommandLine) -> Result<Action, ParseError> {
        rules::parse(line)
    }

    fn unparse(action: &Action) -> CommandLine {
        rules::unparse(action)
    }

    fn commands() -> Vec<CommandSpec> {
        let p = |name, description, required| ParamSpec {
            name,
            description,
            kind: ParamKind::Text,
            required,
        };
        let from = "Planet(s) the forces come from: Vega, or Vega=2,Mira=1 (no number: all)";
        vec![
            CommandSpec {
                name: "move",
                description: "Action: move forces from adjacent planets to a planet (combat if enemy-held)",
                params: vec![p("to", "Destination planet", true), p("from", from, true)],
            },
            CommandSpec {
                name: "produce",
                description: "Action: add forces (and science) at a non-exhausted planet you hold",
                params: vec![p("at", "Planet where you have forces", true)],
            },
            CommandSpec {
                name: "refresh",
                description: "Action: remove exhausted markers from your planets and techs",
                params: vec![],
            },
            CommandSpec {
                name: "use",
                description: "Use a tech (an Action or a Free Action, as its text says)",
                params: vec![
                    p("tech", "Tech name", true),
                    p("at", "Planet the tech acts on", false),
                    p("also", "Second planet (Foundries)", false),
                    p("to", "Destination (Jumpgates, Logistics)", false),
                    p("from", from, false),
                ],
            },
            CommandSpec {
                name: "buy",
                description: "Buy a tech (only right after producing science)",
                params: vec![p("tech", "A universal tech (2) or a market tech (3/2/1)", true)],
            },
            CommandSpec {
                name: "end",
                description: "End your turn (scoring if you hold the scoring token)",
                params: vec![],
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

    fn complete_more(
        state: &State,
        seat: Seat,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Vec<String> {
        rules::complete_sources(state, seat, command, option, filled, partial)
    }
}
