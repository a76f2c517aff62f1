//! Orders as text: the [`Action`] a player gives, read from a command line
//! with only shape errors ("can't read"), and written back canonically.
//! Counters, hexes and players stay as typed here; `rules` resolves them
//! against the state and says what is illegal ("not legal now").

use super::basics::{Dir, Kind, Tech};
use super::state::battle::{ColonyRule, RetreatRule, RevealedRule, ScreenRule, TargetRule};
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError, Seat, SheetEdit, Usages};
use serde::{Deserialize, Serialize};

/// A line of the economic sheet, as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Written {
    Bid {
        cp: u32,
    },
    Research {
        tech: Tech,
        /// Unpredictable research (text 19): the grants of 5 CP, a die
        /// each. (Left out when none: lines written before it existed.)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grants: Option<u32>,
    },
    Buy {
        kind: Kind,
        at: String,
        ships: Option<u32>,
        into: Option<String>,
    },
    Scrap(ScrapWhat),
}

/// What a `scrap` order names: a counter, or a Base or Ship Yard at a hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScrapWhat {
    Unit(String),
    At { at: String, what: Kind },
}

/// Standing orders to change; `None` keeps a setting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingEdit {
    pub auto: Option<bool>,
    pub target: Option<TargetRule>,
    pub retreat: Option<RetreatRule>,
    pub screen: Option<ScreenRule>,
    pub colonies: Option<ColonyRule>,
    pub revealed: Option<RevealedRule>,
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    // Movement phase.
    Move {
        units: Vec<String>,
        path: Vec<String>,
        /// Black Hole sling shot declared (optional rule 15.2).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        slingshot: bool,
    },
    Split {
        unit: String,
        ships: u32,
    },
    Merge {
        unit: String,
        into: String,
    },
    Colonize {
        unit: String,
    },
    Tow {
        unit: String,
    },
    /// A towing Miner leaves its marker at its own colony (text 6.7.2:
    /// "the mineral may be deposited").
    Deposit {
        unit: String,
    },
    Peek {
        unit: String,
        at: String,
    },
    Reveal {
        at: String,
    },
    Upgrade {
        unit: String,
    },
    /// In the movement phase: scuttle now. On the economic sheet: a line.
    Scrap {
        what: ScrapWhat,
        line: Option<usize>,
    },
    End,
    // Combat.
    Battle {
        at: String,
    },
    /// `damaged`: the group's damaged ship is among the ships screened,
    /// split off into a group of its own (text 5.6).
    Screen {
        unit: String,
        ships: Option<u32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        damaged: bool,
    },
    Done,
    Fire {
        unit: String,
        at: String,
        ships: Option<u32>,
    },
    Retreat {
        unit: String,
        to: String,
        ships: Option<u32>,
    },
    Hold {
        unit: String,
    },
    Auto,
    // Lost in Space; `None`: a direction drawn at random (the deadline's).
    Shift {
        dir: Option<Dir>,
    },
    // A minefield's owner: one mine destroys a ship of this counter.
    Detonate {
        at: String,
    },
    // The economic sheet: an edit (the engine's one sheet protocol).
    Sheet(SheetEdit<Written>),
    // After the bids.
    First {
        player: Seat,
    },
    // Any time.
    Standing(StandingEdit),
}

const USAGE: Usages = Usages(&[
    ("move", "move unit:LABEL[,LABEL…] path:HEX[,HEX…] [slingshot:yes]"),
    ("split", "split unit:LABEL ships:N"),
    ("merge", "merge unit:LABEL into:LABEL"),
    ("colonize", "colonize unit:LABEL"),
    ("tow", "tow unit:LABEL"),
    ("deposit", "deposit unit:LABEL"),
    ("peek", "peek unit:LABEL at:HEX"),
    ("reveal", "reveal at:HEX"),
    ("upgrade", "upgrade unit:LABEL"),
    ("scrap", "scrap unit:LABEL, or scrap at:HEX what:base|yard"),
    ("end", "end"),
    ("battle", "battle at:HEX"),
    ("screen", "screen unit:LABEL [ships:N] [damaged:yes]"),
    ("done", "done"),
    ("fire", "fire unit:LABEL at:LABEL|base|yard|colony [ships:N]"),
    ("retreat", "retreat unit:LABEL to:HEX [ships:N]"),
    ("hold", "hold unit:LABEL"),
    ("auto", "auto"),
    ("shift", "shift dir:n|ne|se|s|sw|nw"),
    ("detonate", "detonate at:LABEL"),
    ("bid", "bid cp:N [line:N]"),
    (
        "research",
        "research tech:size|attack|defense|tactics|move|yard|terraform|explore|mines|sweep|fighters|pd|cloaking|scanners [grants:N] [line:N]",
    ),
    (
        "buy",
        "buy type:sc|dd|ca|bc|bb|dn|colony|miner|decoy|base|yard|pipeline|mines|sweeper|carrier|fighters|raider at:HEX [ships:N] [into:LABEL] [line:N]",
    ),
    ("first", "first player:NAME"),
    (
        "standing",
        "standing [auto:on|off] [target:focus|big|small] [retreat:never|outgunned|half] [screen:none|weak] [colonies:fire|hold]",
    ),
    ("ready", "ready"),
    ("unready", "unready"),
    ("clear", "clear"),
    ("remove", "remove line:N"),
]);

pub fn usage(name: &str) -> String {
    USAGE.of(name)
}

fn bad(line: &CommandLine, message: impl Into<String>) -> ParseError {
    USAGE.error(line, message)
}

fn text(line: &CommandLine, key: &str) -> Result<String, ParseError> {
    USAGE.text(line, key)
}

fn list(line: &CommandLine, key: &str) -> Result<Vec<String>, ParseError> {
    let raw = text(line, key)?;
    let items: Vec<String> = raw
        .split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if items.is_empty() {
        return Err(bad(line, format!("`{key}:` is empty")));
    }
    Ok(items)
}

fn count(line: &CommandLine, key: &str) -> Result<Option<u32>, ParseError> {
    match line.get(key) {
        None => Ok(None),
        Some(_) => {
            let n = line.number(key, &usage(&line.name))?;
            if n == 0 {
                return Err(bad(line, format!("`{key}:` must be at least 1")));
            }
            Ok(Some(n))
        }
    }
}

fn choice<T: Copy>(line: &CommandLine, key: &str, values: &[(&str, T)]) -> Result<Option<T>, ParseError> {
    let Some(raw) = line.get(key) else { return Ok(None) };
    let t = raw.trim().to_ascii_lowercase();
    values
        .iter()
        .find(|(k, _)| *k == t)
        .map(|(_, v)| Some(*v))
        .ok_or_else(|| {
            let keys: Vec<&str> = values.iter().map(|(k, _)| *k).collect();
            bad(line, format!("`{key}:{raw}` is not one of {}", keys.join(", ")))
        })
}

/// Text → action. Only shape errors: names are looked up by `decide`.
pub fn parse(line: &CommandLine) -> Result<Action, ParseError> {
    let u = usage(&line.name);
    let only = |keys: &[&str]| line.only(keys, &u);
    Ok(match line.name.as_str() {
        "move" => {
            only(&["unit", "path", "slingshot"])?;
            Action::Move {
                units: list(line, "unit")?,
                path: list(line, "path")?,
                slingshot: choice(line, "slingshot", &[("yes", true), ("no", false)])?.unwrap_or(false),
            }
        }
        "split" => {
            only(&["unit", "ships"])?;
            Action::Split {
                unit: text(line, "unit")?,
                ships: count(line, "ships")?.ok_or_else(|| bad(line, "`split` needs the option `ships`"))?,
            }
        }
        "merge" => {
            only(&["unit", "into"])?;
            Action::Merge {
                unit: text(line, "unit")?,
                into: text(line, "into")?,
            }
        }
        "colonize" | "tow" | "deposit" | "upgrade" | "hold" => {
            only(&["unit"])?;
            let unit = text(line, "unit")?;
            match line.name.as_str() {
                "colonize" => Action::Colonize { unit },
                "tow" => Action::Tow { unit },
                "deposit" => Action::Deposit { unit },
                "upgrade" => Action::Upgrade { unit },
                _ => Action::Hold { unit },
            }
        }
        "peek" => {
            only(&["unit", "at"])?;
            Action::Peek {
                unit: text(line, "unit")?,
                at: text(line, "at")?,
            }
        }
        "reveal" => {
            only(&["at"])?;
            Action::Reveal { at: text(line, "at")? }
        }
        "scrap" => {
            only(&["unit", "at", "what", "line"])?;
            let what = match (line.get("unit"), line.get("at")) {
                (Some(_), None) => {
                    if line.get("what").is_some() {
                        return Err(bad(line, "`what:` goes with `at:`, not with `unit:`"));
                    }
                    ScrapWhat::Unit(text(line, "unit")?)
                }
                (None, Some(_)) => {
                    let what = choice(line, "what", &[("base", Kind::Base), ("yard", Kind::ShipYard)])?
                        .ok_or_else(|| bad(line, "`scrap at:` needs `what:base` or `what:yard`"))?;
                    ScrapWhat::At {
                        at: text(line, "at")?,
                        what,
                    }
                }
                _ => {
                    return Err(bad(
                        line,
                        "name either a counter (`unit:`) or a hex (`at:` with `what:`)",
                    ))
                }
            };
            Action::Scrap {
                what,
                line: sheet_line(line)?,
            }
        }
        "ready" | "unready" | "clear" | "remove" => match SheetEdit::parse_verb(line, &u) {
            Some(edit) => Action::Sheet(edit?),
            None => unreachable!("the sheet's verbs are read by the engine"),
        },
        "end" | "done" | "auto" => {
            only(&[])?;
            match line.name.as_str() {
                "end" => Action::End,
                "done" => Action::Done,
                _ => Action::Auto,
            }
        }
        "battle" => {
            only(&["at"])?;
            Action::Battle { at: text(line, "at")? }
        }
        "screen" => {
            only(&["unit", "ships", "damaged"])?;
            Action::Screen {
                unit: text(line, "unit")?,
                ships: count(line, "ships")?,
                damaged: choice(line, "damaged", &[("yes", true), ("no", false)])?.unwrap_or(false),
            }
        }
        "fire" => {
            only(&["unit", "at", "ships"])?;
            Action::Fire {
                unit: text(line, "unit")?,
                at: text(line, "at")?,
                ships: count(line, "ships")?,
            }
        }
        "retreat" => {
            only(&["unit", "to", "ships"])?;
            Action::Retreat {
                unit: text(line, "unit")?,
                to: text(line, "to")?,
                ships: count(line, "ships")?,
            }
        }
        "detonate" => {
            only(&["at"])?;
            Action::Detonate { at: text(line, "at")? }
        }
        "shift" => {
            only(&["dir"])?;
            let raw = text(line, "dir")?;
            let dir = if raw.eq_ignore_ascii_case("random") {
                None
            } else {
                Some(
                    Dir::parse(&raw)
                        .ok_or_else(|| bad(line, format!("`dir:{raw}` is not one of n, ne, se, s, sw, nw")))?,
                )
            };
            Action::Shift { dir }
        }
        "bid" => {
            only(&["cp", "line"])?;
            Action::Sheet(SheetEdit::write(
                Written::Bid {
                    cp: line.number("cp", &u)?,
                },
                line,
                &u,
            )?)
        }
        "research" => {
            only(&["tech", "grants", "line"])?;
            let raw = text(line, "tech")?;
            let tech = Tech::parse(&raw).ok_or_else(|| {
                let keys: Vec<&str> = Tech::ALL.iter().map(|t| t.key()).collect();
                bad(line, format!("`tech:{raw}` is not one of {}", keys.join(", ")))
            })?;
            let grants = count(line, "grants")?;
            Action::Sheet(SheetEdit::write(Written::Research { tech, grants }, line, &u)?)
        }
        "buy" => {
            only(&["type", "at", "ships", "into", "line"])?;
            let raw = text(line, "type")?;
            let kind = Kind::parse(&raw).ok_or_else(|| {
                bad(
                    line,
                    format!(
                        "`type:{raw}` is not one of sc, dd, ca, bc, bb, dn, colony, miner, decoy, base, yard, pipeline, mines, sweeper"
                    ),
                )
            })?;
            Action::Sheet(SheetEdit::write(
                Written::Buy {
                    kind,
                    at: text(line, "at")?,
                    ships: count(line, "ships")?,
                    into: line.get("into").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
                },
                line,
                &u,
            )?)
        }
        "first" => {
            only(&["player"])?;
            let raw = text(line, "player")?;
            match raw.parse::<u8>() {
                Ok(n) if n >= 1 => Action::First { player: Seat(n - 1) },
                _ => return Err(bad(line, format!("`player:{raw}` is not a player"))),
            }
        }
        "standing" => {
            only(&["auto", "target", "retreat", "screen", "colonies", "revealed"])?;
            let edit = StandingEdit {
                auto: choice(
                    line,
                    "auto",
                    &[("on", true), ("off", false), ("true", true), ("false", false)],
                )?,
                target: choice(
                    line,
                    "target",
                    &[
                        ("focus", TargetRule::Focus),
                        ("big", TargetRule::Big),
                        ("small", TargetRule::Small),
                    ],
                )?,
                retreat: choice(
                    line,
                    "retreat",
                    &[
                        ("never", RetreatRule::Never),
                        ("outgunned", RetreatRule::Outgunned),
                        ("half", RetreatRule::Half),
                    ],
                )?,
                screen: choice(
                    line,
                    "screen",
                    &[("none", ScreenRule::None), ("weak", ScreenRule::Weak)],
                )?,
                colonies: choice(
                    line,
                    "colonies",
                    &[("fire", ColonyRule::Fire), ("hold", ColonyRule::Hold)],
                )?,
                revealed: choice(
                    line,
                    "revealed",
                    &[("hide", RevealedRule::Hide), ("keep", RevealedRule::Keep)],
                )?,
            };
            Action::Standing(edit)
        }
        other => {
            let names = USAGE.names();
            return Err(ParseError {
                message: format!(
                    "`{other}` is not a Space Empires order; the orders are {}",
                    names.join(", ")
                ),
                usage: "see /game help".into(),
            });
        }
    })
}

fn sheet_line(line: &CommandLine) -> Result<Option<usize>, ParseError> {
    Ok(count(line, "line")?.map(|n| n as usize))
}

/// A sheet line as written → its order's text.
fn written_text(written: &Written) -> CommandLine {
    let c = CommandLine::new;
    match written {
        Written::Bid { cp } => c("bid").arg("cp", cp),
        Written::Research { tech, grants } => {
            let l = c("research").arg("tech", tech.key());
            match grants {
                Some(n) => l.arg("grants", n),
                None => l,
            }
        }
        Written::Buy { kind, at, ships, into } => {
            let mut l = c("buy").arg("type", kind.order_word()).arg("at", at);
            if let Some(n) = ships {
                l = l.arg("ships", n);
            }
            if let Some(i) = into {
                l = l.arg("into", i);
            }
            l
        }
        Written::Scrap(ScrapWhat::Unit(u)) => c("scrap").arg("unit", u),
        Written::Scrap(ScrapWhat::At { at, what }) => c("scrap").arg("at", at).arg("what", what.order_word()),
    }
}

/// Typed action → its canonical text (`parse` reads it back).
pub fn unparse(action: &Action) -> CommandLine {
    let c = CommandLine::new;
    let with_line = |l: CommandLine, n: &Option<usize>| match n {
        Some(n) => l.arg("line", n),
        None => l,
    };
    match action {
        Action::Move { units, path, slingshot } => {
            let l = c("move").arg("unit", units.join(",")).arg("path", path.join(","));
            if *slingshot {
                l.arg("slingshot", "yes")
            } else {
                l
            }
        }
        Action::Split { unit, ships } => c("split").arg("unit", unit).arg("ships", ships),
        Action::Merge { unit, into } => c("merge").arg("unit", unit).arg("into", into),
        Action::Colonize { unit } => c("colonize").arg("unit", unit),
        Action::Tow { unit } => c("tow").arg("unit", unit),
        Action::Deposit { unit } => c("deposit").arg("unit", unit),
        Action::Peek { unit, at } => c("peek").arg("unit", unit).arg("at", at),
        Action::Reveal { at } => c("reveal").arg("at", at),
        Action::Upgrade { unit } => c("upgrade").arg("unit", unit),
        Action::Scrap { what, line } => {
            let l = match what {
                ScrapWhat::Unit(u) => c("scrap").arg("unit", u),
                ScrapWhat::At { at, what } => c("scrap").arg("at", at).arg("what", what.order_word()),
            };
            with_line(l, line)
        }
        Action::End => c("end"),
        Action::Battle { at } => c("battle").arg("at", at),
        Action::Screen { unit, ships, damaged } => {
            let l = c("screen").arg("unit", unit);
            let l = match ships {
                Some(n) => l.arg("ships", n),
                None => l,
            };
            if *damaged {
                l.arg("damaged", "yes")
            } else {
                l
            }
        }
        Action::Done => c("done"),
        Action::Fire { unit, at, ships } => {
            let l = c("fire").arg("unit", unit).arg("at", at);
            match ships {
                Some(n) => l.arg("ships", n),
                None => l,
            }
        }
        Action::Retreat { unit, to, ships } => {
            let l = c("retreat").arg("unit", unit).arg("to", to);
            match ships {
                Some(n) => l.arg("ships", n),
                None => l,
            }
        }
        Action::Hold { unit } => c("hold").arg("unit", unit),
        Action::Auto => c("auto"),
        Action::Shift { dir } => c("shift").arg("dir", dir.map_or("random", Dir::key)),
        Action::Detonate { at } => c("detonate").arg("at", at),
        Action::Sheet(edit) => edit.unparse(written_text),
        Action::First { player } => c("first").arg("player", player.0 + 1),
        Action::Standing(e) => {
            let mut l = c("standing");
            if let Some(a) = e.auto {
                l = l.arg("auto", if a { "on" } else { "off" });
            }
            if let Some(t) = e.target {
                l = l.arg("target", t.key());
            }
            if let Some(r) = e.retreat {
                l = l.arg("retreat", r.key());
            }
            if let Some(s) = e.screen {
                l = l.arg("screen", s.key());
            }
            if let Some(c) = e.colonies {
                l = l.arg("colonies", c.key());
            }
            if let Some(r) = e.revealed {
                l = l.arg("revealed", r.key());
            }
            l
        }
    }
}

/// The `/empires` commands, for registration and help.
pub fn commands() -> Vec<CommandSpec> {
    use ParamKind::{Number, Player, Text};
    let unit = ParamSpec::new("unit", "Your counter, e.g. A17 (or just 17)", Text, true);
    let line = ParamSpec::new(
        "line",
        "Replace this line of your economic sheet (from 1)",
        Number,
        false,
    );
    let ships = ParamSpec::new("ships", "How many ships of the group (default: all)", Number, false);
    let spec = |name, description, params| CommandSpec {
        name,
        description,
        params,
    };
    vec![
        spec(
            "move",
            "Movement: move counters together along a path of adjacent hexes",
            vec![
                ParamSpec::new("unit", "Your counters, e.g. A17 or A17,A3", Text, true),
                ParamSpec::new("path", "Hexes in order, e.g. F5,G5", Text, true),
                ParamSpec::new(
                    "slingshot",
                    "yes: sling shot round the first revealed Black Hole on the path (+1 hex, greater risk)",
                    Text,
                    false,
                ),
            ],
        ),
        spec(
            "split",
            "Movement: some ships leave a group as a new counter",
            vec![
                unit.clone(),
                ParamSpec::new("ships", "How many ships leave", Number, true),
            ],
        ),
        spec(
            "merge",
            "Movement: join two groups of one type and technology in one hex",
            vec![unit.clone(), ParamSpec::new("into", "The group to join", Text, true)],
        ),
        spec(
            "colonize",
            "Movement: a Colony Ship begins a colony on its planet",
            vec![unit.clone()],
        ),
        spec(
            "tow",
            "Your turn: a Miner takes the Minerals or Space Wreck of its hex",
            vec![unit.clone()],
        ),
        spec(
            "deposit",
            "Your turn: a towing Miner leaves its marker at your colony in its hex",
            vec![unit.clone()],
        ),
        spec(
            "peek",
            "Movement: a Cruiser with Exploration looks at an adjacent face-down marker",
            vec![unit.clone(), ParamSpec::new("at", "The adjacent hex", Text, true)],
        ),
        spec(
            "reveal",
            "Movement: turn a marker you peeked at face up for everyone",
            vec![ParamSpec::new("at", "The hex", Text, true)],
        ),
        spec(
            "upgrade",
            "Movement: refit a group at your Ship Yard to your technology",
            vec![unit.clone()],
        ),
        spec(
            "scrap",
            "Scuttle a counter, a Base or a Ship Yard (your movement or combat, or a sheet line)",
            vec![
                ParamSpec::new("unit", "Your counter", Text, false),
                ParamSpec::new("at", "A hex with your Base or Ship Yard", Text, false),
                ParamSpec::new("what", "base or yard", Text, false),
                line.clone(),
            ],
        ),
        spec("end", "Movement: end your movement; your combat follows", vec![]),
        spec(
            "battle",
            "Combat: fight here next (in movement: your cloaked Raiders here attack)",
            vec![ParamSpec::new("at", "A hex where a battle is due", Text, true)],
        ),
        spec(
            "screen",
            "Combat: keep ships out of this firing round",
            vec![
                unit.clone(),
                ships.clone(),
                ParamSpec::new("damaged", "yes: the damaged ship among them, split off", Text, false),
            ],
        ),
        spec("done", "Combat: no more screening this round", vec![]),
        spec(
            "fire",
            "Combat: ships of a group fire, one die each",
            vec![
                unit.clone(),
                ParamSpec::new("at", "An enemy counter, base, yard, or colony", Text, true),
                ships.clone(),
            ],
        ),
        spec(
            "retreat",
            "Combat (from firing round 2): ships retreat instead of firing",
            vec![unit.clone(), ParamSpec::new("to", "An adjacent hex", Text, true), ships],
        ),
        spec("hold", "Combat: a group does not fire at the colony", vec![unit]),
        spec(
            "auto",
            "Combat: the rest of this prompt by your standing orders",
            vec![],
        ),
        spec(
            "detonate",
            "Your mines: one mine destroys one ship of this enemy counter",
            vec![ParamSpec::new("at", "An enemy counter in your minefield", Text, true)],
        ),
        spec(
            "shift",
            "Lost in Space: move the lost stack one hex",
            vec![ParamSpec::new("dir", "n, ne, se, s, sw or nw", Text, true)],
        ),
        spec(
            "bid",
            "Economic sheet: your bid for player order (paid win or lose)",
            vec![ParamSpec::new("cp", "CP", Number, true), line.clone()],
        ),
        spec(
            "research",
            "Economic sheet: the next level of a technology",
            vec![
                ParamSpec::new(
                    "tech",
                    "size, attack, defense, tactics, move, yard, terraform or explore",
                    Text,
                    true,
                ),
                ParamSpec::new(
                    "grants",
                    "Unpredictable research: grants of 5 CP, a die each",
                    Number,
                    false,
                ),
                line.clone(),
            ],
        ),
        spec(
            "buy",
            "Economic sheet: ships at your yards; decoys, bases, yards at colonies",
            vec![
                ParamSpec::new(
                    "type",
                    "sc, dd, ca, bc, bb, dn, colony, miner, decoy, base, yard; advanced: pipeline, mines, sweeper",
                    Text,
                    true,
                ),
                ParamSpec::new("at", "The hex", Text, true),
                ParamSpec::new("ships", "How many (default 1)", Number, false),
                ParamSpec::new("into", "Add to this group of yours there", Text, false),
                line,
            ],
        ),
        spec(
            "first",
            "You won the bid: who plays first next round",
            vec![ParamSpec::new("player", "A player", Player, true)],
        ),
        spec(
            "standing",
            "Your standing combat orders (private; any time)",
            vec![
                ParamSpec::new("auto", "on = fire at will: no combat prompts", Text, false),
                ParamSpec::new("target", "focus, big or small", Text, false),
                ParamSpec::new("retreat", "never, outgunned or half", Text, false),
                ParamSpec::new("screen", "none or weak", Text, false),
                ParamSpec::new("colonies", "fire or hold", Text, false),
                ParamSpec::new(
                    "revealed",
                    "hide or keep groups revealed in combat, at your colonies",
                    Text,
                    false,
                ),
            ],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_reads_back() {
        let lines = [
            "move unit:A17,A3 path:F5,G5",
            "split unit:A17 ships:2",
            "merge unit:A17 into:A3",
            "colonize unit:A4",
            "tow unit:A9",
            "peek unit:A2 at:F5",
            "reveal at:F5",
            "upgrade unit:A2",
            "scrap unit:A2",
            "scrap at:A4 what:yard line:2",
            "end",
            "battle at:F5",
            "screen unit:A2 ships:1",
            "done",
            "fire unit:A2 at:B17 ships:1",
            "fire unit:A2 at:colony",
            "retreat unit:A2 to:E5",
            "hold unit:A2",
            "auto",
            "shift dir:ne",
            "shift dir:random",
            "bid cp:3",
            "research tech:size line:1",
            "buy type:ca at:A4 ships:2 into:A5",
            "remove line:2",
            "clear",
            "ready",
            "unready",
            "first player:2",
            "standing auto:on target:big retreat:outgunned screen:weak colonies:hold",
        ];
        for text in lines {
            let line = CommandLine::parse(text).unwrap();
            let action = parse(&line).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(unparse(&action), line, "{text}");
        }
    }

    #[test]
    fn shape_errors_explain_themselves() {
        let err = |t: &str| parse(&CommandLine::parse(t).unwrap()).unwrap_err().to_string();
        assert!(err("shift dir:up").contains("not one of n, ne"));
        assert!(err("buy type:frigate at:A4").contains("not one of sc"));
        assert!(err("research tech:lasers").contains("not one of size"));
        assert!(err("split unit:A2").contains("needs the option `ships`"));
        assert!(err("scrap unit:A2 at:A4").contains("either a counter"));
        assert!(err("fire unit:A2 at:B3 ships:0").contains("at least 1"));
        assert!(err("warp unit:A2").contains("not a Space Empires order"));
    }

    #[test]
    fn commands_fit_discord() {
        let cmds = commands();
        assert!(cmds.len() <= 25);
        for c in &cmds {
            assert!(c.description.len() <= 100, "{}", c.name);
            assert!(parse(&CommandLine::new(c.name)).is_ok() || !c.params.is_empty() || c.name == "first");
        }
    }
}
