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
    /// Mass (kilograms), greater than 0; `f32::INFINITY` makes the ball *kinematic* (see
    /// [`Ball::kinematic`]).
    pub mass: f32,
    /// Coefficient of restitution in `[0, 1]`: 1 is perfectly elastic, 0 perfectly plastic.
    /// A pair of balls uses the larger of the two (Box2D's mixing rule).
    pub restitution: f32,
    /// Coulomb friction coefficient, ≥ 0; 0 (the default) is frictionless and the ball never
    /// spins from a contact. A pair of balls uses `√(μ_a·μ_b)` (Box2D's mixing rule), so a
    /// frictionless ball slides on any other; against a box wall or a segment the ball's own
    /// coefficient applies.
    pub friction: f32,
    /// Rolling resistance coefficient, ≥ 0 (default 0): resting contacts (with gravity) brake
    /// the ball's rolling with a torque of up to this times the contact's normal force times
    /// the ball's radius, as a soft ball or a tyre loses energy rolling; a ball rolling on a
    /// floor then slows at `⅔ c g`. It acts through friction (the rim must grip). A pair of
    /// balls uses the larger of the two; a wall or a segment the ball's own.
    pub rolling_resistance: f32,
    /// Angular velocity (radians per second, counter-clockwise positive). Contacts with
    /// friction change it, through the moment of inertia of a solid disc, `½ m r²`.
    pub angular_velocity: f32,
    /// Orientation (radians, counter-clockwise), advanced by `angular_velocity · dt` each step
    /// and kept within `[−π, π]`; it changes nothing in the dynamics (a disc is round), but
    /// shows a rolling ball turn.
    pub angle: f32,
}

impl Ball {
    /// A perfectly elastic ball of unit areal density (`mass = π r²`).
    pub fn new(position: Vec2, velocity: Vec2, radius: f32) -> Ball {
        Ball::with_mass(position, velocity, radius, std::f32::consts::PI * radius * radius)
    }

    /// The same ball with Coulomb friction coefficient `friction` (see [`Ball::friction`]).
    pub fn with_friction(self, friction: f32) -> Ball {
        Ball { friction, ..self }
    }

    /// A kinematic ball: infinite mass, so it moves only as its velocity says (set it, e.g.
    /// from the mouse, with [`crate::physics::World::set_ball_velocity`]) and pushes the balls
    /// it meets without being pushed back — a paddle, a pusher, a moving pillar. It passes
    /// through box walls, segments and other kinematic balls, is not damped, and is left out
    /// of [`crate::physics::World::momentum`] and
    /// [`crate::physics::World::kinetic_energy`]. Balls bounce off it as off a moving wall,
    /// their velocity relative to it reflected with the pair's restitution (the larger of the
    /// two, as for any pair; this constructor's is 1).
    pub fn kinematic(position: Vec2, velocity: Vec2, radius: f32) -> Ball {
        Ball::with_mass(position, velocity, radius, f32::INFINITY)
    }

    /// An elastic, frictionless ball that does not spin, of mass `mass`.
    fn with_mass(position: Vec2, velocity: Vec2, radius: f32, mass: f32) -> Ball {
        Ball {
            position,
            velocity,
            radius,
            mass,
            restitution: 1.0,
            friction: 0.0,
            rolling_resistance: 0.0,
            angular_velocity: 0.0,
            angle: 0.0,
        }
    }

    /// The same ball with rolling resistance coefficient `rolling_resistance` (see
    /// [`Ball::rolling_resistance`]).
    pub fn with_rolling_resistance(self, rolling_resistance: f32) -> Ball {
        Ball { rolling_resistance, ..self }
    }

    /// Whether the ball is kinematic (infinite mass).
    pub fn is_kinematic(&self) -> bool {
        self.mass == f32::INFINITY
    }
}

/// Identifies a ball of a [`crate::physics::World`] for its whole life: ids are handed out in
/// insertion order and never reused after a ball is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BallId(pub u32);
