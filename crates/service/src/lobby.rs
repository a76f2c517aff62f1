//! The lobby: opening a game in a channel, joining and leaving it, and
//! starting it (its set-up events, first board and first deadline in one
//! commit).

use super::advance::Advance;
use super::change::{Changed, Load, Lobby, Moved};
use super::roster::Roster;
use super::settings::Settings;
use super::{compose, user_err, Act, Actor, Choice, Place, Reply, Service, ServiceError, Text};
use orrery_engine::{GameConfig, GameId, UserId};
use orrery_games::GameKind;
use orrery_store::{Commit, DeadlineChange, GameRow, GameStatus, NewGame, PrivateTo, SeatRow};

/// The lobby's button seating a computer player (`/host bot`).
pub const ADD_BOT: &str = "Add a computer player";

/// The values of a seat pick no player but `me` holds, in order.
fn free_picks(values: &'static [&'static str], seats: &[SeatRow], me: UserId) -> Vec<&'static str> {
    values
        .iter()
        .copied()
        .filter(|v| !seats.iter().any(|s| s.user != me && s.pick.as_deref() == Some(*v)))
        .collect()
}

/// Seat the asker (not seated yet) in the lobby of `row`, with their
/// `pick` if they made one; refused when the game is full.
fn seat_me(
    row: &GameRow,
    seats: &[SeatRow],
    actor: &Actor,
    pick: Option<&str>,
) -> Result<Changed<Reply>, ServiceError> {
    let max = *row.kind.player_counts().end() as usize;
    if seats.len() >= max {
        return user_err(format!("Game {} is full ({max} players).", row.id));
    }
    let picked = pick.map(|p| format!(" as {p}")).unwrap_or_default();
    let reply = Reply::public(format!(
        "{} joined game {}{picked} ({} seated).",
        actor.name,
        row.id,
        seats.len() + 1
    ));
    let seated = Lobby::Seat {
        user: actor.user,
        name: actor.name.clone(),
        pick: pick.map(str::to_string),
    };
    Ok(Changed::lobby(seated, reply))
}

/// A pick's button: "Red".
fn pick_label(value: &str) -> String {
    let mut l = value.to_string();
    if let Some(first) = l.get(..1) {
        l.replace_range(..1, &first.to_uppercase());
    }
    l
}

pub(super) fn started_word(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Lobby => "not started",
        GameStatus::Active => "started",
        GameStatus::Finished => "finished",
        GameStatus::Abandoned => "been closed",
    }
}

/// A fresh seed for a new game: the process's random hasher keys (drawn
/// once per process by the standard library) over the clock's time. The
/// engine never draws OS randomness; the platform picks the seed once and
/// stores it in the game's config.
pub(super) fn random_seed(now_ms: i64) -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(now_ms)
}

impl Service {
    pub(super) async fn new_game(
        &self,
        actor: &Actor,
        kind: GameKind,
        seed: Option<u64>,
        options: Option<serde_json::Value>,
        private: Option<PrivateTo>,
    ) -> Result<Reply, ServiceError> {
        let Place::Channel { channel, guild } = actor.place else {
            return user_err("Games live in a channel: run `/game new` in the channel where you want to play.");
        };
        let existing = self.store.games_in_channel(channel).await?;
        if let Some(g) = existing
            .iter()
            .find(|g| matches!(g.status, GameStatus::Lobby | GameStatus::Active))
        {
            return user_err(format!(
                "This channel already has game {} ({}, {}). One game per channel: finish it or use another channel.",
                g.id,
                g.kind.name(),
                g.status.as_str()
            ));
        }
        let seed = seed.unwrap_or_else(|| random_seed(self.now_ms()));
        let mut config = GameConfig::new(0, seed);
        if let Some(options) = options {
            config.options = options;
        }
        // Check the options now, so a typo is caught before anyone joins:
        // they must work for some number of players (Space Empires' teams
        // only for 4); the fewest's refusal is the one told.
        let probe = |players: u8| {
            kind.setup(&GameConfig {
                players,
                ..config.clone()
            })
        };
        if let Err(e) = probe(*kind.player_counts().start()) {
            if !kind.player_counts().any(|n| probe(n).is_ok()) {
                return Err(ServiceError::User(format!("Those options don't work: {e}").into()));
            }
        }
        // `{}` reads as the default settings; only a choice is written.
        let settings = match private {
            Some(p) if p != Settings::default().private => serde_json::to_value(Settings {
                private: p,
                ..Settings::default()
            })
            .map_err(anyhow::Error::from)?,
            _ => serde_json::json!({}),
        };
        let now = self.now_ms();
        let id = self
            .store
            .create_game(NewGame {
                kind,
                channel_id: channel,
                guild_id: guild,
                host: actor.user,
                config,
                settings,
                now_ms: now,
            })
            .await?;
        self.store.add_seat(id, actor.user, &actor.name).await?;
        self.touched(id);
        let counts = kind.player_counts();
        let private = match private {
            Some(PrivateTo::Thread) => "\nPrivate messages (hands, secret orders, private boards) go to a private thread per player in this channel.",
            _ => "",
        };
        let mut reply = Reply::public(Text::new().strong(kind.name()).then(format!(
            " game {id} is open. {} is hosting and has taken the first seat.\nPress Join to take a seat (or `/game join`); the host presses Start (or `/game start`) once {} to {} players are seated; the host may seat computer players too (Add a computer player, or `/host bot`).{private}",
            actor.name,
            counts.start(),
            counts.end()
        )));
        reply.choices = vec![
            Choice::act(id, Act::Join, "Join"),
            Choice::act(id, Act::Leave, "Leave"),
            Choice::act(id, Act::Start, "Start"),
            Choice::act(id, Act::AddBot, ADD_BOT),
        ];
        if let Some(spec) = kind.seat_pick() {
            reply.text.push_str(&format!(
                "\nPick your {} with its button, which joins you too (or `/game join` with a {}); without one, you get the game's own assignment.",
                spec.name, spec.name
            ));
            for value in spec.values {
                let mut c = Choice::act(id, Act::Pick, pick_label(value));
                c.command = orrery_engine::CommandLine::new(*value);
                reply.choices.push(c);
            }
        }
        Ok(reply)
    }

    /// Pick `value` for the asker's seat in a lobby, taking a seat first if
    /// they have none; refused when another player has it.
    pub(super) async fn pick(&self, actor: &Actor, game: Option<GameId>, value: String) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(spec) = row.kind.seat_pick() else {
            return user_err(format!(
                "{} has nothing to pick on joining; join with `/game join`.",
                row.kind.name()
            ));
        };
        let value = spec
            .read(&value)
            .map_err(|why| ServiceError::User(format!("{why}.").into()))?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            if row.status != GameStatus::Lobby {
                return user_err(format!(
                    "Game {} has already {}; {}s are picked in the lobby.",
                    row.id,
                    started_word(row.status),
                    spec.name
                ));
            }
            let seats = self.store.seats(row.id).await?;
            if let Some(other) = seats
                .iter()
                .find(|s| s.pick.as_deref() == Some(value) && s.user != actor.user)
            {
                let free = free_picks(spec.values, &seats, actor.user);
                return user_err(format!(
                    "{} has {value} already; the free {}s are {}.",
                    other.name,
                    spec.name,
                    free.join(", ")
                ));
            }
            let me = seats.iter().find(|s| s.user == actor.user);
            if me.is_some_and(|s| s.pick.as_deref() == Some(value)) {
                return user_err(format!("Your {} in game {} is {value} already.", spec.name, row.id));
            }
            if me.is_some() {
                let reply = Reply::public(format!("{} picked {value} in game {}.", actor.name, row.id));
                let pick = Lobby::Pick {
                    user: actor.user,
                    pick: value.to_string(),
                };
                return Ok(Changed::lobby(pick, reply));
            }
            seat_me(row, &seats, actor, Some(value))
        })
        .await
    }

    /// Suggestions for a `colour:` (seat pick) option: the values of the
    /// lobby's game no other player holds, matching `partial`.
    pub async fn pick_suggestions(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        partial: &str,
    ) -> Result<Vec<String>, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(spec) = row.kind.seat_pick() else {
            return Ok(vec![]);
        };
        if row.status != GameStatus::Lobby {
            return Ok(vec![]);
        }
        let seats = self.store.seats(row.id).await?;
        let partial = partial.trim().to_lowercase();
        Ok(free_picks(spec.values, &seats, actor.user)
            .into_iter()
            .filter(|v| v.starts_with(&partial))
            .map(str::to_string)
            .collect())
    }

    pub(super) async fn join(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            if row.status != GameStatus::Lobby {
                return user_err(format!(
                    "Game {} has already {}; you can't join now.",
                    row.id,
                    started_word(row.status)
                ));
            }
            let seats = self.store.seats(row.id).await?;
            if seats.iter().any(|s| s.user == actor.user) {
                return user_err(format!("You are already seated in game {}.", row.id));
            }
            seat_me(row, &seats, actor, None)
        })
        .await
    }

    pub(super) async fn leave(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            if !seats.iter().any(|s| s.user == actor.user) {
                return user_err(format!("You are not seated in game {}.", row.id));
            }
            if row.status != GameStatus::Lobby {
                return user_err(format!(
                    "Game {} has already {}; seats can't be left once play begins. Ask the host to replace you.",
                    row.id,
                    started_word(row.status)
                ));
            }
            if row.host == actor.user {
                let reply = Reply::public(format!(
                    "{} (the host) left, so game {} was closed.",
                    actor.name, row.id
                ));
                return Ok(Changed::lobby(Lobby::Close, reply));
            }
            let reply = Reply::public(format!("{} left game {}.", actor.name, row.id));
            Ok(Changed::lobby(Lobby::Unseat(actor.user), reply))
        })
        .await
    }

    pub(super) async fn start(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            if row.host != actor.user {
                return user_err(format!("Only the host of game {} can start it.", row.id));
            }
            if row.status != GameStatus::Lobby {
                return user_err(format!("Game {} has already {}.", row.id, started_word(row.status)));
            }
            let seats = self.store.seats(row.id).await?;
            let counts = row.kind.player_counts();
            let n = seats.len() as u8;
            if !counts.contains(&n) {
                return user_err(format!(
                    "{} needs {} to {} players; {} seated. Others can join with `/game join`.",
                    row.kind.name(),
                    counts.start(),
                    counts.end(),
                    n
                ));
            }
            let config = GameConfig {
                players: n,
                picks: seats.iter().map(|s| s.pick.clone()).collect(),
                ..row.config.clone()
            };
            let events = row
                .kind
                .setup(&config)
                .map_err(|e| ServiceError::User(format!("Set-up failed: {e}").into()))?;
            let names = seats.names();
            let mut adv = Advance::new(&row.kind.empty(), 0);
            adv.push(events);
            let settings = Settings::of(row);
            let deadline = match adv.state.outcome() {
                None => DeadlineChange::Set(self.deadline_for(&settings, &adv.state)),
                Some(_) => DeadlineChange::Keep,
            };
            let intro = Text::plain(format!(
                "The game has begun. Players, in seat order: {}.",
                names.join(", ")
            ));
            let moved = Moved::new(adv, seats, compose::Cause::Start, deadline)
                .notes(vec![intro])
                .base(Commit::starting(row.id, config, self.now_ms()));
            Ok(Changed::moved(
                moved,
                Reply::private(format!("Game {} started.", row.id)),
            ))
        })
        .await
    }
}
