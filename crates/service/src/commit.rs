//! The service's one commit path: every change to a game in play is a
//! [`Commit`] (events and the state after them, seat and draft changes,
//! the deadline, settings) plus the messages announcing it, written by
//! [`Store::commit`](orrery_store::Store::commit) in one transaction.

use super::{OutMessage, Service, ServiceError, Target, Text};
use orrery_engine::{GameId, UserId, Viewer};
use orrery_store::{Commit, StoreError};

impl Service {
    /// Write `c` with the messages `out` (and their copies for the game's
    /// spectators: `watchers` as read with its seats, or read here when
    /// there is something to copy). A lost race (the log, the deadline or
    /// the drafts moved meanwhile) is [`ServiceError::Busy`]: nothing was
    /// written and the asker may try again; a new player who already holds
    /// another seat is told so.
    pub(super) async fn commit_seen(
        &self,
        c: Commit,
        out: &[OutMessage],
        watchers: Option<&[UserId]>,
    ) -> Result<i64, ServiceError> {
        let game = c.game;
        self.write(c, out, watchers).await.map_err(|e| match e {
            StoreError::Conflict { .. } | StoreError::Moved(_) => ServiceError::Busy(game),
            StoreError::AlreadySeated { seat, .. } => {
                ServiceError::User(format!("That player already has {seat} in game {game}.").into())
            }
            e => e.into(),
        })
    }

    /// [`Service::commit_seen`] with the store's own error, for the
    /// background workers' conditional writes (reminders sent, stale drafts
    /// discarded, refused DMs marked), which take no game lock: a lost race
    /// means another process did it, or there is nothing left to do.
    pub(super) async fn try_commit(&self, c: Commit, out: &[OutMessage]) -> Result<i64, StoreError> {
        self.write(c, out, None).await
    }

    /// The one place a change to a game is written.
    pub(super) async fn write(
        &self,
        mut c: Commit,
        out: &[OutMessage],
        watchers: Option<&[UserId]>,
    ) -> Result<i64, StoreError> {
        let game = c.game;
        c.outbox = self.payloads(game, out, watchers).await?;
        let written = self.store.commit(c).await;
        self.touched(game);
        if written.is_ok() {
            // A computer player may owe a decision now.
            self.bots.poke();
        }
        written
    }

    /// Serialize messages for the outbox, copying each public board post
    /// and the game-over line to the game's spectators by DM (public view
    /// only: the copies carry the channel's own board reference).
    async fn payloads(
        &self,
        game: GameId,
        out: &[OutMessage],
        watchers: Option<&[UserId]>,
    ) -> Result<Vec<serde_json::Value>, StoreError> {
        let public_board = |m: &OutMessage| {
            matches!(m.target, Target::Channel(_))
                && (m.board.as_ref().is_some_and(|b| b.viewer == Viewer::Public) || m.game_over)
        };
        let watchers = match watchers {
            Some(w) => w.to_vec(),
            // Read only when there is something to copy to them.
            None if out.iter().any(public_board) => self.store.watchers(game).await?,
            None => Vec::new(),
        };
        // Computer players are nobody to send to, ping or mention.
        let out: Vec<OutMessage> = out.iter().filter_map(super::bots::unbotted).collect();
        let out = out.as_slice();
        let mut all: Vec<OutMessage> = out.to_vec();
        if !watchers.is_empty() {
            for m in out {
                if !public_board(m) {
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
