//! The contract every game system implements.

use super::command::{CommandGroup, CommandLine, CommandSpec, ParseError};
use super::decision::{Pending, SheetVerb};
use super::ids::{Seat, Viewer};
use super::options::{Options, SetupError, SetupOption};
use super::rng::GameRng;
use orrery_render::Scene;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::Debug;

/// How a game is set up: player count, the seed of its RNG, and
/// ruleset-specific options as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    pub players: u8,
    pub seed: u64,
    /// Ruleset options (`{}` for defaults). Each ruleset documents its keys.
    #[serde(default)]
    pub options: serde_json::Value,
    /// What each seat picked when it joined ([`Ruleset::SEAT_PICK`], such
    /// as Spectrum War's colour), in seat order; `None` (or a seat past the
    /// list's end): the game's own assignment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<Option<String>>,
}

impl GameConfig {
    pub fn new(players: u8, seed: u64) -> Self {
        GameConfig {
            players,
            seed,
            options: serde_json::Value::Object(Default::default()),
            picks: Vec::new(),
        }
    }

    /// What `seat` picked, if it did.
    pub fn pick(&self, seat: Seat) -> Option<&str> {
        self.picks.get(seat.index()).and_then(|p| p.as_deref())
    }
}

/// A choice each player makes for their own seat on joining a game
/// (Spectrum War: "select color"): one of `values`, each taken by one
/// seat at most. A seat that picks nothing gets the game's own
/// assignment among the values left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatPick {
    /// The option's name, in commands and the lobby: `colour`.
    pub name: &'static str,
    /// The values, in the order they are offered.
    pub values: &'static [&'static str],
}

impl SeatPick {
    /// `text` read as one of the values (any case), or what would be legal.
    pub fn read(&self, text: &str) -> Result<&'static str, String> {
        let t = text.trim().to_lowercase();
        self.values.iter().copied().find(|v| *v == t).ok_or_else(|| {
            format!(
                "“{}” is not a {}; the {}s are {}",
                text.trim(),
                self.name,
                self.name,
                self.values.join(", ")
            )
        })
    }
}

/// `config.options` checked against the ruleset's declared
/// [`Ruleset::OPTIONS`]: every option's value (its default when not given),
/// or what was wrong and what would be legal. A ruleset's `setup` starts
/// with it.
pub fn options_of<R: Ruleset>(config: &GameConfig) -> Result<Options, SetupError> {
    Options::read(R::NAME, R::OPTIONS, &config.options)
}

/// Why a well-formed action is not legal now. Says what was wrong and what
/// would be legal instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum Rejection {
    #[error("the game is over")]
    GameOver,
    /// The seats the game waits on are given as seats: the service names
    /// them for people.
    #[error("nothing is asked of {seat} right now; the game is waiting on {}", seat_list(.waiting))]
    NotYourDecision { seat: Seat, waiting: Vec<Seat> },
    #[error("{reason}{}", legal_suffix(.legal))]
    Illegal { reason: String, legal: Vec<String> },
}

/// "seat 1", "seat 1 and seat 3", "nobody".
fn seat_list(seats: &[Seat]) -> String {
    match seats {
        [] => "nobody".into(),
        [one] => one.to_string(),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(Seat::to_string).collect();
            format!("{} and {last}", init.join(", "))
        }
    }
}

fn legal_suffix(legal: &[String]) -> String {
    if legal.is_empty() {
        String::new()
    } else {
        const SHOWN: usize = 12;
        let mut s = format!(
            ". Legal now: {}",
            legal.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ")
        );
        if legal.len() > SHOWN {
            s.push_str(&format!(" (and {} more)", legal.len() - SHOWN));
        }
        s
    }
}

impl Rejection {
    pub fn illegal(reason: impl Into<String>, legal: Vec<String>) -> Self {
        Rejection::Illegal {
            reason: reason.into(),
            legal,
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Winner {
        seat: Seat,
        reason: String,
    },
    /// Several seats share the victory (a designed tie).
    Shared {
        seats: Vec<Seat>,
        reason: String,
    },
    /// Nobody wins: the game beat every player (Solar Crisis' robot
    /// rebellion or the aliens reaching Earth).
    AllLose {
        reason: String,
    },
}

impl Outcome {
    /// The seats that won: none when everyone lost.
    pub fn winners(&self) -> Vec<Seat> {
        match self {
            Outcome::Winner { seat, .. } => vec![*seat],
            Outcome::Shared { seats, .. } => seats.clone(),
            Outcome::AllLose { .. } => Vec::new(),
        }
    }

    /// Why the game ended.
    pub fn reason(&self) -> &str {
        match self {
            Outcome::Winner { reason, .. } | Outcome::Shared { reason, .. } | Outcome::AllLose { reason } => reason,
        }
    }
}

/// Where the game is, for headers and for knowing when a phase ended.
/// The service posts a board every time `number` changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseInfo {
    /// Increases by one at every phase boundary.
    pub number: u32,
    /// "Round 3", "Round 3 · Battle at Vega": where the game is, without
    /// naming anyone (names are the service's to add: see [`PhaseInfo::title`]).
    pub label: String,
    /// Whose turn it is, if the phase is one seat's turn.
    #[serde(default)]
    pub turn: Option<Seat>,
}

impl PhaseInfo {
    /// The label with the turn holder's name: "Round 3 · alice's turn".
    pub fn title(&self, names: &[String]) -> String {
        match self.turn {
            Some(seat) => {
                let name = names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string());
                format!("{} · {name}'s turn", self.label)
            }
            None => self.label.clone(),
        }
    }
}

/// How a legal order is offered to a person: a label they read, where it
/// sits among the others, and whether it needs a second thought.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Control {
    /// What the player reads ("Arrive at Vega · token 1", "Admiral (6)").
    pub label: String,
    /// Orders of one group are offered together ("Arrive", "Move from
    /// Algol") when there are too many for one row of buttons.
    pub group: String,
    pub style: ControlStyle,
    /// Asked before the order is sent ("End your turn with 3 ships still
    /// able to move?"); `None` sends at once.
    pub confirm: Option<String>,
}

/// What kind of choice a control is, for how it looks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ControlStyle {
    /// The choices the decision is about.
    #[default]
    Main,
    /// Choices on the side (pass, decline, keep).
    Minor,
    /// Ends the turn or gives something up.
    End,
    /// Completes the decision as it stands (marks an order sheet ready).
    Done,
}

impl Control {
    /// A main choice labelled with the order's own text, in its command's group.
    pub fn plain(line: &CommandLine) -> Self {
        Control {
            label: line.to_string(),
            group: line.name.clone(),
            style: ControlStyle::Main,
            confirm: None,
        }
    }
}

/// A game system. Pure: no I/O, no clock, no OS randomness. Every method is
/// a function of its arguments.
pub trait Ruleset {
    /// Stable key used in commands and the database (`"hyperspace"`).
    const KEY: &'static str;
    /// Human name (`"Hyperspace"`).
    const NAME: &'static str;
    /// Every kind of decision ([`Pending::kind`]) this ruleset asks for
    /// (per-kind deadline lengths are keyed on these).
    const DECISION_KINDS: &'static [&'static str];
    /// Each decision kind in words a newcomer reads where the game names
    /// what it waits on ("pay" → "paying for a claim"); a kind not listed
    /// is read with its dashes as spaces.
    const DECISION_NAMES: &'static [(&'static str, &'static str)] = &[];

    /// A decision kind in words, from [`Ruleset::DECISION_NAMES`] (a kind
    /// not listed: its dashes read as spaces).
    fn decision_name(kind: &str) -> String {
        Self::DECISION_NAMES
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or_else(|| kind.replace(['-', '_'], " "), |(_, n)| n.to_string())
    }
    /// Each seat is sent its own board by DM at every phase boundary,
    /// beside the public board in the channel: for games whose public
    /// board shows little (fog of war). Default: no.
    const PRIVATE_BOARDS: bool = false;
    /// The game's set-up options, as data: `/game new` offers them, and
    /// [`options_of`] checks a game's `GameConfig.options` against them
    /// (`&[]` for a game without options).
    const OPTIONS: &'static [SetupOption];
    /// A choice each player makes for their seat on joining (its values
    /// offered in the lobby; `GameConfig::picks` carries them to `setup`,
    /// which gives a seat that picked nothing the game's own assignment).
    /// Default: none.
    const SEAT_PICK: Option<SeatPick> = None;
    /// The rules page a player reads (Markdown, starting `# NAME`), usually
    /// `include_str!("../../../../docs/rules/<key>.md")` (from `crates/games/src/<key>/`).
    const RULES_PAGE: &'static str;

    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// Past-tense facts. The log stores these; state is their fold.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// What one viewer may see. Built only from what that viewer may know.
    type View: Clone + Debug + PartialEq + Serialize;

    /// Player counts this system supports.
    fn player_counts() -> std::ops::RangeInclusive<u8>;

    /// The events that set up a new game. Folding them onto
    /// [`Ruleset::empty`] gives the starting position.
    fn setup(config: &GameConfig) -> Result<Vec<Self::Event>, SetupError>;

    /// The state before any event.
    fn empty() -> Self::State;

    /// Which seats owe which decisions now (empty once the game is over).
    fn pending(state: &Self::State) -> Vec<Pending>;

    /// Every legal action for `seat` now. Commands, autocomplete, buttons and
    /// random play are built from this list.
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// Validate an action and turn it into events (including any automatic
    /// follow-up until the next decision point). Does not change `state`.
    fn decide(state: &Self::State, seat: Seat, action: &Self::Action) -> Result<Vec<Self::Event>, Rejection>;

    /// Apply one event. Infallible: events are facts already validated.
    fn apply(state: &mut Self::State, event: &Self::Event);

    /// What `viewer` may see.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// The event as `viewer` may learn of it, in a sentence; `None` when the
    /// viewer learns nothing from it. Must not reveal what the viewer may
    /// not see. `names` holds every seat's display name in seat order, so
    /// its length is the game's player count (Space Empires names hexes on
    /// the map of that count).
    fn narrate(event: &Self::Event, viewer: Viewer, names: &[String]) -> Option<String>;

    /// Is the game over, and how?
    fn outcome(state: &Self::State) -> Option<Outcome>;

    fn phase(state: &Self::State) -> PhaseInfo;

    /// Text → typed action. Only shape errors; legality is `decide`'s job.
    fn parse(line: &CommandLine) -> Result<Self::Action, ParseError>;

    /// Typed action → its canonical text.
    fn unparse(action: &Self::Action) -> CommandLine;

    /// The order commands, for registration and help.
    fn commands() -> Vec<CommandSpec>;

    /// Orders given under a command of their own beside the game's main
    /// one ([`CommandGroup`]); every other order is under the main
    /// command. Default: none (all orders under one command).
    const COMMAND_GROUPS: &'static [CommandGroup] = &[];

    /// The board for one view. Names are the seats' display names.
    fn scene(view: &Self::View, names: &[String]) -> Scene;

    /// Whether a board of `after` tells its viewer something `before` did
    /// not: what it knows changed, not only where the game is (its round,
    /// section or whose turn). A fog game sends a seat that is asked
    /// nothing its own board only then. Default: the views differ.
    fn news(before: &Self::View, after: &Self::View) -> bool {
        before != after
    }

    /// Once the game is over, every seat's final standing in the game's
    /// own terms ("16 VP", "3 planets"), best first: the result post lists
    /// them. Default: none.
    fn standings(_state: &Self::State) -> Vec<(Seat, String)> {
        Vec::new()
    }

    /// `seat` leaves a game in play: it resigned, or the host resigned it.
    /// The events that say so and do what the game's rules make of its
    /// pieces (each game's rules page says what); the game goes on without
    /// the seat (it owes nothing more) and ends at once when one player (or
    /// team) is left. Refused when the game is over or the seat is already
    /// out.
    fn resign(state: &Self::State, seat: Seat) -> Result<Vec<Self::Event>, Rejection>;

    /// The action taken for a seat that misses a deadline.
    fn default_action(state: &Self::State, seat: Seat) -> Option<Self::Action>;

    /// An order `seat` owes now and has no choice about, whose playing
    /// tells nobody anything they do not know already (it depends only on
    /// public state), with why it is the only one: the platform plays it
    /// for the seat at once and says so, instead of asking. Default: none.
    fn forced(_state: &Self::State, _seat: Seat) -> Option<(Self::Action, String)> {
        None
    }

    /// A state that differs from `state` only in what no seat of `keep`
    /// may know (others' hands, face-down counters, a deck's order, the
    /// generator), drawn anew from `rng`; with `private_only`, only in what
    /// never comes out in play (what is hidden but drawn into the open, a
    /// deck's order or the generator, is kept). `None` when there is
    /// nothing hidden to change. The non-interference property compares a
    /// seat's view, orders and narration across such states (so a game's
    /// hidden information is tested the moment it declares this), and a
    /// computer player samples what its seat cannot know with it. Each game
    /// writes it in its folder's `hooks`.
    fn scramble(state: &Self::State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<Self::State>;

    /// How good the position is for `seat`, from 0 (lost) to 1 (won): the
    /// computer player's hint for playouts that stop before the game's end
    /// ([`crate::bot`]), read from a sampled world. Default: 0.5, no opinion.
    fn evaluate(_state: &Self::State, _seat: Seat) -> f64 {
        0.5
    }

    /// The order the whole-game tests' players give for `seat`, which owes
    /// a decision, among its `legal` orders (not empty); `None` when none
    /// suits. Built only from what the seat may know, deterministic, aiming
    /// at short games; a game with nothing better gives its first legal
    /// order. Each game writes it in its folder's `hooks`.
    fn test_order(state: &Self::State, seat: Seat, legal: &[Self::Action]) -> Option<Self::Action>;

    /// How the legal order `action` of `seat` is offered as a button or a
    /// menu entry; `names` are the seats' display names, for labels that
    /// name a player. Default: its command text, as a main choice.
    fn control(_state: &Self::State, _seat: Seat, action: &Self::Action, _names: &[String]) -> Control {
        Control::plain(&Self::unparse(action))
    }

    /// How each of `actions` (the legal orders of `seat`, in the ruleset's
    /// order) is offered: one call for a whole prompt, so a ruleset whose
    /// groups depend on the other orders works them out once. Default:
    /// [`Ruleset::control`] for each.
    fn controls(state: &Self::State, seat: Seat, actions: &[Self::Action], names: &[String]) -> Vec<Control> {
        actions.iter().map(|a| Self::control(state, seat, a, names)).collect()
    }

    /// Whether a player may take back the action whose events include
    /// `event`: it revealed nothing hidden and drew nothing random (a die
    /// roll, a card, a secret pick coming out all forbid it). A take-back
    /// needs every event of the action to allow it. Default: never.
    fn takes_back(_event: &Self::Event) -> bool {
        false
    }

    /// Whether `action` may be given by a seat the game is not waiting on
    /// (Space Empires' standing orders, set at any time). Such an order
    /// must change only what its seat alone sees. Default: no order.
    fn any_time(_action: &Self::Action) -> bool {
        false
    }

    /// Autocomplete values for `option` of order `command` while `partial`
    /// is typed (`filled`: the other options given), beyond the values the
    /// legal orders hold; for options whose legal values combine into more
    /// orders than `legal_actions` lists (Starlanes' multi-planet `from`).
    /// Each must complete an order `decide` accepts. Default: none.
    fn complete_more(
        _state: &Self::State,
        _seat: Seat,
        _command: &str,
        _option: &str,
        _filled: &[(String, String)],
        _partial: &str,
    ) -> Vec<String> {
        Vec::new()
    }

    /// The action that makes the sheet edit `verb` for a game whose
    /// decisions are order sheets ([`Pending::sheet`]; its action holds a
    /// [`crate::SheetEdit::from_verb`]); `None` for games without sheets
    /// (the default). The platform's `/sheet ready`, `/sheet unready`,
    /// `/sheet clear` and `/sheet remove` give this action as an order of the
    /// seat.
    fn sheet_verb(_verb: SheetVerb) -> Option<Self::Action> {
        None
    }

    /// The seat's order sheet, one numbered line each in words (names of
    /// players, not seats), while it owes one; `None` otherwise (and for
    /// games without sheets). Prompts and `/sheet show` show it.
    fn sheet_lines(_state: &Self::State, _seat: Seat, _names: &[String]) -> Option<Vec<String>> {
        None
    }

    /// Fold events onto the empty state.
    fn fold<'a>(events: impl IntoIterator<Item = &'a Self::Event>) -> Self::State
    where
        Self::Event: 'a,
    {
        let mut state = Self::empty();
        for e in events {
            Self::apply(&mut state, e);
        }
        state
    }
}
