//! Times drawing and PNG encoding separately for a busy 1600x1200 scene.
//!
//! Run with `cargo run --release -p orrery-render --example timing [KIND]`,
//! where the optional KIND keeps only some items (see `keep`), or with one
//! or more scene JSON files (serde of `Scene`, e.g. dumps of real boards):
//! `... --example timing -- /work/scenes/*.json`. Each PNG is also written
//! to `$TMPDIR/orrery-timing/<name>.png` (default `/tmp`) for a look.

use std::time::{Duration, Instant};

use orrery_render::{encode_png, render_rgba, Anchor, Color, Item, LegendEntry, Scene, Stroke, Text};

const RUNS: usize = 30;

// `synthetic_board()`: shared with the renderer's unit tests.
include!("shared/synthetic_board.rs");

fn median_ms(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1000.0
}

/// Keep only the items of one kind, to see where the time goes.
fn keep(item: &Item, only: &str) -> bool {
    match only {
        "text" => matches!(item, Item::Text(_)),
        "shapes" => !matches!(item, Item::Text(_)),
        "rects" => matches!(item, Item::Rect { .. }),
        "circles" => matches!(item, Item::Circle { .. }),
        "lines" => matches!(item, Item::Line { .. }),
        "polygons" => matches!(item, Item::Polygon { .. }),
        "legends" => matches!(item, Item::Legend { .. }),
        "none" => false,
        _ => true,
    }
}

/// Time `RUNS` draws and encodes of `s`, print the medians and the PNG
/// size, and write the PNG to the temp directory as `name.png`.
fn measure(name: &str, s: &Scene) {
    let (mut draw, mut encode) = (Vec::new(), Vec::new());
    let mut png = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let pm = render_rgba(s).expect("renders");
        draw.push(t.elapsed());
        let t = Instant::now();
        png = encode_png(&pm).expect("encodes");
        encode.push(t.elapsed());
    }
    let (d, e) = (median_ms(draw), median_ms(encode));
    println!(
        "{name}: {} items, {}x{}, {RUNS} runs: median draw {d:.1} ms, median encode {e:.1} ms, \
         sum {:.1} ms, PNG {} bytes ({} KiB)",
        s.items.len(),
        s.width,
        s.height,
        d + e,
        png.len(),
        png.len() / 1024
    );
    let dir = std::env::temp_dir().join("orrery-timing");
    let path = dir.join(format!("{name}.png"));
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, &png)) {
        eprintln!("could not write {}: {e}", path.display());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Optional first argument: text, shapes, rects, circles, lines,
    // polygons, legends or none.
    let only = args
        .first()
        .filter(|a| !a.ends_with(".json"))
        .cloned()
        .unwrap_or_default();
    if args.iter().any(|a| a.ends_with(".json")) {
        for file in args.iter().filter(|a| a.ends_with(".json")) {
            let json = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
            let mut s: Scene = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
            s.items.retain(|i| keep(i, &only));
            let name = std::path::Path::new(file)
                .file_stem()
                .map_or("scene".into(), |n| n.to_string_lossy().replace(' ', "_"));
            measure(&name, &s);
        }
        return;
    }
    let mut s = synthetic_board();
    s.items.retain(|i| keep(i, &only));
    measure(if only.is_empty() { "synthetic" } else { &only }, &s);
}
