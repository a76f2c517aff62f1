//! Service text in Discord's markup, cut to Discord's message limits.

use orrery_service::{Span, Text};

/// Discord's message length limit, in characters.
pub const MESSAGE_LIMIT: usize = 2000;

/// Where the text of a post or reply is cut (on a line boundary), keeping
/// clear of [`MESSAGE_LIMIT`] for what is added after it (choice lists).
pub const POST_LIMIT: usize = 1900;

/// The file name boards are attached under.
pub const BOARD_FILE: &str = "board.png";

/// Service text in Discord's markup: emphasis in `**`, literals in
/// backticks, people and channels as mentions, moments as timestamps
/// (relative, then full; each in the reader's own time zone).
pub fn markup(text: &Text) -> String {
    text.render(|span, out| match span {
        Span::Plain(p) => out.push_str(p),
        Span::Strong(s) => {
            out.push_str("**");
            out.push_str(s);
            out.push_str("**");
        }
        Span::Code(c) => {
            out.push('`');
            out.push_str(c);
            out.push('`');
        }
        // A computer player is nobody on Discord: its name, never a mention.
        Span::Mention { user, name } if orrery_service::is_bot_user(*user) => out.push_str(name),
        Span::User(u) if orrery_service::is_bot_user(*u) => out.push_str("a computer player"),
        Span::User(u) | Span::Mention { user: u, .. } => out.push_str(&format!("<@{u}>")),
        Span::Channel(c) => out.push_str(&format!("<#{c}>")),
        Span::Time(ms) => {
            let s = ms.div_euclid(1000);
            out.push_str(&format!("<t:{s}:R> (<t:{s}:f>)"));
        }
    })
}

/// The content of a post or reply: [`markup`], cut to [`POST_LIMIT`].
pub fn post_text(text: &Text) -> String {
    clip_lines(&markup(text), POST_LIMIT)
}

/// Cut text to at most `max` characters on a line boundary where possible,
/// saying how many lines were left out.
pub fn clip_lines(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(30)).collect();
    let cut = match cut.rfind('\n') {
        Some(i) if i > max / 2 => cut[..i].to_string(),
        _ => cut,
    };
    let rest = text.lines().count().saturating_sub(cut.lines().count());
    format!("{cut}\n… ({rest} more lines)")
}

/// The content of an edited live message: [`markup`], cut to
/// [`POST_LIMIT`] keeping its end (the newest lines).
pub fn edit_text(text: &Text) -> String {
    clip_lines_keep_end(&markup(text), POST_LIMIT)
}

/// Cut text to at most `max` characters keeping its end, on a line
/// boundary where possible, saying first how many earlier lines were cut.
/// For messages that grow at the end (a turn's narration).
pub fn clip_lines_keep_end(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    // Room for the note line: "(… 4294967295 earlier lines cut)\n".
    let budget = max.saturating_sub(40);
    let tail: String = text.chars().skip(total - budget).collect();
    let tail = match tail.find('\n') {
        Some(i) if tail[..i].chars().count() < budget / 2 => tail[i + 1..].to_string(),
        _ => tail,
    };
    let cut = text.lines().count().saturating_sub(tail.lines().count());
    match cut {
        // One line longer than the limit, cut inside.
        0 => format!("(… earlier text cut)\n{tail}"),
        1 => format!("(… 1 earlier line cut)\n{tail}"),
        n => format!("(… {n} earlier lines cut)\n{tail}"),
    }
}

/// Cut `text` to Discord's limit, marking the cut.
pub fn clip_message(text: &str) -> String {
    clip(text, MESSAGE_LIMIT)
}

/// Cut `text` to at most `max` characters (not bytes), ending with `…`
/// when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_engine::UserId;

    #[test]
    fn markup_for_every_span() {
        let t = Text::plain("Reminder: ")
            .strong("Hyperspace")
            .then(" game 1 in ")
            .channel(42)
            .then(" for ")
            .user(UserId(7))
            .then(": ")
            .code("/sheet ready")
            .then(". Deadline ")
            .time(1_700_000_000_999)
            .then(".");
        assert_eq!(
            markup(&t),
            "Reminder: **Hyperspace** game 1 in <#42> for <@7>: `/sheet ready`. Deadline <t:1700000000:R> (<t:1700000000:f>)."
        );
        // Old outbox rows (plain strings with markup in them) go out as they were.
        assert_eq!(markup(&Text::plain("**x** <t:1:R>")), "**x** <t:1:R>");
    }

    #[test]
    fn posts_are_cut_on_a_line_at_the_post_limit() {
        assert_eq!(clip_lines("abc", 10), "abc");
        let long = (0..200).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
        let c = clip_lines(&long, 300);
        assert!(c.chars().count() <= 300, "{}", c.len());
        assert!(c.contains("more lines"));
        let t = post_text(&Text::plain(long.repeat(3)));
        assert!(t.chars().count() <= POST_LIMIT && t.ends_with("more lines)"), "{t}");
    }

    #[test]
    fn edits_keep_the_newest_lines() {
        assert_eq!(clip_lines_keep_end("abc\ndef", 10), "abc\ndef");
        let long = (0..300).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
        let c = clip_lines_keep_end(&long, 300);
        assert!(c.chars().count() <= 300, "{}", c.chars().count());
        assert!(c.ends_with("line 299"), "{c}");
        // Whole lines only, and the note counts exactly the lines left out.
        let (note, kept) = c.split_once('\n').unwrap();
        let first: usize = kept
            .lines()
            .next()
            .unwrap()
            .strip_prefix("line ")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(note, format!("(… {first} earlier lines cut)"));
        assert_eq!(kept.lines().count(), 300 - first);
        // Characters, not bytes; one long line is cut inside.
        let wide = "é".repeat(5000);
        let c = clip_lines_keep_end(&wide, POST_LIMIT);
        assert!(c.chars().count() <= POST_LIMIT);
        assert!(
            c.starts_with("(… earlier text cut)\né"),
            "{}",
            c.chars().take(40).collect::<String>()
        );
        let t = edit_text(&Text::plain(long.repeat(5)));
        assert!(t.chars().count() <= POST_LIMIT && t.ends_with("line 299"), "{t}");
        assert!(
            t.starts_with("(… ") && t.lines().nth(1).unwrap().starts_with("line "),
            "{t}"
        );
    }

    #[test]
    fn clipping_counts_characters() {
        assert_eq!(clip_message("short"), "short");
        let long = "é".repeat(2500);
        let c = clip_message(&long);
        assert_eq!(c.chars().count(), MESSAGE_LIMIT);
        assert!(c.ends_with('…'));
        assert_eq!(clip("abcdef", 4), "abc…");
    }
}
