//! Broad phases in space: cheap filters that find the pairs of spheres that *might* touch.
//!
//! Seed 003 §6.1 extends its planar family to 3-D: every per-axis step gains a z, grids gain a
//! third index, and the quadtree becomes an octree. Every structure implements
//! [`BroadPhase`], whose whole contract is the planar one:
//!
//! > Given one box per sphere, report every pair `(i, j)`, `i < j`, whose boxes overlap
//! > (touching counts), each pair at most once. Extra pairs are allowed (false positives);
//! > missing pairs are not (no false negatives).
//!
//! Property tests check each structure against [`BruteForce`] and call its
//! `assert_well_formed`.
//!
//! Shared conventions (all structures):
//!
//! * Indices are `u32` (the world refuses more than `u32::MAX / 2` spheres), and every buffer
//!   lives in the structure and is cleared, not freed, between calls: once the buffers have
//!   grown to the scene, `find_pairs` does not allocate.
//! * Input the world would reject must still never panic, loop forever or allocate without
//!   bound. A box with a NaN coordinate overlaps nothing (every comparison with NaN is false,
//!   so [`BruteForce`] reports no pair with it) and is skipped; a box with an infinite
//!   coordinate or an overflowing side cannot be binned, so the grids and the octree test it
//!   against every box instead (`Misfits`); extents too large for `f32` cell arithmetic
//!   collapse a grid to one cell (slow, still correct).
//! * Boxes are tested with `Bounds::overlaps`: two four-lane comparisons, the same test as
//!   [`Aabb3::overlaps`] (touching counts, NaN never overlaps).

mod brute_force;
mod cell_grid;
mod hierarchical_grid;
mod octree;
mod sort_and_sweep;
mod uniform_grid;

use std::fmt;
use std::str::FromStr;

use glam::Vec3A;

use super::Aabb3;
use crate::error::Error;

pub use brute_force::BruteForce;
pub use hierarchical_grid::HierarchicalGrid;
pub use octree::Octree;
pub use sort_and_sweep::SortAndSweep;
pub use uniform_grid::UniformGrid;

/// A pair of sphere indices `(i, j)` with `i < j`.
pub type Pair = (u32, u32);

/// One broad-phase algorithm in space. See the [module docs](self) for the contract.
pub trait BroadPhase: Send + Sync {
    /// Which algorithm this is.
    fn kind(&self) -> BroadPhaseKind;

    /// Appends to `pairs` every pair `(i, j)`, `i < j`, of indices into `boxes` whose boxes
    /// overlap (a superset is allowed, each pair at most once). Incremental structures keep
    /// state between calls; `boxes` may change length between calls. Must not allocate once
    /// its buffers have grown to the scene.
    fn find_pairs(&mut self, boxes: &[Aabb3], pairs: &mut Vec<Pair>);

    /// Panics with a description if the structure built by the last [`find_pairs`] call
    /// (with these `boxes`) breaks one of its invariants. For tests; slow.
    ///
    /// [`find_pairs`]: BroadPhase::find_pairs
    fn assert_well_formed(&self, boxes: &[Aabb3]);
}

/// The broad-phase algorithms in space, selectable at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BroadPhaseKind {
    /// Every pair (seed 003 §3.1): O(n²), the oracle.
    BruteForce,
    /// Sort-and-sweep on the axis of largest variance, kept sorted by insertion sort (§3.2.1).
    SortAndSweep,
    /// Uniform grid with a cell size chosen from the boxes (§3.2.2).
    UniformGrid,
    /// One grid per power-of-two size class, for radii that differ a lot (§3.2.2, 分层网格).
    HierarchicalGrid,
    /// Loose octree, rebuilt every call (§3.2.3 and §6.1: "四叉树则需要改为八叉树").
    Octree,
}

impl BroadPhaseKind {
    /// Every algorithm, brute force first.
    pub const ALL: [BroadPhaseKind; 5] = [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::SortAndSweep,
        BroadPhaseKind::UniformGrid,
        BroadPhaseKind::HierarchicalGrid,
        BroadPhaseKind::Octree,
    ];

    /// The name used in scenario files and on the command line (`"uniform-grid"`, …).
    pub fn name(self) -> &'static str {
        match self {
            BroadPhaseKind::BruteForce => "brute-force",
            BroadPhaseKind::SortAndSweep => "sort-and-sweep",
            BroadPhaseKind::UniformGrid => "uniform-grid",
            BroadPhaseKind::HierarchicalGrid => "hierarchical-grid",
            BroadPhaseKind::Octree => "octree",
        }
    }

    /// A fresh, empty instance of the algorithm.
    pub fn create(self) -> Box<dyn BroadPhase> {
        match self {
            BroadPhaseKind::BruteForce => Box::new(BruteForce),
            BroadPhaseKind::SortAndSweep => Box::new(SortAndSweep::default()),
            BroadPhaseKind::UniformGrid => Box::new(UniformGrid::default()),
            BroadPhaseKind::HierarchicalGrid => Box::new(HierarchicalGrid::default()),
            BroadPhaseKind::Octree => Box::new(Octree::default()),
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
        BroadPhaseKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| Error::UnknownBroadPhase3d(s.to_string()))
    }
}

/// A box in the form the hot loops test: each corner in a 16-byte SIMD vector, so an overlap
/// test is two four-lane comparisons and one mask (the fourth lane is ignored).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    pub min: Vec3A,
    pub max: Vec3A,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds::EMPTY
    }
}

impl Bounds {
    /// The box that overlaps nothing and is the identity of [`Bounds::union`].
    pub const EMPTY: Bounds = Bounds { min: Vec3A::INFINITY, max: Vec3A::NEG_INFINITY };

    /// The SIMD form of `b`.
    #[inline(always)]
    pub fn of(b: &Aabb3) -> Bounds {
        Bounds { min: b.min.into(), max: b.max.into() }
    }

    /// [`Aabb3::overlaps`] on the SIMD form: touching counts, a NaN coordinate never overlaps.
    /// Non-short-circuit: one predictable branch on the (rare) overlap.
    #[inline(always)]
    pub fn overlaps(&self, other: &Bounds) -> bool {
        (self.min.cmple(other.max) & other.min.cmple(self.max)).all()
    }

    /// The smallest box holding both. (For any box `x`, if either overlaps `x` the union
    /// does — inverted boxes included — which is all the octree's pruning relies on.)
    #[inline(always)]
    pub fn union(&self, other: &Bounds) -> Bounds {
        Bounds { min: self.min.min(other.min), max: self.max.max(other.max) }
    }
}

/// The pair `(i, j)` ordered so that the first is smaller (branch-free).
#[inline(always)]
pub(crate) fn ordered(i: u32, j: u32) -> Pair {
    (i.min(j), i.max(j))
}

/// Whether the grids and the octree can place `b`: every coordinate finite and every side
/// representable (a side that overflows to infinity could not be compared with a cell).
#[inline(always)]
pub(crate) fn is_placeable(b: &Aabb3) -> bool {
    b.min.is_finite() & b.max.is_finite() & (b.max - b.min).is_finite()
}

/// What one pass over the boxes tells a spatial structure, over its placeable boxes only
/// (see [`is_placeable`]); the others are listed in a [`Misfits`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Survey {
    /// The union of the placeable boxes (`Bounds::EMPTY` when there are none).
    pub region: Bounds,
    /// The largest side of any placeable box (0 when there are none).
    pub largest: f32,
    /// The smallest positive "largest side" of any placeable box (`+∞` when there are none).
    pub smallest: f32,
    /// Number of placeable boxes.
    pub placeable: usize,
}

impl Survey {
    /// Surveys `boxes` and lists the unplaceable ones in `misfits` (cleared first).
    pub fn of(boxes: &[Aabb3], misfits: &mut Misfits) -> Survey {
        misfits.ids.clear();
        let (mut region, mut largest, mut smallest) = (Bounds::EMPTY, 0.0f32, f32::INFINITY);
        for (i, b) in boxes.iter().enumerate() {
            if !is_placeable(b) {
                misfits.ids.push(i as u32);
                continue;
            }
            region = region.union(&Bounds::of(b));
            let side = (b.max - b.min).max_element();
            largest = largest.max(side);
            if side > 0.0 {
                smallest = smallest.min(side);
            }
        }
        Survey { region, largest, smallest, placeable: boxes.len() - misfits.ids.len() }
    }
}

/// The boxes a spatial structure cannot place (infinite coordinates or sides, NaN), tested
/// against every box instead: one bad sphere costs O(n), not a collapsed grid.
#[derive(Debug, Default)]
pub(crate) struct Misfits {
    /// Indices of the unplaceable boxes, ascending.
    pub ids: Vec<u32>,
}

impl Misfits {
    /// Appends every overlapping pair with at least one misfit, once each: a misfit against
    /// every placeable box, and against the misfits after it. A box with a NaN coordinate
    /// overlaps nothing and is skipped.
    pub fn pairs(&self, boxes: &[Aabb3], pairs: &mut Vec<Pair>) {
        for &i in &self.ids {
            let a = &boxes[i as usize];
            if a.min.is_nan() | a.max.is_nan() {
                continue;
            }
            let a_bounds = Bounds::of(a);
            for (j, b) in boxes.iter().enumerate() {
                // A misfit before `i` already tested this pair (or is `i` itself).
                let skip = (j as u32 <= i) & !is_placeable(b);
                if !skip & a_bounds.overlaps(&Bounds::of(b)) {
                    pairs.push(ordered(i, j as u32));
                }
            }
        }
    }

    /// Checks that exactly the unplaceable boxes are listed, ascending.
    pub fn assert_well_formed(&self, boxes: &[Aabb3]) {
        let expected: Vec<u32> = (0..boxes.len() as u32).filter(|&i| !is_placeable(&boxes[i as usize])).collect();
        assert_eq!(self.ids, expected, "the misfit list is not the unplaceable boxes");
    }

    /// Number of misfits.
    pub fn len(&self) -> usize {
        self.ids.len()
    }
}

/// Makes `order` — last call's placing order, a permutation of `0..order.len()` — a
/// permutation of `0..n`: indices past `n` are dropped (boxes removed) and new ones appended,
/// the rest keeping their places.
pub(crate) fn refresh_order(order: &mut Vec<u32>, n: usize) {
    if order.len() > n {
        order.retain(|&id| (id as usize) < n);
    }
    let known = order.len() as u32;
    order.extend(known..n as u32);
}
