//! Reading a game, changing nothing: `/game status`, `board`, `rules`,
//! `history`, `log`, the games a user plays, and drawing a board
//! reference from the log.

use super::rewind::{phase_start, replay_log};
use super::roster::Roster;
use super::settings::{format_duration, settings_line, Settings};
use super::{compose, user_err, Actor, BoardRef, Place, Reply, Service, ServiceError, Text};
use anyhow::Context as _;
use orrery_engine::{GameId, Seat, UserId, Viewer};
use orrery_games::{AnyEvent, AnyState, GameKind};
use orrery_store::{GameRow, GameStatus};

/// Boards are sent at this fraction of the size their games draw them
/// (1600x1200 → 1120x840): Discord shows them about 550 px wide in the
/// chat column anyway, so text keeps its size relative to the picture
/// (every board's smallest text is 9 px there, 19 px once opened), and
/// each PNG weighs about half as much. Boards drawn for the chat column
/// (27 px text at least) weighed 51.5 KB per order at 0.75 in the Space
/// Empires and Starlanes whole-game tests, over the 50 KB goal.
pub const BOARD_SCALE: f32 = 0.7;

/// The result line of a finished game ("Game over: alice wins — …").
pub fn compose_outcome(state: &AnyState, names: &[String]) -> Text {
    match state.outcome() {
        Some(o) => compose::outcome_line(&o, names),
        None => Text::plain("the game is not over"),
    }
}

/// The last lines that fit in `max` characters, with a note of how many
/// earlier ones were left out.
/// The phase log shows at most this many entries (the latest).
pub(super) const LOG_LINES: usize = 20;

/// The last `max` lines, saying how many earlier ones were left out.
pub(super) fn tail(lines: &[String], max: usize) -> String {
    let kept = &lines[lines.len().saturating_sub(max)..];
    let skipped = lines.len() - kept.len();
    let mut text = String::new();
    if skipped > 0 {
        text.push_str(&format!("… ({skipped} earlier entries)\n"));
    }
    text.push_str(&kept.join("\n"));
    text
}

impl Service {
    pub(super) async fn status(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let mut text =
            Text::new()
                .strong(row.kind.name())
                .then(format!(" game {} · {}\n", row.id, row.status.as_str()));
        for s in &seats {
            let host = if s.user == row.host && !s.vacant { " (host)" } else { "" };
            let auto = if s.vacant {
                " — vacant, civil disorder"
            } else if s.disorder {
                " — civil disorder"
            } else if let Some(level) = s.bot {
                match level {
                    orrery_store::BotLevel::Easy => " — computer player, easy",
                    orrery_store::BotLevel::Normal => " — computer player, normal",
                    orrery_store::BotLevel::Hard => " — computer player, hard",
                }
            } else {
                ""
            };
            // A lobby shows each player's pick (their colour); in play the
            // board shows it.
            let pick = match (&row.state, row.kind.seat_pick(), &s.pick) {
                (None, Some(spec), Some(p)) => format!(" — {} {p}", spec.name),
                _ => String::new(),
            };
            text.push_str(&format!("- {}{host}{pick}{auto}\n", s.name));
        }
        if let Some(state) = &row.state {
            text.push_str(&format!(
                "Phase {} · {}\n",
                state.phase().number,
                state.phase().title(&seats.names())
            ));
            match state.outcome() {
                Some(o) => text.append(compose::outcome_line(&o, &seats.names())),
                None => {
                    let pending = state.pending();
                    text.push_str(&format!(
                        "Waiting on: {}",
                        compose::waiting_line(state.kind(), &pending, &seats.names())
                    ));
                }
            }
        }
        if row.status.is_open() {
            text.push('\n');
            text.append(self.status_lines(&row).await?);
        }
        Ok(Reply::private(text))
    }

    pub(super) async fn board(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(state) = &row.state else {
            return user_err(format!("Game {} hasn't started yet, so there is no board.", row.id));
        };
        if actor.place != Place::Dm {
            // A player asking in the channel sees their own board (and
            // prompt) privately: what a player whose DMs are closed reads.
            if let Some(reply) = self.private_board_here(actor, &row).await? {
                return Ok(reply);
            }
        }
        let viewer = self.viewer_for(actor, &row).await?;
        // A private board is only ever shown in DMs, where a reply is
        // private anyway: kept, so it does not vanish on reload.
        let ephemeral = viewer != Viewer::Public && actor.place != Place::Dm;
        let names = self.store.seats(row.id).await?.names();
        let phase = state.phase();
        Ok(Reply {
            text: format!(
                "{} · game {} · Phase {} · {}",
                row.kind.name(),
                row.id,
                phase.number,
                phase.title(&names)
            )
            .into(),
            ephemeral,
            board: Some(BoardRef {
                game: row.id,
                viewer,
                seq: row.seq,
            }),
            choices: vec![],
            only_ack: false,
        })
    }

    /// A seated player asking in DMs sees their own view; everyone else,
    /// and every channel, the public one.
    pub(super) async fn viewer_for(&self, actor: &Actor, row: &GameRow) -> Result<Viewer, ServiceError> {
        if actor.place != Place::Dm {
            return Ok(Viewer::Public);
        }
        let seats = self.store.seats(row.id).await?;
        Ok(seats
            .iter()
            .find(|s| s.played_by(actor.user))
            .map(|s| Viewer::Seat(s.seat))
            .unwrap_or(Viewer::Public))
    }

    pub(super) async fn rules(
        &self,
        actor: &Actor,
        kind: Option<GameKind>,
        game: Option<GameId>,
        section: Option<String>,
    ) -> Result<Reply, ServiceError> {
        let kind = match kind {
            Some(k) => k,
            None => self.resolve(actor, game).await?.kind,
        };
        let page = kind.rules_page();
        if let Some(section) = section {
            let text = super::rules_section(page, &section).map_err(|e| ServiceError::User(e.into()))?;
            return Ok(Reply::private(text));
        }
        let mut text = super::rules_intro(page);
        text.append(
            Text::plain("\n")
                .strong("Sections")
                .then(" (read one with ")
                .code("/game rules section:…")
                .then(")\n"),
        );
        for name in super::rules_sections(kind) {
            text.push_str(&format!("- {name}\n"));
        }
        text.append(Text::plain("\n").strong("Orders").then("\n"));
        for c in kind.commands() {
            let params: Vec<String> = c
                .params
                .iter()
                .map(|p| {
                    if p.required {
                        format!("{}:…", p.name)
                    } else {
                        format!("[{}:…]", p.name)
                    }
                })
                .collect();
            text.append(
                Text::new()
                    .code(format!("/{} {} {}", kind.command_of(c.name), c.name, params.join(" ")))
                    .then(format!(" — {}\n", c.description)),
            );
        }
        Ok(Reply::private(text))
    }

    pub(super) async fn history(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        phase: Option<u64>,
    ) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(state) = &row.state else {
            return user_err(format!("Game {} hasn't started yet.", row.id));
        };
        let current = state.phase().number;
        let Some(phase) = phase.map_or(Some(current), |p| u32::try_from(p).ok().filter(|&p| p <= current)) else {
            return user_err(format!(
                "Game {} is in phase {current}; pick a phase from 0 to {current}.",
                row.id
            ));
        };
        // The game as played: entries set aside by a roll-back don't count.
        let log = self.store.log(row.id).await?;
        let replay = super::rewind::replay_log(&row, &log)?;
        let mut s = row.kind.empty();
        let mut at = None;
        let mut label = String::new();
        let names = self.store.seats(row.id).await?.names();
        for (seq, e) in replay.counting() {
            s.apply(e).map_err(anyhow::Error::from)?;
            if s.phase().number >= phase && at.is_none() {
                at = Some(*seq);
                label = s.phase().title(&names);
            }
        }
        let seq = at.unwrap_or(row.seq);
        let viewer = self.viewer_for(actor, &row).await?;
        let mut reply = Reply {
            text: format!("Game {} after phase {phase} · {label}", row.id).into(),
            ephemeral: viewer != Viewer::Public && actor.place != Place::Dm,
            board: Some(BoardRef {
                game: row.id,
                viewer: Viewer::Public,
                seq,
            }),
            choices: vec![],
            only_ack: false,
        };
        if viewer != Viewer::Public {
            // In DMs the player gets their own view of that moment.
            reply.board = Some(BoardRef {
                game: row.id,
                viewer,
                seq,
            });
        }
        Ok(reply)
    }

    /// The games a user is in, for `game` autocompletion and `/mygames`.
    pub async fn games_of(&self, user: UserId) -> Result<Vec<(GameRow, Seat)>, ServiceError> {
        let mut out = Vec::new();
        for g in self.store.games_of_user(user).await? {
            let seats = self.store.seats(g.id).await?;
            if let Some(s) = seats.iter().find(|s| s.played_by(user)) {
                out.push((g.clone(), s.seat));
            }
        }
        Ok(out)
    }

    /// Render a board reference to PNG bytes, from the log.
    pub async fn render(&self, board: &BoardRef) -> anyhow::Result<Vec<u8>> {
        let scene = self.scene_of(board).await?;
        Ok(orrery_render::render_png(&scene)?)
    }

    /// The scene a board reference draws, from the log.
    pub(super) async fn scene_of(&self, board: &BoardRef) -> anyhow::Result<orrery_render::Scene> {
        let (kind, seq) = self
            .store
            .game_position(board.game)
            .await?
            .with_context(|| format!("no game {}", board.game))?;
        // The players as they were at that point (a seat given to a new
        // player later still shows the old name on older boards).
        let names = self.store.names_at(board.game, board.seq).await?;
        // The game's cached state when the board is of its current
        // position; otherwise a snapshot and the entries after it.
        let current = if seq == board.seq {
            let row = self.store.game(board.game).await?;
            row.and_then(|row| row.state.filter(|_| row.seq == seq))
        } else {
            None
        };
        let state = match current {
            Some(state) => state,
            None => self.store.state_at(board.game, kind, board.seq).await?,
        };
        Ok(state.scene(board.viewer, &names).scaled(BOARD_SCALE))
    }

    /// Lines for `/game status`: the deadline and the settings.
    pub(super) async fn status_lines(&self, row: &GameRow) -> Result<Text, ServiceError> {
        let settings = Settings::of(row);
        let mut text = Text::new();
        if row.status == GameStatus::Active {
            match self.store.deadline(row.id).await? {
                Some(d) => match d.paused_remaining {
                    Some(left) => text.append(Text::plain("Deadline: ").strong("paused").then(format!(
                        " with {} left (the host resumes with `/host resume`).\n",
                        format_duration(left)
                    ))),
                    None => text.append(Text::plain("Deadline: ").time(d.due_at).then("\n")),
                },
                None => text.push_str("Deadline: none (waiting for the host).\n"),
            }
            // Who has a draft and who is ready: public (announced in the
            // channel as it happens); never what the drafts say.
            let drafts: Vec<_> = self
                .store
                .drafts(row.id)
                .await?
                .into_iter()
                .filter(|d| d.seq == row.seq)
                .collect();
            if !drafts.is_empty() {
                let seats = self.store.seats(row.id).await?;
                text.push_str(&format!(
                    "Drafts: {}\n",
                    drafts
                        .iter()
                        .map(|d| format!(
                            "{} ({})",
                            seats.name(d.seat),
                            if d.ready { "ready" } else { "not ready" }
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        text.append(settings_line(&settings));
        Ok(text)
    }

    /// The public log of the current phase, in sentences.
    pub(super) async fn phase_log(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        if row.state.is_none() {
            return user_err(format!("Game {} hasn't started yet, so it has no log.", row.id));
        }
        let seats = self.store.seats(row.id).await?;
        let names = seats.names();
        let log = self.store.log(row.id).await?;
        let replay = replay_log(&row, &log)?;
        let state = replay.state();
        let phase = state.phase().number;
        let start = phase_start(&row, replay.counting(), phase)?.unwrap_or(0);
        // The entry that began the phase, everything after it that counts,
        // and any roll-back since (in log order).
        let counting: std::collections::HashSet<i64> = replay.counting().iter().map(|(s, _)| *s).collect();
        let lines: Vec<String> = log
            .iter()
            .filter(|e| e.seq >= start && (counting.contains(&e.seq) || matches!(e.event, AnyEvent::Platform(_))))
            .filter_map(|e| e.event.narrate(Viewer::Public, &names))
            .map(|l| format!("• {l}"))
            .collect();
        let head = Text::new().strong(row.kind.name()).then(format!(
            " game {} · log of phase {} · {}",
            row.id,
            state.phase().number,
            state.phase().title(&names)
        ));
        let body = if lines.is_empty() {
            "Nothing has happened in this phase yet.".to_string()
        } else {
            tail(&lines, LOG_LINES)
        };
        Ok(Reply::private(head.then(format!("\n{body}"))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_lines() {
        let lines: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        let t = tail(&lines, 20);
        assert!(t.ends_with("line 99"));
        assert!(t.starts_with("… (80 earlier entries)\nline 80\n"), "{t}");
        assert_eq!(t.lines().count(), 21);
        assert_eq!(tail(&lines[..2], 20), "line 0\nline 1");
    }
}
