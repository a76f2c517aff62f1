-- Async play (issue 4): per-game host settings and pausable deadlines.
-- Keep in step with the other dialect's 0002_async_play.sql.

-- Host settings of a game, JSON owned by the service (deadline length,
-- reminder points, missed-deadline policy, paused flag). '{}' = defaults.
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- A paused deadline keeps the time that was left (ms) here and is not due
-- while this is set; resuming sets due_at = now + paused_remaining.
ALTER TABLE deadlines ADD COLUMN paused_remaining BIGINT NULL;
