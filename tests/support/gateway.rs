//! The fake gateway: a websocket on 127.0.0.1 speaking Discord's gateway
//! protocol in plain JSON text frames. HELLO → IDENTIFY → READY; heartbeats
//! are acknowledged; RESUME replays what the session missed (or is refused
//! with op 9 when resuming is switched off); dispatches are numbered per
//! session. Every payload sent is first read back with serenity's own
//! models, so a malformed fixture fails loudly instead of becoming an
//! `Unknown` event the bot silently drops.
//!
//! Shards: IDENTIFY says `shard: [id, total]` (absent: `[0, 1]`); each
//! shard has its own session and connection, as on Discord, and a
//! dispatch goes to the shard of its guild, `(guild_id >> 22) % total`
//! (no guild, such as a DM: shard 0). Several bot processes may each run
//! some of the shards.

use super::fake_discord::FakeDiscord;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message as WsMessage;

/// Heartbeat interval announced in HELLO.
pub const HEARTBEAT_MS: u64 = 5_000;

enum Out {
    Frame(String),
    /// Cut the connection without a close frame.
    Drop,
}

/// A session: what was dispatched in it, for resuming.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: String,
    pub seq: u64,
    sent: Vec<(u64, String)>,
}

/// One shard's session and the connection it is live on.
#[derive(Default)]
pub struct ShardLink {
    pub session: Option<Session>,
    conn: Option<(u64, mpsc::UnboundedSender<Out>)>,
    /// A session is live on the current connection.
    pub ready: bool,
}

#[derive(Default)]
pub struct GatewayState {
    /// Each shard's session, by shard id.
    pub shards: std::collections::BTreeMap<u64, ShardLink>,
    /// The total number of shards the bot identified with (1 until it
    /// identifies).
    pub total: u64,
    /// The shard count `GET /gateway/bot` recommends (0: 1).
    pub recommended_shards: u64,
    /// Per connection: the shard it identified or resumed as.
    pub conn_shards: std::collections::BTreeMap<u64, u64>,
    next_conn: u64,
    /// Connections accepted.
    pub connections: u32,
    pub identifies: u32,
    pub resumes: u32,
    pub heartbeats: u32,
    /// RESUMEs refused with op 9.
    pub invalid_sessions: u32,
    /// Refuse RESUME with op 9 `false` instead of replaying.
    pub refuse_resume: bool,
    /// Dispatch names sent, in order.
    pub dispatched: Vec<String>,
    /// Per dispatch: the shard it was sent to, its name, and its `d.id`.
    pub dispatched_to: Vec<(u64, String, Option<String>)>,
}

impl GatewayState {
    /// The total number of shards (1 before the bot identified).
    pub fn total(&self) -> u64 {
        self.total.max(1)
    }

    /// The shard a guild's events go to (no guild: shard 0).
    pub fn shard_of(&self, guild: Option<u64>) -> u64 {
        guild.map_or(0, |g| (g >> 22) % self.total())
    }

    /// Whether every shard of the total has a live session.
    pub fn ready(&self) -> bool {
        (0..self.total()).all(|s| self.shard_ready(s))
    }

    /// Whether shard `s` has a live session.
    pub fn shard_ready(&self, s: u64) -> bool {
        self.shards.get(&s).is_some_and(|l| l.ready)
    }
}

pub async fn serve(fake: FakeDiscord, listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let fake = fake.clone();
        tokio::spawn(async move {
            match tokio_tungstenite::accept_async(stream).await {
                Ok(ws) => connection(fake, ws).await,
                Err(e) => fake.with(|w| w.problem(format!("gateway handshake failed: {e}"))),
            }
        });
    }
}

/// Check a frame the way the bot will read it: as serenity's
/// `GatewayEvent`, and a dispatch must not come out as `Unknown`.
pub fn check_frame(frame: &Value) -> Result<(), String> {
    use serenity::model::event::{Event, GatewayEvent};
    let event: GatewayEvent =
        serde_json::from_value(frame.clone()).map_err(|e| format!("not a serenity GatewayEvent: {e}: {frame}"))?;
    if let GatewayEvent::Dispatch(_, Event::Unknown(u)) = &event {
        // Find out why with the concrete type.
        let why = match frame["t"].as_str() {
            Some("INTERACTION_CREATE") => {
                serde_json::from_value::<serenity::model::application::Interaction>(frame["d"].clone())
                    .err()
                    .map(|e| e.to_string())
            }
            Some("READY") => serde_json::from_value::<serenity::model::gateway::Ready>(frame["d"].clone())
                .err()
                .map(|e| e.to_string()),
            _ => None,
        };
        return Err(format!(
            "serenity reads {:?} as an Unknown event ({}): {frame}",
            u.kind,
            why.unwrap_or_default()
        ));
    }
    Ok(())
}

async fn connection(fake: FakeDiscord, ws: tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>) {
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Out>();
    let conn_id = fake.with(|w| {
        w.gateway.connections += 1;
        w.gateway.next_conn += 1;
        w.gateway.next_conn
    });
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": null, "t": null});
    if sink.send(WsMessage::Text(hello.to_string())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(WsMessage::Text(t))) => t,
                    Some(Ok(WsMessage::Binary(b))) => {
                        fake.with(|w| w.problem(format!("the bot sent a binary gateway frame ({} bytes)", b.len())));
                        continue;
                    }
                    Some(Ok(WsMessage::Ping(_) | WsMessage::Pong(_) | WsMessage::Frame(_))) => continue,
                    Some(Ok(WsMessage::Close(_))) | Some(Err(_)) | None => break,
                };
                let Ok(msg) = serde_json::from_str::<Value>(&text) else {
                    fake.with(|w| w.problem(format!("unreadable gateway frame from the bot: {text}")));
                    continue;
                };
                for reply in on_frame(&fake, conn_id, &tx, &msg) {
                    if sink.send(WsMessage::Text(reply)).await.is_err() {
                        break;
                    }
                }
            }
            out = rx.recv() => match out {
                Some(Out::Frame(f)) => {
                    if sink.send(WsMessage::Text(f)).await.is_err() {
                        break;
                    }
                }
                Some(Out::Drop) | None => break,
            },
        }
    }
    fake.with(|w| {
        for link in w.gateway.shards.values_mut() {
            if link.conn.as_ref().is_some_and(|(id, _)| *id == conn_id) {
                link.conn = None;
                link.ready = false;
            }
        }
    });
    // Dropping both halves closes the TCP connection without a close frame.
}

/// Handle one frame from the bot; returns frames to send back at once.
fn on_frame(fake: &FakeDiscord, conn_id: u64, tx: &mpsc::UnboundedSender<Out>, msg: &Value) -> Vec<String> {
    let op = msg["op"].as_u64().unwrap_or(u64::MAX);
    let d = &msg["d"];
    fake.with(|w| match op {
        1 => {
            w.gateway.heartbeats += 1;
            vec![json!({"op": 11, "d": null, "s": null, "t": null}).to_string()]
        }
        2 => {
            let token = d["token"].as_str().unwrap_or("");
            if token != super::fake_discord::TOKEN && token != format!("Bot {}", super::fake_discord::TOKEN) {
                w.problem(format!("IDENTIFY with a wrong token `{token}`"));
            }
            if d["intents"].as_u64().is_none() {
                w.problem("IDENTIFY without intents");
            }
            let (shard, total) = match d.get("shard") {
                None | Some(Value::Null) => (0, 1),
                Some(s) => match (s[0].as_u64(), s[1].as_u64()) {
                    (Some(id), Some(total)) if id < total => (id, total),
                    _ => {
                        w.problem(format!("IDENTIFY with a bad shard {s}"));
                        (0, 1)
                    }
                },
            };
            if w.gateway.total != 0 && w.gateway.total != total {
                w.problem(format!(
                    "IDENTIFY as shard {shard} of {total}, but another shard said {} in all",
                    w.gateway.total
                ));
            }
            w.gateway.total = total;
            w.gateway.conn_shards.insert(conn_id, shard);
            w.gateway.identifies += 1;
            let guilds: Vec<Value> = std::iter::once(w.guild_id)
                .chain(w.guilds.iter().copied())
                .filter(|g| (g >> 22) % total == shard)
                .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                .collect();
            let session_id = format!("session-{}", w.snowflake());
            let ready = json!({
                "v": 10,
                "user": {
                    "id": w.bot.id.to_string(), "username": w.bot.name, "discriminator": "0", "global_name": null,
                    "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0, "public_flags": 0,
                },
                "guilds": guilds,
                "session_id": session_id,
                "resume_gateway_url": format!("ws://{}/gw", w.gateway_addr),
                "shard": [shard, total],
                "application": {"id": w.app_id.to_string(), "flags": 0},
                "private_channels": [],
            });
            let frame = json!({"op": 0, "s": 1, "t": "READY", "d": ready});
            if let Err(e) = check_frame(&frame) {
                w.problem(e);
            }
            if let Err(e) = serde_json::from_value::<serenity::model::gateway::Ready>(ready.clone()) {
                w.problem(format!("READY does not deserialize into serenity's Ready: {e}"));
            }
            let text = frame.to_string();
            let link = w.gateway.shards.entry(shard).or_default();
            link.session = Some(Session {
                id: session_id,
                seq: 1,
                sent: vec![(1, text.clone())],
            });
            link.conn = Some((conn_id, tx.clone()));
            link.ready = true;
            w.gateway.dispatched.push("READY".into());
            w.gateway.dispatched_to.push((shard, "READY".into(), None));
            vec![text]
        }
        3 | 4 | 8 => vec![],
        6 => {
            let asked = d["session_id"].as_str().unwrap_or("");
            let from = d["seq"].as_u64().unwrap_or(0);
            let shard = w
                .gateway
                .shards
                .iter()
                .find(|(_, l)| l.session.as_ref().is_some_and(|s| s.id == asked))
                .map(|(s, _)| *s);
            let (Some(shard), false) = (shard, w.gateway.refuse_resume) else {
                w.gateway.invalid_sessions += 1;
                return vec![json!({"op": 9, "d": false, "s": null, "t": null}).to_string()];
            };
            w.gateway.resumes += 1;
            w.gateway.conn_shards.insert(conn_id, shard);
            let link = w.gateway.shards.get_mut(&shard).expect("found above");
            let session = link.session.as_mut().expect("checked above");
            let mut frames: Vec<String> = session
                .sent
                .iter()
                .filter(|(s, _)| *s > from)
                .map(|(_, f)| f.clone())
                .collect();
            session.seq += 1;
            let resumed = json!({"op": 0, "s": session.seq, "t": "RESUMED", "d": {}});
            session.sent.push((session.seq, resumed.to_string()));
            frames.push(resumed.to_string());
            link.conn = Some((conn_id, tx.clone()));
            link.ready = true;
            w.gateway.dispatched.push("RESUMED".into());
            w.gateway.dispatched_to.push((shard, "RESUMED".into(), None));
            frames
        }
        _ => {
            w.problem(format!("unexpected gateway opcode from the bot: {msg}"));
            vec![]
        }
    })
}

impl FakeDiscord {
    /// Send a dispatch event (`t`, `d`) in the current session of the
    /// shard of its guild (`d.guild_id`; none: shard 0). It is checked with
    /// serenity's models first. Sent at once when connected; otherwise
    /// kept for a RESUME, like Discord does.
    pub fn dispatch(&self, t: &str, d: Value) {
        self.with(|w| {
            let guild = d["guild_id"].as_str().and_then(|g| g.parse::<u64>().ok());
            let shard = w.gateway.shard_of(guild);
            let id = d["id"].as_str().map(str::to_string);
            w.gateway.dispatched_to.push((shard, t.to_string(), id));
            let link = w.gateway.shards.entry(shard).or_default();
            let Some(session) = link.session.as_mut() else {
                panic!("dispatch {t} before the bot identified shard {shard}");
            };
            session.seq += 1;
            let frame = json!({"op": 0, "s": session.seq, "t": t, "d": d});
            if let Err(e) = check_frame(&frame) {
                panic!("malformed {t} fixture: {e}");
            }
            let text = frame.to_string();
            session.sent.push((session.seq, text.clone()));
            if link.ready {
                if let Some((_, tx)) = &link.conn {
                    let _ = tx.send(Out::Frame(text));
                }
            }
            w.gateway.dispatched.push(t.to_string());
        });
    }

    /// Wait until every shard has a live bot session (identified or
    /// resumed).
    pub async fn wait_connected(&self, timeout: Duration) {
        self.wait_for("a live gateway session", timeout, |w| w.gateway.ready().then_some(()))
            .await;
    }

    /// Cut every gateway connection abruptly (no close frame).
    pub fn drop_gateway(&self) {
        self.with(|w| {
            for link in w.gateway.shards.values_mut() {
                if let Some((_, tx)) = link.conn.take() {
                    let _ = tx.send(Out::Drop);
                }
                link.ready = false;
            }
        });
    }

    /// The shard each interaction was dispatched to: (interaction id, shard).
    pub fn interaction_shards(&self) -> Vec<(u64, u64)> {
        self.read(|w| {
            w.gateway
                .dispatched_to
                .iter()
                .filter(|(_, t, _)| t == "INTERACTION_CREATE")
                .filter_map(|(s, _, id)| Some((id.as_deref()?.parse().ok()?, *s)))
                .collect()
        })
    }

    /// The gateway's counters: (connections, identifies, resumes, heartbeats).
    pub fn gateway_counts(&self) -> (u32, u32, u32, u32) {
        self.read(|w| {
            (
                w.gateway.connections,
                w.gateway.identifies,
                w.gateway.resumes,
                w.gateway.heartbeats,
            )
        })
    }
}
