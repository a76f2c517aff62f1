//! The board picture (1600 x 1200), built from a view only.
//!
//! Top: a header with the period, phase and round (or the outcome). Middle:
//! the planets in a row, Mercury to the Kuiper Belt, with the Moon under
//! Earth; each shows its crisis level, flipped / cleared marks, an Alien
//! tile, its face-up tiles (number, type, defence, skull mark, crisis dice)
//! and every colour's units, mines and factories there. Bottom left: the
//! players (money, cards held, income, VP, Pass cubes, kept tiles, First
//! Player, turn, who the game waits on; the viewer's own hand in their own
//! view only). Bottom right: the Pass card, deck, discard pile, bag, the
//! claim in progress, crisis losses owed and Mercury's offer.

use super::basics::board::{Phase, Planet, PlayerCount};
use super::basics::tiles::{Defence, TileKind, TileRef};
use super::state::{Holdings, LossKind, UnitCounts};
use super::view::{PlanetView, SeatView, TileView, View};
use crate::shared::draw::PLAYER_COLORS;
use crate::shared::draw::{fit_text, name_of, rounded, txt, wrap};
use crate::shared::menu::and_list;
use orrery_engine::{Outcome, Seat, Viewer};
use orrery_render::{measure_text, Anchor, Color, Scene, Stroke};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;

const BG: Color = Color::rgb(14, 16, 28);
const PANEL: Color = Color::rgb(28, 32, 48);
const PLANET_BG: Color = Color::rgb(34, 38, 58);
const FLIPPED_BG: Color = Color::rgb(58, 30, 56);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(170, 174, 190);
const HALO: Color = Color::rgb(0, 0, 0);
const GOLD: Color = Color::rgb(250, 214, 70);
const ALERT: Color = Color::rgb(235, 70, 60);
const ORANGE: Color = Color::rgb(245, 150, 50);
const EDGE: Color = Color::rgb(84, 90, 118);
const SPENT: Color = Color::rgb(140, 144, 160);
/// Mines and factories in the holdings rows.
const PIECE: Color = Color::rgb(255, 255, 255);

/// The fifth colour (Solar Crisis seats up to five): yellow, the remaining
/// Okabe-Ito hue that reads on the dark board.
const FIFTH_COLOR: Color = Color::rgb(240, 228, 66);

/// A seat's colour: the four shared player colours, then yellow.
pub fn player_color(seat: Seat) -> Color {
    PLAYER_COLORS.get(seat.index()).copied().unwrap_or(FIFTH_COLOR)
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Where the game is, in `view::phase`'s words: "Period 2 · Player
/// actions · Round 3", "Period 1 · Crises · Mars", "Period 3 · Game over".
pub fn phase_label(view: &View) -> String {
    if view.outcome.is_some() {
        return if view.period == 0 {
            "Game over".to_string()
        } else {
            format!("Period {} · Game over", view.period)
        };
    }
    match (view.period, view.phase) {
        (0, _) => "Setting up".to_string(),
        (period, None) => format!("Period {period}"),
        (period, Some(Phase::PlayerActions)) if view.round > 0 => {
            format!("Period {period} · {} · Round {}", Phase::PlayerActions, view.round)
        }
        (period, Some(Phase::Crises)) => match view.crisis {
            Some(planet) => format!("Period {period} · {} · {planet}", Phase::Crises),
            None => format!("Period {period} · {}", Phase::Crises),
        },
        (period, Some(p)) => format!("Period {period} · {p}"),
    }
}

/// A seat's VP as the view shows it: the final VP once scored.
fn vp_of(view: &View, seat: Seat) -> u32 {
    view.final_vp
        .get(seat.index())
        .copied()
        .or_else(|| view.seats.get(seat.index()).map(|s| s.vp))
        .unwrap_or(0)
}

/// The outcome in words: "Alice wins with 23 VP (most VP)", "Everyone
/// loses — the robots rebelled".
fn outcome_text(view: &View, outcome: &Outcome, names: &[String], with_reason: bool) -> String {
    match outcome {
        Outcome::AllLose { reason } => format!("Everyone loses — {reason}"),
        _ => {
            let winners = outcome.winners();
            let who: Vec<String> = winners.iter().map(|&s| name_of(names, s)).collect();
            let vp = winners.first().map(|&s| vp_of(view, s)).unwrap_or(0);
            let verb = if winners.len() == 1 { "wins" } else { "share the win" };
            let reason = outcome.reason();
            if reason.is_empty() || !with_reason {
                format!("{} {verb} with {vp} VP", and_list(&who))
            } else {
                format!("{} {verb} with {vp} VP · {reason}", and_list(&who))
            }
        }
    }
}

/// Draw the board for one view. Names are the seats' display names.
pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    header(&mut sc, view, names);
    planets(&mut sc, view);
    legend_line(&mut sc, LEGEND_Y);
    let top = LEGEND_Y + 30.0;
    players(&mut sc, view, names, 12.0, top, 980.0);
    info_panel(&mut sc, view, names, 1004.0, top, WIDTH as f32 - 1016.0);
    sc
}

// ---------------------------------------------------------------------------
// Header

const HEADER_H: f32 = 64.0;

fn header(sc: &mut Scene, view: &View, names: &[String]) {
    rounded(sc, (0.0, 0.0, WIDTH as f32, HEADER_H), 0.0, Some(PANEL), None);
    let title = format!("Solar Crisis · {}", phase_label(view));
    let (title, size) = fit_text(&title, 30.0, 20.0, 820.0, true);
    let title_w = measure_text(&title, size, true).0;
    sc.text(
        txt(20.0, HEADER_H / 2.0, title, size, TEXT)
            .anchor(Anchor::CenterLeft)
            .bold(),
    );
    let (status, color) = match &view.outcome {
        Some(o @ Outcome::AllLose { .. }) => (outcome_text(view, o, names, true), ALERT),
        Some(o) => (outcome_text(view, o, names, false), GOLD),
        None => match &view.turn {
            Some(t) => (
                format!(
                    "{}'s turn · action {} of {}",
                    name_of(names, t.seat),
                    (t.actions_taken + 1).min(t.actions_allowed.max(1)),
                    t.actions_allowed
                ),
                player_color(t.seat),
            ),
            None => match view.pending.first() {
                Some(p) => (
                    format!("Waiting on {}", waiting_names(view, names)),
                    player_color(p.seat),
                ),
                None => (String::new(), TEXT),
            },
        },
    };
    if !status.is_empty() {
        let room = WIDTH as f32 - title_w - 80.0;
        let (status, size) = fit_text(&status, 24.0, 16.0, room, true);
        sc.text(
            txt(WIDTH as f32 - 20.0, HEADER_H / 2.0, status, size, color)
                .anchor(Anchor::CenterRight)
                .bold()
                .halo(HALO),
        );
    }
}

/// "Bob (pay), Carol (lose)".
fn waiting_names(view: &View, names: &[String]) -> String {
    let who: Vec<String> = view
        .pending
        .iter()
        .map(|p| format!("{} ({})", name_of(names, p.seat), p.kind))
        .collect();
    who.join(", ")
}

// ---------------------------------------------------------------------------
// The planets

const MARGIN: f32 = 8.0;
const GAP: f32 = 6.0;
const PLANETS_TOP: f32 = HEADER_H + 10.0;
const PLANETS_BOTTOM: f32 = 716.0;
const LEGEND_Y: f32 = PLANETS_BOTTOM + 6.0;
/// The gap between Earth's box and the Moon's (the link between them).
const MOON_LINK: f32 = 24.0;
/// The least height of Earth's or the Moon's box.
const MIN_BOX_H: f32 = 170.0;
const COLUMNS: [Planet; 7] = [
    Planet::Mercury,
    Planet::Venus,
    Planet::Earth,
    Planet::Mars,
    Planet::Ganymede,
    Planet::Titan,
    Planet::KuiperBelt,
];

fn col_w() -> f32 {
    (WIDTH as f32 - 2.0 * MARGIN - GAP * (COLUMNS.len() as f32 - 1.0)) / COLUMNS.len() as f32
}

/// Where a planet's box is: (x, y, w, h).
pub fn planet_rect(view: &View, planet: Planet) -> (f32, f32, f32, f32) {
    let w = col_w();
    let col_x = |i: usize| MARGIN + i as f32 * (w + GAP);
    let full = PLANETS_BOTTOM - PLANETS_TOP;
    let earth_h = earth_height(view);
    match planet {
        Planet::Moon => {
            let y = PLANETS_TOP + earth_h + MOON_LINK;
            (col_x(2), y, w, PLANETS_BOTTOM - y)
        }
        Planet::Earth => (col_x(2), PLANETS_TOP, w, earth_h),
        p => {
            let i = COLUMNS.iter().position(|&c| c == p).unwrap_or(0);
            (col_x(i), PLANETS_TOP, w, full)
        }
    }
}

/// The height a planet's box needs to show everything on it.
fn content_height(view: &View, planet: Planet) -> f32 {
    let Some(pv) = view.planets.iter().find(|p| p.planet == planet) else {
        return 0.0;
    };
    let holders = view
        .seats
        .iter()
        .filter(|s| s.planets.get(&planet).is_some_and(|hd| !is_empty(hd)))
        .count();
    let tiles: f32 = pv.tiles.iter().map(|t| tile_height(t) + 4.0).sum();
    let alien = if pv.alien.is_some() { 44.0 } else { 0.0 };
    68.0 + alien + tiles.max(24.0) + holders as f32 * 26.0 + 16.0
}

/// Earth's box height: the Moon's box takes what it needs (at least
/// [`MIN_BOX_H`]), Earth the rest; when both cannot fit, they share the
/// column by need.
fn earth_height(view: &View) -> f32 {
    let total = PLANETS_BOTTOM - PLANETS_TOP - MOON_LINK;
    let earth = content_height(view, Planet::Earth);
    let moon = content_height(view, Planet::Moon).max(MIN_BOX_H);
    let h = if earth + moon <= total {
        total - moon
    } else {
        total * earth / (earth + moon)
    };
    h.clamp(MIN_BOX_H, total - MIN_BOX_H)
}

fn planets(sc: &mut Scene, view: &View) {
    // The line of planets, and the Moon's link under Earth, behind the boxes.
    let (ex, ey, ew, eh) = planet_rect(view, Planet::Earth);
    let link = Stroke::new(EDGE, 3.0);
    sc.line(
        vec![
            (MARGIN + 10.0, PLANETS_TOP + 17.0),
            (WIDTH as f32 - MARGIN - 10.0, PLANETS_TOP + 17.0),
        ],
        link,
    );
    let (_, my, _, _) = planet_rect(view, Planet::Moon);
    sc.line(vec![(ex + ew / 2.0, ey + eh), (ex + ew / 2.0, my)], link);
    for pv in &view.planets {
        planet_box(sc, view, pv);
    }
}

/// The crisis level shown: the level set in Phase 4, else the board's.
fn level_of(view: &View, pv: &PlanetView) -> u32 {
    view.crisis_levels.get(&pv.planet).copied().unwrap_or(pv.crisis_level)
}

fn level_color(level: u32) -> Color {
    match level {
        0 => Color::rgb(70, 76, 100),
        1 | 2 => Color::rgb(200, 110, 20),
        3 => Color::rgb(200, 40, 40),
        _ => Color::rgb(150, 0, 30),
    }
}

fn planet_box(sc: &mut Scene, view: &View, pv: &PlanetView) {
    let (x, y, w, h) = planet_rect(view, pv.planet);
    let resolving = view.crisis == Some(pv.planet);
    let fill = if pv.flipped { FLIPPED_BG } else { PLANET_BG };
    let stroke = if resolving {
        Stroke::new(GOLD, 4.0)
    } else {
        Stroke::new(EDGE, 1.5)
    };
    rounded(sc, (x, y, w, h), 10.0, Some(fill), Some(stroke));
    let inner = w - 16.0;
    // Title row: the name, and the VP for 1st / 2nd / 3rd place.
    let vp = PlayerCount::new(view.players)
        .map(|pc| {
            (1..=pv.planet.vp().len())
                .filter_map(|place| pv.planet.place_vp(place, pc))
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let vp = if vp.is_empty() {
        String::new()
    } else {
        format!("VP {}", vp.join("/"))
    };
    let vp_w = if vp.is_empty() {
        0.0
    } else {
        measure_text(&vp, 15.0, false).0 + 6.0
    };
    let name_color = if resolving { GOLD } else { TEXT };
    let (name, size) = fit_text(pv.planet.name(), 22.0, 16.0, inner - vp_w, true);
    sc.text(
        txt(x + 8.0, y + 18.0, name, size, name_color)
            .anchor(Anchor::CenterLeft)
            .bold()
            .halo(HALO),
    );
    if !vp.is_empty() {
        sc.text(txt(x + w - 8.0, y + 18.0, vp, 15.0, DIM).anchor(Anchor::CenterRight));
    }
    // Crisis level badge, then the flipped / cleared / resolving marks.
    let mut cy = y + 36.0;
    let level = level_of(view, pv);
    let badge = format!("Crisis {level}");
    let bw = measure_text(&badge, 17.0, true).0 + 14.0;
    rounded(sc, (x + 8.0, cy, bw, 24.0), 6.0, Some(level_color(level)), None);
    sc.text(
        txt(x + 8.0 + bw / 2.0, cy + 12.0, badge, 17.0, TEXT)
            .anchor(Anchor::Center)
            .bold()
            .halo(HALO),
    );
    let mut marks: Vec<(&str, Color)> = Vec::new();
    if pv.flipped {
        marks.push(("FLIPPED", Color::rgb(230, 130, 230)));
    }
    if pv.cleared {
        marks.push(("cleared", Color::rgb(120, 230, 150)));
    }
    if resolving && marks.is_empty() {
        marks.push(("now", GOLD));
    }
    let mut mx = x + 8.0 + bw + 6.0;
    for (m, color) in marks {
        let (m, size) = fit_text(m, 16.0, 14.0, (x + w - 8.0 - mx).max(10.0), true);
        let mw = measure_text(&m, size, true).0;
        sc.text(
            txt(mx, cy + 12.0, m, size, color)
                .anchor(Anchor::CenterLeft)
                .bold()
                .halo(HALO),
        );
        mx += mw + 6.0;
    }
    cy += 32.0;
    // An Alien tile: a round red token.
    if let Some(alien) = pv.alien {
        rounded(
            sc,
            (x + 6.0, cy, w - 12.0, 38.0),
            8.0,
            Some(Color::rgb(90, 16, 20)),
            Some(Stroke::new(ALERT, 2.0)),
        );
        sc.circle(
            x + 26.0,
            cy + 19.0,
            15.0,
            Some(ALERT),
            Some(Stroke::new(Color::WHITE, 2.0)),
        );
        sc.text(
            txt(x + 26.0, cy + 19.0, alien.name(), 15.0, Color::WHITE)
                .anchor(Anchor::Center)
                .bold(),
        );
        let (label, size) = fit_text(&format!("ALIEN {alien} · def 7"), 19.0, 14.0, w - 64.0, true);
        sc.text(
            txt(x + 48.0, cy + 19.0, label, size, Color::rgb(255, 120, 110))
                .anchor(Anchor::CenterLeft)
                .bold()
                .halo(HALO),
        );
        cy += 44.0;
    }
    // Holdings from the bottom up; tiles fill what is left above them.
    let holders: Vec<(Seat, &Holdings)> = view
        .seats
        .iter()
        .filter_map(|s| s.planets.get(&pv.planet).map(|hd| (s.seat, hd)))
        .filter(|(_, hd)| !is_empty(hd))
        .collect();
    let row_h = 26.0;
    let holdings_h = holders.len() as f32 * row_h;
    let holdings_top = y + h - 8.0 - holdings_h;
    if !holders.is_empty() {
        sc.line(
            vec![(x + 8.0, holdings_top - 4.0), (x + w - 8.0, holdings_top - 4.0)],
            Stroke::new(EDGE, 1.0),
        );
    }
    // The income ranking: the VP each colour's income here would score now
    // (ties score the higher place; no income, no place).
    let mut incomes: Vec<u32> = holders.iter().map(|(_, hd)| hd.income()).filter(|&v| v > 0).collect();
    incomes.sort_unstable_by(|a, b| b.cmp(a));
    incomes.dedup();
    let standing = |hd: &Holdings| -> Option<u32> {
        let place = incomes.iter().position(|&v| v == hd.income())? + 1;
        pv.planet.place_vp(place, PlayerCount::new(view.players)?)
    };
    for (i, (seat, hd)) in holders.iter().enumerate() {
        let top = holdings_top + i as f32 * row_h;
        let vp = standing(hd);
        // A small gold pill with the VP: the legend explains it.
        let badge = vp.map(|v| v.to_string()).unwrap_or_default();
        let pill_w = if badge.is_empty() {
            0.0
        } else {
            measure_text(&badge, 15.0, true).0 + 10.0
        };
        holdings_row(sc, *seat, hd, x + 8.0, top, inner - pill_w - 4.0);
        if !badge.is_empty() {
            let px = x + 8.0 + inner - pill_w;
            rounded(sc, (px, top + 3.0, pill_w, 18.0), 9.0, Some(GOLD), None);
            sc.text(
                txt(px + pill_w / 2.0, top + 12.0, badge, 15.0, Color::BLACK)
                    .anchor(Anchor::Center)
                    .bold(),
            );
        }
    }
    // Tiles: every one if they fit, else as many as fit above "+N more".
    let avail = holdings_top - 8.0 - cy;
    let n = pv.tiles.len();
    let steps: Vec<f32> = pv.tiles.iter().map(|t| tile_height(t) + 4.0).collect();
    let shown = if steps.iter().sum::<f32>() <= avail {
        n
    } else {
        let mut used = 24.0;
        steps
            .iter()
            .take_while(|&&st| {
                used += st;
                used <= avail
            })
            .count()
    };
    let mut ty = cy;
    for (t, st) in pv.tiles.iter().zip(&steps).take(shown) {
        tile_chip(sc, t, x + 4.0, ty, w - 8.0);
        ty += st;
    }
    if shown < n {
        let more = format!("+{} more tiles", n - shown);
        sc.text(txt(x + 10.0, ty + 2.0, more, 16.0, DIM).bold());
    } else if n == 0 && pv.alien.is_none() && !pv.flipped {
        sc.text(txt(x + 10.0, cy + 2.0, "no tiles", 16.0, SPENT));
    }
}

fn is_empty(hd: &Holdings) -> bool {
    hd.units() == UnitCounts::NONE && hd.mines == 0 && hd.factories == 0
}

/// Short words for tile types.
fn kind_word(kind: TileKind) -> &'static str {
    match kind {
        TileKind::DrawTwoCards => "2 Cards",
        k => k.name(),
    }
}

fn kind_color(kind: TileKind) -> Color {
    match kind {
        TileKind::Mine => Color::rgb(120, 84, 50),
        TileKind::Factory => Color::rgb(60, 90, 130),
        TileKind::Windfall => Color::rgb(130, 112, 30),
        TileKind::DrawTwoCards => Color::rgb(30, 110, 110),
        TileKind::BigGame => Color::rgb(50, 120, 60),
        TileKind::Crisis => Color::rgb(150, 40, 40),
        TileKind::Tension => Color::rgb(110, 60, 140),
        TileKind::Alien => Color::rgb(150, 20, 30),
    }
}

fn defence_word(d: Defence) -> String {
    match d {
        Defence::Printed(v) => format!("def {v}"),
        Defence::DefenderUnits => "def units".to_string(),
    }
}

/// One face-up tile: number, type, defence, skull mark and crisis dice.
/// A tile chip's height: a second line for crisis dice.
fn tile_height(t: &TileView) -> f32 {
    if t.crisis_dice > 0 {
        52.0
    } else {
        29.0
    }
}

fn tile_chip(sc: &mut Scene, t: &TileView, x: f32, y: f32, w: f32) {
    let h = tile_height(t);
    let cy = y + 14.5;
    rounded(
        sc,
        (x, y, w, h),
        5.0,
        Some(kind_color(t.kind)),
        Some(Stroke::new(Color::rgb(20, 20, 28), 1.0)),
    );
    let num = t.id.to_string();
    sc.text(
        txt(x + 5.0, cy, num.clone(), 19.0, TEXT)
            .anchor(Anchor::CenterLeft)
            .bold()
            .halo(HALO),
    );
    let num_w = measure_text(&num, 19.0, true).0;
    // Crisis dice on a second line: a die per level, then the count.
    if t.crisis_dice > 0 {
        let dy = y + 39.0;
        let drawn = t.crisis_dice.min(5);
        for k in 0..drawn {
            let dx = x + 6.0 + k as f32 * 22.0;
            rounded(
                sc,
                (dx, dy - 9.0, 18.0, 18.0),
                4.0,
                Some(Color::WHITE),
                Some(Stroke::new(Color::BLACK, 1.5)),
            );
            sc.circle(dx + 9.0, dy, 2.8, Some(Color::BLACK), None);
        }
        let label = if t.crisis_dice == 1 {
            "crisis die".to_string()
        } else {
            format!("×{} crisis dice", t.crisis_dice)
        };
        let lx = x + 6.0 + drawn as f32 * 22.0 + 2.0;
        let (label, size) = fit_text(&label, 16.0, 14.0, (x + w - 5.0 - lx).max(10.0), true);
        sc.text(
            txt(lx, dy, label, size, TEXT)
                .anchor(Anchor::CenterLeft)
                .bold()
                .halo(HALO),
        );
    }
    // From the right: skull mark, defence.
    let mut rx = x + w - 5.0;
    if t.skull {
        sc.text(
            txt(rx, cy, "☠", 19.0, Color::rgb(255, 235, 235))
                .anchor(Anchor::CenterRight)
                .halo(HALO),
        );
        rx -= measure_text("☠", 19.0, false).0 + 3.0;
    }
    let def = defence_word(t.defence);
    sc.text(
        txt(rx, cy, def.clone(), 17.0, TEXT)
            .anchor(Anchor::CenterRight)
            .halo(HALO),
    );
    rx -= measure_text(&def, 17.0, false).0 + 5.0;
    let room = rx - (x + 5.0 + num_w + 5.0);
    let (kind, size) = fit_text(kind_word(t.kind), 17.0, 14.0, room.max(12.0), true);
    sc.text(
        txt(x + 5.0 + num_w + 5.0, cy, kind, size, TEXT)
            .anchor(Anchor::CenterLeft)
            .bold()
            .halo(HALO),
    );
}

/// "4i 2s", "1t": the non-zero counts.
fn units_short(u: &UnitCounts) -> String {
    let mut parts = Vec::new();
    if u.infantry > 0 {
        parts.push(format!("{}i", u.infantry));
    }
    if u.spaceship > 0 {
        parts.push(format!("{}s", u.spaceship));
    }
    if u.tank > 0 {
        parts.push(format!("{}t", u.tank));
    }
    parts.join(" ")
}

/// One colour's holdings on a planet: ready units, (spent units), mines
/// and factories, in segments of their own colours.
fn holdings_row(sc: &mut Scene, seat: Seat, hd: &Holdings, x: f32, y: f32, w: f32) {
    let color = player_color(seat);
    rounded(
        sc,
        (x, y + 4.0, 16.0, 16.0),
        3.0,
        Some(color),
        Some(Stroke::new(Color::BLACK, 1.0)),
    );
    let mut segs: Vec<(String, Color, bool)> = Vec::new();
    let ready = units_short(&hd.orbit);
    if !ready.is_empty() {
        segs.push((ready, color, true));
    }
    let spent = units_short(&hd.surface);
    if !spent.is_empty() {
        segs.push((format!("({spent})"), SPENT, false));
    }
    let mut pieces = Vec::new();
    if hd.mines > 0 {
        pieces.push(format!("M{}", hd.mines));
    }
    if hd.factories > 0 {
        pieces.push(format!("F{}", hd.factories));
    }
    if !pieces.is_empty() {
        segs.push((pieces.join(" "), PIECE, true));
    }
    let room = w - 22.0;
    let mut size = 19.0;
    let total = |size: f32| -> f32 {
        segs.iter()
            .map(|(s, _, b)| measure_text(s, size, *b).0 + 7.0)
            .sum::<f32>()
            - 7.0
    };
    while size > 14.0 && total(size) > room {
        size -= 1.0;
    }
    let mut cx = x + 22.0;
    for (s, c, b) in segs {
        let (s, sz) = fit_text(&s, size, 14.0, (x + w - cx).max(10.0), b);
        let sw = measure_text(&s, sz, b).0;
        let mut t = txt(cx, y + 12.0, s, sz, c).anchor(Anchor::CenterLeft).halo(HALO);
        if b {
            t = t.bold();
        }
        sc.text(t);
        cx += sw + 7.0;
        if cx >= x + w {
            break;
        }
    }
}

fn legend_line(sc: &mut Scene, y: f32) {
    let s = "i infantry · s spaceship · t tank · (spent, on the surface) · M mine · F factory · gold N: VP scored here now · ☠ skull-marked · ▢ crisis die";
    let (s, size) = fit_text(s, 17.0, 14.0, WIDTH as f32 - 2.0 * MARGIN, false);
    sc.text(txt(MARGIN + 4.0, y, s, size, DIM));
}

// ---------------------------------------------------------------------------
// The players

fn players(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - 10.0;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let n = view.seats.len().max(1) as f32;
    // The viewer's own row holds the hand too.
    let hand_lines = |s: &SeatView| -> u32 {
        s.hand
            .as_ref()
            .map(|hand| hand_layout(hand.iter().map(|c| c.name()), hand_width(w - 24.0)).len() as u32)
            .unwrap_or(0)
    };
    let extra: f32 = view
        .seats
        .iter()
        .map(|s| match hand_lines(s) {
            0 => 0.0,
            k => k as f32 * HAND_LINE + 4.0,
        })
        .sum();
    let row_h = ((h - 12.0 - extra) / n).min(80.0);
    let mut y = y0 + 8.0;
    for s in &view.seats {
        let lines = hand_lines(s);
        let rh = row_h + lines as f32 * HAND_LINE + if lines > 0 { 4.0 } else { 0.0 };
        player_row(sc, view, s, names, x0 + 12.0, y, w - 24.0, rh);
        y += rh;
    }
}

/// The height of a line of hand cards.
const HAND_LINE: f32 = 32.0;
const HAND_SIZE: f32 = 17.0;

/// The width the hand's chips may take in a player row of width `w`.
fn hand_width(w: f32) -> f32 {
    w - 40.0
}

/// Cards as chips on lines of `width`: (line, x offset, text, chip width).
fn hand_layout<'a>(cards: impl Iterator<Item = &'a str>, width: f32) -> Vec<Vec<(f32, &'a str, f32)>> {
    let mut lines: Vec<Vec<(f32, &'a str, f32)>> = Vec::new();
    let mut x = 0.0;
    for c in cards {
        let cw = measure_text(c, HAND_SIZE, true).0 + 14.0;
        if lines.is_empty() || (x + cw > width && x > 0.0) {
            lines.push(Vec::new());
            x = 0.0;
        }
        if let Some(line) = lines.last_mut() {
            line.push((x, c, cw));
        }
        x += cw + 6.0;
    }
    lines
}

#[allow(clippy::too_many_arguments)]
fn player_row(sc: &mut Scene, view: &View, s: &SeatView, names: &[String], x: f32, y: f32, w: f32, h: f32) {
    let color = player_color(s.seat);
    let on_turn = view.turn.as_ref().is_some_and(|t| t.seat == s.seat);
    let waiting: Vec<&str> = view
        .pending
        .iter()
        .filter(|p| p.seat == s.seat)
        .map(|p| p.kind.as_str())
        .collect();
    if on_turn || !waiting.is_empty() {
        rounded(
            sc,
            (x - 6.0, y, w + 12.0, h - 4.0),
            6.0,
            Some(Color::rgb(40, 46, 70)),
            Some(Stroke::new(color, 2.0)),
        );
    }
    let line1 = y + 19.0;
    rounded(
        sc,
        (x, line1 - 11.0, 22.0, 22.0),
        4.0,
        Some(color),
        Some(Stroke::new(Color::BLACK, 1.0)),
    );
    let mut name = name_of(names, s.seat);
    if view.viewer == Viewer::Seat(s.seat) {
        name.push_str(" (you)");
    }
    let (name, size) = fit_text(&name, 24.0, 16.0, 320.0, true);
    let name_w = measure_text(&name, size, true).0;
    sc.text(
        txt(x + 30.0, line1, name, size, color)
            .anchor(Anchor::CenterLeft)
            .bold()
            .halo(HALO),
    );
    // VP at the right.
    let vp = format!("{} VP", vp_of(view, s.seat));
    sc.text(
        txt(x + w - 4.0, line1, vp.clone(), 24.0, GOLD)
            .anchor(Anchor::CenterRight)
            .bold()
            .halo(HALO),
    );
    let vp_w = measure_text(&vp, 24.0, true).0;
    // Badges: First Player, turn, waiting.
    let mut badges: Vec<(String, Color, Color)> = Vec::new();
    if view.outcome.as_ref().is_some_and(|o| o.winners().contains(&s.seat)) {
        badges.push(("WINNER".into(), GOLD, Color::rgb(20, 20, 28)));
    }
    if view.first_player == Some(s.seat) {
        badges.push(("First Player".into(), GOLD, Color::rgb(20, 20, 28)));
    }
    if let Some(t) = view.turn.as_ref().filter(|t| t.seat == s.seat) {
        badges.push((
            format!(
                "TURN · action {} of {}",
                (t.actions_taken + 1).min(t.actions_allowed.max(1)),
                t.actions_allowed
            ),
            Color::WHITE,
            Color::rgb(20, 20, 28),
        ));
    }
    let owed: Vec<&str> = waiting.iter().copied().filter(|k| !(on_turn && *k == "turn")).collect();
    if !owed.is_empty() {
        badges.push((format!("waiting: {}", owed.join(", ")), ORANGE, Color::rgb(20, 20, 28)));
    }
    let mut bx = x + 30.0 + name_w + 12.0;
    let limit = x + w - vp_w - 16.0;
    for (label, fill, fg) in badges {
        let room = limit - bx - 12.0;
        if room < 40.0 {
            break;
        }
        let (label, size) = fit_text(&label, 17.0, 14.0, room, true);
        let bw = measure_text(&label, size, true).0 + 12.0;
        rounded(sc, (bx, line1 - 13.0, bw, 26.0), 6.0, Some(fill), None);
        sc.text(txt(bx + bw / 2.0, line1, label, size, fg).anchor(Anchor::Center).bold());
        bx += bw + 8.0;
    }
    // Line 2: money, cards, income, Pass cubes, kept tiles.
    let kept: Vec<String> = s.kept.iter().map(|t| kept_word(*t)).collect();
    let kept = if kept.is_empty() {
        "no kept tiles".to_string()
    } else {
        format!("kept {} ({})", kept.len(), kept.join(", "))
    };
    let stats = format!(
        "£{} · {} in hand · income £{} · {} · {}",
        s.money,
        plural(s.hand_size, "card", "cards"),
        s.income,
        plural(s.cubes_taken, "Pass cube", "Pass cubes"),
        kept
    );
    let (stats, size) = fit_text(&stats, 20.0, 14.0, w - 34.0, false);
    sc.text(txt(x + 30.0, line1 + 17.0, stats, size, TEXT));
    // The hand: only the viewer's own (the view holds no other).
    if let Some(hand) = &s.hand {
        let top = line1 + 48.0;
        for (i, line) in hand_layout(hand.iter().map(|c| c.name()), hand_width(w))
            .iter()
            .enumerate()
        {
            let ly = top + i as f32 * HAND_LINE;
            for &(dx, card, cw) in line {
                let cx = x + 30.0 + dx;
                rounded(
                    sc,
                    (cx, ly, cw, 28.0),
                    5.0,
                    Some(Color::rgb(230, 230, 236)),
                    Some(Stroke::new(color, 2.0)),
                );
                sc.text(
                    txt(cx + cw / 2.0, ly + 14.0, card, HAND_SIZE, Color::rgb(20, 20, 30))
                        .anchor(Anchor::Center)
                        .bold(),
                );
            }
        }
    }
}

/// "#34 Big Game", "A1 Alien".
fn kept_word(t: TileRef) -> String {
    match t {
        TileRef::Bag(id) => format!("{id} {}", id.kind()),
        TileRef::Alien(a) => format!("{a} Alien"),
    }
}

// ---------------------------------------------------------------------------
// The side panel

fn dice_words(dice: &[super::state::Die]) -> String {
    dice.iter()
        .map(|d| if d.is_skull() { "☠".to_string() } else { d.to_string() })
        .collect::<Vec<_>>()
        .join(" ")
}

fn info_panel(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - 10.0;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let mut lines: Vec<(String, Color, bool)> = Vec::new();
    if let Some(outcome) = &view.outcome {
        let color = if matches!(outcome, Outcome::AllLose { .. }) {
            ALERT
        } else {
            GOLD
        };
        lines.push((outcome_text(view, outcome, names, true), color, true));
        if !view.final_vp.is_empty() {
            let vps: Vec<String> = view
                .final_vp
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} {v}", name_of(names, Seat(u8::try_from(i).unwrap_or(u8::MAX)))))
                .collect();
            lines.push((format!("Final VP · {}", vps.join(" · ")), TEXT, false));
        }
    }
    lines.push((
        format!(
            "Pass cubes left {} · Deck {} · Bag {}",
            view.pass_cubes,
            plural(view.deck_size, "card", "cards"),
            plural(view.bag.count, "tile", "tiles")
        ),
        TEXT,
        true,
    ));
    if !view.bag.by_kind.is_empty() {
        let kinds: Vec<String> = view
            .bag
            .by_kind
            .iter()
            .map(|(k, n)| format!("{} {n}", kind_word(*k)))
            .collect();
        lines.push((format!("In the bag: {}", kinds.join(" · ")), DIM, false));
    }
    if view.discard.is_empty() {
        lines.push(("Discard pile: empty".to_string(), DIM, false));
    } else {
        let top: Vec<String> = view
            .discard
            .iter()
            .rev()
            .take(3)
            .map(|c| c.name().to_string())
            .collect();
        lines.push((
            format!("Discard pile ({}), top: {}", view.discard.len(), top.join(" · ")),
            DIM,
            false,
        ));
    }
    if view.invaded {
        lines.push(("The aliens have invaded".to_string(), ALERT, true));
    }
    if let Some(t) = &view.turn {
        if !t.played.is_empty() {
            let played: Vec<&str> = t.played.iter().map(|c| c.name()).collect();
            lines.push((
                format!("{} played: {}", name_of(names, t.seat), played.join(" · ")),
                player_color(t.seat),
                false,
            ));
        }
        if let Some(c) = &t.claim {
            let what = match c.tile {
                TileRef::Bag(id) => format!("{id} {}", id.kind()),
                TileRef::Alien(a) => format!("Alien {a}"),
            };
            let against = c
                .target
                .map(|tt| format!(" vs {}'s {}", name_of(names, tt.seat), tt.piece))
                .unwrap_or_default();
            let def = if c.effective_defence == c.defence {
                format!("defence {}", c.defence)
            } else {
                format!("defence {} (halved {})", c.defence, c.effective_defence)
            };
            lines.push((
                format!(
                    "Claim: {} · {what} at {}{against} · {def}",
                    name_of(names, c.seat),
                    c.planet
                ),
                player_color(c.seat),
                true,
            ));
            let dice = match &c.dice {
                Some(d) => format!(
                    "Dice {} · cost {} CP · casualties {}",
                    dice_words(d),
                    c.cost,
                    c.casualties
                ),
                None => "Dice not rolled yet".to_string(),
            };
            lines.push((dice, TEXT, true));
            if !c.cards.is_empty() {
                let cards: Vec<&str> = c.cards.iter().map(|c| c.name()).collect();
                lines.push((format!("Claim cards: {}", cards.join(" · ")), DIM, false));
            }
        }
    }
    if let Some(m) = &view.mercury {
        lines.push((
            format!(
                "Mercury's powers: {} may use them (level {})",
                name_of(names, m.seat),
                m.level
            ),
            player_color(m.seat),
            true,
        ));
    }
    for d in &view.losses {
        let what = match d.kind {
            LossKind::UnitsThenPieces => "units (or pieces)",
            LossKind::Pieces => "mines or factories",
        };
        let from: Vec<&str> = d.planets.iter().map(|p| p.name()).collect();
        lines.push((
            format!(
                "{} owes {} {what} from {}",
                name_of(names, d.seat),
                d.count,
                from.join(", ")
            ),
            player_color(d.seat),
            true,
        ));
    }
    if view.outcome.is_none() && !view.pending.is_empty() {
        lines.push((format!("Waiting on {}", waiting_names(view, names)), ORANGE, false));
    }
    if let Some(e) = &view.espionage {
        let cards: Vec<&str> = e.hand.iter().map(|c| c.name()).collect();
        let cards = if cards.is_empty() {
            "no cards".to_string()
        } else {
            cards.join(" · ")
        };
        lines.push((
            format!("Espionage: {}'s hand · {cards}", name_of(names, e.target)),
            GOLD,
            false,
        ));
    }
    let mut y = y0 + 10.0;
    let line_h = 27.0;
    for (s, color, bold) in lines {
        for line in wrap(&s, 19.0, w - 24.0, bold) {
            if y + line_h > y0 + h - 4.0 {
                return;
            }
            let (line, size) = fit_text(&line, 19.0, 14.0, w - 24.0, bold);
            let mut t = txt(x0 + 12.0, y, line, size, color).halo(HALO);
            if bold {
                t = t.bold();
            }
            sc.text(t);
            y += line_h;
        }
        y += 4.0;
    }
}

#[cfg(test)]
mod tests;
