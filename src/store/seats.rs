//! Seats changing hands during play (replace, kick, civil disorder),
//! spectators, and the log read with its action boundaries.

use super::error::{StoreError, StoreResult};
use super::games::{lock_game, not_found};
use super::types::{event_from_row, game_cols, id_from_db, id_to_db};
use super::{DeadlineSet, GameRow, GameStatus, Store};
use crate::engine::{GameId, Seat, UserId};
use crate::games::{AnyEvent, AnyState};
use sqlx::Row;

/// A change to one seat of a game in play, written with the events (if
/// any) it causes, in one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    pub seat: Seat,
    /// A new player takes the seat (it stops being vacant; their reminder
    /// settings start fresh).
    pub player: Option<(UserId, String)>,
    pub disorder: Option<bool>,
    pub vacant: Option<bool>,
}

impl SeatChange {
    /// A change that changes nothing yet.
    pub fn new(seat: Seat) -> Self {
        SeatChange {
            seat,
            player: None,
            disorder: None,
            vacant: None,
        }
    }
}

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
    /// Change a seat of an active game whose last event is `expected_seq`,
    /// then append `events` (possibly none: then only the state is
    /// rewritten) with `state`, `outbox` and `deadline` exactly as
    /// [`Store::append_with_deadline`] does, all in one transaction.
    /// [`StoreError::AlreadySeated`] if the new player already plays
    /// another seat of the game; [`StoreError::NotFound`] for no such seat.
    #[allow(clippy::too_many_arguments)]
    pub async fn change_seat(
        &self,
        game: GameId,
        expected_seq: i64,
        change: &SeatChange,
        events: &[AnyEvent],
        state: &AnyState,
        finished: bool,
        outbox: &[serde_json::Value],
        now_ms: i64,
        deadline: Option<DeadlineSet>,
    ) -> StoreResult<i64> {
        let mut tx = self.begin_write().await?;
        lock_game(&mut tx, game, GameStatus::Active, Some(expected_seq)).await?;
        let seat = i64::from(change.seat.0);
        let exists = sqlx::query("SELECT user_id FROM seats WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(current) = exists else {
            return Err(StoreError::NotFound(format!("{} of game {game}", change.seat)));
        };
        let current = UserId(id_from_db(current.try_get(0)?));
        if let Some((user, name)) = &change.player {
            if *user != current {
                let other = sqlx::query("SELECT seat FROM seats WHERE game_id = $1 AND user_id = $2")
                    .bind(game.0)
                    .bind(id_to_db(user.0))
                    .fetch_optional(&mut *tx)
                    .await?;
                if let Some(other) = other {
                    let other: i64 = other.try_get(0)?;
                    return Err(StoreError::AlreadySeated {
                        game,
                        user: *user,
                        seat: super::types::seat_from_db(other)?,
                    });
                }
            }
            sqlx::query(
                "UPDATE seats SET user_id = $3, name = $4, vacant = 0, reminders = NULL WHERE game_id = $1 AND seat = $2",
            )
            .bind(game.0)
            .bind(seat)
            .bind(id_to_db(user.0))
            .bind(name.as_str())
            .execute(&mut *tx)
            .await?;
        }
        if let Some(on) = change.disorder {
            sqlx::query("UPDATE seats SET disorder = $3 WHERE game_id = $1 AND seat = $2")
                .bind(game.0)
                .bind(seat)
                .bind(i64::from(on))
                .execute(&mut *tx)
                .await?;
        }
        if let Some(on) = change.vacant {
            sqlx::query("UPDATE seats SET vacant = $3 WHERE game_id = $1 AND seat = $2")
                .bind(game.0)
                .bind(seat)
                .bind(i64::from(on))
                .execute(&mut *tx)
                .await?;
        }
        self.write(
            tx,
            game,
            expected_seq,
            events,
            state,
            finished,
            outbox,
            now_ms,
            deadline,
        )
        .await
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

    /// Add a spectator. Returns false if they were watching already.
    pub async fn watch(&self, game: GameId, user: UserId, now_ms: i64) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        let known = sqlx::query("SELECT 1 FROM games WHERE id = $1")
            .bind(game.0)
            .fetch_optional(&mut *tx)
            .await?;
        if known.is_none() {
            return Err(not_found(game));
        }
        let n = sqlx::query(
            "INSERT INTO watchers (game_id, user_id, since) VALUES ($1, $2, $3) ON CONFLICT (game_id, user_id) DO NOTHING",
        )
        .bind(game.0)
        .bind(id_to_db(user.0))
        .bind(now_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(n == 1)
    }

    /// Remove a spectator. Returns false if they were not watching.
    pub async fn unwatch(&self, game: GameId, user: UserId) -> StoreResult<bool> {
        let n = sqlx::query("DELETE FROM watchers WHERE game_id = $1 AND user_id = $2")
            .bind(game.0)
            .bind(id_to_db(user.0))
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(n == 1)
    }

    /// A game's spectators, in the order they started watching.
    pub async fn watchers(&self, game: GameId) -> StoreResult<Vec<UserId>> {
        let rows = sqlx::query("SELECT user_id FROM watchers WHERE game_id = $1 ORDER BY since, user_id")
            .bind(game.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| Ok(UserId(id_from_db(row.try_get(0)?)))).collect()
    }

    /// The games a user watches (any status), oldest first.
    pub async fn watched_by(&self, user: UserId) -> StoreResult<Vec<GameRow>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_cols!(),
            " FROM games WHERE id IN (SELECT game_id FROM watchers WHERE user_id = $1) ORDER BY id"
        ))
        .bind(id_to_db(user.0))
        .fetch_all(&self.pool)
        .await?;
        self.game_rows(&rows).await
    }
}
