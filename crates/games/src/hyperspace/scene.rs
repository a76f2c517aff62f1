//! The board picture (1600 x 1200), built from a view only.
//!
//! Top: a header. Middle: the yellow (upper) and red (lower) layers side by
//! side, 4 x 3 sectors each, every sector with its two stars, their
//! resources, home-star rings and ship counters. Then the hyperspace track
//! (squares 0 to 6) with one lane per player and the warp tokens on it.
//! Bottom: the players (ships, home star, hand) and the battle panel.

use super::basics::{Card, Sector, Star, COLS, ROWS};
use super::view::{SeatView, StarView, View};
use crate::shared::draw::{fit, fit_text, name_of, player_color, rounded, txt, wrap};
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

fn short_card(c: Card) -> &'static str {
    match c {
        Card::Spy => "Spy",
        Card::Ensign => "Ens",
        Card::Lieutenant => "Lt",
        Card::Tactician => "Tac",
        Card::Captain => "Cpt",
        Card::Commodore => "Cdr",
        Card::Admiral => "Adm",
    }
}

/// Draw the board for one view.
pub fn scene(view: &View, names: &[String]) -> Scene {
    let mut sc = Scene::new(WIDTH, HEIGHT, BG);
    header(&mut sc, view, names);
    let grid_top = 78.0;
    layer(&mut sc, view, 0, 24.0, grid_top);
    layer(&mut sc, view, 1, 812.0, grid_top);
    let track_top = grid_top + 40.0 + 3.0 * SECTOR_H + 18.0;
    track(&mut sc, view, names, track_top);
    let bottom = track_top + track_height(view) + 14.0;
    players(&mut sc, view, names, 24.0, bottom, 1000.0);
    battle_panel(&mut sc, view, names, 1036.0, bottom, 540.0);
    sc
}

fn header(sc: &mut Scene, view: &View, names: &[String]) {
    rounded(sc, (0.0, 0.0, WIDTH as f32, 64.0), 0.0, Some(PANEL), None);
    let t = txt(24.0, 32.0, "HYPERSPACE", 34.0, TEXT)
        .anchor(Anchor::CenterLeft)
        .bold();
    sc.text(t);
    // The phase title, with the (shortened) names: "Round 3 · Battle at
    // Vega · alice's turn".
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
    // font draws it.
    let left = 24.0 + measure_text("HYPERSPACE", 34.0, true).0 + 28.0;
    let (title, title_size) = fit_text(&title, 24.0, 16.0, 820.0 - left, true);
    let t = txt(left, 32.0, title, title_size, TEXT)
        .anchor(Anchor::CenterLeft)
        .bold();
    sc.text(t);
    let production = if view.production_round {
        " · production round"
    } else {
        ""
    };
    let status = match (&view.outcome, view.stage) {
        (Some(Outcome::Winner { seat, reason }), _) => format!("{} wins ({reason})", name_of(names, *seat)),
        (Some(Outcome::Shared { seats, reason }), _) => format!(
            "Shared by {} ({reason})",
            seats.iter().map(|s| name_of(names, *s)).collect::<Vec<_>>().join(" & ")
        ),
        (Some(Outcome::AllLose { reason }), _) => format!("Everyone loses ({reason})"),
        (None, "battle") => match &view.battle {
            Some(b) => format!("combat {}{production} · {} rounds", b.combat, view.rounds),
            None => format!("{} rounds{production}", view.rounds),
        },
        (None, "moving") => format!(
            "{}{production} · {} rounds",
            if view.departures_open {
                "departures & arrivals"
            } else {
                "arrivals"
            },
            view.rounds
        ),
        (None, _) => format!("{} rounds{production}", view.rounds),
    };
    let size = fit(&status, 22.0, 16.0, 720.0, true);
    let color = if view.outcome.is_some() {
        YELLOW_STAR
    } else {
        player_color(view.active)
    };
    let t = txt(WIDTH as f32 - 24.0, 32.0, status, size, color)
        .anchor(Anchor::CenterRight)
        .bold()
        .halo(HALO);
    sc.text(t);
}

const SECTOR_W: f32 = 188.0;
const SECTOR_H: f32 = 170.0;

fn layer(sc: &mut Scene, view: &View, layer: u8, x0: f32, y0: f32) {
    let (title, bg, star_color) = if layer == 0 {
        ("Yellow layer (upper)", YELLOW_BG, YELLOW_STAR)
    } else {
        ("Red layer (lower)", RED_BG, RED_STAR)
    };
    let t = txt(x0 + 2.0, y0, title, 24.0, star_color).bold().halo(HALO);
    sc.text(t);
    let top = y0 + 36.0;
    for row in 0..ROWS {
        for col in 0..COLS {
            let sector = Sector::new(col, row, layer);
            let x = x0 + col as f32 * (SECTOR_W + 6.0);
            let y = top + row as f32 * SECTOR_H;
            sector_box(sc, view, sector, x, y, bg, star_color);
        }
    }
}

fn sector_box(sc: &mut Scene, view: &View, sector: Sector, x: f32, y: f32, bg: Color, star_color: Color) {
    let highlight = view.battle.as_ref().is_some_and(|b| b.sector == sector);
    let stroke = if highlight {
        Stroke::new(Color::WHITE, 3.0)
    } else {
        Stroke::new(Color::rgb(90, 90, 110), 1.5)
    };
    rounded(sc, (x, y, SECTOR_W, SECTOR_H - 6.0), 8.0, Some(bg), Some(stroke));
    let t = txt(x + 8.0, y + 3.0, sector.name(), 18.0, star_color).bold().halo(HALO);
    sc.text(t);
    for (k, star) in sector.stars().into_iter().enumerate() {
        if let Some(sv) = view.stars.get(star.index()) {
            star_row(sc, view, sv, star, x, y + 26.0 + k as f32 * 72.0, star_color);
        }
    }
}

fn star_row(sc: &mut Scene, view: &View, sv: &StarView, star: Star, x: f32, y: f32, star_color: Color) {
    let cx = x + 20.0;
    let cy = y + 13.0;
    if let Some(owner) = sv.home_of {
        let captured = view.seats.get(owner.index()).and_then(|s| s.home_captured_by);
        let ring = Stroke::new(player_color(owner), 4.0);
        sc.circle(cx, cy, 15.0, None, Some(ring));
        if captured.is_some() {
            sc.line(
                vec![(cx - 13.0, cy - 13.0), (cx + 13.0, cy + 13.0)],
                Stroke::new(Color::WHITE, 3.0),
            );
        }
    }
    sc.circle(cx, cy, 9.0, Some(star_color), None);
    // Name (home stars bold), resources at the right.
    let symbols = star.symbols();
    let sym_w = if symbols.is_empty() {
        0.0
    } else {
        measure_text(&symbols, 22.0, true).0 + 6.0
    };
    let max_name = SECTOR_W - 48.0 - sym_w;
    let bold = sv.home_of.is_some();
    let size = fit(&sv.name, 20.0, 15.0, max_name, bold);
    let mut t = txt(x + 40.0, cy, sv.name.clone(), size, TEXT).anchor(Anchor::CenterLeft);
    if bold {
        t = t.bold();
    }
    sc.text(t);
    let mut rx = x + SECTOR_W - 8.0;
    let r = star.resources();
    for _ in 0..r.pop {
        let t = txt(rx, cy, "O", 22.0, POP)
            .anchor(Anchor::CenterRight)
            .bold()
            .halo(HALO);
        rx -= measure_text("O", 22.0, true).0 + 1.0;
        sc.text(t);
    }
    for _ in 0..r.plus {
        let t = txt(rx, cy, "+", 22.0, PLUS)
            .anchor(Anchor::CenterRight)
            .bold()
            .halo(HALO);
        rx -= measure_text("+", 22.0, true).0 + 1.0;
        sc.text(t);
    }
    // Ship counters.
    let mut cxp = x + 10.0;
    for (i, n) in sv.ships.iter().enumerate() {
        if *n == 0 {
            continue;
        }
        let seat = Seat(i as u8);
        let label = n.to_string();
        let w = (measure_text(&label, 20.0, true).0 + 16.0).max(38.0);
        rounded(
            sc,
            (cxp, y + 31.0, w, 30.0),
            6.0,
            Some(player_color(seat)),
            Some(Stroke::new(Color::BLACK, 1.5)),
        );
        let t = txt(cxp + w / 2.0, y + 46.0, label, 20.0, Color::WHITE)
            .anchor(Anchor::Center)
            .bold()
            .halo(HALO);
        sc.text(t);
        cxp += w + 5.0;
    }
}

const LANE_H: f32 = 58.0;

fn track_height(view: &View) -> f32 {
    34.0 + LANE_H * view.seats.len().max(1) as f32
}

fn track(sc: &mut Scene, view: &View, names: &[String], y0: f32) {
    let x0 = 24.0;
    let label_w = 140.0;
    let squares = view.last_square as usize + 1;
    let sq_w = (WIDTH as f32 - 48.0 - label_w) / squares as f32;
    let bottom = y0 + track_height(view);
    rounded(
        sc,
        (x0, y0, WIDTH as f32 - 48.0, track_height(view)),
        8.0,
        Some(PANEL),
        None,
    );
    let t = txt(x0 + 10.0, y0 + 17.0, "Track", 20.0, TEXT)
        .anchor(Anchor::CenterLeft)
        .bold();
    sc.text(t);
    for k in 0..squares {
        let x = x0 + label_w + k as f32 * sq_w;
        let label = if k == 0 {
            "0 (entry)".to_string()
        } else {
            format!("square {k}")
        };
        let t = txt(x + sq_w / 2.0, y0 + 17.0, label, 19.0, DIM)
            .anchor(Anchor::Center)
            .bold();
        sc.text(t);
        sc.push(Item::Line {
            points: vec![(x, y0 + 6.0), (x, bottom - 6.0)],
            stroke: Stroke::new(Color::rgb(70, 74, 96), 1.5),
            dashed: k == 0,
        });
    }
    for (i, seat) in view.seats.iter().enumerate() {
        let ly = y0 + 34.0 + i as f32 * LANE_H;
        let color = player_color(seat.seat);
        if i > 0 {
            sc.push(Item::Line {
                points: vec![(x0 + 6.0, ly), (WIDTH as f32 - 30.0, ly)],
                stroke: Stroke::new(Color::rgb(48, 52, 70), 1.0),
                dashed: false,
            });
        }
        let (name, size) = fit_text(&name_of(names, seat.seat), 20.0, 16.0, label_w - 14.0, true);
        let t = txt(x0 + 10.0, ly + LANE_H / 2.0, name, size, color)
            .anchor(Anchor::CenterLeft)
            .bold()
            .halo(HALO);
        sc.text(t);
        for k in 0..squares {
            let on: Vec<_> = seat.tokens.iter().filter(|t| t.square == Some(k as u8)).collect();
            let x = x0 + label_w + k as f32 * sq_w + 4.0;
            let per_row = 3usize;
            let chip_w = (sq_w - 8.0) / per_row as f32 - 3.0;
            let ch = 26.0;
            let rows = on.len().div_ceil(per_row).max(1);
            let top = ly + (LANE_H - rows as f32 * (ch + 2.0)) / 2.0;
            for (j, tok) in on.iter().enumerate() {
                let cx = x + (j % per_row) as f32 * (chip_w + 3.0);
                let cy = top + (j / per_row) as f32 * (ch + 2.0);
                rounded(
                    sc,
                    (cx, cy, chip_w, ch),
                    5.0,
                    Some(Color::rgb(40, 44, 64)),
                    Some(Stroke::new(color, 2.0)),
                );
                // Token number in a badge of the player's colour.
                sc.circle(cx + 12.0, cy + ch / 2.0, 10.0, Some(color), None);
                let tt = txt(cx + 12.0, cy + ch / 2.0, tok.token.to_string(), 16.0, Color::WHITE)
                    .anchor(Anchor::Center)
                    .bold()
                    .halo(HALO);
                sc.text(tt);
                let from_color = match tok.from {
                    Some(s) if s.layer() == 0 => YELLOW_STAR,
                    _ => RED_STAR,
                };
                let letter = tok.from.map(|s| s.letter().to_string()).unwrap_or_default();
                let tt = txt(cx + chip_w - 4.0, cy + ch / 2.0, letter, 18.0, from_color)
                    .anchor(Anchor::CenterRight)
                    .bold()
                    .halo(HALO);
                sc.text(tt);
                let ships = tok.ships.to_string();
                let size = fit(&ships, 18.0, 14.0, chip_w - 40.0, true);
                let tt = txt(cx + 25.0, cy + ch / 2.0, ships, size, TEXT)
                    .anchor(Anchor::CenterLeft)
                    .bold();
                sc.text(tt);
            }
        }
    }
}

fn players(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - 10.0;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let t = txt(
        x0 + 12.0,
        y0 + 8.0,
        "Players · ships · home star · hand (played cards dim, last played red)",
        19.0,
        DIM,
    )
    .bold();
    sc.text(t);
    let row_h = ((h - 40.0) / view.seats.len().max(1) as f32).min(56.0);
    for (i, s) in view.seats.iter().enumerate() {
        let y = y0 + 38.0 + i as f32 * row_h;
        player_row(sc, view, s, names, x0 + 12.0, y, w - 24.0);
    }
}

fn player_row(sc: &mut Scene, view: &View, s: &SeatView, names: &[String], x: f32, y: f32, w: f32) {
    let color = player_color(s.seat);
    rounded(
        sc,
        (x, y + 2.0, 22.0, 22.0),
        4.0,
        Some(color),
        Some(Stroke::new(Color::BLACK, 1.0)),
    );
    let mut name = name_of(names, s.seat);
    if view.viewer == Viewer::Seat(s.seat) {
        name.push_str(" (you)");
    }
    let t = txt(x + 30.0, y + 13.0, name.clone(), 20.0, color)
        .anchor(Anchor::CenterLeft)
        .bold()
        .halo(HALO);
    sc.text(t);
    let name_w = measure_text(&name, 20.0, true).0.max(150.0);
    let home = match (s.eliminated, s.home_captured_by) {
        (true, _) => "eliminated".to_string(),
        (false, None) => format!("home {} held", s.home.name()),
        (false, Some(by)) => format!("home {} captured by {}", s.home.name(), name_of(names, by)),
    };
    let info = format!(
        "{} ships ({} in flight) · {} stars · {} pair(s) · score {} · {home}",
        s.ships_on_stars + s.ships_in_flight,
        s.ships_in_flight,
        s.stars_held,
        s.pairs,
        s.score
    );
    let size = fit(&info, 18.0, 14.0, w - name_w - 44.0, false);
    let t = txt(x + 40.0 + name_w, y + 13.0, info, size, TEXT).anchor(Anchor::CenterLeft);
    sc.text(t);
    // Hand: every card, in hand bright, played dim.
    let mut cx = x + 30.0;
    let cy = y + 28.0;
    for card in Card::ALL {
        let in_hand = s.hand.contains(&card);
        let last = s.played.last() == Some(&card);
        let label = format!("{} {}", short_card(card), card.strength());
        let cw = measure_text(&label, 17.0, true).0 + 12.0;
        let (fill, fg) = if in_hand {
            (Color::rgb(230, 230, 236), Color::rgb(20, 20, 30))
        } else {
            (Color::rgb(52, 56, 74), Color::rgb(140, 144, 160))
        };
        let stroke = if last {
            Some(Stroke::new(Color::rgb(255, 90, 90), 2.0))
        } else {
            None
        };
        rounded(sc, (cx, cy, cw, 22.0), 4.0, Some(fill), stroke);
        let t = txt(cx + cw / 2.0, cy + 11.0, label, 17.0, fg)
            .anchor(Anchor::Center)
            .bold();
        sc.text(t);
        cx += cw + 4.0;
    }
}

fn battle_panel(sc: &mut Scene, view: &View, names: &[String], x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - 10.0;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let mut lines: Vec<(String, Color, bool)> = Vec::new();
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
        lines.push(("No battle in progress".to_string(), DIM, true));
    }
    if let Some(c) = &view.last_combat {
        lines.push((
            format!(
                "Last combat (round {}, {}) · {} {} = {} · vs {} {} = {}",
                c.round,
                c.star.name(),
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
        lines.push((format!("Final scores · {s}"), YELLOW_STAR, true));
    } else if !view.pending.is_empty() {
        let waiting = view
            .pending
            .iter()
            .filter(|p| !p.submitted)
            .map(|p| format!("{} ({})", name_of(names, p.seat), p.kind))
            .collect::<Vec<_>>()
            .join(", ");
        lines.push((format!("Waiting on · {waiting}"), DIM, false));
    }
    let mut y = y0 + 10.0;
    for (s, color, bold) in lines {
        for line in wrap(&s, 19.0, w - 24.0, bold) {
            if y > y0 + h - 30.0 {
                return;
            }
            let size = fit(&line, 19.0, 14.0, w - 24.0, bold);
            let mut t = txt(x0 + 12.0, y, line, size, color).halo(HALO);
            if bold {
                t = t.bold();
            }
            sc.text(t);
            y += 27.0;
        }
    }
}
