//! Hierarchical grid (seed 003 §3.2.2, 分层网格): one uniform grid per size class.
//!
//! The seed: "如果碰撞体的大小本身就差异很大 ... 可以使用分层网格". A single grid must use
//! cells as large as the largest ball, so with radii differing 100× every small ball shares a
//! cell with thousands of others. Here level `L` has cells of side `base · 2^L` and holds the
//! boxes whose side is at most that (and more than the level below), where `base` is the larger
//! of the smallest box side and `√(area / n)`. Pairs within a level use the grid's half-stencil;
//! a box meets larger boxes by looking up, in each coarser level, the cells whose boxes can
//! reach it (its own cell range, widened by one cell down-left because coarse boxes are binned
//! by their minimum corner). Each cross-level pair is found once, from the smaller box.

use super::cell_grid::CellGrid;
use super::{ordered, overlap, union_of, BroadPhase, BroadPhaseDebug, BroadPhaseKind, DebugBoxKind, Pair};
use crate::geom::Aabb;

/// At most this many levels (`2^24` between the smallest and largest cell).
const MAX_LEVELS: usize = 24;

/// One grid per power-of-two size class.
#[derive(Debug, Default)]
pub struct HierarchicalGrid {
    levels: Vec<CellGrid>,
    used_levels: usize,
    level_of: Vec<u8>,
    base: f32,
}

impl HierarchicalGrid {
    /// Number of levels in use after the last `find_pairs`.
    pub fn level_count(&self) -> usize {
        self.used_levels
    }
}

fn side(b: &Aabb) -> f32 {
    (b.max - b.min).max_element()
}

impl BroadPhase for HierarchicalGrid {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::HierarchicalGrid
    }

    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>) {
        let region = union_of(boxes);
        let size = region.max - region.min;
        let n = boxes.len().max(1) as f32;
        let smallest = boxes.iter().map(side).fold(f32::INFINITY, f32::min);
        let base = smallest.max((size.x * size.y / n).sqrt()).max(f32::MIN_POSITIVE);
        let base = if base.is_finite() { base } else { 1.0 };
        self.base = base;
        self.level_of.clear();
        let mut used = 1;
        for b in boxes {
            let ratio = side(b) / base;
            // Smallest L with base·2^L ≥ side; the cast saturates for huge or NaN ratios.
            let level = if ratio <= 1.0 { 0 } else { (ratio.log2().ceil() as usize).min(MAX_LEVELS - 1) };
            self.level_of.push(level as u8);
            used = used.max(level + 1);
        }
        self.used_levels = used;
        if self.levels.len() < used {
            self.levels.resize_with(used, CellGrid::default);
        }
        for level in 0..used {
            let cell = base * (1u32 << level) as f32;
            // The top level must hold the largest boxes even if the loop above capped them.
            let grid = &mut self.levels[level];
            grid.configure(region, cell, 4 * boxes.len() + 64);
            let level_of = &self.level_of;
            grid.fill(
                boxes.iter().enumerate().filter(|(i, _)| level_of[*i] as usize == level).map(|(i, b)| (i as u32, *b)),
            );
        }
        for level in 0..used {
            self.levels[level].same_level_pairs(pairs);
            for entry in &self.levels[level].entries {
                for coarse in &self.levels[level + 1..used] {
                    if coarse.entries.is_empty() {
                        continue;
                    }
                    let (x0, y0) = coarse.coords(entry.aabb.min);
                    let (x1, y1) = coarse.coords(entry.aabb.max);
                    let (x0, y0) = (x0.saturating_sub(1), y0.saturating_sub(1));
                    for y in y0..=y1 {
                        let row = y * coarse.stride;
                        for other in &coarse.entries[coarse.range(row + x0, row + x1)] {
                            if overlap(&entry.aabb, &other.aabb) {
                                pairs.push(ordered(entry.id, other.id));
                            }
                        }
                    }
                }
            }
        }
    }

    fn assert_well_formed(&self, boxes: &[Aabb]) {
        let mut total = 0;
        for (level, grid) in self.levels[..self.used_levels].iter().enumerate() {
            let members: Vec<&Aabb> =
                boxes.iter().enumerate().filter(|(i, _)| self.level_of[*i] as usize == level).map(|(_, b)| b).collect();
            let largest = members.iter().map(|b| side(b)).fold(0.0, f32::max);
            grid.assert_well_formed(members.len(), largest);
            if level > 0 {
                for b in &members {
                    assert!(side(b) > self.base * (1u32 << (level - 1)) as f32, "box fits a finer level than {level}");
                }
            }
            total += members.len();
        }
        assert_eq!(total, boxes.len(), "every box is in exactly one level");
    }

    fn debug_boxes(&self, out: &mut BroadPhaseDebug) {
        for (level, grid) in self.levels[..self.used_levels].iter().enumerate() {
            grid.occupied_cells(out.layer(DebugBoxKind::GridCell, level as u32));
        }
    }
}
