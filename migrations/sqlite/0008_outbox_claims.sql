-- Outbox claims (issue 13 §2: several processes on one database). Keep in
-- step with the other dialect's 0008_outbox_claims.sql.
--
-- A delivering process claims a row before sending it: `claimed_by` names
-- the process's delivery pass, `claimed_until` (unix milliseconds, wall
-- clock) ends the lease. A row whose lease has run out (its process died)
-- can be claimed again. A delivered row keeps `claimed_by` (who sent it).
--
-- `target_lane` and `slot_lane` are the message's ordering lanes: its
-- target and its live slot, as JSON text taken from the payload (the
-- service's `target` and `slot` fields). A row is only claimed while no
-- older undelivered row shares a lane with it (see src/store/outbox.rs).
ALTER TABLE outbox ADD COLUMN target_lane TEXT NULL;
ALTER TABLE outbox ADD COLUMN slot_lane TEXT NULL;
ALTER TABLE outbox ADD COLUMN claimed_by TEXT NULL;
ALTER TABLE outbox ADD COLUMN claimed_until BIGINT NULL;

-- Rows queued before this migration get their lanes from their payload.
UPDATE outbox
SET target_lane = NULLIF(payload -> '$.target', 'null'),
    slot_lane = NULLIF(payload -> '$.slot', 'null')
WHERE delivered_at IS NULL AND json_valid(payload);

CREATE INDEX outbox_target_lane ON outbox (target_lane, id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_slot_lane ON outbox (slot_lane, id) WHERE delivered_at IS NULL;
