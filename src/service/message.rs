//! What the service sends out. Transports (Discord, the terminal) turn
//! these into their own messages; nothing here is transport-specific.

use super::text::Text;
use crate::engine::{CommandLine, GameId, UserId, Viewer};
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

/// A button (or select-menu entry) offering one legal order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub label: String,
    pub game: GameId,
    pub command: CommandLine,
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
        }
    }

    /// A plain private message.
    pub fn to_dm(user: UserId, text: impl Into<Text>) -> Self {
        OutMessage {
            target: Target::Dm(user),
            text: text.into(),
            board: None,
            choices: Vec::new(),
            game_over: false,
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
}

impl Reply {
    pub fn public(text: impl Into<Text>) -> Self {
        Reply {
            text: text.into(),
            ephemeral: false,
            board: None,
            choices: Vec::new(),
        }
    }
    pub fn private(text: impl Into<Text>) -> Self {
        Reply {
            text: text.into(),
            ephemeral: true,
            board: None,
            choices: Vec::new(),
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
        };
        let back: OutMessage = serde_json::from_value(serde_json::to_value(&new).unwrap()).unwrap();
        assert_eq!(back, new);
    }
}
