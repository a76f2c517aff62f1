// `synthetic_board()`: a busy 1600x1200 board, included by `examples/timing.rs` and
// by the unit tests (`src/tests.rs`), which bound its PNG size. Callers
// have `Anchor, Color, Item, LegendEntry, Scene, Stroke, Text` in scope.

/// About 300 items: a 10x8 grid of sectors, each with a box, a planet, a
/// name and a haloed label, plus lane lines, polygons and a legend.
fn synthetic_board() -> Scene {
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
