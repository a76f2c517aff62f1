//! What the service asks of a transport (Discord, the terminal, the
//! tests' fakes): send a message, edit one, open a private thread; and
//! what became of each.

use super::OutMessage;
use std::future::Future;

/// Where a transport put a message: the channel (for a private message,
/// the DM channel) and the message's id there. What a later edit needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Posted {
    pub channel: u64,
    pub message: u64,
}

/// What became of one outbox message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Delivered, and where it landed when the transport can say (a
    /// message it cannot say where it put cannot be edited later: a slot's
    /// next message is then posted anew).
    Sent(Option<Posted>),
    /// The destination will never accept it (a user with DMs closed, a
    /// deleted channel, a deleted message to edit). Recorded and taken off
    /// the queue, so it cannot hold back later messages.
    Undeliverable(String),
    /// The user refuses DMs from the bot (closed to server members, or the
    /// bot blocked). Kept off the queue like [`Delivery::Undeliverable`];
    /// the player's seat is marked and the game's channel told once.
    Refused(String),
}

/// A seat's private thread to open: in the game's `channel`, called
/// `name`, with `member` (the player) and the bot in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadPlace {
    pub channel: u64,
    pub name: String,
    pub member: orrery_engine::UserId,
}

/// What became of opening a private thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// The thread's channel id: messages to `Target::Channel(id)` land in it.
    Thread(u64),
    /// The transport has no threads (the terminal): private messages go as
    /// direct messages.
    Unsupported,
    /// It can never be opened as asked (no permission, the channel gone).
    Refused(String),
}

/// Sends outbox messages somewhere. `id` is the outbox row id: stable
/// across retries, so transports can use it as an idempotency key (Discord:
/// the message nonce). An `Err` is a passing failure: the message stays
/// queued and is retried.
pub trait Transport: Sync {
    /// Post `message` (with `png`, the drawing of its board, if any).
    /// Whoever is in `message.pings` is alerted, nobody else.
    fn send(
        &self,
        id: i64,
        message: &OutMessage,
        png: Option<&[u8]>,
    ) -> impl Future<Output = anyhow::Result<Delivery>> + Send;

    /// Change the message posted at `at` to show `message`: its full text
    /// ([`OutMessage::full_text`]) and its choices (none: the controls are
    /// removed). With `png` the attachment is replaced; without it the
    /// message keeps the one it has. An edit alerts nobody.
    ///
    /// `message` is the whole message as it is to look now; its `op` says
    /// why: [`Op::Update`](super::Op::Update) (a new version of the message), [`Op::Append`](super::Op::Append)
    /// (lines added to its text), [`Op::Close`](super::Op::Close) (its controls removed, and
    /// a last line added unless the text is unchanged: a newer post in the
    /// slot retiring it).
    fn edit(
        &self,
        id: i64,
        at: &Posted,
        message: &OutMessage,
        png: Option<&[u8]>,
    ) -> impl Future<Output = anyhow::Result<Delivery>> + Send;

    /// Open a private thread for one player (see [`ThreadPlace`]). An
    /// `Err` is a passing failure, tried again with the message. Transports
    /// without threads keep this default.
    fn open_thread(&self, place: &ThreadPlace) -> impl Future<Output = anyhow::Result<Opened>> + Send {
        let _ = place;
        std::future::ready(Ok(Opened::Unsupported))
    }
}

/// One outbox row in the hands of a delivery pass: its id (the
/// transport's nonce) and the pass's claim name, which fences every write
/// the delivery makes (`StoreError::Superseded`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Claimed<'a> {
    pub id: i64,
    pub by: &'a str,
}
