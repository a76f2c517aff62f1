//! The grammar's options: what each kind of option accepts and how it is
//! written ([`OptionKind`]'s fixed choices, bounds, suggestions and
//! examples), and the games' set-up options as `/game new … options:`
//! takes them.

use super::{Complete, OptionKind, Wire};
use crate::Missed;
use orrery_games::GameKind;
use orrery_store::{BotLevel, PrivateTo};

/// `kind`'s options for messages: "Hyperspace's options are `rounds` (1
/// to 200, default 25)".
fn options_of(kind: GameKind) -> String {
    let list: Vec<String> = kind
        .options()
        .iter()
        .filter(|o| o.offered())
        .map(|o| format!("`{}` ({})", o.key, o.values.describe()))
        .collect();
    if list.is_empty() {
        format!("{} takes no options", kind.name())
    } else {
        format!("{}'s options are {}", kind.name(), list.join(", "))
    }
}

/// The set-up options written in `/game new … options:` (`rounds:12
/// map:random`), for `kind`: each one `kind` declares, with a value it
/// accepts, as `GameConfig.options`; `None` when none is given. Refusals
/// name the option and what `kind` accepts.
pub fn read_game_options(kind: GameKind, text: &str) -> Result<Option<serde_json::Value>, String> {
    use orrery_engine::OptionValues;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let line = orrery_engine::CommandLine::parse(&format!("options {text}")).map_err(|e| {
        format!(
            "`options:{}` is not a list of options like `rounds:12`: {}; {}.",
            text.trim(),
            e.message,
            options_of(kind)
        )
    })?;
    let mut out = serde_json::Map::new();
    for (key, raw) in &line.args {
        let raw = raw.trim();
        if out.contains_key(key) {
            return Err(format!("`{key}:` is given twice; give it once."));
        }
        let Some(decl) = kind.options().iter().find(|o| o.key == key) else {
            let readers: Vec<&str> = GameKind::ALL
                .iter()
                .filter(|k| k.options().iter().any(|o| o.key == key && o.offered()))
                .map(|k| k.name())
                .collect();
            return Err(if readers.is_empty() {
                format!("`{key}:` is not an option of {}; {}.", kind.name(), options_of(kind))
            } else {
                format!(
                    "`{key}:` is an option of {}, not of {}; {}.",
                    readers.join(" and "),
                    kind.name(),
                    options_of(kind)
                )
            });
        };
        let value = match decl.values {
            OptionValues::Whole { min, max, .. } => match raw.parse::<i64>() {
                Ok(n) if (i64::from(min)..=i64::from(max)).contains(&n) => serde_json::json!(n),
                Ok(n) => {
                    return Err(format!(
                        "`{key}:{n}` is out of range for {}: from {min} to {max}.",
                        kind.name()
                    ))
                }
                Err(_) => {
                    return Err(format!(
                        "`{key}:{raw}` is not a whole number; {}'s `{key}` is from {min} to {max}.",
                        kind.name()
                    ))
                }
            },
            OptionValues::Words { words, .. } => {
                let word = raw.to_ascii_lowercase();
                if !words.contains(&word.as_str()) {
                    return Err(format!(
                        "`{key}:{raw}` is not one of {} for {}.",
                        words.join(", "),
                        kind.name()
                    ));
                }
                serde_json::json!(word)
            }
            OptionValues::Flag { .. } | OptionValues::Reserved => match raw.to_ascii_lowercase().as_str() {
                "true" | "on" | "yes" => serde_json::json!(true),
                "false" | "off" | "no" => serde_json::json!(false),
                _ => return Err(format!("`{key}:` is `true` or `false`, not `{raw}`.")),
            },
        };
        // The ruleset's own check (a reserved key takes only `false`).
        decl.check(&value).map_err(|e| format!("{e}."))?;
        out.insert(key.clone(), value);
    }
    Ok(Some(serde_json::Value::Object(out)))
}

/// Suggestions for `/game new … options:` while `typed` is written, for
/// `kind`: (label, value) pairs, each value the whole text with one more
/// option or value. The options already given are not offered again; an
/// option whose `key:` is typed offers its values.
pub fn game_option_suggestions(kind: GameKind, typed: &str) -> Vec<(String, String)> {
    use orrery_engine::OptionValues;
    let (done, current) = match typed.rfind(char::is_whitespace) {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let given: Vec<&str> = done
        .split_whitespace()
        .filter_map(|t| t.split_once(':'))
        .map(|(k, _)| k)
        .collect();
    let mut out = Vec::new();
    let offered = kind.options().iter().filter(|o| o.offered() && !given.contains(&o.key));
    match current.split_once(':') {
        Some((key, partial)) => {
            let Some(decl) = kind.options().iter().find(|o| o.key == key && o.offered()) else {
                return out;
            };
            let values: Vec<String> = match decl.values {
                OptionValues::Whole { min, max, default } => {
                    let mut v: Vec<String> = Vec::new();
                    if let Ok(n) = partial.trim().parse::<u32>() {
                        if (min..=max).contains(&n) {
                            v.push(n.to_string());
                        }
                    }
                    for n in [default, min, max] {
                        if !v.contains(&n.to_string()) && n.to_string().starts_with(partial.trim()) {
                            v.push(n.to_string());
                        }
                    }
                    v
                }
                OptionValues::Words { words, .. } => words
                    .iter()
                    .filter(|w| w.starts_with(&partial.trim().to_ascii_lowercase()))
                    .map(|w| w.to_string())
                    .collect(),
                OptionValues::Flag { .. } => ["true", "false"]
                    .iter()
                    .filter(|w| w.starts_with(&partial.trim().to_ascii_lowercase()))
                    .map(|w| w.to_string())
                    .collect(),
                OptionValues::Reserved => Vec::new(),
            };
            for v in values {
                out.push((format!("{key}:{v} · {}", decl.description), format!("{done}{key}:{v}")));
            }
        }
        None => {
            for o in offered.filter(|o| o.key.starts_with(current.trim())) {
                let default = o.values.default_value();
                let shown = default.as_str().map_or_else(|| default.to_string(), str::to_string);
                out.push((
                    format!("{}:{shown} · {} ({})", o.key, o.description, o.values.describe()),
                    format!("{done}{}:{shown}", o.key),
                ));
            }
        }
    }
    out
}

impl OptionKind {
    pub fn wire(self) -> Wire {
        match self {
            OptionKind::Game | OptionKind::Phase | OptionKind::Seed | OptionKind::Line => Wire::Integer,
            OptionKind::Flag => Wire::Boolean,
            OptionKind::Player => Wire::User,
            OptionKind::System
            | OptionKind::Seat
            | OptionKind::Section
            | OptionKind::Duration
            | OptionKind::Points
            | OptionKind::KindDeadlines
            | OptionKind::TimeOfDay
            | OptionKind::Missed
            | OptionKind::Private
            | OptionKind::Pick
            | OptionKind::Level
            | OptionKind::GameOptions => Wire::Text,
        }
    }

    /// The fixed words the option is one of (empty: any value of its wire type).
    pub fn choices(self) -> Vec<&'static str> {
        match self {
            OptionKind::System => GameKind::ALL.iter().map(|k| k.key()).collect(),
            OptionKind::Missed => [Missed::Default, Missed::Wait].iter().map(|m| m.as_str()).collect(),
            OptionKind::Private => [PrivateTo::Dms, PrivateTo::Thread].iter().map(|p| p.as_str()).collect(),
            OptionKind::Level => BotLevel::ALL.iter().map(|l| l.as_str()).collect(),
            _ => vec![],
        }
    }

    /// The whole numbers the option accepts (integer options only).
    pub fn bounds(self) -> Option<(i64, i64)> {
        match self {
            // Any game number: a transport bounds what it can carry.
            OptionKind::Game => Some((i64::MIN, i64::MAX)),
            OptionKind::Phase | OptionKind::Seed => Some((0, i64::MAX)),
            OptionKind::Line => Some((1, 999)),
            _ => None,
        }
    }

    pub fn autocomplete(self) -> Option<Complete> {
        match self {
            OptionKind::Game => Some(Complete::Game),
            OptionKind::Seat => Some(Complete::Seat),
            OptionKind::Phase => Some(Complete::Phase),
            OptionKind::Section => Some(Complete::Section),
            OptionKind::GameOptions => Some(Complete::GameOptions),
            OptionKind::Pick => Some(Complete::Pick),
            _ => None,
        }
    }

    /// Options for tests and the terminal only: transports that show a
    /// command picker to players leave them out unless told otherwise.
    pub fn dev_only(self) -> bool {
        self == OptionKind::Seed
    }

    /// How to write a value, for messages: `by:12h`.
    pub(super) fn example(self, name: &str) -> String {
        match self {
            OptionKind::Game => format!("`{name}:3`"),
            OptionKind::System | OptionKind::Missed | OptionKind::Private | OptionKind::Level => {
                let words: Vec<String> = self.choices().iter().map(|c| format!("`{name}:{c}`")).collect();
                words.join(" or ")
            }
            OptionKind::GameOptions => format!("`{name}:\"rounds:12 map:random\"`"),
            OptionKind::Seat => format!("`{name}:2` (1 = the first seat) or `{name}:alice`"),
            OptionKind::Phase => format!("`{name}:2`"),
            OptionKind::Seed => format!("`{name}:42`"),
            OptionKind::Section => format!("`{name}:Combat`"),
            OptionKind::Duration => format!("`{name}:12h`"),
            OptionKind::Points => format!("`{name}:24h,2h` or `{name}:off`"),
            OptionKind::KindDeadlines => format!("`{name}:combat-card=2h,losses=12h`"),
            OptionKind::TimeOfDay => format!("`{name}:18:00` or `{name}:18:00+02:00`"),
            OptionKind::Flag => format!("`{name}:true` or `{name}:false`"),
            OptionKind::Player => format!("`{name}:@name`"),
            OptionKind::Line => format!("`{name}:2`"),
            OptionKind::Pick => format!("`{name}:blue`"),
        }
    }

    /// Does a value of this wire type fit? A seat may also be named by the
    /// person who plays it (a transport's mention).
    pub(super) fn accepts(self, wire: Wire) -> bool {
        wire == self.wire() || (self == OptionKind::Seat && wire == Wire::User)
    }

    /// Why a whole number (`shown` as it was written) is refused.
    pub(super) fn out_of_range(self, name: &str, shown: &str) -> String {
        match self {
            OptionKind::Phase => format!(
                "`{name}:{shown}` is out of range: phases go from 0 (the set-up) to the game's current phase (see /game status)."
            ),
            OptionKind::Game => format!("`{name}:{shown}` is not a game number; /mygames lists yours."),
            _ => {
                match self.bounds().unwrap_or((i64::MIN, i64::MAX)) {
                    (lo, i64::MAX) => format!("`{name}:{shown}` is out of range: it is a whole number from {lo} up."),
                    (lo, hi) => format!("`{name}:{shown}` is out of range: it is a whole number from {lo} to {hi}."),
                }
            }
        }
    }
}
