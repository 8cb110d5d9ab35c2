//! # swerve
//!
//! Many moving discs that must not collide.
//!
//! * [`orca`] — ORCA / RVO2 crowd avoidance that reproduces RVO2 2.0 bit for bit
//!   (same `f32` results), with parallel deterministic stepping and stable agent ids.
//! * [`orca3d`] — the same in three dimensions: RVO2-3D's crowd of spheres, bit for bit.
//! * [`geom`] — the small amount of planar geometry both halves share.
//! * [`spatial`] — the spatial indexes: RVO2's agent k-d tree and obstacle BSP tree.
//! * [`instruction_set`] — the ORCA step's hot loops compiled for the target's baseline and
//!   again for AVX2, picked at run time (same bits either way).
//! * [`physics`] — rigid-ball physics: elastic response, continuous collision and seven
//!   interchangeable broad phases (seed 003).
//! * [`physics3d`] — the same in three dimensions: spheres, continuous collision and five
//!   broad phases (seed 003 §6.1), octree included.
//! * [`reference`](mod@reference) — loading and replaying RVO2 recordings (the conformance check).
//! * [`scenario`] — scenario files, built-in scenes, the [`scenario::Runner`] and trajectory
//!   formats; [`navigation`] — the visibility roadmap; [`navigation3d`] — its 3-D
//!   counterpart around boxes; [`metrics`] — run metrics.
//!
//! Units are metres and seconds throughout; every number is `f32` like RVO2's.
#![warn(missing_docs)]

pub mod error;
pub mod geom;
pub mod instruction_set;
pub mod metrics;
pub mod navigation;
pub mod navigation3d;
pub mod orca;
pub mod orca3d;
pub mod physics;
pub mod physics3d;
pub mod reference;
pub mod scenario;
pub mod spatial;

pub use error::Error;
pub use geom::{HalfPlane, Vec2};
pub use instruction_set::InstructionSet;
pub use orca::{AgentId, AgentParams, ObstacleId, Simulator};
