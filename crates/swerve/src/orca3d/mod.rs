//! ORCA in three dimensions: RVO2-3D's crowd of spheres, reproduced bit for bit.
//!
//! The same reciprocal avoidance as [`crate::orca`], one dimension up, for drones, fish,
//! spacecraft and flying units: each agent keeps a permitted half-space of velocities (an
//! ORCA [`Plane`]) per neighbour and takes the velocity nearest its preferred one inside its
//! max-speed sphere and every plane, or, when the planes conflict, the one that breaks the
//! worst of them least.
//!
//! * [`Simulator`] — the crowd; RVO2-3D's `RVOSimulator` (same parameters, same neighbour
//!   order, same `f32` results), stepped in parallel with identical results for any thread
//!   count, with agents that can be removed.
//! * [`Extensions`] — opt-in, off by default: [`SymmetryBreaking`] (agents meeting head-on
//!   pass on the right of an up direction instead of stalling, as RVO2-3D's do), a "safe mode"
//!   against the overlaps of dense crowds ([`OverlapResolution`]) and a strict speed limit.
//! * **Static obstacles**, beyond RVO2-3D (which has none): triangle meshes and boxes
//!   ([`Simulator::add_obstacle`], [`Simulator::add_box_obstacle`]) that every agent keeps
//!   clear of by one hard plane per nearby triangle — the plane through the triangle's point
//!   nearest the agent, which the agent may not reach within its obstacle time horizon
//!   ([`Simulator::set_agent_obstacle_time_horizon`]). Exact against a wall, conservative at
//!   edges and corners; kept by the fallback program as RVO2 keeps its planar obstacle lines,
//!   so an agent that starts clear of the obstacles stays clear of them.
//! * [`constraints`] — the plane one neighbour imposes; [`linear_program`] — the programs
//!   on a line, a plane, in space, and the least-violation fallback; [`kdtree`] — RVO2-3D's
//!   neighbour tree; [`grid`] — the grid that answers the queries without distance ties
//!   (most of them) with the tree's result.
//!
//! Exactness is tested against RVO2-3D itself (the `rvo23d` Python module of the
//! `jt-pyrvo23d` package) by the Python suite, and against a recording of it by
//! `tests/orca3d.rs`.

pub mod constraints;
mod extensions;
pub mod grid;
pub mod kdtree;
pub mod linear_program;
mod obstacles;
mod plane;
mod simulator;
mod symmetry;

pub use crate::orca::{MoverId, ObstacleId};
pub use crate::physics3d::Triangle;
pub use extensions::{Extensions, Mover, OverlapResolution, SymmetryBreaking};
pub use glam::Vec3;
pub use plane::Plane;
pub use simulator::{AgentParams, Simulator};
