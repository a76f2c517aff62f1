-- Versioned event encoding (issue 9): every log row records the encoding
-- version it was written with, so a new release can lift old rows to the
-- current shape (src/store/codec.rs: one upcaster per version step).
-- Keep in step with the other dialect's 0004_event_versions.sql.

-- Rows written before this migration have the shape of version 1.
ALTER TABLE events ADD COLUMN version BIGINT NOT NULL DEFAULT 1 CHECK (version >= 0);
