//! The bot's health, for operators: how many games are active, the outbox
//! backlog and how long its oldest message has waited, the sends that
//! failed since the process started, and the store's own health. Read by
//! [`Service::health`], logged as one line by
//! [`crate::runtime::health_loop`] (`ORRERY_HEALTH_EVERY`).

use super::{Service, ServiceError};
use orrery_store::StorageHealth;
use std::fmt;
use std::sync::atomic::Ordering;

/// One reading of the bot's health ([`Service::health`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Health {
    /// Games in play (status active).
    pub games_active: i64,
    /// Outbox messages not delivered yet.
    pub outbox_undelivered: i64,
    /// How long the oldest of them has waited, in milliseconds (none when
    /// the outbox is empty).
    pub oldest_undelivered_ms: Option<i64>,
    /// Sends this process tried that failed (refused, undeliverable, or a
    /// passing failure to be retried), since it started.
    pub failed_sends: u64,
    /// The store's health: writable, full-disk refusals, discarded
    /// connections ([`orrery_store::Store::health`]).
    pub storage: StorageHealth,
}

impl Service {
    /// The bot's health now: two short reads of the database and this
    /// process's counters.
    pub async fn health(&self) -> Result<Health, ServiceError> {
        let games_active = self.store.active_games().await?;
        let (outbox_undelivered, oldest) = self.store.outbox_backlog().await?;
        let now = self.now_ms();
        Ok(Health {
            games_active,
            outbox_undelivered,
            oldest_undelivered_ms: oldest.map(|created| (now - created).max(0)),
            failed_sends: self.failed_sends(),
            storage: self.store.health(),
        })
    }

    /// Sends this process tried that failed, since it started.
    pub fn failed_sends(&self) -> u64 {
        self.failed_sends.load(Ordering::Relaxed)
    }

    /// Count a send that failed, for [`Service::health`].
    pub(super) fn failed_send(&self) {
        self.failed_sends.fetch_add(1, Ordering::Relaxed);
    }
}

/// The health line as the log shows it: `games active 3, outbox 2
/// undelivered (oldest 41 s), failed sends 0, storage writable (full-disk
/// refusals 0, unreachable calls 0, discarded connections 0)`.
impl fmt::Display for Health {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games active {}, outbox {} undelivered",
            self.games_active, self.outbox_undelivered
        )?;
        if let Some(ms) = self.oldest_undelivered_ms {
            write!(f, " (oldest {} s)", ms / 1000)?;
        }
        write!(
            f,
            ", failed sends {}, {}",
            self.failed_sends,
            StorageLine(&self.storage)
        )
    }
}

/// The store's part of the health line: `storage writable (full-disk
/// refusals 0, unreachable calls 0, discarded connections 0)`, with
/// `UNREACHABLE` or `FULL` instead of `writable` while that is so.
pub struct StorageLine<'a>(pub &'a StorageHealth);

impl fmt::Display for StorageLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let state = if !s.reachable {
            "UNREACHABLE"
        } else if !s.writable {
            "FULL"
        } else {
            "writable"
        };
        write!(
            f,
            "storage {state} (full-disk refusals {}, unreachable calls {}, discarded connections {})",
            s.full_errors, s.unavailable_errors, s.discarded_connections
        )
    }
}
