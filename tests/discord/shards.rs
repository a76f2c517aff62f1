//! More than one process (issue 13 §2), through the fake Discord and the
//! real `orrery bot`:
//!
//! - SIGTERM shuts the bot down cleanly: it exits 0 within seconds, and
//!   the outbox is consistent (every row delivered once or not at all, no
//!   claim left behind), so a new process delivers the rest once.
//! - Two processes, each running one of two gateway shards, on one
//!   PostgreSQL database (skipped without `TEST_POSTGRES_URL`): each
//!   process receives only the interactions of its shard's guilds; games in
//!   guilds of both shards are played to the end; every message is posted
//!   once, every game's log replays.

use crate::support::{Harness, Origin};
use serde_json::json;
use std::collections::HashMap;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// Every outbox row is either delivered or untouched: not claimed, and not
/// posted (no post carries its nonce). Returns how many are undelivered.
async fn assert_outbox_consistent(h: &Harness) -> usize {
    use sqlx::Row;
    let rows = sqlx::query("SELECT id, delivered_at, claimed_until FROM outbox ORDER BY id")
        .fetch_all(h.store().await.pool())
        .await
        .expect("read the outbox");
    let posted: Vec<String> = h.fake.read(|w| {
        w.messages
            .iter()
            .filter(|m| m.origin == Origin::Post)
            .filter_map(|m| m.nonce.clone())
            .collect()
    });
    let mut undelivered = 0;
    for r in rows {
        let id: i64 = r.get(0);
        let delivered: Option<i64> = r.get(1);
        let claimed: Option<i64> = r.get(2);
        assert_eq!(claimed, None, "outbox row {id} is still claimed after the shutdown");
        if delivered.is_none() {
            undelivered += 1;
            let nonce = orrery::discord::transport::nonce_for(id);
            assert!(
                !posted.contains(&nonce),
                "outbox row {id} was posted but not marked delivered"
            );
        }
    }
    undelivered
}

/// SIGTERM while the bot is busy: it stops taking work, finishes what it
/// is doing and exits 0 within a few seconds; what it had not delivered is
/// delivered, once, by the next process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_shuts_down_cleanly_and_nothing_is_half_delivered() {
    let mut h = Harness::start().await;
    let chan = h.fake.add_channel("sigterm");
    let players = [h.fake.add_user("ada"), h.fake.add_user("bo"), h.fake.add_user("cy")];
    let t = h.open_game(chan, &players, Some(json!({"rounds": 6}))).await;
    for _ in 0..4 {
        h.step(&t, None).await.expect("an order");
    }
    // The last order's messages are being delivered as the signal comes.
    let status = h
        .bot()
        .expect("the bot runs")
        .terminate(Duration::from_secs(8))
        .expect("the bot exits within 8 s of SIGTERM");
    assert!(status.success(), "the bot exits 0 on SIGTERM: {status:?}");
    let log = h.bot().expect("the bot").log_text();
    assert!(log.contains("SIGTERM: shutting down"), "{log}");
    assert!(log.contains("shut down"), "{log}");
    let left = assert_outbox_consistent(&h).await;
    println!("{left} outbox rows were left for the next process");

    // A new process delivers what was left, each message once.
    h.restart_bot().await;
    h.wait_outbox_drained(WAIT).await;
    h.assert_outbox_delivered_once().await;
    h.step(&t, None).await.expect("the game goes on");
    h.wait_outbox_drained(WAIT).await;
    h.assert_outbox_delivered_once().await;
    let status = h
        .bot()
        .expect("the bot runs")
        .terminate(Duration::from_secs(8))
        .expect("the idle bot exits within 8 s of SIGTERM");
    assert!(status.success(), "{status:?}");
    assert_eq!(assert_outbox_consistent(&h).await, 0);
    h.fake.assert_clean();
}

/// Two processes, two shards, one PostgreSQL database: interactions of a
/// guild reach only the process running its shard; games in guilds of
/// both shards are played to the end, each message posted once (not even
/// a resend for Discord to drop: every nonce is POSTed once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_two_shards_one_postgres_database() {
    let Some(db) = crate::support::PgDatabase::create("shards", "the two-process PostgreSQL test").await else {
        return;
    };
    let url = db.url.clone();
    {
        let mut h = Harness::start_sharded(Some(url.clone()), Some("0/2")).await;
        h.start_another_bot_with_shards("1/2").await;
        assert_eq!(h.fake.read(|w| w.gateway.total), 2);
        let commands_put = h.fake.read(|w| {
            w.log
                .iter()
                .filter(|l| l.method == "PUT" && l.path.ends_with("/commands"))
                .count()
        });
        assert_eq!(
            commands_put, 1,
            "only the process running shard 0 registers the commands"
        );

        // Two guilds per shard, a game in each.
        let mut tables = Vec::new();
        for shard in 0..2u64 {
            for g in 0..2 {
                let guild = h.fake.add_guild_on_shard(shard, 2);
                let chan = h.fake.add_channel_in(guild, &format!("shard{shard}-{g}"));
                let players = [
                    h.fake.add_user(&format!("s{shard}g{g}a")),
                    h.fake.add_user(&format!("s{shard}g{g}b")),
                ];
                let t = h.open_game(chan, &players, Some(json!({"rounds": 2}))).await;
                tables.push((shard, guild, t));
            }
        }
        // Play them all to the end, one order of each game in turn.
        let mut orders = 0;
        loop {
            let mut moved = false;
            for (_, _, t) in &tables {
                if h.step(t, None).await.is_some() {
                    moved = true;
                    orders += 1;
                }
            }
            if !moved {
                break;
            }
            assert!(orders < 2000, "the games did not end");
        }
        h.wait_outbox_drained(WAIT).await;
        let posted = h.assert_outbox_delivered_once().await;
        assert!(!posted.is_empty());

        // Each game ended once, and its log replays to its state.
        for (_, _, t) in &tables {
            let row = h.row(t.game).await;
            assert_eq!(row.status, orrery::store::GameStatus::Finished, "game {}", t.game);
            let over = h.fake.read(|w| {
                w.messages_in(t.channel)
                    .into_iter()
                    .filter(|m| m.origin == Origin::Post && m.content.contains("🏆 Game over"))
                    .count()
            });
            assert_eq!(over, 1, "game {} ended once", t.game);
        }
        assert!(orrery::cli::replay(&url).await.expect("replay"), "every game replays");

        // No message was sent twice, not even as a resend Discord dropped.
        let mut per_nonce: HashMap<String, usize> = HashMap::new();
        h.fake.read(|w| {
            for l in &w.log {
                if l.method == "POST" && l.path.starts_with("/channels/") && l.path.ends_with("/messages") {
                    if let Some(n) = l.body.json().and_then(|b| b["nonce"].as_str()) {
                        *per_nonce.entry(n.to_string()).or_default() += 1;
                    }
                }
            }
        });
        let twice: Vec<_> = per_nonce.iter().filter(|(_, n)| **n > 1).collect();
        assert!(twice.is_empty(), "messages POSTed more than once: {twice:?}");

        // Interactions of a guild went to its shard, and only the process
        // running that shard received them (DMs: shard 0, the first process).
        let sent = h.fake.interaction_shards();
        assert!(sent.len() > 20, "{} interactions", sent.len());
        let guild_of: HashMap<u64, Option<u64>> = h.fake.read(|w| {
            w.interactions
                .iter()
                .map(|i| {
                    let g = w.channels.get(&i.channel_id).and_then(|c| match c.kind {
                        crate::support::fake_discord::ChannelKind::Guild(g) => Some(g),
                        _ => None,
                    });
                    (i.id, g)
                })
                .collect()
        });
        let logs = [
            h.bot().expect("the first process").log_text(),
            h.other_bots()[0].log_text(),
        ];
        let mut per_shard = [0usize; 2];
        for (id, shard) in &sent {
            let guild = guild_of[id];
            assert_eq!(*shard, guild.map_or(0, |g| (g >> 22) % 2), "interaction {id}");
            per_shard[*shard as usize] += 1;
            let needle = format!("interaction={id}");
            assert!(
                logs[*shard as usize].contains(&needle),
                "interaction {id} of shard {shard} did not reach its process"
            );
            assert!(
                !logs[1 - *shard as usize].contains(&needle),
                "interaction {id} of shard {shard} reached the other process"
            );
        }
        assert!(per_shard.iter().all(|&n| n > 10), "both shards played: {per_shard:?}");
        // Both processes delivered messages (the claims share the outbox).
        let claimed_by: Vec<String> = {
            use sqlx::Row;
            sqlx::query("SELECT DISTINCT claimed_by FROM outbox WHERE claimed_by IS NOT NULL")
                .fetch_all(h.store().await.pool())
                .await
                .unwrap()
                .iter()
                .map(|r| r.get::<String, _>(0))
                .collect()
        };
        let processes: std::collections::BTreeSet<&str> =
            claimed_by.iter().filter_map(|c| c.split('/').next()).collect();
        println!("{orders} orders; interactions per shard {per_shard:?}; delivering processes {processes:?}");
        assert_eq!(processes.len(), 2, "both processes delivered messages: {claimed_by:?}");
        h.fake.assert_clean();
    }
    db.drop().await;
}
