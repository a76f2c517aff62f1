//! The board picture (1600 x 1200), built from a view only.
//!
//! Left: the hex disc seen from above (pointy-top, 37 columns). Every
//! column is cut into three level slots, 3 high at the top, 2 in the
//! middle, 1 low at the bottom; the planet sits in its level's slot as a
//! disc filled with its colour, its level written in it, ringed (over a
//! dark gap) in its owner's colour; its name across the top of the column.
//! In a seat's own board: the ships it sees as counters per player in
//! their space's slot (the count written on them; its dark ships hollow
//! and dashed), the spaces its sensors reach shaded, its charted jumps as
//! arrows. Round the disc: the turn and section (top left), whose board
//! it is (top right), the colour wheel with the viewer's income per
//! colour, or the colours' names on the public board (bottom left), and
//! a key to the levels (bottom right).
//!
//! Right: the players (colour, planets, income, sheet ready, runs at 25+,
//! out), the alliances, the factions, the outcome, and in a seat's own
//! board its points, its declaration and its ships (name, class, where).

use super::basics::{Colour, Space};
use super::state::Faction;
use super::view::View;
use crate::shared::draw::{fit_text, name_of, rounded, txt, wrap};
use orrery_engine::hex::{Hex, Layout, Orientation};
use orrery_engine::{Outcome, Seat};
use orrery_render::{measure_text, Anchor, Color, Item, Scene, Stroke, Text};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;
/// The map's column: 0 to here; the side panel right of it.
const MAP_W: f32 = 1060.0;
/// Centre-to-corner size of a column's hex.
const S: f32 = 86.0;
const ORIGIN: (f32, f32) = (MAP_W / 2.0, 600.0);
const PANEL_X: f32 = MAP_W + 10.0;

const BG: Color = Color::rgb(12, 14, 26);
const PANEL: Color = Color::rgb(26, 30, 46);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(160, 164, 182);
const HALO: Color = Color::rgb(0, 0, 0);
const GOLD: Color = Color::rgb(250, 214, 70);
const ALERT: Color = Color::rgb(235, 90, 80);
const READY: Color = Color::rgb(120, 220, 130);
const SPACE_FILL: Color = Color::rgb(24, 28, 44);
const SENSED: Color = Color::rgb(34, 52, 74);
const HEX_EDGE: Color = Color::rgb(60, 68, 96);
const SLOT_EDGE: Color = Color::rgb(46, 52, 76);
const JUMP: Color = Color::rgb(110, 230, 250);
/// The gap between a planet and its owner's ring.
const GAP: Color = Color::rgb(8, 8, 14);

/// A ship counter's size.
pub const COUNTER_W: f32 = 26.0;
pub const COUNTER_H: f32 = 23.0;

/// The colour a planet or a player of `c` is drawn in.
pub fn paint(c: Colour) -> Color {
    match c {
        Colour::Red => Color::rgb(225, 60, 60),
        Colour::Orange => Color::rgb(245, 140, 40),
        Colour::Yellow => Color::rgb(240, 214, 60),
        Colour::Green => Color::rgb(70, 185, 90),
        Colour::Blue => Color::rgb(70, 125, 235),
        Colour::Violet => Color::rgb(170, 95, 220),
        Colour::Gray => Color::rgb(150, 150, 160),
    }
}

pub fn layout() -> Layout {
    Layout::new(Orientation::Pointy, S, ORIGIN)
}

/// The y of a level's slot centre, from the column's centre.
fn level_dy(level: u8) -> f32 {
    match level {
        3 => -0.25 * S,
        2 => 0.1 * S,
        _ => 0.45 * S,
    }
}

/// A level's slot: its top and bottom, from the column's centre.
fn slot_band(level: u8) -> (f32, f32) {
    match level {
        3 => (-S, -0.075 * S),
        2 => (-0.075 * S, 0.275 * S),
        _ => (0.275 * S, S),
    }
}

/// The planet's disc centre x, from the column's centre.
const DISC_DX: f32 = -0.3 * S;
const DISC_R: f32 = 0.2 * S;

/// Where a space is drawn: its column's centre and its level's slot.
pub fn space_point(lay: &Layout, sp: Space) -> (f32, f32) {
    let (cx, cy) = lay.hex_to_pixel(sp.col);
    (cx, cy + level_dy(sp.level))
}

/// The part of a polygon between two heights (Sutherland–Hodgman).
fn clip_y(poly: &[(f32, f32)], y0: f32, y1: f32) -> Vec<(f32, f32)> {
    fn cut(poly: &[(f32, f32)], keep: impl Fn(f32) -> bool, at: f32) -> Vec<(f32, f32)> {
        let mut out = Vec::new();
        for i in 0..poly.len() {
            let a = poly[i];
            let b = poly[(i + 1) % poly.len()];
            let (ia, ib) = (keep(a.1), keep(b.1));
            if ia {
                out.push(a);
            }
            if ia != ib {
                let t = (at - a.1) / (b.1 - a.1);
                out.push((a.0 + t * (b.0 - a.0), at));
            }
        }
        out
    }
    let top = cut(poly, |y| y >= y0, y0);
    cut(&top, |y| y <= y1, y1)
}

/// The planet's name in the column `col`.
fn column_name(view: &View, col: Hex) -> String {
    view.planets
        .iter()
        .find(|p| p.space.col == col)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("{},{}", col.q, col.r))
}

/// A space in words: `Vega 2`.
pub fn space_name(view: &View, sp: Space) -> String {
    format!("{} {}", column_name(view, sp.col), sp.level)
}

fn player_colour(view: &View, seat: Seat) -> Color {
    view.players.get(seat.index()).map_or(DIM, |p| paint(p.colour))
}

/// One counter: some ships of one player (dark or not) on one space.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    pub space: Space,
    /// `None`: the "+N" counter of a slot too full to show every player.
    pub owner: Option<Seat>,
    pub dark: bool,
    pub count: usize,
    /// Top-left corner.
    pub at: (f32, f32),
}

/// The ship counters of the view, placed: per space, the viewer's own
/// ships first (so they always get their own counters), then the others
/// by seat; the planet's slot leaves room for the planet, and a slot too
/// full for everyone ends with a "+N" counter.
pub fn counters(view: &View) -> Vec<Counter> {
    let lay = layout();
    let me = view.own.as_ref().map(|o| o.seat);
    let mut groups: Vec<(Space, Seat, bool, usize)> = Vec::new();
    for s in &view.ships {
        match groups
            .iter_mut()
            .find(|(sp, o, d, _)| *sp == s.at && *o == s.owner && *d == s.dark)
        {
            Some(g) => g.3 += 1,
            None => groups.push((s.at, s.owner, s.dark, 1)),
        }
    }
    groups.sort_by_key(|(sp, o, d, _)| (*sp, Some(*o) != me, *o, *d));
    let mut out = Vec::new();
    let mut i = 0;
    while i < groups.len() {
        let sp = groups[i].0;
        let mut j = i;
        while j < groups.len() && groups[j].0 == sp {
            j += 1;
        }
        let here = &groups[i..j];
        let planet_here = view.planets.iter().any(|p| p.space == sp);
        let (x0, slots) = if planet_here { (0.0, 3) } else { (-0.66 * S, 4) };
        let (cx, cy) = space_point(&lay, sp);
        let y = cy - COUNTER_H / 2.0;
        let x = |k: usize| cx + x0 + k as f32 * (COUNTER_W + 2.0);
        if here.len() <= slots {
            for (k, g) in here.iter().enumerate() {
                out.push(Counter {
                    space: sp,
                    owner: Some(g.1),
                    dark: g.2,
                    count: g.3,
                    at: (x(k), y),
                });
            }
        } else {
            for (k, g) in here.iter().take(slots - 1).enumerate() {
                out.push(Counter {
                    space: sp,
                    owner: Some(g.1),
                    dark: g.2,
                    count: g.3,
                    at: (x(k), y),
                });
            }
            out.push(Counter {
                space: sp,
                owner: None,
                dark: false,
                count: here[slots - 1..].iter().map(|g| g.3).sum(),
                at: (x(slots - 1), y),
            });
        }
        i = j;
    }
    out
}

pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    let mut texts: Vec<Text> = Vec::new();
    map(&mut sc, &mut texts, view);
    corners(&mut sc, &mut texts, view, names);
    for t in texts {
        sc.text(t);
    }
    panel(&mut sc, view, names);
    sc
}

fn map(sc: &mut Scene, texts: &mut Vec<Text>, view: &View) {
    let lay = layout();
    let sensed: &[Space] = view.own.as_ref().map_or(&[], |o| &o.sensed);
    for h in Hex::spiral(super::map::RADIUS) {
        let corners = lay.corners(h);
        let (cx, cy) = lay.hex_to_pixel(h);
        sc.push(Item::Polygon {
            points: corners.to_vec(),
            fill: Some(SPACE_FILL),
            stroke: None,
        });
        for level in 1..=3u8 {
            if sensed.contains(&Space::new(h, level)) {
                let (a, b) = slot_band(level);
                sc.push(Item::Polygon {
                    points: clip_y(&corners, cy + a, cy + b),
                    fill: Some(SENSED),
                    stroke: None,
                });
            }
        }
        // The slots' borders.
        for level in [3u8, 2] {
            let y = cy + slot_band(level).1;
            let half = 0.866 * S;
            sc.push(Item::Line {
                points: vec![(cx - half + 3.0, y), (cx + half - 3.0, y)],
                stroke: Stroke::new(SLOT_EDGE, 1.5),
                dashed: true,
            });
        }
        sc.push(Item::Polygon {
            points: corners.to_vec(),
            fill: None,
            stroke: Some(Stroke::new(HEX_EDGE, 2.0)),
        });
    }
    // Charted jumps, under the planets and counters.
    if let Some(own) = &view.own {
        for (from, to) in &own.chart {
            arrow(sc, space_point(&lay, *from), space_point(&lay, *to));
        }
    }
    for p in &view.planets {
        let (cx, cy) = lay.hex_to_pixel(p.space.col);
        let (x, y) = (cx + DISC_DX, cy + level_dy(p.space.level));
        match p.owner {
            Some(o) => {
                sc.circle(x, y, DISC_R + 8.0, Some(player_colour(view, o)), None);
                sc.circle(x, y, DISC_R + 3.5, Some(GAP), None);
                sc.circle(x, y, DISC_R, Some(paint(p.colour)), None);
            }
            None => sc.circle(
                x,
                y,
                DISC_R,
                Some(paint(p.colour)),
                Some(Stroke::new(Color::rgb(110, 112, 126), 2.0)),
            ),
        }
        texts.push(
            txt(x, y + 1.0, p.space.level.to_string(), 20.0, Color::rgb(12, 12, 16))
                .anchor(Anchor::Center)
                .bold(),
        );
        let (name, size) = fit_text(&p.name, 19.0, 15.0, 1.3 * S, true);
        texts.push(
            txt(cx, cy - 0.67 * S, name, size, TEXT)
                .anchor(Anchor::Center)
                .bold()
                .halo(HALO),
        );
    }
    for c in counters(view) {
        let (x, y) = c.at;
        let (fill, ink) = match c.owner {
            Some(o) if !c.dark => (player_colour(view, o), Color::rgb(10, 10, 14)),
            Some(o) => (GAP, player_colour(view, o)),
            None => (Color::rgb(200, 200, 210), Color::rgb(10, 10, 14)),
        };
        sc.push(Item::Rect {
            x,
            y,
            w: COUNTER_W,
            h: COUNTER_H,
            radius: 5.0,
            fill: Some(fill),
            stroke: (!c.dark).then_some(Stroke::new(HALO, 2.0)),
        });
        if c.dark {
            let (x1, y1) = (x + COUNTER_W, y + COUNTER_H);
            sc.push(Item::Line {
                points: vec![(x, y), (x1, y), (x1, y1), (x, y1), (x, y)],
                stroke: Stroke::new(ink, 2.0),
                dashed: true,
            });
        }
        let label = match c.owner {
            Some(_) => c.count.to_string(),
            None => format!("+{}", c.count),
        };
        let size = if label.len() > 2 { 14.0 } else { 16.0 };
        texts.push(
            txt(x + COUNTER_W / 2.0, y + COUNTER_H / 2.0 + 0.5, label, size, ink)
                .anchor(Anchor::Center)
                .bold(),
        );
    }
}

/// A jump arrow: a dot where it starts, a head where it lands.
fn arrow(sc: &mut Scene, a: (f32, f32), b: (f32, f32)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let tip = (b.0 - ux * 6.0, b.1 - uy * 6.0);
    let base = (tip.0 - ux * 18.0, tip.1 - uy * 18.0);
    sc.line(vec![a, base], Stroke::new(HALO, 7.0));
    sc.push(Item::Line {
        points: vec![a, base],
        stroke: Stroke::new(JUMP, 3.5),
        dashed: true,
    });
    sc.circle(a.0, a.1, 6.0, Some(JUMP), Some(Stroke::new(HALO, 2.0)));
    sc.push(Item::Polygon {
        points: vec![
            tip,
            (base.0 - uy * 10.0, base.1 + ux * 10.0),
            (base.0 + uy * 10.0, base.1 - ux * 10.0),
        ],
        fill: Some(JUMP),
        stroke: Some(Stroke::new(HALO, 2.0)),
    });
}

/// The corners round the disc: turn, whose board, the wheel, the key.
fn corners(sc: &mut Scene, texts: &mut Vec<Text>, view: &View, names: &[String]) {
    texts.push(
        txt(
            18.0,
            14.0,
            format!("Turn {} of {}", view.turn, view.turn_limit),
            32.0,
            TEXT,
        )
        .bold(),
    );
    let section = if view.outcome.is_some() {
        "The war is over".to_string()
    } else {
        view.section.name()
    };
    texts.push(txt(18.0, 56.0, section, 24.0, DIM).bold());
    let right = MAP_W - 16.0;
    match &view.own {
        Some(own) => {
            let who = name_of(names, own.seat);
            let (label, size) = fit_text(&format!("{who}'s board"), 28.0, 18.0, 420.0, true);
            texts.push(
                txt(right, 14.0, label, size, player_colour(view, own.seat))
                    .anchor(Anchor::TopRight)
                    .bold()
                    .halo(HALO),
            );
            texts.push(
                txt(
                    right,
                    54.0,
                    format!("{} point{}", own.points, if own.points == 1 { "" } else { "s" }),
                    26.0,
                    GOLD,
                )
                .anchor(Anchor::TopRight)
                .bold(),
            );
        }
        None => {
            texts.push(
                txt(right, 14.0, "Public board", 28.0, TEXT)
                    .anchor(Anchor::TopRight)
                    .bold(),
            );
            texts.push(txt(right, 54.0, "ships are secret", 20.0, DIM).anchor(Anchor::TopRight));
        }
    }
    wheel(sc, texts, view);
    key(sc, texts, view);
}

/// The colour wheel, bottom left: the viewer's income per planet of each
/// colour, or (public) the colours' names.
fn wheel(sc: &mut Scene, texts: &mut Vec<Text>, view: &View) {
    let (cx, cy, r) = (118.0, 1088.0, 96.0);
    let mine = view
        .own
        .as_ref()
        .and_then(|o| view.players.get(o.seat.index()))
        .map(|p| p.colour);
    let title = if mine.is_some() { "Your income" } else { "Colour wheel" };
    texts.push(txt(16.0, 955.0, title, 20.0, TEXT).bold());
    let step = std::f32::consts::TAU / 6.0;
    for (i, c) in Colour::WHEEL.iter().enumerate() {
        // Red at the top, clockwise.
        let mid = -std::f32::consts::FRAC_PI_2 + i as f32 * step;
        let (a0, a1) = (mid - step / 2.0, mid + step / 2.0);
        let mut pts = vec![(cx, cy)];
        for k in 0..=12 {
            let a = a0 + (a1 - a0) * k as f32 / 12.0;
            pts.push((cx + r * a.cos(), cy + r * a.sin()));
        }
        let own = mine == Some(*c);
        sc.push(Item::Polygon {
            points: pts,
            fill: Some(paint(*c)),
            stroke: Some(Stroke::new(BG, 3.0)),
        });
        let lr = if mine.is_some() { r * 0.68 } else { r * 0.66 };
        let (lx, ly) = (cx + lr * mid.cos(), cy + lr * mid.sin());
        match mine {
            Some(m) => texts.push(
                txt(
                    lx,
                    ly,
                    c.income_for(m).to_string(),
                    if own { 28.0 } else { 24.0 },
                    Color::rgb(10, 10, 14),
                )
                .anchor(Anchor::Center)
                .bold(),
            ),
            None => texts.push(
                txt(lx, ly, c.name(), 15.0, Color::rgb(10, 10, 14))
                    .anchor(Anchor::Center)
                    .bold(),
            ),
        }
    }
    if let Some(m) = mine {
        // The viewer's own wedge, outlined.
        let i = m.wheel_index().unwrap_or(0) as f32;
        let mid = -std::f32::consts::FRAC_PI_2 + i * step;
        let mut pts = vec![(cx, cy)];
        for k in 0..=12 {
            let a = mid - step / 2.0 + step * k as f32 / 12.0;
            pts.push((cx + (r + 3.0) * a.cos(), cy + (r + 3.0) * a.sin()));
        }
        sc.push(Item::Polygon {
            points: pts,
            fill: None,
            stroke: Some(Stroke::new(Color::WHITE, 3.0)),
        });
    }
    sc.circle(cx, cy, r * 0.3, Some(paint(Colour::Gray)), Some(Stroke::new(BG, 3.0)));
    let centre = match mine {
        Some(m) => Colour::Gray.income_for(m).to_string(),
        None => "gray".to_string(),
    };
    let size = if mine.is_some() { 22.0 } else { 15.0 };
    texts.push(
        txt(cx, cy, centre, size, Color::rgb(10, 10, 14))
            .anchor(Anchor::Center)
            .bold(),
    );
}

/// The key, bottom right: a column's three level slots, and in a seat's
/// board what the counters, shading and arrows mean.
fn key(sc: &mut Scene, texts: &mut Vec<Text>, view: &View) {
    let (kx, ky, ks) = (MAP_W - 78.0, 1104.0, 62.0);
    let kl = Layout::new(Orientation::Pointy, ks, (kx, ky));
    let h = Hex::new(0, 0);
    let corners = kl.corners(h);
    sc.push(Item::Polygon {
        points: corners.to_vec(),
        fill: Some(SPACE_FILL),
        stroke: Some(Stroke::new(HEX_EDGE, 2.0)),
    });
    let scale = ks / S;
    for level in [3u8, 2] {
        let y = ky + slot_band(level).1 * scale;
        sc.push(Item::Line {
            points: vec![(kx - 0.866 * ks + 3.0, y), (kx + 0.866 * ks - 3.0, y)],
            stroke: Stroke::new(SLOT_EDGE, 1.5),
            dashed: true,
        });
    }
    for (level, word) in [(3u8, "3 high"), (2, "2 mid"), (1, "1 low")] {
        let y = ky + level_dy(level) * scale;
        texts.push(txt(kx, y, word, 16.0, TEXT).anchor(Anchor::Center).bold());
    }
    texts.push(
        txt(kx, ky - ks - 8.0, "Levels", 18.0, DIM)
            .anchor(Anchor::BottomCenter)
            .bold(),
    );
    if view.own.is_none() {
        return;
    }
    // What a seat's board adds, to the left of the levels.
    let x = MAP_W - 330.0;
    let mut y = 1086.0;
    let row = |texts: &mut Vec<Text>, y: f32, what: &str| {
        texts.push(txt(x + 44.0, y, what, 17.0, DIM).anchor(Anchor::CenterLeft));
    };
    // A counter.
    sc.push(Item::Rect {
        x,
        y: y - 10.0,
        w: 32.0,
        h: 20.0,
        radius: 4.0,
        fill: Some(DIM),
        stroke: None,
    });
    row(texts, y, "ships");
    y += 26.0;
    let (x1, y0, y1) = (x + 32.0, y - 10.0, y + 10.0);
    sc.push(Item::Line {
        points: vec![(x, y0), (x1, y0), (x1, y1), (x, y1), (x, y0)],
        stroke: Stroke::new(DIM, 2.0),
        dashed: true,
    });
    row(texts, y, "dark ships");
    y += 26.0;
    sc.rect(x, y - 10.0, 32.0, 20.0, Some(SENSED), Some(Stroke::new(HEX_EDGE, 1.0)));
    row(texts, y, "your sensors");
    y += 26.0;
    sc.line(vec![(x, y), (x + 22.0, y)], Stroke::new(JUMP, 3.5));
    sc.push(Item::Polygon {
        points: vec![(x + 34.0, y), (x + 20.0, y - 8.0), (x + 20.0, y + 8.0)],
        fill: Some(JUMP),
        stroke: None,
    });
    row(texts, y, "charted jumps");
}

// ---------------------------------------------------------------------------
// The side panel

const PANEL_TOP: f32 = 12.0;
const PANEL_BOTTOM: f32 = HEIGHT as f32 - 12.0;

fn panel(sc: &mut Scene, view: &View, names: &[String]) {
    let x0 = PANEL_X;
    let w = WIDTH as f32 - PANEL_X - 12.0;
    rounded(
        sc,
        (x0, PANEL_TOP, w, PANEL_BOTTOM - PANEL_TOP),
        10.0,
        Some(PANEL),
        None,
    );
    let x = x0 + 18.0;
    let inner = w - 36.0;
    let right = x + inner;
    let col_planets = right - 110.0;
    let mut y = PANEL_TOP + 14.0;
    if let Some(o) = &view.outcome {
        y = outcome(sc, view, names, o, (x, y, inner));
    }
    sc.text(txt(x, y, "Players", 24.0, TEXT).bold());
    sc.text(txt(col_planets, y + 6.0, "planets", 16.0, DIM).anchor(Anchor::TopCenter));
    sc.text(txt(right, y + 6.0, "income", 16.0, DIM).anchor(Anchor::TopRight));
    y += 36.0;
    let me = view.own.as_ref().map(|o| o.seat);
    for (i, p) in view.players.iter().enumerate() {
        let seat = Seat(i as u8);
        let colour = paint(p.colour);
        if me == Some(seat) {
            rounded(
                sc,
                (x - 8.0, y - 4.0, inner + 16.0, 36.0),
                6.0,
                Some(Color::rgb(40, 46, 70)),
                None,
            );
        }
        sc.circle(x + 12.0, y + 14.0, 12.0, Some(colour), Some(Stroke::new(HALO, 2.0)));
        let name = name_of(names, seat);
        let (name, size) = fit_text(&name, 24.0, 16.0, col_planets - x - 70.0, true);
        let ink = if p.out { DIM } else { TEXT };
        sc.text(txt(x + 32.0, y, name, size, ink).bold());
        sc.text(
            txt(col_planets, y, p.planets.to_string(), 24.0, ink)
                .anchor(Anchor::TopCenter)
                .bold(),
        );
        sc.text(
            txt(right, y, p.income.to_string(), 24.0, ink)
                .anchor(Anchor::TopRight)
                .bold(),
        );
        y += 32.0;
        let mut notes: Vec<(String, Color)> = Vec::new();
        match p.sheet {
            Some(true) => notes.push(("✓ ready".into(), READY)),
            Some(false) => notes.push(("writing…".into(), DIM)),
            None => {}
        }
        if p.run > 0 {
            notes.push((format!("25+ planets: {} of 3 turns", p.run), GOLD));
        }
        if p.out {
            notes = vec![("out of the war".into(), ALERT)];
        }
        if !notes.is_empty() {
            let mut nx = x + 32.0;
            for (k, (note, c)) in notes.iter().enumerate() {
                let t = if k + 1 < notes.len() {
                    format!("{note} ·")
                } else {
                    note.clone()
                };
                let wdt = measure_text(&t, 17.0, false).0;
                sc.text(txt(nx, y, t, 17.0, *c));
                nx += wdt + 6.0;
            }
            y += 24.0;
        }
        y += 6.0;
    }
    y += 4.0;
    // Alliances.
    let allies: Vec<String> = view
        .alliances
        .iter()
        .map(|(a, b)| format!("{} – {}", name_of(names, *a), name_of(names, *b)))
        .collect();
    sc.text(txt(x, y, "Alliances", 22.0, TEXT).bold());
    y += 30.0;
    if allies.is_empty() {
        sc.text(txt(x, y, "none", 19.0, DIM));
        y += 26.0;
    } else {
        for l in wrap(&allies.join(" · "), 19.0, inner, false) {
            sc.text(txt(x, y, l, 19.0, DIM));
            y += 26.0;
        }
    }
    y += 8.0;
    sc.text(txt(x, y, "Factions", 22.0, TEXT).bold());
    y += 30.0;
    if view.factions.is_empty() {
        sc.text(txt(x, y, "none", 19.0, DIM));
        y += 26.0;
    }
    for f in &view.factions {
        for l in wrap(&faction_text(f, names), 19.0, inner, false) {
            sc.text(txt(x, y, l, 19.0, DIM));
            y += 26.0;
        }
    }
    if view.own.is_some() {
        own_part(sc, view, names, (x, y + 8.0, inner));
    }
}

/// "alice, bob and carol · empire · 2 of 3 turns".
fn faction_text(f: &Faction, names: &[String]) -> String {
    let who: Vec<String> = f.members.iter().map(|s| name_of(names, *s)).collect();
    let kind = if f.empire {
        format!("empire of {}", name_of(names, f.members[0]))
    } else {
        "faction".to_string()
    };
    format!(
        "{} · {kind} · {} of 3 turns",
        crate::shared::menu::and_list(&who),
        f.run
    )
}

/// The outcome box at the panel's top; returns the y below it.
fn outcome(sc: &mut Scene, view: &View, names: &[String], o: &Outcome, (x, y, w): (f32, f32, f32)) -> f32 {
    let head = match o {
        Outcome::Winner { seat, .. } => format!("{} wins!", name_of(names, *seat)),
        Outcome::Shared { seats, .. } => {
            let v: Vec<String> = seats.iter().map(|s| name_of(names, *s)).collect();
            format!("{} share the win", crate::shared::menu::and_list(&v))
        }
        Outcome::AllLose { .. } => "Nobody wins".to_string(),
    };
    let reason = o.reason().to_string();
    let lines = if reason.is_empty() {
        Vec::new()
    } else {
        crate::shared::draw::wrap_words(&reason, 18.0, w - 20.0, false)
    };
    let hgt = 46.0 + lines.len() as f32 * 24.0 + 8.0;
    let colour = o.winners().first().map_or(GOLD, |s| player_colour(view, *s));
    rounded(
        sc,
        (x - 8.0, y - 4.0, w + 16.0, hgt),
        8.0,
        Some(Color::rgb(48, 44, 30)),
        Some(Stroke::new(GOLD, 2.0)),
    );
    let (head, size) = fit_text(&head, 28.0, 18.0, w - 10.0, true);
    sc.text(txt(x + 4.0, y + 4.0, head, size, colour).bold().halo(HALO));
    let mut ly = y + 42.0;
    for l in lines {
        sc.text(txt(x + 4.0, ly, l, 18.0, TEXT));
        ly += 24.0;
    }
    y + hgt + 10.0
}

/// A seat's own part of the panel: points, declaration, ships.
fn own_part(sc: &mut Scene, view: &View, names: &[String], (x, mut y, w): (f32, f32, f32)) {
    let Some(own) = &view.own else {
        return;
    };
    sc.line(vec![(x, y), (x + w, y)], Stroke::new(HEX_EDGE, 2.0));
    y += 12.0;
    sc.text(txt(x, y, format!("Your points: {}", own.points), 24.0, GOLD).bold());
    y += 34.0;
    if let Some(d) = &own.declared {
        let others: Vec<String> = d.members[1..].iter().map(|s| name_of(names, *s)).collect();
        let t = format!(
            "Declared: {} with {}",
            if d.empire { "empire" } else { "faction" },
            crate::shared::menu::and_list(&others)
        );
        let (t, size) = fit_text(&t, 18.0, 15.0, w, false);
        sc.text(txt(x, y, t, size, DIM));
        y += 26.0;
    }
    let mine: Vec<_> = view.ships.iter().filter(|s| s.owner == own.seat).collect();
    let seen = view.ships.len() - mine.len();
    let dark = mine.iter().filter(|s| s.dark).count();
    let mut head = format!("Your ships: {}", mine.len());
    if dark > 0 {
        head.push_str(&format!(" ({dark} dark)"));
    }
    sc.text(txt(x, y, head, 22.0, TEXT).bold());
    y += 30.0;
    let mut info = vec![format!(
        "{} charted jump{}",
        own.chart.len(),
        if own.chart.len() == 1 { "" } else { "s" }
    )];
    if seen > 0 {
        info.push(format!("{seen} other ship{} seen", if seen == 1 { "" } else { "s" }));
    }
    sc.text(txt(x, y, info.join(" · "), 17.0, DIM));
    y += 28.0;
    let mut ships = mine;
    ships.sort_by_key(|s| (s.dark, s.at.col.q, s.at.col.r, s.at.level, s.id));
    let bottom = PANEL_BOTTOM - 10.0;
    let line_h = 24.0;
    let rows = ((bottom - y) / line_h).floor().max(0.0) as usize;
    if rows == 0 {
        return;
    }
    let one_col = ships.len() <= rows;
    let cols = if one_col { 1 } else { 2 };
    let col_w = (w - 12.0 * (cols - 1) as f32) / cols as f32;
    let capacity = rows * cols;
    let shown = if ships.len() > capacity {
        capacity - 1
    } else {
        ships.len()
    };
    let colour = player_colour(view, own.seat);
    for (k, s) in ships.iter().take(shown).enumerate() {
        let (c, r) = (k / rows, k % rows);
        let sx = x + c as f32 * (col_w + 12.0);
        let sy = y + r as f32 * line_h;
        let t = if one_col {
            format!(
                "{} {} · {}{}",
                s.id,
                s.class.name(),
                space_name(view, s.at),
                if s.dark { " · dark" } else { "" }
            )
        } else {
            format!(
                "{} {} {}{}",
                s.id,
                s.class.name(),
                space_name(view, s.at),
                if s.dark { " ◌" } else { "" }
            )
        };
        let (t, size) = fit_text(&t, 18.0, 14.0, col_w, false);
        sc.text(txt(sx, sy, t, size, if s.dark { DIM } else { colour }));
    }
    if shown < ships.len() {
        let k = shown;
        let (c, r) = (k / rows, k % rows);
        let sx = x + c as f32 * (col_w + 12.0);
        sc.text(txt(
            sx,
            y + r as f32 * line_h,
            format!("… and {} more", ships.len() - shown),
            18.0,
            DIM,
        ));
    }
}

#[cfg(test)]
mod tests;
