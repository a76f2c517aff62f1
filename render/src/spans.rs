//! A fast antialiased painter for convex shapes, discs and rings: shapes
//! whose every horizontal line crosses them in at most two intervals.
//!
//! Each pixel row is sampled on four sub-scanlines (as tiny-skia does),
//! each crossing the shape in exact intervals, so horizontal coverage is
//! exact. Pixels covered on all four sub-scanlines are filled directly;
//! only the few edge pixels per row are blended, so the cost grows with
//! the shape's height rather than its area.

use tiny_skia::Pixmap;

use crate::scene::Color;

/// Sub-scanlines per pixel row and their offsets within the row.
const SAMPLES: [f32; 4] = [0.125, 0.375, 0.625, 0.875];

/// Intervals where the horizontal line at `y` crosses a shape: none, one
/// `[a, b]`, or two.
pub(crate) type Crossing = ([(f32, f32); 2], usize);

/// Paint `color` over rows `top..bottom` of a shape given by `cross`,
/// which reports where each sub-scanline crosses it.
pub(crate) fn paint(pm: &mut Pixmap, color: Color, top: f32, bottom: f32, cross: impl Fn(f32) -> Crossing) {
    if color.a == 0 || !(top.is_finite() && bottom.is_finite()) {
        return;
    }
    let (w, h) = (pm.width() as usize, pm.height() as usize);
    let y0 = top.floor().max(0.0) as usize;
    let y1 = (bottom.ceil().max(0.0) as usize).min(h);
    let ca = color.a as f32 * (65536.0 / 255.0);
    let rgba = [color.r as u32, color.g as u32, color.b as u32, 255];
    let solid = [color.r, color.g, color.b, 255];
    let data = pm.data_mut();
    let wf = w as f32;
    for y in y0..y1 {
        let mut spans = [[(0.0f32, 0.0f32); 4]; 2];
        let mut counts = [0usize; 4];
        for (s, off) in SAMPLES.iter().enumerate() {
            let (iv, n) = cross(y as f32 + off);
            counts[s] = n;
            for j in 0..n {
                let (a, b) = iv[j];
                spans[j][s] = (a.clamp(0.0, wf), b.clamp(0.0, wf));
            }
        }
        let row = &mut data[y * w * 4..(y + 1) * w * 4];
        if counts.iter().all(|&n| n == counts[0]) {
            // Every sub-scanline crosses the same number of intervals:
            // paint each band on its own.
            for band in &spans[..counts[0]] {
                paint_band(row, band, ca, &rgba, &solid);
            }
        } else {
            // Where a ring closes (its hole starts or ends), treat the row
            // generically: coverage of every pixel between the extremes.
            let mut lo = wf;
            let mut hi = 0.0f32;
            for (s, &n) in counts.iter().enumerate() {
                for band in &spans[..n] {
                    lo = lo.min(band[s].0);
                    hi = hi.max(band[s].1);
                }
            }
            if lo >= hi {
                continue;
            }
            for x in lo.floor() as usize..(hi.ceil() as usize).min(w) {
                let xf = x as f32;
                let mut cov = 0.0;
                for (s, &n) in counts.iter().enumerate() {
                    for band in &spans[..n] {
                        cov += overlap(xf, band[s]);
                    }
                }
                blend(&mut row[x * 4..x * 4 + 4], cov * 0.25, ca, &rgba, &solid);
            }
        }
    }
}

/// Length of `[x, x + 1]` within `[a, b]`.
#[inline]
fn overlap(x: f32, (a, b): (f32, f32)) -> f32 {
    (b.min(x + 1.0) - a.max(x)).max(0.0)
}

/// Paint one pixel row of a band crossed in `[a_s, b_s]` by each
/// sub-scanline `s`.
fn paint_band(row: &mut [u8], band: &[(f32, f32); 4], ca: f32, rgba: &[u32; 4], solid: &[u8; 4]) {
    let w = row.len() / 4;
    let (mut min_a, mut max_a, mut min_b, mut max_b) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    for &(a, b) in band {
        min_a = min_a.min(a);
        max_a = max_a.max(a);
        min_b = min_b.min(b);
        max_b = max_b.max(b);
    }
    // Pixels inside every sub-scanline's interval.
    let full_lo = (max_a.ceil() as usize).min(w);
    let full_hi = (min_b.floor().max(0.0) as usize).min(w).max(full_lo);
    let edge = |row: &mut [u8], from: usize, to: usize| {
        for x in from..to.min(w) {
            let xf = x as f32;
            let cov: f32 = band.iter().map(|&iv| overlap(xf, iv)).sum::<f32>() * 0.25;
            blend(&mut row[x * 4..x * 4 + 4], cov, ca, rgba, solid);
        }
    };
    let start = min_a.floor().max(0.0) as usize;
    let end = max_b.ceil().max(0.0) as usize;
    if full_lo >= full_hi {
        edge(row, start, end);
        return;
    }
    edge(row, start, full_lo);
    if ca >= 65536.0 {
        fill_solid(&mut row[full_lo * 4..full_hi * 4], solid);
    } else {
        for px in row[full_lo * 4..full_hi * 4].chunks_exact_mut(4) {
            blend(px, 1.0, ca, rgba, solid);
        }
    }
    edge(row, full_hi, end);
}

/// Set every pixel of `px` to `solid`, 16 bytes at a time.
fn fill_solid(px: &mut [u8], solid: &[u8; 4]) {
    let block: [u8; 16] = std::array::from_fn(|i| solid[i % 4]);
    let mut chunks = px.chunks_exact_mut(16);
    for c in &mut chunks {
        c.copy_from_slice(&block);
    }
    let rest = chunks.into_remainder();
    let n = rest.len();
    rest.copy_from_slice(&block[..n]);
}

/// Premultiplied source-over of a straight colour at coverage `cov`, in
/// 16-bit fixed point rounded to nearest.
#[inline]
fn blend(px: &mut [u8], cov: f32, ca: f32, rgba: &[u32; 4], solid: &[u8; 4]) {
    if cov <= 0.0 {
        return;
    }
    if cov >= 1.0 && ca >= 65536.0 {
        px.copy_from_slice(solid);
        return;
    }
    let a = (cov.min(1.0) * ca + 0.5) as u32;
    for (d, &c) in px.iter_mut().zip(rgba) {
        *d = ((c * a + *d as u32 * (65536 - a) + 32768) >> 16) as u8;
    }
}

/// Where the line at `y` crosses a disc of radius `r` centred at `(cx, cy)`.
fn disc_span(cx: f32, cy: f32, r: f32, y: f32) -> Option<(f32, f32)> {
    let dy = y - cy;
    let d2 = r * r - dy * dy;
    (d2 > 0.0).then(|| {
        let dx = d2.sqrt();
        (cx - dx, cx + dx)
    })
}

/// Fill a disc.
pub(crate) fn disc(pm: &mut Pixmap, cx: f32, cy: f32, r: f32, color: Color) {
    paint(pm, color, cy - r, cy + r, |y| match disc_span(cx, cy, r, y) {
        Some(iv) => ([iv, (0.0, 0.0)], 1),
        None => ([(0.0, 0.0); 2], 0),
    });
}

/// Fill the ring between radii `inner < outer` (a circle's stroke).
pub(crate) fn ring(pm: &mut Pixmap, cx: f32, cy: f32, inner: f32, outer: f32, color: Color) {
    paint(pm, color, cy - outer, cy + outer, |y| {
        match (disc_span(cx, cy, outer, y), disc_span(cx, cy, inner, y)) {
            (Some((a, b)), Some((c, d))) => ([(a, c), (d, b)], 2),
            (Some(iv), None) => ([iv, (0.0, 0.0)], 1),
            _ => ([(0.0, 0.0); 2], 0),
        }
    });
}

/// A rectangle `(x, y, w, h, corner radius)`, sizes positive and the
/// radius at most half the shorter side.
pub(crate) type RRect = (f32, f32, f32, f32, f32);

/// Where the line at `y` crosses a rounded rectangle.
fn rrect_span((x, y0, w, h, r): RRect, y: f32) -> Option<(f32, f32)> {
    if y < y0 || y >= y0 + h {
        return None;
    }
    let dy = (y0 + r - y).max(y - (y0 + h - r));
    let inset = if dy > 0.0 {
        r - (r * r - dy * dy).max(0.0).sqrt()
    } else {
        0.0
    };
    (2.0 * inset < w).then_some((x + inset, x + w - inset))
}

/// Fill a rounded rectangle.
pub(crate) fn rrect(pm: &mut Pixmap, rect: RRect, color: Color) {
    paint(pm, color, rect.1, rect.1 + rect.3, |y| match rrect_span(rect, y) {
        Some(iv) => ([iv, (0.0, 0.0)], 1),
        None => ([(0.0, 0.0); 2], 0),
    });
}

/// Fill the band between two rounded rectangles, `inner` inside `outer`.
pub(crate) fn rrect_ring(pm: &mut Pixmap, outer: RRect, inner: RRect, color: Color) {
    paint(pm, color, outer.1, outer.1 + outer.3, |y| {
        match (rrect_span(outer, y), rrect_span(inner, y)) {
            (Some((a, b)), Some((c, d))) => ([(a, c), (d, b)], 2),
            (Some(iv), None) => ([iv, (0.0, 0.0)], 1),
            _ => ([(0.0, 0.0); 2], 0),
        }
    });
}

/// A convex polygon's non-horizontal edges as `(top, bottom, x at top,
/// dx/dy)`, to find where a horizontal line crosses it.
struct Edges(Vec<(f32, f32, f32, f32)>);

impl Edges {
    fn new(points: &[(f32, f32)]) -> Edges {
        let mut v = Vec::with_capacity(points.len());
        for (i, &a) in points.iter().enumerate() {
            let b = points[(i + 1) % points.len()];
            let (a, b) = if a.1 < b.1 { (a, b) } else { (b, a) };
            if a.1 < b.1 {
                v.push((a.1, b.1, a.0, (b.0 - a.0) / (b.1 - a.1)));
            }
        }
        Edges(v)
    }

    /// Where the line at `y` crosses the polygon.
    fn span(&self, y: f32) -> Option<(f32, f32)> {
        let (mut lo, mut hi) = (f32::MAX, f32::MIN);
        for &(top, bottom, x, dxdy) in &self.0 {
            if y >= top && y < bottom {
                let x = x + (y - top) * dxdy;
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
        (lo < hi).then_some((lo, hi))
    }
}

fn y_range(points: &[(f32, f32)]) -> (f32, f32) {
    points
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)))
}

/// Fill a convex polygon (see [`is_convex`]).
pub(crate) fn convex(pm: &mut Pixmap, points: &[(f32, f32)], color: Color) {
    let (top, bottom) = y_range(points);
    let edges = Edges::new(points);
    paint(pm, color, top, bottom, |y| match edges.span(y) {
        Some(iv) => ([iv, (0.0, 0.0)], 1),
        None => ([(0.0, 0.0); 2], 0),
    });
}

/// Fill the band between two convex polygons, `inner` inside `outer` (a
/// convex polygon's mitred stroke, see [`offset`]).
pub(crate) fn convex_ring(pm: &mut Pixmap, outer: &[(f32, f32)], inner: &[(f32, f32)], color: Color) {
    let (top, bottom) = y_range(outer);
    let (outer_edges, inner_edges) = (Edges::new(outer), Edges::new(inner));
    paint(pm, color, top, bottom, |y| {
        match (outer_edges.span(y), inner_edges.span(y)) {
            (Some((a, b)), Some((c, d))) => ([(a, c), (d, b)], 2),
            (Some(iv), None) => ([iv, (0.0, 0.0)], 1),
            _ => ([(0.0, 0.0); 2], 0),
        }
    });
}

/// Whether `points` (all finite) form a convex polygon with positive area,
/// turning one way throughout (collinear points allowed) and winding once.
pub(crate) fn is_convex(points: &[(f32, f32)]) -> bool {
    let n = points.len();
    if n < 3 || points.iter().any(|p| !p.0.is_finite() || !p.1.is_finite()) {
        return false;
    }
    let (mut pos, mut neg) = (false, false);
    let mut turning = 0.0f64;
    for i in 0..n {
        let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
        let (ux, uy, vx, vy) = (b.0 - a.0, b.1 - a.1, c.0 - b.0, c.1 - b.1);
        if (ux == 0.0 && uy == 0.0) || (vx == 0.0 && vy == 0.0) {
            return false;
        }
        let cross = ux * vy - uy * vx;
        pos |= cross > 1e-4;
        neg |= cross < -1e-4;
        turning += (cross as f64).atan2((ux * vx + uy * vy) as f64);
    }
    !(pos && neg) && (pos || neg) && (turning.abs() - std::f64::consts::TAU).abs() < 1e-3
}

/// A convex polygon's outline moved outwards by `d` (inwards for `d < 0`)
/// with mitred corners, or `None` if a mitre would be longer than
/// `miter_limit` half-widths (tiny-skia bevels those) or the polygon
/// turns inside out.
pub(crate) fn offset(points: &[(f32, f32)], d: f32, miter_limit: f32) -> Option<Vec<(f32, f32)>> {
    let n = points.len();
    // Signed area: positive when the y-down polygon turns clockwise.
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let sign = if area > 0.0 { 1.0 } else { -1.0 };
    // Outward unit normal of edge i (from point i to i + 1).
    let normal = |i: usize| {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        (sign * dy / len, -sign * dx / len)
    };
    let mut out = Vec::with_capacity(n);
    for (i, p) in points.iter().enumerate() {
        let (n0, n1) = (normal((i + n - 1) % n), normal(i));
        let (bx, by) = (n0.0 + n1.0, n0.1 + n1.1);
        // The corner moves along the bisector by d / cos(half the turn).
        let cos_half2 = (bx * bx + by * by) / 4.0;
        if cos_half2 <= 1.0 / (miter_limit * miter_limit) {
            return None;
        }
        let k = d / (2.0 * cos_half2);
        out.push((p.0 + bx * k, p.1 + by * k));
    }
    // Moving inwards must not flip any edge.
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let (c, e) = (out[i], out[(i + 1) % n]);
        if (b.0 - a.0) * (e.0 - c.0) + (b.1 - a.1) * (e.1 - c.1) <= 0.0 {
            return None;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiny_skia::{FillRule, Paint, PathBuilder, Transform};

    fn sk_paint(c: Color) -> Paint<'static> {
        let mut p = Paint::default();
        p.set_color_rgba8(c.r, c.g, c.b, c.a);
        p.anti_alias = true;
        p
    }

    /// Largest per-channel difference, and how many pixels differ by more
    /// than 24 (antialiased edge pixels sampled differently).
    fn compare(a: &Pixmap, b: &Pixmap) -> (u8, usize) {
        let mut worst = 0;
        let mut over = 0;
        for (p, q) in a.data().chunks_exact(4).zip(b.data().chunks_exact(4)) {
            let d = (0..4).map(|i| p[i].abs_diff(q[i])).max().unwrap();
            worst = worst.max(d);
            over += usize::from(d > 24);
        }
        (worst, over)
    }

    #[test]
    fn shapes_match_tiny_skia_up_to_edge_sampling() {
        let hex: Vec<(f32, f32)> = (0..6)
            .map(|i| {
                let t = std::f32::consts::PI / 3.0 * i as f32 + 0.1;
                (100.3 + 70.0 * t.cos(), 95.6 + 70.0 * t.sin())
            })
            .collect();
        let (fill, edge) = (Color::rgb(200, 60, 40), Color::rgba(240, 240, 255, 200));
        let mut ours = Pixmap::new(220, 200).unwrap();
        ours.fill(tiny_skia::Color::from_rgba8(20, 24, 36, 255));
        let mut theirs = ours.clone();

        convex(&mut ours, &hex, fill);
        let outer = offset(&hex, 1.5, 4.0).unwrap();
        let inner = offset(&hex, -1.5, 4.0).unwrap();
        convex_ring(&mut ours, &outer, &inner, edge);
        disc(&mut ours, 60.2, 150.7, 30.4, Color::rgba(40, 200, 90, 180));
        ring(&mut ours, 160.0, 40.5, 19.0, 22.5, Color::WHITE);
        rrect(&mut ours, (150.4, 120.0, 60.0, 50.3, 9.0), fill);
        rrect_ring(
            &mut ours,
            (148.9, 118.5, 63.0, 53.3, 10.5),
            (151.9, 121.5, 57.0, 47.3, 7.5),
            edge,
        );

        let mut pb = PathBuilder::new();
        pb.move_to(hex[0].0, hex[0].1);
        for p in &hex[1..] {
            pb.line_to(p.0, p.1);
        }
        pb.close();
        let path = pb.finish().unwrap();
        let id = Transform::identity();
        theirs.fill_path(&path, &sk_paint(fill), FillRule::Winding, id, None);
        let stroke = tiny_skia::Stroke {
            width: 3.0,
            line_join: tiny_skia::LineJoin::Miter,
            ..Default::default()
        };
        theirs.stroke_path(&path, &sk_paint(edge), &stroke, id, None);
        let c = PathBuilder::from_circle(60.2, 150.7, 30.4).unwrap();
        theirs.fill_path(
            &c,
            &sk_paint(Color::rgba(40, 200, 90, 180)),
            FillRule::Winding,
            id,
            None,
        );
        let c = PathBuilder::from_circle(160.0, 40.5, 20.75).unwrap();
        let stroke = tiny_skia::Stroke {
            width: 3.5,
            ..Default::default()
        };
        theirs.stroke_path(&c, &sk_paint(Color::WHITE), &stroke, id, None);
        // The same rounded rectangle as a path (quarter circles as cubics).
        let (x, y, w, h, r, k) = (150.4, 120.0, 60.0, 50.3, 9.0, 9.0 * 0.552_284_8);
        let mut pb = PathBuilder::new();
        pb.move_to(x + r, y);
        pb.line_to(x + w - r, y);
        pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
        pb.line_to(x + w, y + h - r);
        pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
        pb.line_to(x + r, y + h);
        pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
        pb.line_to(x, y + r);
        pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
        pb.close();
        let rr = pb.finish().unwrap();
        theirs.fill_path(&rr, &sk_paint(fill), FillRule::Winding, id, None);
        let stroke = tiny_skia::Stroke {
            width: 3.0,
            ..Default::default()
        };
        theirs.stroke_path(&rr, &sk_paint(edge), &stroke, id, None);

        let (worst, over) = compare(&ours, &theirs);
        // Measured: worst 45, 87 pixels over 24, all on the shapes' edges
        // (of about 2,000 edge pixels).
        assert!(worst <= 64, "worst {worst}");
        assert!(over <= 150, "{over} pixels differ by more than 24");
    }

    #[test]
    fn convexity_and_offsets() {
        let square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        assert!(is_convex(&square));
        let mut rev = square;
        rev.reverse();
        assert!(is_convex(&rev));
        assert!(
            !is_convex(&[(0.0, 0.0), (10.0, 0.0), (2.0, 2.0), (0.0, 10.0)]),
            "concave"
        );
        let star: Vec<(f32, f32)> = (0..5)
            .map(|i| {
                let t = std::f32::consts::TAU * (2 * i) as f32 / 5.0;
                (t.cos(), t.sin())
            })
            .collect();
        assert!(!is_convex(&star), "a pentagram winds twice");
        assert!(!is_convex(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]), "no area");
        assert!(!is_convex(&[(0.0, 0.0), (f32::NAN, 1.0), (2.0, 0.0)]));
        for pts in [square, rev] {
            let out = offset(&pts, 1.0, 4.0).unwrap();
            let (xs, ys): (Vec<f32>, Vec<f32>) = out.iter().copied().unzip();
            let min = |v: &[f32]| v.iter().copied().fold(f32::MAX, f32::min);
            let max = |v: &[f32]| v.iter().copied().fold(f32::MIN, f32::max);
            assert_eq!((min(&xs), max(&xs), min(&ys), max(&ys)), (-1.0, 11.0, -1.0, 11.0));
            assert!(offset(&pts, -6.0, 4.0).is_none(), "turns inside out");
        }
        // A 20 degree spike needs a mitre of about 5.8 half-widths.
        assert!(offset(&[(0.0, 0.0), (100.0, 17.6), (0.0, 35.2)], 1.0, 4.0).is_none());
    }
}
