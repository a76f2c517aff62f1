//! The platform's order-sheet verbs: `/sheet ready`, `/sheet unready`,
//! `/sheet clear` and `/sheet remove line:N`, for games whose decisions are
//! order sheets ([`orrery_engine::Pending::sheet`]).
//!
//! A sheet lives in the game's state and every edit is an order of the
//! seat: the ruleset maps each verb to one of its actions
//! ([`orrery_engine::Ruleset::sheet_verb`]) and the order goes through the
//! one commit path like any other. So a sheet survives a restart, a
//! replay rebuilds it line by line, and nothing a player wrote is lost.
//! Adding and replacing lines are the game's own orders (`/spectrum …`,
//! with `line:N` to replace). `/sheet show` shows the seat's prompt, which
//! carries the sheet.

use super::roster::Roster;
use super::{user_err, Actor, Reply, Service, ServiceError};
use orrery_engine::{GameId, SheetVerb};
use orrery_store::GameStatus;

/// The verb as the player typed it, for messages.
fn verb_name(verb: SheetVerb) -> String {
    match verb {
        SheetVerb::Ready => "mark ready".into(),
        SheetVerb::Unready => "un-ready".into(),
        SheetVerb::Clear => "clear".into(),
        SheetVerb::Remove(n) => format!("remove line {n} from"),
    }
}

impl Service {
    /// Whether the actor owes an order sheet in the game (`None`: the
    /// actor plays no seat there, or the game is not running).
    pub(super) async fn owes_sheet(&self, actor: &Actor, game: Option<GameId>) -> Result<bool, ServiceError> {
        let row = self.resolve(actor, game).await?;
        if row.status != GameStatus::Active {
            return Ok(false);
        }
        let seats = self.store.seats(row.id).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat) else {
            return Ok(false);
        };
        let state = self.state_of(&row)?;
        Ok(state.pending().iter().any(|p| p.seat == me && p.sheet))
    }

    /// Make the sheet edit `verb` for the actor: the game's own order for
    /// it, given through the order path.
    pub(super) async fn sheet_edit(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        verb: SheetVerb,
    ) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(line) = row.kind.sheet_command(verb) else {
            return user_err(format!(
                "{} has no order sheets: its orders count as soon as they are given.",
                row.kind.name()
            ));
        };
        if !self.owes_sheet(actor, Some(row.id)).await? {
            let names = self.store.seats(row.id).await?.names();
            let waiting = row.state.as_ref().map_or_else(
                || "nobody".into(),
                |s| super::compose::waiting_line(s.kind(), &s.pending(), &names),
            );
            return user_err(format!(
                "You have no order sheet to {} in game {} right now; it is waiting on {waiting}.",
                verb_name(verb),
                row.id
            ));
        }
        self.order(actor, Some(row.id), None, line, None).await
    }
}
