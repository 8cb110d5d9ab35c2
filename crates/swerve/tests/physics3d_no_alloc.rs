//! The 3-D world's `step` does not allocate once warmed up, for every broad phase, and with
//! gravity and friction (the resting-contact solver keeps its buffers), and with static triangles
//! and contacts recorded. A counting global allocator sees
//! every allocation of this test binary, so the binary holds this one test only.

use glam::Vec3;
use swerve::physics3d::scene::{mixed_pit, sphere_pit};
use swerve::physics3d::{BroadPhaseKind, StepStats, World};

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
use counting_allocator::{allocations, CountingAllocator};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const SCENE_SEED: u64 = 0xA110C3;

/// Steps `world` `warm` times (its buffers grow to the scene's high-water marks), then 100
/// more; returns the allocations of those 100 and the sum of `stat` over them.
fn warm_allocations(world: &mut World, dt: f32, warm: usize, stat: impl Fn(StepStats) -> usize) -> (usize, usize) {
    for _ in 0..warm {
        world.step(dt);
    }
    let (before, mut total) = (allocations(), 0);
    for _ in 0..100 {
        world.step(dt);
        total += stat(world.last_step_stats());
    }
    (allocations() - before, total)
}

#[test]
fn step_does_not_allocate_once_warm() {
    for scene in [sphere_pit(1_500, 0.2, SCENE_SEED), mixed_pit(1_500, 0.2, SCENE_SEED)] {
        for kind in BroadPhaseKind::ALL {
            let mut world = scene.world(kind).unwrap();
            let (allocations, contacts) = warm_allocations(&mut world, scene.dt, 300, |s| s.contacts);
            assert!(contacts > 0, "{kind}: nothing collided, the test would prove little");
            assert_eq!(allocations, 0, "{kind}: step allocated {allocations} times after warm-up");
        }
    }
    // With gravity: a pour settling (the warm-up covers the fall), half the spheres rough (the
    // solver's spins and tangent rows keep their buffers too).
    let mut scene = sphere_pit(1_500, 0.1, SCENE_SEED);
    for s in scene.spheres.iter_mut().step_by(2) {
        s.friction = 0.5;
    }
    let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    // 15 s: the pile's contact lists still grew (one allocation) between 10 and 12 s.
    let (allocations, resting) = warm_allocations(&mut world, scene.dt, 900, |s| s.resting_contacts);
    assert!(resting > 0, "no resting contacts: the solver was not exercised");
    assert_eq!(allocations, 0, "with gravity, step allocated {allocations} times after warm-up");
    // Static triangles: the pour lands on a slanted mesh floor (two triangles per cell of a
    // 4 × 4 grid, a slope along x), so the triangle pairs, impacts and rows are exercised too.
    let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let (min, max) = (scene.bounds.min, scene.bounds.max);
    let size = max - min;
    let vertex = |i: u32, j: u32| {
        let (u, v) = (i as f32 / 4.0, j as f32 / 4.0);
        Vec3::new(min.x + u * size.x, min.y + v * size.y, min.z + 0.05 * size.z + 0.1 * size.z * u)
    };
    let vertices: Vec<Vec3> = (0..5).flat_map(|j| (0..5).map(move |i| vertex(i, j))).collect();
    let triangles: Vec<[u32; 3]> = (0..4)
        .flat_map(|j| {
            (0..4).flat_map(move |i| {
                [[j * 5 + i, j * 5 + i + 1, j * 5 + i + 6], [j * 5 + i, j * 5 + i + 6, j * 5 + i + 5]]
            })
        })
        .collect();
    world.add_mesh(&vertices, &triangles).unwrap();
    // Recording contacts too: the log keeps its buffers.
    world.set_record_contacts(true);
    let (allocations, resting) = warm_allocations(&mut world, scene.dt, 900, |s| s.resting_contacts);
    assert!(resting > 0, "no resting contacts: the solver was not exercised");
    assert_eq!(allocations, 0, "with triangles, step allocated {allocations} times after warm-up");
    assert!(!world.contacts().is_empty(), "contacts were recorded");
}
