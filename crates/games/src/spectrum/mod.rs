//! Spectrum War: 2 to 6 players, 37 coloured planets in a three-level hex
//! disc, simultaneous secret order sheets in four sections a turn (economic,
//! movement, combat, ecopolitical), ships built from units, fog of war.
//!
//! The rules a player reads, and the specification, are in
//! `docs/rules/spectrum.md`.
//!
//! The folder follows the layout of every game folder:
//!
//! - [`basics`]: colours and the wheel, spaces, ship names; its part
//!   [`basics::ships`]: units, the ship catalogue, what a ship can do, and
//!   a combat round's hits replayed onto a ship.
//! - [`map`]: the disc, vectors and paths, the generated map (planets,
//!   homes, the jump table) and its fairness.
//! - [`state`]: the [`State`] and the questions it answers.
//! - [`events`]: the past-tense [`Event`]s and `apply`.
//! - [`setup`]: the options and the set-up (the map and the seats).
//! - [`orders`]: sheet lines as written, the [`Action`], their text and the
//!   command specs.
//! - [`rules`]: who owes which sheet, lines resolved against the state, the
//!   legal edits and `decide`; its parts [`rules::turn`] (each line checked
//!   as it is written, each section carried out, the beginning of a turn,
//!   victory) and [`rules::combat`] (one round of combat at one space, the
//!   standing rule for shots, planet ownership).
//! - [`view`]: what one viewer may see (fog of war), events in words.
//! - [`controls`]: sheet edits as buttons and menus; its part
//!   [`controls::complete`]: autocomplete for movement paths.
//! - [`scene`]: the board picture, from a view.

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

pub use events::Event;
pub use orders::Action;
pub use state::State;
pub use view::View;

use orrery_engine::{
    CommandLine, CommandSpec, Control, GameConfig, GameRng, Outcome, ParseError, Pending, PhaseInfo, Rejection,
    Ruleset, Seat, SetupError, SetupOption, SheetEdit, SheetVerb, Viewer,
};
use orrery_render::Scene;

/// The Spectrum War ruleset.
pub struct Spectrum;

impl Ruleset for Spectrum {
    const KEY: &'static str = "spectrum";
    const NAME: &'static str = "Spectrum War";
    const DECISION_KINDS: &'static [&'static str] = &["economic", "movement", "combat", "ecopolitical"];
    const DECISION_NAMES: &'static [(&'static str, &'static str)] = &[
        ("economic", "economic sheet"),
        ("movement", "movement sheet"),
        ("combat", "combat sheet"),
        ("ecopolitical", "ecopolitical sheet"),
    ];
    const PRIVATE_BOARDS: bool = true;
    const OPTIONS: &'static [SetupOption] = &setup::OPTIONS;
    const SEAT_PICK: Option<orrery_engine::SeatPick> = Some(setup::SEAT_PICK);
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/spectrum.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn player_counts() -> std::ops::RangeInclusive<u8> {
        2..=6
    }

    fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
        let (s, mut events) = setup::setup(config)?;
        events.extend(rules::turn::begin_turn(&s));
        Ok(events)
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

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    /// Planets held, best first; seats that resigned last, as "resigned".
    fn standings(state: &State) -> Vec<(Seat, String)> {
        let mut v = crate::shared::standings(state.seats().map(|s| state.planets_of(s) as u32), |n| {
            format!("{n} planet{}", if n == 1 { "" } else { "s" })
        });
        v.sort_by_key(|(s, _)| state.has_resigned(*s));
        for (s, what) in &mut v {
            if state.has_resigned(*s) {
                *what = "resigned".into();
            }
        }
        v
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

    fn resign(state: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
        rules::resign(state, seat)
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
        controls::complete::complete_more(state, seat, command, option, filled, partial)
    }
}
