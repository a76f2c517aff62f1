//! Deadlines: at most one per game, for the phase it is in.
//!
//! `due_deadlines` only reads; [`Store::claim_deadline`] claims one due row
//! for resolution inside a transaction. The table has one row per game keyed by
//! `game_id` and an index on `due_at`, so a later multi-worker scheduler can
//! claim due rows on PostgreSQL with `SELECT … FOR UPDATE SKIP LOCKED`
//! without a schema change.

use super::error::{StoreError, StoreResult};
use super::games::lock_game;
use super::games::not_found;
use super::types::{deadline_from_row, from_json, to_json};
use super::{Backend, DeadlineRow, DeadlineSet, GameStatus, Store};
use crate::engine::GameId;
use crate::games::{AnyEvent, AnyState};
use sqlx::{Any, Row, Transaction};

impl Store {
    /// Set (or replace) a game's deadline: phase `phase` falls due at
    /// `due_at` (unix milliseconds). Resets the reminders sent to `[]`.
    /// [`StoreError::NotFound`] for an unknown game.
    pub async fn set_deadline(&self, game: GameId, phase: i64, due_at: i64) -> StoreResult<()> {
        let result = sqlx::query(
            "INSERT INTO deadlines (game_id, phase, due_at, reminded) VALUES ($1, $2, $3, '[]')
             ON CONFLICT (game_id) DO UPDATE SET phase = excluded.phase, due_at = excluded.due_at, reminded = '[]', paused_remaining = NULL",
        )
        .bind(game.0)
        .bind(phase)
        .bind(due_at)
        .execute(&self.pool)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_foreign_key_violation() => Err(not_found(game)),
            Err(e) => Err(e.into()),
        }
    }

    /// Remove a game's deadline, if it has one.
    pub async fn clear_deadline(&self, game: GameId) -> StoreResult<()> {
        sqlx::query("DELETE FROM deadlines WHERE game_id = $1")
            .bind(game.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A game's deadline, if it has one.
    pub async fn deadline(&self, game: GameId) -> StoreResult<Option<DeadlineRow>> {
        sqlx::query("SELECT game_id, phase, due_at, reminded, paused_remaining FROM deadlines WHERE game_id = $1")
            .bind(game.0)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| deadline_from_row(&row))
            .transpose()
    }

    /// Running (not paused) deadlines with `due_at <= now_ms`, earliest first. Reads only; the
    /// caller clears or replaces each one it handles.
    pub async fn due_deadlines(&self, now_ms: i64) -> StoreResult<Vec<DeadlineRow>> {
        let rows = sqlx::query(
            "SELECT game_id, phase, due_at, reminded, paused_remaining FROM deadlines
             WHERE due_at <= $1 AND paused_remaining IS NULL ORDER BY due_at, game_id",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(deadline_from_row).collect()
    }

    /// Every running (not paused) deadline, earliest first (for a reminder scan).
    pub async fn all_deadlines(&self) -> StoreResult<Vec<DeadlineRow>> {
        self.due_deadlines(i64::MAX).await
    }

    /// Record which reminders were sent for a game's deadline, if it is
    /// still the deadline of `phase` (a stale reminder job must not touch
    /// the next phase's deadline). Returns whether a row was updated.
    pub async fn set_reminded(&self, game: GameId, phase: i64, reminded: &serde_json::Value) -> StoreResult<bool> {
        if !reminded.is_array() {
            return Err(StoreError::Corrupt(format!(
                "reminders must be a JSON array, not {reminded}"
            )));
        }
        let n = sqlx::query("UPDATE deadlines SET reminded = $3 WHERE game_id = $1 AND phase = $2")
            .bind(game.0)
            .bind(phase)
            .bind(to_json("reminders", reminded)?)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(n > 0)
    }
}

/// A due deadline claimed by one scheduler: the transaction holding the
/// claim, the deadline row as it was claimed (none for a forced
/// resolution without a deadline), and the game's last sequence number.
/// Commit with [`DeadlineClaim::commit`]; dropping it releases the claim and
/// changes nothing.
pub struct DeadlineClaim {
    tx: Transaction<'static, Any>,
    /// The game.
    pub game: GameId,
    /// The claimed deadline.
    pub deadline: Option<DeadlineRow>,
    /// The game's last event when claimed.
    pub seq: i64,
}

/// What a resolution does to the game's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlineAfter {
    /// A new phase began: its deadline.
    Set(DeadlineSet),
    /// Nothing more to wait for automatically (the host decides).
    Clear,
}

impl Store {
    /// Claim game `game`'s deadline if it is due at `now_ms` (running, not
    /// paused, game active), or, with `force`, the game whatever its
    /// deadline. Inside one write transaction: on PostgreSQL the deadline
    /// and game rows are locked with `FOR UPDATE SKIP LOCKED`, so a second
    /// scheduler skips a game being resolved instead of resolving it again;
    /// on SQLite `BEGIN IMMEDIATE` makes the claimer the only writer.
    /// `None`: nothing to claim (not due, extended, paused, already resolved
    /// or claimed by someone else).
    pub async fn claim_deadline(&self, game: GameId, now_ms: i64, force: bool) -> StoreResult<Option<DeadlineClaim>> {
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let mut tx = self.begin_write().await?;
        if force {
            let lock = match self.backend {
                Backend::Postgres => " FOR UPDATE",
                Backend::Sqlite => "",
            };
            let Some(row) = sqlx::query(&format!(
                "SELECT seq FROM games WHERE id = $1 AND status = 'active'{lock}"
            ))
            .bind(game.0)
            .fetch_optional(&mut *tx)
            .await?
            else {
                tx.rollback().await?;
                return Ok(None);
            };
            let seq: i64 = row.try_get(0)?;
            let deadline = sqlx::query(
                "SELECT game_id, phase, due_at, reminded, paused_remaining FROM deadlines WHERE game_id = $1",
            )
            .bind(game.0)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| deadline_from_row(&r))
            .transpose()?;
            return Ok(Some(DeadlineClaim {
                tx,
                game,
                deadline,
                seq,
            }));
        }
        let row = sqlx::query(&format!(
            "SELECT d.game_id, d.phase, d.due_at, d.reminded, d.paused_remaining, g.seq
             FROM deadlines d JOIN games g ON g.id = d.game_id
             WHERE d.game_id = $1 AND d.due_at <= $2 AND d.paused_remaining IS NULL AND g.status = 'active'{lock}"
        ))
        .bind(game.0)
        .bind(now_ms)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            tx.rollback().await?;
            return Ok(None);
        };
        let deadline = deadline_from_row(&row)?;
        let seq: i64 = row.try_get("seq")?;
        Ok(Some(DeadlineClaim {
            tx,
            game,
            deadline: Some(deadline),
            seq,
        }))
    }

    /// Record reminders as sent and queue their messages, in one
    /// transaction, only if the deadline of `phase` is still running and
    /// its reminders are still `old` (compare-and-set: of two schedulers,
    /// one sends). Returns whether it did.
    pub async fn send_reminders(
        &self,
        game: GameId,
        phase: i64,
        old: &serde_json::Value,
        new: &serde_json::Value,
        outbox: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<bool> {
        let old = to_json("reminders", old)?;
        let new = to_json("reminders", new)?;
        let payloads = outbox
            .iter()
            .map(|p| to_json("outbox payload", p))
            .collect::<StoreResult<Vec<_>>>()?;
        let mut tx = self.begin_write().await?;
        let n = sqlx::query(
            "UPDATE deadlines SET reminded = $4
             WHERE game_id = $1 AND phase = $2 AND reminded = $3 AND paused_remaining IS NULL",
        )
        .bind(game.0)
        .bind(phase)
        .bind(old)
        .bind(new)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for payload in payloads {
            sqlx::query("INSERT INTO outbox (game_id, created_at, payload) VALUES ($1, $2, $3)")
                .bind(game.0)
                .bind(now_ms)
                .bind(payload)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A game's host settings (JSON owned by the service; `{}` = defaults).
    pub async fn game_settings(&self, game: GameId) -> StoreResult<serde_json::Value> {
        let row = sqlx::query("SELECT settings FROM games WHERE id = $1")
            .bind(game.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| not_found(game))?;
        let text: String = row.try_get(0)?;
        from_json(format_args!("settings of game {game}"), &text)
    }

    /// Replace a game's host settings.
    pub async fn set_game_settings(&self, game: GameId, settings: &serde_json::Value, now_ms: i64) -> StoreResult<()> {
        let n = sqlx::query("UPDATE games SET settings = $2, updated_at = $3 WHERE id = $1")
            .bind(game.0)
            .bind(to_json("settings", settings)?)
            .bind(now_ms)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if n == 0 {
            return Err(not_found(game));
        }
        Ok(())
    }
}

impl DeadlineClaim {
    /// Store the resolution: `events` after `self.seq` (checked again under
    /// the game lock), the new state, the messages and the deadline change,
    /// in the claim's transaction. When `events` is not empty the game's
    /// drafts are deleted in the same transaction (the caller submitted
    /// them first). Returns the new last sequence number.
    #[allow(clippy::too_many_arguments)]
    pub async fn commit(
        mut self,
        store: &Store,
        events: &[AnyEvent],
        new_state: &AnyState,
        finished: bool,
        outbox: &[serde_json::Value],
        now_ms: i64,
        after: DeadlineAfter,
    ) -> StoreResult<i64> {
        lock_game(&mut self.tx, self.game, GameStatus::Active, Some(self.seq)).await?;
        let game = self.game;
        if !events.is_empty() {
            // The log moves: drafts were submitted with these events (or
            // are stale), so none outlives the resolution.
            sqlx::query("DELETE FROM drafts WHERE game_id = $1")
                .bind(game.0)
                .execute(&mut *self.tx)
                .await?;
        }
        let deadline = match after {
            DeadlineAfter::Set(d) => Some(d),
            DeadlineAfter::Clear => {
                sqlx::query("DELETE FROM deadlines WHERE game_id = $1")
                    .bind(game.0)
                    .execute(&mut *self.tx)
                    .await?;
                None
            }
        };
        store
            .write(
                self.tx, game, self.seq, events, new_state, finished, outbox, now_ms, deadline,
            )
            .await
    }
}

impl Store {
    /// A host change to a game's settings and, optionally, its deadline
    /// (pause, resume, extend), with the messages announcing it, in one
    /// transaction. The deadline update applies only if the game's deadline
    /// is still that of `update.phase`; otherwise nothing is written and
    /// this returns `false`.
    pub async fn host_update(
        &self,
        game: GameId,
        settings: &serde_json::Value,
        update: Option<(DeadlineSet, &serde_json::Value)>,
        outbox: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<bool> {
        let payloads = outbox
            .iter()
            .map(|p| to_json("outbox payload", p))
            .collect::<StoreResult<Vec<_>>>()?;
        let mut tx = self.begin_write().await?;
        let n = sqlx::query("UPDATE games SET settings = $2, updated_at = $3 WHERE id = $1")
            .bind(game.0)
            .bind(to_json("settings", settings)?)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if n == 0 {
            return Err(not_found(game));
        }
        if let Some((d, reminded)) = update {
            let n = sqlx::query(
                "UPDATE deadlines SET due_at = $3, paused_remaining = $4, reminded = $5 WHERE game_id = $1 AND phase = $2",
            )
            .bind(game.0)
            .bind(d.phase)
            .bind(d.due_at)
            .bind(d.paused_remaining)
            .bind(to_json("reminders", reminded)?)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        for payload in payloads {
            sqlx::query("INSERT INTO outbox (game_id, created_at, payload) VALUES ($1, $2, $3)")
                .bind(game.0)
                .bind(now_ms)
                .bind(payload)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}
