//! A uniform grid that answers RVO2's neighbour query in O(1) per agent, or says it cannot.
//!
//! RVO2's answer is "the `k` agents nearest to `p` with squared distance `< r²`, nearest first",
//! with ties in [`AgentKdTree`](super::AgentKdTree) visit order. Without ties the answer is
//! the plain top-k by distance, which a grid finds faster than the tree (O(n) counting-sort
//! build, cache-friendly scans of the cells around `p`). With ties the order would depend on
//! the tree, so [`NeighborGrid::nearest`] reports [`GridQuery::Tied`] whenever two equal
//! distances compete for a place or an order, and the caller asks the tree instead. Results
//! are therefore bit-identical to RVO2's in every case.

use super::agent_kdtree::Neighbor;
use glam::Vec2;

/// Whether a grid query's answer is the exact RVO2 answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridQuery {
    /// No tie could affect the result: it equals the k-d tree's.
    Exact,
    /// Two candidates at the same squared distance competed; ask the k-d tree.
    Tied,
}

/// A uniform grid over agent positions, rebuilt every step by counting sort.
#[derive(Clone, Debug, Default)]
pub struct NeighborGrid {
    origin: Vec2,
    cell_size: f64,
    inv_cell_size: f64,
    columns: usize,
    rows: usize,
    /// `cell_start[c]..cell_start[c + 1]` indexes the entries of cell `c`.
    cell_start: Vec<u32>,
    /// Agent indices in cell order.
    entries: Vec<u32>,
    /// Positions in cell order.
    points: Vec<Vec2>,
    /// Each agent's cell (by agent index).
    cell_of: Vec<u32>,
    /// Whether the cell-count cap forced cells much larger than asked for (a sparse crowd
    /// such as a ring): queries then scan many far-away agents and a tree does better.
    coarse: bool,
}

/// A sorted neighbour list with RVO2's insertion rule that reports ties (see
/// [`insert_checking_ties`]): the heap [`Vec`] for any `max_count`, [`TopK`] on the stack for
/// small ones.
trait NeighborList {
    /// Offers a candidate with `distance_squared <= *range`; returns whether a tie could have
    /// changed which neighbours are kept or their order.
    fn offer(&mut self, candidate: Neighbor, range: &mut f32, max_count: usize) -> bool;
}

impl NeighborList for Vec<Neighbor> {
    #[inline(always)]
    fn offer(&mut self, candidate: Neighbor, range: &mut f32, max_count: usize) -> bool {
        insert_checking_ties(self, candidate, range, max_count)
    }
}

/// Queries for at most this many neighbours keep them in a [`TopK`] on the stack.
const SMALL_K: usize = 16;

/// The nearest neighbours so far, sorted, in a fixed array: RVO2's insertion with the same
/// tie reporting as [`insert_checking_ties`], without a heap-allocated list's length loads.
struct TopK {
    items: [Neighbor; SMALL_K],
    len: usize,
}

impl NeighborList for TopK {
    /// `max_count <= SMALL_K`.
    #[inline(always)]
    fn offer(&mut self, candidate: Neighbor, range: &mut f32, max_count: usize) -> bool {
        let d = candidate.distance_squared;
        let full = self.len == max_count;
        if d == *range {
            // Rejected (RVO2 keeps only d < range); a tie if it competes with the worst kept.
            return full;
        }
        let mut tied = false;
        let mut i = if full {
            // The worst is evicted: a tie if it equals the one that becomes the worst.
            let evicted = self.items[max_count - 1].distance_squared;
            let next_worst = if max_count >= 2 { self.items[max_count - 2].distance_squared.max(d) } else { d };
            tied = evicted == next_worst;
            max_count - 1
        } else {
            self.len += 1;
            self.len - 1
        };
        while i > 0 && d < self.items[i - 1].distance_squared {
            self.items[i] = self.items[i - 1];
            i -= 1;
        }
        self.items[i] = candidate;
        if self.len == max_count {
            *range = self.items[max_count - 1].distance_squared;
        }
        tied
    }
}

/// The running state of one query.
struct Scan {
    center: Vec2,
    exclude: u32,
    /// Squared search radius; shrinks to the farthest kept neighbour once `max_count` are held.
    range: f32,
    max_count: usize,
    /// Whether equal distances competed for a place or an order.
    tied: bool,
}

/// Relative safety margin for the early-exit bound: the bound is computed in `f64` from the
/// cell geometry while distances are `f32`; stopping only when the bound beats the current
/// worst neighbour by this factor keeps rounding from ever cutting off a true neighbour.
const BOUND_MARGIN: f64 = 1e-5;

impl NeighborGrid {
    /// An empty grid.
    pub fn new() -> NeighborGrid {
        NeighborGrid::default()
    }

    /// Rebuilds over `positions` with cells of about `cell_size` metres (enlarged so that there
    /// are at most about eight cells per agent). Allocates only when the agent count grew.
    pub fn rebuild(&mut self, positions: &[Vec2], cell_size: f32) {
        let n = positions.len();
        self.entries.clear();
        self.points.clear();
        self.cell_of.clear();
        if n == 0 {
            self.cell_start.clear();
            self.columns = 0;
            self.rows = 0;
            return;
        }
        let (mut min, mut max) = (positions[0], positions[0]);
        for p in positions {
            min = min.min(*p);
            max = max.max(*p);
        }
        let extent = (max - min).as_dvec2();
        let asked = (cell_size as f64).max(1e-3);
        let mut cell = asked;
        // Cap the cell count near 4n: a sparse crowd (a ring, outliers) must not make an
        // enormous empty grid.
        let max_cells = 8.0 * n as f64 + 16.0;
        let cells_for = |c: f64| ((extent.x / c).floor() + 1.0) * ((extent.y / c).floor() + 1.0);
        if cells_for(cell) > max_cells {
            cell = (extent.x * extent.y / max_cells).sqrt().max(cell);
            while cells_for(cell) > max_cells {
                cell *= 1.25;
            }
        }
        self.coarse = cell > 2.0 * asked;
        self.origin = min;
        self.cell_size = cell;
        self.inv_cell_size = 1.0 / cell;
        self.columns = (extent.x * self.inv_cell_size).floor() as usize + 1;
        self.rows = (extent.y * self.inv_cell_size).floor() as usize + 1;
        let cell_count = self.columns * self.rows;

        self.cell_start.clear();
        self.cell_start.resize(cell_count + 1, 0);
        for p in positions {
            let c = self.cell_index(*p);
            self.cell_of.push(c as u32);
            self.cell_start[c + 1] += 1;
        }
        for c in 0..cell_count {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.entries.resize(n, 0);
        self.points.resize(n, Vec2::ZERO);
        // Fill each cell from its end backwards, using cell_start[c + 1] as a cursor, so that
        // afterwards cell_start[c + 1] is back at the start of cell c + 1.
        for (i, p) in positions.iter().enumerate().rev() {
            let c = self.cell_of[i] as usize;
            let slot = self.cell_start[c + 1] as usize - 1;
            self.cell_start[c + 1] -= 1;
            self.entries[slot] = i as u32;
            self.points[slot] = *p;
        }
        // Now cell_start[c + 1] holds the start of cell c; shift down by one.
        for c in 0..cell_count {
            self.cell_start[c] = self.cell_start[c + 1];
        }
        self.cell_start[cell_count] = n as u32;
    }

    #[inline]
    fn cell_coords(&self, p: Vec2) -> (usize, usize) {
        let d = (p - self.origin).as_dvec2() * self.inv_cell_size;
        let x = (d.x.floor().max(0.0) as usize).min(self.columns - 1);
        let y = (d.y.floor().max(0.0) as usize).min(self.rows - 1);
        (x, y)
    }

    #[inline]
    fn cell_index(&self, p: Vec2) -> usize {
        let (x, y) = self.cell_coords(p);
        y * self.columns + x
    }

    /// Whether the last rebuild had to use cells more than twice the size asked for (the crowd
    /// is sparse over its bounding box); the grid still answers exactly, only slower.
    pub fn is_coarse(&self) -> bool {
        self.coarse
    }

    /// RVO2's neighbour query (see [`super::AgentKdTree::nearest`]) over the grid. `out` holds
    /// the answer when the result is [`GridQuery::Exact`]; otherwise ask the tree.
    ///
    /// Scans the 5×5 cells around the query point first (cells are sized so that this usually
    /// suffices), then further rings until no unseen agent can be nearer than the current
    /// range. Each row of a block is one contiguous run of the cell-sorted arrays.
    pub fn nearest(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        out: &mut Vec<Neighbor>,
    ) -> GridQuery {
        out.clear();
        if max_count == 0 || self.entries.is_empty() {
            return GridQuery::Exact;
        }
        let mut scan = Scan { center, exclude, range: range_squared, max_count, tied: false };
        let (cx, cy) = self.cell_coords(center);
        let (cx, cy) = (cx as isize, cy as isize);
        let (columns, rows) = (self.columns as isize, self.rows as isize);
        // Distance from `center` to its own cell's walls (f64; when the centre lies outside
        // the grid this is negative and clamped to 0: the bound is then merely weaker).
        let local = (center - self.origin).as_dvec2();
        let inner = [
            local.x - cx as f64 * self.cell_size,
            (cx + 1) as f64 * self.cell_size - local.x,
            local.y - cy as f64 * self.cell_size,
            (cy + 1) as f64 * self.cell_size - local.y,
        ]
        .into_iter()
        .fold(f64::INFINITY, f64::min)
        .max(0.0);

        const FIRST_BLOCK: isize = 2;
        let mut ring = FIRST_BLOCK;
        if max_count <= SMALL_K {
            // The common case (RVO2's examples use 10): keep the running top-k in a small
            // array on the stack.
            let mut top = TopK { items: [Neighbor { distance_squared: 0.0, index: 0 }; SMALL_K], len: 0 };
            // Middle rows first: nearer candidates arrive early, so fewer later ones beat the
            // running worst and need inserting.
            for dy in [0, -1, 1, -2, 2] {
                let y = cy + dy;
                if y >= 0 && y < rows {
                    self.scan_row(y, cx - ring, cx + ring, &mut scan, &mut top);
                }
            }
            out.extend_from_slice(&top.items[..top.len]);
        } else {
            for y in (cy - ring).max(0)..=(cy + ring).min(rows - 1) {
                self.scan_row(y, cx - ring, cx + ring, &mut scan, out);
            }
        }
        loop {
            let whole_grid = cx - ring <= 0 && cy - ring <= 0 && cx + ring >= columns - 1 && cy + ring >= rows - 1;
            // Every agent outside the cells scanned so far is at least `bound` away.
            let bound = inner + ring as f64 * self.cell_size;
            if whole_grid || (scan.range as f64) < bound * bound * (1.0 - BOUND_MARGIN) {
                break;
            }
            ring += 1;
            let (x0, x1, y0, y1) = (cx - ring, cx + ring, cy - ring, cy + ring);
            if y0 >= 0 {
                self.scan_row(y0, x0, x1, &mut scan, out);
            }
            if y1 < rows {
                self.scan_row(y1, x0, x1, &mut scan, out);
            }
            for y in (y0 + 1).max(0)..=(y1 - 1).min(rows - 1) {
                if x0 >= 0 {
                    self.scan_row(y, x0, x0, &mut scan, out);
                }
                if x1 < columns {
                    self.scan_row(y, x1, x1, &mut scan, out);
                }
            }
        }
        for w in out.windows(2) {
            scan.tied |= w[0].distance_squared == w[1].distance_squared;
        }
        if scan.tied {
            GridQuery::Tied
        } else {
            GridQuery::Exact
        }
    }

    /// [`NeighborGrid::nearest`] with a pruning hint: a squared distance believed to exceed
    /// the `max_count`-th nearest neighbour's. The scan first keeps only candidates nearer than
    /// the hint; if that finds `max_count` of them, they are the true answer (every true
    /// neighbour is then nearer than the hint); otherwise it scans again with the full range.
    /// A wrong hint costs time, never correctness.
    pub fn nearest_with_hint(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        hint_squared: f32,
        out: &mut Vec<Neighbor>,
    ) -> GridQuery {
        if hint_squared < range_squared {
            let query = self.nearest(center, exclude, hint_squared, max_count, out);
            if out.len() == max_count {
                return query;
            }
        }
        self.nearest(center, exclude, range_squared, max_count, out)
    }

    /// Offers the agents of cells `x0..=x1` (clamped) of row `y` to `list`.
    #[inline(always)]
    fn scan_row(&self, y: isize, x0: isize, x1: isize, scan: &mut Scan, list: &mut impl NeighborList) {
        let x0 = x0.max(0) as usize;
        let x1 = x1.min(self.columns as isize - 1);
        if x1 < x0 as isize {
            return;
        }
        let row = y as usize * self.columns;
        let start = self.cell_start[row + x0] as usize;
        let end = self.cell_start[row + x1 as usize + 1] as usize;
        let (center, exclude, max_count) = (scan.center, scan.exclude, scan.max_count);
        let (mut range, mut tied) = (scan.range, scan.tied);
        for (&index, &point) in self.entries[start..end].iter().zip(&self.points[start..end]) {
            // The same expression as the tree's, so the same f32 value.
            let distance_squared = crate::geom::exact::length_squared(center - point);
            if distance_squared > range || index == exclude {
                continue;
            }
            tied |= list.offer(Neighbor { distance_squared, index }, &mut range, max_count);
        }
        scan.range = range;
        scan.tied = tied;
    }

    /// Panics unless the grid is consistent: every agent sits once in the cell its position
    /// maps to, with its position. For tests.
    pub fn assert_well_formed(&self, positions: &[Vec2]) {
        assert_eq!(self.entries.len(), positions.len());
        let mut seen = vec![false; positions.len()];
        for c in 0..self.columns * self.rows {
            for slot in self.cell_start[c] as usize..self.cell_start[c + 1] as usize {
                let i = self.entries[slot] as usize;
                assert!(!seen[i], "agent {i} twice");
                seen[i] = true;
                assert_eq!(self.points[slot], positions[i]);
                assert_eq!(self.cell_index(positions[i]), c, "agent {i} in the wrong cell");
            }
        }
        assert!(seen.iter().all(|s| *s));
    }
}

/// RVO2's insertion (keep sorted, at most `max_count`, shrink the range when full), also
/// reporting whether a tie could have changed which neighbours are kept or their order.
///
/// The caller has already rejected candidates farther than the range.
#[inline(always)]
fn insert_checking_ties(out: &mut Vec<Neighbor>, candidate: Neighbor, range: &mut f32, max_count: usize) -> bool {
    let d = candidate.distance_squared;
    let full = out.len() == max_count;
    if d == *range {
        // Rejected (RVO2 keeps only d < range). A tie when the range is the current worst
        // neighbour's distance: that neighbour and this one compete for the last place.
        return full;
    }
    // After every neighbour at distance <= d: RVO2's insertion keeps equal distances in
    // arrival order.
    let position = out.partition_point(|n| n.distance_squared <= d);
    let mut tied = false;
    if full {
        // The current worst is evicted: a tie if it equals the one that becomes the worst.
        let evicted = out[max_count - 1].distance_squared;
        let next_worst =
            if position == max_count - 1 || max_count < 2 { d } else { out[max_count - 2].distance_squared };
        tied = evicted == next_worst;
        out.pop();
    }
    out.insert(position, candidate);
    if out.len() == max_count {
        *range = out[max_count - 1].distance_squared;
    }
    tied
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spatial::agent_kdtree::AgentKdTree;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Wherever the grid claims exactness, its answer equals the k-d tree's (same agents,
        /// same order) — including on lattices full of exact ties.
        #[test]
        fn exact_answers_equal_the_kd_tree(
            points in prop::collection::vec((-40i32..40, -40i32..40, -20.0f32..20.0, -20.0f32..20.0), 1..300),
            lattice in any::<bool>(),
            range in 0.5f32..30.0,
            max_count in 0usize..14,
            cell in 0.5f32..20.0,
        ) {
            // Lattice points (multiples of 1/2: many exactly equal distances) or random floats.
            let positions: Vec<Vec2> = points
                .iter()
                .map(|&(x, y, fx, fy)| {
                    if lattice {
                        Vec2::new(x as f32 * 0.5, y as f32 * 0.5)
                    } else {
                        Vec2::new(fx, fy)
                    }
                })
                .collect();
            let mut grid = NeighborGrid::new();
            grid.rebuild(&positions, cell);
            grid.assert_well_formed(&positions);
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut exact = 0;
            for (i, &p) in positions.iter().enumerate() {
                tree.nearest(p, i as u32, range * range, max_count, &mut b);
                if grid.nearest(p, i as u32, range * range, max_count, &mut a) == GridQuery::Exact {
                    prop_assert_eq!(&a, &b, "agent {}", i);
                    exact += 1;
                }
            }
            if !lattice {
                // Without engineered ties nearly every query must be answered by the grid.
                prop_assert!(exact * 10 >= positions.len() * 9, "{} of {}", exact, positions.len());
            }
        }
    }
}
