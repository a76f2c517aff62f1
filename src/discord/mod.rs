//! The Discord transport (serenity + poise). Thin: turns interactions into
//! service requests, replies into interaction responses, and outbox
//! messages into channel posts and DMs.
//!
//! - [`game`]: `/game …` and `/mygames`, built at start-up from the shared grammar
//!   ([`crate::service::grammar`]), which the terminal parses with too.
//! - [`orders`]: one command per game system (`/hyperspace depart …`), built at
//!   start-up from the system's [`crate::games::GameKind::commands`] specs.
//! - [`components`]: buttons and select menus offering orders.
//! - [`respond`]: actors, running a request, and turning its reply into a response.
//! - [`transport`]: delivering the outbox.
//!
//! Configuration comes from the environment (or `.env`): see [`Config`].

pub mod components;
pub mod game;
pub mod orders;
pub mod respond;
pub mod transport;

use crate::service::{runtime, Service, ServiceError, SystemClock};
use crate::store::Store;
use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tokio::sync::Notify;
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
        let database_url = var("DATABASE_URL").unwrap_or_else(|| crate::store::DEFAULT_URL.to_string());
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
        Ok(Config {
            token,
            database_url,
            guild_id,
            api_base,
            clock_file,
            tick,
        })
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
    let mut all = vec![game::game(), game::host(), game::mygames()];
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

/// Run the bot until the gateway connection ends or Ctrl-C.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let store = Store::connect(&config.database_url)
        .await
        .with_context(|| format!("opening the database {}", redact_url(&config.database_url)))?;
    let clock: Arc<dyn crate::service::Clock> = match &config.clock_file {
        Some(path) => {
            tracing::warn!(file = %path.display(), "the clock is read from a file (ORRERY_CLOCK_FILE)");
            Arc::new(crate::service::FileClock::new(path))
        }
        None => Arc::new(SystemClock),
    };
    let service = Arc::new(Service::new(store, clock));
    let tick = config.tick;
    let delivery = Arc::new(Notify::new());
    let guild_id = config.guild_id;

    let framework = poise::Framework::builder()
        .options(framework_options())
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, "connected to Discord");
                // A failed registration is logged, not fatal: commands
                // registered earlier keep working, and the outbox must
                // still be delivered.
                if let Err(e) = register(ctx, &framework.options().commands, guild_id).await {
                    tracing::error!("{e:#}");
                }
                let transport = DiscordTransport::new(ctx.http.clone());
                tokio::spawn(runtime::delivery_loop(service.clone(), transport, delivery.clone()));
                tokio::spawn(runtime::scheduler_loop(service.clone(), delivery.clone(), tick));
                Ok(Data { service, delivery })
            })
        })
        .build();

    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(config.http(), intents)
        .framework(framework)
        .await
        .context("creating the Discord client")?;

    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::info!("shutting down");
            shards.shutdown_all().await;
        }
    });
    client.start().await.context("Discord gateway connection")?;
    Ok(())
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

/// What the asker is told about a failed request: user errors and busy
/// games explain themselves; anything else is logged and stays generic.
pub fn error_text(error: &Error) -> String {
    match error.downcast_ref::<ServiceError>() {
        Some(ServiceError::User(text)) => respond::markup(text),
        Some(e @ ServiceError::Busy(_)) => e.to_string(),
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
                .content(respond::clip_message(&text))
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
        let busy: Error = ServiceError::Busy(crate::engine::GameId(4)).into();
        assert!(error_text(&busy).contains("busy"));
        let internal: Error = ServiceError::Internal(anyhow::anyhow!("database password wrong")).into();
        assert_eq!(error_text(&internal), GENERIC_ERROR);
        assert_eq!(error_text(&anyhow::anyhow!("socket closed")), GENERIC_ERROR);
    }
}
