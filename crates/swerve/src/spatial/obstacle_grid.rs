//! A uniform grid over the obstacle edges that answers RVO2's obstacle-neighbour query without
//! walking the BSP, or says it cannot.
//!
//! RVO2's answer (`computeObstacleNeighbors`, seed 004) is every edge that faces the agent (the
//! agent strictly on its right) and lies within the obstacle range, nearest first, ties in the
//! order the [`ObstacleTree`](super::ObstacleTree) visits them. Which edges make the list does
//! not depend on the tree: the walk skips a node's far side only when the node's line, and so
//! every edge beyond it, is out of range. Only the order of equally distant edges does. So a
//! grid whose every cell lists each edge within `reach` of the cell answers exactly — unless
//! two listed edges are equally far (typically the two edges of a corner whose shared vertex
//! is the nearest point of both), and then [`ObstacleGrid::edges_near`] answers
//! [`GridQuery::Tied`] and the caller walks the tree.
//!
//! The tree walk always descends one whole root-to-leaf path, even for an agent with no edge
//! in range; the grid reads one cell (docs/orca-performance-log.md, eighth round).

use super::{GridQuery, ObstacleVertex};
use crate::geom::exact::{distance_squared_to_segment, left_of};
use glam::Vec2;

/// At most about this many cells per edge (plus a constant): a few far-apart obstacles must
/// not make an enormous empty grid; larger cells only make longer lists.
const CELLS_PER_EDGE: f32 = 16.0;

/// At most this many cell entries per edge on average, or the grid is not built.
const MAX_ENTRIES_PER_EDGE: usize = 256;

/// One edge as the query reads it: its end points, and the vertex that owns it (the name RVO2
/// gives the edge in the neighbour list).
#[derive(Clone, Copy, Debug)]
struct Edge {
    from: Vec2,
    to: Vec2,
    vertex: u32,
}

/// A uniform grid over obstacle edges for ranges up to [`ObstacleGrid::reach`] (see the module
/// documentation). Built once per set of obstacles and reach.
#[derive(Clone, Debug, Default)]
pub struct ObstacleGrid {
    /// The corner of cell (0, 0) (m).
    origin: Vec2,
    /// 1 / the cell's side (1/m).
    inv_cell_size: f32,
    columns: usize,
    rows: usize,
    /// Every edge within this distance (m) of a cell is listed in it.
    reach: f32,
    /// `cell_start[c]..cell_start[c + 1]` indexes the edges of cell `c`.
    cell_start: Vec<u32>,
    /// The cells' edges, cell after cell.
    edges: Vec<Edge>,
}

impl ObstacleGrid {
    /// An empty grid: it has no edges and reaches nowhere.
    pub fn new() -> ObstacleGrid {
        ObstacleGrid::default()
    }

    /// A grid over every edge of `vertices` (vertex `i` owns the edge to its `next`, as in an
    /// [`ObstacleTree`](super::ObstacleTree)) answering ranges up to `reach` (m). A reach that
    /// is not finite, or one that would list the edges in more than 256 cells each on average
    /// (long edges, cells far smaller), gives a grid that answers nothing
    /// ([`ObstacleGrid::reach`] 0): the tree then answers every query.
    pub fn build(vertices: &[ObstacleVertex], reach: f32) -> ObstacleGrid {
        if vertices.is_empty() || !reach.is_finite() {
            return ObstacleGrid::default();
        }
        let reach = reach.max(0.0);
        let (min, max) = super::bounding_box(&vertices.iter().map(|v| v.point).collect::<Vec<_>>());
        // Listing is conservative by this much (m): far more than the rounding of a point's
        // cell or of an f32 distance at these magnitudes.
        let magnitude = min.abs().max(max.abs()).max_element();
        let margin = reach + 1e-5 * magnitude + 1e-3;
        let origin = min - Vec2::splat(margin);
        let extent = max - min + Vec2::splat(2.0 * margin);
        let max_cells = CELLS_PER_EDGE * vertices.len() as f32 + 1024.0;
        let mut cell_size = reach.max(1e-3);
        while ((extent.x / cell_size).floor() + 1.0) * ((extent.y / cell_size).floor() + 1.0) > max_cells {
            cell_size *= 1.25;
        }
        let mut grid = ObstacleGrid {
            origin,
            inv_cell_size: 1.0 / cell_size,
            columns: (extent.x / cell_size).floor() as usize + 1,
            rows: (extent.y / cell_size).floor() as usize + 1,
            reach,
            cell_start: Vec::new(),
            edges: Vec::new(),
        };
        let edges: Vec<Edge> = vertices
            .iter()
            .enumerate()
            .map(|(i, v)| Edge { from: v.point, to: vertices[v.next as usize].point, vertex: i as u32 })
            .collect();
        // Each edge goes in every cell its box, widened by the margin, overlaps (a counting
        // sort over those cells).
        let columns = grid.columns;
        let spans: Vec<((usize, usize), (usize, usize))> = edges
            .iter()
            .map(|e| {
                let low = grid.clamped_cell(e.from.min(e.to) - Vec2::splat(margin));
                let high = grid.clamped_cell(e.from.max(e.to) + Vec2::splat(margin));
                (low, high)
            })
            .collect();
        let cells_of = |&(low, high): &((usize, usize), (usize, usize))| {
            (low.1..=high.1).flat_map(move |y| (low.0..=high.0).map(move |x| y * columns + x))
        };
        let entries: usize = spans.iter().map(|&((x0, y0), (x1, y1))| (x1 - x0 + 1) * (y1 - y0 + 1)).sum();
        if entries > MAX_ENTRIES_PER_EDGE * edges.len() || entries >= u32::MAX as usize {
            return ObstacleGrid::default();
        }
        let cell_count = grid.columns * grid.rows;
        let mut cell_start = vec![0u32; cell_count + 1];
        for c in spans.iter().flat_map(cells_of) {
            cell_start[c + 1] += 1;
        }
        for c in 0..cell_count {
            cell_start[c + 1] += cell_start[c];
        }
        let mut cursor = cell_start.clone();
        let mut listed = vec![edges[0]; cell_start[cell_count] as usize];
        for (edge, span) in edges.iter().zip(&spans) {
            for c in cells_of(span) {
                listed[cursor[c] as usize] = *edge;
                cursor[c] += 1;
            }
        }
        grid.cell_start = cell_start;
        grid.edges = listed;
        grid
    }

    /// The largest range (m) this grid answers.
    pub fn reach(&self) -> f32 {
        self.reach
    }

    /// Column and row of the cell holding `p`, clamped to the grid.
    fn clamped_cell(&self, p: Vec2) -> (usize, usize) {
        let cell = ((p - self.origin) * self.inv_cell_size).floor();
        let x = cell.x.clamp(0.0, (self.columns - 1) as f32) as usize;
        let y = cell.y.clamp(0.0, (self.rows - 1) as f32) as usize;
        (x, y)
    }

    /// RVO2's obstacle neighbours of `position` within `range_squared` (m², at most
    /// `reach²`): every edge with `position` strictly on its right and a squared distance
    /// below `range_squared`, as `(squared distance, owning vertex)`, nearest first — the
    /// [`ObstacleTree::edges_near`](super::ObstacleTree::edges_near) answer, when this answers
    /// [`GridQuery::Exact`], or [`GridQuery::TiesOrdered`]: two of those edges were equally
    /// far (typically a corner's two edges, from anywhere in the corner's outer quadrant), and
    /// `visits_before(a, b)` (the tree's [`ObstacleTree::visits_before`](super::ObstacleTree::visits_before)
    /// for `position`) said which the tree meets first. [`GridQuery::Tied`] (and `out`
    /// unspecified) when the range exceeds the reach: then the tree must answer.
    #[inline]
    pub fn edges_near(
        &self,
        position: Vec2,
        range_squared: f32,
        out: &mut Vec<(f32, u32)>,
        visits_before: impl Fn(u32, u32) -> bool,
    ) -> GridQuery {
        out.clear();
        if range_squared.is_nan() || range_squared > self.reach * self.reach {
            return GridQuery::Tied;
        }
        // Outside the grid (or not a number) is farther than the reach from every edge.
        let cell = ((position - self.origin) * self.inv_cell_size).floor();
        let inside = cell.x >= 0.0 && cell.y >= 0.0 && cell.x < self.columns as f32 && cell.y < self.rows as f32;
        if !inside || self.edges.is_empty() {
            return GridQuery::Exact;
        }
        let c = cell.y as usize * self.columns + cell.x as usize;
        for edge in &self.edges[self.cell_start[c] as usize..self.cell_start[c + 1] as usize] {
            // The tree's expressions, so the same f32 values.
            if left_of(edge.from, edge.to, position) < 0.0 {
                let distance_squared = distance_squared_to_segment(edge.from, edge.to, position);
                if distance_squared < range_squared {
                    out.push((distance_squared, edge.vertex));
                }
            }
        }
        if out.len() < 2 {
            return GridQuery::Exact;
        }
        out.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        if !out.windows(2).any(|w| w[0].0 == w[1].0) {
            return GridQuery::Exact;
        }
        // Each run of equal distances in the tree's visiting order (an insertion sort: a
        // run is two or three edges).
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && out[j - 1].0 == out[j].0 && visits_before(out[j].1, out[j - 1].1) {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        GridQuery::TiesOrdered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spatial::ObstacleTree;
    use proptest::prelude::*;

    /// Axis-aligned squares (counter-clockwise: solid) and walls on a coarse lattice, so that
    /// corners, shared lines and split edges are common.
    fn polygons_strategy() -> impl Strategy<Value = Vec<Vec<Vec2>>> {
        let square = (-6i32..6, -6i32..6, 1i32..4).prop_map(|(x, y, s)| {
            let (x, y, s) = (x as f32 * 5.0, y as f32 * 5.0, s as f32 * 3.0);
            vec![Vec2::new(x, y), Vec2::new(x + s, y), Vec2::new(x + s, y + s), Vec2::new(x, y + s)]
        });
        let wall = (-30.0f32..30.0, -30.0f32..30.0, -20.0f32..20.0, -20.0f32..20.0)
            .prop_filter("a wall has length", |(_, _, dx, dy)| dx.abs() + dy.abs() > 0.5)
            .prop_map(|(x, y, dx, dy)| vec![Vec2::new(x, y), Vec2::new(x + dx, y + dy)]);
        prop::collection::vec(prop_oneof![3 => square, 1 => wall], 1..8)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The grid's answer is the BSP's, list for list, equal distances in the BSP's order,
        /// and it says whether it met equal distances (unless it answers nothing at all: a
        /// wall too long for cells of the range, see `build`).
        #[test]
        fn answers_equal_the_bsp(
            polygons in polygons_strategy(),
            points in prop::collection::vec((-45.0f32..45.0, -45.0f32..45.0), 1..60),
            range in 0.5f32..14.0,
            extra_reach in 0.0f32..5.0,
        ) {
            let tree = ObstacleTree::build(&polygons);
            let grid = ObstacleGrid::build(tree.vertices(), range + extra_reach);
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            for (x, y) in points {
                let p = Vec2::new(x, y);
                tree.edges_near(p, range * range, &mut theirs);
                let tied_in_tree = theirs.windows(2).any(|w| w[0].0 == w[1].0);
                let visits_before = |a, b| tree.visits_before(p, a, b);
                match grid.edges_near(p, range * range, &mut ours, visits_before) {
                    GridQuery::Exact => {
                        prop_assert_eq!(&ours, &theirs);
                        prop_assert!(!tied_in_tree);
                    }
                    GridQuery::TiesOrdered => {
                        prop_assert_eq!(&ours, &theirs);
                        prop_assert!(tied_in_tree);
                    }
                    // Only when the grid answers nothing: edges too long for its cells, see `build`.
                    GridQuery::Tied => prop_assert!(grid.reach() == 0.0, "the tree asked at {:?}", p),
                }
            }
        }
    }

    #[test]
    fn a_corner_is_a_tie_in_the_trees_order_and_open_space_is_exact() {
        let square = [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0)];
        let tree = ObstacleTree::build(&[square]);
        let grid = ObstacleGrid::build(tree.vertices(), 10.0);
        let mut out = Vec::new();
        let tree = &tree;
        let visits_before = |p| move |a, b| tree.visits_before(p, a, b);
        // Diagonally off the corner (6, 6): both edges meeting at (4, 4) are √8 away, in the
        // tree's order.
        let corner = Vec2::new(6.0, 6.0);
        assert_eq!(grid.edges_near(corner, 100.0, &mut out, visits_before(corner)), GridQuery::TiesOrdered);
        let mut expected = Vec::new();
        tree.edges_near(corner, 100.0, &mut expected);
        assert_eq!(out, expected);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].0, out[1].0);
        // Beside the right edge, nearer it than the top one.
        let beside = Vec2::new(5.0, 1.0);
        assert_eq!(grid.edges_near(beside, 100.0, &mut out, visits_before(beside)), GridQuery::Exact);
        tree.edges_near(beside, 100.0, &mut expected);
        assert_eq!(out, expected);
        assert!(!out.is_empty());
        // Far away, and out of the grid: nothing, exactly.
        let far = Vec2::new(500.0, -300.0);
        assert_eq!(grid.edges_near(far, 100.0, &mut out, visits_before(far)), GridQuery::Exact);
        assert!(out.is_empty());
        // A range beyond the reach is the tree's to answer.
        assert_eq!(grid.edges_near(beside, 121.0, &mut out, visits_before(beside)), GridQuery::Tied);
    }

    /// A city of blocks, split edges and walls: every point of a fine lattice gets the tree's
    /// list, and many of them meet ties (which the random points above rarely do at so many
    /// corners at once).
    #[test]
    fn a_city_of_blocks_gets_the_trees_lists_ties_and_all() {
        let mut polygons: Vec<Vec<Vec2>> = Vec::new();
        for i in 0..6 {
            for j in 0..6 {
                let (x, y) = (i as f32 * 9.0, j as f32 * 9.0);
                polygons.push(vec![
                    Vec2::new(x, y),
                    Vec2::new(x + 4.0, y),
                    Vec2::new(x + 4.0, y + 4.0),
                    Vec2::new(x, y + 4.0),
                ]);
            }
        }
        // A diagonal wall across the city splits many lines of the tree.
        polygons.push(vec![Vec2::new(-5.0, 2.0), Vec2::new(55.0, 47.0)]);
        let tree = ObstacleTree::build(&polygons);
        let grid = ObstacleGrid::build(tree.vertices(), 8.0);
        let (mut ours, mut theirs, mut ties) = (Vec::new(), Vec::new(), 0);
        for i in 0..120 {
            for j in 0..120 {
                let p = Vec2::new(-6.0 + i as f32 * 0.53, -6.0 + j as f32 * 0.53);
                tree.edges_near(p, 49.0, &mut theirs);
                let answer = grid.edges_near(p, 49.0, &mut ours, |a, b| tree.visits_before(p, a, b));
                assert_ne!(answer, GridQuery::Tied, "at {p}");
                assert_eq!(ours, theirs, "at {p}");
                ties += usize::from(answer == GridQuery::TiesOrdered);
            }
        }
        assert!(ties > 1000, "only {ties} points met a tie");
    }
}
