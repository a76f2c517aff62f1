//! `orrery-render`: a pure function from a [`Scene`] to PNG bytes.
//!
//! This crate knows nothing about any game. It draws shapes, text,
//! colours and legends, and encodes PNG. Same scene in, same bytes out.
//!
//! ```
//! use orrery_render::{render_png, Anchor, Color, Scene, Text};
//!
//! let mut scene = Scene::new(200, 100, Color::rgb(20, 20, 30));
//! scene.rect(10.0, 10.0, 80.0, 40.0, Some(Color::rgb(200, 40, 40)), None);
//! scene.text(
//!     Text::new(100.0, 70.0, "Hello", 20.0, Color::WHITE)
//!         .anchor(Anchor::Center)
//!         .halo(Color::BLACK),
//! );
//! let png = render_png(&scene).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```
#![warn(missing_docs)]

mod draw;
mod encode;
mod scene;
mod spans;
mod text;

pub use draw::legend_size;
pub use scene::{Anchor, Color, Item, LegendEntry, Scene, Stroke, Text};
pub use text::{measure_text, text_box, MAX_HALO, MAX_TEXT_SIZE};
/// The pixel buffer [`render_rgba`] returns (premultiplied RGBA), re-exported
/// so callers need no direct tiny-skia dependency.
pub use tiny_skia::Pixmap;

/// Largest allowed canvas side, in pixels.
pub const MAX_SIDE: u32 = 8192;

/// Why a scene could not be rendered.
#[derive(Debug)]
pub enum RenderError {
    /// Width or height is zero or larger than the renderer allows.
    BadSize {
        /// Requested canvas width.
        width: u32,
        /// Requested canvas height.
        height: u32,
    },
    /// The PNG encoder failed.
    Encode(String),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::BadSize { width, height } => {
                write!(f, "canvas size {width}x{height} is out of range (1..=8192 each side)")
            }
            RenderError::Encode(e) => write!(f, "PNG encoding failed: {e}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// Draw a scene into a premultiplied RGBA pixmap without encoding it.
///
/// The canvas is filled with the scene's background, then every item is
/// painted in order (later over earlier), antialiased. Items with
/// degenerate geometry (non-finite numbers, empty sizes, too few points)
/// draw nothing. Fails only with [`RenderError::BadSize`] when a side is
/// outside `1..=`[`MAX_SIDE`].
pub fn render_rgba(scene: &Scene) -> Result<tiny_skia::Pixmap, RenderError> {
    let (width, height) = (scene.width, scene.height);
    let bad = RenderError::BadSize { width, height };
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(bad);
    }
    // Allocate the canvas already filled with the background: one pass
    // over the memory instead of zeroing it and then filling it.
    let bg = draw::sk_color(scene.background).premultiply().to_color_u8();
    let data = [bg.red(), bg.green(), bg.blue(), bg.alpha()].repeat(width as usize * height as usize);
    let size = tiny_skia::IntSize::from_wh(width, height).ok_or(RenderError::BadSize { width, height })?;
    let mut pixmap = tiny_skia::Pixmap::from_vec(data, size).ok_or(bad)?;
    let mut glyphs = text::GlyphCache::default();
    for item in &scene.items {
        draw::draw_item(&mut pixmap, item, &mut glyphs);
    }
    Ok(pixmap)
}

/// Encode a pixmap as a PNG, deterministically (same pixels, same bytes).
///
/// An opaque canvas (the usual case) becomes an 8-bit indexed PNG, about a
/// quarter the size of RGBA: exact when it has at most 256 colours;
/// otherwise the most used colours (flat fills, strokes, text) stay exact
/// and the rest (antialiased edges) take the nearest of the remaining
/// palette entries, chosen by median cut. Should that leave a mean error
/// above 1/255 per channel (photo-like content), the canvas is written as
/// exact 8-bit RGB instead. A canvas with any translucent pixel is written
/// as straight-alpha 8-bit RGBA. Indexed images use no filter and zlib
/// level 6 (boards are sent to chat again and again: bytes matter); RGB
/// and RGBA the Paeth or Up filter and fast deflate.
pub fn encode_png(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    encode::encode(pixmap.width(), pixmap.height(), pixmap.data())
}

/// Render a scene to PNG bytes. Pure: no I/O, no clock, deterministic output.
///
/// This is [`render_rgba`] followed by [`encode_png`].
pub fn render_png(scene: &Scene) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_rgba(scene)?)
}

#[cfg(test)]
mod tests;
