//! The one kind of body: a disc.

use crate::geom::Vec2;

/// A rigid disc.
///
/// Mass is a real mass (kilograms), not the radius as in seed 003's code; [`Ball::new`] gives
/// a disc of unit areal density (`mass = π r²`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Centre (metres).
    pub position: Vec2,
    /// Velocity (metres per second).
    pub velocity: Vec2,
    /// Radius (metres), greater than 0.
    pub radius: f32,
    /// Mass (kilograms), greater than 0.
    pub mass: f32,
    /// Coefficient of restitution in `[0, 1]`: 1 is perfectly elastic, 0 perfectly plastic.
    /// A pair of balls uses the larger of the two (Box2D's mixing rule).
    pub restitution: f32,
}

impl Ball {
    /// A perfectly elastic ball of unit areal density (`mass = π r²`).
    pub fn new(position: Vec2, velocity: Vec2, radius: f32) -> Ball {
        Ball { position, velocity, radius, mass: std::f32::consts::PI * radius * radius, restitution: 1.0 }
    }
}

/// Identifies a ball of a [`crate::physics::World`] for its whole life: ids are handed out in
/// insertion order and never reused after a ball is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BallId(pub u32);
