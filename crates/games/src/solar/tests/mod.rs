//! Tests across modules of Solar Crisis. [`kit`]: the helpers the
//! modules' tests share (a game started, orders from text, a board
//! cleared to chosen tiles).

pub(super) mod kit;
