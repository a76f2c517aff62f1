//! The event log: starting a game and appending to it, atomically with the
//! new state and the outgoing messages.

use super::error::{is_unique_violation, StoreError, StoreResult};
use super::games::lock_game;
use super::types::{event_from_row, to_json};
use super::{codec, DeadlineSet, GameStatus, Store};
use crate::engine::{GameConfig, GameId};
use crate::games::{AnyEvent, AnyState};
use sqlx::{Any, Row, Transaction};

impl Store {
    /// Start a lobby: store the final `config` (the lobby's may have
    /// changed, e.g. the player count is fixed now), its set-up events as
    /// sequence numbers 1..=n, the state they fold to, and the messages
    /// announcing it, and set the status to `active`. One transaction. Fails with
    /// [`StoreError::WrongStatus`] unless the game is in the lobby (so a
    /// second, concurrent start fails), [`StoreError::NotFound`] for an
    /// unknown game, [`StoreError::Conflict`] if the log somehow already
    /// holds events.
    #[allow(clippy::too_many_arguments)]
    pub async fn start_game(
        &self,
        game: GameId,
        config: &GameConfig,
        events: &[AnyEvent],
        state: &AnyState,
        outbox: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<()> {
        self.start_game_with_deadline(game, config, events, state, outbox, now_ms, None)
            .await
    }

    /// [`Store::start_game`], also setting the first phase's deadline (if
    /// given) in the same transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn start_game_with_deadline(
        &self,
        game: GameId,
        config: &GameConfig,
        events: &[AnyEvent],
        state: &AnyState,
        outbox: &[serde_json::Value],
        now_ms: i64,
        deadline: Option<DeadlineSet>,
    ) -> StoreResult<()> {
        let config = to_json("game config", config)?;
        let mut tx = self.begin_write().await?;
        lock_game(&mut tx, game, GameStatus::Lobby, Some(0)).await?;
        sqlx::query("UPDATE games SET config = $2 WHERE id = $1")
            .bind(game.0)
            .bind(config)
            .execute(&mut *tx)
            .await?;
        self.write(tx, game, 0, events, state, false, outbox, now_ms, deadline)
            .await?;
        Ok(())
    }

    /// Append events to an active game's log, if nobody else has since the
    /// caller read it.
    ///
    /// In one transaction: check the game is active with last event
    /// `expected_seq`, store `events` as `expected_seq + 1..`, store
    /// `new_state` (the fold after them) and the new last sequence number,
    /// set the status to `finished` if `finished`, and queue `outbox`.
    /// Either all of it is stored or none of it.
    ///
    /// Returns the new last sequence number. Fails with
    /// [`StoreError::Conflict`] if the log has moved on (reload, decide
    /// again), [`StoreError::WrongStatus`] if the game is not active
    /// (checked first: a game that finished meanwhile is not worth a retry).
    /// An empty `events` only replaces the state, still under the lock.
    /// Finishing a game also clears its deadline.
    #[allow(clippy::too_many_arguments)]
    pub async fn append(
        &self,
        game: GameId,
        expected_seq: i64,
        events: &[AnyEvent],
        new_state: &AnyState,
        finished: bool,
        outbox: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<i64> {
        self.append_with_deadline(game, expected_seq, events, new_state, finished, outbox, now_ms, None)
            .await
    }

    /// [`Store::append`], also setting a new deadline (if given: a new phase
    /// began) in the same transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn append_with_deadline(
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

    /// The second half of [`Store::start_game`] and [`Store::append`], once
    /// the game row is locked and checked: write everything and commit. The
    /// game is `finished` after these events, or else active.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn write(
        &self,
        mut tx: Transaction<'static, Any>,
        game: GameId,
        expected_seq: i64,
        events: &[AnyEvent],
        state: &AnyState,
        finished: bool,
        outbox: &[serde_json::Value],
        now_ms: i64,
        deadline: Option<DeadlineSet>,
    ) -> StoreResult<i64> {
        let status = if finished {
            GameStatus::Finished
        } else {
            GameStatus::Active
        };
        let new_seq = expected_seq + events.len() as i64;
        // Serialize everything before writing anything.
        let state = codec::encode_state(state)?;
        let events = events.iter().map(codec::encode).collect::<StoreResult<Vec<_>>>()?;
        let outbox = outbox
            .iter()
            .map(|p| to_json("outbox payload", p))
            .collect::<StoreResult<Vec<_>>>()?;

        for (seq, event) in (expected_seq + 1..).zip(&events) {
            let inserted = sqlx::query(
                "INSERT INTO events (game_id, seq, event, created_at, batch, version) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(game.0)
            .bind(seq)
            .bind(&event.json)
            .bind(now_ms)
            .bind(expected_seq)
            .bind(event.version)
            .execute(&mut *tx)
            .await;
            match inserted {
                Ok(_) => {}
                Err(e) if is_unique_violation(&e) => {
                    // The log holds events past the row's `seq`: another
                    // writer (or a torn history) got there first.
                    tx.rollback().await?;
                    return Err(self.conflict_from_log(game, expected_seq).await);
                }
                Err(e) => return Err(e.into()),
            }
        }
        sqlx::query("UPDATE games SET state = $2, seq = $3, status = $4, updated_at = $5 WHERE id = $1")
            .bind(game.0)
            .bind(state)
            .bind(new_seq)
            .bind(status.as_str())
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        for payload in outbox {
            sqlx::query("INSERT INTO outbox (game_id, created_at, payload) VALUES ($1, $2, $3)")
                .bind(game.0)
                .bind(now_ms)
                .bind(payload)
                .execute(&mut *tx)
                .await?;
        }
        if !status.is_open() {
            sqlx::query("DELETE FROM deadlines WHERE game_id = $1")
                .bind(game.0)
                .execute(&mut *tx)
                .await?;
        } else if let Some(d) = deadline {
            sqlx::query(
                "INSERT INTO deadlines (game_id, phase, due_at, reminded, paused_remaining) VALUES ($1, $2, $3, '[]', $4)
                 ON CONFLICT (game_id) DO UPDATE SET phase = excluded.phase, due_at = excluded.due_at,
                 reminded = '[]', paused_remaining = excluded.paused_remaining",
            )
            .bind(game.0)
            .bind(d.phase)
            .bind(d.due_at)
            .bind(d.paused_remaining)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(new_seq)
    }

    /// The conflict to report when inserting an event hit an existing one.
    async fn conflict_from_log(&self, game: GameId, expected: i64) -> StoreError {
        let actual = sqlx::query("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1")
            .bind(game.0)
            .fetch_one(&self.pool)
            .await
            .and_then(|row| row.try_get::<i64, _>(0));
        match actual {
            Ok(actual) => StoreError::Conflict { expected, actual },
            Err(e) => e.into(),
        }
    }

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
}
