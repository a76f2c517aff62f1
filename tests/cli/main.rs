//! The `orrery` binary, run as a user would.

#[path = "../common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn orrery() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_orrery"));
    c.env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn");
    c
}

fn temp(tag: &str) -> PathBuf {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("orrery-cli-{tag}-{}-{n}", std::process::id()))
}

fn assert_png_files(dir: &PathBuf) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        let img = image::load_from_memory(&bytes).unwrap_or_else(|e| panic!("{} is not a valid PNG: {e}", p.display()));
        assert!(
            img.width() >= 800 && img.height() >= 600,
            "{} is {}x{}",
            p.display(),
            img.width(),
            img.height()
        );
        n += 1;
    }
    n
}

#[test]
fn bot_without_token_explains_and_points_at_play() {
    let out = orrery().arg("bot").current_dir(std::env::temp_dir()).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DISCORD_TOKEN"), "{err}");
    assert!(err.contains("orrery play"), "{err}");
}

#[test]
fn auto_play_ends_with_a_winner_and_one_board_per_phase() {
    let dir = temp("auto");
    let out = orrery()
        .args(["play", "hyperspace", "--players", "4", "--seed", "1", "--auto", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{}",
        stdout
            .chars()
            .rev()
            .take(3000)
            .collect::<String>()
            .chars()
            .rev()
            .collect::<String>(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Result: 🏆 Game over"), "no result line");
    let boards = assert_png_files(&dir);
    // One public board for each phase number 1..=P-1 (the opening board is
    // phase 1's). The order that ends the game ends a turn too: the new
    // turn (P-1) and the end (P) begin together, and one post with the
    // final board tells both.
    let last = stdout
        .lines()
        .find(|l| l.starts_with("Game #1:"))
        .expect("summary line");
    let phase: usize = last
        .split("phase ")
        .nth(1)
        .and_then(|p| p.trim_end_matches('.').parse().ok())
        .expect("phase");
    assert_eq!(boards + 1, phase, "one PNG per phase: {last}");
    let announced = stdout.lines().filter(|l| l.contains("(board: ")).count();
    assert_eq!(boards, announced, "every board written was announced in the transcript");
    assert!(boards > 4, "only {boards} boards");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn kill_dash_nine_mid_game_then_resume_loses_nothing() {
    let db_path = temp("crash").with_extension("db");
    let db = format!("sqlite://{}", db_path.display());
    let dir = temp("crash-out");
    let args = |c: &mut Command| {
        c.args([
            "play",
            "hyperspace",
            "--players",
            "3",
            "--seed",
            "7",
            "--auto",
            "--db",
            &db,
            "--out",
        ])
        .arg(&dir);
    };
    // Start, wait until it is well under way (boards of three phases
    // written, each after its phase was committed), kill -9.
    let mut first = orrery();
    args(&mut first);
    let mut child = first.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let start = Instant::now();
    let boards = |dir: &PathBuf| {
        std::fs::read_dir(dir)
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "png"))
                })
                .count()
            })
            .unwrap_or(0)
    };
    while start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
        if boards(&dir) >= 3 {
            break;
        }
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
    }
    assert!(
        boards(&dir) >= 3,
        "the game did not get under way in {:?}",
        start.elapsed()
    );
    let finished_early = child.try_wait().unwrap().is_some();
    child.kill().unwrap_or(()); // SIGKILL on Unix
    child.wait().unwrap();
    assert!(
        !finished_early,
        "the game finished before it could be killed; use a longer game"
    );

    // The log as the crash left it is consistent.
    let out = orrery().args(["replay", "--db", &db]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 consistent, 0 inconsistent"), "{text}");

    // Same command again: resumes, plays to the end.
    let mut again = orrery();
    args(&mut again);
    let out = again.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Resuming game #1"), "did not resume");
    assert!(text.contains("Result: 🏆 Game over"), "did not finish");

    let out = orrery().args(["replay", "--db", &db]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("1 consistent, 0 inconsistent"),
        "{text}"
    );
    assert_png_files(&dir);

    // A crash-free run with the same seed makes exactly the same game.
    let db2 = format!("sqlite://{}", temp("nocrash").with_extension("db").display());
    let out = orrery()
        .args([
            "play",
            "hyperspace",
            "--players",
            "3",
            "--seed",
            "7",
            "--auto",
            "--db",
            &db2,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let fingerprint = |db: &str| {
        let out = orrery().args(["replay", "--db", db]).output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        fingerprint(&db),
        fingerprint(&db2),
        "the resumed game differs from an uninterrupted one"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn scenario_command_counts_and_fails_loudly() {
    let ok = orrery()
        .args([
            "scenario",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/hyperspace"),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{text}");
    assert!(text.trim_end().ends_with("0 failed"), "{text}");

    let bad = temp("bad").with_extension("scn");
    std::fs::write(&bad, "game: hyperspace\nplayers: 2\nseat 2: end\n").unwrap();
    let out = orrery().arg("scenario").arg(&bad).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(text.contains("0 passed, 1 failed"), "{text}");
    assert!(text.contains("line 3"), "{text}");
}

/// A playtest script: the lines are echoed (`> …`), each answer follows.
fn play_script(tag: &str, lines: &[&str]) -> String {
    let script = temp(tag).with_extension("txt");
    std::fs::write(&script, lines.join("\n")).unwrap();
    let out = orrery()
        .args(["play", "hyperspace", "--script"])
        .arg(&script)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&script);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// What the playtest answered to the script line `line`.
fn answer_to<'a>(transcript: &'a str, line: &str) -> &'a str {
    let start = transcript
        .find(&format!("> {line}\n"))
        .unwrap_or_else(|| panic!("`{line}` not in the transcript:\n{transcript}"))
        + line.len()
        + 3;
    let rest = &transcript[start..];
    &rest[..rest.find("\n> ").unwrap_or(rest.len())]
}

/// A phase number far past the game (more than 32 bits) is out of range,
/// and the answer gives the game's range; a negative one says where
/// phases start.
#[test]
fn a_huge_phase_is_out_of_range_with_the_games_range() {
    let t = play_script(
        "phase",
        &[
            "@alice /game new game:hyperspace",
            "@bob /game join",
            "@alice /game start",
            "@alice /game history phase:99999999999",
            "@alice /host rollback phase:99999999999",
            "@alice /game history phase:-1",
        ],
    );
    let a = answer_to(&t, "@alice /game history phase:99999999999");
    assert!(!a.contains("whole number"), "{a}");
    assert!(a.contains("pick a phase from 0 to 1"), "{a}");
    let a = answer_to(&t, "@alice /host rollback phase:99999999999");
    assert!(a.contains("roll back to a phase from 1 to 1"), "{a}");
    let a = answer_to(&t, "@alice /game history phase:-1");
    assert!(a.contains("out of range") && a.contains("from 0"), "{a}");
}

/// An order of another game's command, in a Hyperspace channel, names the
/// game this channel plays and its command.
#[test]
fn another_games_order_names_this_channels_game() {
    let t = play_script(
        "kind",
        &[
            "@alice /game new game:hyperspace",
            "@bob /game join",
            "@alice /game start",
            "@alice /starlanes end",
        ],
    );
    let a = answer_to(&t, "@alice /starlanes end");
    assert!(!a.contains("couldn't read"), "{a}");
    assert!(
        a.contains("This channel plays Hyperspace (game #1); its orders are `/hyperspace …`"),
        "{a}"
    );
}

/// Issue 9: with the default in-memory database, `/host force` (then `/game force`) used to
/// hang for ever (the resolution held the pool's only connection in a
/// transaction while it waited for another). It must answer, promptly.
#[test]
fn force_with_the_in_memory_database_answers() {
    let dir = temp("force");
    let mut child = orrery()
        .args(["play", "hyperspace", "--out"])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"@alice /game new game:hyperspace\n@bob /game join\n@alice /game start\n@alice /host force\n")
            .unwrap();
    } // stdin closes: the playtest ends after the last line.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("`/host force` on the in-memory database did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    assert!(status.success(), "{out}");
    assert!(
        out.contains("The host forced the phase to resolve"),
        "the force is announced: {out}"
    );
}

/// A game played by `orrery play` keeps a snapshot at each board, and
/// `orrery replay` checks every one against the fold of the log: a snapshot
/// holding another position's state is reported.
#[test]
fn replay_checks_every_snapshot() {
    let path = temp("snapshots").with_extension("db");
    let db = format!("sqlite://{}", path.display());
    let out = orrery()
        .args([
            "play",
            "hyperspace",
            "--players",
            "3",
            "--seed",
            "5",
            "--auto",
            "--db",
            &db,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = orrery::store::Store::connect(&db).await.unwrap();
        let game = store.all_games().await.unwrap()[0].id;
        let snaps = store.snapshots(game).await.unwrap();
        assert!(snaps.len() >= 3, "only {} snapshots", snaps.len());
        assert!(snaps.iter().all(|(_, s)| s.is_some()));
        assert!(orrery::cli::replay(&db).await.unwrap());
        sqlx::query("UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE seq = $1) WHERE seq = $2")
            .bind(snaps[0].0)
            .bind(snaps[1].0)
            .execute(store.pool())
            .await
            .unwrap();
        assert!(!orrery::cli::replay(&db).await.unwrap());
        store.close().await;
    });
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// `orrery replay` reports every game whose log or cached state is damaged
/// (which game, from which entry) and goes on checking the others; it exits
/// non-zero when any is (issue #29 §6).
#[test]
fn replay_reports_every_damaged_game_and_goes_on() {
    use orrery::games::GameKind;
    let path = temp("damaged").with_extension("db");
    let db = format!("sqlite://{}", path.display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let games = rt.block_on(async {
        let clock = std::sync::Arc::new(orrery::service::ManualClock::new(common::T0));
        let store = orrery::store::Store::connect(&db).await.unwrap();
        let svc = orrery::service::Service::new(store.clone(), clock);
        let mut games = Vec::new();
        for (channel, seed) in [(920, 1), (921, 2), (922, 3)] {
            games.push(common::started(&svc, channel, GameKind::Hyperspace, seed, &["alice", "bob"]).await);
        }
        // Game 1: one entry garbled. Game 2: an entry and the cached state.
        for (game, entry) in [(games[0], 2), (games[1], 3)] {
            sqlx::query("UPDATE events SET event = 'garbage' WHERE game_id = $1 AND seq = $2")
                .bind(game.0)
                .bind(entry)
                .execute(store.pool())
                .await
                .unwrap();
        }
        sqlx::query("UPDATE games SET state = 'garbage' WHERE id = $1")
            .bind(games[1].0)
            .execute(store.pool())
            .await
            .unwrap();
        store.close().await;
        games
    });
    let out = orrery().args(["replay", "--db", &db]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains(&format!("game {} (hyperspace): DAMAGED from entry 2", games[0])),
        "{text}{err}"
    );
    assert!(
        text.contains(&format!("game {} (hyperspace): DAMAGED from entry 3", games[1])),
        "{text}{err}"
    );
    assert!(
        text.contains(&format!("game {} (hyperspace): consistent", games[2])),
        "{text}{err}"
    );
    assert!(text.contains("3 games checked, 1 consistent, 2 inconsistent"), "{text}");
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// `orrery play --options` sets the game up as `/game new … options:` does:
/// a short Space Empires game with its optional rules plays to the end, and
/// options a game does not take are refused with the reason.
#[test]
fn play_takes_the_games_set_up_options() {
    let out = orrery()
        .args([
            "play",
            "empires",
            "--players",
            "2",
            "--seed",
            "3",
            "--auto",
            "--options",
        ])
        .arg("rounds:3 slingshot:true research_gearing:true unpredictable_research:true instant_upgrade:true pipelines:true warp_points:true mines:true carriers:true point_defense:true aliens:true")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("options:\"rounds:3 slingshot:true"),
        "the options were not passed to /game new"
    );
    assert!(stdout.contains("Result: 🏆 Game over"), "no result line");
    assert!(stdout.contains("round 3"), "a 3-round game should reach round 3");
    assert!(!stdout.contains("round 4"), "a 3-round game went on to round 4");

    let out = orrery()
        .args([
            "play",
            "empires",
            "--players",
            "2",
            "--auto",
            "--options",
            "doomsday:true machines:9",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success(), "an option out of range accepted");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("machines"), "the refusal does not name the option: {all}");
}

#[test]
fn computer_players_take_the_last_seats_at_the_terminal_table() {
    // alice is typed; the last two seats are computer players, seated by
    // the host as on Discord. alice resigns at once and the computer
    // players play the game out between them.
    let script = temp("table").with_extension("txt");
    std::fs::write(&script, "@alice /game resign confirm:true\n").unwrap();
    let out = orrery()
        .args([
            "play",
            "starlanes",
            "--players",
            "3",
            "--bots",
            "2",
            "--bot-level",
            "easy",
            "--seed",
            "3",
            "--script",
        ])
        .arg(&script)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let tail: String = stdout
        .chars()
        .rev()
        .take(3000)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    assert!(out.status.success(), "{tail}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("> @alice /host bot level:easy"),
        "{}",
        &stdout[..stdout.len().min(2000)]
    );
    assert!(
        stdout.contains("You type for alice; 🤖 Bot-1 and 🤖 Bot-2 are computer players (easy)."),
        "{}",
        &stdout[..stdout.len().min(2000)]
    );
    // Their orders are narrated like anyone's; they are never pinged nor
    // sent a DM, and nobody types for them.
    assert!(stdout.contains("] 🤖 Bot-1 "), "Bot-1 never moved:\n{tail}");
    assert!(stdout.contains("] 🤖 Bot-2 "), "Bot-2 never moved:\n{tail}");
    assert!(!stdout.contains("@🤖"), "a computer player was pinged:\n{tail}");
    assert!(
        !stdout.contains("[DM to 🤖"),
        "a computer player was sent a DM:\n{tail}"
    );
    assert!(
        !stdout.contains("> @🤖"),
        "an order was typed for a computer player:\n{tail}"
    );
    assert!(
        !stdout.contains("> @alice /starlanes "),
        "alice's orders are typed, never played for her"
    );
    assert!(stdout.contains("\nResult: "), "no result line:\n{tail}");
    assert!(
        !stdout.contains("Result: 🏆 Game over — alice"),
        "alice resigned and cannot win:\n{tail}"
    );
}

#[test]
fn a_table_of_computer_players_only_is_for_auto() {
    let out = orrery()
        .args(["play", "starlanes", "--players", "2", "--bots", "2"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--bots 2 leaves no seat of 2 to type"), "{err}");
}
