//! Broad phases: cheap filters that find the pairs of balls that *might* touch.
//!
//! Seed 003 §3.2 compares sort-and-sweep, a uniform grid, a hierarchical grid, grid + sort-and-
//! sweep and a quadtree against brute force; Box2D's dynamic AABB tree is added as the
//! incremental structure games use. Every one implements [`BroadPhase`], whose whole contract
//! is:
//!
//! > Given one box per ball, report every pair `(i, j)`, `i < j`, whose boxes overlap
//! > (touching counts), each pair at most once. Extra pairs are allowed (false positives);
//! > missing pairs are not (no false negatives).
//!
//! The world passes *swept* boxes (the ball at the start and at the end of the step), so the
//! narrow phase sees every pair that can collide within the step. Property tests check each
//! structure against [`BruteForce`] and call its `assert_well_formed`.

mod aabb_tree;
mod brute_force;
mod cell_grid;
mod few_against_all;
mod grid_sort_and_sweep;
mod hierarchical_grid;
mod quadtree;
mod sort_and_sweep;
mod uniform_grid;

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::geom::Aabb;

pub use aabb_tree::DynamicAabbTree;
pub use brute_force::BruteForce;
pub use grid_sort_and_sweep::GridSortAndSweep;
pub use hierarchical_grid::HierarchicalGrid;
pub use quadtree::Quadtree;
pub use sort_and_sweep::SortAndSweep;
pub use uniform_grid::UniformGrid;

pub(crate) use few_against_all::{pairs_with_grown, GrownScratch};

/// A pair of ball indices `(i, j)` with `i < j`.
pub type Pair = (u32, u32);

/// One broad-phase algorithm. See the [module docs](self) for the contract.
pub trait BroadPhase: Send + Sync {
    /// Which algorithm this is.
    fn kind(&self) -> BroadPhaseKind;

    /// Appends to `pairs` every pair `(i, j)`, `i < j`, of indices into `boxes` whose boxes
    /// overlap (a superset is allowed, each pair at most once). Incremental structures keep
    /// state between calls; `boxes` may grow between calls (new balls are appended) but never
    /// shrinks or reorders. Must not allocate once its buffers have grown to the scene.
    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>);

    /// Panics with a description if the structure built by the last [`find_pairs`] call
    /// (with these `boxes`) breaks one of its invariants. For tests; slow.
    ///
    /// [`find_pairs`]: BroadPhase::find_pairs
    fn assert_well_formed(&self, boxes: &[Aabb]);

    /// Appends the structure's boxes (cells, nodes, intervals) to `out`, for drawing.
    fn debug_boxes(&self, out: &mut BroadPhaseDebug);
}

/// The broad-phase algorithms, selectable at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BroadPhaseKind {
    /// Every pair (seed 003 §3.1): O(n²), the oracle.
    BruteForce,
    /// Sort-and-sweep on the axis of largest variance, kept sorted by insertion sort (§3.2.1).
    SortAndSweep,
    /// Uniform grid with a cell size chosen from the radii (§3.2.2).
    UniformGrid,
    /// One grid per size class, for radii that differ a lot (§3.2.2, 分层网格).
    HierarchicalGrid,
    /// Coarse grid with sort-and-sweep inside and between neighbouring cells (§3.2.2, last line).
    GridSortAndSweep,
    /// Loose quadtree, rebuilt every step (§3.2.3).
    Quadtree,
    /// Box2D's dynamic AABB tree: fat boxes, incremental updates, rotations.
    DynamicAabbTree,
}

impl BroadPhaseKind {
    /// Every algorithm, brute force first.
    pub const ALL: [BroadPhaseKind; 7] = [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::SortAndSweep,
        BroadPhaseKind::UniformGrid,
        BroadPhaseKind::HierarchicalGrid,
        BroadPhaseKind::GridSortAndSweep,
        BroadPhaseKind::Quadtree,
        BroadPhaseKind::DynamicAabbTree,
    ];

    /// The name used by the CLI, Python and the viewer (`"uniform-grid"`, …).
    pub fn name(self) -> &'static str {
        match self {
            BroadPhaseKind::BruteForce => "brute-force",
            BroadPhaseKind::SortAndSweep => "sort-and-sweep",
            BroadPhaseKind::UniformGrid => "uniform-grid",
            BroadPhaseKind::HierarchicalGrid => "hierarchical-grid",
            BroadPhaseKind::GridSortAndSweep => "grid-sort-and-sweep",
            BroadPhaseKind::Quadtree => "quadtree",
            BroadPhaseKind::DynamicAabbTree => "aabb-tree",
        }
    }

    /// A fresh, empty instance of the algorithm.
    pub fn create(self) -> Box<dyn BroadPhase> {
        match self {
            BroadPhaseKind::BruteForce => Box::new(BruteForce),
            BroadPhaseKind::SortAndSweep => Box::new(SortAndSweep::default()),
            BroadPhaseKind::UniformGrid => Box::new(UniformGrid::default()),
            BroadPhaseKind::HierarchicalGrid => Box::new(HierarchicalGrid::default()),
            BroadPhaseKind::GridSortAndSweep => Box::new(GridSortAndSweep::default()),
            BroadPhaseKind::Quadtree => Box::new(Quadtree::default()),
            BroadPhaseKind::DynamicAabbTree => Box::new(DynamicAabbTree::default()),
        }
    }
}

impl fmt::Display for BroadPhaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BroadPhaseKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BroadPhaseKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| Error::UnknownBroadPhase(s.to_string()))
    }
}

/// What a debug box stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DebugBoxKind {
    /// An occupied grid cell (uniform, hierarchical or grid + sort-and-sweep).
    GridCell,
    /// A quadtree node's loose bounds.
    QuadtreeNode,
    /// A ball's interval on the sweep axis, drawn across the scene's other extent.
    SweepInterval,
    /// An AABB-tree node's (fat) box; leaves and internal nodes alike.
    TreeNode,
}

/// One list of boxes of one kind (and level: hierarchical-grid level or tree depth).
#[derive(Clone, Debug, PartialEq)]
pub struct DebugLayer {
    /// What the boxes are.
    pub kind: DebugBoxKind,
    /// Grid level (0 = finest) or tree depth (0 = root); 0 when meaningless.
    pub level: u32,
    /// The boxes.
    pub boxes: Vec<Aabb>,
}

/// The boxes a broad phase uses, for a viewer to draw over the balls.
#[derive(Clone, Debug, PartialEq)]
pub struct BroadPhaseDebug {
    /// The algorithm that produced them.
    pub broad_phase: BroadPhaseKind,
    /// The boxes, grouped by kind and level.
    pub layers: Vec<DebugLayer>,
}

impl BroadPhaseDebug {
    /// The layer of `kind` and `level`, created on first use.
    pub fn layer(&mut self, kind: DebugBoxKind, level: u32) -> &mut Vec<Aabb> {
        let index = match self.layers.iter().position(|l| l.kind == kind && l.level == level) {
            Some(i) => i,
            None => {
                self.layers.push(DebugLayer { kind, level, boxes: Vec::new() });
                self.layers.len() - 1
            }
        };
        &mut self.layers[index].boxes
    }

    /// Number of boxes over all layers.
    pub fn box_count(&self) -> usize {
        self.layers.iter().map(|l| l.boxes.len()).sum()
    }
}

/// The union of `boxes`, or a unit box at the origin when there are none.
pub(crate) fn union_of(boxes: &[Aabb]) -> Aabb {
    let mut it = boxes.iter();
    let Some(first) = it.next() else {
        return Aabb { min: glam::Vec2::ZERO, max: glam::Vec2::ONE };
    };
    let mut u = *first;
    for b in it {
        u.min = u.min.min(b.min);
        u.max = u.max.max(b.max);
    }
    u
}

/// [`union_of`] and [`largest_extent`] in one pass.
pub(crate) fn union_and_largest_extent(boxes: &[Aabb]) -> (Aabb, f32) {
    let Some(first) = boxes.first() else {
        return (union_of(boxes), 0.0);
    };
    let (mut min, mut max, mut largest) = (first.min, first.max, glam::Vec2::ZERO);
    for b in boxes {
        min = min.min(b.min);
        max = max.max(b.max);
        largest = largest.max(b.max - b.min);
    }
    (Aabb { min, max }, largest.max_element())
}

/// Largest side of any box (0 for none).
pub(crate) fn largest_extent(boxes: &[Aabb]) -> f32 {
    boxes.iter().map(|b| (b.max - b.min).max_element()).fold(0.0, f32::max)
}

/// `a` and `b` overlap, touching counts (the inlined form of [`Aabb::overlaps`]).
///
/// Non-short-circuit `&`: the four comparisons become one predictable branch on the (rare)
/// overlap instead of up to four unpredictable ones; measured ~2× faster in the grid loops.
#[inline(always)]
pub(crate) fn overlap(a: &Aabb, b: &Aabb) -> bool {
    (a.min.x <= b.max.x) & (b.min.x <= a.max.x) & (a.min.y <= b.max.y) & (b.min.y <= a.max.y)
}

/// Each of `n` bodies' partners in `pairs`, as compressed rows: body `k`'s partners are
/// `rows[start[k]..start[k + 1]]`, in the order of `pairs` (a counting sort). Shared by the
/// planar and the 3-D worlds' impact and correction passes; reuses both buffers.
pub(crate) fn partner_rows(n: usize, pairs: &[Pair], start: &mut Vec<u32>, rows: &mut Vec<u32>) {
    start.clear();
    start.resize(n + 1, 0);
    for &(i, j) in pairs {
        start[i as usize + 1] += 1;
        start[j as usize + 1] += 1;
    }
    for k in 0..n {
        start[k + 1] += start[k];
    }
    rows.clear();
    rows.resize(2 * pairs.len(), 0);
    // Fill using the starts as cursors, then shift them back.
    for &(i, j) in pairs {
        let ci = &mut start[i as usize];
        rows[*ci as usize] = j;
        *ci += 1;
        let cj = &mut start[j as usize];
        rows[*cj as usize] = i;
        *cj += 1;
    }
    for k in (1..=n).rev() {
        start[k] = start[k - 1];
    }
    start[0] = 0;
}

/// The pair `(i, j)` ordered so that the first is smaller.
#[inline(always)]
pub(crate) fn ordered(i: u32, j: u32) -> Pair {
    if i < j {
        (i, j)
    } else {
        (j, i)
    }
}
