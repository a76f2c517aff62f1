//! The text form of slash commands, as Discord displays them:
//! `/game new game:hyperspace`, `/hyperspace depart from:Algol ships:5`.
//! Used by the terminal playtest.

use crate::engine::{CommandLine, GameId};
use crate::games::GameKind;
use crate::service::Request;

/// Parse one slash command into a request.
pub fn parse_slash(text: &str) -> Result<Request, String> {
    let text = text.trim();
    let body = text
        .strip_prefix('/')
        .ok_or_else(|| format!("expected a slash command like `/game join`, found `{text}`"))?;
    let (group, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if group == "mygames" {
        return Err("`/mygames` is not available in the terminal playtest yet".into());
    }
    if group == "game" {
        let line = CommandLine::parse(rest).map_err(|e| e.to_string())?;
        let game = game_arg(&line)?;
        let allowed: &[&str] = match line.name.as_str() {
            "new" => &["game", "seed", "options"],
            "history" => &["game", "phase"],
            "rules" => &["game"],
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
            other => Err(format!(
                "unknown `/game {other}`; try new, join, leave, start, status, board, rules or history"
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

    #[test]
    fn parses_game_and_orders() {
        assert_eq!(parse_slash("/game join").unwrap(), Request::Join { game: None });
        assert_eq!(
            parse_slash("/game join game:4").unwrap(),
            Request::Join { game: Some(GameId(4)) }
        );
        match parse_slash("/hyperspace depart from:Algol ships:5 game:2").unwrap() {
            Request::Order { game, line } => {
                assert_eq!(game, Some(GameId(2)));
                assert_eq!(line.to_string(), "depart from:Algol ships:5");
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_slash("game join")
            .unwrap_err()
            .contains("expected a slash command"));
        assert!(parse_slash("/chess move").unwrap_err().contains("unknown command"));
        assert!(parse_slash("/game history phase:x")
            .unwrap_err()
            .contains("not a whole number"));
    }
}
