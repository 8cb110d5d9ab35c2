//! The agents a random generator has placed so far, hashed by cell, so that a new spot is
//! tested against the few agents near it rather than every one (placing 100,000 agents one
//! by one against all before them took 20 s; BENCHMARKS.md, "Scenario runners").

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
