//! A game's rules page (Markdown, [`GameKind::rules_page`]) by section, in
//! a form any transport shows as it is: the page's `##` sections whole,
//! with pipe tables (which chat clients do not draw) turned into lines
//! built from each row and the header ("- **Admiral** — strength: 6").

use super::Text;
use orrery_games::GameKind;

/// The page split at its `##` headings: the introduction (everything
/// before the first), then each section with its heading line.
struct Page<'a> {
    intro: Vec<&'a str>,
    sections: Vec<(&'a str, Vec<&'a str>)>,
}

fn split(page: &str) -> Page<'_> {
    let mut intro = Vec::new();
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        match line.strip_prefix("## ") {
            Some(heading) if !fenced => sections.push((heading.trim(), vec![line])),
            _ => match sections.last_mut() {
                Some((_, lines)) => lines.push(line),
                None => intro.push(line),
            },
        }
    }
    Page { intro, sections }
}

/// The `##` headings of a rules page, in page order.
pub fn section_names(page: &str) -> Vec<String> {
    split(page).sections.iter().map(|(h, _)| h.to_string()).collect()
}

/// The `##` headings of `kind`'s rules page.
pub fn rules_sections(kind: GameKind) -> Vec<String> {
    section_names(kind.rules_page())
}

/// The section of `page` a reader named: its heading (any case), or the
/// one heading that contains what they wrote. `Err` says which sections
/// there are.
pub fn rules_section(page: &str, name: &str) -> Result<Text, String> {
    let p = split(page);
    let needle = name.trim().to_lowercase();
    let exact = p.sections.iter().find(|(h, _)| h.to_lowercase() == needle);
    let partial: Vec<_> = p
        .sections
        .iter()
        .filter(|(h, _)| !needle.is_empty() && h.to_lowercase().contains(&needle))
        .collect();
    let found = exact.or(match partial.as_slice() {
        [one] => Some(*one),
        _ => None,
    });
    match found {
        Some((_, lines)) => Ok(render(lines)),
        None => {
            let names: Vec<&str> = p.sections.iter().map(|(h, _)| *h).collect();
            Err(format!(
                "The rules have no section '{}'; their sections are: {}.",
                name.trim(),
                names.join(", ")
            ))
        }
    }
}

/// The page's introduction (before its first `##` heading), tables turned
/// into lines.
pub fn rules_intro(page: &str) -> Text {
    render(&split(page).intro)
}

/// Lines of a page as they are, each pipe table turned into one line per
/// row (its header row and separator row dropped).
fn render(lines: &[&str]) -> Text {
    let mut out = Text::new();
    let mut header: Option<Vec<String>> = None;
    let mut fenced = false;
    let mut first = true;
    for line in lines {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            fenced = !fenced;
        }
        let row = !fenced && trimmed.starts_with('|');
        if !row {
            header = None;
        } else {
            let cells = cells(trimmed);
            if cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
            {
                // The separator under the header.
                continue;
            }
            if header.is_none() {
                header = Some(cells);
                continue;
            }
            if !first {
                out.push_str("\n");
            }
            first = false;
            out.append(table_row(header.as_deref().unwrap_or(&[]), &cells));
            continue;
        }
        if !first {
            out.push_str("\n");
        }
        first = false;
        out.push_str(line);
    }
    out
}

fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// "- **Admiral** — strength: 6; special: …" from a row and its header.
/// Empty cells and "—" are left out.
fn table_row(header: &[String], cells: &[String]) -> Text {
    let first = cells.first().map(String::as_str).unwrap_or("");
    let head0 = header.first().map(String::as_str).unwrap_or("");
    let mut t = Text::plain("- ");
    if let Some(code) = first.strip_prefix('`').and_then(|c| c.strip_suffix('`')) {
        t = t.code(code);
    } else {
        let name = first.trim_matches('*');
        // A bare number means little alone: "players 2".
        let name = if !head0.is_empty() && name.chars().all(|c| c.is_ascii_digit()) {
            format!("{head0} {name}")
        } else {
            name.to_string()
        };
        t = t.strong(name);
    }
    let rest: Vec<String> = cells
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, c)| !c.is_empty() && c.as_str() != "—")
        .map(|(i, c)| match header.get(i).map(String::as_str) {
            Some(h) if !h.is_empty() => format!("{h}: {c}"),
            _ => c.clone(),
        })
        .collect();
    if !rest.is_empty() {
        t = t.then(format!(" — {}", rest.join("; ")));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Game\n\nIntro line.\n\n## Cards\n\nText before.\n\n| card | strength | special |\n|---|---|---|\n| Spy | 0 | **Ambush** |\n| Admiral | 6 | — |\n| `end` | | |\n\nAfter.\n\n### Sub\n\nMore.\n\n## Seats\n\n| players | seat 1 |\n|---|---|\n| 2 | Algol |\n```\n## not a heading\n```\n";

    #[test]
    fn tables_become_lines_from_header_and_row() {
        assert_eq!(section_names(PAGE), ["Cards", "Seats"]);
        let cards = rules_section(PAGE, "cards").unwrap().to_plain();
        assert_eq!(
            cards,
            "## Cards\n\nText before.\n\n- Spy — strength: 0; special: **Ambush**\n- Admiral — strength: 6\n- `end`\n\nAfter.\n\n### Sub\n\nMore.\n"
        );
        let seats = rules_section(PAGE, "SEA").unwrap().to_plain();
        assert!(seats.contains("- players 2 — seat 1: Algol"), "{seats}");
        assert!(
            seats.contains("## not a heading"),
            "a fenced line is not a heading: {seats}"
        );
        assert_eq!(rules_intro(PAGE).to_plain(), "# Game\n\nIntro line.\n");
        let e = rules_section(PAGE, "combat").unwrap_err();
        assert_eq!(
            e,
            "The rules have no section 'combat'; their sections are: Cards, Seats."
        );
    }

    /// For every game and section: nothing cut, no pipe-table row left,
    /// and every line of the page that is not a table row is shown.
    #[test]
    fn every_section_of_every_game_is_whole_and_table_free() {
        for kind in GameKind::ALL {
            let page = kind.rules_page();
            let names = rules_sections(*kind);
            assert!(names.len() >= 3, "{kind:?}");
            let mut shown: Vec<String> = rules_intro(page).to_plain().lines().map(str::to_string).collect();
            for name in &names {
                let text = rules_section(page, name).unwrap().to_plain();
                assert!(
                    text.lines().all(|l| !l.trim_start().starts_with('|')),
                    "{kind:?} {name}: a table row is left:\n{text}"
                );
                assert!(text.starts_with(&format!("## {name}")), "{kind:?} {name}");
                shown.extend(text.lines().map(str::to_string));
            }
            for line in page.lines().filter(|l| !l.trim_start().starts_with('|')) {
                assert!(
                    shown.iter().any(|s| s == line),
                    "{kind:?}: the line {line:?} is not shown"
                );
            }
            // Every data row became one line (the header and separator rows went).
            let pipes = page.lines().filter(|l| l.starts_with('|')).count();
            let separators = page.lines().filter(|l| l.starts_with("|---")).count();
            let bullets = |lines: &mut dyn Iterator<Item = &str>| lines.filter(|l| l.starts_with("- ")).count();
            assert_eq!(
                bullets(&mut shown.iter().map(String::as_str)) - bullets(&mut page.lines()),
                pipes - 2 * separators,
                "{kind:?}"
            );
        }
    }
}
