//! Spatial indexes.
//!
//! * [`AgentKdTree`] — RVO2's k-d tree over agent positions, rebuilt every step, answering
//!   "the k nearest agents within a radius, nearest first" with RVO2's exact tie order.
//! * [`ObstacleTree`] — RVO2's binary space partition over obstacle edges, built once; it
//!   answers range queries (which edges are near an agent) and visibility queries.
//!
//! Both have a brute-force twin in their tests and an `assert_well_formed` check.

mod agent_kdtree;
mod neighbor_grid;
mod obstacle_tree;
mod stack_room;

pub use agent_kdtree::{nearest_brute_force, AgentKdTree, Neighbor, MAX_LEAF_SIZE};
pub use neighbor_grid::{GridQuery, NeighborGrid};
pub use obstacle_tree::{ObstacleTree, ObstacleVertex};
