//! `/game …`, `/host …` and `/mygames`, built at start-up from the shared
//! grammar ([`orrery_service::grammar`]): the same table and parser the
//! terminal uses, so the two never drift. This module only types Discord's
//! options, offers suggestions, and runs the request.
//!
//! Options for tests only (the seed of `/game new`) are registered only
//! when `ORRERY_DEV_OPTIONS=1` ([`DEV_OPTIONS_VAR`]): players never see them.

use super::actor::actor_of;
use super::limits::{AUTOCOMPLETE_MAX, CHOICE_VALUE_MAX, MAX_SAFE_INTEGER};
use super::respond::run_request;
use super::text::clip;
use super::{ApplicationContext, Context, Data, Error};
use orrery_engine::{GameId, UserId};
use orrery_games::GameKind;
use orrery_service::grammar::{self, Complete, OptionKind, OptionSpec, OptionValue, Subcommand, Top, Wire};
use orrery_service::{Place, ServiceError};
use orrery_store::GameRow;
use poise::serenity_prelude as serenity;
use poise::BoxFuture;
use std::borrow::Cow;

/// Set to `1` to register options meant for tests (the seed of `/game
/// new`); never set in production.
pub const DEV_OPTIONS_VAR: &str = "ORRERY_DEV_OPTIONS";

/// Whether [`DEV_OPTIONS_VAR`] asks for the testing options.
pub fn dev_options_from_env() -> bool {
    std::env::var(DEV_OPTIONS_VAR).is_ok_and(|v| v.trim() == "1")
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

fn autocomplete_game<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(complete_game(ctx.into(), partial, None))
}

/// The options already filled in the command being typed (the focused
/// one left out), by name, inside subcommands.
fn filled<'a>(options: &'a [serenity::ResolvedOption<'a>]) -> Vec<&'a serenity::ResolvedOption<'a>> {
    let mut out = Vec::new();
    for o in options {
        match &o.value {
            serenity::ResolvedValue::SubCommand(inner) | serenity::ResolvedValue::SubCommandGroup(inner) => {
                out.extend(filled(inner))
            }
            _ => out.push(o),
        }
    }
    out
}

/// The `game` and `system` options filled so far.
fn filled_game_and_system(ctx: ApplicationContext<'_>) -> (Option<GameId>, Option<GameKind>) {
    let options = ctx.interaction.data.options();
    let mut game = None;
    let mut system = None;
    for o in filled(&options) {
        match (o.name, &o.value) {
            ("game", serenity::ResolvedValue::Integer(n)) => game = Some(GameId(*n)),
            ("game", serenity::ResolvedValue::String(s)) => game = s.trim_start_matches('#').parse().ok().map(GameId),
            ("system", serenity::ResolvedValue::Integer(i)) => {
                system = usize::try_from(*i).ok().and_then(|i| GameKind::ALL.get(i)).copied()
            }
            ("system", serenity::ResolvedValue::String(s)) => system = GameKind::from_key(s),
            _ => {}
        }
    }
    (game, system)
}

fn autocomplete_response<V: Into<serde_json::Value>>(
    choices: impl IntoIterator<Item = (String, V)>,
) -> serenity::CreateAutocompleteResponse {
    let choices = choices
        .into_iter()
        .take(AUTOCOMPLETE_MAX)
        .map(|(label, value)| serenity::AutocompleteChoice::new(clip(&label, 100), value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// A `seat:` option: the game's seats by player name, value the seat number.
fn autocomplete_seat<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        let (game, _) = filled_game_and_system(ctx);
        let actor = actor_of(ctx.into());
        match ctx.data().service.seat_suggestions(&actor, game, partial).await {
            Ok(seats) => autocomplete_response(seats),
            Err(e) => {
                tracing::debug!("seat autocomplete: {e}");
                autocomplete_response(Vec::<(String, String)>::new())
            }
        }
    })
}

/// A `colour:` option of `/game join`: the picks still free in the lobby.
fn autocomplete_pick<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        let (game, _) = filled_game_and_system(ctx);
        let actor = actor_of(ctx.into());
        match ctx.data().service.pick_suggestions(&actor, game, partial).await {
            Ok(values) => autocomplete_response(values.into_iter().map(|v| (v.clone(), v))),
            Err(e) => {
                tracing::debug!("pick autocomplete: {e}");
                autocomplete_response(Vec::<(String, String)>::new())
            }
        }
    })
}

/// A `phase:` option: the phases the game reached, newest first, labelled.
fn autocomplete_phase<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        let (game, _) = filled_game_and_system(ctx);
        let actor = actor_of(ctx.into());
        match ctx.data().service.phase_suggestions(&actor, game, partial).await {
            Ok(phases) => autocomplete_response(phases.into_iter().map(|(label, n)| (label, n as i64))),
            Err(e) => {
                tracing::debug!("phase autocomplete: {e}");
                autocomplete_response(Vec::<(String, i64)>::new())
            }
        }
    })
}

/// A `section:` option: the headings of the rules page of the system
/// named, else of the game.
fn autocomplete_section<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        let (game, system) = filled_game_and_system(ctx);
        let kind = match system {
            Some(kind) => Some(kind),
            None => {
                let actor = actor_of(ctx.into());
                ctx.data().service.game_kind(&actor, game).await.ok()
            }
        };
        let sections = kind
            .map(|k| orrery_service::section_choices(k, partial))
            .unwrap_or_default();
        autocomplete_response(sections.into_iter().map(|h| (h.clone(), h)))
    })
}

/// `/game new … options:`: the chosen game's options, each suggestion the
/// whole text with one more option or value.
fn autocomplete_game_options<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        // `game` of `/game new` is the system, a choice Discord numbers.
        let options = ctx.interaction.data.options();
        let kind = filled(&options).iter().find_map(|o| match (o.name, &o.value) {
            ("game", serenity::ResolvedValue::Integer(i)) => {
                usize::try_from(*i).ok().and_then(|i| GameKind::ALL.get(i)).copied()
            }
            ("game", serenity::ResolvedValue::String(s)) => GameKind::from_key(s),
            _ => None,
        });
        // A suggestion is the whole text, which Discord takes up to 100 characters.
        let suggestions = kind
            .map(|k| grammar::game_option_suggestions(k, partial))
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, text)| text.chars().count() <= CHOICE_VALUE_MAX);
        autocomplete_response(suggestions)
    })
}

/// `/game` (players), `/sheet` (order sheets) and `/host` (host tools), built from the shared
/// grammar ([`grammar::SUBCOMMANDS`]): one subcommand per entry, its
/// options typed from their meaning. `dev` registers the testing options.
pub fn top_command(top: Top, dev: bool) -> poise::Command<Data, Error> {
    poise::Command {
        name: top.name().into(),
        qualified_name: top.name().into(),
        identifying_name: top.name().into(),
        source_code_name: top.name().into(),
        description: Some(top.description().into()),
        slash_action: Some(parent_action),
        subcommands: grammar::subcommands(top)
            .map(|sub| command(sub, Some(top.name()), dev))
            .collect(),
        subcommand_required: true,
        ..Default::default()
    }
}

/// `/game`, with the testing options if [`DEV_OPTIONS_VAR`] asks for them.
pub fn game() -> poise::Command<Data, Error> {
    top_command(Top::Game, dev_options_from_env())
}

/// `/sheet`: a player's order sheet.
pub fn sheet() -> poise::Command<Data, Error> {
    top_command(Top::Sheet, dev_options_from_env())
}

/// `/host`: the host's tools.
pub fn host() -> poise::Command<Data, Error> {
    top_command(Top::Host, dev_options_from_env())
}

/// `/mygames`: your open games, what each waits on, the deadline.
pub fn mygames() -> poise::Command<Data, Error> {
    command(&grammar::MYGAMES, None, false)
}

/// A command (or, under `parent`, a subcommand) from its grammar entry,
/// which it keeps in `custom_data` for [`run_action`].
fn command(sub: &'static Subcommand, parent: Option<&str>, dev: bool) -> poise::Command<Data, Error> {
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
        parameters: sub
            .options
            .iter()
            .filter(|o| dev || !o.kind.dev_only())
            .map(parameter)
            .collect(),
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
            Complete::Seat => autocomplete_seat as _,
            Complete::Phase => autocomplete_phase as _,
            Complete::Section => autocomplete_section as _,
            Complete::GameOptions => autocomplete_game_options as _,
            Complete::Pick => autocomplete_pick as _,
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
        OptionKind::Phase => |o| integer_option(o, OptionKind::Phase),
        OptionKind::Seed => |o| integer_option(o, OptionKind::Seed),
        OptionKind::Line => |o| integer_option(o, OptionKind::Line),
        _ => match kind.wire() {
            Wire::Boolean => |o| o.kind(T::Boolean),
            Wire::User => |o| o.kind(T::User),
            Wire::Text | Wire::Integer => |o| o.kind(T::String),
        },
    }
}

/// An integer option with its bounds, within what Discord carries exactly.
fn integer_option(o: serenity::CreateCommandOption, kind: OptionKind) -> serenity::CreateCommandOption {
    let o = o.kind(serenity::CommandOptionType::Integer);
    let (lo, hi) = kind.bounds().unwrap_or((i64::MIN, i64::MAX));
    o.min_number_value(lo.max(-MAX_SAFE_INTEGER) as f64)
        .max_number_value(hi.min(MAX_SAFE_INTEGER) as f64)
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

/// A mention as Discord writes one in text: `<@123>` or `<@!123>`.
pub fn mention_id(text: &str) -> Option<u64> {
    let t = text.trim();
    let inner = t.strip_prefix("<@")?.strip_suffix('>')?;
    inner.trim_start_matches('!').parse().ok()
}

/// An interaction's options as the grammar's values: fixed choices back
/// to their words, users with their display names, a mention typed into
/// a `seat:` as that person.
pub fn values(sub: &Subcommand, args: &[serenity::ResolvedOption<'_>]) -> Vec<(String, OptionValue)> {
    args.iter()
        .filter_map(|o| {
            let value = match &o.value {
                serenity::ResolvedValue::String(s) => {
                    let seat = sub.option(o.name).is_some_and(|spec| spec.kind == OptionKind::Seat);
                    match mention_id(s).filter(|_| seat) {
                        Some(id) => OptionValue::User {
                            id: UserId(id),
                            name: s.trim().to_string(),
                        },
                        None => OptionValue::Text(s.to_string()),
                    }
                }
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

/// Every `/game` and `/host` subcommand and `/mygames`: parse with the shared grammar, run.
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
    use orrery_engine::GameId;
    use orrery_engine::{GameConfig, UserId};
    use orrery_store::GameStatus;

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
            deadline: None,
            damaged: None,
        }
    }

    /// The subcommand `sub` of `/game` or `/host` with these options, as
    /// Discord sends it (choices as numbers, users resolved), read into
    /// grammar values.
    fn discord_values(top: Top, sub: &str, options: serde_json::Value) -> Vec<(String, OptionValue)> {
        let data: serenity::CommandData = serde_json::from_value(serde_json::json!({
            "id": "1", "name": top.name(), "type": 1,
            "options": [{"name": sub, "type": 1, "options": options}],
            "resolved": {"users": {"42": {
                "id": "42", "username": "dave", "global_name": "Dave", "discriminator": "0", "avatar": null
            }}}
        }))
        .unwrap();
        let resolved = data.options();
        let serenity::ResolvedValue::SubCommand(args) = &resolved[0].value else {
            panic!("{resolved:?}")
        };
        values(grammar::subcommand(top, sub).unwrap(), args)
    }

    /// Discord's options and the terminal's text give the same request:
    /// one table, one parser.
    #[test]
    fn discord_and_the_terminal_make_the_same_requests() {
        use serde_json::json;
        let user = |name: &str| if name == "Dave" { UserId(42) } else { UserId(0) };
        let cases = [
            (
                Top::Game,
                "new",
                json!([{"name": "game", "type": 4, "value": 1}, {"name": "seed", "type": 4, "value": 7}]),
                "/game new game:starlanes seed:7",
            ),
            (
                Top::Game,
                "new",
                json!([
                    {"name": "game", "type": 4, "value": 1},
                    {"name": "options", "type": 3, "value": "rounds:12 map:random"}
                ]),
                "/game new game:starlanes options:\"rounds:12 map:random\"",
            ),
            (
                Top::Host,
                "settings",
                json!([
                    {"name": "game", "type": 4, "value": 3},
                    {"name": "deadline", "type": 3, "value": "24h"},
                    {"name": "missed", "type": 4, "value": 1},
                    {"name": "auto_resolve", "type": 5, "value": false},
                    {"name": "time_of_day", "type": 3, "value": "18:00+02:00"}
                ]),
                "/host settings game:3 deadline:24h missed:wait auto_resolve:false time_of_day:18:00+02:00",
            ),
            (
                Top::Host,
                "replace",
                json!([{"name": "seat", "type": 3, "value": "2"}, {"name": "player", "type": 6, "value": "42"}]),
                "/host replace seat:2 player:@Dave",
            ),
            (
                Top::Host,
                "kick",
                json!([{"name": "seat", "type": 3, "value": "alice"}]),
                "/host kick seat:@alice",
            ),
            (
                Top::Game,
                "history",
                json!([{"name": "phase", "type": 4, "value": 99_999_999_999_i64}]),
                "/game history phase:99999999999",
            ),
            (
                Top::Game,
                "rules",
                json!([{"name": "system", "type": 4, "value": 0}, {"name": "section", "type": 3, "value": "Combat"}]),
                "/game rules system:hyperspace section:Combat",
            ),
            (
                Top::Game,
                "reminders",
                json!([{"name": "mute", "type": 5, "value": true}]),
                "/game reminders mute:true",
            ),
        ];
        for (top, sub, options, line) in cases {
            let from_discord = grammar::parse_command(top, sub, &discord_values(top, sub, options)).unwrap();
            let from_terminal = orrery_service::slash::parse_slash(line, &user).unwrap();
            assert_eq!(from_discord, from_terminal, "{line}");
        }
        // And refuse alike.
        let options = json!([{"name": "seat", "type": 3, "value": "0"}]);
        assert_eq!(
            grammar::parse_command(Top::Host, "kick", &discord_values(Top::Host, "kick", options)).unwrap_err(),
            orrery_service::slash::parse_slash("/host kick seat:0", &user).unwrap_err()
        );
        // A mention typed into `seat:` names that person.
        let options = json!([{"name": "seat", "type": 3, "value": "<@!42>"}]);
        assert_eq!(
            grammar::parse_command(Top::Host, "kick", &discord_values(Top::Host, "kick", options)).unwrap(),
            orrery_service::Request::Kick {
                game: None,
                seat: orrery_service::SeatRef::User(UserId(42))
            }
        );
        assert_eq!(mention_id("<@123>"), Some(123));
        assert_eq!(mention_id("alice"), None);
    }

    /// The registered options of `/<top> <sub>`.
    fn registered(top: Top, dev: bool) -> serde_json::Value {
        serde_json::to_value(top_command(top, dev).create_as_slash_command().unwrap()).unwrap()
    }

    fn option_of(json: &serde_json::Value, sub: &str, name: &str) -> Option<serde_json::Value> {
        let sub = json["options"].as_array()?.iter().find(|o| o["name"] == sub)?;
        sub["options"].as_array()?.iter().find(|o| o["name"] == name).cloned()
    }

    /// Seats are names (autocompleted) or numbers; phases past 32 bits
    /// reach the service, which answers with the game's range; phases
    /// autocomplete with their labels.
    #[test]
    fn options_register_their_types_bounds_and_suggestions() {
        let host = registered(Top::Host, false);
        let game = registered(Top::Game, false);
        for sub in ["kick", "resign", "disorder", "replace"] {
            let seat = option_of(&host, sub, "seat").unwrap();
            assert_eq!(
                (seat["type"].as_u64(), seat["autocomplete"].as_bool()),
                (Some(3), Some(true)),
                "{seat}"
            );
        }
        for (json, sub) in [(&game, "history"), (&host, "rollback")] {
            let phase = option_of(json, sub, "phase").unwrap();
            assert_eq!(phase["min_value"], 0.0);
            assert_eq!(phase["autocomplete"], true, "{phase}");
            assert!(phase["max_value"].as_f64().unwrap() > 99_999_999_999.0, "{phase}");
        }
        let section = option_of(&game, "rules", "section").unwrap();
        assert_eq!(
            (section["type"].as_u64(), section["autocomplete"].as_bool()),
            (Some(3), Some(true))
        );
        // `/game new`: the game's options as text, suggested as they are
        // typed (each game declares its own), and no seed unless asked for.
        let options = option_of(&game, "new", "options").unwrap();
        assert_eq!(
            (options["type"].as_u64(), options["autocomplete"].as_bool()),
            (Some(3), Some(true)),
            "{options}"
        );
        assert!(option_of(&game, "new", "rounds").is_none());
        assert!(
            option_of(&game, "new", "seed").is_none(),
            "the seed is not in the players' picker"
        );
        let dev = registered(Top::Game, true);
        let seed = option_of(&dev, "new", "seed").expect("registered for tests");
        assert_eq!(seed["type"], 4);
    }

    #[test]
    fn a_choice_number_becomes_its_word() {
        let got = discord_values(
            Top::Game,
            "new",
            serde_json::json!([{"name": "game", "type": 4, "value": 0}]),
        );
        assert_eq!(
            got,
            vec![("game".to_string(), OptionValue::Text(GameKind::ALL[0].key().into()))]
        );
        // A number past the choices stays a number, which the parser refuses.
        let got = discord_values(
            Top::Game,
            "new",
            serde_json::json!([{"name": "game", "type": 4, "value": 9}]),
        );
        assert_eq!(got, vec![("game".to_string(), OptionValue::Integer(9))]);
        assert!(grammar::parse_command(Top::Game, "new", &got).is_err());
    }

    #[test]
    fn game_command_registers_for_guilds_and_dms() {
        for cmd in [game(), sheet(), host()] {
            assert!(!cmd.guild_only && !cmd.dm_only);
        }
        let json = registered(Top::Game, false);
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
                "prompt",
                "dms",
                "private",
                "resign",
                "takeback",
                "rules",
                "history",
                "log",
                "settings",
                "reminders",
                "watch",
                "unwatch"
            ]
        );
        let sheet_json = registered(Top::Sheet, false);
        let names: Vec<&str> = sheet_json["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["show", "ready", "unready", "clear", "remove"]);
        let host_json = registered(Top::Host, false);
        let host_subs = host_json["options"].as_array().unwrap();
        let names: Vec<&str> = host_subs.iter().map(|o| o["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "settings", "pause", "resume", "extend", "force", "bot", "replace", "kick", "resign", "disorder",
                "private", "undo", "rollback"
            ]
        );
        // `/host bot`: a fixed choice of levels, and the seat it may take.
        let bot = host_subs.iter().find(|o| o["name"] == "bot").unwrap();
        let levels: Vec<&str> = bot["options"][0]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["easy", "normal", "hard"]);
        assert_eq!(bot["options"][1]["name"], "seat");
        assert!(!bot["options"][1]["required"].as_bool().unwrap_or(false));
        assert_eq!(
            option_of(&json, "settings", "deadline"),
            None,
            "players only read the settings"
        );
        let replace = host_subs.iter().find(|o| o["name"] == "replace").unwrap();
        let types: Vec<(&str, u64)> = replace["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["name"].as_str().unwrap(), o["type"].as_u64().unwrap()))
            .collect();
        assert_eq!(
            types,
            [("seat", 3), ("player", 6), ("game", 4)],
            "a seat (name or number) and a user"
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
        for sub in subs[1..].iter().chain(host_subs) {
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
        let json = registered(Top::Game, false);
        let host = registered(Top::Host, false);
        let subs: Vec<serde_json::Value> = json["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["name"] != "settings")
            // The settings a host changes are under /host.
            .chain(
                host["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|o| o["name"] == "settings"),
            )
            .cloned()
            .collect();
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
        let sheet = registered(Top::Sheet, false);
        let ready = sheet["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "ready")
            .unwrap();
        assert_eq!(ready["options"][0]["name"], "game");
        assert_eq!(ready["options"][0]["type"], 4);
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
