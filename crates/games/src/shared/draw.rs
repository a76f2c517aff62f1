//! Drawing helpers the games' board scenes share: the players' colours,
//! names cut to fit, text sized to fit a width, rounded boxes, lines
//! wrapped at " · ".

use orrery_engine::Seat;
use orrery_render::{measure_text, Color, Item, Scene, Stroke, Text};

/// Player colours: vermillion, sky blue, bluish green, reddish purple
/// (after Okabe & Ito, readable for most colour-blind viewers).
pub const PLAYER_COLORS: [Color; 4] = [
    Color::rgb(230, 97, 1),
    Color::rgb(86, 180, 233),
    Color::rgb(0, 178, 125),
    Color::rgb(214, 128, 180),
];

/// A seat's colour, the four repeating past the fourth seat.
pub fn player_color(seat: Seat) -> Color {
    PLAYER_COLORS[seat.index() % PLAYER_COLORS.len()]
}

/// A seat's display name, cut to 18 characters ("Seat N" when the list
/// lacks it).
pub(crate) fn name_of(names: &[String], seat: Seat) -> String {
    let n = names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| format!("Seat {}", seat.0 + 1));
    truncate(&n, 18)
}

pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

pub(crate) fn txt(x: f32, y: f32, s: impl Into<String>, size: f32, color: Color) -> Text {
    Text::new(x, y, s, size, color)
}

/// Largest size (down to `min`) at which `s` fits in `width`.
pub(crate) fn fit(s: &str, size: f32, min: f32, width: f32, bold: bool) -> f32 {
    let mut sz = size;
    while sz > min && measure_text(s, sz, bold).0 > width {
        sz -= 1.0;
    }
    sz
}

/// Shrink to `min`, then cut with an ellipsis, until `s` fits `width`.
pub(crate) fn fit_text(s: &str, size: f32, min: f32, width: f32, bold: bool) -> (String, f32) {
    let size = fit(s, size, min, width, bold);
    let mut t = s.to_string();
    let mut n = t.chars().count();
    while n > 1 && measure_text(&t, size, bold).0 > width {
        n -= 1;
        t = s.chars().take(n).collect::<String>() + "…";
    }
    (t, size)
}

pub(crate) fn rounded(
    scene: &mut Scene,
    rect: (f32, f32, f32, f32),
    r: f32,
    fill: Option<Color>,
    stroke: Option<Stroke>,
) {
    let (x, y, w, h) = rect;
    scene.push(Item::Rect {
        x,
        y,
        w,
        h,
        radius: r,
        fill,
        stroke,
    });
}

/// Split `s` at " · " into lines that fit `width` at `size`.
pub(crate) fn wrap(s: &str, size: f32, width: f32, bold: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for part in s.split(" · ") {
        let candidate = if cur.is_empty() {
            part.to_string()
        } else {
            format!("{cur} · {part}")
        };
        if !cur.is_empty() && measure_text(&candidate, size, bold).0 > width {
            out.push(std::mem::take(&mut cur));
            cur = part.to_string();
        } else {
            cur = candidate;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Split `s` at spaces into lines that fit `width` at `size`.
pub(crate) fn wrap_words(s: &str, size: f32, width: f32, bold: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if !cur.is_empty() && measure_text(&candidate, size, bold).0 > width {
            out.push(std::mem::take(&mut cur));
            cur = word.to_string();
        } else {
            cur = candidate;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
