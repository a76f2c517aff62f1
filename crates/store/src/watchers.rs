//! Spectators: who follows a game's public boards by DM.

use super::error::StoreResult;
use super::games::not_found;
use super::types::{game_cols, games_from, id_from_db, id_to_db};
use super::{GameRow, Store};
use orrery_engine::{GameId, UserId};
use sqlx::Row;

impl Store {
    /// Add a spectator. Returns false if they were watching already.
    pub async fn watch(&self, game: GameId, user: UserId, now_ms: i64) -> StoreResult<bool> {
        self.seen(async {
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
        })
        .await
    }

    /// Remove a spectator. Returns false if they were not watching.
    pub async fn unwatch(&self, game: GameId, user: UserId) -> StoreResult<bool> {
        self.seen(async {
            let _turn = self.write_turn().await;
            let n = sqlx::query("DELETE FROM watchers WHERE game_id = $1 AND user_id = $2")
                .bind(game.0)
                .bind(id_to_db(user.0))
                .execute(&self.pool)
                .await?
                .rows_affected();
            Ok(n == 1)
        })
        .await
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
            " FROM ",
            games_from!(),
            " WHERE id IN (SELECT game_id FROM watchers WHERE user_id = $1) ORDER BY id"
        ))
        .bind(id_to_db(user.0))
        .fetch_all(&self.pool)
        .await?;
        self.game_rows(&rows).await
    }
}
