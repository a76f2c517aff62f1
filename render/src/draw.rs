//! Shapes and legends drawn with tiny-skia.

use tiny_skia::{FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Rect, StrokeDash, Transform};

use crate::scene::{Anchor, Color, Item, LegendEntry, Stroke, Text};
use crate::spans;
use crate::text::{clamp_size, draw_text, measure_text, GlyphCache};

pub(crate) fn sk_color(c: Color) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a)
}

fn paint(c: Color) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(sk_color(c));
    p.anti_alias = true;
    p
}

fn visible(s: &Stroke) -> bool {
    s.width.is_finite() && s.width > 0.0 && s.color.a > 0
}

fn fill_and_stroke(pm: &mut Pixmap, path: &Path, fill: Option<Color>, stroke: &Option<Stroke>) {
    if let Some(c) = fill.filter(|c| c.a > 0) {
        pm.fill_path(path, &paint(c), FillRule::Winding, Transform::identity(), None);
    }
    if let Some(s) = stroke.as_ref().filter(|s| visible(s)) {
        let sk = tiny_skia::Stroke {
            width: s.width,
            line_join: LineJoin::Miter,
            ..Default::default()
        };
        pm.stroke_path(path, &paint(s.color), &sk, Transform::identity(), None);
    }
}

/// A rectangle normalised to positive sizes with its corner radius clamped
/// to half the shorter side; `None` if empty or not finite.
fn rect_geometry(x: f32, y: f32, w: f32, h: f32, radius: f32) -> Option<(f32, f32, f32, f32, f32)> {
    let (x, w) = if w < 0.0 { (x + w, -w) } else { (x, w) };
    let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
    let finite = x.is_finite() && y.is_finite() && w.is_finite() && h.is_finite();
    if !(w > 0.0 && h > 0.0 && finite) {
        return None;
    }
    let r = if radius.is_finite() {
        radius.max(0.0).min(w / 2.0).min(h / 2.0)
    } else {
        0.0
    };
    Some((x, y, w, h, r))
}

/// Fill and/or stroke a (rounded) rectangle, painted directly (see
/// [`spans`]): the stroke is the band between the rectangle grown and
/// shrunk by half the stroke width (corner radii grown and shrunk alike;
/// square corners stay square, as mitred).
fn draw_rect(pm: &mut Pixmap, geom: (f32, f32, f32, f32, f32), fill: Option<Color>, stroke: &Option<Stroke>) {
    let (x, y, w, h, r) = geom;
    let stroke = stroke.as_ref().filter(|s| visible(s));
    let half = stroke.map_or(0.0, |s| s.width / 2.0);
    let ok = |v: f32| v.is_finite() && v.abs() < SPAN_LIMIT;
    if !(ok(x) && ok(y) && ok(w) && ok(h) && ok(half)) {
        if let Some(p) = rect_path(x, y, w, h, r) {
            fill_and_stroke(pm, &p, fill, &stroke.copied());
        }
        return;
    }
    if let Some(c) = fill.filter(|c| c.a > 0) {
        spans::rrect(pm, (x, y, w, h, r), c);
    }
    if let Some(s) = stroke {
        let outer_r = if r > 0.0 { r + half } else { 0.0 };
        let outer = (x - half, y - half, w + 2.0 * half, h + 2.0 * half, outer_r);
        let inner = (x + half, y + half, w - 2.0 * half, h - 2.0 * half, (r - half).max(0.0));
        if inner.2 > 0.0 && inner.3 > 0.0 {
            spans::rrect_ring(pm, outer, inner, s.color);
        } else {
            spans::rrect(pm, outer, s.color);
        }
    }
}

/// A rectangle path with corners rounded by `radius` (clamped to half the
/// shorter side). Negative sizes are normalised; empty or non-finite
/// rectangles give `None`.
fn rect_path(x: f32, y: f32, w: f32, h: f32, radius: f32) -> Option<Path> {
    let (x, y, w, h, r) = rect_geometry(x, y, w, h, radius)?;
    if r <= 0.0 {
        return Some(PathBuilder::from_rect(Rect::from_xywh(x, y, w, h)?));
    }
    // Cubic approximation of a quarter circle.
    let k = r * 0.552_284_8;
    let (x1, y1) = (x + w, y + h);
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x1 - r, y);
    pb.cubic_to(x1 - r + k, y, x1, y + r - k, x1, y + r);
    pb.line_to(x1, y1 - r);
    pb.cubic_to(x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1);
    pb.line_to(x + r, y1);
    pb.cubic_to(x + r - k, y1, x, y1 - r + k, x, y1 - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish()
}

fn poly_path(points: &[(f32, f32)], close: bool) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut pb = PathBuilder::with_capacity(points.len() + 1, points.len() + 1);
    pb.move_to(first.0, first.1);
    for p in rest {
        pb.line_to(p.0, p.1);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

fn draw_line(pm: &mut Pixmap, points: &[(f32, f32)], stroke: &Stroke, dashed: bool) {
    let s = stroke;
    if !visible(s) {
        return;
    }
    let Some(path) = poly_path(points, false) else {
        return;
    };
    let dash = if dashed {
        let on = (s.width * 3.0).max(6.0);
        let off = (s.width * 2.0).max(4.0);
        StrokeDash::new(vec![on, off], 0.0)
    } else {
        None
    };
    let sk = tiny_skia::Stroke {
        width: s.width,
        // Butt caps keep dash gaps open; round joins soften polylines.
        line_cap: if dashed { LineCap::Butt } else { LineCap::Round },
        line_join: LineJoin::Round,
        dash,
        ..Default::default()
    };
    pm.stroke_path(&path, &paint(s.color), &sk, Transform::identity(), None);
}

/// Geometry of a legend box, all derived from the font size.
struct LegendLayout {
    pad: f32,
    row_h: f32,
    swatch: f32,
    gap: f32,
    title_rows: f32,
    width: f32,
    height: f32,
}

const LEGEND_PANEL: Color = Color::rgba(14, 16, 26, 232);
const LEGEND_BORDER: Color = Color::rgb(150, 156, 180);
const LEGEND_TITLE: Color = Color::WHITE;
const LEGEND_LABEL: Color = Color::rgb(228, 230, 240);
const LEGEND_SWATCH_EDGE: Color = Color::rgba(255, 255, 255, 190);

fn legend_layout(title: &str, entries: &[LegendEntry], size: f32) -> Option<LegendLayout> {
    let size = clamp_size(size)?;
    let (_, text_h) = measure_text("", size, false);
    let pad = (size * 0.6).round();
    let row_h = (text_h * 1.2).round();
    let swatch = (size * 0.9).round();
    let gap = (size * 0.5).round();
    let title_rows = if title.is_empty() { 0.0 } else { 1.25 };
    let mut inner_w = if title.is_empty() {
        0.0
    } else {
        measure_text(title, size, true).0
    };
    for e in entries {
        inner_w = inner_w.max(swatch + gap + measure_text(&e.label, size, false).0);
    }
    let rows = title_rows + entries.len() as f32;
    let width = (inner_w + 2.0 * pad).ceil();
    // The last row's internal spacing stands in for part of the bottom pad.
    let height = (rows * row_h + 2.0 * pad - (row_h - text_h) / 2.0).ceil();
    Some(LegendLayout {
        pad,
        row_h,
        swatch,
        gap,
        title_rows,
        width,
        height,
    })
}

/// The `(width, height)` in pixels of the panel that an [`Item::Legend`]
/// with this title, entries and font size draws, so callers can place it
/// (e.g. flush against a canvas corner). `(0.0, 0.0)` for an invalid size.
pub fn legend_size(title: &str, entries: &[LegendEntry], size: f32) -> (f32, f32) {
    legend_layout(title, entries, size).map_or((0.0, 0.0), |l| (l.width, l.height))
}

fn draw_legend(
    pm: &mut Pixmap,
    x: f32,
    y: f32,
    title: &str,
    entries: &[LegendEntry],
    size: f32,
    cache: &mut GlyphCache,
) {
    if !x.is_finite() || !y.is_finite() {
        return;
    }
    let Some(l) = legend_layout(title, entries, size) else {
        return;
    };
    let Some(size) = clamp_size(size) else {
        return;
    };
    let border = (size / 14.0).max(1.0);
    // Inset by half the border so the stroke stays inside the reported size.
    let half = border / 2.0;
    let panel = rect_geometry(x + half, y + half, l.width - border, l.height - border, size * 0.35);
    if let Some(g) = panel {
        draw_rect(pm, g, Some(LEGEND_PANEL), &Some(Stroke::new(LEGEND_BORDER, border)));
    }
    let left = x + l.pad;
    let mut top = y + l.pad;
    if l.title_rows > 0.0 {
        let t = Text {
            bold: true,
            anchor: Anchor::CenterLeft,
            ..Text::new(left, top + l.row_h / 2.0, title, size, LEGEND_TITLE)
        };
        draw_text(pm, &t, cache);
        top += l.title_rows * l.row_h;
    }
    let edge = Stroke::new(LEGEND_SWATCH_EDGE, (size / 16.0).max(1.0));
    for e in entries {
        let cy = top + l.row_h / 2.0;
        if let Some(g) = rect_geometry(left, cy - l.swatch / 2.0, l.swatch, l.swatch, size * 0.15) {
            draw_rect(pm, g, Some(e.color), &Some(edge));
        }
        let t = Text::new(left + l.swatch + l.gap, cy, e.label.clone(), size, LEGEND_LABEL).anchor(Anchor::CenterLeft);
        draw_text(pm, &t, cache);
        top += l.row_h;
    }
}

/// Largest circle radius or polygon extent drawn by [`spans`]; beyond it
/// (far off-canvas geometry) tiny-skia clips more cleverly.
const SPAN_LIMIT: f32 = 1.0e5;

/// A circle: discs and rings are painted directly (see [`spans`]).
fn draw_circle(pm: &mut Pixmap, cx: f32, cy: f32, r: f32, fill: Option<Color>, stroke: &Option<Stroke>) {
    let ok = |v: f32| v.is_finite() && v.abs() < SPAN_LIMIT;
    if !(ok(cx) && ok(cy) && ok(r) && r > 0.0) {
        return;
    }
    if let Some(c) = fill.filter(|c| c.a > 0) {
        spans::disc(pm, cx, cy, r, c);
    }
    if let Some(s) = stroke.as_ref().filter(|s| visible(s) && ok(s.width)) {
        let half = s.width / 2.0;
        if r > half {
            spans::ring(pm, cx, cy, r - half, r + half, s.color);
        } else {
            spans::disc(pm, cx, cy, r + half, s.color);
        }
    }
}

/// A polygon: convex ones (and their mitred outlines) are painted
/// directly (see [`spans`]), others by tiny-skia.
fn draw_polygon(pm: &mut Pixmap, points: &[(f32, f32)], fill: Option<Color>, stroke: &Option<Stroke>) {
    let convex = spans::is_convex(points) && points.iter().all(|p| p.0.abs() < SPAN_LIMIT && p.1.abs() < SPAN_LIMIT);
    let path = poly_path(points, true);
    if let Some(c) = fill.filter(|c| c.a > 0) {
        if convex {
            spans::convex(pm, points, c);
        } else if let Some(p) = &path {
            fill_and_stroke(pm, p, Some(c), &None);
        }
    }
    if let Some(s) = stroke.as_ref().filter(|s| visible(s)) {
        let miter_limit = tiny_skia::Stroke::default().miter_limit;
        let half = s.width / 2.0;
        let band = convex
            .then(|| spans::offset(points, half, miter_limit).zip(spans::offset(points, -half, miter_limit)))
            .flatten()
            .filter(|(_, inner)| spans::is_convex(inner));
        if let Some((outer, inner)) = band {
            spans::convex_ring(pm, &outer, &inner, s.color);
        } else if let Some(p) = &path {
            fill_and_stroke(pm, p, None, stroke);
        }
    }
}

/// Paint one item onto the pixmap. Degenerate items (non-finite or empty
/// geometry, too few points) draw nothing rather than failing.
pub(crate) fn draw_item(pm: &mut Pixmap, item: &Item, cache: &mut GlyphCache) {
    match item {
        Item::Rect {
            x,
            y,
            w,
            h,
            radius,
            fill,
            stroke,
        } => {
            if let Some(g) = rect_geometry(*x, *y, *w, *h, *radius) {
                draw_rect(pm, g, *fill, stroke);
            }
        }
        Item::Circle {
            cx,
            cy,
            r,
            fill,
            stroke,
        } => draw_circle(pm, *cx, *cy, *r, *fill, stroke),
        Item::Polygon { points, fill, stroke } => draw_polygon(pm, points, *fill, stroke),
        Item::Line { points, stroke, dashed } => draw_line(pm, points, stroke, *dashed),
        Item::Text(t) => draw_text(pm, t, cache),
        Item::Legend {
            x,
            y,
            title,
            entries,
            size,
        } => draw_legend(pm, *x, *y, title, entries, *size, cache),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_path_normalises_and_rejects() {
        let p = rect_path(10.0, 10.0, -5.0, 4.0, 0.0).unwrap();
        let b = p.bounds();
        assert_eq!((b.left(), b.right()), (5.0, 10.0));
        assert!(rect_path(0.0, 0.0, 0.0, 5.0, 0.0).is_none());
        assert!(rect_path(f32::NAN, 0.0, 5.0, 5.0, 0.0).is_none());
        // A huge radius is clamped to a capsule, not an error.
        let p = rect_path(0.0, 0.0, 40.0, 10.0, 1000.0).unwrap();
        assert_eq!(p.bounds().width(), 40.0);
        assert_eq!(p.bounds().height(), 10.0);
    }

    #[test]
    fn poly_path_needs_two_points() {
        assert!(poly_path(&[], true).is_none());
        assert!(poly_path(&[(1.0, 1.0)], true).is_none());
        assert!(poly_path(&[(1.0, 1.0), (5.0, 5.0)], false).is_some());
    }

    #[test]
    fn legend_size_grows_with_entries_and_labels() {
        let e = |l: &str| LegendEntry {
            color: Color::WHITE,
            label: l.into(),
        };
        let (w1, h1) = legend_size("Players", &[e("Ann")], 16.0);
        let (w2, h2) = legend_size("Players", &[e("Ann"), e("Bo")], 16.0);
        let (w3, _) = legend_size("Players", &[e("A much longer label here")], 16.0);
        assert!(h2 > h1 + 15.0, "{h1} -> {h2}");
        assert_eq!(w1, w2);
        assert!(w3 > w1 + 50.0);
        assert_eq!(legend_size("x", &[], 0.0), (0.0, 0.0));
    }
}
