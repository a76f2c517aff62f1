//! The outbox: messages waiting to be delivered by the transport.
//!
//! Messages caused by events are queued by [`Store::append`] and
//! [`Store::start_game`] in the same transaction as the events; messages
//! that are not (lobby posts) go through [`Store::enqueue`]. A delivery
//! worker reads [`Store::undelivered`], sends, and marks each row.

use super::error::{StoreError, StoreResult};
use super::types::{outbox_from_row, to_json};
use super::{OutboxRow, Store};
use crate::engine::GameId;

impl Store {
    /// Queue messages not tied to events (lobby posts, notices), oldest
    /// first in the given order. One transaction. Returns their ids.
    pub async fn enqueue(
        &self,
        game: Option<GameId>,
        payloads: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<Vec<i64>> {
        let payloads = payloads
            .iter()
            .map(|p| to_json("outbox payload", p))
            .collect::<StoreResult<Vec<_>>>()?;
        let mut tx = self.begin_write().await?;
        let mut ids = Vec::with_capacity(payloads.len());
        for payload in payloads {
            let row = sqlx::query("INSERT INTO outbox (game_id, created_at, payload) VALUES ($1, $2, $3) RETURNING id")
                .bind(game.map(|g| g.0))
                .bind(now_ms)
                .bind(payload)
                .fetch_one(&mut *tx)
                .await?;
            ids.push(sqlx::Row::try_get(&row, 0)?);
        }
        tx.commit().await?;
        Ok(ids)
    }

    /// Up to `limit` undelivered messages, oldest first (including ones
    /// whose earlier attempts failed: the caller decides when to give up,
    /// from [`OutboxRow::attempts`]).
    pub async fn undelivered(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        self.undelivered_after(i64::MIN, limit).await
    }

    /// Like [`Store::undelivered`], but only rows with an id above
    /// `after_id`: lets a delivery pass walk the whole queue past rows it
    /// is leaving for later.
    pub async fn undelivered_after(&self, after_id: i64, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let rows = sqlx::query(
            "SELECT id, game_id, payload, attempts, created_at, last_error FROM outbox
             WHERE delivered_at IS NULL AND id > $1 ORDER BY id LIMIT $2",
        )
        .bind(after_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(outbox_from_row).collect()
    }

    /// Record a successful delivery (counts as an attempt). The row is no
    /// longer [`Store::undelivered`].
    pub async fn mark_delivered(&self, id: i64, now_ms: i64) -> StoreResult<()> {
        let n = sqlx::query(
            "UPDATE outbox SET delivered_at = $2, last_attempt_at = $2, attempts = attempts + 1 WHERE id = $1",
        )
        .bind(id)
        .bind(now_ms)
        .execute(&self.pool)
        .await?
        .rows_affected();
        found(n, id)
    }

    /// Record a failed delivery attempt and its error. The row stays
    /// undelivered, with `attempts` one higher.
    pub async fn mark_failed(&self, id: i64, error: &str, now_ms: i64) -> StoreResult<()> {
        let n = sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $2, last_attempt_at = $3 WHERE id = $1",
        )
        .bind(id)
        .bind(error)
        .bind(now_ms)
        .execute(&self.pool)
        .await?
        .rows_affected();
        found(n, id)
    }
}

fn found(rows_affected: u64, id: i64) -> StoreResult<()> {
    if rows_affected == 0 {
        Err(StoreError::NotFound(format!("outbox message {id}")))
    } else {
        Ok(())
    }
}
