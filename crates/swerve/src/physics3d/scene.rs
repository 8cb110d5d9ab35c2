//! Reproducible 3-D scenes: the sphere pit (the planar ball pit with a third axis) and a
//! mixed-size variant, shared by the tests, the benchmark crate, the CLI and the bindings so
//! that every figure is measured on the same spheres.

use glam::Vec3;

use super::{Aabb3, BroadPhaseKind, Sphere, World};
use crate::error::Error;
use crate::physics::scene::SplitMix64;

/// A set of spheres in a box, and the time step to run them with.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The box.
    pub bounds: Aabb3,
    /// The spheres, in the order of their starting cells (x fastest, then y, then z), so that
    /// neighbours are near in memory.
    pub spheres: Vec<Sphere>,
    /// Time step (seconds).
    pub dt: f32,
}

impl Scene {
    /// A world holding this scene.
    pub fn world(&self, broad_phase: BroadPhaseKind) -> Result<World, Error> {
        let mut world = World::new(Some(self.bounds), broad_phase)?;
        for s in &self.spheres {
            world.add_sphere(*s)?;
        }
        Ok(world)
    }
}

/// The sphere pit: `n` elastic spheres of radius 1 filling `fraction` of a cubic box's volume
/// (0.1 is the planar pit's density; at most 0.5), speeds uniform in `[0, 10]` m/s in
/// uniformly random directions, `dt = 1/60`. Spheres start on a jittered cubic lattice (one per
/// cell, no overlap).
pub fn sphere_pit(n: usize, fraction: f32, seed: u64) -> Scene {
    scene(n, fraction, seed, |_| 1.0)
}

/// The pit with mixed sizes: radii uniform in `[0.25, 1]` (masses by volume, so from 1 to 64
/// in ratio), the same box as [`sphere_pit`]'s for `n` and `fraction` (so the spheres fill less
/// of it). The size spread is what hierarchical grids are for.
pub fn mixed_pit(n: usize, fraction: f32, seed: u64) -> Scene {
    scene(n, fraction, seed, |rng| rng.range(0.25, 1.0))
}

fn scene(n: usize, fraction: f32, seed: u64, mut radius: impl FnMut(&mut SplitMix64) -> f32) -> Scene {
    let fraction = fraction.clamp(1e-3, 0.5);
    let volume = n.max(1) as f32 * 4.0 / 3.0 * std::f32::consts::PI / fraction;
    let side = volume.cbrt();
    let per_row = (n.max(1) as f32).cbrt().ceil() as usize;
    let cell = side / per_row as f32;
    let mut rng = SplitMix64(seed);
    let spheres = (0..n)
        .map(|i| {
            let r = radius(&mut rng);
            let slack = (cell * 0.5 - r).max(0.0);
            let index =
                Vec3::new((i % per_row) as f32, ((i / per_row) % per_row) as f32, (i / per_row / per_row) as f32);
            let jitter = Vec3::new(rng.range(-slack, slack), rng.range(-slack, slack), rng.range(-slack, slack));
            let p = (index + Vec3::splat(0.5)) * cell + jitter;
            // A uniformly random direction: z uniform in [−1, 1], angle uniform (Archimedes).
            let z = rng.range(-1.0, 1.0);
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let across = (1.0 - z * z).max(0.0).sqrt();
            let direction = Vec3::new(across * angle.cos(), across * angle.sin(), z);
            Sphere::new(p, direction * rng.range(0.0, 10.0), r)
        })
        .collect();
    Scene { bounds: Aabb3 { min: Vec3::ZERO, max: Vec3::splat(side) }, spheres, dt: 1.0 / 60.0 }
}
