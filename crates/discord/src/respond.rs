//! Who is asking ([`Actor`]), running a request, and turning the service's
//! [`Reply`] into an interaction response.

use super::{components, Context, Error};
use orrery_service::{Actor, Place, Reply, Request, ServiceError, Span, Text};
use poise::serenity_prelude as serenity;
use std::time::Duration;

/// Discord's message length limit, in characters.
pub const MESSAGE_LIMIT: usize = 2000;

/// Where the text of a post or reply is cut (on a line boundary), keeping
/// clear of [`MESSAGE_LIMIT`] for what is added after it (choice lists).
pub const POST_LIMIT: usize = 1900;

/// If a request is not answered within this time, the interaction is
/// deferred (Discord drops interactions unanswered after 3 seconds).
/// Answering directly when it is quick lets every reply, including errors,
/// pick its own visibility.
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The file name boards are attached under.
pub const BOARD_FILE: &str = "board.png";

/// The name shown for a person: their server nickname, else their global
/// display name, else their username.
pub fn display_name(nick: Option<&str>, global_name: Option<&str>, username: &str) -> String {
    [nick, global_name]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|n| !n.is_empty())
        .unwrap_or(username)
        .to_string()
}

/// An actor from the parts of an interaction. Without a guild it was a
/// direct message (or a group DM), which the service treats as private.
pub fn actor_from_parts(
    user: u64,
    nick: Option<&str>,
    global_name: Option<&str>,
    username: &str,
    guild: Option<u64>,
    channel: u64,
) -> Actor {
    let place = match guild {
        Some(g) => Place::Channel {
            channel,
            guild: Some(g),
        },
        None => Place::Dm,
    };
    Actor {
        user: orrery_engine::UserId(user),
        name: display_name(nick, global_name, username),
        place,
    }
}

fn actor_from_interaction(
    user: &serenity::User,
    member: Option<&serenity::Member>,
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
) -> Actor {
    actor_from_parts(
        user.id.get(),
        member.and_then(|m| m.nick.as_deref()),
        user.global_name.as_deref(),
        &user.name,
        guild.map(|g| g.get()),
        channel.get(),
    )
}

/// The actor of a slash command or autocomplete.
pub fn actor_of(ctx: Context<'_>) -> Actor {
    match ctx {
        poise::Context::Application(a) => {
            let i = a.interaction;
            actor_from_interaction(&i.user, i.member.as_deref(), i.guild_id, i.channel_id)
        }
        poise::Context::Prefix(p) => actor_from_interaction(&p.msg.author, None, p.msg.guild_id, p.msg.channel_id),
    }
}

/// The actor of a button press or menu pick.
pub fn actor_of_component(i: &serenity::ComponentInteraction) -> Actor {
    actor_from_interaction(&i.user, i.member.as_ref(), i.guild_id, i.channel_id)
}

/// Service text in Discord's markup: emphasis in `**`, literals in
/// backticks, people and channels as mentions, moments as timestamps
/// (relative, then full; each in the reader's own time zone).
pub fn markup(text: &Text) -> String {
    text.render(|span, out| match span {
        Span::Plain(p) => out.push_str(p),
        Span::Strong(s) => {
            out.push_str("**");
            out.push_str(s);
            out.push_str("**");
        }
        Span::Code(c) => {
            out.push('`');
            out.push_str(c);
            out.push('`');
        }
        Span::User(u) | Span::Mention { user: u, .. } => out.push_str(&format!("<@{u}>")),
        Span::Channel(c) => out.push_str(&format!("<#{c}>")),
        Span::Time(ms) => {
            let s = ms.div_euclid(1000);
            out.push_str(&format!("<t:{s}:R> (<t:{s}:f>)"));
        }
    })
}

/// The content of a post or reply: [`markup`], cut to [`POST_LIMIT`].
pub fn post_text(text: &Text) -> String {
    clip_lines(&markup(text), POST_LIMIT)
}

/// Cut text to at most `max` characters on a line boundary where possible,
/// saying how many lines were left out.
pub fn clip_lines(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(30)).collect();
    let cut = match cut.rfind('\n') {
        Some(i) if i > max / 2 => cut[..i].to_string(),
        _ => cut,
    };
    let rest = text.lines().count().saturating_sub(cut.lines().count());
    format!("{cut}\n… ({rest} more lines)")
}

/// The content of an edited live message: [`markup`], cut to
/// [`POST_LIMIT`] keeping its end (the newest lines).
pub fn edit_text(text: &Text) -> String {
    clip_lines_keep_end(&markup(text), POST_LIMIT)
}

/// Cut text to at most `max` characters keeping its end, on a line
/// boundary where possible, saying first how many earlier lines were cut.
/// For messages that grow at the end (a turn's narration).
pub fn clip_lines_keep_end(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    // Room for the note line: "(… 4294967295 earlier lines cut)\n".
    let budget = max.saturating_sub(40);
    let tail: String = text.chars().skip(total - budget).collect();
    let tail = match tail.find('\n') {
        Some(i) if tail[..i].chars().count() < budget / 2 => tail[i + 1..].to_string(),
        _ => tail,
    };
    let cut = text.lines().count().saturating_sub(tail.lines().count());
    match cut {
        // One line longer than the limit, cut inside.
        0 => format!("(… earlier text cut)\n{tail}"),
        1 => format!("(… 1 earlier line cut)\n{tail}"),
        n => format!("(… {n} earlier lines cut)\n{tail}"),
    }
}

/// Cut `text` to Discord's limit, marking the cut.
pub fn clip_message(text: &str) -> String {
    clip(text, MESSAGE_LIMIT)
}

/// Cut `text` to at most `max` characters (not bytes), ending with `…`
/// when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Will the reply to `request` most likely be public? Decides how an
/// interaction is deferred when the answer is slow; a wrong guess costs a
/// deleted placeholder, never a leak (see [`run_request`]).
pub fn likely_public(request: &Request, place: Place) -> bool {
    match request {
        Request::New { .. } | Request::Join { .. } | Request::Leave { .. } => true,
        Request::History { .. } => place != Place::Dm,
        // Players (most who ask) see their own board, privately.
        Request::Board { .. } => false,
        Request::Start { .. } | Request::Status { .. } | Request::Rules { .. } | Request::Order { .. } => false,
        // Host tools answer privately; their channel notices go through the outbox.
        Request::Settings { .. }
        | Request::Pause { .. }
        | Request::Resume { .. }
        | Request::Extend { .. }
        | Request::Force { .. }
        | Request::Replace { .. }
        | Request::Kick { .. }
        | Request::Disorder { .. }
        | Request::Undo { .. }
        | Request::Rollback { .. }
        | Request::Watch { .. }
        | Request::Unwatch { .. }
        | Request::Log { .. } => false,
        // Private to the asker; channel notices go through the outbox.
        Request::MyGames
        | Request::Reminders { .. }
        | Request::Ready { .. }
        | Request::Sheet { .. }
        | Request::TakeBack { .. }
        | Request::Dms { .. }
        | Request::Private { .. }
        | Request::Prompt { .. } => false,
    }
}

/// Run `request` for the invoking user and answer the interaction.
///
/// Quick answers are sent as they are. A slow one is deferred after
/// [`DEFER_AFTER`] with the visibility [`likely_public`] guesses; if the
/// reply turns out to need the other visibility (or is an error, always
/// shown only to the asker), the deferred placeholder is deleted and the
/// answer sent as a follow-up with its own visibility. Errors are returned
/// for [`super::on_error`] to show.
pub async fn run_request(ctx: Context<'_>, request: Request) -> Result<(), Error> {
    let data = ctx.data();
    let actor = actor_of(ctx);
    let public_guess = likely_public(&request, actor.place);
    let service = data.service.clone();

    let work = async {
        let reply = service.handle(&actor, request).await?;
        let png = match &reply.board {
            Some(board) => match service.render(board).await {
                Ok(png) => Some(png),
                Err(e) => {
                    tracing::error!(game = board.game.0, seq = board.seq, "rendering a board failed: {e:#}");
                    None
                }
            },
            None => None,
        };
        Ok::<_, ServiceError>((reply, png))
    };
    tokio::pin!(work);

    // Some(public) once deferred.
    let mut deferred: Option<bool> = None;
    let result = match tokio::time::timeout(DEFER_AFTER, &mut work).await {
        Ok(result) => result,
        Err(_) => {
            let defer = if public_guess {
                ctx.defer().await
            } else {
                ctx.defer_ephemeral().await
            };
            match defer {
                Ok(()) => deferred = Some(public_guess),
                Err(e) => tracing::warn!("could not defer the interaction: {e}"),
            }
            work.await
        }
    };
    // Whatever happened, anything the request queued should go out now.
    data.deliver_soon();

    match result {
        Ok((mut reply, png)) => {
            if deferred.is_some_and(|public| public == reply.ephemeral) {
                delete_placeholder(ctx).await;
            }
            if reply.board.is_some() && png.is_none() {
                reply.text.push_str("\n(The board could not be drawn.)");
            }
            // A long reply (a rules section) goes out whole, as several messages.
            for response in reply_to_responses(&reply, png) {
                ctx.send(response).await?;
            }
            Ok(())
        }
        Err(e) => {
            if deferred == Some(true) {
                delete_placeholder(ctx).await;
            }
            Err(e.into())
        }
    }
}

/// Delete the deferred "thinking…" response, so the next follow-up is a
/// message of its own with its own visibility. (The first follow-up after
/// a deferral otherwise replaces the placeholder and keeps its visibility.)
async fn delete_placeholder(ctx: Context<'_>) {
    if let poise::Context::Application(a) = ctx {
        if let Err(e) = a.interaction.delete_response(a.serenity_context()).await {
            tracing::warn!("could not delete the deferred response: {e}");
        }
    }
}

/// The interaction response for a reply: its text, the board as
/// `board.png`, and its choices as buttons or a menu.
pub fn reply_to_response(reply: &Reply, png: Option<Vec<u8>>) -> poise::CreateReply {
    let (rows, extra) = components::choice_components(&reply.choices);
    let body = post_text(&reply.text);
    let text = match extra {
        Some(extra) => format!("{body}\n{extra}"),
        None => body,
    };
    let mut response = poise::CreateReply::default()
        .content(clip_message(&text))
        .ephemeral(reply.ephemeral);
    if !rows.is_empty() {
        response = response.components(rows);
    }
    if let Some(png) = png {
        response = response.attachment(serenity::CreateAttachment::bytes(png, BOARD_FILE));
    }
    response
}

/// Text cut into messages of at most `max` characters, each cut at a line
/// break (a single longer line is cut where it must be). Nothing is lost.
pub fn split_message(text: &str, max: usize) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut len = 0;
    for line in text.split('\n') {
        let mut line = line.to_string();
        loop {
            let n = line.chars().count();
            let need = if current.is_empty() { n } else { len + 1 + n };
            if need <= max {
                if !current.is_empty() {
                    current.push('\n');
                    len += 1;
                }
                current.push_str(&line);
                len += n;
                break;
            }
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
                len = 0;
                continue;
            }
            // One line longer than a message: cut it.
            let head: String = line.chars().take(max).collect();
            line = line.chars().skip(max).collect();
            parts.push(head);
        }
    }
    if !current.trim().is_empty() || parts.is_empty() {
        parts.push(current);
    }
    parts
}

/// The interaction response and follow-ups for a reply: its whole text in
/// messages of at most [`MESSAGE_LIMIT`] characters, split at line breaks;
/// the board and the choices come with the last.
pub fn reply_to_responses(reply: &Reply, png: Option<Vec<u8>>) -> Vec<poise::CreateReply> {
    let (rows, extra) = components::choice_components(&reply.choices);
    let body = markup(&reply.text);
    let text = match extra {
        Some(extra) => format!("{body}\n{extra}"),
        None => body,
    };
    let parts = split_message(&text, MESSAGE_LIMIT);
    let last = parts.len() - 1;
    let mut png = png;
    parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let mut response = poise::CreateReply::default().content(part).ephemeral(reply.ephemeral);
            if i == last {
                if !rows.is_empty() {
                    response = response.components(rows.clone());
                }
                if let Some(png) = png.take() {
                    response = response.attachment(serenity::CreateAttachment::bytes(png, BOARD_FILE));
                }
            }
            response
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_engine::{GameId, UserId};

    #[test]
    fn display_name_prefers_nick_then_global_name_then_username() {
        assert_eq!(display_name(Some("Captain"), Some("Alice A."), "alice"), "Captain");
        assert_eq!(display_name(None, Some("Alice A."), "alice"), "Alice A.");
        assert_eq!(display_name(Some("  "), None, "alice"), "alice");
        assert_eq!(display_name(None, None, "alice"), "alice");
    }

    #[test]
    fn actor_in_a_guild_channel_and_in_dms() {
        let a = actor_from_parts(42, Some("Cap"), None, "alice", Some(7), 99);
        assert_eq!(a.user, UserId(42));
        assert_eq!(a.name, "Cap");
        assert_eq!(
            a.place,
            Place::Channel {
                channel: 99,
                guild: Some(7)
            }
        );

        let d = actor_from_parts(42, None, Some("Alice"), "alice", None, 1234);
        assert_eq!(d.place, Place::Dm);
        assert_eq!(d.name, "Alice");
    }

    #[test]
    fn actor_from_serenity_models() {
        let mut user = serenity::User::default();
        user.id = serenity::UserId::new(5);
        user.name = "bob".into();
        user.global_name = Some("Bobby".into());
        let dm = actor_from_interaction(&user, None, None, serenity::ChannelId::new(8));
        assert_eq!((dm.user, dm.name.as_str(), dm.place), (UserId(5), "Bobby", Place::Dm));

        let mut member = serenity::Member::default();
        member.nick = Some("Admiral".into());
        let g = actor_from_interaction(
            &user,
            Some(&member),
            Some(serenity::GuildId::new(3)),
            serenity::ChannelId::new(8),
        );
        assert_eq!(g.name, "Admiral");
        assert_eq!(
            g.place,
            Place::Channel {
                channel: 8,
                guild: Some(3)
            }
        );
    }

    #[test]
    fn markup_for_every_span() {
        let t = Text::plain("Reminder: ")
            .strong("Hyperspace")
            .then(" game 1 in ")
            .channel(42)
            .then(" for ")
            .user(UserId(7))
            .then(": ")
            .code("/sheet ready")
            .then(". Deadline ")
            .time(1_700_000_000_999)
            .then(".");
        assert_eq!(
            markup(&t),
            "Reminder: **Hyperspace** game 1 in <#42> for <@7>: `/sheet ready`. Deadline <t:1700000000:R> (<t:1700000000:f>)."
        );
        // Old outbox rows (plain strings with markup in them) go out as they were.
        assert_eq!(markup(&Text::plain("**x** <t:1:R>")), "**x** <t:1:R>");
    }

    #[test]
    fn posts_are_cut_on_a_line_at_the_post_limit() {
        assert_eq!(clip_lines("abc", 10), "abc");
        let long = (0..200).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
        let c = clip_lines(&long, 300);
        assert!(c.chars().count() <= 300, "{}", c.len());
        assert!(c.contains("more lines"));
        let t = post_text(&Text::plain(long.repeat(3)));
        assert!(t.chars().count() <= POST_LIMIT && t.ends_with("more lines)"), "{t}");
    }

    #[test]
    fn edits_keep_the_newest_lines() {
        assert_eq!(clip_lines_keep_end("abc\ndef", 10), "abc\ndef");
        let long = (0..300).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
        let c = clip_lines_keep_end(&long, 300);
        assert!(c.chars().count() <= 300, "{}", c.chars().count());
        assert!(c.ends_with("line 299"), "{c}");
        // Whole lines only, and the note counts exactly the lines left out.
        let (note, kept) = c.split_once('\n').unwrap();
        let first: usize = kept
            .lines()
            .next()
            .unwrap()
            .strip_prefix("line ")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(note, format!("(… {first} earlier lines cut)"));
        assert_eq!(kept.lines().count(), 300 - first);
        // Characters, not bytes; one long line is cut inside.
        let wide = "é".repeat(5000);
        let c = clip_lines_keep_end(&wide, POST_LIMIT);
        assert!(c.chars().count() <= POST_LIMIT);
        assert!(
            c.starts_with("(… earlier text cut)\né"),
            "{}",
            c.chars().take(40).collect::<String>()
        );
        let t = edit_text(&Text::plain(long.repeat(5)));
        assert!(t.chars().count() <= POST_LIMIT && t.ends_with("line 299"), "{t}");
        assert!(
            t.starts_with("(… ") && t.lines().nth(1).unwrap().starts_with("line "),
            "{t}"
        );
    }

    #[test]
    fn long_replies_are_split_at_line_breaks_not_cut() {
        assert_eq!(split_message("short", 10), ["short"]);
        let lines: Vec<String> = (0..400).map(|i| format!("line {i} é")).collect();
        let text = lines.join("\n");
        let parts = split_message(&text, MESSAGE_LIMIT);
        assert!(parts.len() > 1);
        assert!(parts.iter().all(|p| p.chars().count() <= MESSAGE_LIMIT));
        assert!(parts.iter().all(|p| !p.starts_with('\n') && !p.ends_with('\n')));
        assert_eq!(parts.join("\n"), text, "nothing is lost, every cut is at a line break");
        // A line longer than a message is cut where it must be.
        let long = "x".repeat(4500);
        let parts = split_message(&format!("a\n{long}\nb"), MESSAGE_LIMIT);
        assert!(parts.iter().all(|p| p.chars().count() <= MESSAGE_LIMIT));
        assert_eq!(parts.concat().replace('\n', ""), format!("a{long}b"));

        let reply = Reply::private(text.clone());
        let responses = reply_to_responses(&reply, Some(vec![1]));
        assert!(responses.len() > 1);
        let wires: Vec<serde_json::Value> = responses.into_iter().map(wire).collect();
        let joined: Vec<&str> = wires.iter().map(|w| w["content"].as_str().unwrap()).collect();
        assert_eq!(joined.join("\n"), text);
        assert!(wires.iter().all(|w| w["flags"] == 64), "each part keeps the visibility");
        assert_eq!(wires.last().unwrap()["attachments"][0]["filename"], BOARD_FILE);
        assert!(wires[0]
            .get("attachments")
            .is_none_or(|a| a.as_array().is_none_or(Vec::is_empty)));
    }

    #[test]
    fn clipping_counts_characters() {
        assert_eq!(clip_message("short"), "short");
        let long = "é".repeat(2500);
        let c = clip_message(&long);
        assert_eq!(c.chars().count(), MESSAGE_LIMIT);
        assert!(c.ends_with('…'));
        assert_eq!(clip("abcdef", 4), "abc…");
    }

    #[test]
    fn public_guesses() {
        let chan = Place::Channel {
            channel: 1,
            guild: Some(2),
        };
        assert!(likely_public(&Request::Join { game: None }, chan));
        // A player's board in the channel is their own, privately.
        assert!(!likely_public(&Request::Board { game: None }, chan));
        assert!(likely_public(
            &Request::History {
                game: None,
                phase: None
            },
            chan
        ));
        assert!(!likely_public(&Request::Board { game: None }, Place::Dm));
        assert!(!likely_public(&Request::Status { game: Some(GameId(1)) }, chan));
        let order = Request::Order {
            game: None,
            kind: None,
            line: orrery_engine::CommandLine::new("end"),
        };
        assert!(!likely_public(&order, chan));
    }

    /// The JSON Discord would receive for a response.
    fn wire(r: poise::CreateReply) -> serde_json::Value {
        serde_json::to_value(r.to_slash_initial_response(serenity::CreateInteractionResponseMessage::new())).unwrap()
    }

    #[test]
    fn replies_become_responses() {
        let reply = Reply::private("x".repeat(3000));
        let json = wire(reply_to_response(&reply, Some(vec![1, 2, 3])));
        assert_eq!(json["flags"], 64, "ephemeral: {json}");
        // Cut where posts are cut (was: at MESSAGE_LIMIT, before the cut moved here from the service).
        let content = json["content"].as_str().unwrap();
        assert!(
            content.chars().count() <= POST_LIMIT && content.ends_with("more lines)"),
            "{content}"
        );
        assert_eq!(json["attachments"][0]["filename"], BOARD_FILE, "{json}");
        assert!(json.get("components").is_none(), "{json}");

        let json = wire(reply_to_response(&Reply::public("hi"), None));
        assert!(json.get("flags").is_none_or(|f| f == 0), "public: {json}");
        assert_eq!(json["content"], "hi");
        assert_eq!(json["attachments"].as_array().map(Vec::len).unwrap_or(0), 0);
    }
}
