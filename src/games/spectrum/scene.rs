//! The board picture, built from a view only.
//!
//! Left: the hex disc seen from above; each column's planet filled with
//! its colour, ringed in its owner's player colour, with its level. In a
//! seat's own board, its ships and the ships its sensors see, as counts per
//! player at their column and level. Right: the war's turn and section,
//! the players (planets, income, runs at 25+, sheet ready), alliances and,
//! in a seat's own board, its points.

use super::basics::Colour;
use super::view::View;
use crate::engine::hex::{Hex, Layout, Orientation};
use crate::engine::Seat;
use crate::games::draw::{name_of, txt};
use orrery_render::{Anchor, Color, Item, Scene, Stroke};

pub const WIDTH: u32 = 1400;
pub const HEIGHT: u32 = 1000;
const PANEL_X: f32 = 960.0;

const BG: Color = Color::rgb(12, 14, 26);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(150, 154, 170);
const SPACE: Color = Color::rgb(24, 28, 44);

/// The colour a planet of `c` is drawn in.
pub fn paint(c: Colour) -> Color {
    match c {
        Colour::Red => Color::rgb(220, 60, 60),
        Colour::Orange => Color::rgb(240, 140, 40),
        Colour::Yellow => Color::rgb(236, 210, 60),
        Colour::Green => Color::rgb(70, 180, 90),
        Colour::Blue => Color::rgb(70, 120, 230),
        Colour::Violet => Color::rgb(160, 90, 210),
        Colour::Gray => Color::rgb(150, 150, 160),
    }
}

fn layout() -> Layout {
    let size = (PANEL_X - 40.0) / (3f32.sqrt() * 7.0);
    Layout::new(Orientation::Pointy, size, (PANEL_X / 2.0, HEIGHT as f32 / 2.0))
}

pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    let lay = layout();
    let size = lay.size.0;
    for h in Hex::spiral(super::map::RADIUS) {
        sc.push(Item::Polygon {
            points: lay.corners(h).to_vec(),
            fill: Some(SPACE),
            stroke: Some(Stroke::new(Color::rgb(44, 50, 72), 1.5)),
        });
    }
    for p in &view.planets {
        let (cx, cy) = lay.hex_to_pixel(p.space.col);
        let ring = p.owner.map_or(Stroke::new(Color::rgb(90, 90, 100), 2.0), |o| {
            Stroke::new(paint(view.players[o.index()].colour), 7.0)
        });
        sc.push(Item::Circle {
            cx,
            cy: cy - size * 0.15,
            r: size * 0.38,
            fill: Some(paint(p.colour)),
            stroke: Some(ring),
        });
        sc.text(
            txt(cx, cy - size * 0.15, format!("{}", p.space.level), 20.0, Color::rgb(10, 10, 10))
                .anchor(Anchor::Center)
                .bold(),
        );
        sc.text(txt(cx, cy + size * 0.48, p.name.clone(), 15.0, TEXT).anchor(Anchor::Center));
    }
    // Ships the viewer sees, counted per player per column.
    let mut counts: Vec<(Hex, Seat, usize)> = Vec::new();
    for s in &view.ships {
        match counts.iter_mut().find(|(h, o, _)| *h == s.at.col && *o == s.owner) {
            Some(c) => c.2 += 1,
            None => counts.push((s.at.col, s.owner, 1)),
        }
    }
    let mut per_hex: Vec<(Hex, usize)> = Vec::new();
    for (h, owner, n) in counts {
        let k = match per_hex.iter_mut().find(|(x, _)| *x == h) {
            Some(e) => {
                e.1 += 1;
                e.1 - 1
            }
            None => {
                per_hex.push((h, 1));
                0
            }
        };
        let (cx, cy) = lay.hex_to_pixel(h);
        let x = cx - size * 0.55 + k as f32 * size * 0.4;
        let y = cy + size * 0.15;
        sc.push(Item::Rect {
            x,
            y,
            w: size * 0.36,
            h: size * 0.26,
            radius: 4.0,
            fill: Some(paint(view.players[owner.index()].colour)),
            stroke: Some(Stroke::new(Color::rgb(0, 0, 0), 1.5)),
        });
        sc.text(
            txt(x + size * 0.18, y + size * 0.13, format!("{n}"), 16.0, Color::rgb(0, 0, 0))
                .anchor(Anchor::Center)
                .bold(),
        );
    }
    panel(&mut sc, view, names);
    sc
}

fn panel(sc: &mut Scene, view: &View, names: &[String]) {
    let x = PANEL_X + 20.0;
    let mut y = 40.0;
    sc.text(txt(x, y, format!("Turn {} of {}", view.turn, view.turn_limit), 28.0, TEXT).bold());
    y += 36.0;
    sc.text(txt(x, y, view.section.name(), 22.0, DIM));
    y += 48.0;
    for (i, p) in view.players.iter().enumerate() {
        let seat = Seat(i as u8);
        sc.push(Item::Circle {
            cx: x + 10.0,
            cy: y - 7.0,
            r: 9.0,
            fill: Some(paint(p.colour)),
            stroke: None,
        });
        let ready = match p.sheet {
            Some(true) => " ✓",
            Some(false) => " …",
            None => "",
        };
        sc.text(txt(x + 28.0, y, format!("{}{ready}", name_of(names, seat)), 22.0, TEXT).bold());
        y += 28.0;
        let mut line = format!("{} planets · income {}", p.planets, p.income);
        if p.run > 0 {
            line.push_str(&format!(" · 25+ for {}", p.run));
        }
        if p.out {
            line = "out of the war".into();
        }
        sc.text(txt(x + 28.0, y, line, 18.0, DIM));
        y += 36.0;
    }
    y += 10.0;
    let allies: Vec<String> = view
        .alliances
        .iter()
        .map(|(a, b)| format!("{}–{}", name_of(names, *a), name_of(names, *b)))
        .collect();
    sc.text(txt(
        x,
        y,
        if allies.is_empty() {
            "No alliances".to_string()
        } else {
            format!("Allies: {}", allies.join(", "))
        },
        18.0,
        TEXT,
    ));
    y += 36.0;
    if let Some(own) = &view.own {
        sc.text(txt(x, y, format!("Your points: {}", own.points), 22.0, TEXT).bold());
        y += 30.0;
        sc.text(txt(x, y, format!("Your ships: {}", view.ships.iter().filter(|s| s.owner == own.seat).count()), 18.0, DIM));
        y += 26.0;
        sc.text(txt(x, y, format!("Charted jumps: {}", own.chart.len()), 18.0, DIM));
    }
    if let Some(o) = &view.outcome {
        sc.text(txt(x, HEIGHT as f32 - 40.0, o.reason().to_string(), 18.0, TEXT));
    }
}
