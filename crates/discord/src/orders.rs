//! Order commands: `/hyperspace depart from:… ships:… [to:…] [game:…]`.
//!
//! Each game system describes its orders as data
//! ([`GameKind::commands`]); this module turns that description into one
//! slash command per system with one subcommand per order, at start-up.
//! (poise commands are plain values: [`poise::Command`] built here instead
//! of by `#[poise::command]`, so a system's orders never drift from what
//! Discord shows.) Every text and number option autocompletes from the
//! seat's legal orders, consistent with the options already filled in.

use super::actor::actor_of;
use super::game::complete_game;
use super::limits::{AUTOCOMPLETE_MAX, CHOICE_VALUE_MAX, DESCRIPTION_MAX};
use super::respond::run_request;
use super::text::clip;
use super::{ApplicationContext, Data, Error};
use orrery_engine::{CommandLine, CommandSpec, GameId, ParamKind, ParamSpec};
use orrery_games::GameKind;
use orrery_service::{Request, ServiceError};
use poise::serenity_prelude as serenity;
use poise::BoxFuture;
use std::borrow::Cow;

/// The option every order takes besides its own: which game.
pub const GAME_OPTION: &str = "game";

/// What an order subcommand stands for; kept in its `custom_data`.
#[derive(Clone, Debug)]
pub struct OrderMeta {
    pub kind: GameKind,
    pub spec: CommandSpec,
}

/// The order commands of every game system: its main one, and one per
/// group of orders it gives a command of its own
/// ([`GameKind::order_commands`]).
pub fn order_commands() -> Vec<poise::Command<Data, Error>> {
    GameKind::ALL
        .iter()
        .flat_map(|&kind| kind.order_commands().into_iter().map(move |c| (kind, c)))
        .map(|(kind, c)| order_command(kind, &c.name, &c.description, c.specs))
        .collect()
}

/// `/{name}` (`/hyperspace`, `/empires-combat`) with one subcommand per order spec.
pub fn order_command(
    kind: GameKind,
    name: &str,
    description: &str,
    specs: Vec<CommandSpec>,
) -> poise::Command<Data, Error> {
    poise::Command {
        name: name.to_string().into(),
        qualified_name: name.to_string().into(),
        identifying_name: name.to_string().into(),
        source_code_name: "order_command".into(),
        description: Some(clip(description, DESCRIPTION_MAX).into()),
        slash_action: Some(parent_action),
        subcommands: specs
            .into_iter()
            .map(|spec| order_subcommand(kind, name, spec))
            .collect(),
        subcommand_required: true,
        ..Default::default()
    }
}

fn order_subcommand(kind: GameKind, command: &str, spec: CommandSpec) -> poise::Command<Data, Error> {
    // Discord wants required options before optional ones.
    let mut parameters: Vec<poise::CommandParameter<Data, Error>> = spec
        .params
        .iter()
        .filter(|p| p.required)
        .chain(spec.params.iter().filter(|p| !p.required))
        .map(order_parameter)
        .collect();
    if !spec.params.iter().any(|p| p.name == GAME_OPTION) {
        parameters.push(game_parameter());
    }
    poise::Command {
        name: spec.name.into(),
        qualified_name: format!("{command} {}", spec.name).into(),
        identifying_name: format!("{command}_{}", spec.name).into(),
        source_code_name: "order_subcommand".into(),
        description: Some(clip(spec.description, DESCRIPTION_MAX).into()),
        slash_action: Some(order_action),
        parameters,
        custom_data: Box::new(OrderMeta { kind, spec }),
        ..Default::default()
    }
}

fn order_parameter(p: &ParamSpec) -> poise::CommandParameter<Data, Error> {
    poise::CommandParameter {
        name: p.name.into(),
        name_localizations: Cow::Borrowed(&[]),
        description: Some(clip(p.description, DESCRIPTION_MAX).into()),
        description_localizations: Cow::Borrowed(&[]),
        required: p.required,
        channel_types: None,
        choices: Cow::Borrowed(&[]),
        type_setter: Some(match p.kind {
            ParamKind::Text | ParamKind::Player => text_option,
            ParamKind::Number => number_option,
        }),
        autocomplete_callback: Some(order_autocomplete),
        __non_exhaustive: (),
    }
}

fn game_parameter() -> poise::CommandParameter<Data, Error> {
    poise::CommandParameter {
        name: GAME_OPTION.into(),
        name_localizations: Cow::Borrowed(&[]),
        description: Some("Game number (only needed when you play several)".into()),
        description_localizations: Cow::Borrowed(&[]),
        required: false,
        channel_types: None,
        choices: Cow::Borrowed(&[]),
        type_setter: Some(game_option),
        autocomplete_callback: Some(order_autocomplete),
        __non_exhaustive: (),
    }
}

fn text_option(o: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
    o.kind(serenity::CommandOptionType::String).max_length(100)
}

fn number_option(o: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
    o.kind(serenity::CommandOptionType::Integer)
        .min_int_value(0)
        .max_int_value(u64::from(u32::MAX))
}

fn game_option(o: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
    o.kind(serenity::CommandOptionType::Integer).min_int_value(1)
}

/// Never runs: Discord only invokes the subcommands.
fn parent_action(ctx: ApplicationContext<'_>) -> BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        Err(poise::FrameworkError::new_command(
            ctx.into(),
            anyhow::anyhow!("`/{}` needs an order", ctx.command().name),
        ))
    })
}

/// The options of an interaction as text: the filled ones, and the one
/// being typed (for autocomplete).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub filled: Vec<(String, String)>,
    pub focused: Option<(String, String)>,
}

impl Options {
    pub fn from_resolved(args: &[serenity::ResolvedOption<'_>]) -> Options {
        let mut out = Options::default();
        for o in args {
            let value = match &o.value {
                serenity::ResolvedValue::Autocomplete { value, .. } => {
                    out.focused = Some((o.name.to_string(), value.to_string()));
                    continue;
                }
                serenity::ResolvedValue::String(s) => s.to_string(),
                serenity::ResolvedValue::Integer(i) => i.to_string(),
                serenity::ResolvedValue::Number(n) => n.to_string(),
                serenity::ResolvedValue::Boolean(b) => b.to_string(),
                _ => continue,
            };
            out.filled.push((o.name.to_string(), value));
        }
        out
    }

    /// The `game` option, if given.
    pub fn game(&self, spec: &CommandSpec) -> Option<GameId> {
        if spec.params.iter().any(|p| p.name == GAME_OPTION) {
            return None;
        }
        self.filled
            .iter()
            .find(|(k, _)| k == GAME_OPTION)
            .and_then(|(_, v)| v.trim().trim_start_matches('#').parse().ok())
            .map(GameId)
    }

    /// The filled options that belong to the order, in the spec's order.
    pub fn order_args(&self, spec: &CommandSpec) -> Vec<(String, String)> {
        spec.params
            .iter()
            .filter_map(|p| {
                self.filled
                    .iter()
                    .find(|(k, v)| k == p.name && !v.trim().is_empty())
                    .map(|(k, v)| (k.clone(), v.trim().to_string()))
            })
            .collect()
    }

    /// The order these options give.
    pub fn line(&self, spec: &CommandSpec) -> CommandLine {
        CommandLine {
            name: spec.name.to_string(),
            args: self.order_args(spec),
        }
    }
}

fn meta<'a>(ctx: &ApplicationContext<'a>) -> Result<&'a OrderMeta, Error> {
    ctx.command().custom_data.downcast_ref::<OrderMeta>().ok_or_else(|| {
        anyhow::anyhow!(
            "order command `{}` has no order description",
            ctx.command().qualified_name
        )
    })
}

fn order_action(ctx: ApplicationContext<'_>) -> BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        let run = async {
            let meta = meta(&ctx)?;
            let options = Options::from_resolved(ctx.args);
            let request = Request::Order {
                game: options.game(&meta.spec),
                kind: Some(meta.kind),
                line: options.line(&meta.spec),
            };
            run_request(ctx.into(), request).await
        };
        run.await.map_err(|e| poise::FrameworkError::new_command(ctx.into(), e))
    })
}

fn order_autocomplete<'a>(
    ctx: ApplicationContext<'a>,
    partial: &'a str,
) -> BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        let Ok(meta) = meta(&ctx) else {
            return serenity::CreateAutocompleteResponse::new();
        };
        let options = Options::from_resolved(ctx.args);
        let Some((option, _)) = &options.focused else {
            return serenity::CreateAutocompleteResponse::new();
        };
        if option == GAME_OPTION && !meta.spec.params.iter().any(|p| p.name == GAME_OPTION) {
            return complete_game(ctx.into(), partial, Some(meta.kind)).await;
        }
        let Some(param) = meta.spec.params.iter().find(|p| p.name == option) else {
            return serenity::CreateAutocompleteResponse::new();
        };
        let actor = actor_of(ctx.into());
        let filled = options.order_args(&meta.spec);
        let result = ctx
            .data()
            .service
            .complete(
                &actor,
                options.game(&meta.spec),
                meta.spec.name,
                option,
                &filled,
                partial,
            )
            .await;
        let choices = match result {
            Ok(values) => suggestions(param.kind, values),
            Err(ServiceError::User(why)) if param.kind != ParamKind::Number => {
                // Say why nothing is offered; picking it keeps what was typed.
                let value = if partial.trim().is_empty() {
                    "?".to_string()
                } else {
                    clip(partial, CHOICE_VALUE_MAX)
                };
                vec![serenity::AutocompleteChoice::new(
                    clip(&format!("⚠ {}", why.to_plain()), 100),
                    value,
                )]
            }
            Err(e) => {
                tracing::debug!("order autocomplete: {e}");
                vec![]
            }
        };
        serenity::CreateAutocompleteResponse::new().set_choices(choices)
    })
}

/// Autocomplete choices for legal values: numbers as integers, text as
/// strings (values too long for Discord are left out).
pub fn suggestions(kind: ParamKind, values: Vec<String>) -> Vec<serenity::AutocompleteChoice> {
    values
        .into_iter()
        .filter_map(|v| match kind {
            ParamKind::Number => v
                .trim()
                .parse::<i64>()
                .ok()
                .map(|n| serenity::AutocompleteChoice::new(v.clone(), n)),
            ParamKind::Text | ParamKind::Player => (!v.is_empty() && v.chars().count() <= CHOICE_VALUE_MAX)
                .then(|| serenity::AutocompleteChoice::new(clip(&v, 100), v.clone())),
        })
        .take(AUTOCOMPLETE_MAX)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &'static str, kind: ParamKind, required: bool) -> ParamSpec {
        ParamSpec {
            name,
            description: "a parameter",
            kind,
            required,
        }
    }

    fn depart() -> CommandSpec {
        CommandSpec {
            name: "depart",
            description: "Send ships from a star",
            params: vec![
                param("to", ParamKind::Text, false),
                param("from", ParamKind::Text, true),
                param("ships", ParamKind::Number, true),
            ],
        }
    }

    fn specs() -> Vec<CommandSpec> {
        vec![
            depart(),
            CommandSpec {
                name: "end",
                description: "End your turn",
                params: vec![],
            },
        ]
    }

    fn opts(filled: &[(&str, &str)]) -> Options {
        Options {
            filled: filled.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            focused: None,
        }
    }

    #[test]
    fn commands_are_built_from_the_specs() {
        let cmd = order_command(
            GameKind::Hyperspace,
            "hyperspace",
            "Give an order in your game of Hyperspace",
            specs(),
        );
        assert_eq!(cmd.name, "hyperspace");
        assert!(cmd.subcommand_required);
        assert!(!cmd.guild_only && !cmd.dm_only, "orders must work in DMs");
        let names: Vec<&str> = cmd.subcommands.iter().map(|c| c.name.as_ref()).collect();
        assert_eq!(names, ["depart", "end"]);
        let depart = &cmd.subcommands[0];
        let params: Vec<(&str, bool, bool)> = depart
            .parameters
            .iter()
            .map(|p| (p.name.as_ref(), p.required, p.autocomplete_callback.is_some()))
            .collect();
        // Required first; every option autocompletes; `game` last.
        assert_eq!(
            params,
            [
                ("from", true, true),
                ("ships", true, true),
                ("to", false, true),
                ("game", false, true)
            ]
        );
        assert_eq!(cmd.subcommands[1].parameters.len(), 1);
        assert!(depart.custom_data.downcast_ref::<OrderMeta>().is_some());
    }

    #[test]
    fn registration_json_types_the_options() {
        let cmd = order_command(
            GameKind::Hyperspace,
            "hyperspace",
            "Give an order in your game of Hyperspace",
            specs(),
        );
        let json = serde_json::to_value(cmd.create_as_slash_command().unwrap()).unwrap();
        assert_eq!(json["name"], "hyperspace");
        assert!(
            json.get("contexts").is_none_or(|c| c.is_null()),
            "usable everywhere, DMs included: {json}"
        );
        let depart = &json["options"][0];
        assert_eq!(depart["name"], "depart");
        assert_eq!(depart["type"], 1, "a subcommand");
        let types: Vec<(String, u64, bool)> = depart["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                (
                    o["name"].as_str().unwrap().to_string(),
                    o["type"].as_u64().unwrap(),
                    o["autocomplete"] == true,
                )
            })
            .collect();
        assert_eq!(
            types,
            [
                ("from".to_string(), 3, true),
                ("ships".to_string(), 4, true),
                ("to".to_string(), 3, true),
                ("game".to_string(), 4, true)
            ]
        );
    }

    /// Discord's rules for names: lowercase letters, digits, `-` and `_`, 1 to 32.
    fn valid_name(name: &str) -> bool {
        (1..=32).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    }

    #[test]
    fn every_game_system_makes_valid_discord_commands() {
        let all = crate::commands();
        let mut top: Vec<&str> = all.iter().map(|c| c.name.as_ref()).collect();
        top.sort();
        top.dedup();
        assert_eq!(top.len(), all.len(), "command names must be unique: {top:?}");
        for cmd in order_commands() {
            assert!(valid_name(&cmd.name), "{}", cmd.name);
            assert!(
                !cmd.subcommands.is_empty() && cmd.subcommands.len() <= 25,
                "{}",
                cmd.name
            );
            let mut names: Vec<&str> = cmd.subcommands.iter().map(|c| c.name.as_ref()).collect();
            names.dedup();
            assert_eq!(names.len(), cmd.subcommands.len());
            for sub in &cmd.subcommands {
                assert!(valid_name(&sub.name), "{} {}", cmd.name, sub.name);
                let d = sub.description.as_deref().unwrap_or("");
                assert!((1..=DESCRIPTION_MAX).contains(&d.chars().count()), "{}: {d}", sub.name);
                assert!(sub.parameters.len() <= 25);
                let required: Vec<bool> = sub.parameters.iter().map(|p| p.required).collect();
                assert!(
                    required.windows(2).all(|w| w[0] || !w[1]),
                    "required options first in {}",
                    sub.name
                );
                for p in &sub.parameters {
                    assert!(valid_name(&p.name), "{} {}", sub.name, p.name);
                    let d = p.description.as_deref().unwrap_or("");
                    assert!(
                        (1..=DESCRIPTION_MAX).contains(&d.chars().count()),
                        "{} {}: {d}",
                        sub.name,
                        p.name
                    );
                }
            }
            assert!(cmd.create_as_slash_command().is_some());
        }
    }

    #[test]
    fn options_become_a_command_line() {
        let spec = depart();
        let o = opts(&[("ships", "5"), ("game", "12"), ("from", " Algol "), ("bogus", "x")]);
        assert_eq!(o.game(&spec), Some(GameId(12)));
        assert_eq!(o.line(&spec), CommandLine::parse("depart from:Algol ships:5").unwrap());
        let o = opts(&[("from", "Algol"), ("ships", "2"), ("to", "Vega")]);
        assert_eq!(o.game(&spec), None);
        // Arguments follow the spec's order.
        assert_eq!(o.line(&spec).to_string(), "depart to:Vega from:Algol ships:2");
        assert_eq!(opts(&[]).line(&specs()[1]).to_string(), "end");
    }

    #[test]
    fn resolved_options_split_filled_and_focused() {
        // An autocomplete interaction as Discord sends it.
        let data: serenity::CommandData = serde_json::from_value(serde_json::json!({
            "id": "1", "name": "hyperspace", "type": 1,
            "options": [{"name": "depart", "type": 1, "options": [
                {"name": "from", "type": 3, "value": "Algol"},
                {"name": "game", "type": 4, "value": 3},
                {"name": "ships", "type": 4, "value": "1", "focused": true}
            ]}]
        }))
        .unwrap();
        let top = data.options();
        let serenity::ResolvedValue::SubCommand(args) = &top[0].value else {
            panic!("{top:?}")
        };
        let o = Options::from_resolved(args);
        assert_eq!(
            o.filled,
            vec![
                ("from".to_string(), "Algol".to_string()),
                ("game".to_string(), "3".to_string())
            ]
        );
        assert_eq!(o.focused, Some(("ships".to_string(), "1".to_string())));
        assert_eq!(o.game(&depart()), Some(GameId(3)));
    }

    #[test]
    fn suggestions_are_typed_and_capped() {
        let json = |c: Vec<serenity::AutocompleteChoice>| serde_json::to_value(c).unwrap();
        let n = suggestions(ParamKind::Number, vec!["1".into(), "x".into(), "3".into()]);
        assert_eq!(
            json(n),
            serde_json::json!([{"name": "1", "value": 1}, {"name": "3", "value": 3}])
        );
        let t = suggestions(ParamKind::Text, vec!["Algol".into(), "".into(), "y".repeat(101)]);
        assert_eq!(json(t), serde_json::json!([{"name": "Algol", "value": "Algol"}]));
        let many = suggestions(ParamKind::Text, (0..40).map(|i| format!("s{i}")).collect());
        assert_eq!(many.len(), AUTOCOMPLETE_MAX);
    }
}
