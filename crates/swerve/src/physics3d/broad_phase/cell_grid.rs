//! A grid of cubic cells filled by sorting the boxes by cell, shared by the two grid broad
//! phases (seed 003 §3.2.2, 网格划分, with the third index of §6.1).
//!
//! **Binning.** Each box is binned once, by its *minimum corner*. When the cell side is at
//! least every box's side, two overlapping boxes are binned in the same or adjacent cells, so
//! each cell need only be tested against itself and the 13 of its 26 neighbours that come after
//! it in (z, y, x) order: every pair is met exactly once, with no de-duplication. (Inserting
//! each box into all the cells it touches and reporting a pair only from the cell holding the
//! corner of the pair's overlap also gives each pair once, but with cells the size of the
//! largest box it stores about 8 entries a box and tests ~2.4× more candidates.) The binning
//! rounds, so the cell is made larger than the largest box by a slack that covers the
//! rounding (see [`CellGrid::configure`]); `assert_well_formed` checks that every box's corners
//! land at most one cell apart.
//!
//! **Keys.** Cell `(x, y, z)` has the key `offset + x + y·sy + z·sz`: x fastest, so the three
//! cells `x − 1 ..= x + 1` of a row have consecutive keys, and the 13 forward neighbours of a
//! cell are five key ranges — itself and `x + 1`; row `y + 1`; and rows `y − 1`, `y`, `y + 1`
//! of layer `z + 1`. The strides leave room so `±1` never wraps into another row.
//!
//! **Two layouts.**
//! * *Dense* (the usual case: the boxes fill their region): a `start` table over every key,
//!   filled by counting sort (count, prefix sum, scatter), O(n + cells) and no comparisons.
//!   One blank column, row and layer on the high side of each axis make every forward
//!   neighbour exist, so the pair loop has no edge tests.
//! * *Sparse* (a few clusters far apart, a long diagonal line: a dense table would be mostly
//!   empty cells): the keys of the occupied cells only, sorted by a stable LSD radix sort of
//!   `key << 32 | index` (no comparisons, O(n) per 11 bits of key). Each forward range is found
//!   by a cursor that only moves forward, as the cells are visited in key order. Padding on
//!   both sides of each axis keeps `±1` inside the key space.
//!
//! Both fill in the order the caller gives (the structures pass last call's cell order), so a
//! box that stays in its cell is written next to where it was and the sort is stable among
//! a cell's boxes from call to call.

use glam::{UVec3, Vec3A};

use super::{ordered, Bounds, Pair};
use crate::physics3d::Aabb3;

/// A dense table is used while it has at most this many cells per box (plus
/// [`DENSE_MIN_CELLS`]). Its cost is clearing and summing every cell (4 bytes each) and, in the
/// pair loop, loads from a table that no longer fits the cache; the sparse layout's is two or
/// three radix passes over the boxes. A sphere pit has about one cell per box either way; a
/// gas of spheres ten diameters apart has a thousand, and goes sparse. (Not tuned: the 2-core
/// machine was too loaded to tell 4 from 16.)
const DENSE_CELLS_PER_BOX: usize = 8;
/// Small scenes always get a dense table: a few thousand cells cost nothing.
const DENSE_MIN_CELLS: usize = 4096;
/// Keys of the sparse layout are `u32`, below the sentinel `u32::MAX`.
const SPARSE_MAX_KEYS: f64 = (u32::MAX - 1) as f64;
/// A region wider than this is not binned: `p − origin` could overflow `f32` (−3e38 and 3e38
/// are both finite). Such a grid is one cell: slow, never wrong.
const MAX_BINNED_EXTENT: f64 = f32::MAX as f64 / 4.0;
/// Bits sorted per radix pass (2048 buckets: fits the L1 cache).
const RADIX_BITS: u32 = 11;

/// How the cells are stored; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `start[key]..start[key + 1]` over every key.
    #[default]
    Dense,
    /// Runs of occupied cells, in key order.
    Sparse,
}

/// Where a point falls: the grid's geometry, copied into registers by the hot loops (the
/// writes of a fill go through pointers the compiler cannot tell apart from the grid's fields,
/// so it would reload them from memory at every box).
#[derive(Clone, Copy, Debug, Default)]
struct Binning {
    origin: Vec3A,
    inv_cell: f32,
    /// Cells along x, y, z (each ≥ 1), minus one: the largest cell coordinate.
    last: UVec3,
    /// Key offset and strides: cell `(x, y, z)` has key `offset + x + y·sy + z·sz`.
    offset: u32,
    sy: u32,
    sz: u32,
}

impl Binning {
    /// Cell coordinates of point `p`, clamped to the grid. Monotone in each coordinate
    /// (rounding, the saturating cast and the clamp all are), which is all the pair loops need
    /// of the clamp.
    #[inline(always)]
    fn coords(&self, p: Vec3A) -> UVec3 {
        // `max` before the cast: a negative zero or tiny negative rounding maps to cell 0.
        ((p - self.origin) * self.inv_cell).max(Vec3A::ZERO).as_uvec3().min(self.last)
    }

    /// The key of cell `c`.
    #[inline(always)]
    fn key(&self, c: UVec3) -> u32 {
        self.offset + c.x + c.y * self.sy + c.z * self.sz
    }
}

/// A grid of one level: its cells, and the boxes binned into them in cell order.
#[derive(Debug, Default)]
pub(crate) struct CellGrid {
    bin: Binning,
    /// Cell side (m); `+∞` for a grid collapsed to one cell.
    cell: f32,
    layout: Layout,
    /// Number of keys (dense: table size; sparse: bound of the keys).
    keys: usize,
    /// Union of the boxes filled (prunes cross-level queries).
    region: Bounds,
    /// Dense: `start[k]..start[k + 1]` are cell k's entries.
    start: Vec<u32>,
    /// Sparse: `(key, first entry)` of each occupied cell in key order, then the sentinel
    /// `(u32::MAX, entry count)`.
    runs: Vec<(u32, u32)>,
    /// The boxes in cell order, and their indices.
    entries: Vec<Bounds>,
    ids: Vec<u32>,
    /// Dense: the key of each entry, in entry order.
    entry_key: Vec<u32>,
    /// Scratch: the key and the box of each id, in the order given to [`CellGrid::fill`].
    key_of: Vec<u32>,
    staged: Vec<Bounds>,
    /// Sparse scratch: `key << 32 | position in the stage`, its radix-sort double and bucket
    /// counts.
    items: Vec<u64>,
    items_scratch: Vec<u64>,
    counts: Vec<u32>,
}

impl CellGrid {
    /// Sets the grid over `region` (the union of the `count` boxes to be filled) with cells of
    /// side at least `hint` and large enough for boxes of side `largest`.
    ///
    /// The binning computes `(p − origin) · (1/cell)` in `f32`: each of the subtraction, the
    /// reciprocal and the product rounds, moving a coordinate by up to `3 · 2⁻²⁴ · extent`
    /// (cells' worth: relative to the region's extent, not to the box). For the corners of two
    /// overlapping boxes to land at most one cell apart, the cell must exceed the largest box
    /// by twice that: `largest · (1 + 2⁻²⁰) + extent · 2⁻²¹` does. (With the cell exactly the
    /// largest side, a box whose corner lies a hair below a cell boundary can see its other
    /// corner rounded two cells on.)
    ///
    /// The cell then grows only if the cells would not fit: a dense table larger than the
    /// budget switches to the sparse layout, and a sparse key space beyond `u32` doubles the
    /// cell (never beyond what the region needs: a cell as wide as the region makes 1–2 cells
    /// an axis). Growing is always correct.
    pub fn configure(&mut self, region: Bounds, largest: f32, hint: f64, count: usize) {
        self.region = region;
        let size = [0, 1, 2].map(|a| f64::from(region.max[a]) - f64::from(region.min[a]));
        let extent = size.iter().fold(0.0f64, |m, &s| m.max(s));
        let needed = f64::from(largest) * (1.0 + 2f64.powi(-20)) + extent * 2f64.powi(-21);
        let mut cell = if hint.is_finite() { needed.max(hint) } else { needed };
        // (Comparisons with NaN are false: a NaN cell is not binnable either.)
        let binnable = count > 0 && extent <= MAX_BINNED_EXTENT && cell > 0.0 && cell < f64::from(f32::MAX);
        if !binnable {
            self.collapse(region);
            return;
        }
        let dense_budget = DENSE_CELLS_PER_BOX.saturating_mul(count).saturating_add(DENSE_MIN_CELLS);
        // At most ~11 doublings: `cell ≥ extent · 2⁻²¹` bounds each axis to 2²¹ + 1 cells.
        for _ in 0..64 {
            let dims = size.map(|s| (s / cell).floor() + 1.0);
            let dense = (dims[0] + 1.0) * (dims[1] + 1.0) * (dims[2] + 1.0);
            let sparse = (dims[0] + 2.0) * (dims[1] + 2.0) * (dims[2] + 2.0);
            let layout = if dense <= dense_budget.min(1 << 30) as f64 {
                Layout::Dense
            } else if sparse <= SPARSE_MAX_KEYS {
                Layout::Sparse
            } else {
                cell *= 2.0;
                continue;
            };
            // The cast to f32 rounds to nearest: step up one ulp if that went below.
            let rounded = cell as f32;
            let cell = if f64::from(rounded) < cell { f32::from_bits(rounded.to_bits() + 1) } else { rounded };
            self.cell = cell;
            self.bin.inv_cell = 1.0 / cell;
            self.bin.origin = region.min;
            // Cell counts from the f32 cell actually used (it may have rounded).
            let dims = size.map(|s| ((s / f64::from(cell)).floor() as u32).saturating_add(1));
            self.bin.last = UVec3::new(dims[0] - 1, dims[1] - 1, dims[2] - 1);
            self.layout = layout;
            let pad = if layout == Layout::Dense { 1 } else { 2 };
            self.bin.sy = dims[0] + pad;
            self.bin.sz = self.bin.sy * (dims[1] + pad);
            self.keys = self.bin.sz as usize * (dims[2] + pad) as usize;
            // Dense: no room below (the pair loop only looks up and to the right). Sparse: one
            // cell of padding below on each axis.
            self.bin.offset = if layout == Layout::Dense { 0 } else { 1 + self.bin.sy + self.bin.sz };
            return;
        }
        self.collapse(region);
    }

    /// Every box in one cell (origin kept finite): the fallback for regions `f32` cannot bin.
    fn collapse(&mut self, region: Bounds) {
        self.region = region;
        self.bin = Binning { origin: Vec3A::ZERO, inv_cell: 0.0, last: UVec3::ZERO, offset: 0, sy: 2, sz: 4 };
        self.cell = f32::INFINITY;
        self.layout = Layout::Dense;
        self.keys = 8;
    }

    /// See [`Binning::coords`].
    #[inline(always)]
    fn coords(&self, p: Vec3A) -> UVec3 {
        self.bin.coords(p)
    }

    /// See [`Binning::key`].
    #[inline(always)]
    fn key(&self, c: UVec3) -> u32 {
        self.bin.key(c)
    }

    /// Bins the boxes `ids` (indices into `boxes`; placeable ones only) in the order given.
    ///
    /// The boxes are read once, in that order, and staged with their keys; the placing then
    /// reads the stage front to back. (The caller's order is last call's cell order: the
    /// placing writes walk the cells front to back too, while index order — random in space
    /// once the spheres have mixed — would scatter them.)
    #[inline(never)] // profiled apart from the pair loop
    pub fn fill(&mut self, boxes: &[Aabb3], ids: &[u32]) {
        let bin = self.bin;
        self.key_of.clear();
        self.staged.clear();
        self.entries.clear();
        self.ids.clear();
        self.entry_key.clear();
        self.runs.clear();
        for &id in ids {
            let b = Bounds::of(&boxes[id as usize]);
            self.key_of.push(bin.key(bin.coords(b.min)));
            self.staged.push(b);
        }
        match self.layout {
            Layout::Dense => self.fill_dense(ids),
            Layout::Sparse => self.fill_sparse(ids),
        }
    }

    /// Counting sort of the staged boxes by key.
    fn fill_dense(&mut self, ids: &[u32]) {
        let n = ids.len();
        let keys = self.keys;
        let CellGrid { start, entries, ids: entry_ids, entry_key, key_of, staged, .. } = self;
        start.clear();
        start.resize(keys + 1, 0);
        for &k in key_of.iter() {
            start[k as usize + 1] += 1;
        }
        let mut sum = 0;
        for s in start.iter_mut() {
            sum += *s;
            *s = sum;
        }
        entries.resize(n, Bounds::EMPTY);
        entry_ids.resize(n, 0);
        entry_key.resize(n, 0);
        // Scatter with `start[k]` as cell k's cursor, then shift the starts back one cell.
        for ((&id, &k), b) in ids.iter().zip(key_of.iter()).zip(staged.iter()) {
            let slot = start[k as usize] as usize;
            entries[slot] = *b;
            entry_ids[slot] = id;
            entry_key[slot] = k;
            start[k as usize] += 1;
        }
        start.copy_within(0..keys, 1);
        start[0] = 0;
    }

    /// Radix sort of the staged boxes by key; the occupied cells' runs.
    fn fill_sparse(&mut self, ids: &[u32]) {
        self.items.clear();
        // `key << 32 | position in the stage`: the sort's output reads the stage in order
        // within each cell.
        self.items.extend(self.key_of.iter().enumerate().map(|(k, &key)| u64::from(key) << 32 | k as u64));
        let key_bits = u32::BITS - (self.keys as u32).leading_zeros();
        radix_sort_by_high_half(&mut self.items, &mut self.items_scratch, &mut self.counts, key_bits);
        let mut previous = u32::MAX; // never a key
        for (slot, &item) in self.items.iter().enumerate() {
            let (key, k) = ((item >> 32) as u32, item as u32 as usize);
            if key != previous {
                self.runs.push((key, slot as u32));
                previous = key;
            }
            self.entries.push(self.staged[k]);
            self.ids.push(ids[k]);
        }
        self.runs.push((u32::MAX, self.items.len() as u32));
    }

    /// Number of boxes binned.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The indices of the binned boxes, in cell order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The binned boxes in cell order, with their indices.
    pub fn entries(&self) -> impl Iterator<Item = (&Bounds, u32)> {
        self.entries.iter().zip(self.ids.iter().copied())
    }

    /// Every overlapping pair of binned boxes, once each.
    #[inline(never)] // profiled apart from the fill
    pub fn same_level_pairs(&self, pairs: &mut Vec<Pair>) {
        match self.layout {
            Layout::Dense => self.dense_pairs(pairs),
            Layout::Sparse => self.sparse_pairs(pairs),
        }
    }

    /// Driven by the entries, not the cells: most cells of a fine grid hold zero or one box,
    /// and a loop over cells would pay a mispredicted branch at each empty one.
    fn dense_pairs(&self, pairs: &mut Vec<Pair>) {
        let (start, entries, ids) = (&self.start[..], &self.entries[..], &self.ids[..]);
        let (sy, sz) = (self.bin.sy as usize, self.bin.sz as usize);
        for (k, (a, &c)) in entries.iter().zip(&self.entry_key).enumerate() {
            let (c, id) = (c as usize, ids[k]);
            // This cell's later entries and cell x + 1 are contiguous, as are x − 1 ..= x + 1
            // of each row. Blank cells make every range exist at the edges.
            pairs_in(entries, ids, a, id, k + 1, start[c + 2] as usize, pairs);
            pairs_in(entries, ids, a, id, start[c + sy - 1] as usize, start[c + sy + 2] as usize, pairs);
            let up = c + sz;
            pairs_in(entries, ids, a, id, start[up - sy - 1] as usize, start[up - sy + 2] as usize, pairs);
            pairs_in(entries, ids, a, id, start[up - 1] as usize, start[up + 2] as usize, pairs);
            pairs_in(entries, ids, a, id, start[up + sy - 1] as usize, start[up + sy + 2] as usize, pairs);
        }
    }

    /// Driven by the occupied cells, in key order; each of the four forward rows is found by
    /// two cursors (first cell at or after the row's first key, first cell after its last) that
    /// only move forward: O(cells) in all, no search.
    fn sparse_pairs(&self, pairs: &mut Vec<Pair>) {
        let (runs, entries, ids) = (&self.runs[..], &self.entries[..], &self.ids[..]);
        let (sy, sz) = (self.bin.sy, self.bin.sz);
        // Key offsets of the centres of the four forward rows: (y + 1, z), (y − 1, z + 1),
        // (y, z + 1), (y + 1, z + 1); each row spans centre − 1 ..= centre + 1.
        let rows = [sy, sz - sy, sz, sz + sy];
        let (mut lo, mut hi) = ([0usize; 4], [0usize; 4]);
        for r in 0..runs.len() - 1 {
            let (key, first) = runs[r];
            let end = runs[r + 1].1 as usize;
            // Cell x + 1 is the next run if occupied (the sentinel's key is never key + 1).
            let own_end = if runs[r + 1].0 == key + 1 { runs[r + 2].1 as usize } else { end };
            let mut ranges = [(0usize, 0usize); 4];
            for (i, &row) in rows.iter().enumerate() {
                let (row_first, row_last) = (key + row - 1, key + row + 1);
                while runs[lo[i]].0 < row_first {
                    lo[i] += 1;
                }
                hi[i] = hi[i].max(lo[i]);
                while runs[hi[i]].0 <= row_last {
                    hi[i] += 1;
                }
                ranges[i] = (runs[lo[i]].1 as usize, runs[hi[i]].1 as usize);
            }
            // Sparse cells are mostly alone: skipping empty ranges is the predictable branch.
            for k in first as usize..end {
                let (a, id) = (&entries[k], ids[k]);
                if k + 1 < own_end {
                    pairs_in(entries, ids, a, id, k + 1, own_end, pairs);
                }
                for &(from, to) in &ranges {
                    if from < to {
                        pairs_in(entries, ids, a, id, from, to, pairs);
                    }
                }
            }
        }
    }

    /// Appends the pairs of box `id` (bounds `b`, not binned here) with the binned boxes that
    /// overlap it, valid whatever `b`'s size: a binned box overlapping `b` has its minimum
    /// corner's cell between one below the cell of `b.min` and the cell of `b.max` on each
    /// axis (its own corners are at most one cell apart). For boxes smaller than the cell
    /// that is at most 3 × 3 rows of 3 cells.
    pub fn query(&self, b: &Bounds, id: u32, pairs: &mut Vec<Pair>) {
        if !b.overlaps(&self.region) {
            return;
        }
        let (c0, c1) = (self.coords(b.min), self.coords(b.max));
        // An inverted box (min > max) has its overlapping boxes' corners near its min corner.
        let (lo, hi) = (c0.saturating_sub(UVec3::ONE), c0.max(c1));
        // Sparse: the rows' keys increase (z outer, y inner), so each search starts where the
        // last one ended, galloping: a few steps per row after the first.
        let mut at = 0;
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                let first = self.key(UVec3::new(lo.x, y, z));
                let last = self.key(UVec3::new(hi.x, y, z));
                let range = match self.layout {
                    Layout::Dense => self.start[first as usize] as usize..self.start[last as usize + 1] as usize,
                    Layout::Sparse => {
                        let from = seek(&self.runs, at, first);
                        at = seek(&self.runs, from, last + 1);
                        self.runs[from].1 as usize..self.runs[at].1 as usize
                    }
                };
                for (other, &j) in self.entries[range.clone()].iter().zip(&self.ids[range]) {
                    if b.overlaps(other) {
                        pairs.push(ordered(id, j));
                    }
                }
            }
        }
    }

    /// Checks the grid against `boxes` and the ids it should hold (`expected`, any order):
    /// every one binned once with its current box, in the cell of its minimum corner, cells in
    /// key order, blank cells empty, and — the stencil's requirement — each box's corners at
    /// most one cell apart on every axis.
    pub fn assert_well_formed(&self, boxes: &[Aabb3], expected: &[u32]) {
        let n = self.entries.len();
        assert_eq!(self.ids.len(), n, "one index per entry");
        let mut got = self.ids.clone();
        let mut want = expected.to_vec();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "the grid does not hold exactly the expected boxes");
        let mut region = Bounds::EMPTY;
        for (b, id) in self.entries() {
            assert_eq!(*b, Bounds::of(&boxes[id as usize]), "stale box for {id}");
            region = region.union(b);
            let (c0, c1) = (self.coords(b.min), self.coords(b.max));
            assert!(
                c1.cmple(c0 + UVec3::ONE).all(),
                "box {id} spans cells {c0} to {c1}: the cell {} is too small for it",
                self.cell
            );
        }
        if n > 0 {
            assert!(self.region.min.cmple(region.min).all() && region.max.cmple(self.region.max).all());
        }
        assert!(self.keys <= u32::MAX as usize, "keys overflow u32");
        let key_of = |k: usize| self.key(self.coords(self.entries[k].min));
        match self.layout {
            Layout::Dense => {
                assert_eq!(self.start.len(), self.keys + 1, "one start per key plus one");
                assert_eq!(self.entry_key.len(), n);
                assert_eq!(self.start[0], 0);
                assert_eq!(self.start[self.keys] as usize, n, "last start is the entry count");
                let (dims, sy, sz) = (self.bin.last + UVec3::ONE, self.bin.sy, self.bin.sz);
                for k in 0..self.keys {
                    assert!(self.start[k] <= self.start[k + 1], "starts decrease at key {k}");
                    let (x, y, z) = (k as u32 % sy, k as u32 / sy % (sz / sy), k as u32 / sz);
                    let blank = x >= dims.x || y >= dims.y || z >= dims.z;
                    assert!(!blank || self.start[k] == self.start[k + 1], "blank cell {k} holds boxes");
                    for e in self.start[k] as usize..self.start[k + 1] as usize {
                        assert_eq!(key_of(e), k as u32, "box {} is binned in the wrong cell", self.ids[e]);
                        assert_eq!(self.entry_key[e], k as u32, "box {} has the wrong key noted", self.ids[e]);
                    }
                }
            }
            Layout::Sparse => {
                assert_eq!(self.runs.last(), Some(&(u32::MAX, n as u32)), "sentinel run");
                assert!(n == 0 || self.runs[0].1 == 0, "first run starts at entry 0");
                for w in self.runs.windows(2) {
                    assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "runs out of order or empty: {w:?}");
                    for e in w[0].1 as usize..w[1].1 as usize {
                        assert_eq!(key_of(e), w[0].0, "box {} is binned in the wrong cell", self.ids[e]);
                    }
                }
                let cells = self.runs.len() - 1;
                assert!(self.runs[..cells].iter().all(|r| (r.0 as usize) < self.keys), "key out of range");
            }
        }
    }

    /// The layout in use (for tests of the layout choice).
    pub fn layout(&self) -> Layout {
        self.layout
    }
}

/// Appends the pairs of `a` (index `id`) with the entries `j..end` whose boxes overlap it.
/// The first four candidates are tested without branching on how many there are (lanes past
/// `end` read a clamped index and are masked off): the count is small and varies from box to
/// box, and a loop over it would mispredict its exit about once per range.
#[inline(always)]
fn pairs_in(entries: &[Bounds], ids: &[u32], a: &Bounds, id: u32, j: usize, end: usize, pairs: &mut Vec<Pair>) {
    let len = end.saturating_sub(j);
    let last = entries.len() - 1; // `a` is an entry: never empty
    let mut hits = 0u32;
    for lane in 0..4 {
        let b = &entries[(j + lane).min(last)];
        hits |= u32::from((lane < len) & a.overlaps(b)) << lane;
    }
    while hits != 0 {
        let lane = hits.trailing_zeros() as usize;
        pairs.push(ordered(id, ids[j + lane]));
        hits &= hits - 1;
    }
    if len > 4 {
        for (b, &other) in entries[j + 4..end].iter().zip(&ids[j + 4..end]) {
            if a.overlaps(b) {
                pairs.push(ordered(id, other));
            }
        }
    }
}

/// The first run at or after `from` whose key is at least `key` (`key` below the sentinel's),
/// by galloping from `from`: O(log distance).
#[inline]
fn seek(runs: &[(u32, u32)], from: usize, key: u32) -> usize {
    let end = runs.len() - 1; // the sentinel, whose key is above every `key`
    let (mut lo, mut hi, mut step) = (from, from, 1);
    // Invariant: every run before `lo` has a smaller key.
    while runs[hi].0 < key {
        lo = hi + 1;
        hi = (hi + step).min(end);
        step *= 2;
    }
    lo + runs[lo..hi].partition_point(|r| r.0 < key)
}

/// Sorts `items` by their high 32 bits, of which only the low `key_bits` may be set, keeping
/// the order of equal keys (LSD radix sort, [`RADIX_BITS`] a pass). A pass in which every
/// item falls in one bucket would copy the list unchanged and is skipped.
fn radix_sort_by_high_half(items: &mut Vec<u64>, scratch: &mut Vec<u64>, counts: &mut Vec<u32>, key_bits: u32) {
    let buckets = 1usize << RADIX_BITS;
    let passes = key_bits.div_ceil(RADIX_BITS) as usize;
    counts.clear();
    counts.resize(passes * buckets, 0);
    let digit = |item: u64, pass: usize| ((item >> (32 + RADIX_BITS as usize * pass)) as usize) & (buckets - 1);
    for &item in items.iter() {
        for pass in 0..passes {
            counts[pass * buckets + digit(item, pass)] += 1;
        }
    }
    scratch.clear();
    scratch.resize(items.len(), 0);
    for pass in 0..passes {
        let count = &mut counts[pass * buckets..(pass + 1) * buckets];
        if count.iter().any(|&c| c as usize == items.len()) {
            continue;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
        for &item in items.iter() {
            let d = digit(item, pass);
            scratch[count[d] as usize] = item;
            count[d] += 1;
        }
        std::mem::swap(items, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_is_a_stable_sort_by_key() {
        let mut state = 0x1234_5678u64;
        let mut items: Vec<u64> = (0..5000u64)
            .map(|i| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 40) & 0x3F_FFFF) << 32 | i
            })
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|&it| it >> 32); // stable
        radix_sort_by_high_half(&mut items, &mut Vec::new(), &mut Vec::new(), 22);
        assert_eq!(items, expected);
    }
}
