//! Delivering the outbox to Discord: channel posts and DMs.

use super::components::choice_components;
use super::text::{clip_message, edit_text, post_text, BOARD_FILE};
use anyhow::Context as _;
use orrery_service::{Delivery, Opened, OutMessage, Posted, Target, ThreadPlace, Transport};
use poise::serenity_prelude as serenity;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Discord's limit on a message nonce.
pub const NONCE_MAX: usize = 25;

/// Sends outbox messages with the bot's HTTP client.
pub struct DiscordTransport {
    http: Arc<serenity::Http>,
    /// DM channel of each user, once opened.
    dm_channels: Mutex<HashMap<u64, serenity::ChannelId>>,
}

impl DiscordTransport {
    pub fn new(http: Arc<serenity::Http>) -> Self {
        DiscordTransport {
            http,
            dm_channels: Mutex::new(HashMap::new()),
        }
    }

    async fn dm_channel(&self, user: u64) -> anyhow::Result<serenity::ChannelId> {
        if let Some(c) = self.dm_channels.lock().expect("dm channel map poisoned").get(&user) {
            return Ok(*c);
        }
        let user_id = serenity::UserId::new(user);
        let channel = user_id.create_dm_channel(&*self.http).await.map_err(|e| {
            let permanent = is_permanent(&e);
            anyhow::Error::new(e).context(SendFailure {
                permanent,
                what: format!("opening a DM with user {user}"),
            })
        })?;
        self.dm_channels
            .lock()
            .expect("dm channel map poisoned")
            .insert(user, channel.id);
        Ok(channel.id)
    }
}

/// The nonce of outbox message `id`: the same on every retry, so Discord
/// drops a resend (after a crash between sending and marking delivered)
/// instead of posting twice. At most [`NONCE_MAX`] characters.
pub fn nonce_for(outbox_id: i64) -> String {
    format!("orrery-{outbox_id:x}")
}

/// The message for an outbox row: its full text (text and footer) clipped,
/// buttons or menu for its choices, the board as `board.png`, the
/// idempotency nonce, and pings for exactly `message.pings`.
pub fn outbox_message(outbox_id: i64, message: &OutMessage, png: Option<&[u8]>) -> serenity::CreateMessage {
    let (rows, extra) = choice_components(&message.choices);
    let body = post_text(&message.full_text());
    let mut text = match extra {
        Some(extra) => format!("{body}\n{extra}"),
        None => body,
    };
    if text.trim().is_empty() && png.is_none() {
        // Discord refuses empty messages.
        text = "…".into();
    }
    let mut builder = serenity::CreateMessage::new()
        .content(clip_message(&text))
        .nonce(serenity::Nonce::String(nonce_for(outbox_id)))
        .enforce_nonce(true)
        .allowed_mentions(pings(message));
    if !rows.is_empty() {
        builder = builder.components(rows);
    }
    if let Some(png) = png {
        builder = builder.add_file(serenity::CreateAttachment::bytes(png.to_vec(), BOARD_FILE));
    }
    builder
}

/// Who a post alerts: the people in `message.pings` and nobody else (no
/// `@everyone`, no roles, no one else it mentions).
pub fn pings(message: &OutMessage) -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new().users(
        message
            .pings
            .iter()
            .filter(|u| u.0 != 0)
            .map(|u| serenity::UserId::new(u.0)),
    )
}

/// The edit of a live message to show `message`: its full text clipped
/// keeping the end (the newest lines), its choices (none: every component
/// removed), a new board if `png` is given (else the attachment it has is
/// kept), and no pings.
pub fn edit_message(message: &OutMessage, png: Option<&[u8]>) -> serenity::EditMessage {
    let (rows, extra) = choice_components(&message.choices);
    let body = edit_text(&message.full_text());
    let mut text = match extra {
        Some(extra) => format!("{body}\n{extra}"),
        None => body,
    };
    if text.trim().is_empty() && png.is_none() && message.board.is_none() {
        text = "…".into();
    }
    let mut builder = serenity::EditMessage::new()
        .content(clip_message(&text))
        .components(rows)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Some(png) = png {
        builder = builder.new_attachment(serenity::CreateAttachment::bytes(png.to_vec(), BOARD_FILE));
    }
    builder
}

/// Whether a failed request can never succeed as it is: Discord refused it
/// (the user does not accept DMs, the channel is gone or hidden, the
/// message is malformed) rather than being unreachable, rate limiting us,
/// or rejecting our token (which affects every message alike).
pub fn is_permanent(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(e) => e.status_code().is_some_and(|s| permanent_status(s.as_u16())),
        serenity::Error::Model(_) => true,
        _ => false,
    }
}

/// Discord's "Cannot send messages to this user" (JSON error code 50007):
/// the user does not accept DMs from the bot (closed to server members,
/// or the bot blocked).
pub fn refuses_dms(error: &serenity::Error) -> bool {
    matches!(
        error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) if r.error.code == 50007
    )
}

/// Discord's limit on a thread's name.
pub const THREAD_NAME_MAX: usize = 100;

/// A thread's name within Discord's limit (never empty).
pub fn thread_name(name: &str) -> String {
    let name = name.trim();
    if name.is_empty() {
        return "Orrery".into();
    }
    name.chars().take(THREAD_NAME_MAX).collect()
}

/// Client errors other than 401 (bad token), 408 (timeout) and 429 (rate limit).
pub fn permanent_status(status: u16) -> bool {
    (400..500).contains(&status) && !matches!(status, 401 | 408 | 429)
}

/// Marks why a send failed, for [`Transport::send`]'s caller.
#[derive(Debug)]
struct SendFailure {
    permanent: bool,
    what: String,
}

impl std::fmt::Display for SendFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl Transport for DiscordTransport {
    /// Post or DM one outbox message.
    ///
    /// A message Discord will never accept (the user has DMs closed, the
    /// channel was deleted or hidden from the bot) is reported as
    /// [`Delivery::Undeliverable`]: recorded, and off the queue. Anything
    /// else that fails (network, Discord outage, rate limits) is returned as
    /// an error and retried.
    async fn send(&self, id: i64, message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        let channel = match &message.target {
            Target::Channel(0) | Target::Dm(orrery_engine::UserId(0)) => {
                tracing::warn!(outbox = id, target = ?message.target, "dropping an outbox message with a zero id target");
                return Ok(Delivery::Undeliverable("zero id target".into()));
            }
            Target::Channel(c) => serenity::ChannelId::new(*c),
            Target::Dm(user) => match self.dm_channel(user.0).await {
                Ok(c) => c,
                Err(e) if e.downcast_ref::<serenity::Error>().is_some_and(refuses_dms) => {
                    tracing::warn!(outbox = id, user = user.0, "the user does not accept DMs: {e:#}");
                    return Ok(Delivery::Refused(format!("{e:#}")));
                }
                Err(e) if e.downcast_ref::<SendFailure>().is_some_and(|f| f.permanent) => {
                    tracing::warn!(outbox = id, user = user.0, "dropping an undeliverable DM: {e:#}");
                    return Ok(Delivery::Undeliverable(format!("{e:#}")));
                }
                Err(e) => return Err(e),
            },
        };
        match channel
            .send_message(&*self.http, outbox_message(id, message, png))
            .await
        {
            Ok(posted) => Ok(Delivery::Sent(Some(Posted {
                channel: posted.channel_id.get(),
                message: posted.id.get(),
            }))),
            Err(e) if matches!(message.target, Target::Dm(_)) && refuses_dms(&e) => {
                tracing::warn!(
                    outbox = id,
                    channel = channel.get(),
                    "the user does not accept DMs: {e}"
                );
                Ok(Delivery::Refused(e.to_string()))
            }
            Err(e) if is_permanent(&e) => {
                tracing::warn!(
                    outbox = id,
                    channel = channel.get(),
                    "dropping an undeliverable message: {e}"
                );
                Ok(Delivery::Undeliverable(e.to_string()))
            }
            Err(e) => Err(e).with_context(|| format!("sending outbox message {id} to channel {channel}")),
        }
    }

    /// Open a seat's private thread: `POST /channels/{channel}/threads`
    /// (type 12, a private thread, not invitable: only moderators and the
    /// bot can add anyone), then `PUT /channels/{thread}/thread-members/{user}`
    /// for the player. Posts in it then go through [`Transport::send`] to
    /// the thread's channel id.
    async fn open_thread(&self, place: &ThreadPlace) -> anyhow::Result<Opened> {
        if place.channel == 0 || place.member.0 == 0 {
            return Ok(Opened::Refused("zero id channel or player".into()));
        }
        let builder = serenity::CreateThread::new(thread_name(&place.name))
            .kind(serenity::ChannelType::PrivateThread)
            .invitable(false)
            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
        let thread = match serenity::ChannelId::new(place.channel)
            .create_thread(&*self.http, builder)
            .await
        {
            Ok(t) => t.id,
            Err(e) if is_permanent(&e) => {
                tracing::warn!(channel = place.channel, "a private thread cannot be opened: {e}");
                return Ok(Opened::Refused(e.to_string()));
            }
            Err(e) => {
                return Err(e).with_context(|| format!("opening a private thread in channel {}", place.channel));
            }
        };
        match thread
            .add_thread_member(&*self.http, serenity::UserId::new(place.member.0))
            .await
        {
            Ok(()) => Ok(Opened::Thread(thread.get())),
            Err(e) if is_permanent(&e) => {
                tracing::warn!(
                    thread = thread.get(),
                    user = place.member.0,
                    "the player cannot be added to their thread: {e}"
                );
                Ok(Opened::Refused(e.to_string()))
            }
            Err(e) => Err(e).with_context(|| format!("adding user {} to thread {thread}", place.member.0)),
        }
    }

    /// Edit a live message (`PATCH /channels/{channel}/messages/{message}`).
    /// A message that is gone (deleted, or its channel) is
    /// [`Delivery::Undeliverable`]; other failures are retried.
    async fn edit(&self, id: i64, at: &Posted, message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        if at.channel == 0 || at.message == 0 {
            return Ok(Delivery::Undeliverable("zero id message".into()));
        }
        let channel = serenity::ChannelId::new(at.channel);
        match channel
            .edit_message(
                &*self.http,
                serenity::MessageId::new(at.message),
                edit_message(message, png),
            )
            .await
        {
            Ok(_) => Ok(Delivery::Sent(Some(*at))),
            Err(e) if is_permanent(&e) => {
                tracing::warn!(
                    outbox = id,
                    channel = at.channel,
                    message = at.message,
                    "a live message cannot be edited: {e}"
                );
                Ok(Delivery::Undeliverable(e.to_string()))
            }
            Err(e) => Err(e).with_context(|| {
                format!(
                    "editing message {} in channel {} for outbox message {id}",
                    at.message, at.channel
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::POST_LIMIT;
    use orrery_engine::{CommandLine, GameId, UserId};
    use orrery_service::{Choice, Text};

    #[test]
    fn nonces_fit_discord_and_are_stable() {
        for id in [0, 1, 42, 1_000_000, i64::MAX, i64::MIN, -1] {
            let n = nonce_for(id);
            assert!(n.len() <= NONCE_MAX, "{n}");
            assert_eq!(n, nonce_for(id));
        }
        assert_ne!(nonce_for(1), nonce_for(2));
    }

    #[test]
    fn outbox_messages_carry_nonce_buttons_and_board() {
        let command = CommandLine::parse("depart from:Algol ships:2").unwrap();
        let msg = OutMessage {
            target: Target::Dm(UserId(5)),
            text: "y".repeat(2100).into(),
            board: None,
            choices: vec![Choice::order(GameId(3), command.clone(), command.to_string())],
            game_over: false,
            lead: None,
            footer: None,
            slot: None,
            op: Default::default(),
            pings: Vec::new(),
        };
        let json = serde_json::to_value(outbox_message(17, &msg, Some(&[1, 2, 3]))).unwrap();
        assert_eq!(json["nonce"], "orrery-11", "{json}");
        assert_eq!(json["enforce_nonce"], true);
        // Cut where posts are cut (was: at 2000, before the cut moved here from the service).
        let content = json["content"].as_str().unwrap();
        assert!(
            content.chars().count() <= POST_LIMIT && content.ends_with("more lines)"),
            "{content}"
        );
        assert_eq!(
            json["components"][0]["components"][0]["custom_id"],
            "o:3:depart from:Algol ships:2"
        );
        assert_eq!(json["attachments"][0]["filename"], "board.png", "{json}");
        assert_eq!(json["allowed_mentions"]["parse"], serde_json::json!([]));

        let empty = OutMessage {
            target: Target::Channel(1),
            text: Text::new(),
            board: None,
            choices: vec![],
            game_over: false,
            lead: None,
            footer: None,
            slot: None,
            op: Default::default(),
            pings: Vec::new(),
        };
        let json = serde_json::to_value(outbox_message(1, &empty, None)).unwrap();
        assert_eq!(json["content"], "…");
        assert!(json.get("components").is_none());
    }

    #[test]
    fn posts_ping_exactly_their_pings_and_edits_nobody() {
        let mut msg = OutMessage::to_channel(9, Text::plain("Your move, ").mention(UserId(5), "alice"));
        msg.footer = Some(Text::plain("Waiting on alice"));
        let json = serde_json::to_value(outbox_message(1, &msg, None)).unwrap();
        assert_eq!(
            json["content"], "Your move, <@5>\nWaiting on alice",
            "full text: {json}"
        );
        assert_eq!(json["allowed_mentions"]["parse"], serde_json::json!([]));
        assert_eq!(
            json["allowed_mentions"]["users"],
            serde_json::json!([]),
            "no pings: nobody"
        );
        msg.pings = vec![UserId(5), UserId(0)];
        let json = serde_json::to_value(outbox_message(1, &msg, None)).unwrap();
        assert_eq!(json["allowed_mentions"]["users"], serde_json::json!(["5"]), "{json}");

        let edit = serde_json::to_value(edit_message(&msg, None)).unwrap();
        assert_eq!(edit["content"], "Your move, <@5>\nWaiting on alice");
        assert_eq!(edit["allowed_mentions"]["parse"], serde_json::json!([]));
        assert_eq!(
            edit["allowed_mentions"]["users"],
            serde_json::json!([]),
            "edits alert nobody"
        );
        // No choices: every component goes; no board: the attachment stays.
        assert_eq!(edit["components"], serde_json::json!([]), "{edit}");
        assert!(edit.get("attachments").is_none(), "{edit}");
        assert!(edit.get("nonce").is_none());

        let command = CommandLine::parse("end").unwrap();
        msg.choices = vec![Choice::order(GameId(3), command.clone(), "End")];
        msg.text = (0..400)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n")
            .into();
        let edit = serde_json::to_value(edit_message(&msg, Some(&[1, 2]))).unwrap();
        let content = edit["content"].as_str().unwrap();
        assert!(content.chars().count() <= POST_LIMIT, "{}", content.len());
        assert!(
            content.starts_with("(… ") && content.ends_with("line 399\nWaiting on alice"),
            "{content}"
        );
        assert_eq!(edit["components"][0]["components"][0]["custom_id"], "o:3:end");
        assert_eq!(edit["attachments"][0]["filename"], "board.png", "{edit}");
    }

    #[test]
    fn thread_names_fit_discord() {
        assert_eq!(thread_name("Spectrum War 3 · bob"), "Spectrum War 3 · bob");
        assert_eq!(thread_name("  "), "Orrery");
        let long = "é".repeat(300);
        assert_eq!(thread_name(&long).chars().count(), THREAD_NAME_MAX);
    }

    #[test]
    fn which_failures_are_permanent() {
        for s in [400, 403, 404, 413] {
            assert!(permanent_status(s), "{s}");
        }
        for s in [401, 408, 429, 500, 502, 503] {
            assert!(!permanent_status(s), "{s}");
        }
        assert!(is_permanent(&serenity::Error::Model(
            serenity::ModelError::MessageTooLong(2001)
        )));
        assert!(!is_permanent(&serenity::Error::Other("network down")));
    }
}
