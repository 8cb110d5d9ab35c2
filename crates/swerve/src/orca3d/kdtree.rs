//! RVO2-3D's agent k-d tree: which agents are an agent's neighbours, and in which order.
//!
//! Built from the agents in insertion order (RVO2-3D copies its agent list afresh before each
//! build, unlike the planar RVO2, which keeps the last permutation), so a step that needs no
//! tree skips it: the simulator builds it only when a neighbour query meets a distance tie
//! (see [`super::grid`]). A node
//! holds at most [`MAX_LEAF_SIZE`] agents or splits at the middle of its widest extent; a query
//! visits the nearer child first and keeps the `k` nearest in a sorted list whose last
//! distance shrinks the search. Agents at equal distances are therefore ranked in the tree's
//! visiting order, which is why the tree must be RVO2-3D's to reproduce its results.

use glam::Vec3;

use super::plane::sqr;
use crate::spatial::stack_room::{with_room, with_room_now};
use crate::spatial::{partition, LayerFilter};

/// A node splits when it holds more agents than this (RVO2-3D's `RVO_MAX_LEAF_SIZE`).
pub const MAX_LEAF_SIZE: usize = 10;

/// Subtrees with more agents than this are built in parallel (rayon): the halves are
/// disjoint, so the tree is the same for any thread count.
const PARALLEL_BUILD: usize = 16_384;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The node's agents are `order[begin..end]`.
    begin: u32,
    end: u32,
    /// Child node indices (unused in a leaf).
    left: u32,
    right: u32,
    /// The bounding box of its agents' positions.
    min: Vec3,
    max: Vec3,
}

/// The agent tree of one step.
#[derive(Clone, Debug, Default)]
pub struct AgentTree {
    /// Agent indices (insertion order) in tree order.
    order: Vec<u32>,
    /// Their positions, in tree order (a query reads these, not the agents').
    points: Vec<Vec3>,
    /// `2n − 1` nodes; a node's left child follows it, its right child `2 × (left size)`
    /// after it, so each subtree is a contiguous run.
    nodes: Vec<Node>,
    /// Levels from the root to the deepest leaf (1 for a lone leaf).
    height: usize,
    /// Scratch of the partitions (one slot per agent).
    scratch: Vec<u32>,
}

impl AgentTree {
    /// Rebuilds the tree over `positions` (agents in insertion order). Allocates only when
    /// the crowd has grown.
    pub fn build(&mut self, positions: &[Vec3]) {
        let count = positions.len();
        self.order.clear();
        self.order.extend(0..count as u32);
        self.points.clear();
        self.points.extend_from_slice(positions);
        self.nodes.clear();
        self.height = 0;
        if count == 0 {
            return;
        }
        self.nodes.resize(2 * count - 1, Node::default());
        self.scratch.resize(count, 0);
        let subtree = Subtree { order: &mut self.order, points: &mut self.points, scratch: &mut self.scratch };
        self.height = build_node(&mut self.nodes, 0, subtree, 0, 0);
    }

    /// How many entries a query's stack can hold at most: one per level, and the root's.
    pub fn stack_room(&self) -> usize {
        self.height + 1
    }

    /// Fills `neighbors` with the (squared distance, agent index) of agent `agent`'s nearest
    /// agents within `range_squared` of `position`, at most `max_neighbors`, nearest first,
    /// exactly as RVO2-3D's `computeAgentNeighbors` (ties in its visiting order). `stack` is
    /// scratch. With a `filter` (avoidance layers), the agents it refuses are passed over as
    /// if absent.
    #[allow(clippy::too_many_arguments)]
    pub fn neighbors(
        &self,
        agent: u32,
        position: Vec3,
        mut range_squared: f32,
        max_neighbors: usize,
        filter: Option<LayerFilter<'_>>,
        neighbors: &mut Vec<(f32, u32)>,
        stack: &mut Vec<(u32, f32)>,
    ) {
        neighbors.clear();
        if self.nodes.is_empty() || max_neighbors == 0 {
            return;
        }
        // The recursion of RVO2-3D, unrolled: a pushed child carries its box distance and is
        // visited only if that is still inside the (shrinking) range when it is popped — as
        // RVO2-3D checks the farther child only after the nearer one's whole subtree.
        stack.clear();
        stack.push((0, f32::NEG_INFINITY));
        while let Some((index, box_distance)) = stack.pop() {
            if box_distance >= range_squared {
                continue;
            }
            let node = &self.nodes[index as usize];
            if (node.end - node.begin) as usize <= MAX_LEAF_SIZE {
                for slot in node.begin as usize..node.end as usize {
                    let other = self.order[slot];
                    if other == agent || filter.is_some_and(|f| !f.accepts(other)) {
                        continue;
                    }
                    let distance = (position - self.points[slot]).length_squared();
                    if distance < range_squared {
                        insert(neighbors, max_neighbors, (distance, other));
                        if neighbors.len() == max_neighbors {
                            range_squared = neighbors[max_neighbors - 1].0;
                        }
                    }
                }
                continue;
            }
            let left_distance = box_distance_squared(&self.nodes[node.left as usize], position);
            let right_distance = box_distance_squared(&self.nodes[node.right as usize], position);
            if left_distance < right_distance {
                if left_distance < range_squared {
                    stack.push((node.right, right_distance));
                    stack.push((node.left, left_distance));
                }
            } else if right_distance < range_squared {
                stack.push((node.left, left_distance));
                stack.push((node.right, right_distance));
            }
        }
    }

    /// Checks the tree's invariants (for tests): every node's box holds exactly its agents,
    /// children partition their parent, leaves are small, every agent appears once.
    pub fn assert_well_formed(&self, positions: &[Vec3]) {
        assert_eq!(self.order.len(), positions.len());
        let mut seen = vec![false; positions.len()];
        for (slot, &agent) in self.order.iter().enumerate() {
            assert!(!std::mem::replace(&mut seen[agent as usize], true), "agent {agent} twice");
            assert_eq!(self.points[slot], positions[agent as usize]);
        }
        if positions.is_empty() {
            return;
        }
        assert_eq!(self.nodes.len(), 2 * positions.len() - 1);
        // Walk from the root (a leaf of k agents leaves 2k − 2 of its node slots unused, as in
        // RVO2-3D); the leaves must cover every slot once.
        let mut covered = 0;
        let mut pending = vec![(0u32, 0u32, positions.len() as u32)];
        while let Some((index, begin, end)) = pending.pop() {
            let node = &self.nodes[index as usize];
            assert_eq!((node.begin, node.end), (begin, end), "node {index}");
            let run = &self.points[begin as usize..end as usize];
            assert!(!run.is_empty(), "node {index} is empty");
            let min = run.iter().fold(run[0], |m, p| m.min(*p));
            let max = run.iter().fold(run[0], |m, p| m.max(*p));
            assert_eq!((node.min, node.max), (min, max), "node {index}'s box");
            if run.len() > MAX_LEAF_SIZE {
                let left_end = self.nodes[node.left as usize].end;
                assert!(begin < left_end && left_end < end, "node {index} splits off nothing");
                assert_eq!(node.right, node.left + 2 * (left_end - begin) - 1);
                pending.push((node.left, begin, left_end));
                pending.push((node.right, left_end, end));
            } else {
                covered += run.len();
            }
        }
        assert_eq!(covered, positions.len());
    }
}

/// Inserts into the sorted list, as RVO2-3D's `insertAgentNeighbor`: appended while there is
/// room, else over the farthest, then moved forward past every farther entry.
#[inline(always)]
fn insert(neighbors: &mut Vec<(f32, u32)>, max_neighbors: usize, entry: (f32, u32)) {
    if neighbors.len() < max_neighbors {
        neighbors.push(entry);
    }
    let mut i = neighbors.len() - 1;
    while i != 0 && entry.0 < neighbors[i - 1].0 {
        neighbors[i] = neighbors[i - 1];
        i -= 1;
    }
    neighbors[i] = entry;
}

/// Squared distance from `p` to the node's box, summed in RVO2-3D's order.
#[inline(always)]
fn box_distance_squared(node: &Node, p: Vec3) -> f32 {
    // `std::max(0.0f, d)`: the zero unless `d` is larger.
    let outside = |d: f32| sqr(if 0.0 < d { d } else { 0.0 });
    outside(node.min.x - p.x)
        + outside(p.x - node.max.x)
        + outside(node.min.y - p.y)
        + outside(p.y - node.max.y)
        + outside(node.min.z - p.z)
        + outside(p.z - node.max.z)
}

/// Builds the subtree whose root is `nodes[0]` (global index `node_index`, `depth` levels
/// below the root) over the agents `order` / `points`, which start at tree slot `begin`.
///
/// Coincident agents make a chain as deep as they are many, so the recursion makes room on
/// the stack as it goes (see [`crate::spatial::stack_room`]).
fn build_node(nodes: &mut [Node], node_index: u32, subtree: Subtree, begin: usize, depth: u32) -> usize {
    let Subtree { order, points, scratch } = subtree;
    let count = points.len();
    // The box, growing from the first agent with `std::max` / `std::min` (the first
    // argument wins ties, so −0 and +0 are kept as RVO2-3D keeps them).
    // (Selects, not branches: the same values, without a mispredicted branch whenever the
    // box grows.)
    let select_max = |m: f32, v: f32| if m < v { v } else { m };
    let select_min = |m: f32, v: f32| if v < m { v } else { m };
    let (mut min, mut max) = (points[0], points[0]);
    for p in &points[1..] {
        max = Vec3::new(select_max(max.x, p.x), select_max(max.y, p.y), select_max(max.z, p.z));
        min = Vec3::new(select_min(min.x, p.x), select_min(min.y, p.y), select_min(min.z, p.z));
    }
    let (root, children) = nodes.split_first_mut().expect("a subtree has at least one node");
    *root = Node { begin: begin as u32, end: (begin + count) as u32, left: 0, right: 0, min, max };
    if count <= MAX_LEAF_SIZE {
        return 1;
    }

    // Split the widest extent at its middle (x wins ties with neither, y wins ties with z).
    let extent = max - min;
    let axis = if extent.x > extent.y && extent.x > extent.z {
        0
    } else if extent.y > extent.z {
        1
    } else {
        2
    };
    let split = 0.5 * (max[axis] + min[axis]);

    // Below the split to the left, the rest to the right, in RVO2-3D's swap order; an empty
    // left half (all agents at the split) takes one agent anyway.
    let left_size = match axis {
        0 => partition_many_swaps(points, order, scratch, split, |p: Vec3| p.x),
        1 => partition_many_swaps(points, order, scratch, split, |p: Vec3| p.y),
        _ => partition_many_swaps(points, order, scratch, split, |p: Vec3| p.z),
    }
    .max(1);

    root.left = node_index + 1;
    root.right = node_index + 2 * left_size as u32;
    let (left_nodes, right_nodes) = children.split_at_mut(2 * left_size - 1);
    let (left_order, right_order) = order.split_at_mut(left_size);
    let (left_points, right_points) = points.split_at_mut(left_size);
    let (left_scratch, right_scratch) = scratch.split_at_mut(left_size);
    let left = Subtree { order: left_order, points: left_points, scratch: left_scratch };
    let right = Subtree { order: right_order, points: right_points, scratch: right_scratch };
    let (left_index, right_index) = (root.left, root.right);
    let build_left = || build_node(left_nodes, left_index, left, begin, depth + 1);
    let build_right = || build_node(right_nodes, right_index, right, begin + left_size, depth + 1);
    let (left_height, right_height) = if count > PARALLEL_BUILD {
        // The two halves may run on different threads, so every level checks.
        with_room_now(|| rayon::join(build_left, build_right))
    } else {
        with_room(depth, || (build_left(), build_right()))
    };
    1 + left_height.max(right_height)
}

/// A subtree's agents (tree order) and positions, and as much partition scratch.
struct Subtree<'a> {
    order: &'a mut [u32],
    points: &'a mut [Vec3],
    scratch: &'a mut [u32],
}

/// RVO2-3D's partition (two walks inwards, swapping where both stop) for input in which many
/// points must change sides: RVO2-3D partitions the agents' insertion order afresh in every
/// build, so about half of a node's points are on the wrong side, and walks that stop at each
/// of them mispredict a branch at each stop. The walks pair the k-th point from the left that
/// is not below `split` (within the final left side) with the k-th point from the right that
/// is below it (within the right side), so those two lists are gathered without branching on
/// the keys (each index written, kept by advancing a count) and then swapped pairwise: the
/// same permutation. Keys that are NaN break that pairing (a NaN stops both walks); then the
/// walks themselves run. `scratch` needs one slot per point.
fn partition_many_swaps(
    points: &mut [Vec3],
    order: &mut [u32],
    scratch: &mut [u32],
    split: f32,
    key: impl Fn(Vec3) -> f32,
) -> usize {
    let (left, unordered) = points.iter().fold((0usize, 0usize), |(below, nan), &p| {
        let k = key(p);
        (below + usize::from(k < split), nan + usize::from(k.is_nan()))
    });
    if unordered > 0 || split.is_nan() {
        return partition(points, order, split, key);
    }
    // Wrong on the left, in order from the left: written from the front of `scratch`.
    let mut wrong_left = 0;
    for (i, &p) in points[..left].iter().enumerate() {
        scratch[wrong_left] = i as u32;
        wrong_left += usize::from(key(p) >= split);
    }
    // Wrong on the right, in order from the right: written after them (there are as many, and
    // at most `points.len() - left`).
    let (taken, rest) = scratch.split_at_mut(wrong_left);
    let mut wrong_right = 0;
    for (j, &p) in points.iter().enumerate().skip(left).rev() {
        rest[wrong_right] = j as u32;
        wrong_right += usize::from(key(p) < split);
    }
    debug_assert_eq!(wrong_left, wrong_right);
    for (&i, &j) in taken.iter().zip(&rest[..wrong_right]) {
        points.swap(i as usize, j as usize);
        order.swap(i as usize, j as usize);
    }
    left
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Test positions from proptest's triples; with `snap`, rounded onto the integer lattice
    /// so that equal distances (ties) occur.
    pub(in crate::orca3d) fn points_maybe_snapped(points: &[(f32, f32, f32)], snap: bool) -> Vec<Vec3> {
        let at = |(x, y, z): (f32, f32, f32)| Vec3::new(x, y, z);
        points.iter().map(|&p| if snap { at(p).round() } else { at(p) }).collect()
    }

    /// The k nearest within range by a scan, nearest first, ties by agent index — the order
    /// the tree gives up to ties.
    fn scan(positions: &[Vec3], agent: usize, range_squared: f32, k: usize) -> Vec<(f32, u32)> {
        let mut all: Vec<(f32, u32)> = (0..positions.len())
            .filter(|&j| j != agent)
            .map(|j| ((positions[agent] - positions[j]).length_squared(), j as u32))
            .filter(|&(d, _)| d < range_squared)
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        all.truncate(k);
        all
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The partition that gathers the points on the wrong sides leaves the same
        /// permutation as RVO2-3D's walks, with keys equal to the split, infinite keys, and
        /// NaN keys or a NaN split (which take the walks themselves).
        #[test]
        fn partition_many_swaps_equals_rvo2_3ds_walks(
            keys in prop::collection::vec(
                prop_oneof![
                    8 => (-4i8..4).prop_map(f32::from),
                    1 => Just(f32::INFINITY),
                    1 => Just(f32::NEG_INFINITY),
                    1 => Just(f32::NAN),
                ],
                0..60,
            ),
            others in prop::collection::vec(-9.0f32..9.0, 60),
            split in prop_oneof![8 => (-4i8..4).prop_map(f32::from), 1 => Just(f32::NAN)],
            axis in 0usize..3,
        ) {
            let points: Vec<Vec3> = keys
                .iter()
                .zip(&others)
                .map(|(&k, &o)| {
                    let mut p = Vec3::splat(o);
                    p[axis] = k;
                    p
                })
                .collect();
            let (mut ours, mut theirs) = (points.clone(), points);
            let mut our_order: Vec<u32> = (0..ours.len() as u32).collect();
            let mut their_order = our_order.clone();
            let mut scratch = vec![0; ours.len()];
            let left = partition_many_swaps(&mut ours, &mut our_order, &mut scratch, split, |p: Vec3| p[axis]);
            prop_assert_eq!(left, crate::spatial::partition_as_rvo2(&mut theirs, &mut their_order, split, axis));
            prop_assert_eq!(our_order, their_order);
        }
    }

    proptest! {
        #[test]
        fn neighbors_equal_a_linear_scan(
            points in prop::collection::vec((-50.0f32..50.0, -50.0f32..50.0, -20.0f32..20.0), 1..400),
            range in 0.5f32..30.0,
            k in 0usize..16,
            snap in any::<bool>(),
        ) {
            let positions = points_maybe_snapped(&points, snap);
            let mut tree = AgentTree::default();
            tree.build(&positions);
            tree.assert_well_formed(&positions);
            let (mut found, mut stack) = (Vec::new(), Vec::new());
            for agent in 0..positions.len() {
                tree.neighbors(agent as u32, positions[agent], range * range, k, None, &mut found, &mut stack);
                let expected = scan(&positions, agent, range * range, k);
                // Same distances in the same order; the agents equal wherever the distance
                // is not tied.
                prop_assert_eq!(found.iter().map(|n| n.0).collect::<Vec<_>>(), expected.iter().map(|n| n.0).collect::<Vec<_>>());
                let mut by_agent = found.clone();
                by_agent.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let last = expected.last().map_or(f32::INFINITY, |n| n.0);
                for (got, want) in by_agent.iter().zip(&expected) {
                    if got.0 < last {
                        prop_assert_eq!(got, want);
                    }
                }
            }
        }
    }

    #[test]
    fn the_parallel_build_makes_the_serial_tree() {
        // 40,000 agents: the top levels are built by `rayon::join` (above 16,384 agents a
        // subtree), which must give the tree a single thread builds.
        let mut state = 7u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32 * 200.0 - 100.0
        };
        let positions: Vec<Vec3> = (0..40_000).map(|_| Vec3::new(next(), next(), next() * 0.3)).collect();
        let build = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut tree = AgentTree::default();
                tree.build(&positions);
                tree
            })
        };
        let (serial, parallel) = (build(1), build(2));
        parallel.assert_well_formed(&positions);
        assert_eq!(serial.order, parallel.order);
        assert_eq!(serial.height, parallel.height);
        let bounds =
            |t: &AgentTree| t.nodes.iter().map(|n| (n.begin, n.end, n.left, n.right, n.min, n.max)).collect::<Vec<_>>();
        assert!(bounds(&serial) == bounds(&parallel));
    }

    #[test]
    fn many_agents_at_one_point_build_and_answer() {
        // Every split is degenerate (the left half takes one agent each time): a chain
        // 50,000 levels deep, far more than a thread's stack holds without making room.
        let positions = vec![Vec3::new(1.0, 2.0, 3.0); 50_000];
        let mut tree = AgentTree::default();
        tree.build(&positions);
        let (mut found, mut stack) = (Vec::new(), Vec::new());
        tree.neighbors(0, positions[0], 1.0, 10, None, &mut found, &mut stack);
        assert_eq!(found.len(), 10);
        assert!(found.iter().all(|n| n.0 == 0.0 && n.1 != 0));
    }
}
