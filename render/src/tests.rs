//! Whole-pipeline tests: scene → PNG bytes → decoded pixels.

use super::*;
use image::RgbaImage;

const BG: Color = Color::rgb(20, 24, 36);

fn png_pixels(scene: &Scene) -> RgbaImage {
    let png = render_png(scene).expect("renders");
    image::load_from_memory(&png).expect("valid PNG").to_rgba8()
}

fn px(img: &RgbaImage, x: u32, y: u32) -> [u8; 4] {
    img.get_pixel(x, y).0
}

fn rgba(c: Color) -> [u8; 4] {
    [c.r, c.g, c.b, c.a]
}

fn near(a: [u8; 4], b: [u8; 4], tol: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tol)
}

/// Bounds `(x0, y0, x1, y1)` (inclusive) of pixels matching `pred`.
fn bounds_where(img: &RgbaImage, pred: impl Fn([u8; 4]) -> bool) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in img.enumerate_pixels() {
        if pred(p.0) {
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}

fn count_where(img: &RgbaImage, pred: impl Fn([u8; 4]) -> bool) -> usize {
    img.pixels().filter(|p| pred(p.0)).count()
}

/// Non-background pixels (with a little tolerance for faint AA).
fn ink(p: [u8; 4]) -> bool {
    !near(p, rgba(BG), 8)
}

#[test]
fn png_decodes_with_right_size() {
    let mut s = Scene::new(321, 123, BG);
    s.rect(5.0, 5.0, 50.0, 50.0, Some(Color::rgb(200, 0, 0)), None);
    s.circle(100.0, 60.0, 30.0, None, Some(Stroke::new(Color::WHITE, 2.0)));
    s.text(Text::new(150.0, 20.0, "Size check", 16.0, Color::WHITE));
    let png = render_png(&s).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!((img.width(), img.height()), (321, 123));
    // Opaque canvases are palette images, which decode to RGB.
    assert_eq!(png_color_type(&png), 3, "indexed");
    assert_eq!(img.color(), image::ColorType::Rgb8);
}

/// The colour type byte of a PNG's IHDR chunk (3 indexed, 6 RGBA).
fn png_color_type(png: &[u8]) -> u8 {
    assert_eq!(&png[12..16], b"IHDR");
    png[25]
}

#[test]
fn filled_red_rect_centre_and_background_outside() {
    let mut s = Scene::new(200, 150, BG);
    s.rect(50.0, 40.0, 100.0, 60.0, Some(Color::rgb(255, 0, 0)), None);
    let img = png_pixels(&s);
    assert_eq!(px(&img, 100, 70), [255, 0, 0, 255]);
    assert_eq!(px(&img, 51, 41), [255, 0, 0, 255]);
    assert_eq!(px(&img, 148, 98), [255, 0, 0, 255]);
    for (x, y) in [(10, 10), (48, 70), (152, 70), (100, 38), (100, 102), (199, 149)] {
        assert_eq!(px(&img, x, y), rgba(BG), "at ({x},{y})");
    }
    assert_eq!(bounds_where(&img, |p| p == [255, 0, 0, 255]), Some((50, 40, 149, 99)));
}

#[test]
fn rounded_rect_has_background_corners() {
    let mut s = Scene::new(100, 100, BG);
    s.push(Item::Rect {
        x: 10.0,
        y: 10.0,
        w: 80.0,
        h: 80.0,
        radius: 20.0,
        fill: Some(Color::rgb(0, 200, 0)),
        stroke: None,
    });
    let img = png_pixels(&s);
    assert_eq!(px(&img, 50, 50), [0, 200, 0, 255]);
    assert_eq!(px(&img, 50, 11), [0, 200, 0, 255], "straight edge filled");
    assert_eq!(px(&img, 11, 11), rgba(BG), "rounded corner left empty");
    assert_eq!(px(&img, 88, 88), rgba(BG));
}

#[test]
fn circle_and_stroke_only_shapes() {
    let mut s = Scene::new(200, 100, BG);
    s.circle(50.0, 50.0, 30.0, Some(Color::rgb(0, 0, 255)), None);
    s.rect(110.0, 20.0, 60.0, 60.0, None, Some(Stroke::new(Color::WHITE, 4.0)));
    let img = png_pixels(&s);
    assert_eq!(px(&img, 50, 50), [0, 0, 255, 255]);
    assert_eq!(px(&img, 50, 22), [0, 0, 255, 255]);
    assert_eq!(px(&img, 25, 25), rgba(BG), "bounding-box corner is outside");
    // Stroke straddles the edge x = 110: pixels 108..112 are white.
    assert_eq!(px(&img, 109, 50), [255, 255, 255, 255]);
    assert_eq!(px(&img, 140, 50), rgba(BG), "unfilled interior");
    assert_eq!(px(&img, 105, 50), rgba(BG));
}

#[test]
fn polygon_fills_inside_only() {
    let mut s = Scene::new(100, 100, BG);
    s.push(Item::Polygon {
        points: vec![(10.0, 90.0), (50.0, 10.0), (90.0, 90.0)],
        fill: Some(Color::rgb(250, 200, 0)),
        stroke: None,
    });
    let img = png_pixels(&s);
    assert_eq!(px(&img, 50, 60), [250, 200, 0, 255]);
    assert_eq!(px(&img, 15, 20), rgba(BG));
    assert_eq!(px(&img, 85, 20), rgba(BG));
}

#[test]
fn dashed_line_has_gaps_and_solid_line_does_not() {
    let white = [255, 255, 255, 255];
    for dashed in [false, true] {
        let mut s = Scene::new(200, 20, BG);
        s.push(Item::Line {
            points: vec![(10.0, 10.0), (190.0, 10.0)],
            stroke: Stroke::new(Color::WHITE, 2.0),
            dashed,
        });
        let img = png_pixels(&s);
        let row: Vec<[u8; 4]> = (20..180).map(|x| px(&img, x, 9)).collect();
        let on = row.iter().filter(|p| **p == white).count();
        let off = row.iter().filter(|p| **p == rgba(BG)).count();
        if dashed {
            assert!(on > 50 && off > 40, "dashed: on {on}, off {off}");
        } else {
            assert_eq!(on, row.len(), "solid line is continuous");
        }
        assert_eq!(px(&img, 100, 2), rgba(BG), "nothing far from the line");
    }
}

#[test]
fn translucent_fill_blends_over_background() {
    let mut s = Scene::new(10, 10, Color::BLACK);
    s.rect(0.0, 0.0, 10.0, 10.0, Some(Color::rgba(255, 0, 0, 128)), None);
    let img = png_pixels(&s);
    assert!(near(px(&img, 5, 5), [128, 0, 0, 255], 1), "{:?}", px(&img, 5, 5));
}

#[test]
fn transparent_background_is_demultiplied() {
    let s = Scene::new(4, 4, Color::rgba(0, 100, 200, 128));
    let img = png_pixels(&s);
    assert!(near(px(&img, 1, 1), [0, 100, 200, 128], 2), "{:?}", px(&img, 1, 1));
    let clear = png_pixels(&Scene::new(4, 4, Color::rgba(10, 20, 30, 0)));
    assert_eq!(px(&clear, 2, 2)[3], 0);
    // One translucent pixel is enough to keep the alpha channel.
    let mut s = Scene::new(40, 40, BG);
    s.rect(10.0, 10.0, 1.0, 1.0, Some(Color::rgb(9, 9, 9)), None);
    let mut pm = render_rgba(&s).unwrap();
    pm.pixels_mut()[0] = tiny_skia::PremultipliedColorU8::from_rgba(10, 10, 10, 200).unwrap();
    let png = encode_png(&pm).unwrap();
    assert_eq!(png_color_type(&png), 6, "RGBA");
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    assert_eq!(px(&img, 0, 0), [13, 13, 13, 200]);
    assert_eq!(px(&img, 10, 10), [9, 9, 9, 255]);
}

#[test]
fn text_ink_lies_inside_its_measured_box() {
    let t = Text::new(40.0, 30.0, "Hello, Orrery! gjpqy", 24.0, Color::WHITE);
    let (bx, by, bw, bh) = text_box(&t);
    let mut s = Scene::new(400, 100, BG);
    s.text(t);
    let img = png_pixels(&s);
    let n = count_where(&img, ink);
    assert!(n > 500, "text should produce plenty of ink, got {n}");
    let (x0, y0, x1, y1) = bounds_where(&img, ink).unwrap();
    assert!(
        x0 as f32 >= bx - 1.0 && (x1 as f32) <= bx + bw + 1.0,
        "x {x0}..{x1} vs {bx}+{bw}"
    );
    assert!(
        y0 as f32 >= by - 1.0 && (y1 as f32) <= by + bh + 1.0,
        "y {y0}..{y1} vs {by}+{bh}"
    );
    // The ink actually fills most of the box (not a stray dot).
    assert!((x1 - x0) as f32 > bw * 0.9);
    assert!((y1 - y0) as f32 > bh * 0.7);
    // Fully covered glyph pixels are exactly the text colour.
    assert!(count_where(&img, |p| p == [255, 255, 255, 255]) > 100);
}

#[test]
fn names_in_chinese_japanese_and_korean_are_drawn_not_boxes() {
    // Each letter drawn alone: a missing glyph would draw the same empty
    // box for all of them; real letters differ from each other, and their
    // ink stays inside the measured box.
    let draw = |s: &str| {
        let t = Text::new(10.0, 10.0, s, 40.0, Color::WHITE);
        let (bx, by, bw, bh) = text_box(&t);
        let mut sc = Scene::new(80, 70, BG);
        sc.text(t);
        let img = png_pixels(&sc);
        let (x0, y0, x1, y1) = bounds_where(&img, ink).expect("the letter has ink");
        assert!(x0 as f32 >= bx - 1.0 && x1 as f32 <= bx + bw + 1.0, "{s}: x {x0}..{x1}");
        assert!(y0 as f32 >= by - 1.0 && y1 as f32 <= by + bh + 1.0, "{s}: y {y0}..{y1}");
        img.into_raw()
    };
    let letters: Vec<Vec<u8>> = ["李", "雷", "ひ", "한", "\u{10FFFD}"].iter().map(|s| draw(s)).collect();
    for i in 0..4 {
        for j in i + 1..5 {
            assert_ne!(letters[i], letters[j], "letters {i} and {j} drew the same picture");
        }
    }
}

#[test]
fn text_is_drawn_in_its_colour_and_bold_is_heavier() {
    let count = |bold: bool| {
        let mut s = Scene::new(300, 60, BG);
        let mut t = Text::new(10.0, 10.0, "Colour", 30.0, Color::rgb(255, 200, 0));
        t.bold = bold;
        s.text(t);
        let img = png_pixels(&s);
        count_where(&img, |p| p == [255, 200, 0, 255])
    };
    let (regular, bold) = (count(false), count(true));
    assert!(regular > 200, "regular {regular}");
    assert!(bold as f32 > regular as f32 * 1.3, "bold {bold} vs regular {regular}");
}

#[test]
fn halo_surrounds_text() {
    let halo = Color::rgb(0, 0, 255);
    let draw = |with_halo: bool| {
        let mut t = Text::new(150.0, 50.0, "Halo", 27.0, Color::WHITE).anchor(Anchor::Center);
        if with_halo {
            t = t.halo(halo);
        }
        let mut s = Scene::new(300, 100, BG);
        s.text(t);
        png_pixels(&s)
    };
    let plain = draw(false);
    let haloed = draw(true);
    let is_halo = |p: [u8; 4]| p == [0, 0, 255, 255];
    assert_eq!(count_where(&plain, is_halo), 0);
    let n = count_where(&haloed, is_halo);
    assert!(n > 300, "solid halo pixels: {n}");
    // Halo is ~3 px (27/9) thick: the inked area grows by about that on
    // every side, and no further.
    let (px0, py0, px1, py1) = bounds_where(&plain, ink).unwrap();
    let (hx0, hy0, hx1, hy1) = bounds_where(&haloed, ink).unwrap();
    for grow in [px0 - hx0, py0 - hy0, hx1 - px1, hy1 - py1] {
        assert!((2..=5).contains(&grow), "halo grew by {grow}");
    }
    // The glyphs stay on top of their halo.
    assert_eq!(
        count_where(&plain, |p| p == [255, 255, 255, 255]),
        count_where(&haloed, |p| p == [255, 255, 255, 255])
    );
}

#[test]
fn anchor_center_centres_the_text_box() {
    let (x, y) = (200.0, 100.0);
    let text = "HOHOHO";
    let (w, h) = measure_text(text, 32.0, false);
    let centred = Text::new(x, y, text, 32.0, Color::WHITE).anchor(Anchor::Center);
    let top_left = Text::new(x - w / 2.0, y - h / 2.0, text, 32.0, Color::WHITE);
    let render = |t: Text| {
        let mut s = Scene::new(400, 200, BG);
        s.text(t);
        bounds_where(&png_pixels(&s), ink).unwrap()
    };
    let (x0, y0, x1, y1) = render(centred);
    // Symmetric letters: ink is centred horizontally on the point.
    let cx = (x0 + x1 + 1) as f32 / 2.0;
    assert!((cx - x).abs() <= 2.0, "ink centre x {cx}");
    // Capitals sit on the baseline, above the box centre by less than h/2,
    // and the ink is within the box centred on the point.
    assert!((y0 as f32) >= y - h / 2.0 - 1.0 && (y1 as f32) <= y + h / 2.0 + 1.0);
    assert!((y0 as f32) < y && (y1 as f32) > y - h / 4.0);
    // Same pixels as placing the box's top-left corner by hand.
    let (a0, b0, a1, b1) = render(top_left);
    for d in [x0.abs_diff(a0), y0.abs_diff(b0), x1.abs_diff(a1), y1.abs_diff(b1)] {
        assert!(d <= 1, "centre vs manual top-left differ by {d}");
    }
}

#[test]
fn anchor_bottom_right_puts_text_up_and_left_of_point() {
    let mut s = Scene::new(300, 120, BG);
    s.text(Text::new(250.0, 90.0, "Right", 24.0, Color::WHITE).anchor(Anchor::BottomRight));
    let (x0, y0, x1, y1) = bounds_where(&png_pixels(&s), ink).unwrap();
    assert!((244..=251).contains(&x1), "right edge {x1}");
    assert!(y1 <= 91, "bottom {y1}");
    let (w, h) = measure_text("Right", 24.0, false);
    assert!(x0 as f32 >= 250.0 - w - 1.0);
    assert!(y0 as f32 >= 90.0 - h - 1.0);
}

#[test]
fn text_off_canvas_or_degenerate_is_harmless() {
    let mut s = Scene::new(100, 50, BG);
    s.text(Text::new(-500.0, 10.0, "gone", 20.0, Color::WHITE));
    s.text(Text::new(10.0, 10.0, "nan", f32::NAN, Color::WHITE));
    s.text(Text::new(f32::INFINITY, 10.0, "inf", 20.0, Color::WHITE));
    s.text(Text::new(10.0, 10.0, "", 20.0, Color::WHITE).halo(Color::BLACK));
    s.text(Text::new(10.0, 10.0, "zero", 0.0, Color::WHITE));
    let img = png_pixels(&s);
    assert_eq!(count_where(&img, ink), 0);
    // Huge text is clamped, and partly visible text still draws.
    let mut s = Scene::new(100, 50, BG);
    s.text(Text::new(-20.0, -400.0, "W", 1.0e8, Color::WHITE).halo(Color::BLACK));
    assert!(count_where(&png_pixels(&s), ink) > 0);
}

#[test]
fn degenerate_shapes_draw_nothing() {
    let mut s = Scene::new(50, 50, BG);
    s.rect(10.0, 10.0, 0.0, 20.0, Some(Color::WHITE), None);
    s.rect(f32::NAN, 10.0, 10.0, 20.0, Some(Color::WHITE), None);
    s.circle(25.0, 25.0, -4.0, Some(Color::WHITE), None);
    s.push(Item::Polygon {
        points: vec![(1.0, 1.0)],
        fill: Some(Color::WHITE),
        stroke: None,
    });
    s.push(Item::Line {
        points: vec![],
        stroke: Stroke::new(Color::WHITE, 3.0),
        dashed: true,
    });
    s.line(vec![(0.0, 0.0), (50.0, 50.0)], Stroke::new(Color::WHITE, 0.0));
    s.line(vec![(0.0, 0.0), (50.0, 50.0)], Stroke::new(Color::WHITE, f32::NAN));
    s.push(Item::Legend {
        x: 0.0,
        y: 0.0,
        title: "t".into(),
        entries: vec![],
        size: -1.0,
    });
    assert_eq!(count_where(&png_pixels(&s), ink), 0);
}

#[test]
fn legend_draws_swatches_inside_its_panel() {
    let red = Color::rgb(230, 40, 40);
    let green = Color::rgb(40, 200, 80);
    let entries = vec![
        LegendEntry {
            color: red,
            label: "Red fleet".into(),
        },
        LegendEntry {
            color: green,
            label: "Green fleet".into(),
        },
    ];
    let (w, h) = legend_size("Players", &entries, 18.0);
    let mut s = Scene::new(400, 300, BG);
    s.push(Item::Legend {
        x: 30.0,
        y: 20.0,
        title: "Players".into(),
        entries,
        size: 18.0,
    });
    let img = png_pixels(&s);
    let reds = bounds_where(&img, |p| p == rgba(red)).expect("red swatch");
    let greens = bounds_where(&img, |p| p == rgba(green)).expect("green swatch");
    assert!(count_where(&img, |p| p == rgba(red)) > 100);
    assert!(count_where(&img, |p| p == rgba(green)) > 100);
    assert!(greens.1 > reds.3, "second entry is below the first");
    // Everything drawn lies within the reported panel size.
    let (x0, y0, x1, y1) = bounds_where(&img, ink).unwrap();
    assert!(x0 >= 30 && y0 >= 20, "{x0},{y0}");
    assert!(x1 as f32 <= 30.0 + w && y1 as f32 <= 20.0 + h, "{x1},{y1} vs {w}x{h}");
    assert!((x1 - x0) as f32 >= w - 2.0 && (y1 - y0) as f32 >= h - 2.0);
    // White title and light labels are drawn.
    assert!(count_where(&img, |p| p == [255, 255, 255, 255]) > 50);
}

#[test]
fn items_paint_in_order() {
    let mut s = Scene::new(40, 40, BG);
    s.rect(0.0, 0.0, 30.0, 30.0, Some(Color::rgb(255, 0, 0)), None);
    s.rect(10.0, 10.0, 30.0, 30.0, Some(Color::rgb(0, 0, 255)), None);
    let img = png_pixels(&s);
    assert_eq!(px(&img, 5, 5), [255, 0, 0, 255]);
    assert_eq!(px(&img, 20, 20), [0, 0, 255, 255], "later item on top");
}

fn busy_scene() -> Scene {
    let mut s = Scene::new(300, 200, BG);
    s.rect(10.0, 10.0, 120.0, 80.0, Some(Color::rgb(90, 30, 140)), None);
    s.circle(150.0, 100.0, 40.5, Some(Color::rgba(0, 180, 255, 150)), None);
    s.push(Item::Line {
        points: vec![(0.0, 199.0), (299.0, 0.0)],
        stroke: Stroke::new(Color::rgb(255, 255, 0), 1.5),
        dashed: true,
    });
    s.text(
        Text::new(150.0, 100.0, "Deterministic", 22.3, Color::rgb(255, 220, 120))
            .anchor(Anchor::Center)
            .halo(Color::BLACK)
            .bold(),
    );
    s.push(Item::Legend {
        x: 180.0,
        y: 120.0,
        title: "Key".into(),
        entries: vec![LegendEntry {
            color: Color::rgb(90, 30, 140),
            label: "violet".into(),
        }],
        size: 14.0,
    });
    s
}

#[test]
fn rendering_is_deterministic() {
    let s = busy_scene();
    let a = render_png(&s).unwrap();
    let b = render_png(&s.clone()).unwrap();
    assert_eq!(a, b);
    let mut other = s;
    other.text(Text::new(0.0, 0.0, "x", 12.0, Color::WHITE));
    assert_ne!(a, render_png(&other).unwrap(), "a different scene differs");
}

#[test]
fn render_png_is_rgba_then_encode() {
    let s = busy_scene();
    let pm = render_rgba(&s).unwrap();
    assert_eq!((pm.width(), pm.height()), (300, 200));
    assert_eq!(encode_png(&pm).unwrap(), render_png(&s).unwrap());
}

#[test]
fn bad_sizes_are_rejected() {
    for (w, h) in [(0, 10), (10, 0), (0, 0), (8193, 10), (10, 8193), (u32::MAX, 1)] {
        match render_png(&Scene::new(w, h, BG)) {
            Err(RenderError::BadSize { width, height }) => assert_eq!((width, height), (w, h)),
            other => panic!("{w}x{h}: expected BadSize, got {other:?}"),
        }
        assert!(matches!(
            render_rgba(&Scene::new(w, h, BG)),
            Err(RenderError::BadSize { .. })
        ));
    }
    let err = render_png(&Scene::new(0, 5, BG)).unwrap_err();
    assert!(err.to_string().contains("0x5"));
    // The limits themselves are fine.
    let img = png_pixels(&Scene::new(MAX_SIDE, 1, BG));
    assert_eq!((img.width(), img.height()), (8192, 1));
    let img = png_pixels(&Scene::new(1, 1, BG));
    assert_eq!(px(&img, 0, 0), rgba(BG));
}

// `synthetic_board()`, shared with `examples/timing.rs`.
include!("../examples/shared/synthetic_board.rs");

/// Overlapping translucent discs and rings in many colours under haloed
/// text: far more than 256 colours, most of them blends.
fn blended_scene() -> Scene {
    let mut s = Scene::new(480, 360, BG);
    for i in 0..40u32 {
        let c = Color::rgba(
            (i * 53 % 256) as u8,
            (i * 97 % 256) as u8,
            (i * 151 % 256) as u8,
            90 + (i * 7 % 120) as u8,
        );
        let (x, y) = ((i * 89 % 480) as f32, (i * 61 % 360) as f32);
        s.circle(
            x,
            y,
            20.0 + (i % 5) as f32 * 9.0,
            Some(c),
            Some(Stroke::new(Color::WHITE, 0.8)),
        );
    }
    for i in 0..12u32 {
        let y = 14.0 + i as f32 * 29.0;
        s.push(Item::Line {
            points: vec![(0.0, y), (479.0, y + 17.3)],
            stroke: Stroke::new(Color::rgb(200, 200, 40 + i as u8 * 15), 1.0),
            dashed: i % 3 == 0,
        });
        s.text(
            Text::new(
                20.0 + (i % 3) as f32 * 150.0,
                y,
                format!("Label {i} Wq"),
                11.0 + i as f32,
                Color::WHITE,
            )
            .halo(Color::BLACK)
            .bold(),
        );
    }
    s
}

/// How a scene's PNG differs from the pixels `render_rgba` drew (opaque
/// scenes): the largest and mean per-channel difference, how many pixels
/// differ by more than 16 in some channel and how many are exact.
struct Diff {
    max: u8,
    mean: f64,
    over16: usize,
    exact: usize,
    pixels: usize,
    colours: usize,
}

fn png_vs_drawn(scene: &Scene) -> Diff {
    let pm = render_rgba(scene).unwrap();
    let img = image::load_from_memory(&encode_png(&pm).unwrap()).unwrap().to_rgba8();
    let mut d = Diff {
        max: 0,
        mean: 0.0,
        over16: 0,
        exact: 0,
        pixels: 0,
        colours: 0,
    };
    let mut colours = std::collections::HashSet::new();
    let mut sum = 0u64;
    for (a, b) in pm.data().chunks_exact(4).zip(img.as_raw().chunks_exact(4)) {
        assert_eq!(a[3], 255, "opaque scenes only");
        colours.insert([a[0], a[1], a[2]]);
        let worst = (0..4).map(|i| a[i].abs_diff(b[i])).max().unwrap();
        sum += (0..3).map(|i| a[i].abs_diff(b[i]) as u64).sum::<u64>();
        d.max = d.max.max(worst);
        d.over16 += usize::from(worst > 16);
        d.exact += usize::from(worst == 0);
        d.pixels += 1;
    }
    d.mean = sum as f64 / (3 * d.pixels) as f64;
    d.colours = colours.len();
    d
}

#[test]
fn few_colours_encode_exactly() {
    let mut s = Scene::new(64, 48, BG);
    for i in 0..20 {
        s.rect(
            i as f32 * 3.0,
            i as f32 * 2.0,
            7.0,
            5.0,
            Some(Color::rgb(i * 12, 255 - i * 9, 77)),
            None,
        );
    }
    let d = png_vs_drawn(&s);
    assert!(d.colours <= 256);
    assert_eq!((d.max, d.exact), (0, d.pixels));
}

/// The legibility bound for the quantised (more than 256 colours) case,
/// on scenes with text, haloes, thin and dashed lines, translucency and
/// antialiasing: flat areas, which hold the most used colours, stay exact;
/// antialiased edge pixels may move to a nearby palette colour. Mean
/// difference per channel at most 0.5 (of 255), at most 0.2% of pixels off
/// by more than 16 in any channel, none by more than 64, and at least 90%
/// of pixels exact. (Measured on real boards of Hyperspace, Solar Crisis
/// and Spectrum War: mean 0.10 to 0.14, 0.03% to 0.07% of pixels over 16,
/// max 61, 94.6% to 96.3% exact; on the synthetic board: mean 0.15.)
#[test]
fn quantised_png_stays_close_to_the_drawn_pixels() {
    let stats: Vec<(String, Diff)> = [("busy", busy_scene()), ("synthetic board", synthetic_board())]
        .into_iter()
        .map(|(name, scene)| {
            let d = png_vs_drawn(&scene);
            let s = format!(
                "{name}: {} colours, max {}, mean {:.3}, >16 {}, exact {} of {}",
                d.colours, d.max, d.mean, d.over16, d.exact, d.pixels
            );
            println!("{s}");
            (s, d)
        })
        .collect();
    for (s, d) in stats {
        assert!(d.colours > 256, "{s}: exercise the lossy path");
        assert!(d.mean <= 0.5, "{s}");
        assert!(d.over16 * 500 <= d.pixels, "{s}");
        assert!(d.max <= 64, "{s}");
        assert!(d.exact * 10 >= d.pixels * 9, "{s}");
    }
}

/// When no palette gets within a mean difference of 1 per channel (here:
/// large overlapping translucent discs, thousands of flat blends), the
/// image is written as RGB, exactly.
#[test]
fn too_many_blends_fall_back_to_exact_rgb() {
    let s = blended_scene();
    let png = render_png(&s).unwrap();
    assert_eq!(png_color_type(&png), 2, "RGB");
    let d = png_vs_drawn(&s);
    assert!(d.colours > 10_000);
    assert_eq!((d.max, d.exact), (0, d.pixels));
}

#[test]
fn synthetic_board_png_is_small_and_deterministic() {
    let s = synthetic_board();
    let png = render_png(&s).unwrap();
    println!("synthetic board: {} bytes", png.len());
    // About 350 KB measured (1.45 MB as fast-deflated RGBA before).
    assert!(png.len() < 420_000, "{} bytes", png.len());
    assert_eq!(png, render_png(&s.clone()).unwrap());
}

/// A scaled scene is the same picture, smaller: the canvas, shapes and
/// text all shrink by the factor, and a lighter PNG comes out.
#[test]
fn a_scaled_scene_is_the_same_picture_smaller() {
    let red = Color::rgb(220, 30, 30);
    let mut s = Scene::new(400, 300, Color::BLACK);
    s.rect(100.0, 100.0, 200.0, 100.0, Some(red), None);
    s.text(Text::new(20.0, 40.0, "Vega", 32.0, Color::WHITE));
    let half = s.scaled(0.5);
    assert_eq!((half.width, half.height), (200, 150));
    let img = png_pixels(&half);
    assert_eq!((img.width(), img.height()), (200, 150));
    assert_eq!(
        bounds_where(&img, |p| near(p, rgba(red), 8)),
        Some((50, 50, 149, 99)),
        "the rectangle at half its place and size"
    );
    let Item::Text(t) = &half.items[1] else { panic!("text") };
    assert_eq!((t.x, t.y, t.size), (10.0, 20.0, 16.0));
    let full = synthetic_board();
    assert!(render_png(&full.scaled(0.75)).unwrap().len() < render_png(&full).unwrap().len());
}
