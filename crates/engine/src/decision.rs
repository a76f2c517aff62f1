//! The one decision model every game uses.
//!
//! At any moment a game waits on a set of seats, each for one specific
//! decision ([`Pending`]). Sequential turns are a single pending seat;
//! simultaneous secret choices are several seats whose submissions are held
//! in a [`Simultaneous`] box until all are in, then revealed together; a
//! decision of many lines is an order sheet ([`crate::sheet`]).

use super::ids::Seat;
use serde::{Deserialize, Serialize};

/// One seat owes one decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub seat: Seat,
    /// A short machine name of the decision ("turn", "combat-card",
    /// "losses", "retreat"): rulesets define their own.
    pub kind: String,
    /// What the seat is asked, in words (safe to show the seat; public
    /// unless `secret`).
    pub prompt: String,
    /// A hidden, simultaneous decision: submissions are held unseen.
    pub secret: bool,
    /// For simultaneous decisions: this seat has submitted and may only be
    /// waiting for others. For an order sheet: the sheet is marked ready.
    pub submitted: bool,
    /// The decision is an [`OrderSheet`]: the seat writes many lines and
    /// marks them ready ([`SheetVerb`]); `prompt` shows the seat its sheet.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sheet: bool,
    /// Whether this seat owes the decision is itself hidden (Spectrum
    /// War's combat sheets: who fights is secret). Public output names
    /// nobody for it and counts nobody; the seat alone is told, in
    /// private. See [`Pending::disclosed`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undisclosed: bool,
}

impl Pending {
    /// The decisions of `pending` public output may name: what everyone
    /// may know of whom the game waits on.
    pub fn disclosed(pending: &[Pending]) -> Vec<Pending> {
        pending.iter().filter(|p| !p.undisclosed).cloned().collect()
    }
}

/// The sheet edits every game with order sheets offers under the same
/// names (`/sheet ready`, `/sheet unready`, `/sheet clear`,
/// `/sheet remove line:N`); adding and replacing lines are the game's own
/// orders. A ruleset maps each to one of its actions
/// ([`crate::Ruleset::sheet_verb`]), so they go through `decide`
/// and the log like any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SheetVerb {
    /// Mark the sheet ready.
    Ready,
    /// Take the ready mark back while others still write.
    Unready,
    /// Remove every line.
    Clear,
    /// Remove line N (from 1).
    Remove(usize),
}

/// Hidden simultaneous submissions: what each owing seat has picked, held
/// until every seat is in. Its public face ([`Simultaneous::submitted`])
/// says who has submitted, never what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Simultaneous<T> {
    owed: Vec<Seat>,
    held: Vec<(Seat, T)>,
}

impl<T: Clone> Simultaneous<T> {
    pub fn new(seats: impl IntoIterator<Item = Seat>) -> Self {
        let mut owed: Vec<Seat> = seats.into_iter().collect();
        owed.sort();
        owed.dedup();
        Simultaneous { owed, held: Vec::new() }
    }

    pub fn owes(&self, seat: Seat) -> bool {
        self.owed.contains(&seat)
    }

    /// Store (or replace, while others are still deciding) a seat's pick.
    pub fn submit(&mut self, seat: Seat, pick: T) {
        debug_assert!(self.owes(seat));
        match self.held.iter_mut().find(|(s, _)| *s == seat) {
            Some(slot) => slot.1 = pick,
            None => self.held.push((seat, pick)),
        }
        self.held.sort_by_key(|(s, _)| *s);
    }

    pub fn has_submitted(&self, seat: Seat) -> bool {
        self.held.iter().any(|(s, _)| *s == seat)
    }

    /// The seat's own pick: only for that seat's view.
    pub fn pick_of(&self, seat: Seat) -> Option<&T> {
        self.held.iter().find(|(s, _)| *s == seat).map(|(_, p)| p)
    }

    pub fn all_in(&self) -> bool {
        self.owed.iter().all(|s| self.has_submitted(*s))
    }

    pub fn owed(&self) -> &[Seat] {
        &self.owed
    }

    pub fn waiting_on(&self) -> Vec<Seat> {
        self.owed.iter().copied().filter(|s| !self.has_submitted(*s)).collect()
    }

    /// The public face: each owing seat and whether it has submitted.
    pub fn submitted(&self) -> Vec<(Seat, bool)> {
        self.owed.iter().map(|s| (*s, self.has_submitted(*s))).collect()
    }

    /// All picks, in seat order, once everyone is in.
    pub fn revealed(&self) -> Option<Vec<(Seat, T)>> {
        self.all_in().then(|| self.held.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_until_all_in() {
        let mut box_ = Simultaneous::new([Seat(2), Seat(0)]);
        assert_eq!(box_.waiting_on(), vec![Seat(0), Seat(2)]);
        box_.submit(Seat(2), "x");
        assert!(!box_.all_in());
        assert!(box_.revealed().is_none());
        assert_eq!(box_.submitted(), vec![(Seat(0), false), (Seat(2), true)]);
        box_.submit(Seat(2), "y");
        assert_eq!(box_.pick_of(Seat(2)), Some(&"y"));
        box_.submit(Seat(0), "z");
        assert_eq!(box_.revealed(), Some(vec![(Seat(0), "z"), (Seat(2), "y")]));
    }
}
