//! Running a request for whoever asks, and turning the service's
//! [`Reply`] into an interaction response.

use super::actor::actor_of;
use super::text::{clip_message, markup, post_text, BOARD_FILE, MESSAGE_LIMIT};
use super::{components, Context, Error};
use orrery_service::{Place, Reply, Request, ServiceError};
use poise::serenity_prelude as serenity;
use std::time::Duration;

/// If a request is not answered within this time, the interaction is
/// deferred (Discord drops interactions unanswered after 3 seconds).
/// Answering directly when it is quick lets every reply, including errors,
/// pick its own visibility.
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// Will the reply to `request` most likely be public? Decides how an
/// interaction is deferred when the answer is slow; a wrong guess costs a
/// deleted placeholder, never a leak (see [`run_request`]).
pub fn likely_public(request: &Request, place: Place) -> bool {
    match request {
        Request::New { .. }
        | Request::Join { .. }
        | Request::Pick { .. }
        | Request::Leave { .. }
        | Request::AddBot { .. } => true,
        Request::History { .. } => place != Place::Dm,
        // Players (most who ask) see their own board, privately.
        Request::Board { .. } => false,
        Request::Start { .. }
        | Request::Status { .. }
        | Request::Rules { .. }
        | Request::Order { .. }
        | Request::Press { .. } => false,
        // Host tools answer privately; their channel notices go through the outbox.
        Request::Settings { .. }
        | Request::Pause { .. }
        | Request::Resume { .. }
        | Request::Extend { .. }
        | Request::Force { .. }
        | Request::Replace { .. }
        | Request::ReplaceBot { .. }
        | Request::Kick { .. }
        | Request::Resign { .. }
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
    use crate::text::POST_LIMIT;
    use orrery_engine::GameId;

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
