//! Turning accepted events into messages. Every text and board here is
//! built from a viewer's narration or view: public posts from the public
//! one, DMs from the recipient's own.
//!
//! The channel has one post per phase ([`Slot::Phase`]): the public board
//! as the phase began, then the phase's narration, added line by line as
//! it is played, and a footer saying whom the game waits on and by when.
//! The post that begins a phase alerts exactly the players it waits on.
//! Each seat has one live prompt ([`Slot::Prompt`]): posted when a new
//! decision is asked of it, edited while that decision changes, closed
//! (controls removed, a line saying what happened) when it is answered by
//! any path.

use super::advance::Advance;
use super::message::{Act, BoardRef, Choice, Op, OutMessage, Slot};
use super::roster::Roster;
use super::text::Text;
use orrery_engine::{CommandLine, ControlStyle, Outcome, Pending, PhaseInfo, Seat, Viewer};
use orrery_games::AnyState;
use orrery_games::GameKind;
use orrery_store::{DeadlineRow, GameRow, PrivateTo, SeatRow};

/// When the decisions asked now are due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    At(i64),
    /// The clock is stopped with this much time left (ms).
    Paused(i64),
    /// No deadline runs (the game is over, or the host decides).
    Open,
}

impl Due {
    pub fn of(deadline: Option<&DeadlineRow>) -> Due {
        match deadline {
            Some(d) => match d.paused_remaining {
                Some(left) => Due::Paused(left),
                None => Due::At(d.due_at),
            },
            None => Due::Open,
        }
    }

    /// "due <moment>", "the clock is paused (3 h left)", "no deadline".
    pub fn text(self) -> Text {
        self.phrase(false)
    }

    /// [`Due::text`] starting a sentence.
    pub fn sentence(self) -> Text {
        self.phrase(true)
    }

    fn phrase(self, capital: bool) -> Text {
        let words = |w: &str| {
            if capital {
                let mut c = w.chars();
                c.next()
                    .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
            } else {
                w.to_string()
            }
        };
        match self {
            Due::At(ms) => Text::plain(words("due ")).time(ms),
            Due::Paused(left) => Text::plain(words(&format!(
                "the clock is paused ({} left)",
                super::settings::format_duration(left)
            ))),
            Due::Open => Text::plain(words("no deadline")),
        }
    }
}

/// What made the game move, for the lines that close old prompts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Cause {
    /// The game's set-up.
    Start,
    /// A player's order (by a button or typed), and its label as the
    /// seat's controls name it ([`label_of`], listed once per order).
    Order {
        seat: Seat,
        line: CommandLine,
        label: String,
    },
    /// The deadline passed (or the host forced it): drafts and defaults.
    Deadline,
    /// Drafts went in together (auto-resolve off, all ready).
    Drafts,
    /// A host tool ("replaced a player", "put a seat in civil disorder").
    Host(String),
    /// A player took back their own last order.
    TakeBack { seat: Seat },
    /// A seat resigned (or the host resigned it).
    Resigned { seat: Seat, by_host: bool },
}

/// Everything an announcement is composed from.
pub(super) struct Ctx<'a> {
    pub row: &'a GameRow,
    pub seats: &'a [SeatRow],
    pub adv: &'a Advance,
    /// When what is now asked is due.
    pub due: Due,
    pub cause: Cause,
    /// Public lines said about this change beyond the events' narration
    /// (defaults played, drafts refused), added to the current phase post.
    pub notes: Vec<Text>,
}

fn name_of(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

/// "**Starlanes** game 3 · Round 4 · alice's turn": where the game is in
/// the game's own words (the platform's phase count is for `/game history`,
/// not beside the rules' own numbering).
pub(super) fn phase_header(row: &GameRow, phase: &PhaseInfo, names: &[String]) -> Text {
    Text::new()
        .strong(row.kind.name())
        .then(format!(" game {} · {}", row.id, phase.title(names)))
}

/// The label of the control that shows its presser their prompt, hand or
/// sheet with its controls, and their own board, privately.
pub const SHOW_MY_PROMPT: &str = "📋 Show my prompt";

/// Where the alerted players find their prompts, said in a ping.
fn prompts_are(row: &GameRow, alerted: &[&SeatRow]) -> &'static str {
    let threads = alerted
        .iter()
        .filter(|s| super::settings::private_place(row, s) == PrivateTo::Thread)
        .count();
    match (threads, alerted.len()) {
        (0, 1) => "Your prompt is in your DMs, or press Show my prompt.",
        (0, _) => "Your prompts are in your DMs, or press Show my prompt.",
        (t, n) if t == n && n == 1 => "Your prompt is in your private thread, or press Show my prompt.",
        (t, n) if t == n => "Your prompts are in your private threads, or press Show my prompt.",
        _ => "Your prompts are in your DMs or private threads, or press Show my prompt.",
    }
}

/// The close of the game's live 🔔 alert, if it has one: its control goes
/// and a last line says it is over.
fn close_alert(row: &GameRow) -> OutMessage {
    OutMessage::to_channel(
        row.channel_id,
        "✓ Closed: the game moved on (the phase post says who it waits on).",
    )
    .in_slot(Slot::Alert { game: row.id }, Op::Close)
}

/// A player who asked not to be alerted (their reminders are muted).
fn quiet(s: &SeatRow) -> bool {
    s.reminders.as_deref().is_some_and(<[i64]>::is_empty)
}

/// Who the game waits on, by name (mentioned where the transport can),
/// and by when: the footer of a phase post. Returns the players it alerts:
/// those who owe and have not answered, unless automatic or quiet.
pub(super) fn waiting_footer(
    game: GameKind,
    pending: &[Pending],
    seats: &[SeatRow],
    due: Due,
) -> (Text, Vec<orrery_engine::UserId>) {
    let mut pings = Vec::new();
    if pending.is_empty() {
        return (Text::new(), pings);
    }
    let mut text = Text::plain("Waiting on: ");
    let disclosed = Pending::disclosed(pending);
    for (i, p) in disclosed.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let seat = seats.iter().find(|s| s.seat == p.seat);
        match seat {
            // A computer player: its name, never a mention or a ping.
            Some(s) if s.is_bot() => text.push_str(&s.name),
            Some(s) if !s.automatic() => {
                text.append(Text::new().mention(s.user, s.name.clone()));
                if !p.submitted && !quiet(s) && !pings.contains(&s.user) {
                    pings.push(s.user);
                }
            }
            Some(s) => text.push_str(&format!("{} (civil disorder)", s.name)),
            None => text.push_str(&p.seat.to_string()),
        }
        let done = if p.submitted { ", ✓ ready" } else { "" };
        text.push_str(&format!(" ({}{done})", game.decision_name(&p.kind)));
    }
    if let Some(hidden) = undisclosed_words(game, pending) {
        if !disclosed.is_empty() {
            text.push_str(", ");
        }
        text.push_str(&hidden);
    }
    text.push_str(" · ");
    text.append(due.text());
    (text, pings)
}

/// The public narration of `events`, one line each, but for the event that
/// ended the game (`end`): the result post says that, once.
fn narration(events: &[orrery_games::AnyEvent], names: &[String], end: Option<&orrery_games::AnyEvent>) -> Vec<String> {
    events
        .iter()
        .filter(|e| !end.is_some_and(|x| std::ptr::eq(x, *e)))
        .filter_map(|e| e.narrate(Viewer::Public, names))
        .collect()
}

/// The event of `events` (applied after `before`) with which the game
/// ended, if it ended there.
fn end_event<'a>(before: &AnyState, events: &'a [orrery_games::AnyEvent]) -> Option<&'a orrery_games::AnyEvent> {
    if before.outcome().is_some() {
        return None;
    }
    let mut s = before.clone();
    for e in events {
        if s.apply(e).is_err() {
            return None;
        }
        if s.outcome().is_some() {
            return Some(e);
        }
    }
    None
}

/// The result: who won and why, then every player's final standing.
fn result_text(outcome: &orrery_engine::Outcome, state: &AnyState, names: &[String]) -> Text {
    let mut t = outcome_line(outcome, names);
    let standings = state.standings();
    if !standings.is_empty() {
        let parts: Vec<String> = standings
            .iter()
            .enumerate()
            .map(|(i, (seat, what))| format!("{}. {} — {what}", i + 1, name_of(names, *seat)))
            .collect();
        t.push_str(&format!("\nFinal standings: {}.", parts.join(" · ")));
    }
    t
}

fn lines(parts: &[String], notes: &[Text]) -> Text {
    let mut t = Text::new();
    for (i, l) in parts.iter().enumerate() {
        if i > 0 {
            t.push('\n');
        }
        t.push_str(l);
    }
    for n in notes {
        if !t.is_empty() {
            t.push('\n');
        }
        t.append(n.clone());
    }
    t
}

/// Compose what must be announced after the context's events.
pub(super) fn after_action(ctx: &Ctx) -> Vec<OutMessage> {
    let Ctx {
        row,
        seats,
        adv,
        due,
        cause,
        notes,
    } = ctx;
    let names = seats.names();
    let phase_slot = Slot::Phase { game: row.id };
    let (before, state, events) = (&adv.before, &adv.state, &adv.events);
    let starting = *cause == Cause::Start;
    let mut boundaries = adv.boundaries.clone();
    if starting && boundaries.is_empty() {
        boundaries.push((adv.seq(), state.phase()));
    }
    let pending = state.pending();
    let outcome = state.outcome().filter(|_| before.outcome().is_none());
    let mut out = Vec::new();

    // The events of each phase: before the first boundary (the phase that
    // was running), then after each boundary.
    let cut = |seq: i64| (seq - adv.base_seq).clamp(0, events.len() as i64) as usize;
    let mut segments: Vec<&[orrery_games::AnyEvent]> = Vec::new();
    let mut from = 0;
    for (seq, _) in &boundaries {
        let to = cut(*seq);
        segments.push(&events[from..to]);
        from = to;
    }
    segments.push(&events[from..]);
    let end = outcome.as_ref().and_then(|_| end_event(before, events));
    let public = |i: usize| {
        if starting {
            Vec::new()
        } else {
            narration(segments[i], &names, end)
        }
    };

    // The running phase's post: its new lines, and its footer.
    let (footer, pings) = waiting_footer(row.kind, &pending, seats, *due);
    if boundaries.is_empty() {
        let new_lines = lines(&public(0), notes);
        let before_pending = before.pending();
        let (old_footer, _) = waiting_footer(row.kind, &before_pending, seats, *due);
        // Seats the game waited on before this change, as everyone may
        // know it: the channel's posts never depend on who owes a decision
        // whose owers are secret.
        let was: Vec<Seat> = Pending::disclosed(&before_pending)
            .iter()
            .filter(|p| !p.submitted)
            .map(|p| p.seat)
            .collect();
        let public_pending = Pending::disclosed(&pending);
        // The post's board is redrawn as the game turns to someone new, so
        // whoever is asked to act sees the board as it stands (not after
        // every order: boards stay light). Delivery replaces the picture
        // only when it would draw something else than the one shown (the
        // orders since it was drawn may have changed it, or not). A game
        // that ends gets its result post with the final board instead.
        let turned = public_pending.iter().any(|p| !p.submitted && !was.contains(&p.seat));
        let redrawn = outcome.is_none() && turned;
        if !new_lines.is_empty() || old_footer != footer || outcome.is_some() || redrawn {
            let mut m = OutMessage::to_channel(row.channel_id, new_lines).in_slot(phase_slot, Op::Append);
            m.footer = Some(if outcome.is_some() { Text::new() } else { footer.clone() });
            if redrawn {
                m.board = Some(BoardRef {
                    game: row.id,
                    viewer: Viewer::Public,
                    seq: adv.seq(),
                });
            }
            out.push(m);
        }
        // Seats the game now waits on that it did not before are alerted.
        // A player who un-readies their own sheet knows it already.
        let actor = match cause {
            Cause::Order { seat, .. } => Some(*seat),
            _ => None,
        };
        let newly: Vec<&Pending> = public_pending
            .iter()
            .filter(|p| !p.submitted && !was.contains(&p.seat) && Some(p.seat) != actor)
            .collect();
        let alert: Vec<&SeatRow> = newly
            .iter()
            .filter_map(|p| seats.iter().find(|s| s.seat == p.seat && !s.unattended() && !quiet(s)))
            .collect();
        // A seat the game waited on answered (or the game ended): an
        // earlier alert is over. (Delivered only if one is live.)
        let owing_now: Vec<Seat> = public_pending.iter().filter(|p| !p.submitted).map(|p| p.seat).collect();
        // So is one a new alert follows (it would otherwise lose its
        // control without a word).
        if outcome.is_some() || was.iter().any(|s| !owing_now.contains(s)) || !alert.is_empty() {
            out.push(close_alert(row));
        }
        if !alert.is_empty() && outcome.is_none() {
            let mut text = Text::plain("🔔 ");
            for (i, s) in alert.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.append(Text::new().mention(s.user, s.name.clone()));
            }
            let kinds: Vec<String> = newly.iter().map(|p| row.kind.decision_name(&p.kind)).collect();
            text.push_str(&format!(": game {} waits on you ({}), ", row.id, kinds.join(", ")));
            text.append(due.text());
            text.push_str(". ");
            text.push_str(prompts_are(row, &alert));
            let mut m = OutMessage::to_channel(row.channel_id, text).in_slot(Slot::Alert { game: row.id }, Op::Post);
            m.pings = alert.iter().map(|s| s.user).collect();
            m.choices = vec![Choice::act(row.id, Act::Board, SHOW_MY_PROMPT)];
            out.push(m);
        }
    } else {
        let mut closing = lines(&public(0), &[]);
        // A finished phase post ends with what happened, even when nothing
        // of it was public (sheets carried out in secret).
        if closing.is_empty() && !starting {
            closing = Text::plain("✓ Over: the orders were carried out.");
        }
        if !closing.is_empty() || !starting {
            let mut m = OutMessage::to_channel(row.channel_id, closing).in_slot(phase_slot, Op::Append);
            m.footer = Some(Text::new());
            out.push(m);
        }
        // Phases that began and ended within this one change get no post
        // of their own: the last one's post tells all that followed the
        // first boundary, on the board of the phase now running.
        let (seq, phase) = boundaries.last().expect("not empty");
        let mut text = phase_header(row, phase, &names);
        let said: Vec<String> = (1..segments.len()).flat_map(public).collect();
        let body = lines(&said, notes);
        if !body.is_empty() {
            text.push('\n');
            text.append(body);
        }
        let mut m = OutMessage {
            board: Some(BoardRef {
                game: row.id,
                viewer: Viewer::Public,
                seq: *seq,
            }),
            ..OutMessage::to_channel(row.channel_id, text)
        }
        .in_slot(phase_slot, Op::Post);
        if let Some(o) = &outcome {
            m.text.push('\n');
            m.text.append(result_text(o, state, &names));
            m.game_over = true;
        } else {
            m.footer = Some(footer.clone());
            m.pings = pings.clone();
            if !pending.is_empty() {
                m.choices = vec![Choice::act(row.id, Act::Board, SHOW_MY_PROMPT)];
            }
        }
        out.push(m);
        // A new phase: any alert of the last one is over (a game just set
        // up has had none).
        if !starting {
            out.push(close_alert(row));
        }
    }
    // A game that ends without a new phase still gets its one result post
    // with the final board.
    if let (Some(o), true) = (&outcome, boundaries.is_empty()) {
        out.push(
            OutMessage {
                board: Some(BoardRef {
                    game: row.id,
                    viewer: Viewer::Public,
                    seq: adv.seq(),
                }),
                game_over: true,
                ..OutMessage::to_channel(row.channel_id, result_text(o, state, &names))
            }
            .in_slot(phase_slot, Op::Post),
        );
    }

    // Fog games: each seat's own board as each phase begins (on its new
    // prompt when it gets one, else in a DM of its own), and at the end.
    let private_seq = if !row.kind.private_boards() {
        None
    } else if outcome.is_some() {
        Some(adv.seq())
    } else {
        boundaries.last().map(|(seq, _)| *seq)
    };
    let private_board = |seat: Seat| {
        private_seq.map(|seq| BoardRef {
            game: row.id,
            viewer: Viewer::Seat(seat),
            seq,
        })
    };
    // A seat's own board, when there is one to send: as the game starts,
    // at its end, or when what the seat knows changed (never only to say
    // nothing is asked). Views are compared only then.
    let own_board = |seat: Seat| {
        private_board(seat).filter(|_| starting || outcome.is_some() || state.news_since(before, Viewer::Seat(seat)))
    };

    // Each seat's prompt.
    let before_pending = before.pending();
    for s in seats.iter().filter(|s| !s.vacant) {
        let was = before_pending.iter().find(|p| p.seat == s.seat);
        let now = pending.iter().find(|p| p.seat == s.seat).filter(|_| outcome.is_none());
        let own = own_lines(events, s.seat, &names);
        let acted = match cause {
            Cause::Order { seat, label, .. } if *seat == s.seat => Some(label.clone()),
            _ => None,
        };
        let slot = Slot::Prompt {
            game: row.id,
            seat: s.seat,
        };
        let fresh = now.is_some_and(|p| new_prompt(was, p, starting || !boundaries.is_empty(), acted.is_some()));
        let mut told = false;
        let mut boarded = false;
        match now {
            Some(p) if fresh => {
                if was.is_some() || !starting {
                    out.push(close(s, slot, closing_line(cause, acted.as_deref(), s.seat)));
                }
                let mut m = prompt(row, state, p, s, seats, *due);
                // What happened to this seat leads the new prompt and stays
                // there while the prompt is edited (its sheet written).
                let lead: Vec<String> = acted
                    .iter()
                    .map(|l| format!("✅ You chose: {l}"))
                    .chain(own.iter().cloned())
                    .collect();
                m.lead = (!lead.is_empty()).then(|| Text::plain(lead.join("\n")));
                m.choices.extend(take_back_choice(ctx, s.seat));
                m.board = own_board(s.seat);
                out.push(m);
                told = true;
                boarded = true;
            }
            Some(p) => {
                let changed = was != Some(p) || acted.is_some() || !own.is_empty() || !boundaries.is_empty();
                if changed {
                    let mut m = prompt(row, state, p, s, seats, *due);
                    if let (Some(line), true) = (&ctx_line(cause, s.seat), p.submitted) {
                        for c in m.choices.iter_mut() {
                            c.current = c.act == Act::Order && &c.command == line;
                        }
                    }
                    prepend(&mut m.text, &own, acted.as_deref());
                    m.choices.extend(take_back_choice(ctx, s.seat));
                    m.op = Op::Update;
                    out.push(m);
                    told = true;
                }
            }
            None if was.is_some() => {
                let mut note = closing_line(cause, acted.as_deref(), s.seat);
                if !own.is_empty() {
                    note = Text::plain(own.join("\n")).then("\n").and(note);
                }
                out.push(close(s, slot, note));
                told = true;
            }
            None => {}
        }
        // A seat asked nothing gets its board when what it knows changed
        // (and at the end), not to hear that nothing is asked.
        if let Some(board) = (!boarded).then(|| own_board(s.seat)).flatten() {
            let phase = state.phase();
            let mut text = phase_header(row, &phase, &names);
            text.push_str(if outcome.is_some() {
                "\nYour board at the end of the game."
            } else {
                "\nYour board: what you know changed. You have no order to give in this section."
            });
            if !told && !own.is_empty() && !starting {
                text.push('\n');
                text.push_str(&own.join("\n"));
                told = true;
            }
            out.push(OutMessage {
                board: Some(board),
                ..OutMessage::to_dm(s.user, text)
            });
        }
        // What only this seat may learn, when no prompt carries it.
        if !told && !own.is_empty() && !starting {
            out.push(OutMessage::to_dm(
                s.user,
                Text::new()
                    .strong(row.kind.name())
                    .then(format!(" game {} (", row.id))
                    .channel(row.channel_id)
                    .then(format!("): {}", own.join("\n"))),
            ));
        }
    }
    out
}

/// Whether a seat that owes `now` is sent a new prompt (its old one
/// closed) rather than its live one updated in place: when a phase begins
/// (`new_phase`, or the game starting), when the decision is new or of
/// another kind, when it had already submitted, or when what it is asked
/// changed by something other than its own order (`acted`). A seat that
/// has submitted and waits on others keeps its prompt.
fn new_prompt(was: Option<&Pending>, now: &Pending, new_phase: bool, acted: bool) -> bool {
    !now.submitted
        && (new_phase
            || was.is_none_or(|w| {
                w.kind != now.kind || (w.submitted && !(now.sheet && acted)) || (w.prompt != now.prompt && !acted)
            }))
}

fn ctx_line(cause: &Cause, seat: Seat) -> Option<CommandLine> {
    match cause {
        Cause::Order { seat: s, line, .. } if *s == seat => Some(line.clone()),
        _ => None,
    }
}

/// The phase post's footer and the owing seats' prompts after the
/// deadline moved (paused, resumed, extended): they say by when, so they
/// are edited to stay true.
pub(super) fn deadline_moved(row: &GameRow, seats: &[SeatRow], state: &AnyState, due: Due) -> Vec<OutMessage> {
    let pending = state.pending();
    let (footer, _) = waiting_footer(row.kind, &pending, seats, due);
    let mut m = OutMessage::to_channel(row.channel_id, Text::new()).in_slot(Slot::Phase { game: row.id }, Op::Append);
    m.footer = Some(footer);
    let mut out = vec![m];
    for p in &pending {
        if let Some(s) = seats.iter().find(|s| s.seat == p.seat && !s.vacant) {
            let mut prompt = prompt(row, state, p, s, seats, due);
            prompt.op = Op::Update;
            out.push(prompt);
        }
    }
    out
}

/// The lines of `events` only `seat` learns (its own secrets).
fn own_lines(events: &[orrery_games::AnyEvent], seat: Seat, names: &[String]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| {
            let mine = e.narrate(Viewer::Seat(seat), names)?;
            (e.narrate(Viewer::Public, names).as_deref() != Some(mine.as_str())).then_some(mine)
        })
        .collect()
}

fn prepend(text: &mut Text, own: &[String], acted: Option<&str>) {
    let mut head = Text::new();
    if let Some(label) = acted {
        head.push_str(&format!("✅ You chose: {label}\n"));
    }
    for l in own {
        head.push_str(l);
        head.push('\n');
    }
    if !head.is_empty() {
        *text = head.and(std::mem::take(text));
    }
}

/// How the order `line` of `seat` read as a control, at `state`.
pub(super) fn label_of(state: &AnyState, seat: Seat, line: &CommandLine, names: &[String]) -> String {
    state
        .legal_controls(seat, names)
        .into_iter()
        .find(|(c, _)| c == line)
        .map_or_else(
            // An order no control offers (one given at any time, such as
            // standing orders): named in words, not in its typed form.
            || format!("your {} order", line.name.replace(['-', '_'], " ")),
            |(_, control)| bare_label(&control.label).to_string(),
        )
}

/// A control's label without the symbol it starts with ("✅ Sheet ready" →
/// "Sheet ready"), for echoes that carry their own ("✅ You chose: …").
pub fn bare_label(label: &str) -> &str {
    let rest = label.trim_start_matches(|c: char| !c.is_ascii() && !c.is_alphanumeric());
    match rest.trim_start() {
        "" => label,
        bare => bare,
    }
}

/// The line that closes an older prompt of `seat`: what happened to it.
fn closing_line(cause: &Cause, acted: Option<&str>, seat: Seat) -> Text {
    if let Some(label) = acted {
        return Text::plain(format!("✅ You chose: {label}"));
    }
    match cause {
        Cause::Deadline => Text::plain("⏰ Closed: the deadline passed and the game moved on."),
        Cause::Drafts => Text::plain("✅ Your draft went in with everyone's."),
        Cause::Host(what) => Text::plain(format!("Closed: the host {what}.")),
        Cause::TakeBack { seat: s } if *s == seat => Text::plain("↩ You took this back."),
        Cause::Resigned { seat: s, by_host: true } if *s == seat => {
            Text::plain("🏳️ Closed: the host resigned you from the game.")
        }
        Cause::Resigned { seat: s, .. } if *s == seat => Text::plain("🏳️ Closed: you resigned from the game."),
        _ => Text::plain("Closed: the game moved on."),
    }
}

fn close(seat: &SeatRow, slot: Slot, note: Text) -> OutMessage {
    OutMessage::to_dm(seat.user, note).in_slot(slot, Op::Close)
}

/// A "Take back" control for `seat` when its order just given may be
/// taken back: every event of it allows it, and it is still this seat's
/// turn, openly and alone.
fn take_back_choice(ctx: &Ctx, seat: Seat) -> Option<Choice> {
    let Cause::Order { seat: s, .. } = &ctx.cause else {
        return None;
    };
    let pending = ctx.adv.state.pending();
    let ok = *s == seat
        && !ctx.adv.events.is_empty()
        && ctx.adv.events.iter().all(|e| e.takes_back())
        && pending.iter().any(|p| p.seat == seat && !p.secret)
        && pending.iter().all(|p| p.seat == seat || p.submitted);
    ok.then(|| Choice::act(ctx.row.id, Act::TakeBack, "↩ Take back"))
}

/// A seat's prompt: the game and phase, what is asked, by when, where the
/// game is played, and a control for each legal order (plus one to see
/// the seat's own board). Posted into the seat's prompt slot.
pub(super) fn prompt(
    row: &GameRow,
    state: &AnyState,
    p: &Pending,
    seat: &SeatRow,
    seats: &[SeatRow],
    due: Due,
) -> OutMessage {
    let names = seats.names();
    let mut text = phase_header(row, &state.phase(), &names);
    text.push('\n');
    text.push_str(&p.prompt);
    if let Some(lines) = state.sheet_lines(p.seat, &names) {
        if lines.is_empty() {
            text.push_str("\nYour sheet is empty.");
        } else {
            text.push_str(&format!("\nYour sheet ({}):", lines.len()));
            for l in lines {
                text.push('\n');
                text.push_str(&l);
            }
        }
    }
    if p.sheet {
        text.push_str(if p.submitted {
            "\n✅ Your sheet is ready. Editing it, or Un-ready, takes that back while others still write."
        } else {
            "\nAdd lines with the menus below (or type the game's orders); mark the sheet ready when it is done. At the deadline it counts as it stands."
        });
    } else if p.submitted {
        text.push_str("\nYour choice is in (marked ✓). You can change it until everyone has chosen.");
    }
    let footer = Text::plain("⏳ ")
        .and(due.sentence())
        .then(" · played in ")
        .channel(row.channel_id);
    let position = Some(state.phase().number);
    let mut choices: Vec<Choice> = state
        .legal_controls(p.seat, &names)
        .into_iter()
        .map(|(command, control)| Choice {
            label: control.label,
            game: row.id,
            command,
            style: control.style,
            group: control.group,
            confirm: control.confirm,
            current: false,
            act: Act::Order,
            position,
        })
        .collect();
    choices.sort_by_key(|c| style_rank(c.style));
    choices.push(Choice::act(row.id, Act::Board, "🗺 My board"));
    OutMessage {
        footer: Some(footer),
        choices,
        ..OutMessage::to_dm(seat.user, text)
    }
    .in_slot(
        Slot::Prompt {
            game: row.id,
            seat: p.seat,
        },
        Op::Post,
    )
}

/// The minor choices come after the main ones, the ending ones last.
fn style_rank(style: ControlStyle) -> u8 {
    match style {
        ControlStyle::Main => 0,
        ControlStyle::Minor => 1,
        ControlStyle::End | ControlStyle::Done => 2,
    }
}

pub fn waiting_line(game: GameKind, pending: &[Pending], names: &[String]) -> String {
    if pending.is_empty() {
        return "nobody".into();
    }
    Pending::disclosed(pending)
        .iter()
        .map(|p| {
            let name = name_of(names, p.seat);
            let done = if p.submitted { ", ready" } else { "" };
            format!("{name} ({}{done})", game.decision_name(&p.kind))
        })
        .chain(undisclosed_words(game, pending))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The decisions of `pending` whose owers are secret, as public words that
/// name and count nobody: "the players concerned (combat sheet, each
/// asked in private)". Where in private (DMs or a thread) is each
/// player's setting, so it is not said here.
fn undisclosed_words(game: GameKind, pending: &[Pending]) -> Option<String> {
    let mut kinds: Vec<String> = pending
        .iter()
        .filter(|p| p.undisclosed)
        .map(|p| game.decision_name(&p.kind))
        .collect();
    kinds.dedup();
    (!kinds.is_empty()).then(|| format!("the players concerned ({}, each asked in private)", kinds.join(", ")))
}

pub fn outcome_line(outcome: &Outcome, names: &[String]) -> Text {
    let name = |s: &Seat| name_of(names, *s);
    match outcome {
        Outcome::Winner { seat, reason } => Text::plain("🏆 Game over: ")
            .strong(name(seat))
            .then(format!(" wins — {reason}")),
        Outcome::Shared { seats, reason } => Text::plain(format!(
            "🏆 Game over: shared victory for {} — {reason}",
            seats.iter().map(name).collect::<Vec<_>>().join(" and ")
        )),
        Outcome::AllLose { reason } => Text::plain(format!("💀 Game over: everyone loses — {reason}")),
    }
}

impl super::Service {
    /// When the decisions of `row` are due, as its deadline read with it
    /// says.
    pub(super) async fn due_of(&self, row: &GameRow) -> Result<Due, super::ServiceError> {
        Ok(Due::of(row.deadline.as_ref()))
    }

    /// When the decisions are due after a change that sets `change`.
    pub(super) async fn due_after(
        &self,
        row: &GameRow,
        change: &orrery_store::DeadlineChange,
    ) -> Result<Due, super::ServiceError> {
        use orrery_store::DeadlineChange as D;
        Ok(match change {
            D::Set(d) | D::Update(d, _) => match d.paused_remaining {
                Some(left) => Due::Paused(left),
                None => Due::At(d.due_at),
            },
            D::Clear => Due::Open,
            D::Keep | D::Reminded(_) => self.due_of(row).await?,
        })
    }

    /// What `seat` is asked now, as a refused stale control tells it: "Your
    /// current prompt:" and the prompt's text, or who the game waits on.
    pub(super) async fn current_prompt_text(
        &self,
        row: &GameRow,
        state: &AnyState,
        seats: &[SeatRow],
        seat: Seat,
    ) -> Result<Text, super::ServiceError> {
        let pending = state.pending();
        let (Some(p), Some(s)) = (
            pending.iter().find(|p| p.seat == seat),
            seats.iter().find(|s| s.seat == seat),
        ) else {
            return Ok(Text::plain(format!(
                "Nothing is asked of you right now; the game is waiting on {}.",
                waiting_line(state.kind(), &pending, &seats.names())
            )));
        };
        let due = self.due_of(row).await?;
        let m = prompt(row, state, p, s, seats, due);
        Ok(Text::plain("Your current prompt:\n").and(m.full_text()))
    }

    /// The asker's pending prompt in a game again, with its controls,
    /// privately (a button's menu of one group, `/game prompt`).
    pub(super) async fn my_prompt(
        &self,
        actor: &super::Actor,
        game: Option<orrery_engine::GameId>,
    ) -> Result<super::Reply, super::ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let Some(seat) = seats.iter().find(|s| s.played_by(actor.user)) else {
            return super::user_err(format!("You are not playing in game {}.", row.id));
        };
        let state = self.state_of(&row)?;
        let Some(p) = state.pending().into_iter().find(|p| p.seat == seat.seat) else {
            return super::user_err(format!(
                "Game {} is not waiting on you right now; it waits on {}.",
                row.id,
                waiting_line(state.kind(), &state.pending(), &seats.names())
            ));
        };
        let due = self.due_of(&row).await?;
        let m = prompt(&row, &state, &p, seat, &seats, due);
        Ok(super::Reply {
            text: m.full_text(),
            ephemeral: true,
            board: None,
            choices: m.choices,
            only_ack: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owes(kind: &str, prompt: &str, submitted: bool) -> Pending {
        Pending {
            seat: Seat(0),
            kind: kind.into(),
            prompt: prompt.into(),
            secret: false,
            submitted,
            sheet: false,
            undisclosed: false,
        }
    }

    #[test]
    fn every_outcome_has_its_result_line() {
        let names = vec!["alice".to_string(), "bob".to_string()];
        let line = |o: Outcome| outcome_line(&o, &names).to_plain();
        assert_eq!(
            line(Outcome::Winner {
                seat: Seat(1),
                reason: "6 VP".into()
            }),
            "🏆 Game over: bob wins — 6 VP"
        );
        assert_eq!(
            line(Outcome::Shared {
                seats: vec![Seat(0), Seat(1)],
                reason: "tied".into()
            }),
            "🏆 Game over: shared victory for alice and bob — tied"
        );
        let all_lose = Outcome::AllLose {
            reason: "the robots of Earth rebelled".into(),
        };
        assert!(all_lose.winners().is_empty());
        assert_eq!(
            line(all_lose),
            "💀 Game over: everyone loses — the robots of Earth rebelled"
        );
    }

    #[test]
    fn decisions_whose_owers_are_secret_name_nobody() {
        let names = vec!["alice".to_string(), "bob".to_string()];
        let sheet = |seat: u8, submitted: bool, undisclosed: bool| Pending {
            seat: Seat(seat),
            secret: true,
            sheet: true,
            undisclosed,
            ..owes("combat", "Aim your shots", submitted)
        };
        let line = |p: &[Pending]| waiting_line(GameKind::Spectrum, p, &names);
        // Named and marked when anyone may know who owes.
        assert_eq!(
            line(&[sheet(0, true, false), sheet(1, false, false)]),
            "alice (combat sheet, ready), bob (combat sheet)"
        );
        // Who owes, and who is ready, is the same text whoever it is.
        let hidden = "the players concerned (combat sheet, each asked in private)";
        assert_eq!(line(&[sheet(1, false, true)]), hidden);
        assert_eq!(line(&[sheet(0, true, true), sheet(1, false, true)]), hidden);
    }

    #[test]
    fn a_prompt_is_new_only_when_the_question_is() {
        let turn = owes("turn", "Move or end", false);
        // A new decision, or one begun with the phase: a new prompt.
        assert!(new_prompt(None, &turn, false, false));
        assert!(new_prompt(Some(&turn), &turn, true, false));
        assert!(new_prompt(
            Some(&owes("losses", "Move or end", false)),
            &turn,
            false,
            false
        ));
        // The same decision after one's own order: the prompt is updated,
        // even though what it asks changed.
        assert!(!new_prompt(Some(&turn), &turn, false, true));
        assert!(!new_prompt(Some(&owes("turn", "Before", false)), &turn, false, true));
        // Changed by someone else's order: asked anew.
        assert!(new_prompt(Some(&owes("turn", "Before", false)), &turn, false, false));
        // A pick already made: the prompt stays, marked, while others pick.
        let picked = owes("combat-card", "Pick", true);
        assert!(!new_prompt(
            Some(&owes("combat-card", "Pick", false)),
            &picked,
            false,
            true
        ));
        assert!(!new_prompt(Some(&picked), &picked, true, false));
        // Owed again after a submission (a revealed tie, a new round).
        assert!(new_prompt(
            Some(&picked),
            &owes("combat-card", "Pick", false),
            false,
            false
        ));
    }
}
