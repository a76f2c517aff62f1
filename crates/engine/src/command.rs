//! The text form of an order: `depart from:Algol ships:5`.
//!
//! Parsing text into a [`CommandLine`] only checks shape. A ruleset turns a
//! command line into its own typed action ("can't parse" is a
//! [`ParseError`]); whether that action is legal here is decided against the
//! state ("illegal here" is a [`super::Rejection`]).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A command name and its `key:value` arguments, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CommandLine {
    pub name: String,
    pub args: Vec<(String, String)>,
}

impl CommandLine {
    pub fn new(name: impl Into<String>) -> Self {
        CommandLine {
            name: name.into(),
            args: Vec::new(),
        }
    }

    pub fn arg(mut self, key: impl Into<String>, value: impl ToString) -> Self {
        self.args.push((key.into(), value.to_string()));
        self
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A required argument.
    pub fn required(&self, key: &str, usage: &str) -> Result<&str, ParseError> {
        self.get(key).ok_or_else(|| ParseError {
            message: format!("`{}` needs the option `{key}`", self.name),
            usage: usage.to_string(),
        })
    }

    /// A required whole-number argument.
    pub fn number(&self, key: &str, usage: &str) -> Result<u32, ParseError> {
        let raw = self.required(key, usage)?;
        raw.trim().parse::<u32>().map_err(|_| ParseError {
            message: format!("`{key}:{raw}` is not a whole number"),
            usage: usage.to_string(),
        })
    }

    /// Reject arguments this command does not take.
    pub fn only(&self, allowed: &[&str], usage: &str) -> Result<(), ParseError> {
        for (k, _) in &self.args {
            if !allowed.contains(&k.as_str()) {
                return Err(ParseError {
                    message: format!("`{}` does not take an option `{k}`", self.name),
                    usage: usage.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Parse `name key:value key:"two words"`.
    pub fn parse(text: &str) -> Result<CommandLine, ParseError> {
        let tokens = tokenize(text).map_err(|message| ParseError {
            message,
            usage: "command key:value key:value ...".into(),
        })?;
        let mut iter = tokens.into_iter();
        let name = iter.next().ok_or_else(|| ParseError {
            message: "empty command".into(),
            usage: "command key:value key:value ...".into(),
        })?;
        if name.contains(':') {
            return Err(ParseError {
                message: format!("expected a command name first, found `{name}`"),
                usage: "command key:value key:value ...".into(),
            });
        }
        // A quoted name could be empty or hold spaces: no command is
        // called so, and the line would not read back from its own text.
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(ParseError {
                message: format!("`{name}` is not a command name: a name is one word"),
                usage: "command key:value key:value ...".into(),
            });
        }
        let mut line = CommandLine::new(name.to_ascii_lowercase());
        for tok in iter {
            let Some((k, v)) = tok.split_once(':') else {
                return Err(ParseError {
                    message: format!("`{tok}` is not of the form key:value"),
                    usage: "command key:value key:value ...".into(),
                });
            };
            if k.is_empty() {
                return Err(ParseError {
                    message: format!("`{tok}` has no option name before `:`"),
                    usage: "command key:value key:value ...".into(),
                });
            }
            if k.contains(char::is_whitespace) {
                return Err(ParseError {
                    message: format!("`{k}` is not an option name: a name is one word"),
                    usage: "command key:value key:value ...".into(),
                });
            }
            line.args.push((k.to_ascii_lowercase(), v.to_string()));
        }
        Ok(line)
    }
}

fn tokenize(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quotes = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                any = true;
            }
            c if c.is_whitespace() && !in_quotes => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if in_quotes {
        return Err("unclosed quote".into());
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

impl fmt::Display for CommandLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for (k, v) in &self.args {
            if v.is_empty() || v.contains(char::is_whitespace) {
                write!(f, " {k}:\"{v}\"")?;
            } else {
                write!(f, " {k}:{v}")?;
            }
        }
        Ok(())
    }
}

/// A game's order forms, `name` → usage line, so that every parse error
/// says which form would have been understood.
#[derive(Clone, Copy, Debug)]
pub struct Usages(pub &'static [(&'static str, &'static str)]);

impl Usages {
    /// The usage line of order `name` (the name itself if it has none).
    pub fn of(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map_or_else(|| name.to_string(), |(_, u)| (*u).to_string())
    }

    /// The names of the orders, in the table's order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|(n, _)| *n).collect()
    }

    /// A parse error for `line`, with its order's usage.
    pub fn error(&self, line: &CommandLine, message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            usage: self.of(&line.name),
        }
    }

    /// A required argument that is not blank, trimmed.
    pub fn text(&self, line: &CommandLine, key: &str) -> Result<String, ParseError> {
        let raw = line.required(key, &self.of(&line.name))?.trim();
        if raw.is_empty() {
            return Err(self.error(line, format!("`{key}:` is empty")));
        }
        Ok(raw.to_string())
    }
}

/// The text could not be understood as an order at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}. Usage: {usage}")]
pub struct ParseError {
    pub message: String,
    pub usage: String,
}

/// Static description of a game's order command, for slash-command
/// registration and help text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommandSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub params: Vec<ParamSpec>,
}

/// Orders a game gives a command of their own, beside its main one: for a
/// game with more orders than one command reads well (Space Empires'
/// combat and economic orders). A transport shows the group under the
/// game's key and the group's name (Discord: `/empires-combat fire`); the
/// orders' text is unchanged (`fire unit:…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandGroup {
    /// A word (`combat`).
    pub name: &'static str,
    /// What the orders are for.
    pub description: &'static str,
    /// The orders' names (of the game's [`CommandSpec`]s).
    pub orders: &'static [&'static str],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParamSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: ParamKind,
    pub required: bool,
}

impl ParamSpec {
    /// A parameter: its name, what it is for, its kind, and whether the
    /// order needs it.
    pub const fn new(name: &'static str, description: &'static str, kind: ParamKind, required: bool) -> Self {
        ParamSpec {
            name,
            description,
            kind,
            required,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ParamKind {
    Text,
    Number,
    /// A player. The ruleset reads a seat number from 1 (or, in a value
    /// of parts joined by `/`, as its first part: `kill:2/tank/mars`);
    /// people write the player's name, which the service turns into that
    /// number before parsing, and autocomplete offers names.
    Player,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let c = CommandLine::parse("Depart from:Algol ships:5 note:\"two words\"").unwrap();
        assert_eq!(c.name, "depart");
        assert_eq!(c.get("from"), Some("Algol"));
        assert_eq!(c.get("note"), Some("two words"));
        assert_eq!(CommandLine::parse(&c.to_string()).unwrap(), c);
    }

    #[test]
    fn shape_errors_explain_themselves() {
        let e = CommandLine::parse("depart Algol").unwrap_err();
        assert!(e.message.contains("`Algol` is not of the form key:value"), "{e}");
        assert!(CommandLine::parse("   ").unwrap_err().message.contains("empty"));
        assert!(CommandLine::parse("x a:\"b").unwrap_err().message.contains("unclosed"));
        // Quotes cannot make a name of nothing or of several words (found
        // by fuzzing: such lines did not read back from their own text).
        let e = CommandLine::parse("\"\" from:Algol").unwrap_err();
        assert!(e.message.contains("not a command name"), "{e}");
        let e = CommandLine::parse("\"de part\" from:Algol").unwrap_err();
        assert!(e.message.contains("`de part` is not a command name"), "{e}");
        let e = CommandLine::parse("depart \"fr om\":Algol").unwrap_err();
        assert!(e.message.contains("`fr om` is not an option name"), "{e}");
        let c = CommandLine::parse("depart ships:five").unwrap();
        let e = c.number("ships", "depart from:STAR ships:N").unwrap_err();
        assert!(e.to_string().contains("`ships:five` is not a whole number"), "{e}");
    }

    #[test]
    fn usages_name_the_form_to_use() {
        const FORMS: Usages = Usages(&[("depart", "depart from:STAR ships:N"), ("pass", "pass")]);
        assert_eq!(FORMS.of("depart"), "depart from:STAR ships:N");
        assert_eq!(FORMS.of("jump"), "jump");
        assert_eq!(FORMS.names(), ["depart", "pass"]);
        let line = CommandLine::parse("depart from:\"  \"").unwrap();
        let e = FORMS.text(&line, "from").unwrap_err();
        assert_eq!(e.to_string(), "`from:` is empty. Usage: depart from:STAR ships:N");
        let e = FORMS.text(&line, "ships").unwrap_err();
        assert!(e.message.contains("needs the option `ships`"), "{e}");
        assert_eq!(e.usage, "depart from:STAR ships:N");
        let line = CommandLine::parse("depart from:\" Algol \"").unwrap();
        assert_eq!(FORMS.text(&line, "from").unwrap(), "Algol");
        assert_eq!(FORMS.error(&line, "no").usage, "depart from:STAR ships:N");
    }
}
