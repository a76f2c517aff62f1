//! The stored encoding of log entries, versioned, and of the cached state.
//!
//! # Events
//!
//! Every row of `events` records the encoding `version` it was written
//! with (a column; rows written before versions existed hold 1, the
//! column's default). New rows are written at [`EVENT_VERSION`] by
//! [`encode`]. Every read goes through [`decode`]: a row of an older
//! version is parsed to a [`serde_json::Value`], lifted one version at a
//! time by the [`UPCASTERS`] chain, then deserialized into today's
//! [`AnyEvent`]. Stored rows are never rewritten.
//!
//! Changing the shape of an event (a renamed field, a new required field,
//! a split variant) is therefore:
//! 1. bump [`EVENT_VERSION`];
//! 2. append one upcaster to [`UPCASTERS`], a function turning the JSON of
//!    the previous version into the new shape (use [`event_of`] to touch
//!    one game's entries only); the build fails if the chain and the
//!    version disagree;
//! 3. add a test decoding a row of the previous version.
//!
//! The fixture logs under `tests/fixtures/` are never edited or re-recorded
//! because of a shape change: the upcaster is what makes them decode.
//!
//! # The cached state
//!
//! `games.state` caches the fold of the log. It is a cache, not a record:
//! if it does not decode (the state's shape changed since it was written)
//! or is missing, the store refolds it from the log (`Store::refold_if_stale`)
//! and the next write of the game replaces it.

use super::error::{StoreError, StoreResult};
use orrery_engine::GameId;
use orrery_games::{AnyEvent, AnyState};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// The encoding version written with every new event row.
pub const EVENT_VERSION: i64 = 2;

/// The oldest version this release reads: the shape of events when versions
/// were introduced (every row written before has version 1).
pub const FIRST_VERSION: i64 = 1;

/// One step of the chain: the JSON of an event as version `n` wrote it
/// (the whole stored object, `{"game": …, "event": …}`) in the shape of
/// version `n + 1`. An `Err` says why the entry cannot be lifted.
pub type Upcaster = fn(Value) -> Result<Value, String>;

/// `UPCASTERS[i]` lifts version `FIRST_VERSION + i` to `FIRST_VERSION + i + 1`.
/// Append one per version bump; never change or remove one while any stored
/// row may still need it.
pub const UPCASTERS: &[Upcaster] = &[sheets_in_the_engine];

/// Version 1 → 2: order sheets became the engine's one protocol
/// (`orrery_engine::SheetEvent`), so a game's sheet events are its
/// `Sheet` event holding one of the engine's. Spectrum War's and Space
/// Empires 4X's version-1 shapes:
///
/// | version 1 | version 2 (inside `{"Sheet": …}`) |
/// |---|---|
/// | Spectrum `LineAdded {seat, order}` | `LineAdded {seat, line}` |
/// | Spectrum `LineReplaced {seat, line, order}` | `LineReplaced {seat, n, line}` |
/// | Spectrum `LineRemoved {seat, line}` | `LineRemoved {seat, n}` |
/// | Empires `LineAdded`, `LineReplaced`, `LineRemoved` | the same fields |
/// | `SheetCleared {seat}` | `Cleared {seat}` |
/// | Spectrum `SheetReady {seat}`, Empires `SheetReady {seat, ready: true}` | `MarkedReady {seat}` |
/// | Spectrum `SheetUnready {seat}`, Empires `SheetReady {seat, ready: false}` | `MarkedUnready {seat}` |
pub fn sheets_in_the_engine(mut entry: Value) -> Result<Value, String> {
    for game in ["spectrum", "empires"] {
        let Some(outer) = event_of(&mut entry, game) else {
            continue;
        };
        let Some((variant, fields)) = outer.iter().next().map(|(k, v)| (k.clone(), v.clone())) else {
            continue;
        };
        if outer.len() != 1 {
            continue;
        }
        let Some(mut fields) = fields.as_object().cloned() else {
            continue;
        };
        let mut rename = |from: &str, to: &str| {
            if let Some(v) = fields.remove(from) {
                fields.insert(to.to_string(), v);
            }
        };
        let inner = match (game, variant.as_str()) {
            ("spectrum", "LineAdded") => {
                rename("order", "line");
                "LineAdded"
            }
            ("spectrum", "LineReplaced") | ("spectrum", "LineRemoved") => {
                rename("line", "n");
                rename("order", "line");
                variant.as_str()
            }
            ("empires", "LineAdded" | "LineReplaced" | "LineRemoved") => variant.as_str(),
            (_, "SheetCleared") => "Cleared",
            ("spectrum", "SheetUnready") => "MarkedUnready",
            ("spectrum", "SheetReady") => "MarkedReady",
            ("empires", "SheetReady") => match fields.remove("ready").and_then(|r| r.as_bool()) {
                Some(true) => "MarkedReady",
                Some(false) => "MarkedUnready",
                None => return Err("a version 1 Space Empires `SheetReady` without `ready`".into()),
            },
            _ => continue,
        };
        let inner = serde_json::json!({ inner: fields });
        outer.clear();
        outer.insert("Sheet".into(), inner);
    }
    Ok(entry)
}

const _: () = assert!(
    UPCASTERS.len() as i64 == EVENT_VERSION - FIRST_VERSION,
    "one upcaster per version step: bump EVENT_VERSION and append an upcaster together"
);

/// An event as it is stored: its encoding version and its JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    pub version: i64,
    pub json: String,
}

/// Encode an event for a new row, at [`EVENT_VERSION`].
pub fn encode(event: &AnyEvent) -> StoreResult<Encoded> {
    Ok(Encoded {
        version: EVENT_VERSION,
        json: to_json("event", event)?,
    })
}

/// Decode a stored row: lift it from `version` to today's shape, then
/// deserialize. The error says what is wrong (a version from a newer
/// release, an upcaster's refusal, JSON that does not fit).
pub fn decode(version: i64, json: &str) -> Result<AnyEvent, String> {
    decode_with(UPCASTERS, FIRST_VERSION, version, json)
}

/// [`decode`] with a given chain whose first step lifts version `first`.
fn decode_with(chain: &[Upcaster], first: i64, version: i64, json: &str) -> Result<AnyEvent, String> {
    let current = first + chain.len() as i64;
    if version == current {
        // Today's shape: no detour through a `Value`.
        return serde_json::from_str(json).map_err(|e| e.to_string());
    }
    // A version outside the chain is the problem to report, whatever the
    // text (a newer release's JSON need not parse as this one expects).
    check_version(chain, first, version)?;
    let value: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let value = upcast(chain, first, version, value)?;
    // Read back from text, as a row of today's version is: a `Value`
    // cannot give a `u128` (the generator's position in its stream).
    serde_json::from_str(&value.to_string()).map_err(|e| format!("after upcasting from version {version}: {e}"))
}

/// Whether the chain starting at `first` reads rows of `version`.
fn check_version(chain: &[Upcaster], first: i64, version: i64) -> Result<(), String> {
    let current = first + chain.len() as i64;
    if version > current {
        return Err(format!(
            "encoding version {version} was written by a newer release (this one reads {first} to {current})"
        ));
    }
    if version < first {
        return Err(format!(
            "encoding version {version} is older than any this release reads ({first} to {current})"
        ));
    }
    Ok(())
}

/// Lift `value`, written at `version`, through the chain to its end.
fn upcast(chain: &[Upcaster], first: i64, version: i64, mut value: Value) -> Result<Value, String> {
    check_version(chain, first, version)?;
    for (step, up) in chain.iter().enumerate().skip((version - first) as usize) {
        let from = first + step as i64;
        value = up(value).map_err(|e| format!("upcasting from version {from} to {}: {e}", from + 1))?;
    }
    Ok(value)
}

/// For an upcaster that concerns one game: the inner event object of an
/// entry of game `game` (`"hyperspace"`, `"starlanes"`, `"platform"`), or
/// `None` for any other entry (which the upcaster passes on unchanged).
pub fn event_of<'a>(entry: &'a mut Value, game: &str) -> Option<&'a mut serde_json::Map<String, Value>> {
    if entry.get("game").and_then(Value::as_str) != Some(game) {
        return None;
    }
    entry.get_mut("event")?.as_object_mut()
}

/// Encode the state to cache in `games.state`.
pub fn encode_state(state: &AnyState) -> StoreResult<String> {
    to_json("game state", state)
}

/// Decode a cached state; `None` (with a warning) if it does not decode,
/// so that the caller refolds it from the log.
pub fn decode_state(game: GameId, json: &str) -> Option<AnyState> {
    match serde_json::from_str(json) {
        Ok(state) => Some(state),
        Err(e) => {
            tracing::warn!(%game, error = %e, "the cached state does not decode; refolding it from the log");
            None
        }
    }
}

pub(crate) fn to_json<T: Serialize>(what: &str, value: &T) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(format!("cannot serialize {what}: {e}")))
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(what: impl fmt::Display, text: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what} does not parse: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_games::{PlatformEvent, Rewind};
    use serde_json::json;

    fn rolled_back() -> AnyEvent {
        AnyEvent::Platform(PlatformEvent::RolledBack {
            to_seq: 5,
            why: Rewind::Phase { phase: 2 },
            undone: 3,
        })
    }

    /// An example step (test only): version 0 called a roll-back's target
    /// `to`; version 1 calls it `to_seq`.
    fn v0_to_v1(mut entry: Value) -> Result<Value, String> {
        if let Some(e) = event_of(&mut entry, "platform") {
            if e.get("type").and_then(Value::as_str) == Some("rolled_back") {
                let to = e.remove("to").ok_or("a version 0 roll-back without `to`")?;
                e.insert("to_seq".into(), to);
            }
        }
        Ok(entry)
    }

    /// A second example step (test only): version 1 counted set-aside
    /// entries in `undone` as a string.
    fn v1_to_v2(mut entry: Value) -> Result<Value, String> {
        if let Some(e) = event_of(&mut entry, "platform") {
            if let Some(Value::String(n)) = e.get("undone") {
                let n: u64 = n.parse().map_err(|_| format!("`undone` is not a count: {n}"))?;
                e.insert("undone".into(), n.into());
            }
        }
        Ok(entry)
    }

    #[test]
    fn today_encoding_round_trips_at_the_current_version() {
        let e = rolled_back();
        let stored = encode(&e).unwrap();
        assert_eq!(stored.version, EVENT_VERSION);
        assert_eq!(decode(stored.version, &stored.json).unwrap(), e);
    }

    #[test]
    fn an_old_row_is_upcast_to_todays_shape() {
        let chain: &[Upcaster] = &[v0_to_v1];
        let v0 =
            r#"{"game":"platform","event":{"type":"rolled_back","to":5,"why":{"why":"phase","phase":2},"undone":3}}"#;
        // Deserialized as it is, version 0 is not today's shape…
        assert!(serde_json::from_str::<AnyEvent>(v0).is_err());
        // …the chain makes it so.
        assert_eq!(decode_with(chain, 0, 0, v0).unwrap(), rolled_back());
        // A row of the chain's current version is read as it is.
        let v1 = encode(&rolled_back()).unwrap().json;
        assert_eq!(decode_with(chain, 0, 1, &v1).unwrap(), rolled_back());
        // Entries of other games pass through the step untouched.
        let other = json!({"game": "hyperspace", "event": {"type": "x", "to": 1}});
        assert_eq!(v0_to_v1(other.clone()).unwrap(), other);
    }

    #[test]
    fn steps_run_in_order_from_the_row_version() {
        let chain: &[Upcaster] = &[v0_to_v1, v1_to_v2];
        let v0 =
            r#"{"game":"platform","event":{"type":"rolled_back","to":5,"why":{"why":"phase","phase":2},"undone":"3"}}"#;
        let v1 = r#"{"game":"platform","event":{"type":"rolled_back","to_seq":5,"why":{"why":"phase","phase":2},"undone":"3"}}"#;
        let v2 = encode(&rolled_back()).unwrap().json;
        assert_eq!(decode_with(chain, 0, 0, v0).unwrap(), rolled_back());
        assert_eq!(decode_with(chain, 0, 1, v1).unwrap(), rolled_back());
        assert_eq!(decode_with(chain, 0, 2, &v2).unwrap(), rolled_back());
        // Skipping a step fails: v0 does not fit v1's reader.
        assert!(decode_with(chain, 0, 1, v0).is_err());
        // An upcaster's refusal is reported with its step.
        let bad =
            r#"{"game":"platform","event":{"type":"rolled_back","to_seq":5,"why":{"why":"undo"},"undone":"many"}}"#;
        let err = decode_with(chain, 0, 1, bad).unwrap_err();
        assert!(err.contains("from version 1 to 2") && err.contains("many"), "{err}");
    }

    /// Version 1's sheet events of both games read as today's: the
    /// engine's sheet events inside each game's `Sheet` event.
    #[test]
    fn version_1_sheet_events_read_as_the_engines() {
        use orrery_engine::{Seat, SheetEvent};
        use orrery_games::{empires, spectrum};
        let order = r#"{"Build":{"class":"Terraformer","at":36,"name":"Castor"}}"#;
        let spectrum_order: spectrum::state::Order = serde_json::from_str(order).unwrap();
        let s = |e: &str| decode(1, &format!(r#"{{"game":"spectrum","event":{e}}}"#)).unwrap();
        let sp = |e: SheetEvent<spectrum::state::Order>| AnyEvent::Spectrum(spectrum::events::Event::Sheet(e));
        assert_eq!(
            s(&format!(r#"{{"LineAdded":{{"seat":0,"order":{order}}}}}"#)),
            sp(SheetEvent::LineAdded {
                seat: Seat(0),
                line: spectrum_order.clone()
            })
        );
        assert_eq!(
            s(&format!(r#"{{"LineReplaced":{{"seat":1,"line":2,"order":{order}}}}}"#)),
            sp(SheetEvent::LineReplaced {
                seat: Seat(1),
                n: 2,
                line: spectrum_order
            })
        );
        assert_eq!(
            s(r#"{"LineRemoved":{"seat":1,"line":3}}"#),
            sp(SheetEvent::LineRemoved { seat: Seat(1), n: 3 })
        );
        assert_eq!(
            s(r#"{"SheetCleared":{"seat":0}}"#),
            sp(SheetEvent::Cleared { seat: Seat(0) })
        );
        assert_eq!(
            s(r#"{"SheetReady":{"seat":0}}"#),
            sp(SheetEvent::MarkedReady { seat: Seat(0) })
        );
        assert_eq!(
            s(r#"{"SheetUnready":{"seat":0}}"#),
            sp(SheetEvent::MarkedUnready { seat: Seat(0) })
        );

        let line = r#"{"Research":{"tech":"Attack"}}"#;
        let empires_line: empires::state::Line = serde_json::from_str(line).unwrap();
        let e = |ev: &str| decode(1, &format!(r#"{{"game":"empires","event":{ev}}}"#)).unwrap();
        let em = |ev: SheetEvent<empires::state::Line>| AnyEvent::Empires(empires::events::Event::Sheet(ev));
        assert_eq!(
            e(&format!(r#"{{"LineAdded":{{"seat":1,"line":{line}}}}}"#)),
            em(SheetEvent::LineAdded {
                seat: Seat(1),
                line: empires_line.clone()
            })
        );
        assert_eq!(
            e(&format!(r#"{{"LineReplaced":{{"seat":1,"n":1,"line":{line}}}}}"#)),
            em(SheetEvent::LineReplaced {
                seat: Seat(1),
                n: 1,
                line: empires_line
            })
        );
        assert_eq!(
            e(r#"{"LineRemoved":{"seat":0,"n":2}}"#),
            em(SheetEvent::LineRemoved { seat: Seat(0), n: 2 })
        );
        assert_eq!(
            e(r#"{"SheetCleared":{"seat":0}}"#),
            em(SheetEvent::Cleared { seat: Seat(0) })
        );
        assert_eq!(
            e(r#"{"SheetReady":{"seat":1,"ready":true}}"#),
            em(SheetEvent::MarkedReady { seat: Seat(1) })
        );
        assert_eq!(
            e(r#"{"SheetReady":{"seat":1,"ready":false}}"#),
            em(SheetEvent::MarkedUnready { seat: Seat(1) })
        );
        // Other events, and other games' events of the same names, pass
        // through the step as they were.
        let other = json!({"game": "spectrum", "event": {"TurnBegan": {"turn": 2}}});
        assert_eq!(sheets_in_the_engine(other.clone()).unwrap(), other);
        let other = json!({"game": "solar", "event": {"SheetReady": {"seat": 0}}});
        assert_eq!(sheets_in_the_engine(other.clone()).unwrap(), other);
        // A version 2 row is read as it is.
        let today = sp(SheetEvent::MarkedReady { seat: Seat(0) });
        assert_eq!(decode(2, &encode(&today).unwrap().json).unwrap(), today);
    }

    #[test]
    fn versions_outside_the_chain_are_refused() {
        let json = encode(&rolled_back()).unwrap().json;
        let err = decode(EVENT_VERSION + 1, &json).unwrap_err();
        assert!(err.contains("newer release"), "{err}");
        let err = decode(FIRST_VERSION - 1, &json).unwrap_err();
        assert!(err.contains("older than any"), "{err}");
        // Even when the text is not JSON this release reads (found by fuzzing:
        // the JSON error used to hide the version).
        let err = decode(EVENT_VERSION + 1, r#"{"game":"solar","\ud800":1}"#).unwrap_err();
        assert!(err.contains("newer release"), "{err}");
        let err = decode(i64::MIN, "{not json").unwrap_err();
        assert!(err.contains("older than any"), "{err}");
    }

    #[test]
    fn a_cached_state_that_does_not_decode_is_none() {
        let state = orrery_games::GameKind::Starlanes.empty();
        let json = encode_state(&state).unwrap();
        assert_eq!(decode_state(GameId(1), &json), Some(state));
        assert_eq!(
            decode_state(GameId(1), r#"{"game":"starlanes","state":{"renamed":1}}"#),
            None
        );
        assert_eq!(decode_state(GameId(1), "{not json"), None);
    }
}
