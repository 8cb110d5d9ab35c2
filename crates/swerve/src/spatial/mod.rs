//! Spatial indexes.
//!
//! * [`AgentKdTree`] — RVO2's k-d tree over agent positions, rebuilt every step, answering
//!   "the k nearest agents within a radius, nearest first" with RVO2's exact tie order.
//! * [`ObstacleTree`] — RVO2's binary space partition over obstacle edges, built once; it
//!   answers range queries (which edges are near an agent) and visibility queries.
//! * [`NeighborGrid`] and [`ObstacleGrid`] — uniform grids that answer the same neighbour
//!   queries as the two trees faster, and say when equal distances leave the order to the
//!   tree.
//! * `PolygonGrid` — a uniform grid over obstacle outlines for the scenario tools' questions
//!   (which edges are near a point, which solid polygon holds it), answered as a pass over
//!   every outline would answer them.
//!
//! The trees have a brute-force twin in their tests and an `assert_well_formed` check; the
//! grids are tested against the trees.

mod agent_kdtree;
mod nearest_keys;
mod neighbor_grid;
mod obstacle_grid;
mod obstacle_tree;
mod polygon_grid;
pub(crate) mod stack_room;

pub(crate) use agent_kdtree::partition;
#[cfg(test)]
pub(crate) use agent_kdtree::partition_as_rvo2;
pub use agent_kdtree::{nearest_brute_force, AgentKdTree, Neighbor, MAX_LEAF_SIZE};
pub(crate) use nearest_keys::{compact, key, key_room, nearest_first, Compacted, Ranked};
#[cfg(test)]
pub(crate) use neighbor_grid::StagingRule;
pub(crate) use neighbor_grid::{scattered, QueryScratch, ANSWER_ROOM};
pub use neighbor_grid::{GridQuery, NeighborGrid, Staged};
pub use obstacle_grid::ObstacleGrid;
pub use obstacle_tree::{ObstacleTree, ObstacleVertex};
pub(crate) use polygon_grid::PolygonGrid;

/// Which agents a neighbour query may return: those whose avoidance layers share a bit with
/// the querying agent's mask (Godot's `avoidance_layers` / `avoidance_mask`). The query is
/// then RVO2's over those agents alone: the nearest `max_count` of them, ties in the tree's
/// visiting order.
#[derive(Clone, Copy, Debug)]
pub struct LayerFilter<'a> {
    /// Every agent's layers, by agent index.
    pub layers: &'a [u32],
    /// The querying agent's mask.
    pub mask: u32,
}

impl LayerFilter<'_> {
    /// Whether agent `index` may be returned.
    #[inline(always)]
    pub fn accepts(&self, index: u32) -> bool {
        self.layers[index as usize] & self.mask != 0
    }
}

/// The tight box `(min, max)` of `points` (not empty), two points per SIMD vector. The
/// smallest and the largest coordinate do not depend on the order the points are seen in (up
/// to the sign of zeros, which no later computation can tell apart), so this is the box RVO2
/// computes point by point.
pub(crate) fn bounding_box(points: &[glam::Vec2]) -> (glam::Vec2, glam::Vec2) {
    use glam::Vec2;
    use wide::f32x4;
    let pairs = points.chunks_exact(2);
    let odd = pairs.remainder();
    let first = points[0];
    let start = f32x4::new([first.x, first.y, first.x, first.y]);
    let (min, max) = pairs.fold((start, start), |(min, max), pair| {
        let both = f32x4::new([pair[0].x, pair[0].y, pair[1].x, pair[1].y]);
        (min.fast_min(both), max.fast_max(both))
    });
    let (min, max) = (min.to_array(), max.to_array());
    let (mut min, mut max) =
        (Vec2::new(min[0].min(min[2]), min[1].min(min[3])), Vec2::new(max[0].max(max[2]), max[1].max(max[3])));
    if let Some(&p) = odd.first() {
        (min, max) = (min.min(p), max.max(p));
    }
    (min, max)
}
