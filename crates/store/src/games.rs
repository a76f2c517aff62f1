//! Game rows and seats: the lobby.

use super::codec::to_json;
use super::error::{StoreError, StoreResult};
use super::types::{game_cols, game_from_row, games_from, id_to_db, seat_from_db};
use super::{BotLevel, GameRow, GameStatus, NewGame, Store, WriteTx};
use orrery_engine::{GameId, Seat, UserId};
use orrery_games::{GameKind, Replay};
use sqlx::any::AnyRow;
use sqlx::Row;

impl Store {
    /// Open a lobby: a `games` row in status `lobby`, with no state and no
    /// events. Returns the id the database allocated.
    pub async fn create_game(&self, new: NewGame) -> StoreResult<GameId> {
        self.seen(async {
            let config = to_json("game config", &new.config)?;
            let settings = to_json("game settings", &new.settings)?;
            let id: i64 = sqlx::query(
                "INSERT INTO games (kind, channel_id, guild_id, host_id, status, config, state, seq, created_at, updated_at, settings)
                 VALUES ($1, $2, $3, $4, 'lobby', $5, NULL, 0, $6, $6, $7)
                 RETURNING id",
            )
            .bind(new.kind.key())
            .bind(id_to_db(new.channel_id))
            .bind(new.guild_id.map(id_to_db))
            .bind(id_to_db(new.host.0))
            .bind(config)
            .bind(new.now_ms)
            .bind(settings)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
            Ok(GameId(id))
        })
        .await
    }

    /// One game, or `None` if there is no such game.
    pub async fn game(&self, id: GameId) -> StoreResult<Option<GameRow>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            game_cols!(),
            " FROM ",
            games_from!(),
            " WHERE id = $1"
        ))
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?;
        match self.game_rows(row.as_slice()).await?.pop() {
            Some(GameRow {
                damaged: Some(entry), ..
            }) => Err(StoreError::Damaged {
                game: id,
                entry,
                why: "the entry does not decode or apply, and the cached state is unreadable".into(),
            }),
            row => Ok(row),
        }
    }

    /// A game's system and the sequence number of its last entry, without
    /// reading its cached state: what drawing a board at delivery needs
    /// first (a board of an earlier position is drawn from a snapshot).
    pub async fn game_position(&self, id: GameId) -> StoreResult<Option<(GameKind, i64)>> {
        let Some(row) = sqlx::query("SELECT kind, seq FROM games WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let key: String = row.try_get(0)?;
        let kind = GameKind::from_key(&key)
            .ok_or_else(|| StoreError::Corrupt(format!("game {id} has unknown kind `{key}`")))?;
        Ok(Some((kind, row.try_get(1)?)))
    }

    /// A game's host settings (JSON owned by the service; `{}` = defaults).
    pub async fn game_settings(&self, game: GameId) -> StoreResult<serde_json::Value> {
        Ok(self.game(game).await?.ok_or_else(|| not_found(game))?.settings)
    }

    /// Every game ever played in a channel (any status), oldest first.
    pub async fn games_in_channel(&self, channel_id: u64) -> StoreResult<Vec<GameRow>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_cols!(),
            " FROM ",
            games_from!(),
            " WHERE channel_id = $1 ORDER BY id"
        ))
        .bind(id_to_db(channel_id))
        .fetch_all(&self.pool)
        .await?;
        self.game_rows(&rows).await
    }

    /// Every game a user is seated in (any status), oldest first. Hosting
    /// without a seat does not count.
    pub async fn games_of_user(&self, user: UserId) -> StoreResult<Vec<GameRow>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_cols!(),
            " FROM ",
            games_from!(),
            " WHERE id IN (SELECT game_id FROM seats WHERE user_id = $1 AND vacant = 0) ORDER BY id"
        ))
        .bind(id_to_db(user.0))
        .fetch_all(&self.pool)
        .await?;
        self.game_rows(&rows).await
    }

    /// Every game, oldest first (for `orrery replay`).
    pub async fn all_games(&self) -> StoreResult<Vec<GameRow>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_cols!(),
            " FROM ",
            games_from!(),
            " ORDER BY id"
        ))
        .fetch_all(&self.pool)
        .await?;
        self.game_rows(&rows).await
    }

    /// How many games are in play (status active), for operators.
    pub async fn active_games(&self) -> StoreResult<i64> {
        self.seen(async {
            Ok(sqlx::query("SELECT COUNT(*) FROM games WHERE status = 'active'")
                .fetch_one(&self.pool)
                .await?
                .try_get(0)?)
        })
        .await
    }

    /// Seat a user at a lobby, in the next free seat (seats stay 0..n-1).
    /// Fails with [`StoreError::AlreadySeated`] if they already sit there,
    /// [`StoreError::WrongStatus`] outside the lobby, [`StoreError::NotFound`]
    /// for an unknown game. The store does not check the player count.
    pub async fn add_seat(&self, game: GameId, user: UserId, name: &str) -> StoreResult<Seat> {
        self.add_seat_picking(game, user, name, None).await
    }

    /// [`Store::add_seat`], with the seat's `pick` ([`crate::SeatRow::pick`])
    /// written in the same transaction. Fails with [`StoreError::Moved`],
    /// seating nobody, when another seat of the game holds the pick.
    pub async fn add_seat_picking(
        &self,
        game: GameId,
        user: UserId,
        name: &str,
        pick: Option<&str>,
    ) -> StoreResult<Seat> {
        self.insert_seat(game, user, name, pick, None).await
    }

    /// Seat a computer player (`user`: one of [`crate::bot_user`]'s ids) at
    /// a lobby, in the next free seat, at difficulty `level`. Fails as
    /// [`Store::add_seat`] does.
    pub async fn add_bot(&self, game: GameId, user: UserId, name: &str, level: BotLevel) -> StoreResult<Seat> {
        self.insert_seat(game, user, name, None, Some(level)).await
    }

    /// A lobby seat for `user` in the next free seat, with its pick and,
    /// for a computer player, its level; one transaction.
    async fn insert_seat(
        &self,
        game: GameId,
        user: UserId,
        name: &str,
        pick: Option<&str>,
        bot: Option<BotLevel>,
    ) -> StoreResult<Seat> {
        self.seen(async {
            let mut tx = self.begin_write().await?;
            lock_game(&mut tx, game, GameStatus::Lobby, None).await?;
            if let Some(seat) = seat_of(&mut tx, game, user).await? {
                return Err(StoreError::AlreadySeated { game, user, seat });
            }
            let seat: i64 = sqlx::query(
                "INSERT INTO seats (game_id, user_id, seat, name, bot)
             SELECT $1, $2, COALESCE(MAX(seat) + 1, 0), $3, $4 FROM seats WHERE game_id = $1
             RETURNING seat",
            )
            .bind(game.0)
            .bind(id_to_db(user.0))
            .bind(name)
            .bind(bot.map(BotLevel::as_str))
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
            let seat = seat_from_db(seat)?;
            if let Some(pick) = pick {
                write_pick(&mut tx, game, user, pick).await?;
            }
            tx.commit().await?;
            Ok(seat)
        })
        .await
    }

    /// The games in play with a computer player at the table, oldest
    /// first: where the service looks for decisions computer players owe.
    pub async fn games_with_bots(&self) -> StoreResult<Vec<GameId>> {
        self.seen(async {
            let rows = sqlx::query(
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id
                 WHERE g.status = 'active' AND s.bot IS NOT NULL AND s.vacant = 0 AND s.disorder = 0
                 ORDER BY g.id",
            )
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| Ok(GameId(r.try_get(0)?))).collect()
        })
        .await
    }

    /// Set a lobby seat's pick ([`crate::SeatRow::pick`]). Fails with
    /// [`StoreError::Moved`], changing nothing, when another seat of the
    /// game holds it; [`StoreError::NotFound`] if the user is not seated,
    /// and [`StoreError::WrongStatus`] outside the lobby.
    pub async fn set_pick(&self, game: GameId, user: UserId, pick: &str) -> StoreResult<()> {
        self.seen(async {
            let mut tx = self.begin_write().await?;
            lock_game(&mut tx, game, GameStatus::Lobby, None).await?;
            if seat_of(&mut tx, game, user).await?.is_none() {
                return Err(StoreError::NotFound(format!("user {} in game {game}", user.0)));
            }
            write_pick(&mut tx, game, user, pick).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    /// Unseat a user from a lobby and move everyone after them up one seat,
    /// so seats stay 0..n-1. Returns the seat they had. Fails with
    /// [`StoreError::NotFound`] if they are not seated, and
    /// [`StoreError::WrongStatus`] outside the lobby.
    pub async fn remove_seat(&self, game: GameId, user: UserId) -> StoreResult<Seat> {
        self.seen(async {
            let mut tx = self.begin_write().await?;
            lock_game(&mut tx, game, GameStatus::Lobby, None).await?;
            let removed: i64 = sqlx::query("DELETE FROM seats WHERE game_id = $1 AND user_id = $2 RETURNING seat")
                .bind(game.0)
                .bind(id_to_db(user.0))
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| StoreError::NotFound(format!("user {user} seated in game {game}")))?
                .try_get(0)?;
            // One row at a time, lowest first: each moves into the seat just
            // freed, so UNIQUE (game_id, seat) holds after every row (both
            // databases check it per row).
            let later: Vec<i64> = sqlx::query("SELECT seat FROM seats WHERE game_id = $1 AND seat > $2 ORDER BY seat")
                .bind(game.0)
                .bind(removed)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
            for seat in later {
                sqlx::query("UPDATE seats SET seat = $3 WHERE game_id = $1 AND seat = $2")
                    .bind(game.0)
                    .bind(seat)
                    .bind(seat - 1)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            seat_from_db(removed)
        })
        .await
    }

    /// Set a game's status. Leaving play (finished, abandoned) also clears
    /// its deadline. [`StoreError::NotFound`] for an unknown game.
    pub async fn set_status(&self, game: GameId, status: GameStatus, now_ms: i64) -> StoreResult<()> {
        self.seen(async {
            let mut tx = self.begin_write().await?;
            let n = sqlx::query("UPDATE games SET status = $2, updated_at = $3 WHERE id = $1")
                .bind(game.0)
                .bind(status.as_str())
                .bind(now_ms)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if n == 0 {
                return Err(not_found(game));
            }
            if !status.is_open() {
                sqlx::query("DELETE FROM deadlines WHERE game_id = $1")
                    .bind(game.0)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
        .await
    }
}

pub(crate) fn not_found(game: GameId) -> StoreError {
    StoreError::NotFound(format!("game {game}"))
}

/// Where a user sits, inside a transaction.
/// Write `user`'s pick in `game`, unless another seat holds it
/// ([`StoreError::Moved`]: the caller's transaction must then be dropped).
async fn write_pick(tx: &mut WriteTx, game: GameId, user: UserId, pick: &str) -> StoreResult<()> {
    let written = sqlx::query(
        "UPDATE seats SET pick = $3 WHERE game_id = $1 AND user_id = $2
         AND NOT EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND pick = $3 AND user_id <> $2)",
    )
    .bind(game.0)
    .bind(id_to_db(user.0))
    .bind(pick)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if written == 1 {
        Ok(())
    } else {
        Err(StoreError::Moved(format!(
            "another player of game {game} picked {pick} meanwhile"
        )))
    }
}

async fn seat_of(tx: &mut WriteTx, game: GameId, user: UserId) -> StoreResult<Option<Seat>> {
    sqlx::query("SELECT seat FROM seats WHERE game_id = $1 AND user_id = $2")
        .bind(game.0)
        .bind(id_to_db(user.0))
        .fetch_optional(&mut **tx)
        .await?
        .map(|row| seat_from_db(row.try_get(0)?))
        .transpose()
}

/// Lock a game's row for the rest of the transaction by touching it, and
/// check it has `status` ([`StoreError::WrongStatus`] if not) and, if given,
/// last event `seq` ([`StoreError::Conflict`] if not). This is the first
/// statement of every write transaction on a game: on PostgreSQL the row
/// lock serializes writers of one game; on SQLite `BEGIN IMMEDIATE` already
/// did. On mismatch nothing was changed and the error says why.
pub(crate) async fn lock_game(tx: &mut WriteTx, game: GameId, status: GameStatus, seq: Option<i64>) -> StoreResult<()> {
    // The row can change between the UPDATE and the SELECT explaining a
    // miss (PostgreSQL, READ COMMITTED); then look again.
    loop {
        let n = sqlx::query("UPDATE games SET seq = seq WHERE id = $1 AND status = $2 AND ($3 IS NULL OR seq = $3)")
            .bind(game.0)
            .bind(status.as_str())
            .bind(seq)
            .execute(&mut **tx)
            .await?
            .rows_affected();
        if n == 1 {
            return Ok(());
        }
        let row = sqlx::query("SELECT status, seq FROM games WHERE id = $1")
            .bind(game.0)
            .fetch_optional(&mut **tx)
            .await?
            .ok_or_else(|| not_found(game))?;
        let actual_status: GameStatus = row.try_get::<String, _>(0)?.parse()?;
        let actual_seq: i64 = row.try_get(1)?;
        // Status first: if the game has left `status`, retrying cannot help.
        if actual_status != status {
            return Err(StoreError::WrongStatus {
                game,
                expected: status,
                actual: actual_status,
            });
        }
        if let Some(expected) = seq.filter(|&e| e != actual_seq) {
            return Err(StoreError::Conflict {
                expected,
                actual: actual_seq,
            });
        }
    }
}

impl Store {
    /// A game row whose cached state is missing or did not decode (a
    /// started game, `seq > 0`, without a state) gets the fold of its log
    /// up to `seq`, through [`Replay`]. Nothing is written: the next write
    /// of the game stores a fresh state.
    pub(crate) async fn refold_if_stale(&self, mut row: GameRow) -> StoreResult<GameRow> {
        if row.state.is_none() && row.seq > 0 {
            let folded = match self.events_upto(row.id, row.seq).await {
                Ok(log) => Replay::of(row.kind, &log).map_err(|e| StoreError::Damaged {
                    game: row.id,
                    entry: e.entry,
                    why: e.why,
                }),
                Err(e) => Err(e),
            };
            match folded {
                Ok(replay) => row.state = Some(replay.into_state()),
                Err(StoreError::Damaged { game, entry, why }) => {
                    // One damaged game must not spoil a list of games: the
                    // row says so, and `Store::game` refuses it.
                    tracing::warn!(%game, entry, %why, "a game's cached state is unreadable and its log does not fold");
                    row.damaged = Some(entry);
                    return Ok(row);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(row)
    }

    /// Rows of `games` as [`GameRow`]s, stale cached states refolded.
    pub(crate) async fn game_rows(&self, rows: &[AnyRow]) -> StoreResult<Vec<GameRow>> {
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(self.refold_if_stale(game_from_row(row)?).await?);
        }
        Ok(out)
    }
}
