//! Times drawing and PNG encoding separately for a busy 1600x1200 scene.
//!
//! Run with `cargo run --release -p orrery-render --example timing [KIND]`,
//! where the optional KIND keeps only some items (see `keep`).

use std::time::{Duration, Instant};

use orrery_render::{encode_png, render_rgba, Anchor, Color, Item, LegendEntry, Scene, Stroke, Text};

const RUNS: usize = 30;

/// About 300 items: a 10x8 grid of sectors, each with a box, a planet, a
/// name and a haloed label, plus lane lines, polygons and a legend.
fn scene() -> Scene {
    let palette = [
        Color::rgb(235, 87, 87),
        Color::rgb(86, 156, 255),
        Color::rgb(92, 214, 120),
        Color::rgb(245, 196, 66),
    ];
    let mut s = Scene::new(1600, 1200, Color::rgb(13, 15, 26));
    s.text(Text::new(20.0, 16.0, "Timing scene — 1600x1200", 28.0, Color::WHITE).bold());
    for row in 0..8 {
        for col in 0..10 {
            let (x, y) = (20.0 + col as f32 * 140.0, 70.0 + row as f32 * 140.0);
            let c = palette[(row + col) % 4];
            s.push(Item::Rect {
                x,
                y,
                w: 128.0,
                h: 128.0,
                radius: 10.0,
                fill: Some(Color::rgb(24, 28, 44)),
                stroke: Some(Stroke::new(c, 3.0)),
            });
            s.circle(
                x + 64.0,
                y + 60.0,
                26.0,
                Some(Color::rgb(60, 70, 110)),
                Some(Stroke::new(Color::WHITE, 1.5)),
            );
            s.text(Text::new(
                x + 8.0,
                y + 6.0,
                format!("S{row}{col}"),
                16.0,
                Color::rgb(170, 176, 200),
            ));
            s.text(
                Text::new(x + 64.0, y + 100.0, format!("Fleet {}", row * 10 + col), 20.0, c)
                    .anchor(Anchor::Center)
                    .bold()
                    .halo(Color::BLACK),
            );
        }
    }
    for i in 0..30 {
        let y = 100.0 + i as f32 * 35.0;
        s.push(Item::Line {
            points: vec![(30.0, y), (700.0, y + 40.0), (1380.0, y)],
            stroke: Stroke::new(palette[i % 4], 2.0),
            dashed: i % 2 == 0,
        });
    }
    for i in 0..10 {
        let (x, y) = (90.0 + i as f32 * 140.0, 1190.0);
        s.push(Item::Polygon {
            points: vec![(x, y), (x + 20.0, y - 30.0), (x + 40.0, y)],
            fill: Some(palette[i % 4]),
            stroke: Some(Stroke::new(Color::WHITE, 1.0)),
        });
    }
    s.push(Item::Legend {
        x: 1420.0,
        y: 70.0,
        title: "Players".into(),
        entries: palette
            .iter()
            .enumerate()
            .map(|(i, c)| LegendEntry {
                color: *c,
                label: format!("Player {}", i + 1),
            })
            .collect(),
        size: 20.0,
    });
    s
}

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
        "none" => false,
        _ => true,
    }
}

fn main() {
    // Optional argument: text | shapes | rects | circles | lines | none.
    let only = std::env::args().nth(1).unwrap_or_default();
    let mut s = scene();
    s.items.retain(|i| keep(i, &only));
    let (mut draw, mut encode) = (Vec::new(), Vec::new());
    let mut bytes = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        let pm = render_rgba(&s).expect("renders");
        draw.push(t.elapsed());
        let t = Instant::now();
        bytes = encode_png(&pm).expect("encodes").len();
        encode.push(t.elapsed());
    }
    println!(
        "{} items, {}x{}, {RUNS} runs: median draw {:.1} ms, median encode {:.1} ms, PNG {} KiB",
        s.items.len(),
        s.width,
        s.height,
        median_ms(draw),
        median_ms(encode),
        bytes / 1024
    );
}
