//! PNG encoding: opaque canvases as 8-bit indexed (palette) images, with an
//! exact palette when they have at most 256 colours and a deterministic
//! quantised one otherwise (or RGB when no palette comes close enough);
//! translucent canvases as straight RGBA.

use png::{BitDepth, ColorType, DeflateCompression, Filter};

use crate::RenderError;

/// Palette size of an indexed PNG.
const MAX_COLORS: usize = 256;

/// Colours covering at least this many pixels are kept exactly (up to
/// [`MAX_FIXED`] of them): they are the flat fills, strokes and text colours
/// a board is made of. The rest (mostly antialiased edges) share the
/// remaining palette slots.
const FIXED_MIN_PIXELS: u32 = 24;
/// At most this many exact colours, so the antialiasing ramps keep at least
/// `MAX_COLORS - MAX_FIXED` entries.
const MAX_FIXED: usize = 128;

/// A quantised image whose mean difference from the original exceeds this
/// (per channel, of 255) is written as RGB instead. Boards, which are flat
/// colours plus antialiased edges, come in at 0.1 to 0.15.
const MAX_MEAN_ERROR: u64 = 1;

/// Encoding settings (filter and deflate level).
#[derive(Clone, Copy, Debug)]
struct Settings {
    filter: Filter,
    deflate: DeflateCompression,
}

/// Measured on real 1600x1200 boards of the five games (see
/// `examples/timing.rs`, medians of 30 runs): Paeth with fdeflate gave
/// 170-280 KiB in 9-12 ms; no filter with zlib level 6 gives 100-180 KiB
/// (about 40% less) in 30-37 ms, and level 9 only 1-3 KiB less in 60-97
/// ms. Boards are sent to chat over and over: the bytes matter more than
/// the 25 ms.
const INDEXED: Settings = Settings {
    filter: Filter::NoFilter,
    deflate: DeflateCompression::Level(6),
};

const RGB: Settings = Settings {
    filter: Filter::Paeth,
    deflate: DeflateCompression::FdeflateUltraFast,
};

const RGBA: Settings = Settings {
    filter: Filter::Up,
    deflate: DeflateCompression::FdeflateUltraFast,
};

fn write_png(
    width: u32,
    height: u32,
    color: ColorType,
    palette: Option<Vec<u8>>,
    data: &[u8],
    settings: Settings,
) -> Result<Vec<u8>, RenderError> {
    let err = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut out = Vec::with_capacity(data.len() / 8 + 1024);
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(color);
        enc.set_depth(BitDepth::Eight);
        if let Some(p) = palette {
            enc.set_palette(p);
        }
        enc.set_filter(settings.filter);
        enc.set_deflate_compression(settings.deflate);
        let mut w = enc.write_header().map_err(err)?;
        w.write_image_data(data).map_err(err)?;
        w.finish().map_err(err)?;
    }
    Ok(out)
}

/// Encode premultiplied RGBA: indexed when every pixel is opaque, else
/// straight-alpha RGBA.
pub(crate) fn encode(width: u32, height: u32, src: &[u8]) -> Result<Vec<u8>, RenderError> {
    match quantize(width as usize, src) {
        Some(Quantized::Indexed(palette, indices)) => {
            write_png(width, height, ColorType::Indexed, Some(palette), &indices, INDEXED)
        }
        Some(Quantized::TooLossy) => {
            let rgb: Vec<u8> = src.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
            write_png(width, height, ColorType::Rgb, None, &rgb, RGB)
        }
        None => write_png(width, height, ColorType::Rgba, None, &demultiply(src), RGBA),
    }
}

/// Premultiplied RGBA to straight RGBA, rounding to nearest.
fn demultiply(src: &[u8]) -> Vec<u8> {
    let mut buf = src.to_vec();
    for px in buf.chunks_exact_mut(4) {
        let a = px[3] as u32;
        if a == 0 {
            px.copy_from_slice(&[0, 0, 0, 0]);
        } else if a < 255 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a / 2) / a).min(255) as u8;
            }
        }
    }
    buf
}

/// An opaque pixel as `0xFFrrggbb`-ish key: the RGBA bytes read little
/// endian, so never 0 (alpha is 255), which marks empty table slots.
#[inline]
fn key(px: &[u8]) -> u32 {
    u32::from_le_bytes([px[0], px[1], px[2], px[3]])
}

#[inline]
fn rgb(k: u32) -> [i32; 3] {
    [(k & 0xff) as i32, ((k >> 8) & 0xff) as i32, ((k >> 16) & 0xff) as i32]
}

/// The distinct colours of an image, numbered in order of first
/// appearance, with an open-addressing hash table from colour key to that
/// number. Deterministic: no random hashing state.
struct Colors {
    /// Hash slots: colour key (0 = empty) and its number.
    slots: Vec<(u32, u32)>,
    /// `32 - log2(slots.len())`: Fibonacci hashing keeps the top bits.
    shift: u32,
    /// Per colour number: its key and how many pixels have it.
    keys: Vec<u32>,
    counts: Vec<u32>,
}

impl Colors {
    fn new() -> Self {
        Colors {
            slots: vec![(0, 0); 1024],
            shift: 32 - 10,
            keys: Vec::new(),
            counts: Vec::new(),
        }
    }

    #[inline]
    fn slot(&self, k: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (k.wrapping_mul(0x9E37_79B1) >> self.shift) as usize;
        loop {
            let s = self.slots[i].0;
            if s == k || s == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The number of colour `k` (a non-zero key), added if new.
    #[inline]
    fn id(&mut self, k: u32) -> u32 {
        let i = self.slot(k);
        if self.slots[i].0 == k {
            return self.slots[i].1;
        }
        let id = self.keys.len() as u32;
        self.slots[i] = (k, id);
        self.keys.push(k);
        self.counts.push(0);
        if self.keys.len() * 2 > self.slots.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); n]);
        self.shift -= 1;
        for (k, id) in old {
            if k != 0 {
                let i = self.slot(k);
                self.slots[i] = (k, id);
            }
        }
    }

    /// Colour numbers, most pixels first, ties by key.
    fn by_count(&self) -> Vec<u32> {
        let mut v: Vec<u32> = (0..self.keys.len() as u32).collect();
        v.sort_unstable_by_key(|&i| (std::cmp::Reverse(self.counts[i as usize]), self.keys[i as usize]));
        v
    }
}

/// An image as runs of equal pixels: `runs[rows[y].0..rows[y].1]` are row
/// `y`'s `(colour number, length)` runs; a row equal to the one above
/// shares its range.
struct Runs {
    runs: Vec<(u32, u32)>,
    rows: Vec<(usize, usize)>,
}

/// Split an image into runs and number and count its colours (one hash
/// lookup per run; a repeated row only re-counts its runs). `None` when
/// some pixel is not opaque.
fn histogram(width: usize, src: &[u8]) -> Option<(Colors, Runs)> {
    let mut colors = Colors::new();
    let mut r = Runs {
        runs: Vec::new(),
        rows: Vec::new(),
    };
    let stride = width * 4;
    let mut prev: &[u8] = &[];
    for row in src.chunks_exact(stride) {
        if row != prev {
            let start = r.runs.len();
            let px = |j: usize| key(&row[j * 4..j * 4 + 4]);
            let mut i = 0;
            while i < width {
                let k = px(i);
                if k >> 24 != 255 {
                    return None;
                }
                let mut j = i + 1;
                // Skip 8 pixels at a time while they all repeat `k`.
                let kk = (k as u64) << 32 | k as u64;
                let pair = |b: usize| u64::from_le_bytes(row[b..b + 8].try_into().expect("8 bytes"));
                while j + 8 <= width {
                    let b = j * 4;
                    if (pair(b) ^ kk) | (pair(b + 8) ^ kk) | (pair(b + 16) ^ kk) | (pair(b + 24) ^ kk) != 0 {
                        break;
                    }
                    j += 8;
                }
                while j < width && px(j) == k {
                    j += 1;
                }
                r.runs.push((colors.id(k), (j - i) as u32));
                i = j;
            }
            r.rows.push((start, r.runs.len()));
        } else {
            let last = *r.rows.last().expect("a previous row");
            r.rows.push(last);
        }
        let (a, b) = *r.rows.last().expect("just pushed");
        for &(id, n) in &r.runs[a..b] {
            colors.counts[id as usize] += n;
        }
        prev = row;
    }
    Some((colors, r))
}

/// Weighted sums over a box of colours for median cut (exact integers).
#[derive(Clone, Copy, Default)]
struct Stats {
    n: u64,
    sum: [u64; 3],
    sq: [u64; 3],
}

impl Stats {
    fn of(colors: &[(u32, u32, u32)]) -> Stats {
        let mut s = Stats::default();
        for &(k, c, _) in colors {
            let c = c as u64;
            let p = rgb(k);
            s.n += c;
            for (i, &v) in p.iter().enumerate() {
                let v = v as u64;
                s.sum[i] += v * c;
                s.sq[i] += v * v * c;
            }
        }
        s
    }

    /// Weighted variance times weight, per channel: `Σc·v² - (Σc·v)²/Σc`.
    fn spread(&self, i: usize) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.sq[i] as f64 - (self.sum[i] as f64).powi(2) / self.n as f64
    }

    fn error(&self) -> f64 {
        (0..3).map(|i| self.spread(i)).sum()
    }

    fn mean(&self) -> [u8; 3] {
        let n = self.n.max(1);
        self.sum.map(|s| ((s + n / 2) / n).min(255) as u8)
    }
}

/// A box of colours for median cut: `colors[start..end]`.
struct CutBox {
    start: usize,
    end: usize,
    stats: Stats,
}

/// Split `colors` (key, pixel count, colour number) into at most `n` boxes
/// by weighted median cut, reordering it so each box is a range; return
/// each box's weighted mean colour and range. The box with the largest
/// squared error is split next, across its widest channel at the weighted
/// median.
fn median_cut(colors: &mut [(u32, u32, u32)], n: usize) -> Vec<([u8; 3], std::ops::Range<usize>)> {
    if colors.is_empty() || n == 0 {
        return Vec::new();
    }
    let mut boxes = vec![CutBox {
        start: 0,
        end: colors.len(),
        stats: Stats::of(colors),
    }];
    while boxes.len() < n {
        // The box with the largest error that can still be split (first on ties).
        let mut pick: Option<(usize, f64)> = None;
        for (i, b) in boxes.iter().enumerate() {
            let e = b.stats.error();
            if b.end - b.start > 1 && e > 0.5 && pick.is_none_or(|(_, best)| e > best) {
                pick = Some((i, e));
            }
        }
        let Some((bi, _)) = pick else {
            break;
        };
        let (start, end, st) = (boxes[bi].start, boxes[bi].end, boxes[bi].stats);
        let part = &mut colors[start..end];
        let axis = (0..3).fold(0, |a, i| if st.spread(i) > st.spread(a) { i } else { a });
        let value = |k: u32| rgb(k)[axis] as usize;
        // Weighted histogram along the axis, then its weighted median.
        let mut hist = [0u64; 256];
        let (mut lo_v, mut hi_v) = (255, 0);
        for &(k, c, _) in part.iter() {
            let v = value(k);
            hist[v] += c as u64;
            lo_v = lo_v.min(v);
            hi_v = hi_v.max(v);
        }
        let mut acc = 0;
        let mut median = lo_v;
        for (v, &h) in hist.iter().enumerate().skip(lo_v) {
            acc += h;
            if acc * 2 >= st.n {
                median = v;
                break;
            }
        }
        // Values <= threshold go left; both sides stay non-empty.
        let threshold = median.clamp(lo_v, hi_v.saturating_sub(1).max(lo_v));
        let mut cut = 0;
        for i in 0..part.len() {
            if value(part[i].0) <= threshold {
                part.swap(i, cut);
                cut += 1;
            }
        }
        if cut == 0 || cut == part.len() {
            // Cannot happen when the box's spread is positive; stop safely.
            break;
        }
        let lo = Stats::of(&part[..cut]);
        let hi = Stats::of(&part[cut..]);
        boxes[bi] = CutBox {
            start,
            end: start + cut,
            stats: lo,
        };
        boxes.push(CutBox {
            start: start + cut,
            end,
            stats: hi,
        });
    }
    boxes.iter().map(|b| (b.stats.mean(), b.start..b.end)).collect()
}

/// Nearest-colour search over a palette sorted by `r + g + b`: since
/// `(Δr + Δg + Δb)² <= 3 (Δr² + Δg² + Δb²)`, entries whose sum is too far
/// from the query's cannot be nearer than the best found so far.
struct Nearest {
    /// `(r + g + b, r, g, b, palette index)`, sorted.
    sorted: Vec<(i32, i32, i32, i32, usize)>,
    /// The palette, in palette order.
    entries: Vec<[i32; 3]>,
}

impl Nearest {
    fn new(pal: &[[u8; 3]]) -> Self {
        let mut sorted: Vec<_> = pal
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let [r, g, b] = p.map(i32::from);
                (r + g + b, r, g, b, i)
            })
            .collect();
        sorted.sort_unstable();
        let entries = pal.iter().map(|p| p.map(i32::from)).collect();
        Nearest { sorted, entries }
    }

    /// Index of the entry nearest to `p` by squared RGB distance (on ties
    /// the lowest palette index), starting from the guess `first`.
    fn find(&self, p: [i32; 3], first: usize) -> usize {
        let s = p[0] + p[1] + p[2];
        let start = self.sorted.partition_point(|e| e.0 < s);
        let mut best = self.entries.get(first).map_or((i32::MAX, usize::MAX), |e| {
            let (dr, dg, db) = (e[0] - p[0], e[1] - p[1], e[2] - p[2]);
            (dr * dr + dg * dg + db * db, first)
        });
        let mut visit = |e: &(i32, i32, i32, i32, usize)| -> bool {
            let ds = e.0 - s;
            if ds * ds > best.0.saturating_mul(3) {
                return false;
            }
            let (dr, dg, db) = (e.1 - p[0], e.2 - p[1], e.3 - p[2]);
            let d = dr * dr + dg * dg + db * db;
            if (d, e.4) < best {
                best = (d, e.4);
            }
            true
        };
        let (mut lo, mut hi) = (start, start);
        let (mut go_lo, mut go_hi) = (true, true);
        while go_lo || go_hi {
            if go_hi {
                go_hi = hi < self.sorted.len() && visit(&self.sorted[hi]);
                hi += 1;
            }
            if go_lo {
                go_lo = lo > 0 && visit(&self.sorted[lo - 1]);
                lo = lo.saturating_sub(1);
            }
        }
        best.1
    }
}

/// What [`quantize`] made of an opaque image.
enum Quantized {
    /// A palette (RGB triples) and one index into it per pixel.
    Indexed(Vec<u8>, Vec<u8>),
    /// No palette comes close enough (photo-like content, large smooth
    /// blends): encode all colours instead.
    TooLossy,
}

/// Choose a palette for an opaque RGBA image and map every pixel to an
/// index into it; `None` if some pixel is not opaque.
fn quantize(width: usize, src: &[u8]) -> Option<Quantized> {
    let (colors, runs) = histogram(width, src)?;
    let order = colors.by_count();
    let rgb_of = |id: u32| rgb(colors.keys[id as usize]).map(|v| v as u8);
    // Palette index per colour number.
    let mut index = vec![0u8; order.len()];
    let mut palette: Vec<[u8; 3]> = Vec::with_capacity(MAX_COLORS);
    let fixed = if order.len() <= MAX_COLORS {
        order.len()
    } else {
        order
            .iter()
            .take(MAX_FIXED)
            .take_while(|&&id| colors.counts[id as usize] >= FIXED_MIN_PIXELS)
            .count()
    };
    for (i, &id) in order[..fixed].iter().enumerate() {
        palette.push(rgb_of(id));
        index[id as usize] = i as u8;
    }
    if fixed < order.len() {
        let mut tail: Vec<(u32, u32, u32)> = order[fixed..]
            .iter()
            .map(|&id| (colors.keys[id as usize], colors.counts[id as usize], id))
            .collect();
        let boxes = median_cut(&mut tail, MAX_COLORS - fixed);
        palette.extend(boxes.iter().map(|b| b.0));
        let near = Nearest::new(&palette);
        // Sum over pixels of |Δr| + |Δg| + |Δb|.
        let mut error = 0u64;
        for (b, (_, range)) in boxes.into_iter().enumerate() {
            for &(k, count, id) in &tail[range] {
                // Its own box's mean is a good first guess to prune with.
                let p = rgb(k);
                let i = near.find(p, fixed + b);
                index[id as usize] = i as u8;
                let d: i32 = (0..3).map(|c| (p[c] - palette[i][c] as i32).abs()).sum();
                error += d as u64 * count as u64;
            }
        }
        if error > MAX_MEAN_ERROR * 3 * (src.len() / 4) as u64 {
            return Some(Quantized::TooLossy);
        }
    }
    // Runs of up to 16 pixels are written as one 16-byte store that may
    // spill past the run (the next run or row overwrites it), so the buffer
    // has 16 bytes of slack, cut off at the end.
    let len = src.len() / 4;
    let mut indices = vec![0u8; len + 16];
    let mut prev = (usize::MAX, usize::MAX);
    for (y, &(a, b)) in runs.rows.iter().enumerate() {
        let at = y * width;
        if (a, b) == prev {
            indices.copy_within(at - width..at, at);
            continue;
        }
        let mut x = at;
        for &(id, n) in &runs.runs[a..b] {
            let (n, v) = (n as usize, index[id as usize]);
            if n <= 16 {
                indices[x..x + 16].copy_from_slice(&[v; 16]);
            } else {
                indices[x..x + n].fill(v);
            }
            x += n;
        }
        prev = (a, b);
    }
    indices.truncate(len);
    Some(Quantized::Indexed(palette.concat(), indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_numbered_and_the_table_grows() {
        let mut c = Colors::new();
        for i in 1..=5000u32 {
            assert_eq!(c.id(i | 0xff00_0000), i - 1);
            c.counts[i as usize - 1] = i % 7;
        }
        assert_eq!(c.id(10 | 0xff00_0000), 9);
        assert_eq!(c.keys.len(), 5000);
        let order = c.by_count();
        assert_eq!(order.len(), 5000);
        assert!(order
            .windows(2)
            .all(|w| c.counts[w[0] as usize] >= c.counts[w[1] as usize]));
    }

    #[test]
    fn few_colours_get_an_exact_palette() {
        let src: Vec<u8> = (0..64u32).flat_map(|i| [(i * 4) as u8, 7, 200, 255]).collect();
        let Some(Quantized::Indexed(pal, idx)) = quantize(8, &src) else {
            panic!("exact palette expected");
        };
        assert_eq!(pal.len(), 64 * 3);
        for (i, &ix) in idx.iter().enumerate() {
            let p = &pal[ix as usize * 3..ix as usize * 3 + 3];
            assert_eq!(p, &src[i * 4..i * 4 + 3]);
        }
    }
}
