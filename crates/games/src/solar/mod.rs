//! Solar Crisis: 2 to 5 players run Earth-based empires along a line of
//! planets from Mercury to the Kuiper Belt over three periods. They fly
//! troops out, claim tiles (mines, factories, money, cards, trophies) with
//! dice and combat points, fight over rivals' mines, and keep every
//! planet's crisis under control; the most victory points wins, unless the
//! robots of Earth rebel or the aliens reach Earth, and everyone loses.
//!
//! The rules a player reads, and the specification, are in
//! `docs/rules/solar.md`.
//!
//! The folder follows the layout of every game folder; each module uses
//! only those before it:
//!
//! - [`basics`]: the game's static data, pinned to the rules page by the
//!   tests ([`basics::board`]: players, periods, phases, the planets, units
//!   and pieces; [`basics::tiles`]: the 55 bag tiles and 3 Alien tiles;
//!   [`basics::cards`]: the 40-card deck and the 4 own cards).
//! - [`state`]: the [`state::State`] and the questions it answers.
//! - [`events`]: the past-tense [`events::Event`]s and the total
//!   [`events::apply`].
//! - [`setup`]: the options, [`setup::setup`] (the page's *Set-up*) and
//!   [`setup::open_period`] (Phases 1 and 2).
//! - [`orders`]: the [`orders::Action`]s, their text form and the command
//!   specs (the turn's orders; [`orders::crises`]: `lose` and `power`;
//!   [`orders::cards`]: `play`, `end`, `take`, `discard`).
//! - [`rules`]: who owes what, the legal orders and [`rules::decide`],
//!   which plays on to the next decision; its parts [`rules::crises`]
//!   (Phases 4 to 6, the scoring, the outcome), [`rules::turn`] (the
//!   Player Actions phase) and [`rules::cards`] (every card).
//! - [`view`]: what one viewer may see (hands only to their holder), each
//!   event in words as that viewer may learn it, and where the game is.
//! - [`controls`]: how legal orders are offered as buttons and menus, and
//!   which actions can be taken back.
//! - [`scene`]: the board picture, from a view.
//! - [`hooks`]: the test hooks (`scramble`); `tests`: the helpers the
//!   tests share.

pub mod basics;
pub mod controls;
pub mod events;
pub mod hooks;
pub mod orders;
pub mod rules;
pub mod scene;
pub mod setup;
pub mod state;
#[cfg(test)]
mod tests;
pub mod view;

pub use events::Event;
pub use orders::Action;
pub use state::{Options, State};
pub use view::View;

use orrery_engine::{
    CommandLine, CommandSpec, Control, GameConfig, GameRng, Outcome, ParseError, Pending, PhaseInfo, Rejection,
    Ruleset, Seat, SetupError, SetupOption, Viewer,
};
use orrery_render::Scene;

/// The Solar Crisis ruleset.
pub struct Solar;

impl Ruleset for Solar {
    const KEY: &'static str = "solar";
    const NAME: &'static str = "Solar Crisis";
    const DECISION_KINDS: &'static [&'static str] = &["turn", "pay", "take", "discard", "power", "lose"];
    const DECISION_NAMES: &'static [(&'static str, &'static str)] = &[
        ("turn", "turn"),
        ("pay", "paying for a claim"),
        ("take", "Espionage pick"),
        ("discard", "discarding to the hand limit"),
        ("power", "Mercury's powers"),
        ("lose", "crisis losses"),
    ];
    const OPTIONS: &'static [SetupOption] = &setup::OPTIONS;
    const RULES_PAGE: &'static str = include_str!("../../../../docs/rules/solar.md");
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn player_counts() -> std::ops::RangeInclusive<u8> {
        basics::board::PlayerCount::MIN..=basics::board::PlayerCount::MAX
    }

    /// The page's *Set-up*, then the opening of period 1 up to the First
    /// Player's first turn: a new game waits on its first decision.
    fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
        let mut events = setup::setup(config)?;
        let set_up = Self::fold(&events);
        events.extend(setup::open_period(&set_up));
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

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    /// Final VP, best first; seats that resigned last, as "resigned". A
    /// game ended by resignations has no VP: the player left comes first.
    fn standings(state: &State) -> Vec<(Seat, String)> {
        let mut v = crate::shared::standings(state.final_vp.iter().copied(), |n| format!("{n} VP"));
        if v.is_empty() && !state.resigned.is_empty() {
            v = state.seat_ids().map(|s| (s, "still in the game".to_string())).collect();
        }
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

    fn forced(state: &State, seat: Seat) -> Option<(Action, String)> {
        rules::forced(state, seat)
    }

    fn control(state: &State, seat: Seat, action: &Action, names: &[String]) -> Control {
        controls::control(state, seat, action, names)
    }

    fn controls(state: &State, seat: Seat, actions: &[Action], names: &[String]) -> Vec<Control> {
        controls::controls(state, seat, actions, names)
    }

    fn takes_back(event: &Event) -> bool {
        controls::takes_back(event)
    }
}

/// The rules page as plain text for the tests: Markdown emphasis (`*`)
/// and code marks (`` ` ``) dropped, every run of white space (line breaks
/// and indents too) one space. A wrapped sentence reads as one line.
#[cfg(test)]
pub(crate) fn page() -> String {
    const PAGE: &str = include_str!("../../../../docs/rules/solar.md");
    PAGE.replace(['*', '`'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
