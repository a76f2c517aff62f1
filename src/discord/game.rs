//! `/game …`: opening, joining and looking at games; `/mygames`.

use super::respond::{actor_of, clip, run_request};
use super::{Context, Error};
use crate::engine::GameId;
use crate::games::GameKind;
use crate::service::{
    parse_duration, parse_kind_deadlines, parse_time_of_day, Missed, Place, Request, Service, SettingsChange,
};
use crate::store::GameRow;
use poise::serenity_prelude as serenity;
use std::borrow::Cow;

/// Discord shows at most this many autocomplete suggestions.
pub const AUTOCOMPLETE_MAX: usize = 25;

/// A game system, offered as a fixed choice of the [`GameKind`] keys. The
/// list is built from [`GameKind::ALL`], so a new system appears without
/// touching this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameChoice(pub GameKind);

impl GameChoice {
    pub fn kind(self) -> GameKind {
        self.0
    }
}

impl poise::ChoiceParameter for GameChoice {
    fn list() -> Cow<'static, [poise::CommandParameterChoice]> {
        GameKind::ALL
            .iter()
            .map(|k| poise::CommandParameterChoice {
                name: k.key().into(),
                localizations: Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect()
    }

    fn from_index(index: usize) -> Option<Self> {
        GameKind::ALL.get(index).copied().map(GameChoice)
    }

    fn from_name(name: &str) -> Option<Self> {
        GameKind::from_key(name).map(GameChoice)
    }

    fn name(&self) -> &'static str {
        self.0.key()
    }

    fn localized_name(&self, _locale: &str) -> Option<&'static str> {
        None
    }
}

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

async fn autocomplete_game(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    complete_game(ctx, partial, None).await
}

fn game_id(game: Option<i64>) -> Option<GameId> {
    game.map(GameId)
}

/// Host, join and look at games.
#[poise::command(
    slash_command,
    subcommands(
        "new_game",
        "join_game",
        "leave_game",
        "start_game",
        "status_game",
        "board_game",
        "rules_game",
        "history_game",
        "settings_game",
        "pause_game",
        "resume_game",
        "extend_game",
        "force_game",
        "replace_game",
        "kick_game",
        "disorder_game",
        "undo_game",
        "rollback_game",
        "watch_game",
        "unwatch_game",
        "log_game",
        "reminders_game",
        "ready_game"
    ),
    subcommand_required
)]
pub async fn game(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a new game in this channel; you host it and take the first seat.
#[poise::command(slash_command, rename = "new")]
pub async fn new_game(
    ctx: Context<'_>,
    #[description = "Which game to play"] game: GameChoice,
    #[description = "Random seed, to replay a set-up exactly"] seed: Option<u64>,
    #[description = "Game options as JSON, e.g. {\"rounds\":15}"] options: Option<String>,
) -> Result<(), Error> {
    let options = match options {
        Some(text) => match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(v) => Some(v),
            Err(e) => {
                return Err(
                    crate::service::ServiceError::User(format!("`options` is not valid JSON: {e}").into()).into(),
                );
            }
        },
        None => None,
    };
    run_request(
        ctx,
        Request::New {
            kind: game.kind(),
            seed,
            options,
        },
    )
    .await
}

/// Take a seat in the game waiting in this channel.
#[poise::command(slash_command, rename = "join")]
pub async fn join_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Join { game: game_id(game) }).await
}

/// Give up your seat before the game starts (the host leaving closes it).
#[poise::command(slash_command, rename = "leave")]
pub async fn leave_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Leave { game: game_id(game) }).await
}

/// Start the game you host, with the players seated now.
#[poise::command(slash_command, rename = "start")]
pub async fn start_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Start { game: game_id(game) }).await
}

/// Players, phase, and whom the game is waiting on.
#[poise::command(slash_command, rename = "status")]
pub async fn status_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Status { game: game_id(game) }).await
}

/// The current board (in DMs: your own view, with your secrets).
#[poise::command(slash_command, rename = "board")]
pub async fn board_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Board { game: game_id(game) }).await
}

/// The rules summary and the orders of a game.
#[poise::command(slash_command, rename = "rules")]
pub async fn rules_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
    #[description = "A game system, to read its rules without a game"] system: Option<GameChoice>,
) -> Result<(), Error> {
    run_request(
        ctx,
        Request::Rules {
            kind: system.map(GameChoice::kind),
            game: game_id(game),
        },
    )
    .await
}

/// The board as it was after an earlier phase.
#[poise::command(slash_command, rename = "history")]
pub async fn history_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
    #[description = "Phase number (default: the current one)"] phase: Option<u32>,
) -> Result<(), Error> {
    run_request(
        ctx,
        Request::History {
            game: game_id(game),
            phase,
        },
    )
    .await
}

/// What happens when a deadline passes with orders missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum MissedChoice {
    #[name = "default"]
    Default,
    #[name = "wait"]
    Wait,
}

fn user_error(msg: String) -> Error {
    crate::service::ServiceError::User(msg.into()).into()
}

/// Parse `24h,2h` (or `off`) into reminder points.
fn parse_reminders(text: &str) -> Result<Vec<i64>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("off") || t.eq_ignore_ascii_case("none") {
        return Ok(vec![]);
    }
    t.split(',').map(parse_duration).collect()
}

/// Show the game's deadline settings, or (host) change them.
#[poise::command(slash_command, rename = "settings")]
#[allow(clippy::too_many_arguments)]
pub async fn settings_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
    #[description = "Deadline per phase, e.g. 48h, 30m, 2d, 1w"] deadline: Option<String>,
    #[description = "Reminders before the deadline, e.g. 24h,2h (or off)"] reminders: Option<String>,
    #[description = "On a missed deadline: apply defaults, or wait for the host"] missed: Option<MissedChoice>,
    #[description = "Deadline per decision, e.g. combat-card=2h,losses=12h (kind=default removes)"]
    decision_deadlines: Option<String>,
    #[description = "Deadlines fall at this time of day: 18:00 (UTC), 18:00+02:00, or off"] time_of_day: Option<String>,
    #[description = "Off: secret choices are drafts until everyone is /game ready"] auto_resolve: Option<bool>,
) -> Result<(), Error> {
    let change = SettingsChange {
        deadline_by_kind: decision_deadlines
            .as_deref()
            .map(parse_kind_deadlines)
            .transpose()
            .map_err(user_error)?
            .unwrap_or_default(),
        time_of_day: time_of_day
            .as_deref()
            .map(parse_time_of_day)
            .transpose()
            .map_err(user_error)?,
        auto_resolve,
        deadline_ms: deadline
            .as_deref()
            .map(parse_duration)
            .transpose()
            .map_err(user_error)?,
        reminders_ms: reminders
            .as_deref()
            .map(parse_reminders)
            .transpose()
            .map_err(user_error)?,
        on_missed: missed.map(|m| match m {
            MissedChoice::Default => Missed::Default,
            MissedChoice::Wait => Missed::Wait,
        }),
    };
    run_request(
        ctx,
        Request::Settings {
            game: game_id(game),
            change,
        },
    )
    .await
}

/// Host: stop the deadline clock.
#[poise::command(slash_command, rename = "pause")]
pub async fn pause_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Pause { game: game_id(game) }).await
}

/// Host: restart the deadline clock with the time that was left.
#[poise::command(slash_command, rename = "resume")]
pub async fn resume_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Resume { game: game_id(game) }).await
}

/// Host: give the current phase more time.
#[poise::command(slash_command, rename = "extend")]
pub async fn extend_game(
    ctx: Context<'_>,
    #[description = "How much longer, e.g. 12h, 1d"] by: String,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    let by_ms = parse_duration(&by).map_err(user_error)?;
    run_request(
        ctx,
        Request::Extend {
            game: game_id(game),
            by_ms,
        },
    )
    .await
}

/// Host: resolve the current phase now, applying defaults for missing orders.
#[poise::command(slash_command, rename = "force")]
pub async fn force_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Force { game: game_id(game) }).await
}

/// A seat number as players see it (1-based), checked.
fn seat_arg(seat: u8) -> Result<crate::engine::Seat, Error> {
    if seat == 0 {
        return Err(user_error("Seats are numbered from 1.".into()));
    }
    Ok(crate::engine::Seat(seat - 1))
}

/// Host: give a seat to another player (they get its private view by DM).
#[poise::command(slash_command, rename = "replace")]
pub async fn replace_game(
    ctx: Context<'_>,
    #[description = "Seat number (1 = first seat), as /game status lists them"] seat: u8,
    #[description = "The new player"] player: serenity::User,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    let name = player.global_name.clone().unwrap_or_else(|| player.name.clone());
    run_request(
        ctx,
        Request::Replace {
            game: game_id(game),
            seat: seat_arg(seat)?,
            user: crate::engine::UserId(player.id.get()),
            name,
        },
    )
    .await
}

/// Host: remove a player; in play their seat stays, in civil disorder, until replaced.
#[poise::command(slash_command, rename = "kick")]
pub async fn kick_game(
    ctx: Context<'_>,
    #[description = "Seat number (1 = first seat)"] seat: u8,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(
        ctx,
        Request::Kick {
            game: game_id(game),
            seat: seat_arg(seat)?,
        },
    )
    .await
}

/// Host: civil disorder for a seat (its defaults are played every phase), on or off.
#[poise::command(slash_command, rename = "disorder")]
pub async fn disorder_game(
    ctx: Context<'_>,
    #[description = "Seat number (1 = first seat)"] seat: u8,
    #[description = "On (defaults every phase) or off (the player plays again)"] on: bool,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(
        ctx,
        Request::Disorder {
            game: game_id(game),
            seat: seat_arg(seat)?,
            on,
        },
    )
    .await
}

/// Host: undo the last action (announced; the log keeps it).
#[poise::command(slash_command, rename = "undo")]
pub async fn undo_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Undo { game: game_id(game) }).await
}

/// Host: roll the game back to the start of a phase (announced; the log keeps everything).
#[poise::command(slash_command, rename = "rollback")]
pub async fn rollback_game(
    ctx: Context<'_>,
    #[description = "Phase number to go back to the start of"] phase: u32,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(
        ctx,
        Request::Rollback {
            game: game_id(game),
            phase,
        },
    )
    .await
}

/// Follow a game: its public board after every phase, by DM.
#[poise::command(slash_command, rename = "watch")]
pub async fn watch_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Watch { game: game_id(game) }).await
}

/// Stop following a game.
#[poise::command(slash_command, rename = "unwatch")]
pub async fn unwatch_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Unwatch { game: game_id(game) }).await
}

/// What has happened in the current phase, in sentences (public).
#[poise::command(slash_command, rename = "log")]
pub async fn log_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Log { game: game_id(game) }).await
}

/// How often the scheduler resolves due deadlines and sends reminders.
pub const SCHEDULER_INTERVAL: std::time::Duration = std::time::Duration::from_secs(20);

/// The deadline scheduler: ticks at once (overdue phases resolve right
/// after a restart), then every `every` ([`SCHEDULER_INTERVAL`] unless
/// configured); pokes delivery when
/// a tick queued messages. Safe to run in several processes sharing one
/// PostgreSQL database.
pub async fn scheduler_loop(
    service: std::sync::Arc<Service>,
    delivery: std::sync::Arc<tokio::sync::Notify>,
    every: std::time::Duration,
) {
    loop {
        match service.tick().await {
            Ok(report) => {
                if report.resolved + report.reminders > 0 {
                    tracing::info!(
                        resolved = report.resolved,
                        reminders = report.reminders,
                        "scheduler tick"
                    );
                    delivery.notify_one();
                }
            }
            Err(e) => tracing::warn!("scheduler tick failed: {e:#}"),
        }
        tokio::time::sleep(every).await;
    }
}

/// Your own reminders for a game: show them, mute them, or set your own points.
#[poise::command(slash_command, rename = "reminders")]
pub async fn reminders_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
    #[description = "True: no reminders for you; false: back to the game's points"] mute: Option<bool>,
    #[description = "Your own points before the deadline, e.g. 12h,1h"] points: Option<String>,
) -> Result<(), Error> {
    let points = points.as_deref().map(parse_reminders).transpose().map_err(user_error)?;
    run_request(
        ctx,
        Request::Reminders {
            game: game_id(game),
            mute,
            points,
        },
    )
    .await
}

/// Mark your draft final (when the host turned auto-resolve off).
#[poise::command(slash_command, rename = "ready")]
pub async fn ready_game(
    ctx: Context<'_>,
    #[description = "Game number (only needed when there are several)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run_request(ctx, Request::Ready { game: game_id(game) }).await
}

/// Your open games: what each waits on (and whether on you), and the deadline.
#[poise::command(slash_command)]
pub async fn mygames(ctx: Context<'_>) -> Result<(), Error> {
    run_request(ctx, Request::MyGames).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameConfig, UserId};
    use crate::store::GameStatus;
    use poise::ChoiceParameter;

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
        }
    }

    #[test]
    fn game_choices_are_the_game_kind_keys() {
        let names: Vec<String> = GameChoice::list().iter().map(|c| c.name.to_string()).collect();
        let keys: Vec<&str> = GameKind::ALL.iter().map(|k| k.key()).collect();
        assert_eq!(names, keys);
        for (i, kind) in GameKind::ALL.iter().enumerate() {
            assert_eq!(GameChoice::from_index(i).map(GameChoice::kind), Some(*kind));
            assert_eq!(GameChoice::from_name(kind.key()), Some(GameChoice(*kind)));
            assert_eq!(GameChoice(*kind).name(), kind.key());
        }
        assert_eq!(GameChoice::from_index(GameKind::ALL.len()), None);
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
