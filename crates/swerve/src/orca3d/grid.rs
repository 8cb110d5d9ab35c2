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
//!
//! The scan writes every candidate as a key (squared distance and slot, one integer) and
//! counts only those within range, without a branch on the distance; the kept keys are
//! ranked once, at the end (`crate::spatial::nearest_keys`, shared with the planar grid).

use std::ops::Range;

use glam::Vec3;
use wide::{f32x4, CmpLt};

use crate::spatial::{compact, key, key_room, nearest_first, scattered, Compacted, LayerFilter, Ranked};

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

/// Slots scanned at a time between checks of the candidate list's room.
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
    /// Each agent's slot (the scan leaves the querying agent out by its slot).
    agent_slots: Vec<u32>,
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
    /// Each agent's cell, as of the last build (also read by [`NeighborGrid::is_scattered`]).
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
        self.agent_slots.resize(positions.len(), 0);
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
            self.agent_slots[index] = slot_index as u32;
            (self.xs[slot_index], self.ys[slot_index], self.zs[slot_index]) = (p.x, p.y, p.z);
            *slot += 1;
        }
        for c in (1..=count).rev() {
            self.start[c] = self.start[c - 1];
        }
        self.start[0] = 0;
    }

    /// Each slot's agent: the agents in cell order (cells numbered x fastest).
    pub fn agents_by_slot(&self) -> &[u32] {
        &self.slot_agents
    }

    /// Whether the crowd's agent order says little of where its agents are: more than a
    /// quarter of a sample of agents lie more than two planes of cells from the next agent.
    /// (A crowd numbered along a lattice or a spiral is not scattered.)
    pub fn is_scattered(&self) -> bool {
        scattered(&self.cells, 2 * self.dims[0] * self.dims[1])
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
    /// layers), only the agents it accepts. `keys` is the caller's scratch for the candidates
    /// (kept from query to query, so that it stops growing).
    #[allow(clippy::too_many_arguments)]
    pub fn neighbors(
        &self,
        agent: u32,
        position: Vec3,
        range_squared: f32,
        guess: f32,
        max_neighbors: usize,
        filter: Option<LayerFilter<'_>>,
        keys: &mut Vec<u64>,
        neighbors: &mut Vec<(f32, u32)>,
    ) -> GridAnswer {
        neighbors.clear();
        // (NaN is caught too: RVO2-3D's `d < NaN` never holds, so nothing is found.)
        let empty = self.slot_agents.is_empty() || max_neighbors == 0 || range_squared.is_nan() || range_squared <= 0.0;
        if empty {
            return GridAnswer::Exact { radius: range_squared.sqrt() };
        }
        let own_slot = self.agent_slots[agent as usize] as usize;
        let full = range_squared.sqrt();
        let guess_squared = guess * guess;
        if guess < full && guess_squared > 0.0 {
            // Every agent nearer than `guess` is in the cells looked at: with `max_neighbors`
            // of them found, no agent outside can be among the nearest (nor tie with the
            // farthest kept, which is nearer than `guess`).
            let bound = guess_squared.min(range_squared);
            let found = self.collect(own_slot, position, bound, guess, max_neighbors, filter, keys);
            if found.tied || found.count >= max_neighbors {
                return self.finish(&mut keys[..found.count], found.tied, max_neighbors, range_squared, neighbors);
            }
        }
        let found = self.collect(own_slot, position, range_squared, full, max_neighbors, filter, keys);
        self.finish(&mut keys[..found.count], found.tied, max_neighbors, range_squared, neighbors)
    }

    /// The answer from the candidates: the nearest `max_neighbors`, nearest first, unless a
    /// tie decides it — two equal distances among them, or the farthest kept and the nearest
    /// left out at one distance (which one is kept, and in which order, is the tree's).
    fn finish(
        &self,
        keys: &mut [u64],
        tied: bool,
        max_neighbors: usize,
        range_squared: f32,
        neighbors: &mut Vec<(f32, u32)>,
    ) -> GridAnswer {
        if tied {
            return GridAnswer::Tied;
        }
        let agents = &self.slot_agents;
        match nearest_first(keys, max_neighbors, neighbors, (0.0, 0), |distance, slot| {
            (distance, agents[slot as usize])
        }) {
            Ranked::Tied => GridAnswer::Tied,
            Ranked::Exact => {
                // The search's final range, as RVO2-3D's query shrinks it: the k-th distance
                // once the list is full.
                let reached =
                    if neighbors.len() == max_neighbors { neighbors[max_neighbors - 1].0 } else { range_squared };
                GridAnswer::Exact { radius: reached.sqrt() }
            }
        }
    }

    /// Writes into `keys` (from `count` on) the key of each slot of `slots` (at most
    /// [`GATHER`]) and counts those strictly nearer `position` than `bound` (squared) — other
    /// than `own_slot`, and accepted by the `filter` — so that `keys[..count]` grows by the
    /// candidates. Returns the new count.
    ///
    /// Four candidates at a time, without a branch on the distance (about one candidate in
    /// seven is kept, at random, which a branch would mispredict). The last group reads up to
    /// three slots past the end (the next row's, or the padding), whose lanes are not counted.
    /// Each distance is summed in the order of `Vec3::length_squared`, lane by lane, so it has
    /// the bits of RVO2-3D's.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan(
        &self,
        position: Vec3,
        bound: f32,
        slots: Range<usize>,
        own_slot: usize,
        filter: Option<LayerFilter<'_>>,
        keys: &mut [u64],
        mut count: usize,
    ) -> usize {
        let padded = slots.start..slots.start + slots.len().next_multiple_of(4);
        let (xs, ys, zs) = (&self.xs[padded.clone()], &self.ys[padded.clone()], &self.zs[padded]);
        let (px, py, pz) = (f32x4::splat(position.x), f32x4::splat(position.y), f32x4::splat(position.z));
        let bound = f32x4::splat(bound);
        let fours = xs.chunks_exact(4).zip(ys.chunks_exact(4)).zip(zs.chunks_exact(4));
        for (group, ((x, y), z)) in fours.enumerate() {
            let first = slots.start + 4 * group;
            let dx = px - f32x4::new([x[0], x[1], x[2], x[3]]);
            let dy = py - f32x4::new([y[0], y[1], y[2], y[3]]);
            let dz = pz - f32x4::new([z[0], z[1], z[2], z[3]]);
            let four = dx * dx + dy * dy + dz * dz;
            // The lanes within `slots` (1 to 4), less the querying agent's.
            let mut inside = four.cmp_lt(bound).move_mask() as u32 & (0xf >> (4 - (slots.end - first).min(4)));
            let own_lane = own_slot.wrapping_sub(first);
            if own_lane < 4 {
                inside &= !(1 << own_lane);
            }
            // (An agent the filter refuses is absent: it neither joins nor ties.)
            if let Some(filter) = filter {
                for lane in 0..4 {
                    if inside & (1 << lane) != 0 && !filter.accepts(self.slot_agents[first + lane]) {
                        inside &= !(1 << lane);
                    }
                }
            }
            for (lane, &distance) in four.to_array().iter().enumerate() {
                keys[count] = key(distance, (first + lane) as u32);
                count += (inside >> lane & 1) as usize;
            }
        }
        count
    }

    /// Collects into `keys[..count]` the slot of every agent other than `own_slot` strictly
    /// nearer `position` than `bound` (squared) in the cells within `radius` — or, when there
    /// are many, a subset that still holds the `max_neighbors` nearest and every agent tied
    /// with the farthest of them.
    #[allow(clippy::too_many_arguments)]
    fn collect(
        &self,
        own_slot: usize,
        position: Vec3,
        mut bound: f32,
        radius: f32,
        max_neighbors: usize,
        filter: Option<LayerFilter<'_>>,
        keys: &mut Vec<u64>,
    ) -> Collected {
        // Room for the candidates of several rows before the list is cut; a part of a row is
        // at most `GATHER` slots, each written before it is counted.
        let capacity = key_room(max_neighbors, self.slot_agents.len()).max(max_neighbors.saturating_add(GATHER));
        if keys.len() < capacity {
            keys.resize(capacity, 0);
        }
        let mut count = 0;
        // The cells within `radius`, grown for the rounding of the distances and of the
        // cell assignment, so that no agent RVO2-3D would count is missed.
        let reach = radius * (1.0 + ROUNDING) + self.slack;
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
                // The whole row is farther than the bound: skip it.
                if (gz * gz + gy * gy) * (1.0 - 4.0 * ROUNDING) > bound {
                    continue;
                }
                let row = self.dims[0] * (y + self.dims[1] * z);
                let (mut start, end) = (self.start[row + x0] as usize, self.start[row + x1 + 1] as usize);
                while start < end {
                    if count + GATHER > capacity {
                        // Full: cut the list to the nearest `max_neighbors` (there are more,
                        // since the room exceeds `max_neighbors + GATHER`).
                        match compact(&mut keys[..count], max_neighbors) {
                            Compacted::Tied => return Collected { count: 0, tied: true },
                            Compacted::Kept { count: kept, limit } => {
                                count = kept;
                                // The farthest kept still counts: an agent at its distance ties.
                                bound = bound.min(f32::from_bits(limit.to_bits() + 1));
                            }
                        }
                    }
                    let stop = end.min(start + GATHER);
                    count = self.scan(position, bound, start..stop, own_slot, filter, keys, count);
                    start = stop;
                }
            }
        }
        Collected { count, tied: false }
    }
}

/// What one collection pass found.
struct Collected {
    /// `keys[..count]` hold the candidates.
    count: usize,
    /// A tie for the last place was met while cutting the list short.
    tied: bool,
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
            let (mut from_tree, mut from_grid, mut stack, mut keys) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
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
                match grid.neighbors(agent as u32, p, range * range, range * guess_factor, k, filter, &mut keys, &mut from_grid) {
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        /// A dense cluster beside sparse agents: a query there meets more candidates than its
        /// key list holds, which is cut to the nearest (with or without the querying agent's
        /// row in it, with a guess or the whole range). The grid never answers where two of
        /// the nearest `k + 1` distances tie (brute force), answers as the tree does where it
        /// answers, and without a lattice answers nearly always. (A tie met while cutting the
        /// list may yet be pushed out by nearer agents later in the scan: the grid then leaves
        /// the query to the tree, which costs time, not exactness.) A cluster on a lattice of
        /// 1 m has many equal distances.
        #[test]
        fn clusters_overflowing_the_key_list_keep_exact_answers(
            cluster in 300usize..900,
            spread in prop_oneof![Just(0.0f32), 0.01f32..3.0, 4.0f32..9.0],
            lattice in any::<bool>(),
            others in prop::collection::vec((-12.0f32..12.0, -12.0f32..12.0, -12.0f32..12.0), 1..60),
            max_count in 1usize..24,
            cell in 0.5f32..8.0,
            guess in prop_oneof![Just(f32::INFINITY), 0.1f32..12.0],
            filtered in any::<bool>(),
        ) {
            let mut positions: Vec<Vec3> = others.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect();
            positions.extend((0..cluster).map(|i| {
                let t = i as f32 * 0.618_034;
                let p = Vec3::new(t.fract() - 0.5, (t * 1.7).fract() - 0.5, (t * 2.3).fract() - 0.5) * spread;
                if lattice { p.round() } else { p }
            }));
            // Every third agent on layer 2, the rest on layer 1; the filter takes layer 1.
            let layers: Vec<u32> = (0..positions.len()).map(|i| if i % 3 == 0 { 2 } else { 1 }).collect();
            let filter = filtered.then_some(LayerFilter { layers: &layers, mask: 1 });
            let range_squared = 400.0;
            let mut tree = AgentTree::default();
            tree.build(&positions);
            let mut grid = NeighborGrid::default();
            grid.build(&positions, cell);
            let (mut from_tree, mut from_grid, mut stack, mut keys) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let (mut untied, mut exact) = (0, 0);
            for (agent, &p) in positions.iter().enumerate().step_by(5) {
                let mut all: Vec<f32> = positions.iter().enumerate()
                    .filter(|&(j, _)| j != agent && filter.map_or(true, |f| f.accepts(j as u32)))
                    .map(|(_, q)| (p - *q).length_squared())
                    .filter(|&d| d < range_squared)
                    .collect();
                all.sort_by(f32::total_cmp);
                let decisive = &all[..all.len().min(max_count + 1)];
                let tied = decisive.windows(2).any(|w| w[0] == w[1]);
                untied += usize::from(!tied);
                let answer = grid.neighbors(agent as u32, p, range_squared, guess, max_count, filter, &mut keys, &mut from_grid);
                if let GridAnswer::Exact { .. } = answer {
                    prop_assert!(!tied, "agent {}: a tie answered", agent);
                    exact += 1;
                    tree.neighbors(agent as u32, p, range_squared, max_count, filter, &mut from_tree, &mut stack);
                    prop_assert_eq!(&from_grid, &from_tree, "agent {}", agent);
                }
            }
            if spread > 0.0 && !lattice {
                prop_assert!(exact * 10 >= untied * 9, "{} of {} untied queries answered", exact, untied);
            }
        }
    }

    /// The list is cut (more candidates in the rows below the agent than it holds) to the
    /// nearest, 1 m below; the agent 1 m above, in a later row, ties with it.
    #[test]
    fn a_tie_after_the_list_is_cut_is_still_seen() {
        let mut positions = vec![Vec3::ZERO, Vec3::new(0.0, 0.0, 1.0)];
        for i in -9..9 {
            for j in -9..9 {
                positions.push(Vec3::new(i as f32 * 0.1, j as f32 * 0.1, -1.0));
            }
        }
        let mut grid = NeighborGrid::default();
        grid.build(&positions, 0.5);
        let (mut found, mut keys) = (Vec::new(), Vec::new());
        assert_eq!(
            grid.neighbors(0, Vec3::ZERO, 100.0, f32::INFINITY, 1, None, &mut keys, &mut found),
            GridAnswer::Tied
        );
        // Without the agent above, the answer is the one below.
        positions[1] = Vec3::new(0.0, 0.0, 1.5);
        grid.build(&positions, 0.5);
        let answer = grid.neighbors(0, Vec3::ZERO, 100.0, f32::INFINITY, 1, None, &mut keys, &mut found);
        assert_eq!(answer, GridAnswer::Exact { radius: 1.0 });
        assert_eq!(found, [(1.0, 2 + 9 * 18 + 9)]);
    }

    /// A lattice numbered row by row, or a spiral numbered along its turns, is in order; the
    /// same points numbered by a permutation that scatters them are not.
    #[test]
    fn a_crowd_numbered_at_random_is_scattered() {
        let lattice: Vec<Vec3> =
            (0..8_000).map(|i| Vec3::new((i % 20) as f32, (i / 20 % 20) as f32, (i / 400) as f32) * 11.0).collect();
        let spiral: Vec<Vec3> = (0..8_000)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f32 + 0.5) / 8_000.0;
                let angle = i as f32 * std::f32::consts::PI * (3.0 - 5.0f32.sqrt());
                Vec3::new((1.0 - z * z).sqrt() * angle.cos(), (1.0 - z * z).sqrt() * angle.sin(), z) * 220.0
            })
            .collect();
        let mut grid = NeighborGrid::default();
        for points in [lattice, spiral] {
            grid.build(&points, 15.0);
            assert!(!grid.is_scattered());
            let shuffled: Vec<Vec3> = (0..points.len()).map(|i| points[i * 1_777 % points.len()]).collect();
            grid.build(&shuffled, 15.0);
            assert!(grid.is_scattered());
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
        let (mut found, mut keys) = (Vec::new(), Vec::new());
        // The centre agent's 6 nearest are equally far (2 m): any 3 of them is a tie.
        let centre = 62;
        assert_eq!(positions[centre], Vec3::splat(4.0));
        assert_eq!(
            grid.neighbors(centre as u32, positions[centre], 100.0, 10.0, 3, None, &mut keys, &mut found),
            GridAnswer::Tied
        );
        // All 6 of them, but none of the 12 at 2√2 m: still tied inside the list.
        assert_eq!(
            grid.neighbors(centre as u32, positions[centre], 100.0, 10.0, 6, None, &mut keys, &mut found),
            GridAnswer::Tied
        );
        // Within 1.5 m there is no one: an exact empty answer.
        assert!(matches!(
            grid.neighbors(centre as u32, positions[centre], 2.25, 10.0, 6, None, &mut keys, &mut found),
            GridAnswer::Exact { .. }
        ));
        assert!(found.is_empty());
    }
}
