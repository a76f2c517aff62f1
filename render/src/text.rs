//! Single-line text: font loading, layout with kerning, measurement,
//! rasterisation with ab_glyph and compositing (with optional halo) onto
//! a tiny-skia pixmap.

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, Glyph, OutlinedGlyph, PxScale, ScaleFont};
use tiny_skia::Pixmap;

use crate::scene::{Anchor, Color, Text};

const REGULAR_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
const BOLD_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// Text larger than this (in px) is drawn and measured at this size, so a
/// bad scene cannot make the rasteriser allocate gigabytes.
pub const MAX_TEXT_SIZE: f32 = 1024.0;

struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        regular: FontRef::try_from_slice(REGULAR_TTF).expect("embedded DejaVuSans.ttf parses"),
        bold: FontRef::try_from_slice(BOLD_TTF).expect("embedded DejaVuSans-Bold.ttf parses"),
    })
}

fn font(bold: bool) -> &'static FontRef<'static> {
    let f = fonts();
    if bold {
        &f.bold
    } else {
        &f.regular
    }
}

/// The usable font size for `size`, or `None` when nothing should be drawn.
pub(crate) fn clamp_size(size: f32) -> Option<f32> {
    (size.is_finite() && size > 0.0).then(|| size.min(MAX_TEXT_SIZE))
}

/// ab_glyph's `PxScale` is the ascent-to-descent height; our sizes are em
/// sizes (like CSS `font-size`), so convert.
fn px_scale(font: &FontRef<'static>, size: f32) -> PxScale {
    let upem = font.units_per_em().unwrap_or(1000.0);
    PxScale::from(size * font.height_unscaled() / upem)
}

/// A laid-out line: glyphs positioned relative to an origin at the left
/// end of the baseline.
struct Line {
    glyphs: Vec<Glyph>,
    width: f32,
    ascent: f32,
    descent: f32,
}

impl Line {
    fn height(&self) -> f32 {
        self.ascent - self.descent
    }
}

fn layout(text: &str, size: f32, bold: bool) -> Option<Line> {
    let size = clamp_size(size)?;
    let font = font(bold);
    let scaled = font.as_scaled(px_scale(font, size));
    let mut glyphs = Vec::with_capacity(text.len());
    let mut x = 0.0f32;
    let mut prev = None;
    for c in text.chars().filter(|c| !c.is_control()) {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            x += scaled.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(scaled.scale(), point(x, 0.0)));
        x += scaled.h_advance(id);
        prev = Some(id);
    }
    Some(Line {
        glyphs,
        width: x,
        ascent: scaled.ascent(),
        descent: scaled.descent(),
    })
}

/// Measure one line of text: `(width, height)` in pixels.
///
/// The width is the sum of glyph advances with kerning; the height is the
/// font's ascent minus its descent at this size (about `1.164 * size` for
/// DejaVu Sans), independent of which letters are present. This is the box
/// that [`Anchor`] positions. Empty text has width 0; a non-positive or
/// non-finite size gives `(0.0, 0.0)`. Sizes above [`MAX_TEXT_SIZE`] are
/// clamped.
pub fn measure_text(text: &str, size: f32, bold: bool) -> (f32, f32) {
    match layout(text, size, bold) {
        Some(line) => (line.width, line.height()),
        None => (0.0, 0.0),
    }
}

/// Offset of the box's top-left corner from the anchor point.
fn anchor_offset(anchor: Anchor, w: f32, h: f32) -> (f32, f32) {
    use Anchor::*;
    let dx = match anchor {
        TopLeft | CenterLeft | BottomLeft => 0.0,
        TopCenter | Center | BottomCenter => -w / 2.0,
        TopRight | CenterRight | BottomRight => -w,
    };
    let dy = match anchor {
        TopLeft | TopCenter | TopRight => 0.0,
        CenterLeft | Center | CenterRight => -h / 2.0,
        BottomLeft | BottomCenter | BottomRight => -h,
    };
    (dx, dy)
}

/// The measured box `(left, top, width, height)` a text item occupies on
/// the canvas once its [`Anchor`] is applied (halo not included).
///
/// Glyph ink stays inside this box apart from small overhangs of some
/// glyphs; the renderer snaps the baseline to whole pixels, so drawn text
/// may sit up to half a pixel away from it.
pub fn text_box(text: &Text) -> (f32, f32, f32, f32) {
    let (w, h) = measure_text(&text.text, text.size, text.bold);
    let (dx, dy) = anchor_offset(text.anchor, w, h);
    (text.x + dx, text.y + dy, w, h)
}

/// The thickest halo drawn, in pixels (reached at text size 108).
pub const MAX_HALO: f32 = 12.0;

/// Halo thickness in pixels for a given text size: `max(2, size / 9)`,
/// at most [`MAX_HALO`].
pub(crate) fn halo_radius(size: f32) -> f32 {
    (size / 9.0).clamp(2.0, MAX_HALO)
}

/// An integer pixel rectangle `[x0, x1) x [y0, y1)`.
#[derive(Clone, Copy, Debug)]
struct IRect {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl IRect {
    fn width(&self) -> usize {
        (self.x1 - self.x0).max(0) as usize
    }
    fn height(&self) -> usize {
        (self.y1 - self.y0).max(0) as usize
    }
    fn is_empty(&self) -> bool {
        self.x1 <= self.x0 || self.y1 <= self.y0
    }
    fn intersect(&self, o: &IRect) -> IRect {
        IRect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }
}

/// A coverage buffer (0.0..=1.0 per pixel) over a canvas rectangle.
struct Coverage {
    area: IRect,
    data: Vec<f32>,
}

impl Coverage {
    fn new(area: IRect) -> Self {
        Coverage {
            area,
            data: vec![0.0; area.width() * area.height()],
        }
    }

    fn add_glyph(&mut self, g: &OutlinedGlyph) {
        let b = g.px_bounds();
        let (gx0, gy0) = (b.min.x as i32, b.min.y as i32);
        let a = self.area;
        let w = a.width();
        g.draw(|x, y, c| {
            let (px, py) = (gx0 + x as i32, gy0 + y as i32);
            if px >= a.x0 && px < a.x1 && py >= a.y0 && py < a.y1 {
                let i = (py - a.y0) as usize * w + (px - a.x0) as usize;
                self.data[i] = (self.data[i] + c).min(1.0);
            }
        });
    }

    /// Grey-scale dilation by a disc of radius `r` with an antialiased rim.
    fn dilate(&self, r: f32) -> Coverage {
        self.dilate_impl(r, true)
    }

    /// `skip_interior`: a fully covered pixel whose eight neighbours are
    /// fully covered too casts no disc of its own: the discs of the shape's
    /// edge pixels reach everywhere its disc would. That makes the cost
    /// proportional to the glyph outlines' length rather than their area.
    fn dilate_impl(&self, r: f32, skip_interior: bool) -> Coverage {
        let reach = (r + 0.5).ceil() as i32;
        let mut offsets = Vec::new();
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let d = ((dx * dx + dy * dy) as f32).sqrt();
                let wgt = (r + 0.5 - d).clamp(0.0, 1.0);
                if wgt > 0.0 {
                    offsets.push((dx, dy, wgt));
                }
            }
        }
        let (w, h) = (self.area.width() as i32, self.area.height() as i32);
        let full = |x: i32, y: i32| x < 0 || y < 0 || x >= w || y >= h || self.data[(y * w + x) as usize] >= 1.0;
        let mut out = vec![0.0f32; self.data.len()];
        // Scatter from each covered source pixel; most pixels are empty, so
        // this is much cheaper than gathering for every destination pixel.
        for sy in 0..h {
            for sx in 0..w {
                let i = (sy * w + sx) as usize;
                let c = self.data[i];
                if c <= 0.0 {
                    continue;
                }
                if skip_interior && c >= 1.0 && (-1..=1).all(|dy| (-1..=1).all(|dx| full(sx + dx, sy + dy))) {
                    out[i] = 1.0;
                    continue;
                }
                for &(dx, dy, wgt) in &offsets {
                    let (x, y) = (sx + dx, sy + dy);
                    if x >= 0 && x < w && y >= 0 && y < h {
                        let o = &mut out[(y * w + x) as usize];
                        let v = c * wgt;
                        if v > *o {
                            *o = v;
                        }
                    }
                }
            }
        }
        Coverage {
            area: self.area,
            data: out,
        }
    }

    /// Composite `color` through this coverage onto premultiplied RGBA.
    fn composite(&self, pixmap: &mut Pixmap, color: Color) {
        if color.a == 0 {
            return;
        }
        let canvas = IRect {
            x0: 0,
            y0: 0,
            x1: pixmap.width() as i32,
            y1: pixmap.height() as i32,
        };
        let clip = self.area.intersect(&canvas);
        if clip.is_empty() {
            return;
        }
        let stride = pixmap.width() as usize * 4;
        let cw = self.area.width();
        let data = pixmap.data_mut();
        let ca = color.a as f32 / 255.0;
        let (cr, cg, cb) = (color.r as f32, color.g as f32, color.b as f32);
        for y in clip.y0..clip.y1 {
            let row = (y - self.area.y0) as usize * cw;
            for x in clip.x0..clip.x1 {
                let cov = self.data[row + (x - self.area.x0) as usize];
                if cov <= 0.0 {
                    continue;
                }
                let a = cov * ca;
                let inv = 1.0 - a;
                let i = y as usize * stride + x as usize * 4;
                let px = &mut data[i..i + 4];
                px[0] = blend(cr * a, px[0], inv);
                px[1] = blend(cg * a, px[1], inv);
                px[2] = blend(cb * a, px[2], inv);
                px[3] = blend(255.0 * a, px[3], inv);
            }
        }
    }
}

/// Premultiplied source-over for one channel.
#[inline]
fn blend(src: f32, dst: u8, inv_src_alpha: f32) -> u8 {
    // Both terms are non-negative, so adding 0.5 and truncating rounds to
    // nearest (faster than `f32::round`); `as u8` saturates at 255.
    (src + dst as f32 * inv_src_alpha + 0.5) as u8
}

/// Draw a text item (halo first, then the glyphs) onto the pixmap.
pub(crate) fn draw_text(pixmap: &mut Pixmap, t: &Text) {
    if t.text.is_empty() || !t.x.is_finite() || !t.y.is_finite() {
        return;
    }
    let Some(line) = layout(&t.text, t.size, t.bold) else {
        return;
    };
    let size = clamp_size(t.size).unwrap_or(0.0);
    let (dx, dy) = anchor_offset(t.anchor, line.width, line.height());
    // Snap the baseline origin to whole pixels: crisper and reproducible.
    let ox = (t.x + dx).round();
    let oy = (t.y + dy + line.ascent).round();
    if ox.abs() > 1.0e7 || oy.abs() > 1.0e7 {
        return;
    }

    let halo_r = t.halo.map(|_| halo_radius(size));
    let pad = halo_r.map_or(0, |r| (r + 0.5).ceil() as i32 + 1);
    // Coverage is kept for the canvas plus the halo margin, so glyph parts
    // just off-canvas still cast their halo onto it.
    let limit = IRect {
        x0: -pad,
        y0: -pad,
        x1: pixmap.width() as i32 + pad,
        y1: pixmap.height() as i32 + pad,
    };

    let font = font(t.bold);
    let mut outlined = Vec::new();
    let mut ink: Option<IRect> = None;
    for g in &line.glyphs {
        let mut g = g.clone();
        g.position = point(g.position.x + ox, g.position.y + oy);
        let Some(og) = font.outline_glyph(g) else {
            continue;
        };
        let b = og.px_bounds();
        let r = IRect {
            x0: b.min.x as i32,
            y0: b.min.y as i32,
            x1: b.max.x as i32,
            y1: b.max.y as i32,
        };
        if r.intersect(&limit).is_empty() {
            continue;
        }
        ink = Some(match ink {
            None => r,
            Some(u) => IRect {
                x0: u.x0.min(r.x0),
                y0: u.y0.min(r.y0),
                x1: u.x1.max(r.x1),
                y1: u.y1.max(r.y1),
            },
        });
        outlined.push(og);
    }
    let Some(ink) = ink else {
        return;
    };
    let area = IRect {
        x0: ink.x0 - pad,
        y0: ink.y0 - pad,
        x1: ink.x1 + pad,
        y1: ink.y1 + pad,
    }
    .intersect(&limit);
    if area.is_empty() {
        return;
    }

    let mut cov = Coverage::new(area);
    for og in &outlined {
        cov.add_glyph(og);
    }
    if let (Some(color), Some(r)) = (t.halo, halo_r) {
        cov.dilate(r).composite(pixmap, color);
    }
    cov.composite(pixmap, t.color);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measure_grows_with_text_and_bold_is_wider() {
        let (w1, h1) = measure_text("Orrery", 20.0, false);
        let (w2, h2) = measure_text("Orrery Orrery", 20.0, false);
        let (wb, _) = measure_text("Orrery", 20.0, true);
        assert!(w1 > 30.0 && w1 < 120.0, "w1 = {w1}");
        assert!(w2 > 2.0 * w1, "w2 = {w2}, w1 = {w1}");
        assert!(wb > w1, "bold {wb} should be wider than regular {w1}");
        assert_eq!(h1, h2, "height must not depend on the letters");
    }

    #[test]
    fn measure_height_is_ascent_minus_descent_in_em_units() {
        let (_, h) = measure_text("x", 100.0, false);
        // DejaVu Sans: (1901 + 483) / 2048 em.
        assert!((h - 116.4).abs() < 0.5, "h = {h}");
        let (_, h20) = measure_text("x", 20.0, false);
        assert!((h20 * 5.0 - h).abs() < 0.01);
    }

    #[test]
    fn measure_empty_and_invalid() {
        assert_eq!(measure_text("", 20.0, false).0, 0.0);
        assert!(measure_text("", 20.0, false).1 > 20.0);
        assert_eq!(measure_text("abc", 0.0, false), (0.0, 0.0));
        assert_eq!(measure_text("abc", -3.0, true), (0.0, 0.0));
        assert_eq!(measure_text("abc", f32::NAN, false), (0.0, 0.0));
        assert_eq!(
            measure_text("abc", 1.0e9, false),
            measure_text("abc", MAX_TEXT_SIZE, false)
        );
    }

    #[test]
    fn kerning_is_applied() {
        let av = measure_text("AV", 50.0, false).0;
        let a = measure_text("A", 50.0, false).0;
        let v = measure_text("V", 50.0, false).0;
        assert!(av < a + v - 0.5, "AV {av} vs A+V {}", a + v);
    }

    #[test]
    fn text_box_applies_anchor() {
        let t = Text::new(100.0, 50.0, "Hi there", 20.0, Color::WHITE);
        let (w, h) = measure_text("Hi there", 20.0, false);
        assert_eq!(text_box(&t), (100.0, 50.0, w, h));
        let c = text_box(&t.clone().anchor(Anchor::Center));
        assert_eq!(c, (100.0 - w / 2.0, 50.0 - h / 2.0, w, h));
        let br = text_box(&t.anchor(Anchor::BottomRight));
        assert_eq!(br, (100.0 - w, 50.0 - h, w, h));
    }

    #[test]
    fn dilation_grows_coverage_by_radius() {
        let area = IRect {
            x0: 0,
            y0: 0,
            x1: 21,
            y1: 21,
        };
        let mut c = Coverage::new(area);
        c.data[10 * 21 + 10] = 1.0;
        let d = c.dilate(3.0);
        assert_eq!(d.data[10 * 21 + 10], 1.0);
        assert_eq!(d.data[10 * 21 + 12], 1.0, "2 px away is fully inside");
        assert_eq!(d.data[12 * 21 + 11], 1.0, "sqrt(5) px away is inside");
        assert_eq!(d.data[10 * 21 + 13], 0.5, "3 px away is the antialiased rim");
        assert_eq!(d.data[10 * 21 + 14], 0.0, "4 px away is outside");
        assert_eq!(d.data[13 * 21 + 13], 0.0, "diagonal 4.2 px is outside");
        assert_eq!(d.data[0], 0.0);
    }

    #[test]
    fn edge_only_dilation_matches_brute_force() {
        let line = layout("Bold WM@8", 60.0, true).unwrap();
        let area = IRect {
            x0: -10,
            y0: -10,
            x1: line.width as i32 + 10,
            y1: line.height() as i32 + 10,
        };
        let mut cov = Coverage::new(area);
        let font = font(true);
        for g in &line.glyphs {
            let mut g = g.clone();
            g.position.y += line.ascent;
            if let Some(og) = font.outline_glyph(g) {
                cov.add_glyph(&og);
            }
        }
        assert!(cov.data.iter().filter(|c| **c >= 1.0).count() > 500);
        let r = halo_radius(60.0);
        let fast = cov.dilate_impl(r, true);
        let slow = cov.dilate_impl(r, false);
        let worst = fast
            .data
            .iter()
            .zip(&slow.data)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 0.05, "max difference {worst}");
    }

    #[test]
    fn halo_radius_follows_size_within_limits() {
        assert_eq!(halo_radius(9.0), 2.0);
        assert_eq!(halo_radius(27.0), 3.0);
        assert_eq!(halo_radius(1000.0), MAX_HALO);
    }

    #[test]
    fn composite_is_premultiplied_source_over() {
        let mut pm = Pixmap::new(2, 1).unwrap();
        pm.fill(tiny_skia::Color::from_rgba8(0, 0, 255, 255));
        let mut c = Coverage::new(IRect {
            x0: 0,
            y0: 0,
            x1: 2,
            y1: 1,
        });
        c.data = vec![1.0, 0.5];
        c.composite(&mut pm, Color::rgb(255, 0, 0));
        assert_eq!(&pm.data()[0..4], &[255, 0, 0, 255]);
        assert_eq!(&pm.data()[4..8], &[128, 0, 128, 255]);
    }
}
