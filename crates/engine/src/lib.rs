//! The pure rules-engine core: ids, RNG, the decision model, commands, hex
//! coordinates and the [`Ruleset`] contract. Nothing here touches tokio, serenity, sqlx,
//! the clock or the OS RNG.

pub mod bot;
pub mod command;
pub mod decision;
pub mod hex;
pub mod ids;
pub mod options;
pub mod rng;
pub mod ruleset;
pub mod sheet;

pub use command::{CommandGroup, CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError, Usages};
pub use decision::{Pending, SheetVerb, Simultaneous};
pub use hex::Hex;
pub use ids::{GameId, Seat, UserId, Viewer};
pub use options::{OptionValues, Options, SetupError, SetupOption};
pub use rng::GameRng;
pub use ruleset::{options_of, Control, ControlStyle, GameConfig, Outcome, PhaseInfo, Rejection, Ruleset, SeatPick};
pub use sheet::{OrderSheet, SheetEdit, SheetError, SheetEvent};
