//! The one kind of body of the 3-D world: a sphere.

use glam::Vec3;

/// A rigid, frictionless sphere.
///
/// Mass is a real mass (kilograms); [`Sphere::new`] gives a sphere of unit density
/// (`mass = 4/3 π r³`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// Centre (metres).
    pub position: Vec3,
    /// Velocity (metres per second).
    pub velocity: Vec3,
    /// Radius (metres), greater than 0.
    pub radius: f32,
    /// Mass (kilograms), greater than 0; `f32::INFINITY` makes the sphere *kinematic* (see
    /// [`Sphere::kinematic`]).
    pub mass: f32,
    /// Coefficient of restitution in `[0, 1]`: 1 is perfectly elastic, 0 perfectly plastic.
    /// A pair uses the larger of the two (Box2D's mixing rule, as the planar world does).
    pub restitution: f32,
}

impl Sphere {
    /// A perfectly elastic sphere of unit density (`mass = 4/3 π r³`).
    pub fn new(position: Vec3, velocity: Vec3, radius: f32) -> Sphere {
        let mass = 4.0 / 3.0 * std::f32::consts::PI * radius * radius * radius;
        Sphere { position, velocity, radius, mass, restitution: 1.0 }
    }

    /// The same sphere with mass `mass` (kilograms).
    pub fn with_mass(self, mass: f32) -> Sphere {
        Sphere { mass, ..self }
    }

    /// The same sphere with restitution `restitution` (see [`Sphere::restitution`]).
    pub fn with_restitution(self, restitution: f32) -> Sphere {
        Sphere { restitution, ..self }
    }

    /// A kinematic sphere: infinite mass, so it moves only as its velocity says and pushes
    /// the spheres it meets without being pushed back (a paddle, a piston). It passes through
    /// the box walls and other kinematic spheres, is not damped or accelerated by gravity, and
    /// is left out of [`super::World::momentum`] and [`super::World::kinetic_energy`].
    pub fn kinematic(position: Vec3, velocity: Vec3, radius: f32) -> Sphere {
        Sphere { position, velocity, radius, mass: f32::INFINITY, restitution: 1.0 }
    }

    /// Whether the sphere is kinematic (infinite mass).
    #[inline]
    pub fn is_kinematic(&self) -> bool {
        self.mass == f32::INFINITY
    }
}

/// Identifies a sphere of a [`super::World`] for its whole life: ids are handed out in
/// insertion order and never reused after a sphere is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SphereId(pub u32);
