//! Delivering the outbox through any [`Transport`], oldest first, one
//! target's messages in order, and keeping live messages (a seat's prompt,
//! a phase's post: see [`Slot`]) edited in place as [`Op`] says.

use super::private::Route;
use super::transport::{Claimed, Delivery, Posted, Transport};
use super::{Op, OutMessage, Service, Slot, Target};
use orrery_store::{Claims, LiveRow, OutboxRow};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// How long a delivery pass holds the rows it claims, on the database's
/// clock: past it, another pass may take them (the holder is taken for
/// dead; if it was only stalled, its later writes are refused and its
/// late edit undone).
pub const CLAIM_LEASE: Duration = Duration::from_secs(60);

/// A claimed row is only sent while at least this much of its lease is
/// left, so that a send is over before anyone else may take the row.
const CLAIM_MARGIN: Duration = Duration::from_secs(20);

/// A send with no answer by then is given up as a passing failure: the row
/// is sent again by a later pass, under the same nonce (a post that did get
/// through is not posted twice). One stuck request then holds up neither
/// its target nor the pass for good, and every send ends inside its claim's
/// lease (see [`CLAIM_MARGIN`]).
pub const SEND_TIMEOUT: Duration = CLAIM_MARGIN;

/// How many rows a pass claims at a time.
const CLAIM_BATCH: i64 = 16;

/// Did a write fail because another delivery pass took the row over?
fn superseded_in(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<orrery_store::StoreError>()
            .is_some_and(|e| e.is_superseded())
    })
}

impl Service {
    /// Deliver queued messages through `transport` until nothing more can
    /// be claimed. Returns how many were sent. See [`Service::deliver_until`].
    pub async fn deliver<T: Transport>(&self, transport: &T) -> anyhow::Result<usize> {
        self.deliver_until(transport, &CancellationToken::new()).await
    }

    /// Deliver queued messages through `transport`, oldest first, until
    /// nothing more can be claimed or `stop` is cancelled (checked between
    /// messages: a message being sent is finished and marked). Returns how
    /// many were sent.
    ///
    /// Rows are claimed first ([`orrery_store::Store::claim_outbox`]), so
    /// any number of passes, in this process or others sharing the
    /// database, may run at once without sending a message twice. Messages
    /// to one target, and the messages of one live slot, keep their order:
    /// a row is claimed only when every older row of its target and slot
    /// is delivered. After a passing failure the row stays claimed by this
    /// pass until the pass ends, so later messages to its target wait for
    /// the next pass, while other targets go on.
    ///
    /// A message with a [`Slot`] acts on the slot's live message as its
    /// [`Op`] says; one without is posted.
    pub async fn deliver_until<T: Transport>(&self, transport: &T, stop: &CancellationToken) -> anyhow::Result<usize> {
        let pass = self.passes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let by = format!("{}/{pass}", self.worker);
        let result = self.deliver_claimed(transport, stop, &by).await;
        // Rows that failed, or were claimed but not reached, are given back.
        let released = self.store.release_outbox(&by).await;
        let sent = result?;
        released?;
        Ok(sent)
    }

    async fn deliver_claimed<T: Transport>(
        &self,
        transport: &T,
        stop: &CancellationToken,
        by: &str,
    ) -> anyhow::Result<usize> {
        let mut sent = 0;
        loop {
            if stop.is_cancelled() {
                return Ok(sent);
            }
            let own = format!("{}/", self.worker);
            let claims = if self.sole {
                Claims::OnlyOwn(&own)
            } else {
                Claims::Honoured
            };
            // Leases run on the database's clock; this pass measures what
            // is left of them on its own monotonic clock, from before the
            // claim (so never more than the database granted).
            let claimed_at = Instant::now();
            let batch = self
                .store
                .claim_outbox_for(by, CLAIM_LEASE.as_millis() as i64, CLAIM_BATCH, claims)
                .await?;
            if batch.is_empty() {
                return Ok(sent);
            }
            for row in batch {
                if stop.is_cancelled() {
                    return Ok(sent);
                }
                if claimed_at.elapsed() + CLAIM_MARGIN > CLAIM_LEASE {
                    // Too little of the lease is left to send safely: given
                    // back at the end of the pass, claimed afresh by the next.
                    return Ok(sent);
                }
                let claim = Claimed { id: row.id, by };
                match self.deliver_row(transport, &row, claim).await {
                    Ok(true) => sent += 1,
                    Ok(false) => {}
                    Err(e) if superseded_in(&e) => {
                        // This pass stalled past its lease and another took
                        // the row over: what it sent is superseded, nothing
                        // of it was recorded, and its edit was undone.
                        tracing::info!(outbox = row.id, "delivery superseded by another pass: {e:#}");
                    }
                    Err(e) => return Err(e),
                }
            }
        }
    }

    /// Deliver one claimed row and mark it. Returns whether it was sent; a
    /// passing failure is recorded and leaves the row undelivered. Every
    /// write is fenced by the claim: [`orrery_store::StoreError::Superseded`]
    /// once another pass holds the row.
    async fn deliver_row<T: Transport>(&self, transport: &T, row: &OutboxRow, c: Claimed<'_>) -> anyhow::Result<bool> {
        let now = self.now_ms();
        let msg: OutMessage = match serde_json::from_value(row.payload.clone()) {
            Ok(m) => m,
            Err(e) => {
                self.failed_send();
                self.store
                    .mark_failed_by(row.id, c.by, &format!("unreadable payload: {e}"), now)
                    .await?;
                self.store.mark_delivered_by(row.id, c.by, now).await?;
                return Ok(false);
            }
        };
        let route = match self.private_route(row.game_id, &msg.target).await {
            Ok(route) => route,
            Err(e) if super::damaged_in(&e).is_some() => {
                self.failed_send();
                return self.give_up_damaged(c, &e).await;
            }
            Err(e) => return Err(e),
        };
        let refused = matches!(route, Route::Held);
        let send = async {
            match &route {
                // Kept, not sent: the player reads it with /game board.
                Route::Held => Ok(Delivery::Refused("held: the player's DMs are closed".into())),
                Route::Direct => self.deliver_one(transport, c, &msg).await,
                Route::Thread(place) => self.deliver_in_thread(transport, c, place, &msg).await,
            }
        };
        let outcome = tokio::time::timeout(self.send_timeout, send)
            .await
            .unwrap_or_else(|_| Err(anyhow::anyhow!("no answer within {:?}", self.send_timeout)));
        if !matches!(outcome, Ok(Delivery::Sent(_))) {
            self.failed_send();
        }
        match outcome {
            Ok(Delivery::Sent(_)) => {
                self.store.mark_delivered_by(row.id, c.by, self.now_ms()).await?;
                Ok(true)
            }
            Ok(Delivery::Undeliverable(why)) => {
                self.store
                    .mark_failed_by(row.id, c.by, &format!("undeliverable: {why}"), now)
                    .await?;
                self.store.mark_delivered_by(row.id, c.by, self.now_ms()).await?;
                Ok(false)
            }
            Ok(Delivery::Refused(why)) => {
                self.store
                    .mark_failed_by(row.id, c.by, &format!("refused: {why}"), now)
                    .await?;
                self.store.mark_delivered_by(row.id, c.by, self.now_ms()).await?;
                if !refused {
                    if let (Some(game), Target::Dm(user)) = (row.game_id, &msg.target) {
                        self.refuse_dms(game, *user).await?;
                    }
                }
                Ok(false)
            }
            Err(e) if superseded_in(&e) => Err(e),
            Err(e) if super::damaged_in(&e).is_some() => self.give_up_damaged(c, &e).await,
            Err(e) => {
                // Still claimed by this pass: its target waits for the next.
                self.store.mark_failed_by(row.id, c.by, &format!("{e:#}"), now).await?;
                Ok(false)
            }
        }
    }

    /// A message about a game whose log is damaged cannot be sent (its
    /// route and board need the game): it is given up, as undeliverable,
    /// so that it holds up no other message to its target (a player's DMs
    /// of their other games share its lane). Counted as a failed send.
    async fn give_up_damaged(&self, c: Claimed<'_>, e: &anyhow::Error) -> anyhow::Result<bool> {
        let now = self.now_ms();
        self.store
            .mark_failed_by(c.id, c.by, &format!("undeliverable: {e:#}"), now)
            .await?;
        self.store.mark_delivered_by(c.id, c.by, now).await?;
        Ok(false)
    }

    /// This pass edited the live message at `at` for row `c` but had lost
    /// the row's claim meanwhile (it stalled past its lease, and another
    /// pass applied the row and maybe newer ones): its late edit may have
    /// put back an older version. Show the slot's live message as the
    /// store has it again; tried again while newer rows keep landing.
    async fn undo_superseded_edit<T: Transport>(
        &self,
        transport: &T,
        c: Claimed<'_>,
        slot: Slot,
        at: Posted,
    ) -> anyhow::Result<()> {
        let mut repaired = None;
        for _ in 0..3 {
            let Some(row) = self.store.live_message(slot.game(), &slot.key()).await? else {
                return Ok(());
            };
            if (row.channel_id, row.message_id) != (at.channel, at.message) || row.outbox_id == repaired {
                // The slot moved to another message (this one was retired
                // and refuses its old controls), or it is repaired.
                return Ok(());
            }
            let Ok(Shown { msg, .. }) = serde_json::from_value::<Shown>(row.payload) else {
                return Ok(());
            };
            let png = match &msg.board {
                Some(b) => self.redraw(b, None).await.ok().flatten().map(|(png, _)| png),
                None => None,
            };
            tracing::info!(
                outbox = c.id,
                slot = slot.key(),
                "undoing a superseded edit: the live message shows its newest version again"
            );
            transport.edit(c.id, &at, &msg, png.as_deref()).await?;
            repaired = row.outbox_id;
        }
        Ok(())
    }

    /// One message to where its target says: a slot's live message acted
    /// on, or a post.
    pub(super) async fn deliver_one<T: Transport>(
        &self,
        transport: &T,
        c: Claimed<'_>,
        msg: &OutMessage,
    ) -> anyhow::Result<Delivery> {
        match msg.slot {
            Some(slot) => self.deliver_live(transport, c, slot, msg).await,
            None => self.post(transport, c, msg).await,
        }
    }

    /// Post `msg`, its board drawn. A board that cannot be drawn must not
    /// hold the message back.
    async fn post<T: Transport>(&self, transport: &T, c: Claimed<'_>, msg: &OutMessage) -> anyhow::Result<Delivery> {
        Ok(self.post_drawn(transport, c, msg).await?.0)
    }

    /// Post `msg`, with the digest of the picture it carries.
    async fn post_drawn<T: Transport>(
        &self,
        transport: &T,
        c: Claimed<'_>,
        msg: &OutMessage,
    ) -> anyhow::Result<(Delivery, Option<u64>)> {
        let drawn = match &msg.board {
            // No picture shown yet: always drawn.
            Some(b) => match self.redraw(b, None).await {
                Ok(drawn) => drawn,
                Err(e) => {
                    tracing::error!(outbox = c.id, "board could not be rendered: {e:#}");
                    None
                }
            },
            None => None,
        };
        let delivery = transport
            .send(c.id, msg, drawn.as_ref().map(|(png, _)| png.as_slice()))
            .await?;
        Ok((delivery, drawn.map(|(_, digest)| digest)))
    }

    /// A board's PNG and the digest of its scene, unless the scene's digest
    /// is `shown` (the picture already shown): then `None`, nothing drawn.
    async fn redraw(&self, board: &super::BoardRef, shown: Option<u64>) -> anyhow::Result<Option<(Vec<u8>, u64)>> {
        let scene = self.scene_of(board).await?;
        let digest = scene_digest(&scene)?;
        if Some(digest) == shown {
            return Ok(None);
        }
        Ok(Some((orrery_render::render_png(&scene)?, digest)))
    }

    /// Post `msg` and make it `slot`'s live message (when the transport
    /// says where it put it).
    async fn post_live<T: Transport>(
        &self,
        transport: &T,
        c: Claimed<'_>,
        slot: Slot,
        msg: &OutMessage,
    ) -> anyhow::Result<Delivery> {
        let (delivery, digest) = self.post_drawn(transport, c, msg).await?;
        if let Delivery::Sent(Some(at)) = delivery {
            self.record(slot, at, msg, digest, c).await?;
        }
        Ok(delivery)
    }

    async fn record(
        &self,
        slot: Slot,
        at: Posted,
        shown: &OutMessage,
        board_digest: Option<u64>,
        c: Claimed<'_>,
    ) -> anyhow::Result<()> {
        let shown = Shown {
            msg: shown.clone(),
            board_digest: board_digest.filter(|_| shown.board.is_some()),
        };
        self.store
            .put_live_message_by(
                &LiveRow {
                    game_id: slot.game(),
                    slot: slot.key(),
                    channel_id: at.channel,
                    message_id: at.message,
                    payload: serde_json::to_value(&shown)?,
                    outbox_id: Some(c.id),
                    updated_at: self.now_ms(),
                },
                c.by,
            )
            .await?;
        Ok(())
    }

    /// One message acting on its slot's live message.
    async fn deliver_live<T: Transport>(
        &self,
        transport: &T,
        c: Claimed<'_>,
        slot: Slot,
        msg: &OutMessage,
    ) -> anyhow::Result<Delivery> {
        let key = slot.key();
        let live = match self.store.live_message(slot.game(), &key).await? {
            Some(row) => match serde_json::from_value::<Shown>(row.payload.clone()) {
                Ok(Shown { msg, board_digest }) => Some((row, msg, board_digest)),
                Err(e) => {
                    tracing::warn!(
                        game = slot.game().0,
                        slot = key,
                        "forgetting an unreadable live message: {e}"
                    );
                    self.store.remove_live_message_by(slot.game(), &key, c.id, c.by).await?;
                    None
                }
            },
            None => None,
        };
        let Some((row, shown, shown_digest)) = live else {
            return match msg.op {
                Op::Close => Ok(Delivery::Sent(None)),
                Op::Post | Op::Update | Op::Append => self.post_live(transport, c, slot, msg).await,
            };
        };
        let at = Posted {
            channel: row.channel_id,
            message: row.message_id,
        };
        if row.outbox_id == Some(c.id) {
            // Applied already: the delivery stopped before marking it.
            return Ok(Delivery::Sent(Some(at)));
        }
        match msg.op {
            Op::Post => {
                self.retire(transport, c, slot, &at, &shown).await?;
                self.post_live(transport, c, slot, msg).await
            }
            Op::Update | Op::Append if shown.target != msg.target => {
                // The slot changed hands (a new player took the seat): the
                // old message is retired where it is, the new one posted.
                self.retire(transport, c, slot, &at, &shown).await?;
                self.post_live(transport, c, slot, msg).await
            }
            Op::Update | Op::Append => {
                let mut now = if msg.op == Op::Update {
                    updated(&shown, msg)
                } else {
                    appended(&shown, msg)
                };
                // A message bringing a newer board replaces the picture,
                // unless it would draw the same one.
                let mut png = None;
                let mut digest = shown_digest;
                if now.board != shown.board {
                    if let Some(b) = &now.board {
                        match self.redraw(b, shown_digest).await {
                            Ok(Some((bytes, d))) => {
                                png = Some(bytes);
                                digest = Some(d);
                            }
                            // The same picture: the one shown stays.
                            Ok(None) => now.board = shown.board.clone(),
                            Err(e) => {
                                tracing::error!(outbox = c.id, "board could not be rendered: {e:#}");
                                now.board = shown.board.clone();
                            }
                        }
                    }
                }
                if shows_the_same(&shown, &now) {
                    // Nothing its reader sees would change: no edit.
                    self.record(slot, at, &now, digest, c).await?;
                    return Ok(Delivery::Sent(Some(at)));
                }
                match transport.edit(c.id, &at, &now, png.as_deref()).await? {
                    Delivery::Sent(_) => {
                        if let Err(e) = self.record(slot, at, &now, digest, c).await {
                            if superseded_in(&e) {
                                self.undo_superseded_edit(transport, c, slot, at).await?;
                            }
                            return Err(e);
                        }
                        Ok(Delivery::Sent(Some(at)))
                    }
                    Delivery::Undeliverable(why) | Delivery::Refused(why) => {
                        // Gone (deleted by someone): show it anew.
                        tracing::warn!(
                            outbox = c.id,
                            slot = key,
                            "live message cannot be edited, posting it anew: {why}"
                        );
                        self.store.remove_live_message_by(slot.game(), &key, c.id, c.by).await?;
                        self.post_live(transport, c, slot, &now).await
                    }
                }
            }
            Op::Close => {
                let now = closed(&shown, msg);
                let delivery = if shows_the_same(&shown, &now) {
                    Delivery::Sent(Some(at))
                } else {
                    transport.edit(c.id, &at, &now, None).await?
                };
                self.store.remove_live_message_by(slot.game(), &key, c.id, c.by).await?;
                Ok(delivery)
            }
        }
    }

    /// A newer post takes `slot`: the live message loses its controls and
    /// otherwise stays as it is. If it cannot be edited any more, it is
    /// only forgotten.
    async fn retire<T: Transport>(
        &self,
        transport: &T,
        c: Claimed<'_>,
        slot: Slot,
        at: &Posted,
        shown: &OutMessage,
    ) -> anyhow::Result<()> {
        let mut now = shown.clone();
        now.choices.clear();
        now.op = Op::Close;
        if shows_the_same(shown, &now) {
            // It has no controls to lose.
            self.store
                .remove_live_message_by(slot.game(), &slot.key(), c.id, c.by)
                .await?;
            return Ok(());
        }
        if let Delivery::Undeliverable(why) | Delivery::Refused(why) = transport.edit(c.id, at, &now, None).await? {
            tracing::warn!(
                outbox = c.id,
                slot = slot.key(),
                "the slot's last message could not be closed: {why}"
            );
        }
        self.store
            .remove_live_message_by(slot.game(), &slot.key(), c.id, c.by)
            .await?;
        Ok(())
    }
}

/// A live message as recorded: what it shows, and the digest of the scene
/// its picture draws (`None` when it has none, or for rows recorded before
/// digests were kept: their picture counts as different).
#[derive(serde::Serialize, serde::Deserialize)]
struct Shown {
    #[serde(flatten)]
    msg: OutMessage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    board_digest: Option<u64>,
}

/// The digest of a scene: 64-bit FNV-1a of its JSON. Two boards with the
/// same digest are the same picture, so a live message's picture is
/// replaced only when what it draws changed.
fn scene_digest(scene: &orrery_render::Scene) -> anyhow::Result<u64> {
    let bytes = serde_json::to_vec(scene)?;
    Ok(bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    }))
}

/// Whether a live message showing `shown` would look the same as `now`
/// (its text, controls and board): then an edit would change nothing, and
/// none is sent.
fn shows_the_same(shown: &OutMessage, now: &OutMessage) -> bool {
    shown.full_text() == now.full_text() && shown.choices == now.choices && shown.board == now.board
}

/// `shown` replaced by `msg`: text, footer and choices (and the lead, when
/// `msg` has one); the board `msg`'s when it brings one, else kept.
fn updated(shown: &OutMessage, msg: &OutMessage) -> OutMessage {
    OutMessage {
        target: shown.target.clone(),
        text: msg.text.clone(),
        board: msg.board.clone().or_else(|| shown.board.clone()),
        choices: msg.choices.clone(),
        game_over: shown.game_over || msg.game_over,
        lead: msg.lead.clone().or_else(|| shown.lead.clone()),
        footer: msg.footer.clone(),
        slot: msg.slot,
        op: Op::Update,
        pings: Vec::new(),
    }
}

/// `msg`'s text added to `shown`'s as new lines, its footer replacing
/// `shown`'s when given, its board too when it brings one; choices stay.
fn appended(shown: &OutMessage, msg: &OutMessage) -> OutMessage {
    OutMessage {
        target: shown.target.clone(),
        text: with_line(shown, msg),
        board: msg.board.clone().or_else(|| shown.board.clone()),
        choices: shown.choices.clone(),
        game_over: shown.game_over || msg.game_over,
        lead: shown.lead.clone(),
        footer: msg.footer.clone().or_else(|| shown.footer.clone()),
        slot: msg.slot,
        op: Op::Append,
        pings: Vec::new(),
    }
}

/// `shown` closed: its text with `msg`'s as a last line, no controls, the
/// footer `msg`'s (who was awaited is over), the board kept.
fn closed(shown: &OutMessage, msg: &OutMessage) -> OutMessage {
    OutMessage {
        target: shown.target.clone(),
        text: with_line(shown, msg),
        board: shown.board.clone(),
        choices: Vec::new(),
        game_over: shown.game_over || msg.game_over,
        lead: shown.lead.clone(),
        footer: msg.footer.clone(),
        slot: msg.slot,
        op: Op::Close,
        pings: Vec::new(),
    }
}

fn with_line(shown: &OutMessage, msg: &OutMessage) -> super::Text {
    let mut text = shown.text.clone();
    if !msg.text.is_empty() {
        if !text.is_empty() {
            text.push('\n');
        }
        text.append(msg.text.clone());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Slot, Text};
    use orrery_engine::UserId;

    #[test]
    fn a_prompt_edited_in_place_keeps_what_it_told() {
        let game = orrery_engine::GameId(1);
        let slot = Slot::Prompt {
            game,
            seat: orrery_engine::Seat(0),
        };
        let mut shown = OutMessage::to_dm(UserId(7), "Your combat sheet is empty.").in_slot(slot, Op::Post);
        shown.lead = Some(Text::plain("Combat: 2 shots, 1 hit."));
        shown.footer = Some(Text::plain("Due soon"));
        assert_eq!(
            shown.full_text(),
            Text::plain("Combat: 2 shots, 1 hit.\nYour combat sheet is empty.\nDue soon")
        );
        // The seat writes a line: the prompt is updated without a lead.
        let edit = OutMessage::to_dm(UserId(7), "Your sheet (1): fire").in_slot(slot, Op::Update);
        let now = updated(&shown, &edit);
        assert_eq!(now.lead, shown.lead);
        assert_eq!(
            now.full_text(),
            Text::plain("Combat: 2 shots, 1 hit.\nYour sheet (1): fire")
        );
        // Closed, it still reads what it told.
        let close = OutMessage::to_dm(UserId(7), "Closed.").in_slot(slot, Op::Close);
        assert!(closed(&now, &close)
            .full_text()
            .to_string()
            .starts_with("Combat: 2 shots, 1 hit."));
        // An update that brings its own lead replaces it.
        let mut next = edit.clone();
        next.lead = Some(Text::plain("Gone dark: R14."));
        assert_eq!(updated(&now, &next).lead, next.lead);
    }
}
