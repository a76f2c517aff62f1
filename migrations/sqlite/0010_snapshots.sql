-- Snapshots of game states (issue 13). Keep in step with the other
-- dialect's 0010_snapshots.sql.
--
-- The state right after log entry `seq`, written by the commit that wrote
-- that entry when the commit queued a board (a phase boundary). A board,
-- a history replay or a fold of the log starts from the latest snapshot at
-- or before its position and folds only the entries after it, so its cost
-- does not grow with the length of the game. Like games.state this is a
-- cache: a snapshot that does not decode is ignored and the log folded
-- from the start; `orrery replay` checks every snapshot against the log.
CREATE TABLE snapshots (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL,
    state       TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
