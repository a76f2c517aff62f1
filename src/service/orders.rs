//! Players' orders: parse, decide, and commit (with what automatic seats
//! then owe and the next deadline); autocomplete from the legal orders.

use super::advance::Advance;
use super::settings::Settings;
use super::{compose, user_err, Actor, Place, Reply, Service, ServiceError, Text};
use crate::engine::{CommandLine, GameId, Seat, Viewer};
use crate::games::{ActionError, AnyState, GameKind};
use crate::store::{Commit, DeadlineChange, GameStatus};

/// Option values for `command`'s `option` among `legal`, consistent with
/// the options already `filled`, starting with `partial` (any case).
pub fn complete_from(
    legal: &[CommandLine],
    command: &str,
    option: &str,
    filled: &[(String, String)],
    partial: &str,
) -> Vec<String> {
    let partial = partial.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for c in legal.iter().filter(|c| c.name == command) {
        let consistent = filled
            .iter()
            .filter(|(k, v)| k != option && !v.is_empty())
            .all(|(k, v)| c.get(k).is_none_or(|cv| cv.eq_ignore_ascii_case(v)));
        if !consistent {
            continue;
        }
        if let Some(v) = c.get(option) {
            if v.to_lowercase().starts_with(&partial) && !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

pub(super) fn explain(e: &ActionError, state: &AnyState, seat: Seat, names: &[String]) -> String {
    match e {
        ActionError::Parse(_) => {
            let mut s = e.to_string();
            let legal = state.legal_commands(seat);
            if !legal.is_empty() {
                let names: Vec<&str> = {
                    let mut v: Vec<&str> = legal.iter().map(|c| c.name.as_str()).collect();
                    v.dedup();
                    v
                };
                s.push_str(&format!("\nOrders you can give now: {}.", names.join(", ")));
            }
            s
        }
        ActionError::Rejected(crate::engine::Rejection::NotYourDecision { .. }) => {
            format!(
                "Nothing is asked of you right now; the game is waiting on {}.",
                super::compose::waiting_line(&state.pending(), names)
            )
        }
        ActionError::Rejected(_) => e.to_string(),
    }
}

impl Service {
    pub(super) async fn order(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        kind: Option<GameKind>,
        line: CommandLine,
    ) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        super::grammar::check_order_kind(&row, kind, actor.place == Place::Dm)?;
        let seats = self.store.seats(row.id).await?;
        let Some(seat) = seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat) else {
            return user_err(format!(
                "You are not playing in game {}; only its players can give orders.",
                row.id
            ));
        };
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let state = match (&row.status, &row.state) {
            (GameStatus::Lobby, _) => {
                return user_err(format!(
                    "Game {} hasn't started yet; the host starts it with `/game start`.",
                    row.id
                ))
            }
            (GameStatus::Finished, _) => return user_err(format!("Game {} is over.", row.id)),
            (GameStatus::Abandoned, _) => return user_err(format!("Game {} was closed.", row.id)),
            (_, None) => return Err(anyhow::anyhow!("active game {} has no state", row.id).into()),
            (_, Some(s)) => s.clone(),
        };
        // Auto-resolve off: a secret choice is kept as a draft.
        let settings = Settings::of(&row);
        if let Some(reply) = self.draft_if_held(&row, &seats, &state, &settings, seat, &line).await? {
            return Ok(reply);
        }
        let events = match state.decide(seat, &line) {
            Ok(events) => events,
            Err(e) => {
                return Err(ServiceError::User(
                    explain(&e, &state, seat, &Self::names(&seats)).into(),
                ))
            }
        };
        let mut adv = Advance::new(&state, row.seq);
        adv.push(events.clone());
        // Seats in civil disorder play what they now owe, in the same commit.
        let played = super::seats::autoplay(&mut adv, &seats, !settings.auto_resolve);
        // A new phase (or step) begins: its deadline, in the same transaction.
        let deadline = self
            .next_deadline(&settings, &adv.before, &adv.state)
            .map_or(DeadlineChange::Keep, DeadlineChange::Set);
        let due = self.due_after(&row, &deadline).await?;
        let notes = super::seats::autoplay_line(&played, &seats)
            .into_iter()
            .map(Text::from)
            .collect();
        let outbox = compose::after_action(&compose::Ctx {
            row: &row,
            seats: &seats,
            adv: &adv,
            due,
            cause: compose::Cause::Order {
                seat,
                line: line.clone(),
            },
            notes,
        });
        let label = compose::label_of(&state, seat, &line);
        let commit = Commit::new(row.id, row.seq, self.now_ms())
            .with_events(adv.events, adv.state)
            .with_deadline(deadline);
        self.commit(commit, &outbox).await?;
        let names = Self::names(&seats);
        let mut text = format!("Sent: {label}");
        // Only what the channel post does not already say: the actor's secrets.
        let own: Vec<String> = events
            .iter()
            .filter_map(|e| {
                let mine = e.narrate(Viewer::Seat(seat), &names)?;
                (e.narrate(Viewer::Public, &names).as_deref() != Some(mine.as_str())).then_some(mine)
            })
            .collect();
        if !own.is_empty() {
            text.push('\n');
            text.push_str(&own.join("\n"));
        }
        // The acknowledgement is private: secret picks must stay so, and
        // public orders are announced by the channel post; the prompt's
        // edit says it too.
        let mut reply = Reply::private(text);
        reply.only_ack = true;
        Ok(reply)
    }

    /// Values for one option of an order, built from the legal orders of
    /// the actor's seat, consistent with the options already filled in.
    pub async fn complete(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Result<Vec<String>, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let (Some(state), Some(seat)) = (
            &row.state,
            seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat),
        ) else {
            return Ok(vec![]);
        };
        let mut values = complete_from(&state.legal_commands(seat), command, option, filled, partial);
        for v in state.complete_more(seat, command, option, filled, partial) {
            if !values.contains(&v) {
                values.push(v);
            }
        }
        Ok(values)
    }
}
