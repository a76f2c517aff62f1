//! Per-seat preferences and draft orders: a player's own reminder points
//! (`seats.reminders`) and the `drafts` table used when a game's
//! auto-resolve is off.
//!
//! A draft is a seat's validated but not yet final submission for a secret
//! simultaneous decision. `seq` is the log position it was validated
//! against: every write here that depends on the position locks the game
//! row and checks its `seq` first ([`StoreError::Conflict`] otherwise), so a
//! draft is never saved against a log that moved meanwhile.

use super::error::{StoreError, StoreResult};
use super::games::lock_game;
use super::types::{seat_from_db, to_json};
use super::{DeadlineSet, GameStatus, Store};
use crate::engine::{GameId, Seat};
use crate::games::{AnyEvent, AnyState};
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

/// One seat's draft order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftRow {
    /// The game.
    pub game_id: GameId,
    /// Whose draft it is.
    pub seat: Seat,
    /// The log position (last sequence number) it was validated against.
    pub seq: i64,
    /// The order, in its `key:value` text form.
    pub line: String,
    /// The player marked it final.
    pub ready: bool,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

fn draft_from_row(row: &AnyRow) -> StoreResult<DraftRow> {
    Ok(DraftRow {
        game_id: GameId(row.try_get("game_id")?),
        seat: seat_from_db(row.try_get("seat")?)?,
        seq: row.try_get("seq")?,
        line: row.try_get("line")?,
        ready: row.try_get::<i64, _>("ready")? != 0,
        updated_at: row.try_get("updated_at")?,
    })
}

const DRAFT_COLS: &str = "game_id, seat, seq, line, ready, updated_at";

async fn queue(
    tx: &mut Transaction<'static, Any>,
    game: GameId,
    outbox: &[serde_json::Value],
    now_ms: i64,
) -> StoreResult<()> {
    for payload in outbox {
        sqlx::query("INSERT INTO outbox (game_id, created_at, payload) VALUES ($1, $2, $3)")
            .bind(game.0)
            .bind(now_ms)
            .bind(to_json("outbox payload", payload)?)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

impl Store {
    /// Set a seat's own reminder points (ms before the deadline): `None`
    /// follows the game's settings, an empty list mutes. [`StoreError::NotFound`]
    /// if the seat does not exist.
    pub async fn set_seat_reminders(&self, game: GameId, seat: Seat, points: Option<&[i64]>) -> StoreResult<()> {
        let text = points.map(|p| to_json("reminder points", &p)).transpose()?;
        let n = sqlx::query("UPDATE seats SET reminders = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(i64::from(seat.0))
            .bind(text)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if n == 0 {
            return Err(StoreError::NotFound(format!("{seat} of game {game}")));
        }
        Ok(())
    }

    /// A game's drafts, by seat.
    pub async fn drafts(&self, game: GameId) -> StoreResult<Vec<DraftRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {DRAFT_COLS} FROM drafts WHERE game_id = $1 ORDER BY seat"
        ))
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(draft_from_row).collect()
    }

    /// Drafts of active games whose log has moved past the position they
    /// were drafted against (an undo or roll-back, a seat change that plays an automatic seat), oldest game
    /// first.
    pub async fn stale_drafts(&self) -> StoreResult<Vec<DraftRow>> {
        let rows = sqlx::query(
            "SELECT d.game_id, d.seat, d.seq, d.line, d.ready, d.updated_at
             FROM drafts d JOIN games g ON g.id = d.game_id
             WHERE g.status = 'active' AND d.seq <> g.seq ORDER BY d.game_id, d.seat",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(draft_from_row).collect()
    }

    /// Save (or replace) a seat's draft, validated against log position
    /// `seq`, and queue `outbox`, in one transaction; only if the game is
    /// still active at `seq` ([`StoreError::Conflict`] / [`StoreError::WrongStatus`]
    /// otherwise, and nothing is written).
    #[allow(clippy::too_many_arguments)]
    pub async fn save_draft(
        &self,
        game: GameId,
        seat: Seat,
        seq: i64,
        line: &str,
        ready: bool,
        outbox: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        lock_game(&mut tx, game, GameStatus::Active, Some(seq)).await?;
        sqlx::query(
            "INSERT INTO drafts (game_id, seat, seq, line, ready, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (game_id, seat) DO UPDATE SET seq = excluded.seq, line = excluded.line,
             ready = excluded.ready, updated_at = excluded.updated_at",
        )
        .bind(game.0)
        .bind(i64::from(seat.0))
        .bind(seq)
        .bind(line)
        .bind(i64::from(ready))
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        queue(&mut tx, game, outbox, now_ms).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Delete the given drafts (each only if it is still the one drafted
    /// against its `seq`) and queue `outbox`, in one transaction. Returns
    /// how many were deleted.
    pub async fn discard_drafts(
        &self,
        game: GameId,
        drafts: &[DraftRow],
        outbox: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<u64> {
        let mut tx = self.begin_write().await?;
        let mut n = 0;
        for d in drafts {
            n += sqlx::query("DELETE FROM drafts WHERE game_id = $1 AND seat = $2 AND seq = $3 AND line = $4")
                .bind(game.0)
                .bind(i64::from(d.seat.0))
                .bind(d.seq)
                .bind(&d.line)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        if n == 0 {
            tx.rollback().await?;
            return Ok(0);
        }
        queue(&mut tx, game, outbox, now_ms).await?;
        tx.commit().await?;
        Ok(n)
    }

    /// Submit drafts: append `events` after `expected_seq` exactly as
    /// [`Store::append_with_deadline`] does, and delete the game's drafts,
    /// in one transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn append_drafts(
        &self,
        game: GameId,
        expected_seq: i64,
        events: &[AnyEvent],
        new_state: &AnyState,
        finished: bool,
        outbox: &[serde_json::Value],
        now_ms: i64,
        deadline: Option<DeadlineSet>,
    ) -> StoreResult<i64> {
        let mut tx = self.begin_write().await?;
        lock_game(&mut tx, game, GameStatus::Active, Some(expected_seq)).await?;
        sqlx::query("DELETE FROM drafts WHERE game_id = $1")
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        self.write(
            tx,
            game,
            expected_seq,
            events,
            new_state,
            finished,
            outbox,
            now_ms,
            deadline,
        )
        .await
    }
}
