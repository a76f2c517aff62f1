//! Who sits where: the seat rows, and the names seats had before a
//! replacement (for boards of the past). Seats change through
//! [`Store::commit`] in play, and through the lobby calls in `games.rs`.

use super::error::StoreResult;
use super::types::{id_from_db, id_to_db, seat_from_db, seat_from_row};
use super::{SeatRow, Store};
use orrery_engine::{GameId, Seat, UserId};
use sqlx::Row;

impl Store {
    /// The seated players, by seat.
    pub async fn seats(&self, game: GameId) -> StoreResult<Vec<SeatRow>> {
        let rows = sqlx::query(
            "SELECT seat, user_id, name, disorder, vacant, reminders, dms_refused_at, private_to, thread_id, pick, bot FROM seats WHERE game_id = $1 ORDER BY seat",
        )
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat_from_row).collect()
    }

    /// The seated players by seat, and the game's spectators (oldest
    /// first), in one statement: everything a change to a game needs to
    /// know of who is at the table.
    pub async fn roster(&self, game: GameId) -> StoreResult<(Vec<SeatRow>, Vec<UserId>)> {
        let rows = sqlx::query(
            "SELECT CAST(0 AS BIGINT) AS watcher, seat, user_id, name, disorder, vacant, reminders, dms_refused_at, \
                    private_to, thread_id, pick, bot, CAST(0 AS BIGINT) AS since
             FROM seats WHERE game_id = $1
             UNION ALL
             SELECT CAST(1 AS BIGINT), NULL, user_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, since
             FROM watchers WHERE game_id = $1
             ORDER BY watcher, seat, since, user_id",
        )
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        let mut seats = Vec::new();
        let mut watchers = Vec::new();
        for row in &rows {
            if row.try_get::<i64, _>("watcher")? == 0 {
                seats.push(seat_from_row(row)?);
            } else {
                watchers.push(UserId(id_from_db(row.try_get("user_id")?)));
            }
        }
        Ok((seats, watchers))
    }

    /// The seats' names as boards drawn at log position `seq` show them:
    /// the current names, except where a seat was given to a new player
    /// after `seq` (then the name it had at `seq`).
    pub async fn names_at(&self, game: GameId, seq: i64) -> StoreResult<Vec<String>> {
        let mut names: Vec<String> = self.seats(game).await?.into_iter().map(|s| s.name).collect();
        // For each seat the earliest replacement after `seq` holds the name
        // the seat had at `seq`.
        let rows = sqlx::query(
            "SELECT seat, name FROM seat_names WHERE game_id = $1 AND until_seq > $2 ORDER BY until_seq DESC",
        )
        .bind(game.0)
        .bind(seq)
        .fetch_all(&self.pool)
        .await?;
        for row in rows {
            let seat: i64 = row.try_get(0)?;
            if let Some(n) = usize::try_from(seat).ok().and_then(|i| names.get_mut(i)) {
                *n = row.try_get(1)?;
            }
        }
        Ok(names)
    }

    /// Remember `thread` as the private thread of `seat`, if the seat is
    /// still played by `user` and has none yet; returns the seat's thread
    /// now (another delivery may have opened one first: that one wins).
    ///
    /// Delivery bookkeeping, like the live messages' ids, not a change to
    /// the game: it is written outside the commit path (no event, no
    /// sequence number to race on), guarded by the player's id so a seat
    /// given to someone else never gets the old player's thread.
    pub async fn set_seat_thread(
        &self,
        game: GameId,
        seat: Seat,
        user: UserId,
        thread: u64,
    ) -> StoreResult<Option<u64>> {
        self.seen(async {
            let _turn = self.write_turn().await;
            sqlx::query(
            "UPDATE seats SET thread_id = $4 WHERE game_id = $1 AND seat = $2 AND user_id = $3 AND thread_id IS NULL",
        )
        .bind(game.0)
        .bind(i64::from(seat.0))
        .bind(id_to_db(user.0))
        .bind(id_to_db(thread))
        .execute(&self.pool)
        .await?;
            let row = sqlx::query("SELECT thread_id FROM seats WHERE game_id = $1 AND seat = $2 AND user_id = $3")
                .bind(game.0)
                .bind(i64::from(seat.0))
                .bind(id_to_db(user.0))
                .fetch_optional(&self.pool)
                .await?;
            Ok(match row {
                Some(r) => r.try_get::<Option<i64>, _>(0)?.map(id_from_db),
                None => None,
            })
        })
        .await
    }

    /// Forget `seat`'s private thread if it is still `thread` (it is gone:
    /// the next private message opens a new one).
    pub async fn forget_seat_thread(&self, game: GameId, seat: Seat, thread: u64) -> StoreResult<()> {
        self.seen(async {
            let _turn = self.write_turn().await;
            sqlx::query("UPDATE seats SET thread_id = NULL WHERE game_id = $1 AND seat = $2 AND thread_id = $3")
                .bind(game.0)
                .bind(i64::from(seat.0))
                .bind(id_to_db(thread))
                .execute(&self.pool)
                .await?;
            Ok(())
        })
        .await
    }

    /// The game and seat whose private thread `channel` is, if it is one.
    pub async fn thread_seat(&self, channel: u64) -> StoreResult<Option<(GameId, Seat)>> {
        let row = sqlx::query("SELECT game_id, seat FROM seats WHERE thread_id = $1")
            .bind(id_to_db(channel))
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => Ok(Some((GameId(r.try_get(0)?), seat_from_db(r.try_get(1)?)?))),
            None => Ok(None),
        }
    }
}
