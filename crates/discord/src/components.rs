//! Buttons and select menus offering a prompt's choices, and what happens
//! when one is used.
//!
//! How choices are laid out ([`layout`]), within Discord's limits (5 action
//! rows, 5 buttons or one menu a row, 25 options a menu, custom ids and
//! option values of at most 100 characters):
//!
//! 1. **Buttons**, when every choice fits (at most 25, every order's id at
//!    most 100 characters): main orders primary, minor ones secondary,
//!    ending ones red, the seat's current pick green and marked `✓`; the
//!    prompt's own controls (board, take back) grey, in the last row. A
//!    group starts a row of its own when the rows allow.
//! 2. **Menus**: one menu per group (split in 25s: "Arrive (1/2)"), up to
//!    four, and one row of buttons with the minor and ending orders and the
//!    prompt's own controls (the minor and ending orders join the menus when
//!    they would not fit in one row).
//! 3. **A group picker**: one menu of the groups (`g:{game}`) and the row
//!    of buttons; picking a group answers privately with that group's menus.
//! 4. **Text**: the orders listed in the message (over 25 groups, or an
//!    order too long for a menu value), the prompt's own controls as buttons.
//!
//! Custom ids (all decoded by [`decode`]):
//!
//! | id | control |
//! | --- | --- |
//! | `o:{game}@{phase}:{line}` | a button giving the order `line` |
//! | `c:{game}@{phase}:{line}` | a button asking first, then giving `line` |
//! | `s:{game}@{phase}`, `s:{game}@{phase}:{n}` | a menu of orders (values: the lines, `?{line}` to ask first) |
//! | `g:{game}` | the group picker (values: group names) |
//! | `b:{game}` | the presser's own board |
//! | `t:{game}` | take back the presser's last order |
//! | `n:{game}` | cancel a confirmation |
//! | `j:{game}`, `l:{game}`, `a:{game}` | join, leave, start a lobby |
//! | `r:{game}` | resign from the game (the answer to `/game resign`'s question) |
//! | `k:{game}:{value}` | pick `value` for the presser's seat in a lobby (Spectrum War's colour), joining if need be |
//!
//! `@{phase}` binds an order's control to the position it was made for
//! ([`Choice::position`], the game's phase number): used in another phase,
//! the service refuses it with the presser's current prompt. Ids without
//! it (posted before controls carried it) are read too, and their orders
//! taken as typed ones are.

use super::actor::actor_of_component;
use super::text::{clip, clip_message, post_text, BOARD_FILE};
use super::{error_text, Data, Error};
use orrery_engine::{CommandLine, ControlStyle, GameId};
use orrery_service::{Act, Choice, Reply, Request};
use poise::serenity_prelude as serenity;

/// Discord's limit on a component's custom id.
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
/// Discord's limit on a select option's value.
pub const SELECT_VALUE_MAX: usize = 100;
/// Discord's limit on a select menu's placeholder.
pub const PLACEHOLDER_MAX: usize = 150;

/// Marks the seat's current pick.
pub const CURRENT_MARK: &str = "✓ ";
/// Begins the label of a confirmation's "yes" button.
pub const CONFIRM_YES: &str = "Yes — ";
/// What a cancelled confirmation says.
pub const CANCELLED: &str = "Cancelled";
/// Marks a menu value whose order is asked about first.
const ASK_FIRST: char = '?';

/// What a component's custom id stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentId {
    /// A button giving this order, made in phase `position`.
    Order {
        game: GameId,
        position: Option<u32>,
        line: CommandLine,
    },
    /// A button asking before giving this order.
    Confirm {
        game: GameId,
        position: Option<u32>,
        line: CommandLine,
    },
    /// A menu of orders in this game (`menu`: its number when a message
    /// has several).
    Select {
        game: GameId,
        position: Option<u32>,
        menu: Option<usize>,
    },
    /// A menu of the groups of orders.
    Picker { game: GameId },
    /// Show the presser their board.
    Board { game: GameId },
    /// Take back the presser's last order.
    TakeBack { game: GameId },
    /// Cancel a confirmation.
    Cancel { game: GameId },
    /// Take a seat in a lobby.
    Join { game: GameId },
    /// Leave a lobby.
    Leave { game: GameId },
    /// Start a game (its host).
    Start { game: GameId },
    /// Resign from a game, confirmed.
    Resign { game: GameId },
    /// Pick a value for the presser's seat in a lobby.
    Pick { game: GameId, value: String },
    /// Seat a computer player in a lobby (its host).
    AddBot { game: GameId },
}

impl ComponentId {
    /// The custom id, if it fits Discord's limit.
    pub fn encode(&self) -> Option<String> {
        let id = match self {
            ComponentId::Order { game, position, line } => format!("o:{}:{line}", at(*game, *position)),
            ComponentId::Confirm { game, position, line } => format!("c:{}:{line}", at(*game, *position)),
            ComponentId::Select {
                game,
                position,
                menu: None,
            } => format!("s:{}", at(*game, *position)),
            ComponentId::Select {
                game,
                position,
                menu: Some(n),
            } => format!("s:{}:{n}", at(*game, *position)),
            ComponentId::Picker { game } => format!("g:{}", game.0),
            ComponentId::Board { game } => format!("b:{}", game.0),
            ComponentId::TakeBack { game } => format!("t:{}", game.0),
            ComponentId::Cancel { game } => format!("n:{}", game.0),
            ComponentId::Join { game } => format!("j:{}", game.0),
            ComponentId::Leave { game } => format!("l:{}", game.0),
            ComponentId::Start { game } => format!("a:{}", game.0),
            ComponentId::Resign { game } => format!("r:{}", game.0),
            ComponentId::Pick { game, value } => format!("k:{}:{value}", game.0),
            ComponentId::AddBot { game } => format!("m:{}", game.0),
        };
        fits(&id).then_some(id)
    }
}

/// A game and the position a control was made for: `12@7`, or `12`.
fn at(game: GameId, position: Option<u32>) -> String {
    match position {
        Some(p) => format!("{}@{p}", game.0),
        None => game.0.to_string(),
    }
}

/// Read [`at`]'s form.
fn game_at(s: &str) -> Option<(GameId, Option<u32>)> {
    match s.split_once('@') {
        Some((g, p)) => Some((GameId(g.parse().ok()?), Some(p.parse().ok()?))),
        None => Some((GameId(s.parse().ok()?), None)),
    }
}

/// The custom id of a button giving `line` in `game`, made in phase
/// `position`, if it fits.
pub fn encode_order(game: GameId, position: Option<u32>, line: &CommandLine) -> Option<String> {
    ComponentId::Order {
        game,
        position,
        line: line.clone(),
    }
    .encode()
}

/// The custom id of the only menu of orders in a message.
pub fn encode_select(game: GameId, position: Option<u32>) -> String {
    format!("s:{}", at(game, position))
}

/// Between 1 and 100 characters (not bytes).
fn fits(value: &str) -> bool {
    let n = value.chars().count();
    (1..=CUSTOM_ID_MAX).contains(&n)
}

/// Read a custom id made by [`ComponentId::encode`].
pub fn decode(custom_id: &str) -> Option<ComponentId> {
    let (tag, rest) = custom_id.split_once(':')?;
    let game = |s: &str| s.parse::<i64>().ok().map(GameId);
    Some(match tag {
        "o" | "c" => {
            let (g, line) = rest.split_once(':')?;
            let ((game, position), line) = (game_at(g)?, CommandLine::parse(line).ok()?);
            if tag == "o" {
                ComponentId::Order { game, position, line }
            } else {
                ComponentId::Confirm { game, position, line }
            }
        }
        "s" => {
            let (g, menu) = match rest.split_once(':') {
                Some((g, n)) => (g, Some(n.parse().ok()?)),
                None => (rest, None),
            };
            let (game, position) = game_at(g)?;
            ComponentId::Select { game, position, menu }
        }
        "g" => ComponentId::Picker { game: game(rest)? },
        "b" => ComponentId::Board { game: game(rest)? },
        "t" => ComponentId::TakeBack { game: game(rest)? },
        "n" => ComponentId::Cancel { game: game(rest)? },
        "j" => ComponentId::Join { game: game(rest)? },
        "l" => ComponentId::Leave { game: game(rest)? },
        "a" => ComponentId::Start { game: game(rest)? },
        "r" => ComponentId::Resign { game: game(rest)? },
        "m" => ComponentId::AddBot { game: game(rest)? },
        "k" => {
            let (g, value) = rest.split_once(':')?;
            ComponentId::Pick {
                game: game(g)?,
                value: value.to_string(),
            }
        }
        _ => return None,
    })
}

/// A menu option's value for an order: its line, marked when it is asked
/// about first. `None` when over Discord's limit.
pub fn encode_value(c: &Choice) -> Option<String> {
    let value = match c.confirm {
        Some(_) => format!("{ASK_FIRST}{}", c.command),
        None => c.command.to_string(),
    };
    (1..=SELECT_VALUE_MAX).contains(&value.chars().count()).then_some(value)
}

/// Read a menu option's value: the order, and whether to ask first.
pub fn decode_value(value: &str) -> Option<(CommandLine, bool)> {
    match value.strip_prefix(ASK_FIRST) {
        Some(line) => Some((CommandLine::parse(line).ok()?, true)),
        None => Some((CommandLine::parse(value).ok()?, false)),
    }
}

/// How a button looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Primary,
    Secondary,
    Success,
    Danger,
}

impl Style {
    fn serenity(self) -> serenity::ButtonStyle {
        match self {
            Style::Primary => serenity::ButtonStyle::Primary,
            Style::Secondary => serenity::ButtonStyle::Secondary,
            Style::Success => serenity::ButtonStyle::Success,
            Style::Danger => serenity::ButtonStyle::Danger,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub label: String,
    pub id: String,
    pub style: Style,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuOption {
    pub label: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    pub id: String,
    pub placeholder: String,
    pub options: Vec<MenuOption>,
}

/// One action row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    Buttons(Vec<Button>),
    Menu(Menu),
}

/// How a list of choices is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    None,
    /// Every choice a button, in rows of at most five.
    Buttons(Vec<Vec<Button>>),
    /// Menus of orders (a row each), then a row of buttons (if any).
    Menus {
        menus: Vec<Menu>,
        buttons: Vec<Button>,
    },
    /// A menu of groups, then a row of buttons (if any).
    Picker {
        picker: Menu,
        buttons: Vec<Button>,
    },
    /// The orders listed as text; the prompt's own controls as buttons.
    Text {
        text: String,
        buttons: Vec<Button>,
    },
}

impl Layout {
    /// The action rows, in order.
    pub fn rows(&self) -> Vec<Row> {
        let with_buttons = |mut rows: Vec<Row>, buttons: &[Button]| {
            if !buttons.is_empty() {
                rows.push(Row::Buttons(buttons.to_vec()));
            }
            rows
        };
        match self {
            Layout::None => vec![],
            Layout::Buttons(rows) => rows.iter().cloned().map(Row::Buttons).collect(),
            Layout::Menus { menus, buttons } => with_buttons(menus.iter().cloned().map(Row::Menu).collect(), buttons),
            Layout::Picker { picker, buttons } => with_buttons(vec![Row::Menu(picker.clone())], buttons),
            Layout::Text { buttons, .. } => with_buttons(vec![], buttons),
        }
    }

    /// The text to add to the message, if any.
    pub fn text(&self) -> Option<&str> {
        match self {
            Layout::Text { text, .. } => Some(text),
            _ => None,
        }
    }
}

/// Choices once each: the same order (or the same control) of one game is
/// shown once.
fn unique(choices: &[Choice]) -> Vec<&Choice> {
    let mut out: Vec<&Choice> = Vec::new();
    for c in choices {
        if !out
            .iter()
            .any(|u| u.game == c.game && u.act == c.act && u.command == c.command)
        {
            out.push(c);
        }
    }
    out
}

/// What the player reads for a choice: its label, else its order's text.
fn label_of(c: &Choice) -> String {
    if !c.label.trim().is_empty() {
        c.label.clone()
    } else {
        match c.act {
            Act::Order => c.command.to_string(),
            Act::Board => "🗺 My board".into(),
            Act::TakeBack => "↩ Take back".into(),
            Act::Join => "Join".into(),
            Act::Leave => "Leave".into(),
            Act::Start => "Start".into(),
            Act::Resign => orrery_service::RESIGN_YES.into(),
            Act::Pick => c.command.name.clone(),
            Act::AddBot => orrery_service::ADD_BOT.into(),
        }
    }
}

/// The label with the current pick marked, cut to `max` characters.
fn marked(c: &Choice, max: usize) -> String {
    let mark = if c.current { CURRENT_MARK } else { "" };
    clip(&format!("{mark}{}", label_of(c)), max)
}

/// The group a choice is offered in: its own, else its command's name.
pub fn group_of(c: &Choice) -> &str {
    if c.group.trim().is_empty() {
        &c.command.name
    } else {
        &c.group
    }
}

fn style_of(c: &Choice) -> Style {
    if c.current {
        return Style::Success;
    }
    match c.style {
        ControlStyle::Main => Style::Primary,
        ControlStyle::Minor => Style::Secondary,
        ControlStyle::End => Style::Danger,
        ControlStyle::Done => Style::Success,
    }
}

/// The button of an order, if its id fits.
fn order_button(c: &Choice) -> Option<Button> {
    let (game, position, line) = (c.game, c.position, c.command.clone());
    let id = match c.confirm {
        Some(_) => ComponentId::Confirm { game, position, line },
        None => ComponentId::Order { game, position, line },
    };
    Some(Button {
        label: marked(c, BUTTON_LABEL_MAX),
        id: id.encode()?,
        style: style_of(c),
    })
}

/// The button of one of the prompt's own controls.
fn act_button(c: &Choice) -> Option<Button> {
    let id = match c.act {
        Act::Order => return order_button(c),
        Act::Board => ComponentId::Board { game: c.game },
        Act::TakeBack => ComponentId::TakeBack { game: c.game },
        Act::Join => ComponentId::Join { game: c.game },
        Act::Leave => ComponentId::Leave { game: c.game },
        Act::Start => ComponentId::Start { game: c.game },
        Act::Resign => ComponentId::Resign { game: c.game },
        Act::Pick => ComponentId::Pick {
            game: c.game,
            value: c.command.name.clone(),
        },
        Act::AddBot => ComponentId::AddBot { game: c.game },
    };
    let style = match c.act {
        Act::Join | Act::Start => Style::Primary,
        Act::Resign => Style::Danger,
        _ => Style::Secondary,
    };
    Some(Button {
        label: clip(&label_of(c), BUTTON_LABEL_MAX),
        id: id.encode()?,
        style,
    })
}

/// Lay out choices: as buttons when they all fit, else as menus by group
/// with a row of buttons, else as a group picker with that row, else as
/// text. See the module's documentation.
pub fn layout(choices: &[Choice]) -> Layout {
    let all = unique(choices);
    if all.is_empty() {
        return Layout::None;
    }
    let (acts, orders): (Vec<&Choice>, Vec<&Choice>) = all.into_iter().partition(|c| c.act != Act::Order);
    if let Some(rows) = button_rows(&orders, &acts) {
        return Layout::Buttons(rows);
    }
    let act_buttons: Vec<Button> = acts
        .iter()
        .filter_map(|c| act_button(c))
        .take(BUTTONS_PER_ROW)
        .collect();
    let side: Vec<&Choice> = orders
        .iter()
        .copied()
        .filter(|c| c.style != ControlStyle::Main)
        .collect();
    let side_buttons = (side.len() + act_buttons.len() <= BUTTONS_PER_ROW)
        .then(|| side.iter().map(|c| order_button(c)).collect::<Option<Vec<Button>>>())
        .flatten();
    let (buttons, in_menus): (Vec<Button>, Vec<&Choice>) = match side_buttons {
        Some(mut b) => {
            b.extend(act_buttons.iter().cloned());
            let main = orders
                .iter()
                .copied()
                .filter(|c| c.style == ControlStyle::Main)
                .collect();
            (b, main)
        }
        None => (act_buttons.clone(), orders.clone()),
    };
    let text = || Layout::Text {
        text: listed(&orders),
        buttons: act_buttons.clone(),
    };
    let Some(groups) = groups_of(&in_menus) else {
        return text();
    };
    let free = MAX_ROWS - usize::from(!buttons.is_empty());
    let menus = menus_of(&groups);
    if menus.len() <= free {
        return Layout::Menus { menus, buttons };
    }
    match picker(&groups) {
        Some(picker) => Layout::Picker { picker, buttons },
        None => text(),
    }
}

/// The layout of one group of `choices` (picked in a group picker): its
/// menus, else its orders as text; [`Layout::None`] when the group offers
/// nothing.
pub fn group_layout(choices: &[Choice], group: &str) -> Layout {
    let picked: Vec<&Choice> = unique(choices)
        .into_iter()
        .filter(|c| c.act == Act::Order && group_of(c) == group)
        .collect();
    if picked.is_empty() {
        return Layout::None;
    }
    if let Some(groups) = groups_of(&picked) {
        let menus = menus_of(&groups);
        if menus.len() <= MAX_ROWS {
            return Layout::Menus { menus, buttons: vec![] };
        }
    }
    Layout::Text {
        text: listed(&picked),
        buttons: vec![],
    }
}

/// Every choice as a button, if they fit: a row per group (acts in a last
/// row of their own) when the rows allow, else the orders packed with the
/// acts on a row of their own, else all packed (the acts still last).
fn button_rows(orders: &[&Choice], acts: &[&Choice]) -> Option<Vec<Vec<Button>>> {
    if orders.len() + acts.len() > MAX_ROWS * BUTTONS_PER_ROW {
        return None;
    }
    let order_buttons: Vec<(&str, Button)> = orders
        .iter()
        .map(|c| order_button(c).map(|b| (group_of(c), b)))
        .collect::<Option<_>>()?;
    let act_buttons: Vec<Button> = acts.iter().map(|c| act_button(c)).collect::<Option<_>>()?;

    let mut by_group: Vec<Vec<Button>> = Vec::new();
    let mut run: Vec<Button> = Vec::new();
    let mut last: Option<&str> = None;
    for (group, b) in &order_buttons {
        if last.is_some_and(|l| l != *group) {
            by_group.extend(chunk(std::mem::take(&mut run), BUTTONS_PER_ROW));
        }
        last = Some(*group);
        run.push(b.clone());
    }
    by_group.extend(chunk(run, BUTTONS_PER_ROW));
    // A lobby's picks (colours) get rows of their own, apart from Join,
    // Leave and Start.
    for picks in [false, true] {
        let part: Vec<Button> = acts
            .iter()
            .zip(&act_buttons)
            .filter(|(c, _)| (c.act == Act::Pick) == picks)
            .map(|(_, b)| b.clone())
            .collect();
        by_group.extend(chunk(part, BUTTONS_PER_ROW));
    }
    if by_group.len() <= MAX_ROWS {
        return Some(by_group);
    }
    let plain: Vec<Button> = order_buttons.into_iter().map(|(_, b)| b).collect();
    let mut packed = chunk(plain.clone(), BUTTONS_PER_ROW);
    packed.extend(chunk(act_buttons.clone(), BUTTONS_PER_ROW));
    if packed.len() <= MAX_ROWS {
        return Some(packed);
    }
    let mut all = plain;
    all.extend(act_buttons);
    Some(chunk(all, BUTTONS_PER_ROW))
}

/// Orders of one group of one game, as menu options.
struct Group {
    game: GameId,
    /// The position its orders were offered for.
    position: Option<u32>,
    name: String,
    options: Vec<MenuOption>,
    /// It holds the current pick.
    current: bool,
}

/// The orders by group, in order of first appearance; `None` when some
/// order is too long for a menu value.
fn groups_of(choices: &[&Choice]) -> Option<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::new();
    for c in choices {
        let option = MenuOption {
            label: marked(c, SELECT_LABEL_MAX),
            value: encode_value(c)?,
        };
        let name = group_of(c);
        match groups
            .iter_mut()
            .find(|g| g.game == c.game && g.position == c.position && g.name == name)
        {
            Some(g) => {
                g.options.push(option);
                g.current |= c.current;
            }
            None => groups.push(Group {
                game: c.game,
                position: c.position,
                name: name.to_string(),
                options: vec![option],
                current: c.current,
            }),
        }
    }
    Some(groups)
}

/// One menu per group, split in menus of 25 ("Arrive (1/2)"). The only
/// menu of a message is `s:{game}`; several are numbered `s:{game}:{n}`.
fn menus_of(groups: &[Group]) -> Vec<Menu> {
    let mut menus: Vec<(GameId, Option<u32>, String, Vec<MenuOption>)> = Vec::new();
    for g in groups {
        let parts = chunk(g.options.clone(), SELECT_OPTIONS_MAX);
        let k = parts.len();
        for (i, options) in parts.into_iter().enumerate() {
            let placeholder = if k > 1 {
                let suffix = format!(" ({}/{k})", i + 1);
                format!("{}{suffix}", clip(&g.name, PLACEHOLDER_MAX - suffix.chars().count()))
            } else {
                clip(&g.name, PLACEHOLDER_MAX)
            };
            menus.push((g.game, g.position, placeholder, options));
        }
    }
    let single = menus.len() == 1;
    menus
        .into_iter()
        .enumerate()
        .map(|(n, (game, position, placeholder, options))| Menu {
            id: ComponentId::Select {
                game,
                position,
                menu: (!single).then_some(n),
            }
            .encode()
            .expect("a menu id is short"),
            placeholder,
            options,
        })
        .collect()
}

/// A menu of the groups, if they are of one game, at most 25, and their
/// names fit menu values.
fn picker(groups: &[Group]) -> Option<Menu> {
    let game = groups.first()?.game;
    if groups.len() > SELECT_OPTIONS_MAX || groups.iter().any(|g| g.game != game) {
        return None;
    }
    let options = groups
        .iter()
        .map(|g| {
            let n = g.name.chars().count();
            (1..=SELECT_VALUE_MAX).contains(&n).then(|| MenuOption {
                label: clip(
                    &format!("{}{}", if g.current { CURRENT_MARK } else { "" }, g.name),
                    SELECT_LABEL_MAX,
                ),
                value: g.name.clone(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Menu {
        id: ComponentId::Picker { game }.encode()?,
        placeholder: "Choose what to do…".into(),
        options,
    })
}

/// The orders listed as text.
fn listed(orders: &[&Choice]) -> String {
    let lines: Vec<String> = orders.iter().map(|c| format!("- `{}`", c.command)).collect();
    format!("Orders you can give:\n{}", lines.join("\n"))
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

/// The action rows of a layout.
pub fn action_rows(rows: Vec<Row>) -> Vec<serenity::CreateActionRow> {
    rows.into_iter()
        .map(|row| match row {
            Row::Buttons(buttons) => serenity::CreateActionRow::Buttons(
                buttons
                    .into_iter()
                    .map(|b| {
                        serenity::CreateButton::new(b.id)
                            .label(b.label)
                            .style(b.style.serenity())
                    })
                    .collect(),
            ),
            Row::Menu(menu) => {
                let options = menu
                    .options
                    .into_iter()
                    .map(|o| serenity::CreateSelectMenuOption::new(o.label, o.value))
                    .collect();
                serenity::CreateActionRow::SelectMenu(
                    serenity::CreateSelectMenu::new(menu.id, serenity::CreateSelectMenuKind::String { options })
                        .placeholder(menu.placeholder),
                )
            }
        })
        .collect()
}

/// The action rows for `choices`, and any text to append to the message
/// when they could not all be made into components.
pub fn choice_components(choices: &[Choice]) -> (Vec<serenity::CreateActionRow>, Option<String>) {
    let l = layout(choices);
    (action_rows(l.rows()), l.text().map(str::to_string))
}

/// The rows of a confirmation: "Yes — label" giving `line` (a red button,
/// or a menu of that one order when its id would be too long), and
/// "Cancel".
pub fn confirmation_rows(game: GameId, position: Option<u32>, line: &CommandLine, label: &str) -> Vec<Row> {
    let yes = clip(&format!("{CONFIRM_YES}{label}"), BUTTON_LABEL_MAX);
    let cancel = Button {
        label: "Cancel".into(),
        id: ComponentId::Cancel { game }.encode().expect("a short id"),
        style: Style::Secondary,
    };
    match encode_order(game, position, line) {
        Some(id) => vec![Row::Buttons(vec![
            Button {
                label: yes,
                id,
                style: Style::Danger,
            },
            cancel,
        ])],
        None => {
            let value = line.to_string();
            let mut rows = Vec::new();
            if (1..=SELECT_VALUE_MAX).contains(&value.chars().count()) {
                rows.push(Row::Menu(Menu {
                    id: encode_select(game, position),
                    placeholder: "Confirm…".into(),
                    options: vec![MenuOption {
                        label: clip(&format!("{CONFIRM_YES}{label}"), SELECT_LABEL_MAX),
                        value,
                    }],
                }));
            }
            rows.push(Row::Buttons(vec![cancel]));
            rows
        }
    }
}

/// What using a component asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Give this order, from a control made in phase `position`.
    Order {
        game: GameId,
        position: Option<u32>,
        line: CommandLine,
    },
    /// Ask first, then give this order.
    Confirm {
        game: GameId,
        position: Option<u32>,
        line: CommandLine,
    },
    /// Show the menus of this group of orders.
    Group { game: GameId, group: String },
    /// Show the presser their board.
    Board { game: GameId },
    /// Take back the presser's last order.
    TakeBack { game: GameId },
    /// Drop a confirmation.
    Cancel,
    /// A button standing for a request: join, leave or start a lobby;
    /// resign (confirmed).
    Request(Request),
}

/// What a component interaction asks for, if its id and data make sense
/// together.
pub fn action_of(custom_id: &str, kind: &serenity::ComponentInteractionDataKind) -> Option<Action> {
    use serenity::ComponentInteractionDataKind as K;
    Some(match (decode(custom_id)?, kind) {
        (ComponentId::Order { game, position, line }, K::Button) => Action::Order { game, position, line },
        (ComponentId::Confirm { game, position, line }, K::Button) => Action::Confirm { game, position, line },
        (ComponentId::Board { game }, K::Button) => Action::Board { game },
        (ComponentId::TakeBack { game }, K::Button) => Action::TakeBack { game },
        (ComponentId::Cancel { .. }, K::Button) => Action::Cancel,
        (ComponentId::Join { game }, K::Button) => Action::Request(Request::Join { game: Some(game) }),
        (ComponentId::Leave { game }, K::Button) => Action::Request(Request::Leave { game: Some(game) }),
        (ComponentId::Start { game }, K::Button) => Action::Request(Request::Start { game: Some(game) }),
        (ComponentId::Resign { game }, K::Button) => Action::Request(Request::Resign {
            game: Some(game),
            seat: None,
            confirmed: true,
        }),
        (ComponentId::Pick { game, value }, K::Button) => Action::Request(Request::Pick {
            game: Some(game),
            value,
        }),
        (ComponentId::AddBot { game }, K::Button) => Action::Request(Request::AddBot {
            game: Some(game),
            level: orrery_service::BotLevel::Normal,
        }),
        (ComponentId::Select { game, position, .. }, K::StringSelect { values }) => {
            match decode_value(values.first()?)? {
                (line, true) => Action::Confirm { game, position, line },
                (line, false) => Action::Order { game, position, line },
            }
        }
        (ComponentId::Picker { game }, K::StringSelect { values }) => Action::Group {
            game,
            group: values.first()?.clone(),
        },
        _ => return None,
    })
}

/// A label without the marks this module adds (`Yes — `, `✓ `).
fn unmarked(label: &str) -> String {
    let l = label.strip_prefix(CONFIRM_YES).unwrap_or(label);
    orrery_service::bare_label(l.strip_prefix(CURRENT_MARK).unwrap_or(l)).to_string()
}

/// The label of the button `custom_id` (or of the option `value` of the
/// menu `custom_id`) on `message`, without the marks this module adds.
pub fn pressed_label(message: &serenity::Message, custom_id: &str, value: Option<&str>) -> Option<String> {
    for c in message.components.iter().flat_map(|row| row.components.iter()) {
        match c {
            serenity::ActionRowComponent::Button(b) => {
                if matches!(&b.data, serenity::ButtonKind::NonLink { custom_id: id, .. } if id == custom_id) {
                    return b.label.as_deref().map(unmarked);
                }
            }
            serenity::ActionRowComponent::SelectMenu(m) if m.custom_id.as_deref() == Some(custom_id) => {
                return m
                    .options
                    .iter()
                    .find(|o| Some(o.value.as_str()) == value)
                    .map(|o| unmarked(&o.label));
            }
            _ => {}
        }
    }
    None
}

/// A message only its reader sees (a confirmation, a group's menus).
fn is_ephemeral(message: &serenity::Message) -> bool {
    message
        .flags
        .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL))
}

/// Handle a button press or menu pick.
///
/// - An order (or a take-back) is acknowledged at once and given. On
///   success, a private message it was pressed on (a confirmation, a
///   group's menus) loses its controls and says what was sent; a prompt
///   is left to the delivery, which edits it with the outcome, and gets no
///   answer of its own when the reply only acknowledges the order. On
///   failure the reason follows privately and the message is unchanged.
/// - An order that asks first answers privately with the question, a
///   "Yes — …" button and "Cancel" (which just closes the question).
/// - A group picked in the group picker answers privately with that
///   group's menus, from the asker's current prompt.
/// - The board button shows the presser their board, privately.
pub async fn handle_component(
    ctx: &serenity::Context,
    data: &Data,
    interaction: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let Some(action) = action_of(&interaction.data.custom_id, &interaction.data.kind) else {
        let response = serenity::CreateInteractionResponseMessage::new()
            .content("That control is not one of mine any more. Use the game's slash commands instead.")
            .ephemeral(true)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        interaction
            .create_response(ctx, serenity::CreateInteractionResponse::Message(response))
            .await?;
        return Ok(());
    };
    match action {
        Action::Cancel => {
            let response = serenity::CreateInteractionResponseMessage::new()
                .content(CANCELLED)
                .components(vec![])
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            interaction
                .create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(response))
                .await?;
        }
        Action::Order { game, position, line } => {
            let value = match &interaction.data.kind {
                serenity::ComponentInteractionDataKind::StringSelect { values } => values.first().map(String::as_str),
                _ => None,
            };
            let label = pressed_label(&interaction.message, &interaction.data.custom_id, value)
                .filter(|l| !l.trim().is_empty())
                .unwrap_or_else(|| line.to_string());
            let request = Request::Press { game, line, position };
            give(ctx, data, interaction, request, format!("✅ Sent: {label}")).await?;
        }
        Action::TakeBack { game } => {
            give(
                ctx,
                data,
                interaction,
                Request::TakeBack { game: Some(game) },
                "↩ Taken back.".into(),
            )
            .await?;
        }
        Action::Request(request) => {
            // Answered as the slash command is: who joined or left, and
            // that the game started, for the channel; a resignation and a
            // refusal privately.
            interaction
                .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
                .await?;
            let actor = actor_of_component(interaction);
            match data.service.handle(&actor, request).await {
                Ok(reply) => {
                    let private = reply.ephemeral;
                    send_reply(ctx, data, interaction, reply, private).await?;
                }
                Err(e) => tell_error(ctx, interaction, &Error::from(e)).await?,
            }
        }
        Action::Board { game } => {
            interaction
                .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
                .await?;
            let actor = actor_of_component(interaction);
            match data.service.handle(&actor, Request::Board { game: Some(game) }).await {
                Ok(reply) => {
                    // In a server channel, only the presser sees it.
                    let private = reply.ephemeral || interaction.guild_id.is_some();
                    send_reply(ctx, data, interaction, reply, private).await?;
                }
                Err(e) => tell_error(ctx, interaction, &Error::from(e)).await?,
            }
        }
        Action::Confirm { game, position, line } => {
            let (content, rows) = match my_prompt(ctx, data, interaction, game).await? {
                Err(text) => (text, vec![]),
                Ok(reply) => match reply
                    .choices
                    .iter()
                    .find(|c| c.act == Act::Order && c.game == game && c.command == line)
                {
                    // Asked from a prompt of another phase: the service's
                    // answer to such an order, with the current prompt.
                    _ if stale(position, &reply.choices) => {
                        let why = if position < current_position(&reply.choices) {
                            orrery_service::STALE_PROMPT
                        } else {
                            orrery_service::UNDONE_PROMPT
                        };
                        (
                            format!("{why}\nYour current prompt:\n{}", post_text(&reply.text)),
                            vec![],
                        )
                    }
                    None => (NO_LONGER_OFFERED.to_string(), vec![]),
                    Some(c) => {
                        let label = label_of(c);
                        let question = c
                            .confirm
                            .clone()
                            .filter(|q| !q.trim().is_empty())
                            .unwrap_or_else(|| format!("Send “{label}”?"));
                        (question, confirmation_rows(game, c.position, &line, &label))
                    }
                },
            };
            private_answer(ctx, interaction, &content, rows).await?;
        }
        Action::Group { game, group } => {
            let (content, rows) = match my_prompt(ctx, data, interaction, game).await? {
                Err(text) => (text, vec![]),
                Ok(reply) => match group_layout(&reply.choices, &group) {
                    Layout::None => (NO_LONGER_OFFERED.to_string(), vec![]),
                    l => {
                        let mut content = format!("**{group}**");
                        if let Some(text) = l.text() {
                            content.push('\n');
                            content.push_str(text);
                        }
                        (content, l.rows())
                    }
                },
            };
            private_answer(ctx, interaction, &content, rows).await?;
        }
    }
    Ok(())
}

/// The position the orders of a current prompt were offered for.
fn current_position(choices: &[Choice]) -> Option<u32> {
    choices.iter().find(|c| c.act == Act::Order).and_then(|c| c.position)
}

/// A control made for `position` is stale next to a prompt offering
/// `choices`: both positions are known and differ.
fn stale(position: Option<u32>, choices: &[Choice]) -> bool {
    matches!((position, current_position(choices)), (Some(p), Some(q)) if p != q)
}

/// Said when a choice pressed is no longer in the asker's prompt.
pub const NO_LONGER_OFFERED: &str = "That choice is no longer offered; see your newest prompt.";

/// Answer with a private "thinking…" message, then fetch the asker's
/// current prompt in `game` (or the reason there is none, as text).
async fn my_prompt(
    ctx: &serenity::Context,
    data: &Data,
    interaction: &serenity::ComponentInteraction,
    game: GameId,
) -> Result<Result<Reply, String>, Error> {
    let defer = serenity::CreateInteractionResponseMessage::new().ephemeral(true);
    interaction
        .create_response(ctx, serenity::CreateInteractionResponse::Defer(defer))
        .await?;
    let actor = actor_of_component(interaction);
    Ok(data
        .service
        .handle(&actor, Request::Prompt { game: Some(game) })
        .await
        .map_err(|e| error_text(&Error::from(e))))
}

/// Fill the private "thinking…" message of [`my_prompt`].
async fn private_answer(
    ctx: &serenity::Context,
    interaction: &serenity::ComponentInteraction,
    content: &str,
    rows: Vec<Row>,
) -> Result<(), Error> {
    let edit = serenity::EditInteractionResponse::new()
        .content(clip_message(content))
        .components(action_rows(rows))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    interaction.edit_response(ctx, edit).await?;
    Ok(())
}

/// Give an order (or take one back) for the presser; see
/// [`handle_component`]. `done` replaces a private message's text on
/// success.
async fn give(
    ctx: &serenity::Context,
    data: &Data,
    interaction: &serenity::ComponentInteraction,
    request: Request,
    done: String,
) -> Result<(), Error> {
    interaction
        .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
        .await?;
    let actor = actor_of_component(interaction);
    let result = data.service.handle(&actor, request).await;
    data.deliver_soon();
    match result {
        Ok(reply) => {
            // A prompt from the outbox is edited by the delivery (an edit
            // from here would race it); a private message is ours.
            if is_ephemeral(&interaction.message) {
                let edit = serenity::EditInteractionResponse::new()
                    .content(clip_message(&done))
                    .components(vec![])
                    .allowed_mentions(serenity::CreateAllowedMentions::new());
                if let Err(e) = interaction.edit_response(ctx, edit).await {
                    tracing::warn!("could not close a private message after an order: {e}");
                }
            }
            if !reply.only_ack {
                send_reply(ctx, data, interaction, reply, true).await?;
            }
        }
        Err(e) => tell_error(ctx, interaction, &Error::from(e)).await?,
    }
    Ok(())
}

/// The reason a request failed, privately.
async fn tell_error(
    ctx: &serenity::Context,
    interaction: &serenity::ComponentInteraction,
    error: &Error,
) -> Result<(), Error> {
    let response = serenity::CreateInteractionResponseFollowup::new()
        .content(clip_message(&error_text(error)))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    interaction.create_followup(ctx, response).await?;
    Ok(())
}

/// A reply as a follow-up, its board drawn.
async fn send_reply(
    ctx: &serenity::Context,
    data: &Data,
    interaction: &serenity::ComponentInteraction,
    mut reply: Reply,
    private: bool,
) -> Result<(), Error> {
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
    interaction.create_followup(ctx, followup(&reply, png, private)).await?;
    Ok(())
}

/// The follow-up carrying a reply to a component.
fn followup(reply: &Reply, png: Option<Vec<u8>>, private: bool) -> serenity::CreateInteractionResponseFollowup {
    let (rows, extra) = choice_components(&reply.choices);
    let body = post_text(&reply.text);
    let text = match extra {
        Some(extra) => format!("{body}\n{extra}"),
        None => body,
    };
    let mut f = serenity::CreateInteractionResponseFollowup::new()
        .content(clip_message(&text))
        .ephemeral(private)
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

    fn styled(line: &str, label: &str, group: &str, style: ControlStyle) -> Choice {
        let mut c = choice(1, line);
        c.label = label.into();
        c.group = group.into();
        c.style = style;
        c
    }

    fn board(game: i64) -> Choice {
        Choice::act(GameId(game), Act::Board, "🗺 My board")
    }

    fn take_back(game: i64) -> Choice {
        Choice::act(GameId(game), Act::TakeBack, "↩ Take back")
    }

    /// `n` main orders in group `group`.
    fn many(group: &str, n: usize) -> Vec<Choice> {
        (0..n)
            .map(|i| {
                styled(
                    &format!("{} n:{i}", group.to_lowercase()),
                    &format!("{group} {i}"),
                    group,
                    ControlStyle::Main,
                )
            })
            .collect()
    }

    /// `n` main orders `{command} n:{i}` in group `group`.
    fn in_group(command: &str, group: &str, n: usize) -> Vec<Choice> {
        (0..n)
            .map(|i| {
                styled(
                    &format!("{command} n:{i}"),
                    &format!("{group} {i}"),
                    group,
                    ControlStyle::Main,
                )
            })
            .collect()
    }

    /// Every id and value of a layout, checked against Discord's limits.
    fn assert_within_limits(l: &Layout) {
        let rows = l.rows();
        assert!(rows.len() <= MAX_ROWS, "{} rows: {l:?}", rows.len());
        let mut ids = Vec::new();
        for row in &rows {
            match row {
                Row::Buttons(b) => {
                    assert!((1..=BUTTONS_PER_ROW).contains(&b.len()), "{b:?}");
                    for b in b {
                        assert!(fits(&b.id), "{}", b.id);
                        assert!((1..=BUTTON_LABEL_MAX).contains(&b.label.chars().count()), "{}", b.label);
                        assert!(decode(&b.id).is_some(), "{}", b.id);
                        ids.push(b.id.clone());
                    }
                }
                Row::Menu(m) => {
                    assert!(fits(&m.id) && decode(&m.id).is_some(), "{}", m.id);
                    assert!((1..=SELECT_OPTIONS_MAX).contains(&m.options.len()), "{m:?}");
                    assert!(m.placeholder.chars().count() <= PLACEHOLDER_MAX);
                    for o in &m.options {
                        assert!((1..=SELECT_LABEL_MAX).contains(&o.label.chars().count()));
                        assert!((1..=SELECT_VALUE_MAX).contains(&o.value.chars().count()));
                    }
                    let mut values: Vec<&str> = m.options.iter().map(|o| o.value.as_str()).collect();
                    values.sort();
                    values.dedup();
                    assert_eq!(values.len(), m.options.len(), "menu values are unique");
                    ids.push(m.id.clone());
                }
            }
        }
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n, "custom ids are unique in a message: {l:?}");
    }

    fn values(m: &Menu) -> Vec<&str> {
        m.options.iter().map(|o| o.value.as_str()).collect()
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
            for (position, prefix) in [(None, "12:"), (Some(7), "12@7:")] {
                let id = encode_order(GameId(12), position, &command).unwrap();
                assert!(id.starts_with(&format!("o:{prefix}")), "{id}");
                assert_eq!(
                    decode(&id),
                    Some(ComponentId::Order {
                        game: GameId(12),
                        position,
                        line: command.clone()
                    })
                );
                let confirm = ComponentId::Confirm {
                    game: GameId(12),
                    position,
                    line: command.clone(),
                };
                let id = confirm.encode().unwrap();
                assert!(id.starts_with(&format!("c:{prefix}")), "{id}");
                assert_eq!(decode(&id), Some(confirm));
            }
        }
        let game = GameId(3);
        for id in [
            ComponentId::Select {
                game,
                position: None,
                menu: None,
            },
            ComponentId::Select {
                game,
                position: Some(2),
                menu: None,
            },
            ComponentId::Select {
                game,
                position: None,
                menu: Some(0),
            },
            ComponentId::Select {
                game,
                position: Some(11),
                menu: Some(4),
            },
            ComponentId::Picker { game },
            ComponentId::Board { game },
            ComponentId::TakeBack { game },
            ComponentId::Cancel { game },
        ] {
            let s = id.encode().unwrap();
            assert_eq!(decode(&s), Some(id.clone()), "{s}");
            assert_eq!(decode(&s).unwrap().encode().unwrap(), s);
        }
        // The formats older messages carry still read.
        assert_eq!(encode_select(game, None), "s:3");
        assert_eq!(encode_select(game, Some(5)), "s:3@5");
        let select = |position, menu| Some(ComponentId::Select { game, position, menu });
        assert_eq!(decode("s:3"), select(None, None));
        assert_eq!(decode("s:3:1"), select(None, Some(1)));
        assert_eq!(decode("s:3@5:1"), select(Some(5), Some(1)));
        assert_eq!(decode("b:3"), Some(ComponentId::Board { game }));
        assert_eq!(decode("t:3"), Some(ComponentId::TakeBack { game }));
        assert_eq!(decode("g:3"), Some(ComponentId::Picker { game }));
        assert_eq!(decode("n:3"), Some(ComponentId::Cancel { game }));
        for bad in [
            "",
            "x:1",
            "o:",
            "o:abc:end",
            "o:1@:end",
            "o:1@x:end",
            "s:1@",
            "o:1:",
            "o:1:depart Algol",
            "c:1:",
            "c:x:end",
            "s:",
            "s:x",
            "s:1:x",
            "g:",
            "b:x",
            "t:",
            "n:y",
            "b",
        ] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn menu_values_round_trip_and_mark_questions() {
        let mut c = choice(1, "end");
        assert_eq!(encode_value(&c).as_deref(), Some("end"));
        assert_eq!(decode_value("end"), Some((CommandLine::new("end"), false)));
        c.confirm = Some("End your turn?".into());
        let v = encode_value(&c).unwrap();
        assert_eq!(v, "?end");
        assert_eq!(decode_value(&v), Some((CommandLine::new("end"), true)));
        let quoted = choice(1, "card name:\"Gravity Well\"");
        let v = encode_value(&quoted).unwrap();
        assert_eq!(decode_value(&v).unwrap().0, quoted.command);
        assert_eq!(decode_value("depart Algol"), None);
        let long = choice(1, &format!("note text:{}", "a".repeat(100)));
        assert_eq!(encode_value(&long), None);
    }

    #[test]
    fn custom_ids_respect_the_100_character_limit() {
        let line = CommandLine::new("note").arg("text", "a".repeat(200));
        assert_eq!(encode_order(GameId(1), None, &line), None);
        // Exactly at the limit: "o:1:" + "x:" + value.
        let fits = CommandLine::new("x").arg("k", "v".repeat(CUSTOM_ID_MAX - "o:1:x k:".len()));
        let id = encode_order(GameId(1), None, &fits).unwrap();
        assert_eq!(id.chars().count(), CUSTOM_ID_MAX);
        let over = CommandLine::new("x").arg("k", "v".repeat(CUSTOM_ID_MAX - "o:1:x k:".len() + 1));
        assert_eq!(encode_order(GameId(1), None, &over), None);
        // The position counts too.
        assert_eq!(encode_order(GameId(1), Some(3), &fits), None);
        // Characters, not bytes.
        let wide = CommandLine::new("x").arg("k", "é".repeat(CUSTOM_ID_MAX - "o:1:x k:".len()));
        assert!(encode_order(GameId(1), None, &wide).is_some());
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
    fn buttons_are_styled_by_kind_and_the_acts_come_last() {
        let mut pick = styled("card name:Admiral", "Admiral", "card", ControlStyle::Main);
        pick.current = true;
        let choices = vec![
            styled("depart from:A ships:1", "Depart 1 from A", "depart", ControlStyle::Main),
            pick,
            styled("pass", "Pass", "pass", ControlStyle::Minor),
            styled("end", "End turn", "end", ControlStyle::End),
            board(1),
            take_back(1),
        ];
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Buttons(rows) = &l else { panic!("{l:?}") };
        let flat: Vec<&Button> = rows.iter().flatten().collect();
        let by_id = |id: &str| {
            *flat
                .iter()
                .find(|b| b.id == id)
                .unwrap_or_else(|| panic!("{id}: {flat:?}"))
        };
        assert_eq!(by_id("o:1:depart from:A ships:1").style, Style::Primary);
        assert_eq!(by_id("o:1:depart from:A ships:1").label, "Depart 1 from A");
        let current = by_id("o:1:card name:Admiral");
        assert_eq!((current.style, current.label.as_str()), (Style::Success, "✓ Admiral"));
        assert_eq!(by_id("o:1:pass").style, Style::Secondary);
        assert_eq!(by_id("o:1:end").style, Style::Danger);
        // Each group its own row while they fit; the acts in the last row.
        assert_eq!(rows.len(), 5);
        let last = rows.last().unwrap();
        assert_eq!(
            last.iter().map(|b| (b.id.as_str(), b.style)).collect::<Vec<_>>(),
            vec![("b:1", Style::Secondary), ("t:1", Style::Secondary)]
        );
        assert_eq!(last[0].label, "🗺 My board");
    }

    #[test]
    fn rows_pack_when_groups_would_need_too_many() {
        // Seven groups of two: 14 orders and the board; a row per group
        // would take 8 rows, so the orders are packed and the board has
        // the last row to itself.
        let mut choices: Vec<Choice> = ["a", "b", "c", "d", "e", "f", "g"]
            .iter()
            .flat_map(|g| many(g, 2))
            .collect();
        choices.push(board(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Buttons(rows) = &l else { panic!("{l:?}") };
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].len(), 5);
        assert_eq!(rows[3].iter().map(|b| b.id.as_str()).collect::<Vec<_>>(), vec!["b:1"]);
        // 24 orders and the board: all packed, the board still last.
        let mut choices = many("Arrive", 24);
        choices.push(board(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Buttons(rows) = &l else { panic!("{l:?}") };
        assert_eq!(rows.iter().map(Vec::len).sum::<usize>(), 25);
        assert_eq!(rows[4].last().unwrap().id, "b:1");
    }

    #[test]
    fn duplicates_are_shown_once() {
        let choices = vec![choice(1, "end"), choice(1, "end"), choice(2, "end"), board(1), board(1)];
        let Layout::Buttons(rows) = layout(&choices) else {
            panic!()
        };
        let ids: Vec<&str> = rows.iter().flatten().map(|b| b.id.as_str()).collect();
        assert_eq!(ids, vec!["o:1:end", "o:2:end", "b:1"]);
        assert_eq!(layout(&[]), Layout::None);
        let (rows, text) = choice_components(&[]);
        assert!(rows.is_empty() && text.is_none());
    }

    #[test]
    fn orders_to_confirm_get_their_own_ids() {
        let mut end = styled("end", "End turn", "end", ControlStyle::End);
        end.confirm = Some("End your turn with 3 ships still able to move?".into());
        let Layout::Buttons(rows) = layout(&[end.clone()]) else {
            panic!()
        };
        assert_eq!(rows[0][0].id, "c:1:end");
        assert_eq!(rows[0][0].style, Style::Danger);
        // In a menu, its value is marked.
        let mut choices = many("Arrive", 30);
        choices.push(end);
        choices.push(board(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Menus { buttons, .. } = &l else {
            panic!("{l:?}")
        };
        assert_eq!(buttons[0].id, "c:1:end");
    }

    #[test]
    fn too_many_for_buttons_become_menus_by_group() {
        let mut choices = many("Arrive", 30);
        choices.extend(many("Depart", 3));
        let mut pick = styled("build at:Vega", "Build at Vega", "Build", ControlStyle::Main);
        pick.current = true;
        choices.push(pick);
        choices.push(styled("pass", "Pass", "pass", ControlStyle::Minor));
        choices.push(styled("end", "End turn", "end", ControlStyle::End));
        choices.push(board(1));
        choices.push(take_back(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Menus { menus, buttons } = &l else {
            panic!("{l:?}")
        };
        let placeholders: Vec<&str> = menus.iter().map(|m| m.placeholder.as_str()).collect();
        assert_eq!(placeholders, vec!["Arrive (1/2)", "Arrive (2/2)", "Depart", "Build"]);
        let ids: Vec<&str> = menus.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, vec!["s:1:0", "s:1:1", "s:1:2", "s:1:3"]);
        assert_eq!(menus[0].options.len(), 25);
        assert_eq!(menus[1].options.len(), 5);
        assert_eq!(values(&menus[2]), vec!["depart n:0", "depart n:1", "depart n:2"]);
        assert_eq!(menus[0].options[0].label, "Arrive 0");
        assert_eq!(menus[3].options[0].label, "✓ Build at Vega");
        // The side orders and the acts share the button row.
        let row: Vec<(&str, Style)> = buttons.iter().map(|b| (b.id.as_str(), b.style)).collect();
        assert_eq!(
            row,
            vec![
                ("o:1:pass", Style::Secondary),
                ("o:1:end", Style::Danger),
                ("b:1", Style::Secondary),
                ("t:1", Style::Secondary)
            ]
        );
        // Every order is offered once, somewhere.
        let offered = menus.iter().map(|m| m.options.len()).sum::<usize>() + 2;
        assert_eq!(offered, 36);
        let (components, text) = choice_components(&choices);
        assert_eq!(components.len(), 5);
        assert!(text.is_none());
    }

    #[test]
    fn a_single_menu_keeps_the_old_id() {
        // Too long for a button id with the prefix, short enough for a menu value.
        let long = format!(
            "arrive token:{} at:Vega",
            "t".repeat(CUSTOM_ID_MAX - "arrive token: at:Vega".len())
        );
        assert_eq!(long.chars().count(), CUSTOM_ID_MAX);
        let mut a = choice(7, &long);
        a.group = "Arrive".into();
        let mut b = choice(7, "arrive token:x at:Vega");
        b.group = "Arrive".into();
        let l = layout(&[a, b, board(7)]);
        assert_within_limits(&l);
        let Layout::Menus { menus, buttons } = &l else {
            panic!("{l:?}")
        };
        assert_eq!(menus.len(), 1);
        assert_eq!(menus[0].id, "s:7");
        assert_eq!(menus[0].placeholder, "Arrive");
        assert_eq!(menus[0].options.len(), 2);
        assert_eq!(buttons.iter().map(|b| b.id.as_str()).collect::<Vec<_>>(), vec!["b:7"]);
    }

    #[test]
    fn side_orders_join_the_menus_when_the_row_is_full() {
        let mut choices = many("Arrive", 26);
        for i in 0..5 {
            choices.push(styled(&format!("pass n:{i}"), "Pass", "Pass", ControlStyle::Minor));
        }
        choices.push(board(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Menus { menus, buttons } = &l else {
            panic!("{l:?}")
        };
        assert_eq!(buttons.iter().map(|b| b.id.as_str()).collect::<Vec<_>>(), vec!["b:1"]);
        assert_eq!(menus.last().unwrap().placeholder, "Pass");
        assert_eq!(menus.last().unwrap().options.len(), 5);
    }

    #[test]
    fn too_many_menus_become_a_group_picker() {
        let groups = ["Arrive", "Depart", "Build", "Trade", "Research"];
        let mut choices: Vec<Choice> = groups.iter().flat_map(|g| many(g, 10)).collect();
        choices[12].current = true; // a Depart order
        choices.push(styled("end", "End turn", "end", ControlStyle::End));
        choices.push(board(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Picker { picker, buttons } = &l else {
            panic!("{l:?}")
        };
        assert_eq!(picker.id, "g:1");
        assert_eq!(values(picker), groups.to_vec());
        assert_eq!(picker.options[1].label, "✓ Depart");
        assert_eq!(picker.options[0].label, "Arrive");
        assert_eq!(
            buttons.iter().map(|b| b.id.as_str()).collect::<Vec<_>>(),
            vec!["o:1:end", "b:1"]
        );
        assert_eq!(decode(&picker.id), Some(ComponentId::Picker { game: GameId(1) }));

        // Picking a group: its menus, from the prompt.
        let g = group_layout(&choices, "Depart");
        assert_within_limits(&g);
        let Layout::Menus { menus, buttons } = &g else {
            panic!("{g:?}")
        };
        assert!(buttons.is_empty());
        assert_eq!(menus.len(), 1);
        assert_eq!(menus[0].id, "s:1");
        assert_eq!(menus[0].options.len(), 10);
        assert_eq!(menus[0].options[2].label, "✓ Depart 2");
        assert_eq!(group_layout(&choices, "Nothing"), Layout::None);
        // A big group is split; a group too big even for five menus is listed.
        let big = many("Arrive", 60);
        let Layout::Menus { menus, .. } = group_layout(&big, "Arrive") else {
            panic!()
        };
        assert_eq!(menus.len(), 3);
        assert_eq!(menus[2].placeholder, "Arrive (3/3)");
        let huge = many("Arrive", 130);
        assert!(matches!(group_layout(&huge, "Arrive"), Layout::Text { .. }));
    }

    #[test]
    fn without_a_group_choices_are_grouped_by_command() {
        let mut choices: Vec<Choice> = (0..30).map(|n| choice(1, &format!("losses n:{n}"))).collect();
        for c in choices.iter_mut() {
            c.group.clear();
        }
        choices.push(choice(1, "retreat ships:1"));
        let l = layout(&choices);
        let Layout::Menus { menus, .. } = &l else {
            panic!("{l:?}")
        };
        let placeholders: Vec<&str> = menus.iter().map(|m| m.placeholder.as_str()).collect();
        assert_eq!(placeholders, vec!["losses (1/2)", "losses (2/2)", "retreat"]);
    }

    #[test]
    fn text_only_when_nothing_else_fits() {
        // Over 25 groups that need more than four menus: text, with the board.
        let mut choices: Vec<Choice> = (0..26).flat_map(|g| many(&format!("G{g}"), 2)).collect();
        choices.push(board(1));
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Text { text, buttons } = &l else {
            panic!("{l:?}")
        };
        assert!(text.starts_with("Orders you can give:"));
        assert!(text.contains("- `g25 n:1`"), "{text}");
        assert_eq!(buttons.iter().map(|b| b.id.as_str()).collect::<Vec<_>>(), vec!["b:1"]);
        let (components, extra) = choice_components(&choices);
        assert_eq!(components.len(), 1);
        assert!(extra.unwrap().contains("g0 n:0"));

        // An order too long even for a menu value.
        let too_long = format!("arrive token:{} at:Vega", "t".repeat(150));
        let (rows, extra) = choice_components(&[choice(1, &too_long)]);
        assert!(rows.is_empty());
        assert!(extra.unwrap().contains("arrive token:"));

        // Group names too long for the picker's values.
        let name = "N".repeat(101);
        let mut choices: Vec<Choice> = (0..5)
            .flat_map(|g| in_group(&format!("g{g}"), &format!("{name}{g}"), 10))
            .collect();
        choices.push(board(1));
        let l = layout(&choices);
        assert!(matches!(l, Layout::Text { .. }), "{l:?}");
        let mut short: Vec<Choice> = (0..5)
            .flat_map(|g| in_group(&format!("g{g}"), &format!("{}{g}", "N".repeat(99)), 10))
            .collect();
        short.push(board(1));
        let l = layout(&short);
        assert_within_limits(&l);
        assert!(matches!(l, Layout::Picker { .. }), "{l:?}");

        // Two games' orders do not share a group picker.
        let mut choices: Vec<Choice> = (0..5).flat_map(|g| many(&format!("G{g}"), 10)).collect();
        for c in choices.iter_mut().take(10) {
            c.game = GameId(2);
        }
        choices.push(board(1));
        assert!(matches!(layout(&choices), Layout::Text { .. }));
    }

    #[test]
    fn long_labels_and_placeholders_are_clipped() {
        let mut c = choice(1, "end");
        c.label = "L".repeat(200);
        c.current = true;
        let Layout::Buttons(rows) = layout(&[c.clone()]) else {
            panic!()
        };
        assert_eq!(rows[0][0].label.chars().count(), BUTTON_LABEL_MAX);
        assert!(rows[0][0].label.starts_with("✓ L"));

        let mut choices = in_group("p", &"P".repeat(200), 30);
        choices[0].label = "L".repeat(200);
        let l = layout(&choices);
        assert_within_limits(&l);
        let Layout::Menus { menus, .. } = &l else {
            panic!("{l:?}")
        };
        assert_eq!(menus[0].options[0].label.chars().count(), SELECT_LABEL_MAX);
        assert_eq!(menus[0].placeholder.chars().count(), PLACEHOLDER_MAX);
        assert!(menus[0].placeholder.ends_with("… (1/2)"), "{}", menus[0].placeholder);
    }

    #[test]
    fn a_lobby_offers_its_colours_in_rows_of_their_own() {
        let g = GameId(7);
        let mut choices = vec![
            Choice::act(g, Act::Join, "Join"),
            Choice::act(g, Act::Leave, "Leave"),
            Choice::act(g, Act::Start, "Start"),
        ];
        for v in ["red", "orange", "yellow", "green", "blue", "violet"] {
            let mut c = Choice::act(g, Act::Pick, v);
            c.command = CommandLine::new(v);
            choices.push(c);
        }
        let Layout::Buttons(rows) = layout(&choices) else {
            panic!("buttons")
        };
        let ids: Vec<Vec<&str>> = rows.iter().map(|r| r.iter().map(|b| b.id.as_str()).collect()).collect();
        assert_eq!(
            ids,
            [
                vec!["j:7", "l:7", "a:7"],
                vec!["k:7:red", "k:7:orange", "k:7:yellow", "k:7:green", "k:7:blue"],
                vec!["k:7:violet"]
            ]
        );
        assert_eq!(
            decode("k:7:blue"),
            Some(ComponentId::Pick {
                game: g,
                value: "blue".into()
            })
        );
        assert_eq!(decode("r:7"), Some(ComponentId::Resign { game: g }));
    }

    #[test]
    fn an_ask_first_control_of_another_phase_is_stale() {
        let at = |p: Option<u32>| {
            let mut c = choice(4, "end");
            c.position = p;
            vec![c, board(4)]
        };
        assert!(stale(Some(3), &at(Some(5))), "made in phase 3, asked in phase 5");
        assert!(stale(Some(6), &at(Some(5))), "made in a phase undone since");
        assert!(!stale(Some(5), &at(Some(5))), "its own phase");
        assert!(!stale(None, &at(Some(5))), "an id from before positions: as before");
        assert!(!stale(Some(3), &[board(4)]), "no order offered: no position to compare");
    }

    #[test]
    fn confirmations_offer_yes_and_cancel() {
        let line = CommandLine::new("end");
        let rows = confirmation_rows(GameId(4), Some(6), &line, "End turn");
        let [Row::Buttons(b)] = rows.as_slice() else {
            panic!("{rows:?}")
        };
        assert_eq!(b[0].label, "Yes — End turn");
        assert_eq!(b[0].id, "o:4@6:end");
        assert_eq!(b[0].style, Style::Danger);
        assert_eq!(b[1].label, "Cancel");
        assert_eq!(decode(&b[1].id), Some(ComponentId::Cancel { game: GameId(4) }));
        // Too long for a button id: a menu of that one order.
        let long = CommandLine::new("x").arg("k", "v".repeat(95));
        let rows = confirmation_rows(GameId(4), Some(6), &long, "Long");
        let [Row::Menu(m), Row::Buttons(b)] = rows.as_slice() else {
            panic!("{rows:?}")
        };
        assert_eq!(m.id, "s:4@6");
        assert_eq!(m.options[0].label, "Yes — Long");
        assert_eq!(decode_value(&m.options[0].value), Some((long, false)));
        assert_eq!(b[0].label, "Cancel");
    }

    #[test]
    fn components_decode_to_actions() {
        use poise::serenity_prelude::ComponentInteractionDataKind as K;
        let pick = |v: &str| K::StringSelect {
            values: vec![v.to_string()],
        };
        let game = GameId(3);
        assert_eq!(
            action_of("o:3:depart from:Algol ships:2", &K::Button),
            Some(Action::Order {
                game,
                position: None,
                line: CommandLine::parse("depart from:Algol ships:2").unwrap()
            })
        );
        assert_eq!(
            action_of("o:3@8:end", &K::Button),
            Some(Action::Order {
                game,
                position: Some(8),
                line: CommandLine::new("end")
            })
        );
        assert_eq!(
            action_of("c:3:end", &K::Button),
            Some(Action::Confirm {
                game,
                position: None,
                line: CommandLine::new("end")
            })
        );
        for (id, position) in [("s:3", None), ("s:3:2", None), ("s:3@4", Some(4)), ("s:3@4:2", Some(4))] {
            assert_eq!(
                action_of(id, &pick("card name:\"Gravity Well\"")),
                Some(Action::Order {
                    game,
                    position,
                    line: CommandLine::parse("card name:\"Gravity Well\"").unwrap()
                })
            );
            assert_eq!(
                action_of(id, &pick("?end")),
                Some(Action::Confirm {
                    game,
                    position,
                    line: CommandLine::new("end")
                })
            );
        }
        assert_eq!(
            action_of("g:3", &pick("Arrive")),
            Some(Action::Group {
                game,
                group: "Arrive".into()
            })
        );
        assert_eq!(action_of("b:3", &K::Button), Some(Action::Board { game }));
        assert_eq!(action_of("t:3", &K::Button), Some(Action::TakeBack { game }));
        assert_eq!(action_of("n:3", &K::Button), Some(Action::Cancel));
        assert_eq!(action_of("s:9", &K::StringSelect { values: vec![] }), None);
        assert_eq!(action_of("g:9", &K::StringSelect { values: vec![] }), None);
        assert_eq!(action_of("s:9", &K::Button), None);
        assert_eq!(action_of("o:3:end", &pick("end")), None);
        assert_eq!(action_of("b:3", &pick("end")), None);
        assert_eq!(action_of("other", &K::Button), None);
    }

    #[test]
    fn the_pressed_label_is_read_back_without_marks() {
        let line = CommandLine::new("end");
        let mut rows = confirmation_rows(GameId(4), None, &line, "End turn");
        let mut current = choice(4, "card name:Spy");
        current.label = "Spy".into();
        current.current = true;
        let mut other = choice(4, "card name:Admiral");
        other.label = "Admiral".into();
        let mut menu_choices = vec![current, other];
        menu_choices.extend(many("Arrive", 30));
        for c in menu_choices.iter_mut() {
            c.game = GameId(4);
        }
        rows.extend(layout(&menu_choices).rows());
        let json = serde_json::to_value(action_rows(rows)).unwrap();
        let mut message: serenity::Message = serde_json::from_value(serde_json::json!({
            "id": "1", "channel_id": "2", "author": {"id": "3", "username": "bot", "discriminator": "0000", "avatar": null},
            "content": "", "timestamp": "2024-01-01T00:00:00.000000+00:00", "edited_timestamp": null,
            "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": false, "type": 0, "flags": 64,
            "components": json,
        }))
        .unwrap();
        assert!(is_ephemeral(&message));
        assert_eq!(pressed_label(&message, "o:4:end", None).as_deref(), Some("End turn"));
        assert_eq!(pressed_label(&message, "n:4", None).as_deref(), Some("Cancel"));
        let menu = menu_id_of(&message, "card name:Spy");
        assert_eq!(
            pressed_label(&message, &menu, Some("card name:Spy")).as_deref(),
            Some("Spy")
        );
        assert_eq!(
            pressed_label(&message, &menu, Some("card name:Admiral")).as_deref(),
            Some("Admiral")
        );
        assert_eq!(pressed_label(&message, &menu, Some("card name:Nobody")), None);
        assert_eq!(pressed_label(&message, "o:4:pass", None), None);
        message.flags = None;
        assert!(!is_ephemeral(&message));
    }

    fn menu_id_of(message: &serenity::Message, value: &str) -> String {
        message
            .components
            .iter()
            .flat_map(|r| r.components.iter())
            .find_map(|c| match c {
                serenity::ActionRowComponent::SelectMenu(m) if m.options.iter().any(|o| o.value == value) => {
                    m.custom_id.clone()
                }
                _ => None,
            })
            .unwrap()
    }

    /// What serenity sends for the rows, checked against Discord's
    /// published schema limits (see the module's documentation).
    #[test]
    fn the_wire_format_is_within_discords_schema() {
        let mut choices = many("Arrive", 30);
        choices.extend(many("Depart", 3));
        choices.push(styled("end", "End turn", "end", ControlStyle::End));
        choices.push(board(1));
        let (rows, _) = choice_components(&choices);
        let json = serde_json::to_value(&rows).unwrap();
        let rows = json.as_array().unwrap();
        assert!(rows.len() <= MAX_ROWS);
        for row in rows {
            assert_eq!(row["type"], 1, "{row}");
            let inner = row["components"].as_array().unwrap();
            assert!((1..=5).contains(&inner.len()));
            for c in inner {
                let id = c["custom_id"].as_str().unwrap();
                assert!((1..=100).contains(&id.chars().count()));
                match c["type"].as_u64() {
                    Some(2) => {
                        assert!(c["label"].as_str().unwrap().chars().count() <= 80);
                        assert!((1..=4).contains(&c["style"].as_u64().unwrap()), "{c}");
                    }
                    Some(3) => {
                        assert_eq!(inner.len(), 1, "a menu fills its row");
                        let options = c["options"].as_array().unwrap();
                        assert!((1..=25).contains(&options.len()));
                        assert!(c["placeholder"].as_str().unwrap().chars().count() <= 150);
                        for o in options {
                            assert!((1..=100).contains(&o["label"].as_str().unwrap().chars().count()));
                            assert!((1..=100).contains(&o["value"].as_str().unwrap().chars().count()));
                        }
                    }
                    other => panic!("component type {other:?}"),
                }
            }
        }
    }
}
