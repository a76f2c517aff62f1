//! Helpers the games share for offering legal orders as controls
//! ([`crate::engine::Ruleset::control`]): menu-sized groups.

/// The most orders one group should hold (one menu).
pub const MENU: usize = 25;

/// The group of the item at `pos` among `count` items headed `base`: `base`
/// itself when all fit in one menu, else `base · a–b` for the run of
/// [`MENU`] items it falls in, where items are shown as `first + pos` and
/// `unit` follows the range ("Depart Algol · 26–40 ships").
pub fn chunk(base: &str, pos: usize, count: usize, first: u32, unit: &str) -> String {
    if count <= MENU {
        return base.to_string();
    }
    let lo = pos / MENU * MENU;
    let hi = (lo + MENU - 1).min(count.saturating_sub(1)).max(lo);
    let (a, b) = (first + lo as u32, first + hi as u32);
    if a == b {
        format!("{base} · {a}{unit}")
    } else {
        format!("{base} · {a}–{b}{unit}")
    }
}

/// "1 ship", "5 ships".
pub fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
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
}
