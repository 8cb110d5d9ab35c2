//! Candidate keys for the grids' nearest-neighbour queries (planar and 3-D): one integer per
//! candidate, ranked into RVO2's answer without a branch on each distance.
//!
//! A key is the candidate's squared distance (non-negative, so its bits order as its value
//! does) above a 32-bit slot. A grid's scan writes every candidate's key and counts only
//! those inside, so the unpredictable inside/outside test costs no misprediction; the kept
//! keys are ordered once, at the end ([`nearest_first`]). Without ties that order is the only
//! one RVO2's k-d trees can produce — the nearest `k`, nearest first — whatever order the
//! candidates were met in; with ties the caller asks its tree.

use wide::{f32x4, i32x4, CmpLt};

/// The squared distance's bits in a key.
#[inline(always)]
pub(crate) fn key_distance_bits(key: u64) -> u32 {
    (key >> 32) as u32
}

/// The key of a candidate at squared distance `distance_squared` (not negative) in `slot`.
#[inline(always)]
pub(crate) fn key(distance_squared: f32, slot: u32) -> u64 {
    u64::from(distance_squared.to_bits()) << 32 | u64::from(slot)
}

/// The largest `f32` below the positive `x`, so that `d < x` is `d <= below(x)`.
pub(crate) fn below(x: f32) -> f32 {
    if x == f32::INFINITY {
        f32::MAX
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

/// How many candidate keys a query holds before it cuts the list to the nearest `max_count`
/// (see [`compact`]): room for a few rows at once. No query finds more agents than there are,
/// so a huge `max_count` (RVO2 takes any `size_t`) asks for no more room than the crowd.
pub(crate) fn key_room(max_count: usize, agents: usize) -> usize {
    4 * max_count.min(agents) + 256
}

/// The outcome of cutting a long candidate list short.
pub(crate) enum Compacted {
    /// Two candidates tie for the last place: only the tree knows which one RVO2 keeps.
    Tied,
    /// The list now holds the `max_count` nearest (sorted); later candidates matter only
    /// when at most `limit` away.
    Kept { count: usize, limit: f32 },
}

/// Sorts the candidate `keys` and keeps the `max_count` nearest (`keys.len() > max_count`).
/// Anything farther than the new farthest can no longer be kept; anything at exactly its
/// distance would tie with it.
pub(crate) fn compact(keys: &mut [u64], max_count: usize) -> Compacted {
    keys.sort_unstable();
    if key_distance_bits(keys[max_count - 1]) == key_distance_bits(keys[max_count]) {
        return Compacted::Tied;
    }
    Compacted::Kept { count: max_count, limit: f32::from_bits(key_distance_bits(keys[max_count - 1])) }
}

/// Up to this many candidates are ordered by counting ranks rather than by sorting.
pub(crate) const RANKED: usize = 16;

/// The place of each of the first `4 * VECTORS` candidates (the rest of `distances` is
/// infinite padding): how many of all the candidates are strictly nearer. Candidate `c`'s
/// count is lane `c % 4` of vector `c / 4`.
#[inline(always)]
fn places<const VECTORS: usize>(distances: &[f32; RANKED]) -> [i32; RANKED] {
    let lanes: [f32x4; VECTORS] = std::array::from_fn(|v| f32x4::from(&distances[4 * v..4 * v + 4]));
    let mut nearer = [i32x4::ZERO; 4];
    // Padding is never nearer than a candidate: only the first `4 * VECTORS` can count.
    for &other in &distances[..4 * VECTORS] {
        let other = f32x4::splat(other);
        for (count, lane) in nearer.iter_mut().zip(lanes) {
            // Comparison masks are all ones (-1 as an integer): subtracting them counts.
            *count -= bytemuck::cast::<f32x4, i32x4>(other.cmp_lt(lane));
        }
    }
    bytemuck::cast(nearer)
}

/// Whether [`nearest_first`] could write the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ranked {
    /// `out` holds the nearest `max_count`, nearest first.
    Exact,
    /// Two equal distances compete for a place among the first `max_count` or for the last
    /// one (the farthest kept and the nearest left out): their order is the tree's. `out` is
    /// then left with unspecified contents; `keys` may have been sorted.
    Tied,
}

/// Writes the nearest `max_count` of the candidate `keys` into `out`, nearest first, each as
/// `make(squared distance, slot)`. `out` keeps its capacity from query to query; it needs
/// room for [`RANKED`] entries not to grow.
#[inline(always)]
pub(crate) fn nearest_first<T: Copy>(
    keys: &mut [u64],
    max_count: usize,
    out: &mut Vec<T>,
    blank: T,
    make: impl Fn(f32, u32) -> T,
) -> Ranked {
    out.clear();
    if keys.len() <= RANKED {
        // Each candidate's place is the number of nearer ones, counted four candidates at a
        // time (one per SIMD lane) against every candidate in turn, without data-dependent
        // branches: cheaper than sorting a dozen values.
        let len = keys.len();
        let mut distances = [f32::INFINITY; RANKED];
        for (slot, &key) in distances.iter_mut().zip(keys.iter()) {
            *slot = f32::from_bits(key_distance_bits(key));
        }
        let ranks: [i32; RANKED] = match len.div_ceil(4) {
            0 | 1 => places::<1>(&distances),
            2 => places::<2>(&distances),
            3 => places::<3>(&distances),
            _ => places::<4>(&distances),
        };
        // Each candidate is written at its place in `out` itself, grown to RANKED entries
        // and then cut to the answer's length: copying the answer from a buffer took a
        // `memmove` call of a length known only at run time (tenth round: 1.4–1.7 % of a
        // jgrid step). Every place the answer reads is written: the test on `taken` below
        // makes sure (and reports a tie if, impossibly, `out` were short).
        out.resize(RANKED, blank);
        let mut taken = 0u32;
        if let Some(ordered) = out.first_chunk_mut::<RANKED>() {
            for ((&key, &distance_squared), &rank) in keys.iter().zip(&distances).zip(&ranks) {
                // (A rank is below `len <= RANKED`; the mask only spares a bounds check.)
                let place = rank as usize & (RANKED - 1);
                ordered[place] = make(distance_squared, key as u32);
                taken |= 1 << place;
            }
        }
        // Two candidates at one distance take the same place and leave the next one empty:
        // a tie that matters if that place is among the first `max_count + 1`.
        let decisive = (1u32 << len.min(max_count.saturating_add(1))) - 1;
        if taken & decisive != decisive {
            return Ranked::Tied;
        }
        out.truncate(len.min(max_count));
        return Ranked::Exact;
    }
    keys.sort_unstable();
    let decisive = &keys[..keys.len().min(max_count.saturating_add(1))];
    if decisive.windows(2).any(|w| key_distance_bits(w[0]) == key_distance_bits(w[1])) {
        return Ranked::Tied;
    }
    out.extend(keys.iter().take(max_count).map(|&k| make(f32::from_bits(key_distance_bits(k)), k as u32)));
    Ranked::Exact
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The answer is the sorted list's first `max_count`, and a tie is reported exactly
        /// when two of the first `max_count + 1` distances are equal (brute force: a sort).
        #[test]
        fn nearest_first_is_the_sorted_prefix(
            distances in prop::collection::vec(0u32..40, 0..40),
            max_count in 0usize..20,
        ) {
            // Small integers as distances, so that ties are common.
            let mut keys: Vec<u64> = distances.iter().enumerate().map(|(slot, &d)| key(d as f32, slot as u32)).collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            let decisive = &sorted[..sorted.len().min(max_count + 1)];
            let tied = decisive.windows(2).any(|w| key_distance_bits(w[0]) == key_distance_bits(w[1]));
            let mut out = Vec::new();
            let ranked = nearest_first(&mut keys, max_count, &mut out, (0.0, 0), |d, slot| (d, slot));
            prop_assert_eq!(ranked == Ranked::Tied, tied);
            if !tied {
                let expected: Vec<(f32, u32)> = sorted.iter().take(max_count)
                    .map(|&k| (f32::from_bits(key_distance_bits(k)), k as u32)).collect();
                prop_assert_eq!(out, expected);
            }
        }
    }
}
