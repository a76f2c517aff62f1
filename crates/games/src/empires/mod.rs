//! Space Empires 4X, the basic game (with advanced rules 10 and 13 and the
//! optional rules 15, 16, 18 and 19 as options): 2 to 4 players, a hex map
//! of face-down System markers, face-down counters, three turns of
//! movement, combat and exploration per player, then a simultaneous secret
//! Economic Phase.
//!
//! The rules a player reads, and the specification, are in
//! `docs/rules/empires.md`.
//!
//! The layers, bottom up (each uses only those above it):
//!
//! - [`basics`]: the charts as data (units, research, movement, yard
//!   capacity, colony steps, markers, the wreck table), labels, directions.
//! - [`map`]: the three maps (hexes, areas, homeworlds, names), the marker
//!   mixes and their deal, and the maps' fairness tests.
//! - [`state`]: the [`State`] and its parts; `state::battle`: one battle at
//!   one hex as a pure state machine (dice passed in), standing orders,
//!   colony fire (part of the state: `apply` replays battle answers onto
//!   the stored battle).
//! - [`events`]: the past-tense [`Event`]s and `apply`.
//! - [`setup`]: the options and the setting-up of a game.
//! - [`orders`]: orders as text ([`Action`]), parse and unparse.
//! - [`rules`]: who owes what, the legal orders, `decide`, and the game
//!   carried on by itself between decisions; its parts `rules::combat`
//!   (the combat phase), `rules::economy` (the Economic Phase's arithmetic
//!   and the sheet's rules), `rules::mines` (minefields before a battle,
//!   advanced rule 13) and `rules::movement` (the movement phase's orders,
//!   Lost in Space, exploration, MS Pipelines' chains and Warp Points).
//! - [`view`]: what one viewer may see, events in words.
//! - [`controls`]: legal orders as buttons and menus.
//! - [`scene`]: the board picture, from a view.
//! - [`hooks`]: test hooks (`scramble`).

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

pub use basics::Kind;
pub use events::Event;
pub use orders::Action;
pub use state::State;
pub use view::View;

use orrery_engine::{
    CommandGroup, CommandLine, CommandSpec, Control, GameConfig, GameRng, Outcome, ParseError, Pending, PhaseInfo,
    Rejection, Ruleset, Seat, SetupError, SetupOption, SheetEdit, SheetVerb, Viewer,
};
use orrery_render::Scene;

/// The Space Empires 4X ruleset.
pub struct Empires;

impl Ruleset for Empires {
    const KEY: &'static str = "empires";
    const NAME: &'static str = "Space Empires 4X";
    const DECISION_KINDS: &'static [&'static str] = &["move", "combat", "lost", "mines", "economic", "first"];
    const DECISION_NAMES: &'static [(&'static str, &'static str)] = &[
        ("move", "movement"),
        ("combat", "combat"),
        ("lost", "a Lost in Space move"),
        ("mines", "your mines' targets"),
        ("economic", "economic phase"),
        ("first", "choosing who moves first"),
    ];
    const PRIVATE_BOARDS: bool = true;
    const OPTIONS: &'static [SetupOption] = &setup::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/empires.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    /// One player is the solitaire game (rules page, *Solitaire*).
    fn player_counts() -> std::ops::RangeInclusive<u8> {
        1..=4
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
        events::apply(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
        view::narrate(event, viewer, names)
    }

    fn news(before: &View, after: &View) -> bool {
        view::news(before, after)
    }

    fn resign(state: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
        rules::resign(state, seat)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn standings(state: &State) -> Vec<(Seat, String)> {
        crate::shared::standings(state.seats().map(|s| state.score(s)), |n| format!("{n} points"))
    }

    fn phase(state: &State) -> PhaseInfo {
        view::phase(state)
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

    /// Combat and the economic sheet under commands of their own
    /// (`/empires-combat fire`, `/empires-economy buy`), movement and the
    /// rest under `/empires`: one command could not hold them all within
    /// Discord's limits, nor the advanced rules' orders still to come.
    const COMMAND_GROUPS: &'static [CommandGroup] = &[
        CommandGroup {
            name: "combat",
            description: "orders of a battle",
            orders: &[
                "battle", "fire", "retreat", "screen", "done", "hold", "auto", "detonate",
            ],
        },
        CommandGroup {
            name: "economy",
            description: "your economic sheet and the bid for player order",
            orders: &["bid", "research", "buy", "first"],
        },
    ];

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

    fn controls(state: &State, seat: Seat, actions: &[Action], names: &[String]) -> Vec<Control> {
        controls::controls(state, seat, actions, names)
    }

    fn any_time(action: &Action) -> bool {
        matches!(action, Action::Standing(_))
    }

    fn takes_back(event: &Event) -> bool {
        event.quiet()
    }

    fn sheet_verb(verb: SheetVerb) -> Option<Action> {
        Some(Action::Sheet(SheetEdit::from_verb(verb)))
    }

    fn sheet_lines(state: &State, seat: Seat, _names: &[String]) -> Option<Vec<String>> {
        state.sheet.owes(seat).then(|| view::sheet_lines(state, seat))
    }

    fn complete_more(
        state: &State,
        seat: Seat,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Vec<String> {
        rules::complete_scrap(state, seat, command, option, filled, partial)
    }
}

#[cfg(test)]
mod tests;
