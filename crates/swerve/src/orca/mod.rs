//! ORCA — Optimal Reciprocal Collision Avoidance (van den Berg, Guy, Lin & Manocha,
//! *Reciprocal n-Body Collision Avoidance*, ISRR 2009), as implemented by RVO2 2.0.
//!
//! One [`Simulator::step`] does, for every agent and using only the state at the start of the
//! step:
//!
//! 1. find the obstacle edges within `time_horizon_obst * max_speed + radius` and the
//!    `max_neighbors` nearest agents within `neighbor_dist` ([`crate::spatial`]);
//! 2. turn each into a [`crate::HalfPlane`] of permitted velocities
//!    ([`constraints`]: obstacles first, then agents, each agent taking half of the avoidance);
//! 3. pick the velocity nearest the preferred one inside all half-planes and the max-speed disc,
//!    or, if none exists, the one that least violates the agent half-planes while keeping the
//!    obstacle ones ([`linear_program`]);
//!
//! and then moves every agent by its new velocity times the time step.
//!
//! Obstacle convention (RVO2's): a polygon whose vertices are listed **counter-clockwise** is a
//! solid obstacle that agents stay outside of; listed **clockwise** it is a boundary that
//! encloses the agents (they stay inside). A two-vertex obstacle is a thin wall seen from its
//! right-hand side only... and from both sides in practice, since its ring holds both edges.

pub(crate) mod avoidance_layers;
pub mod constraints;
pub(crate) mod extensions;
pub mod linear_program;
mod params;
mod simulator;

pub use avoidance_layers::{DEFAULT_AVOIDANCE_LAYERS, DEFAULT_AVOIDANCE_MASK};
pub use extensions::{Extensions, Mover, MoverId, OverlapResolution, SymmetryBreaking};
pub use linear_program::LpOutcome;
pub use params::AgentParams;
pub use simulator::{AgentId, ObstacleId, Simulator};
