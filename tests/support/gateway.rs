//! The fake gateway: a websocket on 127.0.0.1 speaking Discord's gateway
//! protocol in plain JSON text frames. HELLO → IDENTIFY → READY; heartbeats
//! are acknowledged; RESUME replays what the session missed (or is refused
//! with op 9 when resuming is switched off); dispatches are numbered per
//! session. Every payload sent is first read back with serenity's own
//! models, so a malformed fixture fails loudly instead of becoming an
//! `Unknown` event the bot silently drops.

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

#[derive(Default)]
pub struct GatewayState {
    pub session: Option<Session>,
    conn: Option<(u64, mpsc::UnboundedSender<Out>)>,
    next_conn: u64,
    /// Connections accepted.
    pub connections: u32,
    pub identifies: u32,
    pub resumes: u32,
    pub heartbeats: u32,
    /// RESUMEs refused with op 9.
    pub invalid_sessions: u32,
    /// A session is live on the current connection.
    pub ready: bool,
    /// Refuse RESUME with op 9 `false` instead of replaying.
    pub refuse_resume: bool,
    /// Dispatch names sent, in order.
    pub dispatched: Vec<String>,
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
        if w.gateway.conn.as_ref().is_some_and(|(id, _)| *id == conn_id) {
            w.gateway.conn = None;
            w.gateway.ready = false;
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
            w.gateway.identifies += 1;
            let session_id = format!("session-{}", w.snowflake());
            let ready = json!({
                "v": 10,
                "user": {
                    "id": w.bot.id.to_string(), "username": w.bot.name, "discriminator": "0", "global_name": null,
                    "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0, "public_flags": 0,
                },
                "guilds": [{"id": w.guild_id.to_string(), "unavailable": true}],
                "session_id": session_id,
                "resume_gateway_url": format!("ws://{}/gw", w.gateway_addr),
                "shard": [0, 1],
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
            w.gateway.session = Some(Session {
                id: session_id,
                seq: 1,
                sent: vec![(1, text.clone())],
            });
            w.gateway.conn = Some((conn_id, tx.clone()));
            w.gateway.ready = true;
            w.gateway.dispatched.push("READY".into());
            vec![text]
        }
        3 | 4 | 8 => vec![],
        6 => {
            let asked = d["session_id"].as_str().unwrap_or("");
            let from = d["seq"].as_u64().unwrap_or(0);
            let resumable = !w.gateway.refuse_resume && w.gateway.session.as_ref().is_some_and(|s| s.id == asked);
            if !resumable {
                w.gateway.invalid_sessions += 1;
                return vec![json!({"op": 9, "d": false, "s": null, "t": null}).to_string()];
            }
            w.gateway.resumes += 1;
            let session = w.gateway.session.as_mut().expect("checked above");
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
            w.gateway.conn = Some((conn_id, tx.clone()));
            w.gateway.ready = true;
            w.gateway.dispatched.push("RESUMED".into());
            frames
        }
        _ => {
            w.problem(format!("unexpected gateway opcode from the bot: {msg}"));
            vec![]
        }
    })
}

impl FakeDiscord {
    /// Send a dispatch event (`t`, `d`) in the current session. It is
    /// checked with serenity's models first. Sent at once when connected;
    /// otherwise kept for a RESUME, like Discord does.
    pub fn dispatch(&self, t: &str, d: Value) {
        self.with(|w| {
            let Some(session) = w.gateway.session.as_mut() else {
                panic!("dispatch {t} before the bot identified");
            };
            session.seq += 1;
            let frame = json!({"op": 0, "s": session.seq, "t": t, "d": d});
            if let Err(e) = check_frame(&frame) {
                panic!("malformed {t} fixture: {e}");
            }
            let text = frame.to_string();
            session.sent.push((session.seq, text.clone()));
            w.gateway.dispatched.push(t.to_string());
            if w.gateway.ready {
                if let Some((_, tx)) = &w.gateway.conn {
                    let _ = tx.send(Out::Frame(text));
                }
            }
        });
    }

    /// Wait until a bot session is live (identified or resumed).
    pub async fn wait_connected(&self, timeout: Duration) {
        self.wait_for("a live gateway session", timeout, |w| w.gateway.ready.then_some(()))
            .await;
    }

    /// Cut the gateway connection abruptly (no close frame).
    pub fn drop_gateway(&self) {
        self.with(|w| {
            if let Some((_, tx)) = w.gateway.conn.take() {
                let _ = tx.send(Out::Drop);
            }
            w.gateway.ready = false;
        });
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
