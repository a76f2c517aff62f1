//! The board picture (1600 x 1200), built from a view only, every text at
//! least [`MIN_TEXT`] px (9 px once Discord shows it 550 px wide).
//!
//! Left, top: the hex map (pointy-top, laid out with
//! `engine::hex::Layout`, cropped to the planets and hyperlanes): planets with their name, production (white
//! box), stars and science, hyperlanes as bright purple links (the lane's
//! hex tinted purple; no word on it), forces as counters in player
//! colours, exhausted planets greyed with a red cross. Left, under the
//! map: the players (VP, stars, science, the scoring token, their techs,
//! "used" after an exhausted one), the map shrinking when these need more
//! lines. Right: the side panel: turn, the tech market and the universal
//! techs with their whole texts.

use super::view::{PlanetView, View};
use orrery_engine::hex::{Hex, Layout, Orientation};
use orrery_engine::{Outcome, PhaseInfo, Seat};
use orrery_render::{measure_text, Anchor, Color, Item, Scene, Stroke, Text};

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
pub use crate::shared::draw::PLAYER_COLORS;

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

/// The smallest text drawn: 9 px once Discord shows the board 550 px wide.
pub const MIN_TEXT: f32 = 27.0;
/// A line of body text.
const LINE: f32 = 31.0;

/// The map's area: left, top, width, height (the players' rows below it).
fn map_area(view: &View, names: &[String]) -> (f32, f32, f32, f32) {
    let strip = players_height(view, names);
    (0.0, 0.0, PANEL_X, HEIGHT as f32 - strip)
}

/// The map cropped to its planets and hyperlanes (the empty rim of the
/// hexagon left out), as large as the map's area allows.
pub fn layout(view: &View, names: &[String]) -> Layout {
    let (x, y, w, h) = map_area(view, names);
    let mut hexes: Vec<Hex> = view.planets.iter().map(|p| Hex::new(p.q, p.r)).collect();
    hexes.extend(view.lanes.iter().map(|l| l.hex));
    if hexes.is_empty() {
        hexes = Hex::spiral(view.radius.max(1));
    }
    let unit = Layout::new(Orientation::Pointy, 1.0, (0.0, 0.0));
    let (x0, y0, x1, y1) = unit.bounds(&hexes);
    let size = ((w - 24.0) / (x1 - x0)).min((h - 16.0) / (y1 - y0));
    let origin = (
        x + w / 2.0 - size * (x0 + x1) / 2.0,
        y + h / 2.0 - size * (y0 + y1) / 2.0,
    );
    Layout::new(Orientation::Pointy, size, origin)
}

pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    let lay = layout(view, names);
    // Empty space hexes, those wholly inside the map's area.
    let (mx, my, mw, mh) = map_area(view, names);
    for h in Hex::spiral(view.radius) {
        let inside = lay
            .corners(h)
            .iter()
            .all(|(x, y)| *x >= mx && *x <= mx + mw && *y >= my && *y <= my + mh);
        if !inside {
            continue;
        }
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
    }
    // Every planet's hex first, then their marks, so no hex covers a
    // neighbour's long name.
    for p in &view.planets {
        planet_hex(&mut sc, &lay, p);
    }
    for p in &view.planets {
        planet(&mut sc, &lay, p);
    }
    players(&mut sc, view, names);
    panel(&mut sc, view, names);
    sc
}

/// A planet's hex, ringed in the owner's colour on a home planet.
fn planet_hex(sc: &mut Scene, lay: &Layout, p: &PlanetView) {
    let h = Hex::new(p.q, p.r);
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
}

/// A planet's name, production, stars, science, forces and exhausted mark.
fn planet(sc: &mut Scene, lay: &Layout, p: &PlanetView) {
    let size = lay.size.0;
    let (cx, cy) = lay.hex_to_pixel(Hex::new(p.q, p.r));
    // Name on top, bold where it fits the hex, else regular.
    let bold = measure_text(&p.name, MIN_TEXT, true).0 <= size * 1.6;
    let ns = fit(&p.name, 30.0f32.max(size * 0.3), MIN_TEXT, size * 1.6, bold);
    let mut name = t(cx, cy - size * 0.5, p.name.clone(), ns, TEXT).anchor(Anchor::Center);
    if bold {
        name = name.bold();
    }
    sc.text(name);
    // Production value in a box on the left.
    let bx = cx - size * 0.6;
    let by = cy - size * 0.02;
    sc.push(Item::Rect {
        x: bx - 15.0,
        y: by - 16.0,
        w: 30.0,
        h: 32.0,
        radius: 5.0,
        fill: Some(Color::rgb(230, 230, 235)),
        stroke: None,
    });
    sc.text(
        Text::new(bx, by, p.production.to_string(), 28.0, Color::rgb(20, 20, 30))
            .bold()
            .anchor(Anchor::Center),
    );
    // Stars and science symbols, one glyph each.
    let sym: String = "★".repeat(p.stars as usize);
    let sci: String = "⚛".repeat(p.science as usize);
    if !sym.is_empty() {
        sc.text(t(cx - size * 0.02, cy - size * 0.02, sym, 30.0, STAR).anchor(Anchor::Center));
    }
    if !sci.is_empty() {
        sc.text(t(cx + size * 0.52, cy - size * 0.02, sci, 30.0, SCIENCE).anchor(Anchor::Center));
    }
    // Forces counter.
    if let Some(holder) = p.holder {
        let (fx, fy) = (cx, cy + size * 0.5);
        let r = 19.0f32.max(size * 0.24);
        sc.circle(fx, fy, r, Some(color(holder)), Some(Stroke::new(HALO, 2.5)));
        sc.text(
            Text::new(fx, fy, p.forces.to_string(), (r * 1.3).max(MIN_TEXT), Color::BLACK)
                .bold()
                .anchor(Anchor::Center),
        );
    }
    if p.exhausted {
        let (ex, ey) = (cx + size * 0.55, cy + size * 0.45);
        sc.circle(
            ex,
            ey,
            14.0,
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

/// The players' rows under the map: left, width.
const PLAYERS_X: f32 = 12.0;
const PLAYERS_W: f32 = PANEL_X - 24.0;

/// A player's techs, "used" after an exhausted one, in lines.
fn tech_lines(s: &super::view::SeatView) -> Vec<String> {
    if s.techs.is_empty() {
        return Vec::new();
    }
    let owned: Vec<String> = s
        .techs
        .iter()
        .map(|tname| {
            if s.exhausted_techs.contains(tname) {
                format!("{tname} (used)")
            } else {
                tname.clone()
            }
        })
        .collect();
    crate::shared::draw::wrap(&owned.join(" · "), MIN_TEXT, PLAYERS_W - 40.0, false)
}

/// The height of the players' rows: a line each, and their techs' lines.
fn players_height(view: &View, _names: &[String]) -> f32 {
    let lines: usize = view.seats.iter().map(|s| 1 + tech_lines(s).len()).sum();
    lines as f32 * LINE + 24.0
}

/// The players under the map: name (the scoring token as ◆), VP, stars
/// and science, then the techs they own.
fn players(sc: &mut Scene, view: &View, names: &[String]) {
    let h = players_height(view, names);
    let top = HEIGHT as f32 - h;
    sc.push(Item::Rect {
        x: PLAYERS_X,
        y: top,
        w: PLAYERS_W,
        h: h - 12.0,
        radius: 10.0,
        fill: Some(PANEL),
        stroke: None,
    });
    let x = PLAYERS_X + 12.0;
    let mut y = top + 4.0;
    for s in &view.seats {
        let c = color(s.seat);
        sc.circle(x + 10.0, y + LINE / 2.0, 10.0, Some(c), Some(Stroke::new(HALO, 2.0)));
        let mut n = name_of(names, s.seat);
        if s.resigned {
            n.push_str(" · resigned");
        }
        if view.token == s.seat {
            n.push_str(" ◆ token");
        }
        sc.text(t(x + 28.0, y, n, 28.0, c).bold());
        sc.text(
            t(
                PLAYERS_X + PLAYERS_W - 14.0,
                y,
                format!("{} VP · {} ★ · {} ⚛", s.vp, s.stars, s.science),
                28.0,
                TEXT,
            )
            .bold()
            .anchor(Anchor::TopRight),
        );
        y += LINE;
        for l in tech_lines(s) {
            sc.text(t(x + 28.0, y, l, MIN_TEXT, DIM));
            y += LINE;
        }
    }
}

/// Tech descriptions in the side panel: the largest size from
/// `TECH_TEXT_MAX` down to `TECH_TEXT_MIN` at which the whole panel fits,
/// wrapped on at most three lines: at least 9 px high in Discord's ~550 px
/// wide preview of the 1600 px board.
pub const TECH_TEXT_MAX: f32 = 28.0;
pub const TECH_TEXT_MIN: f32 = MIN_TEXT;
/// The panel's inner box: left, top, width, bottom.
pub const PANEL_BOX: (f32, f32, f32, f32) = (PANEL_X, 12.0, WIDTH as f32 - PANEL_X - 12.0, HEIGHT as f32 - 12.0);

fn panel(sc: &mut Scene, view: &View, names: &[String]) {
    let (x0, top, w, bottom) = PANEL_BOX;
    sc.push(Item::Rect {
        x: x0,
        y: top,
        w,
        h: bottom - top,
        radius: 10.0,
        fill: Some(PANEL),
        stroke: None,
    });
    // The largest description size that fits (whole pixels).
    let mut size = TECH_TEXT_MAX;
    let mut items = panel_items(view, names, size);
    while items.1 > bottom - 8.0 && size > TECH_TEXT_MIN {
        size -= 1.0;
        items = panel_items(view, names, size);
    }
    for item in items.0 {
        sc.push(item);
    }
}

/// The panel's contents with tech descriptions at `tech_size`, and the y
/// where they end.
fn panel_items(view: &View, names: &[String], tech_size: f32) -> (Vec<Item>, f32) {
    let mut out: Vec<Item> = Vec::new();
    let mut text = |t: Text| out.push(Item::Text(t));
    let (x0, _, w, _) = PANEL_BOX;
    let x = x0 + 14.0;
    let inner = w - 28.0;
    let mut y = 22.0;
    text(t(x, y, "STARLANES", 34.0, TEXT).bold());
    y += 44.0;
    let status = match &view.outcome {
        Some(Outcome::Winner { seat, .. }) => format!("{} wins!", name_of(names, *seat)),
        Some(Outcome::Shared { .. }) => "Shared victory".to_string(),
        Some(Outcome::AllLose { .. }) => "Everyone loses".to_string(),
        None => {
            // The phase title, with the (shortened) names.
            let short: Vec<String> = (0..view.seats.len()).map(|i| name_of(names, Seat(i as u8))).collect();
            let (label, turn) = super::phase_label(false, view.players == 0, view.round, view.active);
            PhaseInfo { number: 0, label, turn }.title(&short)
        }
    };
    let scol = if view.outcome.is_some() {
        STAR
    } else {
        color(view.active)
    };
    for l in crate::shared::draw::wrap(&status, 28.0, inner, true) {
        text(t(x, y, l, 28.0, scol).bold());
        y += LINE + 2.0;
    }
    if view.outcome.is_none() {
        let step = if view.action_taken {
            "Action taken"
        } else {
            "Action available"
        };
        let buy = if view.may_buy { " · may buy a tech" } else { "" };
        let line = format!("{step}{buy} · {} rounds · first to 6 VP", view.rounds);
        for l in crate::shared::draw::wrap(&line, MIN_TEXT, inner, false) {
            text(t(x, y, l, MIN_TEXT, DIM));
            y += LINE;
        }
    }
    let mut shapes: Vec<Item> = Vec::new();
    y += 10.0;
    text(t(x, y, format!("TECH MARKET · deck {}", view.deck_size), 28.0, TEXT).bold());
    y += 38.0;
    for (i, slot) in view.market.iter().enumerate() {
        let cost = SLOT_COSTS[i];
        let tech = slot.as_ref().map(|t| (t.name.as_str(), t.text.as_str()));
        y = tech_row(&mut text, &mut shapes, (x, y, inner), cost, tech, tech_size);
    }
    y += 6.0;
    text(t(x, y, "UNIVERSAL · 2 science", 28.0, TEXT).bold());
    y += 38.0;
    for u in &view.universal {
        let tech = Some((u.name.as_str(), u.text.as_str()));
        y = tech_row(&mut text, &mut shapes, (x, y, inner), u.cost, tech, tech_size);
    }
    // Shapes first, so text stays on top.
    shapes.append(&mut out);
    (shapes, y)
}

const SLOT_COSTS: [u32; 3] = [3, 2, 1];

/// One tech: its cost in a disc, its name, and its whole text wrapped at
/// `size`, never smaller. `(x, y, w)`: where the row goes. Returns the y
/// below it.
fn tech_row(
    text: &mut impl FnMut(Text),
    shapes: &mut Vec<Item>,
    (x, y, w): (f32, f32, f32),
    cost: u32,
    tech: Option<(&str, &str)>,
    size: f32,
) -> f32 {
    shapes.push(Item::Rect {
        x,
        y: y + 1.0,
        w: 34.0,
        h: 34.0,
        radius: 17.0,
        fill: Some(SCIENCE),
        stroke: None,
    });
    text(
        Text::new(x + 17.0, y + 18.0, cost.to_string(), 28.0, Color::rgb(10, 20, 40))
            .bold()
            .anchor(Anchor::Center),
    );
    let Some((name, desc)) = tech else {
        text(t(x + 44.0, y + 2.0, "(empty)", MIN_TEXT, DIM));
        return y + 44.0;
    };
    // The name no smaller than its description.
    let name_size = size.max(28.0);
    text(t(x + 44.0, y + 1.0, name, name_size, TEXT).bold());
    let width = w - 44.0;
    let lines = crate::shared::draw::wrap_words(desc, size, width, false);
    let mut ly = y + 4.0 + name_size * 1.15;
    for l in lines {
        text(t(x + 44.0, ly, l, size, DIM));
        ly += size * 1.17;
    }
    ly + 8.0
}
