//! A dense grid of cells filled by counting sort, shared by the three grid broad phases.
//!
//! Each box is binned by its *minimum corner*. When the cell side is at least the largest box
//! side, two overlapping boxes are binned in the same or adjacent cells, so each cell only needs
//! to be tested against itself and four neighbours (right; and the three above), and every
//! pair is met exactly once. Counting sort (count, prefix sum, scatter) rebuilds the grid in
//! O(n + cells) with no comparisons; boxes are copied into cell order so a cell's boxes, and a
//! row of neighbouring cells, are contiguous in memory.
//!
//! The cells are laid out with one blank column after each row and one blank row on top (never
//! filled), so every cell's right and upper neighbours exist: the pair loop needs no edge
//! tests, and a box's four neighbouring cells are two contiguous ranges of entries.

use glam::{Vec2, Vec4};

use super::{ordered, Pair};
use crate::geom::Aabb;

/// A box and the ball it belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub aabb: Aabb,
    pub id: u32,
}

/// Cells stop growing past this count: the cell side grows instead.
const MAX_CELLS: usize = 1 << 26;

#[derive(Debug, Default)]
pub(crate) struct CellGrid {
    pub origin: Vec2,
    pub cell: f32,
    inv_cell: f32,
    pub width: usize,
    pub height: usize,
    /// Cells per row in the layout: `width` and the blank column. Cell `(x, y)` is
    /// `y * stride + x`; rows `0..=height` (row `height` is blank).
    pub stride: usize,
    /// `start[c]..start[c + 1]` are cell `c`'s entries (row-major cells, blanks included).
    pub start: Vec<u32>,
    pub entries: Vec<Entry>,
    /// The cell of each entry, in entry order.
    entry_cell: Vec<u32>,
    /// Scratch: the cell of each input item, in input order.
    cell_of: Vec<u32>,
    /// The ids in the order the last [`CellGrid::fill_all`] left them (its entries' ids, kept
    /// apart: the next fill reads 4 bytes an entry rather than striding over 20), and scratch
    /// for the next order.
    order: Vec<u32>,
    next_order: Vec<u32>,
}

impl CellGrid {
    /// Sets the grid over `region` with cells of side at least `cell` (grown if the grid would
    /// exceed `max_cells`, itself capped at [`MAX_CELLS`]).
    pub fn configure(&mut self, region: Aabb, cell: f32, max_cells: usize) {
        let max_cells = max_cells.clamp(1, MAX_CELLS);
        let size = (region.max - region.min).max(Vec2::splat(f32::MIN_POSITIVE));
        if !(size.is_finite() && region.min.is_finite()) {
            // Overflowed positions (the world never panics, so it still steps them): one cell
            // holding everything is slow but correct.
            self.origin = if region.min.is_finite() { region.min } else { Vec2::ZERO };
            self.cell = f32::INFINITY;
            self.inv_cell = 0.0;
            self.width = 1;
            self.height = 1;
            self.stride = 2;
            return;
        }
        let mut cell = if cell.is_finite() && cell > 0.0 { cell } else { size.max_element() };
        // The binning computes `(p − origin) · (1/cell)` in `f32`: the subtraction, the
        // reciprocal and the product each round, moving a coordinate by up to `3 · 2⁻²⁴` of the
        // region's extent. With the cell exactly the largest box side, a box whose corner lies
        // a hair below a cell boundary could see its other corner rounded two cells on, and a
        // touching pair was lost (8 of 2,000 in a chain of touching boxes at ±1,000 m). A cell
        // larger by twice that error keeps overlapping boxes in the same or adjacent cells.
        cell = cell * (1.0 + 2f32.powi(-20)) + size.max_element() * 2f32.powi(-21);
        // Grow the cells until the grid fits; once one cell covers the region the count is 1.
        while ((size.x / cell).floor() + 1.0) * ((size.y / cell).floor() + 1.0) > max_cells as f32 {
            cell *= 1.5;
        }
        self.origin = region.min;
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        // Both sides are at most `max_cells` by the loop above; `min` guards float rounding.
        // Clamping is safe for correctness anyway: coordinates are clamped monotonically, so
        // boxes in adjacent cells stay in the same or adjacent cells.
        self.width = ((size.x * self.inv_cell) as usize).saturating_add(1).clamp(1, max_cells);
        self.height = ((size.y * self.inv_cell) as usize).saturating_add(1).clamp(1, (max_cells / self.width).max(1));
        self.stride = self.width + 1;
    }

    /// Cells in the layout, blanks included.
    #[inline]
    pub fn layout_cells(&self) -> usize {
        self.stride * (self.height + 1)
    }

    /// Cell coordinates of point `p`, clamped to the grid (casts saturate; NaN maps to 0).
    #[inline(always)]
    pub fn coords(&self, p: Vec2) -> (usize, usize) {
        let q = (p - self.origin) * self.inv_cell;
        ((q.x.max(0.0) as usize).min(self.width - 1), (q.y.max(0.0) as usize).min(self.height - 1))
    }

    /// Fills the grid with `(id, box)` items by counting sort on the cell of each minimum
    /// corner. `items` is iterated twice.
    #[inline(never)] // profiled separately from the pair loop
    pub fn fill<I: Iterator<Item = (u32, Aabb)> + Clone>(&mut self, items: I) {
        let cells = self.layout_cells();
        self.start.clear();
        self.start.resize(cells + 1, 0);
        self.cell_of.clear();
        for (_, aabb) in items.clone() {
            let (x, y) = self.coords(aabb.min);
            let c = y * self.stride + x;
            self.cell_of.push(c as u32);
            self.start[c + 1] += 1;
        }
        counts_to_starts(&mut self.start);
        let n = self.cell_of.len();
        self.entries.clear();
        self.entries.resize(n, Entry { aabb: Aabb { min: Vec2::ZERO, max: Vec2::ZERO }, id: 0 });
        self.entry_cell.clear();
        self.entry_cell.resize(n, 0);
        // Scatter with `start[c]` as the cursor of cell c, then shift the starts back.
        for (k, (id, aabb)) in items.enumerate() {
            let c = self.cell_of[k];
            let slot = self.start[c as usize] as usize;
            self.entries[slot] = Entry { aabb, id };
            self.entry_cell[slot] = c;
            self.start[c as usize] += 1;
        }
        rewind_starts(&mut self.start);
        self.order.clear();
    }

    /// Fills the grid with every box of `boxes` (id = index), like [`CellGrid::fill`], but
    /// places the boxes in the order the last call left them in (cell order), new boxes last.
    ///
    /// Boxes move little from one step to the next, so almost every box lands in the cell it
    /// was in, and the placing writes walk the grid front to back instead of jumping around
    /// it: once the balls have mixed, index order is random order, and in a 100,000-ball pit
    /// the scattered writes cost more than the rest of the fill. What is random instead are the
    /// reads of each box and its cell, which do not depend on one another. The cells are
    /// computed and counted in index order, reading `boxes` front to back.
    #[inline(never)] // profiled separately from the pair loop
    pub fn fill_all(&mut self, boxes: &[Aabb]) {
        let n = boxes.len();
        let cells = self.layout_cells();
        // The last call's order holds the ids `0..order.len()` once each, and the boxes never
        // shrink or reorder (the broad-phase contract): new boxes go last.
        if self.order.len() > n {
            self.order.clear();
        }
        let previous = self.order.len();
        self.order.extend(previous as u32..n as u32);
        let (origin, inv_cell, stride) = (self.origin, self.inv_cell, self.stride as u32);
        let (last_x, last_y) = (self.width as u32 - 1, self.height as u32 - 1);
        // `coords` with the grid's fields in registers (the writes below go through pointers
        // the compiler cannot tell apart from `self`).
        let cell_of_corner = |p: Vec2| -> u32 {
            let q = ((p - origin) * inv_cell).max(Vec2::ZERO); // NaN becomes 0
            (q.y as u32).min(last_y) * stride + (q.x as u32).min(last_x)
        };
        let CellGrid { start, entries, entry_cell, cell_of, order, next_order, .. } = self;
        start.clear();
        start.resize(cells + 1, 0);
        // Cells in index order (the boxes read front to back), counted as they come.
        // A plain loop over a sized buffer rather than `extend` with a closure: the closure's
        // `fold` was inlined or not depending on unrelated code elsewhere in the crate (6
        // instructions a ball either way, measured with callgrind).
        cell_of.resize(n, 0);
        for (cell, b) in cell_of.iter_mut().zip(boxes) {
            let c = cell_of_corner(b.min);
            start[c as usize + 1] += 1;
            *cell = c;
        }
        counts_to_starts(start);
        entries.resize(n, Entry { aabb: Aabb { min: Vec2::ZERO, max: Vec2::ZERO }, id: 0 });
        entry_cell.resize(n, 0);
        next_order.resize(n, 0);
        // Place with `start[c]` as the cursor of cell c, then shift the starts back. The boxes
        // are read a second time rather than staged: a staged copy would add its writes and
        // reads.
        for &id in order.iter() {
            let c = cell_of[id as usize];
            let slot = start[c as usize] as usize;
            entries[slot] = Entry { aabb: boxes[id as usize], id };
            entry_cell[slot] = c;
            next_order[slot] = id;
            start[c as usize] += 1;
        }
        std::mem::swap(order, next_order);
        rewind_starts(start);
    }

    /// Entries of cells `first..=last` (a contiguous range of cells, e.g. part of a row).
    #[inline(always)]
    pub fn range(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        self.start[first] as usize..self.start[last + 1] as usize
    }

    /// Every overlapping pair of entries in the same or adjacent cells, once each (valid when
    /// the cell side is at least every box's side).
    ///
    /// Driven by the entries, not the cells: most cells of a fine grid hold zero or one box, and
    /// a loop over cells pays a mispredicted branch at each empty one.
    pub fn same_level_pairs(&self, pairs: &mut Vec<Pair>) {
        let (start, entries, stride) = (&self.start[..], &self.entries[..], self.stride);
        for (k, (a, &c)) in entries.iter().zip(&self.entry_cell).enumerate() {
            let c = c as usize;
            // This cell's later entries and the right neighbour's are contiguous; so are the
            // three cells above. Blank cells make both exist at every edge.
            pairs_in(entries, a, k + 1, start[c + 2] as usize, pairs);
            pairs_in(entries, a, start[c + stride - 1] as usize, start[c + stride + 2] as usize, pairs);
        }
    }

    /// Checks the counting sort: starts non-decreasing, every entry in the cell of its minimum
    /// corner, and the cell side at least `largest` (the half-stencil's requirement).
    pub fn assert_well_formed(&self, expected_entries: usize, largest: f32) {
        assert_eq!(self.stride, self.width + 1, "one blank column per row");
        assert_eq!(self.start.len(), self.layout_cells() + 1, "start has one slot per cell plus one");
        assert_eq!(self.entry_cell.len(), self.entries.len(), "every entry has its cell");
        assert_eq!(self.start[0], 0);
        assert_eq!(*self.start.last().unwrap() as usize, self.entries.len(), "last start is the entry count");
        assert_eq!(self.entries.len(), expected_entries, "every item is in the grid once");
        assert!(self.cell >= largest, "cell side {} is smaller than the largest box {}", self.cell, largest);
        for c in 0..self.layout_cells() {
            assert!(self.start[c] <= self.start[c + 1], "cell starts decrease at {c}");
            for (e, &ec) in self.entries[self.range(c, c)].iter().zip(&self.entry_cell[self.range(c, c)]) {
                let (x, y) = self.coords(e.aabb.min);
                assert_eq!(y * self.stride + x, c, "entry {} is binned in the wrong cell", e.id);
                assert_eq!(ec as usize, c, "entry {} has the wrong cell noted", e.id);
            }
        }
    }

    /// The occupied cells as boxes.
    pub fn occupied_cells(&self, out: &mut Vec<Aabb>) {
        for cy in 0..self.height {
            for cx in 0..self.width {
                let c = cy * self.stride + cx;
                if self.start[c] != self.start[c + 1] {
                    let min = self.origin + Vec2::new(cx as f32, cy as f32) * self.cell;
                    out.push(Aabb { min, max: min + Vec2::splat(self.cell) });
                }
            }
        }
    }
}

/// Counting sort, between counting and placing: `start[c + 1]` holds cell c's count; makes
/// `start[c]` the first slot of cell c (a running sum).
fn counts_to_starts(start: &mut [u32]) {
    let mut sum = 0;
    for s in start.iter_mut() {
        sum += *s;
        *s = sum;
    }
}

/// Counting sort, after placing: each `start[c]` has moved on to cell c's end, which is cell
/// `c + 1`'s start; shifts them back by one cell.
fn rewind_starts(start: &mut [u32]) {
    let cells = start.len() - 1;
    start.copy_within(0..cells, 1);
    start[0] = 0;
}

/// Appends the pairs of `a` with the entries `j..end` whose boxes overlap its box. The first
/// four candidates are tested without branching on how many there are (lanes past `end` read
/// a clamped index and are masked off): the count is small and varies from ball to ball, and a
/// loop over it would mispredict its exit about once per range.
#[inline(always)]
fn pairs_in(entries: &[Entry], a: &Entry, j: usize, end: usize, pairs: &mut Vec<Pair>) {
    let len = end.saturating_sub(j);
    let last = entries.len().saturating_sub(1);
    let a_form = lower_and_negated_upper(&a.aabb);
    let mut hits = 0u32;
    for lane in 0..4 {
        let b = &entries[(j + lane).min(last)];
        hits |= u32::from((lane < len) & overlaps(a_form, &b.aabb)) << lane;
    }
    while hits != 0 {
        let lane = hits.trailing_zeros() as usize;
        pairs.push(ordered(a.id, entries[j + lane].id));
        hits &= hits - 1;
    }
    if len > 4 {
        for b in &entries[j + 4..end] {
            if overlaps(a_form, &b.aabb) {
                pairs.push(ordered(a.id, b.id));
            }
        }
    }
}

/// `[min.x, min.y, −max.x, −max.y]`: with it, [`overlaps`] is one four-lane comparison.
#[inline(always)]
fn lower_and_negated_upper(a: &Aabb) -> Vec4 {
    Vec4::new(a.min.x, a.min.y, -a.max.x, -a.max.y)
}

/// [`overlap`](super::overlap) as one four-lane comparison: `a.min ≤ b.max` and `−a.max ≤ −b.min` (negation is
/// exact, so this is the same test, touching included, NaN never overlapping).
#[inline(always)]
fn overlaps(a_form: Vec4, b: &Aabb) -> bool {
    a_form.cmple(Vec4::new(b.max.x, b.max.y, -b.min.x, -b.min.y)).all()
}

#[cfg(test)]
mod tests {
    use super::super::overlap;
    use super::*;

    /// The four-lane test is the scalar one on every edge case of one axis (touching, signed
    /// zeros, infinities, NaN), the other axis overlapping.
    #[test]
    fn four_lane_overlap_is_the_scalar_overlap() {
        let values = [-1.0, -0.0, 0.0, 1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        let mut checked = 0;
        for axis in 0..2 {
            for &a0 in &values {
                for &a1 in &values {
                    for &b0 in &values {
                        for &b1 in &values {
                            let (mut a, mut b) =
                                (Aabb { min: Vec2::ZERO, max: Vec2::ONE }, Aabb { min: Vec2::ZERO, max: Vec2::ONE });
                            a.min[axis] = a0;
                            a.max[axis] = a1;
                            b.min[axis] = b0;
                            b.max[axis] = b1;
                            assert_eq!(overlaps(lower_and_negated_upper(&a), &b), overlap(&a, &b), "{a:?} {b:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 7usize.pow(4));
    }
}
