//! The board picture (1600 × 1200), built from a view only (rules page,
//! *The board*). Drawn for Discord's chat column (about 550 px wide):
//! every text is at least 27 px (9 px there).
//!
//! **Layout.** The hex map fills the top left as large as it goes
//! (flat-topped; column letters above and below, row numbers down both
//! sides, all 27 px); the panel takes the rest: a column on the right for
//! the tall four- and three-player maps, a strip on the right and two columns below
//! for the wide two-player map. The panel's parts flow down its columns.
//!
//! **The map**: deep space dark, each home system tinted in its player's
//! colour with the homeworld ringed; face-down markers as tiles with a `?`
//! (border in the home player's colour, white in deep space); revealed
//! terrain as icons (Lost in Space: a spiral, Danger: `!`); colonies ringed
//! in their owner's colour with their CP (0 for a new colony; a star for a
//! homeworld); **ship yards as gold pips** above the planet, one per yard;
//! a base as a gold shield beside it; one chip per player present with
//! the number of counters (outlined white when any is face up, a gold dot
//! when a Miner tows); the battle hex ringed red.
//!
//! **The panel**: the title, the turn track `1 2 3 Economy` and the round,
//! the phase; the players in player order (the active one marked; ready
//! ✓ or writing… in the Economic Phase; homeworld, colonies, counters,
//! technology shown, last bid); the battle as a table (group, type, ships,
//! Attack, Defense, Tactics, hits and screened ships); the scores at the
//! end; in a seat's own board its CP and forecast, levels, standing
//! orders, sheet, and its counters as a table by hex (type × ships,
//! Attack, Defense, Tactics, Move; towing, upgrading, face up), cut with
//! "… and N more" when the panel is full.

use super::basics::{Kind, Tech};
use super::map::{Area, Board};
use super::view::{CounterView, View};
use crate::shared::draw::{name_of, rounded, truncate, txt};
use orrery_engine::hex::{Layout, Orientation};
use orrery_engine::{Hex, Outcome, Seat};
use orrery_render::{measure_text, Anchor, Color, Item, Scene, Stroke};

mod markers;
use markers::{machine_badge, shield, star, terrain};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;
/// The smallest text drawn: 9 px once the board is shown 550 px wide.
pub const SMALL: f32 = 27.0;
/// Panel headings.
const HEAD: f32 = 32.0;
/// A panel line's height at [`SMALL`].
const LINE: f32 = 33.0;
/// Room above and below the map for the column letters.
const LETTERS: f32 = 34.0;
/// Room at each side of the map for the row numbers.
const NUMBERS: f32 = 40.0;
const PAD: f32 = 8.0;
/// The narrowest panel column.
const COLUMN_MIN: f32 = 380.0;

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

/// Where things go: the map's layout and the panel's columns
/// `(x, y, width, height)`, in the order the panel fills them.
pub struct Frame {
    pub layout: Layout,
    pub columns: Vec<(f32, f32, f32, f32)>,
}

/// The frame of `board`: the map as large as it goes at the top left with
/// either a panel column of at least 660 px on its right (a tall map), or
/// a strip on its right and a band of at least 380 px below (a wide map),
/// whichever gives the larger hexes.
pub fn frame(board: &Board) -> Frame {
    let (w, h) = (WIDTH as f32, HEIGHT as f32);
    let hexes: Vec<Hex> = board.hexes().collect();
    let unit = Layout::new(Orientation::Flat, 1.0, (0.0, 0.0));
    let (x0, y0, x1, y1) = unit.bounds(&hexes);
    let (uw, uh) = (x1 - x0, y1 - y0);
    let fit = |room_w: f32, room_h: f32| {
        ((room_w - 2.0 * NUMBERS - 2.0 * PAD) / uw).min((room_h - 2.0 * LETTERS - 2.0 * PAD) / uh)
    };
    let side = fit(w - 660.0, h);
    let stacked = fit(w - COLUMN_MIN, h - 380.0);
    let size = side.max(stacked);
    let map_w = size * uw + 2.0 * NUMBERS + 2.0 * PAD;
    let map_h = size * uh + 2.0 * LETTERS + 2.0 * PAD;
    let ox = map_w / 2.0 - size * (x0 + x1) / 2.0;
    let oy = map_h / 2.0 - size * (y0 + y1) / 2.0;
    let layout = Layout::new(Orientation::Flat, size, (ox, oy));
    let mut columns = Vec::new();
    let below = h - map_h - PAD;
    let right = w - map_w - PAD;
    if below >= 300.0 {
        if right >= COLUMN_MIN - 2.0 * PAD {
            columns.push((map_w, PAD, right, map_h - 2.0 * PAD));
        }
        let n = ((w - PAD) / 760.0).floor().max(1.0);
        let cw = (w - PAD) / n;
        for i in 0..n as usize {
            columns.push((PAD + i as f32 * cw, map_h, cw - PAD, below));
        }
    } else {
        columns.push((map_w, PAD, right, h - 2.0 * PAD));
    }
    Frame { layout, columns }
}

/// The layout that fits `board` into the map's corner.
pub fn layout(board: &Board) -> Layout {
    frame(board).layout
}

pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    let fr = frame(&view.board);
    map(&mut sc, view, &fr.layout);
    // The panel's backgrounds, under the panel, for the columns it used.
    let map_end = sc.items.len();
    let mut flow = Flow {
        cols: fr.columns,
        at: 0,
        y: 0.0,
        full: false,
    };
    flow.y = flow.cols[0].1 + 12.0;
    panel(&mut sc, &mut flow, view, names);
    let used = if flow.full { flow.cols.len() } else { flow.at + 1 };
    let backs: Vec<Item> = flow.cols[..used]
        .iter()
        .map(|&(x, y, w, h)| Item::Rect {
            x,
            y,
            w,
            h,
            radius: 10.0,
            fill: Some(PANEL),
            stroke: None,
        })
        .collect();
    sc.items.splice(map_end..map_end, backs);
    sc
}

fn hex_poly(sc: &mut Scene, lay: &Layout, h: Hex, fill: Option<Color>, stroke: Option<Stroke>) {
    sc.push(Item::Polygon {
        points: lay.corners(h).to_vec(),
        fill,
        stroke,
    });
}

/// The map's text size: 27 px, more on larger hexes.
fn map_text(s: f32) -> f32 {
    (0.66 * s).max(SMALL)
}

fn map(sc: &mut Scene, view: &View, lay: &Layout) {
    let b = &view.board;
    let s = lay.size.0;
    let t = map_text(s);
    for h in b.hexes() {
        // A home system with no player in it (solitaire's no-man's-land)
        // is drawn as deep space.
        let fill = match b.area(h) {
            Some(Area::Home(seat)) if seat.index() < view.players.len() => tint(seat_colour(seat), 0.28),
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
            sc.text(
                txt(cx, y0 - 3.0, letter.clone(), SMALL, DIM)
                    .anchor(Anchor::BottomCenter)
                    .bold(),
            );
            sc.text(txt(cx, y1 + 3.0, letter, SMALL, DIM).anchor(Anchor::TopCenter).bold());
        }
    }
    // A row's number level with its hexes in the columns of column A's
    // parity (rows zig-zag from column to column).
    let parity = hexes.first().map_or(0, |h| h.q.rem_euclid(2));
    let mut rows: Vec<(String, Option<f32>, Option<f32>)> = Vec::new();
    for h in &hexes {
        let row: String = b.name(*h).chars().skip(1).collect();
        let (_, cy) = lay.hex_to_pixel(*h);
        let i = match rows.iter().position(|(r, _, _)| *r == row) {
            Some(i) => i,
            None => {
                rows.push((row, None, None));
                rows.len() - 1
            }
        };
        let slot = if h.q.rem_euclid(2) == parity {
            &mut rows[i].1
        } else {
            &mut rows[i].2
        };
        slot.get_or_insert(cy);
    }
    let shifts: Vec<f32> = rows
        .iter()
        .filter_map(|(_, a, o)| Some(a.as_ref()? - o.as_ref()?))
        .collect();
    let shift = if shifts.is_empty() {
        0.0
    } else {
        shifts.iter().sum::<f32>() / shifts.len() as f32
    };
    let rows: Vec<(String, f32)> = rows
        .into_iter()
        .map(|(r, a, o)| (r, a.unwrap_or_else(|| o.unwrap_or(0.0) + shift)))
        .collect();
    for (row, cy) in rows {
        sc.text(
            txt(x0 - 4.0, cy, row.clone(), SMALL, DIM)
                .anchor(Anchor::CenterRight)
                .bold(),
        );
        sc.text(txt(x1 + 4.0, cy, row, SMALL, DIM).anchor(Anchor::CenterLeft).bold());
    }
    // Markers: in the hex's upper half, centred at `up`.
    let up = -0.27 * s;
    for p in &view.spots {
        let (cx, cy) = lay.hex_to_pixel(p.hex);
        match (p.marker, p.peeked) {
            (Some(m), _) => terrain(sc, lay, p.hex, m, false),
            (None, Some(m)) => {
                terrain(sc, lay, p.hex, m, true);
                // The eye of a peek.
                sc.push(Item::Circle {
                    cx: cx + 0.52 * s,
                    cy: cy - 0.5 * s,
                    r: 0.16 * s,
                    fill: Some(Color::WHITE),
                    stroke: Some(Stroke::new(Color::BLACK, 1.5)),
                });
                sc.push(Item::Circle {
                    cx: cx + 0.52 * s,
                    cy: cy - 0.5 * s,
                    r: 0.07 * s,
                    fill: Some(Color::BLACK),
                    stroke: None,
                });
            }
            (None, None) => {
                let border = p.home.map_or(Color::WHITE, seat_colour);
                let w = 0.66 * s;
                let cy = cy + up;
                rounded(
                    sc,
                    (cx - w / 2.0, cy - w / 2.0, w, w),
                    4.0,
                    Some(Color::rgb(44, 48, 66)),
                    Some(Stroke::new(border, 2.5)),
                );
                sc.text(txt(cx, cy, "?", t, DIM).anchor(Anchor::Center).bold());
            }
        }
        // Aliens (advanced rule 14): a green badge with how many are left.
        if !p.aliens.is_empty() {
            let (ax, ay) = (cx - 0.5 * s, cy - 0.5 * s);
            sc.push(Item::Circle {
                cx: ax,
                cy: ay,
                r: 0.2 * s,
                fill: Some(Color::rgb(40, 150, 60)),
                stroke: Some(Stroke::new(Color::rgb(190, 255, 170), 2.0)),
            });
            sc.text(
                txt(ax, ay, p.aliens.len().to_string(), t, Color::WHITE)
                    .anchor(Anchor::Center)
                    .bold(),
            );
        }
    }
    // Doomsday Machines (optional rule 17): a dark red disc over the hex.
    for m in &view.machines {
        let (cx, cy) = lay.hex_to_pixel(m.hex);
        machine_badge(sc, cx, cy, s, m.number, false);
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
    // MS Pipeline chains (advanced rule 10): a line in the owner's colour
    // from hex to adjacent hex where both hold one of its pipelines.
    let pipes: std::collections::BTreeSet<(Seat, Hex)> = view
        .counters
        .iter()
        .filter(|c| c.kind == Some(Kind::Pipeline))
        .map(|c| (c.label.owner, c.hex))
        .collect();
    for (owner, a) in &pipes {
        for (_, b) in pipes.iter().filter(|(o, b)| o == owner && a < b && a.distance(*b) == 1) {
            sc.push(Item::Line {
                points: vec![lay.hex_to_pixel(*a), lay.hex_to_pixel(*b)],
                stroke: Stroke::new(seat_colour(*owner), 0.12 * s),
                dashed: true,
            });
        }
    }
    // Colonies: the planet (a star for a homeworld) with its CP, yard pips
    // above it, a base's shield at its right.
    for c in &view.colonies {
        let (cx, cy) = lay.hex_to_pixel(c.hex);
        let col = seat_colour(c.owner);
        let py = cy + up;
        if c.is_home() {
            star(sc, cx, py, 0.6 * s, col);
        } else {
            sc.push(Item::Circle {
                cx,
                cy: py,
                r: 0.36 * s,
                fill: Some(if c.barren {
                    Color::rgb(140, 140, 150)
                } else {
                    Color::rgb(70, 120, 220)
                }),
                stroke: Some(Stroke::new(col, 4.0)),
            });
        }
        sc.text(
            txt(cx, py, c.worth.cp().to_string(), t, TEXT)
                .anchor(Anchor::Center)
                .bold()
                .halo(HALO),
        );
        if c.yards > 0 {
            let n = c.yards as f32;
            let room = 1.0 * s;
            let pip = (0.2 * s).min(room / (1.3 * n));
            let gap = 0.3 * pip;
            let total = n * pip + (n - 1.0) * gap;
            let y = cy - 0.84 * s;
            for i in 0..c.yards {
                let x = cx - total / 2.0 + i as f32 * (pip + gap);
                sc.push(Item::Rect {
                    x,
                    y,
                    w: pip,
                    h: pip,
                    radius: 0.0,
                    fill: Some(GOLD),
                    stroke: Some(Stroke::new(Color::BLACK, 1.2)),
                });
            }
        }
        if c.base {
            shield(sc, cx + 0.62 * s, py, 0.2 * s);
        }
    }
    // Counters: one chip per player per hex, in the hex's lower half.
    let mut stacks: Vec<(Hex, Seat, Vec<&CounterView>)> = Vec::new();
    for c in &view.counters {
        match stacks.iter_mut().find(|(h, o, _)| *h == c.hex && *o == c.label.owner) {
            Some(slot) => slot.2.push(c),
            None => stacks.push((c.hex, c.label.owner, vec![c])),
        }
    }
    let chip_h = 0.62 * s;
    for (h, owner, cs) in &stacks {
        let (cx, cy) = lay.hex_to_pixel(*h);
        let mut here: Vec<(Seat, usize)> = stacks
            .iter()
            .filter(|(x, _, _)| x == h)
            .map(|(_, o, v)| (*o, v.len()))
            .collect();
        here.sort();
        let width = |n: usize| (measure_text(&n.to_string(), t, true).0 + 0.2 * s).max(0.6 * s);
        let total: f32 = here.iter().map(|(_, n)| width(*n) + 3.0).sum::<f32>() - 3.0;
        let mut x = cx - total / 2.0;
        for (o, n) in &here {
            if o == owner {
                break;
            }
            x += width(*n) + 3.0;
        }
        let w = width(cs.len());
        let y = cy + 0.44 * s - chip_h / 2.0;
        let face_up = cs
            .iter()
            .any(|c| c.face_up && !c.kind.is_some_and(Kind::always_face_up));
        rounded(
            sc,
            (x, y, w, chip_h),
            4.0,
            Some(seat_colour(*owner)),
            Some(Stroke::new(
                if face_up { Color::WHITE } else { Color::BLACK },
                if face_up { 3.0 } else { 2.0 },
            )),
        );
        sc.text(
            txt(x + w / 2.0, y + chip_h / 2.0, cs.len().to_string(), t, Color::BLACK)
                .anchor(Anchor::Center)
                .bold(),
        );
        if cs.iter().any(|c| c.tow.is_some()) {
            sc.push(Item::Circle {
                cx: x + w,
                cy: y,
                r: 0.12 * s,
                fill: Some(GOLD),
                stroke: Some(Stroke::new(Color::BLACK, 1.2)),
            });
        }
    }
    if let Some(bt) = &view.battle {
        let (cx, cy) = lay.hex_to_pixel(bt.hex());
        sc.push(Item::Circle {
            cx,
            cy,
            r: 0.95 * s,
            fill: None,
            stroke: Some(Stroke::new(ALERT, 5.0)),
        });
    }
}

/// The panel's columns, filled top to bottom, one after the other.
struct Flow {
    cols: Vec<(f32, f32, f32, f32)>,
    at: usize,
    y: f32,
    /// No column has room left.
    full: bool,
}

impl Flow {
    const INSET: f32 = 16.0;

    fn x(&self) -> f32 {
        self.cols[self.at].0 + Self::INSET
    }

    fn width(&self) -> f32 {
        self.cols[self.at].2 - 2.0 * Self::INSET
    }

    fn bottom(&self) -> f32 {
        let c = self.cols[self.at];
        c.1 + c.3 - 8.0
    }

    /// Makes room for `h` px in a column at least `min_w` wide, moving to
    /// the next column when needed; false when none is left.
    fn room(&mut self, h: f32, min_w: f32) -> bool {
        if self.full {
            return false;
        }
        while self.y + h > self.bottom() || self.width() < min_w {
            if self.at + 1 >= self.cols.len() {
                self.full = true;
                return false;
            }
            self.at += 1;
            self.y = self.cols[self.at].1 + 12.0;
        }
        true
    }

    /// Whether `h` px fit in the current column.
    fn fits(&self, h: f32) -> bool {
        !self.full && self.y + h <= self.bottom()
    }

    /// A paragraph at [`SMALL`], cut at " · " into lines; a `lead` (bold,
    /// in its colour) opens the first line. False once the panel is full.
    fn para(&mut self, sc: &mut Scene, lead: Option<(&str, Color)>, text: &str, colour: Color) -> bool {
        if !self.room(LINE, 0.0) {
            return false;
        }
        let mut x = self.x();
        if let Some((l, c)) = lead {
            let (l, size) = (truncate(l, 18), SMALL);
            sc.text(txt(x, self.y, l.clone(), size, c).bold());
            x += measure_text(&l, size, true).0 + 14.0;
        }
        let mut first = true;
        for line in wrap_first(text, SMALL, self.x() + self.width() - x, self.width()) {
            if !first {
                self.y += LINE;
                if !self.room(LINE, 0.0) {
                    return false;
                }
                x = self.x();
            }
            sc.text(txt(x, self.y, line, SMALL, colour));
            first = false;
        }
        self.y += LINE;
        true
    }

    fn heading(&mut self, sc: &mut Scene, text: &str, colour: Color, min_w: f32) -> bool {
        if !self.room(LINE + 2.0 * LINE, min_w) {
            return false;
        }
        self.y += 6.0;
        sc.text(txt(self.x(), self.y, text, SMALL, colour).bold());
        self.y += LINE;
        true
    }
}

/// `s` cut into lines, the first `first` px wide, the others `rest` px:
/// at " · " where it can, between words where a part is too long.
fn wrap_first(s: &str, size: f32, first: f32, rest: f32) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for part in s.split(" · ") {
        for (i, word) in part.split(' ').enumerate() {
            let sep = if cur.is_empty() {
                ""
            } else if i == 0 {
                " · "
            } else {
                " "
            };
            let candidate = format!("{cur}{sep}{word}");
            let width = if out.is_empty() { first } else { rest };
            let whole = i == 0 && measure_text(&format!("{cur}{sep}{part}"), size, false).0 > width;
            if !cur.is_empty() && (whole || measure_text(&candidate, size, false).0 > width) {
                out.push(std::mem::take(&mut cur));
                cur = word.to_string();
            } else {
                cur = candidate;
            }
        }
    }
    if !cur.is_empty() || out.is_empty() {
        out.push(cur);
    }
    out
}

/// One row of a table: its cells (text, colour) and a note after them.
struct Row {
    cells: Vec<(String, Color)>,
    note: String,
}

/// A table at [`SMALL`]: headers in words (`short` ones when the long do
/// not fit the column), a row per line, each row's note after its last
/// cell when it fits, on a line of its own otherwise. Numbers are centred
/// under their headers from column `numeric` on. Returns how many rows
/// were drawn.
fn table(sc: &mut Scene, flow: &mut Flow, long: &[&str], short: &[&str], numeric: usize, rows: &[Row]) -> usize {
    let gap = 14.0;
    let widths = |heads: &[&str]| -> Vec<f32> {
        heads
            .iter()
            .enumerate()
            .map(|(i, h)| {
                rows.iter()
                    .filter_map(|r| r.cells.get(i))
                    .map(|(c, _)| measure_text(c, SMALL, false).0)
                    .fold(measure_text(h, SMALL, false).0, f32::max)
            })
            .collect()
    };
    let total = |ws: &[f32]| ws.iter().sum::<f32>() + gap * (ws.len() as f32 - 1.0);
    let wl = widths(long);
    let (heads, ws) = if total(&wl) <= flow.width() || short.is_empty() {
        (long, wl)
    } else {
        (short, widths(short))
    };
    if !flow.room(2.0 * LINE, total(&ws).min(600.0)) {
        return 0;
    }
    let draw_heads = |sc: &mut Scene, flow: &Flow| {
        let mut x = flow.x();
        for (h, w) in heads.iter().zip(&ws) {
            sc.text(txt(x, flow.y, *h, SMALL, DIM));
            x += w + gap;
        }
    };
    draw_heads(sc, flow);
    flow.y += LINE;
    let mut done = 0;
    for (i, r) in rows.iter().enumerate() {
        let last = i + 1 == rows.len();
        // Keep a line for "… and N more" unless this is the last row.
        let need = if last { LINE } else { 2.0 * LINE };
        if !flow.fits(need) {
            let col = flow.at;
            if !flow.room(LINE + need, 0.0) {
                break;
            }
            if flow.at != col {
                draw_heads(sc, flow);
                flow.y += LINE;
            }
        }
        let mut x = flow.x();
        for (j, ((c, colour), w)) in r.cells.iter().zip(&ws).enumerate() {
            if j >= numeric {
                sc.text(txt(x + w / 2.0, flow.y, c.clone(), SMALL, *colour).anchor(Anchor::TopCenter));
            } else {
                sc.text(txt(x, flow.y, c.clone(), SMALL, *colour));
            }
            x += w + gap;
        }
        if !r.note.is_empty() {
            let filled = r.cells.iter().filter(|(c, _)| !c.is_empty()).count();
            let mut nx = flow.x() + ws.iter().take(filled).map(|w| w + gap).sum::<f32>();
            if nx + measure_text(&r.note, SMALL, false).0 > flow.x() + flow.width() {
                flow.y += LINE;
                if !flow.room(LINE, 0.0) {
                    done += 1;
                    break;
                }
                nx = flow.x() + ws.iter().take(numeric.min(2)).map(|w| w + gap).sum::<f32>();
            }
            sc.text(txt(nx, flow.y, r.note.clone(), SMALL, DIM));
        }
        flow.y += LINE;
        done += 1;
    }
    if done < rows.len() && flow.room(LINE, 0.0) {
        sc.text(txt(
            flow.x(),
            flow.y,
            format!("… and {} more", rows.len() - done),
            SMALL,
            DIM,
        ));
        flow.y += LINE;
    }
    done
}

/// The turn track `1 2 3 Economy` with the current box lit, then the round.
fn track(sc: &mut Scene, flow: &mut Flow, view: &View) {
    let boxes = ["1", "2", "3", "Economy"];
    let lit = if view.economic {
        3
    } else {
        (view.turn.clamp(1, 3) - 1) as usize
    };
    if !flow.room(44.0, 0.0) {
        return;
    }
    let mut x = flow.x();
    let h = 40.0;
    for (i, label) in boxes.iter().enumerate() {
        let w = measure_text(label, SMALL, true).0 + 20.0;
        let on = i == lit && view.outcome.is_none();
        rounded(
            sc,
            (x, flow.y, w, h),
            6.0,
            Some(if on { GOLD } else { BG }),
            Some(Stroke::new(EDGE, 1.5)),
        );
        sc.text(
            txt(
                x + w / 2.0,
                flow.y + h / 2.0,
                *label,
                SMALL,
                if on { Color::BLACK } else { DIM },
            )
            .anchor(Anchor::Center)
            .bold(),
        );
        x += w + 6.0;
    }
    let round = format!("Round {} of {}", view.round, view.rounds);
    let rw = measure_text(&round, SMALL, true).0;
    if x + 10.0 + rw <= flow.x() + flow.width() {
        sc.text(
            txt(x + 10.0, flow.y + h / 2.0, round, SMALL, TEXT)
                .anchor(Anchor::CenterLeft)
                .bold(),
        );
        flow.y += h + 8.0;
    } else {
        flow.y += h + 8.0;
        if flow.room(LINE, 0.0) {
            sc.text(txt(flow.x(), flow.y, round, SMALL, TEXT).bold());
            flow.y += LINE;
        }
    }
}

fn panel(sc: &mut Scene, flow: &mut Flow, view: &View, names: &[String]) {
    let title = match view.viewer.seat() {
        Some(seat) => format!("{}'s board", name_of(names, seat)),
        None => "Public board".to_string(),
    };
    let (t, size) = crate::shared::draw::fit_text(&title, HEAD, SMALL, flow.width(), true);
    sc.text(txt(flow.x(), flow.y, t, size, TEXT).bold());
    flow.y += HEAD + 10.0;
    track(sc, flow, view);
    flow.para(sc, None, &view.phase, DIM);
    flow.y += 6.0;
    players(sc, flow, view, names);
    machines(sc, flow, view);
    battle(sc, flow, view, names);
    scores(sc, flow, view, names);
    own(sc, flow, view);
}

fn players(sc: &mut Scene, flow: &mut Flow, view: &View, names: &[String]) {
    for p in view
        .order
        .iter()
        .filter_map(|s| view.players.iter().find(|p| p.seat == *s))
    {
        let mut parts = vec![match p.homeworld {
            Some(cp) => format!("Homeworld {cp}"),
            None => "no homeworld".into(),
        }];
        parts.push(match p.colonies {
            1 => "1 colony".into(),
            n => format!("{n} colonies"),
        });
        parts.push(format!("{} CP in all", p.colony_cp));
        parts.push(match p.counters {
            1 => "1 counter".into(),
            n => format!("{n} counters"),
        });
        let shown: Vec<String> = ["Attack", "Defense", "Tactics", "Move"]
            .iter()
            .zip(p.shown)
            .filter(|(_, v)| *v > 0)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        if shown.is_empty() {
            parts.push("no technology shown".into());
        } else {
            parts.push(format!("shown {}", shown.join(", ")));
        }
        if let Some(b) = p.last_bid {
            parts.push(format!("last bid {b}"));
        }
        match p.ready {
            Some(true) => parts.insert(0, "✓ ready".into()),
            Some(false) => parts.insert(0, "writing…".into()),
            None => {}
        }
        if !flow.room(LINE, 0.0) {
            return;
        }
        let active = view.active == Some(p.seat);
        if active {
            // The active player: a pointer in the margin.
            let (x, y) = (flow.x() - 2.0, flow.y + 6.0);
            sc.push(Item::Polygon {
                points: vec![(x - 12.0, y), (x, y + 10.0), (x - 12.0, y + 20.0)],
                fill: Some(seat_colour(p.seat)),
                stroke: None,
            });
        }
        let name = name_of(names, p.seat);
        if !flow.para(sc, Some((&name, seat_colour(p.seat))), &parts.join(" · "), TEXT) {
            return;
        }
        flow.y += 4.0;
    }
}

/// The Doomsday Machines (optional rule 17): where each is, its damage
/// (kept in solitaire), how many are destroyed.
fn machines(sc: &mut Scene, flow: &mut Flow, view: &View) {
    if view.machines_in_game == 0 || !flow.room(LINE, 0.0) {
        return;
    }
    let mut parts: Vec<String> = view
        .machines
        .iter()
        .map(|m| {
            let hits = match m.damage {
                0 => String::new(),
                1 => " (1 hit)".into(),
                n => format!(" ({n} hits)"),
            };
            format!("DM{} at {}{hits}", m.number, view.board.name(m.hex))
        })
        .collect();
    if view.machines_destroyed > 0 {
        parts.push(format!(
            "{} of {} destroyed",
            view.machines_destroyed, view.machines_in_game
        ));
    }
    if parts.is_empty() {
        parts.push("none found yet".into());
    }
    let text = format!("Doomsday Machines: {}", parts.join(" · "));
    flow.para(sc, None, &text, Color::rgb(255, 170, 90));
    flow.y += 4.0;
}

fn battle(sc: &mut Scene, flow: &mut Flow, view: &View, names: &[String]) {
    let Some(b) = &view.battle else { return };
    let at = view.board.name(b.hex());
    if !flow.heading(
        sc,
        &format!("Battle at {at}, firing round {}", b.round().max(1)),
        ALERT,
        600.0,
    ) {
        return;
    }
    let holder = view.colonies.iter().find(|c| c.hex == b.hex()).map(|c| c.owner);
    let rows: Vec<Row> = b
        .fighters()
        .iter()
        .filter(|f| f.ships > 0)
        .map(|f| {
            let colour = match f.id {
                super::state::battle::Target::Group(l) => seat_colour(l.owner),
                _ => holder.map_or(TEXT, seat_colour),
            };
            let mut note = Vec::new();
            if f.damage > 0 {
                note.push(format!("{} hit{}", f.damage, if f.damage == 1 { "" } else { "s" }));
            }
            if f.screened > 0 {
                note.push(format!("{} screened", f.screened));
            }
            Row {
                cells: vec![
                    (f.id.to_string(), colour),
                    (f.kind.name().to_string(), TEXT),
                    (f.ships.to_string(), TEXT),
                    (f.attack_tech.to_string(), TEXT),
                    (f.defense_tech.to_string(), TEXT),
                    (f.tactics.to_string(), TEXT),
                ],
                note: note.join(", "),
            }
        })
        .collect();
    let _ = names;
    table(
        sc,
        flow,
        &["Group", "Type", "Ships", "Attack", "Defense", "Tactics"],
        &["Group", "Type", "Ships", "Att", "Def", "Tac"],
        2,
        &rows,
    );
    flow.y += 6.0;
}

fn scores(sc: &mut Scene, flow: &mut Flow, view: &View, names: &[String]) {
    if !view.scores.is_empty() {
        if !flow.heading(sc, "Scores", GOLD, 0.0) {
            return;
        }
        for (seat, score) in &view.scores {
            let name = name_of(names, *seat);
            if !flow.para(sc, Some((&name, seat_colour(*seat))), &format!("{score} points"), TEXT) {
                return;
            }
        }
    }
    let line = match &view.outcome {
        Some(Outcome::Winner { seat, .. }) => Some((format!("{} wins", name_of(names, *seat)), seat_colour(*seat))),
        // A shared win (a team's, or equal scores) names its winners.
        Some(Outcome::Shared { seats, .. }) if !view.scores.is_empty() => {
            let who: Vec<String> = seats.iter().map(|x| name_of(names, *x)).collect();
            Some((format!("{} win", crate::shared::menu::and_list(&who)), TEXT))
        }
        Some(Outcome::AllLose { .. }) if !view.scores.is_empty() => Some(("Nobody wins".to_string(), TEXT)),
        _ => None,
    };
    // A winner's line in the winner's colour: gold would read as the
    // fourth seat's yellow.
    if let Some((t, colour)) = line {
        if flow.room(LINE + 6.0, 0.0) {
            let (t, size) = crate::shared::draw::fit_text(&t, HEAD, SMALL, flow.width(), true);
            sc.text(txt(flow.x(), flow.y, t, size, colour).bold());
            flow.y += HEAD + 10.0;
        }
    }
}

fn own(sc: &mut Scene, flow: &mut Flow, view: &View) {
    let Some(own) = &view.own else { return };
    if !flow.heading(sc, &format!("Your CP: {}", own.cp), GOLD, 0.0) {
        return;
    }
    let trade = if own.trade_income > 0 {
        format!(" · + pipelines {}", own.trade_income)
    } else {
        String::new()
    };
    let income = format!(
        "income {} · + minerals {}{trade} · − upkeep {}",
        own.colony_income, own.mineral_income, own.maintenance
    );
    flow.para(sc, None, &income, TEXT);
    let l = own.levels;
    let mut levels = format!(
        "Ship Size {} · Attack {} · Defense {} · Tactics {} · Move {} · Ship Yard {}",
        l.size, l.attack, l.defense, l.tactics, l.moves, l.yard
    );
    if l.terraform > 0 {
        levels.push_str(" · Terraforming");
    }
    if l.explore > 0 {
        levels.push_str(" · Exploration");
    }
    // The advanced rules' categories, once researched.
    for tech in Tech::ALL.into_iter().filter(|t| t.advanced().is_some()) {
        let level = l.get(tech);
        if level > 0 {
            levels.push_str(&format!(" · {} {level}", tech.name()));
        }
    }
    flow.para(sc, None, &levels, TEXT);
    let st = own.standing;
    let standing = format!(
        "standing orders: auto {} · target {} · retreat {} · screen {}",
        if st.auto { "on" } else { "off" },
        st.target.key(),
        st.retreat.key(),
        st.screen.key()
    );
    flow.para(sc, None, &standing, DIM);
    if !own.sheet.is_empty() || view.economic {
        let sheet = format!(
            "sheet: {} line{} · spends {} of {}",
            own.sheet.len(),
            if own.sheet.len() == 1 { "" } else { "s" },
            own.spent,
            own.available
        );
        flow.para(sc, None, &sheet, TEXT);
    }
    let mut mine: Vec<&CounterView> = view
        .counters
        .iter()
        .filter(|c| Some(c.label.owner) == view.viewer.seat())
        .collect();
    mine.sort_by_key(|c| (Board::name_key(c.hex), c.label.number));
    if mine.is_empty() || !flow.heading(sc, "Your counters", TEXT, 0.0) {
        return;
    }
    let rows: Vec<Row> = mine
        .iter()
        .map(|c| {
            let kind = c.kind.map_or("?", Kind::name);
            let ships = c.ships.unwrap_or(0);
            let what = if ships > 1 || c.kind.is_some_and(Kind::is_warship) {
                format!("{kind} ×{ships}")
            } else {
                kind.to_string()
            };
            let mut cells = vec![
                (view.board.name(c.hex), TEXT),
                (c.label.to_string(), seat_colour(c.label.owner)),
                (what, TEXT),
            ];
            if let Some(l) = c.levels.filter(|_| c.kind.is_some_and(Kind::is_warship)) {
                for v in [l.attack, l.defense, l.tactics, l.moves] {
                    cells.push((v.to_string(), TEXT));
                }
            }
            let mut note = Vec::new();
            if let Some(m) = c.tow {
                note.push(format!("tows {}", m.name()));
            }
            if c.upgrading {
                note.push("upgrading".to_string());
            }
            if c.face_up && !c.kind.is_some_and(Kind::always_face_up) && view.outcome.is_none() {
                note.push("face up".to_string());
            }
            Row {
                cells,
                note: note.join(", "),
            }
        })
        .collect();
    table(
        sc,
        flow,
        &["Hex", "Counter", "Type", "Attack", "Defense", "Tactics", "Move"],
        &["Hex", "Counter", "Type", "Att", "Def", "Tac", "Move"],
        3,
        &rows,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::empires::{Action, Empires};
    use orrery_engine::{GameConfig, GameRng, Ruleset, Viewer};
    use orrery_render::text_box;

    /// Boards along random games of 2, 3 and 4 players (public and every
    /// seat's), every 40 orders.
    fn boards() -> Vec<(String, Scene)> {
        let mut out = Vec::new();
        for players in 2..=4u8 {
            let seed = u64::from(players) * 7;
            let mut st = Empires::fold(&Empires::setup(&GameConfig::new(players, seed)).unwrap());
            let mut rng = GameRng::seeded(seed);
            let names: Vec<String> = (1..=players).map(|i| format!("Player {i}")).collect();
            for n in 0..4000 {
                if n % 40 == 0 || st.outcome.is_some() {
                    for v in std::iter::once(Viewer::Public).chain((0..players).map(|s| Viewer::Seat(Seat(s)))) {
                        let view = Empires::view(&st, v);
                        out.push((format!("{players}p {v:?} after {n}"), scene(&view, &names)));
                    }
                }
                if st.outcome.is_some() {
                    break;
                }
                let Some(p) = Empires::pending(&st).into_iter().find(|p| !p.submitted) else {
                    break;
                };
                let legal = Empires::legal_actions(&st, p.seat);
                let pick = if legal.contains(&Action::Sheet(orrery_engine::SheetEdit::Ready)) && rng.below(3) == 0 {
                    Action::Sheet(orrery_engine::SheetEdit::Ready)
                } else {
                    rng.pick(&legal).unwrap().clone()
                };
                for e in Empires::decide(&st, p.seat, &pick).unwrap() {
                    Empires::apply(&mut st, &e);
                }
            }
        }
        out
    }

    /// Every text is at least 27 px and inside the picture; every column
    /// letter and row number is on the map at that size.
    #[test]
    fn every_text_is_large_enough_and_on_the_board() {
        let boards = boards();
        assert!(boards.len() > 30);
        for (what, sc) in &boards {
            for item in &sc.items {
                if let Item::Text(t) = item {
                    assert!(t.size >= SMALL, "{what}: {:?} at {} px", t.text, t.size);
                    let (x, y, w, h) = text_box(t);
                    assert!(
                        x >= 0.0 && y >= 0.0 && x + w <= WIDTH as f32 && y + h <= HEIGHT as f32,
                        "{what}: {:?} off the board at {x},{y} ({w}×{h})",
                        t.text
                    );
                }
            }
        }
    }

    #[test]
    fn every_hex_can_be_found_by_name() {
        for players in 2..=4u8 {
            let board = Board::new(players).unwrap();
            let st = Empires::fold(&Empires::setup(&GameConfig::new(players, 1)).unwrap());
            let sc = scene(&Empires::view(&st, Viewer::Public), &[]);
            let texts: Vec<&str> = sc
                .items
                .iter()
                .filter_map(|i| match i {
                    Item::Text(t) if t.size >= SMALL => Some(t.text.as_str()),
                    _ => None,
                })
                .collect();
            for h in board.hexes() {
                let name = board.name(h);
                let (col, row) = name.split_at(1);
                assert!(texts.contains(&col), "{players}p: column {col}");
                assert!(texts.contains(&row), "{players}p: row {row}");
            }
            // The map fills its corner: nearly 40% of the picture.
            let lay = layout(&board);
            let hexes: Vec<Hex> = board.hexes().collect();
            let (x0, y0, x1, y1) = lay.bounds(&hexes);
            assert!(
                (x1 - x0) * (y1 - y0) > 0.38 * (WIDTH * HEIGHT) as f32,
                "{players}p: the map is {}×{}",
                x1 - x0,
                y1 - y0
            );
        }
    }
}
