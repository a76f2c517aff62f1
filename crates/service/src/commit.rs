//! The service's one commit path: every change to a game in play is a
//! [`Commit`] (events and the state after them, seat and draft changes,
//! the deadline, settings) plus the messages announcing it, written by
//! [`Store::commit`](orrery_store::Store::commit) in one transaction.

use super::{OutMessage, Service, ServiceError, Target, Text};
use orrery_engine::{GameId, Viewer};
use orrery_store::{Commit, StoreError};

impl Service {
    /// Write `c` with the messages `out` (and their copies for the game's
    /// spectators). A lost race (the log, the deadline or the drafts moved
    /// meanwhile) is [`ServiceError::Busy`]: nothing was written and the
    /// asker may try again; a new player who already holds another seat is
    /// told so.
    pub(super) async fn commit(&self, c: Commit, out: &[OutMessage]) -> Result<i64, ServiceError> {
        let game = c.game;
        self.try_commit(c, out).await.map_err(|e| match e {
            StoreError::Conflict { .. } | StoreError::Moved(_) => ServiceError::Busy(game),
            StoreError::AlreadySeated { seat, .. } => {
                ServiceError::User(format!("That player already has {seat} in game {game}.").into())
            }
            e => e.into(),
        })
    }

    /// [`Service::commit`] with the store's own error, for callers to whom a
    /// lost race means "nothing to do" (the scheduler).
    pub(super) async fn try_commit(&self, mut c: Commit, out: &[OutMessage]) -> Result<i64, StoreError> {
        c.outbox = self.payloads(c.game, out).await?;
        self.store.commit(c).await
    }

    /// Serialize messages for the outbox, copying each public board post
    /// and the game-over line to the game's spectators by DM (public view
    /// only: the copies carry the channel's own board reference).
    async fn payloads(&self, game: GameId, out: &[OutMessage]) -> Result<Vec<serde_json::Value>, StoreError> {
        let watchers = self.store.watchers(game).await?;
        let mut all: Vec<OutMessage> = out.to_vec();
        if !watchers.is_empty() {
            for m in out {
                let public_board = matches!(m.target, Target::Channel(_))
                    && (m.board.as_ref().is_some_and(|b| b.viewer == Viewer::Public) || m.game_over);
                if !public_board {
                    continue;
                }
                for w in &watchers {
                    all.push(OutMessage {
                        board: m.board.clone(),
                        game_over: m.game_over,
                        ..OutMessage::to_dm(*w, Text::plain("👁 ").and(m.text.clone()))
                    });
                }
            }
        }
        all.iter()
            .map(|m| serde_json::to_value(m).map_err(|e| StoreError::Corrupt(format!("outbox message: {e}"))))
            .collect()
    }
}
