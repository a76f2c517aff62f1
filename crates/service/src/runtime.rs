//! The service's background loops, for any transport: the deadline
//! scheduler and the outbox delivery. The Discord bot runs both; so could
//! any other front end.
//!
//! Both stop when their [`CancellationToken`] is cancelled (the process is
//! shutting down), never in the middle of their work: the scheduler
//! between ticks (a tick's commits are each one transaction, finished),
//! the delivery between messages (the message being sent is sent and
//! marked; the rows it had claimed are given back).

use super::{Service, Transport};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How often the scheduler resolves due deadlines and sends reminders.
pub const SCHEDULER_INTERVAL: Duration = Duration::from_secs(20);

/// How often the outbox is delivered when nothing pokes the delivery task.
pub const DELIVERY_INTERVAL: Duration = Duration::from_secs(2);

/// How often the health line is logged unless configured
/// (`ORRERY_HEALTH_EVERY`, in minutes; 0 turns it off).
pub const HEALTH_INTERVAL: Duration = Duration::from_secs(10 * 60);

/// How often delivery tries again while the database cannot be reached.
pub const UNAVAILABLE_RETRY: Duration = Duration::from_secs(5);

/// The longest pause between retries after a failing delivery pass.
const DELIVERY_MAX_BACKOFF: Duration = Duration::from_secs(60);

/// The deadline scheduler: ticks at once (overdue phases resolve right
/// after a restart), then every `every` ([`SCHEDULER_INTERVAL`] unless
/// configured); pokes delivery when a tick queued messages. Safe to run in
/// several processes sharing one PostgreSQL database. Returns when `stop`
/// is cancelled, between ticks.
pub async fn scheduler_loop(service: Arc<Service>, delivery: Arc<Notify>, every: Duration, stop: CancellationToken) {
    while !stop.is_cancelled() {
        match service.tick().await {
            Ok(report) => {
                if report.resolved + report.reminders > 0 {
                    tracing::info!(
                        resolved = report.resolved,
                        reminders = report.reminders,
                        "scheduler tick"
                    );
                    delivery.notify_one();
                }
            }
            Err(e) => tracing::warn!("scheduler tick failed: {e:#}"),
        }
        tokio::select! {
            _ = stop.cancelled() => {}
            _ = tokio::time::sleep(every) => {}
        }
    }
    tracing::debug!("scheduler stopped");
}

/// Deliver the outbox: whenever poked, and every [`DELIVERY_INTERVAL`].
/// Each pass claims the rows it sends, so delivery tasks in several
/// processes never send the same message. Returns when `stop` is
/// cancelled, between messages.
pub async fn delivery_loop<T: Transport>(
    service: Arc<Service>,
    transport: T,
    poke: Arc<Notify>,
    stop: CancellationToken,
) {
    let mut backoff = DELIVERY_INTERVAL;
    while !stop.is_cancelled() {
        let wait = match service.deliver_until(&transport, &stop).await {
            Ok(n) => {
                if n > 0 {
                    tracing::debug!(delivered = n, "outbox delivered");
                }
                backoff = DELIVERY_INTERVAL;
                DELIVERY_INTERVAL
            }
            Err(e) if crate::storage_unavailable_in(&e) => {
                // The store logs this itself (once); delivery keeps
                // trying at a steady pace, to resume soon after it is back.
                tracing::debug!("outbox delivery: the database cannot be reached: {e:#}");
                UNAVAILABLE_RETRY
            }
            Err(e) => {
                tracing::warn!("outbox delivery failed: {e:#}");
                let wait = backoff;
                backoff = (backoff * 2).min(DELIVERY_MAX_BACKOFF);
                wait
            }
        };
        tokio::select! {
            _ = stop.cancelled() => {}
            _ = poke.notified() => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
    tracing::debug!("delivery stopped");
}

/// How often the bot loop looks for decisions computer players owe when
/// nothing pokes it (a commit pokes it at once).
pub const BOT_INTERVAL: Duration = Duration::from_secs(10);

/// Computer players: at once (after a restart, the decisions they owe in
/// every game are played again), whenever a commit pokes it, and every
/// [`BOT_INTERVAL`], play what they owe ([`Service::play_bots_until`]);
/// pokes delivery when it played anything. Returns when `stop` is
/// cancelled, between decisions.
pub async fn bot_loop(service: Arc<Service>, delivery: Arc<Notify>, stop: CancellationToken) {
    let poked = service.bots_poked();
    while !stop.is_cancelled() {
        match service.play_bots_until(&stop).await {
            Ok(n) if n > 0 => {
                tracing::debug!(played = n, "computer players played");
                delivery.notify_one();
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("computer players could not play: {e:#}"),
        }
        tokio::select! {
            _ = stop.cancelled() => {}
            _ = poked.notified() => {}
            _ = tokio::time::sleep(BOT_INTERVAL) => {}
        }
    }
    tracing::debug!("computer players stopped");
}

/// Log the bot's health ([`Service::health`]) as one `info` line every
/// `every`, the first one `every` after start: games active, the outbox
/// backlog and its oldest message's age, failed sends, the store's health.
/// Opens no port. Returns when `stop` is cancelled.
pub async fn health_loop(service: Arc<Service>, every: Duration, stop: CancellationToken) {
    loop {
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = tokio::time::sleep(every) => {}
        }
        match service.health().await {
            Ok(h) => tracing::info!(
                games_active = h.games_active,
                outbox_undelivered = h.outbox_undelivered,
                oldest_undelivered_s = h.oldest_undelivered_ms.map(|ms| ms / 1000),
                failed_sends = h.failed_sends,
                storage_writable = h.storage.writable,
                storage_full_errors = h.storage.full_errors,
                storage_reachable = h.storage.reachable,
                storage_unavailable_errors = h.storage.unavailable_errors,
                discarded_connections = h.storage.discarded_connections,
                "health: {h}"
            ),
            Err(e) => {
                let storage = service.store().health();
                tracing::warn!(
                    storage_reachable = storage.reachable,
                    storage_unavailable_errors = storage.unavailable_errors,
                    "health: the database could not be read ({e:#}), failed sends {}, {}",
                    service.failed_sends(),
                    crate::health::StorageLine(&storage)
                )
            }
        }
    }
    tracing::debug!("health line stopped");
}
