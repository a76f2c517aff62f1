//! The board picture (1600 x 1200), built from a view only, drawn to be
//! read in a chat column about 550 px wide: no text under 27 px.
//!
//! Left: the hex disc seen from above (pointy-top, 37 columns), its
//! planet's name across the top of each column. Every column is cut into
//! three level rows, 3 high at the top, 2 in the middle, 1 low at the
//! bottom; the planet sits at the left of its level's row as a disc filled
//! with its colour, its level written in it, ringed (over a dark gap) in
//! its owner's colour. In a seat's own board: the ships it sees as
//! counters per player in their space's row (the count written on them;
//! its dark ships hollow and dashed; a gray "+N" counter for the ships of
//! players that do not fit), the spaces its sensors reach shaded, its
//! charted jumps as arrows. Above the disc: the turn and section (left),
//! whose board it is (right). Round the disc: a key to the levels (top
//! left), the colour wheel with the viewer's income per colour (bottom
//! left), and what the counters, shading and arrows mean (bottom right).
//!
//! Right: the players (colour, name, planets, income, runs at 25+, out or
//! resigned), the alliances, the factions, the winner, then in a seat's own board
//! its points, its declaration and its ships (name, class, where; dark
//! ones listed apart), or on the public board the colour wheel with the
//! colours' names.
//!
//! Not drawn, because the text sent with the board has it: who is ready
//! (the phase post's "Waiting on" line) and why the war ended (the result
//! post).

use super::basics::{Colour, Space};
use super::state::Faction;
use super::view::View;
use crate::shared::draw::{fit_text, name_of, rounded, txt, wrap};
use orrery_engine::hex::{Hex, Layout, Orientation};
use orrery_engine::{Outcome, Seat};
use orrery_render::{measure_text, Anchor, Color, Item, Scene, Stroke, Text};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;
/// The smallest text drawn: 9 px once the board is shown 550 px wide.
pub const SMALL: f32 = 27.0;
/// Headings.
const BIG: f32 = 30.0;
const SQRT3: f32 = 1.732_050_8;
/// Centre-to-corner size of a column's hex.
const S: f32 = 94.0;
/// The strip above the disc (turn, whose board).
const TOP: f32 = 62.0;
/// The map's column: 0 to here; the side panel right of it.
const MAP_W: f32 = 8.0 + 7.0 * SQRT3 * S;
const ORIGIN: (f32, f32) = (4.0 + 3.5 * SQRT3 * S, TOP + 5.5 * S);
const PANEL_X: f32 = MAP_W + 4.0;

const BG: Color = Color::rgb(12, 14, 26);
const PANEL: Color = Color::rgb(26, 30, 46);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(170, 174, 192);
const HALO: Color = Color::rgb(0, 0, 0);
const GOLD: Color = Color::rgb(250, 214, 70);
const ALERT: Color = Color::rgb(235, 90, 80);
const SPACE_FILL: Color = Color::rgb(24, 28, 44);
const SENSED: Color = Color::rgb(34, 52, 74);
const HEX_EDGE: Color = Color::rgb(60, 68, 96);
const SLOT_EDGE: Color = Color::rgb(46, 52, 76);
const JUMP: Color = Color::rgb(110, 230, 250);
const INK: Color = Color::rgb(10, 10, 14);
/// The "+N" counter of players that do not fit.
const OTHERS: Color = Color::rgb(200, 200, 210);
/// The gap between a planet and its owner's ring.
const GAP: Color = Color::rgb(8, 8, 14);

/// A ship counter's size (an overflow "+N" counter of 10 or more is two
/// slots wide).
pub const COUNTER_W: f32 = 36.0;
pub const COUNTER_H: f32 = 33.0;
/// Between two discs or counters in a row.
const SLOT_GAP: f32 = 4.0;
const PITCH: f32 = COUNTER_W + SLOT_GAP;

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

/// The y of a level's row centre, from the column's centre.
fn level_dy(level: u8) -> f32 {
    match level {
        3 => -0.335 * S,
        2 => 0.035 * S,
        _ => 0.405 * S,
    }
}

/// A level's slot: its top and bottom, from the column's centre.
fn slot_band(level: u8) -> (f32, f32) {
    match level {
        3 => (-S, -0.15 * S),
        2 => (-0.15 * S, 0.22 * S),
        _ => (0.22 * S, S),
    }
}

/// How many discs and counters fit side by side in a level's row (the
/// low row is narrower, the hex closing in).
fn slots(level: u8) -> usize {
    if level == 1 {
        3
    } else {
        4
    }
}

/// The left edge of slot `k` of a level's row, from the column's centre.
fn slot_x(level: u8, k: usize) -> f32 {
    let n = slots(level) as f32;
    -(n * PITCH - SLOT_GAP) / 2.0 + k as f32 * PITCH
}

/// The planet's disc: in its row's first slot.
const DISC_R: f32 = 17.5;

fn disc_centre(lay: &Layout, sp: Space) -> (f32, f32) {
    let (cx, cy) = lay.hex_to_pixel(sp.col);
    (cx + slot_x(sp.level, 0) + COUNTER_W / 2.0, cy + level_dy(sp.level))
}

/// Where a space is drawn: its column's centre and its level's row.
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
    /// `None`: the "+N" counter of a row too full to show every player.
    pub owner: Option<Seat>,
    pub dark: bool,
    pub count: usize,
    /// Top-left corner.
    pub at: (f32, f32),
    /// [`COUNTER_W`], or two slots for a "+N" of 10 or more.
    pub w: f32,
}

/// The ship counters of the view, placed: per space, the viewer's own
/// ships first (so they always get their own counters), then the others
/// by seat, in the space's row after the planet's disc; a row too full
/// for everyone ends with a "+N" counter (two slots wide from 10 on).
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
        let first = usize::from(view.planets.iter().any(|p| p.space == sp));
        let room = slots(sp.level) - first;
        let (cx, cy) = lay.hex_to_pixel(sp.col);
        let y = cy + level_dy(sp.level) - COUNTER_H / 2.0;
        let x = |k: usize| cx + slot_x(sp.level, first + k);
        let shown = if here.len() <= room {
            here.len()
        } else {
            let rest = |n: usize| here[n..].iter().map(|g| g.3).sum::<usize>();
            if rest(room - 1) >= 10 {
                room - 2
            } else {
                room - 1
            }
        };
        for (k, g) in here.iter().take(shown).enumerate() {
            out.push(Counter {
                space: sp,
                owner: Some(g.1),
                dark: g.2,
                count: g.3,
                at: (x(k), y),
                w: COUNTER_W,
            });
        }
        if shown < here.len() {
            let count: usize = here[shown..].iter().map(|g| g.3).sum();
            out.push(Counter {
                space: sp,
                owner: None,
                dark: false,
                count,
                at: (x(shown), y),
                w: if count >= 10 {
                    2.0 * COUNTER_W + SLOT_GAP
                } else {
                    COUNTER_W
                },
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
        column(sc, &lay, h, |level| sensed.contains(&Space::new(h, level)));
    }
    // Charted jumps, under the planets and counters.
    if let Some(own) = &view.own {
        for (from, to) in &own.chart {
            arrow(sc, space_point(&lay, *from), space_point(&lay, *to));
        }
    }
    for p in &view.planets {
        let (cx, cy) = lay.hex_to_pixel(p.space.col);
        let (x, y) = disc_centre(&lay, p.space);
        match p.owner {
            Some(o) => {
                sc.circle(x, y, DISC_R + 7.0, Some(player_colour(view, o)), None);
                sc.circle(x, y, DISC_R + 3.0, Some(GAP), None);
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
            txt(x, y + 1.0, p.space.level.to_string(), SMALL, INK)
                .anchor(Anchor::Center)
                .bold(),
        );
        let (name, size) = fit_text(&p.name, SMALL, SMALL, 1.7 * S, true);
        texts.push(
            txt(cx, cy - 0.72 * S, name, size, TEXT)
                .anchor(Anchor::Center)
                .bold()
                .halo(HALO),
        );
    }
    for c in counters(view) {
        let (x, y) = c.at;
        let (fill, ink) = match c.owner {
            Some(o) if !c.dark => (player_colour(view, o), INK),
            Some(o) => (GAP, player_colour(view, o)),
            None => (OTHERS, INK),
        };
        sc.push(Item::Rect {
            x,
            y,
            w: c.w,
            h: COUNTER_H,
            radius: 5.0,
            fill: Some(fill),
            stroke: (!c.dark).then_some(Stroke::new(HALO, 2.0)),
        });
        if c.dark {
            let (x1, y1) = (x + c.w, y + COUNTER_H);
            sc.push(Item::Line {
                points: vec![(x, y), (x1, y), (x1, y1), (x, y1), (x, y)],
                stroke: Stroke::new(ink, 2.5),
                dashed: true,
            });
        }
        let label = match c.owner {
            Some(_) => c.count.to_string(),
            None => format!("+{}", c.count),
        };
        texts.push(
            txt(x + c.w / 2.0, y + COUNTER_H / 2.0 + 0.5, label, SMALL, ink)
                .anchor(Anchor::Center)
                .bold(),
        );
    }
}

/// A column's hex: its rows (shaded where `sensed`), their dashed borders
/// and its edge.
fn column(sc: &mut Scene, lay: &Layout, h: Hex, sensed: impl Fn(u8) -> bool) {
    let corners = lay.corners(h);
    let (cx, cy) = lay.hex_to_pixel(h);
    let s = lay.size.0;
    let k = s / S;
    sc.push(Item::Polygon {
        points: corners.to_vec(),
        fill: Some(SPACE_FILL),
        stroke: None,
    });
    for level in 1..=3u8 {
        if sensed(level) {
            let (a, b) = slot_band(level);
            sc.push(Item::Polygon {
                points: clip_y(&corners, cy + a * k, cy + b * k),
                fill: Some(SENSED),
                stroke: None,
            });
        }
    }
    for level in [3u8, 2] {
        let y = cy + slot_band(level).1 * k;
        let half = 0.866 * s;
        sc.push(Item::Line {
            points: vec![(cx - half + 3.0, y), (cx + half - 3.0, y)],
            stroke: Stroke::new(SLOT_EDGE, 2.0),
            dashed: true,
        });
    }
    sc.push(Item::Polygon {
        points: corners.to_vec(),
        fill: None,
        stroke: Some(Stroke::new(HEX_EDGE, 2.0)),
    });
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
    let base = (tip.0 - ux * 22.0, tip.1 - uy * 22.0);
    sc.line(vec![a, base], Stroke::new(HALO, 8.0));
    sc.push(Item::Line {
        points: vec![a, base],
        stroke: Stroke::new(JUMP, 4.0),
        dashed: true,
    });
    sc.circle(a.0, a.1, 7.0, Some(JUMP), Some(Stroke::new(HALO, 2.0)));
    sc.push(Item::Polygon {
        points: vec![
            tip,
            (base.0 - uy * 12.0, base.1 + ux * 12.0),
            (base.0 + uy * 12.0, base.1 - ux * 12.0),
        ],
        fill: Some(JUMP),
        stroke: Some(Stroke::new(HALO, 2.0)),
    });
}

/// Round the disc: the turn and whose board above it, the levels' key
/// (top left), the viewer's wheel (bottom left) and the map's key
/// (bottom right).
fn corners(sc: &mut Scene, texts: &mut Vec<Text>, view: &View, names: &[String]) {
    let turn = format!("Turn {} of {}", view.turn, view.turn_limit);
    texts.push(txt(14.0, 14.0, turn.clone(), BIG, TEXT).bold());
    let mut left = 14.0 + measure_text(&turn, BIG, true).0 + 16.0;
    let section = if view.outcome.is_some() {
        "the war is over".to_string()
    } else {
        view.section.name()
    };
    texts.push(txt(left, 17.0, section.clone(), SMALL, DIM));
    left += measure_text(&section, SMALL, false).0 + 24.0;
    let right = MAP_W - 12.0;
    match &view.own {
        Some(own) => {
            let who = name_of(names, own.seat);
            let (label, size) = fit_text(&format!("{who}'s board"), BIG, SMALL, right - left, true);
            texts.push(
                txt(right, 14.0, label, size, player_colour(view, own.seat))
                    .anchor(Anchor::TopRight)
                    .bold()
                    .halo(HALO),
            );
        }
        None => {
            let note = "ships are secret";
            texts.push(txt(right, 17.0, note, SMALL, DIM).anchor(Anchor::TopRight));
            let x = right - measure_text(note, SMALL, false).0 - 16.0;
            texts.push(txt(x, 14.0, "Public board", BIG, TEXT).anchor(Anchor::TopRight).bold());
        }
    }
    levels_key(sc, texts);
    if view.own.is_some() {
        texts.push(txt(8.0, 948.0, "Your income", SMALL, TEXT).bold());
        wheel(sc, texts, view, (118.0, 1086.0), 100.0);
        map_key(sc, texts);
    }
}

/// The colour wheel centred at `c`: the viewer's income per planet of
/// each colour, or (public) the colours' names.
fn wheel(sc: &mut Scene, texts: &mut Vec<Text>, view: &View, (cx, cy): (f32, f32), r: f32) {
    let mine = view
        .own
        .as_ref()
        .and_then(|o| view.players.get(o.seat.index()))
        .map(|p| p.colour);
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
        sc.push(Item::Polygon {
            points: pts,
            fill: Some(paint(*c)),
            stroke: Some(Stroke::new(BG, 3.0)),
        });
        let lr = r * 0.67;
        let (lx, ly) = (cx + lr * mid.cos(), cy + lr * mid.sin());
        let (label, size) = match mine {
            Some(m) => (c.income_for(m).to_string(), if m == *c { 34.0 } else { BIG }),
            None => (c.name().to_string(), SMALL),
        };
        texts.push(txt(lx, ly, label, size, INK).anchor(Anchor::Center).bold());
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
    let (centre, size) = match mine {
        Some(m) => (Colour::Gray.income_for(m).to_string(), BIG),
        None => ("gray".to_string(), SMALL),
    };
    texts.push(txt(cx, cy, centre, size, INK).anchor(Anchor::Center).bold());
}

/// The levels' key, top left: a column with its three rows named.
fn levels_key(sc: &mut Scene, texts: &mut Vec<Text>) {
    let (kx, ky, ks) = (92.0, 196.0, 92.0);
    let kl = Layout::new(Orientation::Pointy, ks, (kx, ky));
    column(sc, &kl, Hex::new(0, 0), |_| false);
    let scale = ks / S;
    for (level, word) in [(3u8, "3 high"), (2, "2 mid"), (1, "1 low")] {
        let y = ky + level_dy(level) * scale;
        texts.push(txt(kx, y, word, SMALL, TEXT).anchor(Anchor::Center).bold());
    }
    texts.push(
        txt(kx, ky - ks - 4.0, "Levels", SMALL, DIM)
            .anchor(Anchor::BottomCenter)
            .bold(),
    );
}

/// What a seat's board adds, bottom right: counters, dark counters,
/// sensors, jumps.
fn map_key(sc: &mut Scene, texts: &mut Vec<Text>) {
    let x = MAP_W - 246.0;
    let mut y = 1044.0;
    let row = |texts: &mut Vec<Text>, y: f32, what: &str| {
        texts.push(txt(x + 48.0, y, what, SMALL, DIM).anchor(Anchor::CenterLeft));
    };
    // A sample a little wider than a counter, so it is not taken for one.
    let (w, h) = (COUNTER_W + 4.0, COUNTER_H);
    sc.push(Item::Rect {
        x,
        y: y - h / 2.0,
        w,
        h,
        radius: 5.0,
        fill: Some(DIM),
        stroke: None,
    });
    row(texts, y, "ships");
    y += 38.0;
    let (x1, y0, y1) = (x + w, y - h / 2.0, y + h / 2.0);
    sc.push(Item::Line {
        points: vec![(x, y0), (x1, y0), (x1, y1), (x, y1), (x, y0)],
        stroke: Stroke::new(DIM, 2.5),
        dashed: true,
    });
    row(texts, y, "dark ships");
    y += 38.0;
    sc.rect(x, y - h / 2.0, w, h, Some(SENSED), Some(Stroke::new(HEX_EDGE, 1.0)));
    row(texts, y, "your sensors");
    y += 38.0;
    sc.line(vec![(x, y), (x + 22.0, y)], Stroke::new(JUMP, 4.0));
    sc.push(Item::Polygon {
        points: vec![(x + 38.0, y), (x + 20.0, y - 10.0), (x + 20.0, y + 10.0)],
        fill: Some(JUMP),
        stroke: None,
    });
    row(texts, y, "charted jumps");
}

// ---------------------------------------------------------------------------
// The side panel

const PANEL_TOP: f32 = 8.0;
const PANEL_BOTTOM: f32 = HEIGHT as f32 - 8.0;
/// A line of panel text.
const LINE: f32 = 36.0;

fn panel(sc: &mut Scene, view: &View, names: &[String]) {
    let x0 = PANEL_X;
    let w = WIDTH as f32 - PANEL_X - 8.0;
    rounded(
        sc,
        (x0, PANEL_TOP, w, PANEL_BOTTOM - PANEL_TOP),
        10.0,
        Some(PANEL),
        None,
    );
    let x = x0 + 16.0;
    let inner = w - 32.0;
    let right = x + inner;
    // The planets' column, centred under its heading, clear of "income".
    let income_w = measure_text("income", SMALL, false).0;
    let planets_half = measure_text("planets", SMALL, false).0 / 2.0;
    let col_planets = right - income_w - 12.0 - planets_half;
    let mut y = PANEL_TOP + 12.0;
    if let Some(o) = &view.outcome {
        y = outcome(sc, view, names, o, (x, y, inner));
    }
    sc.text(txt(x, y, "Players", SMALL, TEXT).bold());
    sc.text(txt(col_planets, y, "planets", SMALL, DIM).anchor(Anchor::TopCenter));
    sc.text(txt(right, y, "income", SMALL, DIM).anchor(Anchor::TopRight));
    y += LINE + 2.0;
    let me = view.own.as_ref().map(|o| o.seat);
    let name_w = col_planets - 24.0 - (x + 34.0);
    for (i, p) in view.players.iter().enumerate() {
        let seat = Seat(i as u8);
        let colour = paint(p.colour);
        let notes = if p.resigned {
            Some(("resigned: left the war".to_string(), ALERT))
        } else if p.out {
            Some(("out of the war".to_string(), ALERT))
        } else if p.run > 0 {
            Some((format!("25+ planets: {} of 3 turns", p.run), GOLD))
        } else {
            None
        };
        if me == Some(seat) {
            let h = if notes.is_some() { 2.0 * LINE } else { LINE };
            rounded(
                sc,
                (x - 8.0, y - 3.0, inner + 16.0, h),
                6.0,
                Some(Color::rgb(44, 50, 76)),
                None,
            );
        }
        sc.circle(x + 13.0, y + 15.0, 13.0, Some(colour), Some(Stroke::new(HALO, 2.0)));
        let (name, size) = fit_text(&name_of(names, seat), SMALL, SMALL, name_w, true);
        let ink = if p.out { DIM } else { TEXT };
        sc.text(txt(x + 34.0, y, name, size, ink).bold());
        sc.text(
            txt(col_planets, y, p.planets.to_string(), SMALL, ink)
                .anchor(Anchor::TopCenter)
                .bold(),
        );
        sc.text(
            txt(right, y, p.income.to_string(), SMALL, ink)
                .anchor(Anchor::TopRight)
                .bold(),
        );
        y += LINE;
        if let Some((note, c)) = notes {
            sc.text(txt(x + 34.0, y, note, SMALL, c));
            y += LINE;
        }
    }
    y += 10.0;
    // Alliances.
    let allies: Vec<String> = view
        .alliances
        .iter()
        .map(|(a, b)| format!("{} – {}", name_of(names, *a), name_of(names, *b)))
        .collect();
    sc.text(txt(x, y, "Alliances", SMALL, TEXT).bold());
    y += LINE;
    if allies.is_empty() {
        sc.text(txt(x, y, "none", SMALL, DIM));
        y += LINE;
    } else {
        for l in wrap_plain(&allies.join(" · "), inner) {
            sc.text(txt(x, y, l, SMALL, DIM));
            y += LINE;
        }
    }
    y += 10.0;
    sc.text(txt(x, y, "Factions", SMALL, TEXT).bold());
    y += LINE;
    if view.factions.is_empty() {
        sc.text(txt(x, y, "none", SMALL, DIM));
        y += LINE;
    }
    for f in &view.factions {
        for l in wrap_plain(&faction_text(f, names), inner) {
            sc.text(txt(x, y, l, SMALL, DIM));
            y += LINE;
        }
    }
    if view.own.is_some() {
        own_part(sc, view, names, (x, y + 10.0, inner));
    } else {
        // The public wheel, with the colours' names.
        y += 14.0;
        sc.text(txt(x, y, "Colour wheel", SMALL, TEXT).bold());
        y += LINE + 6.0;
        let r = ((PANEL_BOTTOM - 12.0 - y) / 2.0).min(inner / 2.0 - 10.0).min(170.0);
        if r > 60.0 {
            let mut texts = Vec::new();
            wheel(sc, &mut texts, view, (x + inner / 2.0, y + r), r);
            for t in texts {
                sc.text(t);
            }
        }
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

/// The outcome box at the panel's top (the winner; the result post says
/// why); returns the y below it.
fn outcome(sc: &mut Scene, view: &View, names: &[String], o: &Outcome, (x, y, w): (f32, f32, f32)) -> f32 {
    let head = match o {
        Outcome::Winner { seat, .. } => format!("{} wins!", name_of(names, *seat)),
        Outcome::Shared { seats, .. } => {
            let v: Vec<String> = seats.iter().map(|s| name_of(names, *s)).collect();
            format!("{} share the win", crate::shared::menu::and_list(&v))
        }
        Outcome::AllLose { .. } => "Nobody wins".to_string(),
    };
    let lines = wrap_any(&head, BIG, w - 10.0);
    let hgt = 12.0 + lines.len() as f32 * 40.0;
    let colour = o.winners().first().map_or(GOLD, |s| player_colour(view, *s));
    rounded(
        sc,
        (x - 8.0, y - 4.0, w + 16.0, hgt),
        8.0,
        Some(Color::rgb(48, 44, 30)),
        Some(Stroke::new(GOLD, 2.0)),
    );
    let mut ly = y + 4.0;
    for l in lines {
        sc.text(txt(x + 4.0, ly, l, BIG, colour).bold().halo(HALO));
        ly += 40.0;
    }
    y + hgt + 10.0
}

/// `s` in lines of bold `size` text no wider than `width`, cut between
/// words (a word too long for a line is cut short).
fn wrap_any(s: &str, size: f32, width: f32) -> Vec<String> {
    crate::shared::draw::wrap_words(s, size, width, true)
        .into_iter()
        .map(|l| fit_text(&l, size, size, width, true).0)
        .collect()
}

/// A seat's own part of the panel: points, declaration, ships.
fn own_part(sc: &mut Scene, view: &View, names: &[String], (x, mut y, w): (f32, f32, f32)) {
    let Some(own) = &view.own else {
        return;
    };
    sc.line(vec![(x, y), (x + w, y)], Stroke::new(HEX_EDGE, 2.0));
    y += 10.0;
    sc.text(txt(x, y, format!("Your points: {}", own.points), BIG, GOLD).bold());
    y += LINE + 4.0;
    if let Some(d) = &own.declared {
        let others: Vec<String> = d.members[1..].iter().map(|s| name_of(names, *s)).collect();
        let t = format!(
            "Declared: {} with {}",
            if d.empire { "empire" } else { "faction" },
            crate::shared::menu::and_list(&others)
        );
        for l in wrap_plain(&t, w) {
            sc.text(txt(x, y, l, SMALL, DIM));
            y += LINE;
        }
    }
    let mine: Vec<_> = view.ships.iter().filter(|s| s.owner == own.seat).collect();
    let seen = view.ships.len() - mine.len();
    let dark = mine.iter().filter(|s| s.dark).count();
    let mut head = format!("Your ships: {}", mine.len());
    if dark > 0 {
        head.push_str(&format!(" ({dark} dark)"));
    }
    sc.text(txt(x, y, head, SMALL, TEXT).bold());
    y += LINE;
    let mut info = vec![format!(
        "{} charted jump{}",
        own.chart.len(),
        if own.chart.len() == 1 { "" } else { "s" }
    )];
    if seen > 0 {
        info.push(format!("{seen} other ship{} seen", if seen == 1 { "" } else { "s" }));
    }
    for l in wrap(&info.join(" · "), SMALL, w, false) {
        sc.text(txt(x, y, l, SMALL, DIM));
        y += LINE;
    }
    // One ship a line, the dark ones after a "Dark:" line.
    let mut ships = mine;
    ships.sort_by_key(|s| (s.dark, s.at.col.q, s.at.col.r, s.at.level, s.id));
    let colour = player_colour(view, own.seat);
    let mut lines: Vec<(String, Color)> = Vec::new();
    for (k, s) in ships.iter().enumerate() {
        if s.dark && (k == 0 || !ships[k - 1].dark) {
            lines.push(("Dark:".to_string(), TEXT));
        }
        let t = format!("{} {} · {}", s.id, s.class.name(), space_name(view, s.at));
        lines.push((t, if s.dark { DIM } else { colour }));
    }
    let bottom = PANEL_BOTTOM - 6.0;
    let rows = ((bottom - y) / LINE).floor().max(0.0) as usize;
    let shown = if lines.len() > rows {
        rows.saturating_sub(1)
    } else {
        lines.len()
    };
    for (t, c) in lines.iter().take(shown) {
        let (t, size) = fit_text(t, SMALL, SMALL, w, false);
        sc.text(txt(x, y, t, size, *c));
        y += LINE;
    }
    if shown < lines.len() && rows > 0 {
        let left = ships.len() - lines[..shown].iter().filter(|(t, _)| t != "Dark:").count();
        sc.text(txt(x, y, format!("… and {left} more"), SMALL, DIM));
    }
}

/// `s` in lines of regular [`SMALL`] text no wider than `width`, cut
/// between words.
fn wrap_plain(s: &str, width: f32) -> Vec<String> {
    crate::shared::draw::wrap_words(s, SMALL, width, false)
        .into_iter()
        .map(|l| fit_text(&l, SMALL, SMALL, width, false).0)
        .collect()
}

#[cfg(test)]
mod tests;
