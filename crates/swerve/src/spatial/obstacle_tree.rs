//! RVO2's obstacle tree: a binary space partition over obstacle edges.
//!
//! Each obstacle polygon becomes a ring of [`ObstacleVertex`]es; vertex `i` owns the edge to
//! its `next` vertex. Building the tree picks, at every node, the edge whose line splits the
//! remaining edges most evenly, and cuts the edges that straddle it in two (adding vertices),
//! exactly as RVO2's `KdTree::buildObstacleTreeRecursive` — the shape of the tree decides the
//! order of obstacle neighbours and so, through the linear program, the agents' velocities.

use super::stack_room::with_room;
use crate::geom::exact::{det, distance_squared_to_segment, left_of, length_squared, normalize, EPSILON};
use glam::Vec2;

/// Edge lists at least this long have their split searched by several threads.
const PARALLEL_SPLIT_SEARCH: usize = 512;

/// One vertex of an obstacle polygon, owning the edge from itself to `next`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleVertex {
    /// Where the vertex is (m).
    pub point: Vec2,
    /// Unit direction of the edge from this vertex to the next.
    pub unit_dir: Vec2,
    /// Index of the next vertex along the polygon.
    pub next: u32,
    /// Index of the previous vertex along the polygon.
    pub prev: u32,
    /// Whether the polygon turns left (or goes straight) at this vertex; always true for
    /// two-vertex obstacles and for vertices added by splitting.
    pub is_convex: bool,
    /// Which polygon (in the order given to [`ObstacleTree::build`]) the vertex belongs to.
    pub polygon: u32,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    vertex: u32,
    left: Option<u32>,
    right: Option<u32>,
    /// The node above (`None` at the root) and how far below the root this is: for
    /// [`ObstacleTree::visits_before`].
    parent: Option<u32>,
    depth: u32,
}

/// The obstacle BSP tree with its vertex rings.
#[derive(Clone, Debug, Default)]
pub struct ObstacleTree {
    vertices: Vec<ObstacleVertex>,
    nodes: Vec<Node>,
    root: Option<u32>,
    /// The node of each vertex's edge (by vertex).
    node_of: Vec<u32>,
    /// How many polygons the builds so far were given (the next one's number).
    polygon_count: u32,
}

impl ObstacleTree {
    /// Builds vertex rings for `polygons` (each already validated: ≥ 2 vertices, no repeated
    /// consecutive vertices) and the BSP tree over their edges.
    pub fn build<P: AsRef<[Vec2]>>(polygons: &[P]) -> ObstacleTree {
        let mut tree = ObstacleTree::default();
        tree.rebuild_with(polygons);
        tree
    }

    /// RVO2's second (third, …) `processObstacles`: appends the rings of `new_polygons`
    /// after every vertex so far — including those earlier builds added by splitting, whose
    /// rings keep the split — and builds the tree again over all of them, in that order.
    /// RVO2 keeps one obstacle list that each build extends, so a second build starts from
    /// the split edges, can split them again, and numbers later polygons' vertices after the
    /// split ones; this does the same. New polygons are numbered after the earlier ones.
    pub fn rebuild_with<P: AsRef<[Vec2]>>(&mut self, new_polygons: &[P]) {
        for polygon in new_polygons {
            append_polygon(&mut self.vertices, polygon.as_ref(), self.polygon_count);
            self.polygon_count += 1;
        }
        self.nodes.clear();
        let all: Vec<u32> = (0..self.vertices.len() as u32).collect();
        self.root = self.build_recursive(&all, None, 0);
        self.node_of = vec![u32::MAX; self.vertices.len()];
        for (k, node) in self.nodes.iter().enumerate() {
            self.node_of[node.vertex as usize] = k as u32;
        }
    }

    /// All vertices, including those added by splitting edges (which come after the
    /// polygons' own vertices).
    pub fn vertices(&self) -> &[ObstacleVertex] {
        &self.vertices
    }

    /// Whether the tree holds no edge.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    fn build_recursive(&mut self, edges: &[u32], parent: Option<u32>, depth: u32) -> Option<u32> {
        if edges.is_empty() {
            return None;
        }
        let optimal_split = self.optimal_split(edges);
        let mut left_edges = Vec::new();
        let mut right_edges = Vec::new();
        let split_edge = edges[optimal_split];
        let (i1, i2) = self.edge_points(split_edge);
        for (j, &edge_j) in edges.iter().enumerate() {
            if j == optimal_split {
                continue;
            }
            let (j1, j2) = self.edge_points(edge_j);
            let j1_left = left_of(i1, i2, j1);
            let j2_left = left_of(i1, i2, j2);
            if j1_left >= -EPSILON && j2_left >= -EPSILON {
                left_edges.push(edge_j);
            } else if j1_left <= EPSILON && j2_left <= EPSILON {
                right_edges.push(edge_j);
            } else {
                // Edge j straddles the split line: cut it where it crosses.
                let t = det(i2 - i1, j1 - i1) / det(i2 - i1, j1 - j2);
                let split_point = j1 + t * (j2 - j1);
                let new_index = self.vertices.len() as u32;
                let j_vertex = self.vertices[edge_j as usize];
                self.vertices.push(ObstacleVertex {
                    point: split_point,
                    unit_dir: j_vertex.unit_dir,
                    next: j_vertex.next,
                    prev: edge_j,
                    is_convex: true,
                    polygon: j_vertex.polygon,
                });
                let old_next = j_vertex.next as usize;
                self.vertices[edge_j as usize].next = new_index;
                self.vertices[old_next].prev = new_index;
                if j1_left > 0.0 {
                    left_edges.push(edge_j);
                    right_edges.push(new_index);
                } else {
                    right_edges.push(edge_j);
                    left_edges.push(new_index);
                }
            }
        }
        let node = self.nodes.len() as u32;
        self.nodes.push(Node { vertex: split_edge, left: None, right: None, parent, depth });
        let left = with_room(depth, || self.build_recursive(&left_edges, Some(node), depth + 1));
        let right = with_room(depth, || self.build_recursive(&right_edges, Some(node), depth + 1));
        self.nodes[node as usize].left = left;
        self.nodes[node as usize].right = right;
        Some(node)
    }

    /// RVO2's choice of split edge among `edges` (an index into it): the one minimising
    /// (larger side, smaller side) lexicographically, the first such one on ties, where an
    /// edge j is on the left of edge i if both its ends are (`left_of ≥ −ε`), on the right if
    /// both are (`≤ ε`), and on both sides otherwise.
    ///
    /// RVO2 counts edge by edge and gives up on a candidate once it cannot beat the best so
    /// far; that is O(n²) per node (every count must pass n/2 before it can give up) and took
    /// 1.3 s for the 16,000 edges of `blocks 100000`. Here four edges are classified at a
    /// time in SIMD lanes (the same `f32` operations as [`left_of`]) and, for long lists, the
    /// candidates are shared between threads, each with its own best so far; the first
    /// candidate of least rank wins, so the choice is RVO2's.
    fn optimal_split(&self, edges: &[u32]) -> usize {
        use rayon::prelude::*;
        use wide::{f32x4, CmpGe, CmpLe};
        let n = edges.len();
        // Both ends of every edge, four edges per vector (x and y of each end); the last
        // vector is padded with the last edge, whose extra lanes are masked out.
        let chunks = n.div_ceil(4);
        let ends: Vec<[f32x4; 4]> = (0..chunks)
            .map(|c| {
                let quad = [0, 1, 2, 3].map(|k| self.edge_points(edges[(4 * c + k).min(n - 1)]));
                [quad.map(|e| e.0.x), quad.map(|e| e.0.y), quad.map(|e| e.1.x), quad.map(|e| e.1.y)].map(f32x4::new)
            })
            .collect();
        let tail_lanes = n - 4 * (chunks - 1);
        let rank = |l: usize, r: usize| (l.max(r), l.min(r));
        // Candidate i's (left, right) counts, or counts already no better than `best`.
        let count = |i: usize, best: (usize, usize)| -> (usize, usize) {
            let (i1, i2) = self.edge_points(edges[i]);
            let direction = i2 - i1;
            let (dx, dy) = (f32x4::splat(direction.x), f32x4::splat(direction.y));
            let (ix, iy) = (f32x4::splat(i1.x), f32x4::splat(i1.y));
            let (low, high) = (f32x4::splat(-EPSILON), f32x4::splat(EPSILON));
            // left_of(i1, i2, j) = det(i1 − j, i2 − i1), lane by lane.
            let side = |jx: f32x4, jy: f32x4| (ix - jx) * dy - (iy - jy) * dx;
            // Edge i itself is counted like the others, then taken out.
            let (own_left, own_right) = {
                let (a, b) = (left_of(i1, i2, i1), left_of(i1, i2, i2));
                let left = a >= -EPSILON && b >= -EPSILON;
                let right = !left && a <= EPSILON && b <= EPSILON;
                (usize::from(!right), usize::from(!left))
            };
            let (mut left, mut right) = (0usize, 0usize);
            for (c, [first_x, first_y, second_x, second_y]) in ends.iter().enumerate() {
                let (a, b) = (side(*first_x, *first_y), side(*second_x, *second_y));
                let valid = if c + 1 == chunks { (1u32 << tail_lanes) - 1 } else { 0b1111 };
                let on_left = (a.cmp_ge(low) & b.cmp_ge(low)).move_mask() as u32 & valid;
                let on_right = (a.cmp_le(high) & b.cmp_le(high)).move_mask() as u32 & valid & !on_left;
                // Straddling edges count on both sides.
                let straddling = valid & !on_left & !on_right;
                left += (on_left | straddling).count_ones() as usize;
                right += (on_right | straddling).count_ones() as usize;
                // Only a speed-up (counts only grow): this candidate cannot win any more.
                // Checked every 32 edges: the counts must pass n/2 before it can hold.
                if c % 8 == 7 && rank(left.saturating_sub(own_left), right.saturating_sub(own_right)) >= best {
                    break;
                }
            }
            // (Saturating: a candidate given up on may not have reached itself.)
            (left.saturating_sub(own_left), right.saturating_sub(own_right))
        };
        // The best (rank, index) over some candidates, visited in order, starting from RVO2's
        // initial bound (no candidate reaches it).
        let better = |best: ((usize, usize), usize), i: usize| {
            let (l, r) = count(i, best.0);
            if rank(l, r) < best.0 {
                (rank(l, r), i)
            } else {
                best
            }
        };
        let start = (rank(n, n), 0);
        if n >= PARALLEL_SPLIT_SEARCH {
            (0..n).into_par_iter().with_min_len(64).fold(|| start, better).reduce(|| start, |a, b| a.min(b)).1
        } else {
            (0..n).fold(start, better).1
        }
    }

    #[inline(always)]
    fn edge_points(&self, vertex: u32) -> (Vec2, Vec2) {
        let v = &self.vertices[vertex as usize];
        (v.point, self.vertices[v.next as usize].point)
    }

    /// Collects into `out` the edges (by their first vertex) with squared distance
    /// `< range_squared` from `position` that face it (the agent is on their right, outside
    /// side), nearest first; ties keep tree order (RVO2's `computeObstacleNeighbors`).
    pub fn edges_near(&self, position: Vec2, range_squared: f32, out: &mut Vec<(f32, u32)>) {
        out.clear();
        self.visit_lines_near(position, range_squared, self.root, 0, &mut |vertex, agent_left_of_line, p1, p2| {
            if agent_left_of_line < 0.0 {
                // Only edges the agent is on the right of (outside of) can be seen.
                let distance_squared = distance_squared_to_segment(p1, p2, position);
                if distance_squared < range_squared {
                    out.push((distance_squared, vertex));
                    let mut i = out.len() - 1;
                    while i != 0 && distance_squared < out[i - 1].0 {
                        out[i] = out[i - 1];
                        i -= 1;
                    }
                    out[i] = (distance_squared, vertex);
                }
            }
        });
    }

    /// Whether RVO2's walk for `position` ([`ObstacleTree::edges_near`]) meets the edge of
    /// vertex `a` before that of vertex `b`, both being within its range: the order of two
    /// equally distant obstacle neighbours, without the walk. Below the node where the two
    /// edges' paths from the root meet, the walk takes the side of `position` first, and
    /// visits a node's own edge after that side and before the other (seed 004,
    /// `queryObstacleTreeRecursive`).
    pub fn visits_before(&self, position: Vec2, a: u32, b: u32) -> bool {
        let (mut x, mut y) = (self.node_of[a as usize], self.node_of[b as usize]);
        // The child each path came up through, once it has moved.
        let (mut below_x, mut below_y) = (None, None);
        let up = |node: u32| self.nodes[node as usize].parent.unwrap_or(node);
        while self.nodes[x as usize].depth > self.nodes[y as usize].depth {
            (below_x, x) = (Some(x), up(x));
        }
        while self.nodes[y as usize].depth > self.nodes[x as usize].depth {
            (below_y, y) = (Some(y), up(y));
        }
        while x != y {
            (below_x, x) = (Some(x), up(x));
            (below_y, y) = (Some(y), up(y));
        }
        let meeting = self.nodes[x as usize];
        let (p1, p2) = self.edge_points(meeting.vertex);
        let near_is_left = left_of(p1, p2, position) >= 0.0;
        match (below_x, below_y) {
            // `a` on one side, `b` on the other or at the meeting node: `a` first on the near side.
            (Some(child), _) => (Some(child) == meeting.left) == near_is_left,
            // `a` at the meeting node: first unless `b` is on the near side.
            (None, Some(child)) => (Some(child) == meeting.left) != near_is_left,
            (None, None) => false,
        }
    }

    /// The distance from `position` to the nearest obstacle edge, from either side, looking
    /// no farther than `reach` (returns `reach` when nothing is nearer).
    pub fn clearance(&self, position: Vec2, reach: f32) -> f32 {
        let mut nearest = reach * reach;
        self.visit_lines_near(position, reach * reach, self.root, 0, &mut |_, _, p1, p2| {
            nearest = nearest.min(distance_squared_to_segment(p1, p2, position));
        });
        nearest.sqrt()
    }

    /// RVO2's traversal of `queryObstacleTreeRecursive`: the subtree on the query point's side
    /// first, then — if the node's line lies within the range — the node itself
    /// (`visit(vertex, left_of, p1, p2)`) and the subtree on the other side. The visit order is
    /// what makes tied obstacle neighbours come out in RVO2's order.
    fn visit_lines_near(
        &self,
        position: Vec2,
        range_squared: f32,
        node: Option<u32>,
        depth: u32,
        visit: &mut impl FnMut(u32, f32, Vec2, Vec2),
    ) {
        let Some(node) = node else { return };
        let node = self.nodes[node as usize];
        let (p1, p2) = self.edge_points(node.vertex);
        let agent_left_of_line = left_of(p1, p2, position);
        let (near, far) = if agent_left_of_line >= 0.0 { (node.left, node.right) } else { (node.right, node.left) };
        with_room(depth, || self.visit_lines_near(position, range_squared, near, depth + 1, visit));
        let distance_squared_line = agent_left_of_line * agent_left_of_line / length_squared(p2 - p1);
        if distance_squared_line < range_squared {
            visit(node.vertex, agent_left_of_line, p1, p2);
            with_room(depth, || self.visit_lines_near(position, range_squared, far, depth + 1, visit));
        }
    }

    /// Whether a disc of `radius` can move from `q1` to `q2` without crossing any edge
    /// (RVO2's `queryVisibility`). True when there are no obstacles.
    pub fn is_visible(&self, q1: Vec2, q2: Vec2, radius: f32) -> bool {
        self.visible_recursive(q1, q2, radius, self.root, 0)
    }

    fn visible_recursive(&self, q1: Vec2, q2: Vec2, radius: f32, node: Option<u32>, depth: u32) -> bool {
        let Some(node) = node else { return true };
        let visible =
            |child: Option<u32>| with_room(depth, || self.visible_recursive(q1, q2, radius, child, depth + 1));
        let node = self.nodes[node as usize];
        let (p1, p2) = self.edge_points(node.vertex);
        let q1_left = left_of(p1, p2, q1);
        let q2_left = left_of(p1, p2, q2);
        let inv_length = 1.0 / length_squared(p2 - p1);
        let radius_sq = radius * radius;
        let both_far = || q1_left * q1_left * inv_length >= radius_sq && q2_left * q2_left * inv_length >= radius_sq;
        if q1_left >= 0.0 && q2_left >= 0.0 {
            visible(node.left) && (both_far() || visible(node.right))
        } else if q1_left <= 0.0 && q2_left <= 0.0 {
            visible(node.right) && (both_far() || visible(node.left))
        } else if q1_left >= 0.0 && q2_left <= 0.0 {
            // One can see through an obstacle edge from its back (left) to its front.
            visible(node.left) && visible(node.right)
        } else {
            let point1_left_of_q = left_of(q1, q2, p1);
            let point2_left_of_q = left_of(q1, q2, p2);
            let inv_length_q = 1.0 / length_squared(q2 - q1);
            point1_left_of_q * point2_left_of_q >= 0.0
                && point1_left_of_q * point1_left_of_q * inv_length_q > radius_sq
                && point2_left_of_q * point2_left_of_q * inv_length_q > radius_sq
                && visible(node.left)
                && visible(node.right)
        }
    }

    /// Panics unless the tree is consistent: the rings are closed (`next`/`prev` inverse),
    /// every vertex's edge sits in exactly one node, and unit directions are unit. For tests.
    pub fn assert_well_formed(&self) {
        for (i, v) in self.vertices.iter().enumerate() {
            assert_eq!(self.vertices[v.next as usize].prev as usize, i, "ring broken after {i}");
            assert_eq!(self.vertices[v.prev as usize].next as usize, i, "ring broken before {i}");
            assert!((length_squared(v.unit_dir) - 1.0).abs() < 1e-5, "unit_dir of {i} not unit");
        }
        let mut count = vec![0u32; self.vertices.len()];
        for n in &self.nodes {
            count[n.vertex as usize] += 1;
        }
        assert!(count.iter().all(|&c| c == 1), "every edge must be in exactly one node");
    }
}

/// RVO2's `addObstacle`: a ring of vertices with edge directions and convexity.
fn append_polygon(vertices: &mut Vec<ObstacleVertex>, polygon: &[Vec2], polygon_index: u32) {
    let n = polygon.len();
    let first = vertices.len() as u32;
    for i in 0..n {
        let next = if i == n - 1 { 0 } else { i + 1 };
        let prev = if i == 0 { n - 1 } else { i - 1 };
        let is_convex = n == 2 || left_of(polygon[prev], polygon[i], polygon[next]) >= 0.0;
        vertices.push(ObstacleVertex {
            point: polygon[i],
            unit_dir: normalize(polygon[next] - polygon[i]),
            next: first + next as u32,
            prev: first + prev as u32,
            is_convex,
            polygon: polygon_index,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn square(cx: f32, cy: f32, h: f32) -> Vec<Vec2> {
        vec![Vec2::new(cx - h, cy - h), Vec2::new(cx + h, cy - h), Vec2::new(cx + h, cy + h), Vec2::new(cx - h, cy + h)]
    }

    /// The oracle: every facing edge in range, by a linear scan over the split rings.
    fn edges_near_brute_force(tree: &ObstacleTree, position: Vec2, range_squared: f32) -> Vec<u32> {
        let mut out: Vec<u32> = (0..tree.vertices.len() as u32)
            .filter(|&i| {
                let (p1, p2) = tree.edge_points(i);
                left_of(p1, p2, position) < 0.0 && distance_squared_to_segment(p1, p2, position) < range_squared
            })
            .collect();
        out.sort();
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]
        #[test]
        fn range_query_finds_every_facing_edge(
            centers in prop::collection::vec((-40i32..40, -40i32..40, 1i32..5), 1..12),
            probes in prop::collection::vec((-60.0f32..60.0, -60.0f32..60.0), 1..20),
            range in 1.0f32..30.0,
        ) {
            let polygons: Vec<Vec<Vec2>> = centers
                .iter()
                .map(|&(x, y, h)| square(x as f32 * 3.0, y as f32 * 3.0, h as f32))
                .collect();
            let tree = ObstacleTree::build(&polygons);
            tree.assert_well_formed();
            let mut out = Vec::new();
            for &(x, y) in &probes {
                let p = Vec2::new(x, y);
                tree.edges_near(p, range * range, &mut out);
                for w in out.windows(2) {
                    prop_assert!(w[0].0 <= w[1].0, "not sorted by distance");
                }
                let mut found: Vec<u32> = out.iter().map(|e| e.1).collect();
                found.sort();
                prop_assert_eq!(found, edges_near_brute_force(&tree, p, range * range));
            }
        }
    }

    /// A long thin block whose sides are drawn with many collinear vertices: every split puts
    /// all other edges on one side, so RVO2's tree is a chain as deep as the edge count. Built
    /// and queried on a thread with a small stack, which that depth would overflow without
    /// the recursions' stack checks.
    #[test]
    fn collinear_edges_make_a_deep_tree_without_overflowing_the_stack() {
        let side = 200;
        let mut block: Vec<Vec2> = (0..=side).map(|i| Vec2::new(i as f32, 0.0)).collect();
        block.extend((0..=side).rev().map(|i| Vec2::new(i as f32, 1.0)));
        let worker = std::thread::Builder::new().stack_size(64 * 1024).spawn(move || {
            let tree = ObstacleTree::build(&[block]);
            tree.assert_well_formed();
            let mut out = Vec::new();
            for p in [Vec2::new(-3.0, 0.5), Vec2::new(100.0, -2.0), Vec2::new(250.0, 3.0)] {
                tree.edges_near(p, 100.0, &mut out);
                let mut found: Vec<u32> = out.iter().map(|e| e.1).collect();
                found.sort();
                assert_eq!(found, edges_near_brute_force(&tree, p, 100.0));
            }
            assert!(!tree.is_visible(Vec2::new(50.0, -5.0), Vec2::new(50.0, 5.0), 0.1));
            assert!(tree.is_visible(Vec2::new(-5.0, -5.0), Vec2::new(-5.0, 5.0), 0.1));
        });
        worker.expect("spawn").join().expect("deep tree");
    }

    /// RVO2's split search as it is written (edge by edge, giving up on a candidate once it
    /// cannot win): the oracle for the SIMD, multi-threaded [`ObstacleTree::optimal_split`].
    fn optimal_split_rvo2(tree: &ObstacleTree, edges: &[u32]) -> usize {
        let (mut optimal_split, mut min_left, mut min_right) = (0, edges.len(), edges.len());
        let rank = |l: usize, r: usize| (l.max(r), l.min(r));
        for (i, &edge_i) in edges.iter().enumerate() {
            let (mut left_size, mut right_size) = (0usize, 0usize);
            let (i1, i2) = tree.edge_points(edge_i);
            for (j, &edge_j) in edges.iter().enumerate() {
                if i == j {
                    continue;
                }
                let (j1, j2) = tree.edge_points(edge_j);
                let (j1_left, j2_left) = (left_of(i1, i2, j1), left_of(i1, i2, j2));
                if j1_left >= -EPSILON && j2_left >= -EPSILON {
                    left_size += 1;
                } else if j1_left <= EPSILON && j2_left <= EPSILON {
                    right_size += 1;
                } else {
                    left_size += 1;
                    right_size += 1;
                }
                if rank(left_size, right_size) >= rank(min_left, min_right) {
                    break;
                }
            }
            if rank(left_size, right_size) < rank(min_left, min_right) {
                (min_left, min_right, optimal_split) = (left_size, right_size, i);
            }
        }
        optimal_split
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The split search picks RVO2's edge: lattice squares (collinear edges, equal ranks)
        /// and random polygons, lists short and long enough to be searched by several threads,
        /// in any order.
        #[test]
        fn split_search_equals_rvo2(
            shapes in prop::collection::vec((-30i32..30, -30i32..30, 1i32..4, 3usize..7, any::<bool>()), 1..200),
            rotations in prop::collection::vec(0usize..1000, 1..3),
        ) {
            let polygons: Vec<Vec<Vec2>> = shapes
                .iter()
                .map(|&(x, y, h, sides, lattice)| {
                    if lattice {
                        square(x as f32, y as f32, h as f32 * 0.5)
                    } else {
                        (0..sides)
                            .map(|k| {
                                let angle = k as f32 * std::f32::consts::TAU / sides as f32 + x as f32;
                                Vec2::new(x as f32 * 1.7, y as f32 * 1.3) + Vec2::from_angle(angle) * h as f32
                            })
                            .collect()
                    }
                })
                .collect();
            let tree = ObstacleTree::build(&polygons);
            let mut edges: Vec<u32> = (0..tree.vertices.len() as u32).collect();
            for r in rotations {
                let r = r % edges.len();
                edges.rotate_left(r);
                prop_assert_eq!(tree.optimal_split(&edges), optimal_split_rvo2(&tree, &edges));
                let half = &edges[..edges.len().div_ceil(2)];
                prop_assert_eq!(tree.optimal_split(half), optimal_split_rvo2(&tree, half));
            }
        }
    }

    #[test]
    fn convexity_follows_winding() {
        let ccw = square(0.0, 0.0, 1.0);
        let tree = ObstacleTree::build(std::slice::from_ref(&ccw));
        assert!(tree.vertices().iter().all(|v| v.is_convex));
        let mut cw = ccw;
        cw.reverse();
        let tree = ObstacleTree::build(&[cw]);
        assert!(tree.vertices().iter().all(|v| !v.is_convex));
    }

    #[test]
    fn visibility_is_blocked_by_a_wall() {
        let tree = ObstacleTree::build(&[square(0.0, 0.0, 1.0)]);
        assert!(!tree.is_visible(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.1));
        assert!(tree.is_visible(Vec2::new(-5.0, 3.0), Vec2::new(5.0, 3.0), 0.1));
        // The clearance radius matters: a fat disc cannot pass 2 m from the square's side.
        assert!(!tree.is_visible(Vec2::new(-5.0, 3.0), Vec2::new(5.0, 3.0), 2.5));
        assert!(ObstacleTree::default().is_visible(Vec2::ZERO, Vec2::ONE, 1.0));
    }
}
