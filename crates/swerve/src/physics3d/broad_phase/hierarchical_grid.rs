//! Hierarchical grid (seed 003 §3.2.2, 分层网格): one uniform grid per size class.
//!
//! The seed: "如果碰撞体的大小本身就差异很大 ... 可以使用分层网格". A single grid must use
//! cells as large as the largest sphere, so with radii differing 100× every small sphere shares
//! a cell with up to a million others (100³). Here level `L` has cells of side `base · 2^L` and
//! holds the boxes whose side is at most that and more than the level below's; `base` is set
//! so that the top level's cell is the largest box side (the planar grid raises it to the
//! spacing of one box per cell over the scene; see [`UniformGrid`](super::UniformGrid) for why
//! that estimate is not used in space: the levels keep only occupied cells when their tables
//! would be mostly empty). Pairs within a
//! level use the grid's half-stencil; a box meets larger boxes by querying each coarser level
//! for the cells whose boxes can reach it (its own cells, widened by one cell downwards
//! because coarse boxes are binned by their minimum corner: at most 3 × 3 rows of 3 cells, as
//! the box is smaller than a coarse cell). Each cross-level pair is found once, from the
//! smaller box. Each level's grid covers only its own boxes' region and picks its own layout
//! (dense or sparse), so a few large spheres do not make the fine levels' tables huge.

use super::cell_grid::CellGrid;
use super::{refresh_order, Bounds, BroadPhase, BroadPhaseKind, Misfits, Pair, Survey};
use crate::physics3d::Aabb3;

/// At most this many levels (`2^23` between the smallest and the largest cell); larger boxes
/// share the top level, whose cell grows to fit them.
const MAX_LEVELS: usize = 24;
/// `level_of` mark of a box no level holds (see [`Misfits`]).
const MISFIT: u8 = u8::MAX;

/// One grid per power-of-two size class.
#[derive(Debug, Default)]
pub struct HierarchicalGrid {
    levels: Vec<CellGrid>,
    /// Levels `0..used` hold the boxes (some may be empty).
    used: usize,
    /// Cell side of level 0 before any growth.
    base: f32,
    /// Level of each box, or [`MISFIT`].
    level_of: Vec<u8>,
    /// Every index once: last call's levels' cell orders, then its misfits.
    order: Vec<u32>,
    /// `order`'s placeable indices grouped by level (a stable counting sort):
    /// `by_level[level_start[L]..level_start[L + 1]]` are level L's.
    by_level: Vec<u32>,
    level_start: [u32; MAX_LEVELS + 1],
    misfits: Misfits,
}

impl HierarchicalGrid {
    /// Number of levels in use after the last call (the finest to the coarsest non-empty one).
    pub fn level_count(&self) -> usize {
        self.used
    }

    /// The level a box of side `side` belongs to: the smallest `L` with `base · 2^L ≥ side`.
    /// (Rounding may put a box one level off; the grids size their cells from the boxes they
    /// are given, so that is never wrong, only checked loosely by `assert_well_formed`.)
    fn level(base: f32, side: f32) -> usize {
        let ratio = side / base;
        // The cast saturates; `ratio <= 1` is also where negative (inverted box) sides go.
        if ratio <= 1.0 {
            0
        } else {
            (ratio.log2().ceil() as usize).min(MAX_LEVELS - 1)
        }
    }
}

/// Largest side of a box.
fn side(b: &Aabb3) -> f32 {
    (b.max - b.min).max_element()
}

impl BroadPhase for HierarchicalGrid {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::HierarchicalGrid
    }

    fn find_pairs(&mut self, boxes: &[Aabb3], pairs: &mut Vec<Pair>) {
        let survey = Survey::of(boxes, &mut self.misfits);
        // Levels count down from the largest box: the top level's cell is the largest side,
        // each level below half the one above, down to the smallest box (points, of side 0, go
        // to level 0), at most MAX_LEVELS. Anchored at the smallest box instead, level 0 held
        // only boxes of exactly the smallest side: in a pit of equal spheres, whose swept
        // boxes differ a little with their speeds, nearly all went to level 1 and the rest
        // jittered between the two levels from step to step (queried across levels, and their
        // buffers never reached a high-water mark). From the top, a crowd of equal spheres is
        // one level.
        let span = if survey.smallest > 0.0 && survey.smallest.is_finite() {
            (survey.largest / survey.smallest).log2().ceil().clamp(0.0, (MAX_LEVELS - 1) as f32) as i32
        } else {
            0
        };
        let base = survey.largest * 0.5f32.powi(span);
        // No positive size to go by (all boxes points, or none): one level.
        let base = if base > 0.0 && base.is_finite() { base } else { 1.0 };
        self.base = base;
        // Level of each box, with each level's count, region and largest side.
        let mut count = [0u32; MAX_LEVELS];
        let mut region = [Bounds::EMPTY; MAX_LEVELS];
        let mut largest = [0.0f32; MAX_LEVELS];
        self.level_of.clear();
        let mut used = 0;
        for b in boxes {
            if !super::is_placeable(b) {
                self.level_of.push(MISFIT);
                continue;
            }
            let s = side(b);
            let level = Self::level(base, s);
            self.level_of.push(level as u8);
            count[level] += 1;
            region[level] = region[level].union(&Bounds::of(b));
            largest[level] = largest[level].max(s);
            used = used.max(level + 1);
        }
        self.used = used;
        if self.levels.len() < used {
            self.levels.resize_with(used, CellGrid::default);
        }
        // Group last call's order by level, keeping it within each level (coherent placing).
        refresh_order(&mut self.order, boxes.len());
        self.level_start[0] = 0;
        for (level, &c) in count.iter().enumerate() {
            self.level_start[level + 1] = self.level_start[level] + c;
        }
        let mut cursor = self.level_start;
        self.by_level.clear();
        self.by_level.resize(survey.placeable, 0);
        for &id in &self.order {
            let level = self.level_of[id as usize];
            if level != MISFIT {
                self.by_level[cursor[level as usize] as usize] = id;
                cursor[level as usize] += 1;
            }
        }
        for (level, grid) in self.levels[..used].iter_mut().enumerate() {
            let cell = f64::from(base) * f64::from(1u32 << level);
            grid.configure(region[level], largest[level], cell, count[level] as usize);
            let members = &self.by_level[self.level_start[level] as usize..self.level_start[level + 1] as usize];
            grid.fill(boxes, members);
        }
        for level in 0..used {
            let (fine, coarser) = self.levels[..used].split_at(level + 1);
            let fine = &fine[level];
            fine.same_level_pairs(pairs);
            for coarse in coarser.iter().filter(|g| g.len() > 0) {
                for (b, id) in fine.entries() {
                    coarse.query(b, id, pairs);
                }
            }
        }
        self.misfits.pairs(boxes, pairs);
        self.order.clear();
        for grid in &self.levels[..used] {
            self.order.extend_from_slice(grid.ids());
        }
        self.order.extend_from_slice(&self.misfits.ids);
    }

    fn assert_well_formed(&self, boxes: &[Aabb3]) {
        self.misfits.assert_well_formed(boxes);
        assert_eq!(self.level_of.len(), boxes.len(), "one level per box");
        assert!(self.used <= MAX_LEVELS && self.used <= self.levels.len());
        let mut total = 0;
        for (level, grid) in self.levels[..self.used].iter().enumerate() {
            let members: Vec<u32> =
                (0..boxes.len() as u32).filter(|&i| self.level_of[i as usize] as usize == level).collect();
            grid.assert_well_formed(boxes, &members);
            let cell = self.base * (1u32 << level) as f32;
            for &i in &members {
                let s = side(&boxes[i as usize]);
                // One level of slack either way for the rounding of `log2` (see `level`).
                let top = level == MAX_LEVELS - 1;
                assert!(top || s <= cell * 2.0, "box {i} (side {s}) is too large for level {level}");
                assert!(level == 0 || s > cell / 4.0, "box {i} (side {s}) fits a finer level than {level}");
            }
            total += members.len();
        }
        assert_eq!(total + self.misfits.len(), boxes.len(), "every box is in exactly one level or a misfit");
        let mut order = self.order.clone();
        order.sort_unstable();
        assert!(order.iter().copied().eq(0..boxes.len() as u32), "the placing order is not a permutation");
    }
}
