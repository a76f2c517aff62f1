//! The text form of slash commands, as Discord displays them:
//! `/game new game:hyperspace`, `/hyperspace depart from:Algol ships:5`.
//! Used by the terminal playtest.

use crate::engine::{CommandLine, GameId, Seat, UserId};
use crate::games::GameKind;
use crate::service::{parse_duration, parse_kind_deadlines, parse_time_of_day, Missed, Request, SettingsChange};

/// Parse one slash command into a request. `user` finds the user an
/// option such as `player:@dave` names.
pub fn parse_slash(text: &str, user: &dyn Fn(&str) -> UserId) -> Result<Request, String> {
    let text = text.trim();
    let body = text
        .strip_prefix('/')
        .ok_or_else(|| format!("expected a slash command like `/game join`, found `{text}`"))?;
    let (group, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if group == "mygames" {
        return Ok(Request::MyGames);
    }
    if group == "game" {
        let line = CommandLine::parse(rest).map_err(|e| e.to_string())?;
        let game = game_arg(&line)?;
        let allowed: &[&str] = match line.name.as_str() {
            "new" => &["game", "seed", "options"],
            "history" | "rollback" => &["game", "phase"],
            "rules" => &["game"],
            "extend" => &["game", "by"],
            "replace" => &["game", "seat", "player"],
            "kick" => &["game", "seat"],
            "disorder" => &["game", "seat", "on"],
            "settings" => &[
                "game",
                "deadline",
                "reminders",
                "missed",
                "decision_deadlines",
                "time_of_day",
                "auto_resolve",
            ],
            "reminders" => &["game", "mute", "points"],
            _ => &["game"],
        };
        line.only(allowed, "see /game rules").map_err(|e| e.to_string())?;
        return match line.name.as_str() {
            "new" => {
                let key = line.get("game").ok_or("`/game new` needs `game:` (hyperspace)")?;
                let kind =
                    GameKind::from_key(key).ok_or_else(|| format!("unknown game `{key}`; known: {}", known()))?;
                let seed = match line.get("seed") {
                    Some(s) => Some(
                        s.parse::<u64>()
                            .map_err(|_| format!("`seed:{s}` is not a whole number"))?,
                    ),
                    None => None,
                };
                let options = match line.get("options") {
                    Some(o) => Some(serde_json::from_str(o).map_err(|e| format!("`options` is not JSON: {e}"))?),
                    None => None,
                };
                Ok(Request::New { kind, seed, options })
            }
            "join" => Ok(Request::Join { game }),
            "leave" => Ok(Request::Leave { game }),
            "start" => Ok(Request::Start { game }),
            "status" => Ok(Request::Status { game }),
            "board" => Ok(Request::Board { game }),
            "rules" => {
                let kind = line.get("game").and_then(GameKind::from_key);
                Ok(Request::Rules { kind, game })
            }
            "history" => {
                let phase = match line.get("phase") {
                    Some(p) => Some(
                        p.parse::<u32>()
                            .map_err(|_| format!("`phase:{p}` is not a whole number"))?,
                    ),
                    None => None,
                };
                Ok(Request::History { game, phase })
            }
            "pause" => Ok(Request::Pause { game }),
            "resume" => Ok(Request::Resume { game }),
            "force" => Ok(Request::Force { game }),
            "undo" => Ok(Request::Undo { game }),
            "watch" => Ok(Request::Watch { game }),
            "unwatch" => Ok(Request::Unwatch { game }),
            "log" => Ok(Request::Log { game }),
            "extend" => {
                let by = line.get("by").ok_or("`/game extend` needs `by:` (e.g. `by:12h`)")?;
                Ok(Request::Extend {
                    game,
                    by_ms: parse_duration(by)?,
                })
            }
            "rollback" => {
                let p = line.get("phase").ok_or("`/game rollback` needs `phase:`")?;
                let phase = p
                    .parse::<u32>()
                    .map_err(|_| format!("`phase:{p}` is not a whole number"))?;
                Ok(Request::Rollback { game, phase })
            }
            "replace" => {
                let seat = seat_arg(&line)?;
                let who = line.get("player").ok_or("`/game replace` needs `player:@name`")?;
                let name = who.trim_start_matches('@').to_string();
                if name.is_empty() {
                    return Err("`player:` needs a name, like `player:@dave`".into());
                }
                Ok(Request::Replace {
                    game,
                    seat,
                    user: user(&name),
                    name,
                })
            }
            "kick" => Ok(Request::Kick {
                game,
                seat: seat_arg(&line)?,
            }),
            "disorder" => {
                let on = match line.get("on").map(str::to_ascii_lowercase).as_deref() {
                    Some("true" | "on" | "yes") => true,
                    Some("false" | "off" | "no") => false,
                    _ => return Err("`/game disorder` needs `on:true` or `on:false`".into()),
                };
                Ok(Request::Disorder {
                    game,
                    seat: seat_arg(&line)?,
                    on,
                })
            }
            "ready" => Ok(Request::Ready { game }),
            "reminders" => Ok(Request::Reminders {
                game,
                mute: line.get("mute").map(|v| flag(v, "mute")).transpose()?,
                points: line.get("points").map(points).transpose()?,
            }),
            "settings" => {
                let missed = match line.get("missed") {
                    None => None,
                    Some(m) => Some(Missed::from_key(m).ok_or("`missed:` is `default` or `wait`")?),
                };
                Ok(Request::Settings {
                    game,
                    change: SettingsChange {
                        deadline_ms: line.get("deadline").map(parse_duration).transpose()?,
                        reminders_ms: line.get("reminders").map(points).transpose()?,
                        on_missed: missed,
                        deadline_by_kind: line
                            .get("decision_deadlines")
                            .map(parse_kind_deadlines)
                            .transpose()?
                            .unwrap_or_default(),
                        time_of_day: line.get("time_of_day").map(parse_time_of_day).transpose()?,
                        auto_resolve: line.get("auto_resolve").map(|v| flag(v, "auto_resolve")).transpose()?,
                    },
                })
            }
            other => Err(format!(
                "unknown `/game {other}`; try new, join, leave, start, status, board, rules, history, log, watch, unwatch, pause, resume, extend, force, undo, rollback, replace, kick, disorder, settings, reminders or ready"
            )),
        };
    }
    let Some(_kind) = GameKind::from_key(group) else {
        return Err(format!(
            "unknown command `/{group}`; try /game or a game's name ({})",
            known()
        ));
    };
    let mut line = CommandLine::parse(rest).map_err(|e| e.to_string())?;
    let game = game_arg(&line)?;
    line.args.retain(|(k, _)| k != "game");
    Ok(Request::Order { game, line })
}

/// `seat:2` (seats count from 1, as players see them).
fn seat_arg(line: &CommandLine) -> Result<Seat, String> {
    let s = line.get("seat").ok_or("this needs `seat:` (1 = the first seat)")?;
    match s.parse::<u8>() {
        Ok(n) if n >= 1 => Ok(Seat(n - 1)),
        _ => Err(format!("`seat:{s}` is not a seat number (1, 2, ...)")),
    }
}

/// `true` / `false` (also on/off, yes/no).
fn flag(v: &str, name: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" => Ok(true),
        "false" | "off" | "no" => Ok(false),
        _ => Err(format!("`{name}:` is `true` or `false`, not `{v}`")),
    }
}

/// Reminder points: `24h,2h`, or `off`.
fn points(v: &str) -> Result<Vec<i64>, String> {
    if v.eq_ignore_ascii_case("off") {
        return Ok(vec![]);
    }
    v.split(',').map(parse_duration).collect()
}

fn game_arg(line: &CommandLine) -> Result<Option<GameId>, String> {
    match line.get("game") {
        None => Ok(None),
        // For `new` (and `rules`), `game:` names a game system.
        Some(g) if line.name == "new" || GameKind::from_key(g).is_some() => Ok(None),
        Some(g) => g
            .trim_start_matches('#')
            .parse::<i64>()
            .map(|n| Some(GameId(n)))
            .map_err(|_| format!("`game:{g}` is not a game number")),
    }
}

fn known() -> String {
    GameKind::ALL.iter().map(|k| k.key()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_slash_t(text: &str) -> Result<Request, String> {
        parse_slash(text, &|name: &str| UserId(name.len() as u64))
    }

    #[test]
    fn parses_game_and_orders() {
        assert_eq!(parse_slash_t("/game join").unwrap(), Request::Join { game: None });
        assert_eq!(
            parse_slash_t("/game join game:4").unwrap(),
            Request::Join { game: Some(GameId(4)) }
        );
        match parse_slash_t("/hyperspace depart from:Algol ships:5 game:2").unwrap() {
            Request::Order { game, line } => {
                assert_eq!(game, Some(GameId(2)));
                assert_eq!(line.to_string(), "depart from:Algol ships:5");
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_slash_t("game join")
            .unwrap_err()
            .contains("expected a slash command"));
        assert!(parse_slash_t("/chess move").unwrap_err().contains("unknown command"));
        assert!(parse_slash_t("/game history phase:x")
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn parses_host_tools() {
        assert_eq!(
            parse_slash_t("/game replace seat:2 player:@dave").unwrap(),
            Request::Replace {
                game: None,
                seat: Seat(1),
                user: UserId(4),
                name: "dave".into()
            }
        );
        assert_eq!(
            parse_slash_t("/game disorder seat:1 on:true game:3").unwrap(),
            Request::Disorder {
                game: Some(GameId(3)),
                seat: Seat(0),
                on: true
            }
        );
        assert_eq!(
            parse_slash_t("/game rollback phase:4").unwrap(),
            Request::Rollback { game: None, phase: 4 }
        );
        assert_eq!(
            parse_slash_t("/game extend by:12h").unwrap(),
            Request::Extend {
                game: None,
                by_ms: 12 * 3_600_000
            }
        );
        assert_eq!(parse_slash_t("/game undo").unwrap(), Request::Undo { game: None });
        assert!(parse_slash_t("/game kick seat:0")
            .unwrap_err()
            .contains("not a seat number"));
        assert!(parse_slash_t("/game disorder seat:1").unwrap_err().contains("on:true"));
        assert!(parse_slash_t("/game extend by:soon")
            .unwrap_err()
            .contains("not a duration"));
    }

    #[test]
    fn parses_async_play_commands() {
        assert_eq!(parse_slash_t("/mygames").unwrap(), Request::MyGames);
        assert_eq!(
            parse_slash_t("/game ready game:2").unwrap(),
            Request::Ready { game: Some(GameId(2)) }
        );
        assert_eq!(
            parse_slash_t("/game reminders points:12h,1h").unwrap(),
            Request::Reminders {
                game: None,
                mute: None,
                points: Some(vec![12 * 3_600_000, 3_600_000])
            }
        );
        assert_eq!(
            parse_slash_t("/game reminders mute:true").unwrap(),
            Request::Reminders {
                game: None,
                mute: Some(true),
                points: None
            }
        );
        match parse_slash_t(
            "/game settings auto_resolve:false time_of_day:18:00+02:00 decision_deadlines:combat-card=2h",
        )
        .unwrap()
        {
            Request::Settings { game: None, change } => {
                assert_eq!(change.auto_resolve, Some(false));
                assert_eq!(change.time_of_day.unwrap().unwrap().to_string(), "18:00+02:00");
                assert_eq!(
                    change.deadline_by_kind,
                    vec![("combat-card".to_string(), Some(2 * 3_600_000))]
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_slash_t("/game reminders mute:maybe")
            .unwrap_err()
            .contains("true"));
        assert!(parse_slash_t("/game settings missed:later")
            .unwrap_err()
            .contains("wait"));
        assert!(parse_slash_t("/game settings time_of_day:6pm")
            .unwrap_err()
            .contains("HH:MM"));
    }
}
