//! Interactions the harness sends, built like Discord's client builds them:
//! slash commands and autocomplete only for commands the bot registered
//! (global ones in DMs), options typed and bounded as registered, buttons
//! and menu picks only on messages the user can see.

use super::fake_discord::{
    all_components, ChannelKind, FakeDiscord, Id, Interaction, InteractionKind, Message, Origin, Place, User, World,
};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Permissions of members and of the app in the guild (view, send, embed,
/// attach, read history, use application commands...).
pub const PERMISSIONS: &str = "2251804108521024";

/// How long the harness waits for the bot to answer.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

impl FakeDiscord {
    /// Send a slash command: `path` is `"game new"`, `"hyperspace depart"`,
    /// `"mygames"`; options by name (strings, numbers, or a choice's name).
    /// Returns the interaction id. Panics if Discord's client would not let
    /// a user send it.
    pub async fn command(&self, user: &User, place: Place, path: &str, options: &[(&str, Value)]) -> Id {
        self.send_command(user, place, path, options, None).await
    }

    /// Ask for autocomplete suggestions while `focused` is being typed.
    pub async fn autocomplete(
        &self,
        user: &User,
        place: Place,
        path: &str,
        filled: &[(&str, Value)],
        focused: (&str, &str),
    ) -> Vec<Value> {
        let id = self.send_command(user, place, path, filled, Some(focused)).await;
        self.wait_for(&format!("autocomplete answer to {path}"), ANSWER_TIMEOUT, |w| {
            w.interaction(id).and_then(|i| i.choices.clone())
        })
        .await
    }

    async fn send_command(
        &self,
        user: &User,
        place: Place,
        path: &str,
        options: &[(&str, Value)],
        focused: Option<(&str, &str)>,
    ) -> Id {
        self.wait_connected(ANSWER_TIMEOUT).await;
        let kind = if focused.is_some() {
            InteractionKind::Autocomplete
        } else {
            InteractionKind::Command
        };
        let interaction = self.with(|w| {
            let (channel, guild) = where_(w, user, place);
            let words: Vec<&str> = path.split_whitespace().collect();
            let cmd = find_command(w, words[0], guild).unwrap_or_else(|| {
                panic!(
                    "/{} is not registered {}",
                    words[0],
                    if guild.is_some() { "in the guild" } else { "for DMs" }
                )
            });
            let data_options = build_options(&cmd, &words[1..], options, focused)
                .unwrap_or_else(|e| panic!("Discord would not send /{path}: {e}"));
            let mut data = json!({
                "id": cmd["id"], "name": cmd["name"], "type": 1, "options": data_options,
            });
            if let Some(g) = cmd.get("guild_id") {
                data["guild_id"] = g.clone();
            }
            // User options come with the users resolved, as Discord sends them.
            let users: Vec<String> = all_options(&data["options"])
                .into_iter()
                .filter(|o| o["type"] == 6 && o.get("focused").is_none())
                .filter_map(|o| o["value"].as_str().map(str::to_string))
                .collect();
            if !users.is_empty() {
                let mut resolved = serde_json::Map::new();
                for u in users {
                    let id: Id = u.parse().expect("a user option holds a snowflake");
                    resolved.insert(u, w.user_json(id));
                }
                data["resolved"] = json!({ "users": resolved });
            }
            let focused_type = all_options(&data["options"])
                .into_iter()
                .find(|o| o["focused"] == true)
                .and_then(|o| o["type"].as_u64());
            let (id, payload) = new_interaction(w, kind, user, channel, guild, path.to_string(), data, None);
            if let Some(i) = w.interactions.iter_mut().find(|i| i.id == id) {
                i.focused_type = focused_type;
            }
            (id, payload)
        });
        self.send_interaction(interaction)
    }

    /// Press the button `custom_id` on message `message`.
    pub async fn press(&self, user: &User, message: Id, custom_id: &str) -> Id {
        self.component(user, message, custom_id, None).await
    }

    /// Pick `values` in the select menu `custom_id` on message `message`.
    pub async fn select(&self, user: &User, message: Id, custom_id: &str, values: &[&str]) -> Id {
        self.component(user, message, custom_id, Some(values)).await
    }

    /// Press the button `custom_id` as a client still showing `seen`, an
    /// older copy of the message (an edit that removed the button had not
    /// reached it yet): what makes a press stale.
    pub async fn press_as_seen(&self, user: &User, seen: &Message, custom_id: &str) -> Id {
        self.component_of(user, seen.id, custom_id, None, Some(seen)).await
    }

    async fn component(&self, user: &User, message: Id, custom_id: &str, values: Option<&[&str]>) -> Id {
        self.component_of(user, message, custom_id, values, None).await
    }

    async fn component_of(
        &self,
        user: &User,
        message: Id,
        custom_id: &str,
        values: Option<&[&str]>,
        seen: Option<&Message>,
    ) -> Id {
        self.wait_connected(ANSWER_TIMEOUT).await;
        let interaction = self.with(|w| {
            let m = match seen {
                Some(m) => m.clone(),
                None => w
                    .message(message)
                    .unwrap_or_else(|| panic!("no message {message}"))
                    .clone(),
            };
            assert!(!m.deleted, "message {message} was deleted");
            assert!(can_see(w, user.id, &m), "{} cannot see message {message}", user.name);
            let comps = all_components(&m.components);
            let c = comps
                .iter()
                .find(|c| c["custom_id"] == custom_id)
                .unwrap_or_else(|| panic!("message {message} has no component `{custom_id}`: {:?}", m.custom_ids()));
            assert!(c["disabled"] != true, "component `{custom_id}` is disabled");
            let data = match (c["type"].as_u64(), values) {
                (Some(2), None) => json!({"custom_id": custom_id, "component_type": 2}),
                (Some(3), Some(values)) => {
                    let offered: Vec<&str> = c["options"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|o| o["value"].as_str())
                        .collect();
                    for v in values {
                        assert!(
                            offered.contains(v),
                            "menu `{custom_id}` does not offer `{v}`: {offered:?}"
                        );
                    }
                    let min = c["min_values"].as_u64().unwrap_or(1) as usize;
                    let max = c["max_values"].as_u64().unwrap_or(1) as usize;
                    assert!(
                        (min..=max).contains(&values.len()),
                        "menu `{custom_id}` takes {min} to {max} values"
                    );
                    json!({"custom_id": custom_id, "component_type": 3, "values": values})
                }
                (t, v) => panic!("component `{custom_id}` is of type {t:?}; used with values {v:?}"),
            };
            let (guild, channel) = match w.channels[&m.channel_id].kind {
                ChannelKind::Guild(g) => (Some(g), m.channel_id),
                ChannelKind::Dm(_) => (None, m.channel_id),
            };
            let msg_json = w.message_json(&m);
            let label = custom_id.to_string();
            new_interaction(
                w,
                InteractionKind::Component,
                user,
                channel,
                guild,
                label,
                data,
                Some((message, msg_json)),
            )
        });
        self.send_interaction(interaction)
    }

    fn send_interaction(&self, (id, payload): (Id, Value)) -> Id {
        if let Err(e) = serde_json::from_value::<serenity::model::application::Interaction>(payload.clone()) {
            panic!("malformed interaction fixture (serenity cannot read it): {e}\n{payload}");
        }
        self.dispatch("INTERACTION_CREATE", payload);
        id
    }

    /// The bot's answer to a command or component: the initial response,
    /// the deferred response once filled, or the first follow-up (for a
    /// component, the follow-up after the acknowledgement).
    pub async fn answer(&self, interaction: Id) -> Message {
        self.wait_for(
            &format!("the answer to interaction {interaction}"),
            ANSWER_TIMEOUT,
            |w| answer_of(w, interaction),
        )
        .await
    }

    /// Every message answering the interaction so far.
    pub fn answers(&self, interaction: Id) -> Vec<Message> {
        self.read(|w| {
            w.messages
                .iter()
                .filter(|m| {
                    matches!(m.origin, Origin::Reply { interaction: i } | Origin::Followup { interaction: i } if i == interaction)
                })
                .cloned()
                .collect()
        })
    }

    /// Send a command and wait for its answer.
    pub async fn run(&self, user: &User, place: Place, path: &str, options: &[(&str, Value)]) -> Message {
        let id = self.command(user, place, path, options).await;
        self.answer(id).await
    }
}

/// Options at any depth of an interaction's options.
fn all_options(options: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    for o in options.as_array().into_iter().flatten() {
        out.push(o);
        out.extend(all_options(&o["options"]));
    }
    out
}

fn answer_of(w: &World, interaction: Id) -> Option<Message> {
    let i = w.interaction(interaction)?;
    i.callback?;
    w.messages
        .iter()
        .filter(|m| !m.deleted && !m.loading())
        .find(|m| match m.origin {
            Origin::Reply { interaction: x } => x == interaction,
            Origin::Followup { interaction: x } => x == interaction,
            Origin::Post | Origin::Seeded => false,
        })
        .cloned()
}

fn can_see(w: &World, user: Id, m: &Message) -> bool {
    if m.visible_to.is_some_and(|v| v != user) {
        return false;
    }
    w.can_see_channel(user, m.channel_id)
}

fn where_(w: &mut World, user: &User, place: Place) -> (Id, Option<Id>) {
    match place {
        Place::Channel(c) => match w.channels.get(&c).map(|c| c.kind.clone()) {
            Some(ChannelKind::Guild(g)) => {
                assert!(w.can_see_channel(user.id, c), "{} cannot see channel {c}", user.name);
                (c, Some(g))
            }
            other => panic!("channel {c} is not a guild channel: {other:?}"),
        },
        Place::Dm => (w.dm_channel(user.id), None),
    }
}

/// The registered command `name` usable here: guild commands and global
/// ones in the guild; only global ones allowed in bot DMs in a DM.
fn find_command(w: &World, name: &str, guild: Option<Id>) -> Option<Value> {
    let guild_cmds = guild
        .and_then(|g| w.guild_commands.get(&g))
        .cloned()
        .unwrap_or_default();
    guild_cmds
        .iter()
        .chain(w.global_commands.iter())
        .filter(|c| c["name"] == name && c["type"].as_u64().unwrap_or(1) == 1)
        .find(|c| {
            guild.is_some()
                || (c["dm_permission"] != false
                    && c["contexts"]
                        .as_array()
                        .is_none_or(|ctx| ctx.iter().any(|x| x.as_u64() == Some(1))))
        })
        .cloned()
}

/// The `options` of an interaction's data, checked against the registered
/// command like Discord's client does.
fn build_options(
    cmd: &Value,
    subs: &[&str],
    given: &[(&str, Value)],
    focused: Option<(&str, &str)>,
) -> Result<Vec<Value>, String> {
    let registered: Vec<Value> = cmd["options"].as_array().cloned().unwrap_or_default();
    if let Some((sub, rest)) = subs.split_first() {
        let s = registered
            .iter()
            .find(|o| o["name"] == *sub && matches!(o["type"].as_u64(), Some(1 | 2)))
            .ok_or_else(|| format!("no subcommand `{sub}`"))?;
        let inner = build_options(s, rest, given, focused)?;
        return Ok(vec![json!({"name": sub, "type": s["type"], "options": inner})]);
    }
    if registered.iter().any(|o| matches!(o["type"].as_u64(), Some(1 | 2))) {
        return Err("a subcommand must be chosen".into());
    }
    let mut out = Vec::new();
    for (name, value) in given {
        let spec = registered
            .iter()
            .find(|o| o["name"] == *name)
            .ok_or_else(|| format!("no option `{name}`"))?;
        out.push(json!({"name": name, "type": spec["type"], "value": typed_value(spec, value)?}));
    }
    if let Some((name, partial)) = focused {
        let spec = registered
            .iter()
            .find(|o| o["name"] == name)
            .ok_or_else(|| format!("no option `{name}`"))?;
        if spec["autocomplete"] != true {
            return Err(format!("option `{name}` does not autocomplete"));
        }
        out.push(json!({"name": name, "type": spec["type"], "value": partial, "focused": true}));
    } else {
        for o in &registered {
            if o["required"] == true && !given.iter().any(|(n, _)| o["name"] == *n) {
                return Err(format!("required option `{}` missing", o["name"]));
            }
        }
    }
    Ok(out)
}

fn typed_value(spec: &Value, value: &Value) -> Result<Value, String> {
    let name = spec["name"].as_str().unwrap_or("?");
    // A choice may be given by its name.
    if let Some(choices) = spec["choices"].as_array().filter(|c| !c.is_empty()) {
        if let Some(c) = choices.iter().find(|c| &c["value"] == value || &c["name"] == value) {
            return Ok(c["value"].clone());
        }
        return Err(format!("`{name}` must be one of its choices, not {value}"));
    }
    let v = match spec["type"].as_u64() {
        Some(3) => {
            let s = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let n = s.chars().count() as u64;
            if let Some(max) = spec["max_length"].as_u64() {
                if n > max {
                    return Err(format!("`{name}` is at most {max} characters"));
                }
            }
            if n < spec["min_length"].as_u64().unwrap_or(0) {
                return Err(format!("`{name}` is too short"));
            }
            json!(s)
        }
        Some(4) => {
            let n = match value {
                Value::Number(n) => n.as_i64(),
                Value::String(s) => s.trim().parse::<i64>().ok(),
                _ => None,
            }
            .ok_or_else(|| format!("`{name}` takes a whole number, not {value}"))?;
            if spec["min_value"].as_i64().is_some_and(|m| n < m) || spec["max_value"].as_i64().is_some_and(|m| n > m) {
                return Err(format!("`{name}` = {n} is out of its range"));
            }
            json!(n)
        }
        Some(10) => json!(value.as_f64().ok_or_else(|| format!("`{name}` takes a number"))?),
        Some(5) => json!(value.as_bool().ok_or_else(|| format!("`{name}` takes true or false"))?),
        // A user: given as their id.
        Some(6) => match value {
            Value::String(s) if s.parse::<u64>().is_ok() => json!(s),
            Value::Number(n) if n.as_u64().is_some() => json!(n.to_string()),
            _ => return Err(format!("`{name}` takes a user id, not {value}")),
        },
        other => {
            return Err(format!(
                "option type {other:?} of `{name}` is not supported by the harness"
            ))
        }
    };
    Ok(v)
}

#[allow(clippy::too_many_arguments)]
fn new_interaction(
    w: &mut World,
    kind: InteractionKind,
    user: &User,
    channel: Id,
    guild: Option<Id>,
    label: String,
    data: Value,
    message: Option<(Id, Value)>,
) -> (Id, Value) {
    let id = w.snowflake();
    let token = format!("itoken-{id}-{}", w.snowflake());
    let user_json = w.user_json(user.id);
    let mut payload = json!({
        "id": id.to_string(),
        "application_id": w.app_id.to_string(),
        "type": kind as u8,
        "data": data,
        "channel_id": channel.to_string(),
        "channel": w.channel_json(channel),
        "token": token,
        "version": 1,
        "app_permissions": PERMISSIONS,
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": 10_485_760,
    });
    match guild {
        Some(g) => {
            payload["guild_id"] = json!(g.to_string());
            payload["guild_locale"] = json!("en-US");
            payload["member"] = json!({
                "user": user_json, "nick": null, "avatar": null, "roles": [],
                "joined_at": "2024-01-01T00:00:00.000000+00:00", "premium_since": null,
                "deaf": false, "mute": false, "flags": 0, "pending": false, "permissions": PERMISSIONS,
            });
            payload["authorizing_integration_owners"] = json!({"0": g.to_string()});
            payload["context"] = json!(0);
        }
        None => {
            payload["user"] = user_json;
            payload["authorizing_integration_owners"] = json!({"0": w.guild_id.to_string()});
            payload["context"] = json!(1);
        }
    }
    if let Some((_, m)) = &message {
        payload["message"] = m.clone();
    }
    w.interactions.push(Interaction {
        id,
        token,
        kind,
        user: user.id,
        channel_id: channel,
        label,
        created: Instant::now(),
        callback: None,
        original: None,
        message: message.map(|(m, _)| m),
        choices: None,
        focused_type: None,
    });
    (id, payload)
}
