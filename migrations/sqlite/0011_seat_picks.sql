-- Seat picks (issue 28). Keep in step with the other dialect's
-- 0011_seat_picks.sql.
--
-- pick: what the player chose for their seat on joining, in a game whose
-- ruleset asks for one (Spectrum War's colour: "select color"); NULL: none,
-- the game's own assignment. Written in the lobby only; read at the start
-- into the game's set-up (GameConfig.picks). No two seats of a game hold
-- the same pick (checked by the statement that writes it).
ALTER TABLE seats ADD COLUMN pick TEXT NULL;
