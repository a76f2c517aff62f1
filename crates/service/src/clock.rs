//! Time, injected: the service never reads the system clock directly, so
//! tests can move time forward instead of sleeping.

use std::sync::atomic::{AtomicI64, Ordering};

pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// The real clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

/// The system clock, unless a file says what time it is: the file holds
/// Unix milliseconds as text, and is read at every call (a missing or
/// unreadable file means the system time). For end-to-end tests and
/// playtests that move a running bot's time forward
/// (`ORRERY_CLOCK_FILE`); never needed in production.
#[derive(Debug, Clone)]
pub struct FileClock {
    path: std::path::PathBuf,
}

impl FileClock {
    pub fn new(path: impl Into<std::path::PathBuf>) -> Self {
        FileClock { path: path.into() }
    }
}

impl Clock for FileClock {
    fn now_ms(&self) -> i64 {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| t.trim().parse::<i64>().ok())
            .unwrap_or_else(|| SystemClock.now_ms())
    }
}

/// A clock tests move by hand.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start_ms: i64) -> Self {
        ManualClock(AtomicI64::new(start_ms))
    }
    pub fn advance_ms(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
    pub fn set_ms(&self, ms: i64) {
        self.0.store(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

impl<C: Clock> Clock for std::sync::Arc<C> {
    fn now_ms(&self) -> i64 {
        (**self).now_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_clock_reads_its_file_and_falls_back_to_the_system_time() {
        let dir = std::env::temp_dir().join(format!("orrery-clock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("now");
        let clock = FileClock::new(&path);
        let before = SystemClock.now_ms();
        assert!(clock.now_ms() >= before, "no file: the system time");
        std::fs::write(&path, "1700000000123\n").unwrap();
        assert_eq!(clock.now_ms(), 1_700_000_000_123);
        std::fs::write(&path, "soon").unwrap();
        assert!(clock.now_ms() >= before, "unreadable: the system time");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
