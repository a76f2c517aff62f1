//! Host tools over seats and the log, through the service: undo and roll
//! back (new log entries; earlier boards reproduced exactly), replace
//! (the new player gets the private view), kick and civil disorder,
//! spectators, the phase log, and host-only refusals that change nothing.

use crate::common::*;
use orrery::engine::{GameId, Seat, UserId, Viewer};
use orrery::games::{AnyEvent, GameKind, Replay};
use orrery::service::{BoardRef, Request, Service, Target, HOUR_MS};

const CH: u64 = 700;
const NAMES: [&str; 3] = ["alice", "bob", "carol"];

fn player(seat: Seat) -> orrery::service::Actor {
    at(CH, u64::from(seat.0) + 1, NAMES[seat.index()])
}

fn host() -> orrery::service::Actor {
    at(CH, 1, "alice")
}

async fn board(svc: &Service, game: GameId, viewer: Viewer, seq: i64) -> Vec<u8> {
    svc.render(&BoardRef { game, viewer, seq }).await.expect("render")
}

/// Play `n` orders, each the owing seat's legal order chosen by a simple
/// rotating rule (so games vary but are reproducible).
async fn play(svc: &Service, game: GameId, n: usize) {
    for i in 0..n {
        let st = state(svc, game).await;
        let Some((seat, cmd)) = next_order(&st, |legal| (i * 7) % legal.len()) else {
            return;
        };
        ok(svc, &player(seat), order(game, &cmd)).await;
    }
}

/// Play until `n` more phases have begun; returns the phase it started in.
async fn play_phases(svc: &Service, game: GameId, n: u32) -> u32 {
    let p_start = state(svc, game).await.phase().number;
    for i in 0..200 {
        if state(svc, game).await.phase().number >= p_start + n {
            break;
        }
        play(svc, game, 1).await;
        assert!(i < 199, "the game should move on");
    }
    p_start
}

#[tokio::test]
async fn undo_restores_the_earlier_board_exactly_and_keeps_the_log() {
    let (svc, _) = service("undo").await;
    let game = started(&svc, CH, GameKind::Hyperspace, 11, &NAMES).await;
    let msg = refused(&svc, &host(), Request::Undo { game: None }).await;
    assert!(msg.contains("set-up"), "{msg}");
    play(&svc, game, 3).await;
    let s0 = seq(&svc, game).await;
    let before = state(&svc, game).await;
    let public0 = board(&svc, game, Viewer::Public, s0).await;
    let private0 = board(&svc, game, Viewer::Seat(Seat(1)), s0).await;
    play(&svc, game, 1).await;
    let s1 = seq(&svc, game).await;
    assert!(s1 > s0);
    sent(&svc).await;

    // Only the host.
    let msg = refused(&svc, &player(Seat(1)), Request::Undo { game: None }).await;
    assert!(msg.contains("Only the host"), "{msg}");
    assert_eq!(seq(&svc, game).await, s1, "a refusal changes nothing");
    assert!(sent(&svc).await.is_empty());

    ok(&svc, &host(), Request::Undo { game: None }).await;
    let s2 = seq(&svc, game).await;
    assert_eq!(s2, s1 + 1, "one new entry; nothing deleted");
    assert_eq!(svc.store().events(game).await.unwrap().len() as i64, s2);
    assert_eq!(
        state(&svc, game).await,
        before,
        "the earlier state, random generator included"
    );
    assert_eq!(
        board(&svc, game, Viewer::Public, s2).await,
        public0,
        "the same public board"
    );
    assert_eq!(
        board(&svc, game, Viewer::Seat(Seat(1)), s2).await,
        private0,
        "the same private board"
    );
    // Replaying the whole log gives the cached state.
    let log = svc.store().events(game).await.unwrap();
    assert_eq!(Replay::of(GameKind::Hyperspace, &log).unwrap().into_state(), before);

    // Announced in the channel, with the board.
    let out = sent(&svc).await;
    let notice = out
        .iter()
        .find(|m| m.target == Target::Channel(CH) && m.text.contains("undid the last action") && m.board.is_some())
        .expect("announced with the restored board");
    assert!(notice.text.contains("Set aside"), "{}", notice.text);
    assert!(out
        .iter()
        .any(|m| m.target == Target::Channel(CH) && m.board.as_ref().is_some_and(|b| b.seq == s2)));

    // Undo again steps back one more action, not back into the undone one.
    ok(&svc, &host(), Request::Undo { game: None }).await;
    assert_ne!(state(&svc, game).await, before);
}

#[tokio::test]
async fn roll_back_to_a_phase_and_history_reproduce_its_board() {
    let (svc, _) = service("rollback").await;
    let game = started(&svc, CH, GameKind::Starlanes, 3, &NAMES).await;
    let p_start = play_phases(&svc, game, 2).await;
    let target = p_start + 1;
    let hist = ok(
        &svc,
        &host(),
        Request::History {
            game: None,
            phase: Some(target.into()),
        },
    )
    .await;
    let hist_png = svc.render(hist.board.as_ref().unwrap()).await.unwrap();
    let s_before = seq(&svc, game).await;

    let msg = refused(&svc, &host(), Request::Rollback { game: None, phase: 99 }).await;
    assert!(msg.contains("roll back to a phase from 1 to"), "{msg}");
    let msg = refused(
        &svc,
        &player(Seat(2)),
        Request::Rollback {
            game: None,
            phase: target.into(),
        },
    )
    .await;
    assert!(msg.contains("Only the host"), "{msg}");
    assert_eq!(seq(&svc, game).await, s_before);

    ok(
        &svc,
        &host(),
        Request::Rollback {
            game: None,
            phase: target.into(),
        },
    )
    .await;
    let now = state(&svc, game).await;
    assert_eq!(now.phase().number, target);
    // The restored position is one the game was really in.
    let log = svc.store().events(game).await.unwrap();
    let mut s = GameKind::Starlanes.empty();
    let mut seen = false;
    for (_, e) in log.iter().filter(|(q, _)| *q <= s_before) {
        s.apply(e).unwrap();
        seen |= s == now;
    }
    assert!(seen, "rolled back to a position from the log");
    // History after the roll-back still shows that phase's board exactly.
    let hist2 = ok(
        &svc,
        &host(),
        Request::History {
            game: None,
            phase: Some(target.into()),
        },
    )
    .await;
    assert_eq!(svc.render(hist2.board.as_ref().unwrap()).await.unwrap(), hist_png);
    // The log keeps what was set aside, and the phase log says what happened.
    assert!(seq(&svc, game).await > s_before);
    let text = ok(&svc, &host(), Request::Log { game: None }).await.text.to_plain();
    assert!(text.contains("rolled the game back"), "{text}");
    let d = svc.store().deadline(game).await.unwrap().expect("a fresh deadline");
    assert_eq!(d.phase, i64::from(target));
    assert_eq!(d.due_at, T0 + 48 * HOUR_MS);
}

#[tokio::test]
async fn a_replacement_gets_the_private_view_and_the_seat() {
    let (svc, _) = service("replace").await;
    let game = started(&svc, CH, GameKind::Hyperspace, 5, &NAMES[..2]).await;
    sent(&svc).await;
    let s = seq(&svc, game).await;
    let dave = UserId(44);
    let req = Request::Replace {
        game: None,
        seat: Seat(1).into(),
        user: dave,
        name: "dave".into(),
    };
    let msg = refused(&svc, &player(Seat(1)), req.clone()).await;
    assert!(msg.contains("Only the host"), "{msg}");
    assert!(sent(&svc).await.is_empty());
    assert_eq!(svc.store().seats(game).await.unwrap()[1].name, "bob");

    ok(&svc, &host(), req.clone()).await;
    assert_eq!(seq(&svc, game).await, s, "a seat change is not a game event");
    let out = sent(&svc).await;
    let view = out
        .iter()
        .find(|m| m.target == Target::Dm(dave) && m.board.is_some())
        .expect("the new player gets a board");
    assert_eq!(
        view.board.as_ref().unwrap().viewer,
        Viewer::Seat(Seat(1)),
        "the seat's private view"
    );
    assert!(out
        .iter()
        .any(|m| m.target == Target::Dm(UserId(2)) && m.text.contains("dave")));
    assert!(out
        .iter()
        .any(|m| m.target == Target::Channel(CH) && m.text.contains("to dave")));
    // No other message carries a private view of seat 2.
    for m in &out {
        if let Some(b) = &m.board {
            if b.viewer == Viewer::Seat(Seat(1)) {
                assert_eq!(m.target, Target::Dm(dave));
            }
        }
    }
    // dave plays; bob no longer can, and his DMs now reach nobody's games.
    let dave_dm = in_dm(44, "dave");
    let b = ok(&svc, &dave_dm, Request::Board { game: None }).await;
    assert_eq!(b.board.unwrap().viewer, Viewer::Seat(Seat(1)));
    let msg = refused(&svc, &in_dm(2, "bob"), Request::Board { game: Some(game) }).await;
    assert!(msg.contains("not playing"), "{msg}");
    let msg = refused(&svc, &host(), req).await;
    assert!(msg.contains("already plays"), "{msg}");
}

#[tokio::test]
async fn kicked_and_disordered_seats_play_their_defaults_at_once() {
    let (svc, _) = service("disorder").await;
    let game = started(&svc, CH, GameKind::Starlanes, 9, &NAMES).await;
    sent(&svc).await;
    let req = Request::Kick {
        game: None,
        seat: Seat(2).into(),
    };
    let msg = refused(&svc, &player(Seat(1)), req.clone()).await;
    assert!(msg.contains("Only the host"), "{msg}");
    ok(&svc, &host(), req.clone()).await;
    let seats = svc.store().seats(game).await.unwrap();
    assert!(seats[2].vacant && seats[2].disorder);
    let msg = refused(&svc, &host(), req).await;
    assert!(msg.contains("already vacant"), "{msg}");
    sent(&svc).await;

    // carol's seat never holds the game up, and carol hears nothing more.
    for i in 0..40 {
        let st = state(&svc, game).await;
        if st.outcome().is_some() {
            break;
        }
        assert!(
            !st.pending().iter().any(|p| p.seat == Seat(2) && !p.submitted),
            "step {i}: the vacant seat should have played"
        );
        play(&svc, game, 1).await;
    }
    let out = sent(&svc).await;
    assert!(out.iter().all(|m| m.target != Target::Dm(UserId(3))));
    assert!(out.iter().any(|m| m.text.contains("Civil disorder")));

    // Civil disorder on bob: his turn is played for him; off: he plays again.
    ok(
        &svc,
        &host(),
        Request::Disorder {
            game: None,
            seat: Seat(1).into(),
            on: true,
        },
    )
    .await;
    let st = state(&svc, game).await;
    if st.outcome().is_none() {
        assert!(st.pending().iter().all(|p| p.seat == Seat(0)), "{:?}", st.pending());
    }
    let msg = refused(
        &svc,
        &host(),
        Request::Disorder {
            game: None,
            seat: Seat(2).into(),
            on: false,
        },
    )
    .await;
    assert!(msg.contains("replace"), "{msg}");
    ok(
        &svc,
        &host(),
        Request::Disorder {
            game: None,
            seat: Seat(1).into(),
            on: false,
        },
    )
    .await;
    assert!(!svc.store().seats(game).await.unwrap()[1].disorder);
}

#[tokio::test]
async fn spectators_get_public_boards_only() {
    let (svc, _) = service("watch").await;
    let game = started(&svc, CH, GameKind::Hyperspace, 2, &NAMES[..2]).await;
    let eve = at(CH, 55, "eve");
    let msg = refused(&svc, &player(Seat(0)), Request::Watch { game: None }).await;
    assert!(msg.contains("You play"), "{msg}");
    ok(&svc, &eve, Request::Watch { game: None }).await;
    let msg = refused(&svc, &eve, Request::Watch { game: None }).await;
    assert!(msg.contains("already watching"), "{msg}");
    sent(&svc).await;
    let p0 = state(&svc, game).await.phase().number;
    for i in 0..100 {
        if state(&svc, game).await.phase().number > p0 {
            break;
        }
        play(&svc, game, 1).await;
        assert!(i < 99);
    }
    let out = sent(&svc).await;
    let to_eve: Vec<_> = out.iter().filter(|m| m.target == Target::Dm(UserId(55))).collect();
    assert!(!to_eve.is_empty(), "a board after the phase");
    for m in &to_eve {
        assert!(m.choices.is_empty());
        assert_eq!(m.board.as_ref().map(|b| b.viewer), Some(Viewer::Public));
    }
    // In DMs she sees the public board, and may not give orders.
    let b = ok(&svc, &in_dm(55, "eve"), Request::Board { game: Some(game) }).await;
    assert_eq!(b.board.unwrap().viewer, Viewer::Public);
    let st = state(&svc, game).await;
    let any = st.legal_commands(st.pending()[0].seat)[0].clone();
    let msg = refused(&svc, &in_dm(55, "eve"), order(game, &any)).await;
    assert!(msg.contains("not playing"), "{msg}");
    ok(&svc, &eve, Request::Unwatch { game: None }).await;
    play(&svc, game, 30).await;
    assert!(sent(&svc).await.iter().all(|m| m.target != Target::Dm(UserId(55))));
}

#[tokio::test]
async fn the_phase_log_is_the_public_narration_of_this_phase() {
    let (svc, _) = service("log").await;
    let game = started(&svc, CH, GameKind::Hyperspace, 4, &NAMES[..2]).await;
    play(&svc, game, 6).await;
    let text = ok(&svc, &player(Seat(1)), Request::Log { game: None })
        .await
        .text
        .to_plain();
    let st = state(&svc, game).await;
    assert!(text.contains(&st.phase().label), "{text}");
    // Every line is a public narration of an event of this phase.
    let names: Vec<String> = NAMES[..2].iter().map(|s| s.to_string()).collect();
    let log = svc.store().events(game).await.unwrap();
    let mut s = GameKind::Hyperspace.empty();
    let mut this_phase: Vec<String> = Vec::new();
    for (_, e) in &log {
        s.apply(e).unwrap();
        if s.phase().number == st.phase().number {
            if let Some(l) = e.narrate(Viewer::Public, &names) {
                this_phase.push(format!("• {l}"));
            }
        }
    }
    for line in text.lines().skip(1).filter(|l| l.starts_with('•')) {
        assert!(this_phase.contains(&line.to_string()), "{line} not in {this_phase:?}");
    }
    assert!(matches!(log.last().unwrap().1, AnyEvent::Hyperspace(_)));
}

#[tokio::test]
async fn a_pending_secret_pick_never_triggers_an_early_default() {
    let (svc, clock) = service("secret").await;
    let game = started(&svc, CH, GameKind::Hyperspace, 1, &NAMES[..2]).await;
    // Play (attacking when possible) until a secret pick is owed.
    let mut found = false;
    for _ in 0..400 {
        let st = state(&svc, game).await;
        if st.pending().iter().any(|p| p.secret) {
            found = true;
            break;
        }
        if st.outcome().is_some() {
            break;
        }
        play(&svc, game, 1).await;
    }
    assert!(found, "seed 1 reaches a battle");
    let st = state(&svc, game).await;
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    // One side picks; the other doesn't yet.
    let first = st.pending().into_iter().find(|p| p.secret).unwrap();
    let pick = st.legal_commands(first.seat)[0].clone();
    ok(&svc, &player(first.seat), order(game, &pick)).await;
    let s = seq(&svc, game).await;
    clock.set_ms(d.due_at - 1);
    assert_eq!(svc.tick().await.unwrap().resolved, 0);
    assert_eq!(seq(&svc, game).await, s, "no default a millisecond early");
    let still = state(&svc, game).await;
    assert!(still.pending().iter().any(|p| p.secret && !p.submitted));
    clock.set_ms(d.due_at);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    assert!(seq(&svc, game).await > s);
}

/// Issue 9: a board of the past shows the players as they were then, even
/// after `/game replace` gave a seat to someone else; the current board
/// shows the new player.
#[tokio::test]
async fn history_boards_keep_the_names_of_their_time() {
    let (svc, _) = service("history-names").await;
    let game = started(&svc, CH, GameKind::Starlanes, 3, &NAMES).await;
    let p_start = play_phases(&svc, game, 2).await;
    let history = |phase| Request::History {
        game: None,
        phase: Some(phase),
    };
    let old = ok(&svc, &host(), history(u64::from(p_start + 1))).await;
    let old_png = svc.render(old.board.as_ref().unwrap()).await.unwrap();
    let now_before = ok(&svc, &host(), Request::Board { game: None }).await;
    let now_before_png = svc.render(now_before.board.as_ref().unwrap()).await.unwrap();

    let req = Request::Replace {
        game: None,
        seat: Seat(1).into(),
        user: UserId(44),
        name: "dave".into(),
    };
    ok(&svc, &host(), req).await;
    let again = ok(&svc, &host(), history(u64::from(p_start + 1))).await;
    assert_eq!(again.board, old.board, "the same moment of the game");
    assert_eq!(
        svc.render(again.board.as_ref().unwrap()).await.unwrap(),
        old_png,
        "the board of that phase still shows bob, as it did"
    );
    assert_eq!(svc.store().names_at(game, 1).await.unwrap(), ["alice", "bob", "carol"]);
    let current = ok(&svc, &host(), Request::Board { game: None }).await;
    assert_eq!(
        svc.store()
            .names_at(game, current.board.as_ref().unwrap().seq)
            .await
            .unwrap(),
        ["alice", "dave", "carol"]
    );
    assert_ne!(
        svc.render(current.board.as_ref().unwrap()).await.unwrap(),
        now_before_png,
        "the current board shows dave"
    );
}

/// Resigning, in every game: the player is asked first (nothing changes
/// until they confirm), the channel is told, the seat owes nothing more and
/// hears nothing more; the host resigns a player without asking; with one
/// player left the game ends and that player wins. Refusals change nothing.
#[tokio::test]
async fn resigning_in_every_game_is_asked_first_then_the_game_goes_on_and_ends_with_one_left() {
    use orrery::service::Act;
    for (k, &kind) in GameKind::ALL.iter().enumerate() {
        let (svc, _) = service(&format!("resign-{}", kind.key())).await;
        let ch = CH + k as u64;
        let game = started(&svc, ch, kind, 5, &NAMES).await;
        let who = |seat: usize| at(ch, seat as u64 + 1, NAMES[seat]);
        for i in 0..6 {
            let st = state(&svc, game).await;
            let Some((seat, cmd)) = next_order(&st, |legal| (i * 7) % legal.len()) else {
                break;
            };
            ok(&svc, &who(seat.index()), order(game, &cmd)).await;
        }
        sent(&svc).await;
        let before = seq(&svc, game).await;
        let ask = Request::Resign {
            game: None,
            seat: None,
            confirmed: false,
        };
        // Asked first: what the channel will read, and one red button.
        let reply = ok(&svc, &who(1), ask.clone()).await;
        let text = reply.text.to_plain();
        assert!(reply.ephemeral, "{kind:?}");
        assert!(
            text.contains("The channel will read") && text.contains("bob"),
            "{kind:?}: {text}"
        );
        assert_eq!(
            reply.choices.iter().map(|c| c.act).collect::<Vec<_>>(),
            [Act::Resign],
            "{kind:?}"
        );
        assert_eq!(seq(&svc, game).await, before, "{kind:?}: asking changes nothing");
        assert!(sent(&svc).await.is_empty(), "{kind:?}");
        // Not a player, or not the host: refused.
        let msg = refused(&svc, &at(ch, 9, "zed"), ask.clone()).await;
        assert!(msg.contains("not playing"), "{kind:?}: {msg}");
        let host_resign = |seat: usize| Request::Resign {
            game: None,
            seat: Some(Seat(seat as u8).into()),
            confirmed: true,
        };
        let msg = refused(&svc, &who(1), host_resign(2)).await;
        assert!(msg.contains("Only the host"), "{kind:?}: {msg}");

        // Confirmed: bob is out; the channel hears it; bob owes nothing.
        let confirm = Request::Resign {
            game: None,
            seat: None,
            confirmed: true,
        };
        let reply = ok(&svc, &who(1), confirm.clone()).await;
        assert!(reply.text.to_plain().contains("You resigned"), "{kind:?}");
        assert!(seq(&svc, game).await > before, "{kind:?}");
        let out = sent(&svc).await;
        assert!(
            out.iter()
                .any(|m| m.target == Target::Channel(ch) && m.text.to_plain().contains("bob")),
            "{kind:?}: the channel is told"
        );
        let st = state(&svc, game).await;
        assert!(st.outcome().is_none(), "{kind:?}: two players are left");
        assert!(
            st.pending().iter().all(|p| p.seat != Seat(1)),
            "{kind:?}: {:?}",
            st.pending()
        );
        let msg = refused(&svc, &who(1), confirm).await;
        assert!(msg.contains("can't resign"), "{kind:?}: {msg}");

        // The game goes on without bob: play on a little; he hears nothing.
        for i in 0..6 {
            let st = state(&svc, game).await;
            let Some((seat, cmd)) = next_order(&st, |legal| (i * 5) % legal.len()) else {
                break;
            };
            assert_ne!(seat, Seat(1), "{kind:?}");
            ok(&svc, &who(seat.index()), order(game, &cmd)).await;
        }
        let out = sent(&svc).await;
        assert!(
            out.iter()
                .all(|m| m.target != Target::Dm(UserId(2)) || m.text.to_plain().contains("Closed")),
            "{kind:?}: a resigned player gets no prompts: {:?}",
            out.iter()
                .filter(|m| m.target == Target::Dm(UserId(2)))
                .map(|m| m.text.to_plain())
                .collect::<Vec<_>>()
        );

        // The host resigns carol: alice is left and wins at once.
        if state(&svc, game).await.outcome().is_none() {
            let reply = ok(&svc, &who(0), host_resign(2)).await;
            assert!(reply.text.to_plain().contains("carol resigned"), "{kind:?}");
            let out = sent(&svc).await;
            assert!(
                out.iter()
                    .any(|m| m.target == Target::Dm(UserId(3)) && m.text.to_plain().contains("resigned you")),
                "{kind:?}: carol is told by DM"
            );
            let st = state(&svc, game).await;
            assert_eq!(st.outcome().map(|o| o.winners()), Some(vec![Seat(0)]), "{kind:?}");
            assert!(st.pending().is_empty(), "{kind:?}");
            let row = svc.store().game(game).await.unwrap().unwrap();
            assert_eq!(row.status, orrery::store::GameStatus::Finished, "{kind:?}");
        }
    }
}
