//! Reproducible 3-D scenes: the sphere pit (the planar ball pit with a third axis), a
//! mixed-size variant and an hourglass of static triangles, shared by the tests, the benchmark crate, the CLI and the bindings so
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

/// A static triangle mesh (see [`World::add_mesh`]).
#[derive(Clone, Debug)]
pub struct Mesh {
    /// Corner positions (m).
    pub vertices: Vec<Vec3>,
    /// Each triangle's three indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
}

/// The hourglass: [`sphere_pit`]'s spheres (`n`, `fraction`, `seed`) over a square funnel of
/// eight triangles, in a box deepened below the pit to 2.5 times its side. The funnel's rim is
/// the box's walls at the pit's floor (z = 0); it narrows over half a side to a centred square
/// opening 12 m (six sphere diameters) or a quarter of the side across, whichever is wider,
/// wide enough that the spheres flow rather than arch over it. Under gravity the spheres pour
/// through into the lower chamber. [`Scene::world`] leaves the mesh out: add it with
/// [`World::add_mesh`].
pub fn hourglass(n: usize, fraction: f32, seed: u64) -> (Scene, Mesh) {
    let mut scene = sphere_pit(n, fraction, seed);
    let side = scene.bounds.max.x;
    scene.bounds.min.z = -1.5 * side;
    let (centre, half) = (0.5 * side, (0.125 * side).max(6.0).min(0.45 * side));
    let ring = |lo: f32, hi: f32, z: f32| {
        [Vec3::new(lo, lo, z), Vec3::new(hi, lo, z), Vec3::new(hi, hi, z), Vec3::new(lo, hi, z)]
    };
    let mut vertices = ring(0.0, side, 0.0).to_vec();
    vertices.extend(ring(centre - half, centre + half, -0.5 * side));
    let triangles = (0..4u32).flat_map(|k| [[k, (k + 1) % 4, (k + 1) % 4 + 4], [k, (k + 1) % 4 + 4, k + 4]]).collect();
    (scene, Mesh { vertices, triangles })
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
