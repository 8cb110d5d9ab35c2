//! What a new agent must keep clear of: the agents a random generator has placed so far,
//! hashed by cell, so that a new spot is tested against the few agents near it rather than
//! every one (placing 100,000 agents one by one against all before them took 20 s;
//! BENCHMARKS.md, "Big scenes with obstacles"); and the agents near a spawner's region.

use crate::metrics::Centre;
use std::collections::HashMap;

/// Placed discs (or spheres) by cells a little over twice the largest radius wide: two that
/// overlap are in the same or neighbouring cells, whatever the rounding.
pub(super) struct Placed<P> {
    cell: f32,
    cells: HashMap<[i32; 3], Vec<(P, f32)>>,
}

impl<P: Centre> Placed<P> {
    /// Holds `placed` (centres and radii), for new ones of `radius`.
    pub(super) fn new(placed: impl Iterator<Item = (P, f32)> + Clone, radius: f32) -> Placed<P> {
        let largest = placed.clone().map(|(_, r)| r).fold(radius, f32::max);
        let mut this = Placed { cell: 2.001 * largest, cells: HashMap::new() };
        for (p, r) in placed {
            this.add(p, r);
        }
        this
    }

    fn key(&self, p: P) -> [i32; 3] {
        // Casts: cell indices of finite coordinates, saturating far out.
        p.coords().map(|c| (c / self.cell).floor() as i32)
    }

    /// Adds one of at most the radius given to `new`.
    pub(super) fn add(&mut self, p: P, radius: f32) {
        self.cells.entry(self.key(p)).or_default().push((p, radius));
    }

    /// Whether one at `p` of `radius` (at most the radius given to `new`) overlaps none placed.
    pub(super) fn clear(&self, p: P, radius: f32) -> bool {
        let [x, y, z] = self.key(p);
        let depth = if P::DIMENSIONS == 3 { -1..=1 } else { 0..=0 };
        depth.into_iter().all(|k| {
            (-1..=1).all(|j| {
                (-1..=1).all(|i| {
                    let key = [x.saturating_add(i), y.saturating_add(j), z.saturating_add(k)];
                    self.cells.get(&key).map_or(true, |list| list.iter().all(|&(q, r)| q.distance(p) >= r + radius))
                })
            })
        })
    }
}

/// The agents (centres and radii) that a new one of `radius` placed anywhere in the box
/// `min`–`max` could overlap: the others are farther from the box than their radius and
/// `radius` together (with a margin far above rounding), so a spawner tries its spots against
/// these few rather than the whole crowd.
pub(super) fn near_box<P: Centre>(
    agents: impl Iterator<Item = (P, f32)>,
    min: P,
    max: P,
    radius: f32,
) -> Vec<(P, f32)> {
    let (lo, hi) = (min.coords(), max.coords());
    agents
        .filter(|&(q, r)| {
            let c = q.coords();
            let distance_squared: f64 = (0..3)
                .map(|axis| {
                    let outside = (f64::from(lo[axis]) - f64::from(c[axis]))
                        .max(f64::from(c[axis]) - f64::from(hi[axis]))
                        .max(0.0);
                    outside * outside
                })
                .sum();
            let reach = f64::from(r + radius) * (1.0 + 1e-5) + 1e-5;
            // (A NaN centre stays, to be tested as before.)
            distance_squared <= reach * reach || distance_squared.is_nan()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};
    use proptest::prelude::*;

    proptest! {
        /// Whatever a spot of the box overlaps is near it; the placed hash finds the same
        /// overlaps as a pass over every one placed.
        #[test]
        fn near_box_keeps_every_agent_a_spot_could_overlap(
            agents in prop::collection::vec(((-20.0f32..20.0, -20.0f32..20.0, -20.0f32..20.0), 0.1f32..3.0), 0..80),
            corner in (-15.0f32..15.0, -15.0f32..15.0, -15.0f32..15.0),
            size in (0.0f32..8.0, 0.0f32..8.0, 0.0f32..8.0),
            radius in 0.1f32..3.0,
            spots in prop::collection::vec((0.0f32..=1.0, 0.0f32..=1.0, 0.0f32..=1.0), 1..40),
        ) {
            let agents: Vec<(Vec3, f32)> = agents.into_iter().map(|((x, y, z), r)| (Vec3::new(x, y, z), r)).collect();
            let min = Vec3::new(corner.0, corner.1, corner.2);
            let max = min + Vec3::new(size.0, size.1, size.2);
            let near = near_box(agents.iter().copied(), min, max, radius);
            let flat: Vec<(Vec2, f32)> = agents.iter().map(|&(q, r)| (q.truncate(), r)).collect();
            let near_flat = near_box(flat.iter().copied(), min.truncate(), max.truncate(), radius);
            let largest = agents.iter().map(|a| a.1).fold(radius, f32::max);
            let placed = Placed::new(agents.iter().copied(), largest);
            for (u, v, w) in spots {
                let p = min + (max - min) * Vec3::new(u, v, w);
                let overlapping: Vec<(Vec3, f32)> =
                    agents.iter().copied().filter(|&(q, r)| q.distance(p) < r + radius).collect();
                for a in &overlapping {
                    prop_assert!(near.contains(a), "{:?} overlaps {:?} but is not near", a, p);
                }
                prop_assert_eq!(placed.clear(p, radius), overlapping.is_empty());
                let p2 = p.truncate();
                for a in flat.iter().filter(|&&(q, r)| q.distance(p2) < r + radius) {
                    prop_assert!(near_flat.contains(a), "{:?} overlaps {:?} but is not near", a, p2);
                }
            }
            // And it is a filter: far agents are left out.
            prop_assert!(near.iter().all(|a| agents.contains(a)));
        }
    }

    #[test]
    fn far_agents_are_left_out() {
        let agents = [(Vec2::new(0.0, 0.0), 1.0), (Vec2::new(5.0, 0.0), 1.0), (Vec2::new(2.9, 0.5), 0.5)];
        // The box [2, 3] × [0, 1] with spots of radius 1: the agent at x = 0 is 2 away (just
        // reachable), the one at x = 5 is 2 away too, the inner one inside.
        let near = near_box(agents.iter().copied(), Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0), 1.0);
        assert_eq!(near.len(), 3);
        let near = near_box(agents.iter().copied(), Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0), 0.5);
        assert_eq!(near, vec![agents[2]]);
    }
}
