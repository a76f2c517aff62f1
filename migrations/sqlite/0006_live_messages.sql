-- Live messages (issue 10): a message that stays live after it is posted
-- and is edited as things change: a seat's prompt (one per seat per game)
-- or a phase's post in the channel. Keep in step with the other dialect's
-- 0006_live_messages.sql.
--
-- `slot` is the service's slot key (`prompt:<seat>`, `phase`);
-- `channel_id` and `message_id` say where the transport put the message
-- (Discord snowflakes as BIGINT bits); `payload` is the message as last
-- shown (the service's OutMessage, JSON), which the next edit starts from;
-- `outbox_id` is the outbox row that last shaped it, so a delivery that
-- is retried after the edit (a crash before the row was marked delivered)
-- knows it was already applied.
CREATE TABLE live_messages (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    slot        TEXT   NOT NULL,
    channel_id  BIGINT NOT NULL,
    message_id  BIGINT NOT NULL,
    payload     TEXT   NOT NULL,
    outbox_id   BIGINT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, slot)
);
