//! The side panel (bottom right): the outcome, the Pass cubes left, deck,
//! bag, discard pile, the claim in progress, Mercury's offer, crisis losses
//! owed, tiles a planet's box has no room for, whom the game waits on, and
//! Espionage.

use super::*;

fn dice_words(dice: &[crate::solar::state::Die]) -> String {
    dice.iter()
        .map(|d| if d.is_skull() { "☠".to_string() } else { d.to_string() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The side panel's height: every line of it.
pub(super) fn info_height(view: &View, names: &[String], bottom: f32, w: f32) -> f32 {
    info_lines(view, names, bottom)
        .iter()
        .map(|(s, _, bold)| wrap_all(s, w - 24.0, *bold).len() as f32 * LINE + 4.0)
        .sum::<f32>()
        + 10.0
}

#[allow(clippy::too_many_arguments)]
pub(super) fn info_panel(sc: &mut Scene, view: &View, names: &[String], bottom: f32, x0: f32, y0: f32, w: f32) {
    let h = HEIGHT as f32 - y0 - MARGIN;
    rounded(sc, (x0, y0, w, h), 8.0, Some(PANEL), None);
    let mut y = y0 + 6.0;
    let width = w - 24.0;
    for (s, color, bold) in info_lines(view, names, bottom) {
        for line in wrap_all(&s, width, bold) {
            let mut t = txt(x0 + 12.0, y, line, T, color);
            if bold {
                t = t.bold();
            }
            sc.text(t);
            y += LINE;
        }
        y += 4.0;
    }
}

/// The side panel's lines: text, colour, bold.
fn info_lines(view: &View, names: &[String], bottom: f32) -> Vec<(String, Color, bool)> {
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
            counted(view.deck_size, "card", "cards"),
            counted(view.bag.count, "tile", "tiles")
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
                "Mercury's powers: {} may use them · level {}",
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
                "{} owes {} {what} · from {}",
                name_of(names, d.seat),
                d.count,
                from.join(", ")
            ),
            player_color(d.seat),
            true,
        ));
    }
    // Tiles their planet's box has no room for.
    for pv in &view.planets {
        let rest: Vec<String> = pv
            .tiles
            .iter()
            .skip(tiles_shown(view, pv, bottom))
            .map(|t| {
                let mut s = format!("{} {} {}", t.id, kind_word(t.kind), defence_word(t.defence));
                if t.skull {
                    s.push_str(" ☠");
                }
                if t.crisis_dice > 0 {
                    s.push_str(&format!(
                        " with {}",
                        counted(t.crisis_dice, "crisis die", "crisis dice")
                    ));
                }
                s
            })
            .collect();
        if !rest.is_empty() {
            lines.push((format!("Also on {}: {}", pv.planet, rest.join(" · ")), TEXT, false));
        }
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
    lines
}

/// Split `s` at " · " into lines that fit `width` at [`T`], and a part
/// still too wide at its spaces.
fn wrap_all(s: &str, width: f32, bold: bool) -> Vec<String> {
    wrap(s, T, width, bold)
        .into_iter()
        .flat_map(|line| {
            if measure_text(&line, T, bold).0 <= width {
                vec![line]
            } else {
                wrap_words(&line, T, width, bold)
            }
        })
        .collect()
}
