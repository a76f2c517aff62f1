//! What the service benches share: settings from the environment, the
//! process's memory, and a transport that drops what it gets.

use orrery::service::{Delivery, OutMessage, Posted, Transport};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The environment variable `key` parsed, or `default`.
pub fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// `VmRSS` and `VmHWM` (peak) of this process, in MiB.
pub fn rss_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(f64::NAN, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Drops every message, after the service drew its board; counts messages,
/// boards and their bytes, and prints the RSS every `every` messages (0:
/// never).
pub struct Sink {
    pub messages: AtomicU64,
    pub boards: AtomicU64,
    pub board_bytes: AtomicU64,
    every: u64,
    started: Instant,
    /// Whether the transport says where it put a message (as Discord
    /// does, so that live messages are edited in place).
    placed: bool,
}

impl Sink {
    pub fn new(placed: bool, every: u64) -> Sink {
        Sink {
            messages: AtomicU64::new(0),
            boards: AtomicU64::new(0),
            board_bytes: AtomicU64::new(0),
            every,
            started: Instant::now(),
            placed,
        }
    }

    fn take(&self, png: Option<&[u8]>) -> Delivery {
        let n = self.messages.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(png) = png {
            assert!(png.starts_with(b"\x89PNG"), "a board that is not a PNG");
            self.boards.fetch_add(1, Ordering::Relaxed);
            self.board_bytes.fetch_add(png.len() as u64, Ordering::Relaxed);
        }
        if self.every > 0 && n % self.every == 0 {
            let (rss, peak) = rss_mib();
            println!(
                "    {n:>6} messages ({:>5} boards) in {:>5.1} s: RSS {rss:.0} MiB, peak {peak:.0} MiB",
                self.boards.load(Ordering::Relaxed),
                self.started.elapsed().as_secs_f64()
            );
        }
        Delivery::Sent(self.placed.then_some(Posted { channel: 1, message: n }))
    }
}

impl Transport for Sink {
    async fn send(&self, _id: i64, _message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        Ok(self.take(png))
    }

    async fn edit(&self, _id: i64, _at: &Posted, _m: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        Ok(self.take(png))
    }
}
