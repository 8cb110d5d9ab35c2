//! `Simulator::step` must not allocate once warmed up (DESIGN rule 7) after an obstacle was
//! removed either: the removal rebuilds the obstacle tree and drops the obstacle grid, the
//! first step after it builds the grid again, and from then on steps reuse every buffer. A
//! counting global allocator sees every allocation of the process; this file holds a single
//! test so that no other test allocates concurrently.

use swerve::reference::preferred_velocity_toward;
use swerve::{AgentParams, Simulator, Vec2};

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
use counting_allocator::{allocations, CountingAllocator};
#[path = "support/crowd.rs"]
#[allow(dead_code)] // only its ring is used here
mod crowd;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// A ring crowd of `n` around two blocks, one of which is removed after 100 steps, the next
/// 200 steps being the warm-up; then every agent is put back where it stood after the removal
/// and the allocations of running the same 200 steps again are counted. With `record`, every
/// agent keeps its neighbours and half-planes. Returns the count, and whether any agent met
/// the remaining block after the removal (so that the obstacle buffers were exercised).
fn allocations_in_warm_steps_after_a_removal(n: usize, record: bool) -> (usize, bool) {
    // RVO2's Circle spacing.
    let ring = n as f32 * 1.5 * 4.0 / std::f32::consts::TAU;
    let (mut sim, goals) = crowd::ring(n, ring, AgentParams::default(), 0.25);
    sim.set_record_decisions(record);
    let square = |cx: f32, cy: f32, h: f32| {
        [Vec2::new(cx - h, cy - h), Vec2::new(cx + h, cy - h), Vec2::new(cx + h, cy + h), Vec2::new(cx - h, cy + h)]
    };
    sim.add_obstacle(&square(0.0, 0.0, 5.0)).unwrap();
    let removed = sim.add_obstacle(&square(ring * 0.5, 0.0, 3.0)).unwrap();
    sim.process_obstacles();
    let ids = sim.agent_ids().to_vec();
    let mut prefs = vec![Vec2::ZERO; n];
    let mut met_obstacle = false;
    let mut walk = |sim: &mut Simulator, steps: usize, met_obstacle: &mut bool| {
        for _ in 0..steps {
            for ((pref, p), g) in prefs.iter_mut().zip(sim.positions()).zip(&goals) {
                *pref = preferred_velocity_toward(*g, *p);
            }
            sim.set_pref_velocities(&prefs).unwrap();
            sim.step();
            if record {
                *met_obstacle |= sim.agent_ids().iter().any(|&id| sim.agent_obstacle_half_plane_count(id).unwrap() > 0);
            }
        }
    };
    walk(&mut sim, 100, &mut false);
    sim.remove_obstacle(removed).unwrap();
    let start = sim.positions().to_vec();
    let velocities = sim.velocities().to_vec();
    let mut run = |sim: &mut Simulator, met_obstacle: &mut bool| {
        for ((id, p), v) in ids.iter().zip(&start).zip(&velocities) {
            sim.set_agent_position(*id, *p).unwrap();
            sim.set_agent_velocity(*id, *v).unwrap();
        }
        walk(sim, 200, met_obstacle);
    };
    run(&mut sim, &mut met_obstacle);
    let before = allocations();
    run(&mut sim, &mut false);
    (allocations() - before, met_obstacle)
}

#[test]
fn step_does_not_allocate_once_warm_after_an_obstacle_removal() {
    for record in [true, false] {
        // Below the parallel threshold: the calling thread does all the work.
        let (allocated, met_obstacle) = allocations_in_warm_steps_after_a_removal(50, record);
        assert_eq!(allocated, 0, "sequential step (records: {record}) allocated after a removal");
        assert!(met_obstacle || !record, "no agent met the remaining block");
        // Above it, inside a rayon pool (see orca_no_alloc.rs for why inside one).
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let (allocated, _) = pool.install(|| allocations_in_warm_steps_after_a_removal(1200, record));
        assert_eq!(allocated, 0, "parallel step (records: {record}) allocated {allocated} times after a removal");
    }
}
