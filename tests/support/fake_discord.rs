//! The fake Discord: a registry of guilds, channels, users, messages and
//! interactions, the REST routes the bot uses, a log of every request, and
//! injected faults. The gateway half is in [`super::gateway`].
//!
//! Discord-shaped on purpose: errors carry Discord's codes, interaction
//! callbacks are refused after 3 seconds or when sent twice, the first
//! follow-up after a deferral replaces the "thinking" placeholder, a message
//! `nonce` with `enforce_nonce` is honoured, every request is checked
//! against the OpenAPI spec and every answer deserializes into serenity's
//! own models. Anything unexpected is recorded as a *problem*; tests end
//! with [`FakeDiscord::assert_clean`].

use super::gateway::{self, GatewayState};
use super::http::{self, Part, Request, Response};
use super::openapi::{self, Spec, SpecBody};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::watch;

pub type Id = u64;

/// The bot token the fake accepts.
pub const TOKEN: &str = "fake";
/// Discord: an interaction must be answered within 3 seconds.
pub const CALLBACK_DEADLINE: Duration = Duration::from_secs(3);
/// Discord: an interaction token works for 15 minutes.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// Discord: a repeated nonce is recognised for a few minutes.
pub const NONCE_WINDOW: Duration = Duration::from_secs(5 * 60);
/// Discord's message length limit.
pub const CONTENT_MAX: usize = 2000;
/// Message flag: only the interaction user sees it.
pub const EPHEMERAL: u64 = 64;
/// Message flag: a deferred response still "thinking".
pub const LOADING: u64 = 128;

#[derive(Clone, Debug)]
pub struct User {
    pub id: Id,
    pub name: String,
    pub bot: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    Guild(Id),
    /// A DM between the bot and this user.
    Dm(Id),
}

#[derive(Clone, Debug)]
pub struct Channel {
    pub id: Id,
    pub name: String,
    pub kind: ChannelKind,
    /// A thread (a guild channel too): its parent, kind and members.
    pub thread: Option<Thread>,
}

/// A thread made by `POST /channels/{id}/threads`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    /// The channel it was opened in.
    pub parent: Id,
    /// Type 12: only its members (and moderators) see it.
    pub private: bool,
    /// Whether members other than moderators may add people.
    pub invitable: bool,
    pub owner: Id,
    /// Who is in it (the one who opened it, and whoever was added).
    pub members: BTreeSet<Id>,
}

#[derive(Clone, Debug)]
pub struct Attachment {
    pub id: Id,
    pub filename: String,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// How a message came to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `POST /channels/{id}/messages`.
    Post,
    /// The initial response to an interaction (or its deferred placeholder).
    Reply { interaction: Id },
    /// A follow-up to an interaction.
    Followup { interaction: Id },
    /// Put there by the test as an earlier bot message
    /// ([`FakeDiscord::seed_bot_message`]).
    Seeded,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub id: Id,
    pub channel_id: Id,
    pub author: Id,
    pub content: String,
    /// Action rows, as the bot sent them.
    pub components: Vec<Value>,
    pub attachments: Vec<Attachment>,
    pub flags: u64,
    pub nonce: Option<String>,
    pub origin: Origin,
    /// Who alone can see it (ephemeral responses).
    pub visible_to: Option<Id>,
    pub deleted: bool,
    /// How many times it was edited.
    pub edits: u32,
    pub created: Instant,
    /// The `allowed_mentions` it was posted with (None: not given, which
    /// on Discord lets every mention in the content ping).
    pub allowed_mentions: Option<Value>,
    /// Who it alerted: people mentioned in its content whom its
    /// `allowed_mentions` let be pinged, when posted and by later edits.
    pub pinged: Vec<Id>,
}

impl Message {
    /// What its readers see: text, controls and attachments.
    fn looks(&self) -> (String, Vec<Value>, Vec<Id>, u64) {
        (
            self.content.clone(),
            self.components.clone(),
            self.attachments.iter().map(|a| a.id).collect(),
            self.flags,
        )
    }

    pub fn ephemeral(&self) -> bool {
        self.flags & EPHEMERAL != 0
    }
    pub fn loading(&self) -> bool {
        self.flags & LOADING != 0
    }
    /// It has buttons or menus.
    pub fn has_controls(&self) -> bool {
        !all_components(&self.components)
            .iter()
            .all(|c| c["type"].as_u64() == Some(1) && c["components"].as_array().is_none_or(|a| a.is_empty()))
    }
    /// Every custom id of the message's buttons and menus, with menu
    /// option values as `custom_id=value`.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in all_components(&self.components) {
            if let Some(id) = c["custom_id"].as_str() {
                out.push(id.to_string());
                for o in c["options"].as_array().into_iter().flatten() {
                    if let Some(v) = o["value"].as_str() {
                        out.push(format!("{id}={v}"));
                    }
                }
            }
        }
        out
    }

    /// [`Message::custom_ids`] without the positions of orders' controls
    /// (see [`unpositioned`]).
    pub fn plain_ids(&self) -> Vec<String> {
        self.custom_ids().iter().map(|c| unpositioned(c)).collect()
    }

    /// The custom id on the message that reads as `id` once the position
    /// an order's control carries (`o:{game}@{phase}:…`) is left out:
    /// tests name controls without it (`o:{game}:{line}`).
    pub fn control(&self, id: &str) -> Option<String> {
        let comps = all_components(&self.components);
        let ids = || comps.iter().filter_map(|c| c["custom_id"].as_str().map(|i| (*c, i)));
        // A button or a menu of that id.
        if let Some((_, i)) = ids().find(|(_, i)| unpositioned(i) == id) {
            return Some(i.to_string());
        }
        // A menu offering a value: `{menu}={value}`.
        ids()
            .find(|(c, i)| {
                c["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|o| o["value"].as_str())
                    .any(|v| format!("{}={v}", unpositioned(i)) == id)
            })
            .map(|(_, i)| i.to_string())
    }
}

/// A custom id without the position an order's control carries:
/// `o:3@7:end` → `o:3:end`, `s:3@7:1` → `s:3:1`; other ids as they are.
pub fn unpositioned(id: &str) -> String {
    let Some(rest) = ["o:", "c:", "s:"].iter().find_map(|t| id.strip_prefix(t)) else {
        return id.to_string();
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (game, after) = rest.split_at(digits);
    match after.strip_prefix('@') {
        Some(p) => {
            let p_digits = p.len() - p.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            format!("{}{game}{}", &id[..2], &p[p_digits..])
        }
        None => id.to_string(),
    }
}

/// Components at any depth (action rows hold buttons and menus).
pub fn all_components(rows: &[Value]) -> Vec<&Value> {
    let mut out = Vec::new();
    for r in rows {
        out.push(r);
        if let Some(inner) = r["components"].as_array() {
            out.extend(all_components(inner));
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteractionKind {
    Command = 2,
    Component = 3,
    Autocomplete = 4,
}

#[derive(Clone, Debug)]
pub struct Interaction {
    pub id: Id,
    pub token: String,
    pub kind: InteractionKind,
    pub user: Id,
    pub channel_id: Id,
    /// `game new`, a custom id, ... (for messages).
    pub label: String,
    pub created: Instant,
    /// The callback type, once answered.
    pub callback: Option<u64>,
    /// The message `@original` means.
    pub original: Option<Id>,
    /// A component's message.
    pub message: Option<Id>,
    pub choices: Option<Vec<Value>>,
    /// For autocomplete: the type of the option being typed.
    pub focused_type: Option<u64>,
}

/// A request body as received.
#[derive(Clone, Debug)]
pub enum Body {
    Empty,
    Json(Value),
    Multipart { payload: Option<Value>, files: Vec<Part> },
    Raw(Vec<u8>),
}

impl Body {
    /// The JSON payload (the body, or a form's `payload_json`).
    pub fn json(&self) -> Option<&Value> {
        match self {
            Body::Json(v) => Some(v),
            Body::Multipart { payload, .. } => payload.as_ref(),
            _ => None,
        }
    }
    pub fn files(&self) -> &[Part] {
        match self {
            Body::Multipart { files, .. } => files,
            _ => &[],
        }
    }
}

/// One request the bot made, and what it was told.
#[derive(Clone, Debug)]
pub struct Logged {
    pub seq: u64,
    pub method: String,
    /// Without `/api/v10`.
    pub path: String,
    pub query: Vec<(String, String)>,
    pub body: Body,
    pub status: u16,
    /// An injected fault, a deduplicated nonce, ...
    pub note: Option<String>,
    /// The OpenAPI operation id, when checked.
    pub operation: Option<String>,
}

/// A fault to inject.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FaultKind {
    /// Answer 500 without doing anything.
    ServerError,
    /// Do the work, then answer 500 (the answer is lost).
    ServerErrorAfterWork,
    /// Answer 429 and refuse the route until `retry_after` seconds pass.
    RateLimited { retry_after: f64 },
    /// Do the work, then never answer.
    HangAfterWork,
}

/// Which requests a fault applies to.
#[derive(Clone, Debug, PartialEq)]
pub enum FaultTarget {
    /// `POST /channels/{id}/messages` to this channel (any channel: None).
    ChannelPost(Option<Id>),
    /// `POST /channels/{id}/messages` to a DM channel.
    DmPost,
    /// `PATCH /channels/{c}/messages/{id}` of this message (any: None).
    Edit(Option<Id>),
}

#[derive(Clone, Debug)]
struct Fault {
    kind: FaultKind,
    target: FaultTarget,
    remaining: u32,
}

/// Everything the fake knows. Read it with [`FakeDiscord::read`].
pub struct World {
    next_counter: u64,
    pub seq: u64,
    pub app_id: Id,
    pub bot: User,
    pub guild_id: Id,
    /// More guilds the bot is in, besides `guild_id` (see
    /// [`FakeDiscord::add_guild_on_shard`]).
    pub guilds: Vec<Id>,
    pub users: BTreeMap<Id, User>,
    /// Users who do not accept DMs from the bot: a message to their DM
    /// channel is refused with Discord's 403 "Cannot send messages to this
    /// user" (code 50007), as Discord does (opening the channel works).
    pub dms_closed: BTreeSet<Id>,
    /// Users to whom even opening a DM channel is refused
    /// (`POST /users/@me/channels`): see [`FakeDiscord::set_dm_open_refused`].
    pub dm_open_refused: BTreeSet<Id>,
    /// Users with Manage Threads: they see every private thread, as
    /// Discord's moderators do.
    pub moderators: BTreeSet<Id>,
    pub channels: BTreeMap<Id, Channel>,
    pub messages: Vec<Message>,
    pub interactions: Vec<Interaction>,
    pub global_commands: Vec<Value>,
    pub guild_commands: BTreeMap<Id, Vec<Value>>,
    pub log: Vec<Logged>,
    /// Everything that should fail the test.
    pub problems: Vec<String>,
    faults: Vec<Fault>,
    rate_limited_until: HashMap<String, Instant>,
    pub gateway: GatewayState,
    pub http_addr: SocketAddr,
    pub gateway_addr: SocketAddr,
}

impl World {
    /// A fresh snowflake (Discord epoch timestamp + counter; never 0).
    pub fn snowflake(&mut self) -> Id {
        self.next_counter += 1;
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        ((ms - 1_420_070_400_000) << 22) | (self.next_counter & 0x3f_ffff)
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    pub fn problem(&mut self, p: impl Into<String>) {
        let p = p.into();
        eprintln!("FAKE DISCORD PROBLEM: {p}");
        self.problems.push(p);
    }

    pub fn message(&self, id: Id) -> Option<&Message> {
        self.messages.iter().find(|m| m.id == id)
    }

    fn message_mut(&mut self, id: Id) -> Option<&mut Message> {
        self.messages.iter_mut().find(|m| m.id == id)
    }

    pub fn interaction(&self, id: Id) -> Option<&Interaction> {
        self.interactions.iter().find(|i| i.id == id)
    }

    /// The DM channel between the bot and `user` (made on first use, and
    /// the same forever after, as on Discord).
    pub fn dm_channel(&mut self, user: Id) -> Id {
        if let Some(c) = self.channels.values().find(|c| c.kind == ChannelKind::Dm(user)) {
            return c.id;
        }
        let id = self.snowflake();
        self.channels.insert(
            id,
            Channel {
                id,
                name: String::new(),
                kind: ChannelKind::Dm(user),
                thread: None,
            },
        );
        id
    }

    /// The existing DM channel with `user`, if any.
    pub fn dm_channel_of(&self, user: Id) -> Option<Id> {
        self.channels
            .values()
            .find(|c| c.kind == ChannelKind::Dm(user))
            .map(|c| c.id)
    }

    /// Messages in a channel that are still there, oldest first.
    pub fn messages_in(&self, channel: Id) -> Vec<&Message> {
        self.messages
            .iter()
            .filter(|m| m.channel_id == channel && !m.deleted)
            .collect()
    }

    pub fn user_json(&self, id: Id) -> Value {
        let u = self.users.get(&id).cloned().unwrap_or_else(|| User {
            id,
            name: format!("user{id}"),
            bot: false,
        });
        user_json(&u)
    }

    pub fn channel_json(&self, id: Id) -> Value {
        let c = &self.channels[&id];
        if let (ChannelKind::Guild(g), Some(t)) = (&c.kind, &c.thread) {
            return self.thread_json(id, *g, &c.name, t);
        }
        match &c.kind {
            ChannelKind::Guild(g) => json!({
                "id": id.to_string(), "type": 0, "guild_id": g.to_string(), "name": c.name, "position": 0,
                "permission_overwrites": [], "nsfw": false, "topic": null, "last_message_id": null,
                "rate_limit_per_user": 0, "parent_id": null, "flags": 0
            }),
            ChannelKind::Dm(u) => json!({
                "id": id.to_string(), "type": 1, "last_message_id": null, "flags": 0,
                "recipients": [self.user_json(*u)]
            }),
        }
    }

    /// A thread as Discord shows it (`CreatedThreadResponse`, which
    /// serenity reads as a `GuildChannel`).
    fn thread_json(&self, id: Id, guild: Id, name: &str, t: &Thread) -> Value {
        let created = serenity::model::Timestamp::from_unix_timestamp(((id >> 22) + 1_420_070_400_000) as i64 / 1000)
            .map(|t| t.to_string())
            .unwrap_or_default();
        json!({
            "id": id.to_string(), "type": if t.private { 12 } else { 11 }, "guild_id": guild.to_string(),
            "name": name, "parent_id": t.parent.to_string(), "owner_id": t.owner.to_string(),
            "last_message_id": null, "flags": 0, "rate_limit_per_user": 0,
            "message_count": self.messages_in(id).len(), "total_message_sent": self.messages_in(id).len(),
            "member_count": t.members.len(),
            "thread_metadata": {
                "archived": false, "archive_timestamp": created, "auto_archive_duration": 10080,
                "locked": false, "invitable": t.invitable, "create_timestamp": created
            },
        })
    }

    /// The thread `id`, if it is one.
    pub fn thread(&self, id: Id) -> Option<&Thread> {
        self.channels.get(&id).and_then(|c| c.thread.as_ref())
    }

    /// The threads opened in `parent`, oldest first.
    pub fn threads_in(&self, parent: Id) -> Vec<(Id, &Thread)> {
        self.channels
            .values()
            .filter_map(|c| c.thread.as_ref().filter(|t| t.parent == parent).map(|t| (c.id, t)))
            .collect()
    }

    /// Whether `user` can see what is in `channel`: a DM only its user; a
    /// private thread its members and moderators; other guild channels
    /// everyone.
    pub fn can_see_channel(&self, user: Id, channel: Id) -> bool {
        let Some(c) = self.channels.get(&channel) else {
            return false;
        };
        match (&c.kind, &c.thread) {
            (ChannelKind::Dm(u), _) => *u == user,
            (ChannelKind::Guild(_), Some(t)) if t.private => {
                t.members.contains(&user) || self.moderators.contains(&user)
            }
            (ChannelKind::Guild(_), _) => true,
        }
    }

    pub fn message_json(&self, m: &Message) -> Value {
        let mut attachments = Vec::new();
        for a in &m.attachments {
            let url = format!(
                "http://{}/attachments/{}/{}/{}",
                self.http_addr, m.channel_id, a.id, a.filename
            );
            let mut aj = json!({
                "id": a.id.to_string(), "filename": a.filename, "size": a.data.len(),
                "url": url, "proxy_url": url,
            });
            if let Some(ct) = &a.content_type {
                aj["content_type"] = json!(ct);
            }
            if let Some((w, h)) = png_size(&a.data) {
                aj["width"] = json!(w);
                aj["height"] = json!(h);
            }
            attachments.push(aj);
        }
        let mut counter = 0;
        let components: Vec<Value> = m
            .components
            .iter()
            .map(|c| with_component_ids(c, &mut counter))
            .collect();
        let kind = match m.origin {
            Origin::Reply { interaction } | Origin::Followup { interaction } => {
                match self.interaction(interaction).map(|i| i.kind) {
                    Some(InteractionKind::Command) if matches!(m.origin, Origin::Reply { .. }) => 20,
                    _ => 0,
                }
            }
            Origin::Post | Origin::Seeded => 0,
        };
        let edited = if m.edits > 0 {
            json!(serenity::model::Timestamp::now().to_string())
        } else {
            Value::Null
        };
        let mut j = json!({
            "id": m.id.to_string(),
            "channel_id": m.channel_id.to_string(),
            "author": self.user_json(m.author),
            "content": m.content,
            "timestamp": serenity::model::Timestamp::from_unix_timestamp(((m.id >> 22) + 1_420_070_400_000) as i64 / 1000)
                .map(|t| t.to_string())
                .unwrap_or_default(),
            "edited_timestamp": edited,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": [],
            "pinned": false,
            "type": kind,
            "flags": m.flags,
            "components": components,
        });
        if let Some(n) = &m.nonce {
            j["nonce"] = json!(n);
        }
        if let Origin::Reply { .. } | Origin::Followup { .. } = m.origin {
            j["webhook_id"] = json!(self.app_id.to_string());
            j["application_id"] = json!(self.app_id.to_string());
        }
        j
    }

    pub fn application_json(&self) -> Value {
        json!({
            "id": self.app_id.to_string(),
            "name": "Orrery (fake)",
            "icon": null,
            "description": "",
            "type": null,
            "bot": user_json(&self.bot),
            "bot_public": true,
            "bot_require_code_grant": false,
            "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
            "flags": 0,
            "flags_new": "0",
            "redirect_uris": [],
            "interactions_endpoint_url": null,
            "role_connections_verification_url": null,
            "owner": user_json(&User { id: self.app_id + 1, name: "owner".into(), bot: false }),
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "team": null,
            "eligible_oauth2_scopes": [],
        })
    }
}

pub fn user_json(u: &User) -> Value {
    json!({
        "id": u.id.to_string(),
        "username": u.name,
        "discriminator": "0",
        "global_name": if u.bot { Value::Null } else { json!(u.name) },
        "avatar": null,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": null,
    })
}

fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), without_nulls(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// Response components carry numeric ids (Discord numbers them).
fn with_component_ids(c: &Value, counter: &mut u64) -> Value {
    let mut c = c.clone();
    *counter += 1;
    if c.get("id").is_none() {
        c["id"] = json!(*counter);
    }
    // Discord fills in a select menu's defaults (one value to pick).
    if c["type"] == 3 {
        for key in ["min_values", "max_values"] {
            if c.get(key).is_none_or(Value::is_null) {
                c[key] = json!(1);
            }
        }
    }
    if let Some(inner) = c["components"].as_array().cloned() {
        c["components"] = Value::Array(inner.iter().map(|x| with_component_ids(x, counter)).collect());
    }
    c
}

/// Width and height from a PNG header.
fn png_size(data: &[u8]) -> Option<(u32, u32)> {
    if data.len() < 24 || &data[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes(data[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(data[20..24].try_into().ok()?);
    Some((w, h))
}

/// Where an interaction happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A text channel of the guild.
    Channel(Id),
    /// The user's DM with the bot.
    Dm,
}

pub(crate) struct Shared {
    pub(crate) world: Mutex<World>,
    pub(crate) version: watch::Sender<u64>,
    pub(crate) spec: Option<&'static Spec>,
}

/// A running fake Discord. Cheap to clone.
#[derive(Clone)]
pub struct FakeDiscord {
    pub(crate) shared: Arc<Shared>,
}

/// What a route answers.
enum Answer {
    Json(u16, Value),
    Empty(u16),
    Error(u16, u64, String),
}

impl FakeDiscord {
    /// Bind the REST and gateway ports on 127.0.0.1 and start serving.
    pub async fn start() -> FakeDiscord {
        let http_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind REST port");
        let gw_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind gateway port");
        let http_addr = http_listener.local_addr().unwrap();
        let gateway_addr = gw_listener.local_addr().unwrap();
        let mut world = World {
            next_counter: 0,
            seq: 0,
            app_id: 0,
            bot: User {
                id: 0,
                name: "Orrery".into(),
                bot: true,
            },
            guild_id: 0,
            guilds: Vec::new(),
            users: BTreeMap::new(),
            dms_closed: BTreeSet::new(),
            dm_open_refused: BTreeSet::new(),
            moderators: BTreeSet::new(),
            channels: BTreeMap::new(),
            messages: Vec::new(),
            interactions: Vec::new(),
            global_commands: Vec::new(),
            guild_commands: BTreeMap::new(),
            log: Vec::new(),
            problems: Vec::new(),
            faults: Vec::new(),
            rate_limited_until: HashMap::new(),
            gateway: GatewayState::default(),
            http_addr,
            gateway_addr,
        };
        world.app_id = world.snowflake();
        world.bot.id = world.app_id;
        world.guild_id = world.snowflake();
        let bot = world.bot.clone();
        world.users.insert(bot.id, bot);
        let (version, _) = watch::channel(0);
        let fake = FakeDiscord {
            shared: Arc::new(Shared {
                world: Mutex::new(world),
                version,
                spec: openapi::spec(),
            }),
        };
        let f = fake.clone();
        let handler: http::Handler = Arc::new(move |req| {
            let f = f.clone();
            Box::pin(async move { f.handle(req).await })
        });
        tokio::spawn(http::serve(http_listener, handler));
        tokio::spawn(gateway::serve(fake.clone(), gw_listener));
        fake
    }

    /// `DISCORD_API_BASE` for the bot.
    pub fn api_base(&self) -> String {
        format!("http://{}", self.read(|w| w.http_addr))
    }

    /// Look at the world.
    pub fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.shared.world.lock().unwrap())
    }

    /// Change the world (wakes every waiter).
    pub fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let r = f(&mut self.shared.world.lock().unwrap());
        self.shared.version.send_modify(|v| *v += 1);
        r
    }

    /// Wait until `f` finds something, or panic after `timeout` saying
    /// what was awaited.
    pub async fn wait_for<R>(&self, what: &str, timeout: Duration, mut f: impl FnMut(&World) -> Option<R>) -> R {
        let mut rx = self.shared.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(r) = self.read(&mut f) {
                return r;
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => {
                    if let Some(r) = self.read(&mut f) {
                        return r;
                    }
                    panic!("timed out after {timeout:?} waiting for {what}\n{}", self.dump(25));
                }
            }
        }
    }

    /// Wait until a request matching `pred` is in the log (returns it).
    pub async fn wait_for_request(&self, what: &str, timeout: Duration, pred: impl Fn(&Logged) -> bool) -> Logged {
        self.wait_for(what, timeout, |w| w.log.iter().find(|l| pred(l)).cloned())
            .await
    }

    /// The last `n` requests and messages, for failure reports.
    pub fn dump(&self, n: usize) -> String {
        self.read(|w| {
            let mut s = String::from("--- last requests ---\n");
            for l in w.log.iter().rev().take(n).collect::<Vec<_>>().into_iter().rev() {
                let body = match &l.body {
                    Body::Empty => String::new(),
                    Body::Json(v) => clip(&v.to_string(), 300),
                    Body::Multipart { payload, files } => format!(
                        "{} + {} file(s)",
                        clip(&payload.clone().unwrap_or(Value::Null).to_string(), 300),
                        files.len()
                    ),
                    Body::Raw(b) => format!("{} raw bytes", b.len()),
                };
                let query: Vec<String> = l.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
                s.push_str(&format!(
                    "#{} {} {}{} ({}) -> {}{} {body}\n",
                    l.seq,
                    l.method,
                    l.path,
                    if query.is_empty() {
                        String::new()
                    } else {
                        format!("?{}", query.join("&"))
                    },
                    l.operation.as_deref().unwrap_or("unchecked"),
                    l.status,
                    l.note.as_deref().map(|n| format!(" [{n}]")).unwrap_or_default()
                ));
            }
            s.push_str("--- last messages ---\n");
            for m in w.messages.iter().rev().take(n).collect::<Vec<_>>().into_iter().rev() {
                s.push_str(&format!(
                    "{} in {} {:?}{}{}: {}\n",
                    m.id,
                    m.channel_id,
                    m.origin,
                    if m.ephemeral() { " ephemeral" } else { "" },
                    if m.deleted { " deleted" } else { "" },
                    clip(&m.content, 200)
                ));
            }
            s.push_str(&format!("--- problems: {:?}\n", w.problems));
            s
        })
    }

    /// Fail the test if anything unexpected happened. With the spec, every
    /// request must also have been matched to one of its operations.
    pub fn assert_clean(&self) {
        let problems = self.read(|w| w.problems.clone());
        assert!(
            problems.is_empty(),
            "the fake Discord saw {} problem(s):\n{}",
            problems.len(),
            problems.join("\n")
        );
        if self.shared.spec.is_some() {
            let unchecked: Vec<String> = self.read(|w| {
                w.log
                    .iter()
                    .filter(|l| l.operation.is_none())
                    .map(|l| format!("{} {}", l.method, l.path))
                    .collect()
            });
            assert!(
                unchecked.is_empty(),
                "requests not checked against the spec: {unchecked:?}"
            );
        }
    }

    // ---- the registry ---------------------------------------------------

    pub fn add_user(&self, name: &str) -> User {
        self.with(|w| {
            let u = User {
                id: w.snowflake(),
                name: name.into(),
                bot: false,
            };
            w.users.insert(u.id, u.clone());
            u
        })
    }

    /// `user` stops (`closed`) or starts again accepting DMs from the bot.
    pub fn set_dms_closed(&self, user: &User, closed: bool) {
        self.with(|w| {
            if closed {
                w.dms_closed.insert(user.id);
            } else {
                w.dms_closed.remove(&user.id);
            }
        })
    }

    /// Refuse (`refused`) or allow again opening a DM channel with `user`.
    /// Discord normally opens the channel and refuses the message (403,
    /// 50007, see [`World::dms_closed`]); the OpenAPI spec documents only a
    /// generic 4XX error for `create_dm`. When the opening itself is
    /// refused, the fake answers with the same 403 "Cannot send messages to
    /// this user" (50007), the error Discord gives a bot for a user it may
    /// not message, so the bot must handle it at either step.
    pub fn set_dm_open_refused(&self, user: &User, refused: bool) {
        self.with(|w| {
            if refused {
                w.dm_open_refused.insert(user.id);
            } else {
                w.dm_open_refused.remove(&user.id);
            }
        })
    }

    /// `user` gets Manage Threads: they see every private thread.
    pub fn make_moderator(&self, user: &User) {
        self.with(|w| {
            w.moderators.insert(user.id);
        })
    }

    pub fn add_channel(&self, name: &str) -> Id {
        self.with(|w| {
            let id = w.snowflake();
            let g = w.guild_id;
            w.channels.insert(
                id,
                Channel {
                    id,
                    name: name.into(),
                    kind: ChannelKind::Guild(g),
                    thread: None,
                },
            );
            id
        })
    }

    /// Another guild the bot is in, whose events go to gateway shard
    /// `shard` of `total` (its id's timestamp chosen so that
    /// `(id >> 22) % total == shard`).
    pub fn add_guild_on_shard(&self, shard: u64, total: u64) -> Id {
        assert!(shard < total, "shard {shard} of {total}");
        self.with(|w| {
            let base = w.snowflake();
            let ts = base >> 22;
            let ts = ts + (shard + total - ts % total) % total;
            let id = (ts << 22) | (base & 0x3f_ffff);
            w.guilds.push(id);
            id
        })
    }

    /// A text channel in `guild` (one of [`World::guilds`]).
    pub fn add_channel_in(&self, guild: Id, name: &str) -> Id {
        self.with(|w| {
            assert!(w.guilds.contains(&guild) || guild == w.guild_id, "no guild {guild}");
            let id = w.snowflake();
            w.channels.insert(
                id,
                Channel {
                    id,
                    name: name.into(),
                    kind: ChannelKind::Guild(guild),
                    thread: None,
                },
            );
            id
        })
    }

    pub fn dm_channel(&self, user: Id) -> Id {
        self.with(|w| w.dm_channel(user))
    }

    /// Put a message in a channel as if the bot had sent it earlier (say,
    /// an older version laying a prompt out as a menu, which Hyperspace's
    /// short orders never need): lets the harness pick from a menu handled
    /// by the bot's own component code.
    pub fn seed_bot_message(&self, channel: Id, content: &str, components: Vec<Value>) -> Id {
        self.with(|w| {
            let d = Draft {
                content: Some(content.into()),
                components: Some(components),
                files: vec![],
                keep_attachments: None,
                flags: None,
                nonce: None,
                enforce_nonce: false,
            };
            new_message(w, channel, d, Origin::Seeded, None, Instant::now())
        })
    }

    /// Message `id` as it looks now (content, components, attachments,
    /// who it pinged, how often it was edited), deleted or not.
    pub fn message(&self, id: Id) -> Option<Message> {
        self.read(|w| w.message(id).cloned())
    }

    /// The messages still in `channel`, oldest first, as they look now.
    pub fn messages_in(&self, channel: Id) -> Vec<Message> {
        self.read(|w| w.messages_in(channel).into_iter().cloned().collect())
    }

    /// The edits made to message `id` (`PATCH` requests that succeeded),
    /// oldest first: the JSON each sent.
    pub fn edits_of(&self, id: Id) -> Vec<Value> {
        self.read(|w| {
            w.log
                .iter()
                .filter(|l| l.method == "PATCH" && l.status == 200 && l.path.ends_with(&format!("/messages/{id}")))
                .filter_map(|l| l.body.json().cloned())
                .collect()
        })
    }

    /// Inject a fault for the next `times` matching requests.
    pub fn inject(&self, target: FaultTarget, kind: FaultKind, times: u32) {
        self.with(|w| {
            w.faults.push(Fault {
                kind,
                target,
                remaining: times,
            })
        });
    }

    /// How many injected faults are still waiting to fire.
    pub fn pending_faults(&self) -> u32 {
        self.read(|w| w.faults.iter().map(|f| f.remaining).sum())
    }

    // ---- REST -------------------------------------------------------------

    async fn handle(&self, req: Request) -> Response {
        let method = req.method.clone();
        let Some(path) = req.path.strip_prefix("/api/v10").map(str::to_string) else {
            let msg = format!("{} {} is not under /api/v10", req.method, req.path);
            self.with(|w| w.problem(msg));
            return Response::json(404, &json!({"message": "404: Not Found", "code": 0}));
        };
        if req.header("authorization") != Some(&format!("Bot {TOKEN}")) {
            let got = req
                .header("authorization")
                .map(|_| "a wrong token")
                .unwrap_or("no token");
            self.with(|w| w.problem(format!("{method} {path} sent {got}")));
            return Response::json(401, &json!({"message": "401: Unauthorized", "code": 0}));
        }
        let body = match parse_body(&req) {
            Ok(b) => b,
            Err(e) => {
                self.with(|w| w.problem(format!("{method} {path}: unreadable body: {e}")));
                return Response::json(400, &json!({"message": "400: Bad Request", "code": 50109}));
            }
        };
        let mut operation = None;
        if let Some(spec) = self.shared.spec {
            let spec_body = match &body {
                Body::Empty => SpecBody::None,
                Body::Json(v) => SpecBody::Json(v),
                Body::Multipart { payload, files } => SpecBody::Multipart {
                    payload: payload.as_ref(),
                    files: files.iter().map(|f| f.name.clone()).collect(),
                },
                Body::Raw(_) => SpecBody::Other(req.header("content-type").unwrap_or("?")),
            };
            match spec.check_request(&method, &path, &req.query, spec_body) {
                Ok(op) => operation = Some(op),
                Err(errs) => self.with(|w| errs.into_iter().for_each(|e| w.problem(format!("spec: {e}")))),
            }
        }

        let now = Instant::now();
        let (fault, limited) = self.with(|w| {
            let bucket = format!("{method} {path}");
            if let Some(until) = w.rate_limited_until.get(&bucket) {
                if *until > now {
                    return (None, Some(until.duration_since(now).as_secs_f64()));
                }
            }
            let target_kind = fault_target_of(w, &method, &path);
            let fault = target_kind.and_then(|(channel, is_dm, edited)| {
                let f = w.faults.iter_mut().find(|f| {
                    f.remaining > 0
                        && match (f.target.clone(), edited) {
                            (FaultTarget::ChannelPost(None), None) => !is_dm,
                            (FaultTarget::ChannelPost(Some(c)), None) => c == channel,
                            (FaultTarget::DmPost, None) => is_dm,
                            (FaultTarget::Edit(None), Some(_)) => true,
                            (FaultTarget::Edit(Some(m)), Some(e)) => m == e,
                            _ => false,
                        }
                })?;
                f.remaining -= 1;
                Some(f.kind)
            });
            if let Some(FaultKind::RateLimited { retry_after }) = fault {
                w.rate_limited_until
                    .insert(bucket, now + Duration::from_secs_f64(retry_after));
            }
            (fault, None)
        });

        let rate_limited = |retry_after: f64, note: &str| {
            let body = json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": false, "code": 0});
            let resp = Response::json(429, &body)
                .with_header("Retry-After", retry_after.ceil() as u64)
                .with_header("X-RateLimit-Limit", 5)
                .with_header("X-RateLimit-Remaining", 0)
                .with_header("X-RateLimit-Reset-After", format!("{retry_after:.3}"))
                .with_header("X-RateLimit-Reset", format!("{:.3}", unix_now() + retry_after))
                .with_header("X-RateLimit-Bucket", "fake-bucket")
                .with_header("X-RateLimit-Scope", "user");
            (resp, Some(body), note.to_string())
        };
        let (resp, resp_json, note) = if let Some(retry_after) = limited {
            rate_limited(retry_after, "still rate limited")
        } else {
            match fault {
                Some(FaultKind::ServerError) => {
                    let body = json!({"message": "500: Internal Server Error", "code": 0});
                    (Response::json(500, &body), Some(body), "fault: 500".to_string())
                }
                Some(FaultKind::RateLimited { retry_after }) => rate_limited(retry_after, "fault: 429"),
                Some(kind @ (FaultKind::ServerErrorAfterWork | FaultKind::HangAfterWork)) => {
                    let (answer, note) = self.with(|w| route(w, &method, &path, &req.query, &body, now));
                    let label = if kind == FaultKind::HangAfterWork {
                        "fault: hang after work"
                    } else {
                        "fault: 500 after work"
                    };
                    let note = match note {
                        Some(n) => format!("{label}; {n} ({})", answer_status(&answer)),
                        None => format!("{label} ({})", answer_status(&answer)),
                    };
                    if kind == FaultKind::HangAfterWork {
                        self.log(&method, &path, &req, body, 0, Some(note), operation);
                        std::future::pending::<()>().await;
                        unreachable!();
                    }
                    let body = json!({"message": "500: Internal Server Error", "code": 0});
                    (Response::json(500, &body), Some(body), note)
                }
                None => {
                    let (answer, note) = self.with(|w| route(w, &method, &path, &req.query, &body, now));
                    let (resp, json) = match answer {
                        Answer::Json(s, v) => (Response::json(s, &v), Some(v)),
                        Answer::Empty(s) => (Response::empty(s), None),
                        Answer::Error(s, code, message) => {
                            let v = json!({"message": message, "code": code});
                            (Response::json(s, &v), Some(v))
                        }
                    };
                    (resp, json, note.unwrap_or_default())
                }
            }
        };
        if let Some(spec) = self.shared.spec {
            if resp.status < 500 {
                let errs = spec.check_response(&method, &path, resp.status, resp_json.as_ref());
                if !errs.is_empty() {
                    self.with(|w| {
                        errs.into_iter()
                            .for_each(|e| w.problem(format!("fake answer off-spec: {e}")))
                    });
                }
            }
        }
        let note = (!note.is_empty()).then_some(note);
        self.log(&method, &path, &req, body, resp.status, note, operation);
        resp
    }

    #[allow(clippy::too_many_arguments)]
    fn log(
        &self,
        method: &str,
        path: &str,
        req: &Request,
        body: Body,
        status: u16,
        note: Option<String>,
        operation: Option<String>,
    ) {
        self.with(|w| {
            let seq = w.next_seq();
            w.log.push(Logged {
                seq,
                method: method.to_string(),
                path: path.to_string(),
                query: req.query.clone(),
                body,
                status,
                note,
                operation,
            })
        });
    }
}

fn answer_status(a: &Answer) -> u16 {
    match a {
        Answer::Json(s, _) | Answer::Empty(s) | Answer::Error(s, _, _) => *s,
    }
}

/// For `POST /channels/{id}/messages`: the channel and whether it is a
/// DM; for `PATCH /channels/{id}/messages/{m}` also the message edited.
fn fault_target_of(w: &World, method: &str, path: &str) -> Option<(Id, bool, Option<Id>)> {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let (c, edited) = match (method, segs.as_slice()) {
        ("POST", ["channels", c, "messages"]) => (c, None),
        ("PATCH", ["channels", c, "messages", m]) => (c, Some(m.parse().ok()?)),
        _ => return None,
    };
    let id: Id = c.parse().ok()?;
    let dm = matches!(w.channels.get(&id).map(|c| &c.kind), Some(ChannelKind::Dm(_)));
    Some((id, dm, edited))
}

fn parse_body(req: &Request) -> Result<Body, String> {
    if req.body.is_empty() {
        return Ok(Body::Empty);
    }
    let ct = req.header("content-type").unwrap_or("").to_string();
    if ct.starts_with("application/json") {
        return serde_json::from_slice(&req.body)
            .map(Body::Json)
            .map_err(|e| e.to_string());
    }
    if ct.starts_with("multipart/form-data") {
        let parts = http::parse_multipart(&ct, &req.body)?;
        let mut payload = None;
        let mut files = Vec::new();
        for p in parts {
            if p.name == "payload_json" {
                payload = Some(serde_json::from_slice(&p.data).map_err(|e| format!("payload_json: {e}"))?);
            } else {
                files.push(p);
            }
        }
        return Ok(Body::Multipart { payload, files });
    }
    Ok(Body::Raw(req.body.clone()))
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

fn not_found(code: u64, what: &str) -> Answer {
    Answer::Error(404, code, format!("Unknown {what}"))
}

/// Route one request. Returns the answer and a note for the log.
fn route(
    w: &mut World,
    method: &str,
    path: &str,
    query: &[(String, String)],
    body: &Body,
    now: Instant,
) -> (Answer, Option<String>) {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let id = |s: &str| s.parse::<Id>().ok().filter(|n| *n != 0);
    let answer = match (method, segs.as_slice()) {
        ("GET", ["gateway"]) => Answer::Json(200, json!({"url": format!("ws://{}/gw", w.gateway_addr)})),
        ("GET", ["gateway", "bot"]) => Answer::Json(
            200,
            json!({
                "url": format!("ws://{}/gw", w.gateway_addr), "shards": w.gateway.recommended_shards.max(1),
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
            }),
        ),
        ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
            Answer::Json(200, w.application_json())
        }
        ("GET", ["users", "@me"]) => Answer::Json(200, user_json(&w.bot)),
        ("GET", ["applications", app, "commands"]) if id(app) == Some(w.app_id) => {
            Answer::Json(200, Value::Array(w.global_commands.clone()))
        }
        ("PUT", ["applications", app, "commands"]) if id(app) == Some(w.app_id) => {
            let old = w.global_commands.clone();
            match register_commands(w, body, &old, None) {
                Ok(cmds) => {
                    w.global_commands = cmds.clone();
                    Answer::Json(200, Value::Array(cmds))
                }
                Err(e) => e,
            }
        }
        ("PUT", ["applications", app, "guilds", g, "commands"]) if id(app) == Some(w.app_id) => match id(g) {
            Some(g) if g == w.guild_id => {
                let old = w.guild_commands.get(&g).cloned().unwrap_or_default();
                match register_commands(w, body, &old, Some(g)) {
                    Ok(cmds) => {
                        w.guild_commands.insert(g, cmds.clone());
                        Answer::Json(200, Value::Array(cmds))
                    }
                    Err(e) => e,
                }
            }
            _ => Answer::Error(403, 50001, "Missing Access".into()),
        },
        ("POST", ["users", "@me", "channels"]) => {
            let recipient = body
                .json()
                .and_then(|b| b["recipient_id"].as_str().and_then(id).or(b["recipient_id"].as_u64()));
            match recipient {
                Some(u) if w.dm_open_refused.contains(&u) => {
                    Answer::Error(403, 50007, "Cannot send messages to this user".into())
                }
                Some(u) if w.users.get(&u).is_some_and(|u| !u.bot) => {
                    let c = w.dm_channel(u);
                    Answer::Json(200, w.channel_json(c))
                }
                Some(_) => Answer::Error(400, 50007, "Cannot send messages to this user".into()),
                None => Answer::Error(400, 50035, "Invalid Form Body".into()),
            }
        }
        ("GET", ["channels", c]) => match id(c).filter(|c| w.channels.contains_key(c)) {
            Some(c) => Answer::Json(200, w.channel_json(c)),
            None => not_found(10003, "Channel"),
        },
        ("POST", ["channels", c, "threads"]) => match id(c).filter(|c| w.channels.contains_key(c)) {
            Some(c) => create_thread(w, c, body),
            None => not_found(10003, "Channel"),
        },
        ("PUT", ["channels", c, "thread-members", u]) => match (id(c).filter(|c| w.channels.contains_key(c)), id(u)) {
            (Some(c), Some(u)) => add_thread_member(w, c, u),
            (None, _) => not_found(10003, "Channel"),
            (_, None) => not_found(10013, "User"),
        },
        ("POST", ["channels", c, "messages"]) => match id(c).filter(|c| w.channels.contains_key(c)) {
            Some(c) => return create_message(w, c, body, now),
            None => not_found(10003, "Channel"),
        },
        ("PATCH", ["channels", c, "messages", m]) => {
            match (id(c), id(m))
                .1
                .and_then(|m| w.message(m))
                .filter(|m| !m.deleted && Some(m.channel_id) == id(c))
                .map(|m| (m.id, m.author))
            {
                Some((_, author)) if author != w.bot.id => {
                    Answer::Error(403, 50005, "Cannot edit a message authored by another user".into())
                }
                Some((m, _)) => match draft(w, body) {
                    Ok(d) => {
                        let allowed = body.json().and_then(|b| b.get("allowed_mentions")).cloned();
                        let before = w.message(m).map(|x| x.content.clone()).unwrap_or_default();
                        let shown = w.message(m).map(Message::looks);
                        let uploads = !d.files.is_empty();
                        apply_edit(w, m, d);
                        if !uploads && w.message(m).map(Message::looks) == shown {
                            // An edit that changes nothing its readers see is noise
                            // (and a sign of a stale or duplicate update).
                            w.problem(format!("message {m} was edited to exactly what it already showed"));
                        }
                        // Discord alerts the people an edit newly mentions
                        // (and allows), never those already mentioned.
                        let msg = w.message_mut(m).expect("message exists");
                        let old = mentioned(&before);
                        let new: Vec<Id> = pinged_by(&msg.content, allowed.as_ref())
                            .into_iter()
                            .filter(|u| !old.contains(u))
                            .collect();
                        msg.pinged.extend(new);
                        message_answer(w, m)
                    }
                    Err(e) => e,
                },
                None => not_found(10008, "Message"),
            }
        }
        ("GET", ["channels", c, "messages", m]) => {
            match (id(c), id(m))
                .1
                .and_then(|m| w.message(m))
                .filter(|m| !m.deleted && Some(m.channel_id) == id(c))
            {
                Some(m) => Answer::Json(200, w.message_json(m)),
                None => not_found(10008, "Message"),
            }
        }
        ("POST", ["interactions", i, token, "callback"]) => {
            if query.iter().any(|(k, v)| k == "with_response" && v == "true") {
                w.problem("interaction callback with_response=true is not supported by the fake");
            }
            callback(w, id(i).unwrap_or(0), token, body, now)
        }
        (_, ["webhooks", app, token, rest @ ..]) => {
            if id(app) != Some(w.app_id) {
                not_found(10015, "Webhook")
            } else {
                webhook(w, method, token, rest, body, now)
            }
        }
        _ => {
            w.problem(format!("no route for {method} {path}"));
            Answer::Error(404, 0, "404: Not Found".into())
        }
    };
    (answer, None)
}

/// Store a command list (overwrite), keeping the ids of commands that keep
/// their name, as Discord does.
fn register_commands(w: &mut World, body: &Body, old: &[Value], guild: Option<Id>) -> Result<Vec<Value>, Answer> {
    let Some(Value::Array(list)) = body.json() else {
        return Err(Answer::Error(400, 50035, "Invalid Form Body".into()));
    };
    let mut errors = Vec::new();
    for c in list {
        check_command(c, &mut errors);
    }
    if !errors.is_empty() {
        let errors = errors.join("; ");
        w.problem(format!("Discord would refuse these commands: {errors}"));
        return Err(Answer::Error(400, 50035, format!("Invalid Form Body ({errors})")));
    }
    let mut out = Vec::new();
    for c in list {
        let name = c["name"].as_str().unwrap_or("").to_string();
        let kind = c["type"].as_u64().unwrap_or(1);
        let cid = old
            .iter()
            .find(|o| o["name"] == name.as_str() && o["type"].as_u64().unwrap_or(1) == kind)
            .and_then(|o| o["id"].as_str().and_then(|s| s.parse().ok()))
            .unwrap_or_else(|| w.snowflake());
        let mut cmd = json!({
            "id": cid.to_string(),
            "application_id": w.app_id.to_string(),
            "version": w.snowflake().to_string(),
            "default_member_permissions": c.get("default_member_permissions").cloned().unwrap_or(Value::Null),
            "type": kind,
            "name": name,
            "description": c["description"].as_str().unwrap_or(""),
            "dm_permission": c.get("dm_permission").and_then(Value::as_bool).unwrap_or(true),
            "nsfw": c.get("nsfw").and_then(Value::as_bool).unwrap_or(false),
            "integration_types": c.get("integration_types").cloned().unwrap_or(json!([0])),
            "contexts": c.get("contexts").cloned().unwrap_or(Value::Null),
        });
        if let Some(opts) = c.get("options").filter(|o| !o.is_null()) {
            // Discord echoes options without the null fields.
            cmd["options"] = without_nulls(opts);
        }
        for k in ["name_localizations", "description_localizations"] {
            if let Some(v) = c.get(k) {
                cmd[k] = v.clone();
            }
        }
        if let Some(g) = guild {
            cmd["guild_id"] = json!(g.to_string());
        }
        if let Err(e) = serde_json::from_value::<serenity::model::application::Command>(cmd.clone()) {
            w.problem(format!(
                "the fake's command object does not deserialize into serenity's Command: {e}: {cmd}"
            ));
        }
        out.push(cmd);
    }
    Ok(out)
}

/// The most characters Discord takes in one command: its name,
/// description and options, recursively (names, descriptions, and choice
/// names and values).
pub const COMMAND_CHARACTERS_MAX: usize = 4000;

/// The characters of a command (or option) that count toward
/// [`COMMAND_CHARACTERS_MAX`]: names, descriptions, choices' names and
/// values, of it and of everything under it.
pub fn command_characters(c: &Value) -> usize {
    let chars = |v: &Value| match v {
        Value::String(s) => s.chars().count(),
        Value::Null => 0,
        other => other.to_string().chars().count(),
    };
    let mut n = chars(&c["name"]) + chars(&c["description"]);
    for choice in c["choices"].as_array().into_iter().flatten() {
        n += chars(&choice["name"]) + chars(&choice["value"]);
    }
    for o in c["options"].as_array().into_iter().flatten() {
        n += command_characters(o);
    }
    n
}

/// The errors Discord would give for one command of a registration (empty
/// when it would take it).
pub fn command_errors(c: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check_command(c, &mut errors);
    errors
}

/// Discord's rules for chat-input commands that the OpenAPI document does
/// not spell out: names, descriptions, option order and counts, choices,
/// and the characters of the whole command.
fn check_command(c: &Value, errors: &mut Vec<String>) {
    fn name_ok(n: &str) -> bool {
        (1..=32).contains(&n.chars().count())
            && n.chars()
                .all(|ch| ch.is_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_')
    }
    fn walk(o: &Value, path: &str, errors: &mut Vec<String>) {
        let name = o["name"].as_str().unwrap_or("");
        let path = format!("{path}/{name}");
        if !name_ok(name) {
            errors.push(format!("{path}: bad name"));
        }
        let d = o["description"].as_str().map_or(0, |d| d.chars().count());
        if !(1..=100).contains(&d) {
            errors.push(format!("{path}: description of {d} characters"));
        }
        let choices = o["choices"].as_array().map_or(0, Vec::len);
        if choices > 25 {
            errors.push(format!("{path}: {choices} choices"));
        }
        if choices > 0 && o["autocomplete"] == true {
            errors.push(format!("{path}: choices and autocomplete together"));
        }
        let opts = o["options"].as_array().cloned().unwrap_or_default();
        if opts.len() > 25 {
            errors.push(format!("{path}: {} options", opts.len()));
        }
        let mut seen_optional = false;
        for sub in &opts {
            let is_sub = matches!(sub["type"].as_u64(), Some(1 | 2));
            if !is_sub {
                if sub["required"] == true && seen_optional {
                    errors.push(format!(
                        "{path}: required option `{}` after an optional one",
                        sub["name"]
                    ));
                }
                seen_optional |= sub["required"] != true;
            }
            walk(sub, &path, errors);
        }
    }
    if c["type"].as_u64().unwrap_or(1) == 1 {
        walk(c, "", errors);
        let total = command_characters(c);
        if total > COMMAND_CHARACTERS_MAX {
            errors.push(format!(
                "/{}: {total} characters (Discord takes {COMMAND_CHARACTERS_MAX})",
                c["name"].as_str().unwrap_or("")
            ));
        }
    }
}

/// The fields of a message create/edit payload: content, components,
/// attachments from files, flags.
struct Draft {
    content: Option<String>,
    components: Option<Vec<Value>>,
    files: Vec<Attachment>,
    keep_attachments: Option<Vec<Id>>,
    flags: Option<u64>,
    nonce: Option<String>,
    enforce_nonce: bool,
}

fn draft(w: &mut World, body: &Body) -> Result<Draft, Answer> {
    let Some(p) = body.json() else {
        return Err(Answer::Error(400, 50035, "Invalid Form Body".into()));
    };
    let mut files = Vec::new();
    for (i, f) in body.files().iter().enumerate() {
        // `files[n]` must be matched by `attachments[].id == n` (or be new).
        let declared = p["attachments"].as_array().and_then(|a| {
            a.iter()
                .find(|x| x["id"].as_u64() == Some(i as u64) || x["id"].as_str() == Some(&i.to_string()))
        });
        let filename = declared
            .and_then(|d| d["filename"].as_str())
            .map(str::to_string)
            .or_else(|| f.filename.clone())
            .unwrap_or_else(|| format!("file{i}"));
        files.push(Attachment {
            id: w.snowflake(),
            filename,
            content_type: f.content_type.clone(),
            data: f.data.clone(),
        });
    }
    let keep = p["attachments"].as_array().map(|a| {
        a.iter()
            .filter_map(|x| {
                x["id"]
                    .as_str()
                    .and_then(|s| s.parse::<Id>().ok())
                    .filter(|n| *n > 1000)
            })
            .collect()
    });
    let nonce = match &p["nonce"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let content = match p.get("content") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) => Some(String::new()),
        _ => None,
    };
    if let Some(c) = &content {
        if c.chars().count() > CONTENT_MAX {
            return Err(Answer::Error(
                400,
                50035,
                format!("Invalid Form Body (content: Must be {CONTENT_MAX} or fewer in length)"),
            ));
        }
    }
    let components = match p.get("components") {
        Some(Value::Array(a)) => Some(a.clone()),
        Some(Value::Null) => Some(vec![]),
        _ => None,
    };
    Ok(Draft {
        content,
        components,
        files,
        keep_attachments: keep,
        flags: p["flags"].as_u64(),
        nonce,
        enforce_nonce: p["enforce_nonce"].as_bool().unwrap_or(false),
    })
}

fn empty_draft(d: &Draft) -> bool {
    d.content.as_deref().unwrap_or("").is_empty()
        && d.files.is_empty()
        && d.components.as_ref().is_none_or(|c| c.is_empty())
}

fn new_message(w: &mut World, channel: Id, d: Draft, origin: Origin, visible_to: Option<Id>, now: Instant) -> Id {
    let id = w.snowflake();
    let author = w.bot.id;
    w.messages.push(Message {
        id,
        channel_id: channel,
        author,
        content: d.content.unwrap_or_default(),
        components: d.components.unwrap_or_default(),
        attachments: d.files,
        flags: d.flags.unwrap_or(0) & (EPHEMERAL | LOADING | 4096),
        nonce: d.nonce,
        origin,
        visible_to,
        deleted: false,
        edits: 0,
        created: now,
        allowed_mentions: None,
        pinged: Vec::new(),
    });
    id
}

/// The people `content` mentions (`<@id>`, `<@!id>`), in order, once each.
pub fn mentioned(content: &str) -> Vec<Id> {
    let mut out = Vec::new();
    for (i, _) in content.match_indices("<@") {
        let rest = &content[i + 2..];
        let rest = rest.strip_prefix('!').unwrap_or(rest);
        let Some(end) = rest.find('>') else { continue };
        if let Ok(id) = rest[..end].parse::<Id>() {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// Who a message with `content` alerts under `allowed` (Discord's
/// `allowed_mentions`): without it every mentioned user; with it those in
/// `users`, or everyone mentioned if `parse` holds `"users"`.
pub fn pinged_by(content: &str, allowed: Option<&Value>) -> Vec<Id> {
    let mentioned = mentioned(content);
    let Some(allowed) = allowed else {
        return mentioned;
    };
    let parse_users = allowed["parse"]
        .as_array()
        .is_some_and(|p| p.iter().any(|x| x == "users"));
    let users: Vec<Id> = allowed["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().and_then(|s| s.parse().ok()).or(u.as_u64()))
        .collect();
    mentioned
        .into_iter()
        .filter(|u| parse_users || users.contains(u))
        .collect()
}

fn check_message_json(w: &mut World, j: &Value) {
    if let Err(e) = serde_json::from_value::<serenity::model::channel::Message>(j.clone()) {
        w.problem(format!(
            "the fake's message does not deserialize into serenity's Message: {e}: {j}"
        ));
    }
}

fn message_answer(w: &mut World, id: Id) -> Answer {
    let j = w.message_json(w.message(id).expect("message exists"));
    check_message_json(w, &j);
    Answer::Json(200, j)
}

fn create_message(w: &mut World, channel: Id, body: &Body, now: Instant) -> (Answer, Option<String>) {
    let d = match draft(w, body) {
        Ok(d) => d,
        Err(e) => return (e, None),
    };
    if d.enforce_nonce {
        if let Some(n) = &d.nonce {
            let dup = w
                .messages
                .iter()
                .find(|m| {
                    m.channel_id == channel
                        && m.nonce.as_ref() == Some(n)
                        && now.duration_since(m.created) < NONCE_WINDOW
                })
                .map(|m| m.id);
            if let Some(id) = dup {
                return (
                    message_answer(w, id),
                    Some(format!("nonce {n} seen before: returned message {id}")),
                );
            }
        }
    }
    if empty_draft(&d) {
        return (Answer::Error(400, 50006, "Cannot send an empty message".into()), None);
    }
    if let Some(ChannelKind::Dm(u)) = w.channels.get(&channel).map(|c| &c.kind) {
        if w.dms_closed.contains(u) {
            return (
                Answer::Error(403, 50007, "Cannot send messages to this user".into()),
                None,
            );
        }
    }
    if d.flags.is_some_and(|f| f & EPHEMERAL != 0) {
        w.problem("a channel message asked to be ephemeral (only interaction responses can be)");
    }
    if w.thread(channel)
        .is_some_and(|t| t.private && !t.members.contains(&w.bot.id))
    {
        return (Answer::Error(403, 50001, "Missing Access".into()), None);
    }
    let id = new_message(w, channel, d, Origin::Post, None, now);
    let allowed = body.json().and_then(|b| b.get("allowed_mentions")).cloned();
    let m = w.message_mut(id).expect("message exists");
    m.pinged = pinged_by(&m.content, allowed.as_ref());
    m.allowed_mentions = allowed;
    (message_answer(w, id), None)
}

/// `POST /channels/{id}/threads` without a message: a thread of the
/// given type (Discord's default without a message is 12, private) in a
/// guild text channel, with its creator in it.
fn create_thread(w: &mut World, parent: Id, body: &Body) -> Answer {
    let channel = &w.channels[&parent];
    let ChannelKind::Guild(guild) = channel.kind else {
        return Answer::Error(400, 50024, "Cannot execute action on this channel type".into());
    };
    if channel.thread.is_some() {
        return Answer::Error(400, 50024, "Cannot execute action on this channel type".into());
    }
    let Some(b) = body.json() else {
        return Answer::Error(400, 50035, "Invalid Form Body".into());
    };
    let name = b["name"].as_str().unwrap_or("").trim().to_string();
    if name.is_empty() || name.chars().count() > 100 {
        return Answer::Error(400, 50035, "Invalid Form Body (name)".into());
    }
    let kind = b["type"].as_u64().unwrap_or(12);
    if kind != 11 && kind != 12 {
        // 10: announcement threads need an announcement channel.
        return Answer::Error(400, 50024, "Cannot execute action on this channel type".into());
    }
    let id = w.snowflake();
    let owner = w.bot.id;
    let thread = Thread {
        parent,
        private: kind == 12,
        invitable: kind == 12 && b["invitable"].as_bool().unwrap_or(true),
        owner,
        members: BTreeSet::from([owner]),
    };
    w.channels.insert(
        id,
        Channel {
            id,
            name,
            kind: ChannelKind::Guild(guild),
            thread: Some(thread),
        },
    );
    let j = w.channel_json(id);
    if let Err(e) = serde_json::from_value::<serenity::model::channel::GuildChannel>(j.clone()) {
        w.problem(format!(
            "the fake's thread does not deserialize into serenity's GuildChannel: {e}: {j}"
        ));
    }
    Answer::Json(201, j)
}

/// `PUT /channels/{thread}/thread-members/{user}`: the bot adds someone
/// to a thread it is in (a private thread's members are who may see it).
fn add_thread_member(w: &mut World, thread: Id, user: Id) -> Answer {
    let bot = w.bot.id;
    if !w.users.contains_key(&user) {
        return not_found(10013, "User");
    }
    let Some(t) = w.channels.get_mut(&thread).and_then(|c| c.thread.as_mut()) else {
        return Answer::Error(400, 50024, "Cannot execute action on this channel type".into());
    };
    if t.private && !t.members.contains(&bot) {
        return Answer::Error(403, 50001, "Missing Access".into());
    }
    t.members.insert(user);
    Answer::Empty(204)
}

fn apply_edit(w: &mut World, id: Id, d: Draft) {
    let m = w.message_mut(id).expect("message exists");
    if let Some(c) = d.content {
        m.content = c;
    }
    if let Some(c) = d.components {
        m.components = c;
    }
    if let Some(keep) = d.keep_attachments {
        m.attachments.retain(|a| keep.contains(&a.id));
    }
    m.attachments.extend(d.files);
    m.flags &= !LOADING;
    m.edits += 1;
}

fn callback(w: &mut World, interaction: Id, token: &str, body: &Body, now: Instant) -> Answer {
    let Some(i) = w.interaction(interaction).cloned() else {
        return not_found(10062, "interaction");
    };
    if i.token != token {
        return not_found(10062, "interaction");
    }
    if i.callback.is_some() {
        w.problem(format!("interaction {} ({}) was acknowledged twice", i.id, i.label));
        return Answer::Error(400, 40060, "Interaction has already been acknowledged.".into());
    }
    if now.duration_since(i.created) > CALLBACK_DEADLINE {
        w.problem(format!(
            "interaction {} ({}) answered after {:?}, past Discord's 3 s deadline",
            i.id,
            i.label,
            now.duration_since(i.created)
        ));
        return not_found(10062, "interaction");
    }
    let Some(p) = body.json().cloned() else {
        return Answer::Error(400, 50035, "Invalid Form Body".into());
    };
    let kind = p["type"].as_u64().unwrap_or(0);
    let allowed: &[u64] = match i.kind {
        InteractionKind::Command => &[4, 5, 9],
        InteractionKind::Component => &[4, 5, 6, 7, 9],
        InteractionKind::Autocomplete => &[8],
    };
    if !allowed.contains(&kind) {
        w.problem(format!(
            "interaction {} ({:?} {}) got callback type {kind}",
            i.id, i.kind, i.label
        ));
        return Answer::Error(400, 50035, "Invalid Form Body".into());
    }
    let data = Body::Multipart {
        payload: Some(p["data"].clone()),
        files: body.files().to_vec(),
    };
    let visible_to = |d: &Draft| d.flags.is_some_and(|f| f & EPHEMERAL != 0).then_some(i.user);
    match kind {
        4 => {
            let d = match draft(w, &data) {
                Ok(d) => d,
                Err(e) => return e,
            };
            if empty_draft(&d) {
                return Answer::Error(400, 50006, "Cannot send an empty message".into());
            }
            let v = visible_to(&d);
            let id = new_message(w, i.channel_id, d, Origin::Reply { interaction: i.id }, v, now);
            set_interaction(w, i.id, |x| {
                x.callback = Some(4);
                x.original = Some(id);
            });
        }
        5 => {
            let flags = p["data"]["flags"].as_u64().unwrap_or(0);
            let d = Draft {
                content: Some(String::new()),
                components: None,
                files: vec![],
                keep_attachments: None,
                flags: Some((flags & EPHEMERAL) | LOADING),
                nonce: None,
                enforce_nonce: false,
            };
            let v = visible_to(&d);
            let id = new_message(w, i.channel_id, d, Origin::Reply { interaction: i.id }, v, now);
            set_interaction(w, i.id, |x| {
                x.callback = Some(5);
                x.original = Some(id);
            });
        }
        6 => set_interaction(w, i.id, |x| {
            x.callback = Some(6);
            x.original = x.message;
        }),
        7 => {
            let d = match draft(w, &data) {
                Ok(d) => d,
                Err(e) => return e,
            };
            if let Some(m) = i.message {
                apply_edit(w, m, d);
            }
            set_interaction(w, i.id, |x| {
                x.callback = Some(7);
                x.original = x.message;
            });
        }
        8 => {
            let choices = p["data"]["choices"].as_array().cloned().unwrap_or_default();
            // Choice values must have the focused option's type.
            let focused_type = i.focused_type;
            for c in &choices {
                let ok = match focused_type {
                    Some(3) => c["value"].is_string(),
                    Some(4) => c["value"].is_i64(),
                    Some(10) => c["value"].is_number(),
                    _ => true,
                };
                if !ok {
                    w.problem(format!(
                        "autocomplete for {}: choice {c} does not fit option type {focused_type:?}",
                        i.label
                    ));
                }
            }
            if choices.len() > 25 {
                w.problem(format!(
                    "autocomplete for {} offered {} choices (Discord allows 25)",
                    i.label,
                    choices.len()
                ));
            }
            for c in &choices {
                let n = c["name"].as_str().map_or(0, |s| s.chars().count());
                if !(1..=100).contains(&n) {
                    w.problem(format!("autocomplete choice name of {n} characters: {c}"));
                }
            }
            set_interaction(w, i.id, |x| {
                x.callback = Some(8);
                x.choices = Some(choices);
            });
        }
        _ => {
            w.problem(format!("callback type {kind} is not supported by the fake"));
            return Answer::Error(400, 50035, "Invalid Form Body".into());
        }
    }
    Answer::Empty(204)
}

fn set_interaction(w: &mut World, id: Id, f: impl FnOnce(&mut Interaction)) {
    if let Some(i) = w.interactions.iter_mut().find(|i| i.id == id) {
        f(i);
    }
}

fn webhook(w: &mut World, method: &str, token: &str, rest: &[&str], body: &Body, now: Instant) -> Answer {
    let Some(i) = w.interactions.iter().find(|i| i.token == token).cloned() else {
        return not_found(10015, "Webhook");
    };
    if now.duration_since(i.created) > TOKEN_LIFETIME {
        return Answer::Error(401, 50027, "Invalid Webhook Token".into());
    }
    if i.callback.is_none() {
        w.problem(format!(
            "webhook {method} for interaction {} ({}) before it was acknowledged",
            i.id, i.label
        ));
        return not_found(10015, "Webhook");
    }
    let target = match rest {
        [] => None,
        ["messages", "@original"] => match i.original {
            Some(m) => Some(m),
            None => return not_found(10008, "Message"),
        },
        ["messages", m] => match m.parse::<Id>().ok() {
            Some(m) => Some(m),
            None => return not_found(10008, "Message"),
        },
        _ => {
            w.problem(format!("no route for {method} /webhooks/…/{}", rest.join("/")));
            return Answer::Error(404, 0, "404: Not Found".into());
        }
    };
    // A message the interaction's webhook may touch: its original, or a
    // follow-up of it.
    let mine = |w: &World, m: Id| {
        w.message(m).is_some_and(|msg| {
            !msg.deleted
                && (Some(m) == i.original
                    || msg.origin == Origin::Followup { interaction: i.id }
                    || msg.origin == Origin::Reply { interaction: i.id })
        })
    };
    match (method, target) {
        ("POST", None) => {
            let d = match draft(w, body) {
                Ok(d) => d,
                Err(e) => return e,
            };
            if empty_draft(&d) {
                return Answer::Error(400, 50006, "Cannot send an empty message".into());
            }
            // Discord: the first follow-up after a deferral fills the
            // "thinking" placeholder, keeping its visibility.
            if let Some(o) = i.original {
                let placeholder = w.message(o).is_some_and(|m| m.loading() && !m.deleted);
                if i.callback == Some(5) && placeholder {
                    apply_edit(w, o, d);
                    return message_answer(w, o);
                }
            }
            let v = d.flags.is_some_and(|f| f & EPHEMERAL != 0).then_some(i.user);
            let id = new_message(w, i.channel_id, d, Origin::Followup { interaction: i.id }, v, now);
            message_answer(w, id)
        }
        ("GET", Some(m)) if mine(w, m) => message_answer(w, m),
        ("PATCH", Some(m)) if mine(w, m) => {
            let d = match draft(w, body) {
                Ok(d) => d,
                Err(e) => return e,
            };
            apply_edit(w, m, d);
            message_answer(w, m)
        }
        ("DELETE", Some(m)) if mine(w, m) => {
            if let Some(msg) = w.message_mut(m) {
                msg.deleted = true;
            }
            Answer::Empty(204)
        }
        (_, Some(_)) => not_found(10008, "Message"),
        _ => {
            w.problem(format!("no route for {method} /webhooks/…"));
            Answer::Error(405, 0, "405: Method Not Allowed".into())
        }
    }
}

fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}
