//! The board picture, built from a view only.

use super::view::View;
use orrery_render::{Color, Scene};

pub fn scene(_view: &View, _names: &[String]) -> Scene {
    Scene::new(1600, 1200, Color::rgb(14, 16, 28))
}
