-- The names a seat had before a replacement, so boards of the past show
-- the players as they were (issue 9). A row says: boards drawn at log
-- positions before `until_seq` show `name` for this seat. The current name
-- is in `seats`.
CREATE TABLE seat_names (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       BIGINT NOT NULL,
    until_seq  BIGINT NOT NULL,
    name       TEXT   NOT NULL,
    PRIMARY KEY (game_id, seat, until_seq)
);
