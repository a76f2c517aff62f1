//! Spectrum War: 2 to 6 players, 37 coloured planets in a three-level hex
//! disc, simultaneous secret order sheets in four sections a turn (economic,
//! movement, combat, ecopolitical), ships built from units, fog of war.
//!
//! The rules a player reads, and the specification, are in
//! `docs/rules/spectrum.md`.
//!
//! The layers, bottom up:
//!
//! - [`basics`]: colours and the wheel, spaces, ship names.
//! - [`map`]: the disc, vectors and paths, the generated map (planets,
//!   homes, the jump table) and its fairness.
//! - [`ships`]: units, the ship catalogue, what a ship can do.
//! - [`combat`]: one round of combat at one space, the standing rule for
//!   shots, and planet ownership.
//! - [`state`]: the [`State`], the past-tense [`Event`]s and `apply`.
//! - [`rules`]: sheet lines as text, who owes which sheet, the legal
//!   edits and `decide`.
//! - [`turn`]: each line checked as it is written, each section carried
//!   out, the beginning of a turn, victory.
//! - [`view`]: what one viewer may see (fog of war), events in words.
//! - [`controls`]: sheet edits as buttons and menus.
//! - [`scene`]: the board picture, from a view.

pub mod basics;
pub mod combat;
pub mod complete;
pub mod controls;
pub mod hooks;
pub mod map;
pub mod rules;
pub mod scene;
pub mod ships;
pub mod state;
pub mod turn;
pub mod view;

pub use rules::Action;
pub use state::{Event, State};
pub use view::View;

use orrery_engine::{
    GameRng,
    CommandLine, CommandSpec, Control, GameConfig, Outcome, ParseError, Pending, PhaseInfo, Rejection, Ruleset, Seat,
    SetupError, SetupOption, SheetEdit, SheetVerb, Viewer,
};
use orrery_render::Scene;

/// The Spectrum War ruleset.
pub struct Spectrum;

impl Ruleset for Spectrum {
    const KEY: &'static str = "spectrum";
    const NAME: &'static str = "Spectrum War";
    const DECISION_KINDS: &'static [&'static str] = &["economic", "movement", "combat", "ecopolitical"];
    const PRIVATE_BOARDS: bool = true;
    const OPTIONS: &'static [SetupOption] = &turn::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/spectrum.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn player_counts() -> std::ops::RangeInclusive<u8> {
        2..=6
    }

    fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
        turn::setup(config)
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
        view::phase(state)
    }

    fn parse(line: &CommandLine) -> Result<Action, ParseError> {
        rules::parse(line)
    }

    fn unparse(action: &Action) -> CommandLine {
        rules::unparse(action)
    }

    fn commands() -> Vec<CommandSpec> {
        rules::commands()
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

    fn controls(state: &State, seat: Seat, actions: &[Action], names: &[String]) -> Vec<Control> {
        controls::controls(state, seat, actions, names)
    }

    fn sheet_verb(verb: SheetVerb) -> Option<Action> {
        Some(SheetEdit::from_verb(verb))
    }

    fn sheet_lines(state: &State, seat: Seat, names: &[String]) -> Option<Vec<String>> {
        state.sheet.owes(seat).then(|| view::sheet_lines(state, seat, names))
    }

    fn complete_more(
        state: &State,
        seat: Seat,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Vec<String> {
        complete::complete_more(state, seat, command, option, filled, partial)
    }
}
