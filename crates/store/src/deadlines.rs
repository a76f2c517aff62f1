//! Deadlines: at most one per game, for the phase (or step) it is in.
//!
//! Reads only: the scheduler lists due rows here; a deadline is set,
//! moved, marked reminded or cleared by [`Store::commit`]
//! ([`super::DeadlineChange`]), in the same transaction as the change that
//! caused it, and a resolution commits only if the deadline row is still
//! the one it read (a compare-and-set, so of two schedulers one resolves).

use super::codec::to_json;
use super::error::{StoreError, StoreResult};
use super::games::not_found;
use super::types::deadline_from_row;
use super::{DeadlineRow, Store};
use orrery_engine::GameId;

impl Store {
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

    /// Set (or replace) a game's deadline directly: phase `phase` falls due
    /// at `due_at`, no reminder sent. For tools and tests; a game in play
    /// gets its deadlines through [`Store::commit`].
    /// [`StoreError::NotFound`] for an unknown game.
    pub async fn set_deadline(&self, game: GameId, phase: i64, due_at: i64) -> StoreResult<()> {
        self.seen(async {
            let _turn = self.write_turn().await;
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
        })
        .await
    }

    /// Remove a game's deadline, if it has one (for tools and tests).
    pub async fn clear_deadline(&self, game: GameId) -> StoreResult<()> {
        self.seen(async {
            let _turn = self.write_turn().await;
            sqlx::query("DELETE FROM deadlines WHERE game_id = $1")
                .bind(game.0)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
        .await
    }

    /// Record which reminders were sent for a game's deadline, if it is
    /// still the deadline of `phase`. Returns whether a row was updated.
    /// For tools and tests; the scheduler records reminders through
    /// [`Store::commit`], with the messages.
    pub async fn set_reminded(&self, game: GameId, phase: i64, reminded: &serde_json::Value) -> StoreResult<bool> {
        self.seen(async {
            let _turn = self.write_turn().await;
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
        })
        .await
    }
}
