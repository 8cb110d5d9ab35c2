//! Placeholder: delegates to brute force until implemented.

use super::{BroadPhase, BroadPhaseDebug, BroadPhaseKind, BruteForce, Pair};
use crate::geom::Aabb;

/// Placeholder.
#[derive(Debug, Default)]
pub struct SortAndSweep;

impl BroadPhase for SortAndSweep {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::SortAndSweep
    }
    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>) {
        BruteForce.find_pairs(boxes, pairs)
    }
    fn assert_well_formed(&self, _boxes: &[Aabb]) {}
    fn debug_boxes(&self, _out: &mut BroadPhaseDebug) {}
}
