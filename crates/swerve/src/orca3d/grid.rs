//! A uniform grid that answers the neighbour queries whose answer does not depend on ties,
//! exactly as RVO2-3D's k-d tree would, at a fraction of the tree's cost.
//!
//! RVO2-3D's answer is the `k` agents nearest the querying one, nearer than its neighbour
//! distance, nearest first. When no two of the distances that decide it are equal, that answer
//! is fixed by the distances alone, whichever order the candidates are met in — so any search
//! that sees every candidate finds it. Only when distances tie does the tree's visiting order
//! choose; such queries report [`GridAnswer::Tied`] and the step asks the tree (which, in 3-D,
//! carries no state between steps, so it is built only in the steps that need it).
//!
//! Each query looks at the cells within a radius: first a guess (the radius its last query
//! ended with, grown by how far agents have moved), then, if the guess did not provably hold
//! the `k` nearest, the whole neighbour distance. Cell bounds carry a margin for the rounding of
//! the cell assignment and of the distances, so that no agent RVO2-3D would count is missed.

use std::ops::Range;

use glam::Vec3;
use wide::{f32x4, CmpLt};

use super::kdtree::insert;
use crate::spatial::LayerFilter;

/// How a grid query ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GridAnswer {
    /// The neighbour list is RVO2-3D's; its search ended at this radius (m): the `k`-th
    /// distance when the list is full, else the neighbour distance.
    Exact {
        /// The radius the search ended with (m).
        radius: f32,
    },
    /// Distances tie where they decide the answer: only the tree's order can settle it.
    Tied,
}

/// Relative margin on squared distances for the rounding of the distances themselves.
const ROUNDING: f32 = 1.0e-5;

/// Candidates gathered at a time before they are inserted (a stack buffer).
const GATHER: usize = 64;

/// Most cells the grid may have, per agent (a sparse crowd gets coarser cells).
const CELLS_PER_AGENT: usize = 4;

/// The agents bucketed by cell, one step's positions.
#[derive(Clone, Debug, Default)]
pub struct NeighborGrid {
    origin: Vec3,
    cell: f32,
    inverse_cell: f32,
    /// Cells along x, y, z.
    dims: [usize; 3],
    /// Agents of cell `c` are slots `start[c]..start[c + 1]`; cells are numbered x fastest,
    /// so a row of cells along x is one contiguous run.
    start: Vec<u32>,
    /// Each slot's agent, and its position by coordinate (so that a scan reads four
    /// candidates' x, y and z as three vectors).
    slot_agents: Vec<u32>,
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
    /// Each agent's cell (scratch of the build).
    cells: Vec<u32>,
    /// Absolute margin (m) for where the cell assignment's rounding may put an agent.
    slack: f32,
}

impl NeighborGrid {
    /// Buckets `positions` into cells of about `cell` metres (coarser if the crowd is so
    /// spread out that there would be more than `CELLS_PER_AGENT` (4) cells per agent).
    pub fn build(&mut self, positions: &[Vec3], cell: f32) {
        self.slot_agents.clear();
        self.start.clear();
        self.cells.clear();
        if positions.is_empty() {
            return;
        }
        let (mut lo, mut hi) = (positions[0], positions[0]);
        for &p in positions {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        // Clamped to the largest float: agents farther apart than that (coordinates near ±3e38)
        // would make the extent infinite and the cell count NaN; they share one cell instead.
        let extent = (hi - lo).max(Vec3::splat(1e-3)).min(Vec3::splat(f32::MAX));
        let most = (CELLS_PER_AGENT * positions.len()) as f32;
        let mut cell = cell.max(1e-3);
        let cells_for = |c: f32| ((extent / c).floor() + Vec3::ONE).to_array().iter().product::<f32>();
        if cells_for(cell) > most {
            cell = cell.max((extent.x * extent.y * extent.z / most).cbrt());
            while cells_for(cell) > most {
                cell *= 1.25;
            }
        }
        self.origin = lo;
        self.cell = cell;
        self.inverse_cell = 1.0 / cell;
        let dims = ((extent / cell).floor() + Vec3::ONE).to_array().map(|d| d as usize);
        self.dims = dims;
        let largest = lo.abs().max(hi.abs()).max_element();
        self.slack = 1.0e-5 * (largest + cell);

        let count = dims[0] * dims[1] * dims[2];
        self.start.resize(count + 1, 0);
        for &p in positions {
            let c = self.cell_of(p);
            self.start[c + 1] += 1;
            self.cells.push(c as u32);
        }
        for c in 0..count {
            self.start[c + 1] += self.start[c];
        }
        self.slot_agents.resize(positions.len(), 0);
        // Three slots of padding: a scan's last group of four may read past the last agent
        // (what it reads there is masked out).
        for column in [&mut self.xs, &mut self.ys, &mut self.zs] {
            column.resize(positions.len() + 3, 0.0);
        }
        // Place each agent at its cell's next free slot, counting `start[c]` up as we go, then
        // shift the starts back.
        for (index, (&p, &c)) in positions.iter().zip(&self.cells).enumerate() {
            let slot = &mut self.start[c as usize];
            let slot_index = *slot as usize;
            self.slot_agents[slot_index] = index as u32;
            (self.xs[slot_index], self.ys[slot_index], self.zs[slot_index]) = (p.x, p.y, p.z);
            *slot += 1;
        }
        for c in (1..=count).rev() {
            self.start[c] = self.start[c - 1];
        }
        self.start[0] = 0;
    }

    /// The cell along `axis` that `value` falls in, clamped to the grid.
    #[inline(always)]
    fn axis_cell(&self, value: f32, axis: usize) -> usize {
        let c = (value - self.origin[axis]) * self.inverse_cell;
        // Truncation is the floor for the positive values that remain (and avoids a call to
        // `floorf` on CPUs without SSE4.1).
        if c > 0.0 {
            (c as usize).min(self.dims[axis] - 1)
        } else {
            0
        }
    }

    fn cell_of(&self, p: Vec3) -> usize {
        let (x, y, z) = (self.axis_cell(p.x, 0), self.axis_cell(p.y, 1), self.axis_cell(p.z, 2));
        x + self.dims[0] * (y + self.dims[1] * z)
    }

    /// RVO2-3D's neighbours of agent `agent` at `position`: the `max_neighbors` nearest with
    /// squared distance below `range_squared`, nearest first, into `neighbors`. `guess` is a
    /// radius (m) likely to hold them; `f32::INFINITY` for none. With a `filter` (avoidance
    /// layers), only the agents it accepts.
    #[allow(clippy::too_many_arguments)]
    pub fn neighbors(
        &self,
        agent: u32,
        position: Vec3,
        range_squared: f32,
        guess: f32,
        max_neighbors: usize,
        filter: Option<LayerFilter<'_>>,
        neighbors: &mut Vec<(f32, u32)>,
    ) -> GridAnswer {
        neighbors.clear();
        if self.slot_agents.is_empty() || max_neighbors == 0 {
            return GridAnswer::Exact { radius: range_squared.sqrt() };
        }
        // The whole neighbour distance, grown so that every agent RVO2-3D could count is in.
        let full = range_squared.sqrt() * (1.0 + ROUNDING);
        if guess < full {
            let (reached, excluded) =
                self.collect(agent, position, range_squared, guess, max_neighbors, filter, neighbors);
            // Complete if the k-th neighbour is provably nearer than any agent outside the
            // cells looked at (all of them farther than `guess`).
            if neighbors.len() == max_neighbors && reached < guess * guess * (1.0 - 4.0 * ROUNDING) {
                return self.settle(neighbors, reached, excluded, max_neighbors);
            }
        }
        let (reached, excluded) = self.collect(agent, position, range_squared, full, max_neighbors, filter, neighbors);
        self.settle(neighbors, reached, excluded, max_neighbors)
    }

    /// The answer, unless a tie decides it: two equal distances in the list (their order is
    /// the tree's), or an agent left out at exactly the k-th distance (which one is kept is
    /// the tree's).
    fn settle(&self, neighbors: &[(f32, u32)], reached: f32, excluded: f32, max_neighbors: usize) -> GridAnswer {
        let tied_inside = neighbors.windows(2).any(|w| w[0].0 == w[1].0);
        let tied_at_edge = neighbors.len() == max_neighbors && excluded == reached;
        if tied_inside || tied_at_edge {
            GridAnswer::Tied
        } else {
            GridAnswer::Exact { radius: reached.sqrt() }
        }
    }

    /// The squared distances from `position` of the agents of `slots` (at most [`GATHER`]),
    /// into `distances` in slot order, and the mask of those below `range_squared` (bit `k`:
    /// slot `slots.start + k`).
    ///
    /// Four candidates at a time, without a branch on the distance (about one candidate in
    /// seven is kept, at random, which a branch would mispredict). The last group reads up to
    /// three slots past the end (the next row's, or the padding), which the mask leaves out.
    /// Each distance is summed in the order of `Vec3::length_squared`, lane by lane, so it has
    /// the bits of RVO2-3D's.
    #[inline(always)]
    fn gather(&self, position: Vec3, range_squared: f32, slots: Range<usize>, distances: &mut [f32; GATHER]) -> u64 {
        let count = slots.len();
        let padded = slots.start..slots.start + count.next_multiple_of(4);
        let (xs, ys, zs) = (&self.xs[padded.clone()], &self.ys[padded.clone()], &self.zs[padded]);
        let (px, py, pz) = (f32x4::splat(position.x), f32x4::splat(position.y), f32x4::splat(position.z));
        let range = f32x4::splat(range_squared);
        let mut inside = 0u64;
        let fours = xs.chunks_exact(4).zip(ys.chunks_exact(4)).zip(zs.chunks_exact(4));
        for (group, (((x, y), z), out)) in fours.zip(distances.chunks_exact_mut(4)).enumerate() {
            let dx = px - f32x4::new([x[0], x[1], x[2], x[3]]);
            let dy = py - f32x4::new([y[0], y[1], y[2], y[3]]);
            let dz = pz - f32x4::new([z[0], z[1], z[2], z[3]]);
            let four = dx * dx + dy * dy + dz * dz;
            out.copy_from_slice(&four.to_array());
            inside |= (four.cmp_lt(range).move_mask() as u64) << (4 * group);
        }
        // `count` is at most 64: the bits of the slots in `slots`.
        inside & (u64::MAX >> (64 - count))
    }

    /// Inserts every agent of the cells within `radius` of `position` as RVO2-3D's query
    /// does (strictly nearer than the shrinking range). Returns the final range and the
    /// smallest squared distance left out or pushed out below the starting range.
    #[allow(clippy::too_many_arguments)]
    fn collect(
        &self,
        agent: u32,
        position: Vec3,
        mut range_squared: f32,
        radius: f32,
        max_neighbors: usize,
        filter: Option<LayerFilter<'_>>,
        neighbors: &mut Vec<(f32, u32)>,
    ) -> (f32, f32) {
        neighbors.clear();
        let mut excluded = f32::INFINITY;
        let full_range_squared = range_squared;
        let mut near = [0.0f32; GATHER];
        let reach = radius + self.slack;
        let (x0, y0, z0) = (
            self.axis_cell(position.x - reach, 0),
            self.axis_cell(position.y - reach, 1),
            self.axis_cell(position.z - reach, 2),
        );
        let (x1, y1, z1) = (
            self.axis_cell(position.x + reach, 0),
            self.axis_cell(position.y + reach, 1),
            self.axis_cell(position.z + reach, 2),
        );
        // How far `position` is from the slab of cell `c` along `axis`, less the slack (a lower
        // bound on the distance of any agent in that slab along that axis).
        let gap = |c: usize, axis: usize| {
            let low = self.origin[axis] + c as f32 * self.cell;
            let d = (low - position[axis]).max(position[axis] - (low + self.cell));
            (d - self.slack).max(0.0)
        };
        for z in z0..=z1 {
            let gz = gap(z, 2);
            for y in y0..=y1 {
                let gy = gap(y, 1);
                // The whole row is farther than the range: skip it.
                if (gz * gz + gy * gy) * (1.0 - 4.0 * ROUNDING) > range_squared {
                    continue;
                }
                let row = self.dims[0] * (y + self.dims[1] * z);
                let (run, run_end) = (self.start[row + x0] as usize, self.start[row + x1 + 1] as usize);
                let mut chunk = run;
                while chunk < run_end {
                    // 1 to `GATHER` slots at a time.
                    let slots = chunk..(chunk + GATHER).min(run_end);
                    let mut inside = self.gather(position, full_range_squared, slots.clone(), &mut near);
                    // RVO2-3D's insertion of those kept, in scan order. Candidates left out above are
                    // at least the whole range away, so they could not have tied with the
                    // final k-th distance (which is below it).
                    while inside != 0 {
                        let k = inside.trailing_zeros() as usize;
                        inside &= inside - 1;
                        let (distance, other) = (near[k], self.slot_agents[chunk + k]);
                        // (An agent the filter refuses is absent: it neither joins nor ties.)
                        if other == agent || filter.is_some_and(|f| !f.accepts(other)) {
                            continue;
                        }
                        if distance < range_squared {
                            if neighbors.len() == max_neighbors {
                                excluded = excluded.min(neighbors[max_neighbors - 1].0);
                            }
                            insert(neighbors, max_neighbors, (distance, other));
                            if neighbors.len() == max_neighbors {
                                range_squared = neighbors[max_neighbors - 1].0;
                            }
                        } else {
                            excluded = excluded.min(distance);
                        }
                    }
                    chunk = slots.end;
                }
            }
        }
        (range_squared, excluded)
    }
}

#[cfg(test)]
mod tests {
    use super::super::kdtree::tests::points_maybe_snapped;
    use super::super::kdtree::AgentTree;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn untied_answers_equal_the_trees(
            points in prop::collection::vec((-60.0f32..60.0, -60.0f32..60.0, -25.0f32..25.0), 1..400),
            range in 0.5f32..30.0,
            k in 0usize..16,
            cell in 0.5f32..40.0,
            guess_factor in 0.0f32..2.0,
            snap in any::<bool>(),
            filtered in prop::option::of((prop::collection::vec(0u32..8, 400), 0u32..8)),
        ) {
            let positions = points_maybe_snapped(&points, snap);
            // Avoidance layers (agent `i` on `layers[i]`): both answer over the accepted agents.
            let filter = filtered.as_ref().map(|(layers, mask)| LayerFilter { layers, mask: *mask });
            let mut tree = AgentTree::default();
            tree.build(&positions);
            let mut grid = NeighborGrid::default();
            grid.build(&positions, cell);
            let (mut from_tree, mut from_grid, mut stack) = (Vec::new(), Vec::new(), Vec::new());
            let mut tied = 0;
            for (agent, &p) in positions.iter().enumerate() {
                tree.neighbors(agent as u32, p, range * range, k, filter, &mut from_tree, &mut stack);
                if let Some(filter) = filter {
                    prop_assert!(from_tree.iter().all(|&(_, j)| filter.accepts(j)), "agent {}", agent);
                    // The tree's filtered answer holds the nearest accepted agents (brute force).
                    let mut all: Vec<f32> = positions.iter().enumerate()
                        .filter(|&(j, _)| j != agent && filter.accepts(j as u32))
                        .map(|(_, q)| (p - *q).length_squared())
                        .filter(|&d| d < range * range)
                        .collect();
                    all.sort_by(f32::total_cmp);
                    all.truncate(k);
                    prop_assert_eq!(from_tree.iter().map(|n| n.0).collect::<Vec<_>>(), all, "agent {}", agent);
                }
                match grid.neighbors(agent as u32, p, range * range, range * guess_factor, k, filter, &mut from_grid) {
                    GridAnswer::Exact { .. } => prop_assert_eq!(&from_grid, &from_tree, "agent {}", agent),
                    GridAnswer::Tied => tied += 1,
                }
            }
            // Without the lattice, ties are (almost) impossible: the grid must answer.
            if !snap {
                prop_assert!(tied * 10 <= positions.len(), "{} of {} tied", tied, positions.len());
            }
        }
    }

    #[test]
    fn a_lattice_reports_its_ties() {
        let mut positions = Vec::new();
        for i in 0..5 {
            for j in 0..5 {
                for k in 0..5 {
                    positions.push(Vec3::new(i as f32, j as f32, k as f32) * 2.0);
                }
            }
        }
        let mut grid = NeighborGrid::default();
        grid.build(&positions, 3.0);
        let mut found = Vec::new();
        // The centre agent's 6 nearest are equally far (2 m): any 3 of them is a tie.
        let centre = 62;
        assert_eq!(positions[centre], Vec3::splat(4.0));
        assert_eq!(
            grid.neighbors(centre as u32, positions[centre], 100.0, 10.0, 3, None, &mut found),
            GridAnswer::Tied
        );
        // All 6 of them, but none of the 12 at 2√2 m: still tied inside the list.
        assert_eq!(
            grid.neighbors(centre as u32, positions[centre], 100.0, 10.0, 6, None, &mut found),
            GridAnswer::Tied
        );
        // Within 1.5 m there is no one: an exact empty answer.
        assert!(matches!(
            grid.neighbors(centre as u32, positions[centre], 2.25, 10.0, 6, None, &mut found),
            GridAnswer::Exact { .. }
        ));
        assert!(found.is_empty());
    }
}
