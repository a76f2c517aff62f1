-- Async play (issue 4, second part): seat changes, spectators, per-player
-- reminders, undo, and draft orders with "ready" flags.
-- Keep in step with the other dialect's 0003_seats_watchers_drafts.sql.

-- Civil disorder: the seat's decisions are made by the ruleset's defaults
-- as soon as it owes them (1), until the host turns it off or replaces
-- the player.
ALTER TABLE seats ADD COLUMN disorder BIGINT NOT NULL DEFAULT 0;
-- The player was kicked: the seat has nobody until the host replaces them
-- (the row keeps the last user for the record; a vacant seat is also in
-- civil disorder).
ALTER TABLE seats ADD COLUMN vacant BIGINT NOT NULL DEFAULT 0;
-- The player's own reminder points (JSON array of ms before the deadline).
-- NULL = the game's settings; '[]' = muted.
ALTER TABLE seats ADD COLUMN reminders TEXT NULL;

-- The log sequence number before the append that wrote this event: the
-- events of one action share it, so "undo the last action" knows where the
-- action began. NULL in logs written before this migration.
ALTER TABLE events ADD COLUMN batch BIGINT NULL;

-- Spectators: they get the public board after each phase, never a private
-- view.
CREATE TABLE watchers (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    since    BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX watchers_user ON watchers (user_id);

-- Draft orders when a game's auto-resolve is off: a seat's validated but
-- not yet final submission for a simultaneous decision, kept (never lost)
-- until every owing seat is ready or the deadline passes, then submitted
-- through the normal decide path. `seq` is the log position it was drafted
-- against; drafts of an older position are stale and are discarded.
CREATE TABLE drafts (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        BIGINT NOT NULL CHECK (seat >= 0),
    seq         BIGINT  NOT NULL,
    line        TEXT    NOT NULL,
    ready       BIGINT NOT NULL DEFAULT 0,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat)
);
