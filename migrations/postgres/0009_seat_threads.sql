-- Private threads (issue 13). Keep in step with the other dialect's
-- 0009_seat_threads.sql.
--
-- private_to: where the seat's private messages (prompts, private boards,
-- hands) go when the player or the host chose it for this seat: 'dms' or
-- 'thread' (a private thread in the game's channel with only the player
-- and the bot in it). NULL: the game's setting (`/host settings private:`).
-- Written through the commit path; cleared when the seat changes hands.
ALTER TABLE seats ADD COLUMN private_to TEXT NULL;

-- thread_id: the seat's private thread, once the delivery opened it (on the
-- first private message that goes there). Delivery bookkeeping, like the
-- ids of live messages: written by the delivery, guarded by the player's
-- user id; cleared when the seat changes hands or the thread is gone.
ALTER TABLE seats ADD COLUMN thread_id BIGINT NULL;
