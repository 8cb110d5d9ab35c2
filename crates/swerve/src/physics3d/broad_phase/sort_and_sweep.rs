//! Sort-and-sweep (seed 003 §3.2.1), kept sorted between calls by insertion sort.
//!
//! Boxes are projected on one axis and sorted by their minimum; sweeping the sorted list, each
//! box is tested only against the following boxes whose minimum lies before its maximum, and
//! those candidates are checked on the two other axes. The seed sorts from scratch every frame;
//! here the order persists and is repaired by insertion sort, O(n + moves) on the nearly sorted
//! list that small motion leaves (§3.2.1: "可以通过插入排序进行更新"). A full sort happens when
//! the box count or the sweep axis changed, or when the repair has moved more than
//! [`SortAndSweep::MOVES_PER_BOX`] entries per box (large motion: insertion sort is O(n²) at
//! worst, the full sort O(n log n)).
//!
//! The axis is the one along which the box centres have the largest variance (the seed's
//! remark that an axis where the balls cluster filters badly; in 3-D a floor of spheres has
//! almost no spread in height), switched only when another axis' variance is larger by
//! [`SortAndSweep::AXIS_HYSTERESIS`], so a cubic scene does not flip axes (and re-sort) every
//! few calls.

use glam::{Vec4, Vec4Swizzles};

use super::{ordered, BroadPhase, BroadPhaseKind, Pair};
use crate::physics3d::Aabb3;

/// One box in sweep order: its interval on the sweep axis, the two other axes in the form the
/// overlap test wants, its index. 32 bytes: two to a cache line.
#[derive(Clone, Copy, Debug)]
struct Swept {
    /// `[max₁, max₂, −min₁, −min₂]` on the other two axes (see [`other_axes_overlap`]).
    other: Vec4,
    /// The box's minimum on the sweep axis (the sort key; never NaN).
    lo: f32,
    /// The box's maximum on the sweep axis.
    hi: f32,
    id: u32,
}

impl Swept {
    /// The entry of box `id` for sweeping along `axis`. A box with a NaN coordinate overlaps
    /// nothing: it gets the interval `[+∞, −∞]`, which sorts last, ends every sweep it takes
    /// part in at once, and NaN on the other axes, which fails every overlap test. (A NaN sort
    /// key would break the insertion sort: NaN compares false with everything, so it would
    /// stop each insertion that meets it, leaving the list unsorted.)
    #[inline(always)]
    fn of(b: &Aabb3, axis: usize, id: u32) -> Swept {
        if b.min.is_nan() | b.max.is_nan() {
            return Swept { other: Vec4::NAN, lo: f32::INFINITY, hi: f32::NEG_INFINITY, id };
        }
        let (o1, o2) = ((axis + 1) % 3, (axis + 2) % 3);
        Swept { other: Vec4::new(b.max[o1], b.max[o2], -b.min[o1], -b.min[o2]), lo: b.min[axis], hi: b.max[axis], id }
    }

    /// Bitwise equality (NaN equals itself), for the well-formedness check.
    fn same_bits(&self, other: &Swept) -> bool {
        let bits = |s: &Swept| (s.other.to_array().map(f32::to_bits), s.lo.to_bits(), s.hi.to_bits(), s.id);
        bits(self) == bits(other)
    }
}

/// `[min₁, min₂, −max₁, −max₂]` of `a`, from its stored form: with it, [`other_axes_overlap`]
/// is one four-lane comparison.
#[inline(always)]
fn lower_and_negated_upper(a: &Swept) -> Vec4 {
    -a.other.zwxy()
}

/// Whether the boxes overlap on the two other axes: `a.min ≤ b.max` and `−a.max ≤ −b.min`
/// in one comparison (negation is exact, so this is the scalar test, touching included, NaN
/// never overlapping).
#[inline(always)]
fn other_axes_overlap(a_form: Vec4, b: &Swept) -> bool {
    a_form.cmple(b.other).all()
}

/// Persistent sort-and-sweep on the axis of largest variance.
#[derive(Debug, Default)]
pub struct SortAndSweep {
    axis: usize,
    list: Vec<Swept>,
    /// Element moves done by the last insertion sort (0 after a full sort).
    last_moves: usize,
    /// Whether the last call sorted from scratch.
    last_full_sort: bool,
}

impl SortAndSweep {
    /// How much larger another axis' variance must be to switch the sweep axis.
    pub const AXIS_HYSTERESIS: f64 = 1.1;

    /// Insertion-sort moves allowed per box before the repair gives up and sorts from
    /// scratch: a full sort costs about `log₂ n` comparisons a box, so a repair that has
    /// moved this much is no longer the cheap path.
    pub const MOVES_PER_BOX: usize = 8;

    /// The sweep axis of the last call (0 = x, 1 = y, 2 = z).
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Element moves done by the last insertion sort: small when motion is coherent.
    pub fn last_insertion_moves(&self) -> usize {
        self.last_moves
    }

    /// Whether the last call sorted from scratch instead of repairing the previous order.
    pub fn last_call_sorted_from_scratch(&self) -> bool {
        self.last_full_sort
    }

    /// Repairs the order by insertion sort; returns `false` (list partly sorted, still a
    /// permutation) once the moves exceed the budget.
    fn insertion_sort(&mut self) -> bool {
        let list = &mut self.list[..];
        let budget = Self::MOVES_PER_BOX * list.len() + 64;
        let mut moves = 0;
        for k in 1..list.len() {
            let item = list[k];
            // Fast path: most entries are already in place after small motion.
            if list[k - 1].lo <= item.lo {
                continue;
            }
            let mut l = k;
            while l > 0 && list[l - 1].lo > item.lo {
                list[l] = list[l - 1];
                l -= 1;
            }
            list[l] = item;
            moves += k - l;
            if moves > budget {
                self.last_moves = moves;
                return false;
            }
        }
        self.last_moves = moves;
        true
    }
}

/// Variance of the box centres along x, y and z, over the boxes with finite centres.
fn centre_variances(boxes: &[Aabb3]) -> [f64; 3] {
    let (mut count, mut s, mut s2) = (0usize, [0.0f64; 3], [0.0f64; 3]);
    for b in boxes {
        // Halves first: min + max may overflow where their mean does not.
        let c = b.min * 0.5 + b.max * 0.5;
        if !c.is_finite() {
            continue;
        }
        count += 1;
        for a in 0..3 {
            let v = f64::from(c[a]);
            s[a] += v;
            s2[a] += v * v;
        }
    }
    let n = count.max(1) as f64;
    [0, 1, 2].map(|a| s2[a] / n - (s[a] / n) * (s[a] / n))
}

/// The sweep axis: keep `current` unless another axis' variance is larger by more than
/// [`SortAndSweep::AXIS_HYSTERESIS`]; then the axis of largest variance.
fn sweep_axis(boxes: &[Aabb3], current: usize) -> usize {
    let var = centre_variances(boxes);
    let best = (0..3).fold(current, |best, a| if var[a] > var[best] { a } else { best });
    if var[best] > var[current] * SortAndSweep::AXIS_HYSTERESIS {
        best
    } else {
        current
    }
}

impl BroadPhase for SortAndSweep {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::SortAndSweep
    }

    fn find_pairs(&mut self, boxes: &[Aabb3], pairs: &mut Vec<Pair>) {
        let axis = sweep_axis(boxes, self.axis);
        let full_sort = axis != self.axis || self.list.len() != boxes.len();
        self.axis = axis;
        self.last_moves = 0;
        if full_sort {
            // Boxes may have been added or removed anywhere: start over from index order.
            self.list.clear();
            self.list.extend(boxes.iter().enumerate().map(|(i, b)| Swept::of(b, axis, i as u32)));
        } else {
            for s in &mut self.list {
                *s = Swept::of(&boxes[s.id as usize], axis, s.id);
            }
        }
        self.last_full_sort = full_sort || !self.insertion_sort();
        if self.last_full_sort {
            // No NaN keys (see `Swept::of`), so this is the order the insertion sort keeps.
            self.list.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo));
        }
        let list = &self.list[..];
        for (k, a) in list.iter().enumerate() {
            let a_form = lower_and_negated_upper(a);
            for b in &list[k + 1..] {
                // Every later box starts at or after `b`: none can reach back to `a`.
                if b.lo > a.hi {
                    break;
                }
                if other_axes_overlap(a_form, b) {
                    pairs.push(ordered(a.id, b.id));
                }
            }
        }
    }

    fn assert_well_formed(&self, boxes: &[Aabb3]) {
        assert_eq!(self.list.len(), boxes.len(), "one entry per box");
        let mut seen = vec![false; boxes.len()];
        for s in &self.list {
            assert!(!std::mem::replace(&mut seen[s.id as usize], true), "box {} listed twice", s.id);
            let fresh = Swept::of(&boxes[s.id as usize], self.axis, s.id);
            assert!(s.same_bits(&fresh), "stale entry for box {}: {s:?}, expected {fresh:?}", s.id);
        }
        assert!(self.list.windows(2).all(|w| w[0].lo <= w[1].lo), "list not sorted on axis {}", self.axis);
        let var = centre_variances(boxes);
        let allowed = var[self.axis] * Self::AXIS_HYSTERESIS;
        for (a, v) in var.iter().enumerate() {
            assert!(
                v.partial_cmp(&allowed) != Some(std::cmp::Ordering::Greater),
                "sweeping axis {} although axis {a}'s variance is larger beyond the hysteresis",
                self.axis
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    /// The four-lane test is the scalar one on every edge case of one of the other axes
    /// (touching, signed zeros, infinities, NaN), the remaining axes overlapping.
    #[test]
    fn four_lane_overlap_is_the_scalar_overlap() {
        let values = [-1.0, -0.0, 0.0, 1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        let mut checked = 0;
        for axis in 0..3 {
            for other in [(axis + 1) % 3, (axis + 2) % 3] {
                for &a0 in &values {
                    for &a1 in &values {
                        for &b0 in &values {
                            for &b1 in &values {
                                let unit = Aabb3 { min: Vec3::ZERO, max: Vec3::ONE };
                                let (mut a, mut b) = (unit, unit);
                                a.min[other] = a0;
                                a.max[other] = a1;
                                b.min[other] = b0;
                                b.max[other] = b1;
                                let (sa, sb) = (Swept::of(&a, axis, 0), Swept::of(&b, axis, 1));
                                // The sweep axis overlaps (both [0, 1]), so the pair overlaps
                                // exactly when the other axes do.
                                let found = other_axes_overlap(lower_and_negated_upper(&sa), &sb);
                                assert_eq!(found, a.overlaps(&b), "{a:?} {b:?} on axis {axis}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 7usize.pow(4));
    }
}
