//! A player's first hour, checked on a whole game through the fake
//! Discord: what the bot sent per order, the pings, and every word a
//! player reads (posts, DMs, private replies, control labels, menu
//! entries, autocomplete) read for code a newcomer could not follow.

use super::{check_pings, owing, Harness, Id, Table, User, Volume};
use orrery::games::AnyState;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Boards sent per order, on average over a game, at most (KB).
pub const BOARD_KB_PER_ORDER: f64 = 50.0;

/// Follows the pings of a game order by order: each post that pings pings
/// exactly the players owed, with a control to act (see [`check_pings`]).
#[derive(Default)]
pub struct PingWatch {
    before: BTreeSet<Id>,
    seen: HashSet<Id>,
    /// Posts that pinged.
    pub pings: usize,
}

impl PingWatch {
    /// Call with the game's state before every order and once at the end.
    pub fn check(&mut self, h: &Harness, t: &Table, state: &AnyState) {
        self.pings += check_pings(h, t, &self.before, state, &mut self.seen);
        self.before = owing(t, state);
    }
}

/// Where a text was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Said {
    /// A message's text (post, DM, private reply).
    Text,
    /// A button's label, a menu entry's label or description, a placeholder.
    Label,
    /// An autocomplete suggestion.
    Suggestion,
}

/// Every text the bot sent so far, as a player reads it, with where.
pub fn sent_texts(h: &Harness) -> Vec<(Said, String)> {
    fn walk(v: &Value, out: &mut Vec<(Said, String)>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v) {
                        ("content", Value::String(s)) => out.push((Said::Text, s.clone())),
                        ("label" | "placeholder" | "description", Value::String(s)) => {
                            out.push((Said::Label, s.clone()))
                        }
                        ("choices", Value::Array(a)) => {
                            for c in a {
                                if let Some(s) = c["name"].as_str() {
                                    out.push((Said::Suggestion, s.to_string()));
                                }
                            }
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    h.fake.read(|w| {
        let mut out = Vec::new();
        for l in w.log.iter().filter(|l| (200..300).contains(&l.status)) {
            // Command registration describes the commands, not the game.
            if l.path.starts_with("/applications/") {
                continue;
            }
            if let Some(v) = l.body.json() {
                walk(v, &mut out);
            }
        }
        out
    })
}

/// Why `text` (read where `said`) would stop a newcomer, if it would: the
/// patterns of code the bot must not show players.
pub fn code_in(said: Said, text: &str) -> Option<&'static str> {
    if text.contains("Legal now:") {
        return Some("a \"Legal now:\" list");
    }
    // `…` spans holding an order's text or an option form (naming a
    // command, like `/game join`, is fine).
    let mut parts = text.split('`');
    parts.next();
    while let (Some(inside), _) = (parts.next(), parts.next()) {
        if option_form(inside).is_some() || inside.contains('|') {
            return Some("command syntax in backticks");
        }
    }
    if option_form(text).is_some() {
        return Some("a raw option form (name:VALUE)");
    }
    let lower = text.to_lowercase();
    if let Some(i) = lower.find("seat ") {
        if lower[i + 5..].starts_with(|c: char| c.is_ascii_digit()) {
            return Some("a seat number");
        }
    }
    if said == Said::Label && only_code(text) {
        return Some("a label that is only a code");
    }
    None
}

/// The first `name:VALUE` in `text` (a lowercase word of two letters or
/// more, a colon, then no space): not Discord's `<t:…>`, not a link.
fn option_form(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    for (i, _) in text.match_indices(':') {
        let mut s = i;
        while s > 0 && (b[s - 1].is_ascii_lowercase() || b[s - 1] == b'_') {
            s -= 1;
        }
        let before = if s > 0 { b[s - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        if i - s >= 2
            && !before.is_ascii_alphanumeric()
            && before != b'<'
            && before != b':'
            && !next.is_ascii_whitespace()
            && next != b'/'
            && next != b'*'
            && next != b')'
        {
            return Some(&text[s..]);
        }
    }
    None
}

/// A label with no word in it: only ids like "B36", numbers, arrows and
/// direction codes ("R4: nw+", "B36 → L4").
fn only_code(label: &str) -> bool {
    let words: Vec<&str> = label
        .split(|c: char| c.is_whitespace() || "→·:,()[]/+-".contains(c))
        .filter(|w| !w.is_empty())
        .filter(|w| w.chars().any(|c| c.is_alphanumeric()))
        .collect();
    let is_word = |w: &&str| {
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        letters >= 3 && !w.chars().any(|c| c.is_ascii_digit())
    };
    !words.is_empty() && !words.iter().any(is_word)
}

/// What a whole game through the fake Discord came to, per order, and the
/// first hour's checks on it (each asserted in [`first_hour`]).
#[derive(Debug)]
pub struct FirstHour {
    pub orders: usize,
    pub sent: Volume,
    pub posts_per_order: f64,
    pub edits_per_order: f64,
    pub board_kb_per_order: f64,
    pub pings: usize,
    /// Texts read for code, by where.
    pub texts_read: BTreeMap<String, usize>,
}

/// The first hour's checks on a finished game of `t` in which `orders`
/// orders were given: no DM only says that nothing is asked; every post
/// that pinged either offers its control or was closed; no text a player
/// reads is code; `pings` posts pinged (each checked by [`PingWatch`] or
/// [`check_pings`]); boards weigh under [`BOARD_KB_PER_ORDER`] per order; no
/// edit changed nothing (the fake reports those: see `assert_clean`).
pub fn first_hour(h: &Harness, t: &Table, players: &[User], orders: usize, pings: usize) -> FirstHour {
    assert!(orders > 0);
    let sent = h.volume(t.channel, players);
    let per = |n: usize| n as f64 / orders as f64;
    let board_kb_per_order = sent.file_bytes as f64 / 1024.0 / orders as f64;

    // DMs only to say nothing is asked, and boards a player already had: a
    // private board goes to a seat when what it shows changed.
    let (idle, repeated): (Vec<String>, Vec<String>) = h.fake.read(|w| {
        let mut idle = Vec::new();
        let mut repeated = Vec::new();
        for c in players.iter().filter_map(|u| w.dm_channel_of(u.id)) {
            let mut last: Option<&[u8]> = None;
            for m in w.messages_in(c) {
                if m.content.contains("nothing is asked") {
                    idle.push(m.content.clone());
                }
                if let Some(a) = m.attachments.first() {
                    if last == Some(a.data.as_slice()) {
                        repeated.push(m.content.clone());
                    }
                    last = Some(a.data.as_slice());
                }
            }
        }
        (idle, repeated)
    });
    let mut failures = Vec::new();
    if let Some(one) = idle.first() {
        failures.push(format!("{} DMs only say nothing is asked: {one}", idle.len()));
    }
    if let Some(one) = repeated.first() {
        failures.push(format!(
            "{} DMs send a board the player already had: {one}",
            repeated.len()
        ));
    }

    // Every post that pinged still lets its players act, or was closed.
    let show = format!("b:{}", t.game.0);
    let stale: Vec<String> = h.fake.read(|w| {
        w.messages_in(t.channel)
            .into_iter()
            .filter(|m| !m.pinged.is_empty())
            .filter(|m| {
                let waits = m.content.contains("Waiting on:")
                    || (m.content.contains("waits on you") && !m.content.contains("Closed"));
                waits && !m.custom_ids().contains(&show)
            })
            .map(|m| m.content.clone())
            .collect()
    });
    if !stale.is_empty() {
        failures.push(format!("pings left standing without a control: {stale:?}"));
    }

    // Every word a player reads.
    let mut texts_read = BTreeMap::new();
    let mut caught: BTreeMap<&'static str, BTreeSet<String>> = BTreeMap::new();
    for (said, text) in sent_texts(h) {
        *texts_read.entry(format!("{said:?}")).or_default() += 1;
        if let Some(why) = code_in(said, &text) {
            caught.entry(why).or_default().insert(text);
        }
    }
    if !caught.is_empty() {
        failures.push(format!(
            "texts a newcomer cannot read:\n{}",
            caught
                .iter()
                .map(|(why, texts)| format!(
                    "{why} ({}):\n  {}",
                    texts.len(),
                    texts.iter().take(8).cloned().collect::<Vec<_>>().join("\n  ")
                ))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let report = FirstHour {
        orders,
        sent,
        posts_per_order: per(sent.channel_posts + sent.dm_posts),
        edits_per_order: per(sent.channel_edits + sent.dm_edits),
        board_kb_per_order,
        pings,
        texts_read,
    };
    if board_kb_per_order >= BOARD_KB_PER_ORDER {
        failures.push(format!("boards weigh {board_kb_per_order:.1} KB per order"));
    }
    assert!(failures.is_empty(), "{report:?}\n{}", failures.join("\n"));
    h.fake.assert_clean();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_catch_code_and_let_words_through() {
        for (said, text) in [
            (Said::Text, "Lose with `lose pieces:LIST`."),
            (Said::Text, "(`line:N` replaces line N)"),
            (Said::Text, "[player:N piece:mine|factory]"),
            (Said::Text, "Illegal. Legal now: move unit:B36 path:M3"),
            (Said::Text, "the game is waiting on seat 2"),
            (Said::Label, "B36 → L4"),
            (Said::Label, "R4: nw+"),
            (Said::Text, "Mark it with `/sheet ready line:2`."),
        ] {
            assert!(code_in(said, text).is_some(), "{text}");
        }
        for (said, text) in [
            (Said::Text, "Due <t:1700000000:f> (<t:1700000000:R>), in <#123>: <@45>"),
            (Said::Text, "**Round 2** · alice's turn: move a ship."),
            (Said::Text, "See https://example.org/rules"),
            (Said::Label, "Scout B36 → L4"),
            (Said::Label, "✅ Sheet ready"),
            (Said::Label, "Admiral (6)"),
            (Said::Text, "Phase 5: Income"),
            (Said::Text, "Start it with `/game start`."),
        ] {
            assert_eq!(code_in(said, text), None, "{text}");
        }
    }
}
