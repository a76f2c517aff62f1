-- Players whose DMs are closed (issue 13). Keep in step with the other
-- dialect's 0007_dms_refused.sql.
--
-- When Discord refuses a DM to a seated player, the seat is marked with the
-- time (unix milliseconds): the game's channel was told once, and private
-- messages for the seat are kept instead of being sent again and again
-- (the player reads them in the channel with /game board, privately).
-- NULL: DMs are fine. The player clears it with /game dms.
ALTER TABLE seats ADD COLUMN dms_refused_at BIGINT NULL;
