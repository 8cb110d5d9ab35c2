//! Rigid-ball physics in three dimensions: spheres with mass that bounce off each other and
//! off the walls of a box.
//!
//! Seed 003 §6.1 says that going from two dimensions to three is mostly a third coordinate:
//! every per-axis operation runs once more for z, grids gain a third index, and the quadtree
//! becomes an octree. This module is the planar [`crate::physics`] world's core done that way:
//!
//! * **Response**: the elastic impulse along the contact normal with real masses and a
//!   restitution `e`, acting only on approaching pairs, and a mass-weighted position
//!   correction for overlaps.
//! * **Continuous collision** ([`time_of_impact`]): pairs that move fast relative to their size
//!   are collided at their exact time of impact, in time order, so that fast spheres cannot
//!   pass through each other (seed §6.3.3).
//! * **Broad phases** ([`broad_phase`]): brute force, sort-and-sweep, a uniform grid, a
//!   hierarchical grid and a loose octree, behind one trait and selectable at run time.
//! * **Precision**: `f32` state with an `f32` residual per velocity, so that momentum and
//!   energy are conserved to `f64` precision, as in the planar world.
//! * **Gravity and resting contacts** ([`World::set_gravity`]): the touching contacts of each
//!   step are solved together by sequential impulses, warm-started, so that piles come to
//!   rest.
//! * **Friction and spin** ([`Sphere::friction`], [`Sphere::angular_velocity`]): Coulomb
//!   friction at impacts, wall bounces and resting contacts turns solid spheres
//!   (`I = 2/5 m r²`), so a sphere set sliding ends up rolling.
//!
//! * **Substeps** ([`World::set_substeps`]): deep piles hold with shorter steps.
//! * **Static triangles** ([`World::add_triangle`], [`World::add_mesh`]): ramps, funnels and
//!   closed meshes, the 3-D counterpart of the planar world's segments; found near each
//!   sphere by a grid over the triangles, hit at their time of impact, held by the resting
//!   solver.
//!
//! * **Queries** ([`World::spheres_in_ball`], [`World::sphere_at`], [`World::cast_ray`]):
//!   picking, line of sight, a shot, between steps.
//!
//! * **Rolling resistance** ([`Sphere::rolling_resistance`]): a resting contact's third row
//!   brakes rolling, so a rough sphere rolling on a floor slows at `5/7 · c · g`.
//!
//! * **Contact events** ([`World::set_record_contacts`], [`World::contacts`]): each step's
//!   collisions, one [`Contact`] per touching pair, with their impulses.

mod aabb;
pub mod broad_phase;
mod contact;
mod friction;
pub(crate) mod query;
mod resting;
pub mod scene;
mod sphere;
pub mod time_of_impact;
mod triangle;
pub(crate) mod triangle_grid;
mod world;

pub use crate::physics::StepStats;
pub use aabb::Aabb3;
pub use broad_phase::BroadPhaseKind;
pub use contact::{BoxWall, Collider, Contact};
pub use glam::Vec3;
pub use query::RayHit;
pub(crate) use sphere::sphere_volume;
pub use sphere::{Sphere, SphereId};
pub use triangle::Triangle;
pub use world::World;
