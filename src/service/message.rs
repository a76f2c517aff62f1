//! What the service sends out. Transports (Discord, the terminal) turn
//! these into their own messages; nothing here is transport-specific.

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
    pub text: String,
    #[serde(default)]
    pub board: Option<BoardRef>,
    #[serde(default)]
    pub choices: Vec<Choice>,
}

/// The direct answer to the person who asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    /// Only the asker sees it.
    pub ephemeral: bool,
    pub board: Option<BoardRef>,
    pub choices: Vec<Choice>,
}

impl Reply {
    pub fn public(text: impl Into<String>) -> Self {
        Reply {
            text: text.into(),
            ephemeral: false,
            board: None,
            choices: Vec::new(),
        }
    }
    pub fn private(text: impl Into<String>) -> Self {
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
