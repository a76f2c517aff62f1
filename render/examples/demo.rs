//! Writes `/tmp/render-demo.png`: a sample board exercising every item kind.
//!
//! Run with `cargo run -p orrery-render --example demo`.

use orrery_render::{legend_size, measure_text, render_png, Anchor, Color, Item, LegendEntry, Scene, Stroke, Text};

const PLAYERS: [(&str, Color); 4] = [
    ("Vega", Color::rgb(235, 87, 87)),
    ("Altair", Color::rgb(86, 156, 255)),
    ("Deneb", Color::rgb(92, 214, 120)),
    ("Sirius", Color::rgb(245, 196, 66)),
];

fn main() {
    let (w, h) = (1600u32, 1200u32);
    let mut s = Scene::new(w, h, Color::rgb(13, 15, 26));

    // Header band.
    s.rect(0.0, 0.0, w as f32, 64.0, Some(Color::rgb(26, 30, 48)), None);
    s.text(
        Text::new(32.0, 32.0, "Orrery — Sector Kappa, turn 12", 28.0, Color::WHITE)
            .anchor(Anchor::CenterLeft)
            .bold(),
    );
    s.text(
        Text::new(w as f32 - 32.0, 32.0, "Vega to move", 28.0, PLAYERS[0].1)
            .anchor(Anchor::CenterRight)
            .bold(),
    );

    // A 6x4 grid of sectors with planets, fleets and labels.
    let (gx, gy, cw, ch) = (32.0, 92.0, 200.0, 262.0);
    for row in 0..4 {
        for col in 0..6 {
            let x = gx + col as f32 * (cw + 16.0);
            let y = gy + row as f32 * (ch + 16.0);
            let owner = (row * 6 + col) % 5;
            let edge = match owner {
                4 => Color::rgb(70, 76, 100),
                o => PLAYERS[o].1,
            };
            s.push(Item::Rect {
                x,
                y,
                w: cw,
                h: ch,
                radius: 12.0,
                fill: Some(Color::rgb(24, 28, 44)),
                stroke: Some(Stroke::new(edge, 3.0)),
            });
            let (cx, cy) = (x + cw / 2.0, y + ch / 2.0 - 10.0);
            s.circle(
                cx,
                cy,
                34.0 + (col as f32 * 7.0) % 20.0,
                Some(Color::rgb(48 + 9 * col as u8, 58 + 6 * row as u8, 92)),
                Some(Stroke::new(Color::rgba(255, 255, 255, 90), 2.0)),
            );
            s.text(
                Text::new(
                    x + 12.0,
                    y + 10.0,
                    format!("{}{}", (b'A' + row as u8) as char, col + 1),
                    20.0,
                    Color::rgb(170, 176, 200),
                )
                .bold(),
            );
            if owner < 4 {
                let (name, color) = PLAYERS[owner];
                s.text(
                    Text::new(cx, cy, format!("{name} ×{}", 2 + col), 20.0, color)
                        .anchor(Anchor::Center)
                        .bold()
                        .halo(Color::rgb(8, 8, 14)),
                );
            }
            s.text(
                Text::new(
                    cx,
                    y + ch - 12.0,
                    format!("pop {} · ore {}", row + col, 3 * col + 1),
                    20.0,
                    Color::rgb(220, 222, 232),
                )
                .anchor(Anchor::BottomCenter),
            );
        }
    }

    // Supply lines between a few sectors, one dashed.
    let centre = |c: usize, r: usize| {
        (
            gx + c as f32 * (cw + 16.0) + cw / 2.0,
            gy + r as f32 * (ch + 16.0) + ch / 2.0 + 60.0,
        )
    };
    s.line(
        vec![centre(0, 0), centre(1, 0), centre(1, 1)],
        Stroke::new(PLAYERS[0].1, 4.0),
    );
    s.push(Item::Line {
        points: vec![centre(3, 2), centre(4, 3), centre(5, 3)],
        stroke: Stroke::new(PLAYERS[3].1, 4.0),
        dashed: true,
    });
    // A fleet arrow in the gutter between two sectors.
    s.push(Item::Polygon {
        points: vec![(1290.0, 520.0), (1370.0, 545.0), (1290.0, 570.0), (1306.0, 545.0)],
        fill: Some(PLAYERS[1].1),
        stroke: Some(Stroke::new(Color::WHITE, 2.0)),
    });

    // Legend in the bottom-right corner.
    let entries: Vec<LegendEntry> = PLAYERS
        .iter()
        .map(|(n, c)| LegendEntry {
            color: *c,
            label: format!("{n} — {} VP", n.len() * 3),
        })
        .chain(std::iter::once(LegendEntry {
            color: Color::rgb(70, 76, 100),
            label: "Unclaimed".into(),
        }))
        .collect();
    let (lw, lh) = legend_size("Players", &entries, 20.0);
    s.push(Item::Legend {
        x: w as f32 - lw - 24.0,
        y: h as f32 - lh - 24.0,
        title: "Players".into(),
        entries,
        size: 20.0,
    });
    // A note above the legend, right-aligned to it.
    let (_, nh) = measure_text("Next: production", 20.0, false);
    s.text(
        Text::new(
            w as f32 - 24.0,
            h as f32 - lh - 36.0 - nh,
            "Next: production",
            20.0,
            Color::rgb(150, 155, 175),
        )
        .anchor(Anchor::TopRight),
    );

    let png = render_png(&s).expect("demo scene renders");
    std::fs::write("/tmp/render-demo.png", &png).expect("write /tmp/render-demo.png");
    println!(
        "wrote /tmp/render-demo.png ({} bytes, {} items)",
        png.len(),
        s.items.len()
    );
}
