//! Computer players through the service (issue 31): seated by the host in
//! the lobby, refused clearly where they don't fit (not the host, a full
//! lobby, after the start, civil disorder), handed a seat in play and
//! handing it back; their decisions played by `Service::play_bots_until`
//! (what the bot loop runs) through the one commit path, narrated like
//! anyone's, never a private message, a ping or a mention for them; a
//! table of computer players alone plays nothing by itself.

use crate::common::*;
use orrery::engine::{GameId, Seat, UserId};
use orrery::games::GameKind;
use orrery::service::{OutMessage, Request, SeatRef, Service, Slot, Span, Target};
use orrery::store::{bot_user, is_bot_user, BotLevel, GameStatus};
use tokio_util::sync::CancellationToken;

const CH: u64 = 900;

fn alice() -> orrery::service::Actor {
    at(CH, 1, "alice")
}

fn bob() -> orrery::service::Actor {
    at(CH, 2, "bob")
}

fn add_bot(level: BotLevel) -> Request {
    Request::AddBot { game: None, level }
}

async fn lobby(svc: &Service, kind: GameKind) -> GameId {
    ok(
        svc,
        &alice(),
        Request::New {
            kind,
            seed: Some(3),
            options: None,
            private: None,
        },
    )
    .await;
    svc.store().games_in_channel(CH).await.unwrap()[0].id
}

/// A game of `kind` for alice and a computer player at easy, started.
async fn solo(svc: &Service, kind: GameKind) -> GameId {
    let game = lobby(svc, kind).await;
    ok(svc, &alice(), add_bot(BotLevel::Easy)).await;
    ok(svc, &alice(), Request::Start { game: None }).await;
    game
}

/// Nothing queued is for a computer player, pings one or mentions one.
fn assert_no_bot_touched(out: &[OutMessage]) {
    for m in out {
        if let Target::Dm(u) = m.target {
            assert!(!is_bot_user(u), "a private message to a computer player: {:?}", m.text);
        }
        assert!(
            m.pings.iter().all(|u| !is_bot_user(*u)),
            "a ping of a computer player: {m:?}"
        );
        for t in [Some(&m.text), m.lead.as_ref(), m.footer.as_ref()]
            .into_iter()
            .flatten()
        {
            for s in t.spans() {
                if let Span::Mention { user, .. } | Span::User(user) = s {
                    assert!(!is_bot_user(*user), "a mention of a computer player: {m:?}");
                }
            }
        }
    }
}

/// The channel's text among `out`.
fn channel_text(out: &[OutMessage]) -> String {
    out.iter()
        .filter(|m| m.target == Target::Channel(CH))
        .map(|m| m.full_text().to_plain())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Play: alice's decisions by a fixed rule, the computer players' by the
/// bot loop's pass, until `people` orders were given by alice or the game
/// ends. Returns the orders the computer players gave.
async fn play_solo(svc: &Service, game: GameId, people: usize) -> usize {
    let stop = CancellationToken::new();
    let (mut given, mut bots) = (0, 0);
    for _ in 0..10_000 {
        let row = svc.store().game(game).await.unwrap().unwrap();
        if row.status != GameStatus::Active || given >= people {
            break;
        }
        let st = row.state.unwrap();
        let p = st.pending().into_iter().find(|p| !p.submitted).expect("someone owes");
        if p.seat == Seat(0) {
            let (seat, line) = next_order(&st, |legal| (given * 5) % legal.len()).unwrap();
            assert_eq!(seat, Seat(0));
            ok(svc, &alice(), order(game, &line)).await;
            given += 1;
        } else {
            let played = svc.play_bots_until(&stop).await.unwrap();
            assert!(played > 0, "the computer player owes a decision and played none");
            bots += played;
        }
    }
    bots
}

#[tokio::test]
async fn the_host_seats_computer_players_in_the_lobby_and_refusals_change_nothing() {
    let (svc, _) = service("bots-lobby").await;
    let game = lobby(&svc, GameKind::Starlanes).await;
    ok(&svc, &bob(), Request::Join { game: None }).await;

    let msg = refused(&svc, &bob(), add_bot(BotLevel::Normal)).await;
    assert!(msg.contains("Only the host"), "{msg}");
    let reply = ok(&svc, &alice(), add_bot(BotLevel::Easy)).await;
    assert!(reply.text.to_plain().contains("🤖 Bot-1 (easy)"), "{:?}", reply.text);
    let reply = ok(&svc, &alice(), add_bot(BotLevel::Normal)).await;
    assert!(reply.text.to_plain().contains("🤖 Bot-2 (normal)"), "{:?}", reply.text);
    let seats = svc.store().seats(game).await.unwrap();
    assert_eq!(
        seats.iter().map(|s| (s.name.as_str(), s.bot)).collect::<Vec<_>>(),
        [
            ("alice", None),
            ("bob", None),
            ("🤖 Bot-1", Some(BotLevel::Easy)),
            ("🤖 Bot-2", Some(BotLevel::Normal))
        ]
    );
    assert!(is_bot_user(seats[2].user) && is_bot_user(seats[3].user));

    // Starlanes seats 4 at most: the lobby is full.
    let msg = refused(&svc, &alice(), add_bot(BotLevel::Hard)).await;
    assert_eq!(msg, format!("Game {game} is full (4 players)."));
    // Handing a seat in the lobby is not how it works.
    let msg = refused(
        &svc,
        &alice(),
        Request::ReplaceBot {
            game: None,
            seat: SeatRef::Number(Seat(1)),
            level: BotLevel::Easy,
        },
    )
    .await;
    assert!(msg.contains("without `seat:`"), "{msg}");
    assert_eq!(svc.store().seats(game).await.unwrap(), seats, "refusals change nothing");

    // The host removes one as they remove a player (by its name, without the 🤖).
    ok(
        &svc,
        &alice(),
        Request::Kick {
            game: None,
            seat: SeatRef::Name("bot-1".into()),
        },
    )
    .await;
    let names: Vec<String> = svc
        .store()
        .seats(game)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["alice", "bob", "🤖 Bot-2"]);
    // The next one takes the free number.
    ok(&svc, &alice(), add_bot(BotLevel::Hard)).await;
    let last = svc.store().seats(game).await.unwrap().pop().unwrap();
    assert_eq!(
        (last.name.as_str(), last.user, last.bot),
        ("🤖 Bot-1", bot_user(1), Some(BotLevel::Hard))
    );

    ok(&svc, &alice(), Request::Start { game: None }).await;
    let msg = refused(&svc, &alice(), add_bot(BotLevel::Normal)).await;
    assert!(
        msg.contains("has already started") && msg.contains("/host bot seat:"),
        "{msg}"
    );
    let out = sent(&svc).await;
    assert_no_bot_touched(&out);
    assert!(!out.is_empty());
}

#[tokio::test]
async fn a_solo_game_runs_with_computer_players_who_are_never_messaged_or_pinged() {
    let (svc, _) = service("bots-solo").await;
    let game = solo(&svc, GameKind::Starlanes).await;
    let bots = play_solo(&svc, game, 12).await;
    assert!(bots >= 3, "the computer player played {bots} orders");
    let out = sent(&svc).await;
    assert_no_bot_touched(&out);
    // Its orders are narrated in the channel under its name.
    let text = channel_text(&out);
    // ("🤖 Bot-1 moved 3 from Altair to Spica.", "🤖 Bot-1 ended their turn.")
    let narrated = text.lines().filter(|l| l.starts_with("🤖 Bot-1 ")).count();
    assert!(narrated >= 3, "the computer player's orders are narrated:\n{text}");
    // "Waiting on" names it, without a mention.
    assert!(text.contains("Waiting on: 🤖 Bot-1 (turn)"), "{text}");
    // alice alone is pinged and sent private messages.
    assert!(out.iter().all(|m| m.pings.iter().all(|u| *u == UserId(1))));
    assert!(out
        .iter()
        .filter_map(|m| match m.target {
            Target::Dm(u) => Some(u),
            _ => None,
        })
        .all(|u| u == UserId(1)));
}

#[tokio::test]
async fn seats_go_to_a_computer_player_and_back_and_computer_players_alone_play_nothing() {
    let (svc, _) = service("bots-replace").await;
    let game = started(&svc, CH, GameKind::Starlanes, 5, &["alice", "bob"]).await;
    let by_seat = |s: u8| SeatRef::Number(Seat(s));
    let replace_bot = |seat: SeatRef, level| Request::ReplaceBot {
        game: None,
        seat,
        level,
    };
    let disorder = |seat: u8, on| Request::Disorder {
        game: None,
        seat: by_seat(seat),
        on,
    };
    let msg = refused(&svc, &bob(), replace_bot(by_seat(1), BotLevel::Easy)).await;
    assert!(msg.contains("Only the host"), "{msg}");
    sent(&svc).await;

    // bob's seat to a computer player: bob is told, the channel too.
    ok(&svc, &alice(), replace_bot(SeatRef::Name("bob".into()), BotLevel::Easy)).await;
    let bot = svc.store().seats(game).await.unwrap()[1].clone();
    assert_eq!((bot.name.as_str(), bot.bot), ("🤖 Bot-1", Some(BotLevel::Easy)));
    let out = sent(&svc).await;
    assert!(
        channel_text(&out).contains("gave bob's seat in game"),
        "{}",
        channel_text(&out)
    );
    assert!(out.iter().any(|m| m.target == Target::Dm(UserId(2))));
    let msg = refused(&svc, &alice(), replace_bot(by_seat(1), BotLevel::Easy)).await;
    assert!(msg.contains("already plays"), "{msg}");
    let msg = refused(&svc, &alice(), disorder(1, true)).await;
    assert!(msg.contains("computer player"), "{msg}");
    // Its level can change.
    ok(&svc, &alice(), replace_bot(by_seat(1), BotLevel::Normal)).await;
    assert_eq!(svc.store().seats(game).await.unwrap()[1].bot, Some(BotLevel::Normal));
    ok(&svc, &alice(), replace_bot(by_seat(1), BotLevel::Easy)).await;

    assert!(play_solo(&svc, game, 6).await > 0);
    assert_no_bot_touched(&sent(&svc).await);

    // alice in civil disorder: nobody plays here, the computer player waits.
    ok(&svc, &alice(), disorder(0, true)).await;
    let before = seq(&svc, game).await;
    assert_eq!(svc.play_bots_until(&CancellationToken::new()).await.unwrap(), 0);
    ok(&svc, &alice(), disorder(0, false)).await;
    assert!(seq(&svc, game).await >= before);

    // And back to a person, who can then play.
    ok(
        &svc,
        &alice(),
        Request::Replace {
            game: None,
            seat: by_seat(1),
            user: UserId(3),
            name: "carol".into(),
        },
    )
    .await;
    let carol = svc.store().seats(game).await.unwrap()[1].clone();
    assert_eq!((carol.name.as_str(), carol.user, carol.bot), ("carol", UserId(3), None));
    let out = sent(&svc).await;
    assert_no_bot_touched(&out);
    assert!(
        out.iter().any(|m| m.target == Target::Dm(UserId(3))),
        "carol gets the seat's view"
    );
    let stop = CancellationToken::new();
    for i in 0..40 {
        let st = state(&svc, game).await;
        let Some((seat, line)) = next_order(&st, |legal| i % legal.len()) else {
            break;
        };
        let who = if seat == Seat(0) { alice() } else { at(CH, 3, "carol") };
        ok(&svc, &who, order(game, &line)).await;
        assert_eq!(
            svc.play_bots_until(&stop).await.unwrap(),
            0,
            "no computer player is left"
        );
    }
}

/// A computer player's order sheet (Spectrum War: every decision is one)
/// goes in as one change: its lines and the edit that marks it ready are
/// one append of the log, made by one decision of the bot loop, and the
/// channel reads that it is ready, not a message or an edit a line.
#[tokio::test]
async fn a_computer_player_s_order_sheet_goes_in_as_one_change() {
    use orrery::engine::SheetVerb;
    use orrery::games::spectrum::events::Event;
    use orrery::games::AnyEvent;
    let (svc, _) = service("bots-sheet").await;
    let game = solo(&svc, GameKind::Spectrum).await;
    sent(&svc).await;
    let stop = CancellationToken::new();
    let mut sheets = Vec::new();
    for _ in 0..10 {
        let st = state(&svc, game).await;
        if st.outcome().is_some() {
            break;
        }
        let owes = |seat: u8| st.pending().iter().any(|p| p.seat == Seat(seat) && !p.submitted);
        if !owes(1) {
            // alice marks her sheet ready as it stands.
            let ready = Request::Sheet {
                game: Some(game),
                verb: SheetVerb::Ready,
            };
            ok(&svc, &alice(), ready).await;
            continue;
        }
        sent(&svc).await;
        let before = seq(&svc, game).await;
        assert_eq!(svc.play_bots_until(&stop).await.unwrap(), 1, "one decision: the sheet");
        let log = svc.store().log(game).await.unwrap();
        let new: Vec<_> = log.iter().filter(|e| e.seq > before).collect();
        assert!(
            new.iter().all(|e| e.batch == Some(before)),
            "one append: {:?}",
            new.iter().map(|e| (e.seq, e.batch)).collect::<Vec<_>>()
        );
        let edits: Vec<_> = new
            .iter()
            .map(|e| match &e.event {
                AnyEvent::Spectrum(Event::Sheet(s)) if s.seat() == Seat(1) => s.clone(),
                e => panic!("not the computer player's sheet: {e:?}"),
            })
            .collect();
        assert!(
            matches!(edits.last(), Some(orrery::engine::SheetEvent::MarkedReady { .. })),
            "{edits:?}"
        );
        assert!(
            state(&svc, game)
                .await
                .pending()
                .iter()
                .any(|p| p.seat == Seat(1) && p.submitted),
            "its sheet is ready"
        );
        let out = sent(&svc).await;
        assert_no_bot_touched(&out);
        // The channel: one edit of the phase post, whose footer says it is
        // ready (and the close of an alert, delivered only if one is live).
        let channel: Vec<&OutMessage> = out.iter().filter(|m| m.target == Target::Channel(CH)).collect();
        let phase: Vec<&&OutMessage> = channel
            .iter()
            .filter(|m| matches!(m.slot, Some(Slot::Phase { .. })))
            .collect();
        assert_eq!(phase.len(), 1, "{channel:#?}");
        let footer = phase[0].footer.as_ref().map(|f| f.to_plain()).unwrap_or_default();
        assert!(
            footer.contains("🤖 Bot-1 (") && footer.contains("sheet, ✓ ready)"),
            "{footer}"
        );
        assert!(channel.len() <= 2, "{channel:#?}");
        sheets.push(edits.len());
    }
    assert!(sheets.len() >= 2, "{sheets:?}");
    assert!(sheets.iter().any(|n| *n > 1), "a sheet of lines: {sheets:?}");
}
