//! Newtypes for identifiers.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hosted game. Assigned by the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A seat at the table, 0-based. Shown to people 1-based ("seat 1").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// All seats of a game with `n` players, in turn order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> {
        (0..n as u8).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0 + 1)
    }
}

/// A person, as the transport identifies them (a Discord user id, or a
/// made-up id in the terminal playtest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UserId(pub u64);

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Who is looking at the game. Everything that leaves the engine is built
/// for one viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// A seated player: sees the public state plus their own secrets.
    Seat(Seat),
    /// Anyone else, and every channel post: the public state only.
    Public,
}

impl Viewer {
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Public => None,
        }
    }
    /// May this viewer see the secrets of `owner`?
    pub fn sees_secrets_of(self, owner: Seat) -> bool {
        self == Viewer::Seat(owner)
    }
}
