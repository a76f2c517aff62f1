//! Rules scenarios as data: a starting position, actions by seat, and the
//! expected events, rejections, state and views. One checker runs every
//! file, for every game (see `docs/scenarios.md` for the format).

use crate::{ActionError, AnyEvent, AnyState, GameKind};
use orrery_engine::{CommandLine, GameConfig, Seat, Viewer};
use serde_json::Value;
use std::fmt;

/// A failed expectation, with the line that failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// What the last action did.
enum Last {
    Nothing,
    Accepted(Vec<AnyEvent>),
    Failed {
        line: usize,
        error: ActionError,
        checked: bool,
    },
}

struct Runner {
    kind: Option<GameKind>,
    config: GameConfig,
    state: Option<AnyState>,
    last: Last,
    /// Whether a `given:` event was applied (see [`guarded`]).
    given: bool,
}

/// Run one scenario file's text. `Ok(())` when every expectation holds.
pub fn run_text(text: &str) -> Result<(), Failure> {
    let mut r = Runner {
        kind: None,
        config: GameConfig::new(2, 1),
        state: None,
        last: Last::Nothing,
        given: false,
    };
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        last_line = line_no;
        let given = r.given;
        guarded(given, || r.step(line_no, line))
            .and_then(|stepped| stepped)
            .map_err(|message| Failure { line: line_no, message })?;
    }
    let given = r.given;
    guarded(given, || r.finish_last())
        .map_err(|message| Failure {
            line: last_line,
            message,
        })?
        .map_err(|(line, message)| Failure { line, message })?;
    if r.state.is_none() {
        return Err(Failure {
            line: 0,
            message: "scenario has no actions or expectations".into(),
        });
    }
    Ok(())
}

/// Run `f`, a step of the scenario; a panic is this step's failure. The engine
/// trusts its events, and `given:` events are written by hand: one that
/// fits well enough to apply may still leave the game in a shape no rule
/// could reach (a planet owned by a seat the game does not have), which a
/// later step trips over.
/// `given` says whether a `given:` event came before.
fn guarded<R>(given: bool, f: impl FnOnce() -> R) -> Result<R, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => Ok(result),
        Err(panic) => {
            let why = panic_text(panic.as_ref());
            Err(if given {
                format!("the game panicked ({why}); a given: event above may not fit the game")
            } else {
                format!("the game panicked ({why})")
            })
        }
    }
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("no message")
}

/// `#` starts a comment unless inside a JSON string or quotes.
fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    let mut prev = '\0';
    for (i, c) in line.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '#' if !in_str => return &line[..i],
            _ => {}
        }
        prev = c;
    }
    line
}

impl Runner {
    fn state(&mut self) -> Result<&mut AnyState, String> {
        if self.state.is_none() {
            let kind = self
                .kind
                .ok_or("`game:` must come before the first action or expectation")?;
            let events = kind.setup(&self.config).map_err(|e| format!("set-up failed: {e}"))?;
            let state = kind.fold(&events).map_err(|e| e.to_string())?;
            self.state = Some(state);
        }
        Ok(self.state.as_mut().expect("just set"))
    }

    /// An action that failed must be followed by `reject:` or `parse-error:`.
    fn finish_last(&self) -> Result<(), (usize, String)> {
        if let Last::Failed {
            line,
            error,
            checked: false,
        } = &self.last
        {
            return Err((*line, format!("action was not accepted: {error}")));
        }
        Ok(())
    }

    fn step(&mut self, line_no: usize, line: &str) -> Result<(), String> {
        let (key, rest) = line
            .split_once(':')
            .ok_or_else(|| format!("expected `key: value`, found `{line}`"))?;
        let key = key.trim();
        let rest = rest.trim();
        // An expectation about a failure must follow the failed action.
        if !matches!(key, "reject" | "parse-error") {
            self.finish_last().map_err(|(_, m)| m)?;
        }
        match key {
            "title" => Ok(()),
            "game" => {
                self.header_ok(key)?;
                self.kind = Some(GameKind::from_key(rest).ok_or_else(|| format!("unknown game `{rest}`"))?);
                Ok(())
            }
            "players" => {
                self.header_ok(key)?;
                self.config.players = rest.parse().map_err(|_| format!("bad player count `{rest}`"))?;
                Ok(())
            }
            "seed" => {
                self.header_ok(key)?;
                self.config.seed = rest.parse().map_err(|_| format!("bad seed `{rest}`"))?;
                Ok(())
            }
            "options" => {
                self.header_ok(key)?;
                self.config.options = serde_json::from_str(rest).map_err(|e| format!("bad options JSON: {e}"))?;
                Ok(())
            }
            "picks" => {
                self.header_ok(key)?;
                self.config.picks = serde_json::from_str(rest).map_err(|e| format!("bad picks JSON: {e}"))?;
                Ok(())
            }
            "given" => {
                let kind = self.kind.ok_or("`game:` must come first")?;
                serde_json::from_str::<serde::de::IgnoredAny>(rest).map_err(|e| format!("bad event JSON: {e}"))?;
                // Wrapped as text, not through `Value`, which cannot hold
                // the generator's 128-bit words (events that carry a GameRng).
                let wrapped = format!(r#"{{"game": "{}", "event": {rest}}}"#, kind.key());
                let event: AnyEvent =
                    serde_json::from_str(&wrapped).map_err(|e| format!("not a {} event: {e}", kind.key()))?;
                // A given event is written by hand, not decided by the
                // ruleset, and `apply` trusts its events: one that does not
                // fit the game as it stands (a ship or planet that is not
                // there) may panic. That is this line's failure, reported.
                let state = self.state()?;
                let mut next = state.clone();
                let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| next.apply(&event)));
                match applied {
                    Ok(result) => result.map_err(|e| e.to_string())?,
                    Err(panic) => {
                        let why = panic_text(panic.as_ref());
                        return Err(format!(
                            "this event does not fit the game as it stands ({why}); a given event must be one the game could have logged here"
                        ));
                    }
                }
                *state = next;
                self.given = true;
                self.last = Last::Nothing;
                Ok(())
            }
            k if k.starts_with("seat ") || k == "resign" => {
                // `seat 2: order` gives an order; `resign: seat 2` resigns the seat.
                let seat = parse_seat(if k == "resign" { rest } else { k })?;
                let state = self.state()?;
                let result = if k == "resign" {
                    state.resign(seat)
                } else {
                    CommandLine::parse(rest)
                        .map_err(ActionError::from)
                        .and_then(|cmd| state.decide(seat, &cmd))
                };
                match result {
                    Ok(events) => {
                        for e in &events {
                            state.apply(e).map_err(|e| e.to_string())?;
                        }
                        self.last = Last::Accepted(events);
                    }
                    Err(error) => {
                        self.last = Last::Failed {
                            line: line_no,
                            error,
                            checked: false,
                        }
                    }
                }
                Ok(())
            }
            "reject" | "parse-error" => {
                let Last::Failed { error, checked, .. } = &mut self.last else {
                    return Err(format!(
                        "`{key}:` expected the previous action to fail, but it was accepted"
                    ));
                };
                let (ok_kind, msg) = match error {
                    ActionError::Parse(p) => (key == "parse-error", p.to_string()),
                    ActionError::Rejected(r) => (key == "reject", r.to_string()),
                };
                if !ok_kind {
                    return Err(format!("expected {key}, got: {error}"));
                }
                if !msg.to_lowercase().contains(&rest.to_lowercase()) {
                    return Err(format!("expected the message to contain `{rest}`, got: {msg}"));
                }
                *checked = true;
                Ok(())
            }
            "event" | "no-event" => {
                let expected: Value = serde_json::from_str(rest).map_err(|e| format!("bad event JSON: {e}"))?;
                let Last::Accepted(events) = &self.last else {
                    return Err(format!("`{key}:` must follow an accepted action"));
                };
                let found = events.iter().any(|e| {
                    let v = serde_json::to_value(e).expect("events serialize");
                    subset_match(&expected, &v["event"])
                });
                match (key, found) {
                    ("event", false) => Err(format!(
                        "no event matched {expected}; the action produced:\n  {}",
                        events
                            .iter()
                            .map(|e| serde_json::to_string(e).unwrap_or_default())
                            .collect::<Vec<_>>()
                            .join("\n  ")
                    )),
                    ("no-event", true) => Err(format!("an event matched {expected}, but none should")),
                    _ => Ok(()),
                }
            }
            "state" => {
                let value = serde_json::to_value(&*self.state()?).map_err(|e| e.to_string())?;
                check_pointer(&value["state"], rest)
            }
            "view" | "view-lacks" => {
                let (who, arg) = rest.split_once(' ').ok_or("expected `seat N ...` or `public ...`")?;
                let (viewer, arg) = if who == "seat" {
                    let (n, arg) = arg.split_once(' ').ok_or("expected `seat N ...`")?;
                    (Viewer::Seat(parse_seat(&format!("seat {n}"))?), arg)
                } else if who == "public" {
                    (Viewer::Public, arg)
                } else {
                    return Err(format!("unknown viewer `{who}`: use `seat N` or `public`"));
                };
                let view = self.state()?.view_json(viewer);
                if key == "view" {
                    check_pointer(&view, arg)
                } else {
                    let text = view.to_string();
                    if text.contains(arg.trim()) {
                        Err(format!("the view contains `{}`", arg.trim()))
                    } else {
                        Ok(())
                    }
                }
            }
            "pending" => {
                let pending = self.state()?.pending();
                if rest == "none" {
                    return if pending.is_empty() {
                        Ok(())
                    } else {
                        Err(format!("still pending: {pending:?}"))
                    };
                }
                let (seat_part, kind) = rest.rsplit_once(' ').ok_or("expected `seat N KIND`")?;
                let seat = parse_seat(seat_part)?;
                if pending.iter().any(|p| p.seat == seat && p.kind == kind) {
                    Ok(())
                } else {
                    Err(format!(
                        "{seat} does not owe `{kind}`; pending: {}",
                        pending
                            .iter()
                            .map(|p| format!("{} {}", p.seat, p.kind))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                }
            }
            "legal" => {
                let mut parts = rest.splitn(4, ' ');
                let (Some(s), Some(n), Some(verb), Some(cmd)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err("expected `legal: seat N has|lacks COMMAND`".into());
                };
                let seat = parse_seat(&format!("{s} {n}"))?;
                let wanted = CommandLine::parse(cmd).map_err(|e| e.to_string())?;
                let legal = self.state()?.legal_commands(seat);
                let has = legal.contains(&wanted);
                match (verb, has) {
                    ("has", true) | ("lacks", false) => Ok(()),
                    ("has", false) => Err(format!(
                        "`{wanted}` is not legal for {seat}; legal: {}",
                        legal
                            .iter()
                            .take(20)
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                    ("lacks", true) => Err(format!("`{wanted}` is legal for {seat}")),
                    _ => Err(format!("expected `has` or `lacks`, found `{verb}`")),
                }
            }
            "outcome" => {
                let outcome = self.state()?.outcome();
                let got = match &outcome {
                    None => "none".to_string(),
                    Some(orrery_engine::Outcome::Winner { seat, .. }) => format!("winner {seat}"),
                    Some(orrery_engine::Outcome::Shared { seats, .. }) => {
                        format!(
                            "shared {}",
                            seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
                        )
                    }
                    Some(orrery_engine::Outcome::AllLose { .. }) => "everyone loses".to_string(),
                };
                if got == rest {
                    Ok(())
                } else {
                    Err(format!("expected outcome `{rest}`, got `{got}` ({outcome:?})"))
                }
            }
            other => Err(format!("unknown directive `{other}:`")),
        }
    }

    fn header_ok(&self, key: &str) -> Result<(), String> {
        if self.state.is_some() {
            Err(format!("`{key}:` must come before the first action or expectation"))
        } else {
            Ok(())
        }
    }
}

fn parse_seat(text: &str) -> Result<Seat, String> {
    let n: u8 = text
        .trim()
        .strip_prefix("seat ")
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("expected `seat N` (1-based), found `{text}`"))?;
    if n == 0 {
        return Err("seats are numbered from 1".into());
    }
    Ok(Seat(n - 1))
}

/// `/json/pointer = value`
fn check_pointer(root: &Value, spec: &str) -> Result<(), String> {
    let (ptr, expected) = spec.split_once('=').ok_or("expected `/pointer = JSON`")?;
    let ptr = ptr.trim();
    let expected: Value = serde_json::from_str(expected.trim()).map_err(|e| format!("bad expected JSON: {e}"))?;
    let got = root.pointer(ptr).ok_or_else(|| format!("nothing at `{ptr}`"))?;
    if subset_match(&expected, got) {
        Ok(())
    } else {
        Err(format!("at `{ptr}` expected {expected}, got {got}"))
    }
}

/// Objects match when every expected key matches; arrays elementwise with
/// equal length; scalars by equality.
pub fn subset_match(expected: &Value, got: &Value) -> bool {
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => e.iter().all(|(k, v)| g.get(k).is_some_and(|gv| subset_match(v, gv))),
        (Value::Array(e), Value::Array(g)) => e.len() == g.len() && e.iter().zip(g).all(|(a, b)| subset_match(a, b)),
        (e, g) => e == g,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subset_matching() {
        assert!(subset_match(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!subset_match(&json!({"a": 2}), &json!({"a": 1})));
        assert!(!subset_match(&json!([1]), &json!([1, 2])));
        assert!(subset_match(&json!([{"x": 1}]), &json!([{"x": 1, "y": 0}])));
        assert!(!subset_match(&json!({"c": 1}), &json!({"a": 1})));
    }

    #[test]
    fn comments_and_seats() {
        assert_eq!(strip_comment("a: 1 # note"), "a: 1 ");
        assert_eq!(strip_comment(r##"given: {"x": "#1"}"##), r##"given: {"x": "#1"}"##);
        assert_eq!(parse_seat("seat 2"), Ok(Seat(1)));
        assert!(parse_seat("seat 0").is_err());
    }

    #[test]
    fn directives_fail_loudly() {
        let e = run_text("game: hyperspace\nfrobnicate: 1\n").unwrap_err();
        assert!(e.message.contains("unknown directive"), "{e}");
        let e = run_text("players: 2\nseat 1: end\n").unwrap_err();
        assert!(e.message.contains("`game:` must come"), "{e}");
        let e = run_text("game: nosuchgame\n").unwrap_err();
        assert!(e.message.contains("unknown game"), "{e}");
    }

    #[test]
    fn a_given_event_that_leaves_an_impossible_game_fails_a_later_line() {
        // Found by the fuzzer: a planet given to a seat a 2-player game
        // does not have applied, and the next order panicked.
        let text = "game: spectrum\nplayers: 2\nseed: 1\ngiven: {\"PlanetTaken\":{\"planet\":31,\"name\":\"Izar\",\"owner\":2}}\n{}";
        let text = text.replace("{}", &"seat 1: ready\nseat 2: ready\n".repeat(4));
        let failure = run_text(&text).expect_err("a later line fails");
        assert_eq!(failure.line, 8, "{failure}");
        assert!(
            failure.message.contains("panicked") && failure.message.contains("given: event above may not fit"),
            "{failure}"
        );
    }

    #[test]
    fn a_given_event_that_does_not_fit_is_this_lines_failure() {
        // Found by the fuzzer: an event naming a planet the map lacks
        // panicked in `apply`.
        let text = "game: starlanes\nplayers: 2\nseed: 1\ngiven: {\"ForcesSet\": {\"planet\": \"Nowhere\", \"seat\": 0, \"forces\": 3}}\n";
        let failure = run_text(text).expect_err("the given line fails");
        assert_eq!(failure.line, 4);
        assert!(
            failure.message.contains("does not fit") && failure.message.contains("Nowhere"),
            "{failure}"
        );
    }

    #[test]
    fn given_events_may_carry_a_generator() {
        // A Spectrum ship built: the event carries the generator it drew
        // the ship's number with (128-bit words inside).
        use crate::spectrum::basics::ships::Class;
        use crate::spectrum::basics::{Colour, ShipId, Space};
        use crate::spectrum::events::Event;
        use orrery_engine::GameRng;
        let event = Event::ShipBuilt {
            ship: ShipId {
                colour: Colour::Red,
                number: 42,
            },
            owner: Seat(0),
            class: Class::Scout,
            at: Space {
                col: orrery_engine::hex::Hex::new(3, 0),
                level: 2,
            },
            rng: Box::new(GameRng::seeded(9)),
        };
        let json = serde_json::to_string(&event).unwrap();
        assert!(json.contains("rng"), "{json}");
        run_text(&format!(
            "game: spectrum\nplayers: 2\nseed: 1\ngiven: {json}\nstate: /ships/0/id = {{\"colour\": \"Red\", \"number\": 42}}\n"
        ))
        .unwrap();
    }
}
