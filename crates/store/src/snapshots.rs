//! Snapshots: the state at a log position, kept so that drawing a board of
//! a long game does not refold its whole log.
//!
//! [`Store::commit`] writes the snapshots a [`Commit`](super::Commit) carries
//! (the service gives the state at each phase boundary it crossed, where the
//! boards are drawn, and the final state of a game that ends) in the same
//! transaction as the events. [`Store::state_at`] starts from the latest
//! snapshot at or before the position asked for and folds only the entries
//! after it. Like `games.state`, a snapshot is a cache: one that does not
//! decode is passed over, and `orrery replay` checks every snapshot against
//! the fold of the log.

use super::error::{StoreError, StoreResult};
use super::types::event_from_row;
use super::Store;
use orrery_engine::GameId;
use orrery_games::{AnyState, GameKind, Replay};
use sqlx::Row;

impl Store {
    /// The state of game `game` (a game of `kind`) right after log entry
    /// `seq`, as the log folded through [`Replay`] gives it: from the latest
    /// snapshot at or before `seq` that decodes, plus the entries after it;
    /// from the whole log when there is none, or when an entry after it
    /// rolls the game back to before it.
    pub async fn state_at(&self, game: GameId, kind: GameKind, seq: i64) -> StoreResult<AnyState> {
        let rows =
            sqlx::query("SELECT seq, state FROM snapshots WHERE game_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 2")
                .bind(game.0)
                .bind(seq)
                .fetch_all(&self.pool)
                .await?;
        let corrupt = |e: orrery_games::FoldError| StoreError::Damaged {
            game,
            entry: e.entry,
            why: e.why,
        };
        for row in &rows {
            let at: i64 = row.try_get(0)?;
            let text: String = row.try_get(1)?;
            let Some(state) = super::codec::decode_state(game, &text) else {
                continue;
            };
            let tail = self.events_between(game, at, seq).await?;
            if let Some(state) = Replay::fold_from(kind, at, state, &tail).map_err(corrupt)? {
                return Ok(state);
            }
            break;
        }
        let log = self.events_upto(game, seq).await?;
        Ok(Replay::of(kind, &log).map_err(corrupt)?.into_state())
    }

    /// Every snapshot of `game`, in order, as `(seq, state)`; `None` for one
    /// that does not decode.
    pub async fn snapshots(&self, game: GameId) -> StoreResult<Vec<(i64, Option<AnyState>)>> {
        let rows = sqlx::query("SELECT seq, state FROM snapshots WHERE game_id = $1 ORDER BY seq")
            .bind(game.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let text: String = row.try_get(1)?;
                Ok((row.try_get(0)?, super::codec::decode_state(game, &text)))
            })
            .collect()
    }

    /// A game's entries with `after < seq <= upto`, in order.
    pub async fn events_between(
        &self,
        game: GameId,
        after: i64,
        upto: i64,
    ) -> StoreResult<Vec<(i64, orrery_games::AnyEvent)>> {
        let rows = sqlx::query(
            "SELECT seq, event, version FROM events WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
        )
        .bind(game.0)
        .bind(after)
        .bind(upto)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| event_from_row(game, row)).collect()
    }
}
