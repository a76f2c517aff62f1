//! The Discord transport (serenity + poise). Thin: turns interactions into
//! service requests, replies into interaction responses, and outbox
//! messages into channel posts and DMs.
//!
//! - [`game`]: `/game …` and `/mygames`, built at start-up from the shared grammar
//!   ([`orrery_service::grammar`]), which the terminal parses with too.
//! - [`orders`]: one command per game system (`/hyperspace depart …`), built at
//!   start-up from the system's [`orrery_games::GameKind::commands`] specs.
//! - [`components`]: buttons and select menus offering orders.
//! - [`respond`]: actors, running a request, and turning its reply into a response.
//! - [`transport`]: delivering the outbox.
//!
//! Configuration comes from the environment (or `.env`): see [`Config`].

pub mod actor;
pub mod components;
pub mod game;
pub mod limits;
pub mod orders;
pub mod respond;
pub mod text;
pub mod transport;

use anyhow::Context as _;
use orrery_service::{runtime, Service, ServiceError, SystemClock};
use orrery_store::Store;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use transport::DiscordTransport;

/// Errors of command bodies. [`ServiceError`]s travel inside and are
/// recognised by [`on_error`].
pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;
pub type ApplicationContext<'a> = poise::ApplicationContext<'a, Data, Error>;

/// What every command handler can reach.
pub struct Data {
    pub service: Arc<Service>,
    /// Wakes the delivery task: poked after every handled request so the
    /// posts and DMs it queued go out at once.
    pub delivery: Arc<Notify>,
}

impl Data {
    /// Ask the delivery task to run now.
    pub fn deliver_soon(&self) {
        self.delivery.notify_one();
    }
}

/// Bot configuration, from the environment.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    /// `DISCORD_TOKEN`: the bot token. Required.
    pub token: String,
    /// `DATABASE_URL`; default `sqlite://orrery.db`.
    pub database_url: String,
    /// `DISCORD_GUILD_ID`: register the commands in this guild only (they
    /// appear at once, which suits development). Guild commands are not
    /// offered in DMs; without it they are registered globally.
    pub guild_id: Option<u64>,
    /// `DISCORD_API_BASE`: send every HTTP API request to this base URL
    /// instead of `https://discord.com` (a fake Discord in tests). Also
    /// turns off the client-side rate limiter, which would otherwise
    /// bypass the proxy.
    pub api_base: Option<String>,
    /// `ORRERY_CLOCK_FILE`: read the time from this file (Unix ms) instead
    /// of the system clock, so a test can move a running bot's time. For
    /// tests and playtests only.
    pub clock_file: Option<std::path::PathBuf>,
    /// `ORRERY_TICK_MS`: how often the deadline scheduler runs (default 20 s).
    pub tick: std::time::Duration,
    /// `ORRERY_HEALTH_EVERY`: log the health line every this many minutes
    /// (default 10; 0: never).
    pub health_every: Option<std::time::Duration>,
    /// `DISCORD_SHARDS`: the gateway shards this process runs, of a fixed
    /// total (`0-1/4`: shards 0 and 1 of 4; `2/4`: shard 2 of 4). Unset:
    /// this process runs the bot's only shard (shard 0 of 1). Only the
    /// process that runs shard 0 registers the slash commands.
    pub shards: Option<ShardRange>,
}

/// A range of gateway shards of a fixed total: `first..=last` of `total`.
/// Discord sends a guild's events to shard `(guild_id >> 22) % total`, and
/// DMs to shard 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl ShardRange {
    /// Read `a-b/N` (shards a to b, both included, of N) or `a/N`.
    pub fn parse(text: &str) -> Result<ShardRange, String> {
        let text = text.trim();
        let shape = || {
            format!("DISCORD_SHARDS `{text}` is not a shard range: write FIRST-LAST/TOTAL (such as 0-1/4) or SHARD/TOTAL (such as 2/4)")
        };
        let (range, total) = text.split_once('/').ok_or_else(shape)?;
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| shape());
        let total = number(total)?;
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(range)?;
                (n, n)
            }
        };
        if total == 0 {
            return Err(format!(
                "DISCORD_SHARDS `{text}`: the total number of shards must be at least 1"
            ));
        }
        if first > last {
            return Err(format!(
                "DISCORD_SHARDS `{text}`: the first shard ({first}) comes after the last ({last})"
            ));
        }
        if last >= total {
            return Err(format!(
                "DISCORD_SHARDS `{text}`: shard {last} does not exist: shards are numbered 0 to {} of {total}",
                total - 1
            ));
        }
        Ok(ShardRange { first, last, total })
    }

    /// Whether this range includes shard 0, the shard whose process
    /// registers the slash commands (and receives DMs).
    pub fn has_shard_zero(&self) -> bool {
        self.first == 0
    }
}

impl std::fmt::Display for ShardRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.last {
            write!(f, "{}/{}", self.first, self.total)
        } else {
            write!(f, "{}-{}/{}", self.first, self.last, self.total)
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("token", &"<redacted>")
            .field("database_url", &redact_url(&self.database_url))
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .field("clock_file", &self.clock_file)
            .field("tick", &self.tick)
            .field("health_every", &self.health_every)
            .field("shards", &self.shards)
            .finish()
    }
}

/// A database URL without its password, for logs and errors.
pub fn redact_url(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((userinfo, host)) => {
                let user = userinfo.split(':').next().unwrap_or("");
                format!("{scheme}://{user}:…@{host}")
            }
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// The message shown when no token is configured.
pub const MISSING_TOKEN: &str = "DISCORD_TOKEN is not set. Put your bot token in the environment or in .env \
     (see .env.example). To try Orrery without Discord, run `orrery play hyperspace --auto`.";

impl Config {
    pub fn from_env() -> anyhow::Result<Config> {
        Config::from_lookup(|k| std::env::var(k).ok())
    }

    /// The configuration from a variable lookup (the environment, or a map
    /// in tests). Empty values count as unset.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<Config> {
        let var = |k: &str| get(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let Some(token) = var("DISCORD_TOKEN") else {
            anyhow::bail!(MISSING_TOKEN);
        };
        let database_url = var("DATABASE_URL").unwrap_or_else(|| orrery_store::DEFAULT_URL.to_string());
        let guild_id = match var("DISCORD_GUILD_ID") {
            Some(g) => Some(
                g.parse::<u64>()
                    .ok()
                    .filter(|&n| n != 0)
                    .with_context(|| format!("DISCORD_GUILD_ID `{g}` is not a Discord server id (a number)"))?,
            ),
            None => None,
        };
        let api_base = var("DISCORD_API_BASE").map(|b| b.trim_end_matches('/').to_string());
        let clock_file = var("ORRERY_CLOCK_FILE").map(std::path::PathBuf::from);
        let tick = match var("ORRERY_TICK_MS") {
            Some(t) => std::time::Duration::from_millis(
                t.parse::<u64>()
                    .ok()
                    .filter(|&ms| ms >= 10)
                    .with_context(|| format!("ORRERY_TICK_MS `{t}` is not a number of milliseconds (10 or more)"))?,
            ),
            None => runtime::SCHEDULER_INTERVAL,
        };
        let health_every = match var("ORRERY_HEALTH_EVERY") {
            Some(m) => match m.parse::<u64>() {
                Ok(0) => None,
                Ok(minutes) => Some(std::time::Duration::from_secs(minutes.saturating_mul(60))),
                Err(_) => anyhow::bail!("ORRERY_HEALTH_EVERY `{m}` is not a number of minutes (0: off)"),
            },
            None => Some(runtime::HEALTH_INTERVAL),
        };
        let shards = var("DISCORD_SHARDS")
            .map(|s| ShardRange::parse(&s))
            .transpose()
            .map_err(anyhow::Error::msg)?;
        Ok(Config {
            token,
            database_url,
            guild_id,
            api_base,
            clock_file,
            tick,
            health_every,
            shards,
        })
    }

    /// Whether this process registers the slash commands: the one that
    /// runs shard 0 (every process, were each to register, would race to
    /// replace the same list).
    pub fn registers_commands(&self) -> bool {
        self.shards.is_none_or(|s| s.has_shard_zero())
    }

    /// The HTTP client: straight to Discord, or through `api_base`.
    pub fn http(&self) -> serenity::Http {
        let mut builder = serenity::HttpBuilder::new(&self.token);
        if let Some(base) = &self.api_base {
            // The proxy is ignored while the rate limiter is on.
            builder = builder.proxy(base.clone()).ratelimiter_disabled(true);
        }
        builder.build()
    }
}

/// Every command the bot registers.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    let mut all = vec![game::game(), game::sheet(), game::host(), game::mygames()];
    all.extend(orders::order_commands());
    all
}

/// The framework options: commands, error handling, component events.
pub fn framework_options() -> poise::FrameworkOptions<Data, Error> {
    poise::FrameworkOptions {
        commands: commands(),
        on_error: |error| Box::pin(on_error(error)),
        event_handler: |framework, event| Box::pin(event_handler(framework, event)),
        // Names are chosen by users: never let a reply ping anyone.
        allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
        ..Default::default()
    }
}

/// Run the bot with configuration from the environment / `.env`.
pub async fn run_from_env() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    run(config).await
}

/// How long a shutdown waits for the background loops to finish what they
/// are doing, and then for database connections in use to come back.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Run the bot until SIGTERM or Ctrl-C (then shut down cleanly and return
/// `Ok`), or until the gateway connection fails.
///
/// Shutting down: the gateway shards are closed, so no new interaction
/// arrives; the scheduler stops between ticks and the delivery between
/// messages (the message being sent is sent and marked, claimed rows are
/// given back); then the database pool is closed, which waits for the
/// connections in use: a transaction in flight commits or rolls back.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let stop = CancellationToken::new();
    // Listen first: a signal during start-up shuts down too.
    tokio::spawn(cancel_on_signal(stop.clone()));
    let store = Store::connect(&config.database_url)
        .await
        .with_context(|| format!("opening the database {}", redact_url(&config.database_url)))?;
    let clock: Arc<dyn orrery_service::Clock> = match &config.clock_file {
        Some(path) => {
            tracing::warn!(file = %path.display(), "the clock is read from a file (ORRERY_CLOCK_FILE)");
            Arc::new(orrery_service::FileClock::new(path))
        }
        None => Arc::new(SystemClock),
    };
    let service = Service::new(store.clone(), clock);
    // Without shards this is meant to be the only process: claims of any
    // other are taken for a dead one's and taken over as the pass meets
    // them. Nothing is released in bulk at start-up, and every write of a
    // delivery is fenced by its claim: should the other process be alive
    // after all (an overlapping deploy, a stall), its late writes are
    // refused and a late edit of a live message is undone, so no message
    // goes back to an older version. With DISCORD_SHARDS claims are
    // honoured until their lease (on the database's clock) runs out.
    let service = Arc::new(if config.shards.is_none() {
        service.sole_process()
    } else {
        service
    });
    let tick = config.tick;
    let health_every = config.health_every;
    let delivery = Arc::new(Notify::new());
    let guild_id = config.guild_id;
    let registers = config.registers_commands();
    let loops: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();

    let framework = {
        let stop = stop.clone();
        let loops = loops.clone();
        poise::Framework::builder()
            .options(framework_options())
            .setup(move |ctx, ready, framework| {
                Box::pin(async move {
                    tracing::info!(user = %ready.user.name, "connected to Discord");
                    // A failed registration is logged, not fatal: commands
                    // registered earlier keep working, and the outbox must
                    // still be delivered. With several processes, only the
                    // one running shard 0 registers.
                    if registers {
                        if let Err(e) = register(ctx, &framework.options().commands, guild_id).await {
                            tracing::error!("{e:#}");
                        }
                    } else {
                        tracing::info!("not registering commands: the process running shard 0 does");
                    }
                    let transport = DiscordTransport::new(ctx.http.clone());
                    let mut loops = loops.lock().unwrap_or_else(|e| e.into_inner());
                    loops.push(tokio::spawn(runtime::delivery_loop(
                        service.clone(),
                        transport,
                        delivery.clone(),
                        stop.clone(),
                    )));
                    if let Some(every) = health_every {
                        loops.push(tokio::spawn(runtime::health_loop(service.clone(), every, stop.clone())));
                    }
                    loops.push(tokio::spawn(runtime::scheduler_loop(
                        service.clone(),
                        delivery.clone(),
                        tick,
                        stop.clone(),
                    )));
                    loops.push(tokio::spawn(runtime::bot_loop(
                        service.clone(),
                        delivery.clone(),
                        stop.clone(),
                    )));
                    Ok(Data { service, delivery })
                })
            })
            .build()
    };

    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(config.http(), intents)
        .framework(framework)
        .await
        .context("creating the Discord client")?;

    let shards = client.shard_manager.clone();
    let gateway = async {
        match config.shards {
            Some(r) => {
                tracing::info!(shards = %r, "running gateway shards");
                // serenity 0.12 reads the range's end as the last shard
                // (included), not one past it.
                client.start_shard_range(r.first..r.last, r.total).await
            }
            None => client.start().await,
        }
    };
    tokio::select! {
        result = gateway => {
            if !stop.is_cancelled() {
                stop.cancel();
                shut_down(&loops, &store).await;
                result.context("Discord gateway connection")?;
                return Ok(());
            }
        }
        _ = stop.cancelled() => {}
    }
    tracing::info!("shutting down: closing the gateway");
    shards.shutdown_all().await;
    shut_down(&loops, &store).await;
    tracing::info!("shut down");
    Ok(())
}

/// Cancel `stop` on SIGTERM or Ctrl-C.
async fn cancel_on_signal(stop: CancellationToken) {
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => tracing::info!("Ctrl-C: shutting down"),
        _ = term => tracing::info!("SIGTERM: shutting down"),
    }
    stop.cancel();
}

/// After `stop` was cancelled: wait for the background loops to stop, then
/// close the database (waiting for the connections in use), each at most
/// [`SHUTDOWN_GRACE`].
async fn shut_down(loops: &std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>, store: &Store) {
    let handles = std::mem::take(&mut *loops.lock().unwrap_or_else(|e| e.into_inner()));
    for h in handles {
        match tokio::time::timeout(SHUTDOWN_GRACE, h).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!("a background task failed: {e}"),
            Err(_) => tracing::warn!("a background task did not stop within {SHUTDOWN_GRACE:?}"),
        }
    }
    if tokio::time::timeout(SHUTDOWN_GRACE, store.close()).await.is_err() {
        tracing::warn!("database connections still in use after {SHUTDOWN_GRACE:?}");
    }
}

/// Register the slash commands: in one guild (shown at once, not in DMs)
/// or globally.
async fn register(
    ctx: &serenity::Context,
    commands: &[poise::Command<Data, Error>],
    guild_id: Option<u64>,
) -> anyhow::Result<()> {
    match guild_id {
        Some(g) => {
            poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(g))
                .await
                .with_context(|| {
                    format!(
                        "registering commands in guild {g} (is DISCORD_GUILD_ID right, and is the bot in that server?)"
                    )
                })?;
            tracing::info!(guild = g, count = commands.len(), "registered commands in guild");
        }
        None => {
            poise::builtins::register_globally(ctx, commands)
                .await
                .context("registering global commands")?;
            tracing::info!(count = commands.len(), "registered global commands");
        }
    }
    Ok(())
}

/// Shown for internal errors; the details go to the log.
pub const GENERIC_ERROR: &str = "Something went wrong on my side; nothing was changed. Please try again in a moment.";

/// What the asker is told about a failed request: user errors, busy
/// games and a full database explain themselves (the store logs a full
/// database itself, once); anything else is logged and stays generic.
pub fn error_text(error: &Error) -> String {
    match error.downcast_ref::<ServiceError>() {
        Some(ServiceError::User(text)) => text::markup(text),
        Some(e @ (ServiceError::Busy(_) | ServiceError::Damaged { .. })) => e.to_string(),
        _ if orrery_service::storage_full_in(error) => orrery_service::STORAGE_FULL.to_string(),
        _ if orrery_service::storage_unavailable_in(error) => orrery_service::STORAGE_UNAVAILABLE.to_string(),
        _ => {
            tracing::error!("request failed: {error:#}");
            GENERIC_ERROR.to_string()
        }
    }
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            let text = error_text(&error);
            let reply = poise::CreateReply::default()
                .content(text::clip_message(&text))
                .ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::warn!(command = %ctx.command().qualified_name, "could not send the error reply: {e}");
            }
        }
        poise::FrameworkError::ArgumentParse { error, input, ctx, .. } => {
            let text = match input {
                Some(input) => format!("I couldn't read `{input}`: {error}"),
                None => format!("I couldn't read the options: {error}"),
            };
            if let Err(e) = ctx
                .send(poise::CreateReply::default().content(text).ephemeral(true))
                .await
            {
                tracing::warn!("could not send the error reply: {e}");
            }
        }
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!("bot set-up failed: {error:#}");
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            tracing::error!(event = event.snake_case_name(), "event handler failed: {error:#}");
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!("error while handling an error: {e}");
            }
        }
    }
}

async fn event_handler(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate { interaction } = event {
        // Which process and shard took it, for operators running several.
        tracing::debug!(
            interaction = %interaction.id(),
            shard = framework.serenity_context.shard_id.0,
            "interaction received"
        );
    }
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(component),
    } = event
    {
        components::handle_component(framework.serenity_context, framework.user_data, component).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn config_needs_a_token_and_points_at_orrery_play() {
        for env in [lookup(&[]), lookup(&[("DISCORD_TOKEN", "  ")])] {
            let e = Config::from_lookup(env).unwrap_err().to_string();
            assert!(e.contains("DISCORD_TOKEN"), "{e}");
            assert!(e.contains("orrery play"), "{e}");
        }
    }

    #[test]
    fn config_defaults_and_overrides() {
        let c = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "abc")])).unwrap();
        assert_eq!(c.database_url, "sqlite://orrery.db");
        assert_eq!(c.guild_id, None);
        assert_eq!(c.api_base, None);
        assert!(!format!("{c:?}").contains("abc"), "the token must not be logged");

        let c = Config::from_lookup(lookup(&[
            ("DISCORD_TOKEN", "abc"),
            ("DATABASE_URL", "sqlite::memory:"),
            ("DISCORD_GUILD_ID", "1234"),
            ("DISCORD_API_BASE", "http://127.0.0.1:3000/"),
        ]))
        .unwrap();
        assert_eq!(c.database_url, "sqlite::memory:");
        assert_eq!(c.guild_id, Some(1234));
        assert_eq!(c.api_base.as_deref(), Some("http://127.0.0.1:3000"));

        let e = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "abc"), ("DISCORD_GUILD_ID", "general")])).unwrap_err();
        assert!(e.to_string().contains("DISCORD_GUILD_ID"), "{e}");
    }

    #[test]
    fn the_health_line_is_every_ten_minutes_unless_configured() {
        let every = |v: Option<&str>| {
            let mut vars = vec![("DISCORD_TOKEN", "abc")];
            vars.extend(v.map(|v| ("ORRERY_HEALTH_EVERY", v)));
            Config::from_lookup(lookup(&vars)).map(|c| c.health_every)
        };
        assert_eq!(every(None).unwrap(), Some(std::time::Duration::from_secs(600)));
        assert_eq!(every(Some("1")).unwrap(), Some(std::time::Duration::from_secs(60)));
        assert_eq!(every(Some("0")).unwrap(), None);
        let e = every(Some("often")).unwrap_err().to_string();
        assert!(e.contains("ORRERY_HEALTH_EVERY"), "{e}");
    }

    #[test]
    fn shard_ranges_are_read_with_clear_errors() {
        let ok = |t: &str| ShardRange::parse(t).unwrap();
        assert_eq!(
            ok("0-1/4"),
            ShardRange {
                first: 0,
                last: 1,
                total: 4
            }
        );
        assert_eq!(
            ok("2/4"),
            ShardRange {
                first: 2,
                last: 2,
                total: 4
            }
        );
        assert_eq!(
            ok(" 3 - 3 / 4 "),
            ShardRange {
                first: 3,
                last: 3,
                total: 4
            }
        );
        assert_eq!(
            ok("0/1"),
            ShardRange {
                first: 0,
                last: 0,
                total: 1
            }
        );
        assert_eq!(ok("0-1/4").to_string(), "0-1/4");
        assert_eq!(ok("2/4").to_string(), "2/4");
        let err = |t: &str| ShardRange::parse(t).unwrap_err();
        for shapeless in ["", "4", "0-1", "a/4", "0-b/4", "1/x", "-1/4", "0-1-2/4", "1/2/3"] {
            let e = err(shapeless);
            assert!(e.contains("FIRST-LAST/TOTAL"), "{shapeless}: {e}");
        }
        assert!(err("0/0").contains("at least 1"), "{}", err("0/0"));
        assert!(err("2-1/4").contains("comes after"), "{}", err("2-1/4"));
        let e = err("3-4/4");
        assert!(e.contains("shard 4 does not exist") && e.contains("0 to 3"), "{e}");
        assert!(err("4/4").contains("shard 4 does not exist"));
    }

    #[test]
    fn config_reads_shards_and_only_shard_zero_registers() {
        let c = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "abc")])).unwrap();
        assert_eq!(c.shards, None);
        assert!(c.registers_commands(), "a lone process registers");
        let c = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "abc"), ("DISCORD_SHARDS", "0-1/4")])).unwrap();
        assert_eq!(
            c.shards,
            Some(ShardRange {
                first: 0,
                last: 1,
                total: 4
            })
        );
        assert!(c.registers_commands());
        let c = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "abc"), ("DISCORD_SHARDS", "2-3/4")])).unwrap();
        assert!(!c.registers_commands());
        let e = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "abc"), ("DISCORD_SHARDS", "5/4")])).unwrap_err();
        assert!(e.to_string().contains("DISCORD_SHARDS `5/4`"), "{e}");
    }

    #[test]
    fn database_passwords_are_not_shown() {
        assert_eq!(
            redact_url("postgres://orrery:s3cret@db:5432/orrery"),
            "postgres://orrery:…@db:5432/orrery"
        );
        assert_eq!(redact_url("sqlite://orrery.db"), "sqlite://orrery.db");
        assert_eq!(redact_url("sqlite::memory:"), "sqlite::memory:");
        let c = Config::from_lookup(lookup(&[
            ("DISCORD_TOKEN", "abc"),
            ("DATABASE_URL", "postgres://u:s3cret@h/db"),
        ]))
        .unwrap();
        assert!(!format!("{c:?}").contains("s3cret"));
    }

    #[test]
    fn error_text_shows_user_errors_and_hides_internals() {
        let user: Error = ServiceError::User("You are not seated in game 3.".into()).into();
        assert_eq!(error_text(&user), "You are not seated in game 3.");
        let busy: Error = ServiceError::Busy(orrery_engine::GameId(4)).into();
        assert!(error_text(&busy).contains("busy"));
        let internal: Error = ServiceError::Internal(anyhow::anyhow!("database password wrong")).into();
        assert_eq!(error_text(&internal), GENERIC_ERROR);
        assert_eq!(error_text(&anyhow::anyhow!("socket closed")), GENERIC_ERROR);
    }

    #[test]
    fn error_text_says_the_storage_is_full() {
        let full: Error = ServiceError::StorageFull.into();
        assert_eq!(error_text(&full), orrery_service::STORAGE_FULL);
        // The store's error inside an internal one, as a transport's own
        // store call may carry it.
        let sqlite_full = sqlx::Error::Protocol("database or disk is full".into());
        let inner: Error = anyhow::Error::from(orrery_store::StoreError::Full(sqlite_full)).context("loading the game");
        assert_eq!(error_text(&inner), orrery_service::STORAGE_FULL);
        assert!(!error_text(&full).contains('*') && !error_text(&full).contains('`'));
    }

    #[test]
    fn error_text_says_the_storage_is_unavailable() {
        let down: Error = ServiceError::StorageUnavailable.into();
        assert_eq!(error_text(&down), orrery_service::STORAGE_UNAVAILABLE);
        let inner: Error = anyhow::Error::from(orrery_store::StoreError::Unavailable(sqlx::Error::PoolTimedOut))
            .context("loading the game");
        assert_eq!(error_text(&inner), orrery_service::STORAGE_UNAVAILABLE);
    }
}
