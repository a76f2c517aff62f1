//! Live messages: a message that stays live after it is posted and is
//! edited as things change (a seat's prompt, a phase's post). One row per
//! game and slot says where the transport put it and what it shows now.
//!
//! The slot key and the payload belong to the service (`Slot::key`, the
//! `OutMessage` as last shown); the store keeps them as text and JSON.

use super::codec::{from_json, to_json};
use super::error::{StoreError, StoreResult};
use super::games::not_found;
use super::types::{id_from_db, id_to_db};
use super::{Backend, Store};
use orrery_engine::GameId;
use sqlx::any::AnyRow;
use sqlx::Row;

/// One live message.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveRow {
    /// The game it belongs to.
    pub game_id: GameId,
    /// The slot's key (`prompt:0`, `phase`).
    pub slot: String,
    /// Where the transport posted it: the channel (a DM channel for a
    /// private message) …
    pub channel_id: u64,
    /// … and the message there.
    pub message_id: u64,
    /// The message as last shown (JSON owned by the service).
    pub payload: serde_json::Value,
    /// The outbox row that last shaped it, if any.
    pub outbox_id: Option<i64>,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

const LIVE_COLS: &str = "game_id, slot, channel_id, message_id, payload, outbox_id, updated_at";

fn live_from_row(row: &AnyRow) -> StoreResult<LiveRow> {
    let game_id = GameId(row.try_get("game_id")?);
    let slot: String = row.try_get("slot")?;
    let payload: String = row.try_get("payload")?;
    Ok(LiveRow {
        payload: from_json(format_args!("live message {slot} of game {game_id}"), &payload)?,
        game_id,
        slot,
        channel_id: id_from_db(row.try_get("channel_id")?),
        message_id: id_from_db(row.try_get("message_id")?),
        outbox_id: row.try_get("outbox_id")?,
        updated_at: row.try_get("updated_at")?,
    })
}

impl Store {
    /// The live message of `game` in `slot`, if there is one.
    pub async fn live_message(&self, game: GameId, slot: &str) -> StoreResult<Option<LiveRow>> {
        let row = sqlx::query(&format!(
            "SELECT {LIVE_COLS} FROM live_messages WHERE game_id = $1 AND slot = $2"
        ))
        .bind(game.0)
        .bind(slot)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(live_from_row).transpose()
    }

    /// A game's live messages, by slot key.
    pub async fn live_messages(&self, game: GameId) -> StoreResult<Vec<LiveRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {LIVE_COLS} FROM live_messages WHERE game_id = $1 ORDER BY slot"
        ))
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(live_from_row).collect()
    }

    /// Record `row` as its slot's live message, replacing the one before
    /// (if any). [`StoreError::NotFound`] if the game does not exist.
    pub async fn put_live_message(&self, row: &LiveRow) -> StoreResult<()> {
        self.seen(async {
            let _turn = self.write_turn().await;
            let mut conn = self.pool.acquire().await?;
            self.put_live_in(&mut conn, row).await
        })
        .await
    }

    /// [`Store::put_live_message`] by the delivery pass `by` for outbox
    /// row `row.outbox_id`, only while the pass still holds that row's
    /// claim, checked in the same transaction: [`StoreError::Superseded`]
    /// (nothing written) once another pass took the row over, so that a
    /// stalled pass waking late can never put back an older version.
    pub async fn put_live_message_by(&self, row: &LiveRow, by: &str) -> StoreResult<()> {
        self.seen(async {
            let id = row
                .outbox_id
                .ok_or_else(|| StoreError::NotFound("the live message's outbox row".into()))?;
            let mut tx = self.begin_write().await?;
            self.hold_claim(&mut tx, id, by).await?;
            self.put_live_in(&mut tx, row).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    /// Is outbox row `id` still claimed by `by` and undelivered? (On
    /// PostgreSQL the row stays locked until the transaction ends.)
    async fn hold_claim(&self, conn: &mut sqlx::AnyConnection, id: i64, by: &str) -> StoreResult<()> {
        let sql = match self.backend {
            Backend::Postgres => {
                "SELECT id FROM outbox WHERE id = $1 AND claimed_by = $2 AND delivered_at IS NULL FOR UPDATE"
            }
            Backend::Sqlite => "SELECT id FROM outbox WHERE id = $1 AND claimed_by = $2 AND delivered_at IS NULL",
        };
        match sqlx::query(sql).bind(id).bind(by).fetch_optional(&mut *conn).await? {
            Some(_) => Ok(()),
            None => Err(StoreError::Superseded { id }),
        }
    }

    async fn put_live_in(&self, conn: &mut sqlx::AnyConnection, row: &LiveRow) -> StoreResult<()> {
        let payload = to_json("live message payload", &row.payload)?;
        let result = sqlx::query(&format!(
            "INSERT INTO live_messages ({LIVE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (game_id, slot) DO UPDATE SET channel_id = excluded.channel_id,
             message_id = excluded.message_id, payload = excluded.payload,
             outbox_id = excluded.outbox_id, updated_at = excluded.updated_at"
        ))
        .bind(row.game_id.0)
        .bind(row.slot.as_str())
        .bind(id_to_db(row.channel_id))
        .bind(id_to_db(row.message_id))
        .bind(payload)
        .bind(row.outbox_id)
        .bind(row.updated_at)
        .execute(&mut *conn)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(d)) if d.is_foreign_key_violation() => Err(not_found(row.game_id)),
            Err(e) => Err(e.into()),
        }
    }

    /// Forget the live message of `game` in `slot`. Returns false if there
    /// was none.
    pub async fn remove_live_message(&self, game: GameId, slot: &str) -> StoreResult<bool> {
        self.seen(async {
            let _turn = self.write_turn().await;
            let n = sqlx::query("DELETE FROM live_messages WHERE game_id = $1 AND slot = $2")
                .bind(game.0)
                .bind(slot)
                .execute(&self.pool)
                .await?
                .rows_affected();
            Ok(n == 1)
        })
        .await
    }

    /// [`Store::remove_live_message`] by the delivery pass `by` for outbox
    /// row `id`, only while it still holds that row's claim
    /// ([`StoreError::Superseded`] otherwise).
    pub async fn remove_live_message_by(&self, game: GameId, slot: &str, id: i64, by: &str) -> StoreResult<bool> {
        self.seen(async {
            let mut tx = self.begin_write().await?;
            self.hold_claim(&mut tx, id, by).await?;
            let n = sqlx::query("DELETE FROM live_messages WHERE game_id = $1 AND slot = $2")
                .bind(game.0)
                .bind(slot)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            Ok(n == 1)
        })
        .await
    }
}
