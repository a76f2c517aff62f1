//! Draft orders, for games whose auto-resolve is off: a seat's validated
//! but not yet final submission for a secret simultaneous decision.
//!
//! `seq` is the log position a draft was validated against; drafts are
//! written by [`Store::commit`] ([`super::DraftsChange`]), which checks the
//! game's `seq` first, so a draft is never saved against a log that moved
//! meanwhile.

use super::error::StoreResult;
use super::types::seat_from_db;
use super::Store;
use orrery_engine::{GameId, Seat};
use sqlx::any::AnyRow;
use sqlx::Row;

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

impl Store {
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
}
