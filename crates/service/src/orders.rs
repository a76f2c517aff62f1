//! Players' orders: parse and decide (with what automatic seats then owe
//! and the next deadline), committed by the change pipeline; autocomplete from the legal orders.

use super::advance::Advance;
use super::change::{Changed, Load, Read};
use super::roster::Roster;
use super::settings::Settings;
use super::{compose, user_err, Actor, Place, Reply, Service, ServiceError, Text};
use orrery_engine::{CommandLine, GameId, ParamKind, Seat, Viewer};
use orrery_games::{ActionError, AnyState, GameKind};
use orrery_store::GameStatus;

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

/// The options of `line` that name a player ([`ParamKind::Player`]).
fn player_options(kind: GameKind, line: &CommandLine) -> Vec<&'static str> {
    kind.commands()
        .into_iter()
        .filter(|c| c.name == line.name)
        .flat_map(|c| c.params)
        .filter(|p| p.kind == ParamKind::Player)
        .map(|p| p.name)
        .collect()
}

/// `line` with every player named in a player option ([`ParamKind::Player`])
/// as the seat number the ruleset reads: a name (any case, `@` before it
/// allowed) or a seat number. `names` are the seats'. An unknown player is
/// refused with the players' names.
pub fn players_as_seats(kind: GameKind, line: &CommandLine, names: &[String]) -> Result<CommandLine, String> {
    let options = player_options(kind, line);
    let mut out = line.clone();
    for (key, value) in out.args.iter_mut() {
        if !options.contains(&key.as_str()) {
            continue;
        }
        let (who, rest) = match value.split_once('/') {
            Some((who, rest)) => (who.trim().to_string(), Some(rest.to_string())),
            None => (value.trim().to_string(), None),
        };
        let bare = who.trim_start_matches('@');
        let seat = match who.parse::<usize>() {
            Ok(n) => Some(n),
            // A computer player by its name with or without its 🤖.
            Err(_) => names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(bare) || n.trim_start_matches("🤖 ").eq_ignore_ascii_case(bare))
                .map(|i| i + 1),
        };
        let Some(seat) = seat else {
            return Err(format!(
                "`{key}:{who}`: there is no player called {who} in this game; the players are {}.",
                orrery_games::shared::menu::and_list(names)
            ));
        };
        *value = match rest {
            Some(rest) => format!("{seat}/{rest}"),
            None => seat.to_string(),
        };
    }
    Ok(out)
}

/// Autocomplete values of a player option with the player's name in place
/// of the seat number the ruleset writes (`2/tank/mars` → `bob/tank/mars`).
fn seats_as_players(values: Vec<String>, names: &[String]) -> Vec<String> {
    values
        .into_iter()
        .map(|v| {
            let (who, rest) = match v.split_once('/') {
                Some((who, rest)) => (who.to_string(), Some(rest.to_string())),
                None => (v.clone(), None),
            };
            match who
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| names.get(i))
            {
                Some(name) => match rest {
                    Some(rest) => format!("{name}/{rest}"),
                    None => name.clone(),
                },
                None => v,
            }
        })
        .collect()
}

pub(super) fn explain(e: &ActionError, state: &AnyState, seat: Seat, names: &[String]) -> String {
    match e {
        ActionError::Parse(p) => {
            let mut s = format!(
                "I couldn't read that order: {}.",
                in_words(&p.message).trim_end_matches('.')
            );
            let legal: Vec<String> = state.legal_commands(seat).iter().map(|c| c.to_string()).collect();
            let examples = examples_in_words(state, seat, &legal, names);
            if !examples.is_empty() {
                s.push_str(&format!("\nYou could: {}.", examples.join("; ")));
            }
            s
        }
        ActionError::Rejected(orrery_engine::Rejection::NotYourDecision { .. }) => {
            format!(
                "Nothing is asked of you right now; the game is waiting on {}.",
                super::compose::waiting_line(state.kind(), &state.pending(), names)
            )
        }
        ActionError::Rejected(orrery_engine::Rejection::Illegal { reason, legal }) => {
            let mut s = format!("That order isn't legal now: {}.", reason.trim_end_matches('.'));
            let examples = examples_in_words(state, seat, legal, names);
            if !examples.is_empty() {
                s.push_str(&format!("\nYou could instead: {}.", examples.join("; ")));
            }
            s
        }
        ActionError::Rejected(_) => e.to_string(),
    }
}

/// A parse error's message as a player reads it: an option form in
/// backticks (`` `shots:0` ``) as a filled-in option reads (“shots: 0”),
/// other backticked text in quotes instead of backticks.
fn in_words(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        } else {
            match part.split_once(':') {
                Some((name, value)) if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_') => {
                    let value = value.trim_matches('"');
                    if value.is_empty() {
                        out.push_str(&format!("“{name}”"));
                    } else {
                        out.push_str(&format!("“{name}: {value}”"));
                    }
                }
                _ => out.push_str(&format!("“{part}”")),
            }
        }
    }
    out
}

/// How many legal orders a refusal names, at most.
const EXAMPLES: usize = 4;

/// Up to [`EXAMPLES`] of the `legal` orders a refusal suggests, as their
/// controls read (words, not command text), and how many more there are.
fn examples_in_words(state: &AnyState, seat: Seat, legal: &[String], names: &[String]) -> Vec<String> {
    let controls = state.legal_controls(seat, names);
    let mut words: Vec<String> = Vec::new();
    for l in legal {
        let Ok(line) = CommandLine::parse(l) else { continue };
        if let Some((_, c)) = controls.iter().find(|(c, _)| *c == line) {
            let w = compose::bare_label(&c.label).to_string();
            if !words.contains(&w) {
                words.push(w);
            }
        }
    }
    let more = words.len().saturating_sub(EXAMPLES);
    words.truncate(EXAMPLES);
    if more > 0 {
        words.push(format!("or {more} more (your prompt lists them all)"));
    }
    words
}

/// Said when a control made for an earlier phase is used; nothing is sent.
pub const STALE_PROMPT: &str = "This prompt is from an earlier phase; nothing was sent.";
/// Said when a control made for a phase later undone (a rollback) is used.
pub const UNDONE_PROMPT: &str = "This prompt is from a phase that was undone; nothing was sent.";

impl Service {
    /// Give `line` for the actor's seat. `position`: the phase number the
    /// control giving it was made for, if it came from one; in another
    /// phase the order is refused with the seat's current prompt.
    pub(super) async fn order(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        kind: Option<GameKind>,
        line: CommandLine,
        position: Option<u32>,
    ) -> Result<Reply, ServiceError> {
        // Read once (the game with its deadline, then its seats and
        // spectators), and again under the lock only if this process
        // changed the game meanwhile.
        let since = self.changes();
        let (row, seats, watchers) = self.resolve_with_roster(actor, game).await?;
        super::grammar::check_order_kind(&row, kind, actor.place == Place::Dm)?;
        let Some(seat) = seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat) else {
            return user_err(format!(
                "You are not playing in game {}; only its players can give orders.",
                row.id
            ));
        };
        let line = players_as_seats(row.kind, &line, &seats.names()).map_err(|why| ServiceError::User(why.into()))?;
        let load = Load::Read(Box::new(Read {
            row,
            seats,
            watchers,
            since,
        }));
        self.change(load, async |held| {
            let row = &held.row;
            let seats = held.roster.as_ref().map(|(s, _)| s.as_slice()).unwrap_or_default();
            if !seats.iter().any(|s| s.seat == seat && s.played_by(actor.user)) {
                return user_err(format!("You no longer play in game {}.", row.id));
            }
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
            // A control made for another phase: its order is not this
            // phase's choice, even when it happens to be legal now.
            let now = state.phase().number;
            if let Some(made) = position.filter(|p| *p != now) {
                let why = if made < now { STALE_PROMPT } else { UNDONE_PROMPT };
                let current = self.current_prompt_text(row, &state, seats, seat).await?;
                return Err(ServiceError::User(Text::plain(format!("{why}\n")).and(current)));
            }
            // Auto-resolve off: a secret choice is kept as a draft.
            let settings = Settings::of(row);
            if let Some(draft) = self.draft_if_held(row, seats, &state, &settings, seat, &line).await? {
                return Ok(draft);
            }
            let events = match state.decide(seat, &line) {
                Ok(events) => events,
                Err(e) => return Err(ServiceError::User(explain(&e, &state, seat, &seats.names()).into())),
            };
            let mut adv = Advance::new(&state, row.seq);
            adv.push(events.clone());
            let names = seats.names();
            let label = compose::label_of(&state, seat, &line, &names);
            let cause = compose::Cause::Order {
                seat,
                line: line.clone(),
                label: label.clone(),
            };
            // Seats in civil disorder play what they now owe, and a new
            // phase's deadline is set, in the same commit.
            let moved = self.moved_with_autoplay(row, seats.to_vec(), adv, cause, Vec::new());
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
            // An edit of a ready sheet takes its readiness back: say so
            // (un-ready itself says it in its label).
            let ready = |s: &AnyState| s.pending().iter().any(|p| p.seat == seat && p.sheet && p.submitted);
            let unready = row.kind.sheet_command(orrery_engine::SheetVerb::Unready);
            let after = &moved.adv.state;
            let still_owes = after.pending().iter().any(|p| p.seat == seat && p.sheet);
            if ready(&state) && !ready(after) && still_owes && unready.as_ref().is_none_or(|u| u.name != line.name) {
                text.push_str("\nYour sheet is no longer ready: mark it ready again when it is done.");
            }
            // The acknowledgement is private: secret picks must stay so, and
            // public orders are announced by the channel post; the prompt's
            // edit says it too.
            let mut reply = Reply::private(text);
            reply.only_ack = true;
            Ok(Changed::moved(moved, reply))
        })
        .await
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
        let names = seats.names();
        let player = |o: &str| {
            row.kind
                .commands()
                .iter()
                .filter(|c| c.name == command)
                .flat_map(|c| c.params.iter())
                .any(|p| p.name == o && p.kind == ParamKind::Player)
        };
        // Filled player options are names: the legal orders hold numbers.
        let filled: Vec<(String, String)> = filled
            .iter()
            .map(|(k, v)| {
                if player(k) && !v.is_empty() {
                    let mut one = CommandLine::new(command);
                    one.args.push((k.clone(), v.clone()));
                    let v = players_as_seats(row.kind, &one, &names)
                        .ok()
                        .and_then(|l| l.get(k).map(str::to_string))
                        .unwrap_or_else(|| v.clone());
                    (k.clone(), v)
                } else {
                    (k.clone(), v.clone())
                }
            })
            .collect();
        let legal = state.legal_commands(seat);
        let mut values = if player(option) {
            // Match what is typed against the names, not the numbers.
            let all = seats_as_players(complete_from(&legal, command, option, &filled, ""), &names);
            let typed = partial.to_lowercase();
            all.into_iter()
                .filter(|v| v.to_lowercase().starts_with(&typed))
                .collect()
        } else {
            complete_from(&legal, command, option, &filled, partial)
        };
        for v in state.complete_more(seat, command, option, &filled, partial) {
            if !values.contains(&v) {
                values.push(v);
            }
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["alice".into(), "Bob the Bold".into(), "carol".into()]
    }

    #[test]
    fn parse_errors_read_as_words() {
        assert_eq!(
            in_words("`shots:0` is not a number of shots (1 or more)"),
            "“shots: 0” is not a number of shots (1 or more)"
        );
        assert_eq!(in_words("`move` needs `to:`"), "“move” needs “to”");
        assert_eq!(in_words("no backticks here"), "no backticks here");
    }

    #[test]
    fn players_are_read_by_name_or_number() {
        let read = |text: &str| {
            players_as_seats(GameKind::Solar, &CommandLine::parse(text).unwrap(), &names()).map(|l| l.to_string())
        };
        assert_eq!(
            read("play card:espionage player:carol").unwrap(),
            "play card:espionage player:3"
        );
        assert_eq!(
            read("play card:espionage player:\"bob the bold\"").unwrap(),
            "play card:espionage player:2"
        );
        assert_eq!(
            read("claim tile:12 player:Carol piece:mine").unwrap(),
            "claim tile:12 player:3 piece:mine"
        );
        assert_eq!(read("power kill:@Carol/tank/mars").unwrap(), "power kill:3/tank/mars");
        assert_eq!(read("power steal:1").unwrap(), "power steal:1");
        // Options that do not name a player are left alone.
        assert_eq!(
            read("move from:earth to:mars ships:1").unwrap(),
            "move from:earth to:mars ships:1"
        );
        let e = read("power steal:dave").unwrap_err();
        assert!(
            e.contains("no player called dave") && e.contains("alice, Bob the Bold and carol"),
            "{e}"
        );
    }

    #[test]
    fn autocomplete_offers_names_for_players() {
        let values = vec!["2".to_string(), "3/tank/mars".to_string(), "9".to_string()];
        assert_eq!(
            seats_as_players(values, &names()),
            ["Bob the Bold", "carol/tank/mars", "9"]
        );
    }
}
