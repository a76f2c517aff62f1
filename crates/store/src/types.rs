//! Row types and the conversions between Rust values and columns.

use super::codec::{decode_state, from_json};
use super::error::{StoreError, StoreResult};
use orrery_engine::{GameConfig, GameId, Seat, UserId};
use orrery_games::{AnyEvent, AnyState, GameKind};
use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;
use sqlx::Row;
use std::fmt;
use std::str::FromStr;

/// Which database a [`super::Store`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// SQLite (a file, or `sqlite::memory:` for tests).
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

impl Backend {
    /// The backend a database URL names, by its scheme (`sqlite:`,
    /// `postgres://`, `postgresql://`).
    pub fn from_url(url: &str) -> Option<Backend> {
        let scheme = url.split_once(':')?.0.to_ascii_lowercase();
        match scheme.as_str() {
            "sqlite" => Some(Backend::Sqlite),
            "postgres" | "postgresql" => Some(Backend::Postgres),
            _ => None,
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        })
    }
}

/// Where a game is in its life. Stored as lowercase text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Created, taking seats; no events yet.
    Lobby,
    /// Started: the event log is running.
    Active,
    /// Over: the last append reported an outcome.
    Finished,
    /// Given up (by the host, or for inactivity).
    Abandoned,
}

impl GameStatus {
    /// All statuses.
    pub const ALL: [GameStatus; 4] = [
        GameStatus::Lobby,
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Abandoned,
    ];

    /// The stored text (`"lobby"`, `"active"`, `"finished"`, `"abandoned"`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Lobby => "lobby",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
        }
    }

    /// Lobby or active: the game is still going.
    pub fn is_open(self) -> bool {
        matches!(self, GameStatus::Lobby | GameStatus::Active)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameStatus {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameStatus::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown game status `{s}`")))
    }
}

/// What [`super::Store::create_game`] needs to open a lobby.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    /// The game system.
    pub kind: GameKind,
    /// The channel the game is played in.
    pub channel_id: u64,
    /// The guild (server) of that channel; `None` for DMs and the terminal.
    pub guild_id: Option<u64>,
    /// Who opened the lobby.
    pub host: UserId,
    /// Player count, seed, options.
    pub config: GameConfig,
    /// Host settings (JSON owned by the service; `{}` = defaults).
    pub settings: serde_json::Value,
    /// Creation time, unix milliseconds.
    pub now_ms: i64,
}

/// One row of `games`, with every column typed.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's id.
    pub id: GameId,
    /// The game system.
    pub kind: GameKind,
    /// The channel it is played in.
    pub channel_id: u64,
    /// The channel's guild, if any.
    pub guild_id: Option<u64>,
    /// Who opened the lobby.
    pub host: UserId,
    /// Lobby, active, finished or abandoned.
    pub status: GameStatus,
    /// Player count, seed, options.
    pub config: GameConfig,
    /// The state after event `seq`; `None` before the game starts.
    pub state: Option<AnyState>,
    /// The sequence number of the last event (0: no events yet).
    pub seq: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last change to the row.
    pub updated_at: i64,
    /// The host's settings (JSON owned by the service; `{}` = defaults).
    pub settings: serde_json::Value,
    /// Its deadline when it was read (read with it, in one statement).
    pub deadline: Option<DeadlineRow>,
    /// The first entry of its log that does not decode, when the cached
    /// state did not decode either and the log could not be refolded
    /// (`state` is then `None`). Only lists of games carry such a row
    /// ([`crate::Store::games_of_user`], …), so that one damaged game
    /// spoils no list; [`crate::Store::game`] answers
    /// [`StoreError::Damaged`] for it.
    pub damaged: Option<i64>,
}

/// One seated player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat, 0-based; seats of a game are always 0..n-1.
    pub seat: Seat,
    /// Who sits there.
    pub user: UserId,
    /// Their display name at the table.
    pub name: String,
    /// Civil disorder: the seat's decisions are made by the ruleset's
    /// defaults as soon as it owes them.
    pub disorder: bool,
    /// Kicked: nobody plays the seat until the host replaces the player
    /// (`user` is the last player, for the record). A vacant seat is also
    /// in civil disorder.
    pub vacant: bool,
    /// The player's own reminder points (ms before the deadline); `None`
    /// = the game's settings, empty = muted.
    pub reminders: Option<Vec<i64>>,
    /// Since when (unix ms) Discord refuses this player's DMs, if it does:
    /// private messages for the seat are kept, not sent.
    pub dms_refused_at: Option<i64>,
    /// Where the player or the host chose the seat's private messages to
    /// go; `None`: the game's setting.
    pub private_to: Option<PrivateTo>,
    /// The seat's private thread in the game's channel, once opened.
    pub thread_id: Option<u64>,
    /// What the player picked for the seat on joining (Spectrum War's
    /// colour), if the game asks and they did.
    pub pick: Option<String>,
    /// A computer player plays the seat, at this difficulty; `user` is
    /// then one of the reserved [`bot_user`] ids. `None`: a person (or
    /// nobody, when vacant).
    pub bot: Option<BotLevel>,
}

/// How hard a computer player thinks (issue 31): the service turns it into
/// the engine's `orrery_engine::bot::Effort`. Stored as lowercase text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl BotLevel {
    /// Every level, easiest first.
    pub const ALL: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];

    /// The stored (and written) word: `easy`, `normal`, `hard`.
    pub fn as_str(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Hard => "hard",
        }
    }

    /// `easy`, `normal` or `hard`, any case.
    pub fn from_key(s: &str) -> Option<BotLevel> {
        let s = s.trim().to_ascii_lowercase();
        BotLevel::ALL.into_iter().find(|l| l.as_str() == s)
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first of the user ids reserved for computer players: far above any
/// Discord snowflake of this century (a snowflake's top bits are its
/// time), and positive as a BIGINT.
const BOT_USERS: u64 = 0x7FFF_FFFF_FFFF_0000;

/// The user id of a game's `n`th computer player (`n` from 1): a seat needs
/// a user id (a game's seats are keyed by it), and this one is nobody's.
pub fn bot_user(n: u16) -> UserId {
    UserId(BOT_USERS + u64::from(n))
}

/// Whether `user` is a computer player's id ([`bot_user`]): nobody to
/// mention, ping or send a private message to.
pub fn is_bot_user(user: UserId) -> bool {
    user.0 > BOT_USERS && user.0 <= BOT_USERS + u64::from(u16::MAX)
}

/// The number `n` of a computer player's id ([`bot_user`]).
pub fn bot_number(user: UserId) -> Option<u16> {
    is_bot_user(user).then(|| (user.0 - BOT_USERS) as u16)
}

/// Where a seat's private messages (prompts, private boards, hands) go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PrivateTo {
    /// Direct messages (the default).
    #[default]
    Dms,
    /// A private thread per seat in the game's channel, with only the
    /// player and the bot in it.
    Thread,
}

impl PrivateTo {
    /// The stored (and written) word: `dms`, `thread`.
    pub fn as_str(self) -> &'static str {
        match self {
            PrivateTo::Dms => "dms",
            PrivateTo::Thread => "thread",
        }
    }

    /// `dms` (or `dm`), `thread` (or `threads`), any case.
    pub fn from_key(s: &str) -> Option<PrivateTo> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dms" | "dm" => Some(PrivateTo::Dms),
            "thread" | "threads" => Some(PrivateTo::Thread),
            _ => None,
        }
    }
}

impl SeatRow {
    /// The seat is played by `user` (seated and not kicked).
    pub fn played_by(&self, user: UserId) -> bool {
        self.user == user && !self.vacant
    }

    /// Whether the seat is played automatically by the ruleset's defaults
    /// (civil disorder or vacant). A computer player's seat is not: it
    /// plays its own orders ([`SeatRow::is_bot`]).
    pub fn automatic(&self) -> bool {
        self.disorder || self.vacant
    }

    /// Whether a computer player plays the seat.
    pub fn is_bot(&self) -> bool {
        self.bot.is_some() && !self.automatic()
    }

    /// Whether a person plays the seat: neither automatic nor a computer
    /// player. A game in which no seat is a person's plays nothing by
    /// itself (only deadlines and the host move it).
    pub fn person(&self) -> bool {
        !self.automatic() && self.bot.is_none()
    }

    /// Nobody to alert for the seat: automatic, or a computer player.
    pub fn unattended(&self) -> bool {
        self.automatic() || self.bot.is_some()
    }
}

/// One undelivered outgoing message.
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    /// The row id; also the delivery order.
    pub id: i64,
    /// The game the message is about, if any.
    pub game_id: Option<GameId>,
    /// The message, as the service serialized it.
    pub payload: serde_json::Value,
    /// Delivery attempts so far.
    pub attempts: i64,
    /// When it was queued, unix milliseconds.
    pub created_at: i64,
    /// The error of the last failed attempt.
    pub last_error: Option<String>,
    /// When the current claim on the row runs out (wall clock, unix
    /// milliseconds), if it is claimed ([`Store::claim_outbox`]).
    ///
    /// [`Store::claim_outbox`]: super::Store::claim_outbox
    pub claimed_until: Option<i64>,
}

/// A game's running deadline.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadlineRow {
    /// The game.
    pub game_id: GameId,
    /// The phase number ([`orrery_engine::PhaseInfo::number`]) the deadline
    /// belongs to.
    pub phase: i64,
    /// When it falls due, unix milliseconds.
    pub due_at: i64,
    /// Which reminders were sent for it (a JSON array; its meaning belongs
    /// to the service). `[]` when the deadline is set.
    pub reminded: serde_json::Value,
    /// Set while the game is paused: the time that was left (ms). A paused
    /// deadline is never due.
    pub paused_remaining: Option<i64>,
}

/// A deadline to set in the same transaction as an append or a start:
/// phase `phase` falls due at `due_at`, or, if `paused_remaining` is set,
/// is paused with that much time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadlineSet {
    pub phase: i64,
    pub due_at: i64,
    pub paused_remaining: Option<i64>,
}

// --- conversions -----------------------------------------------------------

/// A Discord snowflake (u64) as a BIGINT: the same bits as i64.
pub(crate) fn id_to_db(id: u64) -> i64 {
    id as i64
}

/// A BIGINT back to the snowflake it stores.
pub(crate) fn id_from_db(v: i64) -> u64 {
    v as u64
}

pub(crate) fn seat_from_db(v: i64) -> StoreResult<Seat> {
    u8::try_from(v)
        .map(Seat)
        .map_err(|_| StoreError::Corrupt(format!("seat number {v} out of range")))
}

/// The columns of `games`, in the order [`game_from_row`] reads them.
/// A game row's columns, with its deadline's (from [`games_from`]: one
/// statement reads both).
macro_rules! game_cols {
    () => {
        "games.id AS id, kind, channel_id, guild_id, host_id, status, config, state, seq, created_at, updated_at, \
         settings, deadlines.game_id AS d_game_id, deadlines.phase AS d_phase, deadlines.due_at AS d_due_at, \
         deadlines.reminded AS d_reminded, deadlines.paused_remaining AS d_paused_remaining"
    };
}
pub(crate) use game_cols;

/// The tables [`game_cols`] reads from.
macro_rules! games_from {
    () => {
        "games LEFT JOIN deadlines ON deadlines.game_id = games.id"
    };
}
pub(crate) use games_from;

pub(crate) fn game_from_row(row: &AnyRow) -> StoreResult<GameRow> {
    let id = GameId(row.try_get::<i64, _>("id")?);
    let kind_text: String = row.try_get("kind")?;
    let kind = GameKind::from_key(&kind_text)
        .ok_or_else(|| StoreError::Corrupt(format!("game {id} has unknown kind `{kind_text}`")))?;
    let status: String = row.try_get("status")?;
    let config: String = row.try_get("config")?;
    let state: Option<String> = row.try_get("state")?;
    let settings: String = row.try_get("settings")?;
    Ok(GameRow {
        id,
        kind,
        channel_id: id_from_db(row.try_get("channel_id")?),
        guild_id: row.try_get::<Option<i64>, _>("guild_id")?.map(id_from_db),
        host: UserId(id_from_db(row.try_get("host_id")?)),
        status: status.parse()?,
        config: from_json(format_args!("config of game {id}"), &config)?,
        // A cache: `None` if it no longer decodes, then refolded from the log.
        state: state.and_then(|s| decode_state(id, &s)),
        seq: row.try_get("seq")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        settings: from_json(format_args!("settings of game {id}"), &settings)?,
        // The deadline's columns, prefixed `d_` ([`game_cols`]); none
        // when the game has no deadline.
        deadline: match row.try_get::<Option<i64>, _>("d_game_id")? {
            None => None,
            Some(_) => Some(deadline_columns(row, "d_")?),
        },
        damaged: None,
    })
}

/// An event row (`seq`, `event`, `version`), decoded through
/// [`super::codec::decode`].
pub(crate) fn event_from_row(game: GameId, row: &AnyRow) -> StoreResult<(i64, AnyEvent)> {
    let seq: i64 = row.try_get("seq")?;
    let text: String = row.try_get("event")?;
    let version: i64 = row.try_get("version")?;
    decode_event(game, seq, version, &text)
}

/// Log entry `seq` of `game`, stored as `text` at `version`.
pub(crate) fn decode_event(game: GameId, seq: i64, version: i64, text: &str) -> StoreResult<(i64, AnyEvent)> {
    let event = super::codec::decode(version, text).map_err(|why| StoreError::Damaged { game, entry: seq, why })?;
    Ok((seq, event))
}

pub(crate) fn seat_from_row(row: &AnyRow) -> StoreResult<SeatRow> {
    Ok(SeatRow {
        seat: seat_from_db(row.try_get("seat")?)?,
        user: UserId(id_from_db(row.try_get("user_id")?)),
        name: row.try_get("name")?,
        disorder: row.try_get::<i64, _>("disorder")? != 0,
        vacant: row.try_get::<i64, _>("vacant")? != 0,
        reminders: row
            .try_get::<Option<String>, _>("reminders")?
            .map(|text| from_json(format_args!("reminder points of a seat"), &text))
            .transpose()?,
        dms_refused_at: row.try_get("dms_refused_at")?,
        private_to: match row.try_get::<Option<String>, _>("private_to")? {
            None => None,
            Some(word) => Some(
                PrivateTo::from_key(&word)
                    .ok_or_else(|| StoreError::Corrupt(format!("private_to `{word}` of a seat")))?,
            ),
        },
        thread_id: row.try_get::<Option<i64>, _>("thread_id")?.map(id_from_db),
        pick: row.try_get("pick")?,
        bot: match row.try_get::<Option<String>, _>("bot")? {
            None => None,
            Some(word) => Some(
                BotLevel::from_key(&word)
                    .ok_or_else(|| StoreError::Corrupt(format!("bot level `{word}` of a seat")))?,
            ),
        },
    })
}

pub(crate) fn outbox_from_row(row: &AnyRow) -> StoreResult<OutboxRow> {
    let id: i64 = row.try_get("id")?;
    let payload: String = row.try_get("payload")?;
    Ok(OutboxRow {
        id,
        game_id: row.try_get::<Option<i64>, _>("game_id")?.map(GameId),
        payload: from_json(format_args!("payload of outbox row {id}"), &payload)?,
        attempts: row.try_get("attempts")?,
        created_at: row.try_get("created_at")?,
        last_error: row.try_get("last_error")?,
        claimed_until: row.try_get("claimed_until")?,
    })
}

pub(crate) fn deadline_from_row(row: &AnyRow) -> StoreResult<DeadlineRow> {
    deadline_columns(row, "")
}

/// A deadline read from the columns of the `deadlines` table, named with
/// `prefix` (`d_` where they come with the game's, [`game_cols`]).
fn deadline_columns(row: &AnyRow, prefix: &str) -> StoreResult<DeadlineRow> {
    let col = |name: &str| format!("{prefix}{name}");
    let game_id = GameId(row.try_get(col("game_id").as_str())?);
    let reminded: String = row.try_get(col("reminded").as_str())?;
    Ok(DeadlineRow {
        game_id,
        phase: row.try_get(col("phase").as_str())?,
        due_at: row.try_get(col("due_at").as_str())?,
        reminded: from_json(format_args!("reminders of the deadline of game {game_id}"), &reminded)?,
        paused_remaining: row.try_get(col("paused_remaining").as_str())?,
    })
}
