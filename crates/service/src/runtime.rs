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
