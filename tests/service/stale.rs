//! Controls are bound to the position they were made for (issue 29,
//! point 4): an order pressed on a prompt of an earlier phase is refused
//! with the presser's current prompt and changes nothing, even when the
//! same order happens to be legal again; pressed in its own phase it is
//! given as before, many times over in one phase.

use crate::common::{at, ok, refused, seq, started, state};
use orrery::engine::{CommandLine, GameId, Seat};
use orrery::games::GameKind;
use orrery::service::{Act, Choice, Request, Service, STALE_PROMPT};

const CHANNEL: u64 = 640;
const NAMES: [&str; 3] = ["alice", "bob", "carol"];

fn player(seat: Seat) -> orrery::service::Actor {
    at(CHANNEL, seat.0 as u64 + 1, NAMES[seat.0 as usize])
}

/// The order controls of `seat`'s current prompt, as a transport gets them.
async fn controls(svc: &Service, game: GameId, seat: Seat) -> Vec<Choice> {
    ok(svc, &player(seat), Request::Prompt { game: Some(game) })
        .await
        .choices
        .into_iter()
        .filter(|c| c.act == Act::Order)
        .collect()
}

fn press(game: GameId, c: &Choice) -> Request {
    Request::Press {
        game,
        line: c.command.clone(),
        position: c.position,
    }
}

/// Plays `kind` by pressing its prompts' controls, keeping every control
/// seen; stops at the first old one (two or more phases back) whose order
/// is legal again for its seat, presses it and checks it is refused.
async fn an_old_control_is_refused(kind: GameKind, seed: u64, players: usize) {
    let (svc, _clock) = crate::common::service(&format!("stale-{kind:?}")).await;
    let game = started(&svc, CHANNEL, kind, seed, &NAMES[..players]).await;
    let mut seen: Vec<(Seat, u32, Choice)> = Vec::new();
    for step in 0..600usize {
        let s = state(&svc, game).await;
        if s.outcome().is_some() {
            break;
        }
        let now = s.phase().number;
        // An old control whose order is legal now: refused, nothing changes.
        for p in s.pending() {
            let legal = s.legal_commands(p.seat);
            let old = seen
                .iter()
                .find(|(seat, made, c)| *seat == p.seat && made + 2 <= now && legal.contains(&c.command));
            if let Some((seat, made, c)) = old {
                let before = seq(&svc, game).await;
                let why = refused(&svc, &player(*seat), press(game, c)).await;
                assert!(
                    why.starts_with(STALE_PROMPT) && why.contains("Your current prompt:"),
                    "{kind:?}: `{}` from phase {made} pressed in phase {now}: {why}",
                    c.command
                );
                assert_eq!(
                    seq(&svc, game).await,
                    before,
                    "{kind:?}: a stale control changed the game"
                );
                // The same order from the current prompt is taken.
                let fresh = controls(&svc, game, *seat).await;
                if let Some(c) = fresh.iter().find(|f| f.command == c.command) {
                    assert_eq!(c.position, Some(now));
                    ok(&svc, &player(*seat), press(game, c)).await;
                    assert!(seq(&svc, game).await > before);
                }
                return;
            }
        }
        // Otherwise play on with the current prompt's controls.
        let Some(p) = s.pending().into_iter().find(|p| !p.submitted) else {
            panic!("{kind:?}: nobody owes an order at step {step}");
        };
        let cs = controls(&svc, game, p.seat).await;
        assert!(!cs.is_empty(), "{kind:?}: a prompt without orders");
        assert!(cs.iter().all(|c| c.position == Some(now)), "{kind:?}: {cs:?}");
        for c in &cs {
            if !seen
                .iter()
                .any(|(seat, made, o)| *seat == p.seat && *made == now && o.command == c.command)
            {
                seen.push((p.seat, now, c.clone()));
            }
        }
        let c = &cs[(step * 7 + 3) % cs.len()];
        ok(&svc, &player(p.seat), press(game, c)).await;
    }
    panic!("{kind:?}: no old control became legal again");
}

#[tokio::test]
async fn an_old_starlanes_control_is_refused_in_a_later_phase() {
    an_old_control_is_refused(GameKind::Starlanes, 6, 2).await;
}

#[tokio::test]
async fn an_old_hyperspace_control_is_refused_in_a_later_phase() {
    an_old_control_is_refused(GameKind::Hyperspace, 5, 3).await;
}

/// A typed order is not a control: it is never refused as stale.
#[tokio::test]
async fn typed_orders_carry_no_position() {
    let (svc, _clock) = crate::common::service("stale-typed").await;
    let game = started(&svc, CHANNEL, GameKind::Starlanes, 6, &NAMES[..2]).await;
    let s = state(&svc, game).await;
    let p = s.pending().into_iter().next().unwrap();
    let line: CommandLine = s.legal_commands(p.seat)[0].clone();
    let before = seq(&svc, game).await;
    ok(&svc, &player(p.seat), crate::common::order(game, &line)).await;
    assert!(seq(&svc, game).await > before);
}

/// A sheet is edited many times in one phase: the controls of one prompt
/// keep working while the phase lasts, however often the sheet changed.
#[tokio::test]
async fn a_sheet_is_edited_many_times_with_one_prompt_s_controls() {
    let (svc, _clock) = crate::common::service("stale-sheet").await;
    let game = started(&svc, CHANNEL, GameKind::Spectrum, 1, &NAMES[..2]).await;
    let phase = state(&svc, game).await.phase().number;
    let first = controls(&svc, game, Seat(0)).await;
    let edits: Vec<&Choice> = first
        .iter()
        .filter(|c| c.style == orrery::engine::ControlStyle::Main)
        .take(4)
        .collect();
    assert!(edits.len() >= 2, "{first:?}");
    let mut taken = 0;
    for c in edits {
        let before = seq(&svc, game).await;
        match svc.handle(&player(Seat(0)), press(game, c)).await {
            Ok(_) => {
                taken += 1;
                assert!(seq(&svc, game).await > before);
            }
            Err(e) => assert!(!e.to_string().contains("earlier phase"), "`{}`: {e}", c.command),
        }
    }
    assert!(taken >= 2, "the sheet's edits were taken");
    assert_eq!(state(&svc, game).await.phase().number, phase, "still the same phase");
}
