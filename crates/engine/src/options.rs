//! A game's set-up options, declared as data by its ruleset
//! ([`crate::Ruleset::OPTIONS`]) and read for it: `/game new` offers them
//! from the declarations, [`Options::read`] checks a game's
//! `GameConfig.options` against them (every wrong key or value named with
//! what would be legal), and the ruleset's set-up reads the checked values.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The game could not be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{0}")]
pub struct SetupError(pub String);

/// One set-up option of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupOption {
    /// Its key in `GameConfig.options` and on `/game new` (`rounds`).
    pub key: &'static str,
    /// What it does, for people choosing it (short: a command's option).
    pub description: &'static str,
    pub values: OptionValues,
}

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// A whole number from `min` to `max`.
    Whole { min: u32, max: u32, default: u32 },
    /// One of these words.
    Words {
        words: &'static [&'static str],
        default: &'static str,
    },
    /// True or false.
    Flag { default: bool },
    /// The key of rules not built yet: accepted only as `false` (so a game
    /// set up now has a definite value), and not offered.
    Reserved,
}

impl OptionValues {
    /// The values in words, for messages: "1 to 200, default 25".
    pub fn describe(self) -> String {
        match self {
            OptionValues::Whole { min, max, default } => format!("{min} to {max}, default {default}"),
            OptionValues::Words { words, default } => format!("{}, default {default}", words.join(" or ")),
            OptionValues::Flag { default } => format!("true or false, default {default}"),
            OptionValues::Reserved => "false only, until its rules are built".into(),
        }
    }

    /// The default, as it is written in options.
    pub fn default_value(self) -> Value {
        match self {
            OptionValues::Whole { default, .. } => Value::from(default),
            OptionValues::Words { default, .. } => Value::from(default),
            OptionValues::Flag { default } => Value::from(default),
            OptionValues::Reserved => Value::from(false),
        }
    }
}

impl SetupOption {
    /// Whether `/game new` offers it (reserved keys are not offered).
    pub fn offered(&self) -> bool {
        self.values != OptionValues::Reserved
    }

    /// Check one value: the value as the options keep it, or why not.
    pub fn check(&self, value: &Value) -> Result<Value, String> {
        let key = self.key;
        match self.values {
            OptionValues::Whole { min, max, .. } => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
                Some(n) if (min..=max).contains(&n) => Ok(Value::from(n)),
                _ => Err(format!(
                    "`{key}` must be a whole number from {min} to {max}, not {value}"
                )),
            },
            OptionValues::Words { words, .. } => {
                let word = value.as_str().map(|w| w.trim().to_ascii_lowercase());
                match word.and_then(|w| words.iter().find(|x| **x == w)) {
                    Some(w) => Ok(Value::from(*w)),
                    None => Err(format!("`{key}` must be {}, not {value}", words.join(" or "))),
                }
            }
            OptionValues::Flag { .. } => match value.as_bool() {
                Some(b) => Ok(Value::from(b)),
                None => Err(format!("`{key}` must be true or false, not {value}")),
            },
            OptionValues::Reserved => match value.as_bool() {
                Some(false) => Ok(Value::from(false)),
                _ => Err(format!("`{key}` is not available yet: only `false` is accepted")),
            },
        }
    }
}

/// A game's options as checked against its declarations: every declared
/// option has a value (its default when not given).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    values: Vec<(&'static str, Value)>,
}

impl Options {
    /// Check `value` (`GameConfig.options`: `null`, or an object of option
    /// values) against `declared`, the options of the game called `game`.
    pub fn read(game: &str, declared: &'static [SetupOption], value: &Value) -> Result<Options, SetupError> {
        let given = match value {
            Value::Null => serde_json::Map::new(),
            Value::Object(map) => map.clone(),
            other => {
                return Err(SetupError(format!(
                    "{game} options must be an object of option values, such as {{\"rounds\": 12}}, not {other}"
                )))
            }
        };
        for key in given.keys() {
            if !declared.iter().any(|o| o.key == key) {
                return Err(SetupError(unknown(game, declared, key)));
            }
        }
        let mut values = Vec::with_capacity(declared.len());
        for o in declared {
            let v = match given.get(o.key) {
                Some(v) => o.check(v).map_err(SetupError)?,
                None => o.values.default_value(),
            };
            values.push((o.key, v));
        }
        Ok(Options { values })
    }

    fn get(&self, key: &str) -> &Value {
        self.values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("the option `{key}` is not declared"))
    }

    /// A whole-number option's value. Panics if `key` is not a declared
    /// whole-number option (a mistake in the ruleset's own code).
    pub fn whole(&self, key: &str) -> u32 {
        let v = self.get(key);
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or_else(|| panic!("the option `{key}` is not a whole number: {v}"))
    }

    /// A word option's value. Panics if `key` is not a declared word option.
    pub fn word(&self, key: &str) -> &str {
        let v = self.get(key);
        v.as_str()
            .unwrap_or_else(|| panic!("the option `{key}` is not a word: {v}"))
    }

    /// A flag's (or reserved key's) value. Panics if `key` is not a
    /// declared flag.
    pub fn flag(&self, key: &str) -> bool {
        let v = self.get(key);
        v.as_bool()
            .unwrap_or_else(|| panic!("the option `{key}` is not true or false: {v}"))
    }
}

/// "unknown option `x` of Hyperspace; its options are rounds (1 to 200, default 25)".
fn unknown(game: &str, declared: &[SetupOption], key: &str) -> String {
    let offered: Vec<String> = declared
        .iter()
        .filter(|o| o.offered())
        .map(|o| format!("{} ({})", o.key, o.values.describe()))
        .collect();
    if offered.is_empty() {
        format!("unknown option `{key}`: {game} takes no options")
    } else {
        format!(
            "unknown option `{key}` of {game}; its options are {}",
            offered.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DECLARED: &[SetupOption] = &[
        SetupOption {
            key: "rounds",
            description: "Round limit",
            values: OptionValues::Whole {
                min: 1,
                max: 200,
                default: 25,
            },
        },
        SetupOption {
            key: "map",
            description: "The map",
            values: OptionValues::Words {
                words: &["fixed", "random"],
                default: "fixed",
            },
        },
        SetupOption {
            key: "auto",
            description: "Automatic",
            values: OptionValues::Flag { default: false },
        },
        SetupOption {
            key: "mines",
            description: "Mines",
            values: OptionValues::Reserved,
        },
    ];

    #[test]
    fn options_default_and_read_typed() {
        let o = Options::read("Game", DECLARED, &Value::Null).unwrap();
        assert_eq!(
            (o.whole("rounds"), o.word("map"), o.flag("auto"), o.flag("mines")),
            (25, "fixed", false, false)
        );
        let o = Options::read(
            "Game",
            DECLARED,
            &json!({"rounds": 200, "map": " Random", "auto": true}),
        )
        .unwrap();
        assert_eq!(
            (o.whole("rounds"), o.word("map"), o.flag("auto")),
            (200, "random", true)
        );
        assert!(Options::read("Game", DECLARED, &json!({"mines": false})).is_ok());
    }

    #[test]
    fn wrong_options_are_named_with_what_is_legal() {
        let err = |v: Value| Options::read("Game", DECLARED, &v).unwrap_err().0;
        assert_eq!(
            err(json!({"rounds": 0})),
            "`rounds` must be a whole number from 1 to 200, not 0"
        );
        assert_eq!(
            err(json!({"rounds": "5"})),
            "`rounds` must be a whole number from 1 to 200, not \"5\""
        );
        assert_eq!(
            err(json!({"map": "round"})),
            "`map` must be fixed or random, not \"round\""
        );
        assert_eq!(err(json!({"auto": 1})), "`auto` must be true or false, not 1");
        assert_eq!(
            err(json!({"mines": true})),
            "`mines` is not available yet: only `false` is accepted"
        );
        assert_eq!(
            err(json!({"turns": 3})),
            "unknown option `turns` of Game; its options are rounds (1 to 200, default 25), \
             map (fixed or random, default fixed), auto (true or false, default false)"
        );
        assert!(err(json!([1])).starts_with("Game options must be an object"));
        assert_eq!(
            Options::read("Nim", &[], &json!({"x": 1})).unwrap_err().0,
            "unknown option `x`: Nim takes no options"
        );
        assert!(!DECLARED[3].offered() && DECLARED[0].offered());
    }
}
