//! `World::step` does not allocate once warmed up (the world owns its scratch buffers), for
//! every broad phase, and with gravity and friction. A counting global allocator sees every
//! allocation of this test binary, so the binary holds this one test only.

use glam::Vec2;
use swerve::physics::scene::ball_pit;
use swerve::physics::{BroadPhaseKind, StepStats, World};

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
use counting_allocator::{allocations, CountingAllocator};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const SCENE_SEED: u64 = 0xA110C;

/// Steps `world` `warm` times (its buffers grow to the scene's high-water marks: pairs,
/// events, tree nodes, contacts), then 100 more; returns the allocations of those 100 and the
/// sum of `stat` over them.
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
    let scene = ball_pit(2_000, SCENE_SEED);
    for kind in BroadPhaseKind::ALL {
        let mut world = scene.world(kind).unwrap();
        world.add_segment(Vec2::new(10.0, 10.0), Vec2::new(60.0, 30.0)).unwrap();
        let (allocations, contacts) = warm_allocations(&mut world, scene.dt, 300, |s| s.contacts);
        assert!(contacts > 0, "{kind}: nothing collided, the test would prove little");
        assert_eq!(allocations, 0, "{kind}: step allocated {allocations} times after warm-up");
    }
    with_gravity();
}

/// The same with gravity, half the balls rough (friction and spin in every phase): the
/// resting-contact solver and the segment grid keep their buffers.
fn with_gravity() {
    let scene = ball_pit(2_000, SCENE_SEED);
    let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    for id in world.ball_ids().to_vec().into_iter().step_by(2) {
        let ball = world.ball(id).unwrap();
        world.set_ball(id, ball.with_friction(0.5)).unwrap();
    }
    for k in 0..20 {
        let x = 5.0 + 4.0 * k as f32;
        world.add_segment(Vec2::new(x, 20.0), Vec2::new(x + 3.0, 18.0)).unwrap();
    }
    world.set_gravity(Vec2::new(0.0, -9.81)).unwrap();
    let (allocations, resting) = warm_allocations(&mut world, scene.dt, 1500, |s| s.resting_contacts);
    assert!(resting > 0, "nothing rested, the test would prove little");
    assert!(world.balls().iter().any(|b| b.angular_velocity != 0.0), "nothing spins, the test would prove little");
    assert_eq!(allocations, 0, "the step with gravity allocated {allocations} times after warm-up");
}
