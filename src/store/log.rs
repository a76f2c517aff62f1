//! Reading the event log. (Writing it is [`Store::commit`]'s job.)

use super::error::StoreResult;
use super::types::event_from_row;
use super::Store;
use crate::engine::GameId;
use crate::games::AnyEvent;
use sqlx::Row;

/// One log entry with the action it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub seq: i64,
    /// The sequence number before the append that wrote it; entries of one
    /// action share it. `None` in logs written before batches were kept.
    pub batch: Option<i64>,
    pub event: AnyEvent,
}

impl Store {
    /// A game's whole event log, as `(seq, event)` in order.
    pub async fn events(&self, game: GameId) -> StoreResult<Vec<(i64, AnyEvent)>> {
        self.events_upto(game, i64::MAX).await
    }

    /// A game's events with sequence number `<= seq`, in order (for
    /// rebuilding a past position).
    pub async fn events_upto(&self, game: GameId, seq: i64) -> StoreResult<Vec<(i64, AnyEvent)>> {
        let rows = sqlx::query("SELECT seq, event, version FROM events WHERE game_id = $1 AND seq <= $2 ORDER BY seq")
            .bind(game.0)
            .bind(seq)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| event_from_row(game, row)).collect()
    }

    /// A game's whole log with action boundaries, in order.
    pub async fn log(&self, game: GameId) -> StoreResult<Vec<LogEntry>> {
        let rows = sqlx::query("SELECT seq, event, batch, version FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(game.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let (seq, event) = event_from_row(game, row)?;
                Ok(LogEntry {
                    seq,
                    batch: row.try_get("batch")?,
                    event,
                })
            })
            .collect()
    }
}
