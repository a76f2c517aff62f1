//! Delivering the outbox through any [`Transport`], oldest first, one
//! target's messages in order.

use super::{OutMessage, Service, Target};
use std::future::Future;

/// What became of one outbox message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    Sent,
    /// The destination will never accept it (a user with DMs closed, a
    /// deleted channel). Recorded and taken off the queue, so it cannot hold
    /// back later messages.
    Undeliverable(String),
}

/// Sends outbox messages somewhere. `id` is the outbox row id: stable
/// across retries, so transports can use it as an idempotency key (Discord:
/// the message nonce). An `Err` is a passing failure: the message stays
/// queued and is retried.
pub trait Transport: Sync {
    fn send(
        &self,
        id: i64,
        message: &OutMessage,
        png: Option<&[u8]>,
    ) -> impl Future<Output = anyhow::Result<Delivery>> + Send;
}

impl Service {
    /// Deliver queued messages through `transport`, oldest first, until the
    /// queue is empty. Returns how many were sent. Messages to one target
    /// keep their order: after a passing failure, later messages to that
    /// target wait for the next call, while other targets go on. Not meant
    /// to be called concurrently (run one delivery task).
    pub async fn deliver<T: Transport>(&self, transport: &T) -> anyhow::Result<usize> {
        let mut sent = 0;
        let mut blocked: Vec<Target> = Vec::new();
        let mut after_id = 0;
        loop {
            let batch = self.store.undelivered_after(after_id, 100).await?;
            if batch.is_empty() {
                return Ok(sent);
            }
            for row in batch {
                after_id = after_id.max(row.id);
                let now = self.now_ms();
                let msg: OutMessage = match serde_json::from_value(row.payload.clone()) {
                    Ok(m) => m,
                    Err(e) => {
                        self.store
                            .mark_failed(row.id, &format!("unreadable payload: {e}"), now)
                            .await?;
                        self.store.mark_delivered(row.id, now).await?;
                        continue;
                    }
                };
                if blocked.contains(&msg.target) {
                    continue;
                }
                // A board that cannot be drawn must not hold the message back.
                let png = match &msg.board {
                    Some(b) => match self.render(b).await {
                        Ok(png) => Some(png),
                        Err(e) => {
                            tracing::error!(outbox = row.id, "board could not be rendered: {e:#}");
                            None
                        }
                    },
                    None => None,
                };
                match transport.send(row.id, &msg, png.as_deref()).await {
                    Ok(Delivery::Sent) => {
                        self.store.mark_delivered(row.id, self.now_ms()).await?;
                        sent += 1;
                    }
                    Ok(Delivery::Undeliverable(why)) => {
                        self.store
                            .mark_failed(row.id, &format!("undeliverable: {why}"), now)
                            .await?;
                        self.store.mark_delivered(row.id, self.now_ms()).await?;
                    }
                    Err(e) => {
                        self.store.mark_failed(row.id, &format!("{e:#}"), now).await?;
                        blocked.push(msg.target.clone());
                    }
                }
            }
        }
    }
}
