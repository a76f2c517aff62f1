//! Autocomplete for movement paths: the legal orders list single-segment
//! moves only, so while a `path:` is typed this offers whole paths that
//! extend it by one segment, or complete the segment being typed, keeping
//! only paths the named ship can fly (see [`crate::spectrum::rules::turn::check_line`]).

use crate::spectrum::basics::ships::Ship;
use crate::spectrum::basics::ShipId;
use crate::spectrum::map::{all_vectors, Path, Segment, MAX_SLIP};
use crate::spectrum::rules::check_line;
use crate::spectrum::state::{Order, Section, State};
use orrery_engine::Seat;

/// At most this many values (Discord's limit for autocomplete choices).
pub const MAX_VALUES: usize = 25;

/// Path values for `move`'s `path` option while `partial` is typed, for
/// the ship named in `filled` (`ship`, like `R14` or `14`).
///
/// - `partial` empty or whole segments (`slip ne 2, e`): that path (if it
///   flies), the completions of its last segment (`e+`, `e-`), and the path
///   plus one more segment.
/// - `partial` ending in part of a segment (`slip n`, `e, s`): the paths
///   that complete it, matched by text, any case.
///
/// Every value is a canonical path the ship can fly beside the seat's other
/// lines (an existing move line for the ship is left out, so a value also
/// fits `line:N` replacing it). Shortest first, then by text; at most
/// [`MAX_VALUES`]. Nothing for other commands and options, a ship that is
/// unknown or not the seat's, or a seat owing no movement sheet.
pub fn complete_more(
    state: &State,
    seat: Seat,
    command: &str,
    option: &str,
    filled: &[(String, String)],
    partial: &str,
) -> Vec<String> {
    if command != "move" || option != "path" {
        return Vec::new();
    }
    if state.outcome.is_some() || state.section != Section::Movement || !state.sheet.owes(seat) {
        return Vec::new();
    }
    let Some(ship) = filled
        .iter()
        .find(|(k, _)| k == "ship")
        .and_then(|(_, v)| ShipId::parse(v, state.colour(seat)))
        .and_then(|id| state.ship(id))
        .filter(|x| x.owner == seat)
    else {
        return Vec::new();
    };
    let others: Vec<Order> = state
        .sheet
        .lines_of(seat)
        .unwrap_or(&[])
        .iter()
        .filter(|o| !matches!(o, Order::Move { ship: s, .. } if *s == ship.id))
        .cloned()
        .collect();
    let flies = |path: &Path| {
        let order = Order::Move {
            ship: ship.id,
            path: path.clone(),
        };
        check_line(state, seat, &order, &others).is_ok()
    };

    let mut out: Vec<Path> = Vec::new();
    // The segments before the last comma must all read.
    let (head, tail) = match partial.rsplit_once(',') {
        Some((head, tail)) => match head.parse::<Path>() {
            Ok(p) if !p.0.is_empty() => (p, tail),
            _ => return Vec::new(),
        },
        None => (Path::default(), partial),
    };
    // Completions of the segment being typed.
    let typed = normalise(tail);
    for seg in next_segments(ship, &head) {
        let fits = match seg {
            Some(seg) => seg.to_string().starts_with(&typed),
            None => "stay".starts_with(&typed),
        };
        if fits {
            let mut path = head.clone();
            path.0.extend(seg);
            out.push(path);
        }
    }
    // Whole segments typed: one more segment.
    if !typed.trim().is_empty() {
        if let Ok(path) = partial.parse::<Path>() {
            if !path.0.is_empty() {
                for seg in next_segments(ship, &path).into_iter().flatten() {
                    let mut longer = path.clone();
                    longer.0.push(seg);
                    out.push(longer);
                }
            }
        }
    }

    let mut values: Vec<String> = out.iter().filter(|p| flies(p)).map(Path::to_string).collect();
    values.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    values.dedup();
    values.truncate(MAX_VALUES);
    values
}

/// The segments that may follow `head` (before legality): at the start
/// `None` for `stay` and the slipstreams up to the ship's drive units (if
/// it has a slip unit); always every warp, and `jump` if it has a jump
/// unit. Nothing after a full drive.
fn next_segments(ship: &Ship, head: &Path) -> Vec<Option<Segment>> {
    let mut out = Vec::new();
    let first = head.0.is_empty();
    if first {
        out.push(None);
        if ship.units.slip > 0 {
            for v in all_vectors() {
                for d in 1..=ship.units.drive.min(MAX_SLIP) {
                    out.push(Some(Segment::Slip(v, d)));
                }
            }
        }
    }
    if head.drive_used() < ship.units.drive {
        out.extend(all_vectors().into_iter().map(|v| Some(Segment::Warp(v))));
        if ship.units.jump > 0 {
            out.push(Some(Segment::Jump));
        }
    }
    out
}

/// Typed text as segment text: lower case, no leading space, one space
/// between words (a trailing space kept: `slip ne ` is past the vector).
fn normalise(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = words.join(" ").to_lowercase();
    if !words.is_empty() && text.ends_with(char::is_whitespace) {
        out.push(' ');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::basics::ships::Class;
    use crate::spectrum::basics::{Colour, Space};
    use crate::spectrum::events::{self, Event};
    use crate::spectrum::orders::{Action, Written};
    use crate::spectrum::rules::decide;
    use crate::spectrum::Spectrum;
    use orrery_engine::{GameConfig, Hex, Ruleset, SheetEvent};

    /// A two-seat war in its first movement section. Seat 0 (red) has a
    /// frigate R1 (slip unit, drive 2) in the centre column at the middle
    /// level, a frigate R2 at its home on the east edge, and a jumper R3 in
    /// the centre at the bottom; seat 1 a jumper G1 at its home. Only seat
    /// 0 owes a sheet.
    fn war() -> State {
        let events = Spectrum::setup(&GameConfig::new(2, 7)).unwrap();
        let mut st = Spectrum::fold(&events);
        let home = |st: &State, seat: Seat| st.map.planets[st.map.homes[seat.index()]].space;
        let ships = [
            (Seat(0), 1, Class::Frigate, Space::new(Hex::new(0, 0), 2)),
            (Seat(0), 2, Class::Frigate, home(&st, Seat(0))),
            (Seat(0), 3, Class::Jumper, Space::new(Hex::new(0, 0), 1)),
            (Seat(1), 1, Class::Jumper, home(&st, Seat(1))),
        ];
        for (seat, number, class, at) in ships {
            let ship = ShipId {
                colour: st.colour(seat),
                number,
            };
            let rng = st.rng.clone();
            events::apply(
                &mut st,
                &Event::ShipBuilt {
                    ship,
                    owner: seat,
                    class,
                    at,
                    rng,
                },
            );
        }
        events::apply(
            &mut st,
            &Event::SectionOpened {
                section: Section::Movement,
                owing: vec![Seat(0)],
            },
        );
        st
    }

    fn filled(ship: &str) -> Vec<(String, String)> {
        vec![("ship".to_string(), ship.to_string())]
    }

    fn more(st: &State, ship: &str, partial: &str) -> Vec<String> {
        complete_more(st, Seat(0), "move", "path", &filled(ship), partial)
    }

    fn flies(st: &State, ship: &str, path: &str) -> bool {
        let action = Action::Add(Written::Move {
            ship: ship.to_string(),
            path: path.parse().unwrap_or_else(|e| panic!("{path}: {e}")),
        });
        decide(st, Seat(0), &action).is_ok()
    }

    /// Every value is a canonical path `decide` takes as a new line, at
    /// most 25, shortest first, then by text.
    fn well_offered(st: &State, ship: &str, values: &[String]) {
        assert!(values.len() <= MAX_VALUES, "{values:?}");
        assert!(
            values.windows(2).all(|w| (w[0].len(), &w[0]) < (w[1].len(), &w[1])),
            "{values:?}"
        );
        for v in values {
            assert_eq!(&v.parse::<Path>().unwrap().to_string(), v, "canonical");
            assert!(flies(st, ship, v), "{v}");
        }
    }

    #[test]
    fn empty_path_offers_stay_warps_and_slips() {
        let st = war();
        assert_eq!(st.colour(Seat(0)), Colour::Red);
        let offered = more(&st, "R1", "");
        well_offered(&st, "R1", &offered);
        assert_eq!(offered.len(), MAX_VALUES, "{offered:?}");
        assert!(offered.contains(&"stay".to_string()));
        for v in all_vectors() {
            assert!(offered.contains(&v.to_string()), "{v}: {offered:?}");
        }
        assert!(!offered.contains(&"jump".to_string()), "a frigate has no jump unit");
        let slips: Vec<&str> = offered
            .iter()
            .filter(|v| v.starts_with("slip "))
            .map(String::as_str)
            .collect();
        assert_eq!(slips, ["slip e 1", "slip e 2", "slip w 1", "slip w 2"]);
        // `1` means one's own R1.
        assert_eq!(more(&st, "1", ""), offered);
        // At the east edge only what stays on the board.
        let edge = more(&st, "R2", "");
        well_offered(&st, "R2", &edge);
        assert!(
            edge.contains(&"w".to_string()) && edge.contains(&"stay".to_string()),
            "{edge:?}"
        );
        assert!(!edge.contains(&"e".to_string()), "{edge:?}");
        // A jumper may jump.
        let jumper = more(&st, "R3", "");
        well_offered(&st, "R3", &jumper);
        assert!(jumper.contains(&"jump".to_string()), "{jumper:?}");
        assert!(
            !jumper.iter().any(|v| v.starts_with("slip")),
            "a jumper has no slip unit"
        );
        let after = more(&st, "R3", "jump");
        well_offered(&st, "R3", &after);
        assert!(after.iter().any(|v| v.starts_with("jump, ")), "{after:?}");
    }

    #[test]
    fn a_whole_segment_is_extended_by_one() {
        let st = war();
        let offered = more(&st, "R1", "e");
        well_offered(&st, "R1", &offered);
        assert_eq!(&offered[..3], ["e", "e+", "e-"], "the path typed and its completions");
        for v in ["e, e", "e, w", "e, up", "e, sw-"] {
            assert!(offered.contains(&v.to_string()), "{v}: {offered:?}");
        }
        assert!(offered.iter().skip(3).all(|v| v.starts_with("e, ")), "{offered:?}");
        // Typed any case and spacing, the values are canonical.
        assert_eq!(more(&st, "R1", " E"), offered);
        // After a slipstream, warps; drive 2 ends after two warps.
        let slip = more(&st, "R1", "slip ne 2");
        well_offered(&st, "R1", &slip);
        assert_eq!(slip[0], "slip ne 2");
        assert!(slip.contains(&"slip ne 2, sw".to_string()), "{slip:?}");
        let full = more(&st, "R1", "e, w");
        well_offered(&st, "R1", &full);
        assert!(full.contains(&"e, w".to_string()), "{full:?}");
        assert!(full.iter().all(|v| v.matches(',').count() == 1), "{full:?}");
        // A trailing comma asks for the next segment only.
        let next = more(&st, "R1", "e,");
        well_offered(&st, "R1", &next);
        assert!(next.contains(&"e, e".to_string()), "{next:?}");
        assert!(next.iter().all(|v| v.starts_with("e, ")), "{next:?}");
        // `stay` is the whole path.
        assert_eq!(more(&st, "R1", "stay"), ["stay"]);
        assert!(more(&st, "R1", "stay, e").is_empty());
    }

    #[test]
    fn a_partial_segment_is_completed() {
        let st = war();
        let offered = more(&st, "R1", "slip n");
        well_offered(&st, "R1", &offered);
        // `slip ne+ 2` would leave the top level.
        assert_eq!(
            offered,
            [
                "slip ne 1",
                "slip ne 2",
                "slip nw 1",
                "slip nw 2",
                "slip ne+ 1",
                "slip ne- 1",
                "slip nw+ 1",
                "slip nw- 1"
            ]
        );
        assert_eq!(more(&st, "R1", "  SLIP   N"), offered);
        assert_eq!(more(&st, "R1", "slip ne "), ["slip ne 1", "slip ne 2"]);
        assert_eq!(more(&st, "R1", "st"), ["stay"]);
        // A partial second segment.
        let second = more(&st, "R1", "e, s");
        well_offered(&st, "R1", &second);
        assert_eq!(second, ["e, se", "e, sw", "e, se+", "e, se-", "e, sw+", "e, sw-"]);
        // Junk before the comma, or no segment begins so: nothing.
        assert!(more(&st, "R1", "xyz, e").is_empty());
        assert!(more(&st, "R1", "q").is_empty());
        assert!(more(&st, "R1", "jump").is_empty(), "a frigate has no jump unit");
    }

    #[test]
    fn a_move_line_to_replace_does_not_block() {
        let mut st = war();
        events::apply(
            &mut st,
            &Event::Sheet(SheetEvent::LineAdded {
                seat: Seat(0),
                line: Order::Move {
                    ship: ShipId {
                        colour: Colour::Red,
                        number: 1,
                    },
                    path: Path::default(),
                },
            }),
        );
        let offered = more(&st, "R1", "");
        assert_eq!(offered.len(), MAX_VALUES);
        for v in &offered {
            let action = Action::Replace(
                1,
                Written::Move {
                    ship: "R1".into(),
                    path: v.parse().unwrap(),
                },
            );
            assert!(decide(&st, Seat(0), &action).is_ok(), "{v}");
        }
    }

    #[test]
    fn nothing_for_other_ships_options_or_seats() {
        let st = war();
        assert!(more(&st, "G1", "").is_empty(), "not yours");
        assert!(more(&st, "R9", "").is_empty(), "no such ship");
        assert!(more(&st, "??", "").is_empty(), "not a name");
        assert!(
            complete_more(&st, Seat(0), "move", "path", &[], "").is_empty(),
            "no ship given"
        );
        assert!(complete_more(&st, Seat(0), "move", "ship", &filled("R1"), "").is_empty());
        assert!(complete_more(&st, Seat(0), "fire", "path", &filled("R1"), "").is_empty());
        // Seat 1 owes no sheet.
        assert!(complete_more(&st, Seat(1), "move", "path", &filled("G1"), "").is_empty());
    }
}
