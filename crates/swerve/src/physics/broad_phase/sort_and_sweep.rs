//! Sort-and-sweep (seed 003 §3.2.1), kept sorted between steps by insertion sort.
//!
//! Boxes are projected on one axis and sorted by their minimum; sweeping the sorted list, each
//! box is tested only against the following boxes whose minimum lies before its maximum. The
//! seed sorts from scratch each frame (its order is also one frame stale: it sorts, then moves
//! the balls); here the order persists and is repaired by insertion sort, which is O(n + swaps)
//! on the nearly sorted lists that small per-step motion leaves (§3.2.1: "可以通过插入排序进行
//! 更新"). The axis is the one along which the box centres have the largest variance (the seed's
//! remark that an axis where balls cluster filters badly), with a 10% hysteresis so square
//! scenes do not flip; when it changes the list is fully re-sorted. One axis is swept; the other is a plain interval test on the candidates.

use super::{ordered, union_of, BroadPhase, BroadPhaseDebug, BroadPhaseKind, DebugBoxKind, Pair};
use crate::geom::Aabb;

/// One box in sweep order: its interval on the sweep axis, its interval on the other, its id.
#[derive(Clone, Copy, Debug)]
struct Swept {
    lo: f32,
    hi: f32,
    other_lo: f32,
    other_hi: f32,
    id: u32,
}

/// Persistent sort-and-sweep on the axis of largest variance.
#[derive(Debug, Default)]
pub struct SortAndSweep {
    axis: usize,
    list: Vec<Swept>,
    /// Element moves done by the last insertion sort (0 after a full sort).
    last_swaps: usize,
    /// Whether the last call sorted from scratch (first call, new balls, or a new axis).
    last_full_sort: bool,
}

impl SortAndSweep {
    /// How much larger the other axis' variance must be to switch the sweep axis.
    pub const AXIS_HYSTERESIS: f64 = 1.1;

    /// The sweep axis of the last call (0 = x, 1 = y).
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Element moves done by the last insertion sort: small when motion is coherent.
    pub fn last_insertion_moves(&self) -> usize {
        self.last_swaps
    }

    /// Whether the last call sorted from scratch instead of repairing the previous order.
    pub fn last_call_sorted_from_scratch(&self) -> bool {
        self.last_full_sort
    }
}

/// Variance of the box centres along x and y.
fn centre_variances(boxes: &[Aabb]) -> [f64; 2] {
    let n = boxes.len().max(1) as f64;
    let (mut s, mut s2) = ([0.0f64; 2], [0.0f64; 2]);
    for b in boxes {
        let c = (b.min + b.max) * 0.5;
        for a in 0..2 {
            let v = f64::from(c[a]);
            s[a] += v;
            s2[a] += v * v;
        }
    }
    [0, 1].map(|a| s2[a] / n - (s[a] / n) * (s[a] / n))
}

/// The sweep axis: keep `current` unless the other axis' variance is larger by more than
/// [`SortAndSweep::AXIS_HYSTERESIS`], so a square scene does not flip axes (and re-sort from
/// scratch) every few steps.
fn sweep_axis(boxes: &[Aabb], current: usize) -> usize {
    let var = centre_variances(boxes);
    if var[1 - current] > var[current] * SortAndSweep::AXIS_HYSTERESIS {
        1 - current
    } else {
        current
    }
}

impl BroadPhase for SortAndSweep {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::SortAndSweep
    }

    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>) {
        let axis = sweep_axis(boxes, self.axis);
        let other = 1 - axis;
        let axis_changed = axis != self.axis;
        self.axis = axis;
        // New balls are appended at the end; a full sort places them (rare: balls are added
        // between steps, not every step).
        let grew = self.list.len() != boxes.len();
        while self.list.len() < boxes.len() {
            let id = self.list.len() as u32;
            self.list.push(Swept { lo: 0.0, hi: 0.0, other_lo: 0.0, other_hi: 0.0, id });
        }
        for s in &mut self.list {
            let b = &boxes[s.id as usize];
            *s = Swept { lo: b.min[axis], hi: b.max[axis], other_lo: b.min[other], other_hi: b.max[other], id: s.id };
        }
        self.last_swaps = 0;
        self.last_full_sort = axis_changed || grew;
        if axis_changed || grew {
            self.list.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo));
        } else {
            for k in 1..self.list.len() {
                let item = self.list[k];
                let mut l = k;
                while l > 0 && self.list[l - 1].lo > item.lo {
                    self.list[l] = self.list[l - 1];
                    l -= 1;
                }
                self.last_swaps += k - l;
                self.list[l] = item;
            }
        }
        for (k, a) in self.list.iter().enumerate() {
            for b in &self.list[k + 1..] {
                if b.lo > a.hi {
                    break;
                }
                if a.other_lo <= b.other_hi && b.other_lo <= a.other_hi {
                    pairs.push(ordered(a.id, b.id));
                }
            }
        }
    }

    fn assert_well_formed(&self, boxes: &[Aabb]) {
        assert_eq!(self.list.len(), boxes.len(), "one entry per box");
        let mut seen = vec![false; boxes.len()];
        for s in &self.list {
            assert!(!std::mem::replace(&mut seen[s.id as usize], true), "box {} listed twice", s.id);
            assert_eq!(s.lo, boxes[s.id as usize].min[self.axis], "stale interval for box {}", s.id);
        }
        assert!(self.list.windows(2).all(|w| w[0].lo <= w[1].lo), "list not sorted on axis {}", self.axis);
        let var = centre_variances(boxes);
        assert!(
            var[1 - self.axis] <= var[self.axis] * Self::AXIS_HYSTERESIS,
            "sweeping axis {} although the other's variance is larger beyond the hysteresis",
            self.axis
        );
    }

    fn debug_boxes(&self, out: &mut BroadPhaseDebug) {
        let (axis, other) = (self.axis, 1 - self.axis);
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for s in &self.list {
            lo = lo.min(s.other_lo);
            hi = hi.max(s.other_hi);
        }
        let layer = out.layer(DebugBoxKind::SweepInterval, 0);
        for s in &self.list {
            let mut b = union_of(&[]);
            b.min[axis] = s.lo;
            b.max[axis] = s.hi;
            b.min[other] = lo;
            b.max[other] = hi;
            layer.push(b);
        }
    }
}
