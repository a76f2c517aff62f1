//! Reading the event log. (Writing it is [`Store::commit`]'s job.)

use super::error::{StoreError, StoreResult};
use super::types::{decode_event, event_from_row};
use super::{Backend, Store};
use orrery_engine::GameId;
use orrery_games::AnyEvent;
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
    ///
    /// The entries come back as one row, a JSON array of `[seq, version,
    /// event]`: with thousands of entries the database driver's cost per
    /// row, not decoding, was most of the time.
    pub async fn events_upto(&self, game: GameId, seq: i64) -> StoreResult<Vec<(i64, AnyEvent)>> {
        let sql = match self.backend {
            Backend::Sqlite => {
                "SELECT json_group_array(json_array(seq, version, event) ORDER BY seq)
                 FROM events WHERE game_id = $1 AND seq <= $2"
            }
            Backend::Postgres => {
                "SELECT COALESCE(json_agg(json_build_array(seq, version, event) ORDER BY seq)::text, '[]')
                 FROM events WHERE game_id = $1 AND seq <= $2"
            }
        };
        let text: String = sqlx::query(sql)
            .bind(game.0)
            .bind(seq)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        let entries: Vec<(i64, i64, String)> = serde_json::from_str(&text)
            .map_err(|e| StoreError::Corrupt(format!("the log of game {game} does not read: {e}")))?;
        entries
            .iter()
            .map(|(seq, version, text)| decode_event(game, *seq, *version, text))
            .collect()
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
