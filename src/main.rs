use anyhow::Context as _;
use clap::{Parser, Subcommand};
use orrery::cli;
use orrery::games::GameKind;
use std::path::PathBuf;
use std::process::ExitCode;

/// Orrery: asynchronous play-by-post space strategy games on Discord.
#[derive(Parser)]
#[command(name = "orrery", version, about)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (the default). Needs DISCORD_TOKEN.
    Bot,
    /// Play a game in the terminal, through the same service as the bot.
    Play {
        /// Game system: starlanes, spectrum, solar, hyperspace or empires
        game: String,
        #[arg(long, default_value_t = 3)]
        players: u8,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Every seat picks uniformly random legal orders until the game ends.
        #[arg(long)]
        auto: bool,
        /// Read input lines (`@alice /game join`) from a file.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Write board PNGs to this directory.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Database URL; with a file the game survives a crash and resumes.
        #[arg(long, default_value = "sqlite::memory:")]
        db: String,
        /// With --auto: stop after this many orders.
        #[arg(long)]
        max_orders: Option<u64>,
        /// The game's set-up options as `/game new … options:` takes them,
        /// e.g. "rounds:8 slingshot:true" (each game's rules page lists its
        /// options).
        #[arg(long)]
        options: Option<String>,
        /// Computer players: with --auto, the first K seats (the others play
        /// uniformly random legal orders); at the terminal table, the last K
        /// seats (the game is set up at once; you type for the others).
        #[arg(long, default_value_t = 0)]
        bots: u8,
        /// The computer players' difficulty: easy, normal or hard.
        #[arg(long, default_value = "normal")]
        bot_level: String,
    },
    /// Run rules scenario files (or directories of .scn files).
    Scenario {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Re-fold every stored game from its event log and compare with the stored state.
    Replay {
        #[arg(long)]
        db: Option<String>,
    },
}

fn main() -> ExitCode {
    let _ = dotenvy::dotenv();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "orrery=info,warn".into()),
        )
        .with_writer(std::io::stderr)
        // Colours only on a terminal: a log file reads as plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let args = Args::parse();
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> anyhow::Result<bool> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    match args.command.unwrap_or(Command::Bot) {
        Command::Bot => {
            let result = runtime.block_on(orrery::discord::run_from_env());
            // The bot has shut down what it runs; tasks a library may have
            // left are not waited for long.
            runtime.shutdown_timeout(std::time::Duration::from_secs(2));
            result.map(|()| true)
        }
        Command::Play {
            game,
            players,
            seed,
            auto,
            script,
            out,
            db,
            max_orders,
            options,
            bots,
            bot_level,
        } => {
            let effort = orrery::engine::bot::Effort::named(&bot_level)
                .with_context(|| format!("unknown --bot-level `{bot_level}`: easy, normal or hard"))?;
            let kind = GameKind::from_key(&game).with_context(|| {
                format!(
                    "unknown game `{game}`; known: {}",
                    GameKind::ALL.iter().map(|k| k.key()).collect::<Vec<_>>().join(", ")
                )
            })?;
            let opts = cli::play::PlayOptions {
                kind,
                players,
                seed,
                auto,
                script,
                out,
                db,
                max_orders,
                options,
                bots,
                effort,
                level: bot_level,
            };
            runtime.block_on(cli::play::run(opts)).map(|()| true)
        }
        Command::Scenario { files } => cli::scenario(&files),
        Command::Replay { db } => {
            let db = db
                .or_else(|| std::env::var("DATABASE_URL").ok())
                .unwrap_or_else(|| "sqlite://orrery.db".into());
            runtime.block_on(cli::replay(&db))
        }
    }
}
