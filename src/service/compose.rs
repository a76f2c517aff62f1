//! Turning accepted events into messages. Every text and board here is
//! built from a viewer's narration or view: public posts from the public
//! one, DMs from the recipient's own.

use super::advance::Advance;
use super::message::{BoardRef, Choice, OutMessage, Target};
use super::text::Text;
use crate::engine::{Outcome, Pending, Seat, Viewer};
use crate::games::AnyState;
use crate::store::{GameRow, SeatRow};

/// A prompt offers its legal orders as choices when there are at most this
/// many; beyond that it lists the order names instead.
const MAX_CHOICES: usize = 25;

/// Compose what must be announced after `adv`'s events. `starting`: they
/// are the set-up of a new game (always post the board).
pub(super) fn after_action(row: &GameRow, seats: &[SeatRow], adv: &Advance, starting: bool) -> Vec<OutMessage> {
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    let channel = Target::Channel(row.channel_id);
    let (before, state, events) = (&adv.before, &adv.state, &adv.events);
    let mut boundaries = adv.boundaries.clone();
    if starting && boundaries.is_empty() {
        boundaries.push((adv.seq(), state.phase().label));
    }
    let mut out = Vec::new();

    // What everyone may learn.
    if !starting {
        let public: Vec<String> = events
            .iter()
            .filter_map(|e| e.narrate(Viewer::Public, &names))
            .collect();
        if !public.is_empty() {
            out.push(OutMessage {
                target: channel.clone(),
                text: public.join("\n").into(),
                board: None,
                choices: vec![],
                game_over: false,
                footer: None,
                slot: None,
                op: Default::default(),
                pings: Vec::new(),
            });
        }
        // What only one seat may learn (its own secrets), by DM. A vacant
        // seat has nobody to tell.
        for s in seats.iter().filter(|s| !s.vacant) {
            let own: Vec<String> = events
                .iter()
                .filter_map(|e| {
                    let mine = e.narrate(Viewer::Seat(s.seat), &names)?;
                    (e.narrate(Viewer::Public, &names).as_deref() != Some(mine.as_str())).then_some(mine)
                })
                .collect();
            if !own.is_empty() {
                out.push(OutMessage::to_dm(
                    s.user,
                    format!("Game {}: {}", row.id, own.join("\n")),
                ));
            }
        }
    }

    // A board after every phase.
    let pending = state.pending();
    for (i, (seq, label)) in boundaries.iter().enumerate() {
        let mut text = Text::new()
            .strong(row.kind.name())
            .then(format!(" game {} · {label}", row.id));
        if i + 1 == boundaries.len() && state.outcome().is_none() {
            text.push_str(&format!("\nWaiting on: {}", waiting_line(&pending, &names)));
        }
        out.push(OutMessage {
            target: channel.clone(),
            text,
            board: Some(BoardRef {
                game: row.id,
                viewer: Viewer::Public,
                seq: *seq,
            }),
            choices: vec![],
            game_over: false,
            footer: None,
            slot: None,
            op: Default::default(),
            pings: Vec::new(),
        });
    }

    if let (Some(outcome), None) = (state.outcome(), before.outcome()) {
        out.push(OutMessage {
            target: channel.clone(),
            text: outcome_line(&outcome, &names),
            board: None,
            choices: vec![],
            game_over: true,
            footer: None,
            slot: None,
            op: Default::default(),
            pings: Vec::new(),
        });
        return out;
    }

    // Prompt each seat that now owes a decision it did not owe before (or
    // owes again after a phase boundary), privately.
    let before_pending = before.pending();
    for p in &pending {
        let new = !boundaries.is_empty()
            || !before_pending
                .iter()
                .any(|b| b.seat == p.seat && b.kind == p.kind && b.prompt == p.prompt);
        if !new || p.submitted {
            continue;
        }
        let Some(seat_row) = seats.iter().find(|s| s.seat == p.seat && !s.vacant) else {
            continue;
        };
        out.push(prompt(row, state, p, seat_row));
    }
    out
}

/// A private prompt: what is asked, and buttons when the choice is small.
pub(super) fn prompt(row: &GameRow, state: &AnyState, p: &Pending, seat: &SeatRow) -> OutMessage {
    let legal = state.legal_commands(p.seat);
    let mut text = Text::new()
        .strong(row.kind.name())
        .then(format!(" game {}: {}", row.id, p.prompt));
    let choices: Vec<Choice> = if legal.len() <= MAX_CHOICES {
        legal
            .iter()
            .map(|c| Choice {
                label: c.to_string(),
                game: row.id,
                command: c.clone(),
                style: Default::default(),
                group: c.name.clone(),
                confirm: None,
                current: false,
                act: Default::default(),
            })
            .collect()
    } else {
        let mut names: Vec<&str> = legal.iter().map(|c| c.name.as_str()).collect();
        names.dedup();
        text.append(
            Text::plain(format!("\nOrders you can give: {} (use ", names.join(", ")))
                .code(format!("/{} <order>", row.kind.key()))
                .then("; options autocomplete)."),
        );
        Vec::new()
    };
    OutMessage {
        target: Target::Dm(seat.user),
        text,
        board: None,
        choices,
        game_over: false,
        footer: None,
        slot: None,
        op: Default::default(),
        pings: Vec::new(),
    }
}

pub fn waiting_line(pending: &[Pending], names: &[String]) -> String {
    if pending.is_empty() {
        return "nobody".into();
    }
    pending
        .iter()
        .map(|p| {
            let name = names.get(p.seat.index()).cloned().unwrap_or_else(|| p.seat.to_string());
            let done = if p.submitted { ", submitted" } else { "" };
            format!("{name} ({}{done})", p.kind)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn outcome_line(outcome: &Outcome, names: &[String]) -> Text {
    let name = |s: &Seat| names.get(s.index()).cloned().unwrap_or_else(|| s.to_string());
    match outcome {
        Outcome::Winner { seat, reason } => Text::plain("🏆 Game over: ")
            .strong(name(seat))
            .then(format!(" wins — {reason}")),
        Outcome::Shared { seats, reason } => Text::plain(format!(
            "🏆 Game over: shared victory for {} — {reason}",
            seats.iter().map(name).collect::<Vec<_>>().join(" and ")
        )),
    }
}
