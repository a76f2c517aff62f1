//! The outbox: messages waiting to be delivered by the transport.
//!
//! Messages caused by events are queued by [`Store::commit`] in the same
//! transaction as the events; messages that are not (lobby posts) go
//! through [`Store::enqueue`]. A delivery pass claims rows
//! ([`Store::claim_outbox`]), sends them, and marks each row.
//!
//! # Claims: several processes, one outbox
//!
//! Several processes may deliver the same outbox (one PostgreSQL database
//! shared by several bot processes). A row is sent only by whoever holds
//! its claim: `claimed_by` (a delivery pass's name) and `claimed_until` (the
//! end of a lease, wall-clock unix milliseconds). A claim is taken in one
//! short statement: on PostgreSQL with `SELECT … FOR UPDATE SKIP LOCKED`, so
//! two processes claiming at once take different rows and neither waits; on
//! SQLite the same statement runs in a `BEGIN IMMEDIATE` transaction, which
//! the single writer serializes. A delivered row is never claimed again. A
//! row whose lease ran out (its process died mid-pass) can be claimed
//! again, and is then sent again: the outbox row id, sent as the message's
//! nonce, lets the transport drop that resend (Discord with
//! `enforce_nonce`), and a live message remembers the row that last shaped
//! it.
//!
//! # Order: lanes
//!
//! Messages to one target must arrive in order, and the edits of one live
//! message must be applied in order. Each row has two *lanes*: its target
//! and its live slot (none for a plain message), the payload's `target`
//! and `slot` fields as JSON text (the service's contract; the store only
//! compares them). **A row can be claimed only while no older undelivered
//! row shares a lane with it**, whoever holds that older row or whether
//! anyone does: it is the head of each of its lanes. So a process holding
//! one message of a target means nobody else holds a later one of that
//! target; the later one becomes claimable only once the older one is
//! delivered (or given up as undeliverable). The slot lane matters when a
//! seat changes hands: the slot's messages then go to two targets, and
//! must still be applied in order. Rows of different lanes are
//! independent: one slow or failing target does not hold back another.
//! A row whose payload has no lanes (unreadable) is independent of all.

use super::codec::to_json;
use super::error::{StoreError, StoreResult};
use super::types::outbox_from_row;
use super::{Backend, OutboxRow, Store, WriteTx};
use orrery_engine::GameId;
use sqlx::Row as _;

/// The columns [`outbox_from_row`] reads.
const OUTBOX_COLS: &str = "id, game_id, payload, attempts, created_at, last_error, claimed_until";

/// A row about to be queued: its payload as text, and its lanes.
pub(crate) struct NewOutboxRow {
    payload: String,
    target_lane: Option<String>,
    slot_lane: Option<String>,
}

impl NewOutboxRow {
    /// The row for `payload`, its lanes read from its `target` and `slot`.
    pub(crate) fn of(payload: &serde_json::Value) -> StoreResult<NewOutboxRow> {
        Ok(NewOutboxRow {
            payload: to_json("outbox payload", payload)?,
            target_lane: lane(payload, "target"),
            slot_lane: lane(payload, "slot"),
        })
    }

    /// Insert it in `tx`. Returns its id.
    pub(crate) async fn insert(&self, tx: &mut WriteTx, game: Option<GameId>, now_ms: i64) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO outbox (game_id, created_at, payload, target_lane, slot_lane)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(game.map(|g| g.0))
        .bind(now_ms)
        .bind(self.payload.as_str())
        .bind(self.target_lane.as_deref())
        .bind(self.slot_lane.as_deref())
        .fetch_one(&mut **tx)
        .await?;
        Ok(sqlx::Row::try_get(&row, 0)?)
    }
}

/// A payload's lane `field` as compact JSON text (`{"Channel":5}`); none
/// when the field is missing or null. The migration that added lanes
/// computes the same text in SQL for rows queued before it.
fn lane(payload: &serde_json::Value, field: &str) -> Option<String> {
    match payload.get(field) {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => Some(v.to_string()),
    }
}

/// When a claim's lease starts and ends ([`Store::claim_outbox`],
/// [`Store::claim_outbox_for`]).
#[derive(Clone, Copy, Debug)]
enum Lease {
    /// Given by the caller, in unix milliseconds.
    Fixed { now_ms: i64, until_ms: i64 },
    /// `lease_ms` from the database's now.
    DatabaseClock { lease_ms: i64 },
}

/// Whose live claims a delivery pass leaves alone ([`Store::claim_outbox`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claims<'a> {
    /// Every claim whose lease runs: other processes may be alive (several
    /// processes share the database).
    Honoured,
    /// Only this process's own claims (claim names starting with the
    /// prefix): it is the only process, so any other claim is a dead
    /// process's, whatever its lease says. (Taking every claim back at
    /// start is not enough: a killed process's last claim may still be in
    /// the database's hands and land after that.)
    OnlyOwn(&'a str),
}

impl Claims<'_> {
    /// The `LIKE` pattern of the claim names that are alive.
    fn live_pattern(self) -> String {
        match self {
            Claims::Honoured => "%".to_string(),
            Claims::OnlyOwn(prefix) => format!("{prefix}%"),
        }
    }
}

impl Store {
    /// Queue messages not tied to events (lobby posts, notices), oldest
    /// first in the given order. One transaction. Returns their ids.
    pub async fn enqueue(
        &self,
        game: Option<GameId>,
        payloads: &[serde_json::Value],
        now_ms: i64,
    ) -> StoreResult<Vec<i64>> {
        self.seen(async {
            let rows = payloads.iter().map(NewOutboxRow::of).collect::<StoreResult<Vec<_>>>()?;
            let mut tx = self.begin_write().await?;
            let mut ids = Vec::with_capacity(rows.len());
            for row in rows {
                ids.push(row.insert(&mut tx, game, now_ms).await?);
            }
            tx.commit().await?;
            Ok(ids)
        })
        .await
    }

    /// Up to `limit` undelivered messages, oldest first (including ones
    /// whose earlier attempts failed, and claimed ones: the caller decides
    /// when to give up, from [`OutboxRow::attempts`]). For reading; a
    /// delivery claims rows with [`Store::claim_outbox`].
    pub async fn undelivered(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        self.undelivered_after(i64::MIN, limit).await
    }

    /// The outbox backlog, for operators: how many messages are not
    /// delivered yet, and when the oldest of them was queued (none when
    /// there are none).
    pub async fn outbox_backlog(&self) -> StoreResult<(i64, Option<i64>)> {
        self.seen(async {
            let row = sqlx::query("SELECT COUNT(*), MIN(created_at) FROM outbox WHERE delivered_at IS NULL")
                .fetch_one(&self.pool)
                .await?;
            Ok((row.try_get(0)?, row.try_get(1)?))
        })
        .await
    }

    /// Like [`Store::undelivered`], but only rows with an id above
    /// `after_id`: lets a reader walk the whole queue.
    pub async fn undelivered_after(&self, after_id: i64, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {OUTBOX_COLS} FROM outbox WHERE delivered_at IS NULL AND id > $1 ORDER BY id LIMIT $2"
        ))
        .bind(after_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(outbox_from_row).collect()
    }

    /// Claim up to `limit` undelivered rows for `by` until `until_ms`
    /// (wall clock): rows nobody holds, or whose claim ran out before
    /// `now_ms` (or, with [`Claims::OnlyOwn`], that another process holds),
    /// and only the head of each of their lanes (see the module docs: no
    /// older undelivered row shares a target or a slot with them). Oldest
    /// first. No two of the rows share a lane, so they may be sent in any
    /// order. One short transaction; on PostgreSQL rows that another
    /// process is claiming at this moment are skipped, not waited for.
    pub async fn claim_outbox(
        &self,
        by: &str,
        now_ms: i64,
        until_ms: i64,
        limit: i64,
        claims: Claims<'_>,
    ) -> StoreResult<Vec<OutboxRow>> {
        self.claim(by, Lease::Fixed { now_ms, until_ms }, limit, claims).await
    }

    /// [`Store::claim_outbox`] on the database's clock: rows whose lease
    /// ran out by the database's now are taken, and the new claims run
    /// for `lease_ms` from it. Every process sharing the database then
    /// measures leases on one clock, whatever its own says.
    pub async fn claim_outbox_for(
        &self,
        by: &str,
        lease_ms: i64,
        limit: i64,
        claims: Claims<'_>,
    ) -> StoreResult<Vec<OutboxRow>> {
        self.claim(by, Lease::DatabaseClock { lease_ms }, limit, claims).await
    }

    /// Claim in one transaction, the lease as `lease` says.
    async fn claim(&self, by: &str, lease: Lease, limit: i64, claims: Claims<'_>) -> StoreResult<Vec<OutboxRow>> {
        self.seen(async {
            let mut tx = self.begin_write().await?;
            let (now_ms, until_ms) = match lease {
                Lease::Fixed { now_ms, until_ms } => (now_ms, until_ms),
                Lease::DatabaseClock { lease_ms } => {
                    let now_sql = match self.backend {
                        Backend::Postgres => "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
                        Backend::Sqlite => "SELECT CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
                    };
                    let now: i64 = sqlx::query(now_sql).fetch_one(&mut *tx).await?.try_get(0)?;
                    (now, now + lease_ms)
                }
            };
            let rows = self.claim_in(&mut tx, by, now_ms, until_ms, limit, claims).await?;
            tx.commit().await?;
            Ok(rows)
        })
        .await
    }

    /// The claim statement of [`Store::claim_outbox`], in `tx`.
    async fn claim_in(
        &self,
        tx: &mut crate::WriteTx,
        by: &str,
        now_ms: i64,
        until_ms: i64,
        limit: i64,
        claims: Claims<'_>,
    ) -> StoreResult<Vec<OutboxRow>> {
        // The lane rule is the two NOT EXISTS: an older undelivered row in
        // the same target lane or the same slot lane, held by anyone or by
        // nobody, keeps this row back.
        let pick = "SELECT r.id FROM outbox r
             WHERE r.delivered_at IS NULL
               AND (r.claimed_until IS NULL OR r.claimed_until < $3 OR r.claimed_by NOT LIKE $5)
               AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.target_lane = r.target_lane
                               AND o.delivered_at IS NULL AND o.id < r.id)
               AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.slot_lane = r.slot_lane
                               AND o.delivered_at IS NULL AND o.id < r.id)
             ORDER BY r.id LIMIT $4";
        let sql = match self.backend {
            // The pick is a materialized CTE, run once: as an `IN (…)`
            // subquery PostgreSQL may run it again per row, and with SKIP
            // LOCKED a rerun can pick other rows (more than the limit). A
            // row changed by another claimer between this statement's
            // snapshot and its lock is re-read and checked again.
            Backend::Postgres => {
                let cols = OUTBOX_COLS
                    .split(", ")
                    .map(|c| format!("outbox.{c}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "WITH picked AS MATERIALIZED ({pick} FOR UPDATE OF r SKIP LOCKED)
                     UPDATE outbox SET claimed_by = $1, claimed_until = $2 FROM picked
                     WHERE outbox.id = picked.id AND outbox.delivered_at IS NULL
                     RETURNING {cols}"
                )
            }
            // One writer at a time: the transaction below holds SQLite's
            // write lock from the start (BEGIN IMMEDIATE).
            Backend::Sqlite => format!(
                "UPDATE outbox SET claimed_by = $1, claimed_until = $2 WHERE id IN ({pick}) RETURNING {OUTBOX_COLS}"
            ),
        };
        let rows = sqlx::query(&sql)
            .bind(by)
            .bind(until_ms)
            .bind(now_ms)
            .bind(limit)
            .bind(claims.live_pattern())
            .fetch_all(&mut **tx)
            .await?;
        let mut rows = rows.iter().map(outbox_from_row).collect::<StoreResult<Vec<_>>>()?;
        rows.sort_by_key(|r| r.id);
        Ok(rows)
    }

    /// Give up every claim `by` holds on undelivered rows, so that anyone
    /// (`by` too) may claim them again at once. Returns how many.
    pub async fn release_outbox(&self, by: &str) -> StoreResult<u64> {
        self.seen(async {
            let _turn = self.write_turn().await;
            let n = sqlx::query(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
             WHERE claimed_by = $1 AND delivered_at IS NULL",
            )
            .bind(by)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(n)
        })
        .await
    }

    /// Record a successful delivery (counts as an attempt). The row is no
    /// longer [`Store::undelivered`], and its claim ends (`claimed_by` stays,
    /// saying who delivered it).
    pub async fn mark_delivered(&self, id: i64, now_ms: i64) -> StoreResult<()> {
        self.mark_delivered_fenced(id, None, now_ms).await
    }

    /// [`Store::mark_delivered`] by the delivery pass `by`, only while it
    /// still holds the row's claim: [`StoreError::Superseded`] (nothing
    /// written) once another pass took it over.
    pub async fn mark_delivered_by(&self, id: i64, by: &str, now_ms: i64) -> StoreResult<()> {
        self.mark_delivered_fenced(id, Some(by), now_ms).await
    }

    async fn mark_delivered_fenced(&self, id: i64, by: Option<&str>, now_ms: i64) -> StoreResult<()> {
        self.seen(async {
            let _turn = self.write_turn().await;
            let set = "UPDATE outbox SET delivered_at = $2, last_attempt_at = $2, attempts = attempts + 1,
             claimed_until = NULL WHERE id = $1";
            let n = match by {
                None => sqlx::query(set).bind(id).bind(now_ms),
                Some(by) => sqlx::query(FENCED_DELIVERED).bind(id).bind(now_ms).bind(by),
            }
            .execute(&self.pool)
            .await?
            .rows_affected();
            fenced(n, id, by)
        })
        .await
    }

    /// Record a failed delivery attempt and its error. The row stays
    /// undelivered (and claimed, if it was), with `attempts` one higher.
    pub async fn mark_failed(&self, id: i64, error: &str, now_ms: i64) -> StoreResult<()> {
        self.mark_failed_fenced(id, None, error, now_ms).await
    }

    /// [`Store::mark_failed`] by the delivery pass `by`, only while it
    /// still holds the row's claim ([`StoreError::Superseded`] otherwise).
    pub async fn mark_failed_by(&self, id: i64, by: &str, error: &str, now_ms: i64) -> StoreResult<()> {
        self.mark_failed_fenced(id, Some(by), error, now_ms).await
    }

    async fn mark_failed_fenced(&self, id: i64, by: Option<&str>, error: &str, now_ms: i64) -> StoreResult<()> {
        self.seen(async {
            let _turn = self.write_turn().await;
            let set = "UPDATE outbox SET attempts = attempts + 1, last_error = $2, last_attempt_at = $3 WHERE id = $1";
            let n = match by {
                None => sqlx::query(set).bind(id).bind(error).bind(now_ms),
                Some(by) => sqlx::query(FENCED_FAILED).bind(id).bind(error).bind(now_ms).bind(by),
            }
            .execute(&self.pool)
            .await?
            .rows_affected();
            fenced(n, id, by)
        })
        .await
    }
}

/// [`Store::mark_delivered_by`]: the claim is checked in the statement
/// that marks the row.
const FENCED_DELIVERED: &str = "UPDATE outbox SET delivered_at = $2, last_attempt_at = $2, attempts = attempts + 1,
 claimed_until = NULL WHERE id = $1 AND claimed_by = $3 AND delivered_at IS NULL";

/// [`Store::mark_failed_by`], likewise.
const FENCED_FAILED: &str = "UPDATE outbox SET attempts = attempts + 1, last_error = $2, last_attempt_at = $3
 WHERE id = $1 AND claimed_by = $4 AND delivered_at IS NULL";

/// No row changed: not found, or (fenced by `by`) no longer held.
fn fenced(rows_affected: u64, id: i64, by: Option<&str>) -> StoreResult<()> {
    match (rows_affected, by) {
        (0, Some(_)) => Err(StoreError::Superseded { id }),
        (n, _) => found(n, id),
    }
}

fn found(rows_affected: u64, id: i64) -> StoreResult<()> {
    if rows_affected == 0 {
        Err(StoreError::NotFound(format!("outbox message {id}")))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lanes_are_compact_json_of_target_and_slot() {
        let p = json!({"target": {"Channel": 5}, "slot": {"Prompt": {"game": 1, "seat": 0}}, "text": []});
        assert_eq!(lane(&p, "target").as_deref(), Some(r#"{"Channel":5}"#));
        assert_eq!(lane(&p, "slot").as_deref(), Some(r#"{"Prompt":{"game":1,"seat":0}}"#));
        let plain = json!({"target": {"Dm": 7}, "slot": null});
        assert_eq!(lane(&plain, "slot"), None);
        assert_eq!(lane(&json!({}), "target"), None);
    }
}
