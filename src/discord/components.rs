//! Buttons and select menus offering orders, and what happens when one is
//! used.
//!
//! A button's custom id carries the whole order: `o:{game}:{command line}`
//! (at most 100 characters, Discord's limit). When some order does not
//! fit, the choices become one select menu `s:{game}` whose values are the
//! command lines; when even that does not fit, they are listed as text.

use super::respond::{actor_of_component, clip, clip_message, post_text, BOARD_FILE, MESSAGE_LIMIT};
use super::{error_text, Data, Error};
use crate::engine::{CommandLine, GameId};
use crate::service::{Choice, Reply, Request};
use poise::serenity_prelude as serenity;

/// Discord's limit on a component's custom id (and a menu option's value).
pub const CUSTOM_ID_MAX: usize = 100;
/// Buttons in one action row.
pub const BUTTONS_PER_ROW: usize = 5;
/// Action rows in one message.
pub const MAX_ROWS: usize = 5;
/// Discord's limit on a button label.
pub const BUTTON_LABEL_MAX: usize = 80;
/// Options in one select menu.
pub const SELECT_OPTIONS_MAX: usize = 25;
/// Discord's limit on a select option's label.
pub const SELECT_LABEL_MAX: usize = 100;

const ORDER_PREFIX: &str = "o:";
const SELECT_PREFIX: &str = "s:";

/// What a component's custom id asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentId {
    /// A button giving this order.
    Order { game: GameId, line: CommandLine },
    /// A menu whose picked value is an order in this game.
    Select { game: GameId },
}

/// The custom id of a button giving `line` in `game`, if it fits.
pub fn encode_order(game: GameId, line: &CommandLine) -> Option<String> {
    let id = format!("{ORDER_PREFIX}{}:{line}", game.0);
    fits(&id).then_some(id)
}

/// The custom id of a menu of orders in `game`.
pub fn encode_select(game: GameId) -> String {
    format!("{SELECT_PREFIX}{}", game.0)
}

fn fits(value: &str) -> bool {
    let n = value.chars().count();
    (1..=CUSTOM_ID_MAX).contains(&n)
}

/// Read a custom id made by [`encode_order`] or [`encode_select`].
pub fn decode(custom_id: &str) -> Option<ComponentId> {
    if let Some(rest) = custom_id.strip_prefix(ORDER_PREFIX) {
        let (game, line) = rest.split_once(':')?;
        let game = GameId(game.parse().ok()?);
        let line = CommandLine::parse(line).ok()?;
        return Some(ComponentId::Order { game, line });
    }
    if let Some(game) = custom_id.strip_prefix(SELECT_PREFIX) {
        return Some(ComponentId::Select {
            game: GameId(game.parse().ok()?),
        });
    }
    None
}

/// How a list of choices is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    None,
    /// Rows of (label, custom id).
    Buttons(Vec<Vec<(String, String)>>),
    /// One menu: its custom id and its (label, value) options.
    Select {
        custom_id: String,
        options: Vec<(String, String)>,
    },
    /// Listed in the message text.
    Text(String),
}

/// Lay out choices: buttons when every order fits a custom id, else one
/// select menu when they are all in one game and fit menu values, else
/// text. Duplicate orders are shown once.
pub fn layout(choices: &[Choice]) -> Layout {
    let mut unique: Vec<&Choice> = Vec::new();
    for c in choices {
        if !unique.iter().any(|u| u.game == c.game && u.command == c.command) {
            unique.push(c);
        }
    }
    if unique.is_empty() {
        return Layout::None;
    }
    if unique.len() <= BUTTONS_PER_ROW * MAX_ROWS {
        let buttons: Option<Vec<(String, String)>> = unique
            .iter()
            .map(|c| encode_order(c.game, &c.command).map(|id| (clip(&label_of(c), BUTTON_LABEL_MAX), id)))
            .collect();
        if let Some(buttons) = buttons {
            return Layout::Buttons(chunk(buttons, BUTTONS_PER_ROW));
        }
    }
    let game = unique[0].game;
    if unique.len() <= SELECT_OPTIONS_MAX && unique.iter().all(|c| c.game == game) {
        let options: Option<Vec<(String, String)>> = unique
            .iter()
            .map(|c| {
                let value = c.command.to_string();
                fits(&value).then(|| (clip(&label_of(c), SELECT_LABEL_MAX), value))
            })
            .collect();
        if let Some(options) = options {
            return Layout::Select {
                custom_id: encode_select(game),
                options,
            };
        }
    }
    let lines: Vec<String> = unique.iter().map(|c| format!("- `{}`", c.command)).collect();
    Layout::Text(format!("Orders you can give:\n{}", lines.join("\n")))
}

fn label_of(c: &Choice) -> String {
    if c.label.trim().is_empty() {
        c.command.to_string()
    } else {
        c.label.clone()
    }
}

/// Split `items` into rows of at most `per_row`.
pub fn chunk<T>(items: Vec<T>, per_row: usize) -> Vec<Vec<T>> {
    let mut rows: Vec<Vec<T>> = Vec::new();
    for item in items {
        match rows.last_mut() {
            Some(row) if row.len() < per_row => row.push(item),
            _ => rows.push(vec![item]),
        }
    }
    rows
}

/// The action rows for `choices`, and any text to append to the message
/// when they could not be made into components.
pub fn choice_components(choices: &[Choice]) -> (Vec<serenity::CreateActionRow>, Option<String>) {
    match layout(choices) {
        Layout::None => (vec![], None),
        Layout::Buttons(rows) => {
            let rows = rows
                .into_iter()
                .map(|row| {
                    serenity::CreateActionRow::Buttons(
                        row.into_iter()
                            .map(|(label, id)| {
                                serenity::CreateButton::new(id)
                                    .label(label)
                                    .style(serenity::ButtonStyle::Primary)
                            })
                            .collect(),
                    )
                })
                .collect();
            (rows, None)
        }
        Layout::Select { custom_id, options } => {
            let options = options
                .into_iter()
                .map(|(label, value)| serenity::CreateSelectMenuOption::new(label, value))
                .collect();
            let menu = serenity::CreateSelectMenu::new(custom_id, serenity::CreateSelectMenuKind::String { options })
                .placeholder("Choose an order…");
            (vec![serenity::CreateActionRow::SelectMenu(menu)], None)
        }
        Layout::Text(text) => (vec![], Some(text)),
    }
}

/// The order a component interaction gives, if its id and data make one.
pub fn order_of(custom_id: &str, kind: &serenity::ComponentInteractionDataKind) -> Option<(GameId, CommandLine)> {
    match (decode(custom_id)?, kind) {
        (ComponentId::Order { game, line }, serenity::ComponentInteractionDataKind::Button) => Some((game, line)),
        (ComponentId::Select { game }, serenity::ComponentInteractionDataKind::StringSelect { values }) => {
            let line = CommandLine::parse(values.first()?).ok()?;
            Some((game, line))
        }
        _ => None,
    }
}

/// Handle a button press or menu pick: give the order it stands for.
///
/// The interaction is acknowledged at once (a deferred update, so nothing
/// is shown yet). On success the prompt loses its buttons and gains a
/// line saying what was sent, and the service's reply follows privately;
/// on failure the prompt is left as it was and the reason follows
/// privately.
pub async fn handle_component(
    ctx: &serenity::Context,
    data: &Data,
    interaction: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let Some((game, line)) = order_of(&interaction.data.custom_id, &interaction.data.kind) else {
        let response = serenity::CreateInteractionResponseMessage::new()
            .content("That control is not one of mine any more. Use the game's slash commands instead.")
            .ephemeral(true);
        interaction
            .create_response(ctx, serenity::CreateInteractionResponse::Message(response))
            .await?;
        return Ok(());
    };
    interaction
        .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
        .await?;

    let actor = actor_of_component(interaction);
    let result = data
        .service
        .handle(
            &actor,
            Request::Order {
                game: Some(game),
                kind: None,
                line: line.clone(),
            },
        )
        .await;
    data.deliver_soon();
    match result {
        Ok(mut reply) => {
            let done = sent_marker(&interaction.message.content, &line);
            let edit = serenity::EditInteractionResponse::new()
                .content(done)
                .components(vec![]);
            if let Err(e) = interaction.edit_response(ctx, edit).await {
                tracing::warn!("could not update the prompt after an order: {e}");
            }
            let png = match &reply.board {
                Some(board) => data
                    .service
                    .render(board)
                    .await
                    .map_err(|e| tracing::error!("rendering a board failed: {e:#}"))
                    .ok(),
                None => None,
            };
            if reply.board.is_some() && png.is_none() {
                reply.text.push_str("\n(The board could not be drawn.)");
            }
            interaction.create_followup(ctx, followup(&reply, png)).await?;
        }
        Err(e) => {
            let text = error_text(&Error::from(e));
            let response = serenity::CreateInteractionResponseFollowup::new()
                .content(clip_message(&text))
                .ephemeral(true);
            interaction.create_followup(ctx, response).await?;
        }
    }
    Ok(())
}

/// The prompt's text after its order was sent: the text (cut if need be)
/// and a line saying what was sent.
pub fn sent_marker(prompt: &str, line: &CommandLine) -> String {
    let marker = clip(&format!("✅ Sent `{line}`"), MESSAGE_LIMIT / 2);
    let room = MESSAGE_LIMIT - marker.chars().count() - 1;
    let head = clip(prompt, room);
    if head.trim().is_empty() {
        marker
    } else {
        format!("{head}\n{marker}")
    }
}

/// The private follow-up carrying a reply to a component.
fn followup(reply: &Reply, png: Option<Vec<u8>>) -> serenity::CreateInteractionResponseFollowup {
    let (rows, extra) = choice_components(&reply.choices);
    let body = post_text(&reply.text);
    let text = match extra {
        Some(extra) => format!("{body}\n{extra}"),
        None => body,
    };
    let mut f = serenity::CreateInteractionResponseFollowup::new()
        .content(clip_message(&text))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if !rows.is_empty() {
        f = f.components(rows);
    }
    if let Some(png) = png {
        f = f.add_file(serenity::CreateAttachment::bytes(png, BOARD_FILE));
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(game: i64, line: &str) -> Choice {
        let command = CommandLine::parse(line).unwrap();
        Choice::order(GameId(game), command.clone(), command.to_string())
    }

    #[test]
    fn custom_ids_round_trip() {
        for line in [
            "end",
            "depart from:Algol ships:5",
            "card name:\"Gravity Well\"",
            "retreat ships:2 to:Vega",
        ] {
            let command = CommandLine::parse(line).unwrap();
            let id = encode_order(GameId(12), &command).unwrap();
            assert!(id.starts_with("o:12:"), "{id}");
            assert_eq!(
                decode(&id),
                Some(ComponentId::Order {
                    game: GameId(12),
                    line: command
                })
            );
        }
        assert_eq!(
            decode(&encode_select(GameId(3))),
            Some(ComponentId::Select { game: GameId(3) })
        );
        for bad in ["", "x:1", "o:", "o:abc:end", "o:1:", "o:1:depart Algol", "s:", "s:x"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn custom_ids_respect_the_100_character_limit() {
        let line = CommandLine::new("note").arg("text", "a".repeat(200));
        assert_eq!(encode_order(GameId(1), &line), None);
        // Exactly at the limit: "o:1:" + "x:" + value.
        let fits = CommandLine::new("x").arg("k", "v".repeat(CUSTOM_ID_MAX - "o:1:x k:".len()));
        let id = encode_order(GameId(1), &fits).unwrap();
        assert_eq!(id.chars().count(), CUSTOM_ID_MAX);
        let over = CommandLine::new("x").arg("k", "v".repeat(CUSTOM_ID_MAX - "o:1:x k:".len() + 1));
        assert_eq!(encode_order(GameId(1), &over), None);
        // Characters, not bytes.
        let wide = CommandLine::new("x").arg("k", "é".repeat(CUSTOM_ID_MAX - "o:1:x k:".len()));
        assert!(encode_order(GameId(1), &wide).is_some());
    }

    #[test]
    fn rows_hold_at_most_five_buttons() {
        assert_eq!(
            chunk((0..12).collect(), 5),
            vec![vec![0, 1, 2, 3, 4], vec![5, 6, 7, 8, 9], vec![10, 11]]
        );
        assert_eq!(chunk(Vec::<u8>::new(), 5), Vec::<Vec<u8>>::new());
        assert_eq!(chunk(vec![1, 2, 3, 4, 5], 5).len(), 1);

        let choices: Vec<Choice> = (1..=23)
            .map(|n| choice(4, &format!("depart from:A ships:{n}")))
            .collect();
        let Layout::Buttons(rows) = layout(&choices) else {
            panic!("{:?}", layout(&choices))
        };
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|r| r.len() <= BUTTONS_PER_ROW));
        assert_eq!(rows.iter().map(Vec::len).sum::<usize>(), 23);
        let (components, extra) = choice_components(&choices);
        assert_eq!(components.len(), 5);
        assert!(extra.is_none());
    }

    #[test]
    fn duplicates_are_shown_once() {
        let choices = vec![choice(1, "end"), choice(1, "end"), choice(2, "end")];
        let Layout::Buttons(rows) = layout(&choices) else {
            panic!()
        };
        assert_eq!(
            rows,
            vec![vec![
                ("end".to_string(), "o:1:end".to_string()),
                ("end".to_string(), "o:2:end".to_string())
            ]]
        );
        assert_eq!(layout(&[]), Layout::None);
    }

    #[test]
    fn long_orders_fall_back_to_a_menu_then_to_text() {
        // Too long for a button id with the prefix, short enough for a menu value.
        let long = format!(
            "arrive token:{} at:Vega",
            "t".repeat(CUSTOM_ID_MAX - "arrive token: at:Vega".len())
        );
        assert_eq!(long.chars().count(), CUSTOM_ID_MAX);
        let choices = vec![choice(7, &long), choice(7, "end")];
        match layout(&choices) {
            Layout::Select { custom_id, options } => {
                assert_eq!(custom_id, "s:7");
                assert_eq!(options.len(), 2);
                assert!(options
                    .iter()
                    .all(|(l, v)| l.chars().count() <= SELECT_LABEL_MAX && fits(v)));
            }
            other => panic!("{other:?}"),
        }
        // More than 25 choices, or too long even for a menu, or two games: text.
        let many: Vec<Choice> = (0..30).map(|n| choice(1, &format!("losses n:{n}"))).collect();
        assert!(matches!(layout(&many), Layout::Text(_)));
        let too_long = format!("arrive token:{} at:Vega", "t".repeat(150));
        let (rows, extra) = choice_components(&[choice(1, &too_long)]);
        assert!(rows.is_empty());
        assert!(extra.unwrap().contains("arrive token:"));
        let mixed = vec![choice(1, &long), choice(2, "end")];
        assert!(matches!(layout(&mixed), Layout::Text(_)));
    }

    #[test]
    fn components_decode_to_orders() {
        use poise::serenity_prelude::ComponentInteractionDataKind as K;
        assert_eq!(
            order_of("o:3:depart from:Algol ships:2", &K::Button),
            Some((GameId(3), CommandLine::parse("depart from:Algol ships:2").unwrap()))
        );
        let picked = K::StringSelect {
            values: vec!["card name:\"Gravity Well\"".into()],
        };
        assert_eq!(
            order_of("s:9", &picked),
            Some((GameId(9), CommandLine::parse("card name:\"Gravity Well\"").unwrap()))
        );
        assert_eq!(order_of("s:9", &K::StringSelect { values: vec![] }), None);
        assert_eq!(order_of("s:9", &K::Button), None);
        assert_eq!(order_of("o:3:end", &picked), None);
        assert_eq!(order_of("other", &K::Button), None);
    }

    #[test]
    fn the_prompt_keeps_its_text_and_says_what_was_sent() {
        let line = CommandLine::parse("end").unwrap();
        assert_eq!(sent_marker("Your turn.", &line), "Your turn.\n✅ Sent `end`");
        assert_eq!(sent_marker("", &line), "✅ Sent `end`");
        let long = sent_marker(&"z".repeat(MESSAGE_LIMIT), &line);
        assert_eq!(long.chars().count(), MESSAGE_LIMIT);
        assert!(long.ends_with("✅ Sent `end`"));
    }

    #[test]
    fn long_labels_are_clipped() {
        let mut c = choice(1, "end");
        c.label = "L".repeat(200);
        let Layout::Buttons(rows) = layout(&[c]) else { panic!() };
        assert_eq!(rows[0][0].0.chars().count(), BUTTON_LABEL_MAX);
    }
}
