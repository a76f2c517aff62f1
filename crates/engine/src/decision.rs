//! The one decision model every game uses.
//!
//! At any moment a game waits on a set of seats, each for one specific
//! decision ([`Pending`]). Sequential turns are a single pending seat;
//! simultaneous secret choices are several seats whose submissions are held
//! in a [`Simultaneous`] box until all are in, then revealed together.

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
}

/// The sheet edits every game with order sheets offers under the same
/// names (`/game ready`, `/game unready`, `/game clear`,
/// `/game remove line:N`); adding and replacing lines are the game's own
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

/// Hidden simultaneous **order sheets**: each owing seat writes many lines
/// (adds, replaces, removes, clears), then marks its sheet ready, and may
/// un-ready while others still write. Editing a sheet un-readies it. Once
/// every owing seat is ready the sheets are revealed together. Its public
/// face ([`OrderSheet::ready`]) says who is ready, never what a sheet holds.
///
/// Lines are the ruleset's typed orders; checking each line when it is
/// written, and the sheet as a whole when it is resolved, is the ruleset's
/// job. At a deadline a sheet counts as it stands (an empty sheet too):
/// see [`OrderSheet::as_they_stand`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderSheet<A> {
    /// Owing seats, sorted, with their lines and whether they are ready.
    sheets: Vec<(Seat, Vec<A>, bool)>,
}

/// A sheet edit that names a line the sheet does not have, or comes from a
/// seat that owes no sheet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    #[error("{0} owes no order sheet here")]
    NotOwed(Seat),
    #[error("your sheet has no line {line}: it has {len} (lines are numbered from 1)")]
    NoLine { line: usize, len: usize },
}

impl<A: Clone> OrderSheet<A> {
    /// Empty sheets for `seats`, none ready.
    pub fn new(seats: impl IntoIterator<Item = Seat>) -> Self {
        let mut owed: Vec<Seat> = seats.into_iter().collect();
        owed.sort();
        owed.dedup();
        OrderSheet {
            sheets: owed.into_iter().map(|s| (s, Vec::new(), false)).collect(),
        }
    }

    fn sheet_mut(&mut self, seat: Seat) -> Result<&mut (Seat, Vec<A>, bool), SheetError> {
        self.sheets
            .iter_mut()
            .find(|(s, _, _)| *s == seat)
            .ok_or(SheetError::NotOwed(seat))
    }

    /// Lines are numbered from 1, as a player sees them.
    fn index(lines: &[A], line: usize) -> Result<usize, SheetError> {
        if (1..=lines.len()).contains(&line) {
            Ok(line - 1)
        } else {
            Err(SheetError::NoLine { line, len: lines.len() })
        }
    }

    pub fn owes(&self, seat: Seat) -> bool {
        self.sheets.iter().any(|(s, _, _)| *s == seat)
    }

    /// Append a line (the sheet is no longer ready).
    pub fn add(&mut self, seat: Seat, line: A) -> Result<(), SheetError> {
        let sheet = self.sheet_mut(seat)?;
        sheet.1.push(line);
        sheet.2 = false;
        Ok(())
    }

    /// Replace line `line` (from 1).
    pub fn replace(&mut self, seat: Seat, line: usize, with: A) -> Result<(), SheetError> {
        let sheet = self.sheet_mut(seat)?;
        let i = Self::index(&sheet.1, line)?;
        sheet.1[i] = with;
        sheet.2 = false;
        Ok(())
    }

    /// Remove line `line` (from 1); the lines after it move up.
    pub fn remove(&mut self, seat: Seat, line: usize) -> Result<A, SheetError> {
        let sheet = self.sheet_mut(seat)?;
        let i = Self::index(&sheet.1, line)?;
        sheet.2 = false;
        Ok(sheet.1.remove(i))
    }

    /// Empty the seat's sheet.
    pub fn clear(&mut self, seat: Seat) -> Result<(), SheetError> {
        let sheet = self.sheet_mut(seat)?;
        sheet.1.clear();
        sheet.2 = false;
        Ok(())
    }

    /// Mark the sheet ready (`true`) or take that back (`false`).
    pub fn set_ready(&mut self, seat: Seat, ready: bool) -> Result<(), SheetError> {
        self.sheet_mut(seat)?.2 = ready;
        Ok(())
    }

    /// The seat's own lines: only for that seat's view.
    pub fn lines_of(&self, seat: Seat) -> Option<&[A]> {
        self.sheets
            .iter()
            .find(|(s, _, _)| *s == seat)
            .map(|(_, l, _)| l.as_slice())
    }

    pub fn is_ready(&self, seat: Seat) -> bool {
        self.sheets.iter().any(|(s, _, r)| *s == seat && *r)
    }

    pub fn all_ready(&self) -> bool {
        self.sheets.iter().all(|(_, _, r)| *r)
    }

    pub fn waiting_on(&self) -> Vec<Seat> {
        self.sheets.iter().filter(|(_, _, r)| !r).map(|(s, _, _)| *s).collect()
    }

    /// The public face: each owing seat and whether it is ready.
    pub fn ready(&self) -> Vec<(Seat, bool)> {
        self.sheets.iter().map(|(s, _, r)| (*s, *r)).collect()
    }

    /// Every sheet, in seat order, once every seat is ready.
    pub fn revealed(&self) -> Option<Vec<(Seat, Vec<A>)>> {
        self.all_ready().then(|| self.as_they_stand())
    }

    /// Every sheet as it stands, ready or not (the deadline's reveal).
    pub fn as_they_stand(&self) -> Vec<(Seat, Vec<A>)> {
        self.sheets.iter().map(|(s, l, _)| (*s, l.clone())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheets_take_many_lines_and_reveal_when_all_are_ready() {
        let mut sheet = OrderSheet::new([Seat(1), Seat(0)]);
        assert_eq!(sheet.waiting_on(), vec![Seat(0), Seat(1)]);
        sheet.add(Seat(0), "build cruiser at Vega").unwrap();
        sheet.add(Seat(0), "scrap 3").unwrap();
        sheet.add(Seat(0), "hide 4").unwrap();
        sheet.replace(Seat(0), 2, "scrap 5").unwrap();
        assert_eq!(sheet.remove(Seat(0), 3).unwrap(), "hide 4");
        assert_eq!(sheet.lines_of(Seat(0)), Some(&["build cruiser at Vega", "scrap 5"][..]));
        sheet.set_ready(Seat(0), true).unwrap();
        assert_eq!(sheet.ready(), vec![(Seat(0), true), (Seat(1), false)]);
        assert!(sheet.revealed().is_none());
        // Editing a ready sheet takes its readiness back.
        sheet.add(Seat(0), "repair 2").unwrap();
        assert!(!sheet.is_ready(Seat(0)));
        sheet.set_ready(Seat(0), true).unwrap();
        // An empty sheet is a sheet: ready with no lines.
        sheet.set_ready(Seat(1), true).unwrap();
        sheet.set_ready(Seat(1), false).unwrap();
        assert!(!sheet.all_ready());
        sheet.set_ready(Seat(1), true).unwrap();
        assert_eq!(
            sheet.revealed(),
            Some(vec![
                (Seat(0), vec!["build cruiser at Vega", "scrap 5", "repair 2"]),
                (Seat(1), vec![])
            ])
        );
    }

    #[test]
    fn sheet_edits_name_real_lines_of_owing_seats() {
        let mut sheet = OrderSheet::new([Seat(0)]);
        sheet.add(Seat(0), 7).unwrap();
        assert_eq!(sheet.remove(Seat(0), 0), Err(SheetError::NoLine { line: 0, len: 1 }));
        assert_eq!(
            sheet.replace(Seat(0), 2, 9),
            Err(SheetError::NoLine { line: 2, len: 1 })
        );
        assert_eq!(sheet.add(Seat(3), 1), Err(SheetError::NotOwed(Seat(3))));
        assert_eq!(
            SheetError::NoLine { line: 2, len: 1 }.to_string(),
            "your sheet has no line 2: it has 1 (lines are numbered from 1)"
        );
        // Refused edits change nothing.
        assert_eq!(sheet.lines_of(Seat(0)), Some(&[7][..]));
        sheet.clear(Seat(0)).unwrap();
        assert_eq!(sheet.as_they_stand(), vec![(Seat(0), vec![])]);
    }

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
