//! The one kind of body of the 3-D world: a sphere.

use glam::Vec3;

/// A rigid sphere.
///
/// Mass is a real mass (kilograms); [`Sphere::new`] gives a frictionless, elastic sphere of unit
/// density (`mass = 4/3 π r³`) that does not spin.
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
    /// Coulomb friction coefficient, ≥ 0; 0 (the default) is frictionless and the sphere never
    /// spins from a contact. A pair uses `√(μ_a·μ_b)` (Box2D's mixing rule, as the planar world
    /// does), so a frictionless sphere slides on any other; against a box wall the sphere's
    /// own coefficient applies.
    pub friction: f32,
    /// Rolling resistance coefficient, ≥ 0 (a length ratio; 0, the default, is none): in a
    /// resting contact (with gravity) it brakes the two spheres' relative rolling with an
    /// angular impulse of up to this times the contact's reduced radius (`r_a r_b / (r_a + r_b)`;
    /// against a wall or a triangle, the sphere's radius) times its normal impulse, as the
    /// planar world's balls do (Box2D 3's rolling resistance). A sphere rolling on a floor then
    /// slows at `5/7 · c · g`. A pair uses the larger of the two. It brakes rolling only, not
    /// spinning about the contact normal, and needs friction to act on the sphere's motion.
    pub rolling_resistance: f32,
    /// Angular velocity (radians per second, about the axis it points along, right-handed).
    /// Contacts with friction change it, through the moment of inertia of a solid sphere,
    /// `2/5 m r²`; a sphere's orientation is not tracked (it changes nothing in the dynamics).
    pub angular_velocity: Vec3,
}

impl Sphere {
    /// A perfectly elastic sphere of unit density (`mass = 4/3 π r³`).
    pub fn new(position: Vec3, velocity: Vec3, radius: f32) -> Sphere {
        let mass = sphere_volume(radius);
        let (restitution, friction, rolling_resistance) = (1.0, 0.0, 0.0);
        Sphere {
            position,
            velocity,
            radius,
            mass,
            restitution,
            friction,
            rolling_resistance,
            angular_velocity: Vec3::ZERO,
        }
    }

    /// The same sphere with mass `mass` (kilograms).
    pub fn with_mass(self, mass: f32) -> Sphere {
        Sphere { mass, ..self }
    }

    /// The same sphere with restitution `restitution` (see [`Sphere::restitution`]).
    pub fn with_restitution(self, restitution: f32) -> Sphere {
        Sphere { restitution, ..self }
    }

    /// The same sphere with Coulomb friction coefficient `friction` (see [`Sphere::friction`]).
    pub fn with_friction(self, friction: f32) -> Sphere {
        Sphere { friction, ..self }
    }

    /// The same sphere with rolling resistance coefficient `rolling_resistance` (see
    /// [`Sphere::rolling_resistance`]).
    pub fn with_rolling_resistance(self, rolling_resistance: f32) -> Sphere {
        Sphere { rolling_resistance, ..self }
    }

    /// A kinematic sphere: infinite mass, so it moves only as its velocity says and pushes
    /// the spheres it meets without being pushed back (a paddle, a piston). It passes through
    /// the box walls and other kinematic spheres, is not damped or accelerated by gravity, and
    /// is left out of [`super::World::momentum`] and [`super::World::kinetic_energy`].
    pub fn kinematic(position: Vec3, velocity: Vec3, radius: f32) -> Sphere {
        Sphere { mass: f32::INFINITY, ..Sphere::new(position, velocity, radius) }
    }

    /// Whether the sphere is kinematic (infinite mass).
    #[inline]
    pub fn is_kinematic(&self) -> bool {
        self.mass == f32::INFINITY
    }

    /// `1 / I` for a solid sphere, `I = 2/5 m r²` (0 for a kinematic sphere), in `f64`.
    #[inline]
    pub(crate) fn inverse_inertia(&self) -> f64 {
        2.5 / (f64::from(self.mass) * f64::from(self.radius) * f64::from(self.radius))
    }
}

/// Identifies a sphere of a [`super::World`] for its whole life: ids are handed out in
/// insertion order and never reused after a sphere is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SphereId(pub u32);

/// The volume of a sphere of `radius` (m³), `4/3 π r³` in this order of operations: the mass
/// of [`Sphere::new`] (density 1), and what [`super::World::add_sphere`] requires to be finite.
pub(crate) fn sphere_volume(radius: f32) -> f32 {
    4.0 / 3.0 * std::f32::consts::PI * radius * radius * radius
}
