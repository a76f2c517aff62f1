//! What players see of a game as it is played, through the service: the
//! phase post alerts exactly the players the game waits on, every prompt
//! says by when and where, a prompt answered by any path stops offering
//! its controls, take-backs, and one result post at the end. Also measures
//! the messages of a whole game (printed; see the issue notes).

use crate::common::*;
use orrery::engine::{CommandLine, Seat, UserId};
use orrery::games::GameKind;
use orrery::service::{Act, Op, OutMessage, Request, Service, Slot, Target};

const CHANNEL: u64 = 70;

fn player(seat: Seat) -> orrery::service::Actor {
    in_dm(u64::from(seat.0) + 1, ["alice", "bob", "carol"][seat.index()])
}

fn prompt_of(msgs: &[OutMessage], seat: Seat) -> Vec<&OutMessage> {
    msgs.iter()
        .filter(|m| matches!(m.slot, Some(Slot::Prompt { seat: s, .. }) if s == seat))
        .collect()
}

/// Every prompt posted or edited carries a deadline and a link to the
/// game's channel.
fn prompts_say_when_and_where(msgs: &[OutMessage]) {
    for m in msgs {
        if matches!(m.slot, Some(Slot::Prompt { .. })) && matches!(m.op, Op::Post | Op::Update) {
            let t = m.full_text();
            assert!(!t.times().is_empty(), "no deadline in a prompt: {}", t.to_plain());
            assert!(t.channels().contains(&CHANNEL), "no channel link: {}", t.to_plain());
            assert!(
                m.choices.iter().any(|c| c.act == Act::Order),
                "a prompt without order controls: {}",
                t.to_plain()
            );
        }
    }
}

/// Only the post that begins a phase (or the nudge of a new step) alerts
/// anyone, and exactly the players who owe an unanswered decision.
fn pings_are_exactly_the_owing(msgs: &[OutMessage], owing: &[UserId]) {
    for m in msgs {
        let begins = matches!(m.target, Target::Channel(_)) && m.op == Op::Post && m.board.is_some() && !m.game_over;
        if begins {
            let mut want = owing.to_vec();
            want.sort();
            let mut got = m.pings.clone();
            got.sort();
            assert_eq!(got, want, "{}", m.full_text().to_plain());
            for u in &m.pings {
                assert!(m.full_text().mentions().contains(u), "pinged without being named");
            }
        } else if !m.pings.is_empty() {
            assert!(matches!(m.target, Target::Channel(_)), "a DM never pings");
            for u in &m.pings {
                assert!(
                    owing.contains(u),
                    "{u:?} pinged but not owing: {}",
                    m.full_text().to_plain()
                );
            }
        }
    }
}

async fn owing_users(svc: &Service, game: orrery::engine::GameId) -> Vec<UserId> {
    let st = state(svc, game).await;
    st.pending()
        .into_iter()
        .filter(|p| !p.submitted)
        .map(|p| UserId(u64::from(p.seat.0) + 1))
        .collect()
}

#[derive(Default, Debug)]
struct Volume {
    channel_posts: usize,
    channel_edits: usize,
    boards: usize,
    dm_posts: usize,
    dm_edits: usize,
    results: usize,
    /// Lines saying an order was played for a seat that had no choice.
    forced: usize,
}

impl Volume {
    fn count(&mut self, msgs: &[OutMessage]) {
        for m in msgs {
            let post = m.op == Op::Post;
            match (&m.target, post) {
                (Target::Channel(_), true) => self.channel_posts += 1,
                (Target::Channel(_), false) => self.channel_edits += 1,
                (Target::Dm(_), true) => self.dm_posts += 1,
                (Target::Dm(_), false) => self.dm_edits += 1,
            }
            self.boards += usize::from(m.board.is_some());
            self.results += usize::from(m.game_over);
            self.forced += m.text.to_plain().matches("⏩").count();
        }
    }
}

/// Play a whole game with the test players' policy, checking the outbox of
/// every order. Returns the message volume.
async fn whole_game(kind: GameKind, seed: u64) -> Volume {
    let (svc, _clock) = service(&format!("feel-{}", kind.key())).await;
    let game = started(&svc, CHANNEL, kind, seed, &["alice", "bob", "carol"]).await;
    let mut volume = Volume::default();
    let first = sent(&svc).await;
    pings_are_exactly_the_owing(&first, &owing_users(&svc, game).await);
    prompts_say_when_and_where(&first);
    volume.count(&first);
    for _ in 0..5000 {
        let st = state(&svc, game).await;
        if st.outcome().is_some() {
            break;
        }
        let p = st.pending().into_iter().find(|p| !p.submitted).expect("someone owes");
        let line = crate::policy::choose(&st, p.seat).expect("the policy has an order");
        ok(&svc, &player(p.seat), order(game, &line)).await;
        let msgs = sent(&svc).await;
        let after = state(&svc, game).await;
        prompts_say_when_and_where(&msgs);
        pings_are_exactly_the_owing(&msgs, &owing_users(&svc, game).await);
        // Nobody is left to give an order they have no choice about.
        for q in after.pending().iter().filter(|q| !q.submitted) {
            assert!(
                after.forced_command(q.seat).is_none(),
                "{} is asked for its only order after {line}",
                q.seat
            );
        }
        // The seat that ordered: if it still owes, its prompt is edited or
        // posted with controls; if not, its prompt is closed.
        let still = after.pending().iter().any(|q| q.seat == p.seat);
        let mine = prompt_of(&msgs, p.seat);
        if after.outcome().is_none() {
            if still {
                assert!(
                    mine.iter()
                        .any(|m| matches!(m.op, Op::Update | Op::Post) && !m.choices.is_empty()),
                    "{} still owes after {line} but has no live controls: {mine:#?}",
                    p.seat
                );
            } else {
                assert!(
                    mine.iter().any(|m| m.op == Op::Close),
                    "{}'s answered prompt was not closed after {line}",
                    p.seat
                );
            }
        }
        volume.count(&msgs);
        if after.outcome().is_some() {
            let results: Vec<_> = msgs.iter().filter(|m| m.game_over).collect();
            assert_eq!(results.len(), 1, "{msgs:#?}");
            assert!(results[0].board.is_some(), "the result post carries the final board");
            let boards = msgs.iter().filter(|m| m.board.is_some()).count();
            assert_eq!(boards, 1, "one board at the end: {msgs:#?}");
        }
    }
    assert!(state(&svc, game).await.outcome().is_some(), "the game ended");
    volume
}

#[tokio::test]
async fn a_whole_starlanes_game_alerts_the_right_players_and_keeps_prompts_true() {
    let v = whole_game(GameKind::Starlanes, 6).await;
    println!("starlanes seed 6: {v:?}");
    assert_eq!(v.results, 1);
    // One channel post per phase (its board), not one per order.
    assert_eq!(v.channel_posts, v.boards, "{v:?}");
}

/// Past the round limit a Solar Crisis turn can only pass: nobody is asked
/// for it (each pass is played at once and said in the phase post).
#[tokio::test]
async fn a_whole_solar_game_never_asks_for_a_forced_pass() {
    let v = whole_game(GameKind::Solar, 4).await;
    println!("solar seed 4: {v:?}");
    assert_eq!(v.results, 1);
    assert!(v.forced > 0, "the game went past its round limit: {v:?}");
}

#[tokio::test]
async fn a_whole_hyperspace_game_alerts_the_right_players_and_keeps_prompts_true() {
    let v = whole_game(GameKind::Hyperspace, 3).await;
    println!("hyperspace seed 3: {v:?}");
    assert_eq!(v.results, 1);
}

#[tokio::test]
async fn a_typed_order_closes_the_prompt_it_answers() {
    let (svc, _clock) = service("feel-typed").await;
    let game = started(&svc, CHANNEL, GameKind::Starlanes, 6, &["alice", "bob"]).await;
    let first = sent(&svc).await;
    let alice_prompt = prompt_of(&first, Seat(0));
    assert_eq!(alice_prompt.len(), 1);
    assert_eq!(alice_prompt[0].op, Op::Post);
    assert!(prompt_of(&first, Seat(1)).is_empty(), "bob owes nothing yet");
    // alice ends her turn by typing the order.
    ok(&svc, &at(CHANNEL, 1, "alice"), order(game, &CommandLine::new("end"))).await;
    let msgs = sent(&svc).await;
    let closed = prompt_of(&msgs, Seat(0));
    assert_eq!(closed.len(), 1, "{msgs:#?}");
    assert_eq!(closed[0].op, Op::Close);
    assert!(closed[0].text.contains("You chose"), "{}", closed[0].text.to_plain());
    // bob's new prompt, and the post of the new phase alerting only bob.
    let bob = prompt_of(&msgs, Seat(1));
    assert!(bob
        .iter()
        .any(|m| m.op == Op::Post && m.target == Target::Dm(UserId(2))));
    let phase_posts: Vec<_> = msgs
        .iter()
        .filter(|m| m.slot == Some(Slot::Phase { game }) && m.op == Op::Post)
        .collect();
    assert_eq!(phase_posts.len(), 1);
    assert_eq!(phase_posts[0].pings, vec![UserId(2)]);
    // One numbering: the game's own words, not the platform's phase count.
    assert!(
        phase_posts[0].text.contains("Round") && !phase_posts[0].text.contains("Phase"),
        "{}",
        phase_posts[0].text.to_plain()
    );
    assert!(
        phase_posts[0].text.contains("bob's turn"),
        "{}",
        phase_posts[0].text.to_plain()
    );
}

#[tokio::test]
async fn muted_players_are_named_but_not_alerted() {
    let (svc, _clock) = service("feel-muted").await;
    let game = started(&svc, CHANNEL, GameKind::Starlanes, 6, &["alice", "bob"]).await;
    ok(
        &svc,
        &in_dm(2, "bob"),
        Request::Reminders {
            game: Some(game),
            mute: Some(true),
            points: None,
        },
    )
    .await;
    sent(&svc).await;
    ok(&svc, &at(CHANNEL, 1, "alice"), order(game, &CommandLine::new("end"))).await;
    let msgs = sent(&svc).await;
    let post = msgs
        .iter()
        .find(|m| m.slot == Some(Slot::Phase { game }) && m.op == Op::Post)
        .expect("a new phase post");
    assert!(post.pings.is_empty(), "{:?}", post.pings);
    assert!(post.full_text().mentions().contains(&UserId(2)), "bob is still named");
}
