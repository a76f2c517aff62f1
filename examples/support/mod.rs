//! What the measuring examples (`strength`, `reach`) share.

use orrery::games::GameKind;

/// The game systems `--game` names: a key, a comma-separated list of
/// keys, or `all`.
pub fn kinds(arg: &str) -> anyhow::Result<Vec<GameKind>> {
    if arg == "all" {
        return Ok(GameKind::ALL.to_vec());
    }
    arg.split(',')
        .map(|k| GameKind::from_key(k.trim()).ok_or_else(|| anyhow::anyhow!("unknown game `{k}`")))
        .collect()
}

/// `f(0)`, …, `f(n - 1)` on `threads` worker threads, each taking the next
/// index as it finishes one; the results in index order.
pub fn in_parallel<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = f(i);
                results.lock().expect("results").push((i, r));
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}
