//! `/game …` and `/mygames`, built at start-up from the shared grammar
//! ([`crate::service::grammar`]): the same table and parser the terminal
//! uses, so the two never drift. This module only types Discord's options
//! and runs the request.

use super::respond::{actor_of, clip, run_request};
use super::{ApplicationContext, Context, Data, Error};
use crate::engine::UserId;
use crate::games::GameKind;
use crate::service::grammar::{self, Complete, OptionKind, OptionSpec, OptionValue, Subcommand, Wire};
use crate::service::{Place, ServiceError};
use crate::store::GameRow;
use poise::serenity_prelude as serenity;
use poise::BoxFuture;
use std::borrow::Cow;

/// Discord shows at most this many autocomplete suggestions.
pub const AUTOCOMPLETE_MAX: usize = 25;

/// The label of a game in suggestions: `#3 Hyperspace (active)`.
pub fn game_label(row: &GameRow) -> String {
    format!("{} {} ({})", row.id, row.kind.name(), row.status)
}

/// Suggestions for a `game` option: (label, id), open games first, then
/// newest first, matching what was typed (a number or part of the label).
pub fn game_suggestions(rows: &[GameRow], kind: Option<GameKind>, partial: &str) -> Vec<(String, i64)> {
    let needle = partial.trim().trim_start_matches('#').to_lowercase();
    let mut rows: Vec<&GameRow> = rows
        .iter()
        .filter(|r| kind.is_none_or(|k| r.kind == k))
        .filter(|r| {
            needle.is_empty()
                || r.id.0.to_string().starts_with(&needle)
                || game_label(r).to_lowercase().contains(&needle)
        })
        .collect();
    rows.sort_by_key(|r| (!r.status.is_open(), std::cmp::Reverse(r.id)));
    rows.dedup_by_key(|r| r.id);
    rows.into_iter()
        .take(AUTOCOMPLETE_MAX)
        .map(|r| (clip(&game_label(r), 100), r.id.0))
        .collect()
}

/// The games a `game` option may name: in a DM, the asker's own games; in
/// a channel, the games of that channel (so lobbies one has not joined yet
/// are offered too).
pub async fn candidate_games(ctx: Context<'_>) -> anyhow::Result<Vec<GameRow>> {
    let actor = actor_of(ctx);
    let service = &ctx.data().service;
    Ok(match actor.place {
        Place::Dm => service
            .games_of(actor.user)
            .await?
            .into_iter()
            .map(|(row, _seat)| row)
            .collect(),
        Place::Channel { channel, .. } => service.store().games_in_channel(channel).await?,
    })
}

/// Autocomplete for a `game` option, optionally only games of one system.
pub async fn complete_game(
    ctx: Context<'_>,
    partial: &str,
    kind: Option<GameKind>,
) -> serenity::CreateAutocompleteResponse {
    let rows = match candidate_games(ctx).await {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!("game autocomplete failed: {e:#}");
            vec![]
        }
    };
    let choices = game_suggestions(&rows, kind, partial)
        .into_iter()
        .map(|(label, id)| serenity::AutocompleteChoice::new(label, id))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

fn autocomplete_game<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(complete_game(ctx.into(), partial, None))
}

/// `/game`, built from the shared grammar ([`grammar::GAME_SUBCOMMANDS`]):
/// one subcommand per entry, its options typed from their meaning.
pub fn game() -> poise::Command<Data, Error> {
    poise::Command {
        name: grammar::GAME.into(),
        qualified_name: grammar::GAME.into(),
        identifying_name: grammar::GAME.into(),
        source_code_name: "game".into(),
        description: Some(grammar::GAME_DESCRIPTION.into()),
        slash_action: Some(parent_action),
        subcommands: grammar::GAME_SUBCOMMANDS
            .iter()
            .map(|sub| command(sub, Some(grammar::GAME)))
            .collect(),
        subcommand_required: true,
        ..Default::default()
    }
}

/// `/mygames`: your open games, what each waits on, the deadline.
pub fn mygames() -> poise::Command<Data, Error> {
    command(&grammar::MYGAMES, None)
}

/// A command (or, under `parent`, a subcommand) from its grammar entry,
/// which it keeps in `custom_data` for [`run_action`].
fn command(sub: &'static Subcommand, parent: Option<&str>) -> poise::Command<Data, Error> {
    let (qualified, identifying) = match parent {
        Some(p) => (format!("{p} {}", sub.name), format!("{p}_{}", sub.name)),
        None => (sub.name.to_string(), sub.name.to_string()),
    };
    poise::Command {
        name: sub.name.into(),
        qualified_name: qualified.into(),
        identifying_name: identifying.into(),
        source_code_name: "game_command".into(),
        description: Some(sub.description.into()),
        slash_action: Some(run_action),
        parameters: sub.options.iter().map(parameter).collect(),
        custom_data: Box::new(sub),
        ..Default::default()
    }
}

fn parameter(o: &'static OptionSpec) -> poise::CommandParameter<Data, Error> {
    poise::CommandParameter {
        name: o.name.into(),
        name_localizations: Cow::Borrowed(&[]),
        description: Some(o.description.into()),
        description_localizations: Cow::Borrowed(&[]),
        required: o.required,
        channel_types: None,
        // Discord numbers the choices; `values` turns the number back into the word.
        choices: o
            .kind
            .choices()
            .into_iter()
            .map(|name| poise::CommandParameterChoice {
                name: name.into(),
                localizations: Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect(),
        type_setter: Some(type_setter(o.kind)),
        autocomplete_callback: o.kind.autocomplete().map(|complete| match complete {
            Complete::Game => autocomplete_game as _,
        }),
        __non_exhaustive: (),
    }
}

/// The Discord option type of a kind of option (with its bounds).
fn type_setter(kind: OptionKind) -> fn(serenity::CreateCommandOption) -> serenity::CreateCommandOption {
    use serenity::CommandOptionType as T;
    if !kind.choices().is_empty() {
        return |o| o.kind(T::Integer);
    }
    match kind {
        OptionKind::Game => |o| integer_option(o, OptionKind::Game),
        OptionKind::Seat => |o| integer_option(o, OptionKind::Seat),
        OptionKind::Phase => |o| integer_option(o, OptionKind::Phase),
        OptionKind::Seed => |o| integer_option(o, OptionKind::Seed),
        _ => match kind.wire() {
            Wire::Boolean => |o| o.kind(T::Boolean),
            Wire::User => |o| o.kind(T::User),
            Wire::Text | Wire::Integer => |o| o.kind(T::String),
        },
    }
}

fn integer_option(o: serenity::CreateCommandOption, kind: OptionKind) -> serenity::CreateCommandOption {
    let o = o.kind(serenity::CommandOptionType::Integer);
    match kind.bounds() {
        Some((lo, hi)) => o.min_number_value(lo as f64).max_number_value(hi as f64),
        None => o,
    }
}

/// Never runs: Discord only invokes the subcommands.
fn parent_action(ctx: ApplicationContext<'_>) -> BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        Err(poise::FrameworkError::new_command(
            ctx.into(),
            anyhow::anyhow!("`/{}` needs a subcommand", ctx.command().name),
        ))
    })
}

/// An interaction's options as the grammar's values: fixed choices back
/// to their words, users with their display names.
pub fn values(sub: &Subcommand, args: &[serenity::ResolvedOption<'_>]) -> Vec<(String, OptionValue)> {
    args.iter()
        .filter_map(|o| {
            let value = match &o.value {
                serenity::ResolvedValue::String(s) => OptionValue::Text(s.to_string()),
                serenity::ResolvedValue::Integer(i) => {
                    let choices = sub.option(o.name).map(|spec| spec.kind.choices()).unwrap_or_default();
                    if choices.is_empty() {
                        OptionValue::Integer(*i)
                    } else {
                        // An index Discord would not send stays a number, for the parser to refuse.
                        usize::try_from(*i)
                            .ok()
                            .and_then(|i| choices.get(i))
                            .map_or(OptionValue::Integer(*i), |c| OptionValue::Text(c.to_string()))
                    }
                }
                serenity::ResolvedValue::Boolean(b) => OptionValue::Boolean(*b),
                serenity::ResolvedValue::User(user, _) => OptionValue::User {
                    id: UserId(user.id.get()),
                    name: user.global_name.clone().unwrap_or_else(|| user.name.clone()),
                },
                _ => return None,
            };
            Some((o.name.to_string(), value))
        })
        .collect()
}

/// Every `/game` subcommand and `/mygames`: parse with the shared grammar, run.
fn run_action(ctx: ApplicationContext<'_>) -> BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        let run = async {
            let sub = ctx
                .command()
                .custom_data
                .downcast_ref::<&'static Subcommand>()
                .ok_or_else(|| anyhow::anyhow!("command `{}` has no grammar entry", ctx.command().qualified_name))?;
            let request = sub
                .parse(&values(sub, ctx.args))
                .map_err(|e| ServiceError::User(e.into()))?;
            run_request(ctx.into(), request).await
        };
        run.await.map_err(|e| poise::FrameworkError::new_command(ctx.into(), e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameId;
    use crate::engine::{GameConfig, UserId};
    use crate::store::GameStatus;

    fn row(id: i64, status: GameStatus) -> GameRow {
        GameRow {
            id: GameId(id),
            kind: GameKind::Hyperspace,
            channel_id: 10,
            guild_id: Some(1),
            host: UserId(1),
            status,
            config: GameConfig::new(3, 1),
            state: None,
            seq: 0,
            created_at: 0,
            updated_at: 0,
            settings: serde_json::json!({}),
        }
    }

    /// The subcommand `sub` of `/game` with these options, as Discord sends
    /// it (choices as numbers, users resolved), read into grammar values.
    fn discord_values(sub: &str, options: serde_json::Value) -> Vec<(String, OptionValue)> {
        let data: serenity::CommandData = serde_json::from_value(serde_json::json!({
            "id": "1", "name": "game", "type": 1,
            "options": [{"name": sub, "type": 1, "options": options}],
            "resolved": {"users": {"42": {
                "id": "42", "username": "dave", "global_name": "Dave", "discriminator": "0", "avatar": null
            }}}
        }))
        .unwrap();
        let top = data.options();
        let serenity::ResolvedValue::SubCommand(args) = &top[0].value else {
            panic!("{top:?}")
        };
        values(grammar::game_subcommand(sub).unwrap(), args)
    }

    /// Discord's options and the terminal's text give the same request:
    /// one table, one parser.
    #[test]
    fn discord_and_the_terminal_make_the_same_requests() {
        use serde_json::json;
        let user = |name: &str| if name == "Dave" { UserId(42) } else { UserId(0) };
        let cases = [
            (
                "new",
                json!([{"name": "game", "type": 4, "value": 1}, {"name": "seed", "type": 4, "value": 7}]),
                "/game new game:starlanes seed:7",
            ),
            (
                "settings",
                json!([
                    {"name": "game", "type": 4, "value": 3},
                    {"name": "deadline", "type": 3, "value": "24h"},
                    {"name": "missed", "type": 4, "value": 1},
                    {"name": "auto_resolve", "type": 5, "value": false},
                    {"name": "time_of_day", "type": 3, "value": "18:00+02:00"}
                ]),
                "/game settings game:3 deadline:24h missed:wait auto_resolve:false time_of_day:18:00+02:00",
            ),
            (
                "replace",
                json!([{"name": "seat", "type": 4, "value": 2}, {"name": "player", "type": 6, "value": "42"}]),
                "/game replace seat:2 player:@Dave",
            ),
            (
                "history",
                json!([{"name": "phase", "type": 4, "value": 99_999_999_999_i64}]),
                "/game history phase:99999999999",
            ),
            (
                "rules",
                json!([{"name": "system", "type": 4, "value": 0}]),
                "/game rules system:hyperspace",
            ),
            (
                "reminders",
                json!([{"name": "mute", "type": 5, "value": true}]),
                "/game reminders mute:true",
            ),
        ];
        for (sub, options, line) in cases {
            let from_discord = grammar::parse_game(sub, &discord_values(sub, options)).unwrap();
            let from_terminal = crate::cli::text::parse_slash(line, &user).unwrap();
            assert_eq!(from_discord, from_terminal, "{line}");
        }
        // And refuse alike.
        let options = json!([{"name": "seat", "type": 4, "value": 0}]);
        assert_eq!(
            grammar::parse_game("kick", &discord_values("kick", options)).unwrap_err(),
            crate::cli::text::parse_slash("/game kick seat:0", &user).unwrap_err()
        );
    }

    /// Seats count from 1; phases past 32 bits reach the service, which
    /// answers with the game's range.
    #[test]
    fn integer_options_register_their_bounds() {
        let json = serde_json::to_value(game().create_as_slash_command().unwrap()).unwrap();
        let option = |sub: &str, name: &str| -> serde_json::Value {
            let sub = json["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == sub)
                .unwrap();
            sub["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == name)
                .unwrap()
                .clone()
        };
        assert_eq!(option("kick", "seat")["min_value"], 1.0);
        assert_eq!(option("kick", "seat")["max_value"], 255.0);
        for sub in ["history", "rollback"] {
            let phase = option(sub, "phase");
            assert_eq!(phase["min_value"], 0.0);
            assert!(phase["max_value"].as_f64().unwrap() > 99_999_999_999.0, "{phase}");
        }
    }

    #[test]
    fn a_choice_number_becomes_its_word() {
        let got = discord_values("new", serde_json::json!([{"name": "game", "type": 4, "value": 0}]));
        assert_eq!(
            got,
            vec![("game".to_string(), OptionValue::Text(GameKind::ALL[0].key().into()))]
        );
        // A number past the choices stays a number, which the parser refuses.
        let got = discord_values("new", serde_json::json!([{"name": "game", "type": 4, "value": 9}]));
        assert_eq!(got, vec![("game".to_string(), OptionValue::Integer(9))]);
        assert!(grammar::parse_game("new", &got).is_err());
    }

    #[test]
    fn game_command_registers_for_guilds_and_dms() {
        let cmd = game();
        assert!(!cmd.guild_only && !cmd.dm_only);
        let json = serde_json::to_value(cmd.create_as_slash_command().unwrap()).unwrap();
        assert!(json.get("contexts").is_none_or(|c| c.is_null()), "{json}");
        let subs = json["options"].as_array().unwrap();
        let names: Vec<&str> = subs.iter().map(|o| o["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "new",
                "join",
                "leave",
                "start",
                "status",
                "board",
                "rules",
                "history",
                "settings",
                "pause",
                "resume",
                "extend",
                "force",
                "replace",
                "kick",
                "disorder",
                "undo",
                "rollback",
                "watch",
                "unwatch",
                "log",
                "reminders",
                "ready"
            ]
        );
        let replace = subs.iter().find(|o| o["name"] == "replace").unwrap();
        let types: Vec<(&str, u64)> = replace["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["name"].as_str().unwrap(), o["type"].as_u64().unwrap()))
            .collect();
        assert_eq!(
            types,
            [("seat", 4), ("player", 6), ("game", 4)],
            "a seat number and a user"
        );
        let kind = &subs[0]["options"][0];
        assert_eq!(
            (kind["name"].as_str(), kind["type"].as_u64(), kind["required"].as_bool()),
            (Some("game"), Some(4), Some(true))
        );
        let choices: Vec<&str> = kind["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(choices, GameKind::ALL.iter().map(|k| k.key()).collect::<Vec<_>>());
        for sub in &subs[1..] {
            let game = sub["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == "game")
                .unwrap();
            assert_eq!(game["type"], 4, "{sub}");
            assert_eq!(game["autocomplete"], true, "{sub}");
            assert_ne!(game["required"], true, "{sub}");
        }
    }

    /// The async-play options: name and Discord type (3 string, 4 integer,
    /// 5 boolean), all optional.
    #[test]
    fn async_play_options_register() {
        let json = serde_json::to_value(game().create_as_slash_command().unwrap()).unwrap();
        let subs = json["options"].as_array().unwrap();
        let options = |name: &str| -> Vec<(String, u64)> {
            let sub = subs.iter().find(|o| o["name"] == name).unwrap();
            sub["options"]
                .as_array()
                .unwrap()
                .iter()
                .inspect(|o| assert_ne!(o["required"], true, "{name}: {o}"))
                .map(|o| (o["name"].as_str().unwrap().to_string(), o["type"].as_u64().unwrap()))
                .collect()
        };
        let settings = options("settings");
        for want in [("decision_deadlines", 3), ("time_of_day", 3), ("auto_resolve", 5)] {
            assert!(settings.contains(&(want.0.to_string(), want.1)), "{settings:?}");
        }
        assert_eq!(
            options("reminders"),
            [
                ("game".to_string(), 4),
                ("mute".to_string(), 5),
                ("points".to_string(), 3)
            ]
        );
        assert_eq!(options("ready"), [("game".to_string(), 4)]);
        let mine = serde_json::to_value(mygames().create_as_slash_command().unwrap()).unwrap();
        assert!(mine["options"].as_array().is_none_or(|o| o.is_empty()), "{mine}");
    }

    #[test]
    fn game_suggestions_put_open_games_first_and_filter() {
        let rows = vec![
            row(3, GameStatus::Finished),
            row(12, GameStatus::Active),
            row(5, GameStatus::Lobby),
        ];
        let all = game_suggestions(&rows, None, "");
        assert_eq!(
            all,
            vec![
                ("#12 Hyperspace (active)".to_string(), 12),
                ("#5 Hyperspace (lobby)".to_string(), 5),
                ("#3 Hyperspace (finished)".to_string(), 3)
            ]
        );
        assert_eq!(
            game_suggestions(&rows, None, "#1")
                .iter()
                .map(|s| s.1)
                .collect::<Vec<_>>(),
            vec![12]
        );
        assert_eq!(
            game_suggestions(&rows, None, "lob")
                .iter()
                .map(|s| s.1)
                .collect::<Vec<_>>(),
            vec![5]
        );
        assert!(game_suggestions(&rows, None, "chess").is_empty());
        let many: Vec<GameRow> = (1..=40).map(|i| row(i, GameStatus::Active)).collect();
        assert_eq!(
            game_suggestions(&many, Some(GameKind::Hyperspace), "").len(),
            AUTOCOMPLETE_MAX
        );
    }
}
