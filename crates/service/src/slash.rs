//! The text form of slash commands, as Discord displays them:
//! `/game new game:hyperspace`, `/hyperspace depart from:Algol ships:5`.
//! The terminal playtest reads its lines with it; a test holds it to
//! what Discord's typed options give.

use crate::grammar::{self, read_text};
use crate::Request;
use orrery_engine::{CommandLine, GameId, UserId};
use orrery_games::GameKind;

/// Parse one slash command into a request. `user` finds the user an
/// option such as `player:@dave` names. `/game`, `/host` and `/mygames`
/// go through the shared grammar, as on Discord.
pub fn parse_slash(text: &str, user: &dyn Fn(&str) -> UserId) -> Result<Request, String> {
    let text = text.trim();
    let body = text
        .strip_prefix('/')
        .ok_or_else(|| format!("expected a slash command like `/game join`, found `{text}`"))?;
    let (group, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if group == grammar::MYGAMES.name {
        let args = if rest.trim().is_empty() {
            vec![]
        } else {
            CommandLine::parse(&format!("{group} {rest}"))
                .map_err(|e| e.to_string())?
                .args
        };
        return grammar::MYGAMES.parse(&read_text(&grammar::MYGAMES, &args, user)?);
    }
    if let Some(top) = grammar::Top::from_name(group) {
        let line = CommandLine::parse(rest).map_err(|e| e.to_string())?;
        let values = match grammar::subcommand(top, &line.name) {
            Some(sub) => read_text(sub, &line.args, user)?,
            None => vec![],
        };
        return grammar::parse_command(top, &line.name, &values);
    }
    let Some((kind, command)) = GameKind::from_command(group) else {
        return Err(format!(
            "unknown command `/{group}`; try /game, /sheet, /host or a game's name ({})",
            known()
        ));
    };
    let mut line = CommandLine::parse(rest).map_err(|e| e.to_string())?;
    // An order of the game under another of its commands: say which (the
    // game's own parser answers for a name it does not know at all).
    if !command.specs.iter().any(|s| s.name == line.name) && kind.commands().iter().any(|s| s.name == line.name) {
        return Err(format!(
            "`{}` is given with `/{} {}`, not `/{group}`.",
            line.name,
            kind.command_of(&line.name),
            line.name
        ));
    }
    let game = game_arg(&line)?;
    line.args.retain(|(k, _)| k != "game");
    Ok(Request::Order {
        game,
        kind: Some(kind),
        line,
    })
}

/// An order's `game:3` (or `game:#3`).
fn game_arg(line: &CommandLine) -> Result<Option<GameId>, String> {
    match line.get("game") {
        None => Ok(None),
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
    use crate::SeatRef;
    use orrery_engine::Seat;

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
            Request::Order { game, kind, line } => {
                assert_eq!(game, Some(GameId(2)));
                assert_eq!(
                    kind,
                    Some(GameKind::Hyperspace),
                    "the order says which game's command gave it"
                );
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
            parse_slash_t("/host replace seat:2 player:@dave").unwrap(),
            Request::Replace {
                game: None,
                seat: SeatRef::Number(Seat(1)),
                user: UserId(4),
                name: "dave".into()
            }
        );
        assert_eq!(
            parse_slash_t("/host disorder seat:1 on:true game:3").unwrap(),
            Request::Disorder {
                game: Some(GameId(3)),
                seat: SeatRef::Number(Seat(0)),
                on: true
            }
        );
        assert_eq!(
            parse_slash_t("/host kick seat:@alice").unwrap(),
            Request::Kick {
                game: None,
                seat: SeatRef::Name("alice".into())
            }
        );
        assert_eq!(parse_slash_t("/host pause").unwrap(), Request::Pause { game: None });
        assert!(parse_slash_t("/game pause").unwrap_err().contains("/host pause"));
        assert_eq!(
            parse_slash_t("/game new game:starlanes options:\"rounds:12 map:random\" seed:3").unwrap(),
            Request::New {
                kind: GameKind::Starlanes,
                seed: Some(3),
                options: Some(serde_json::json!({"rounds": 12, "map": "random"})),
                private: None
            }
        );
        assert_eq!(
            parse_slash_t("/host rollback phase:4").unwrap(),
            Request::Rollback { game: None, phase: 4 }
        );
        assert_eq!(
            parse_slash_t("/host extend by:12h").unwrap(),
            Request::Extend {
                game: None,
                by_ms: 12 * 3_600_000
            }
        );
        assert_eq!(parse_slash_t("/host undo").unwrap(), Request::Undo { game: None });
        assert!(parse_slash_t("/host kick seat:0")
            .unwrap_err()
            .contains("not a seat number"));
        assert!(parse_slash_t("/host disorder seat:1").unwrap_err().contains("on:true"));
        assert!(parse_slash_t("/host extend by:soon")
            .unwrap_err()
            .contains("not a duration"));
    }

    #[test]
    fn parses_async_play_commands() {
        assert_eq!(parse_slash_t("/mygames").unwrap(), Request::MyGames);
        assert_eq!(
            parse_slash_t("/sheet ready game:2").unwrap(),
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
            "/host settings auto_resolve:false time_of_day:18:00+02:00 decision_deadlines:combat-card=2h",
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
        assert!(parse_slash_t("/host settings missed:later")
            .unwrap_err()
            .contains("wait"));
        assert!(parse_slash_t("/host settings time_of_day:6pm")
            .unwrap_err()
            .contains("HH:MM"));
    }
}
