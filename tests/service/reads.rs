//! What one order costs the database: the statements a player's order
//! runs, counted from sqlx's own log of every statement (on PostgreSQL,
//! where that log is written on the caller's thread, so this test's
//! counter sees only its own).

use crate::common::{at, in_dm, ok, order, T0};
use crate::pgdb::PgDatabase;
use orrery::games::GameKind;
use orrery::service::{ManualClock, Request, Service};
use orrery::store::Store;
use std::cell::RefCell;
use std::sync::{Arc, Once};
use tracing_subscriber::layer::SubscriberExt;

thread_local! {
    /// The statements sqlx logged on this thread while [`statements_of`]
    /// watched (`None`: nobody is watching).
    static SEEN: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Collects the statements sqlx logs (target `sqlx::query`) into the
/// emitting thread's [`SEEN`]. It is the process's global subscriber: a
/// subscriber set for one thread only (`set_default`) could miss events
/// when other tests' threads register tracing call sites meanwhile, which
/// made this test flaky.
struct Statements;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Statements {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().target() != "sqlx::query" {
            return;
        }
        struct Field(Option<String>);
        impl tracing::field::Visit for Field {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "db.statement" || (field.name() == "summary" && self.0.is_none()) {
                    self.0 = Some(format!("{value:?}"));
                }
            }
            fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
                if field.name() == "db.statement" || (field.name() == "summary" && self.0.is_none()) {
                    self.0 = Some(value.to_string());
                }
            }
        }
        SEEN.with(|seen| {
            if let Some(all) = seen.borrow_mut().as_mut() {
                let mut f = Field(None);
                event.record(&mut f);
                let text = f.0.unwrap_or_default();
                all.push(text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        });
    }
}

/// The statements `work` makes sqlx run on this thread (the test's
/// runtime is single-threaded, so its whole order runs here).
async fn statements_of<T>(work: impl std::future::Future<Output = T>) -> (T, Vec<String>) {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(Statements))
            .expect("no other test of this binary sets a global subscriber");
    });
    SEEN.with(|seen| *seen.borrow_mut() = Some(Vec::new()));
    let out = work.await;
    let all = SEEN.with(|seen| seen.borrow_mut().take()).unwrap_or_default();
    (out, all)
}

/// The statements before the commit's first write (its transaction's
/// first statement locks the game's row: `UPDATE games SET seq = seq …`).
fn reads_before_commit(all: &[String]) -> Vec<String> {
    all.iter()
        .take_while(|s| s.to_ascii_uppercase().starts_with("SELECT"))
        .cloned()
        .collect()
}

/// An order (in a channel, or by DM naming its game) reads the database at
/// most twice before its commit
/// (issue 26: it read 5 times: the game, its seats, the game again under
/// the lock, its deadline, its watchers).
#[tokio::test]
async fn an_order_reads_the_database_at_most_twice_before_its_commit() {
    let Some(db) = PgDatabase::create("reads", "the statement count").await else {
        return;
    };
    let store = Store::connect(&db.url).await.expect("store");
    let svc = Service::new(store, Arc::new(ManualClock::new(T0)));
    let mut counted = 0;
    for (i, kind) in GameKind::ALL.iter().enumerate() {
        let channel = 700 + i as u64;
        let host = at(channel, 1, "alice");
        let bob = at(channel, 2, "bob");
        ok(
            &svc,
            &host,
            Request::New {
                kind: *kind,
                seed: Some(3),
                options: None,
                private: None,
            },
        )
        .await;
        ok(&svc, &bob, Request::Join { game: None }).await;
        ok(&svc, &host, Request::Start { game: None }).await;
        let row = svc.store().games_in_channel(channel).await.unwrap().remove(0);
        for step in 0..3usize {
            let state = svc.store().game(row.id).await.unwrap().unwrap().state.unwrap();
            let Some(p) = state.pending().into_iter().find(|p| !p.submitted) else {
                break;
            };
            let legal = state.legal_commands(p.seat);
            let line = legal[(step * 7) % legal.len()].clone();
            // Secret picks and sheets by DM, the rest in the channel.
            let user = p.seat.index() as u64 + 1;
            let name = if user == 1 { "alice" } else { "bob" };
            let actor = if p.secret || p.sheet {
                in_dm(user, name)
            } else {
                at(channel, user, name)
            };
            let actor = &actor;
            let (reply, all) = statements_of(svc.handle(actor, order(row.id, &line))).await;
            let reply = reply.unwrap_or_else(|e| panic!("{kind} `{line}`: {e}"));
            assert!(
                reply.text.to_plain().contains("Sent"),
                "{kind} `{line}`: {}",
                reply.text.to_plain()
            );
            assert!(all.iter().any(|s| s.starts_with("INSERT INTO events")), "{all:#?}");
            let reads = reads_before_commit(&all);
            println!(
                "{kind} `{line}` ({:?}): {} statements, {} before the commit: {reads:#?}",
                actor.place,
                all.len(),
                reads.len()
            );
            counted += 1;
            assert!(
                reads.len() <= 2,
                "{kind} `{line}` read {} times before its commit: {reads:#?}",
                reads.len()
            );
        }
    }
    assert!(counted >= 10, "only {counted} orders counted");
    svc.store().close().await;
    db.drop().await;
}
