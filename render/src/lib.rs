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
mod scene;
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
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(bad)?;
    pixmap.fill(draw::sk_color(scene.background));
    for item in &scene.items {
        draw::draw_item(&mut pixmap, item);
    }
    Ok(pixmap)
}

/// Encode a pixmap as an 8-bit RGBA PNG (straight alpha), using fast
/// compression and the `Up` filter: board images are sent once and
/// discarded, so encoding speed matters more than a few kilobytes.
pub fn encode_png(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::{ExtendedColorType, ImageEncoder};

    let src = pixmap.data();
    // Premultiplied equals straight alpha for opaque pixels, so an opaque
    // canvas (the usual case) is encoded as it is, without a copy.
    let rgba: std::borrow::Cow<[u8]> = if src.chunks_exact(4).all(|px| px[3] == 255) {
        src.into()
    } else {
        demultiply(src).into()
    };
    let mut out = Vec::with_capacity(src.len() / 8);
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Up)
        .write_image(&rgba, pixmap.width(), pixmap.height(), ExtendedColorType::Rgba8)
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
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

/// Render a scene to PNG bytes. Pure: no I/O, no clock, deterministic output.
///
/// This is [`render_rgba`] followed by [`encode_png`].
pub fn render_png(scene: &Scene) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_rgba(scene)?)
}

#[cfg(test)]
mod tests;
