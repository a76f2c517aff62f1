//! `orrery play`: a terminal playtest of a whole game through the same
//! service the bot uses. Output is a transcript: channel posts, each
//! user's DMs marked with their name, and the paths of board PNGs.

use crate::engine::{GameId, GameRng, UserId, Viewer};
use crate::games::GameKind;
use crate::service::slash::parse_slash;
use crate::service::{
    readable_time, Actor, Clock, Delivery, Op, OutMessage, Place, Posted, Reply, Request, Service, ServiceError, Span,
    SystemClock, Target, Text, Transport,
};
use crate::store::{GameStatus, Store};
use anyhow::{bail, Context as _};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The playtest's one channel.
pub const TABLE_CHANNEL: u64 = 1;

const NAMES: [&str; 8] = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"];

pub struct PlayOptions {
    pub kind: GameKind,
    pub players: u8,
    pub seed: u64,
    pub auto: bool,
    pub script: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub db: String,
    /// Stop after this many orders (auto mode), for tests.
    pub max_orders: Option<u64>,
    /// The set-up options, as `/game new … options:` takes them.
    pub options: Option<String>,
    /// Computer players: with `auto`, the first `bots` seats (the others
    /// play uniformly random orders); at the terminal table, the last
    /// `bots` seats (the others are typed).
    pub bots: u8,
    /// Their difficulty.
    pub effort: crate::engine::bot::Effort,
    /// The difficulty's name, as typed (`easy`, `normal`, `hard`).
    pub level: String,
}

/// Users are named; their ids are stable numbers derived from the name.
fn user_id(name: &str) -> UserId {
    let n = NAMES.iter().position(|x| *x == name).map(|i| i as u64 + 1);
    UserId(n.unwrap_or_else(|| {
        // Unknown names get a stable id above the table's.
        100 + name
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64))
            % 1_000_000
    }))
}

/// Prints deliveries; writes boards to `--out`.
struct Terminal {
    out: Option<PathBuf>,
    names: Mutex<BTreeMap<UserId, String>>,
    written: Mutex<Vec<PathBuf>>,
    /// Times are shown relative to this clock's now.
    clock: Arc<dyn Clock>,
    /// What each printed message shows now, by the id given to it, so an
    /// edit prints only what changed.
    shown: Mutex<HashMap<u64, OutMessage>>,
    /// The next message id: starts from the clock, so ids of an earlier run
    /// (kept by live messages in the database) are not given again.
    next_message: AtomicU64,
}

/// The playtest's name for a channel.
fn channel_name(c: u64) -> String {
    format!("#table-{c}")
}

/// Service text for the terminal: people by name, channels by their
/// playtest name, moments relative to `now_ms` and as UTC ("in 2 days,
/// Wed 25 Nov 18:00 UTC"), emphasis dropped, literals in backticks.
fn render(text: &Text, now_ms: i64, name_of: impl Fn(UserId) -> String) -> String {
    text.render(|span, out| match span {
        Span::Plain(p) | Span::Strong(p) => out.push_str(p),
        Span::Code(c) => {
            out.push('`');
            out.push_str(c);
            out.push('`');
        }
        Span::User(u) => out.push_str(&name_of(*u)),
        Span::Mention { name, .. } => {
            out.push('@');
            out.push_str(name);
        }
        Span::Channel(c) => out.push_str(&channel_name(*c)),
        Span::Time(ms) => out.push_str(&readable_time(*ms, now_ms)),
    })
}

impl Terminal {
    fn new(out: Option<PathBuf>, clock: Arc<dyn Clock>) -> Self {
        let first = (clock.now_ms().max(0) as u64).saturating_mul(1000);
        Terminal {
            out,
            names: Mutex::new(BTreeMap::new()),
            written: Mutex::new(vec![]),
            clock,
            shown: Mutex::new(HashMap::new()),
            next_message: AtomicU64::new(first),
        }
    }

    fn head(&self, target: &Target) -> String {
        match target {
            Target::Channel(c) => format!("[{}]", channel_name(*c)),
            Target::Dm(u) => format!("[DM to {}]", self.name_of(*u)),
        }
    }

    /// The lines `now` has after those of `before` (all of them if it
    /// does not continue `before`).
    fn added_lines(&self, before: Option<&Text>, now: &Text) -> String {
        let now = self.render(now);
        match before.map(|b| self.render(b)) {
            Some(b) if now.starts_with(&b) => now[b.len()..].trim_start_matches('\n').to_string(),
            _ => now,
        }
    }

    fn render(&self, text: &Text) -> String {
        render(text, self.clock.now_ms(), |u| self.name_of(u))
    }

    fn name_of(&self, user: UserId) -> String {
        self.names
            .lock()
            .expect("names")
            .get(&user)
            .cloned()
            .unwrap_or_else(|| format!("user {user}"))
    }
}

impl Transport for Terminal {
    async fn send(&self, _id: i64, msg: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        let head = self.head(&msg.target);
        let mut text = self.render(&msg.full_text());
        if let (Some(png), Some(b)) = (png, &msg.board) {
            let viewer = match b.viewer {
                Viewer::Public => "public".to_string(),
                Viewer::Seat(s) => format!("seat{}", s.0 + 1),
            };
            match &self.out {
                Some(dir) => {
                    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
                    let path = dir.join(format!("game{}-{:06}-{viewer}.png", b.game.0, b.seq));
                    std::fs::write(&path, png).with_context(|| format!("writing {}", path.display()))?;
                    text.push_str(&format!("\n  (board: {})", path.display()));
                    self.written.lock().expect("written").push(path);
                }
                None => text.push_str(&format!(
                    "\n  (board: {} bytes PNG; pass --out DIR to save it)",
                    png.len()
                )),
            }
        }
        if !msg.choices.is_empty() {
            let labels: Vec<&str> = msg.choices.iter().map(|c| c.label.as_str()).collect();
            text.push_str(&format!("\n  [buttons: {}]", labels.join(" | ")));
        }
        println!("{head} {}", indent(&text));
        let message = self.next_message.fetch_add(1, Ordering::Relaxed);
        self.shown.lock().expect("shown").insert(message, msg.clone());
        let channel = match msg.target {
            Target::Channel(c) => c,
            Target::Dm(u) => u.0,
        };
        Ok(Delivery::Sent(Some(Posted { channel, message })))
    }

    /// A transcript cannot change what it printed: an update prints the
    /// new version (marked as such), an append its new lines (and the new
    /// footer), a close its last line.
    async fn edit(&self, _id: i64, at: &Posted, msg: &OutMessage, _png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        if let Some(out) = self.edited(at, msg) {
            println!("{out}");
        }
        Ok(Delivery::Sent(Some(*at)))
    }
}

impl Terminal {
    /// What the transcript prints for an edit of the message at `at`.
    fn edited(&self, at: &Posted, msg: &OutMessage) -> Option<String> {
        let head = self.head(&msg.target);
        let before = self.shown.lock().expect("shown").insert(at.message, msg.clone());
        let out = match msg.op {
            Op::Update | Op::Post => {
                let mut text = self.render(&msg.full_text());
                if !msg.choices.is_empty() {
                    let labels: Vec<&str> = msg.choices.iter().map(|c| c.label.as_str()).collect();
                    text.push_str(&format!("\n  [buttons: {}]", labels.join(" | ")));
                }
                Some(format!("(updated) {text}"))
            }
            Op::Append => {
                let mut lines = self.added_lines(before.as_ref().map(|b| &b.text), &msg.text);
                let footer_changed = before.as_ref().is_none_or(|b| b.footer != msg.footer);
                if let Some(footer) = msg.footer.as_ref().filter(|f| footer_changed && !f.is_empty()) {
                    if !lines.is_empty() {
                        lines.push('\n');
                    }
                    lines.push_str(&self.render(footer));
                }
                (!lines.is_empty()).then_some(lines)
            }
            Op::Close => match &before {
                // Unchanged text: a newer message retired it, silently.
                Some(b) => Some(self.added_lines(Some(&b.text), &msg.text)).filter(|l| !l.is_empty()),
                // Printed by an earlier run: its last line is the note.
                None => self.render(&msg.text).lines().last().map(str::to_string),
            },
        };
        out.map(|out| format!("{head} {}", indent(&out)))
    }
}

/// "bob", "bob and carol", "bob, carol and dave".
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn indent(text: &str) -> String {
    text.replace('\n', "\n    ")
}

pub async fn run(opts: PlayOptions) -> anyhow::Result<()> {
    let store = Store::connect(&opts.db).await?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    // The terminal is the only reader of its database: claims of a crashed
    // run are void.
    let service = Service::new(store.clone(), clock.clone()).sole_process();
    let terminal = Terminal::new(opts.out.clone(), clock);
    for (i, n) in NAMES.iter().enumerate() {
        terminal
            .names
            .lock()
            .expect("names")
            .insert(UserId(i as u64 + 1), n.to_string());
    }
    // Anything committed but not yet shown (e.g. after a crash) goes first.
    service.deliver(&terminal).await?;

    if opts.auto {
        return auto(&service, &terminal, &opts).await;
    }
    // The terminal table with computer players: the game is set up at
    // once (or resumed), and the computer players move whenever they owe.
    let table = if opts.bots > 0 {
        if opts.bots >= opts.players {
            bail!(
                "--bots {} leaves no seat of {} to type at the terminal; with --auto every seat is played for you",
                opts.bots,
                opts.players
            );
        }
        let game = match resumable(&service, &opts).await? {
            Some(g) => g,
            None => set_up(&service, &terminal, &opts).await?,
        };
        // From the seats (a resumed game keeps the seats it was set up with).
        let seated = service.store().seats(game).await?;
        let typed: Vec<&str> = seated.iter().filter(|s| !s.is_bot()).map(|s| s.name.as_str()).collect();
        let bots: Vec<&str> = seated.iter().filter(|s| s.is_bot()).map(|s| s.name.as_str()).collect();
        let first = typed.first().copied().unwrap_or(NAMES[0]);
        // Their level as seated (the first one's: the table seats them alike).
        let level = seated
            .iter()
            .find_map(|s| s.bot)
            .map_or(opts.level.as_str(), |l| l.as_str());
        let who = if bots.is_empty() {
            format!("{} (this game was set up without computer players)", and_list(&typed))
        } else {
            let are = if bots.len() == 1 {
                "is a computer player"
            } else {
                "are computer players"
            };
            format!("{}; {} {are} ({level})", and_list(&typed), and_list(&bots))
        };
        println!("You type for {who}. Type `@{first}` and an order, as the prompts above show; Ctrl-D ends.");
        if bots_move(&service, &terminal, game, &opts).await? {
            return Ok(());
        }
        Some(game)
    } else {
        None
    };
    let input: Box<dyn BufRead> = match &opts.script {
        Some(p) => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).with_context(|| format!("opening script {}", p.display()))?,
        )),
        None => {
            if table.is_none() {
                println!("Orrery playtest ({}). Type lines like `@alice /game new game:{}` or `@bob dm /{} <order>`; Ctrl-D ends.", opts.kind.name(), opts.kind.key(), opts.kind.key());
            }
            Box::new(std::io::BufReader::new(std::io::stdin()))
        }
    };
    let mut failures = 0;
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if opts.script.is_some() {
            println!("> {line}");
        }
        if !say(&service, &terminal, line).await? {
            failures += 1;
        }
        if let Some(game) = table {
            if bots_move(&service, &terminal, game, &opts).await? {
                break;
            }
        }
        std::io::stdout().flush().ok();
    }
    if opts.script.is_some() && failures > 0 {
        println!("({failures} lines were refused)");
    }
    Ok(())
}

/// One input line: `@name [dm] /command ...`. Returns false when refused.
async fn say(service: &Service, terminal: &Terminal, line: &str) -> anyhow::Result<bool> {
    let Some(rest) = line.strip_prefix('@') else {
        println!("  ! lines start with @name, e.g. `@alice /game join`");
        return Ok(false);
    };
    let (name, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (place, command) = match rest.trim().strip_prefix("dm ") {
        Some(c) => (Place::Dm, c),
        None => (
            Place::Channel {
                channel: TABLE_CHANNEL,
                guild: None,
            },
            rest.trim(),
        ),
    };
    let actor = Actor {
        user: user_id(name),
        name: name.to_string(),
        place,
    };
    terminal
        .names
        .lock()
        .expect("names")
        .insert(actor.user, name.to_string());
    let request = match parse_slash(command, &user_id) {
        Ok(r) => r,
        Err(e) => {
            println!("  ! (only {name} sees this) {e}");
            return Ok(false);
        }
    };
    if let Request::Replace { user, name, .. } = &request {
        terminal.names.lock().expect("names").insert(*user, name.clone());
    }
    let ok = respond(service, terminal, &actor, request).await?;
    service.deliver(terminal).await?;
    Ok(ok)
}

async fn respond(service: &Service, terminal: &Terminal, actor: &Actor, request: Request) -> anyhow::Result<bool> {
    match service.handle(actor, request).await {
        Ok(reply) => {
            show_reply(service, terminal, actor, &reply).await?;
            Ok(true)
        }
        Err(ServiceError::Internal(e)) => Err(e),
        Err(ServiceError::User(text)) => {
            println!(
                "  ! (only {} sees this) {}",
                actor.name,
                indent(&terminal.render(&text))
            );
            Ok(false)
        }
        Err(e) => {
            println!("  ! (only {} sees this) {}", actor.name, indent(&e.to_string()));
            Ok(false)
        }
    }
}

async fn show_reply(service: &Service, terminal: &Terminal, actor: &Actor, reply: &Reply) -> anyhow::Result<()> {
    let who = if reply.ephemeral {
        format!("(only {} sees this) ", actor.name)
    } else {
        String::new()
    };
    println!("  ↳ {who}{}", indent(&terminal.render(&reply.text)));
    if let Some(b) = &reply.board {
        let png = service.render(b).await?;
        let msg = OutMessage {
            target: match actor.place {
                Place::Dm => Target::Dm(actor.user),
                Place::Channel { channel, .. } => Target::Channel(channel),
            },
            text: "(board)".into(),
            board: Some(b.clone()),
            choices: vec![],
            game_over: false,
            lead: None,
            footer: None,
            slot: None,
            op: Default::default(),
            pings: Vec::new(),
        };
        terminal.send(0, &msg, Some(&png)).await?;
    }
    Ok(())
}

/// The game of this kind still in set-up or play at the table, if any (a
/// run with a database file resumes it).
async fn resumable(service: &Service, opts: &PlayOptions) -> anyhow::Result<Option<GameId>> {
    let existing = service
        .store()
        .games_in_channel(TABLE_CHANNEL)
        .await?
        .into_iter()
        .filter(|g| g.kind == opts.kind && matches!(g.status, GameStatus::Lobby | GameStatus::Active))
        .max_by_key(|g| g.id);
    if let Some(g) = &existing {
        println!(
            "Resuming game {} ({}), {} events in the log.",
            g.id,
            g.kind.name(),
            g.seq
        );
    }
    Ok(existing.map(|g| g.id))
}

/// Every seat picks uniformly among its legal orders until the game ends
/// (the first `bots` seats: the computer player's orders). Each pick is
/// drawn from a stream seeded by (seed, log position, seat), so a run
/// killed half-way and started again makes the same choices.
async fn auto(service: &Service, terminal: &Terminal, opts: &PlayOptions) -> anyhow::Result<()> {
    let store = service.store();
    let game = match resumable(service, opts).await? {
        Some(g) => g,
        None => set_up(service, terminal, opts).await?,
    };
    let mut orders = 0u64;
    loop {
        let row = store.game(game).await?.context("game vanished")?;
        if row.status == GameStatus::Lobby {
            // Stopped during set-up: seat whoever had not joined yet (the
            // same players as an uninterrupted run), then start.
            let seated = store.seats(game).await?.len();
            for name in NAMES.iter().take(opts.players as usize).skip(seated.max(1)) {
                let line = format!("@{name} /game join");
                println!("> {line}");
                say(service, terminal, &line).await?;
            }
            if !say(service, terminal, "@alice /game start").await? {
                bail!("could not start the game");
            }
            continue;
        }
        let state = row.state.clone().context("active game without state")?;
        if state.outcome().is_some() {
            return print_result(service, terminal, opts, &row).await;
        }
        if let Some(max) = opts.max_orders {
            if orders >= max {
                println!("Stopped after {orders} orders (--max-orders).");
                return Ok(());
            }
        }
        let pending = state.pending();
        let Some(p) = pending.iter().find(|p| !p.submitted) else {
            bail!("game {game} waits on nobody but is not over: {pending:?}");
        };
        let mut rng = order_rng(opts.seed, row.seq as u64, p.seat);
        // The first `bots` seats are computer players, the others random.
        let choice = if p.seat.index() < opts.bots as usize {
            state.bot_order(p.seat, opts.effort, &mut rng)
        } else {
            rng.pick(&state.legal_commands(p.seat)).cloned()
        };
        let Some(choice) = choice else {
            bail!("{} owes `{}` but has no legal order", p.seat, p.kind);
        };
        give(service, terminal, opts, game, p, &choice).await?;
        orders += 1;
    }
}

/// The generator an automatic seat draws its order from, for the seat's
/// decision at this length of the log (`examples/strength.rs` draws the
/// same, so its games are these).
fn order_rng(seed: u64, seq: u64, seat: crate::engine::Seat) -> GameRng {
    GameRng::seeded(seed ^ seq.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seat.0 as u64)
}

/// Types `choice` for the seat that owes `p`, as its player would (in DM
/// when the decision is secret), under the command that holds the order.
async fn give(
    service: &Service,
    terminal: &Terminal,
    opts: &PlayOptions,
    game: GameId,
    p: &crate::engine::Pending,
    choice: &crate::engine::CommandLine,
) -> anyhow::Result<()> {
    let seats = service.store().seats(game).await?;
    let name = seats
        .iter()
        .find(|s| s.seat == p.seat)
        .map(|s| s.name.clone())
        .context("seat without player")?;
    let dm = if p.secret { "dm " } else { "" };
    // Under the command that holds the order (`/empires-economy buy`).
    let line = format!("@{name} {dm}/{} {choice}", opts.kind.command_of(&choice.name));
    println!("> {line}");
    if !say(service, terminal, &line).await? {
        bail!("a legal order was refused: {line}");
    }
    Ok(())
}

/// The result line (and the game's size) once it is over.
async fn print_result(
    service: &Service,
    terminal: &Terminal,
    opts: &PlayOptions,
    row: &crate::store::GameRow,
) -> anyhow::Result<()> {
    let state = row.state.as_ref().context("active game without state")?;
    let seats = service.store().seats(row.id).await?;
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    println!(
        "\nResult: {}",
        terminal.render(&crate::service::compose_outcome(state, &names))
    );
    println!("Game {}: {} events, phase {}.", row.id, row.seq, state.phase().number);
    if let Some(dir) = &opts.out {
        println!(
            "Boards written to {}: {}",
            dir.display(),
            terminal.written.lock().expect("w").len()
        );
    }
    Ok(())
}

/// At the terminal table: the computer players (the last `bots` seats,
/// seated with `/host bot`) give what they owe, through the service's own
/// bot loop as on Discord (never pinged nor sent DMs), until only typed
/// seats owe anything. Returns true once the game is over (its result
/// printed).
async fn bots_move(service: &Service, terminal: &Terminal, game: GameId, opts: &PlayOptions) -> anyhow::Result<bool> {
    let never = tokio_util::sync::CancellationToken::new();
    loop {
        let played = service.play_bots_until(&never).await?;
        service.deliver(terminal).await?;
        let row = service.store().game(game).await?.context("game vanished")?;
        if row.state.as_ref().is_some_and(|s| s.outcome().is_some()) {
            print_result(service, terminal, opts, &row).await?;
            return Ok(true);
        }
        if played == 0 {
            return Ok(false);
        }
    }
}

async fn set_up(service: &Service, terminal: &Terminal, opts: &PlayOptions) -> anyhow::Result<GameId> {
    let counts = opts.kind.player_counts();
    if !counts.contains(&opts.players) {
        bail!(
            "{} is for {} to {} players",
            opts.kind.name(),
            counts.start(),
            counts.end()
        );
    }
    let host = NAMES[0];
    let mut line = format!("@{host} /game new game:{} seed:{}", opts.kind.key(), opts.seed);
    if let Some(options) = &opts.options {
        if options.contains('"') {
            bail!("--options takes `key:value` pairs separated by spaces, without quotes");
        }
        line.push_str(&format!(" options:\"{options}\""));
    }
    println!("> {line}");
    if !say(service, terminal, &line).await? {
        bail!("could not open a game");
    }
    // At the terminal table the last `bots` seats are the platform's
    // computer players, seated by the host as on Discord; with `--auto`
    // every seat is a person the CLI plays for.
    let table_bots = if opts.auto { 0 } else { opts.bots };
    for name in NAMES.iter().take((opts.players - table_bots) as usize).skip(1) {
        let line = format!("@{name} /game join");
        println!("> {line}");
        say(service, terminal, &line).await?;
    }
    for _ in 0..table_bots {
        let line = format!("@{host} /host bot level:{}", opts.level);
        println!("> {line}");
        if !say(service, terminal, &line).await? {
            bail!("could not seat a computer player");
        }
    }
    println!("> @{host} /game start");
    if !say(service, terminal, &format!("@{host} /game start")).await? {
        bail!("could not start the game");
    }
    let g = service
        .store()
        .games_in_channel(TABLE_CHANNEL)
        .await?
        .into_iter()
        .max_by_key(|g| g.id)
        .context("game not created")?;
    Ok(g.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_text_is_readable() {
        // Mon 23 Nov 2026 18:00 UTC.
        let now = 1_795_456_800_000;
        let text = Text::plain("Reminder: ")
            .strong("Hyperspace")
            .then(" game 1 in ")
            .channel(TABLE_CHANNEL)
            .then(" waits on ")
            .user(UserId(2))
            .then(": ")
            .code("/sheet ready")
            .then(". Deadline ")
            .time(now + 48 * 3_600_000)
            .then(".");
        let names = |u: UserId| {
            if u == UserId(2) {
                "bob".to_string()
            } else {
                format!("user {u}")
            }
        };
        assert_eq!(
            render(&text, now, names),
            "Reminder: Hyperspace game 1 in #table-1 waits on bob: `/sheet ready`. Deadline in 2 days, Wed 25 Nov 18:00 UTC."
        );
        let past = Text::plain("Due ").time(now - 3 * 3_600_000);
        assert_eq!(render(&past, now, names), "Due 3 hours ago, Mon 23 Nov 15:00 UTC");
    }

    #[tokio::test]
    async fn edits_print_what_changed() {
        use crate::engine::{CommandLine, GameId};
        use crate::service::{Choice, ManualClock, Slot};
        let t = Terminal::new(None, Arc::new(ManualClock::new(1_795_456_800_000)));
        t.names.lock().unwrap().insert(UserId(1), "alice".into());
        let slot = Slot::Phase { game: GameId(1) };
        let mut post = OutMessage::to_channel(TABLE_CHANNEL, "Turn 1").in_slot(slot, Op::Post);
        post.footer = Some(Text::plain("Waiting on ").user(UserId(1)));
        let Delivery::Sent(Some(at)) = t.send(1, &post, None).await.unwrap() else {
            panic!("the terminal says where it printed");
        };
        let Delivery::Sent(Some(other)) = t.send(2, &post, None).await.unwrap() else {
            panic!()
        };
        assert_ne!(at, other, "every message gets its own id");

        // An append prints its new lines and the new footer, not the old ones.
        let mut appended = post.clone();
        appended.op = Op::Append;
        appended.text = Text::plain("Turn 1\nalice departs\nalice arrives");
        appended.footer = Some(Text::plain("Waiting on bob"));
        assert_eq!(
            t.edited(&at, &appended).as_deref(),
            Some("[#table-1] alice departs\n    alice arrives\n    Waiting on bob")
        );
        // The same footer again is not repeated.
        let mut more = appended.clone();
        more.text.push_str("\nbob ends");
        assert_eq!(t.edited(&at, &more).as_deref(), Some("[#table-1] bob ends"));

        // A close prints its note; a silent close (text unchanged) nothing.
        let mut closed = more.clone();
        closed.op = Op::Close;
        closed.text.push_str("\nTurn over.");
        closed.footer = None;
        assert_eq!(t.edited(&at, &closed).as_deref(), Some("[#table-1] Turn over."));
        let mut retired = post.clone();
        retired.op = Op::Close;
        assert_eq!(t.edited(&other, &retired), None);

        // An update is the new version, marked, with its buttons.
        let mut prompt = OutMessage::to_dm(UserId(1), "Your move").in_slot(slot, Op::Update);
        prompt.choices = vec![Choice::order(GameId(1), CommandLine::new("end"), "End turn")];
        assert_eq!(
            t.edited(&at, &prompt).as_deref(),
            Some("[DM to alice] (updated) Your move\n      [buttons: End turn]")
        );
        // A message printed by an earlier run: a close prints its last line.
        let unknown = Posted { channel: 1, message: 7 };
        assert_eq!(t.edited(&unknown, &closed).as_deref(), Some("[#table-1] Turn over."));
    }
}
