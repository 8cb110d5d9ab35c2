//! `World::step` does not allocate once warmed up (the world owns its scratch buffers), for
//! every broad phase, and with gravity. A counting global allocator sees every allocation of
//! this test binary, so the binary holds this one test only.

use glam::Vec2;
use swerve::physics::scene::ball_pit;
use swerve::physics::BroadPhaseKind;

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
use counting_allocator::{allocations, CountingAllocator};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const SCENE_SEED: u64 = 0xA110C;

#[test]
fn step_does_not_allocate_once_warm() {
    let scene = ball_pit(2_000, SCENE_SEED);
    for kind in BroadPhaseKind::ALL {
        let mut world = scene.world(kind).unwrap();
        world.add_segment(Vec2::new(10.0, 10.0), Vec2::new(60.0, 30.0)).unwrap();
        // Warm-up: buffers grow to the scene's high-water marks (pairs, events, tree nodes).
        for _ in 0..300 {
            world.step(scene.dt);
        }
        let before = allocations();
        let mut contacts = 0;
        for _ in 0..100 {
            world.step(scene.dt);
            contacts += world.last_step_stats().contacts;
        }
        let allocations = allocations() - before;
        assert!(contacts > 0, "{kind}: nothing collided, the test would prove little");
        assert_eq!(allocations, 0, "{kind}: step allocated {allocations} times after warm-up");
    }
    with_gravity();
}

/// The same with gravity: the resting-contact solver and the segment grid keep their buffers.
fn with_gravity() {
    let scene = ball_pit(2_000, SCENE_SEED);
    let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    for k in 0..20 {
        let x = 5.0 + 4.0 * k as f32;
        world.add_segment(Vec2::new(x, 20.0), Vec2::new(x + 3.0, 18.0)).unwrap();
    }
    world.set_gravity(Vec2::new(0.0, -9.81)).unwrap();
    for _ in 0..600 {
        world.step(scene.dt);
    }
    let before = allocations();
    let mut resting = 0;
    for _ in 0..100 {
        world.step(scene.dt);
        resting += world.last_step_stats().resting_contacts;
    }
    let allocations = allocations() - before;
    assert!(resting > 0, "nothing rested, the test would prove little");
    assert_eq!(allocations, 0, "the step with gravity allocated {allocations} times after warm-up");
}
