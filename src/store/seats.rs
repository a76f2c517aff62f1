//! Who sits where: the seat rows, and the names seats had before a
//! replacement (for boards of the past). Seats change through
//! [`Store::commit`] in play, and through the lobby calls in `games.rs`.

use super::error::StoreResult;
use super::types::seat_from_row;
use super::{SeatRow, Store};
use crate::engine::GameId;
use sqlx::Row;

impl Store {
    /// The seated players, by seat.
    pub async fn seats(&self, game: GameId) -> StoreResult<Vec<SeatRow>> {
        let rows = sqlx::query(
            "SELECT seat, user_id, name, disorder, vacant, reminders, dms_refused_at FROM seats WHERE game_id = $1 ORDER BY seat",
        )
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat_from_row).collect()
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
}
