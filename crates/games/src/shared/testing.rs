//! Test-only helpers of the game folders.

/// Write a test's board picture to `$<var>/<name>.png` when the variable
/// is set, for looking at by eye. The one place a game's tests touch the
/// environment or files (the crate's `clippy.toml` forbids both
/// elsewhere).
#[allow(clippy::disallowed_methods)]
pub fn write_debug_png(var: &str, name: &str, png: &[u8]) {
    if let Ok(dir) = std::env::var(var) {
        let _ = std::fs::create_dir_all(&dir);
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.png")), png).expect("write png");
    }
}
