//! Grid + sort-and-sweep (seed 003 §3.2.2: "格内还可以使用 Sort and Sweep 进一步优化").
//!
//! The seed's code for this variant never used its grid (it swept the whole scene). Here the
//! grid is real: coarse cells (about [`GridSortAndSweep::BOXES_PER_CELL`] boxes each, and at
//! least the largest box side, so the half-stencil of `cell_grid` applies), each cell's boxes
//! sorted by their minimum x, then swept within the cell and merge-swept against each of the
//! four forward neighbours. Coarse cells make the grid cheap to build; the sweep keeps the
//! number of box tests close to the number of x-overlaps instead of all pairs in the cells.

use super::cell_grid::{CellGrid, Entry};
use super::{largest_extent, ordered, union_of, BroadPhase, BroadPhaseDebug, BroadPhaseKind, DebugBoxKind, Pair};
use crate::geom::Aabb;

/// Coarse grid with sort-and-sweep inside and across neighbouring cells.
#[derive(Debug, Default)]
pub struct GridSortAndSweep {
    grid: CellGrid,
}

impl GridSortAndSweep {
    /// Target mean number of boxes per cell.
    pub const BOXES_PER_CELL: f32 = 8.0;
}

#[inline(always)]
fn y_overlap(a: &Aabb, b: &Aabb) -> bool {
    a.min.y <= b.max.y && b.min.y <= a.max.y
}

/// Sort-and-sweep within one x-sorted list.
fn sweep_within(list: &[Entry], pairs: &mut Vec<Pair>) {
    for (k, a) in list.iter().enumerate() {
        for b in &list[k + 1..] {
            if b.aabb.min.x > a.aabb.max.x {
                break;
            }
            if y_overlap(&a.aabb, &b.aabb) {
                pairs.push(ordered(a.id, b.id));
            }
        }
    }
}

/// Sort-and-sweep of the pairs across two x-sorted lists: walk both in merged order; the
/// current element of one list is swept against the rest of the other.
fn sweep_across(p: &[Entry], q: &[Entry], pairs: &mut Vec<Pair>) {
    let (mut i, mut j) = (0, 0);
    while i < p.len() && j < q.len() {
        if p[i].aabb.min.x <= q[j].aabb.min.x {
            let a = &p[i];
            for b in &q[j..] {
                if b.aabb.min.x > a.aabb.max.x {
                    break;
                }
                if y_overlap(&a.aabb, &b.aabb) {
                    pairs.push(ordered(a.id, b.id));
                }
            }
            i += 1;
        } else {
            let b = &q[j];
            for a in &p[i..] {
                if a.aabb.min.x > b.aabb.max.x {
                    break;
                }
                if y_overlap(&a.aabb, &b.aabb) {
                    pairs.push(ordered(a.id, b.id));
                }
            }
            j += 1;
        }
    }
}

impl BroadPhase for GridSortAndSweep {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::GridSortAndSweep
    }

    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>) {
        let region = union_of(boxes);
        let size = region.max - region.min;
        let n = boxes.len().max(1) as f32;
        let cell = largest_extent(boxes).max((size.x * size.y * Self::BOXES_PER_CELL / n).sqrt());
        self.grid.configure(region, cell, boxes.len() + 64);
        self.grid.fill(boxes.iter().enumerate().map(|(i, b)| (i as u32, *b)));
        let cells = self.grid.layout_cells();
        // Sort each cell by minimum x. Cells are small, so insertion sort (no allocation).
        for c in 0..cells {
            let r = self.grid.range(c, c);
            insertion_sort_by_min_x(&mut self.grid.entries[r]);
        }
        let (w, h, stride) = (self.grid.width, self.grid.height, self.grid.stride);
        let g = &self.grid;
        for cy in 0..h {
            for cx in 0..w {
                let c = cy * stride + cx;
                let own = &g.entries[g.range(c, c)];
                if own.is_empty() {
                    continue;
                }
                sweep_within(own, pairs);
                // The right and upper neighbours exist at every edge (blank cells, empty).
                for neighbour in [c + 1, c + stride - 1, c + stride, c + stride + 1] {
                    sweep_across(own, &g.entries[g.range(neighbour, neighbour)], pairs);
                }
            }
        }
    }

    fn assert_well_formed(&self, boxes: &[Aabb]) {
        self.grid.assert_well_formed(boxes.len(), largest_extent(boxes));
        for c in 0..self.grid.layout_cells() {
            let cell = &self.grid.entries[self.grid.range(c, c)];
            assert!(cell.windows(2).all(|w| w[0].aabb.min.x <= w[1].aabb.min.x), "cell {c} is not sorted by x");
        }
    }

    fn debug_boxes(&self, out: &mut BroadPhaseDebug) {
        self.grid.occupied_cells(out.layer(DebugBoxKind::GridCell, 0));
    }
}

fn insertion_sort_by_min_x(list: &mut [Entry]) {
    for k in 1..list.len() {
        let item = list[k];
        let mut l = k;
        while l > 0 && list[l - 1].aabb.min.x > item.aabb.min.x {
            list[l] = list[l - 1];
            l -= 1;
        }
        list[l] = item;
    }
}
