//! Helpers the games share for offering legal orders as controls
//! ([`orrery_engine::Ruleset::control`]): readable groups, the order
//! sheet's own verbs.

use orrery_engine::{Control, ControlStyle, SheetVerb};

/// The most orders a game puts in one group: a list a player reads at a
/// glance. This is the games' own choice of a readable list; a transport
/// lays groups out within its own limits (the Discord layer splits any
/// group longer than Discord's menus, which it alone knows).
pub const GROUP_MOST: usize = 25;

/// The group of the item at `pos` among `count` items headed `base`: `base`
/// itself when all fit in one menu, else `base · a–b` for the run of
/// [`GROUP_MOST`] items it falls in, where items are shown as `first + pos` and
/// `unit` follows the range ("Depart Algol · 26–40 ships").
pub fn chunk(base: &str, pos: usize, count: usize, first: u32, unit: &str) -> String {
    if count <= GROUP_MOST {
        return base.to_string();
    }
    let lo = pos / GROUP_MOST * GROUP_MOST;
    let hi = (lo + GROUP_MOST - 1).min(count.saturating_sub(1)).max(lo);
    let (a, b) = (first + lo as u32, first + hi as u32);
    if a == b {
        format!("{base} · {a}{unit}")
    } else {
        format!("{base} · {a}–{b}{unit}")
    }
}

/// Items with their order counts, packed in order into menus: each menu
/// takes the next items while their orders fit one menu, at most `most`
/// items a menu. Items over one menu are left out (they need their own
/// menus). Returns the menus' items.
pub fn pack<T: Clone>(items: &[(T, usize)], most: usize) -> Vec<Vec<T>> {
    let mut menus: Vec<(Vec<T>, usize)> = Vec::new();
    for (item, n) in items.iter().filter(|(_, n)| (1..=GROUP_MOST).contains(n)) {
        match menus.last_mut() {
            Some((packed, k)) if *k + n <= GROUP_MOST && packed.len() < most => {
                packed.push(item.clone());
                *k += n;
            }
            _ => menus.push((vec![item.clone()], *n)),
        }
    }
    menus.into_iter().map(|(items, _)| items).collect()
}

/// "1 ship", "5 ships".
pub fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "1 ship", "3 ships": a count and its noun in the right number.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    match n.into() {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// An order sheet's own verb as every game with sheets offers it: `sheet`
/// names the sheet ("economic"), `lines` are written on it so far, and
/// `others_open` says lines could still be added (ready then asks first).
/// A game words `Remove` itself when it quotes the line.
pub fn sheet_control(verb: SheetVerb, sheet: &str, lines: usize, others_open: bool) -> Control {
    let written = count(lines as u32, "line", "lines");
    let (label, group, style, confirm) = match verb {
        SheetVerb::Ready => (
            "✅ Sheet ready".to_string(),
            "Sheet",
            ControlStyle::Done,
            others_open.then(|| {
                format!("Mark your {sheet} sheet ready with {written}? You can un-ready while others still write.")
            }),
        ),
        SheetVerb::Unready => ("↩ Un-ready".to_string(), "Sheet", ControlStyle::Minor, None),
        SheetVerb::Clear => (
            "🗑 Clear the sheet".to_string(),
            "Sheet",
            ControlStyle::End,
            Some(format!("Remove all {written} of your sheet?")),
        ),
        SheetVerb::Remove(n) => (format!("✖ Line {n}"), "Remove a line", ControlStyle::Minor, None),
    };
    Control {
        label,
        group: group.to_string(),
        style,
        confirm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_only_past_one_menu() {
        assert_eq!(chunk("Losses", 24, 25, 0, ""), "Losses");
        assert_eq!(chunk("Depart Algol", 0, 40, 1, " ships"), "Depart Algol · 1–25 ships");
        assert_eq!(chunk("Depart Algol", 25, 40, 1, " ships"), "Depart Algol · 26–40 ships");
        assert_eq!(chunk("Depart Algol", 25, 26, 1, " ships"), "Depart Algol · 26 ships");
        assert_eq!(and_list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
        assert_eq!(count(1, "ship", "ships"), "1 ship");
    }

    #[test]
    fn packs_small_items_in_order_while_they_fit() {
        let items = [
            ("a", 10),
            ("b", 10),
            ("c", 10),
            ("d", 30),
            ("e", 2),
            ("f", 0),
            ("g", 2),
            ("h", 2),
        ];
        assert_eq!(pack(&items, 3), vec![vec!["a", "b"], vec!["c", "e", "g"], vec!["h"]]);
        assert_eq!(pack(&items, 1).len(), 6);
        assert!(pack::<&str>(&[], 3).is_empty());
    }

    #[test]
    fn sheet_verbs_read_alike_in_every_game() {
        let ready = sheet_control(SheetVerb::Ready, "economic", 1, true);
        assert_eq!(ready.label, "✅ Sheet ready");
        assert_eq!(
            ready.confirm.as_deref(),
            Some("Mark your economic sheet ready with 1 line? You can un-ready while others still write.")
        );
        assert_eq!(sheet_control(SheetVerb::Ready, "economic", 3, false).confirm, None);
        let clear = sheet_control(SheetVerb::Clear, "movement", 3, false);
        assert_eq!(clear.confirm.as_deref(), Some("Remove all 3 lines of your sheet?"));
        assert_eq!(clear.style, ControlStyle::End);
        let unready = sheet_control(SheetVerb::Unready, "movement", 0, false);
        assert_eq!((unready.group.as_str(), unready.style), ("Sheet", ControlStyle::Minor));
        assert_eq!(
            sheet_control(SheetVerb::Remove(2), "economic", 3, false).group,
            "Remove a line"
        );
    }
}
