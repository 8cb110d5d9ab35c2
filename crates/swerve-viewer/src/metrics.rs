//! The live metrics the page shows: overlapping pairs and agents at their goal.
//!
//! Overlaps are counted every published frame, so the count must stay cheap for 10,000
//! agents: discs are binned in a uniform grid whose cell is the largest diameter, so every
//! overlapping pair lies in the same or in adjacent cells (seed 003's uniform grid). Tests
//! compare it with the brute-force count.

use std::ops::Range;
use swerve::orca3d::Vec3;
use swerve::Vec2;

/// Counts overlapping pairs of discs, reusing its buffers between calls.
#[derive(Debug, Default)]
pub struct OverlapCounter {
    /// (cell key, disc index), sorted by key.
    cells: Vec<(u64, u32)>,
}

/// Packs a cell's integer coordinates into one sortable key.
fn cell_key(cx: i32, cy: i32) -> u64 {
    // Offsetting by 2^31 maps i32 to u32 in order; x in the high half keeps (x, y) order.
    (u64::from(cx.wrapping_sub(i32::MIN) as u32) << 32) | u64::from(cy.wrapping_sub(i32::MIN) as u32)
}

impl OverlapCounter {
    /// A counter with empty buffers.
    pub fn new() -> OverlapCounter {
        OverlapCounter::default()
    }

    /// The number of pairs `i < j` whose discs overlap: distance < `radii[i] + radii[j]`
    /// (touching is not overlapping). `positions` and `radii` have the same length;
    /// non-finite positions are skipped.
    pub fn count(&mut self, positions: &[Vec2], radii: &[f32]) -> usize {
        self.count_and_deepest(positions, radii).0
    }

    /// [`OverlapCounter::count`] and the deepest overlap (m): the largest
    /// `radii[i] + radii[j] - distance` over overlapping pairs, 0 when none overlap. ORCA
    /// keeps agents apart only up to rounding in dense crowds (RVO2 behaves the same), so
    /// the depth tells a real collision from a millimetre of float noise.
    pub fn count_and_deepest(&mut self, positions: &[Vec2], radii: &[f32]) -> (usize, f32) {
        let max_radius = radii.iter().copied().fold(0.0f32, f32::max);
        if positions.len() < 2 || max_radius <= 0.0 {
            return (0, 0.0);
        }
        let cell = 2.0 * max_radius;
        self.cells.clear();
        for (i, p) in positions.iter().enumerate() {
            if p.is_finite() {
                // Saturating float-to-int casts: far-away discs share the border cells,
                // which only costs time, never a missed pair.
                let (cx, cy) = ((p.x / cell).floor() as i32, (p.y / cell).floor() as i32);
                self.cells.push((cell_key(cx, cy), i as u32));
            }
        }
        self.cells.sort_unstable();
        let mut overlaps = Overlaps::default();
        let mut start = 0;
        while start < self.cells.len() {
            let key = self.cells[start].0;
            let end = start + self.cells[start..].partition_point(|c| c.0 == key);
            let (cx, cy) = (
                ((key >> 32) as u32).wrapping_add(i32::MIN as u32) as i32,
                (key as u32).wrapping_add(i32::MIN as u32) as i32,
            );
            // Pairs inside this cell, then with the four "forward" neighbours so every pair
            // of cells is visited once.
            self.check_within(start..end, positions, radii, &mut overlaps);
            for (dx, dy) in [(1, -1), (1, 0), (1, 1), (0, 1)] {
                let (nx, ny) = (cx.saturating_add(dx), cy.saturating_add(dy));
                if (nx, ny) == (cx, cy) {
                    continue; // saturated at the border: the same cell, already counted
                }
                self.check_against(start..end, cell_key(nx, ny), positions, radii, &mut overlaps);
            }
            start = end;
        }
        (overlaps.count, overlaps.deepest)
    }
}

impl OverlapCounter {
    /// Checks every pair of the binned discs or spheres `cell` (a run of `self.cells`).
    fn check_within<P: Centre>(&self, cell: Range<usize>, positions: &[P], radii: &[f32], overlaps: &mut Overlaps) {
        for a in cell.clone() {
            for b in a + 1..cell.end {
                overlaps.check(self.cells[a].1, self.cells[b].1, positions, radii);
            }
        }
    }

    /// Checks every disc or sphere of `cell` (a run of `self.cells`) against every one in the
    /// cell whose key is `other`.
    fn check_against<P: Centre>(
        &self,
        cell: Range<usize>,
        other: u64,
        positions: &[P],
        radii: &[f32],
        overlaps: &mut Overlaps,
    ) {
        let lo = self.cells.partition_point(|c| c.0 < other);
        let hi = lo + self.cells[lo..].partition_point(|c| c.0 == other);
        for a in cell {
            for b in lo..hi {
                overlaps.check(self.cells[a].1, self.cells[b].1, positions, radii);
            }
        }
    }
}

/// Cell coordinates in 3-D are kept to 21 bits each (±2^20) so that three pack into one key.
const CELL_LIMIT_3D: i64 = 1 << 20;

/// Packs a 3-D cell's coordinates (each in `-CELL_LIMIT_3D..CELL_LIMIT_3D`) into one sortable
/// key, x in the highest bits.
fn cell_key_3d(c: [i64; 3]) -> u64 {
    // Offsetting by the limit maps each coordinate to 0..2^21 in order.
    c.iter().fold(0u64, |key, &v| (key << 21) | (v + CELL_LIMIT_3D) as u64)
}

impl OverlapCounter {
    /// [`OverlapCounter::count_and_deepest`] for spheres: the overlapping pairs `i < j`
    /// (distance < `radii[i] + radii[j]`) and the deepest overlap (m). Spheres are binned in a
    /// 3-D grid whose cell is the largest diameter; each cell is checked against itself and
    /// its 13 "forward" neighbours, so every pair of adjacent cells is visited once.
    /// Non-finite positions are skipped.
    pub fn count_and_deepest_3d(&mut self, positions: &[Vec3], radii: &[f32]) -> (usize, f32) {
        let max_radius = radii.iter().copied().fold(0.0f32, f32::max);
        if positions.len() < 2 || max_radius <= 0.0 {
            return (0, 0.0);
        }
        let cell = 2.0 * max_radius;
        // Cells beyond the limit are clamped onto the border cells: far-away spheres then share
        // a cell, which costs time, never a missed pair.
        let cell_of = |v: f32| ((v / cell).floor() as i64).clamp(-CELL_LIMIT_3D, CELL_LIMIT_3D - 1);
        self.cells.clear();
        for (i, p) in positions.iter().enumerate() {
            if p.is_finite() {
                self.cells.push((cell_key_3d([cell_of(p.x), cell_of(p.y), cell_of(p.z)]), i as u32));
            }
        }
        self.cells.sort_unstable();
        let mask = (1u64 << 21) - 1;
        let mut overlaps = Overlaps::default();
        let mut start = 0;
        while start < self.cells.len() {
            let key = self.cells[start].0;
            let end = start + self.cells[start..].partition_point(|c| c.0 == key);
            let c = [(key >> 42) & mask, (key >> 21) & mask, key & mask].map(|v| v as i64 - CELL_LIMIT_3D);
            self.check_within(start..end, positions, radii, &mut overlaps);
            for dx in 0..=1i64 {
                for dy in -1..=1i64 {
                    for dz in -1..=1i64 {
                        // Forward: lexicographically after (0, 0, 0).
                        if (dx, dy, dz) <= (0, 0, 0) {
                            continue;
                        }
                        let n = [c[0] + dx, c[1] + dy, c[2] + dz];
                        // Past the border there is no cell (everything there was clamped in).
                        if n.iter().any(|v| !(-CELL_LIMIT_3D..CELL_LIMIT_3D).contains(v)) {
                            continue;
                        }
                        self.check_against(start..end, cell_key_3d(n), positions, radii, &mut overlaps);
                    }
                }
            }
            start = end;
        }
        (overlaps.count, overlaps.deepest)
    }
}

/// The brute-force overlap count and deepest overlap of spheres: the oracle of
/// [`OverlapCounter::count_and_deepest_3d`].
pub fn count_overlaps_brute_force_3d(positions: &[Vec3], radii: &[f32]) -> (usize, f32) {
    brute_force(positions, radii)
}

/// 3-D agents within their own radius of their goal ([`count_at_goal`] in space).
pub fn count_at_goal_3d(positions: &[Vec3], radii: &[f32], goals: &[Vec3]) -> usize {
    positions.iter().zip(radii).zip(goals).filter(|((p, r), g)| p.distance_squared(**g) < **r * **r).count()
}

/// A disc's or a sphere's centre, for the overlap counts.
trait Centre: Copy {
    fn distance_squared(self, other: Self) -> f32;
    fn is_finite(self) -> bool;
}

impl Centre for Vec2 {
    fn distance_squared(self, other: Vec2) -> f32 {
        Vec2::distance_squared(self, other)
    }
    fn is_finite(self) -> bool {
        Vec2::is_finite(self)
    }
}

impl Centre for Vec3 {
    fn distance_squared(self, other: Vec3) -> f32 {
        Vec3::distance_squared(self, other)
    }
    fn is_finite(self) -> bool {
        Vec3::is_finite(self)
    }
}

/// Running count and depth of overlaps.
#[derive(Default)]
struct Overlaps {
    count: usize,
    deepest: f32,
}

impl Overlaps {
    fn check<P: Centre>(&mut self, i: u32, j: u32, positions: &[P], radii: &[f32]) {
        let (i, j) = (i as usize, j as usize);
        let reach = radii[i] + radii[j];
        let d2 = positions[i].distance_squared(positions[j]);
        if d2 < reach * reach {
            self.count += 1;
            self.deepest = self.deepest.max(reach - d2.sqrt());
        }
    }
}

/// Every pair `i < j` of finite centres checked: the oracle of the grid counts.
fn brute_force<P: Centre>(positions: &[P], radii: &[f32]) -> (usize, f32) {
    let mut overlaps = Overlaps::default();
    for i in 0..positions.len() {
        for j in i + 1..positions.len() {
            if positions[i].is_finite() && positions[j].is_finite() {
                overlaps.check(i as u32, j as u32, positions, radii);
            }
        }
    }
    (overlaps.count, overlaps.deepest)
}

/// The brute-force overlap count and deepest overlap: the oracle of
/// [`OverlapCounter::count_and_deepest`].
pub fn count_overlaps_brute_force(positions: &[Vec2], radii: &[f32]) -> (usize, f32) {
    brute_force(positions, radii)
}

/// Agents within their own radius of their goal (RVO2 examples' `reachedGoal` test uses the
/// radius squared the same way). Agents without a goal (`goals` shorter) never count.
pub fn count_at_goal(positions: &[Vec2], radii: &[f32], goals: &[Vec2]) -> usize {
    positions.iter().zip(radii).zip(goals).filter(|((p, r), g)| p.distance_squared(**g) < **r * **r).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn discs() -> impl Strategy<Value = Vec<(f32, f32, f32)>> {
        proptest::collection::vec((-30.0f32..30.0, -30.0f32..30.0, 0.1f32..3.0), 0..120)
    }

    proptest! {
        #[test]
        fn grid_count_equals_brute_force(discs in discs()) {
            let positions: Vec<Vec2> = discs.iter().map(|d| Vec2::new(d.0, d.1)).collect();
            let radii: Vec<f32> = discs.iter().map(|d| d.2).collect();
            let mut counter = OverlapCounter::new();
            let (count, deepest) = counter.count_and_deepest(&positions, &radii);
            let (oracle_count, oracle_deepest) = count_overlaps_brute_force(&positions, &radii);
            prop_assert_eq!(count, oracle_count);
            prop_assert_eq!(deepest.to_bits(), oracle_deepest.to_bits());
        }
    }

    proptest! {
        #[test]
        fn grid_count_equals_brute_force_in_3d(
            spheres in proptest::collection::vec((-20.0f32..20.0, -20.0f32..20.0, -20.0f32..20.0, 0.1f32..3.0), 0..150)
        ) {
            let positions: Vec<Vec3> = spheres.iter().map(|s| Vec3::new(s.0, s.1, s.2)).collect();
            let radii: Vec<f32> = spheres.iter().map(|s| s.3).collect();
            let (count, deepest) = OverlapCounter::new().count_and_deepest_3d(&positions, &radii);
            let (oracle_count, oracle_deepest) = count_overlaps_brute_force_3d(&positions, &radii);
            prop_assert_eq!(count, oracle_count);
            prop_assert_eq!(deepest.to_bits(), oracle_deepest.to_bits());
        }
    }

    #[test]
    fn spheres_far_apart_at_the_border_cells_and_not_finite() {
        let positions = [
            Vec3::new(-1.0, -1.0, -1.0),
            Vec3::new(-1.0, -1.0, -2.5),
            Vec3::new(1e30, 1e30, -1e30),
            Vec3::new(1e30, 1e30, -1e30),
            Vec3::new(1e30, 1e29, -1e30),
            Vec3::new(f32::NAN, 0.0, 0.0),
        ];
        let radii = [1.0; 6];
        let (count, deepest) = OverlapCounter::new().count_and_deepest_3d(&positions, &radii);
        assert_eq!((count, deepest), count_overlaps_brute_force_3d(&positions, &radii));
        assert_eq!(count, 2);
    }

    #[test]
    fn far_apart_and_negative_coordinates_and_huge_values() {
        let positions = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(-1.5, -1.0),
            Vec2::new(1e30, 1e30),
            Vec2::new(1e30, 1e30),
            Vec2::new(f32::NAN, 0.0),
        ];
        let radii = [1.0; 5];
        assert_eq!(OverlapCounter::new().count(&positions, &radii), 2);
        assert_eq!(count_overlaps_brute_force(&positions[..4], &radii[..4]).0, 2);
        let (_, deepest) = OverlapCounter::new().count_and_deepest(&positions[..2], &radii[..2]);
        assert_eq!(deepest, 1.5);
    }

    #[test]
    fn touching_is_not_overlapping_and_goal_needs_radius() {
        let positions = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0)];
        assert_eq!(OverlapCounter::new().count(&positions, &[1.0, 1.0]), 0);
        let goals = [Vec2::new(0.5, 0.0), Vec2::new(4.0, 0.0)];
        assert_eq!(count_at_goal(&positions, &[1.0, 1.0], &goals), 1);
    }
}
