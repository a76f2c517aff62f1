//! Resigning: a player leaves a game in play (`/game resign`, asked
//! first), or the host resigns a player (`/host resign`, which `/host
//! undo` takes back). The game's own rules say what becomes of the seat's
//! pieces ([`orrery_engine::Ruleset::resign`]); the game goes on without
//! the seat, and ends at once when one player is left.

use super::advance::Advance;
use super::change::{Changed, Load};
use super::roster::Roster;
use super::{compose, user_err, Act, Actor, Choice, OutMessage, Reply, Service, ServiceError, Text};
use orrery_engine::{ControlStyle, GameId, Rejection, Seat, Viewer};
use orrery_games::ActionError;

/// The label of the button that confirms a resignation.
pub const RESIGN_YES: &str = "🏳️ Yes, resign";

impl Service {
    /// Resign `seat` (the host's tool), or the asker's own seat (`None`),
    /// which is only asked about unless `confirmed`.
    pub(super) async fn resign(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        seat: Option<Seat>,
        confirmed: bool,
    ) -> Result<Reply, ServiceError> {
        let row = match seat {
            Some(_) => self.hosted_in_play(actor, game, "resign a player").await?,
            None => {
                let row = self.resolve(actor, game).await?;
                Self::active(&row)?;
                row
            }
        };
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let target = match seat {
                Some(seat) => Self::seat_row(row, &seats, seat)?.clone(),
                None => match seats.iter().find(|s| s.played_by(actor.user)) {
                    Some(s) => s.clone(),
                    None => {
                        return user_err(format!(
                            "You are not playing in game {}, so there is nothing to resign from.",
                            row.id
                        ))
                    }
                },
            };
            let by_host = seat.is_some();
            let state = self.state_of(row)?;
            let names = seats.names();
            let events = match state.resign(target.seat) {
                Ok(events) => events,
                Err(ActionError::Rejected(Rejection::Illegal { reason, .. })) => {
                    let who = if by_host {
                        format!("{} can't resign", target.name)
                    } else {
                        "You can't resign".to_string()
                    };
                    return user_err(format!("{who} from game {}: {}.", row.id, reason.trim_end_matches('.')));
                }
                Err(e) => return Err(anyhow::anyhow!("resigning {}: {e}", target.seat).into()),
            };
            let public: Vec<String> = events
                .iter()
                .filter_map(|e| e.narrate(Viewer::Public, &names))
                .collect();
            if !confirmed {
                return Ok(Changed::nothing(ask(row.id, row.kind.name(), &public)));
            }
            let mut adv = Advance::new(&state, row.seq);
            adv.push(events);
            let mut notes: Vec<Text> = Vec::new();
            if by_host {
                notes.push(Text::plain(format!(
                    "The host resigned {} from game {} (`/host undo` takes it back).",
                    target.name, row.id
                )));
            }
            let mut head = Vec::new();
            if by_host && !target.vacant && target.user != actor.user {
                head.push(OutMessage::to_dm(
                    target.user,
                    format!("The host resigned you from game {}.", row.id),
                ));
            }
            let reply = Reply::private(if by_host {
                format!("{} resigned from game {}.", target.name, row.id)
            } else {
                format!("You resigned from game {}.", row.id)
            });
            let cause = compose::Cause::Resigned {
                seat: target.seat,
                by_host,
            };
            // What automatic seats owe now (the resigned seat's turn passed
            // to one in civil disorder, say) is played in the same commit.
            let moved = self.moved_with_autoplay(row, seats, adv, cause, notes).head(head);
            Ok(Changed::moved(moved, reply))
        })
        .await
    }
}

/// The question before a player resigns: what the channel will read, and
/// the button that confirms it.
fn ask(game: GameId, name: &str, public: &[String]) -> Reply {
    let mut text = format!("Resign from {name} game {game}? The channel will read:");
    for line in public {
        text.push_str(&format!("\n“{line}”"));
    }
    text.push_str(&format!(
        "\nYou can't take it back yourself (the host can undo it). Press “{}” to resign (typed: `/game resign confirm:true`).",
        RESIGN_YES.trim_start_matches(|c: char| !c.is_ascii_alphabetic())
    ));
    let mut reply = Reply::private(text);
    let mut yes = Choice::act(game, Act::Resign, RESIGN_YES);
    yes.style = ControlStyle::End;
    reply.choices.push(yes);
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_quotes_the_public_lines_and_offers_one_red_button() {
        let reply = ask(
            GameId(4),
            "Starlanes",
            &["🏳️ alice resigned: her forces leave the map.".into()],
        );
        let text = reply.text.to_plain();
        assert!(text.starts_with("Resign from Starlanes game #4?"), "{text}");
        assert!(
            text.contains("\n“🏳️ alice resigned: her forces leave the map.”"),
            "{text}"
        );
        assert!(text.contains("Press “Yes, resign”"), "{text}");
        assert_eq!(reply.choices.len(), 1);
        assert_eq!(reply.choices[0].act, Act::Resign);
        assert_eq!(reply.choices[0].style, ControlStyle::End);
        assert!(reply.ephemeral);
    }
}
