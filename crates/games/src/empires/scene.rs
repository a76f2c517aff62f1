//! The board picture (1600 × 1200), built from a view only (rules page,
//! *The board*).
//!
//! Left (1060 px): the hex map, flat-topped, sized to fill the column:
//! deep space dark, each home system tinted in its player's colour with
//! the homeworld ringed; face-down markers as tiles with a `?` (border in
//! the home player's colour, white in deep space); revealed terrain as
//! icons; colonies ringed in their owner's colour with their CP (a star
//! for a homeworld), yards as `SY×n`, a base as a shield; one chip per
//! player present with the number of counters (outlined white when any is
//! face up); the battle hex marked. Column letters along the top and
//! bottom, row numbers down the sides. Top left: the turn track
//! `1 · 2 · 3 · Econ`, the round, the player order.
//!
//! Right: the players in player order (homeworld, colonies, counters,
//! technology shown, last bid, ready), the battle's lines, the scores at
//! the end; in a seat's own board its CP, forecast, levels, yards,
//! standing orders and its counters by hex.

use super::basics::{Kind, Marker};
use super::map::{Area, Board};
use super::view::{CounterView, View};
use crate::shared::draw::{fit_text, name_of, rounded, txt};
use orrery_engine::hex::{Layout, Orientation};
use orrery_engine::{Hex, Outcome, Seat};
use orrery_render::{Anchor, Color, Item, Scene, Stroke};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;
const MAP_W: f32 = 1060.0;
const PANEL_X: f32 = MAP_W + 10.0;
/// Room above the map for the turn track, and round it for the names.
const TOP: f32 = 110.0;
const MARGIN: f32 = 34.0;

const BG: Color = Color::rgb(10, 12, 22);
const PANEL: Color = Color::rgb(26, 30, 46);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(160, 164, 182);
const HALO: Color = Color::rgb(0, 0, 0);
const DEEP: Color = Color::rgb(22, 26, 42);
const EDGE: Color = Color::rgb(58, 66, 94);
const GOLD: Color = Color::rgb(250, 214, 70);
const ALERT: Color = Color::rgb(235, 90, 80);

/// A player's colour (seat order: blue, red, green, yellow).
pub fn seat_colour(seat: Seat) -> Color {
    match seat.0 % 4 {
        0 => Color::rgb(80, 140, 240),
        1 => Color::rgb(230, 70, 70),
        2 => Color::rgb(80, 190, 100),
        _ => Color::rgb(235, 200, 60),
    }
}

fn tint(c: Color, k: f32) -> Color {
    let m = |x: u8, base: u8| (base as f32 + (x as f32 - base as f32) * k) as u8;
    Color::rgb(m(c.r, DEEP.r), m(c.g, DEEP.g), m(c.b, DEEP.b))
}

/// The layout that fits `board` into the map column under the turn track.
pub fn layout(board: &Board) -> Layout {
    let hexes: Vec<Hex> = board.hexes().collect();
    let unit = Layout::new(Orientation::Flat, 1.0, (0.0, 0.0));
    let (x0, y0, x1, y1) = unit.bounds(&hexes);
    let size = ((MAP_W - 2.0 * MARGIN) / (x1 - x0)).min((HEIGHT as f32 - TOP - 2.0 * MARGIN) / (y1 - y0));
    let ox = MAP_W / 2.0 - size * (x0 + x1) / 2.0;
    let oy = TOP + MARGIN + (HEIGHT as f32 - TOP - 2.0 * MARGIN) / 2.0 - size * (y0 + y1) / 2.0;
    Layout::new(Orientation::Flat, size, (ox, oy))
}

pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    let lay = layout(&view.board);
    map(&mut sc, view, &lay);
    track(&mut sc, view, names);
    panel(&mut sc, view, names);
    sc
}

fn hex_poly(sc: &mut Scene, lay: &Layout, h: Hex, fill: Option<Color>, stroke: Option<Stroke>) {
    sc.push(Item::Polygon {
        points: lay.corners(h).to_vec(),
        fill,
        stroke,
    });
}

fn map(sc: &mut Scene, view: &View, lay: &Layout) {
    let b = &view.board;
    let s = lay.size.0;
    for h in b.hexes() {
        let fill = match b.area(h) {
            Some(Area::Home(seat)) => tint(seat_colour(seat), 0.28),
            _ => DEEP,
        };
        hex_poly(sc, lay, h, Some(fill), Some(Stroke::new(EDGE, 1.5)));
    }
    // Column letters and row numbers.
    let hexes: Vec<Hex> = b.hexes().collect();
    let (x0, y0, x1, y1) = lay.bounds(&hexes);
    let mut cols: Vec<i32> = hexes.iter().map(|h| h.q).collect();
    cols.dedup();
    for q in cols {
        let top = hexes
            .iter()
            .filter(|h| h.q == q)
            .min_by_key(|h| Board::name_key(**h))
            .copied();
        if let Some(h) = top {
            let (cx, _) = lay.hex_to_pixel(h);
            let letter: String = b.name(h).chars().take(1).collect();
            sc.text(txt(cx, y0 - 4.0, letter.clone(), 18.0, DIM).anchor(Anchor::BottomCenter));
            sc.text(txt(cx, y1 + 4.0, letter, 18.0, DIM).anchor(Anchor::TopCenter));
        }
    }
    let mut rows: Vec<(String, f32)> = Vec::new();
    for h in &hexes {
        let name = b.name(*h);
        let row: String = name.chars().skip(1).collect();
        let (_, cy) = lay.hex_to_pixel(*h);
        if !rows.iter().any(|(r, _)| *r == row) {
            rows.push((row, cy));
        }
    }
    for (row, cy) in rows {
        sc.text(txt(x0 - 6.0, cy, row.clone(), 16.0, DIM).anchor(Anchor::CenterRight));
        sc.text(txt(x1 + 6.0, cy, row, 16.0, DIM).anchor(Anchor::CenterLeft));
    }
    // Markers.
    for p in &view.spots {
        let (cx, cy) = lay.hex_to_pixel(p.hex);
        match (p.marker, p.peeked) {
            (Some(m), _) => terrain(sc, lay, p.hex, m, false),
            (None, Some(m)) => {
                terrain(sc, lay, p.hex, m, true);
                // The eye of a peek.
                sc.push(Item::Circle {
                    cx: cx + 0.45 * s,
                    cy: cy - 0.5 * s,
                    r: 0.14 * s,
                    fill: Some(Color::WHITE),
                    stroke: Some(Stroke::new(Color::BLACK, 1.5)),
                });
            }
            (None, None) => {
                let border = p.home.map_or(Color::WHITE, seat_colour);
                let w = 0.5 * s;
                let cy = cy - 0.18 * s;
                rounded(
                    sc,
                    (cx - w / 2.0, cy - w / 2.0, w, w),
                    4.0,
                    Some(Color::rgb(44, 48, 66)),
                    Some(Stroke::new(border, 2.5)),
                );
                sc.text(txt(cx, cy, "?", 0.42 * s, DIM).anchor(Anchor::Center).bold());
            }
        }
    }
    // Homeworld rings.
    for seat in view.order.iter().copied() {
        let h = b.homeworld(seat);
        sc.push(Item::Polygon {
            points: lay.corners(h).to_vec(),
            fill: None,
            stroke: Some(Stroke::new(seat_colour(seat), 4.0)),
        });
    }
    // Colonies.
    for c in &view.colonies {
        let (cx, cy) = lay.hex_to_pixel(c.hex);
        let col = seat_colour(c.owner);
        if c.is_home() {
            star(sc, cx, cy - 0.18 * s, 0.4 * s, col);
            sc.text(
                txt(cx, cy - 0.16 * s, c.worth.cp().to_string(), 0.3 * s, Color::BLACK)
                    .anchor(Anchor::Center)
                    .bold(),
            );
        } else {
            sc.push(Item::Circle {
                cx,
                cy: cy - 0.2 * s,
                r: 0.28 * s,
                fill: Some(if c.barren {
                    Color::rgb(140, 140, 150)
                } else {
                    Color::rgb(70, 120, 220)
                }),
                stroke: Some(Stroke::new(col, 4.0)),
            });
            let label = match c.worth {
                super::basics::Worth::New => "new".to_string(),
                w => w.cp().to_string(),
            };
            sc.text(
                txt(cx, cy - 0.2 * s, label, 0.28 * s, TEXT)
                    .anchor(Anchor::Center)
                    .bold()
                    .halo(HALO),
            );
        }
        let mut under = Vec::new();
        if c.yards > 0 {
            under.push(format!("SY×{}", c.yards));
        }
        if c.base {
            under.push("Base".to_string());
        }
        if !under.is_empty() {
            sc.text(
                txt(cx, cy - 0.66 * s, under.join(" "), 0.22 * s, TEXT)
                    .anchor(Anchor::Center)
                    .bold()
                    .halo(HALO),
            );
        }
    }
    // Counters: one chip per player per hex.
    let mut stacks: Vec<(Hex, Seat, Vec<&CounterView>)> = Vec::new();
    for c in &view.counters {
        match stacks.iter_mut().find(|(h, o, _)| *h == c.hex && *o == c.label.owner) {
            Some(slot) => slot.2.push(c),
            None => stacks.push((c.hex, c.label.owner, vec![c])),
        }
    }
    for (h, owner, cs) in &stacks {
        let (cx, cy) = lay.hex_to_pixel(*h);
        let players_here: Vec<Seat> = {
            let mut v: Vec<Seat> = stacks.iter().filter(|(x, _, _)| x == h).map(|(_, o, _)| *o).collect();
            v.sort();
            v
        };
        let slot = players_here.iter().position(|o| o == owner).unwrap_or(0) as f32;
        let w = 0.44 * s;
        let all = players_here.len() as f32;
        let x = cx - (all * w + (all - 1.0) * 3.0) / 2.0 + slot * (w + 3.0);
        let y = cy + 0.2 * s;
        let face_up = cs.iter().any(|c| c.face_up && !c.kind.is_some_and(Kind::slow));
        rounded(
            sc,
            (x, y, w, 0.4 * s),
            3.0,
            Some(seat_colour(*owner)),
            Some(Stroke::new(if face_up { Color::WHITE } else { Color::BLACK }, 2.0)),
        );
        sc.text(
            txt(x + w / 2.0, y + 0.2 * s, cs.len().to_string(), 0.3 * s, Color::BLACK)
                .anchor(Anchor::Center)
                .bold(),
        );
        if cs.iter().any(|c| c.tow.is_some()) {
            sc.push(Item::Circle {
                cx: x + w,
                cy: y,
                r: 0.08 * s,
                fill: Some(GOLD),
                stroke: None,
            });
        }
    }
    if let Some(bt) = &view.battle {
        let (cx, cy) = lay.hex_to_pixel(bt.hex());
        sc.push(Item::Circle {
            cx,
            cy,
            r: 0.85 * s,
            fill: None,
            stroke: Some(Stroke::new(ALERT, 5.0)),
        });
    }
}

/// A five-pointed star.
fn star(sc: &mut Scene, cx: f32, cy: f32, r: f32, fill: Color) {
    let points = (0..10)
        .map(|i| {
            let a = std::f32::consts::PI * (i as f32) / 5.0 - std::f32::consts::FRAC_PI_2;
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    sc.push(Item::Polygon {
        points,
        fill: Some(fill),
        stroke: Some(Stroke::new(Color::BLACK, 1.5)),
    });
}

/// A revealed marker's icon (`dim`: a peek, seen only by the viewer).
fn terrain(sc: &mut Scene, lay: &Layout, h: Hex, m: Marker, dim: bool) {
    let (cx, cy) = lay.hex_to_pixel(h);
    let s = lay.size.0;
    let k = |c: Color| if dim { tint(c, 0.5) } else { c };
    match m {
        Marker::Planet => sc.push(Item::Circle {
            cx,
            cy: cy - 0.2 * s,
            r: 0.28 * s,
            fill: Some(k(Color::rgb(70, 120, 220))),
            stroke: None,
        }),
        Marker::Barren => {
            sc.push(Item::Circle {
                cx,
                cy: cy - 0.2 * s,
                r: 0.28 * s,
                fill: Some(k(Color::rgb(140, 140, 150))),
                stroke: None,
            });
            for (dx, dy, r) in [(-0.1, -0.28, 0.07), (0.1, -0.12, 0.05)] {
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
            let r = 0.2 * s;
            let (cx, cy) = (cx - 0.12 * s, cy - 0.2 * s);
            sc.push(Item::Polygon {
                points: vec![(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                fill: Some(k(Color::rgb(90, 220, 200))),
                stroke: Some(Stroke::new(Color::BLACK, 1.0)),
            });
            sc.text(
                txt(cx + 0.26 * s, cy, v.to_string(), 0.28 * s, k(TEXT))
                    .anchor(Anchor::CenterLeft)
                    .bold()
                    .halo(HALO),
            );
        }
        Marker::SpaceWreck => {
            sc.push(Item::Polygon {
                points: vec![
                    (cx - 0.3 * s, cy - 0.15 * s),
                    (cx - 0.05 * s, cy - 0.4 * s),
                    (cx + 0.05 * s, cy - 0.2 * s),
                    (cx + 0.3 * s, cy - 0.35 * s),
                    (cx + 0.15 * s, cy - 0.03 * s),
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
                (-0.32, -0.3, 0.09),
                (0.0, -0.5, 0.07),
                (0.3, -0.28, 0.1),
                (-0.1, -0.05, 0.08),
                (0.22, 0.0, 0.06),
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
            cy: cy - 0.18 * s,
            r: 0.28 * s,
            fill: Some(Color::BLACK),
            stroke: Some(Stroke::new(k(Color::rgb(255, 160, 60)), 3.0)),
        }),
        Marker::SuperNova => {
            sc.push(Item::Polygon {
                points: lay.corners(h).to_vec(),
                fill: Some(k(Color::rgb(250, 230, 150))),
                stroke: None,
            });
            star(sc, cx, cy - 0.15 * s, 0.36 * s, k(Color::rgb(255, 255, 255)));
        }
        Marker::Danger | Marker::LostInSpace => {
            let label = if m == Marker::Danger { "!" } else { "LiS" };
            sc.text(
                txt(cx, cy - 0.18 * s, label, 0.36 * s, k(ALERT))
                    .anchor(Anchor::Center)
                    .bold()
                    .halo(HALO),
            );
        }
    }
}

/// The turn track, the round and the player order (top left).
fn track(sc: &mut Scene, view: &View, names: &[String]) {
    let boxes = ["1", "2", "3", "Econ"];
    let lit = if view.economic {
        3
    } else {
        (view.turn.clamp(1, 3) - 1) as usize
    };
    let mut x = 16.0;
    for (i, label) in boxes.iter().enumerate() {
        let w = if i == 3 { 74.0 } else { 40.0 };
        let on = i == lit && view.outcome.is_none();
        rounded(
            sc,
            (x, 14.0, w, 36.0),
            6.0,
            Some(if on { GOLD } else { PANEL }),
            Some(Stroke::new(EDGE, 1.5)),
        );
        sc.text(
            txt(x + w / 2.0, 32.0, *label, 22.0, if on { Color::BLACK } else { DIM })
                .anchor(Anchor::Center)
                .bold(),
        );
        x += w + 6.0;
    }
    sc.text(
        txt(
            x + 12.0,
            32.0,
            format!("Round {} of {}", view.round, view.rounds),
            24.0,
            TEXT,
        )
        .anchor(Anchor::CenterLeft)
        .bold(),
    );
    let mut x = 16.0;
    let y = 74.0;
    for (i, seat) in view.order.iter().enumerate() {
        let mut n = name_of(names, *seat);
        if view.active == Some(*seat) {
            n = format!("> {n}");
        }
        if let Some(p) = view.players.iter().find(|p| p.seat == *seat) {
            if p.ready == Some(true) {
                n.push_str(" ✓");
            }
        }
        if i > 0 {
            sc.text(txt(x, y, "·", 22.0, DIM).anchor(Anchor::CenterLeft));
            x += 16.0;
        }
        let (t, size) = fit_text(&n, 22.0, 14.0, 230.0, true);
        let w = orrery_render::measure_text(&t, size, true).0;
        sc.text(txt(x, y, t, size, seat_colour(*seat)).anchor(Anchor::CenterLeft).bold());
        x += w + 10.0;
    }
}

fn panel(sc: &mut Scene, view: &View, names: &[String]) {
    rounded(
        sc,
        (PANEL_X, 10.0, WIDTH as f32 - PANEL_X - 10.0, HEIGHT as f32 - 20.0),
        10.0,
        Some(PANEL),
        None,
    );
    let x = PANEL_X + 16.0;
    let width = WIDTH as f32 - x - 24.0;
    let mut y = 24.0;
    let title = match view.viewer.seat() {
        Some(seat) => format!("{}'s board", name_of(names, seat)),
        None => "Public board".to_string(),
    };
    let (t, size) = fit_text(&title, 26.0, 16.0, width, true);
    sc.text(txt(x, y, t, size, TEXT).bold());
    y += 34.0;
    sc.text(txt(x, y, view.phase.clone(), 18.0, DIM));
    y += 32.0;
    for p in view
        .order
        .iter()
        .filter_map(|s| view.players.iter().find(|p| p.seat == *s))
    {
        let (t, size) = fit_text(&name_of(names, p.seat), 22.0, 14.0, width, true);
        sc.text(txt(x, y, t, size, seat_colour(p.seat)).bold());
        y += 26.0;
        let mut line = match p.homeworld {
            Some(cp) => format!("home {cp}"),
            None => "no homeworld".into(),
        };
        line.push_str(&format!(
            " · colonies {} ({} CP) · counters {}",
            p.colonies, p.colony_cp, p.counters
        ));
        sc.text(txt(x + 8.0, y, line, 17.0, TEXT));
        y += 22.0;
        let shown: Vec<String> = ["Att", "Def", "Tac", "Move"]
            .iter()
            .zip(p.shown)
            .filter(|(_, v)| *v > 0)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let mut line = if shown.is_empty() {
            "no technology shown".to_string()
        } else {
            format!("shown: {}", shown.join(", "))
        };
        if let Some(b) = p.last_bid {
            line.push_str(&format!(" · last bid {b}"));
        }
        match p.ready {
            Some(true) => line.push_str(" · ✓ ready"),
            Some(false) => line.push_str(" · writing…"),
            None => {}
        }
        sc.text(txt(x + 8.0, y, line, 17.0, DIM));
        y += 30.0;
    }
    if let Some(b) = &view.battle {
        sc.text(txt(x, y, format!("Battle, firing round {}", b.round().max(1)), 20.0, ALERT).bold());
        y += 26.0;
        for f in b.fighters().iter().filter(|f| f.ships > 0) {
            let line = format!(
                "{} {} ×{}{}{} A{} D{} T{}",
                f.id,
                f.kind.chart().code,
                f.ships,
                if f.damage > 0 {
                    format!(" ({} dmg)", f.damage)
                } else {
                    String::new()
                },
                if f.screened > 0 {
                    format!(" ({} screened)", f.screened)
                } else {
                    String::new()
                },
                f.attack_tech,
                f.defense_tech,
                f.tactics
            );
            sc.text(txt(x + 8.0, y, line, 16.0, TEXT));
            y += 20.0;
            if y > 760.0 {
                break;
            }
        }
        y += 10.0;
    }
    if !view.scores.is_empty() {
        sc.text(txt(x, y, "Scores", 20.0, GOLD).bold());
        y += 26.0;
        for (seat, score) in &view.scores {
            sc.text(txt(
                x + 8.0,
                y,
                format!("{}: {score}", name_of(names, *seat)),
                18.0,
                seat_colour(*seat),
            ));
            y += 22.0;
        }
        if let Some(o) = &view.outcome {
            // A winner's line in the winner's colour: gold would read as
            // the fourth seat's yellow.
            let (t, colour) = match o {
                Outcome::Winner { seat, .. } => (format!("{} wins", name_of(names, *seat)), seat_colour(*seat)),
                Outcome::Shared { .. } => ("Shared win".to_string(), TEXT),
                Outcome::AllLose { .. } => ("Nobody wins".to_string(), TEXT),
            };
            sc.text(txt(x + 8.0, y, t, 20.0, colour).bold());
            y += 30.0;
        }
    } else if let Some(Outcome::Winner { seat, .. }) = &view.outcome {
        sc.text(
            txt(
                x,
                y,
                format!("{} wins", name_of(names, *seat)),
                22.0,
                seat_colour(*seat),
            )
            .bold(),
        );
        y += 30.0;
    }
    let Some(own) = &view.own else { return };
    y += 6.0;
    sc.text(txt(x, y, format!("Your CP: {}", own.cp), 20.0, GOLD).bold());
    y += 26.0;
    sc.text(txt(
        x + 8.0,
        y,
        format!(
            "income {} + minerals {} − upkeep {}",
            own.colony_income, own.mineral_income, own.maintenance
        ),
        16.0,
        TEXT,
    ));
    y += 20.0;
    let l = own.levels;
    sc.text(txt(
        x + 8.0,
        y,
        format!(
            "Size {} · Att {} · Def {} · Tac {} · Move {} · Yard {}{}{}",
            l.size,
            l.attack,
            l.defense,
            l.tactics,
            l.moves,
            l.yard,
            if l.terraform > 0 { " · Terra" } else { "" },
            if l.explore > 0 { " · Expl" } else { "" }
        ),
        16.0,
        TEXT,
    ));
    y += 20.0;
    let st = own.standing;
    sc.text(txt(
        x + 8.0,
        y,
        format!(
            "standing: auto {} · {} · retreat {} · screen {}",
            if st.auto { "on" } else { "off" },
            st.target.key(),
            st.retreat.key(),
            st.screen.key()
        ),
        16.0,
        DIM,
    ));
    y += 20.0;
    if !own.sheet.is_empty() || view.economic {
        sc.text(txt(
            x + 8.0,
            y,
            format!(
                "sheet: {} line(s), spends {} of {}",
                own.sheet.len(),
                own.spent,
                own.available
            ),
            16.0,
            TEXT,
        ));
        y += 20.0;
    }
    y += 6.0;
    sc.text(txt(x, y, "Your counters", 18.0, TEXT).bold());
    y += 24.0;
    let mine: Vec<&CounterView> = view
        .counters
        .iter()
        .filter(|c| Some(c.label.owner) == view.viewer.seat())
        .collect();
    let room = ((HEIGHT as f32 - 30.0 - y) / 19.0).max(0.0) as usize;
    for (i, c) in mine.iter().enumerate() {
        if i + 1 >= room && mine.len() > room {
            sc.text(txt(x + 8.0, y, format!("… and {} more", mine.len() - i), 15.0, DIM));
            break;
        }
        let kind = c.kind.map_or("?", |k| k.chart().code);
        let lv = c
            .levels
            .filter(|_| c.kind.is_some_and(Kind::is_warship))
            .map(|l| format!(" A{} D{} T{} M{}", l.attack, l.defense, l.tactics, l.moves))
            .unwrap_or_default();
        let mut line = format!(
            "{} {} ×{} at {}{}",
            c.label,
            kind,
            c.ships.unwrap_or(0),
            view.board.name(c.hex),
            lv
        );
        if let Some(m) = c.tow {
            line.push_str(&format!(" tows {}", m.name()));
        }
        if c.upgrading {
            line.push_str(" upgrading");
        }
        if c.face_up && !c.kind.is_some_and(Kind::slow) && view.outcome.is_none() {
            line.push_str(" (face up)");
        }
        sc.text(txt(x + 8.0, y, line, 15.0, TEXT));
        y += 19.0;
    }
}
