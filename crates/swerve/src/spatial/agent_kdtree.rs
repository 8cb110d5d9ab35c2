//! RVO2's agent k-d tree.
//!
//! The tree is rebuilt from scratch every step, but — as in RVO2's `KdTree::buildAgentTree` —
//! it partitions the *previous step's permutation* of the agents rather than the insertion
//! order. Which of two equally distant agents comes first in a neighbour list depends on that
//! permutation, and the neighbour order changes the ORCA result, so bit-exactness with RVO2
//! requires keeping it (seed 004, "KdTree").

use super::stack_room::{with_room, with_room_now};
use super::{bounding_box, LayerFilter};
use crate::geom::exact::cpp_max;
use glam::Vec2;

/// Leaves hold at most this many agents (RVO2's `MAX_LEAF_SIZE`).
pub const MAX_LEAF_SIZE: usize = 10;

/// One neighbour found by a query: squared distance and the agent's index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbor {
    /// Squared distance from the query point (m²).
    pub distance_squared: f32,
    /// Index of the agent in the slice given to [`AgentKdTree::rebuild`].
    pub index: u32,
}

/// A node of the tree: its agents are `order[begin..end]`, in the box `min`..`max`. An inner
/// node's left child is the next node and holds `begin..middle`; its right child, node
/// `right`, holds `middle..end`.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    begin: u32,
    end: u32,
    middle: u32,
    right: u32,
    min: Vec2,
    max: Vec2,
}

/// A k-d tree over agent positions with RVO2's build and query order.
#[derive(Clone, Debug, Default)]
pub struct AgentKdTree {
    /// Agent indices in tree order; kept from one rebuild to the next.
    order: Vec<u32>,
    /// Positions in tree order (`points[i]` is the position of agent `order[i]`).
    points: Vec<Vec2>,
    /// Each agent's place in tree order (the inverse of `order`), when indexed since the last
    /// rebuild (empty otherwise); see [`AgentKdTree::index_places`].
    places: Vec<u32>,
    nodes: Vec<Node>,
}

impl AgentKdTree {
    /// An empty tree.
    pub fn new() -> AgentKdTree {
        AgentKdTree::default()
    }

    /// The number of agents indexed.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no agent is indexed.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Rebuilds the tree over `positions` (indexed by agent index).
    ///
    /// Agents beyond the previous length are appended to the permutation in index order,
    /// as RVO2 appends newly added agents. Allocates only when the agent count grew.
    pub fn rebuild(&mut self, positions: &[Vec2]) {
        let n = positions.len();
        debug_assert!(self.order.len() <= n, "call `remove` before shrinking");
        // `n` fits in u32: the simulator refuses more than u32::MAX agents.
        for index in self.order.len()..n {
            self.order.push(index as u32);
        }
        self.points.clear();
        self.points.extend(self.order.iter().map(|&i| positions[i as usize]));
        if n == 0 {
            self.nodes.clear();
            self.places.clear();
            return;
        }
        self.nodes.resize(2 * n - 1, Node::default());
        self.build();
        self.places.clear();
    }

    /// Notes each agent's place in the tree, which [`AgentKdTree::visits_before`] needs (a
    /// pass over the agents: worth it when many queries will ask).
    pub fn index_places(&mut self) {
        self.places.resize(self.order.len(), 0);
        for (place, &agent) in self.order.iter().enumerate() {
            self.places[agent as usize] = place as u32;
        }
    }

    /// Forgets agent `index` and renumbers the agents above it down by one, keeping the
    /// relative tree order of the others (used when an agent is removed).
    pub fn remove(&mut self, index: u32) {
        self.order.retain(|&i| i != index);
        for i in &mut self.order {
            if *i > index {
                *i -= 1;
            }
        }
        self.points.clear();
        self.nodes.clear();
        self.places.clear();
    }

    fn build(&mut self) {
        let n = self.points.len();
        let bounds = bounds_of(&self.points);
        build_subtree(&mut self.nodes, 0, &mut self.points, &mut self.order, 0, bounds, 0);
        debug_assert_eq!(self.nodes.len(), 2 * n - 1);
    }

    /// Collects into `out` the at most `max_count` agents nearest to `center` with squared
    /// distance `< range_squared`, nearest first, skipping agent `exclude`.
    ///
    /// Ties keep tree-visit order, and once `max_count` neighbours are held the range shrinks
    /// to the farthest of them, exactly as RVO2's `computeAgentNeighbors` and
    /// `insertAgentNeighbor`. `out` is cleared first; it does not allocate when its capacity
    /// is at least `max_count`.
    pub fn nearest(&self, center: Vec2, exclude: u32, range_squared: f32, max_count: usize, out: &mut Vec<Neighbor>) {
        out.clear();
        if max_count == 0 || self.nodes.is_empty() {
            return;
        }
        let mut range_squared = range_squared;
        self.query_recursive(center, exclude, &|_| true, &mut range_squared, max_count, out, 0, 0);
    }

    /// [`AgentKdTree::nearest`] over the agents `filter` accepts: the agents it refuses are
    /// passed over as if absent, so the range shrinks only for accepted ones (what Godot's
    /// RVO2 does with avoidance masks).
    pub fn nearest_filtered(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        filter: LayerFilter<'_>,
        out: &mut Vec<Neighbor>,
    ) {
        out.clear();
        if max_count == 0 || self.nodes.is_empty() {
            return;
        }
        let mut range_squared = range_squared;
        let accept = |index: u32| filter.accepts(index);
        self.query_recursive(center, exclude, &accept, &mut range_squared, max_count, out, 0, 0);
    }

    /// RVO2's `queryAgentTreeRecursive` at `node` (at `depth` in the tree): a leaf's agents are
    /// offered to the list; an inner node's nearer child is visited first (the right one when
    /// both boxes are equally far), the farther one afterwards if its box is still within the
    /// range, which the nearer subtree may have shrunk.
    #[allow(clippy::too_many_arguments)]
    fn query_recursive(
        &self,
        center: Vec2,
        exclude: u32,
        accept: &impl Fn(u32) -> bool,
        range_squared: &mut f32,
        max_count: usize,
        out: &mut Vec<Neighbor>,
        node: usize,
        depth: u32,
    ) {
        let n = &self.nodes[node];
        if (n.end - n.begin) as usize <= MAX_LEAF_SIZE {
            for i in n.begin as usize..n.end as usize {
                let index = self.order[i];
                if index != exclude && accept(index) {
                    let d = center - self.points[i];
                    let distance_squared = crate::geom::exact::length_squared(d);
                    insert_neighbor(out, Neighbor { distance_squared, index }, range_squared, max_count);
                }
            }
            return;
        }
        let (left, right) = (node + 1, n.right as usize);
        let distance_left = self.box_distance_squared(left, center);
        let distance_right = self.box_distance_squared(right, center);
        let mut visit = |child: usize, range_squared: &mut f32| {
            with_room(depth, || {
                self.query_recursive(center, exclude, accept, range_squared, max_count, out, child, depth + 1)
            })
        };
        if distance_left < distance_right {
            if distance_left < *range_squared {
                visit(left, range_squared);
                if distance_right < *range_squared {
                    visit(right, range_squared);
                }
            }
        } else if distance_right < *range_squared {
            visit(right, range_squared);
            if distance_left < *range_squared {
                visit(left, range_squared);
            }
        }
    }

    /// Whether a query from `center` offers agent `a` to its neighbour list before agent `b`
    /// (two different agents of the last rebuild), or `None` when the tree's places were not
    /// indexed since ([`AgentKdTree::index_places`]).
    ///
    /// For agents at equal distances this is the order of RVO2's answer, which keeps the first
    /// one offered: the query is a depth-first walk, nearer child first, and pruning by the
    /// shrinking range only leaves subtrees out, never reorders them (and whatever it leaves
    /// out is no nearer than what the list holds). So the two agents are offered in the order
    /// of the children they part at, or of their places in their common leaf. Costs one walk
    /// down to where they part (a node per level), instead of a whole query.
    pub fn visits_before(&self, center: Vec2, a: u32, b: u32) -> Option<bool> {
        let (a, b) = (*self.places.get(a as usize)?, *self.places.get(b as usize)?);
        if self.nodes.is_empty() {
            return None;
        }
        let mut node = 0;
        loop {
            let n = &self.nodes[node];
            if (n.end - n.begin) as usize <= MAX_LEAF_SIZE {
                return Some(a < b);
            }
            let (left, right) = (node + 1, n.right as usize);
            let (a_left, b_left) = (a < n.middle, b < n.middle);
            if a_left != b_left {
                // The nearer child first, the right one when both are equally far.
                let left_first = self.box_distance_squared(left, center) < self.box_distance_squared(right, center);
                return Some(a_left == left_first);
            }
            node = if a_left { left } else { right };
        }
    }

    /// Squared distance from `p` to node's box, summed in RVO2's order.
    #[inline(always)]
    fn box_distance_squared(&self, node: usize, p: Vec2) -> f32 {
        let n = &self.nodes[node];
        let sqr = |x: f32| x * x;
        sqr(cpp_max(0.0, n.min.x - p.x))
            + sqr(cpp_max(0.0, p.x - n.max.x))
            + sqr(cpp_max(0.0, n.min.y - p.y))
            + sqr(cpp_max(0.0, p.y - n.max.y))
    }

    /// Panics unless the tree is consistent: the permutation holds every index once, each
    /// node's box is the tight box of its points, children partition their parent, and leaves
    /// are small. For tests.
    pub fn assert_well_formed(&self) {
        let n = self.order.len();
        let mut seen = vec![false; n];
        for &i in &self.order {
            assert!((i as usize) < n && !seen[i as usize], "permutation broken at {i}");
            seen[i as usize] = true;
        }
        if n == 0 || self.nodes.is_empty() {
            return;
        }
        assert_eq!(self.points.len(), n);
        self.check_node(0, 0, n);
    }

    fn check_node(&self, node: usize, begin: usize, end: usize) {
        let nd = &self.nodes[node];
        assert_eq!((nd.begin as usize, nd.end as usize), (begin, end), "node {node} range");
        assert!(end > begin, "empty node {node}");
        let points = &self.points[begin..end];
        let min_x = points.iter().map(|p| p.x).fold(f32::INFINITY, f32::min);
        let max_x = points.iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max);
        let min_y = points.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let max_y = points.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
        assert!(nd.min.x == min_x && nd.max.x == max_x && nd.min.y == min_y && nd.max.y == max_y);
        if end - begin > MAX_LEAF_SIZE {
            let left_end = nd.middle as usize;
            assert!(left_end > begin && left_end < end, "node {node} split");
            self.check_node(node + 1, begin, left_end);
            self.check_node(nd.right as usize, left_end, end);
        }
    }
}

/// A node's bounding box.
#[derive(Clone, Copy)]
struct Bounds {
    min: Vec2,
    max: Vec2,
}

/// Subtrees at least this large are built in parallel (the two halves own disjoint nodes and
/// points, so the result does not depend on the thread count).
const PARALLEL_SUBTREE: usize = 8192;

/// Builds the subtree over `points`/`order` (the node's agents) into `nodes`, whose first
/// element is the subtree's root, node number `base` of the whole tree; `offset` is the index
/// of `points[0]` in the whole tree's arrays; `bounds` is the tight box of `points`; `depth`
/// is the subtree root's depth in the whole tree. Returns how many of `nodes` it spans.
///
/// RVO2's `buildAgentTreeRecursive`: a leaf holds at most [`MAX_LEAF_SIZE`] agents; otherwise
/// the box's longer side is split at its midpoint by a Hoare-style partition, the left child
/// is the next node and the right child follows the left subtree. (RVO2 leaves room for
/// `2·left_size − 1` nodes there; numbering them differently changes no query, which follows
/// the links.) The children's boxes are computed after the partition by a SIMD pass over each
/// side ([`bounds_of`]), which costs less than growing two boxes point by point inside the
/// partition's branchy loop.
fn build_subtree(
    nodes: &mut [Node],
    base: usize,
    points: &mut [Vec2],
    order: &mut [u32],
    offset: usize,
    bounds: Bounds,
    depth: u32,
) -> usize {
    let count = points.len();
    let Bounds { min, max } = bounds;
    nodes[0] = Node { begin: offset as u32, end: (offset + count) as u32, middle: 0, right: 0, min, max };
    if count <= MAX_LEAF_SIZE {
        return 1;
    }
    let vertical = max.x - min.x > max.y - min.y;
    let split = if vertical { 0.5 * (max.x + min.x) } else { 0.5 * (max.y + min.y) };
    let left =
        if vertical { partition(points, order, split, |p| p.x) } else { partition(points, order, split, |p| p.y) };
    // Every point on the right side of the split (only when all keys equal the split value):
    // RVO2 moves the first one to the left anyway.
    let left = left.max(1);
    let (left_bounds, right_bounds) = (bounds_of(&points[..left]), bounds_of(&points[left..]));
    let (left_points, right_points) = points.split_at_mut(left);
    let (left_order, right_order) = order.split_at_mut(left);
    nodes[0].middle = (offset + left) as u32;
    if count >= PARALLEL_SUBTREE {
        // The halves are built at once, so the right one starts after the most nodes the left
        // one can need (2 · left − 1), leaving a gap; with stack room at every parallel level,
        // whose children may run on either thread (see `stack_room`).
        let left_nodes = 2 * left - 1;
        let right_base = base + 1 + left_nodes;
        nodes[0].right = right_base as u32;
        let (left_tree, right_tree) = nodes[1..].split_at_mut(left_nodes);
        let build_left =
            move || build_subtree(left_tree, base + 1, left_points, left_order, offset, left_bounds, depth + 1);
        let build_right = move || {
            build_subtree(right_tree, right_base, right_points, right_order, offset + left, right_bounds, depth + 1)
        };
        let (_, right_used) = rayon::join(|| with_room_now(build_left), || with_room_now(build_right));
        1 + left_nodes + right_used
    } else {
        // One after the other: the right subtree's nodes follow the left one's, so that a
        // subtree's nodes are contiguous (the build writes about half as many cache lines).
        let rest = &mut nodes[1..];
        let left_used =
            with_room(depth, || build_subtree(rest, base + 1, left_points, left_order, offset, left_bounds, depth + 1));
        let right_base = base + 1 + left_used;
        let right_nodes = &mut rest[left_used..];
        let right_used = with_room(depth, || {
            build_subtree(right_nodes, right_base, right_points, right_order, offset + left, right_bounds, depth + 1)
        });
        nodes[0].right = right_base as u32;
        1 + left_used + right_used
    }
}

/// RVO2's partition loop around `split` on `key`; returns the left side's length. (Also
/// RVO2-3D's, whose tree builds with it over 3-D points.)
#[inline(always)]
pub(crate) fn partition<P: Copy>(points: &mut [P], order: &mut [u32], split: f32, key: impl Fn(P) -> f32) -> usize {
    // RVO2's two walks, as searches over the unsorted middle (no bounds checks): from the
    // left past every key below the split, from the right past every key at or above it.
    let below = |p: &P| key(*p) < split;
    let at_or_above = |p: &P| key(*p) >= split;
    let mut left = 0;
    let mut right = points.len();
    while left < right {
        let middle = &points[left..right];
        left += middle.iter().position(|p| !below(p)).unwrap_or(middle.len());
        let middle = &points[left..right];
        right = left + middle.iter().rposition(|p| !at_or_above(p)).map_or(0, |last| last + 1);
        if left < right {
            points.swap(left, right - 1);
            order.swap(left, right - 1);
            left += 1;
            right -= 1;
        }
    }
    left
}

/// The tight box of `points` (not empty): RVO2's box (see [`bounding_box`]).
fn bounds_of(points: &[Vec2]) -> Bounds {
    let (min, max) = bounding_box(points);
    Bounds { min, max }
}

/// RVO2's `insertAgentNeighbor`: keep `out` sorted by distance (ties: first come first),
/// hold at most `max_count`, and shrink the search range once full.
#[inline(always)]
fn insert_neighbor(out: &mut Vec<Neighbor>, candidate: Neighbor, range_squared: &mut f32, max_count: usize) {
    if candidate.distance_squared >= *range_squared {
        return;
    }
    if out.len() < max_count {
        out.push(candidate);
    }
    let mut i = out.len() - 1;
    while i != 0 && candidate.distance_squared < out[i - 1].distance_squared {
        out[i] = out[i - 1];
        i -= 1;
    }
    out[i] = candidate;
    if out.len() == max_count {
        *range_squared = out[out.len() - 1].distance_squared;
    }
}

/// The brute-force oracle for [`AgentKdTree::nearest`]: every agent in range, sorted by
/// distance then index, cut to `max_count`. Used by tests.
pub fn nearest_brute_force(
    positions: &[Vec2],
    center: Vec2,
    exclude: u32,
    range_squared: f32,
    max_count: usize,
) -> Vec<Neighbor> {
    let mut all: Vec<Neighbor> = positions
        .iter()
        .enumerate()
        .filter(|&(i, _)| i as u32 != exclude)
        .map(|(i, p)| Neighbor { distance_squared: crate::geom::exact::length_squared(center - *p), index: i as u32 })
        .filter(|n| n.distance_squared < range_squared)
        .collect();
    all.sort_by(|a, b| a.distance_squared.total_cmp(&b.distance_squared).then(a.index.cmp(&b.index)));
    all.truncate(max_count);
    all
}

/// RVO2's partition loop as RVO2 (and RVO2-3D) write it in `buildAgentTreeRecursive`: two
/// indices walking inwards, swapping when both stop, so that the points below `split` along
/// `axis` end up on the left. Returns how many did; `order` is permuted alongside. The trees
/// build with faster partitions that give the same permutation: the oracle of their tests.
#[cfg(test)]
pub(crate) fn partition_as_rvo2<P: std::ops::Index<usize, Output = f32>>(
    points: &mut [P],
    order: &mut [u32],
    split: f32,
    axis: usize,
) -> usize {
    let (mut left, mut right) = (0, points.len());
    while left < right {
        while left < right && points[left][axis] < split {
            left += 1;
        }
        while right > left && points[right - 1][axis] >= split {
            right -= 1;
        }
        if left < right {
            points.swap(left, right - 1);
            order.swap(left, right - 1);
            left += 1;
            right -= 1;
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn positions_strategy() -> impl Strategy<Value = Vec<Vec2>> {
        prop::collection::vec((-50.0f32..50.0, -50.0f32..50.0).prop_map(|(x, y)| Vec2::new(x, y)), 0..200)
    }

    /// Checks a tree answer against the brute-force one. Equal distances may come in either
    /// order (the tree's visit order decides, by design), and when several agents tie at the
    /// cut-off only some of them fit: so the distances must agree exactly, each group of equal
    /// distances must hold the same agents, and in the last group the tree's agents must be
    /// among the candidates at that distance.
    fn assert_same_answer(tree: &[Neighbor], positions: &[Vec2], center: Vec2, exclude: u32, range_squared: f32) {
        let everything = nearest_brute_force(positions, center, exclude, range_squared, usize::MAX);
        let expected: Vec<f32> = everything.iter().take(tree.len()).map(|n| n.distance_squared).collect();
        let got: Vec<f32> = tree.iter().map(|n| n.distance_squared).collect();
        assert_eq!(got, expected, "distances differ");
        let mut start = 0;
        while start < tree.len() {
            let d = tree[start].distance_squared;
            let end = start + tree[start..].iter().take_while(|n| n.distance_squared == d).count();
            let mut mine: Vec<u32> = tree[start..end].iter().map(|n| n.index).collect();
            let mut theirs: Vec<u32> = everything.iter().filter(|n| n.distance_squared == d).map(|n| n.index).collect();
            mine.sort_unstable();
            theirs.sort_unstable();
            if end < tree.len() {
                assert_eq!(mine, theirs, "agents at distance² {d} differ");
            } else {
                assert!(mine.iter().all(|i| theirs.contains(i)), "agents at distance² {d} not candidates");
            }
            start = end;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The same neighbours in the same distance order as a linear scan.
        #[test]
        fn nearest_equals_linear_scan(
            positions in positions_strategy(),
            moved in positions_strategy(),
            range in 0.0f32..40.0,
            max_count in 0usize..20,
        ) {
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions);
            tree.assert_well_formed();
            // Rebuild again with moved points to exercise the kept permutation.
            let mut second = positions.clone();
            for (p, m) in second.iter_mut().zip(&moved) {
                *p = *m;
            }
            tree.rebuild(&second);
            tree.assert_well_formed();
            let mut out = Vec::new();
            for (i, &p) in second.iter().enumerate() {
                tree.nearest(p, i as u32, range * range, max_count, &mut out);
                prop_assert!(out.len() <= max_count);
                assert_same_answer(&out, &second, p, i as u32, range * range);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The partition (two searches) leaves the same permutation as RVO2's loop, with keys
        /// equal to the split and NaN among them.
        #[test]
        fn partition_equals_rvo2s_loop(
            keys in prop::collection::vec(prop_oneof![(-4i8..4).prop_map(f32::from), Just(f32::NAN)], 0..40),
            others in prop::collection::vec(-9.0f32..9.0, 40),
            split in (-4i8..4).prop_map(f32::from),
            axis in 0usize..2,
        ) {
            let points: Vec<Vec2> = keys
                .iter()
                .zip(&others)
                .map(|(&k, &o)| if axis == 0 { Vec2::new(k, o) } else { Vec2::new(o, k) })
                .collect();
            let (mut ours, mut theirs) = (points.clone(), points);
            let mut our_order: Vec<u32> = (0..ours.len() as u32).collect();
            let mut their_order = our_order.clone();
            let left = partition(&mut ours, &mut our_order, split, |p| p[axis]);
            prop_assert_eq!(left, partition_as_rvo2(&mut theirs, &mut their_order, split, axis));
            prop_assert_eq!(our_order, their_order);
        }
    }

    #[test]
    fn ties_on_a_lattice_are_answered_consistently() {
        // A 12 x 12 unit lattice: every query meets many equal distances.
        let positions: Vec<Vec2> = (0..144).map(|i| Vec2::new((i % 12) as f32, (i / 12) as f32)).collect();
        let mut tree = AgentKdTree::new();
        tree.rebuild(&positions);
        let mut out = Vec::new();
        for (i, &p) in positions.iter().enumerate() {
            for k in [1, 4, 7, 10] {
                tree.nearest(p, i as u32, 9.0, k, &mut out);
                assert_same_answer(&out, &positions, p, i as u32, 9.0);
            }
        }
    }

    /// Agents spawned at one point: RVO2's tree peels one off per level, a chain as deep as
    /// the crowd. Built and queried on a thread with a small stack, which that depth would
    /// overflow (aborting the process) without the recursions' stack checks.
    #[test]
    fn coincident_agents_make_a_deep_tree_without_overflowing_the_stack() {
        let mut positions = vec![Vec2::new(3.0, -2.0); 3000];
        positions.extend((0..40).map(|i| Vec2::new(i as f32 * 0.7, 1.0)));
        let worker = std::thread::Builder::new().stack_size(128 * 1024).spawn(move || {
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions);
            tree.assert_well_formed();
            let mut out = Vec::new();
            for i in [0, 1234, 2999, 3000, 3039] {
                tree.nearest(positions[i], i as u32, 1e4, 12, &mut out);
                assert_eq!(out.len(), 12, "agent {i}");
                assert_same_answer(&out, &positions, positions[i], i as u32, 1e4);
            }
        });
        worker.expect("spawn").join().expect("deep tree");
    }

    /// The same above the parallel-build threshold, on two threads with small stacks: the
    /// chain's levels alternate between the threads (each steals the other's next level), so
    /// each thread must check for room at every parallel level, not every so many levels.
    #[test]
    fn a_deep_tree_built_in_parallel_does_not_overflow_the_stack() {
        let mut positions = vec![Vec2::new(-1.0, 4.0); PARALLEL_SUBTREE + 6000];
        positions.extend((0..40).map(|i| Vec2::new(i as f32 * 0.7, 1.0)));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).stack_size(256 * 1024).build().expect("pool");
        pool.install(|| {
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions);
            tree.assert_well_formed();
            let mut out = Vec::new();
            for i in [0, positions.len() - 1] {
                tree.nearest(positions[i], i as u32, 1e4, 12, &mut out);
                assert_same_answer(&out, &positions, positions[i], i as u32, 1e4);
            }
        });
    }

    #[test]
    fn grows_and_removes() {
        let mut tree = AgentKdTree::new();
        let mut positions: Vec<Vec2> = (0..50).map(|i| Vec2::new(i as f32, (i * 7 % 13) as f32)).collect();
        tree.rebuild(&positions);
        positions.extend((0..30).map(|i| Vec2::new(-(i as f32), 3.0)));
        tree.rebuild(&positions);
        tree.assert_well_formed();
        assert_eq!(tree.len(), 80);
        tree.remove(10);
        positions.remove(10);
        tree.rebuild(&positions);
        tree.assert_well_formed();
        assert_eq!(tree.len(), 79);
        let mut out = Vec::new();
        tree.nearest(positions[0], 0, 1e6, 5, &mut out);
        assert_eq!(out.len(), 5);
        assert_same_answer(&out, &positions, positions[0], 0, 1e6);
    }
}
