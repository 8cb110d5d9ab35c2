//! Brute force: every pair (seed 003 §3.1, O(n²)). The oracle the others are tested against.

use super::{BroadPhase, BroadPhaseKind, Pair};
use crate::physics3d::Aabb3;

/// Tests all `n(n−1)/2` pairs of boxes with [`Aabb3::overlaps`].
#[derive(Clone, Copy, Debug, Default)]
pub struct BruteForce;

impl BroadPhase for BruteForce {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::BruteForce
    }

    fn find_pairs(&mut self, boxes: &[Aabb3], pairs: &mut Vec<Pair>) {
        for (i, a) in boxes.iter().enumerate() {
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                if a.overlaps(b) {
                    // Indices fit in u32: the world refuses more than u32::MAX / 2 spheres.
                    pairs.push((i as u32, j as u32));
                }
            }
        }
    }

    fn assert_well_formed(&self, _boxes: &[Aabb3]) {
        // No state: nothing can be malformed.
    }
}
