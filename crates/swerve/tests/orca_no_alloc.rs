//! `Simulator::step` must not allocate once warmed up (DESIGN rule 7). A counting global
//! allocator sees every allocation of the process; this file holds a single test so that no
//! other test allocates concurrently.

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

/// Builds a ring crowd around a block and runs it for 200 steps (the warm-up: every per-agent
/// buffer reaches the largest size this motion needs), then puts every agent back where it
/// started and counts the allocations of running the same 200 steps again. With `record`,
/// every agent keeps its neighbours and half-planes (and reports whether any met the block);
/// without, each thread's spare record takes them. `limited` adds acceleration limits and
/// avoidance layers.
fn allocations_in_warm_steps(n: usize, record: bool, limited: bool) -> (usize, bool) {
    // RVO2's Circle spacing.
    let ring = n as f32 * 1.5 * 4.0 / std::f32::consts::TAU;
    let (mut sim, goals) = crowd::ring(n, ring, AgentParams::default(), 0.25);
    sim.set_record_decisions(record);
    if limited {
        // Every third agent with an acceleration limit (eight more half-planes each).
        for id in sim.agent_ids().to_vec().into_iter().step_by(3) {
            sim.set_agent_max_acceleration(id, 2.0).unwrap();
        }
        // Every fourth agent on layer 2, avoiding both layers; the others ignore it.
        for id in sim.agent_ids().to_vec().into_iter().step_by(4) {
            sim.set_agent_avoidance_layers(id, 2).unwrap();
            sim.set_agent_avoidance_mask(id, 3).unwrap();
        }
    }
    sim.add_obstacle(&[Vec2::new(-5.0, -5.0), Vec2::new(5.0, -5.0), Vec2::new(5.0, 5.0), Vec2::new(-5.0, 5.0)])
        .unwrap();
    sim.process_obstacles();
    let start = sim.positions().to_vec();
    let ids = sim.agent_ids().to_vec();
    let mut prefs = vec![Vec2::ZERO; n];
    let mut met_obstacle = false;
    let mut run = |sim: &mut Simulator| {
        for (id, p) in ids.iter().zip(&start) {
            sim.set_agent_position(*id, *p).unwrap();
            sim.set_agent_velocity(*id, Vec2::ZERO).unwrap();
        }
        for _ in 0..200 {
            for ((pref, p), g) in prefs.iter_mut().zip(sim.positions()).zip(&goals) {
                *pref = preferred_velocity_toward(*g, *p);
            }
            sim.set_pref_velocities(&prefs).unwrap();
            sim.step();
            if record {
                met_obstacle |= sim.agent_ids().iter().any(|&id| sim.agent_obstacle_half_plane_count(id).unwrap() > 0);
            }
        }
    };
    // Two runs to warm up: the ring is full of exact distance ties, whose order comes from the
    // k-d tree's permutation, which carries over from run to run; so the second run can take
    // a slightly different path and grow a list the first did not (with acceleration limits
    // it does: 18 allocations in the second run, none in the third or fourth).
    run(&mut sim);
    run(&mut sim);
    let before = allocations();
    run(&mut sim);
    let allocated = allocations() - before;
    (allocated, met_obstacle)
}

/// A dense crowd of 140,000 added in random order, so that each step stages its slot layout
/// and its move (`NeighborGrid::was_staged`): allocations of 20 steps after 20 of warm-up.
fn allocations_in_warm_staged_steps() -> usize {
    use rand::{Rng, SeedableRng};
    const N: usize = 140_000;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let side = (N as f32 * 10.0).sqrt();
    let mut point = || Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
    let starts: Vec<Vec2> = (0..N).map(|_| point()).collect();
    let goals: Vec<Vec2> = (0..N).map(|_| point()).collect();
    let mut grid = swerve::spatial::NeighborGrid::new();
    grid.rebuild(&starts, 5.0);
    assert!(grid.was_staged(), "the crowd's order must be scattered for the staged path");
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    for &start in &starts {
        sim.add_agent(start).unwrap();
    }
    let mut prefs = vec![Vec2::ZERO; N];
    let mut run = |sim: &mut Simulator| {
        for _ in 0..20 {
            for ((pref, p), g) in prefs.iter_mut().zip(sim.positions()).zip(&goals) {
                *pref = preferred_velocity_toward(*g, *p);
            }
            sim.set_pref_velocities(&prefs).unwrap();
            sim.step();
        }
    };
    run(&mut sim);
    let before = allocations();
    run(&mut sim);
    allocations() - before
}

#[test]
fn step_does_not_allocate_once_warm() {
    // Below the parallel threshold: the calling thread does all the work.
    let (allocated, met_obstacle) = allocations_in_warm_steps(50, true, false);
    assert_eq!(allocated, 0, "sequential step allocated");
    // The crowd must reach the block, or the obstacle buffers were never exercised.
    assert!(met_obstacle);
    let (allocated, _) = allocations_in_warm_steps(50, false, false);
    assert_eq!(allocated, 0, "sequential step allocated without records");
    let (allocated, _) = allocations_in_warm_steps(50, true, true);
    assert_eq!(allocated, 0, "sequential step allocated with acceleration limits and avoidance layers");
    // Above it, driven from inside a rayon pool (as a game loop or `ThreadPool::install`
    // would): no allocation either. Driven from a thread outside any pool, rayon's global
    // injector (a crossbeam queue of 63-slot blocks) allocates one block per 63 steps; that
    // is rayon's, not the simulator's, and `Simulator::step` documents it.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for record in [true, false] {
        let (allocated, _) = pool.install(|| allocations_in_warm_steps(1200, record, !record));
        assert_eq!(allocated, 0, "parallel step (records: {record}) allocated {allocated} times in 200 warm steps");
    }
    let allocated = pool.install(allocations_in_warm_staged_steps);
    assert_eq!(allocated, 0, "staged steps allocated {allocated} times in 20 warm steps");
}
