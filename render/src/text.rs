//! Single-line text: font loading (DejaVu Sans, with Droid Sans Fallback
//! for the Chinese, Japanese and Korean letters it lacks), layout with
//! kerning, measurement,
//! rasterisation with ab_glyph and compositing (with optional halo) onto
//! a tiny-skia pixmap.

use std::collections::HashMap;
use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, Glyph, PxScale, ScaleFont};
use tiny_skia::Pixmap;

use crate::scene::{Anchor, Color, Text};

const REGULAR_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
const BOLD_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");
/// Chinese, Japanese and Korean, for the letters DejaVu Sans lacks
/// (Apache 2.0; no bold face: bold text falls back to this regular one).
const FALLBACK_TTF: &[u8] = include_bytes!("../fonts/DroidSansFallback.ttf");

/// Text larger than this (in px) is drawn and measured at this size, so a
/// bad scene cannot make the rasteriser allocate gigabytes.
pub const MAX_TEXT_SIZE: f32 = 1024.0;

struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    fallback: FontRef<'static>,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        regular: FontRef::try_from_slice(REGULAR_TTF).expect("embedded DejaVuSans.ttf parses"),
        bold: FontRef::try_from_slice(BOLD_TTF).expect("embedded DejaVuSans-Bold.ttf parses"),
        fallback: FontRef::try_from_slice(FALLBACK_TTF).expect("embedded DroidSansFallback.ttf parses"),
    })
}

/// Which of the embedded faces draws a glyph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Face {
    Regular,
    Bold,
    /// The CJK fallback, for a letter the DejaVu face lacks.
    Fallback,
}

impl Face {
    fn primary(bold: bool) -> Face {
        if bold {
            Face::Bold
        } else {
            Face::Regular
        }
    }

    fn font(self) -> &'static FontRef<'static> {
        let f = fonts();
        match self {
            Face::Regular => &f.regular,
            Face::Bold => &f.bold,
            Face::Fallback => &f.fallback,
        }
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

/// A laid-out line: glyphs (each with the face that draws it) positioned
/// relative to an origin at the left end of the baseline.
struct Line {
    glyphs: Vec<(Face, Glyph)>,
    width: f32,
    ascent: f32,
    descent: f32,
}

impl Line {
    fn height(&self) -> f32 {
        self.ascent - self.descent
    }
}

/// Lays out `text` in the DejaVu face, each letter it lacks taken from
/// the fallback face at the same em size (so a name in Chinese, Japanese
/// or Korean is drawn, not boxes). The line's ascent and descent are the
/// DejaVu face's, so mixing scripts never moves a line.
fn layout(text: &str, size: f32, bold: bool) -> Option<Line> {
    let size = clamp_size(size)?;
    let primary = Face::primary(bold);
    let main = primary.font().as_scaled(px_scale(primary.font(), size));
    let other = Face::Fallback.font();
    let other = other.as_scaled(px_scale(other, size));
    let mut glyphs = Vec::with_capacity(text.len());
    let mut x = 0.0f32;
    let mut prev: Option<(Face, ab_glyph::GlyphId)> = None;
    for c in text.chars().filter(|c| !c.is_control()) {
        let id = main.glyph_id(c);
        let (face, id) = if id.0 == 0 && c != ' ' {
            match other.glyph_id(c) {
                fid if fid.0 != 0 => (Face::Fallback, fid),
                _ => (primary, id),
            }
        } else {
            (primary, id)
        };
        let scaled = if face == Face::Fallback { &other } else { &main };
        if let Some((pf, p)) = prev {
            if pf == face {
                x += scaled.kern(p, id);
            }
        }
        glyphs.push((face, id.with_scale_and_position(scaled.scale(), point(x, 0.0))));
        x += scaled.h_advance(id);
        prev = Some((face, id));
    }
    Some(Line {
        glyphs,
        width: x,
        ascent: main.ascent(),
        descent: main.descent(),
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

/// A rasterised glyph: coverage `data` (`w` by `h`, row-major) whose
/// top-left pixel is `(x0, y0)` from the glyph's origin.
pub(crate) struct GlyphBitmap {
    x0: i32,
    y0: i32,
    w: usize,
    h: usize,
    data: Vec<f32>,
}

/// Horizontal glyph positions are rounded to this fraction of a pixel, so
/// a glyph is rasterised at most this many times per size and face.
const SUBPIXEL_STEPS: f32 = 4.0;

/// Glyphs rasterised so far while drawing one scene, keyed by glyph, face,
/// scale and subpixel phase. Output does not depend on what is cached:
/// a glyph is always rasterised at its rounded phase.
#[derive(Default)]
pub(crate) struct GlyphCache {
    map: HashMap<(u16, Face, u32, u8), Option<usize>>,
    glyphs: Vec<GlyphBitmap>,
}

impl GlyphCache {
    /// The bitmap (index into `glyphs`) for a laid-out glyph and the whole
    /// pixels to add to its line's origin; `None` for glyphs without ink.
    fn glyph(&mut self, face: Face, g: &Glyph) -> Option<(usize, i32)> {
        let x = g.position.x;
        let mut whole = x.floor();
        let mut phase = ((x - whole) * SUBPIXEL_STEPS).round();
        if phase >= SUBPIXEL_STEPS {
            whole += 1.0;
            phase = 0.0;
        }
        let key = (g.id.0, face, g.scale.y.to_bits(), phase as u8);
        let idx = match self.map.get(&key) {
            Some(&v) => v,
            None => {
                let mut g = g.clone();
                g.position = point(phase / SUBPIXEL_STEPS, 0.0);
                let v = face.font().outline_glyph(g).map(|og| {
                    let b = og.px_bounds();
                    let (w, h) = (b.width() as usize, b.height() as usize);
                    let mut data = vec![0.0f32; w * h];
                    og.draw(|x, y, c| {
                        if let Some(d) = data.get_mut(y as usize * w + x as usize) {
                            *d = c.min(1.0);
                        }
                    });
                    self.glyphs.push(GlyphBitmap {
                        x0: b.min.x as i32,
                        y0: b.min.y as i32,
                        w,
                        h,
                        data,
                    });
                    self.glyphs.len() - 1
                });
                self.map.insert(key, v);
                v
            }
        }?;
        Some((idx, whole as i32))
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

    /// Add a cached glyph whose bitmap covers canvas rectangle `r`,
    /// clamping the sum to 1.
    fn add_bitmap(&mut self, bm: &GlyphBitmap, r: IRect) {
        let clip = r.intersect(&self.area);
        if clip.is_empty() {
            return;
        }
        let w = self.area.width();
        let (cx0, cx1) = ((clip.x0 - r.x0) as usize, (clip.x1 - r.x0) as usize);
        for y in clip.y0..clip.y1 {
            let src = &bm.data[(y - r.y0) as usize * bm.w..][cx0..cx1];
            let at = (y - self.area.y0) as usize * w + (clip.x0 - self.area.x0) as usize;
            for (d, &c) in self.data[at..at + src.len()].iter_mut().zip(src) {
                *d = (*d + c).min(1.0);
            }
        }
    }

    #[cfg(test)]
    fn add_glyph(&mut self, g: &ab_glyph::OutlinedGlyph) {
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

    /// Grey-scale dilation by a disc of radius `r` with an antialiased rim:
    /// each output pixel is the largest `coverage * weight` over the disc's
    /// offsets, where an offset's weight is `clamp(r + 0.5 - distance, 0, 1)`.
    ///
    /// Computed a source row and a disc offset at a time over the row's
    /// inked span, so the inner loop is a branch-free, vectorisable `max`.
    fn dilate(&self, r: f32) -> Coverage {
        let reach = (r + 0.5).ceil() as i32;
        // Offsets grouped by row: `rows[dy + reach]` lists `(dx, weight)`.
        let rows: Vec<Vec<(i32, f32)>> = (-reach..=reach)
            .map(|dy| {
                (-reach..=reach)
                    .filter_map(|dx| {
                        let d = ((dx * dx + dy * dy) as f32).sqrt();
                        let wgt = (r + 0.5 - d).clamp(0.0, 1.0);
                        (wgt > 0.0).then_some((dx, wgt))
                    })
                    .collect()
            })
            .collect();
        let (w, h) = (self.area.width(), self.area.height());
        let mut out = vec![0.0f32; self.data.len()];
        for sy in 0..h {
            let row = &self.data[sy * w..(sy + 1) * w];
            let Some(first) = row.iter().position(|&c| c > 0.0) else {
                continue;
            };
            let last = row.iter().rposition(|&c| c > 0.0).unwrap_or(first);
            for (dy, offsets) in (-reach..=reach).zip(&rows) {
                let y = sy as i32 + dy;
                if y < 0 || y >= h as i32 {
                    continue;
                }
                let out_row = &mut out[y as usize * w..(y as usize + 1) * w];
                for &(dx, wgt) in offsets {
                    // Source span [x0, x1) lands on [x0 + dx, x1 + dx).
                    let x0 = (first as i32).max(-dx);
                    let x1 = (last as i32 + 1).min(w as i32 - dx);
                    if x0 >= x1 {
                        continue;
                    }
                    let src = &row[x0 as usize..x1 as usize];
                    let dst = &mut out_row[(x0 + dx) as usize..(x1 + dx) as usize];
                    for (o, &c) in dst.iter_mut().zip(src) {
                        let v = c * wgt;
                        *o = if v > *o { v } else { *o };
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
    #[cfg(test)]
    fn composite(&self, pixmap: &mut Pixmap, color: Color) {
        composite(pixmap, &[(self, color)]);
    }
}

/// Composite colours through coverages of the same area onto premultiplied
/// RGBA, one pass for all layers (each pixel gets them in order), so a
/// halo and its text read and write the canvas once.
fn composite(pixmap: &mut Pixmap, layers: &[(&Coverage, Color)]) {
    let Some(area) = layers.first().map(|l| l.0.area) else {
        return;
    };
    debug_assert!(layers.iter().all(|l| l.0.data.len() == layers[0].0.data.len()));
    let canvas = IRect {
        x0: 0,
        y0: 0,
        x1: pixmap.width() as i32,
        y1: pixmap.height() as i32,
    };
    let clip = area.intersect(&canvas);
    if clip.is_empty() {
        return;
    }
    struct Layer<'a> {
        cov: &'a [f32],
        /// Colour alpha times 65536, so `cov * ca` is the 16-bit fixed
        /// point opacity of a pixel.
        ca: f32,
        rgba: [u32; 4],
        solid: Option<[u8; 4]>,
    }
    let layers: Vec<Layer> = layers
        .iter()
        .filter(|(_, c)| c.a > 0)
        .map(|(cov, c)| Layer {
            cov: &cov.data,
            ca: c.a as f32 * (65536.0 / 255.0),
            rgba: [c.r as u32, c.g as u32, c.b as u32, 255],
            solid: (c.a == 255).then_some([c.r, c.g, c.b, 255]),
        })
        .collect();
    let stride = pixmap.width() as usize * 4;
    let cw = area.width();
    let data = pixmap.data_mut();
    let (cx0, cx1) = ((clip.x0 - area.x0) as usize, (clip.x1 - area.x0) as usize);
    for y in clip.y0..clip.y1 {
        let row = (y - area.y0) as usize * cw;
        let start = y as usize * stride + clip.x0 as usize * 4;
        let px_row = &mut data[start..start + (cx1 - cx0) * 4];
        for (i, px) in (row + cx0..row + cx1).zip(px_row.chunks_exact_mut(4)) {
            for l in &layers {
                let cov = l.cov[i];
                if cov <= 0.0 {
                    continue;
                }
                if let (true, Some(solid)) = (cov >= 1.0, l.solid) {
                    px.copy_from_slice(&solid);
                    continue;
                }
                // Premultiplied source-over in 16-bit fixed point, rounded
                // to nearest: `c * a + d * (1 - a)`.
                let a = (cov.min(1.0) * l.ca + 0.5) as u32;
                for (d, &c) in px.iter_mut().zip(&l.rgba) {
                    *d = ((c * a + *d as u32 * (65536 - a) + 32768) >> 16) as u8;
                }
            }
        }
    }
}

/// Draw a text item (halo first, then the glyphs) onto the pixmap.
pub(crate) fn draw_text(pixmap: &mut Pixmap, t: &Text, cache: &mut GlyphCache) {
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

    let mut placed = Vec::with_capacity(line.glyphs.len());
    let mut ink: Option<IRect> = None;
    for (face, g) in &line.glyphs {
        // Skip glyphs far off the canvas before rasterising them: their
        // layout box, grown by an em for overhangs, misses it.
        let b = face.font().glyph_bounds(g);
        let near = IRect {
            x0: (ox + b.min.x - size).floor() as i32,
            y0: (oy + b.min.y - size).floor() as i32,
            x1: (ox + b.max.x + size).ceil() as i32,
            y1: (oy + b.max.y + size).ceil() as i32,
        };
        if near.intersect(&limit).is_empty() {
            continue;
        }
        let Some((idx, dx)) = cache.glyph(*face, g) else {
            continue;
        };
        let bm = &cache.glyphs[idx];
        let (x0, y0) = (ox as i32 + dx + bm.x0, oy as i32 + bm.y0);
        let r = IRect {
            x0,
            y0,
            x1: x0 + bm.w as i32,
            y1: y0 + bm.h as i32,
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
        placed.push((idx, r));
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
    for &(idx, r) in &placed {
        cov.add_bitmap(&cache.glyphs[idx], r);
    }
    match (t.halo, halo_r) {
        (Some(color), Some(r)) => composite(pixmap, &[(&cov.dilate(r), color), (&cov, t.color)]),
        _ => composite(pixmap, &[(&cov, t.color)]),
    }
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

    /// Straightforward dilation: every output pixel gathers over the disc.
    fn dilate_reference(c: &Coverage, r: f32) -> Vec<f32> {
        let reach = (r + 0.5).ceil() as i32;
        let (w, h) = (c.area.width() as i32, c.area.height() as i32);
        let mut out = vec![0.0f32; c.data.len()];
        for y in 0..h {
            for x in 0..w {
                let mut best = 0.0f32;
                for dy in -reach..=reach {
                    for dx in -reach..=reach {
                        let (sx, sy) = (x - dx, y - dy);
                        if sx < 0 || sy < 0 || sx >= w || sy >= h {
                            continue;
                        }
                        let d = ((dx * dx + dy * dy) as f32).sqrt();
                        let wgt = (r + 0.5 - d).clamp(0.0, 1.0);
                        best = best.max(c.data[(sy * w + sx) as usize] * wgt);
                    }
                }
                out[(y * w + x) as usize] = best;
            }
        }
        out
    }

    #[test]
    fn dilation_matches_brute_force_exactly() {
        let line = layout("Bold WM@8 gy", 60.0, true).unwrap();
        let area = IRect {
            x0: -10,
            y0: -10,
            x1: line.width as i32 + 10,
            y1: line.height() as i32 + 10,
        };
        let mut cov = Coverage::new(area);
        for (face, g) in &line.glyphs {
            let mut g = g.clone();
            g.position.y += line.ascent;
            if let Some(og) = face.font().outline_glyph(g) {
                cov.add_glyph(&og);
            }
        }
        assert!(cov.data.iter().filter(|c| **c >= 1.0).count() > 500);
        for r in [2.0, halo_radius(22.3), halo_radius(60.0)] {
            assert_eq!(cov.dilate(r).data, dilate_reference(&cov, r), "radius {r}");
        }
    }

    #[test]
    fn letters_dejavu_lacks_come_from_the_fallback_face() {
        // DejaVu Sans has no Chinese, Japanese or Korean: those letters
        // are laid out from the fallback face, Latin stays DejaVu.
        for (name, cjk) in [("李雷", 2), ("Ann 李", 1), ("ひらがな", 4), ("한국어", 3), ("Ann", 0)] {
            let line = layout(name, 30.0, true).unwrap();
            let fallback = line.glyphs.iter().filter(|(f, _)| *f == Face::Fallback).count();
            assert_eq!(fallback, cjk, "{name}");
            assert!(
                line.glyphs.iter().all(|(_, g)| g.id.0 != 0),
                "{name}: a glyph is missing"
            );
        }
        // A CJK letter is about one em wide, and the line's height is the
        // DejaVu face's whatever the script.
        let (w, h) = measure_text("李雷", 30.0, false);
        assert!((50.0..=66.0).contains(&w), "w = {w}");
        assert_eq!(h, measure_text("Ann", 30.0, false).1);
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
