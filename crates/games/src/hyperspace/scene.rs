//! The board picture (1600 x 1200), built from a view only, every text at
//! least [`MIN_TEXT`] px (9 px once Discord shows it 550 px wide).
//!
//! Top: the game's name and the phase title. Middle: the yellow (upper)
//! and red (lower) layers side by side, 4 x 3 sectors each, every sector
//! with its name and its two stars: name, home-star ring, resources (+ O)
//! and ship counters. Then the hyperspace track (squares 0 to 6) with one
//! lane per player and the warp tokens on it (number, ships, departure
//! sector's letter in its layer's colour). Bottom left: the players (score,
//! home star, ships, stars, pairs, the combat cards with their strengths).
//! Bottom right: the stage of the turn, the rounds and production round
//! (once at the right of the header), the battle, the last combat and whom
//! the game waits on.

use super::basics::{Card, Sector, Star, COLS, ROWS};
use super::view::{SeatView, StarView, View};
use crate::shared::draw::{fit_text, name_of, player_color, rounded, txt, wrap, wrap_words};
use orrery_engine::{Outcome, PhaseInfo, Seat, Viewer};
use orrery_render::{measure_text, Anchor, Color, Item, Scene, Stroke};

pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 1200;

const BG: Color = Color::rgb(14, 16, 28);
const PANEL: Color = Color::rgb(28, 32, 48);
const TEXT: Color = Color::rgb(236, 236, 240);
const DIM: Color = Color::rgb(170, 174, 190);
const HALO: Color = Color::rgb(0, 0, 0);
const PLUS: Color = Color::rgb(255, 176, 60);
const POP: Color = Color::rgb(110, 220, 255);
const YELLOW_STAR: Color = Color::rgb(250, 214, 70);
const RED_STAR: Color = Color::rgb(235, 80, 70);
const YELLOW_BG: Color = Color::rgb(50, 46, 22);
const RED_BG: Color = Color::rgb(52, 24, 28);

fn ships(n: u32) -> String {
    if n == 1 {
        "1 ship".into()
    } else {
        format!("{n} ships")
    }
}

/// The smallest text drawn: 9 px once Discord shows the board 550 px wide.
pub const MIN_TEXT: f32 = 27.0;
/// A line of body text.
const LINE: f32 = 31.0;

/// Lines of `s` at `size` within `width`: split at " · ", then at spaces
/// where a part alone is too wide.
fn lines_of(s: &str, size: f32, width: f32, bold: bool) -> Vec<String> {
    wrap(s, size, width, bold)
        .into_iter()
        .flat_map(|l| {
            if measure_text(&l, size, bold).0 > width {
                wrap_words(&l, size, width, bold)
            } else {
                vec![l]
            }
        })
        .collect()
}

/// Draw the board for one view.
pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    header(&mut sc, view, names);
    let grid_top = 58.0;
    layer(&mut sc, view, 0, 16.0, grid_top);
    layer(&mut sc, view, 1, 16.0 + LAYER_W + 24.0, grid_top);
    let track_top = grid_top + 34.0 + 3.0 * SECTOR_H + 4.0;
    track(&mut sc, view, names, track_top);
    let bottom = track_top + track_height(view) + 8.0;
    players(&mut sc, view, names, 16.0, bottom, PLAYERS_W);
    let info_x = 16.0 + PLAYERS_W + 8.0;
    info_panel(&mut sc, view, names, info_x, bottom, WIDTH as f32 - info_x - 16.0);
    sc
}

/// The game's name and the phase title ("Round 3 · Battle at Vega ·
/// alice's turn"), cut to end before the right edge.
fn header(sc: &mut Scene, view: &View, names: &[String]) {
    rounded(sc, (0.0, 0.0, WIDTH as f32, 50.0), 0.0, Some(PANEL), None);
    let t = txt(16.0, 25.0, "HYPERSPACE", 34.0, TEXT)
        .anchor(Anchor::CenterLeft)
        .bold();
    sc.text(t);
    let short: Vec<String> = (0..view.seats.len()).map(|i| name_of(names, Seat(i as u8))).collect();
    let (label, turn) = super::phase_label(
        view.outcome.is_some(),
        view.stage == "not-started",
        view.round,
        view.battle.as_ref().map(|b| b.star),
        view.active,
    );
    let title = PhaseInfo {
        number: view.turn,
        label,
        turn,
    }
    .title(&short);
    // The title starts a clear gap after the game's name, however wide the
    // font draws it, and is cut before the right edge.
    let left = 16.0 + measure_text("HYPERSPACE", 34.0, true).0 + 32.0;
    let (title, title_size) = fit_text(&title, 30.0, MIN_TEXT, WIDTH as f32 - 16.0 - left, true);
    let color = if view.outcome.is_some() {
        YELLOW_STAR
    } else {
        player_color(view.active)
    };
    let t = txt(left, 25.0, title, title_size, color)
        .anchor(Anchor::CenterLeft)
        .bold()
        .halo(HALO);
    sc.text(t);
}

const SECTOR_W: f32 = 190.0;
const SECTOR_GAP: f32 = 4.0;
const LAYER_W: f32 = 4.0 * SECTOR_W + 3.0 * SECTOR_GAP;
const SECTOR_H: f32 = 156.0;
/// One star: its name, then its resources and ship counters.
const STAR_H: f32 = 61.0;

fn layer(sc: &mut Scene, view: &View, layer: u8, x0: f32, y0: f32) {
    let (title, bg, star_color) = if layer == 0 {
        ("Yellow layer (upper)", YELLOW_BG, YELLOW_STAR)
    } else {
        ("Red layer (lower)", RED_BG, RED_STAR)
    };
    let t = txt(x0 + 2.0, y0, title, 28.0, star_color).bold().halo(HALO);
    sc.text(t);
    let top = y0 + 34.0;
    for row in 0..ROWS {
        for col in 0..COLS {
            let sector = Sector::new(col, row, layer);
            let x = x0 + col as f32 * (SECTOR_W + SECTOR_GAP);
            let y = top + row as f32 * SECTOR_H;
            sector_box(sc, view, sector, x, y, bg, star_color);
        }
    }
}

fn sector_box(sc: &mut Scene, view: &View, sector: Sector, x: f32, y: f32, bg: Color, star_color: Color) {
    let highlight = view.battle.as_ref().is_some_and(|b| b.sector == sector);
    let stroke = if highlight {
        Stroke::new(Color::WHITE, 4.0)
    } else {
        Stroke::new(Color::rgb(90, 90, 110), 1.5)
    };
    rounded(sc, (x, y, SECTOR_W, SECTOR_H - 4.0), 8.0, Some(bg), Some(stroke));
    // The sector's name as the orders write it ("A-yellow").
    let t = txt(x + 8.0, y + 2.0, sector.name(), MIN_TEXT, star_color)
        .bold()
        .halo(HALO);
    sc.text(t);
    for (k, star) in sector.stars().into_iter().enumerate() {
        if let Some(sv) = view.stars.get(star.index()) {
            star_row(sc, view, sv, star, x, y + 32.0 + k as f32 * STAR_H, star_color);
        }
    }
}

fn star_row(sc: &mut Scene, view: &View, sv: &StarView, star: Star, x: f32, y: f32, star_color: Color) {
    let cx = x + 16.0;
    let cy = y + 14.0;
    if let Some(owner) = sv.home_of {
        let captured = view.seats.get(owner.index()).and_then(|s| s.home_captured_by);
        let ring = Stroke::new(player_color(owner), 4.0);
        sc.circle(cx, cy, 12.0, None, Some(ring));
        if captured.is_some() {
            sc.line(
                vec![(cx - 12.0, cy - 12.0), (cx + 12.0, cy + 12.0)],
                Stroke::new(Color::WHITE, 3.0),
            );
        }
    }
    sc.circle(cx, cy, 7.0, Some(star_color), None);
    // Name (home stars bold).
    let bold = sv.home_of.is_some();
    let mut t = txt(x + 32.0, cy, sv.name.clone(), MIN_TEXT, TEXT)
        .anchor(Anchor::CenterLeft)
        .halo(HALO);
    if bold {
        t = t.bold();
    }
    sc.text(t);
    // Resources, then the ship counters, on the line below.
    let ly = y + 44.0;
    let mut rx = x + 8.0;
    let r = star.resources();
    for (sym, n, color) in [("+", r.plus, PLUS), ("O", r.pop, POP)] {
        for _ in 0..n {
            let t = txt(rx, ly, sym, 28.0, color)
                .anchor(Anchor::CenterLeft)
                .bold()
                .halo(HALO);
            rx += measure_text(sym, 28.0, true).0 + 2.0;
            sc.text(t);
        }
    }
    let mut cxp = if rx > x + 8.0 { rx + 4.0 } else { x + 8.0 };
    let counters = sv.ships.iter().filter(|n| **n > 0).count() as f32;
    let gap = if counters > 3.0 { 2.0 } else { 4.0 };
    for (i, n) in sv.ships.iter().enumerate() {
        if *n == 0 {
            continue;
        }
        let seat = Seat(i as u8);
        let label = n.to_string();
        let w = (measure_text(&label, MIN_TEXT, true).0 + 10.0).max(32.0);
        rounded(
            sc,
            (cxp, ly - 15.0, w, 30.0),
            6.0,
            Some(player_color(seat)),
            Some(Stroke::new(Color::BLACK, 1.5)),
        );
        let t = txt(cxp + w / 2.0, ly, label, MIN_TEXT, Color::WHITE)
            .anchor(Anchor::Center)
            .bold()
            .halo(HALO);
        sc.text(t);
        cxp += w + gap;
    }
}

const TRACK_HEAD: f32 = 34.0;
const CHIP_H: f32 = 32.0;
/// Token chips side by side in one square of a lane.
const PER_ROW: usize = 2;

/// The rows of token chips in each lane (the most on one square).
fn lane_rows(view: &View, seat: usize) -> usize {
    let s = &view.seats[seat];
    (0..=view.last_square)
        .map(|k| {
            s.tokens
                .iter()
                .filter(|t| t.square == Some(k))
                .count()
                .div_ceil(PER_ROW)
        })
        .max()
        .unwrap_or(0)
        .max(1)
}

fn lane_height(view: &View, seat: usize) -> f32 {
    lane_rows(view, seat) as f32 * (CHIP_H + 3.0) + 7.0
}

fn track_height(view: &View) -> f32 {
    TRACK_HEAD + (0..view.seats.len()).map(|i| lane_height(view, i)).sum::<f32>()
}

fn track(sc: &mut Scene, view: &View, names: &[String], y0: f32) {
    let x0 = 16.0;
    let w = WIDTH as f32 - 32.0;
    let label_w = 150.0;
    let squares = view.last_square as usize + 1;
    let sq_w = (w - label_w) / squares as f32;
    let bottom = y0 + track_height(view);
    rounded(sc, (x0, y0, w, track_height(view)), 8.0, Some(PANEL), None);
    let t = txt(x0 + 8.0, y0 + 17.0, "Track", 28.0, TEXT)
        .anchor(Anchor::CenterLeft)
        .bold();
    sc.text(t);
    for k in 0..squares {
        let x = x0 + label_w + k as f32 * sq_w;
        let label = if k == 0 {
            "0 entry".to_string()
        } else {
            format!("square {k}")
        };
        let t = txt(x + sq_w / 2.0, y0 + 17.0, label, MIN_TEXT, DIM)
            .anchor(Anchor::Center)
            .bold();
        sc.text(t);
        sc.push(Item::Line {
            points: vec![(x, y0 + 6.0), (x, bottom - 6.0)],
            stroke: Stroke::new(Color::rgb(70, 74, 96), 1.5),
            dashed: k == 0,
        });
    }
    let mut ly = y0 + TRACK_HEAD;
    for (i, seat) in view.seats.iter().enumerate() {
        let lane_h = lane_height(view, i);
        let color = player_color(seat.seat);
        sc.push(Item::Line {
            points: vec![(x0 + 6.0, ly), (x0 + w - 6.0, ly)],
            stroke: Stroke::new(Color::rgb(48, 52, 70), 1.0),
            dashed: false,
        });
        let (name, size) = fit_text(&name_of(names, seat.seat), 28.0, MIN_TEXT, label_w - 12.0, true);
        let t = txt(x0 + 8.0, ly + lane_h / 2.0, name, size, color)
            .anchor(Anchor::CenterLeft)
            .bold()
            .halo(HALO);
        sc.text(t);
        for k in 0..squares {
            let on: Vec<_> = seat.tokens.iter().filter(|t| t.square == Some(k as u8)).collect();
            let x = x0 + label_w + k as f32 * sq_w + 4.0;
            let chip_w = (sq_w - 8.0) / PER_ROW as f32 - 3.0;
            let rows = on.len().div_ceil(PER_ROW).max(1);
            let top = ly + (lane_h - rows as f32 * (CHIP_H + 3.0) + 3.0) / 2.0;
            for (j, tok) in on.iter().enumerate() {
                let cx = x + (j % PER_ROW) as f32 * (chip_w + 3.0);
                let cy = top + (j / PER_ROW) as f32 * (CHIP_H + 3.0);
                token_chip(sc, tok, color, (cx, cy, chip_w));
            }
        }
        ly += lane_h;
    }
}

/// A warp token on the track: its number in a disc of the player's
/// colour, the ships it carries, and the letter of its departure sector in
/// that sector's layer colour.
fn token_chip(sc: &mut Scene, tok: &super::view::TokenView, color: Color, (cx, cy, chip_w): (f32, f32, f32)) {
    let mid = cy + CHIP_H / 2.0;
    rounded(
        sc,
        (cx, cy, chip_w, CHIP_H),
        5.0,
        Some(Color::rgb(40, 44, 64)),
        Some(Stroke::new(color, 2.0)),
    );
    sc.circle(cx + 16.0, mid, 15.0, Some(color), Some(Stroke::new(Color::BLACK, 1.0)));
    let tt = txt(cx + 16.0, mid, tok.token.to_string(), MIN_TEXT, Color::WHITE)
        .anchor(Anchor::Center)
        .bold()
        .halo(HALO);
    sc.text(tt);
    let from_color = match tok.from {
        Some(s) if s.layer() == 0 => YELLOW_STAR,
        _ => RED_STAR,
    };
    let letter = tok.from.map(|s| s.letter().to_string()).unwrap_or_default();
    let tt = txt(cx + chip_w - 5.0, mid, letter, 28.0, from_color)
        .anchor(Anchor::CenterRight)
        .bold()
        .halo(HALO);
    sc.text(tt);
    let tt = txt(cx + 36.0, mid, tok.ships.to_string(), MIN_TEXT, TEXT)
        .anchor(Anchor::CenterLeft)
        .bold();
    sc.text(tt);
}

/// The players' panel's width: room for the seven cards with strengths.
const PLAYERS_W: f32 = 1090.0;

fn players(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - 8.0;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let n = view.seats.len().max(1) as f32;
    // Three lines a player, closer together where the track is tall; two
    // (the first one cut) only when even that does not fit.
    let line = ((h - 12.0) / (3.0 * n)).min(LINE);
    let three = line >= 28.0;
    let row_h = ((h - 12.0) / n).min(3.0 * LINE + 14.0);
    for (i, s) in view.seats.iter().enumerate() {
        let y = y0 + 6.0 + i as f32 * row_h;
        let line = if three { line } else { LINE };
        player_row(sc, view, s, names, (x0 + 10.0, y, w - 20.0), (three, line));
    }
}

/// One player: name, score and home star; ships, stars and pairs; the hand
/// (cards in hand bright, played dim, the last played edged red).
fn player_row(
    sc: &mut Scene,
    view: &View,
    s: &SeatView,
    names: &[String],
    (x, y, w): (f32, f32, f32),
    (three, line): (bool, f32),
) {
    let color = player_color(s.seat);
    let cy = y + line / 2.0;
    rounded(
        sc,
        (x, cy - 11.0, 22.0, 22.0),
        4.0,
        Some(color),
        Some(Stroke::new(Color::BLACK, 1.0)),
    );
    let mut name = name_of(names, s.seat);
    if view.viewer == Viewer::Seat(s.seat) {
        name.push_str(" (you)");
    }
    let t = txt(x + 30.0, cy, name.clone(), 28.0, color)
        .anchor(Anchor::CenterLeft)
        .bold()
        .halo(HALO);
    sc.text(t);
    let name_w = measure_text(&name, 28.0, true).0;
    let home = match (s.eliminated, s.home_captured_by) {
        _ if s.resigned => "resigned".to_string(),
        (true, _) => "eliminated".to_string(),
        (false, None) => format!("home {} held", s.home.name()),
        (false, Some(by)) => format!("home {} captured by {}", s.home.name(), name_of(names, by)),
    };
    let fleet = format!(
        "{} ships ({} in flight) · {} stars · {} pairs",
        s.ships_on_stars + s.ships_in_flight,
        s.ships_in_flight,
        s.stars_held,
        s.pairs,
    );
    let first = format!("score {} · {home}", s.score);
    let (lines, cards_y) = if three {
        (
            vec![(first, x + 46.0 + name_w, cy), (fleet, x + 30.0, cy + line)],
            y + 2.0 * line,
        )
    } else {
        (vec![(format!("{first} · {fleet}"), x + 46.0 + name_w, cy)], y + line)
    };
    for (text, lx, ly) in lines {
        let (text, size) = fit_text(&text, MIN_TEXT, MIN_TEXT, x + w - lx, false);
        sc.text(txt(lx, ly, text, size, TEXT).anchor(Anchor::CenterLeft));
    }
    // Hand: every card by name and strength, in hand bright, played dim.
    let mut cx = x;
    let spare = w - Card::ALL.len() as f32 * 3.0;
    let full: f32 = Card::ALL
        .iter()
        .map(|c| measure_text(&card_text(*c, true), MIN_TEXT, false).0 + 8.0)
        .sum();
    let with_names = full <= spare;
    for card in Card::ALL {
        let in_hand = s.hand.contains(&card);
        let last = s.played.last() == Some(&card);
        let label = card_text(card, with_names);
        let cw = measure_text(&label, MIN_TEXT, false).0 + 8.0;
        let (fill, fg) = if in_hand {
            (Color::rgb(230, 230, 236), Color::rgb(20, 20, 30))
        } else {
            (Color::rgb(52, 56, 74), Color::rgb(150, 154, 170))
        };
        let stroke = if last {
            Some(Stroke::new(Color::rgb(255, 90, 90), 3.0))
        } else {
            None
        };
        rounded(sc, (cx, cards_y + 1.0, cw, line - 2.0), 4.0, Some(fill), stroke);
        let t = txt(cx + cw / 2.0, cards_y + line / 2.0, label, MIN_TEXT, fg).anchor(Anchor::Center);
        sc.text(t);
        cx += cw + 3.0;
    }
}

/// A card on the board: "Ensign 1", or its name alone where the row is
/// too narrow (the strengths are on the rules page and the buttons).
fn card_text(card: Card, with_strength: bool) -> String {
    if with_strength {
        format!("{} {}", card.name(), card.strength())
    } else {
        card.name().to_string()
    }
}

/// The right-hand panel: the stage of the turn, the battle in progress,
/// the last combat, and whom the game waits on (or the final scores).
fn info_panel(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - 8.0;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let mut lines: Vec<(String, Color, bool)> = Vec::new();
    let production = if view.production_round {
        " · production round"
    } else {
        ""
    };
    match &view.outcome {
        Some(Outcome::Winner { seat, reason }) => {
            lines.push((format!("{} wins ({reason})", name_of(names, *seat)), YELLOW_STAR, true))
        }
        Some(Outcome::Shared { seats, reason }) => lines.push((
            format!(
                "Shared by {} ({reason})",
                seats.iter().map(|s| name_of(names, *s)).collect::<Vec<_>>().join(" & ")
            ),
            YELLOW_STAR,
            true,
        )),
        Some(Outcome::AllLose { reason }) => lines.push((format!("Everyone loses ({reason})"), YELLOW_STAR, true)),
        None => {
            let stage = match view.stage {
                "moving" if view.departures_open => "Departures & arrivals · ",
                "moving" => "Arrivals · ",
                _ => "",
            };
            lines.push((
                format!("{stage}{} rounds{production}", view.rounds),
                player_color(view.active),
                true,
            ));
        }
    }
    if let Some(b) = &view.battle {
        lines.push((
            format!("Battle at {} ({}) · combat {}", b.star.name(), b.sector, b.combat),
            TEXT,
            true,
        ));
        lines.push((
            format!("{}: {} (attacker)", name_of(names, b.attacker), ships(b.attacker_ships)),
            player_color(b.attacker),
            true,
        ));
        lines.push((
            format!("{}: {} (defender)", name_of(names, b.defender), ships(b.defender_ships)),
            player_color(b.defender),
            true,
        ));
        match b.step {
            "cards" => {
                let status = b
                    .picked
                    .iter()
                    .map(|p| {
                        format!(
                            "{} {}",
                            name_of(names, p.seat),
                            if p.picked { "has picked" } else { "is picking" }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" · ");
                lines.push((status, DIM, false));
                if let Some(c) = b.my_pick {
                    lines.push((format!("Your pick: {}", c.label()), YELLOW_STAR, true));
                }
            }
            "losses" => {
                if let Some(v) = b.victor {
                    lines.push((format!("{} won: choosing losses", name_of(names, v)), DIM, false));
                }
            }
            "retreat" => {
                if let Some(d) = b.deciding {
                    lines.push((format!("{} may retreat", name_of(names, d)), DIM, false));
                }
            }
            _ => {}
        }
    } else {
        lines.push(("No battle in progress".to_string(), DIM, false));
    }
    if let Some(c) = &view.last_combat {
        lines.push((
            format!("Last combat, round {} at {}:", c.round, c.star.name()),
            TEXT,
            false,
        ));
        lines.push((
            format!(
                "{} {} = {} · vs {} {} = {}",
                name_of(names, c.attacker),
                c.attacker_card.name(),
                c.attacker_total,
                name_of(names, c.defender),
                c.defender_card.name(),
                c.defender_total
            ),
            TEXT,
            false,
        ));
    }
    if let Some(scores) = &view.final_scores {
        let s = scores
            .iter()
            .enumerate()
            .map(|(i, sc)| format!("{} {sc}", name_of(names, Seat(i as u8))))
            .collect::<Vec<_>>()
            .join(" · ");
        lines.push(("Final scores:".to_string(), YELLOW_STAR, true));
        lines.push((s, YELLOW_STAR, true));
    } else if !view.pending.is_empty() {
        let waiting = view
            .pending
            .iter()
            .filter(|p| !p.submitted)
            .map(|p| format!("{} ({})", name_of(names, p.seat), p.kind))
            .collect::<Vec<_>>()
            .join(" · ");
        if !waiting.is_empty() {
            lines.push(("Waiting on:".to_string(), DIM, false));
            lines.push((waiting, DIM, false));
        }
    }
    let mut y = y0 + 6.0;
    for (s, color, bold) in lines {
        for line in lines_of(&s, MIN_TEXT, w - 20.0, bold) {
            if y + LINE > y0 + h {
                return;
            }
            let (line, size) = fit_text(&line, MIN_TEXT, MIN_TEXT, w - 20.0, bold);
            let mut t = txt(x0 + 10.0, y, line, size, color).halo(HALO);
            if bold {
                t = t.bold();
            }
            sc.text(t);
            y += LINE;
        }
    }
}
