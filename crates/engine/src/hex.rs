//! Hex grids: axial coordinates ([`Hex`]), the coordinates game states
//! store, and one [`Layout`] for every hex-to-pixel conversion, after Red Blob
//! Games' "Hexagonal Grids" guide
//! (<https://www.redblobgames.com/grids/hexagons/>) and the `hexx` crate (one
//! coordinate type, one layout type).
//!
//! Pure maths, no drawing: a game's scene builder places shapes with
//! [`Layout::hex_to_pixel`] and [`Layout::corners`] and hands the renderer
//! plain pixel coordinates. [`Hex`] is serialized inside game states and
//! logged events, so its JSON form (`{"q":1,"r":-2}`) must never change (a
//! test pins it).

use serde::{Deserialize, Serialize};

/// A hex in axial coordinates `(q, r)`; the third cube coordinate is
/// `s = -q - r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    /// Column axis.
    pub q: i32,
    /// Row axis.
    pub r: i32,
}

/// The six axial directions, counter-clockwise starting east (pointy-top).
pub const DIRECTIONS: [Hex; 6] = [
    Hex { q: 1, r: 0 },
    Hex { q: 1, r: -1 },
    Hex { q: 0, r: -1 },
    Hex { q: -1, r: 0 },
    Hex { q: -1, r: 1 },
    Hex { q: 0, r: 1 },
];

impl Hex {
    /// The hex `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Self {
        Hex { q, r }
    }
    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }
    /// Vector sum.
    pub const fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
    /// Vector difference.
    pub const fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
    /// Steps from the origin.
    pub fn length(self) -> i32 {
        (self.q.abs() + self.r.abs() + self.s().abs()) / 2
    }
    /// Steps between two hexes.
    pub fn distance(self, o: Hex) -> i32 {
        self.sub(o).length()
    }
    /// The neighbour in direction `dir` (0..6, wraps).
    pub fn neighbor(self, dir: usize) -> Hex {
        self.add(DIRECTIONS[dir % 6])
    }
    /// All six neighbours.
    pub fn neighbors(self) -> [Hex; 6] {
        std::array::from_fn(|i| self.neighbor(i))
    }
    /// Rotated 60° about the origin (cube `(q,r,s) -> (-r,-s,-q)`).
    pub fn rotate_60(self) -> Hex {
        Hex::new(-self.r, -self.s())
    }
    /// Every hex within `radius` steps of the origin, in `(q, r)` order.
    pub fn spiral(radius: i32) -> Vec<Hex> {
        let mut out = Vec::new();
        for q in -radius..=radius {
            for r in (-radius).max(-q - radius)..=radius.min(-q + radius) {
                out.push(Hex::new(q, r));
            }
        }
        out
    }
    /// Round fractional cube coordinates to the nearest hex.
    pub fn round(q: f32, r: f32) -> Hex {
        let s = -q - r;
        let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
        let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
        if dq > dr && dq > ds {
            rq = -rr - rs;
        } else if dr > ds {
            rr = -rq - rs;
        }
        Hex::new(rq as i32, rr as i32)
    }
}

/// Pointy-top or flat-top hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// A vertex points up; rows are horizontal.
    Pointy,
    /// A flat edge on top; columns are vertical.
    Flat,
}

/// Hex size and origin: every hex-to-pixel conversion goes through this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Pointy or flat.
    pub orientation: Orientation,
    /// Centre-to-corner distance in pixels, horizontally and vertically.
    pub size: (f32, f32),
    /// Pixel centre of hex `(0, 0)`.
    pub origin: (f32, f32),
}

const SQRT3: f32 = 1.732_050_8;

impl Layout {
    /// A layout of regular hexes of `size` px (centre to corner).
    pub fn new(orientation: Orientation, size: f32, origin: (f32, f32)) -> Self {
        Layout {
            orientation,
            size: (size, size),
            origin,
        }
    }

    /// (f0, f1, f2, f3, start angle in sixths of a turn)
    fn matrix(&self) -> ([f32; 4], [f32; 4], f32) {
        match self.orientation {
            Orientation::Pointy => (
                [SQRT3, SQRT3 / 2.0, 0.0, 1.5],
                [SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0],
                0.5,
            ),
            Orientation::Flat => (
                [1.5, 0.0, SQRT3 / 2.0, SQRT3],
                [2.0 / 3.0, 0.0, -1.0 / 3.0, SQRT3 / 3.0],
                0.0,
            ),
        }
    }

    /// Pixel centre of a hex.
    pub fn hex_to_pixel(&self, h: Hex) -> (f32, f32) {
        let (f, _, _) = self.matrix();
        let (q, r) = (h.q as f32, h.r as f32);
        let x = (f[0] * q + f[1] * r) * self.size.0;
        let y = (f[2] * q + f[3] * r) * self.size.1;
        (x + self.origin.0, y + self.origin.1)
    }

    /// The hex containing a pixel (nearest centre).
    pub fn pixel_to_hex(&self, p: (f32, f32)) -> Hex {
        let (_, b, _) = self.matrix();
        let x = (p.0 - self.origin.0) / self.size.0;
        let y = (p.1 - self.origin.1) / self.size.1;
        Hex::round(b[0] * x + b[1] * y, b[2] * x + b[3] * y)
    }

    /// The six corners of a hex, in pixels, going round.
    pub fn corners(&self, h: Hex) -> [(f32, f32); 6] {
        let (_, _, start) = self.matrix();
        let (cx, cy) = self.hex_to_pixel(h);
        std::array::from_fn(|i| {
            let angle = 2.0 * std::f32::consts::PI * (start + i as f32) / 6.0;
            (cx + self.size.0 * angle.cos(), cy + self.size.1 * angle.sin())
        })
    }

    /// The smallest pixel box `(min_x, min_y, max_x, max_y)` holding all hexes.
    pub fn bounds(&self, hexes: &[Hex]) -> (f32, f32, f32, f32) {
        let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for h in hexes {
            for (x, y) in self.corners(*h) {
                b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_neighbors() {
        let o = Hex::new(0, 0);
        assert!(o.neighbors().iter().all(|n| n.distance(o) == 1));
        assert_eq!(Hex::new(3, -1).distance(Hex::new(-2, 2)), 5);
        assert_eq!(Hex::spiral(2).len(), 19);
        assert_eq!(Hex::spiral(3).len(), 37);
        let h = Hex::new(2, -1);
        let mut r = h;
        for _ in 0..6 {
            r = r.rotate_60();
            assert_eq!(r.length(), h.length());
        }
        assert_eq!(r, h);
    }

    #[test]
    fn pixel_round_trip_both_orientations() {
        for orientation in [Orientation::Pointy, Orientation::Flat] {
            let l = Layout::new(orientation, 40.0, (500.0, 300.0));
            assert_eq!(l.hex_to_pixel(Hex::new(0, 0)), (500.0, 300.0));
            for h in Hex::spiral(4) {
                let (x, y) = l.hex_to_pixel(h);
                assert_eq!(l.pixel_to_hex((x, y)), h);
                // Points near the centre stay in the hex.
                assert_eq!(l.pixel_to_hex((x + 15.0, y - 12.0)), h);
                for (cx, cy) in l.corners(h) {
                    let d = ((cx - x).powi(2) + (cy - y).powi(2)).sqrt();
                    assert!((d - 40.0).abs() < 1e-3);
                }
            }
        }
    }

    #[test]
    fn pointy_neighbors_are_sqrt3_apart() {
        let l = Layout::new(Orientation::Pointy, 10.0, (0.0, 0.0));
        let (x, y) = l.hex_to_pixel(Hex::new(1, 0));
        assert!((x - 10.0 * SQRT3).abs() < 1e-4 && y.abs() < 1e-4);
        let (x, y) = l.hex_to_pixel(Hex::new(0, 1));
        assert!((x - 5.0 * SQRT3).abs() < 1e-4 && (y - 15.0).abs() < 1e-4);
        let (a, b, c, d) = l.bounds(&[Hex::new(0, 0)]);
        assert!((a + 5.0 * SQRT3).abs() < 1e-3 && (b + 10.0).abs() < 1e-3);
        assert!((c - 5.0 * SQRT3).abs() < 1e-3 && (d - 10.0).abs() < 1e-3);
    }

    /// Stored games hold hexes (Starlanes' map, in its set-up event and its
    /// state): the JSON form is part of the log format.
    #[test]
    fn hex_json_is_pinned() {
        let h = Hex::new(3, -2);
        assert_eq!(serde_json::to_string(&h).unwrap(), r#"{"q":3,"r":-2}"#);
        assert_eq!(serde_json::from_str::<Hex>(r#"{"q":3,"r":-2}"#).unwrap(), h);
        assert_eq!(
            serde_json::to_string(&(Hex::new(0, 0), Hex::new(-1, 1))).unwrap(),
            r#"[{"q":0,"r":0},{"q":-1,"r":1}]"#
        );
    }

    #[test]
    fn rounding_picks_nearest() {
        assert_eq!(Hex::round(0.1, -0.1), Hex::new(0, 0));
        assert_eq!(Hex::round(0.9, 0.05), Hex::new(1, 0));
    }
}
