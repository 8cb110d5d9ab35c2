//! Uniform grid (seed 003 §3.2.2, 网格划分; §6.1: a third cell index), rebuilt every call.
//!
//! The seed notes that the cell size is the whole game: "合适的格子大小应该是跟碰撞体大小接近".
//! The side here is the largest box side (plus the rounding slack the binning needs, see
//! `cell_grid`): the smallest that lets each box be binned once, by its minimum corner, and met
//! by a half-stencil of 13 neighbouring cells. Smaller cells are impossible; larger ones only
//! add candidates. The planar grid also enlarges its cells to about one box per cell over the
//! scene's area, so that a sparse scene does not scan empty cells; in space that estimate goes
//! badly wrong for the common case of a pile at the bottom of a tall box (the pile is far
//! denser than the box), and the empty cells are avoided another way: when a dense table of
//! cells would exceed a few cells per box, the grid keeps only the occupied cells, as sorted
//! keys (see `cell_grid` for both layouts). Boxes are placed in last call's cell order, so a
//! box that stays in its cell is written next to where it was.
//!
//! The grid's weakness is the seed's: one box much larger than the rest sets the cell for all.
//! [`HierarchicalGrid`](super::HierarchicalGrid) is the answer to that.

use super::cell_grid::CellGrid;
use super::{refresh_order, BroadPhase, BroadPhaseKind, Misfits, Pair, Survey};
use crate::physics3d::Aabb3;

/// Uniform grid rebuilt by counting sort (or radix sort of cell keys) every call.
#[derive(Debug, Default)]
pub struct UniformGrid {
    grid: CellGrid,
    misfits: Misfits,
    /// Every index once: last call's cell order, then its misfits (the next placing order).
    order: Vec<u32>,
    /// Scratch: `order` without the misfits, when there are any.
    placeable: Vec<u32>,
}

impl UniformGrid {
    /// Whether the last call used the sparse layout (sorted cell keys) rather than a dense table.
    pub fn is_sparse(&self) -> bool {
        self.grid.layout() == super::cell_grid::Layout::Sparse
    }
}

impl BroadPhase for UniformGrid {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::UniformGrid
    }

    fn find_pairs(&mut self, boxes: &[Aabb3], pairs: &mut Vec<Pair>) {
        let survey = Survey::of(boxes, &mut self.misfits);
        self.grid.configure(survey.region, survey.largest, 0.0, survey.placeable);
        refresh_order(&mut self.order, boxes.len());
        let members = if self.misfits.len() == 0 {
            &self.order[..]
        } else {
            self.placeable.clear();
            self.placeable.extend(self.order.iter().filter(|&&id| super::is_placeable(&boxes[id as usize])));
            &self.placeable[..]
        };
        self.grid.fill(boxes, members);
        self.grid.same_level_pairs(pairs);
        self.misfits.pairs(boxes, pairs);
        self.order.clear();
        self.order.extend_from_slice(self.grid.ids());
        self.order.extend_from_slice(&self.misfits.ids);
    }

    fn assert_well_formed(&self, boxes: &[Aabb3]) {
        self.misfits.assert_well_formed(boxes);
        let placeable: Vec<u32> =
            (0..boxes.len() as u32).filter(|&i| super::is_placeable(&boxes[i as usize])).collect();
        self.grid.assert_well_formed(boxes, &placeable);
        let mut order = self.order.clone();
        order.sort_unstable();
        assert!(order.iter().copied().eq(0..boxes.len() as u32), "the placing order is not a permutation");
    }
}
