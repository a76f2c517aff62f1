//! Spectators: `/game watch` and `unwatch`, and who may read a game in
//! DMs.

use super::{user_err, Actor, Place, Reply, Service, ServiceError, Text};
use orrery_engine::{GameId, UserId};
use orrery_store::{GameRow, SeatRow};

impl Service {
    /// Follow a game as a spectator: its public board after every phase,
    /// by DM. Never a private view.
    pub(super) async fn watch(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        if seats.iter().any(|s| s.played_by(actor.user)) {
            return user_err(format!("You play in game {}; players already get every board.", row.id));
        }
        if !row.status.is_open() {
            return user_err(format!(
                "Game {} is over; `/game history` shows any of its boards.",
                row.id
            ));
        }
        let added = self.store.watch(row.id, actor.user, self.now_ms()).await?;
        self.touched(row.id);
        if !added {
            return user_err(format!("You are already watching game {}.", row.id));
        }
        Ok(Reply::private(
            Text::plain("You are watching ").strong(row.kind.name()).then(format!(
                " game {}: I'll DM you the public board after every phase. `/game unwatch` stops it.",
                row.id
            )),
        ))
    }

    pub(super) async fn unwatch(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let removed = self.store.unwatch(row.id, actor.user).await?;
        self.touched(row.id);
        if !removed {
            return user_err(format!("You are not watching game {}.", row.id));
        }
        Ok(Reply::private(format!("You stopped watching game {}.", row.id)))
    }

    /// Whether a DM request may read a game: its players and spectators.
    pub(super) async fn may_read_in_dm(&self, actor: &Actor, row: &GameRow) -> Result<bool, ServiceError> {
        if actor.place != Place::Dm {
            return Ok(true);
        }
        let (seats, watchers) = self.store.roster(row.id).await?;
        Ok(in_the_game(actor.user, &seats, &watchers))
    }
}

/// Whether `user` plays a seat of the game or watches it: who may use a
/// game from DMs.
pub(super) fn in_the_game(user: UserId, seats: &[SeatRow], watchers: &[UserId]) -> bool {
    seats.iter().any(|s| s.played_by(user)) || watchers.contains(&user)
}

/// The refusal of a game named in DMs by someone not in it.
pub(super) fn not_in_the_game(game: GameId) -> ServiceError {
    ServiceError::User(
        format!("You are not playing in game {game}, nor watching it. In DMs you can only use your own games; see /mygames.")
            .into(),
    )
}
