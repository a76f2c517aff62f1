-- Orrery schema, SQLite dialect. Keep in step with ../postgres/0001_init.sql:
-- the store issues the same SQL to both, so table and column names, types'
-- meaning and constraints must match. Connection-level settings (WAL,
-- busy timeout, foreign keys) are applied by `Store::connect`, not here,
-- because `PRAGMA journal_mode` cannot run inside a migration's transaction.
--
-- Conventions: Discord snowflakes are BIGINT (the u64 bits cast to i64),
-- times are BIGINT unix milliseconds, JSON is TEXT.

-- One hosted game. `id` is allocated by the database (AUTOINCREMENT: never
-- reused, safe under concurrent inserts). `state` is the fold of the event
-- log up to `seq`, cached so loading a game does not replay it.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,
    channel_id  BIGINT  NOT NULL,
    guild_id    BIGINT  NULL,
    host_id     BIGINT  NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    config      TEXT    NOT NULL,
    state       TEXT    NULL,
    seq         BIGINT  NOT NULL DEFAULT 0 CHECK (seq >= 0),
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX games_channel ON games (channel_id);
CREATE INDEX games_host ON games (host_id);

-- Who sits where. Seats stay contiguous 0..n-1 (the store renumbers on leave).
CREATE TABLE seats (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT  NOT NULL,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    name     TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id),
    UNIQUE (game_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);

-- The event log. The primary key is the optimistic lock: two writers that
-- both think they append event `seq` cannot both succeed.
CREATE TABLE events (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL CHECK (seq >= 1),
    event       TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Messages to deliver, written in the same transaction as the events that
-- caused them (transactional outbox).
CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id          BIGINT  NULL REFERENCES games (id) ON DELETE CASCADE,
    created_at       BIGINT  NOT NULL,
    payload          TEXT    NOT NULL,
    delivered_at     BIGINT  NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT    NULL,
    last_attempt_at  BIGINT  NULL
);
CREATE INDEX outbox_undelivered ON outbox (id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_game ON outbox (game_id);

-- At most one running deadline per game: the phase it belongs to, when it
-- falls due, and which reminders were already sent (JSON array). One row
-- per game keyed by game_id, so a worker can claim rows individually
-- (PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED).
CREATE TABLE deadlines (
    game_id   BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    phase     BIGINT NOT NULL,
    due_at    BIGINT NOT NULL,
    reminded  TEXT   NOT NULL DEFAULT '[]'
);
CREATE INDEX deadlines_due ON deadlines (due_at);
