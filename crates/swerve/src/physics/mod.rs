//! Rigid-ball physics: discs with mass that bounce off each other, off the walls of a box and
//! off static segments and polygons.
//!
//! This is seed 003 (二维刚体小球碰撞检测与响应) done properly:
//!
//! * **Response** ([`response`]): the seed's §2.4 elastic formula, written as an impulse along
//!   the contact normal with real masses and a restitution `e` (`e = 1` reproduces the seed's
//!   velocities exactly). Unlike the seed it only acts when the balls *approach* (the seed
//!   re-applies the formula every frame two balls overlap, which makes them stick and jitter),
//!   and overlaps are removed by a mass-weighted position correction.
//! * **Narrow phase** ([`narrow_phase`]): circle–circle and circle–segment distance tests.
//! * **Continuous collision** ([`time_of_impact`]): collisions of pairs that move fast relative
//!   to their size, and of balls against segments, are found at their exact time of impact and
//!   processed in time order, so a ball fast enough to cross a thin wall or another ball within
//!   one step cannot tunnel (seed §6.3.3); slow pairs, which cannot, are resolved discretely.
//! * **Broad phases** ([`broad_phase`]): the seed's §3.2 family — brute force, sort-and-sweep,
//!   uniform grid, hierarchical grid, grid + sort-and-sweep, quadtree — plus Box2D's dynamic
//!   AABB tree, all behind one trait whose contract is "a superset of the overlapping pairs",
//!   selectable at run time with [`BroadPhaseKind`].
//! * **Gravity and resting contacts** ([`World::set_gravity`]): with gravity on, the touching
//!   contacts of each step are solved together by sequential impulses (projected Gauss–Seidel,
//!   warm-started), so piles and stacks come to rest instead of sinking into each other.
//! * **Contact events** ([`contact`]): on request, the step's collisions with their time of
//!   impact, impulse and normal, for code that reacts to hits.
//!
//! Units: metres, seconds and kilograms; state is `f32` like the rest of the library, with an
//! `f32` residual per velocity so that energy and momentum are conserved to `f64` precision
//! (see [`World`]).

pub mod ball;
pub mod broad_phase;
pub mod contact;
pub mod narrow_phase;
pub mod query;
pub mod response;
mod resting;
pub mod scene;
mod segment_grid;
pub mod time_of_impact;
pub mod world;

pub use ball::{Ball, BallId};
pub use broad_phase::{BroadPhase, BroadPhaseDebug, BroadPhaseKind, DebugBoxKind, DebugLayer};
pub use contact::{BoxWall, Collider, Contact};
pub use query::RayHit;
pub use world::{Segment, StepStats, World};
