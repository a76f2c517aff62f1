//! Private messages: where they go, and players whose DMs are closed.
//!
//! A seat's private messages (prompts, private boards, hands) go by DM, or
//! to a private thread of its own in the game's channel, with only the
//! player and the bot in it: the game's setting (`/host settings
//! private:thread`), or chosen for the seat (`/game private in:thread`, or
//! the host's `/host private seat:… in:thread`). The outbox keeps them as
//! messages to the player (`Target::Dm`); the delivery routes them
//! ([`Route`]), opening the thread through the transport on first use
//! and remembering it (`seats.thread_id`).
//!
//! Many Discord users refuse DMs from server members; a player who never
//! gets their prompts, hands and private boards cannot play. When Discord
//! refuses a DM to a seated player, their seat is marked and the game's
//! channel is told once (mentioning them, saying nothing secret), and
//! further private messages for the seat are kept instead of failing again
//! and again. The player reads everything private in the channel,
//! privately: `/game board` there shows their own board, sheet or hand,
//! and their prompt with working buttons. `/game dms` says their DMs are
//! open again; `/game private in:thread` moves them to a thread.

use super::change::{Changed, Load};
use super::roster::Roster;
use super::settings::private_place;
use super::transport::{Delivery, Opened, ThreadPlace, Transport};
use super::{compose, user_err, Actor, BoardRef, GameId, Op, OutMessage, Reply, Service, ServiceError, Target, Text};
use orrery_engine::{Seat, UserId, Viewer};
use orrery_store::{Commit, GameRow, PrivateTo, SeatChange, SeatRow, StoreError};

/// Where the delivery sends one outbox message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Route {
    /// Where its target says.
    Direct,
    /// Kept, not sent: a DM to a seated player whose DMs Discord refuses.
    Held,
    /// To the player's seat's private thread.
    Thread(SeatThread),
}

/// A seat whose private messages go to its thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SeatThread {
    pub game: GameId,
    pub seat: Seat,
    pub user: UserId,
    /// The game's channel (the thread's parent).
    pub channel: u64,
    /// The thread, once opened.
    pub thread: Option<u64>,
    pub name: String,
}

impl Service {
    /// Where a message to `target` about `game` goes: a DM to a seated
    /// player goes to their seat's thread when the seat's private messages
    /// go there, and is kept when Discord refuses their DMs.
    pub(super) async fn private_route(&self, game: Option<GameId>, target: &Target) -> anyhow::Result<Route> {
        let (Some(game), Target::Dm(user)) = (game, target) else {
            return Ok(Route::Direct);
        };
        let seats = self.store.seats(game).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(*user)) else {
            return Ok(Route::Direct);
        };
        let Some(row) = self.store.game(game).await? else {
            return Ok(Route::Direct);
        };
        if private_place(&row, me) == PrivateTo::Thread {
            return Ok(Route::Thread(SeatThread {
                game,
                seat: me.seat,
                user: *user,
                channel: row.channel_id,
                thread: me.thread_id,
                name: format!("{} {} · {}", row.kind.name(), row.id, me.name),
            }));
        }
        Ok(if me.dms_refused_at.is_some() {
            Route::Held
        } else {
            Route::Direct
        })
    }

    /// Deliver `msg` (a private message) in the seat's thread, opening it
    /// first if it has none. A post there mentions and pings the player
    /// alone. If the thread is gone, it is forgotten and the message tried
    /// again later (in a new thread).
    pub(super) async fn deliver_in_thread<T: Transport>(
        &self,
        transport: &T,
        c: super::transport::Claimed<'_>,
        place: &SeatThread,
        msg: &OutMessage,
    ) -> anyhow::Result<Delivery> {
        let thread = match place.thread {
            Some(thread) => thread,
            None => {
                let asked = ThreadPlace {
                    channel: place.channel,
                    name: place.name.clone(),
                    member: place.user,
                };
                match transport.open_thread(&asked).await? {
                    Opened::Thread(opened) => {
                        match self
                            .store
                            .set_seat_thread(place.game, place.seat, place.user, opened)
                            .await?
                        {
                            Some(thread) => thread,
                            None => return Ok(Delivery::Undeliverable("the seat changed hands".into())),
                        }
                    }
                    Opened::Unsupported => return self.deliver_one(transport, c, msg).await,
                    Opened::Refused(why) => {
                        return Ok(Delivery::Undeliverable(format!("no private thread: {why}")));
                    }
                }
            }
        };
        let mut m = msg.clone();
        m.target = Target::Channel(thread);
        if m.op == Op::Post {
            // Others may read the channel's threads list, not the thread:
            // the post alerts the player, and only them.
            m.lead = Some(match m.lead.take() {
                Some(lead) => Text::new().user(place.user).then(" ").and(lead),
                None => Text::new().user(place.user),
            });
            m.pings = vec![place.user];
        }
        let delivery = self.deliver_one(transport, c, &m).await?;
        if let (Delivery::Undeliverable(why), Some(old)) = (&delivery, place.thread) {
            if m.op != Op::Close {
                self.store.forget_seat_thread(place.game, place.seat, old).await?;
                anyhow::bail!(
                    "the private thread {old} of seat {} in game {} is gone ({why}): a new one is opened on the next try",
                    place.seat.0 + 1,
                    place.game
                );
            }
        }
        Ok(delivery)
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
    /// messages go by DM from now on (from their thread too, if they were
    /// there), starting with their prompt (and their own board, in a game
    /// that has private boards).
    pub(super) async fn dms_open(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let Some(me) = seats.iter().find(|s| s.played_by(actor.user)) else {
                return user_err(format!("You are not playing in game {}.", row.id));
            };
            if me.dms_refused_at.is_none() && private_place(row, me) == PrivateTo::Dms {
                return Ok(Changed::nothing(Reply::private(format!(
                    "Your DMs for game {} work: nothing was kept for you.",
                    row.id
                ))));
            }
            let (commit, out, prompted) = self.move_seat(row, &seats, me, PrivateTo::Dms).await?;
            let reply = Reply::private(if !prompted {
                format!("I'll DM you about game {} again from now on.", row.id)
            } else {
                format!(
                    "I'll DM you about game {} again from now on, starting with your prompt. If it does not come, your DMs are still closed: I'll say so in the channel.",
                    row.id
                )
            });
            Ok(Changed::commit(commit, out, reply))
        })
        .await
    }

    /// `/game private in:…` (`seat: None`, the asker's own seat) and
    /// `/host private seat:… in:…`: where the seat's private messages go
    /// from now on. What the player has pending comes there at once: their
    /// prompt (which leaves the old place) and their own board, or a line
    /// saying so.
    pub(super) async fn move_private(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        seat: Option<Seat>,
        to: PrivateTo,
    ) -> Result<Reply, ServiceError> {
        let row = match seat {
            Some(_) => self.hosted(actor, game, "move a player's private messages").await?,
            None => self.resolve(actor, game).await?,
        };
        if !row.status.is_open() {
            return user_err(format!("Game {} is over.", row.id));
        }
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let me = match seat {
                Some(seat) => match seats.iter().find(|s| s.seat == seat) {
                    Some(s) if !s.vacant => s,
                    _ => return user_err(format!("Seat {} of game {} has no player.", seat.0 + 1, row.id)),
                },
                None => match seats.iter().find(|s| s.played_by(actor.user)) {
                    Some(s) => s,
                    None => return user_err(format!("You are not playing in game {}.", row.id)),
                },
            };
            let (whose, who) = if seat.is_some() {
                (format!("{}'s", me.name), me.name.clone())
            } else {
                ("your".to_string(), "you".to_string())
            };
            let place = match to {
                PrivateTo::Dms => "go by DM".to_string(),
                PrivateTo::Thread => {
                    format!("go to a private thread in the game's channel that only {who} and I can read")
                }
            };
            if private_place(row, me) == to && (to == PrivateTo::Thread || me.dms_refused_at.is_none()) {
                return Ok(Changed::nothing(Reply::private(format!(
                    "All set already: {whose} private messages for game {} {place}.",
                    row.id
                ))));
            }
            let (commit, out, _) = self.move_seat(row, &seats, me, to).await?;
            let reply = Reply::private(format!(
                "From now on {whose} private messages for game {} {place}, starting with what is pending.",
                row.id
            ));
            Ok(Changed::commit(commit, out, reply))
        })
        .await
    }

    /// The change moving `me`'s private messages `to` a place (and
    /// clearing the refused mark when it is DMs), with what is pending sent
    /// there, and whether a prompt is.
    async fn move_seat(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
        me: &SeatRow,
        to: PrivateTo,
    ) -> Result<(Commit, Vec<OutMessage>, bool), ServiceError> {
        let mut out = Vec::new();
        let board = row
            .state
            .as_ref()
            .filter(|_| row.kind.private_boards())
            .map(|_| BoardRef {
                game: row.id,
                viewer: Viewer::Seat(me.seat),
                seq: row.seq,
            });
        let mut prompted = false;
        if let Some(state) = &row.state {
            if let Some(p) = state.pending().into_iter().find(|p| p.seat == me.seat) {
                let due = self.due_of(row).await?;
                let mut m = compose::prompt(row, state, &p, me, seats, due);
                m.board = board.clone().or(m.board);
                out.push(m);
                prompted = true;
            }
        }
        if !prompted && to == PrivateTo::Thread {
            // Something to open the thread with, so the player finds it now.
            let mut m = OutMessage::to_dm(
                me.user,
                format!(
                    "{} {}: your private messages come here from now on; nothing is waiting on you.",
                    row.kind.name(),
                    row.id
                ),
            );
            m.board = board;
            out.push(m);
        }
        let mut commit = Commit::any_seq(row.id, self.now_ms()).with_seat(SeatChange {
            private_to: Some(Some(to)),
            dms_refused: (to == PrivateTo::Dms).then_some(None),
            ..SeatChange::new(me.seat)
        });
        commit.status = row.status;
        Ok((commit, out, prompted))
    }

    /// `/game board` asked in the channel by a player of the game: their
    /// own board, and their prompt with its controls, privately.
    pub(super) async fn private_board_here(
        &self,
        actor: &Actor,
        row: &orrery_store::GameRow,
    ) -> Result<Option<Reply>, ServiceError> {
        let seats = self.store.seats(row.id).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(actor.user)) else {
            return Ok(None);
        };
        let Some(state) = &row.state else {
            return Ok(None);
        };
        let names = seats.names();
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
/// matters, and the ways out (read it here, a private thread, open DMs).
/// Nothing about the game's secrets.
fn refused_notice(user: UserId, game: GameId) -> Text {
    Text::plain("📪 ")
        .user(user)
        .then(format!(
            ": Discord won't let me DM you, so your prompts and private messages for game {game} are kept for you. Read them here privately with "
        ))
        .code("/game board")
        .then(" (only you see the answer), get them in a private thread here with ")
        .code("/game private in:thread")
        .then(", or allow DMs from this server's members (the server's name → Privacy Settings → Direct Messages) and then run ")
        .code("/game dms")
        .then(".")
}
