//! A uniform grid that answers RVO2's neighbour query in O(1) per agent, or says it cannot.
//!
//! RVO2's answer is "the `k` agents nearest to `p` with squared distance `< r²`, nearest first",
//! with ties in [`AgentKdTree`](super::AgentKdTree) visit order. Without ties the answer is
//! the plain top-k by distance, whatever order the candidates are visited in, which a grid
//! finds faster than the tree (O(n) counting-sort build, contiguous scans of the cells around
//! `p`, no branch on each candidate). With ties the order depends on the tree: whenever two
//! equal distances compete for a place or an order, [`NeighborGrid::nearest`] reports
//! [`GridQuery::Tied`] and the caller asks the tree instead; the simulator's query first asks
//! the tree only which of the tied agents it visits first
//! ([`AgentKdTree::visits_before`](super::AgentKdTree::visits_before)), a walk down the tree
//! rather than a whole query. Results are therefore bit-identical to RVO2's in every case.
//!
//! A crowd spread thin over its bounding box (a ring of agents, groups far apart) would need
//! far more cells than agents: the grid then stores only its occupied cells, row by row
//! ([`SparseCells`]), and a query finds a row's span by binary search instead of indexing.

use super::agent_kdtree::Neighbor;
use super::nearest_keys::{below, compact, key_distance_bits, key_room, nearest_first, Compacted, Ranked, RANKED};
use super::LayerFilter;
use crate::instruction_set::{avx2_copy, Avx2Detected};
use glam::{DVec2, Vec2};

/// Whether a grid query's answer is the exact RVO2 answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridQuery {
    /// No tie could affect the result: it equals the k-d tree's.
    Exact,
    /// Two candidates at the same squared distance competed; ask the k-d tree.
    Tied,
    /// Two candidates at the same squared distance competed, and the k-d tree's visiting
    /// order (asked of the caller for each such pair) put them in RVO2's order: the answer is
    /// exact.
    TiesOrdered,
}

/// Cell width and height as multiples of the asked cell size: the same area, but a query of
/// radius twice the cell size (what the simulator asks for) spans three rows instead of
/// five. Each row costs a mispredicted loop exit; the few more candidates per row cost less
/// (neighbour queries at jgrid 100,000: 12.3 → 11.7 ms).
const CELL_ASPECT: DVec2 = DVec2::new(0.5, 2.0);

/// A uniform grid over agent positions, rebuilt every step by counting sort.
#[derive(Clone, Debug, Default)]
pub struct NeighborGrid {
    origin: Vec2,
    cell_size: f64,
    /// `1 / cell width`, `1 / cell height`.
    inv_cell_size: DVec2,
    columns: usize,
    rows: usize,
    /// `(columns - 1, rows - 1)`, the largest cell coordinates, for clamping.
    last_cell: DVec2,
    /// Widening (m) of every query's disc, covering the rounding of `f32` coordinates.
    slack: f64,
    /// `cell_start[c]..cell_start[c + 1]` indexes the entries of cell `c` (dense layout).
    cell_start: Vec<u32>,
    /// Whether only the occupied cells are stored (see [`SparseCells`]).
    sparse: bool,
    /// The occupied cells, when `sparse`.
    sparse_cells: SparseCells,
    /// Agent indices in cell order: the agent in each slot.
    entries: Vec<u32>,
    /// Positions in cell order.
    points: Vec<Vec2>,
    /// Each agent's cell (by agent index): in the dense layout its index, in the sparse one
    /// its row.
    cell_of: Vec<u32>,
    /// Each agent's cell column, in the sparse layout (scratch).
    column_of: Vec<u32>,
    /// Each agent's slot (by agent index): `entries[slot_of[i]] == i`.
    slot_of: Vec<u32>,
    /// Whether the caps forced cells much larger than asked for (a crowd so sparse over its
    /// bounding box that even its rows are too many): queries then scan many far-away agents
    /// and a tree does better.
    coarse: bool,
    /// Whether the last rebuild filled the cells (see [`NeighborGrid::rebuild_unless_coarse`]).
    filled: bool,
    /// Whether the last rebuild staged its fill (see [`NeighborGrid::was_staged`]).
    staged: bool,
    /// Where each bucket's next staged agent goes, in a staged fill (scratch).
    bucket_cursor: Vec<u32>,
    /// The staging buffer of rebuilds that carry nothing (scratch).
    bare_staging: Vec<Staged<()>>,
    /// When dense fills stage, and through buckets of how many agents.
    staging_rule: StagingRule,
}

/// When a dense fill stages (see [`NeighborGrid::rebuild_unless_coarse_placing`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StagingRule {
    /// `Some(true)`: every dense fill stages; `Some(false)`: none; `None`: those of
    /// [`MIN_STAGED_AGENTS`] or more agents whose order is [`scattered`]. (Tests force it.)
    pub(crate) force: Option<bool>,
    /// About how many agents a bucket holds.
    pub(crate) agents_per_bucket: usize,
}

impl Default for StagingRule {
    fn default() -> StagingRule {
        StagingRule { force: None, agents_per_bucket: AGENTS_PER_BUCKET }
    }
}

/// An agent on its way to its slot in a staged fill (see
/// [`NeighborGrid::rebuild_unless_coarse_placing`]): its index, cell and position, and what
/// the caller carries along with it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Staged<P> {
    agent: u32,
    cell: u32,
    position: Vec2,
    payload: P,
}

/// A dense fill stages its agents through cell-range buckets of about this many agents: one
/// bucket's slots (and the caller's slot data) stay in cache while it is placed.
const AGENTS_PER_BUCKET: usize = 4096;

/// Below this many agents a dense fill never stages: what it writes (40 bytes an agent in the
/// simulator's step) still fits in the last-level cache. Measured on crowds added at random
/// (per-step minima, one binary with and without staging, alternated): 100,000 agents on
/// 1 thread 697.2 against 704.5 ms, no gain; 300,000 on 2 threads 1,449.1 → 1,335.6 ms
/// (−7.8 %).
const MIN_STAGED_AGENTS: usize = 131_072;

/// The occupied cells of a grid too sparse over its bounding box for an array of every cell
/// (a ring of agents, groups far apart): about eight cells per agent at most could be
/// stored, but the rows still fit. The occupied cells of row `y` are
/// `row_cells[y]..row_cells[y + 1]`, in column order; cell `k` is in column `column[k]` and
/// holds slots `start[k]..start[k + 1]` (`start` ends with the agent count).
#[derive(Clone, Debug, Default)]
struct SparseCells {
    row_cells: Vec<u32>,
    column: Vec<u32>,
    start: Vec<u32>,
}

impl SparseCells {
    /// The slots of row `y`'s cells in columns `x0..=x1`. `last` is where this row's span
    /// was found last, if it is `y`'s: the decide loop asks in slot order, so the next
    /// agent's span starts and ends near the last one's. Walking from there takes a few
    /// loads; a binary search over a long row (a ring's top row holds hundreds of cells) is
    /// a chain of dependent loads, about a tenth of a ring's step.
    #[inline(always)]
    fn row_span(&self, y: usize, x0: usize, x1: usize, last: &mut RowSpan) -> (usize, usize) {
        let first = self.row_cells[y] as usize;
        let columns = &self.column[first..self.row_cells[y + 1] as usize];
        let (x0, x1) = (x0 as u32, x1 as u32);
        let (from, to) = if last.row == y as u32 {
            (
                partition_near(columns, |x| x < x0, last.from as usize),
                partition_near(columns, |x| x <= x1, last.to as usize),
            )
        } else {
            (columns.partition_point(|&x| x < x0), columns.partition_point(|&x| x <= x1))
        };
        *last = RowSpan { row: y as u32, from: from as u32, to: to as u32 };
        (self.start[first + from] as usize, self.start[first + to] as usize)
    }
}

/// `columns.partition_point(below)`, looked for first near `guess`: a few steps from it
/// either way, then a binary search over the rest of that side.
#[inline(always)]
fn partition_near(columns: &[u32], below: impl Fn(u32) -> bool, guess: usize) -> usize {
    const STEPS: usize = 3;
    let mut i = guess.min(columns.len());
    if i < columns.len() && below(columns[i]) {
        // The answer lies after `i`.
        for _ in 0..STEPS {
            i += 1;
            if i == columns.len() || !below(columns[i]) {
                return i;
            }
        }
        i + columns[i..].partition_point(|&x| below(x))
    } else {
        // The answer is `i` or before it.
        for _ in 0..STEPS {
            if i == 0 || below(columns[i - 1]) {
                return i;
            }
            i -= 1;
        }
        columns[..i].partition_point(|&x| below(x))
    }
}

/// Whether a crowd's agent order says little of where its agents are, judged by `cells`
/// (each agent's cell index): whether more than a quarter of a sample of agents have a cell
/// index more than `far` from the next agent's (the planar grid asks for two rows of cells,
/// the 3-D grid for two planes).
pub(crate) fn scattered(cells: &[u32], far: usize) -> bool {
    let far = far as i64;
    let pairs = cells.windows(2).step_by(16);
    let (count, apart) = pairs.fold((0, 0), |(count, apart), pair| {
        (count + 1, apart + ((pair[1] as i64 - pair[0] as i64).abs() > far) as usize)
    });
    4 * apart > count
}

impl NeighborGrid {
    /// An empty grid.
    pub fn new() -> NeighborGrid {
        NeighborGrid::default()
    }

    /// Rebuilds over `positions` with cells of about `cell_size`² square metres, half as wide
    /// and twice as tall (enlarged so that there are at most about eight cells per agent).
    /// Allocates only when the agent count grew.
    pub fn rebuild(&mut self, positions: &[Vec2], cell_size: f32) {
        self.rebuild_bare(positions, cell_size, true);
    }

    /// [`NeighborGrid::rebuild`], except that a grid that would be [coarse](Self::is_coarse)
    /// is not filled (its queries then answer [`GridQuery::Tied`]: ask the tree). Returns
    /// whether the grid was filled. For callers that answer coarse crowds with a tree anyway.
    pub fn rebuild_unless_coarse(&mut self, positions: &[Vec2], cell_size: f32) -> bool {
        self.rebuild_bare(positions, cell_size, false)
    }

    /// A rebuild that carries nothing along, through the grid's own staging buffer.
    fn rebuild_bare(&mut self, positions: &[Vec2], cell_size: f32, even_if_coarse: bool) -> bool {
        let mut staging = std::mem::take(&mut self.bare_staging);
        let filled = self.rebuild_with(positions, cell_size, even_if_coarse, &mut staging, |_| (), |_, _, _| {});
        self.bare_staging = staging;
        filled
    }

    /// [`NeighborGrid::rebuild_unless_coarse`], laying out the caller's per-agent data in
    /// slot order on the way (see [`NeighborGrid::agents_by_slot`]): `payload(agent)` is
    /// read once per agent, in agent order, and handed to `place(slot, position, payload)`
    /// once the agent's slot is known. `staging` is scratch for crowds whose agent order
    /// says little of where they are (see [`Staged`]); it grows to one entry per agent only
    /// for those.
    pub fn rebuild_unless_coarse_placing<P: Copy + Default>(
        &mut self,
        positions: &[Vec2],
        cell_size: f32,
        staging: &mut Vec<Staged<P>>,
        payload: impl Fn(usize) -> P,
        place: impl FnMut(usize, Vec2, P),
    ) -> bool {
        self.rebuild_with(positions, cell_size, false, staging, payload, place)
    }

    #[inline(always)]
    fn rebuild_with<P: Copy + Default>(
        &mut self,
        positions: &[Vec2],
        cell_size: f32,
        even_if_coarse: bool,
        staging: &mut Vec<Staged<P>>,
        payload: impl Fn(usize) -> P,
        mut place: impl FnMut(usize, Vec2, P),
    ) -> bool {
        let n = positions.len();
        self.filled = false;
        self.sparse = false;
        self.staged = false;
        self.entries.clear();
        self.points.clear();
        self.cell_of.clear();
        self.slot_of.clear();
        if n == 0 {
            self.cell_start.clear();
            self.columns = 0;
            self.rows = 0;
            self.filled = true;
            return true;
        }
        let (min, max) = super::bounding_box(positions);
        let extent = (max - min).as_dvec2();
        let asked = (cell_size as f64).max(1e-3);
        let mut cell = asked;
        // Cap the cell count near 4n: a sparse crowd (a ring, outliers) must not make an
        // enormous empty grid.
        let max_cells = 8.0 * n as f64 + 16.0;
        let lines = |extent: f64, c: f64| (extent / c).floor() + 1.0;
        let cells_for = |c: f64| lines(extent.x, c * CELL_ASPECT.x) * lines(extent.y, c * CELL_ASPECT.y);
        // Too many cells for an array, but not too many rows: store the occupied cells only.
        self.sparse = cells_for(cell) > max_cells
            && lines(extent.y, cell * CELL_ASPECT.y) <= max_cells
            && lines(extent.x, cell * CELL_ASPECT.x) < u32::MAX as f64;
        if cells_for(cell) > max_cells && !self.sparse {
            cell = (extent.x * extent.y / max_cells).sqrt().max(cell);
            while cells_for(cell) > max_cells {
                cell *= 1.25;
            }
        }
        self.coarse = cell > 2.0 * asked;
        if self.coarse && !even_if_coarse {
            return false;
        }
        // f32 coordinates of this magnitude are exact to about 6e-8 of it; a query's disc is
        // widened by far more than that (and than f32 distance rounding), never less.
        let magnitude = min.abs().max(max.abs()).max_element() as f64;
        self.slack = 1e-6 * magnitude + 1e-9;
        self.origin = min;
        self.cell_size = cell;
        self.inv_cell_size = 1.0 / (cell * CELL_ASPECT);
        self.columns = (extent.x * self.inv_cell_size.x).floor() as usize + 1;
        self.rows = (extent.y * self.inv_cell_size.y).floor() as usize + 1;
        self.last_cell = DVec2::new((self.columns - 1) as f64, (self.rows - 1) as f64);
        if self.sparse {
            self.fill_sparse(positions, payload, place);
            self.filled = true;
            return true;
        }
        let cell_count = self.columns * self.rows;

        self.cell_start.clear();
        self.cell_start.resize(cell_count + 1, 0);
        // Cells first (no dependency between agents), then the counts.
        let layout = self.layout();
        self.cell_of.extend(positions.iter().map(|p| layout.cell_index(*p) as u32));
        for &c in &self.cell_of {
            self.cell_start[c as usize + 1] += 1;
        }
        for c in 0..cell_count {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.entries.resize(n, 0);
        self.points.resize(n, Vec2::ZERO);
        self.slot_of.resize(n, 0);
        // Fill each cell from its end backwards, using cell_start[c + 1] as a cursor, so that
        // afterwards cell_start[c + 1] is back at the start of cell c + 1.
        let rule = self.staging_rule;
        self.staged =
            rule.force.unwrap_or_else(|| n >= MIN_STAGED_AGENTS && scattered(&self.cell_of, 2 * self.columns));
        if self.staged {
            self.fill_staged(positions, staging, payload, place);
        } else {
            for (i, &position) in positions.iter().enumerate().rev() {
                let cursor = &mut self.cell_start[self.cell_of[i] as usize + 1];
                *cursor -= 1;
                let slot = *cursor as usize;
                self.entries[slot] = i as u32;
                self.points[slot] = position;
                self.slot_of[i] = slot as u32;
                place(slot, position, payload(i));
            }
        }
        // Now cell_start[c + 1] holds the start of cell c; shift down by one.
        for c in 0..cell_count {
            self.cell_start[c] = self.cell_start[c + 1];
        }
        self.cell_start[cell_count] = n as u32;
        self.filled = true;
        true
    }

    /// The dense fill for a crowd whose agent order says little of where agents are: going
    /// agent by agent, every write lands far from the last (in the grid's slot arrays and the
    /// caller's): at a million agents that fill took 140–165 ms, against 20 in order. So the
    /// agents are first copied, with their data, into buckets of a few thousand, one per
    /// range of cells (a few hundred write streams), and then placed bucket by bucket, each
    /// bucket's slots in cache: 40–65 ms. The slots are the same as the direct fill's:
    /// agents go into each bucket in agent order, and are placed from the last.
    fn fill_staged<P: Copy + Default>(
        &mut self,
        positions: &[Vec2],
        staging: &mut Vec<Staged<P>>,
        payload: impl Fn(usize) -> P,
        mut place: impl FnMut(usize, Vec2, P),
    ) {
        let n = positions.len();
        let cell_count = self.cell_start.len() - 1;
        // Cells per bucket: a power of two near `agents_per_bucket` agents' worth.
        let cells_per_agent = cell_count as f64 / n as f64;
        let shift = (self.staging_rule.agents_per_bucket as f64 * cells_per_agent).log2().floor().max(0.0) as u32;
        let buckets = ((cell_count - 1) >> shift) + 1;
        // Bucket b holds cells b << shift.., from the slot where the first of them ends
        // (`cell_start[c + 1]` is the end of cell c here).
        self.bucket_cursor.clear();
        self.bucket_cursor.extend((0..buckets).map(|b| self.cell_start[b << shift]));
        staging.resize(n, Staged::default());
        for (agent, (&cell, &position)) in self.cell_of.iter().zip(positions).enumerate() {
            let cursor = &mut self.bucket_cursor[(cell >> shift) as usize];
            staging[*cursor as usize] = Staged { agent: agent as u32, cell, position, payload: payload(agent) };
            *cursor += 1;
        }
        for staged in staging.iter().rev() {
            let cursor = &mut self.cell_start[staged.cell as usize + 1];
            *cursor -= 1;
            let slot = *cursor as usize;
            self.entries[slot] = staged.agent;
            self.points[slot] = staged.position;
            place(slot, staged.position, staged.payload);
        }
        // Each agent's slot in a pass of its own: among the bucket's writes these scattered
        // ones cost 10 ms at a million agents, alone 3 ms.
        for (slot, &agent) in self.entries.iter().enumerate() {
            self.slot_of[agent as usize] = slot as u32;
        }
    }

    /// The sparse layout's fill (see [`SparseCells`]): agents by row (a counting sort), each
    /// row by column, then the occupied cells.
    fn fill_sparse<P>(
        &mut self,
        positions: &[Vec2],
        payload: impl Fn(usize) -> P,
        mut place: impl FnMut(usize, Vec2, P),
    ) {
        let n = positions.len();
        let layout = self.layout();
        self.column_of.clear();
        for p in positions {
            let (x, y) = layout.coords((*p - self.origin).as_dvec2());
            self.cell_of.push(y as u32);
            self.column_of.push(x as u32);
        }
        // Rows: `cell_start` counts them here.
        self.cell_start.clear();
        self.cell_start.resize(self.rows + 1, 0);
        for &y in &self.cell_of {
            self.cell_start[y as usize + 1] += 1;
        }
        for y in 0..self.rows {
            self.cell_start[y + 1] += self.cell_start[y];
        }
        self.entries.resize(n, 0);
        for (i, &y) in self.cell_of.iter().enumerate() {
            let slot = &mut self.cell_start[y as usize];
            self.entries[*slot as usize] = i as u32;
            *slot += 1;
        }
        // Now `cell_start[y]` is the end of row y, the start of row y + 1.
        let mut row_start = 0;
        let cells = &mut self.sparse_cells;
        cells.row_cells.clear();
        cells.column.clear();
        cells.start.clear();
        for y in 0..self.rows {
            let row_end = self.cell_start[y] as usize;
            let column_of = &self.column_of;
            // By column, then agent: a total order, so the same on every run. (A sparse crowd's
            // rows hold few agents.)
            self.entries[row_start..row_end].sort_unstable_by_key(|&i| (column_of[i as usize], i));
            cells.row_cells.push(cells.column.len() as u32);
            for slot in row_start..row_end {
                let x = column_of[self.entries[slot] as usize];
                if slot == row_start || cells.column.last() != Some(&x) {
                    cells.column.push(x);
                    cells.start.push(slot as u32);
                }
            }
            row_start = row_end;
        }
        cells.row_cells.push(cells.column.len() as u32);
        cells.start.push(n as u32);
        self.points.resize(n, Vec2::ZERO);
        self.slot_of.resize(n, 0);
        for slot in 0..n {
            let i = self.entries[slot] as usize;
            self.points[slot] = positions[i];
            self.slot_of[i] = slot as u32;
            place(slot, positions[i], payload(i));
        }
    }

    /// The cell layout of the last rebuild.
    fn layout(&self) -> CellLayout {
        CellLayout {
            origin: self.origin,
            inv_cell_size: self.inv_cell_size,
            last_cell: self.last_cell,
            columns: self.columns,
        }
    }

    /// Whether the last rebuild filled the grid (every rebuild but a
    /// [`NeighborGrid::rebuild_unless_coarse`] of a coarse one): only then does it answer
    /// queries and hold [`NeighborGrid::agents_by_slot`].
    pub fn is_filled(&self) -> bool {
        self.filled
    }

    /// Sets when dense fills stage (tests).
    #[cfg(test)]
    pub(crate) fn set_staging_rule(&mut self, rule: StagingRule) {
        self.staging_rule = rule;
    }

    /// Whether the last rebuild went through its staging buffer (see
    /// [`NeighborGrid::rebuild_unless_coarse_placing`]): the crowd's agent order says
    /// little of where its agents are, so that a pass from slot order back to agent order
    /// should be staged too.
    pub fn was_staged(&self) -> bool {
        self.staged
    }

    /// Whether the last rebuild had to use cells more than twice the size asked for (the crowd
    /// is sparse over its bounding box); the grid still answers exactly, only slower.
    pub fn is_coarse(&self) -> bool {
        self.coarse
    }

    /// Cell coordinates of the point `(x, y)`, clamped to the grid (f64, for query bounds).
    #[inline]
    fn cell_coords_f64(&self, x: f64, y: f64) -> (usize, usize) {
        self.layout().coords(DVec2::new(x, y) - self.origin.as_dvec2())
    }

    /// RVO2's neighbour query (see [`super::AgentKdTree::nearest`]) over the grid: the
    /// `max_count` agents nearest to `center` (other than `exclude`) with squared distance
    /// `< range_squared`, nearest first. `out` holds the answer when the result is
    /// [`GridQuery::Exact`]; otherwise ask the tree.
    pub fn nearest(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        out: &mut Vec<Neighbor>,
    ) -> GridQuery {
        self.nearest_with_hints(center, exclude, range_squared, max_count, &[], out)
    }

    /// [`NeighborGrid::nearest`] with pruning hints: distances (m), smallest first, each
    /// believed more surely than the last to exceed the `max_count`-th nearest neighbour's.
    /// The query collects only the candidates nearer than the first hint; if there are
    /// `max_count` of them, the nearest of them are the true answer (every true neighbour is
    /// then nearer than the hint); otherwise it tries the next hint, and finally the full
    /// range. A wrong hint costs time, never correctness. Without a finite hint, three times the
    /// asked cell size serves as one. (Radii rather than squares: the query's cell range needs the
    /// radius, and a square root would start every query with a long wait.)
    pub fn nearest_with_hints(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        hints: &[f32],
        out: &mut Vec<Neighbor>,
    ) -> GridQuery {
        self.nearest_filtered(center, exclude, range_squared, max_count, hints, None, out)
    }

    /// [`NeighborGrid::nearest_with_hints`] over the agents `filter` accepts, when given (see
    /// [`super::AgentKdTree::nearest_filtered`]; its layers are by agent index). The scan reads
    /// layers by slot: this arranges them so, a pass over the crowd that allocates (the
    /// simulator keeps its own slot-ordered layers and calls the slot query).
    #[allow(clippy::too_many_arguments)]
    pub fn nearest_filtered(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        hints: &[f32],
        filter: Option<LayerFilter<'_>>,
        out: &mut Vec<Neighbor>,
    ) -> GridQuery {
        // The query works in slots; an `exclude` that is no agent excludes no slot.
        let exclude_slot = self.slot_of.get(exclude as usize).copied().unwrap_or(u32::MAX);
        let by_slot: Vec<u32> = match filter {
            Some(filter) => self.entries.iter().map(|&agent| filter.layers[agent as usize]).collect(),
            None => Vec::new(),
        };
        let filter = filter.map(|filter| LayerFilter { layers: &by_slot, mask: filter.mask });
        let answer = QUERY_SCRATCH.with_borrow_mut(|scratch| {
            let avx2 = Avx2Detected::detect();
            let no_order = &|_, _| None;
            self.nearest_slots(
                center,
                exclude_slot,
                range_squared,
                max_count,
                hints,
                filter,
                scratch,
                out,
                no_order,
                avx2,
            )
        });
        for neighbor in out.iter_mut() {
            neighbor.index = self.entries[neighbor.index as usize];
        }
        answer
    }

    /// The agents in slot order: cell by cell, so that agents near each other in space are
    /// mostly near each other here. Valid after a rebuild that filled the grid.
    pub fn agents_by_slot(&self) -> &[u32] {
        &self.entries
    }

    /// Each agent's slot (by agent index), the inverse of [`NeighborGrid::agents_by_slot`].
    pub fn slot_of_agents(&self) -> &[u32] {
        &self.slot_of
    }

    /// [`NeighborGrid::nearest_with_hints`] in slots (see [`NeighborGrid::agents_by_slot`]):
    /// `exclude` is a slot, and so is each neighbour's `index` in `out`. With the caller's
    /// scratch list for the candidates (instead of a thread-local one), so that a caller can
    /// inline the whole query.
    ///
    /// When equal distances compete, `visits_before(a, b)` is asked whether RVO2's k-d tree
    /// offers slot `a`'s agent before slot `b`'s (see [`super::AgentKdTree::visits_before`]);
    /// with an answer for every such pair the query is [`GridQuery::TiesOrdered`], with any
    /// `None` it is [`GridQuery::Tied`]. The candidate scan runs its AVX2 copy when given
    /// `avx2`. With a `filter` (its layers by slot), only the agents it accepts are candidates.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn nearest_slots(
        &self,
        center: Vec2,
        exclude: u32,
        range_squared: f32,
        max_count: usize,
        hints: &[f32],
        filter: Option<LayerFilter<'_>>,
        scratch: &mut QueryScratch,
        out: &mut Vec<Neighbor>,
        visits_before: &impl Fn(u32, u32) -> Option<bool>,
        avx2: Option<Avx2Detected>,
    ) -> GridQuery {
        out.clear();
        // NaN is caught too: RVO2's `d < NaN` never holds, so nothing is found.
        if max_count == 0 || range_squared.is_nan() || range_squared <= 0.0 {
            return GridQuery::Exact;
        }
        if !self.filled {
            // Left unfilled by `rebuild_unless_coarse`: only the tree can answer.
            return GridQuery::Tied;
        }
        if self.entries.is_empty() {
            return GridQuery::Exact;
        }
        let default_hint = [(3.0 * self.cell_size) as f32];
        let hints = if hints.iter().any(|h| h.is_finite()) { hints } else { &default_hint };
        for &hint in hints {
            let radius = hint as f64;
            let hint_squared = (radius * radius) as f32;
            // RVO2 keeps `d < range²`; the scan keeps `d <= limit`, the float just below.
            if hint_squared > 0.0 && hint_squared < range_squared {
                let found =
                    self.collect(center, exclude, below(hint_squared), radius, max_count, filter, scratch, avx2);
                if found.tied || found.count >= max_count {
                    return finish(&mut scratch.keys[..found.count], found.tied, max_count, out, visits_before);
                }
            }
        }
        let range = (range_squared as f64).sqrt();
        let found = self.collect(center, exclude, below(range_squared), range, max_count, filter, scratch, avx2);
        finish(&mut scratch.keys[..found.count], found.tied, max_count, out, visits_before)
    }

    /// Collects into `scratch.keys[..count]` the slot of every agent other than slot `exclude` at
    /// squared distance `<= limit` from `center` — or, when there are many, a subset that
    /// still holds the `max_count` nearest and every agent tied with the farthest of them.
    /// `radius` is at least `sqrt(limit)` up to rounding.
    ///
    /// Branch-free per candidate: each agent of the cells covering the search disc is written
    /// to the next free key and counted only if it is inside, so that the unpredictable
    /// inside/outside test costs no misprediction; the keys are ordered once, at the end
    /// ([`finish`]). Out of line (inlined into the decide loop, it slowed the loop by about a
    /// tenth), in the AVX2 copy when given `avx2`. With a `filter` (layers by slot), the agents
    /// it refuses are not counted, by the same branch-free test as the distance's. (This
    /// dispatch is inlined, so that a caller without a filter has no test for one.)
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn collect(
        &self,
        center: Vec2,
        exclude: u32,
        limit: f32,
        radius: f64,
        max_count: usize,
        filter: Option<LayerFilter<'_>>,
        scratch: &mut QueryScratch,
        avx2: Option<Avx2Detected>,
    ) -> Collected {
        match (filter, avx2) {
            (None, Some(proof)) => collect_avx2(proof, self, center, exclude, limit, radius, max_count, scratch),
            (None, None) => collect_all(self, center, exclude, limit, radius, max_count, scratch),
            (Some(filter), _) => self.collect_filtered(center, exclude, limit, radius, max_count, filter, scratch),
        }
    }

    /// [`NeighborGrid::collect_candidates`] with a filter: a copy of its own, so that the
    /// unfiltered scans (every query without avoidance layers) carry no trace of it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn collect_filtered(
        &self,
        center: Vec2,
        exclude: u32,
        limit: f32,
        radius: f64,
        max_count: usize,
        filter: LayerFilter<'_>,
        scratch: &mut QueryScratch,
    ) -> Collected {
        self.collect_candidates(center, exclude, limit, radius, max_count, Some(filter), scratch)
    }

    /// [`NeighborGrid::collect`]'s work, inlined into each instruction set's copy.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn collect_candidates(
        &self,
        center: Vec2,
        exclude: u32,
        mut limit: f32,
        radius: f64,
        max_count: usize,
        filter: Option<LayerFilter<'_>>,
        scratch: &mut QueryScratch,
    ) -> Collected {
        let QueryScratch { keys, spans } = scratch;
        // When the room fills up, the list is cut to the nearest `max_count` (see `compact`).
        let capacity = key_room(max_count, self.entries.len());
        let exclude = exclude as usize;
        if keys.len() < capacity {
            keys.resize(capacity, 0);
        }
        // The cells covering the disc of radius sqrt(limit), widened so that rounding (f32
        // distances, f32 cell assignment, `radius` itself) never leaves an agent inside it
        // uncovered.
        let radius = radius * (1.0 + 1e-6) + self.slack;
        let c = center.as_dvec2();
        let (x0, y0) = self.cell_coords_f64(c.x - radius, c.y - radius);
        let (x1, y1) = self.cell_coords_f64(c.x + radius, c.y + radius);
        let mut count = 0usize;
        for y in y0..=y1 {
            let (mut start, end) = if self.sparse {
                self.sparse_cells.row_span(y, x0, x1, &mut spans[y % spans.len()])
            } else {
                let row = y * self.columns;
                (self.cell_start[row + x0] as usize, self.cell_start[row + x1 + 1] as usize)
            };
            while start < end {
                if count + (end - start) > capacity {
                    // Full: cut the list to the nearest `max_count`. With no more than that,
                    // there is nothing to cut and room enough for the next part of the row.
                    if count > max_count {
                        match compact(&mut keys[..count], max_count) {
                            Compacted::Tied => return Collected { count: 0, tied: true },
                            Compacted::Kept { count: kept, limit: kth } => {
                                count = kept;
                                limit = limit.min(kth);
                            }
                        }
                    }
                }
                let mut stop = end.min(start + (capacity - count));
                // The querying agent is left out by ending the part before its slot (one
                // test per part, rather than one per candidate or a search afterwards).
                if (start..stop).contains(&exclude) {
                    stop = exclude;
                }
                // (The slot is counted up alongside, in the key's low half: see
                // `key_distance_bits`. Zipped with a range instead, the loop took 4 % more
                // instructions.)
                let mut slot = start as u64;
                match filter {
                    None => {
                        #[allow(clippy::explicit_counter_loop)]
                        for &point in &self.points[start..stop] {
                            // The same expression as the tree's, so the same f32 value.
                            let distance_squared = crate::geom::exact::length_squared(center - point);
                            keys[count] = u64::from(distance_squared.to_bits()) << 32 | slot;
                            slot += 1;
                            count += usize::from(distance_squared <= limit);
                        }
                    }
                    // Avoidance layers: a refused agent is written but not counted, as one out
                    // of range (its layers are read in slot order, beside its position).
                    Some(filter) => {
                        let layers = &filter.layers[start..stop];
                        for (&point, &layers) in self.points[start..stop].iter().zip(layers) {
                            let distance_squared = crate::geom::exact::length_squared(center - point);
                            keys[count] = u64::from(distance_squared.to_bits()) << 32 | slot;
                            slot += 1;
                            count += usize::from((distance_squared <= limit) & (layers & filter.mask != 0));
                        }
                    }
                }
                start = stop;
                if start == exclude {
                    start += 1;
                }
            }
        }
        Collected { count, tied: false }
    }

    /// Panics unless the grid is consistent: every agent sits once in the cell its position
    /// maps to, with its position. For tests.
    pub fn assert_well_formed(&self, positions: &[Vec2]) {
        assert_eq!(self.entries.len(), positions.len());
        let mut seen = vec![false; positions.len()];
        let mut check = |slots: std::ops::Range<usize>, x: usize, y: usize| {
            for slot in slots {
                let i = self.entries[slot] as usize;
                assert!(!seen[i], "agent {i} twice");
                seen[i] = true;
                assert_eq!(self.points[slot], positions[i]);
                assert_eq!(self.slot_of[i] as usize, slot, "agent {i}'s slot");
                let cell = self.layout().coords((positions[i] - self.origin).as_dvec2());
                assert_eq!(cell, (x, y), "agent {i} in the wrong cell");
            }
        };
        if self.sparse {
            let cells = &self.sparse_cells;
            for y in 0..self.rows {
                let row = cells.row_cells[y] as usize..cells.row_cells[y + 1] as usize;
                assert!(cells.column[row.clone()].windows(2).all(|w| w[0] < w[1]), "row {y} out of order");
                for k in row {
                    assert!(cells.start[k] < cells.start[k + 1], "empty cell listed in row {y}");
                    check(cells.start[k] as usize..cells.start[k + 1] as usize, cells.column[k] as usize, y);
                }
            }
        } else {
            for c in 0..self.columns * self.rows {
                check(self.cell_start[c] as usize..self.cell_start[c + 1] as usize, c % self.columns, c / self.columns);
            }
        }
        assert!(seen.iter().all(|s| *s));
    }

    /// Whether the last rebuild stored only the occupied cells (a crowd sparse over its
    /// bounding box, such as a ring).
    pub fn is_sparse(&self) -> bool {
        self.sparse
    }
}

/// [`NeighborGrid::collect_candidates`] without a filter.
#[inline(always)]
fn collect_all(
    grid: &NeighborGrid,
    center: Vec2,
    exclude: u32,
    limit: f32,
    radius: f64,
    max_count: usize,
    scratch: &mut QueryScratch,
) -> Collected {
    grid.collect_candidates(center, exclude, limit, radius, max_count, None, scratch)
}

avx2_copy! {
    /// [`collect_all`] compiled for AVX2.
    fn collect_avx2(
        grid: &NeighborGrid,
        center: Vec2,
        exclude: u32,
        limit: f32,
        radius: f64,
        max_count: usize,
        scratch: &mut QueryScratch,
    ) -> Collected = collect_all;
}

/// Where a point's cell is (a copy of the grid's layout, so that cells can be computed while
/// the grid's arrays are being written).
#[derive(Clone, Copy)]
struct CellLayout {
    origin: Vec2,
    inv_cell_size: DVec2,
    last_cell: DVec2,
    columns: usize,
}

impl CellLayout {
    /// Cell coordinates of the point `offset` (m) from the origin, clamped to the grid.
    /// (Truncating a value clamped to `>= 0` is its floor, without a libm call on targets
    /// lacking SSE4.1; in range, and a `u32` conversion is cheaper than a saturating `usize`
    /// one.)
    #[inline(always)]
    fn coords(&self, offset: DVec2) -> (usize, usize) {
        let cell = (offset * self.inv_cell_size).max(DVec2::ZERO).min(self.last_cell);
        (cell.x as u32 as usize, cell.y as u32 as usize)
    }

    /// The cell of agent position `p` (offset computed in `f32`, as the grid was always filled).
    #[inline]
    fn cell_index(&self, p: Vec2) -> usize {
        let (x, y) = self.coords((p - self.origin).as_dvec2());
        y * self.columns + x
    }
}

thread_local! {
    /// Query scratch for [`NeighborGrid::nearest_with_hints`], one per thread.
    static QUERY_SCRATCH: std::cell::RefCell<QueryScratch> = std::cell::RefCell::default();
}

/// A thread's scratch for grid queries, reused from one query to the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct QueryScratch {
    /// The current query's candidate keys, grown to the largest need.
    keys: Vec<u64>,
    /// The last spans found in recent rows of the sparse layout, by row modulo 4 (a query
    /// spans about three rows): where to start looking for the next query's spans.
    spans: [RowSpan; 4],
}

/// Where a query's span in one row of the sparse layout began and ended: positions among the
/// row's occupied cells. Only a guess for the next query (a stale one, from an earlier grid or
/// the default, costs time, never correctness).
#[derive(Clone, Copy, Debug, Default)]
struct RowSpan {
    row: u32,
    from: u32,
    to: u32,
}

/// What one collection pass found.
struct Collected {
    /// `keys[..count]` hold the candidates.
    count: usize,
    /// A tie for the last place was met while cutting the list short.
    tied: bool,
}

/// The capacity a neighbour list needs for the grid's queries not to grow it: the ranked
/// candidates are written in place there ([`nearest_first`]).
pub(crate) const ANSWER_ROOM: usize = RANKED;

/// Writes RVO2's answer from the candidates — the nearest `max_count`, nearest first. When
/// equal distances make it depend on visiting order (two among the nearest `max_count`, or
/// the farthest kept and the nearest left out), [`order_ties`] orders them.
#[inline(always)]
fn finish(
    keys: &mut [u64],
    tied: bool,
    max_count: usize,
    out: &mut Vec<Neighbor>,
    visits_before: &impl Fn(u32, u32) -> Option<bool>,
) -> GridQuery {
    if tied {
        return GridQuery::Tied;
    }
    let blank = Neighbor { distance_squared: 0.0, index: 0 };
    match nearest_first(keys, max_count, out, blank, |distance_squared, index| Neighbor { distance_squared, index }) {
        Ranked::Exact => GridQuery::Exact,
        Ranked::Tied => {
            out.clear();
            order_ties(keys, max_count, out, visits_before)
        }
    }
}

/// Appends the first `max_count` of the sorted `keys` to `out` as neighbours.
fn write_nearest(keys: &[u64], max_count: usize, out: &mut Vec<Neighbor>) {
    out.extend(
        keys.iter()
            .take(max_count)
            .map(|&k| Neighbor { distance_squared: f32::from_bits(key_distance_bits(k)), index: k as u32 }),
    );
}

/// Ties longer than this go to the tree: ordering one costs up to its length squared
/// comparisons, each a walk down the tree.
const ORDERED_TIE: usize = 8;

/// [`finish`] when equal distances compete: sorts the candidates by distance and each group
/// of equal distances among the first `max_count + 1` places by the tree's visiting order
/// (`visits_before`), and writes the nearest `max_count` — RVO2's answer, which keeps the
/// first one offered of equally distant agents. [`GridQuery::Tied`] when an order is not
/// known or a group is too long.
#[cold]
fn order_ties(
    keys: &mut [u64],
    max_count: usize,
    out: &mut Vec<Neighbor>,
    visits_before: &impl Fn(u32, u32) -> Option<bool>,
) -> GridQuery {
    keys.sort_unstable();
    let decisive = keys.len().min(max_count.saturating_add(1));
    let mut start = 0;
    while start < decisive {
        let distance = key_distance_bits(keys[start]);
        let length = keys[start..].iter().take_while(|&&k| key_distance_bits(k) == distance).count();
        if length > ORDERED_TIE {
            return GridQuery::Tied;
        }
        // Insertion sort by visiting order (the keys are slot-ordered within the group).
        let group = &mut keys[start..start + length];
        for i in 1..length {
            let mut j = i;
            while j > 0 {
                match visits_before(group[j] as u32, group[j - 1] as u32) {
                    Some(true) => group.swap(j, j - 1),
                    Some(false) => break,
                    None => return GridQuery::Tied,
                }
                j -= 1;
            }
        }
        start += length;
    }
    write_nearest(keys, max_count, out);
    GridQuery::TiesOrdered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spatial::agent_kdtree::AgentKdTree;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// A staged fill lays the crowd out exactly as the direct fill does (the same slots,
        /// cell bounds and positions), and hands every agent's payload to its own slot, for
        /// buckets of any size (down to one agent's worth of cells) and crowds in any order.
        #[test]
        fn staged_fills_equal_direct_fills(
            points in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0), 1..400),
            cell in 0.8f32..5.0,
            agents_per_bucket in 1usize..64,
        ) {
            // About four square metres per agent: a dense grid of up to about six cells each.
            let side = 2.0 * (points.len() as f32).sqrt();
            let positions: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y) * side).collect();
            let fill = |force: bool| {
                let mut grid = NeighborGrid::new();
                grid.set_staging_rule(StagingRule { force: Some(force), agents_per_bucket });
                let mut placed = vec![(u32::MAX, Vec2::NAN); positions.len()];
                let mut staging = Vec::new();
                let payload = |agent: usize| agent as u32 ^ 0x5a5a;
                let place = |slot: usize, position: Vec2, payload: u32| placed[slot] = (payload ^ 0x5a5a, position);
                grid.rebuild_unless_coarse_placing(&positions, cell, &mut staging, payload, place);
                (grid, placed)
            };
            let (direct, direct_placed) = fill(false);
            let (staged, staged_placed) = fill(true);
            prop_assert!(!direct.was_staged());
            prop_assert!(staged.was_staged() && !staged.sparse, "a dense fill, staged");
            staged.assert_well_formed(&positions);
            prop_assert_eq!(staged.agents_by_slot(), direct.agents_by_slot());
            prop_assert_eq!(staged.slot_of_agents(), direct.slot_of_agents());
            prop_assert_eq!(&staged.cell_start, &direct.cell_start);
            prop_assert_eq!(&staged.points, &direct.points);
            for (slot, &(agent, position)) in staged_placed.iter().enumerate() {
                prop_assert_eq!(agent, staged.agents_by_slot()[slot], "slot {}", slot);
                prop_assert_eq!(position, positions[agent as usize]);
            }
            prop_assert_eq!(staged_placed, direct_placed);
        }
    }

    /// A crowd added row by row is in order; the same crowd shuffled is scattered.
    #[test]
    fn scattered_tells_a_shuffled_crowd_from_an_ordered_one() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let positions: Vec<Vec2> =
            (0..160_000).map(|i| Vec2::new((i % 400) as f32 * 3.0, (i / 400) as f32 * 3.0)).collect();
        let mut grid = NeighborGrid::new();
        grid.rebuild(&positions, 5.0);
        assert!(!scattered(&grid.cell_of, 2 * grid.columns));
        assert!(!grid.was_staged());
        let mut shuffled = positions.clone();
        shuffled.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(3));
        grid.rebuild(&shuffled, 5.0);
        assert!(scattered(&grid.cell_of, 2 * grid.columns));
        assert!(grid.was_staged());
        grid.assert_well_formed(&shuffled);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Wherever the grid claims exactness, its answer equals the k-d tree's (same agents,
        /// same order) — including on lattices full of exact ties, which it orders by asking
        /// the tree which agent it visits first.
        #[test]
        fn exact_answers_equal_the_kd_tree(
            points in prop::collection::vec((-40i32..40, -40i32..40, -20.0f32..20.0, -20.0f32..20.0), 1..300),
            lattice in any::<bool>(),
            range in 0.5f32..30.0,
            max_count in 0usize..24,
            cell in 0.5f32..20.0,
            hints in prop::collection::vec(0.0f32..40.0, 0..3),
            offset in prop::sample::select(vec![0.0f32, 1.0e4, -3.0e5]),
        ) {
            // Lattice points (multiples of 1/2: many exactly equal distances) or random floats.
            let positions: Vec<Vec2> = points
                .iter()
                .map(|&(x, y, fx, fy)| {
                    // Far from the origin too, where f32 coordinates round coarsely.
                    if lattice {
                        Vec2::new(x as f32 * 0.5 + offset, y as f32 * 0.5 - offset)
                    } else {
                        Vec2::new(fx + offset, fy - offset)
                    }
                })
                .collect();
            let mut grid = NeighborGrid::new();
            grid.rebuild(&positions, cell);
            grid.assert_well_formed(&positions);
            let mut tree = AgentKdTree::new();
            // (First over the crowd mirrored: the kept permutation is then not the agent order.)
            tree.rebuild(&positions.iter().map(|p| -*p).collect::<Vec<_>>());
            tree.rebuild(&positions);
            tree.index_places();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            // Hints of any quality (too small, too large, unordered) change only the speed.
            let mut hints = hints;
            hints.sort_by(f32::total_cmp);
            let (mut tie_free, mut tie_free_exact, mut ties, mut ties_ordered) = (0, 0, 0, 0);
            let slot_agent = |slot: u32| grid.agents_by_slot()[slot as usize];
            let mut scratch = QueryScratch::default();
            for (i, &p) in positions.iter().enumerate() {
                tree.nearest(p, i as u32, range * range, max_count, &mut b);
                // Whether equal distances really decide this answer (random floats meet some
                // too: far from the origin, nearby points round to the same coordinates).
                let decisive = crate::spatial::nearest_brute_force(&positions, p, i as u32, range * range, max_count + 1);
                let tied = decisive.windows(2).any(|w| w[0].distance_squared == w[1].distance_squared);
                tie_free += usize::from(!tied);
                if grid.nearest(p, i as u32, range * range, max_count, &mut a) == GridQuery::Exact {
                    prop_assert_eq!(&a, &b, "agent {}", i);
                    tie_free_exact += usize::from(!tied);
                }
                let hinted = grid.nearest_with_hints(p, i as u32, range * range, max_count, &hints, &mut a);
                if hinted == GridQuery::Exact {
                    prop_assert_eq!(&a, &b, "agent {} with hints {:?}", i, hints);
                }
                // In slots, with the tree ordering ties (as the simulator asks), and the
                // baseline candidate scan (the queries above run the best this CPU has).
                let visits_before = |x, y| tree.visits_before(p, slot_agent(x), slot_agent(y));
                let slot = grid.slot_of_agents()[i];
                let answer =
                    grid.nearest_slots(p, slot, range * range, max_count, &hints, None, &mut scratch, &mut a, &visits_before, None);
                for neighbor in &mut a {
                    neighbor.index = slot_agent(neighbor.index);
                }
                match answer {
                    GridQuery::Exact => prop_assert_eq!(&a, &b, "agent {} in slots", i),
                    GridQuery::TiesOrdered => prop_assert_eq!(&a, &b, "agent {}: ties ordered wrongly", i),
                    GridQuery::Tied => {}
                }
                // Two kinds of tie go to the tree by design, and are not counted below: a group
                // of more than `ORDERED_TIE` equal distances (a crowd of coincident agents), and
                // a tie met when a candidate list longer than its room is cut short (possible
                // only in a crowd larger than the room: the list's rows may hold any of it).
                let within = crate::spatial::nearest_brute_force(&positions, p, i as u32, range * range, positions.len());
                let group_length = |d: f32| within.iter().filter(|n| n.distance_squared == d).count();
                let by_design = decisive.iter().any(|n| group_length(n.distance_squared) > ORDERED_TIE)
                    || positions.len() > key_room(max_count, positions.len());
                ties += usize::from(tied && !by_design);
                ties_ordered += usize::from(answer == GridQuery::TiesOrdered && !by_design);
            }
            // And nearly every deciding tie must be ordered so (not all: long groups of equal
            // distances, and ties met while a long candidate list is cut short, go to the tree).
            prop_assert!(ties_ordered * 10 >= ties * 8, "{} of {} ties ordered", ties_ordered, ties);
            // Nearly every query without a deciding tie must be answered by the grid (not all:
            // a candidate list cut short can meet a tie that the whole answer does not).
            prop_assert!(tie_free_exact * 10 >= tie_free * 9, "{} of {}", tie_free_exact, tie_free);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// With a layer filter (avoidance layers), the grid's answer equals the tree's filtered
        /// one wherever it claims exactness — ties on lattices, long candidate lists cut short
        /// included — and the tree's holds the nearest accepted agents (a brute force).
        #[test]
        fn filtered_answers_equal_the_filtered_kd_tree(
            points in prop::collection::vec((-40i32..40, -40i32..40, 0u32..16), 1..300),
            lattice in any::<bool>(),
            range in 0.5f32..30.0,
            max_count in 1usize..24,
            cell in 0.5f32..20.0,
            mask in 0u32..16,
        ) {
            let positions: Vec<Vec2> = points
                .iter()
                .enumerate()
                .map(|(i, &(x, y, _))| {
                    let jitter = if lattice { 0.0 } else { (i as f32 * 0.618_034).fract() * 0.5 };
                    Vec2::new(x as f32 * 0.5 + jitter, y as f32 * 0.5 - jitter)
                })
                .collect();
            let layers: Vec<u32> = points.iter().map(|p| p.2).collect();
            let filter = LayerFilter { layers: &layers, mask };
            let mut grid = NeighborGrid::new();
            grid.rebuild(&positions, cell);
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions.iter().map(|p| -*p).collect::<Vec<_>>());
            tree.rebuild(&positions);
            tree.index_places();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let slot_agent = |slot: u32| grid.agents_by_slot()[slot as usize];
            let mut scratch = QueryScratch::default();
            // The slot query reads layers by slot, as the simulator arranges them.
            let by_slot: Vec<u32> = grid.agents_by_slot().iter().map(|&agent| layers[agent as usize]).collect();
            let slot_filter = LayerFilter { layers: &by_slot, mask };
            let mut exact = 0;
            for (i, &p) in positions.iter().enumerate() {
                tree.nearest_filtered(p, i as u32, range * range, max_count, filter, &mut b);
                // The public query, by agent.
                if grid.nearest_filtered(p, i as u32, range * range, max_count, &[], Some(filter), &mut a) == GridQuery::Exact {
                    prop_assert_eq!(&a, &b, "agent {} (by agent)", i);
                }
                let accepted: Vec<Vec2> = positions.iter().enumerate().filter(|&(j, _)| filter.accepts(j as u32) || j == i).map(|(_, &q)| q).collect();
                let own = positions[..i].iter().enumerate().filter(|&(j, _)| filter.accepts(j as u32)).count();
                let brute = crate::spatial::nearest_brute_force(&accepted, p, own as u32, range * range, max_count);
                let distances = |list: &[Neighbor]| list.iter().map(|n| n.distance_squared).collect::<Vec<_>>();
                prop_assert_eq!(distances(&b), distances(&brute), "agent {}: the tree's distances", i);
                prop_assert!(b.iter().all(|n| filter.accepts(n.index)), "agent {}: the tree kept a refused agent", i);
                let visits_before = |x, y| tree.visits_before(p, slot_agent(x), slot_agent(y));
                let slot = grid.slot_of_agents()[i];
                let answer = grid.nearest_slots(
                    p, slot, range * range, max_count, &[], Some(slot_filter), &mut scratch, &mut a, &visits_before, None,
                );
                for neighbor in &mut a {
                    neighbor.index = slot_agent(neighbor.index);
                }
                if answer != GridQuery::Tied {
                    prop_assert_eq!(&a, &b, "agent {}", i);
                    exact += 1;
                }
            }
            prop_assert!(exact * 10 >= positions.len() * 8, "{} of {} answered by the grid", exact, positions.len());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        /// Dense clusters next to sparse agents: blocks whose rows overflow the key list at
        /// any point of a query (so it is cut, with or without the querying agent in it).
        #[test]
        fn clusters_overflowing_the_key_list_keep_exact_answers(
            cluster in 250usize..700,
            spread in prop_oneof![Just(0.0f32), 0.001f32..2.0],
            others in prop::collection::vec((-8.0f32..8.0, -8.0f32..8.0), 1..60),
            center in (-4.0f32..4.0, -4.0f32..4.0),
            max_count in 1usize..24,
            cell in 0.3f32..6.0,
        ) {
            let mut positions: Vec<Vec2> = others.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
            positions.extend((0..cluster).map(|i| {
                let t = i as f32 * 0.618_034;
                Vec2::new(center.0 + spread * (t.fract() - 0.5), center.1 + spread * ((t * 1.7).fract() - 0.5))
            }));
            let mut grid = NeighborGrid::new();
            grid.rebuild(&positions, cell);
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (i, &p) in positions.iter().enumerate().step_by(7) {
                tree.nearest(p, i as u32, 100.0, max_count, &mut b);
                if grid.nearest_with_hints(p, i as u32, 100.0, max_count, &[0.0], &mut a) == GridQuery::Exact {
                    prop_assert_eq!(&a, &b, "agent {}", i);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]
        /// Groups far apart (a sparse grid: only occupied cells stored), with lattice ties
        /// and far-off coordinates: wherever the grid claims exactness, the tree's answer.
        #[test]
        fn sparse_grids_answer_as_the_tree(
            groups in prop::collection::vec(
                ((-2000i32..2000, -3i32..3), prop::collection::vec((-12i32..12, -12i32..12, -6.0f32..6.0, -6.0f32..6.0), 8..40)),
                2..6,
            ),
            lattice in any::<bool>(),
            max_count in 1usize..14,
            cell in 0.5f32..6.0,
            hints in prop::collection::vec(0.0f32..20.0, 0..3),
        ) {
            let positions: Vec<Vec2> = groups
                .iter()
                .flat_map(|&((gx, gy), ref members)| {
                    let base = Vec2::new(gx as f32 * 50.0, gy as f32 * 50.0);
                    members.iter().map(move |&(x, y, fx, fy)| {
                        base + if lattice { Vec2::new(x as f32 * 0.5, y as f32 * 0.5) } else { Vec2::new(fx, fy) }
                    })
                })
                .collect();
            // (Groups spread over 200 km of x and 300 m of y: too many cells for an array,
            // few enough rows.)
            let mut grid = NeighborGrid::new();
            prop_assume!(grid.rebuild_unless_coarse(&positions, cell) && grid.is_sparse());
            grid.assert_well_formed(&positions);
            let mut tree = AgentKdTree::new();
            tree.rebuild(&positions);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut hints = hints;
            hints.sort_by(f32::total_cmp);
            for (i, &p) in positions.iter().enumerate() {
                tree.nearest(p, i as u32, 225.0, max_count, &mut b);
                if grid.nearest_with_hints(p, i as u32, 225.0, max_count, &hints, &mut a) == GridQuery::Exact {
                    prop_assert_eq!(&a, &b, "agent {}", i);
                }
            }
        }
    }

    proptest! {
        /// A row's span searched from any guess (stale, far off, past the end) ends where a
        /// binary search over the whole row does.
        #[test]
        fn searches_from_a_guess_find_the_binary_searchs_answer(
            gaps in prop::collection::vec(1u32..5, 0..40),
            x in 0u32..120,
            guess in 0usize..50,
        ) {
            let columns: Vec<u32> = gaps.iter().scan(0, |column, gap| { *column += gap; Some(*column) }).collect();
            prop_assert_eq!(
                partition_near(&columns, |c| c < x, guess),
                columns.partition_point(|&c| c < x)
            );
            prop_assert_eq!(
                partition_near(&columns, |c| c <= x, guess),
                columns.partition_point(|&c| c <= x)
            );
        }
    }

    /// A crowd dense enough that a query's candidates overflow the key list several times
    /// (it is cut to the nearest `max_count` each time): still the tree's answer.
    #[test]
    fn long_candidate_lists_are_cut_without_changing_the_answer() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let positions: Vec<Vec2> = (0..4000).map(|_| Vec2::new(random() * 40.0, random() * 40.0)).collect();
        let mut grid = NeighborGrid::new();
        grid.rebuild(&positions, 1.0);
        let mut tree = AgentKdTree::new();
        tree.rebuild(&positions);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut exact = 0;
        for max_count in [1, 3, 10, 40] {
            for (i, &p) in positions.iter().enumerate().step_by(37) {
                tree.nearest(p, i as u32, 400.0, max_count, &mut b);
                // A zero hint skips the hinted pass: the whole 20 m disc is collected.
                if grid.nearest_with_hints(p, i as u32, 400.0, max_count, &[0.0], &mut a) == GridQuery::Exact {
                    assert_eq!(a, b, "agent {i}, max_count {max_count}");
                    exact += 1;
                }
            }
        }
        assert!(exact >= 4 * 100, "{exact}");
    }

    /// A ring is sparse over its bounding box: the grid stores only its occupied cells and
    /// answers as the tree does.
    #[test]
    fn a_ring_makes_a_sparse_grid_with_the_trees_answers() {
        let positions: Vec<Vec2> =
            (0..2000).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 2000.0) * 2000.0).collect();
        let mut grid = NeighborGrid::new();
        assert!(grid.rebuild_unless_coarse(&positions, 5.0));
        assert!(grid.is_sparse() && !grid.is_coarse());
        grid.assert_well_formed(&positions);
        let mut tree = AgentKdTree::new();
        tree.rebuild(&positions);
        let (mut out, mut expected, mut exact) = (Vec::new(), Vec::new(), 0);
        for (i, &p) in positions.iter().enumerate() {
            tree.nearest(p, i as u32, 400.0, 10, &mut expected);
            if grid.nearest(p, i as u32, 400.0, 10, &mut out) == GridQuery::Exact {
                assert_eq!(out, expected, "agent {i}");
                exact += 1;
            }
        }
        // (The ring's symmetry makes some equal distances: those go to the tree.)
        assert!(exact > 1000, "{exact} exact answers");
    }

    /// Points so far apart that even the rows of the asked cells are too many make a coarse
    /// grid: `rebuild_unless_coarse` leaves it unfilled and every query defers to the tree,
    /// while `rebuild` still answers exactly.
    #[test]
    fn coarse_grids_can_be_left_unfilled() {
        let positions: Vec<Vec2> =
            (0..2000).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 2000.0) * 2000.0).collect();
        let mut grid = NeighborGrid::new();
        assert!(!grid.rebuild_unless_coarse(&positions, 0.05));
        assert!(grid.is_coarse());
        let mut out = Vec::new();
        assert_eq!(grid.nearest(positions[0], 0, 100.0, 5, &mut out), GridQuery::Tied);
        grid.rebuild(&positions, 1.0);
        grid.assert_well_formed(&positions);
        let mut tree = AgentKdTree::new();
        tree.rebuild(&positions);
        let mut expected = Vec::new();
        tree.nearest(positions[0], 0, 100.0, 5, &mut expected);
        assert_eq!(grid.nearest(positions[0], 0, 100.0, 5, &mut out), GridQuery::Exact);
        assert_eq!(out, expected);
        // A compact crowd is filled either way.
        let square: Vec<Vec2> = (0..400).map(|i| Vec2::new((i % 20) as f32 * 1.3, (i / 20) as f32 * 1.1)).collect();
        assert!(grid.rebuild_unless_coarse(&square, 2.0));
        assert_eq!(grid.nearest(square[0], 0, 100.0, 5, &mut out), GridQuery::Exact);
    }

    /// A query whose first rows hold exactly `max_count` others plus the querying agent, and
    /// whose next row is too long for the key list: the list is cut after the querying agent
    /// is taken out, which leaves no more than `max_count` (nothing to cut).
    #[test]
    fn a_long_row_after_exactly_max_count_neighbours() {
        let mut positions = vec![Vec2::new(0.5, 0.5)];
        positions.extend((0..10).map(|i| Vec2::new(0.1 + 0.083 * i as f32, 0.2 + 0.011 * i as f32)));
        positions.extend((0..400).map(|i| Vec2::new(0.3 + 0.001 * i as f32, 2.5)));
        positions.push(Vec2::new(9.0, 9.0));
        let mut grid = NeighborGrid::new();
        grid.rebuild(&positions, 1.0);
        let mut tree = AgentKdTree::new();
        tree.rebuild(&positions);
        let (mut out, mut expected) = (Vec::new(), Vec::new());
        tree.nearest(positions[0], 0, 100.0, 10, &mut expected);
        assert_eq!(grid.nearest(positions[0], 0, 100.0, 10, &mut out), GridQuery::Exact);
        assert_eq!(out, expected);
    }
}
