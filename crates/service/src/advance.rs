//! A game moving forward within one change: every event decided on the
//! way (the order itself, drafts going in, defaults, what automatic seats
//! play) is applied exactly once, and the phase boundaries it crosses are
//! noted for the boards to post.

use orrery_engine::{CommandLine, PhaseInfo, Seat};
use orrery_games::{ActionError, AnyEvent, AnyState};

#[derive(Clone, Debug)]
pub(super) struct Advance {
    /// The state the change was decided from.
    pub before: AnyState,
    /// The state after every event so far.
    pub state: AnyState,
    /// The events so far, in order.
    pub events: Vec<AnyEvent>,
    /// The log position before the first event.
    pub base_seq: i64,
    /// `(seq, phase)` of each phase that began: the log position after the
    /// event that began it, and the new phase.
    pub boundaries: Vec<(i64, PhaseInfo)>,
    /// The state right after the last boundary: where this change's boards
    /// are drawn, kept as a snapshot.
    last_boundary: Option<(i64, AnyState)>,
}

impl Advance {
    pub fn new(before: &AnyState, base_seq: i64) -> Self {
        Advance {
            before: before.clone(),
            state: before.clone(),
            events: Vec::new(),
            base_seq,
            boundaries: Vec::new(),
            last_boundary: None,
        }
    }

    /// Apply decided events (they apply to this game: `decide` made them).
    pub fn push(&mut self, events: Vec<AnyEvent>) {
        for e in events {
            let phase = self.state.phase().number;
            self.state.apply(&e).expect("events decided for this game apply to it");
            self.events.push(e);
            if self.state.phase().number != phase {
                self.boundary();
            }
        }
    }

    /// A phase began with the last event.
    pub fn boundary(&mut self) {
        self.boundaries.push((self.seq(), self.state.phase()));
        self.last_boundary = Some((self.seq(), self.state.clone()));
    }

    /// The states to keep as snapshots ([`orrery_store::Commit::snapshots`]):
    /// at the last phase boundary, and at the end of a game that ended,
    /// which is where the change's boards are drawn.
    pub fn snapshots(&self) -> Vec<(i64, AnyState)> {
        let mut out: Vec<(i64, AnyState)> = self.last_boundary.iter().cloned().collect();
        if self.state.outcome().is_some() && !self.events.is_empty() && out.last().map(|(s, _)| *s) != Some(self.seq())
        {
            out.push((self.seq(), self.state.clone()));
        }
        out
    }

    /// A roll-back entry and the state it restores (folded by
    /// [`orrery_games::Replay`], not by applying it).
    pub fn push_rewind(&mut self, entry: AnyEvent, restored: AnyState) {
        let phase = self.state.phase().number;
        self.state = restored;
        self.events.push(entry);
        if self.state.phase().number != phase {
            self.boundary();
        }
    }

    /// Decide `line` for `seat` at the current state and apply it.
    pub fn play(&mut self, seat: Seat, line: &CommandLine) -> Result<(), ActionError> {
        let events = self.state.decide(seat, line)?;
        self.push(events);
        Ok(())
    }

    /// The log position after the last event.
    pub fn seq(&self) -> i64 {
        self.base_seq + self.events.len() as i64
    }
}
