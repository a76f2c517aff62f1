//! What the games share: drawing helpers and the players' colours for
//! board scenes ([`draw`]), and helpers for offering legal orders as
//! controls ([`menu`]). A game uses these, never another game's modules.

pub mod draw;
pub mod menu;
#[cfg(test)]
pub mod testing;
