//! A dense grid of cells filled by counting sort, shared by the three grid broad phases.
//!
//! Each box is binned by its *minimum corner*. When the cell side is at least the largest box
//! side, two overlapping boxes are binned in the same or adjacent cells, so each cell only needs
//! to be tested against itself and four neighbours (right; and the three above), and every
//! pair is met exactly once. Counting sort (count, prefix sum, scatter) rebuilds the grid in
//! O(n + cells) with no comparisons; boxes are copied into cell order so a cell's boxes, and a
//! row of neighbouring cells, are contiguous in memory.

use glam::Vec2;

use super::overlap;
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
    /// `start[c]..start[c + 1]` are cell `c`'s entries (row-major cells).
    pub start: Vec<u32>,
    pub entries: Vec<Entry>,
    /// Scratch: the cell of each input item, in input order.
    cell_of: Vec<u32>,
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
            return;
        }
        let mut cell = if cell.is_finite() && cell > 0.0 { cell } else { size.max_element() };
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
        let cells = self.width * self.height;
        self.start.clear();
        self.start.resize(cells + 1, 0);
        self.cell_of.clear();
        for (_, aabb) in items.clone() {
            let (x, y) = self.coords(aabb.min);
            let c = y * self.width + x;
            self.cell_of.push(c as u32);
            self.start[c + 1] += 1;
        }
        for c in 0..cells {
            self.start[c + 1] += self.start[c];
        }
        let n = self.cell_of.len();
        self.entries.clear();
        self.entries.resize(n, Entry { aabb: Aabb { min: Vec2::ZERO, max: Vec2::ZERO }, id: 0 });
        // Scatter with `start[c]` as the cursor of cell c, then shift the starts back.
        for (k, (id, aabb)) in items.enumerate() {
            let c = self.cell_of[k] as usize;
            let slot = self.start[c] as usize;
            self.entries[slot] = Entry { aabb, id };
            self.start[c] += 1;
        }
        for c in (1..=cells).rev() {
            self.start[c] = self.start[c - 1];
        }
        self.start[0] = 0;
    }

    /// Entries of cells `first..=last` (a contiguous range of cells, e.g. part of a row).
    #[inline(always)]
    pub fn range(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        self.start[first] as usize..self.start[last + 1] as usize
    }

    /// Every overlapping pair of entries in the same or adjacent cells, once each (valid when
    /// the cell side is at least every box's side).
    pub fn same_level_pairs(&self, pairs: &mut Vec<(u32, u32)>) {
        let w = self.width;
        for cy in 0..self.height {
            for cx in 0..w {
                let c = cy * w + cx;
                let own = self.range(c, c);
                if own.is_empty() {
                    continue;
                }
                // This cell's later entries and the right neighbour's are contiguous.
                let right_end = if cx + 1 < w { self.start[c + 2] } else { self.start[c + 1] } as usize;
                // The three cells above are contiguous too.
                let above = if cy + 1 < self.height {
                    self.range(c + w - usize::from(cx > 0), c + w + usize::from(cx + 1 < w))
                } else {
                    0..0
                };
                for k in own {
                    let a = self.entries[k];
                    for b in &self.entries[k + 1..right_end] {
                        if overlap(&a.aabb, &b.aabb) {
                            pairs.push(super::ordered(a.id, b.id));
                        }
                    }
                    for b in &self.entries[above.clone()] {
                        if overlap(&a.aabb, &b.aabb) {
                            pairs.push(super::ordered(a.id, b.id));
                        }
                    }
                }
            }
        }
    }

    /// Checks the counting sort: starts non-decreasing, every entry in the cell of its minimum
    /// corner, and the cell side at least `largest` (the half-stencil's requirement).
    pub fn assert_well_formed(&self, expected_entries: usize, largest: f32) {
        assert_eq!(self.start.len(), self.width * self.height + 1, "start has one slot per cell plus one");
        assert_eq!(self.start[0], 0);
        assert_eq!(*self.start.last().unwrap() as usize, self.entries.len(), "last start is the entry count");
        assert_eq!(self.entries.len(), expected_entries, "every item is in the grid once");
        assert!(self.cell >= largest, "cell side {} is smaller than the largest box {}", self.cell, largest);
        for c in 0..self.width * self.height {
            assert!(self.start[c] <= self.start[c + 1], "cell starts decrease at {c}");
            for e in &self.entries[self.range(c, c)] {
                let (x, y) = self.coords(e.aabb.min);
                assert_eq!(y * self.width + x, c, "entry {} is binned in the wrong cell", e.id);
            }
        }
    }

    /// The occupied cells as boxes.
    pub fn occupied_cells(&self, out: &mut Vec<Aabb>) {
        for cy in 0..self.height {
            for cx in 0..self.width {
                let c = cy * self.width + cx;
                if self.start[c] != self.start[c + 1] {
                    let min = self.origin + Vec2::new(cx as f32, cy as f32) * self.cell;
                    out.push(Aabb { min, max: min + Vec2::splat(self.cell) });
                }
            }
        }
    }
}
