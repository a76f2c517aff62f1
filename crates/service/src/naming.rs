//! Seats and phases as people name them: a host names a seat by its
//! player (name or mention) or its number; `phase:` options offer the
//! phases a game reached with their labels; `section:` offers the rules
//! page's sections. Suggestions are (label, value) pairs, best first;
//! transports cut them to what they can show.

use super::roster::Roster;
use super::{user_err, Actor, Service, ServiceError};
use orrery_engine::{GameId, Seat, UserId};
use orrery_games::{AnyEvent, GameKind};
use orrery_store::{GameRow, SeatRow};

/// A seat as a host names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatRef {
    /// By number (0-based here; people write 1 for the first seat).
    Number(Seat),
    /// By the name of its player (any case; a unique beginning will do).
    Name(String),
    /// By its player.
    User(UserId),
}

impl From<Seat> for SeatRef {
    fn from(seat: Seat) -> Self {
        SeatRef::Number(seat)
    }
}

/// "alice, bob and carol".
pub fn name_list(names: &[String]) -> String {
    match names {
        [] => "nobody".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The seat `which` names among `seats`; the error names the players.
pub fn find_seat(game: GameId, seats: &[SeatRow], which: &SeatRef) -> Result<Seat, String> {
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    let players = || format!("its players are {}", name_list(&names));
    match which {
        // Whether the game has it is for the host tool to say.
        SeatRef::Number(seat) => Ok(*seat),
        SeatRef::User(user) => seats
            .iter()
            .find(|s| s.user == *user)
            .map(|s| s.seat)
            .ok_or_else(|| format!("That person has no seat in game {game}; {}.", players())),
        SeatRef::Name(name) => {
            let wanted = name.trim().to_lowercase();
            // A computer player's name may be written without its 🤖.
            let bare = |s: &SeatRow| s.name.trim_start_matches("🤖 ").to_lowercase();
            if let Some(s) = seats
                .iter()
                .find(|s| s.name.to_lowercase() == wanted || bare(s) == wanted)
            {
                return Ok(s.seat);
            }
            let starting: Vec<&SeatRow> = seats
                .iter()
                .filter(|s| s.name.to_lowercase().starts_with(&wanted) || bare(s).starts_with(&wanted))
                .collect();
            match starting.as_slice() {
                [one] => Ok(one.seat),
                [] => Err(format!("Game {game} has no player '{}'; {}.", name.trim(), players())),
                many => {
                    let which: Vec<String> = many.iter().map(|s| s.name.clone()).collect();
                    Err(format!(
                        "'{}' could be {}; write the whole name or the seat number.",
                        name.trim(),
                        name_list(&which)
                    ))
                }
            }
        }
    }
}

/// Suggestions for a seat: "alice · seat 1" (with "vacant" or "civil
/// disorder" when so), value the seat number people write; matching what
/// was typed (part of a name, or the start of a number).
pub fn seat_choices(seats: &[SeatRow], partial: &str) -> Vec<(String, String)> {
    let needle = partial.trim().trim_start_matches('@').to_lowercase();
    seats
        .iter()
        .filter(|s| {
            let n = (s.seat.index() + 1).to_string();
            needle.is_empty() || s.name.to_lowercase().contains(&needle) || n.starts_with(&needle)
        })
        .map(|s| {
            let n = s.seat.index() + 1;
            let state = if s.vacant {
                " (vacant)"
            } else if s.disorder {
                " (civil disorder)"
            } else if s.bot.is_some() {
                " (computer player)"
            } else {
                ""
            };
            (format!("{} · seat {n}{state}", s.name), n.to_string())
        })
        .collect()
}

/// Each phase the game as played reached, with its title when it began,
/// oldest first: `(number, "Round 4 · alice's turn")`.
pub fn phases_reached(
    row: &GameRow,
    counting: &[(i64, AnyEvent)],
    names: &[String],
) -> Result<Vec<(u32, String)>, ServiceError> {
    let mut s = row.kind.empty();
    let mut out: Vec<(u32, String)> = Vec::new();
    for (_, e) in counting {
        s.apply(e).map_err(anyhow::Error::from)?;
        let phase = s.phase();
        if out.last().is_none_or(|last| last.0 != phase.number) {
            out.push((phase.number, phase.title(names)));
        }
    }
    Ok(out)
}

/// Suggestions for a phase: "12 · Round 4 · alice's turn", newest first,
/// matching the start of a number or part of a label.
pub fn phase_choices(phases: &[(u32, String)], partial: &str) -> Vec<(String, u64)> {
    let needle = partial.trim().to_lowercase();
    phases
        .iter()
        .rev()
        .map(|(n, title)| (format!("{n} · {title}"), u64::from(*n)))
        .filter(|(label, n)| {
            needle.is_empty() || n.to_string().starts_with(&needle) || label.to_lowercase().contains(&needle)
        })
        .collect()
}

/// Suggestions for a rules section: its heading, for every heading that
/// contains what was typed.
pub fn section_choices(kind: GameKind, partial: &str) -> Vec<String> {
    let needle = partial.trim().to_lowercase();
    super::rules_page::rules_sections(kind)
        .into_iter()
        .filter(|h| h.to_lowercase().contains(&needle))
        .collect()
}

impl Service {
    /// The seat a host tool names, for the game the request is about.
    pub(super) async fn seat_named(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        which: &SeatRef,
    ) -> Result<Seat, ServiceError> {
        if let SeatRef::Number(seat) = which {
            return Ok(*seat);
        }
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        find_seat(row.id, &seats, which).or_else(user_err)
    }

    /// The system of the game a request is about (for suggestions).
    pub async fn game_kind(&self, actor: &Actor, game: Option<GameId>) -> Result<GameKind, ServiceError> {
        Ok(self.resolve(actor, game).await?.kind)
    }

    /// Suggestions for a `seat:` option: the game's seats by player name.
    pub async fn seat_suggestions(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        partial: &str,
    ) -> Result<Vec<(String, String)>, ServiceError> {
        let row = self.resolve(actor, game).await?;
        Ok(seat_choices(&self.store.seats(row.id).await?, partial))
    }

    /// Suggestions for a `phase:` option: the phases the game reached,
    /// newest first, with their labels.
    pub async fn phase_suggestions(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        partial: &str,
    ) -> Result<Vec<(String, u64)>, ServiceError> {
        let row = self.resolve(actor, game).await?;
        if row.state.is_none() {
            return Ok(vec![]);
        }
        let log = self.store.log(row.id).await?;
        let replay = super::rewind::replay_log(&row, &log)?;
        let names = self.store.seats(row.id).await?.names();
        let phases = phases_reached(&row, replay.counting(), &names)?;
        Ok(phase_choices(&phases, partial))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roster::test_seat;

    #[test]
    fn seats_by_number_name_or_person_and_errors_name_the_players() {
        let seats = [
            test_seat(0, 10, "alice"),
            test_seat(1, 11, "bob"),
            test_seat(2, 12, "Carol"),
        ];
        let g = GameId(3);
        assert_eq!(find_seat(g, &seats, &SeatRef::Name("carol".into())), Ok(Seat(2)));
        assert_eq!(find_seat(g, &seats, &SeatRef::Name("bo".into())), Ok(Seat(1)));
        assert_eq!(find_seat(g, &seats, &SeatRef::User(UserId(10))), Ok(Seat(0)));
        assert_eq!(find_seat(g, &seats, &SeatRef::Number(Seat(1))), Ok(Seat(1)));
        assert_eq!(
            find_seat(g, &seats, &SeatRef::Name("zed".into())).unwrap_err(),
            "Game #3 has no player 'zed'; its players are alice, bob and Carol."
        );
        let e = find_seat(g, &seats, &SeatRef::User(UserId(99))).unwrap_err();
        assert!(
            e.contains("no seat in game #3") && e.contains("alice, bob and Carol"),
            "{e}"
        );
        let twins = [
            test_seat(0, 1, "ann"),
            test_seat(1, 2, "anna"),
            test_seat(2, 3, "annabel"),
        ];
        assert_eq!(
            find_seat(g, &twins, &SeatRef::Name("ann".into())),
            Ok(Seat(0)),
            "a whole name wins"
        );
        let e = find_seat(g, &twins, &SeatRef::Name("anna".into()));
        assert_eq!(e, Ok(Seat(1)));
        let e = find_seat(g, &twins, &SeatRef::Name("an".into())).unwrap_err();
        assert!(e.contains("could be ann, anna and annabel"), "{e}");
    }

    #[test]
    fn seat_and_phase_suggestions() {
        let mut seats = vec![test_seat(0, 10, "alice"), test_seat(1, 11, "bob")];
        seats[1].vacant = true;
        assert_eq!(
            seat_choices(&seats, ""),
            vec![
                ("alice · seat 1".to_string(), "1".to_string()),
                ("bob · seat 2 (vacant)".to_string(), "2".to_string())
            ]
        );
        assert_eq!(seat_choices(&seats, "@BO").len(), 1);
        assert_eq!(seat_choices(&seats, "2")[0].1, "2");
        let phases = vec![
            (0, "Set-up".to_string()),
            (1, "Round 1 · alice's turn".to_string()),
            (12, "Round 4 · bob's turn".to_string()),
        ];
        let all = phase_choices(&phases, "");
        assert_eq!(all[0], ("12 · Round 4 · bob's turn".to_string(), 12), "newest first");
        assert_eq!(all.len(), 3);
        assert_eq!(
            phase_choices(&phases, "1").iter().map(|c| c.1).collect::<Vec<_>>(),
            [12, 1]
        );
        assert_eq!(
            phase_choices(&phases, "alice").iter().map(|c| c.1).collect::<Vec<_>>(),
            [1]
        );
        assert_eq!(name_list(&["a".into()]), "a");
    }

    #[test]
    fn sections_are_suggested_by_heading() {
        let all = section_choices(GameKind::Hyperspace, "");
        assert!(all.contains(&"Combat".to_string()), "{all:?}");
        assert_eq!(section_choices(GameKind::Hyperspace, "comb"), ["Combat"]);
    }
}
