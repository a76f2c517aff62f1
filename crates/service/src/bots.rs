//! Computer players (issue 31): seated by the host in the lobby (`/host
//! bot`) or given a seat in play (`/host replace … bot:`), and driven by
//! the bot loop ([`crate::runtime::bot_loop`]).
//!
//! A computer player's seat holds one of the reserved user ids
//! ([`orrery_store::bot_user`]) and the name "🤖 Bot-N"; its level is stored
//! with the seat (`seats.bot`). It is nobody to alert: the one place
//! messages are written ([`unbotted`], from `commit.rs`) drops every
//! private message to it and every ping or mention of it, so its prompts,
//! hands and private boards are never sent anywhere.
//!
//! Its decisions: every commit pokes the bot loop, which looks at the games
//! in play with a computer player ([`Service::play_bots_until`]); for a
//! decision one owes, the engine's player
//! ([`orrery_games::AnyState::bot_order`], which sees only what the seat
//! may know) thinks on the blocking pool, one decision at a time in the
//! process, for at most the level's time ([`budget`]; past it the
//! ruleset's default is played instead, and the late answer is thrown
//! away). An order sheet is one decision: its lines are thought about one
//! after the other on a copy of the state, within the one budget, and
//! the whole sheet, marked ready, goes in as one change (one append, one
//! edit of the channel's post) rather than a change per line. Its
//! randomness is a `GameRng` seeded from the game, the log position and
//! the seat, so a decision is the same whoever computes it. The order
//! (or sheet) then goes through the change pipeline as a player's does,
//! only if the game is still at the log position it was computed for:
//! an answer for a position the game has left is dropped, never played.
//! Nothing is lost on a restart: the loop looks at every game with a
//! computer player when it starts. A game whose computer player fails is
//! logged and left to its deadline until its log moves on; other games
//! go on.

use super::advance::Advance;
use super::change::{Changed, Load, Lobby, Then};
use super::lobby::started_word;
use super::roster::Roster;
use super::settings::Settings;
use super::text::Span;
use super::{compose, user_err, Actor, OutMessage, Reply, Service, ServiceError, Target, Text};
use orrery_engine::bot::Effort;
use orrery_engine::{CommandLine, GameId, GameRng, Seat, UserId};
use orrery_store::{bot_number, bot_user, is_bot_user, BotLevel, Commit, GameStatus, SeatChange, SeatRow};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;

/// The engine's effort for a level.
pub(super) fn effort(level: BotLevel) -> Effort {
    match level {
        BotLevel::Easy => Effort::EASY,
        BotLevel::Normal => Effort::NORMAL,
        BotLevel::Hard => Effort::HARD,
    }
}

/// The longest a computer player may think about one decision; past it
/// the ruleset's default is played for it. The engine reads no clock: its
/// work is fixed by the [`Effort`], and this is the platform's cap.
pub(super) fn budget(level: BotLevel) -> Duration {
    match level {
        BotLevel::Easy => Duration::from_secs(5),
        BotLevel::Normal => Duration::from_secs(15),
        BotLevel::Hard => Duration::from_secs(30),
    }
}

/// A computer player's name: "🤖 Bot-2".
pub(super) fn bot_name(n: u16) -> String {
    format!("🤖 Bot-{n}")
}

/// The next computer player for a table: the smallest number no seat's
/// computer player has, its id and its name.
fn next_bot(seats: &[SeatRow]) -> (UserId, String) {
    let n = (1..=u16::MAX)
        .find(|n| !seats.iter().any(|s| bot_number(s.user) == Some(*n)))
        .unwrap_or(u16::MAX);
    (bot_user(n), bot_name(n))
}

/// The computer player's generator for one decision: from the game, its
/// log position and the seat (a fixed mix; no process randomness).
fn rng_for(game: GameId, seq: i64, seat: Seat) -> GameRng {
    let mut x = (game.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= (seq as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= u64::from(seat.0).wrapping_mul(0x1656_67B1_9E37_79F9);
    GameRng::seeded(x ^ (x >> 29))
}

/// `m` as it may be written: `None` for a private message to a computer
/// player (nobody reads it); otherwise without pings of computer players,
/// and naming them instead of mentioning them.
pub(super) fn unbotted(m: &OutMessage) -> Option<OutMessage> {
    if let Target::Dm(user) = m.target {
        if is_bot_user(user) {
            return None;
        }
    }
    let plain = |t: Text| {
        t.map_spans(|span| match span {
            Span::Mention { user, name } if is_bot_user(user) => Span::Plain(name),
            Span::User(user) if is_bot_user(user) => Span::Plain("a computer player".into()),
            span => span,
        })
    };
    let mut m = m.clone();
    m.pings.retain(|u| !is_bot_user(*u));
    m.text = plain(m.text);
    m.lead = m.lead.map(plain);
    m.footer = m.footer.map(plain);
    Some(m)
}

/// The bot loop's state in a service.
pub(super) struct Bots {
    /// Poked by every commit.
    poke: Arc<Notify>,
    /// One decision thought about at a time in this process (the blocking
    /// pool's thread keeps its permit until it is done, even when nobody
    /// waits for its answer any more).
    thinking: Arc<Semaphore>,
    /// Games whose computer player failed, at the log position it failed
    /// at: left alone until the game moves on.
    failed: Mutex<HashMap<GameId, i64>>,
    /// Per game: the seat, the phase and how many orders in a row its
    /// computer player has given in that phase ([`STREAK`]).
    streaks: Mutex<HashMap<GameId, (Seat, u32, usize)>>,
}

impl Default for Bots {
    fn default() -> Self {
        Bots {
            poke: Arc::new(Notify::new()),
            thinking: Arc::new(Semaphore::new(1)),
            failed: Mutex::new(HashMap::new()),
            streaks: Mutex::new(HashMap::new()),
        }
    }
}

impl Bots {
    pub(super) fn poke(&self) {
        self.poke.notify_one();
    }
}

/// Orders a computer player gives in a row in one phase (moves in its
/// turn) before it is made to play its seat's default (end the turn,
/// pass) instead of thinking: a safety net, so that a player that keeps
/// finding one more order worth giving cannot hold a game, nor fill its
/// channel with narration. The engine's player already judges each order
/// as its last of the phase, so it seldom comes near.
const STREAK: usize = 40;

/// At most this many decisions per game in one pass of the bot loop
/// (others' games get their turn between; the next poke goes on).
const DECISIONS_PER_PASS: usize = 200;

impl Service {
    /// What the bot loop waits on: poked whenever a game changed.
    pub fn bots_poked(&self) -> Arc<Notify> {
        self.bots.poke.clone()
    }

    /// Host: seat a computer player in the lobby.
    pub(super) async fn add_bot(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        level: BotLevel,
    ) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            if row.host != actor.user {
                return user_err(format!("Only the host of game {} can seat a computer player.", row.id));
            }
            if row.status != GameStatus::Lobby {
                let hint = if row.status == GameStatus::Active {
                    " To hand a player's seat to a computer player, name it: `/host bot seat:…`."
                } else {
                    ""
                };
                return user_err(format!(
                    "Game {} has already {}; computer players are seated in the lobby.{hint}",
                    row.id,
                    started_word(row.status)
                ));
            }
            let seats = self.store.seats(row.id).await?;
            let max = *row.kind.player_counts().end() as usize;
            if seats.len() >= max {
                return user_err(format!("Game {} is full ({max} players).", row.id));
            }
            let (user, name) = next_bot(&seats);
            let reply = Reply::public(format!(
                "The host seated a computer player, {name} ({level}), in game {} ({} seated).",
                row.id,
                seats.len() + 1
            ));
            Ok(Changed::lobby(Lobby::Bot { user, name, level }, reply))
        })
        .await
    }

    /// Host: a computer player takes `seat` in play; or, when one plays it
    /// already, it plays at `level` from now on.
    pub(super) async fn replace_with_bot(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        seat: Seat,
        level: BotLevel,
    ) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "hand a seat to a computer player").await?;
        if row.status == GameStatus::Lobby {
            return user_err(format!(
                "Game {} hasn't started: in the lobby a computer player takes a seat of its own (`/host bot` without `seat:`).",
                row.id
            ));
        }
        Self::active(&row)?;
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let old = Self::seat_row(row, &seats, seat)?.clone();
            if old.is_bot() {
                if old.bot == Some(level) {
                    return user_err(format!(
                        "{} already plays {seat} in game {} at {level}.",
                        old.name, row.id
                    ));
                }
                let change = SeatChange {
                    bot: Some(Some(level)),
                    ..SeatChange::new(seat)
                };
                let out = vec![OutMessage::to_channel(
                    row.channel_id,
                    format!("🤖 {} plays at {level} in game {} from now on.", old.name, row.id),
                )];
                let reply = Reply::private(format!("{} now plays at {level}.", old.name));
                return Ok(Changed::commit(
                    Commit::new(row.id, row.seq, self.now_ms()).with_seat(change),
                    out,
                    reply,
                ));
            }
            let (user, name) = next_bot(&seats);
            let was = super::seats::seat_was(&old);
            let mut out = vec![OutMessage::to_channel(
                row.channel_id,
                format!(
                    "🔁 The host gave {was} in game {} to a computer player, {name} ({level}).",
                    row.id
                ),
            )];
            if !old.vacant {
                out.push(OutMessage::to_dm(
                    old.user,
                    format!(
                        "The host gave your seat in game {} to a computer player, {name}.",
                        row.id
                    ),
                ));
            }
            let change = SeatChange {
                player: Some((user, name.clone())),
                disorder: Some(false),
                vacant: Some(false),
                bot: Some(Some(level)),
                ..SeatChange::new(seat)
            };
            let reply = Reply::private(format!(
                "{name} ({level}) now plays {}'s seat in game {}.",
                old.name, row.id
            ));
            Ok(Changed::commit(
                Commit::new(row.id, row.seq, self.now_ms()).with_seat(change),
                out,
                reply,
            ))
        })
        .await
    }

    /// Play what computer players owe in every game in play with one, a
    /// decision at a time, game after game, until none owes anything or
    /// `stop` is cancelled (between decisions). Returns how many orders
    /// were played. One game's failure is logged and touches no other.
    pub async fn play_bots_until(&self, stop: &CancellationToken) -> Result<usize, ServiceError> {
        let mut live = self.store.games_with_bots().await?;
        let mut played = 0;
        for _ in 0..DECISIONS_PER_PASS {
            let mut again = Vec::new();
            for game in live {
                if stop.is_cancelled() {
                    return Ok(played);
                }
                match self.bot_turn(game).await {
                    Ok(true) => {
                        played += 1;
                        again.push(game);
                    }
                    Ok(false) => {}
                    Err(e) => tracing::warn!(game = %game, "a computer player could not play: {e}"),
                }
            }
            if again.is_empty() {
                break;
            }
            live = again;
        }
        Ok(played)
    }

    /// One decision a computer player of `game` owes (a whole order sheet
    /// is one), thought about and played in one change. `false`: none
    /// owed (or its answer was for a position the game has left).
    async fn bot_turn(&self, game: GameId) -> Result<bool, ServiceError> {
        let Some(row) = self.store.game(game).await? else {
            return Ok(false);
        };
        let (GameStatus::Active, Some(state)) = (row.status, row.state.clone()) else {
            return Ok(false);
        };
        if state.outcome().is_some() {
            return Ok(false);
        }
        if self.bots.failed.lock().expect("bot failures poisoned").get(&game) == Some(&row.seq) {
            return Ok(false);
        }
        let seats = self.store.seats(game).await?;
        // Computer players alone play nothing by themselves.
        if !seats.iter().any(SeatRow::person) {
            return Ok(false);
        }
        let owed = state.pending().into_iter().filter(|p| !p.submitted).find_map(|p| {
            let s = seats.iter().find(|s| s.seat == p.seat && s.is_bot())?;
            Some((p.seat, s.bot.unwrap_or_default()))
        });
        let Some((seat, level)) = owed else {
            return Ok(false);
        };
        let seq = row.seq;
        let phase = state.phase().number;
        let streak = {
            let mut streaks = self.bots.streaks.lock().expect("bot streaks poisoned");
            let entry = streaks.entry(game).or_insert((seat, phase, 0));
            if (entry.0, entry.1) != (seat, phase) {
                *entry = (seat, phase, 0);
            }
            // This order's place in the streak: counted once it is played
            // (an attempt refused as busy, or for a position the game has
            // left, is no order given).
            entry.2 + 1
        };
        let lines = if streak > STREAK {
            tracing::warn!(game = %game, seat = %seat, seq, "a computer player gave {STREAK} orders in a row in one phase: its seat's default is played");
            state.default_command(seat).map(|line| vec![line])
        } else {
            self.think(game, seq, seat, level, state, budget(level)).await
        };
        let Some(lines) = lines else {
            self.bot_failed(game, seq);
            tracing::warn!(game = %game, seat = %seat, seq, "a computer player has no order to give");
            return Ok(false);
        };
        match self.bot_play(game, seq, seat, lines).await {
            Ok(played) => {
                if played {
                    let mut streaks = self.bots.streaks.lock().expect("bot streaks poisoned");
                    if let Some(entry) = streaks.get_mut(&game).filter(|e| (e.0, e.1) == (seat, phase)) {
                        entry.2 += 1;
                    }
                }
                Ok(played)
            }
            // Busy, or the storage is away for now: the next pass tries again.
            Err(e @ (ServiceError::Busy(_) | ServiceError::StorageFull | ServiceError::StorageUnavailable)) => Err(e),
            Err(e) => {
                self.bot_failed(game, seq);
                Err(e)
            }
        }
    }

    fn bot_failed(&self, game: GameId, seq: i64) {
        self.bots
            .failed
            .lock()
            .expect("bot failures poisoned")
            .insert(game, seq);
    }

    /// The computer player's answer for `seat` in `state` (the game at log
    /// position `seq`): one order or, when the seat is writing an order
    /// sheet, the whole sheet: each line the engine's player gives is
    /// written on a copy of the state ([`Advance`]) and the player asked
    /// again, until the sheet is ready (or the seat owes it no more, or the
    /// section ended), so that the sheet goes in as one change. Thought
    /// about on the blocking pool a line at a time, for at most `budget` in
    /// all (the bot loop gives the level's: [`budget`]); past it, or should
    /// the engine fail, the seat's default closes the answer (on a sheet:
    /// ready, the lines written so far standing, as at a deadline). `None`:
    /// not even a default. Logs nothing of the orders (they may be secret).
    async fn think(
        &self,
        game: GameId,
        seq: i64,
        seat: Seat,
        level: BotLevel,
        state: orrery_games::AnyState,
        budget: Duration,
    ) -> Option<Vec<CommandLine>> {
        // The permit goes with every line's thread, and is given back when
        // the last one is done (even one nobody waits for any more).
        let permit = Arc::new(self.bots.thinking.clone().acquire_owned().await.ok()?);
        let until = tokio::time::Instant::now() + budget;
        let sheet = writes_sheet(&state, seat);
        let mut adv = Advance::new(&state, seq);
        let mut lines = Vec::new();
        let mut rng = rng_for(game, seq, seat);
        loop {
            let (now, permit) = (adv.state.clone(), permit.clone());
            let task = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let line = now.bot_order(seat, effort(level), &mut rng);
                (line, rng)
            });
            let line = match tokio::time::timeout_at(until, task).await {
                Ok(Ok((Some(line), next))) => {
                    rng = next;
                    line
                }
                Ok(Ok((None, _))) => return closed(&mut adv, seat, lines),
                Ok(Err(e)) => {
                    tracing::error!(game = %game, seat = %seat, seq, "a computer player failed: {e}");
                    return closed(&mut adv, seat, lines);
                }
                Err(_) => {
                    tracing::warn!(
                        game = %game, seat = %seat, seq,
                        "a computer player thought longer than {budget:?}: its seat's default is played"
                    );
                    return closed(&mut adv, seat, lines);
                }
            };
            // The refusal is not logged: it may tell the seat's secrets.
            if adv.play(seat, &line).is_err() {
                tracing::error!(game = %game, seat = %seat, seq, "the computer player's order was refused");
                return closed(&mut adv, seat, lines);
            }
            lines.push(line);
            let more = sheet && adv.boundaries.is_empty() && writes_sheet(&adv.state, seat);
            if !more {
                return Some(lines);
            }
            if lines.len() >= SHEET_CAP {
                tracing::warn!(game = %game, seat = %seat, seq, "a computer player wrote {SHEET_CAP} lines: its sheet is marked ready");
                return closed(&mut adv, seat, lines);
            }
        }
    }

    /// Play `lines` (one order, or a whole sheet: [`Service::think`]) for
    /// the computer player of `seat`, in one change through the pipeline
    /// as a player's order goes, if the game is still at log position `seq`
    /// and the seat still a computer player's; otherwise nothing (`false`).
    async fn bot_play(
        &self,
        game: GameId,
        seq: i64,
        seat: Seat,
        lines: Vec<CommandLine>,
    ) -> Result<bool, ServiceError> {
        let Some(last) = lines.last().cloned() else {
            return Ok(false);
        };
        self.change(Load::Game(game), async |held| {
            let row = &held.row;
            if row.status != GameStatus::Active || row.seq != seq {
                return Ok(Changed::nothing(false));
            }
            let seats = self.store.seats(row.id).await?;
            if !seats.iter().any(|s| s.seat == seat && s.is_bot()) {
                return Ok(Changed::nothing(false));
            }
            let state = self.state_of(row)?;
            let settings = Settings::of(row);
            let mut adv = Advance::new(&state, row.seq);
            for line in &lines {
                // The refusal is not logged: it may tell the seat's secrets.
                adv.play(seat, line)
                    .map_err(|_| anyhow::anyhow!("the computer player's order for {seat} was refused"))?;
            }
            let label = match lines.len() {
                1 => compose::label_of(&state, seat, &last, &seats.names()),
                n => format!("a sheet of {n} edits"),
            };
            let cause = compose::Cause::Order {
                seat,
                line: last,
                label,
            };
            let moved = self.moved_with_autoplay(row, seats, adv, cause, Vec::new());
            // With auto-resolve off, the players' drafts may have waited
            // for this one.
            let then = if settings.auto_resolve {
                Then::Done
            } else {
                Then::SubmitReadyDrafts
            };
            Ok(Changed::moved(moved, true).if_lost(false).then(then))
        })
        .await
    }
}

/// The most edits a computer player makes on one sheet before its seat's
/// default (ready) closes it: a safety cap (the engine's player marks a
/// sheet ready itself after [`orrery_engine::bot::SHEET_LINES`] lines).
const SHEET_CAP: usize = 60;

/// Whether `seat` is writing an order sheet in `state` (owes one it has
/// not marked ready).
fn writes_sheet(state: &orrery_games::AnyState, seat: Seat) -> bool {
    state
        .pending()
        .iter()
        .any(|p| p.seat == seat && p.sheet && !p.submitted)
}

/// `lines` closed by the seat's default at the state they lead to (a
/// sheet's: ready, as it stands), when it has one; `None` when there is
/// nothing at all to play.
fn closed(adv: &mut Advance, seat: Seat, mut lines: Vec<CommandLine>) -> Option<Vec<CommandLine>> {
    if let Some(default) = adv.state.default_command(seat) {
        if adv.play(seat, &default).is_ok() {
            lines.push(default);
        }
    }
    (!lines.is_empty()).then_some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(n: u8, user: UserId, name: &str, bot: Option<BotLevel>) -> SeatRow {
        SeatRow {
            bot,
            ..crate::roster::test_seat(n, user.0, name)
        }
    }

    #[test]
    fn computer_players_get_the_smallest_free_number() {
        let seats = [
            seat(0, UserId(7), "alice", None),
            seat(1, bot_user(1), &bot_name(1), Some(BotLevel::Easy)),
            seat(2, bot_user(3), &bot_name(3), Some(BotLevel::Hard)),
        ];
        assert_eq!(next_bot(&seats), (bot_user(2), "🤖 Bot-2".to_string()));
        assert_eq!(next_bot(&[]), (bot_user(1), "🤖 Bot-1".to_string()));
        assert!(is_bot_user(bot_user(1)) && !is_bot_user(UserId(7)));
        assert!(!is_bot_user(UserId(1_300_000_000_000_000_000)));
    }

    #[test]
    fn a_computer_player_is_never_messaged_pinged_or_mentioned() {
        let bot = bot_user(2);
        assert_eq!(unbotted(&OutMessage::to_dm(bot, "your prompt")), None);
        let mut m = OutMessage::to_channel(
            5,
            Text::plain("Waiting on: ")
                .mention(UserId(7), "alice")
                .then(", ")
                .mention(bot, "🤖 Bot-2"),
        );
        m.pings = vec![UserId(7), bot];
        m.footer = Some(Text::new().mention(bot, "🤖 Bot-2"));
        let m = unbotted(&m).expect("a channel post is kept");
        assert_eq!(m.pings, vec![UserId(7)]);
        assert_eq!(
            m.text,
            Text::plain("Waiting on: ")
                .mention(UserId(7), "alice")
                .then(", 🤖 Bot-2")
        );
        assert_eq!(m.footer, Some(Text::plain("🤖 Bot-2")));
        let person = OutMessage::to_dm(UserId(7), "your prompt");
        assert_eq!(unbotted(&person), Some(person));
    }

    #[test]
    fn a_decision_s_generator_depends_on_the_game_the_position_and_the_seat() {
        let draw = |g, s, seat| rng_for(GameId(g), s, Seat(seat)).below(1_000_000);
        assert_eq!(draw(1, 10, 0), draw(1, 10, 0));
        assert_ne!(draw(1, 10, 0), draw(1, 11, 0));
        assert_ne!(draw(1, 10, 0), draw(1, 10, 1));
        assert_ne!(draw(1, 10, 0), draw(2, 10, 0));
    }

    /// A game of `kind` (seed 3) hosted by alice in channel 5, with a
    /// computer player at easy in seat 1, started.
    async fn solo(kind: orrery_games::GameKind) -> (Service, Actor, GameId) {
        use crate::{Place, Request};
        let store = orrery_store::Store::connect("sqlite::memory:").await.unwrap();
        let svc = Service::new(store, Arc::new(crate::ManualClock::new(1_700_000_000_000)));
        let alice = Actor {
            user: UserId(1),
            name: "alice".into(),
            place: Place::Channel {
                channel: 5,
                guild: None,
            },
        };
        let new = Request::New {
            kind,
            seed: Some(3),
            options: None,
            private: None,
        };
        svc.handle(&alice, new).await.unwrap();
        let add = Request::AddBot {
            game: None,
            level: BotLevel::Easy,
        };
        svc.handle(&alice, add).await.unwrap();
        svc.handle(&alice, Request::Start { game: None }).await.unwrap();
        let game = svc.store().games_in_channel(5).await.unwrap()[0].id;
        (svc, alice, game)
    }

    /// A computer player's answer goes in only at the log position it was
    /// computed for, once: an answer for a position the game has left (or
    /// already answered) is dropped and writes nothing.
    #[tokio::test]
    async fn an_answer_for_a_position_the_game_left_is_dropped() {
        let (svc, alice, game) = solo(orrery_games::GameKind::Starlanes).await;
        let row = loop {
            let row = svc.store().game(game).await.unwrap().unwrap();
            let state = row.state.clone().unwrap();
            let p = state.pending().into_iter().find(|p| !p.submitted).unwrap();
            if p.seat == Seat(1) {
                break row;
            }
            alice_plays(&svc, &alice, game, &state).await;
        };
        let (seq, state) = (row.seq, row.state.unwrap());
        let line = state
            .bot_order(Seat(1), effort(BotLevel::Easy), &mut rng_for(game, seq, Seat(1)))
            .unwrap();
        assert!(!svc.bot_play(game, seq - 1, Seat(1), vec![line.clone()]).await.unwrap());
        assert_eq!(
            svc.store().game(game).await.unwrap().unwrap().seq,
            seq,
            "nothing written"
        );
        assert!(svc.bot_play(game, seq, Seat(1), vec![line.clone()]).await.unwrap());
        let after = svc.store().game(game).await.unwrap().unwrap().seq;
        assert!(after > seq);
        assert!(
            !svc.bot_play(game, seq, Seat(1), vec![line]).await.unwrap(),
            "never twice"
        );
        assert_eq!(svc.store().game(game).await.unwrap().unwrap().seq, after);
        // Not a computer player's seat: nothing either.
        let line = CommandLine::new("end");
        assert!(!svc.bot_play(game, after, Seat(0), vec![line]).await.unwrap());
        assert_eq!(svc.store().game(game).await.unwrap().unwrap().seq, after);
    }

    /// alice (the person of a [`solo`] game, seat 1) gives her last legal
    /// order.
    async fn alice_plays(svc: &Service, alice: &Actor, game: GameId, state: &orrery_games::AnyState) {
        let line = state.legal_commands(Seat(0)).pop().unwrap();
        let order = crate::Request::Order {
            game: Some(game),
            kind: None,
            line,
        };
        svc.handle(alice, order).await.unwrap();
    }

    /// Past [`STREAK`] orders in a row in one phase, the computer player
    /// plays its seat's default instead of what it would have thought of.
    #[tokio::test]
    async fn past_a_streak_of_orders_the_seat_s_default_is_played() {
        let (svc, alice, game) = solo(orrery_games::GameKind::Starlanes).await;
        // A position where the computer player owes and would not play
        // its default.
        let (row, default) = loop {
            let row = svc.store().game(game).await.unwrap().unwrap();
            let state = row.state.clone().unwrap();
            let p = state.pending().into_iter().find(|p| !p.submitted).unwrap();
            if p.seat == Seat(1) {
                let thought = state.bot_order(Seat(1), effort(BotLevel::Normal), &mut rng_for(game, row.seq, Seat(1)));
                let default = state.default_command(Seat(1)).unwrap();
                if thought.as_ref() != Some(&default) {
                    break (row, default);
                }
                assert!(svc.bot_turn(game).await.unwrap());
                continue;
            }
            alice_plays(&svc, &alice, game, &state).await;
        };
        let state = row.state.clone().unwrap();
        let mut expected = state.clone();
        for e in state.decide(Seat(1), &default).unwrap() {
            expected.apply(&e).unwrap();
        }
        svc.bots
            .streaks
            .lock()
            .unwrap()
            .insert(game, (Seat(1), state.phase().number, STREAK));
        assert!(svc.bot_turn(game).await.unwrap());
        let after = svc.store().game(game).await.unwrap().unwrap();
        assert_eq!(after.state.unwrap(), expected, "the default ({default}) was played");
    }

    /// A sheet the computer player had no time for: the seat's default
    /// closes it (ready, as it stands), and it goes in as one change.
    #[tokio::test]
    async fn past_the_budget_the_sheet_is_marked_ready_as_it_stands() {
        let (svc, _, game) = solo(orrery_games::GameKind::Spectrum).await;
        let row = svc.store().game(game).await.unwrap().unwrap();
        let state = row.state.clone().unwrap();
        assert!(writes_sheet(&state, Seat(1)));
        let lines = svc
            .think(game, row.seq, Seat(1), BotLevel::Easy, state, Duration::ZERO)
            .await
            .expect("a default");
        // (It may have written a line before the clock was looked at.)
        assert_eq!(lines.last().map(|l| l.name.as_str()), Some("ready"), "{lines:?}");
        assert!(svc.bot_play(game, row.seq, Seat(1), lines.clone()).await.unwrap());
        let after = svc.store().game(game).await.unwrap().unwrap();
        assert_eq!(after.seq, row.seq + lines.len() as i64);
        assert!(!writes_sheet(after.state.as_ref().unwrap(), Seat(1)));
    }

    /// Its whole sheet in time: lines, then ready, each decided on the
    /// state the ones before it left.
    #[tokio::test]
    async fn in_time_the_whole_sheet_is_thought_about_and_marked_ready() {
        let (svc, _, game) = solo(orrery_games::GameKind::Spectrum).await;
        let row = svc.store().game(game).await.unwrap().unwrap();
        let state = row.state.clone().unwrap();
        let lines = svc
            .think(
                game,
                row.seq,
                Seat(1),
                BotLevel::Easy,
                state.clone(),
                budget(BotLevel::Hard),
            )
            .await
            .expect("a sheet");
        assert_eq!(lines.last().map(|l| l.name.as_str()), Some("ready"), "{lines:?}");
        let mut adv = Advance::new(&state, row.seq);
        for (i, line) in lines.iter().enumerate() {
            assert!(writes_sheet(&adv.state, Seat(1)), "line {i} after the sheet was ready");
            adv.play(Seat(1), line).expect("each line is legal where it is written");
        }
        assert!(!writes_sheet(&adv.state, Seat(1)));
        // The same answer whoever thinks it.
        let again = svc
            .think(game, row.seq, Seat(1), BotLevel::Easy, state, budget(BotLevel::Hard))
            .await;
        assert_eq!(again.as_ref(), Some(&lines));
    }
}
