//! What the service sends out. Transports (Discord, the terminal) turn
//! these into their own messages; nothing here is transport-specific.

use super::text::Text;
use orrery_engine::{CommandLine, ControlStyle, GameId, Seat, UserId, Viewer};
use serde::{Deserialize, Serialize};

/// Where a message goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A public post in a game's channel.
    Channel(u64),
    /// A private message to one person.
    Dm(UserId),
}

/// The board of a game at a point of its log, as one viewer may see it.
/// Rendered when delivered, from the log: the same reference always gives
/// the same picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRef {
    pub game: GameId,
    pub viewer: Viewer,
    /// Log sequence number the board is drawn at (inclusive).
    pub seq: i64,
}

/// A button (or select-menu entry) offering one legal order, or one of
/// the prompt's own controls ([`Act`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// What the player reads.
    pub label: String,
    pub game: GameId,
    /// The order given (for [`Act::Order`]).
    pub command: CommandLine,
    /// What kind of choice this is, for how it looks.
    #[serde(default)]
    pub style: ControlStyle,
    /// Choices of one group are offered together (one menu per group).
    #[serde(default)]
    pub group: String,
    /// Asked before the order is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<String>,
    /// The seat's current (revisable, secret) pick.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub current: bool,
    #[serde(default)]
    pub act: Act,
    /// The position the control was made for: the game's phase number
    /// ([`orrery_engine::PhaseInfo::number`]) when the prompt was made. An
    /// order pressed in another phase is refused (see
    /// `Request::Press`); `None` for controls not bound to one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
}

/// What pressing a choice does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Act {
    /// Give the order `command`.
    #[default]
    Order,
    /// Show the presser their own board of the game, privately.
    Board,
    /// Take back the presser's last order (see `/game takeback`).
    TakeBack,
    /// Take a seat in the game's lobby (see `/game join`).
    Join,
    /// Leave the game's lobby (see `/game leave`).
    Leave,
    /// Start the game, for its host (see `/game start`).
    Start,
    /// Resign from the game, confirmed (see `/game resign`).
    Resign,
    /// Pick `command`'s name for the presser's seat in the lobby, joining
    /// if need be (see `/game join colour:`).
    Pick,
    /// Seat a computer player of normal level in the game's lobby, for its
    /// host (see `/host bot`).
    AddBot,
}

impl Choice {
    /// A main choice giving `command`, labelled `label`.
    pub fn order(game: GameId, command: CommandLine, label: impl Into<String>) -> Self {
        Choice {
            label: label.into(),
            game,
            group: command.name.clone(),
            command,
            style: ControlStyle::Main,
            confirm: None,
            current: false,
            act: Act::Order,
            position: None,
        }
    }

    /// A control that is not an order (its `command` is empty).
    pub fn act(game: GameId, act: Act, label: impl Into<String>) -> Self {
        Choice {
            label: label.into(),
            game,
            command: CommandLine::new(""),
            style: ControlStyle::Minor,
            group: String::new(),
            confirm: None,
            current: false,
            act,
            position: None,
        }
    }
}

/// A message that stays live after it is posted, to be edited as things
/// change: a seat's prompt (one per seat per game) or a phase's post in
/// the channel (its board, narration and who is awaited).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    Prompt {
        game: GameId,
        seat: Seat,
    },
    Phase {
        game: GameId,
    },
    /// The game's 🔔 alert mid-phase: closed once the game moves on, so no
    /// stale "waits on you" stays with a working control.
    Alert {
        game: GameId,
    },
}

impl Slot {
    pub fn game(self) -> GameId {
        match self {
            Slot::Prompt { game, .. } | Slot::Phase { game } | Slot::Alert { game } => game,
        }
    }

    /// A stable key for storage: `prompt:3` (seat index), `phase`, `alert`.
    pub fn key(self) -> String {
        match self {
            Slot::Prompt { seat, .. } => format!("prompt:{}", seat.0),
            Slot::Phase { .. } => "phase".to_string(),
            Slot::Alert { .. } => "alert".to_string(),
        }
    }
}

/// What a message does to its [`Slot`]'s live message.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Post a new message. With a slot, it becomes the slot's live message
    /// (a live one before it first loses its controls).
    #[default]
    Post,
    /// Replace the live message's text, footer and controls (its board is
    /// kept unless this message brings one); posted as new if the slot has
    /// none.
    Update,
    /// Add the text's lines to the live message's text and replace its
    /// footer (when given) and its board (when given: the picture is
    /// replaced); posted as new if the slot has none.
    Append,
    /// Close the live message: keep its text, add this text as a last line,
    /// remove its controls. Nothing if the slot has none.
    Close,
}

/// A message queued in the outbox for delivery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutMessage {
    pub target: Target,
    pub text: Text,
    #[serde(default)]
    pub board: Option<BoardRef>,
    #[serde(default)]
    pub choices: Vec<Choice>,
    /// This message announces the end of the game (its result).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub game_over: bool,
    /// A first part of the text: what happened to the reader before this
    /// message (a fight's result above a new prompt). An [`Op::Update`]
    /// without one keeps the live message's, so editing a prompt in place
    /// never loses what it told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<Text>,
    /// A last part of the text that an [`Op::Append`] replaces (who is
    /// awaited, by when).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<Text>,
    /// The live message this message posts, edits or closes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Slot>,
    #[serde(default)]
    pub op: Op,
    /// The people this message alerts (a posted message only; nobody else
    /// mentioned in it is alerted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pings: Vec<UserId>,
}

impl OutMessage {
    /// A plain post in a game's channel.
    pub fn to_channel(channel: u64, text: impl Into<Text>) -> Self {
        OutMessage {
            target: Target::Channel(channel),
            text: text.into(),
            board: None,
            choices: Vec::new(),
            game_over: false,
            lead: None,
            footer: None,
            slot: None,
            op: Op::Post,
            pings: Vec::new(),
        }
    }

    /// This message acts on `slot`'s live message as `op` says.
    pub fn in_slot(mut self, slot: Slot, op: Op) -> Self {
        self.slot = Some(slot);
        self.op = op;
        self
    }

    /// The full text as shown: the lead, the text, then the footer, each
    /// on its own lines.
    pub fn full_text(&self) -> Text {
        let mut t = Text::new();
        for part in [self.lead.as_ref(), Some(&self.text), self.footer.as_ref()]
            .into_iter()
            .flatten()
        {
            if part.is_empty() {
                continue;
            }
            if !t.is_empty() {
                t.push('\n');
            }
            t.append(part.clone());
        }
        t
    }

    /// A plain private message.
    pub fn to_dm(user: UserId, text: impl Into<Text>) -> Self {
        OutMessage {
            target: Target::Dm(user),
            text: text.into(),
            board: None,
            choices: Vec::new(),
            game_over: false,
            lead: None,
            footer: None,
            slot: None,
            op: Op::Post,
            pings: Vec::new(),
        }
    }
}

/// The direct answer to the person who asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub text: Text,
    /// Only the asker sees it.
    pub ephemeral: bool,
    pub board: Option<BoardRef>,
    pub choices: Vec<Choice>,
    /// The reply only acknowledges an order whose outcome the outbox
    /// shows (the prompt's edit, the channel post): a button press needs
    /// no answer of its own.
    pub only_ack: bool,
}

impl Reply {
    pub fn public(text: impl Into<Text>) -> Self {
        Reply {
            text: text.into(),
            ephemeral: false,
            board: None,
            choices: Vec::new(),
            only_ack: false,
        }
    }
    pub fn private(text: impl Into<Text>) -> Self {
        Reply {
            text: text.into(),
            ephemeral: true,
            board: None,
            choices: Vec::new(),
            only_ack: false,
        }
    }
    pub fn with_board(mut self, board: BoardRef) -> Self {
        self.board = Some(board);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outbox_rows_stored_before_spans_still_read() {
        // A row as an earlier release wrote it: text as a string, no marker.
        let row = serde_json::json!({
            "target": {"Channel": 42},
            "text": "🏆 Game over: **alice** wins — home star taken",
            "board": null,
            "choices": []
        });
        let m: OutMessage = serde_json::from_value(row).unwrap();
        assert_eq!(m.target, Target::Channel(42));
        assert_eq!(m.text, Text::plain("🏆 Game over: **alice** wins — home star taken"));
        assert!(!m.game_over);

        // Today's rows round-trip, the marker included.
        let new = OutMessage {
            target: Target::Dm(UserId(7)),
            text: Text::plain("Game over: ").strong("alice").then(" wins"),
            board: None,
            choices: vec![],
            game_over: true,
            lead: None,
            footer: None,
            slot: None,
            op: Default::default(),
            pings: Vec::new(),
        };
        let back: OutMessage = serde_json::from_value(serde_json::to_value(&new).unwrap()).unwrap();
        assert_eq!(back, new);
    }
}
