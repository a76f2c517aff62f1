//! The scene: a flat list of drawing primitives in canvas pixels.
//!
//! A scene knows nothing about any game. Games build one from a *view*
//! (never from hidden state) and hand it to [`crate::render_png`].

use serde::{Deserialize, Serialize};

/// An sRGB colour with straight (non-premultiplied) alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Color {
    /// Red, 0..=255.
    pub r: u8,
    /// Green, 0..=255.
    pub g: u8,
    /// Blue, 0..=255.
    pub b: u8,
    /// Opacity: 0 is transparent, 255 opaque.
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }
    /// A colour with straight alpha.
    pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Self {
        Color { r, g, b, a }
    }
    /// Opaque white.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// Opaque black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
}

/// An outline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stroke {
    /// Line colour.
    pub color: Color,
    /// Line width in pixels, centred on the path; `<= 0` draws nothing.
    pub width: f32,
}

impl Stroke {
    /// A stroke of this colour and width.
    pub const fn new(color: Color, width: f32) -> Self {
        Stroke { color, width }
    }
}

/// Where a text item's `(x, y)` sits relative to the text's box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
///
/// The box is the measured one (see [`crate::measure_text`]): advance
/// width by the font's ascent-to-descent height.
pub enum Anchor {
    /// `(x, y)` is the box's top-left corner.
    #[default]
    TopLeft,
    /// `(x, y)` is the middle of the box's top edge.
    TopCenter,
    /// `(x, y)` is the box's top-right corner.
    TopRight,
    /// `(x, y)` is the middle of the box's left edge.
    CenterLeft,
    /// `(x, y)` is the box's centre.
    Center,
    /// `(x, y)` is the middle of the box's right edge.
    CenterRight,
    /// `(x, y)` is the box's bottom-left corner.
    BottomLeft,
    /// `(x, y)` is the middle of the box's bottom edge.
    BottomCenter,
    /// `(x, y)` is the box's bottom-right corner.
    BottomRight,
}

/// A run of text on one line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Text {
    /// Anchor point, x.
    pub x: f32,
    /// Anchor point, y.
    pub y: f32,
    /// The text; control characters (such as newlines) are skipped.
    pub text: String,
    /// Pixel size of the font (em height).
    pub size: f32,
    /// Glyph colour.
    pub color: Color,
    /// Which point of the text box `(x, y)` is.
    pub anchor: Anchor,
    /// Use DejaVu Sans Bold instead of DejaVu Sans.
    pub bold: bool,
    /// A dark (or light) outline drawn behind the glyphs so coloured text
    /// stays legible on any background.
    pub halo: Option<Color>,
}

impl Text {
    /// Regular-weight text with its top-left corner at `(x, y)` and no halo.
    pub fn new(x: f32, y: f32, text: impl Into<String>, size: f32, color: Color) -> Self {
        Text {
            x,
            y,
            text: text.into(),
            size,
            color,
            anchor: Anchor::TopLeft,
            bold: false,
            halo: None,
        }
    }
    /// Set the anchor.
    pub fn anchor(mut self, anchor: Anchor) -> Self {
        self.anchor = anchor;
        self
    }
    /// Use the bold face.
    pub fn bold(mut self) -> Self {
        self.bold = true;
        self
    }
    /// Draw a halo of this colour, `max(2, size / 9)` px thick (at most
    /// [`crate::MAX_HALO`]).
    pub fn halo(mut self, color: Color) -> Self {
        self.halo = Some(color);
        self
    }
}

/// One row of a legend: a swatch and its label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegendEntry {
    /// Swatch colour.
    pub color: Color,
    /// Text beside the swatch.
    pub label: String,
}

/// A drawing primitive. Items are painted in order, later over earlier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    /// An axis-aligned rectangle, optionally with rounded corners.
    Rect {
        /// Left edge.
        x: f32,
        /// Top edge.
        y: f32,
        /// Width (a negative width extends to the left).
        w: f32,
        /// Height (a negative height extends upwards).
        h: f32,
        /// Corner radius; 0 for square corners.
        radius: f32,
        /// Interior colour, if filled.
        fill: Option<Color>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// A circle.
    Circle {
        /// Centre, x.
        cx: f32,
        /// Centre, y.
        cy: f32,
        /// Radius; `<= 0` draws nothing.
        r: f32,
        /// Interior colour, if filled.
        fill: Option<Color>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// A closed polygon (hexes, arrows, tokens).
    Polygon {
        /// Vertices in order; the last joins the first. Filled with the
        /// non-zero winding rule.
        points: Vec<(f32, f32)>,
        /// Interior colour, if filled.
        fill: Option<Color>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// An open polyline.
    Line {
        /// At least two points.
        points: Vec<(f32, f32)>,
        /// Colour and width.
        stroke: Stroke,
        /// Dashes of about `3 * width` with gaps of `2 * width` (at least
        /// 6 and 4 px).
        dashed: bool,
    },
    /// A line of text.
    Text(Text),
    /// A boxed legend: a title, then one swatch + label per entry, top-left at (x, y).
    ///
    /// The panel is dark with light text, so it reads on any background;
    /// [`crate::legend_size`] gives its size.
    Legend {
        /// Left edge of the panel.
        x: f32,
        /// Top edge of the panel.
        y: f32,
        /// Bold heading; empty for none.
        title: String,
        /// Rows, top to bottom.
        entries: Vec<LegendEntry>,
        /// Font size in px; spacing and swatches scale with it.
        size: f32,
    },
}

/// A whole picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// Canvas width in pixels, `1..=8192`.
    pub width: u32,
    /// Canvas height in pixels, `1..=8192`.
    pub height: u32,
    /// Colour the canvas starts as.
    pub background: Color,
    /// What to paint, in order.
    pub items: Vec<Item>,
}

impl Scene {
    /// An empty scene.
    pub fn new(width: u32, height: u32, background: Color) -> Self {
        Scene {
            width,
            height,
            background,
            items: Vec::new(),
        }
    }
    /// Append any item.
    pub fn push(&mut self, item: Item) {
        self.items.push(item);
    }
    /// Append a text item.
    pub fn text(&mut self, text: Text) {
        self.items.push(Item::Text(text));
    }
    /// Append a square-cornered rectangle.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<Color>, stroke: Option<Stroke>) {
        self.items.push(Item::Rect {
            x,
            y,
            w,
            h,
            radius: 0.0,
            fill,
            stroke,
        });
    }
    /// Append a circle.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: Option<Color>, stroke: Option<Stroke>) {
        self.items.push(Item::Circle {
            cx,
            cy,
            r,
            fill,
            stroke,
        });
    }
    /// The same picture `k` times the size (`0 < k`): the canvas, every
    /// position, size, radius, stroke and font, so what is legible where
    /// stays as it was relative to the whole. Used to send lighter boards.
    pub fn scaled(&self, k: f32) -> Scene {
        let p = |(x, y): (f32, f32)| (x * k, y * k);
        let stroke = |s: &Stroke| Stroke::new(s.color, s.width * k);
        let items = self
            .items
            .iter()
            .map(|item| match item {
                Item::Rect {
                    x,
                    y,
                    w,
                    h,
                    radius,
                    fill,
                    stroke: st,
                } => Item::Rect {
                    x: x * k,
                    y: y * k,
                    w: w * k,
                    h: h * k,
                    radius: radius * k,
                    fill: *fill,
                    stroke: st.as_ref().map(stroke),
                },
                Item::Circle {
                    cx,
                    cy,
                    r,
                    fill,
                    stroke: st,
                } => Item::Circle {
                    cx: cx * k,
                    cy: cy * k,
                    r: r * k,
                    fill: *fill,
                    stroke: st.as_ref().map(stroke),
                },
                Item::Polygon {
                    points,
                    fill,
                    stroke: st,
                } => Item::Polygon {
                    points: points.iter().copied().map(p).collect(),
                    fill: *fill,
                    stroke: st.as_ref().map(stroke),
                },
                Item::Line {
                    points,
                    stroke: st,
                    dashed,
                } => Item::Line {
                    points: points.iter().copied().map(p).collect(),
                    stroke: stroke(st),
                    dashed: *dashed,
                },
                Item::Text(t) => Item::Text(Text {
                    x: t.x * k,
                    y: t.y * k,
                    size: t.size * k,
                    ..t.clone()
                }),
                Item::Legend {
                    x,
                    y,
                    title,
                    entries,
                    size,
                } => Item::Legend {
                    x: x * k,
                    y: y * k,
                    title: title.clone(),
                    entries: entries.clone(),
                    size: size * k,
                },
            })
            .collect();
        Scene {
            width: ((self.width as f32 * k).round() as u32).max(1),
            height: ((self.height as f32 * k).round() as u32).max(1),
            background: self.background,
            items,
        }
    }

    /// Append a solid polyline.
    pub fn line(&mut self, points: Vec<(f32, f32)>, stroke: Stroke) {
        self.items.push(Item::Line {
            points,
            stroke,
            dashed: false,
        });
    }
}
