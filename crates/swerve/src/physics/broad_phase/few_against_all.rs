//! The pairs that a few changed boxes make with all the others, without a whole broad phase.
//!
//! A position correction can push a ball beyond its swept box, into a ball whose box its own
//! did not meet: a pair no broad phase reported. Running the broad phase again finds it, but
//! costs as much as the step's first run (at 100,000 balls most of the step), and corrections
//! push a few balls out in nearly every step of a dense scene. Only pairs with a grown box can
//! be new, so this sorts the few grown boxes by their lower `x` and sweeps every box once
//! against them: O(n log g) for `g` grown boxes, the same code for every broad phase.

use glam::Vec2;

use super::{overlap, Pair};
use crate::geom::Aabb;

/// Scratch of [`pairs_with_grown`], kept between calls so that it does not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct GrownScratch {
    /// The grown boxes' lower `x` and index, sorted.
    by_x: Vec<(f32, u32)>,
}

/// Cells per axis, at most, of the occupancy bitmap (one `u64` a row).
const BITMAP_CELLS: usize = 64;

/// Appends to `pairs` every pair `(i, j)`, `i < j`, whose boxes overlap and of which at least
/// one is in `grown` (each such pair once; it may also be in `pairs` already). `is_grown[i]`
/// must be `true` exactly for the indices in `grown`.
///
/// Most boxes are far from every grown one: a bitmap of up to 64 × 64 cells over the grown
/// boxes' bounds, each cell about a grown box wide, rejects them with a few comparisons; the
/// rest are swept against the grown boxes sorted by lower `x`.
pub(crate) fn pairs_with_grown(
    boxes: &[Aabb],
    grown: &[u32],
    is_grown: &[bool],
    scratch: &mut GrownScratch,
    pairs: &mut Vec<Pair>,
) {
    if grown.is_empty() {
        return;
    }
    let by_x = &mut scratch.by_x;
    by_x.clear();
    by_x.extend(grown.iter().map(|&g| (boxes[g as usize].min.x, g)));
    by_x.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut bounds = Aabb { min: Vec2::INFINITY, max: Vec2::NEG_INFINITY };
    let mut largest = Vec2::ZERO;
    for &g in grown {
        let b = boxes[g as usize];
        bounds = Aabb { min: bounds.min.min(b.min), max: bounds.max.max(b.max) };
        largest = largest.max(b.max - b.min);
    }
    let extent = bounds.max - bounds.min;
    // Cells about as large as the largest grown box, at most 64 a side. Any monotone map of
    // coordinates to cells is exact here: overlapping boxes share a cell.
    let cells = (extent / largest.max(Vec2::splat(f32::MIN_POSITIVE)))
        .floor()
        .clamp(Vec2::ONE, Vec2::splat(BITMAP_CELLS as f32));
    let scale = Vec2::select(extent.cmpgt(Vec2::ZERO), cells / extent, Vec2::ZERO);
    let last = cells - Vec2::ONE;
    // Clamped first, then truncated: the floor of a non-negative value, without a call to
    // `floorf` on targets without SSE4.1.
    let cell_of = |p: Vec2| ((p - bounds.min) * scale).clamp(Vec2::ZERO, last).as_uvec2();
    let mut occupied = [0u64; BITMAP_CELLS];
    let columns = |lo: u32, hi: u32| (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
    for &g in grown {
        let b = boxes[g as usize];
        let (lo, hi) = (cell_of(b.min), cell_of(b.max));
        for row in &mut occupied[rows(lo.y, hi.y)] {
            *row |= columns(lo.x, hi.x);
        }
    }
    // A grown box overlapping box `b` on x starts at or after `b.min.x − largest.x`.
    for (j, b) in boxes.iter().enumerate() {
        if !overlap(&bounds, b) {
            continue;
        }
        let (lo, hi) = (cell_of(b.min), cell_of(b.max));
        let mask = columns(lo.x, hi.x);
        if occupied[rows(lo.y, hi.y)].iter().all(|row| row & mask == 0) {
            continue;
        }
        let first = by_x.partition_point(|&(min_x, _)| min_x < b.min.x - largest.x);
        for &(min_x, g) in &by_x[first..] {
            if min_x > b.max.x {
                break;
            }
            let g = g as usize;
            // A pair of two grown boxes is met from both sides: keep it from the larger index.
            if g == j || (is_grown[j] && j < g) || !overlap(&boxes[g], b) {
                continue;
            }
            // Indices fit in u32: the world refuses more than u32::MAX / 2 balls.
            pairs.push((g.min(j) as u32, g.max(j) as u32));
        }
    }
}

/// The bitmap rows `lo..=hi`; none when a box is inverted (a NaN corner), rather than a panic.
#[inline]
fn rows(lo: u32, hi: u32) -> std::ops::Range<usize> {
    lo as usize..(hi as usize + 1).max(lo as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn boxes_strategy() -> impl Strategy<Value = Vec<Aabb>> {
        // Coordinates on a coarse lattice so that touching and shared edges are common.
        prop::collection::vec((0i32..40, 0i32..40, 0i32..8, 0i32..8), 1..60).prop_map(|v| {
            v.into_iter()
                .map(|(x, y, w, h)| {
                    let min = Vec2::new(x as f32, y as f32) * 0.5;
                    Aabb { min, max: min + Vec2::new(w as f32, h as f32) * 0.5 }
                })
                .collect()
        })
    }

    /// Boxes with NaN or infinite corners (the world steps such balls without panicking) give
    /// no panic and no pair with a NaN box.
    #[test]
    fn non_finite_boxes_do_not_panic() {
        let nan = Vec2::splat(f32::NAN);
        let boxes = [
            Aabb { min: Vec2::ZERO, max: Vec2::ONE },
            Aabb { min: Vec2::new(0.5, 50.0), max: nan },
            Aabb { min: nan, max: Vec2::new(0.5, 50.0) },
            Aabb { min: Vec2::NEG_INFINITY, max: Vec2::INFINITY },
            Aabb { min: Vec2::splat(30.0), max: Vec2::splat(31.0) },
        ];
        let mut found = Vec::new();
        pairs_with_grown(
            &boxes,
            &[1, 2, 4],
            &[false, true, true, false, true],
            &mut GrownScratch::default(),
            &mut found,
        );
        found.sort_unstable();
        assert_eq!(found, vec![(3, 4)]);
    }

    proptest! {
        /// Against every pair by brute force: exactly the overlapping pairs with a grown box,
        /// each once, in `(low, high)` order.
        #[test]
        fn finds_exactly_the_pairs_with_a_grown_box(boxes in boxes_strategy(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..10)) {
            let mut is_grown = vec![false; boxes.len()];
            let mut grown = Vec::new();
            for p in picks {
                let g = p.index(boxes.len());
                if !is_grown[g] {
                    is_grown[g] = true;
                    grown.push(g as u32);
                }
            }
            let mut found = Vec::new();
            pairs_with_grown(&boxes, &grown, &is_grown, &mut GrownScratch::default(), &mut found);
            let mut expected = Vec::new();
            for i in 0..boxes.len() {
                for j in i + 1..boxes.len() {
                    if (is_grown[i] || is_grown[j]) && overlap(&boxes[i], &boxes[j]) {
                        expected.push((i as u32, j as u32));
                    }
                }
            }
            let count = found.len();
            found.sort_unstable();
            found.dedup();
            prop_assert_eq!(found.len(), count, "a pair reported twice");
            prop_assert_eq!(found, expected);
        }
    }
}
