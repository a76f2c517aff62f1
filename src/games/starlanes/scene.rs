//! The board picture (1600 x 1200), built from a view only.
//!
//! Left: the hex map (pointy-top, laid out with `orrery_render::Layout`):
//! planets with production, stars and science, hyperlanes as bright links,
//! forces as counters in player colours, exhausted planets greyed with a
//! marker. Right: the side panel: turn, players (VP, stars, science,
//! techs, scoring token), the tech market and the universal techs.

use super::view::{PlanetView, View};
use crate::engine::{Outcome, Seat};
use orrery_render::{measure_text, Anchor, Color, Hex, Item, Layout, Orientation, Scene, Stroke, Text};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;
const PANEL_X: f32 = 1070.0;

const BG: Color = Color::rgb(14, 16, 28);
const PANEL: Color = Color::rgb(28, 32, 48);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(150, 154, 170);
const HALO: Color = Color::rgb(0, 0, 0);
const SPACE: Color = Color::rgb(24, 28, 44);
const PLANET: Color = Color::rgb(46, 56, 86);
const STAR: Color = Color::rgb(250, 214, 70);
const SCIENCE: Color = Color::rgb(110, 220, 255);
const LANE: Color = Color::rgb(190, 120, 255);

/// Player colours: the same Okabe–Ito palette as Hyperspace.
pub use crate::games::hyperspace::scene::PLAYER_COLORS;

fn color(seat: Seat) -> Color {
    PLAYER_COLORS[seat.index() % PLAYER_COLORS.len()]
}

fn name_of(names: &[String], seat: Seat) -> String {
    let n = names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| format!("Seat {}", seat.0 + 1));
    if n.chars().count() > 14 {
        format!("{}…", n.chars().take(13).collect::<String>())
    } else {
        n
    }
}

fn t(x: f32, y: f32, s: impl Into<String>, size: f32, c: Color) -> Text {
    Text::new(x, y, s, size, c).halo(HALO)
}

/// Largest size down to `min` at which `s` fits `width`.
fn fit(s: &str, size: f32, min: f32, width: f32, bold: bool) -> f32 {
    let mut sz = size;
    while sz > min && measure_text(s, sz, bold).0 > width {
        sz -= 1.0;
    }
    sz
}

pub fn layout(view: &View) -> Layout {
    let r = view.radius.max(1) as f32;
    // Fit the whole hexagon of radius r in the map area.
    let size_w = (PANEL_X - 30.0) / (3f32.sqrt() * (2.0 * r + 1.0));
    let size_h = (HEIGHT as f32 - 40.0) / (3.0 * r + 2.0);
    Layout::new(
        Orientation::Pointy,
        size_w.min(size_h),
        (PANEL_X / 2.0, HEIGHT as f32 / 2.0),
    )
}

pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    let lay = layout(view);
    let size = lay.size.0;
    // Empty space hexes.
    for h in Hex::spiral(view.radius) {
        sc.push(Item::Polygon {
            points: lay.corners(h).to_vec(),
            fill: Some(SPACE),
            stroke: Some(Stroke::new(Color::rgb(44, 50, 72), 1.5)),
        });
    }
    // Hyperlanes: the lane hex tinted, and a link joining its two ends.
    for l in &view.lanes {
        sc.push(Item::Polygon {
            points: lay.corners(l.hex).to_vec(),
            fill: Some(Color::rgb(48, 30, 72)),
            stroke: Some(Stroke::new(LANE, 2.0)),
        });
        let a = lay.hex_to_pixel(l.ends.0);
        let b = lay.hex_to_pixel(l.ends.1);
        sc.line(vec![a, b], Stroke::new(Color::rgb(20, 10, 30), 14.0));
        sc.line(vec![a, b], Stroke::new(LANE, 8.0));
        let c = lay.hex_to_pixel(l.hex);
        sc.text(t(c.0, c.1 + size * 0.45, "lane", 18.0, LANE).anchor(Anchor::Center));
    }
    for p in &view.planets {
        planet(&mut sc, &lay, p);
    }
    panel(&mut sc, view, names);
    sc
}

fn planet(sc: &mut Scene, lay: &Layout, p: &PlanetView) {
    let h = Hex::new(p.q, p.r);
    let size = lay.size.0;
    let (cx, cy) = lay.hex_to_pixel(h);
    let fill = if p.exhausted { Color::rgb(40, 40, 46) } else { PLANET };
    let corners = lay.corners(h);
    sc.push(Item::Polygon {
        points: corners.to_vec(),
        fill: Some(fill),
        stroke: Some(Stroke::new(Color::rgb(120, 130, 160), 2.0)),
    });
    if let Some(home) = p.home {
        // A home ring, inset, in the owner's colour.
        let inset: Vec<(f32, f32)> = corners
            .iter()
            .map(|(x, y)| (cx + (x - cx) * 0.9, cy + (y - cy) * 0.9))
            .collect();
        sc.push(Item::Polygon {
            points: inset,
            fill: None,
            stroke: Some(Stroke::new(color(home), 4.0)),
        });
    }
    // Name on top.
    let label = 19.0f32.max(size * 0.26);
    let ns = fit(&p.name, label, 16.0, size * 1.6, true);
    sc.text(
        t(cx, cy - size * 0.52, p.name.clone(), ns, TEXT)
            .bold()
            .anchor(Anchor::Center),
    );
    // Production value in a box on the left.
    let bx = cx - size * 0.62;
    let by = cy - size * 0.05;
    sc.push(Item::Rect {
        x: bx - 14.0,
        y: by - 14.0,
        w: 28.0,
        h: 28.0,
        radius: 5.0,
        fill: Some(Color::rgb(230, 230, 235)),
        stroke: None,
    });
    sc.text(
        Text::new(bx, by, p.production.to_string(), 22.0, Color::rgb(20, 20, 30))
            .bold()
            .anchor(Anchor::Center),
    );
    // Stars and science symbols, one glyph each.
    let mut sym = String::new();
    for _ in 0..p.stars {
        sym.push('★');
    }
    let mut sci = String::new();
    for _ in 0..p.science {
        sci.push('⚛');
    }
    if !sym.is_empty() {
        sc.text(t(cx - size * 0.05, cy - size * 0.05, sym, 26.0, STAR).anchor(Anchor::Center));
    }
    if !sci.is_empty() {
        sc.text(t(cx + size * 0.5, cy - size * 0.05, sci, 26.0, SCIENCE).anchor(Anchor::Center));
    }
    // Forces counter.
    if let Some(holder) = p.holder {
        let (fx, fy) = (cx, cy + size * 0.48);
        let r = 17.0f32.max(size * 0.22);
        sc.circle(fx, fy, r, Some(color(holder)), Some(Stroke::new(HALO, 2.5)));
        sc.text(
            Text::new(fx, fy, p.forces.to_string(), r * 1.15, Color::BLACK)
                .bold()
                .anchor(Anchor::Center),
        );
    }
    if p.exhausted {
        let (ex, ey) = (cx + size * 0.55, cy + size * 0.42);
        sc.circle(
            ex,
            ey,
            13.0,
            Some(Color::rgb(200, 60, 60)),
            Some(Stroke::new(HALO, 2.0)),
        );
        sc.line(
            vec![(ex - 6.0, ey - 6.0), (ex + 6.0, ey + 6.0)],
            Stroke::new(Color::WHITE, 3.0),
        );
        sc.line(
            vec![(ex + 6.0, ey - 6.0), (ex - 6.0, ey + 6.0)],
            Stroke::new(Color::WHITE, 3.0),
        );
    }
}

fn panel(sc: &mut Scene, view: &View, names: &[String]) {
    let x0 = PANEL_X;
    let w = WIDTH as f32 - x0 - 16.0;
    sc.push(Item::Rect {
        x: x0,
        y: 12.0,
        w,
        h: HEIGHT as f32 - 24.0,
        radius: 10.0,
        fill: Some(PANEL),
        stroke: None,
    });
    let x = x0 + 16.0;
    let mut y = 24.0;
    sc.text(t(x, y, "STARLANES", 30.0, TEXT).bold());
    y += 40.0;
    let status = match &view.outcome {
        Some(Outcome::Winner { seat, .. }) => format!("{} wins!", name_of(names, *seat)),
        Some(Outcome::Shared { .. }) => "Shared victory".to_string(),
        None => format!("Round {}/{} · {}", view.round, view.rounds, name_of(names, view.active)),
    };
    let ssz = fit(&status, 24.0, 18.0, w - 32.0, true);
    let scol = if view.outcome.is_some() {
        STAR
    } else {
        color(view.active)
    };
    sc.text(t(x, y, status, ssz, scol).bold());
    y += 36.0;
    if view.outcome.is_none() {
        let step = if view.action_taken {
            "Action taken"
        } else {
            "Action available"
        };
        let buy = if view.may_buy { " · may buy a tech" } else { "" };
        sc.text(t(x, y, format!("{step}{buy}"), 19.0, DIM));
        y += 30.0;
    }
    // Players.
    sc.text(t(x, y, "VP   ★   ⚛   (first to 6 VP)", 19.0, DIM));
    y += 28.0;
    for s in &view.seats {
        let c = color(s.seat);
        sc.circle(x + 10.0, y + 13.0, 10.0, Some(c), Some(Stroke::new(HALO, 2.0)));
        let mut n = name_of(names, s.seat);
        if view.token == s.seat {
            n.push_str("  ◆token");
        }
        sc.text(t(x + 28.0, y, n, 21.0, c).bold());
        sc.text(
            t(
                x + w - 40.0,
                y,
                format!("{}  {}  {}", s.vp, s.stars, s.science),
                21.0,
                TEXT,
            )
            .bold()
            .anchor(Anchor::TopRight),
        );
        y += 28.0;
        if !s.techs.is_empty() {
            let mut line = String::new();
            let mut lines = Vec::new();
            for tname in &s.techs {
                let item = if s.exhausted_techs.contains(tname) {
                    format!("{tname}(x)")
                } else {
                    tname.clone()
                };
                let cand = if line.is_empty() {
                    item.clone()
                } else {
                    format!("{line}, {item}")
                };
                if measure_text(&cand, 18.0, false).0 > w - 50.0 && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    line = item;
                } else {
                    line = cand;
                }
            }
            lines.push(line);
            for l in lines {
                sc.text(t(x + 28.0, y, l, 18.0, DIM));
                y += 24.0;
            }
        }
        y += 6.0;
    }
    y += 8.0;
    sc.text(t(x, y, format!("TECH MARKET  (deck {})", view.deck_size), 22.0, TEXT).bold());
    y += 32.0;
    for (i, slot) in view.market.iter().enumerate() {
        let cost = [3, 2, 1][i];
        tech_row(
            sc,
            x,
            y,
            w - 32.0,
            cost,
            slot.as_ref().map(|t| (t.name.as_str(), t.text.as_str())),
        );
        y += 58.0;
    }
    y += 6.0;
    sc.text(t(x, y, "UNIVERSAL  (2 science, anyone)", 22.0, TEXT).bold());
    y += 32.0;
    for u in &view.universal {
        tech_row(sc, x, y, w - 32.0, u.cost, Some((u.name.as_str(), u.text.as_str())));
        y += 58.0;
    }
}

fn tech_row(sc: &mut Scene, x: f32, y: f32, w: f32, cost: u32, tech: Option<(&str, &str)>) {
    sc.push(Item::Rect {
        x,
        y,
        w: 30.0,
        h: 30.0,
        radius: 15.0,
        fill: Some(SCIENCE),
        stroke: None,
    });
    sc.text(
        Text::new(x + 15.0, y + 15.0, cost.to_string(), 20.0, Color::rgb(10, 20, 40))
            .bold()
            .anchor(Anchor::Center),
    );
    match tech {
        Some((name, text)) => {
            sc.text(t(x + 40.0, y + 2.0, name, 20.0, TEXT).bold());
            let sz = fit(text, 17.0, 13.0, w - 40.0, false);
            sc.text(t(x + 40.0, y + 28.0, text, sz, DIM));
        }
        None => sc.text(t(x + 40.0, y + 4.0, "(empty)", 20.0, DIM)),
    }
}
