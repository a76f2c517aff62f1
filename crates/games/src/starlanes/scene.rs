//! The board picture (1600 x 1200), built from a view only.
//!
//! Left: the hex map (pointy-top, laid out with `engine::hex::Layout`):
//! planets with production, stars and science, hyperlanes as bright links,
//! forces as counters in player colours, exhausted planets greyed with a
//! marker. Right: the side panel: turn, players (VP, stars, science,
//! techs, scoring token), the tech market and the universal techs.

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

/// Tech descriptions in the side panel: the largest size from
/// `TECH_TEXT_MAX` down to `TECH_TEXT_MIN` at which the whole panel fits,
/// wrapped on at most two lines: about 9 px high in Discord's ~550 px wide
/// preview of the 1600 px board, and 7 px at the minimum (only for very
/// crowded panels), like the rest of the panel's body text.
pub const TECH_TEXT_MAX: f32 = 26.0;
pub const TECH_TEXT_MIN: f32 = 20.0;
/// Lists of owned techs under each player.
const OWNED_TEXT: f32 = 20.0;
/// The panel's inner box: left, top, width, bottom.
pub const PANEL_BOX: (f32, f32, f32, f32) = (PANEL_X, 12.0, WIDTH as f32 - PANEL_X - 16.0, HEIGHT as f32 - 12.0);

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
    let x = x0 + 16.0;
    let mut y = 24.0;
    text(t(x, y, "STARLANES", 30.0, TEXT).bold());
    y += 40.0;
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
    let ssz = fit(&status, 24.0, 18.0, w - 32.0, true);
    let scol = if view.outcome.is_some() {
        STAR
    } else {
        color(view.active)
    };
    text(t(x, y, status, ssz, scol).bold());
    y += 36.0;
    if view.outcome.is_none() {
        let step = if view.action_taken {
            "Action taken"
        } else {
            "Action available"
        };
        let buy = if view.may_buy { " · may buy a tech" } else { "" };
        let limit = format!(" · {} rounds", view.rounds);
        text(t(x, y, format!("{step}{buy}{limit}"), 20.0, DIM));
        y += 30.0;
    }
    // Players.
    text(t(x, y, "VP   ★   ⚛   (first to 6 VP)", 20.0, DIM));
    y += 28.0;
    let mut shapes: Vec<Item> = Vec::new();
    for s in &view.seats {
        let c = color(s.seat);
        shapes.push(Item::Circle {
            cx: x + 10.0,
            cy: y + 13.0,
            r: 10.0,
            fill: Some(c),
            stroke: Some(Stroke::new(HALO, 2.0)),
        });
        let mut n = name_of(names, s.seat);
        if view.token == s.seat {
            n.push_str("  ◆token");
        }
        text(t(x + 28.0, y, n, 21.0, c).bold());
        text(
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
            let owned: Vec<String> = s
                .techs
                .iter()
                .map(|tname| {
                    if s.exhausted_techs.contains(tname) {
                        format!("{tname}(x),")
                    } else {
                        format!("{tname},")
                    }
                })
                .collect();
            let mut all = owned.join(" ");
            all.pop(); // the last comma
            for l in crate::shared::draw::wrap_words(&all, OWNED_TEXT, w - 50.0, false) {
                text(t(x + 28.0, y, l, OWNED_TEXT, DIM));
                y += OWNED_TEXT + 5.0;
            }
        }
        y += 6.0;
    }
    y += 8.0;
    text(t(x, y, format!("TECH MARKET  (deck {})", view.deck_size), 22.0, TEXT).bold());
    y += 32.0;
    for (i, slot) in view.market.iter().enumerate() {
        let cost = SLOT_COSTS[i];
        let tech = slot.as_ref().map(|t| (t.name.as_str(), t.text.as_str()));
        y = tech_row(&mut text, &mut shapes, (x, y, w - 32.0), cost, tech, tech_size);
    }
    y += 6.0;
    text(t(x, y, "UNIVERSAL  (2 science, anyone)", 22.0, TEXT).bold());
    y += 32.0;
    for u in &view.universal {
        let tech = Some((u.name.as_str(), u.text.as_str()));
        y = tech_row(&mut text, &mut shapes, (x, y, w - 32.0), u.cost, tech, tech_size);
    }
    // Shapes first, so text stays on top.
    shapes.append(&mut out);
    (shapes, y)
}

const SLOT_COSTS: [u32; 3] = [3, 2, 1];

/// One tech: its cost in a disc, its name, and its text wrapped on at most
/// two lines at `size` (a text too long for that is fitted smaller; the
/// scene test checks that none of the deck's is).
/// `(x, y, w)`: where the row goes. Returns the y below it.
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
        y,
        w: 30.0,
        h: 30.0,
        radius: 15.0,
        fill: Some(SCIENCE),
        stroke: None,
    });
    text(
        Text::new(x + 15.0, y + 15.0, cost.to_string(), 20.0, Color::rgb(10, 20, 40))
            .bold()
            .anchor(Anchor::Center),
    );
    let Some((name, desc)) = tech else {
        text(t(x + 40.0, y + 4.0, "(empty)", 20.0, DIM));
        return y + 42.0;
    };
    // The name no smaller than its description.
    let name_size = size.max(22.0);
    text(t(x + 40.0, y + 2.0, name, name_size, TEXT).bold());
    let width = w - 40.0;
    let mut lines = crate::shared::draw::wrap_words(desc, size, width, false);
    if lines.len() > 2 {
        let rest = lines.split_off(1).join(" ");
        lines.push(rest);
    }
    let mut ly = y + 4.0 + name_size * 1.2;
    for l in lines {
        let sz = fit(&l, size, 12.0, width, false);
        text(t(x + 40.0, ly, l, sz, DIM));
        ly += size * 1.2;
    }
    ly + 8.0
}
