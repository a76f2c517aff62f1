//! Order sheets: the one protocol every game whose decisions are many
//! lines uses (Spectrum War's sections, Space Empires' Economic Phase).
//!
//! Each owing seat writes lines on its sheet ([`SheetEdit`]: add, replace,
//! remove, clear), marks it ready, and may un-ready it while others still
//! write; any edit takes its readiness back. Every edit is an order of the
//! seat, decided here ([`OrderSheet::decide`], with the game checking the
//! lines it writes) into one past-tense [`SheetEvent`], applied here
//! ([`OrderSheet::apply`]) and narrated here, to the seat alone
//! ([`SheetEvent::narrate`]): the public learns readiness only. When every
//! sheet is ready (or at a deadline, where a seat's default is "ready" and
//! a sheet counts as it stands) the game carries the sheets out.
//!
//! The sheet's own verbs have one text in every game (`ready`, `unready`,
//! `clear`, `remove line:N`; [`SheetEdit::parse_verb`]), and a game's line
//! orders take `line:N` to replace line N ([`SheetEdit::write`]).

use crate::command::{CommandLine, ParseError};
use crate::decision::SheetVerb;
use crate::ids::{Seat, Viewer};
use crate::ruleset::Rejection;
use serde::{Deserialize, Serialize};

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

    /// The seat owes no sheet any more (it left the game): its lines are
    /// dropped; the others' stay as they are.
    pub fn release(&mut self, seat: Seat) {
        self.sheets.retain(|(s, _, _)| *s != seat);
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

/// An edit of a seat's order sheet, as the seat gives it. `W` is a line as
/// written (names as typed), which the game resolves against the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SheetEdit<W> {
    /// Write a line at the end of the sheet.
    Add(W),
    /// Write a line in place of line N (from 1).
    Replace(usize, W),
    /// Remove line N (from 1); the lines after it move up.
    Remove(usize),
    /// Remove every line.
    Clear,
    Ready,
    Unready,
}

/// What happened to a sheet: the one family of sheet events every game
/// with sheets logs (inside its own `Event`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SheetEvent<L> {
    LineAdded { seat: Seat, line: L },
    LineReplaced { seat: Seat, n: usize, line: L },
    LineRemoved { seat: Seat, n: usize },
    Cleared { seat: Seat },
    MarkedReady { seat: Seat },
    MarkedUnready { seat: Seat },
}

impl<W> SheetEdit<W> {
    /// The edit a platform verb makes (`/sheet ready`, `/sheet remove line:2`).
    pub fn from_verb(verb: SheetVerb) -> Self {
        match verb {
            SheetVerb::Ready => SheetEdit::Ready,
            SheetVerb::Unready => SheetEdit::Unready,
            SheetVerb::Clear => SheetEdit::Clear,
            SheetVerb::Remove(n) => SheetEdit::Remove(n),
        }
    }

    /// A line order as written: added, or with `line:N` in place of line N.
    /// `usage` is the order's form, for the error.
    pub fn write(written: W, line: &CommandLine, usage: &str) -> Result<Self, ParseError> {
        match line.get("line") {
            None => Ok(SheetEdit::Add(written)),
            Some(_) => match line.number("line", usage)? {
                0 => Err(ParseError {
                    message: "`line:0`: lines are numbered from 1".into(),
                    usage: usage.to_string(),
                }),
                n => Ok(SheetEdit::Replace(n as usize, written)),
            },
        }
    }

    /// The sheet's own verbs as text: `ready`, `unready`, `clear` and
    /// `remove line:N`; `None` for another order's name. `usage` is the
    /// order's form, for the error.
    pub fn parse_verb(line: &CommandLine, usage: &str) -> Option<Result<Self, ParseError>> {
        let edit = match line.name.as_str() {
            "ready" => SheetEdit::Ready,
            "unready" => SheetEdit::Unready,
            "clear" => SheetEdit::Clear,
            "remove" => {
                return Some(
                    line.only(&["line"], usage)
                        .and_then(|()| match line.number("line", usage)? {
                            0 => Err(ParseError {
                                message: "`line:0`: lines are numbered from 1".into(),
                                usage: usage.to_string(),
                            }),
                            n => Ok(SheetEdit::Remove(n as usize)),
                        }),
                )
            }
            _ => return None,
        };
        Some(line.only(&[], usage).map(|()| edit))
    }

    /// The edit's text: the verbs' own, a line order's (`text` of the
    /// written line) with `line:N` when it replaces line N.
    pub fn unparse(&self, text: impl FnOnce(&W) -> CommandLine) -> CommandLine {
        match self {
            SheetEdit::Add(w) => text(w),
            SheetEdit::Replace(n, w) => text(w).arg("line", n),
            SheetEdit::Remove(n) => CommandLine::new("remove").arg("line", n),
            SheetEdit::Clear => CommandLine::new("clear"),
            SheetEdit::Ready => CommandLine::new("ready"),
            SheetEdit::Unready => CommandLine::new("unready"),
        }
    }
}

impl<L> SheetEvent<L> {
    /// Whose sheet it is.
    pub fn seat(&self) -> Seat {
        match self {
            SheetEvent::LineAdded { seat, .. }
            | SheetEvent::LineReplaced { seat, .. }
            | SheetEvent::LineRemoved { seat, .. }
            | SheetEvent::Cleared { seat }
            | SheetEvent::MarkedReady { seat }
            | SheetEvent::MarkedUnready { seat } => *seat,
        }
    }

    /// The edit as `viewer` learns of it: its writer reads it (`text`
    /// words a line); nobody else learns anything from it (who is ready is
    /// public through the pending decisions).
    pub fn narrate(&self, viewer: Viewer, text: impl FnOnce(&L) -> String) -> Option<String> {
        if viewer != Viewer::Seat(self.seat()) {
            return None;
        }
        Some(match self {
            SheetEvent::LineAdded { line, .. } => format!("Line added: {}.", text(line)),
            SheetEvent::LineReplaced { n, line, .. } => format!("Line {n} replaced: {}.", text(line)),
            SheetEvent::LineRemoved { n, .. } => format!("Line {n} removed."),
            SheetEvent::Cleared { .. } => "Your sheet is empty.".into(),
            SheetEvent::MarkedReady { .. } => "Your sheet is ready.".into(),
            SheetEvent::MarkedUnready { .. } => "Your sheet is no longer ready.".into(),
        })
    }
}

impl<L: Clone> OrderSheet<L> {
    /// Decide `seat`'s edit: the event it makes, or why not. A line written
    /// is resolved by the game (`resolve`: names looked up against the
    /// state) and checked with the sheet as it would be (`check`: all its
    /// lines, and the index of the one written). Refusals say what was
    /// wrong and what would be legal; a seat owing no sheet is told whom
    /// the game waits on.
    pub fn decide<W>(
        &self,
        seat: Seat,
        edit: &SheetEdit<W>,
        resolve: impl FnOnce(&W) -> Result<L, Rejection>,
        check: impl FnOnce(&[L], usize) -> Result<(), Rejection>,
    ) -> Result<SheetEvent<L>, Rejection> {
        let Some(lines) = self.lines_of(seat) else {
            return Err(Rejection::NotYourDecision {
                seat,
                waiting: self.waiting_on(),
            });
        };
        let in_range = |n: usize| match Self::index(lines, n) {
            Ok(_) => Ok(()),
            Err(e) => Err(Rejection::illegal(e.to_string(), vec![])),
        };
        match edit {
            SheetEdit::Add(w) => {
                let line = resolve(w)?;
                let mut all = lines.to_vec();
                all.push(line.clone());
                check(&all, all.len() - 1)?;
                Ok(SheetEvent::LineAdded { seat, line })
            }
            SheetEdit::Replace(n, w) => {
                in_range(*n)?;
                let line = resolve(w)?;
                let mut all = lines.to_vec();
                all[n - 1] = line.clone();
                check(&all, n - 1)?;
                Ok(SheetEvent::LineReplaced { seat, n: *n, line })
            }
            SheetEdit::Remove(n) => {
                in_range(*n)?;
                Ok(SheetEvent::LineRemoved { seat, n: *n })
            }
            SheetEdit::Clear => {
                if lines.is_empty() {
                    return Err(Rejection::illegal("your sheet is already empty", vec![]));
                }
                Ok(SheetEvent::Cleared { seat })
            }
            SheetEdit::Ready => {
                if self.is_ready(seat) {
                    return Err(Rejection::illegal(
                        "your sheet is already ready; edit it or un-ready it while others still write",
                        vec!["unready".into()],
                    ));
                }
                Ok(SheetEvent::MarkedReady { seat })
            }
            SheetEdit::Unready => {
                if !self.is_ready(seat) {
                    return Err(Rejection::illegal(
                        "your sheet is not marked ready",
                        vec!["ready".into()],
                    ));
                }
                Ok(SheetEvent::MarkedUnready { seat })
            }
        }
    }

    /// Apply a sheet event (decided by [`OrderSheet::decide`], so it fits).
    pub fn apply(&mut self, event: &SheetEvent<L>) {
        // A decided event names an owing seat and a line it has.
        let _ = match event {
            SheetEvent::LineAdded { seat, line } => self.add(*seat, line.clone()),
            SheetEvent::LineReplaced { seat, n, line } => self.replace(*seat, *n, line.clone()),
            SheetEvent::LineRemoved { seat, n } => self.remove(*seat, *n).map(|_| ()),
            SheetEvent::Cleared { seat } => self.clear(*seat),
            SheetEvent::MarkedReady { seat } => self.set_ready(*seat, true),
            SheetEvent::MarkedUnready { seat } => self.set_ready(*seat, false),
        };
    }

    /// The sheet's own edits `seat` may make now, as a game lists them
    /// among its legal orders: remove each line, clear a sheet with lines,
    /// and ready (or un-ready a ready sheet).
    pub fn verbs<W>(&self, seat: Seat) -> Vec<SheetEdit<W>> {
        let Some(lines) = self.lines_of(seat) else {
            return Vec::new();
        };
        let mut out: Vec<SheetEdit<W>> = (1..=lines.len()).map(SheetEdit::Remove).collect();
        if !lines.is_empty() {
            out.push(SheetEdit::Clear);
        }
        out.push(if self.is_ready(seat) {
            SheetEdit::Unready
        } else {
            SheetEdit::Ready
        });
        out
    }

    /// What a seat that misses the deadline plays: "ready", so that its
    /// sheet counts as it stands; `None` for a seat owing none or ready.
    pub fn default_edit<W>(&self, seat: Seat) -> Option<SheetEdit<W>> {
        (self.owes(seat) && !self.is_ready(seat)).then_some(SheetEdit::Ready)
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
    fn a_released_seat_owes_nothing_and_the_others_keep_their_lines() {
        let mut sheet = OrderSheet::new([Seat(0), Seat(1), Seat(2)]);
        sheet.add(Seat(0), "a").unwrap();
        sheet.set_ready(Seat(0), true).unwrap();
        sheet.add(Seat(1), "b").unwrap();
        sheet.release(Seat(1));
        assert!(!sheet.owes(Seat(1)));
        assert_eq!(sheet.add(Seat(1), "c"), Err(SheetError::NotOwed(Seat(1))));
        assert_eq!(sheet.ready(), vec![(Seat(0), true), (Seat(2), false)]);
        sheet.set_ready(Seat(2), true).unwrap();
        assert_eq!(sheet.revealed(), Some(vec![(Seat(0), vec!["a"]), (Seat(2), vec![])]));
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
    fn edits_are_decided_applied_and_narrated_to_their_writer_only() {
        let mut sheet: OrderSheet<u32> = OrderSheet::new([Seat(0), Seat(1)]);
        // Lines are written as text and resolved by the game; the game
        // checks the sheet as it would be (here: at most 3 lines, total < 10).
        let resolve = |w: &&str| {
            w.parse::<u32>()
                .map_err(|_| Rejection::illegal(format!("`{w}` is no number"), vec![]))
        };
        let check = |all: &[u32], _at: usize| {
            if all.iter().sum::<u32>() < 10 {
                Ok(())
            } else {
                Err(Rejection::illegal("over 9 in all", vec![]))
            }
        };
        let edit = |sheet: &mut OrderSheet<u32>, seat: u8, e: SheetEdit<&str>| {
            let ev = sheet.decide(Seat(seat), &e, resolve, check)?;
            sheet.apply(&ev);
            Ok::<_, Rejection>(ev)
        };
        let added = edit(&mut sheet, 0, SheetEdit::Add("4")).unwrap();
        assert_eq!(added, SheetEvent::LineAdded { seat: Seat(0), line: 4 });
        assert_eq!(
            added
                .narrate(Viewer::Seat(Seat(0)), |n| format!("build {n}"))
                .as_deref(),
            Some("Line added: build 4.")
        );
        assert_eq!(added.narrate(Viewer::Seat(Seat(1)), |n| n.to_string()), None);
        assert_eq!(added.narrate(Viewer::Public, |n| n.to_string()), None);
        edit(&mut sheet, 0, SheetEdit::Add("3")).unwrap();
        let err = edit(&mut sheet, 0, SheetEdit::Add("3")).unwrap_err();
        assert_eq!(err.to_string(), "over 9 in all");
        // Replacing checks the sheet with the line in its place.
        assert_eq!(
            edit(&mut sheet, 0, SheetEdit::Replace(1, "6")).unwrap(),
            SheetEvent::LineReplaced {
                seat: Seat(0),
                n: 1,
                line: 6
            }
        );
        assert!(edit(&mut sheet, 0, SheetEdit::Replace(3, "1"))
            .unwrap_err()
            .to_string()
            .contains("no line 3"));
        assert!(edit(&mut sheet, 0, SheetEdit::Add("x"))
            .unwrap_err()
            .to_string()
            .contains("no number"));
        assert_eq!(sheet.lines_of(Seat(0)), Some(&[6, 3][..]));
        // Ready, then an edit takes it back.
        assert_eq!(
            edit(&mut sheet, 0, SheetEdit::Ready).unwrap(),
            SheetEvent::MarkedReady { seat: Seat(0) }
        );
        assert!(edit(&mut sheet, 0, SheetEdit::Ready)
            .unwrap_err()
            .to_string()
            .contains("already ready"));
        assert_eq!(
            sheet.verbs::<&str>(Seat(0)),
            vec![
                SheetEdit::Remove(1),
                SheetEdit::Remove(2),
                SheetEdit::Clear,
                SheetEdit::Unready
            ]
        );
        edit(&mut sheet, 0, SheetEdit::Remove(2)).unwrap();
        assert!(!sheet.is_ready(Seat(0)));
        assert!(edit(&mut sheet, 0, SheetEdit::Unready)
            .unwrap_err()
            .to_string()
            .contains("not marked ready"));
        edit(&mut sheet, 0, SheetEdit::Clear).unwrap();
        assert!(edit(&mut sheet, 0, SheetEdit::Clear)
            .unwrap_err()
            .to_string()
            .contains("already empty"));
        // A seat owing no sheet is told whom the game waits on.
        assert_eq!(
            edit(&mut sheet, 2, SheetEdit::Ready).unwrap_err(),
            Rejection::NotYourDecision {
                seat: Seat(2),
                waiting: vec![Seat(0), Seat(1)]
            }
        );
        assert_eq!(sheet.default_edit::<&str>(Seat(1)), Some(SheetEdit::Ready));
        assert_eq!(sheet.default_edit::<&str>(Seat(2)), None);
    }

    #[test]
    fn the_verbs_read_and_write_alike_in_every_game() {
        let usage = "remove line:N";
        let read = |t: &str| SheetEdit::<String>::parse_verb(&CommandLine::parse(t).unwrap(), usage);
        assert_eq!(read("ready").unwrap().unwrap(), SheetEdit::Ready);
        assert_eq!(read("remove line:2").unwrap().unwrap(), SheetEdit::Remove(2));
        assert!(read("remove line:0")
            .unwrap()
            .unwrap_err()
            .message
            .contains("numbered from 1"));
        assert!(read("clear now:1").unwrap().is_err());
        assert!(read("build class:x").is_none());
        let line = CommandLine::parse("buy type:dd line:3").unwrap();
        let edit = SheetEdit::write("dd".to_string(), &line, "buy type:T [line:N]").unwrap();
        assert_eq!(edit, SheetEdit::Replace(3, "dd".to_string()));
        assert_eq!(
            edit.unparse(|w| CommandLine::new("buy").arg("type", w)).to_string(),
            "buy type:dd line:3"
        );
        for verb in [
            SheetVerb::Ready,
            SheetVerb::Unready,
            SheetVerb::Clear,
            SheetVerb::Remove(4),
        ] {
            let e = SheetEdit::<String>::from_verb(verb);
            let text = e.unparse(|_| unreachable!()).to_string();
            assert_eq!(read(&text).unwrap().unwrap(), e, "{text}");
        }
    }
}
