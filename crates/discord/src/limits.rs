//! Discord's limits on what the bot sends, in one place: the only crate
//! that knows them. (Those of messages and components sit with the code
//! that lays them out: `respond.rs`, `components.rs`, `transport.rs`.)

/// Discord shows at most this many autocomplete suggestions.
pub const AUTOCOMPLETE_MAX: usize = 25;

/// The longest description of a command or an option.
pub const DESCRIPTION_MAX: usize = 100;

/// The longest string choice value (and autocomplete value).
pub const CHOICE_VALUE_MAX: usize = 100;

/// The largest whole number Discord carries exactly (it sends integers
/// through a JSON double): 2^53 - 1. Integer options are bounded by it.
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;
