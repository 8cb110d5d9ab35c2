//! Obstacle outlines in a uniform grid, for the questions a scenario asks about every agent
//! it places and every frame it measures: which edges come within a distance of a point,
//! and which solid polygon holds it.
//!
//! Asked of every edge, these cost O(agents × edges): a city of 4,000 blocks took a minute to
//! place 100,000 agents and 2.7 s to measure one frame (BENCHMARKS.md, "Big scenes with
//! obstacles"). The grid only narrows the candidates: each caller keeps its exact test, so
//! the answers are the same bits as the pass over every edge (the tests compare the two).

use crate::geom::Winding;
use glam::{DVec2, Vec2};

/// An item overlapping more cells than this is listed once, apart, and every query looks at
/// it (a long diagonal wall would otherwise fill a whole band of cells).
const MAX_CELLS_PER_ITEM: usize = 256;

/// At most about this many cells per edge (plus a constant): far-apart obstacles must not make
/// an enormous empty grid.
const CELLS_PER_EDGE: usize = 4;

/// Relative slack added to every box the grid compares, so that `f32` rounding in a caller's
/// exact test (a distance, a ray crossing) never meets an item the grid left out.
const SLACK: f32 = 1e-5;

/// One edge of an outline.
#[derive(Clone, Copy, Debug)]
struct GridEdge {
    from: Vec2,
    to: Vec2,
    /// The first (lowest) column and row of the cells its box overlaps: the one cell, among
    /// those a query shares with it, where the query reports it (each edge once).
    first: (u32, u32),
}

/// One solid (counter-clockwise) polygon.
#[derive(Clone, Debug)]
struct Solid {
    /// Its index in the outlines given.
    polygon: u32,
    /// Its box, grown by the slack.
    min: Vec2,
    max: Vec2,
    vertices: Vec<Vec2>,
}

/// Items (edges or solids) listed by cell.
#[derive(Clone, Debug, Default)]
struct CellLists {
    /// `start[c]..start[c + 1]` indexes cell `c`'s items in `items`.
    start: Vec<u32>,
    items: Vec<u32>,
    /// Items overlapping too many cells: looked at by every query.
    everywhere: Vec<u32>,
}

/// The edges and solid polygons of a set of obstacle outlines, by the cells of a uniform grid
/// their boxes overlap. Outlines follow RVO2's convention: two vertices make one segment,
/// more make a closed polygon, solid when counter-clockwise.
#[derive(Clone, Debug, Default)]
pub(crate) struct PolygonGrid {
    /// The corner of cell (0, 0).
    origin: DVec2,
    /// 1 / the cell's side.
    inverse: f64,
    columns: usize,
    rows: usize,
    /// The largest coordinate magnitude of any vertex (scales the slack).
    magnitude: f32,
    edges: Vec<GridEdge>,
    edge_cells: CellLists,
    solids: Vec<Solid>,
    solid_cells: CellLists,
}

impl PolygonGrid {
    /// The grid over `outlines` (finite vertices; at least two per outline).
    pub(crate) fn new(outlines: &[Vec<Vec2>]) -> PolygonGrid {
        PolygonGrid::with_limit(outlines, MAX_CELLS_PER_ITEM)
    }

    /// The same, listing apart the items that overlap more than `max_cells_per_item` cells.
    fn with_limit(outlines: &[Vec<Vec2>], max_cells_per_item: usize) -> PolygonGrid {
        let mut grid = PolygonGrid::default();
        for poly in outlines {
            let n = poly.len();
            let count = if n == 2 { 1 } else { n };
            grid.edges.extend((0..count).map(|i| GridEdge { from: poly[i], to: poly[(i + 1) % n], first: (0, 0) }));
        }
        if grid.edges.is_empty() {
            return grid;
        }
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for e in &grid.edges {
            lo = lo.min(e.from.min(e.to));
            hi = hi.max(e.from.max(e.to));
        }
        grid.magnitude = lo.abs().max(hi.abs()).max_element();
        // Square cells of about the area per edge, coarser when that would make more than
        // `CELLS_PER_EDGE` cells an edge (a thin or sparse arrangement).
        let extent = (hi - lo).as_dvec2().max(DVec2::splat(1e-3));
        let most = (CELLS_PER_EDGE * grid.edges.len() + 16) as f64;
        let mut cell = (extent.x * extent.y / grid.edges.len() as f64).sqrt();
        let dims = |cell: f64| ((extent.x / cell).floor() + 1.0, (extent.y / cell).floor() + 1.0);
        while dims(cell).0 * dims(cell).1 > most {
            cell *= 1.5;
        }
        let (columns, rows) = dims(cell);
        (grid.origin, grid.inverse, grid.columns, grid.rows) =
            (lo.as_dvec2(), 1.0 / cell, columns as usize, rows as usize);

        let grow = |min: Vec2, max: Vec2| {
            let slack = Vec2::splat(SLACK * grid.magnitude);
            (min - slack, max + slack)
        };
        let edge_boxes: Vec<_> = grid.edges.iter().map(|e| grow(e.from.min(e.to), e.from.max(e.to))).collect();
        grid.edge_cells = grid.lists(&edge_boxes, max_cells_per_item);
        for (e, &(min, _)) in grid.edges.iter_mut().zip(&edge_boxes) {
            let (x, y) = grid_cell(grid.origin, grid.inverse, grid.columns, grid.rows, min);
            e.first = (x as u32, y as u32);
        }
        for (k, poly) in outlines.iter().enumerate() {
            if poly.len() > 2 && Winding::of(poly) == Winding::CounterClockwise {
                let (min, max) = poly.iter().fold((poly[0], poly[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
                let (min, max) = grow(min, max);
                grid.solids.push(Solid { polygon: k as u32, min, max, vertices: poly.clone() });
            }
        }
        let solid_boxes: Vec<_> = grid.solids.iter().map(|s| (s.min, s.max)).collect();
        grid.solid_cells = grid.lists(&solid_boxes, max_cells_per_item);
        grid
    }

    /// The cell (column, row) of `p`, clamped to the grid.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        grid_cell(self.origin, self.inverse, self.columns, self.rows, p)
    }

    /// Lists items (by their boxes) in the cells they overlap, apart when too many.
    fn lists(&self, boxes: &[(Vec2, Vec2)], max_cells_per_item: usize) -> CellLists {
        let mut lists = CellLists { start: vec![0; self.columns * self.rows + 1], ..CellLists::default() };
        let ranges: Vec<_> = boxes
            .iter()
            .map(|&(min, max)| {
                let ((x0, y0), (x1, y1)) = (self.cell_of(min), self.cell_of(max));
                ((x1 - x0 + 1) * (y1 - y0 + 1) <= max_cells_per_item).then_some((x0, y0, x1, y1))
            })
            .collect();
        let cells = |&(x0, y0, x1, y1): &(usize, usize, usize, usize)| {
            (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * self.columns + x))
        };
        for range in ranges.iter().flatten() {
            cells(range).for_each(|c| lists.start[c + 1] += 1);
        }
        for c in 0..self.columns * self.rows {
            lists.start[c + 1] += lists.start[c];
        }
        let mut next = lists.start.clone();
        lists.items = vec![0; lists.start[self.columns * self.rows] as usize];
        for (k, range) in ranges.iter().enumerate() {
            match range {
                Some(range) => cells(range).for_each(|c| {
                    lists.items[next[c] as usize] = k as u32;
                    next[c] += 1;
                }),
                None => lists.everywhere.push(k as u32),
            }
        }
        lists
    }

    /// Calls `visit(from, to)` on every edge whose box, grown by `reach`, may hold `p`: on all
    /// of those whose grown box does hold it (and a few more), each once, until `visit`
    /// returns false. Returns whether it went through them all.
    pub(crate) fn visit_edges_near(&self, p: Vec2, reach: f32, mut visit: impl FnMut(Vec2, Vec2) -> bool) -> bool {
        if self.edges.is_empty() {
            return true;
        }
        let lists = &self.edge_cells;
        let grown = Vec2::splat(reach + SLACK * (reach + self.magnitude + p.abs().max_element()));
        let ((x0, y0), (x1, y1)) = (self.cell_of(p - grown), self.cell_of(p + grown));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.columns + x;
                for &e in &lists.items[lists.start[c] as usize..lists.start[c + 1] as usize] {
                    let e = &self.edges[e as usize];
                    // An edge in several of the query's cells is visited in the one at the
                    // lower corner of the overlap of its cells and the query's.
                    let (fx, fy) = e.first;
                    if (fx as usize).max(x0) == x && (fy as usize).max(y0) == y && !visit(e.from, e.to) {
                        return false;
                    }
                }
            }
        }
        lists.everywhere.iter().all(|&e| visit(self.edges[e as usize].from, self.edges[e as usize].to))
    }

    /// Whether a disc at `p` of `radius` is clear of every edge and outside every solid
    /// polygon: [`crate::scenario::clear_of_obstacles`] over the grid's outlines.
    pub(crate) fn is_clear(&self, p: Vec2, radius: f32) -> bool {
        if !p.is_finite() {
            // The pass over every edge finds a NaN distance, never clear.
            return self.edges.is_empty();
        }
        self.visit_edges_near(p, radius, |a, b| crate::geom::distance_to_segment(p, a, b) >= radius)
            && self.solid_holding(p).is_none()
    }

    /// Whether there are no outlines.
    pub(crate) fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// Whether any outline is a solid polygon.
    pub(crate) fn has_solids(&self) -> bool {
        !self.solids.is_empty()
    }

    /// The first (by index among the outlines) solid polygon that holds `p` (even-odd rule).
    pub(crate) fn solid_holding(&self, p: Vec2) -> Option<usize> {
        if self.solids.is_empty() {
            return None;
        }
        let lists = &self.solid_cells;
        let (x, y) = self.cell_of(p);
        let c = y * self.columns + x;
        let listed = &lists.items[lists.start[c] as usize..lists.start[c + 1] as usize];
        listed
            .iter()
            .chain(&lists.everywhere)
            .map(|&k| &self.solids[k as usize])
            .filter(|s| s.min.cmple(p).all() && p.cmple(s.max).all() && crate::geom::inside_polygon(p, &s.vertices))
            .map(|s| s.polygon as usize)
            .min()
    }
}

/// The cell (column, row) of `p` in a grid of `columns × rows` cells of side `1 / inverse`
/// from `origin`, clamped to the grid (a NaN coordinate gives column or row 0).
fn grid_cell(origin: DVec2, inverse: f64, columns: usize, rows: usize, p: Vec2) -> (usize, usize) {
    let cell = ((p.as_dvec2() - origin) * inverse).max(DVec2::ZERO);
    // (Float-to-int casts saturate: a far point lands in the last cell.)
    ((cell.x as usize).min(columns - 1), (cell.y as usize).min(rows - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{distance_to_segment, inside_polygon};
    use proptest::prelude::*;

    /// Solid squares, clockwise squares (boundaries), triangles and walls on a coarse lattice
    /// (shared corners and lines are common), long diagonal walls and big solid blocks (listed
    /// everywhere), all moved by `offset` (far from the origin, rounding is coarser).
    fn outlines_strategy() -> impl Strategy<Value = (Vec<Vec<Vec2>>, Vec2)> {
        let square = (-6i32..6, -6i32..6, 1i32..4, any::<bool>()).prop_map(|(x, y, s, solid)| {
            let (x, y, s) = (x as f32 * 5.0, y as f32 * 5.0, s as f32 * 3.0);
            let mut v = vec![Vec2::new(x, y), Vec2::new(x + s, y), Vec2::new(x + s, y + s), Vec2::new(x, y + s)];
            if !solid {
                v.reverse();
            }
            v
        });
        let triangle = (-30.0f32..30.0, -30.0f32..30.0, 1.0f32..9.0)
            .prop_map(|(x, y, s)| vec![Vec2::new(x, y), Vec2::new(x + s, y), Vec2::new(x, y + s)]);
        let wall = (-30.0f32..30.0, -30.0f32..30.0, -20.0f32..20.0, -20.0f32..20.0)
            .prop_filter("a wall has length", |(_, _, dx, dy)| dx.abs() + dy.abs() > 0.5)
            .prop_map(|(x, y, dx, dy)| vec![Vec2::new(x, y), Vec2::new(x + dx, y + dy)]);
        let long_wall = (-1.0f32..1.0).prop_map(|t| vec![Vec2::new(-40.0, -40.0 + t), Vec2::new(40.0, 40.0 - t)]);
        let big_block = (30.0f32..40.0)
            .prop_map(|h| vec![Vec2::new(-h, -h), Vec2::new(h, -h + 3.0), Vec2::new(h, h), Vec2::new(-h + 5.0, h)]);
        let outlines = prop::collection::vec(
            prop_oneof![4 => square, 2 => triangle, 2 => wall, 1 => long_wall, 1 => big_block],
            1..40,
        );
        let offset = prop_oneof![Just(Vec2::ZERO), Just(Vec2::new(20_000.0, -7_000.0))];
        (outlines, offset).prop_map(|(outlines, offset)| {
            let moved = outlines.into_iter().map(|o| o.into_iter().map(|v| v + offset).collect()).collect();
            (moved, offset)
        })
    }

    /// Every edge of the outlines, as the grid lists them.
    fn all_edges(outlines: &[Vec<Vec2>]) -> Vec<(Vec2, Vec2)> {
        let mut edges = Vec::new();
        for poly in outlines {
            let n = poly.len();
            let count = if n == 2 { 1 } else { n };
            edges.extend((0..count).map(|i| (poly[i], poly[(i + 1) % n])));
        }
        edges
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The grid's answers are those of a pass over every outline: the edges whose box,
        /// grown by the reach, holds the point (each once, whatever else it visits), whether
        /// a disc is clear, and the first solid polygon holding a point.
        #[test]
        fn answers_equal_a_pass_over_every_outline(
            (outlines, offset) in outlines_strategy(),
            points in prop::collection::vec((-45.0f32..45.0, -45.0f32..45.0, 0.0f32..6.0), 1..60),
            // (So few cells an item that many are listed apart, as a long wall is in a city.)
            limit in prop_oneof![Just(MAX_CELLS_PER_ITEM), Just(6)],
        ) {
            let grid = PolygonGrid::with_limit(&outlines, limit);
            let edges = all_edges(&outlines);
            let near = |p: Vec2, r: f32, (a, b): (Vec2, Vec2)| {
                !(p.x < a.x.min(b.x) - r || p.x > a.x.max(b.x) + r || p.y < a.y.min(b.y) - r || p.y > a.y.max(b.y) + r)
            };
            let key = |(a, b): (Vec2, Vec2)| [a.x, a.y, b.x, b.y].map(f32::to_bits);
            for (x, y, r) in points {
                let p = Vec2::new(x, y) + offset;
                let mut visited = Vec::new();
                let went_through = grid.visit_edges_near(p, r, |a, b| {
                    visited.push((a, b));
                    true
                });
                prop_assert!(went_through);
                let mut found: Vec<_> = visited.into_iter().filter(|&e| near(p, r, e)).map(key).collect();
                let mut expected: Vec<_> = edges.iter().copied().filter(|&e| near(p, r, e)).map(key).collect();
                found.sort_unstable();
                expected.sort_unstable();
                prop_assert_eq!(found, expected, "edges near {:?} within {}", p, r);
                prop_assert_eq!(grid.is_clear(p, r), crate::scenario::clear_of_obstacles(p, r, &outlines), "clear at {:?}", p);
                let first_solid = outlines.iter().position(|poly| {
                    poly.len() > 2 && Winding::of(poly) == Winding::CounterClockwise && inside_polygon(p, poly)
                });
                prop_assert_eq!(grid.solid_holding(p), first_solid, "solid at {:?}", p);
            }
        }
    }

    #[test]
    fn points_on_edges_and_corners_inside_and_far_away() {
        let block = vec![Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0)];
        let wall = vec![Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0)];
        let outlines = vec![wall.clone(), block.clone()];
        let grid = PolygonGrid::new(&outlines);
        // Inside the block (outline 1), on its corner, on its edge, and beside the wall.
        assert_eq!(grid.solid_holding(Vec2::new(2.0, 2.0)), Some(1));
        assert_eq!(grid.solid_holding(Vec2::new(12.0, 2.0)), None);
        assert!(!grid.is_clear(Vec2::new(2.0, 2.0), 0.1));
        assert!(!grid.is_clear(Vec2::new(4.5, 4.5), 1.0));
        assert!(grid.is_clear(Vec2::new(4.5, 4.5), 0.5));
        assert!(!grid.is_clear(Vec2::new(9.5, 0.0), 0.6));
        assert!(grid.is_clear(Vec2::new(7.0, 0.0), 2.9));
        // Far outside the grid: clear, and every edge near a huge disc is visited.
        assert!(grid.is_clear(Vec2::new(1e6, -1e6), 10.0));
        let mut count = 0;
        grid.visit_edges_near(Vec2::new(5.0, 0.0), 100.0, |_, _| {
            count += 1;
            true
        });
        assert_eq!(count, all_edges(&outlines).len());
        // A NaN point is clear of nothing, as in the pass over every edge.
        assert!(!grid.is_clear(Vec2::new(f32::NAN, 0.0), 1.0));
        assert!(!crate::scenario::clear_of_obstacles(Vec2::new(f32::NAN, 0.0), 1.0, &outlines));
        // No outlines: everywhere clear.
        let empty = PolygonGrid::new(&[]);
        assert!(empty.is_clear(Vec2::ZERO, 5.0));
        assert_eq!(empty.solid_holding(Vec2::ZERO), None);
        // (The brute-force distance the test compares with.)
        assert_eq!(distance_to_segment(Vec2::new(10.0, 8.0), wall[0], wall[1]), 3.0);
    }
}
