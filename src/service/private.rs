//! Players whose DMs are closed. Many Discord users refuse DMs from server
//! members; a player who never gets their prompts, hands and private boards
//! cannot play. When Discord refuses a DM to a seated player, their seat is
//! marked and the game's channel is told once (mentioning them, saying
//! nothing secret), and further private messages for the seat are kept
//! instead of failing again and again. The player reads everything private
//! in the channel, privately: `/game board` there shows their own board,
//! sheet or hand, and their prompt with working buttons. `/game dms` says
//! their DMs are open again.

use super::{compose, user_err, Actor, BoardRef, GameId, OutMessage, Reply, Service, ServiceError, Target, Text};
use crate::engine::{UserId, Viewer};
use crate::store::{Commit, SeatChange, StoreError};

impl Service {
    /// Whether a message to `target` about `game` is kept rather than sent:
    /// a DM to a seated player whose DMs Discord refuses.
    pub(super) async fn dms_refused(&self, game: Option<GameId>, target: &Target) -> anyhow::Result<bool> {
        let (Some(game), Target::Dm(user)) = (game, target) else {
            return Ok(false);
        };
        Ok(self
            .store
            .seats(game)
            .await?
            .iter()
            .any(|s| s.played_by(*user) && s.dms_refused_at.is_some()))
    }

    /// Discord refused a DM to `user` about `game`: mark their seat, and
    /// tell the game's channel, once.
    pub(super) async fn refuse_dms(&self, game: GameId, user: UserId) -> anyhow::Result<()> {
        for _ in 0..3 {
            let Some(row) = self.store.game(game).await? else {
                return Ok(());
            };
            let seats = self.store.seats(game).await?;
            let Some(me) = seats.iter().find(|s| s.played_by(user)) else {
                // Not a player (a spectator's copy): nothing to mark.
                return Ok(());
            };
            if me.dms_refused_at.is_some() {
                return Ok(());
            }
            let now = self.now_ms();
            let mut commit = Commit::any_seq(game, now).with_seat(SeatChange {
                dms_refused: Some(Some(now)),
                ..SeatChange::new(me.seat)
            });
            commit.status = row.status;
            let notice = OutMessage {
                pings: vec![user],
                ..OutMessage::to_channel(row.channel_id, refused_notice(user, game))
            };
            match self.try_commit(commit, &[notice]).await {
                Ok(_) => return Ok(()),
                Err(StoreError::Moved(_) | StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// `/game dms`: the player says their DMs are open again. Private
    /// messages go by DM from now on, starting with their prompt (and
    /// their own board, in a game that has private boards).
    pub(super) async fn dms_open(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(actor.user)) else {
            return user_err(format!("You are not playing in game {}.", row.id));
        };
        if me.dms_refused_at.is_none() {
            return Ok(Reply::private(format!(
                "Your DMs for game {} work: nothing was kept for you.",
                row.id
            )));
        }
        let mut out = Vec::new();
        if let Some(state) = &row.state {
            if let Some(p) = state.pending().into_iter().find(|p| p.seat == me.seat) {
                let due = self.due_of(&row).await?;
                let mut m = compose::prompt(&row, state, &p, me, &seats, due);
                if row.kind.private_boards() {
                    m.board = Some(BoardRef {
                        game: row.id,
                        viewer: Viewer::Seat(me.seat),
                        seq: row.seq,
                    });
                }
                out.push(m);
            }
        }
        let mut commit = Commit::any_seq(row.id, self.now_ms()).with_seat(SeatChange {
            dms_refused: Some(None),
            ..SeatChange::new(me.seat)
        });
        commit.status = row.status;
        self.commit(commit, &out).await?;
        Ok(Reply::private(if out.is_empty() {
            format!("I'll DM you about game {} again from now on.", row.id)
        } else {
            format!(
                "I'll DM you about game {} again from now on, starting with your prompt. If it does not come, your DMs are still closed: I'll say so in the channel.",
                row.id
            )
        }))
    }

    /// `/game board` asked in the channel by a player of the game: their
    /// own board, and their prompt with its controls, privately.
    pub(super) async fn private_board_here(
        &self,
        actor: &Actor,
        row: &crate::store::GameRow,
    ) -> Result<Option<Reply>, ServiceError> {
        let seats = self.store.seats(row.id).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(actor.user)) else {
            return Ok(None);
        };
        let Some(state) = &row.state else {
            return Ok(None);
        };
        let names = Self::names(&seats);
        let phase = state.phase();
        let mut text = Text::plain(format!(
            "{} · game {} · Phase {} · {} · your own board (only you see this)",
            row.kind.name(),
            row.id,
            phase.number,
            phase.title(&names)
        ));
        let mut choices = Vec::new();
        if let Some(p) = state.pending().into_iter().find(|p| p.seat == me.seat) {
            let due = self.due_of(row).await?;
            let m = compose::prompt(row, state, &p, me, &seats, due);
            text.push('\n');
            text.append(m.full_text());
            choices = m.choices;
        }
        Ok(Some(Reply {
            text,
            ephemeral: true,
            board: Some(BoardRef {
                game: row.id,
                viewer: Viewer::Seat(me.seat),
                seq: row.seq,
            }),
            choices,
            only_ack: false,
        }))
    }
}

/// The channel's notice for a player whose DMs are refused: who, why it
/// matters, and the two ways out. Nothing about the game's secrets.
fn refused_notice(user: UserId, game: GameId) -> Text {
    Text::plain("📪 ")
        .user(user)
        .then(format!(
            ": Discord won't let me DM you, so your prompts and private messages for game {game} are kept for you. Read them here privately with "
        ))
        .code("/game board")
        .then(" (only you see the answer), or allow DMs from this server's members (the server's name → Privacy Settings → Direct Messages) and then run ")
        .code("/game dms")
        .then(".")
}
