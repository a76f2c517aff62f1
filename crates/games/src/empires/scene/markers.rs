//! The board's marker icons: System markers face up (or peeked), the
//! homeworld's shield, stars, and the Doomsday Machines' badge.

use super::{map_text, tint, ALERT, GOLD, HALO, TEXT};
use crate::empires::basics::Marker;
use crate::shared::draw::txt;
use orrery_engine::hex::Layout;
use orrery_engine::Hex;
use orrery_render::{Anchor, Color, Item, Scene, Stroke};

/// A base's shield, `r` its half-width.
pub(super) fn shield(sc: &mut Scene, cx: f32, cy: f32, r: f32) {
    sc.push(Item::Polygon {
        points: vec![
            (cx - r, cy - 1.1 * r),
            (cx + r, cy - 1.1 * r),
            (cx + r, cy + 0.1 * r),
            (cx, cy + 1.3 * r),
            (cx - r, cy + 0.1 * r),
        ],
        fill: Some(GOLD),
        stroke: Some(Stroke::new(Color::BLACK, 1.5)),
    });
}

/// A five-pointed star.
pub(super) fn star(sc: &mut Scene, cx: f32, cy: f32, r: f32, fill: Color) {
    let points = (0..10)
        .map(|i| {
            let a = std::f32::consts::PI * (i as f32) / 5.0 - std::f32::consts::FRAC_PI_2;
            let rr = if i % 2 == 0 { r } else { r * 0.5 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    sc.push(Item::Polygon {
        points,
        fill: Some(fill),
        stroke: Some(Stroke::new(Color::BLACK, 1.5)),
    });
}

/// A revealed marker's icon in the hex's upper half (`dim`: a peek, seen
/// only by the viewer).
pub(super) fn terrain(sc: &mut Scene, lay: &Layout, h: Hex, m: Marker, dim: bool) {
    let (cx, cy) = lay.hex_to_pixel(h);
    let s = lay.size.0;
    let t = map_text(s);
    let cy = cy - 0.27 * s;
    let k = |c: Color| if dim { tint(c, 0.5) } else { c };
    match m {
        Marker::Planet => sc.push(Item::Circle {
            cx,
            cy,
            r: 0.32 * s,
            fill: Some(k(Color::rgb(70, 120, 220))),
            stroke: None,
        }),
        Marker::Barren => {
            sc.push(Item::Circle {
                cx,
                cy,
                r: 0.32 * s,
                fill: Some(k(Color::rgb(140, 140, 150))),
                stroke: None,
            });
            for (dx, dy, r) in [(-0.1, -0.08, 0.08), (0.12, 0.1, 0.06)] {
                sc.push(Item::Circle {
                    cx: cx + dx * s,
                    cy: cy + dy * s,
                    r: r * s,
                    fill: Some(k(Color::rgb(100, 100, 110))),
                    stroke: None,
                });
            }
        }
        Marker::Minerals(v) => {
            let r = 0.24 * s;
            let x = cx - 0.3 * s;
            sc.push(Item::Polygon {
                points: vec![(x, cy - r), (x + r, cy), (x, cy + r), (x - r, cy)],
                fill: Some(k(Color::rgb(90, 220, 200))),
                stroke: Some(Stroke::new(Color::BLACK, 1.0)),
            });
            sc.text(
                txt(x + 0.3 * s, cy, v.to_string(), t, k(TEXT))
                    .anchor(Anchor::CenterLeft)
                    .bold()
                    .halo(HALO),
            );
        }
        Marker::SpaceWreck => {
            sc.push(Item::Polygon {
                points: vec![
                    (cx - 0.4 * s, cy + 0.1 * s),
                    (cx - 0.08 * s, cy - 0.26 * s),
                    (cx + 0.06 * s, cy - 0.02 * s),
                    (cx + 0.4 * s, cy - 0.2 * s),
                    (cx + 0.2 * s, cy + 0.24 * s),
                ],
                fill: Some(k(Color::rgb(170, 150, 120))),
                stroke: Some(Stroke::new(Color::BLACK, 1.0)),
            });
        }
        Marker::Nebula => sc.push(Item::Polygon {
            points: lay.corners(h).to_vec(),
            fill: Some(Color::rgba(170, 90, 220, if dim { 50 } else { 90 })),
            stroke: None,
        }),
        Marker::Asteroids => {
            for (dx, dy, r) in [
                (-0.34, -0.06, 0.1),
                (0.0, -0.22, 0.08),
                (0.32, -0.04, 0.11),
                (-0.1, 0.16, 0.09),
                (0.18, 0.2, 0.07),
            ] {
                sc.push(Item::Circle {
                    cx: cx + dx * s,
                    cy: cy + dy * s,
                    r: r * s,
                    fill: Some(k(Color::rgb(150, 130, 110))),
                    stroke: None,
                });
            }
        }
        Marker::BlackHole => sc.push(Item::Circle {
            cx,
            cy,
            r: 0.3 * s,
            fill: Some(Color::BLACK),
            stroke: Some(Stroke::new(k(Color::rgb(255, 160, 60)), 3.0)),
        }),
        Marker::SuperNova => {
            sc.push(Item::Polygon {
                points: lay.corners(h).to_vec(),
                fill: Some(k(Color::rgb(250, 230, 150))),
                stroke: None,
            });
            star(sc, cx, cy, 0.4 * s, k(Color::rgb(255, 255, 255)));
        }
        Marker::Danger => {
            sc.text(
                txt(cx, cy, "!", t.max(0.8 * s), k(ALERT))
                    .anchor(Anchor::Center)
                    .bold()
                    .halo(HALO),
            );
        }
        Marker::WarpPoint(n) => {
            // A violet ring with its number.
            sc.push(Item::Circle {
                cx,
                cy,
                r: 0.3 * s,
                fill: Some(Color::rgb(40, 20, 70)),
                stroke: Some(Stroke::new(k(Color::rgb(190, 120, 255)), 4.0)),
            });
            sc.text(
                txt(cx, cy, n.to_string(), t, k(Color::rgb(230, 200, 255)))
                    .anchor(Anchor::Center)
                    .bold(),
            );
        }
        Marker::Doomsday(n) => machine_badge(sc, cx, cy, s, n, dim),
        Marker::LostInSpace => {
            // A spiral, winding out from the centre.
            let points = (0..=36)
                .map(|i| {
                    let a = i as f32 * 0.5;
                    let r = 0.03 * s + 0.018 * s * a;
                    (cx + r * a.cos(), cy + r * a.sin())
                })
                .collect();
            sc.push(Item::Line {
                points,
                stroke: Stroke::new(k(Color::rgb(120, 220, 255)), 3.0),
                dashed: false,
            });
        }
    }
}

/// A Doomsday Machine: a dark red disc with an orange rim filling the hex,
/// "DM" over its number (`dim`: a peeked marker).
pub(super) fn machine_badge(sc: &mut Scene, cx: f32, cy: f32, s: f32, n: u8, dim: bool) {
    let k = |c: Color| if dim { tint(c, 0.5) } else { c };
    sc.push(Item::Circle {
        cx,
        cy,
        r: 0.8 * s,
        fill: Some(k(Color::rgb(120, 12, 24))),
        stroke: Some(Stroke::new(k(Color::rgb(255, 140, 40)), 4.0)),
    });
    let t = map_text(s);
    sc.text(
        txt(cx, cy - 0.3 * s, "DM", 0.8 * t, k(Color::rgb(255, 200, 150)))
            .anchor(Anchor::Center)
            .bold(),
    );
    sc.text(
        txt(cx, cy + 0.3 * s, n.to_string(), t, k(Color::WHITE))
            .anchor(Anchor::Center)
            .bold(),
    );
}
