#![allow(dead_code, unused_imports)]
//! The end-to-end harness: a fake Discord on 127.0.0.1 ([`fake_discord`],
//! [`gateway`], checked against Discord's OpenAPI spec by [`openapi`]) and
//! the real `orrery` binary connected to it, run as `orrery bot`.
//!
//! The harness plays like people do: slash commands, autocomplete, buttons
//! and menus, all as gateway interactions; it reads the bot's SQLite file
//! with the crate's own [`Store`] only to check what was stored and to pick
//! orders ([`policy`]).
//!
//! Several test files include this module (`mod support;`), each using a
//! part of it.

pub mod fake_discord;
pub mod first_hour;
pub mod gateway;
pub mod http;
pub mod interactions;
pub mod openapi;
#[path = "../pgdb/mod.rs"]
mod pgdb;
pub mod policy;
pub use pgdb::PgDatabase;

pub use fake_discord::{FakeDiscord, FaultKind, FaultTarget, Id, Message, Origin, Place, User};

use orrery::engine::{GameId, Seat};
use orrery::games::{AnyEvent, AnyState, GameKind};
use orrery::service::{Op, OutMessage, Target};
use orrery::store::{GameRow, GameStatus, Store};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// How long the bot may take to start and register its commands.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// The bot process.
pub struct Bot {
    child: Child,
    pub log: PathBuf,
}

impl Bot {
    /// SIGKILL, no goodbye.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Send SIGTERM (a clean shutdown) and wait up to `timeout` for the
    /// process to exit. Returns its exit status, or `None` if it was still
    /// running (it is then killed).
    pub fn terminate(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let sent = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill -TERM");
        assert!(sent.success(), "kill -TERM {} failed", self.child.id());
        let deadline = std::time::Instant::now() + timeout;
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("wait for the bot") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
        None
    }

    /// The process's log (stderr) so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A fake Discord, the bot connected to it, and the bot's database.
pub struct Harness {
    pub fake: FakeDiscord,
    pub dir: tempfile::TempDir,
    pub db_url: String,
    bot: Option<Bot>,
    /// More bot processes on the same database (see [`Harness::start_another_bot`]).
    others: Vec<Bot>,
    boots: u32,
    store: tokio::sync::OnceCell<Store>,
    /// `DISCORD_SHARDS` of the first bot process, if any.
    shards: Option<String>,
}

impl Harness {
    /// Start the fake and the bot, and wait until the bot has registered
    /// its commands.
    pub async fn start() -> Harness {
        Harness::start_on(None).await
    }

    /// [`Harness::start`] on the database `db_url` (default: a new SQLite
    /// file in the harness's directory).
    pub async fn start_on(db_url: Option<String>) -> Harness {
        Harness::start_sharded(db_url, None).await
    }

    /// [`Harness::start_on`], the bot running the gateway shards `shards`
    /// (`DISCORD_SHARDS`, such as `0/2`); more processes with the other
    /// shards come with [`Harness::start_another_bot_with_shards`].
    pub async fn start_sharded(db_url: Option<String>, shards: Option<&str>) -> Harness {
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().expect("temp dir");
        let db_url = db_url.unwrap_or_else(|| format!("sqlite://{}", dir.path().join("orrery.db").display()));
        let mut h = Harness {
            fake,
            dir,
            db_url,
            bot: None,
            others: Vec::new(),
            boots: 0,
            store: tokio::sync::OnceCell::new(),
            shards: shards.map(str::to_string),
        };
        h.boot().await;
        h
    }

    async fn boot(&mut self) {
        let shards = self.shards.clone();
        let bot = self.spawn_bot(shards.as_deref()).await;
        self.bot = Some(bot);
    }

    /// Start one more bot process on the same database and fake Discord
    /// (two processes sharing a PostgreSQL database). The newest process
    /// holds the gateway connection; every process runs its scheduler and
    /// delivers the outbox.
    pub async fn start_another_bot(&mut self) {
        let bot = self.spawn_bot(None).await;
        self.others.push(bot);
    }

    /// Start one more bot process on the same database and fake Discord,
    /// running the gateway shards `shards` (`DISCORD_SHARDS`, such as `1/2`).
    /// Waits until its shards are live (and, if it runs shard 0, until it
    /// registered the commands).
    pub async fn start_another_bot_with_shards(&mut self, shards: &str) {
        let bot = self.spawn_bot(Some(shards)).await;
        self.others.push(bot);
    }

    /// The first bot process (`None` once killed or stopped).
    pub fn bot(&mut self) -> Option<&mut Bot> {
        self.bot.as_mut()
    }

    /// The other bot processes, in the order they were started.
    pub fn other_bots(&mut self) -> &mut [Bot] {
        &mut self.others
    }

    async fn spawn_bot(&mut self, shards: Option<&str>) -> Bot {
        let mark = self.fake.read(|w| w.seq);
        let identified = self.fake.read(|w| w.gateway.identifies);
        // The shards it runs (first, last), and whether it registers the
        // commands (the process that runs shard 0 does).
        let range: Option<(u64, u64)> = shards.map(|s| {
            let (range, _) = s.split_once('/').expect("DISCORD_SHARDS as FIRST-LAST/TOTAL");
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            (a.parse().expect("first shard"), b.parse().expect("last shard"))
        });
        let registers = range.is_none_or(|(first, _)| first == 0);
        self.boots += 1;
        let log = self.dir.path().join(format!("bot-{}.log", self.boots));
        let stderr = std::fs::File::create(&log).expect("bot log file");
        let mut command = Command::new(env!("CARGO_BIN_EXE_orrery"));
        command
            .arg("bot")
            .current_dir(self.dir.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DISCORD_TOKEN", fake_discord::TOKEN)
            .env("DISCORD_API_BASE", self.fake.api_base())
            .env("DATABASE_URL", &self.db_url)
            // Time stays real until a test writes the clock file.
            .env("ORRERY_CLOCK_FILE", self.clock_file())
            .env("ORRERY_TICK_MS", "200")
            // The seed of `/game new` is registered for tests only.
            .env("ORRERY_DEV_OPTIONS", "1")
            .env("RUST_LOG", "orrery=debug,serenity=warn,poise=warn,warn");
        if let Some(s) = shards {
            command.env("DISCORD_SHARDS", s);
        }
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(stderr))
            .spawn()
            .expect("start the orrery binary");
        let bot = Bot { child, log };
        let fake = self.fake.clone();
        let (first, last) = range.unwrap_or((0, 0));
        fake.wait_for("the bot to identify on the gateway", START_TIMEOUT, |w| {
            let identifies = u64::from(w.gateway.identifies - identified);
            (identifies > last - first && (first..=last).all(|s| w.gateway.shard_ready(s))).then_some(())
        })
        .await;
        if registers {
            fake.wait_for_request("the bot to register its commands", START_TIMEOUT, |l| {
                l.seq > mark && l.method == "PUT" && l.path.ends_with("/commands") && l.status == 200
            })
            .await;
        }
        bot
    }

    /// The file the bot reads the time from (absent: the real time).
    pub fn clock_file(&self) -> PathBuf {
        self.dir.path().join("clock")
    }

    /// Set the bot's clock to `ms` (Unix milliseconds). The scheduler sees
    /// it on its next tick (every 200 ms).
    pub fn set_clock(&self, ms: i64) {
        let tmp = self.dir.path().join("clock.tmp");
        std::fs::write(&tmp, ms.to_string()).expect("write the clock");
        std::fs::rename(&tmp, self.clock_file()).expect("move the clock into place");
    }

    /// Kill the bot with SIGKILL (no clean shutdown).
    pub fn kill_bot(&mut self) {
        if let Some(mut b) = self.bot.take() {
            b.kill();
        }
    }

    /// Kill the bot with SIGKILL and start it again on the same database.
    pub async fn restart_bot(&mut self) {
        self.kill_bot();
        self.boot().await;
    }

    /// The bot's database, opened read-mostly by the test, beside the bot
    /// (which holds a SQLite file's lock).
    pub async fn store(&self) -> &Store {
        self.store
            .get_or_init(|| async {
                Store::connect_beside(&self.db_url)
                    .await
                    .expect("open the bot's database")
            })
            .await
    }

    pub async fn row(&self, game: GameId) -> GameRow {
        self.store()
            .await
            .game(game)
            .await
            .expect("read game")
            .expect("game exists")
    }

    pub async fn state(&self, game: GameId) -> AnyState {
        self.row(game).await.state.expect("the game has started")
    }

    pub async fn events(&self, game: GameId) -> Vec<(i64, AnyEvent)> {
        self.store().await.events(game).await.expect("read events")
    }

    /// Every outbox row: (id, message, delivered).
    pub async fn outbox(&self) -> Vec<(i64, OutMessage, bool)> {
        use sqlx::Row;
        let rows = sqlx::query("SELECT id, payload, delivered_at FROM outbox ORDER BY id")
            .fetch_all(self.store().await.pool())
            .await
            .expect("read the outbox");
        rows.iter()
            .map(|r| {
                let id: i64 = r.get(0);
                let payload: String = r.get(1);
                let delivered: Option<i64> = r.get(2);
                let msg: OutMessage = serde_json::from_str(&payload).expect("outbox payload is an OutMessage");
                (id, msg, delivered.is_some())
            })
            .collect()
    }

    /// Wait until every outbox row is delivered.
    pub async fn wait_outbox_drained(&self, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let pending: Vec<i64> = self
                .outbox()
                .await
                .into_iter()
                .filter(|(_, _, d)| !d)
                .map(|(id, _, _)| id)
                .collect();
            if pending.is_empty() {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                panic!(
                    "outbox rows {pending:?} still undelivered after {timeout:?}\n{}\nthe bot's log ends:\n{}",
                    self.fake.dump(30),
                    self.log_tail(40)
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The fake's channel for an outbox target.
    pub fn channel_of(&self, target: &Target) -> Option<Id> {
        match target {
            Target::Channel(c) => Some(*c),
            Target::Dm(u) => self.fake.read(|w| w.dm_channel_of(u.0)),
        }
    }

    /// Every outbox message was delivered, and every post was posted
    /// exactly once, in the right channel, with its nonce (retries
    /// deduplicated), and the bot posted nothing else. A message that acts
    /// on a live message ([`Op::Update`], [`Op::Append`]) is posted at most
    /// once (only when its slot had no live message), a [`Op::Close`]
    /// never. Returns the outbox rows that were posted, each with its
    /// message.
    pub async fn assert_outbox_delivered_once(&self) -> Vec<(i64, OutMessage, Message)> {
        let outbox = self.outbox().await;
        let mut out = Vec::new();
        let posts: Vec<Message> = self.fake.read(|w| {
            w.messages
                .iter()
                .filter(|m| m.origin == Origin::Post)
                .cloned()
                .collect()
        });
        for (id, msg, delivered) in outbox {
            assert!(delivered, "outbox row {id} is not delivered: {msg:?}");
            let nonce = orrery::discord::transport::nonce_for(id);
            let channel = self
                .channel_of(&msg.target)
                .unwrap_or_else(|| panic!("no DM channel for {:?}", msg.target));
            let copies: Vec<&Message> = posts
                .iter()
                .filter(|m| m.nonce.as_deref() == Some(nonce.as_str()))
                .collect();
            let edits_live = msg.slot.is_some() && msg.op != Op::Post;
            if edits_live && copies.is_empty() {
                // Edited its slot's live message in place.
                continue;
            }
            assert!(
                msg.op != Op::Close || msg.slot.is_none(),
                "outbox row {id} closes a live message but was posted: {msg:?}"
            );
            assert_eq!(
                copies.len(),
                1,
                "outbox row {id} ({nonce}) was posted {} times: {msg:?}",
                copies.len()
            );
            assert_eq!(
                copies[0].channel_id, channel,
                "outbox row {id} went to the wrong channel"
            );
            assert!(!copies[0].deleted);
            out.push((id, msg, copies[0].clone()));
        }
        for p in &posts {
            assert!(
                out.iter().any(|(_, _, m)| m.id == p.id),
                "the bot posted a message that is not in the outbox: {:?}",
                p.content
            );
        }
        // Every post asked Discord to enforce its nonce, and never pinged.
        let bodies: Vec<Value> = self.fake.read(|w| {
            w.log
                .iter()
                .filter(|l| l.method == "POST" && l.path.starts_with("/channels/") && l.path.ends_with("/messages"))
                .filter_map(|l| l.body.json().cloned())
                .collect()
        });
        for b in bodies {
            assert_eq!(b["enforce_nonce"], true, "a post without enforce_nonce: {b}");
            assert!(b["nonce"].is_string(), "a post without a nonce: {b}");
            assert_eq!(b["allowed_mentions"]["parse"], json!([]), "a post that may ping: {b}");
        }
        // Edits of live messages alert nobody.
        let edits: Vec<Value> = self.fake.read(|w| {
            w.log
                .iter()
                .filter(|l| l.method == "PATCH" && l.path.starts_with("/channels/"))
                .filter_map(|l| l.body.json().cloned())
                .collect()
        });
        for b in edits {
            assert_eq!(b["allowed_mentions"]["parse"], json!([]), "an edit that may ping: {b}");
            assert_eq!(b["allowed_mentions"]["users"], json!([]), "an edit that pings: {b}");
        }
        // And so does every other message the bot sent or edited.
        self.assert_no_pings();
        out
    }

    /// Nothing the bot sent could ping anyone: every message it sent with
    /// text (posts, interaction responses, follow-ups, and edits of any of
    /// them) says `allowed_mentions.parse: []` explicitly.
    pub fn assert_no_pings(&self) {
        let bodies: Vec<(String, Value)> = self.fake.read(|w| {
            w.log
                .iter()
                .filter(|l| l.method == "POST" || l.method == "PATCH")
                .filter_map(|l| {
                    let b = l.body.json()?;
                    let msg = if l.path.ends_with("/callback") { &b["data"] } else { b };
                    msg.get("content").is_some().then(|| (l.path.clone(), msg.clone()))
                })
                .collect()
        });
        assert!(!bodies.is_empty());
        for (path, b) in bodies {
            assert_eq!(b["allowed_mentions"]["parse"], json!([]), "{path} may ping: {b}");
        }
    }

    /// Open a Hyperspace game in `channel`: the first player hosts, the
    /// others join, the host starts it. Seats follow `players`.
    pub async fn open_game(&self, channel: Id, players: &[User], options: Option<Value>) -> Table {
        self.open_game_of(GameKind::Hyperspace, channel, players, None, options)
            .await
    }

    /// Open a game of `kind` in `channel` (with `seed` and `options` if
    /// given), as [`Harness::open_game`] does.
    pub async fn open_game_of(
        &self,
        kind: GameKind,
        channel: Id,
        players: &[User],
        seed: Option<u64>,
        options: Option<Value>,
    ) -> Table {
        let host = &players[0];
        let mut opts = vec![("game", json!(kind.key()))];
        if let Some(s) = seed {
            opts.push(("seed", json!(s)));
        }
        // The game's options, written as `/game new … options:` takes them
        // (`rounds:12 map:random`).
        let written: Vec<String> = options
            .as_ref()
            .and_then(Value::as_object)
            .map(|o| {
                o.iter()
                    .map(|(k, v)| format!("{k}:{}", v.as_str().map_or_else(|| v.to_string(), str::to_string)))
                    .collect()
            })
            .unwrap_or_default();
        if !written.is_empty() {
            opts.push(("options", json!(written.join(" "))));
        }
        let ans = self.fake.run(host, Place::Channel(channel), "game new", &opts).await;
        assert!(
            !ans.ephemeral() && ans.content.contains("is open"),
            "game new: {}",
            ans.content
        );
        let game = self
            .store()
            .await
            .games_in_channel(channel)
            .await
            .unwrap()
            .into_iter()
            .find(|g| g.status == GameStatus::Lobby)
            .expect("a lobby in the channel")
            .id;
        for p in &players[1..] {
            let ans = self.fake.run(p, Place::Channel(channel), "game join", &[]).await;
            assert!(
                !ans.ephemeral() && ans.content.contains("joined"),
                "game join: {}",
                ans.content
            );
        }
        let ans = self.fake.run(host, Place::Channel(channel), "game start", &[]).await;
        assert!(
            ans.ephemeral() && ans.content.contains("started"),
            "game start: {}",
            ans.content
        );
        Table {
            game,
            channel,
            seats: players.to_vec(),
        }
    }

    /// Who owes the next decision and what the policy gives; `None` once
    /// the game is over.
    pub async fn next_order(&self, t: &Table) -> Option<(Seat, String, orrery::engine::CommandLine)> {
        let (state, p) = self.owed(t).await?;
        let line = policy::choose(&state, p.seat).expect("the policy has an order");
        Some((p.seat, p.kind, line))
    }

    /// The game of `t` now and the first decision it waits on, or `None`
    /// once it is no longer active (or, wrongly, waits on nobody: the
    /// callers then check the game finished).
    pub async fn owed(&self, t: &Table) -> Option<(AnyState, orrery::engine::Pending)> {
        let row = self.row(t.game).await;
        if row.status != GameStatus::Active {
            return None;
        }
        let state = row.state.expect("an active game has a state");
        let p = state.pending().into_iter().find(|p| !p.submitted)?;
        Some((state, p))
    }

    /// Give one order through Discord, as the policy picks it (cards: the
    /// `card` override if given). Card picks are made with the buttons (or
    /// menu) of the DM prompt; everything else with a slash command in the
    /// game's channel. Returns the order, or `None` when the game is over.
    pub async fn step(&self, t: &Table, card: Option<&str>) -> Option<(Seat, orrery::engine::CommandLine)> {
        let (seat, kind, mut line) = self.next_order(t).await?;
        let user = &t.seats[seat.index()];
        if kind == "combat-card" {
            if let Some(c) = card {
                line = orrery::engine::CommandLine::new("card").arg("name", c);
            }
            // Taken with no answer of its own: the prompt shows the outcome.
            let (_, ans) = self.pick_card(t, user, &line).await;
            assert!(ans.is_none(), "{line}: {ans:?}");
        } else {
            let ans = self.order(t, user, Place::Channel(t.channel), &line).await;
            assert!(
                ans.ephemeral() && ans.content.contains("Sent: "),
                "{}: {}",
                line,
                ans.content
            );
        }
        Some((seat, line))
    }

    /// `/<game system> <order>` (e.g. `/hyperspace depart`, or
    /// `/empires-combat fire` for an order of a command group) with the
    /// order's arguments as options.
    pub async fn order(&self, t: &Table, user: &User, place: Place, line: &orrery::engine::CommandLine) -> Message {
        let mut opts: Vec<(&str, Value)> = line.args.iter().map(|(k, v)| (k.as_str(), json!(v))).collect();
        if place == Place::Dm {
            opts.push(("game", json!(t.game.0)));
        }
        let kind = self.row(t.game).await.kind;
        self.fake
            .run(
                user,
                place,
                &format!("{} {}", kind.command_of(&line.name), line.name),
                &opts,
            )
            .await
    }

    /// The newest card prompt for `t` in `user`'s DMs that still has its
    /// controls: (message, its card orders as custom ids or menu values).
    pub async fn card_prompt(&self, t: &Table, user: &User) -> Message {
        let dm = self.fake.dm_channel(user.id);
        let button = format!("o:{}:card ", t.game.0);
        let menu = format!("s:{}", t.game.0);
        let is_card_value = move |c: &str| {
            c.strip_prefix(&menu)
                .and_then(|rest| rest.split_once('='))
                .is_some_and(|(n, v)| (n.is_empty() || n.starts_with(':')) && v.starts_with("card "))
        };
        self.fake
            .wait_for(
                &format!("a combat-card prompt for {} in game {}", user.name, t.game),
                Duration::from_secs(30),
                |w| {
                    w.messages_in(dm)
                        .into_iter()
                        .rev()
                        .find(|m| m.plain_ids().iter().any(|c| c.starts_with(&button) || is_card_value(c)))
                        .cloned()
                },
            )
            .await
    }

    /// Pick a card with the DM prompt's button (or menu). Returns the
    /// prompt and the bot's follow-up, if it sent one (a prompt's order
    /// needs none: the delivery edits the prompt). Panics if the pick is
    /// refused.
    pub async fn pick_card(
        &self,
        t: &Table,
        user: &User,
        line: &orrery::engine::CommandLine,
    ) -> (Message, Option<Message>) {
        let prompt = self.card_prompt(t, user).await;
        let before = self.row(t.game).await.seq;
        let i = self
            .use_control(user, &prompt, t.game, line)
            .await
            .unwrap_or_else(|| panic!("the prompt offers no `{line}`: {:?}", prompt.custom_ids()));
        match self.outcome_of_press(t.game, i, before).await {
            Ok(ans) => (prompt, ans),
            Err(refused) => panic!("`{line}` from the prompt was refused: {}", refused.content),
        }
    }

    /// Press the button of `line` on `message`, or pick it in the menu
    /// offering it (`s:{game}` or `s:{game}:{n}`). `None` when the message
    /// offers no such control.
    pub async fn use_control(
        &self,
        user: &User,
        message: &Message,
        game: GameId,
        line: &orrery::engine::CommandLine,
    ) -> Option<Id> {
        let button = format!("o:{}:{line}", game.0);
        let menu_prefix = format!("s:{}", game.0);
        let value = line.to_string();
        let ids = message.plain_ids();
        if ids.contains(&button) {
            let button = message.control(&button)?;
            return Some(self.fake.press(user, message.id, &button).await);
        }
        let menu = ids.iter().find_map(|c| {
            let (id, v) = c.split_once('=')?;
            let n = id.strip_prefix(&menu_prefix)?;
            (v == value && (n.is_empty() || n.starts_with(':'))).then(|| format!("{id}={v}"))
        })?;
        let menu = message.control(&menu)?;
        Some(self.fake.select(user, message.id, &menu, &[&value]).await)
    }

    /// The newest prompt the bot posted (not an interaction's answer) in
    /// `user`'s DMs that has controls of `game`.
    pub fn newest_prompt(&self, user: &User, game: GameId) -> Option<Message> {
        self.fake.read(|w| {
            let dm = w.dm_channel_of(user.id)?;
            w.messages_in(dm)
                .into_iter()
                .rev()
                .find(|m| m.origin == Origin::Post && m.custom_ids().iter().any(|c| game_of_id(c) == Some(game)))
                .cloned()
        })
    }

    /// Give `line` as `user` with controls only, as a player who never
    /// types would: the button or menu of their newest prompt for `game`,
    /// else `group` in its group picker (the group's menus come privately),
    /// answering "Yes" when the order asks first. `Err` says why it could
    /// not: the order is not offered (with what is), or it was refused.
    pub async fn give_by_controls(
        &self,
        user: &User,
        game: GameId,
        line: &orrery::engine::CommandLine,
        group: &str,
    ) -> Result<Via, String> {
        let prompt = self
            .newest_prompt(user, game)
            .ok_or_else(|| format!("{} has no prompt with controls in game {game}", user.name))?;
        let before = self.row(game).await.seq;
        let (i, via) = match self.reach(user, &prompt, game, line).await {
            Some(i) => i,
            None => {
                let picker = format!("g:{}", game.0);
                if !prompt.custom_ids().contains(&format!("{picker}={group}")) {
                    return Err(format!(
                        "the prompt offers no `{line}` (group {group}): {}\n{:?}",
                        prompt.content,
                        prompt.custom_ids()
                    ));
                }
                let i = self.fake.select(user, prompt.id, &picker, &[group]).await;
                let menus = self.fake.answer(i).await;
                assert!(menus.ephemeral(), "a group's menus are private: {}", menus.content);
                let (i, _) = self.reach(user, &menus, game, line).await.ok_or_else(|| {
                    format!(
                        "group {group} offers no `{line}`: {}\n{:?}",
                        menus.content,
                        menus.custom_ids()
                    )
                })?;
                (i, Via::Picker)
            }
        };
        match self.outcome_of_press(game, i, before).await {
            Ok(Some(ans)) if !ans.ephemeral() || !ans.content.starts_with("✅ Sent") => {
                Err(format!("an order by control got an answer of its own: {}", ans.content))
            }
            Ok(_) => Ok(via),
            Err(refused) => Err(format!("`{line}` was refused: {}", refused.content)),
        }
    }

    /// Use `message`'s control for `line` (its button, or its value in a
    /// menu); when the order asks first, press the question's "Yes".
    /// Returns the interaction that gave the order and the kind of control;
    /// `None` when `message` offers no control for it.
    async fn reach(
        &self,
        user: &User,
        message: &Message,
        game: GameId,
        line: &orrery::engine::CommandLine,
    ) -> Option<(Id, Via)> {
        let ids = message.plain_ids();
        let order = format!("o:{}:{line}", game.0);
        let ask = format!("c:{}:{line}", game.0);
        if ids.contains(&order) {
            let id = message.control(&order)?;
            return Some((self.fake.press(user, message.id, &id).await, Via::Button));
        }
        let (asked, via) = if ids.contains(&ask) {
            let id = message.control(&ask)?;
            (self.fake.press(user, message.id, &id).await, Via::AskedButton)
        } else {
            let menu_prefix = format!("s:{}", game.0);
            let (plain, asking) = (line.to_string(), format!("?{line}"));
            let (menu, value) = ids.iter().find_map(|c| {
                let (id, v) = c.split_once('=')?;
                let n = id.strip_prefix(&menu_prefix)?;
                ((v == plain || v == asking) && (n.is_empty() || n.starts_with(':')))
                    .then(|| (format!("{id}={v}"), v.to_string()))
            })?;
            let menu = message.control(&menu)?;
            let i = self.fake.select(user, message.id, &menu, &[&value]).await;
            if value == plain {
                return Some((i, Via::Menu));
            }
            (i, Via::AskedMenu)
        };
        let question = self.fake.answer(asked).await;
        assert!(
            question.ephemeral() && question.plain_ids().contains(&order),
            "the question before `{line}` has no Yes: {} {:?}",
            question.content,
            question.custom_ids()
        );
        let yes = question.control(&order)?;
        Some((self.fake.press(user, question.id, &yes).await, via))
    }

    /// One order of the policy, given with controls only
    /// ([`Harness::give_by_controls`]); panics if that is not possible.
    /// `None` when the game is over.
    pub async fn step_by_controls(&self, t: &Table) -> Option<(Seat, orrery::engine::CommandLine, Via)> {
        let (seat, _, line) = self.next_order(t).await?;
        let via = self.give_as(t, &self.state(t.game).await, seat, &line).await;
        Some((seat, line, via))
    }

    /// Give `line` for `seat` of `state` (the game now) with controls only
    /// ([`Harness::give_by_controls`]); panics if that is not possible.
    pub async fn give_as(&self, t: &Table, state: &AnyState, seat: Seat, line: &orrery::engine::CommandLine) -> Via {
        let group = state
            .legal_controls(seat, &t.seats.iter().map(|u| u.name.clone()).collect::<Vec<_>>())
            .into_iter()
            .find(|(l, _)| l == line)
            .map(|(l, c)| if c.group.trim().is_empty() { l.name } else { c.group })
            .unwrap_or_else(|| panic!("`{line}` is not legal for {seat}"));
        let user = &t.seats[seat.index()];
        self.give_by_controls(user, t.game, line, &group)
            .await
            .unwrap_or_else(|e| panic!("{} could not give `{line}` with controls: {e}", user.name))
    }

    /// The bot's own posts in `channel` not in `seen` (which learns them),
    /// oldest first.
    pub fn new_posts(&self, channel: Id, seen: &mut std::collections::HashSet<Id>) -> Vec<Message> {
        let new: Vec<Message> = self.fake.read(|w| {
            w.messages_in(channel)
                .into_iter()
                .filter(|m| m.origin == Origin::Post && !seen.contains(&m.id))
                .cloned()
                .collect()
        });
        seen.extend(new.iter().map(|m| m.id));
        new
    }

    /// The last `lines` lines of every bot process's log, for failures.
    pub fn log_tail(&self, lines: usize) -> String {
        self.bot
            .iter()
            .chain(&self.others)
            .map(|b| {
                let text = b.log_text();
                let all: Vec<&str> = text.lines().collect();
                all[all.len().saturating_sub(lines)..].join("\n")
            })
            .collect::<Vec<_>>()
            .join("\n--- another process ---\n")
    }

    /// The bot's own posts in `channel`, oldest first.
    pub fn posts(&self, channel: Id) -> Vec<Message> {
        self.new_posts(channel, &mut std::collections::HashSet::new())
    }

    /// Everything everyone in `channel` can read, one message a line (a
    /// reply only its asker sees is private and left out).
    pub fn public_text(&self, channel: Id) -> String {
        self.fake.read(|w| {
            w.messages_in(channel)
                .into_iter()
                .filter(|m| !m.ephemeral())
                .map(|m| m.content.clone())
                .collect::<Vec<_>>()
                .join("\n")
        })
    }

    /// How many messages with a picture each seat of `t` had by DM.
    pub fn private_boards(&self, t: &Table) -> Vec<usize> {
        self.fake.read(|w| {
            t.seats
                .iter()
                .map(|u| {
                    w.dm_channel_of(u.id)
                        .map(|c| w.messages_in(c).iter().filter(|m| !m.attachments.is_empty()).count())
                        .unwrap_or(0)
                })
                .collect()
        })
    }

    /// The game of `t` has finished: its outcome.
    pub async fn finished(&self, t: &Table) -> orrery::engine::Outcome {
        let row = self.row(t.game).await;
        assert_eq!(row.status, GameStatus::Finished);
        row.state
            .expect("a finished game keeps its state")
            .outcome()
            .expect("a finished game has an outcome")
    }

    /// How much the bot sent to `channel` and to the DMs of `players`, as
    /// Discord received it (interaction answers not counted).
    pub fn volume(&self, channel: Id, players: &[User]) -> Volume {
        self.fake.read(|w| {
            let dms: Vec<Id> = players.iter().filter_map(|p| w.dm_channel_of(p.id)).collect();
            let mut v = Volume::default();
            for l in w.log.iter().filter(|l| (200..300).contains(&l.status)) {
                let Some(rest) = l.path.strip_prefix("/channels/") else {
                    continue;
                };
                let Some((c, tail)) = rest.split_once('/') else {
                    continue;
                };
                let Ok(c) = c.parse::<Id>() else { continue };
                let (post, edit) = (
                    l.method == "POST" && tail == "messages",
                    l.method == "PATCH" && tail.starts_with("messages/"),
                );
                let counts = if c == channel {
                    (&mut v.channel_posts, &mut v.channel_edits)
                } else if dms.contains(&c) {
                    (&mut v.dm_posts, &mut v.dm_edits)
                } else {
                    continue;
                };
                match (post, edit) {
                    (true, _) => *counts.0 += 1,
                    (_, true) => *counts.1 += 1,
                    _ => continue,
                }
                for f in l.body.files() {
                    v.files += 1;
                    v.file_bytes += f.data.len();
                }
            }
            v
        })
    }

    /// What using an order's control came to: `Ok` once the game took the
    /// order, with the bot's follow-up if it sent one; `Err` with the bot's
    /// answer when it answered and the game did not move (a refusal).
    /// `seq_before` is the game's log position before the control was used.
    pub async fn outcome_of_press(
        &self,
        game: GameId,
        interaction: Id,
        seq_before: i64,
    ) -> Result<Option<Message>, Message> {
        let deadline = tokio::time::Instant::now() + interactions::ANSWER_TIMEOUT;
        loop {
            let acknowledged = self
                .fake
                .read(|w| w.interaction(interaction).is_some_and(|i| i.callback.is_some()));
            let answer = self
                .fake
                .answers(interaction)
                .into_iter()
                .find(|m| !m.deleted && !m.loading());
            let moved = self.row(game).await.seq > seq_before;
            if acknowledged && moved {
                return Ok(answer);
            }
            if let Some(a) = answer {
                return Err(a);
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "interaction {interaction}: neither answered nor taken\n{}",
                self.fake.dump(30)
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Play until the game is over or `stop` says so; returns the orders
    /// given.
    pub async fn play(&self, t: &Table, max_orders: usize, mut stop: impl FnMut(&AnyState) -> bool) -> usize {
        let mut n = 0;
        loop {
            let row = self.row(t.game).await;
            if row.status != GameStatus::Active || stop(row.state.as_ref().expect("state")) {
                return n;
            }
            assert!(n < max_orders, "the game did not end within {max_orders} orders");
            if self.step(t, None).await.is_none() {
                return n;
            }
            n += 1;
        }
    }

    /// Hold SQLite's write lock for `d` (a slow database): the bot's writes
    /// wait, so a request needing one outlasts the 1.5 s after which the
    /// bot defers its interaction response. Returns once the lock is held.
    pub async fn hold_write_lock(&self, d: Duration) -> tokio::task::JoinHandle<()> {
        let mut conn = self
            .store()
            .await
            .pool()
            .acquire()
            .await
            .expect("a database connection");
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut *conn)
            .await
            .expect("take the write lock");
        tokio::spawn(async move {
            tokio::time::sleep(d).await;
            sqlx::query("COMMIT")
                .execute(&mut *conn)
                .await
                .expect("release the write lock");
        })
    }

    /// (events, outbox rows) now: the log's length and the queue's.
    pub async fn snapshot(&self, game: GameId) -> (usize, i64, usize, String) {
        let events = self.events(game).await;
        let seq = events.last().map_or(0, |(s, _)| *s);
        let row = self.row(game).await;
        (
            events.len(),
            seq,
            self.outbox().await.len(),
            format!("{} {}", row.status.as_str(), row.seq),
        )
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("{}", self.fake.dump(40));
            if let Some(b) = &self.bot {
                if let Ok(log) = std::fs::read_to_string(&b.log) {
                    let tail: Vec<&str> = log.lines().rev().take(40).collect();
                    eprintln!("--- bot log tail ({}) ---", b.log.display());
                    for l in tail.into_iter().rev() {
                        eprintln!("{l}");
                    }
                }
            }
        }
        self.kill_bot();
    }
}

/// A game being played: its channel and who sits where.
#[derive(Clone, Debug)]
pub struct Table {
    pub game: GameId,
    pub channel: Id,
    pub seats: Vec<User>,
}

/// The game's result among the bot's `posts` in its channel: exactly one
/// post carries a result mark (🏆 a win or share, 💀 everyone lost), it is
/// the last post, and it names the winner of `outcome`.
pub fn result_post<'a>(t: &Table, posts: &'a [Message], outcome: &orrery::engine::Outcome) -> &'a Message {
    let results: Vec<&Message> = posts
        .iter()
        .filter(|m| m.content.contains('🏆') || m.content.contains('💀'))
        .collect();
    assert_eq!(results.len(), 1, "one result post");
    let result = results[0];
    if let orrery::engine::Outcome::Winner { seat, .. } = outcome {
        let name = &t.seats[seat.index()].name;
        assert!(result.content.contains(name.as_str()), "{name}: {}", result.content);
    }
    assert_eq!(
        Some(result.id),
        posts.last().map(|m| m.id),
        "the result is the last post"
    );
    // It says the game is over once, and ranks every player.
    let over: Vec<&str> = posts
        .iter()
        .filter(|m| m.content.contains("ame over"))
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(over.len(), 1, "one post says the game is over: {over:?}");
    let standings = result
        .content
        .split_once("Final standings: ")
        .unwrap_or_else(|| panic!("no final standings: {}", result.content))
        .1;
    for u in &t.seats {
        assert!(
            standings.contains(u.name.as_str()),
            "{} unranked: {}",
            u.name,
            result.content
        );
    }
    result
}

/// Each seat had its own board by DM, at most once per public one (and
/// the end's), and there were more than `at_least` public boards. (A seat
/// gets its board when what it knows changed, not at every phase.)
pub fn assert_private_boards(private: &[usize], posts: &[Message], at_least: usize) -> usize {
    let public = posts.iter().filter(|m| !m.attachments.is_empty()).count();
    assert!(public > at_least, "{public} public boards");
    for n in private {
        assert!(
            *n > 0 && *n <= public + 1,
            "{private:?} private boards, {public} public"
        );
    }
    public
}

/// Check that `bytes` is a PNG of a plausible board size.
pub fn assert_png(bytes: &[u8], what: &str) {
    let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("{what} is not a valid PNG: {e}"));
    assert!(
        img.width() >= 200 && img.height() >= 200,
        "{what} is only {}x{}",
        img.width(),
        img.height()
    );
}

/// Who `state` waits on, as users.
/// The players the game is shown waiting on and who have not answered.
/// Those owing a decision whose owers are secret (`undisclosed`: Spectrum
/// War's combat sheets) are never named or pinged in the channel; their
/// prompt comes by DM.
pub fn owing(t: &Table, state: &AnyState) -> std::collections::BTreeSet<Id> {
    state
        .pending()
        .iter()
        .filter(|p| !p.submitted && !p.undisclosed)
        .map(|p| t.seats[p.seat.index()].id)
        .collect()
}

pub fn names(t: &Table, ids: &std::collections::BTreeSet<Id>) -> Vec<String> {
    t.seats
        .iter()
        .filter(|u| ids.contains(&u.id))
        .map(|u| u.name.clone())
        .collect()
}

/// The channel posts since the last look: only the newest may ping. A
/// post that begins a phase pings exactly the players `state` waits on; a
/// 🔔 alert mid-phase pings exactly those it waits on now and did not
/// before (`before`: the one who just acted is not pinged for the next
/// step of their own turn). Players waited on now and not before were
/// pinged. A post that pings carries the control that shows a player
/// their prompt. Returns how many posts pinged someone.
pub fn check_pings(
    h: &Harness,
    t: &Table,
    before: &std::collections::BTreeSet<Id>,
    state: &AnyState,
    seen: &mut std::collections::HashSet<Id>,
) -> usize {
    let now = owing(t, state);
    let newly: std::collections::BTreeSet<Id> = now.difference(before).copied().collect();
    let posts = h.new_posts(t.channel, seen);
    let Some((last, rest)) = posts.split_last() else {
        assert!(
            newly.is_empty(),
            "{:?} are now waited on, and no post told them",
            names(t, &newly)
        );
        return 0;
    };
    for m in rest {
        assert!(
            m.pinged.is_empty(),
            "a post that is not the newest pinged: {}",
            m.content
        );
    }
    let pinged: std::collections::BTreeSet<Id> = last.pinged.iter().copied().collect();
    let (expected, what) = if last.content.starts_with('🔔') {
        (&newly, "the players newly waited on")
    } else {
        (&now, "the players the game waits on")
    };
    assert_eq!(
        names(t, &pinged),
        names(t, expected),
        "the post pings exactly {what}: {}",
        last.content
    );
    for u in &pinged {
        assert!(
            last.content.contains(&format!("<@{u}>")),
            "a ping without a mention in the text: {}",
            last.content
        );
    }
    if !pinged.is_empty() {
        // A ping lets its players act: it says where their prompts are
        // (a 🔔 alert) and shows them with a control (any ping).
        let show = format!("b:{}", t.game.0);
        assert!(
            last.custom_ids().contains(&show),
            "a ping without its Show my prompt control: {} {:?}",
            last.content,
            last.custom_ids()
        );
        if last.content.starts_with('🔔') {
            assert!(
                last.content.contains("Your prompt") && last.content.contains("Show my prompt"),
                "a 🔔 alert that does not say where the prompt is: {}",
                last.content
            );
        }
    }
    usize::from(!pinged.is_empty())
}

/// How an order was given with controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Via {
    Button,
    /// A button that asked first; then its "Yes".
    AskedButton,
    Menu,
    /// A menu value that asked first; then its "Yes".
    AskedMenu,
    /// A group in the group picker, then the group's menu.
    Picker,
}

/// What the bot sent during a game: see [`Harness::volume`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Volume {
    pub channel_posts: usize,
    pub channel_edits: usize,
    pub dm_posts: usize,
    pub dm_edits: usize,
    /// Files uploaded (boards), in posts and edits, and their bytes.
    pub files: usize,
    pub file_bytes: usize,
}

/// The game a custom id (`o:{game}:…`, `s:{game}:1=…`, `g:{game}`) is for.
pub fn game_of_id(id: &str) -> Option<GameId> {
    let rest = id.split_once(':')?.1;
    let n = rest.split([':', '=', '@']).next()?;
    n.parse().ok().map(GameId)
}
