//! The board picture (1600 x 1200), built from a view only.
//!
//! Drawn for a chat column: Discord shows the board about 550 px wide, so
//! no text is under 27 px (9 px there). Top: a header with the period,
//! phase and round, and the turn or the outcome where it fits (the players'
//! panel and the side panel say them too). Middle: the planets in a row,
//! Mercury to the Kuiper Belt, with the Moon under Earth; each shows its
//! crisis level, the VP for 1st / 2nd / 3rd income there ("7/4/2"),
//! flipped / cleared marks, an Alien tile, its face-up tiles (number, type,
//! defence, skull mark, crisis dice as a die and "×N"), and every colour's
//! units, mines and factories there, with the VP its income scores there
//! now in a gold pill. The planet whose crisis resolves is outlined and
//! named in gold; tiles a box has no room for are listed in the side panel.
//! Two legend lines explain the short marks. The panels below take the
//! height their lines need, the planets the rest. Bottom left: the
//! players (money, cards held, income, Pass cubes, kept tiles, VP, First
//! Player, turn, what the game waits on; the viewer's own hand in their own
//! view only). Bottom right: the outcome, the Pass cubes left, deck, bag,
//! discard pile, the claim in progress, crisis losses owed, Mercury's
//! offer and Espionage. `docs/rules/solar.md`, *The board*, says the same
//! for players.

use super::basics::board::{Phase, Planet};
use super::basics::tiles::{Defence, TileKind, TileRef};
use super::state::{Holdings, LossKind, UnitCounts};
use super::view::{PlanetView, SeatView, TileView, View};
use crate::shared::draw::PLAYER_COLORS;
use crate::shared::draw::{fit_text, name_of, rounded, txt, wrap, wrap_words};
use crate::shared::menu::{and_list, counted};
use orrery_engine::{Outcome, Ruleset, Seat, Viewer};
use orrery_render::{measure_text, Anchor, Color, Scene, Stroke};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;

const BG: Color = Color::rgb(14, 16, 28);
const PANEL: Color = Color::rgb(28, 32, 48);
const PLANET_BG: Color = Color::rgb(34, 38, 58);
const FLIPPED_BG: Color = Color::rgb(58, 30, 56);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(170, 174, 190);
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
    let (bottom, legend) = layout(view, names);
    planets(&mut sc, view, bottom);
    legend_lines(&mut sc, bottom + 2.0, legend);
    let top = bottom + legend_height(legend);
    players(&mut sc, view, names, MARGIN, top, PLAYERS_W);
    info_panel(&mut sc, view, names, bottom, SPLIT + GAP / 2.0, top, INFO_W);
    sc
}

/// The players' panel's width.
const PLAYERS_W: f32 = SPLIT - MARGIN - GAP / 2.0;
/// The side panel's width.
const INFO_W: f32 = WIDTH as f32 - MARGIN - SPLIT - GAP / 2.0;

/// Where the planets end: the panels below get the height their lines
/// need (the players' rows and the side panel, whole), the planets the
/// rest. A tile its planet's box has no room for is listed in the side
/// panel, so that panel's need grows as the planets shrink: step down
/// until both fit.
pub fn planets_bottom(view: &View, names: &[String]) -> f32 {
    layout(view, names).0
}

/// Where the planets end ([`planets_bottom`]), and how many legend lines
/// the board shows ([`legend_count`]).
fn layout(view: &View, names: &[String]) -> (f32, usize) {
    let players = players_height(view, names).max(MIN_PANELS_H);
    let least = PLANETS_TOP + least_planets_height(view);
    let legend = legend_count(players, least);
    let end = HEIGHT as f32 - MARGIN - legend_height(legend);
    let mut bottom = (end - players).max(least);
    for _ in 0..8 {
        let info = info_height(view, names, bottom, INFO_W);
        let fits = (end - info.max(players)).max(least);
        if fits >= bottom {
            break;
        }
        bottom = fits;
    }
    (bottom, legend)
}

// ---------------------------------------------------------------------------
// Header

const HEADER_H: f32 = 46.0;
/// The smallest text drawn: 9 px once the board is shown 550 px wide in a
/// chat column.
const T: f32 = 27.0;
/// A line of text at [`T`].
const LINE: f32 = 32.0;
/// Where the players' panel ends and the side panel begins.
const SPLIT: f32 = 890.0;

fn header(sc: &mut Scene, view: &View, names: &[String]) {
    rounded(sc, (0.0, 0.0, WIDTH as f32, HEADER_H), 0.0, Some(PANEL), None);
    let title = format!("Solar Crisis · {}", phase_label(view));
    let (title, size) = fit_text(&title, 30.0, T, 900.0, true);
    let title_w = measure_text(&title, size, true).0;
    sc.text(
        txt(14.0, HEADER_H / 2.0, title, size, TEXT)
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
    // The status only where it fits whole: the players' panel and the
    // side panel say it too.
    let room = WIDTH as f32 - title_w - 60.0;
    if !status.is_empty() && measure_text(&status, T, true).0 <= room {
        sc.text(
            txt(WIDTH as f32 - 16.0, HEADER_H / 2.0, status, T, color)
                .anchor(Anchor::CenterRight)
                .bold(),
        );
    }
}

/// A decision kind in words ([`Ruleset::decision_name`]).
fn decision_name(kind: &str) -> String {
    <super::Solar as Ruleset>::decision_name(kind)
}

/// "Bob (paying for a claim), Carol (crisis losses)".
fn waiting_names(view: &View, names: &[String]) -> String {
    let who: Vec<String> = view
        .pending
        .iter()
        .map(|p| format!("{} ({})", name_of(names, p.seat), decision_name(&p.kind)))
        .collect();
    who.join(", ")
}

// ---------------------------------------------------------------------------
// The planets

const MARGIN: f32 = 4.0;
const GAP: f32 = 4.0;
const PLANETS_TOP: f32 = HEADER_H + 4.0;
/// The least height of the planets' row, and of the panels under it.
const MIN_PLANETS_H: f32 = 420.0;
const MIN_PANELS_H: f32 = 300.0;
/// The gap between Earth's box and the Moon's (the link between them).
const MOON_LINK: f32 = 16.0;
/// The least height of Earth's or the Moon's box.
const MIN_BOX_H: f32 = 190.0;
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

/// Where a planet's box is: (x, y, w, h). `bottom` is [`planets_bottom`].
pub fn planet_rect(view: &View, bottom: f32, planet: Planet) -> (f32, f32, f32, f32) {
    let column = if planet == Planet::Moon { Planet::Earth } else { planet };
    let i = COLUMNS.iter().position(|&c| c == column).unwrap_or(0);
    let w = col_w();
    let x = MARGIN + i as f32 * (w + GAP);
    let full = bottom - PLANETS_TOP;
    let earth_h = earth_height(view, bottom);
    match planet {
        Planet::Moon => {
            let y = PLANETS_TOP + earth_h + MOON_LINK;
            (x, y, w, bottom - y)
        }
        Planet::Earth => (x, PLANETS_TOP, w, earth_h),
        _ => (x, PLANETS_TOP, w, full),
    }
}

/// The height a planet's box needs to show everything on it.
fn content_height(view: &View, planet: Planet) -> f32 {
    let Some(pv) = view.planets.iter().find(|p| p.planet == planet) else {
        return 0.0;
    };
    let tiles: f32 = tile_steps(pv).iter().sum();
    top_height(pv) + tiles.max(LINE) + holdings_lines(view, planet) as f32 * LINE + 12.0
}

/// The lines of every colour's holdings on `planet`.
fn holdings_lines(view: &View, planet: Planet) -> usize {
    view.seats
        .iter()
        .filter_map(|s| s.planets.get(&planet).filter(|hd| !is_empty(hd)).map(|hd| (s.seat, hd)))
        .map(|(seat, hd)| holding_lines(seat, hd, col_w() - 16.0).len())
        .sum()
}

/// The least height of a planet's box: its top, every holdings line, and
/// one line for its tiles (or "+N more tiles": the side panel lists them).
fn least_height(view: &View, planet: Planet) -> f32 {
    let top = view
        .planets
        .iter()
        .find(|p| p.planet == planet)
        .map_or(BADGE_BOTTOM + 6.0, top_height);
    (top + LINE + holdings_lines(view, planet) as f32 * LINE + 12.0).max(MIN_BOX_H)
}

/// The least height of the planets' row: Earth's column holds the Moon.
fn least_planets_height(view: &View) -> f32 {
    let earth = least_height(view, Planet::Earth) + MOON_LINK + least_height(view, Planet::Moon);
    COLUMNS
        .iter()
        .filter(|&&p| p != Planet::Earth)
        .map(|&p| least_height(view, p))
        .fold(earth.max(MIN_PLANETS_H), f32::max)
}

/// Earth's box height: the Moon's box takes what it needs, Earth the rest;
/// when both cannot fit, they share the column by need, each keeping its
/// least height.
fn earth_height(view: &View, bottom: f32) -> f32 {
    let total = bottom - PLANETS_TOP - MOON_LINK;
    let earth = content_height(view, Planet::Earth);
    let moon = content_height(view, Planet::Moon).max(MIN_BOX_H);
    let h = if earth + moon <= total {
        total - moon
    } else {
        total * earth / (earth + moon)
    };
    let most = total - least_height(view, Planet::Moon);
    h.min(most).max(least_height(view, Planet::Earth))
}

fn planets(sc: &mut Scene, view: &View, bottom: f32) {
    // The line of planets, and the Moon's link under Earth, behind the boxes.
    let (ex, ey, ew, eh) = planet_rect(view, bottom, Planet::Earth);
    let link = Stroke::new(EDGE, 3.0);
    sc.line(
        vec![
            (MARGIN + 10.0, PLANETS_TOP + 20.0),
            (WIDTH as f32 - MARGIN - 10.0, PLANETS_TOP + 20.0),
        ],
        link,
    );
    let (_, my, _, _) = planet_rect(view, bottom, Planet::Moon);
    sc.line(vec![(ex + ew / 2.0, ey + eh), (ex + ew / 2.0, my)], link);
    for pv in &view.planets {
        planet_box(sc, view, pv, bottom);
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

/// The VP for 1st / 2nd / 3rd place by income here: "7/4/2".
fn place_vp_text(planet: Planet) -> String {
    planet.vp().iter().map(|v| v.to_string()).collect::<Vec<_>>().join("/")
}

/// The marks under the crisis badge, in rows that fit `width`.
fn mark_rows(pv: &PlanetView, width: f32) -> Vec<Vec<(&'static str, Color)>> {
    let mut marks: Vec<(&'static str, Color)> = Vec::new();
    if pv.flipped {
        marks.push(("FLIPPED", Color::rgb(230, 130, 230)));
    }
    if pv.cleared {
        marks.push(("cleared", Color::rgb(120, 230, 150)));
    }
    let mut rows: Vec<Vec<(&'static str, Color)>> = Vec::new();
    let mut used = 0.0;
    for m in marks {
        let mw = measure_text(m.0, T, true).0;
        match rows.last_mut() {
            Some(row) if used + 10.0 + mw <= width => {
                row.push(m);
                used += 10.0 + mw;
            }
            _ => {
                rows.push(vec![m]);
                used = mw;
            }
        }
    }
    rows
}

/// The height of the top of a planet's box: name, crisis badge, marks,
/// Alien tile.
fn top_height(pv: &PlanetView) -> f32 {
    let marks = mark_rows(pv, col_w() - 16.0).len() as f32 * LINE;
    let alien = if pv.alien.is_some() { ALIEN_H + 6.0 } else { 0.0 };
    BADGE_BOTTOM + 6.0 + marks + alien
}

/// Where the name and the crisis badge end, from the box's top.
const BADGE_BOTTOM: f32 = 74.0;
/// The Alien tile's height: two lines.
const ALIEN_H: f32 = 66.0;

fn planet_box(sc: &mut Scene, view: &View, pv: &PlanetView, bottom: f32) {
    let (x, y, w, h) = planet_rect(view, bottom, pv.planet);
    let resolving = view.crisis == Some(pv.planet);
    let fill = if pv.flipped { FLIPPED_BG } else { PLANET_BG };
    let stroke = if resolving {
        Stroke::new(GOLD, 5.0)
    } else {
        Stroke::new(EDGE, 1.5)
    };
    rounded(sc, (x, y, w, h), 10.0, Some(fill), Some(stroke));
    let inner = w - 16.0;
    // Title row: the name (gold while its crisis resolves).
    let name_color = if resolving { GOLD } else { TEXT };
    let (name, size) = fit_text(pv.planet.name(), 28.0, T, inner, true);
    sc.text(
        txt(x + 8.0, y + 20.0, name, size, name_color)
            .anchor(Anchor::CenterLeft)
            .bold(),
    );
    // The crisis level badge, and the VP for 1st / 2nd / 3rd place.
    let cy = y + 40.0;
    let level = level_of(view, pv);
    let badge = format!("Crisis {level}");
    let bw = measure_text(&badge, T, true).0 + 12.0;
    rounded(sc, (x + 6.0, cy, bw, 34.0), 6.0, Some(level_color(level)), None);
    sc.text(
        txt(x + 6.0 + bw / 2.0, cy + 17.0, badge, T, TEXT)
            .anchor(Anchor::Center)
            .bold(),
    );
    let vp = place_vp_text(pv.planet);
    if !vp.is_empty() {
        sc.text(txt(x + w - 8.0, cy + 17.0, vp, T, GOLD).anchor(Anchor::CenterRight));
    }
    let mut cy = y + BADGE_BOTTOM + 6.0;
    // Flipped / cleared marks.
    for row in mark_rows(pv, inner) {
        let mut mx = x + 8.0;
        for (m, color) in row {
            sc.text(txt(mx, cy + LINE / 2.0, m, T, color).anchor(Anchor::CenterLeft).bold());
            mx += measure_text(m, T, true).0 + 10.0;
        }
        cy += LINE;
    }
    // An Alien tile: a red box, its name and defence.
    if let Some(alien) = pv.alien {
        rounded(
            sc,
            (x + 4.0, cy, w - 8.0, ALIEN_H),
            8.0,
            Some(Color::rgb(90, 16, 20)),
            Some(Stroke::new(ALERT, 2.0)),
        );
        sc.text(
            txt(
                x + 10.0,
                cy + 17.0,
                format!("ALIEN {alien}"),
                T,
                Color::rgb(255, 130, 120),
            )
            .anchor(Anchor::CenterLeft)
            .bold(),
        );
        sc.text(txt(x + 10.0, cy + 49.0, "defence 7", T, TEXT).anchor(Anchor::CenterLeft));
        cy += ALIEN_H + 6.0;
    }
    // Holdings from the bottom up; tiles fill what is left above them.
    let holders: Vec<(Seat, &Holdings)> = view
        .seats
        .iter()
        .filter_map(|s| s.planets.get(&pv.planet).map(|hd| (s.seat, hd)))
        .filter(|(_, hd)| !is_empty(hd))
        .collect();
    // The income ranking: the VP each colour's income here would score now
    // (ties score the higher place; no income, no place).
    let mut incomes: Vec<u32> = holders.iter().map(|(_, hd)| hd.income()).filter(|&v| v > 0).collect();
    incomes.sort_unstable_by(|a, b| b.cmp(a));
    incomes.dedup();
    let standing = |hd: &Holdings| -> Option<u32> {
        let place = incomes.iter().position(|&v| v == hd.income())? + 1;
        pv.planet.place_vp(place)
    };
    let rows: Vec<(Seat, Vec<Vec<Segment>>, Option<u32>)> = holders
        .iter()
        .map(|(seat, hd)| (*seat, holding_lines(*seat, hd, inner), standing(hd)))
        .collect();
    let holdings_h: f32 = rows.iter().map(|(_, lines, _)| lines.len() as f32 * LINE).sum();
    let holdings_top = y + h - 6.0 - holdings_h;
    if !rows.is_empty() {
        sc.line(
            vec![(x + 8.0, holdings_top - 3.0), (x + w - 8.0, holdings_top - 3.0)],
            Stroke::new(EDGE, 1.5),
        );
    }
    let mut ry = holdings_top;
    for (seat, lines, vp) in &rows {
        holdings_row(sc, *seat, lines, *vp, x + 8.0, ry, inner);
        ry += lines.len() as f32 * LINE;
    }
    // Tiles: every one if they fit, else as many as fit above "+N more"
    // (the side panel lists the rest).
    let n = pv.tiles.len();
    let steps = tile_steps(pv);
    let shown = tiles_shown(view, pv, bottom);
    let mut ty = cy;
    for (t, st) in pv.tiles.iter().zip(&steps).take(shown) {
        tile_chip(sc, t, x + 4.0, ty, w - 8.0);
        ty += st;
    }
    if shown < n {
        let more = format!("+{} more tiles", n - shown);
        sc.text(txt(x + 8.0, ty, more, T, TEXT).bold());
    } else if n == 0 && pv.alien.is_none() && !pv.flipped && ty + LINE <= holdings_top {
        sc.text(txt(x + 8.0, cy, "no tiles", T, SPENT));
    }
}

/// The height each of a planet's tile chips takes, with its gap.
fn tile_steps(pv: &PlanetView) -> Vec<f32> {
    pv.tiles.iter().map(|t| tile_height(t, col_w() - 8.0) + 4.0).collect()
}

/// How many of a planet's tiles its box shows: all when they fit, else as
/// many as fit above a "+N more tiles" line.
fn tiles_shown(view: &View, pv: &PlanetView, bottom: f32) -> usize {
    let (_, _, _, h) = planet_rect(view, bottom, pv.planet);
    let holdings = holdings_lines(view, pv.planet);
    let avail = h - 6.0 - holdings as f32 * LINE - 6.0 - top_height(pv);
    let steps = tile_steps(pv);
    if steps.iter().sum::<f32>() <= avail {
        return steps.len();
    }
    let mut used = LINE;
    steps
        .iter()
        .take_while(|&&st| {
            used += st;
            used <= avail
        })
        .count()
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

/// The skull mark's width and gap.
fn skull_w() -> f32 {
    measure_text("☠", T, false).0 + 6.0
}

/// Whether a tile fits one line: number, type, defence, skull mark and
/// no crisis dice.
fn tile_one_line(t: &TileView, w: f32) -> bool {
    let num = measure_text(&t.id.to_string(), T, true).0;
    let kind = measure_text(kind_word(t.kind), T, true).0;
    let def = measure_text(&defence_word(t.defence), T, false).0;
    let skull = if t.skull { skull_w() } else { 0.0 };
    t.crisis_dice == 0 && 6.0 + num + 8.0 + kind + 10.0 + def + skull + 6.0 <= w
}

/// A tile chip's height: one line, or two (defence, skull mark and crisis
/// dice on the second).
fn tile_height(t: &TileView, w: f32) -> f32 {
    if tile_one_line(t, w) {
        LINE + 2.0
    } else {
        2.0 * LINE + 2.0
    }
}

/// One face-up tile: number, type, defence, skull mark and crisis dice.
fn tile_chip(sc: &mut Scene, t: &TileView, x: f32, y: f32, w: f32) {
    let one = tile_one_line(t, w);
    let h = tile_height(t, w);
    rounded(
        sc,
        (x, y, w, h),
        5.0,
        Some(kind_color(t.kind)),
        Some(Stroke::new(Color::rgb(20, 20, 28), 1.0)),
    );
    let cy = y + 1.0 + LINE / 2.0;
    let num = t.id.to_string();
    sc.text(txt(x + 6.0, cy, num.clone(), T, TEXT).anchor(Anchor::CenterLeft).bold());
    let kx = x + 6.0 + measure_text(&num, T, true).0 + 8.0;
    let kind = kind_word(t.kind);
    let room = x + w - 6.0 - kx;
    let bold = measure_text(kind, T, true).0 <= room;
    let mut kt = txt(kx, cy, kind, T, TEXT).anchor(Anchor::CenterLeft);
    if bold {
        kt = kt.bold();
    }
    sc.text(kt);
    let def = defence_word(t.defence);
    if one {
        // From the right: skull mark, defence.
        let mut rx = x + w - 6.0;
        if t.skull {
            sc.text(skull(rx, cy).anchor(Anchor::CenterRight));
            rx -= skull_w();
        }
        sc.text(txt(rx, cy, def, T, TEXT).anchor(Anchor::CenterRight));
        return;
    }
    // Second line: defence, skull mark; crisis dice at the right.
    let cy = cy + LINE;
    let dw = measure_text(&def, T, false).0;
    sc.text(txt(x + 6.0, cy, def, T, TEXT).anchor(Anchor::CenterLeft));
    if t.skull {
        sc.text(skull(x + 6.0 + dw + 6.0, cy).anchor(Anchor::CenterLeft));
    }
    if t.crisis_dice > 0 {
        let count = format!("×{}", t.crisis_dice);
        let cw = measure_text(&count, T, true).0;
        let tx = x + w - 6.0 - cw;
        let dx = tx - 4.0 - 22.0;
        die(sc, dx, cy);
        sc.text(txt(tx, cy, count, T, TEXT).anchor(Anchor::CenterLeft).bold());
    }
}

/// The skull mark.
fn skull(x: f32, y: f32) -> orrery_render::Text {
    txt(x, y, "☠", T, Color::rgb(255, 235, 235))
}

/// A crisis die: a white square with a pip, 22 px, centred at `cy`.
fn die(sc: &mut Scene, x: f32, cy: f32) {
    rounded(
        sc,
        (x, cy - 11.0, 22.0, 22.0),
        4.0,
        Some(Color::WHITE),
        Some(Stroke::new(Color::BLACK, 1.5)),
    );
    sc.circle(x + 11.0, cy, 3.5, Some(Color::BLACK), None);
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

/// A piece of a holdings row: text, colour, bold.
type Segment = (String, Color, bool);

/// The gold VP pill's width for `vp`.
fn pill_w(vp: Option<u32>) -> f32 {
    vp.map(|v| measure_text(&v.to_string(), T, true).0 + 14.0)
        .unwrap_or(0.0)
}

/// Where a holdings row's text starts, after the colour square.
const SWATCH: f32 = 26.0;

/// One colour's holdings on a planet in lines that fit `w`: ready units,
/// (spent units), mines and factories, in segments of their own colours.
fn holding_lines(seat: Seat, hd: &Holdings, w: f32) -> Vec<Vec<Segment>> {
    let color = player_color(seat);
    let mut segs: Vec<Segment> = Vec::new();
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
    // The first line leaves room for the VP pill (at most two digits).
    let first = w - SWATCH - pill_w(Some(10)) - 4.0;
    let mut lines: Vec<Vec<Segment>> = vec![Vec::new()];
    let mut used = 0.0;
    for seg in segs {
        let sw = measure_text(&seg.0, T, seg.2).0;
        let room = if lines.len() == 1 { first } else { w - SWATCH };
        let need = if used > 0.0 { used + 8.0 + sw } else { sw };
        if used > 0.0 && need > room {
            lines.push(vec![seg]);
            used = sw;
        } else {
            used = need;
            if let Some(line) = lines.last_mut() {
                line.push(seg);
            }
        }
    }
    lines
}

fn holdings_row(sc: &mut Scene, seat: Seat, lines: &[Vec<Segment>], vp: Option<u32>, x: f32, y: f32, w: f32) {
    let color = player_color(seat);
    rounded(
        sc,
        (x, y + LINE / 2.0 - 10.0, 20.0, 20.0),
        3.0,
        Some(color),
        Some(Stroke::new(Color::BLACK, 1.0)),
    );
    for (i, line) in lines.iter().enumerate() {
        let cy = y + i as f32 * LINE + LINE / 2.0;
        let mut cx = x + SWATCH;
        for (s, c, b) in line {
            let sw = measure_text(s, T, *b).0;
            let mut t = txt(cx, cy, s.clone(), T, *c).anchor(Anchor::CenterLeft);
            if *b {
                t = t.bold();
            }
            sc.text(t);
            cx += sw + 8.0;
        }
    }
    // A gold pill with the VP this colour's income scores here now.
    if let Some(v) = vp {
        let pw = pill_w(vp);
        let px = x + w - pw;
        rounded(sc, (px, y + 1.0, pw, LINE - 2.0), 10.0, Some(GOLD), None);
        sc.text(
            txt(px + pw / 2.0, y + LINE / 2.0, v.to_string(), T, Color::BLACK)
                .anchor(Anchor::Center)
                .bold(),
        );
    }
}

/// The key to the board's short marks, in lines across the board.
const LEGEND: [&str; 2] = [
    "i infantry · s spaceship · t tank · (spent, on the surface) · M mine · F factory · ☠ skull-marked · ▢×N crisis dice",
    "7/4/2 by a planet: VP for 1st / 2nd / 3rd income there · gold 7 by a colour: VP it scores there now",
];

/// How many of the legend's lines the board shows: all, unless the
/// planets' least heights and the players' rows need their room (a
/// crowded late board drops the last line, then the first).
/// `players`: the players' panel's height; `least`: where the planets end
/// at the least.
fn legend_count(players: f32, least: f32) -> usize {
    (0..=LEGEND.len())
        .rev()
        .find(|&n| least + legend_height(n) + players <= HEIGHT as f32 - MARGIN)
        .unwrap_or(0)
}

/// The height the legend's first `n` lines take under the planets.
fn legend_height(n: usize) -> f32 {
    n as f32 * LINE + 4.0
}

fn legend_lines(sc: &mut Scene, y: f32, n: usize) {
    for (i, s) in LEGEND.iter().take(n).enumerate() {
        let (s, size) = fit_text(s, T, T, WIDTH as f32 - 2.0 * MARGIN - 8.0, false);
        sc.text(txt(MARGIN + 6.0, y + i as f32 * LINE, s, size, DIM));
    }
}

// ---------------------------------------------------------------------------
// The players

fn player_rows(view: &View, names: &[String], w: f32) -> Vec<PlayerRow> {
    view.seats
        .iter()
        .map(|s| player_row_layout(view, s, names, w - 24.0))
        .collect()
}

/// The players' panel's height: every row whole.
fn players_height(view: &View, names: &[String]) -> f32 {
    player_rows(view, names, PLAYERS_W)
        .iter()
        .map(PlayerRow::height)
        .sum::<f32>()
        + 10.0
}

fn players(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - MARGIN;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let rows = player_rows(view, names, w);
    let mut y = y0 + 6.0;
    for (s, row) in view.seats.iter().zip(&rows) {
        let rh = row.height();
        player_row(sc, view, s, row, x0 + 12.0, y, w - 24.0, rh);
        y += rh;
    }
}

/// A player's row laid out: the name, then words and badges that flow onto
/// as many lines as they need, then the hand's chips.
struct PlayerRow {
    name: String,
    vp: String,
    /// (line, x offset, text, colour, badge fill).
    flow: Vec<(usize, f32, String, Color, Option<Color>)>,
    lines: usize,
    hand: Vec<Vec<(f32, String, f32)>>,
}

impl PlayerRow {
    fn height(&self) -> f32 {
        self.lines as f32 * ROW_LINE
            + if self.hand.is_empty() {
                0.0
            } else {
                self.hand.len() as f32 * HAND_LINE + 4.0
            }
            + 6.0
    }
}

/// A line of a player's row.
const ROW_LINE: f32 = 36.0;
/// The height of a line of hand cards.
const HAND_LINE: f32 = 40.0;
/// Where a row's words start, after the colour square.
const ROW_INDENT: f32 = 32.0;

/// Cards as chips on lines of `width`: (line, x offset, text, chip width).
fn hand_layout<'a>(cards: impl Iterator<Item = &'a str>, width: f32) -> Vec<Vec<(f32, String, f32)>> {
    let mut lines: Vec<Vec<(f32, String, f32)>> = Vec::new();
    let mut x = 0.0;
    for c in cards {
        let cw = measure_text(c, T, true).0 + 14.0;
        if lines.is_empty() || (x + cw > width && x > 0.0) {
            lines.push(Vec::new());
            x = 0.0;
        }
        if let Some(line) = lines.last_mut() {
            line.push((x, c.to_string(), cw));
        }
        x += cw + 8.0;
    }
    lines
}

fn player_row_layout(view: &View, s: &SeatView, names: &[String], w: f32) -> PlayerRow {
    let on_turn = view.turn.as_ref().is_some_and(|t| t.seat == s.seat);
    let mut name = name_of(names, s.seat);
    if view.viewer == Viewer::Seat(s.seat) {
        name.push_str(" (you)");
    }
    let vp = format!("{} VP", vp_of(view, s.seat));
    let vp_w = measure_text(&vp, T, true).0;
    let (name, _) = fit_text(&name, T, T, w - ROW_INDENT - vp_w - 20.0, true);
    let dark = Color::rgb(20, 20, 28);
    // Words and badges, in order.
    let mut items: Vec<(String, Color, Option<Color>)> = Vec::new();
    if view.outcome.as_ref().is_some_and(|o| o.winners().contains(&s.seat)) {
        items.push(("WINNER".into(), dark, Some(GOLD)));
    }
    if s.resigned {
        items.push(("RESIGNED".into(), dark, Some(Color::rgb(150, 150, 160))));
    }
    if view.first_player == Some(s.seat) {
        items.push(("First Player".into(), dark, Some(GOLD)));
    }
    if let Some(t) = view.turn.as_ref().filter(|t| t.seat == s.seat) {
        items.push((
            format!(
                "TURN · action {} of {}",
                (t.actions_taken + 1).min(t.actions_allowed.max(1)),
                t.actions_allowed
            ),
            dark,
            Some(Color::WHITE),
        ));
    }
    let owed: Vec<String> = view
        .pending
        .iter()
        .filter(|p| p.seat == s.seat)
        .map(|p| p.kind.as_str())
        .filter(|k| !(on_turn && *k == "turn"))
        .map(decision_name)
        .collect();
    if !owed.is_empty() {
        items.push((format!("waiting: {}", owed.join(", ")), dark, Some(ORANGE)));
    }
    let mut words = vec![
        format!("£{}", s.money),
        counted(s.hand_size, "card", "cards"),
        format!("income £{}", s.income),
        counted(s.cubes_taken, "Pass cube", "Pass cubes"),
    ];
    // No kept tiles: nothing said (the row stays one line where it can).
    if !s.kept.is_empty() {
        words.push("kept:".to_string());
        words.extend(kept_words(&s.kept));
    }
    let last = words.len() - 1;
    for (i, word) in words.into_iter().enumerate() {
        // A dot after each word but "kept:" and the last.
        let word = if i == last || word.ends_with(':') {
            word
        } else {
            format!("{word} ·")
        };
        items.push((word, TEXT, None));
    }
    // Flow: the first line starts after the name and stops before the VP.
    let name_w = measure_text(&name, T, true).0;
    let mut flow = Vec::new();
    let mut line = 0usize;
    let mut x = ROW_INDENT + name_w + 14.0;
    for (text, color, fill) in items {
        let bold = fill.is_some();
        let iw = measure_text(&text, T, bold).0 + if bold { 14.0 } else { 0.0 };
        let end = if line == 0 { w - vp_w - 14.0 } else { w };
        if x + iw > end && x > ROW_INDENT {
            line += 1;
            x = ROW_INDENT;
        }
        flow.push((line, x, text, color, fill));
        x += iw + 10.0;
    }
    let hand = s
        .hand
        .as_ref()
        .map(|hand| hand_layout(hand.iter().map(|c| c.name()), w - ROW_INDENT))
        .unwrap_or_default();
    PlayerRow {
        name,
        vp,
        flow,
        lines: line + 1,
        hand,
    }
}

#[allow(clippy::too_many_arguments)]
fn player_row(sc: &mut Scene, view: &View, s: &SeatView, row: &PlayerRow, x: f32, y: f32, w: f32, h: f32) {
    let color = player_color(s.seat);
    let on_turn = view.turn.as_ref().is_some_and(|t| t.seat == s.seat);
    let waiting = view.pending.iter().any(|p| p.seat == s.seat);
    if on_turn || waiting {
        rounded(
            sc,
            (x - 8.0, y, w + 16.0, h - 2.0),
            6.0,
            Some(Color::rgb(40, 46, 70)),
            Some(Stroke::new(color, 2.5)),
        );
    }
    let line_y = |i: usize| y + 3.0 + i as f32 * ROW_LINE + ROW_LINE / 2.0;
    let line1 = line_y(0);
    rounded(
        sc,
        (x, line1 - 12.0, 24.0, 24.0),
        4.0,
        Some(color),
        Some(Stroke::new(Color::BLACK, 1.0)),
    );
    sc.text(
        txt(x + ROW_INDENT, line1, row.name.clone(), T, color)
            .anchor(Anchor::CenterLeft)
            .bold(),
    );
    sc.text(
        txt(x + w - 4.0, line1, row.vp.clone(), T, GOLD)
            .anchor(Anchor::CenterRight)
            .bold(),
    );
    for (line, dx, text, fg, fill) in &row.flow {
        let ly = line_y(*line);
        match fill {
            Some(fill) => {
                let bw = measure_text(text, T, true).0 + 14.0;
                rounded(sc, (x + dx, ly - 16.0, bw, 32.0), 6.0, Some(*fill), None);
                sc.text(
                    txt(x + dx + bw / 2.0, ly, text.clone(), T, *fg)
                        .anchor(Anchor::Center)
                        .bold(),
                );
            }
            None => sc.text(txt(x + dx, ly, text.clone(), T, *fg).anchor(Anchor::CenterLeft)),
        }
    }
    // The hand: only the viewer's own (the view holds no other).
    let top = y + 3.0 + row.lines as f32 * ROW_LINE + 2.0;
    for (i, line) in row.hand.iter().enumerate() {
        let ly = top + i as f32 * HAND_LINE;
        for (dx, card, cw) in line {
            let cx = x + ROW_INDENT + dx;
            rounded(
                sc,
                (cx, ly, *cw, HAND_LINE - 4.0),
                5.0,
                Some(Color::rgb(230, 230, 236)),
                Some(Stroke::new(color, 2.0)),
            );
            sc.text(
                txt(
                    cx + cw / 2.0,
                    ly + (HAND_LINE - 4.0) / 2.0,
                    card.clone(),
                    T,
                    Color::rgb(20, 20, 30),
                )
                .anchor(Anchor::Center)
                .bold(),
            );
        }
    }
}

/// Kept tiles counted by type, which is all their VP depends on: "2 Big
/// Game", "1 Crisis", "1 Alien".
fn kept_words(kept: &[TileRef]) -> Vec<String> {
    [TileKind::BigGame, TileKind::Crisis, TileKind::Alien]
        .into_iter()
        .filter_map(|kind| {
            let n = kept.iter().filter(|t| t.kind() == kind).count();
            (n > 0).then(|| format!("{n} {}", kind.name()))
        })
        .collect()
}

mod panel;
use panel::{info_height, info_panel};

#[cfg(test)]
mod tests;
