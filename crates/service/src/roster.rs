//! A game's seats as people read them: [`Roster`].

use orrery_engine::Seat;
use orrery_store::SeatRow;

/// The seated players of a game as people read them. Every message that
/// names a seat takes its name from here (a seat with no row reads as the
/// seat itself, "seat 3"); lists of names are joined as in a sentence
/// ([`super::name_list`]).
pub(crate) trait Roster {
    /// Each seat's name, in seat order: what the engine's texts take
    /// (`PhaseInfo::title`, `explain`, controls).
    fn names(&self) -> Vec<String>;
    /// The name of `seat`.
    fn name(&self, seat: Seat) -> String;
    /// The names of `seats`: "alice, bob and carol".
    fn name_list(&self, seats: &[Seat]) -> String;
}

impl Roster for [SeatRow] {
    fn names(&self) -> Vec<String> {
        self.iter().map(|s| s.name.clone()).collect()
    }

    fn name(&self, seat: Seat) -> String {
        self.iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    fn name_list(&self, seats: &[Seat]) -> String {
        let names: Vec<String> = seats.iter().map(|s| self.name(*s)).collect();
        super::name_list(&names)
    }
}

/// A person's seat with nothing else set (no disorder, no reminders, no
/// pick, not a computer player): the unit tests' seat rows.
#[cfg(test)]
pub(crate) fn test_seat(seat: u8, user: u64, name: &str) -> SeatRow {
    SeatRow {
        seat: Seat(seat),
        user: orrery_engine::UserId(user),
        name: name.into(),
        disorder: false,
        vacant: false,
        reminders: None,
        dms_refused_at: None,
        private_to: None,
        thread_id: None,
        pick: None,
        bot: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_as_their_players_names() {
        let seats = [
            test_seat(0, 10, "alice"),
            test_seat(1, 11, "bob"),
            test_seat(2, 12, "carol"),
        ];
        assert_eq!(seats.names(), ["alice", "bob", "carol"]);
        assert_eq!(seats.name(Seat(1)), "bob");
        assert_eq!(seats.name(Seat(5)), Seat(5).to_string());
        assert_eq!(seats.name_list(&[Seat(0), Seat(1), Seat(2)]), "alice, bob and carol");
        assert_eq!(seats.name_list(&[Seat(2)]), "carol");
    }
}
