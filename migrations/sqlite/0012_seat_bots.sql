-- Computer players (issue 31). Keep in step with the other dialect's
-- 0012_seat_bots.sql.
--
-- bot: the seat is played by a computer player of this difficulty
-- ('easy', 'normal' or 'hard'); NULL: a person plays it (or nobody, when
-- vacant). A computer player's user_id is one of the reserved ids of
-- orrery_store::bot_user (never a Discord user), its name "🤖 Bot-N".
-- Written in the lobby (/host bot) and through the commit path
-- (/host replace); games stored before read NULL: no computer players.
ALTER TABLE seats ADD COLUMN bot TEXT NULL;
