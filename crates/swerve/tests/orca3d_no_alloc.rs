//! The 3-D `Simulator::step` must not allocate once warm (DESIGN rule 7). A counting global
//! allocator sees every allocation of the process; this file holds a single test so that no
//! other test allocates concurrently.

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
#[path = "support/sphere3d.rs"]
mod sphere3d;

use counting_allocator::{allocations, CountingAllocator};
use sphere3d::{preferred, shuffled_sphere_crowd, sphere_crowd};
use swerve::orca3d::{Extensions, Mover, OverlapResolution, Vec3};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn a_warm_3d_step_does_not_allocate_with_or_without_records_or_safe_mode_or_obstacles() {
    // Driven from inside a rayon pool, as the planar test is: from a thread outside any pool,
    // rayon's global injector allocates one 63-slot block per 63 steps, which is rayon's and
    // not the step's.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    pool.install(warm_steps);
}

fn warm_steps() {
    // Plain, with every decision recorded, in safe mode (records kept for the overlap
    // projection, plus its pushes) with avoidance layers, and plain with the agents added in
    // a scattered order (decided in the grid's cell order).
    for (record, safe, scattered) in
        [(false, false, false), (true, false, false), (false, true, false), (false, false, true)]
    {
        let (mut sim, goals) = if scattered { shuffled_sphere_crowd(2_000) } else { sphere_crowd(2_000) };
        sim.set_record_decisions(record);
        let resolution = safe.then(OverlapResolution::default);
        sim.set_extensions(Extensions { overlap_resolution: resolution, ..Extensions::default() }).unwrap();
        if record {
            // With responsibility weights and two movers in the crowd's way too (their planes
            // come on top of the neighbours').
            for id in sim.agent_ids().iter().step_by(3).copied().collect::<Vec<_>>() {
                sim.set_agent_responsibility(id, 0.2).unwrap();
            }
            for x in [-3.0, 3.0] {
                sim.add_mover(Mover { position: Vec3::new(x, 0.0, 0.0), velocity: Vec3::ZERO, radius: 4.0 }).unwrap();
            }
        }
        if record || safe {
            // Static obstacles in the crowd's way: a box at the centre, where everyone crosses,
            // and a slanted wall (their planes come first in every program near them).
            sim.add_box_obstacle(Vec3::new(-4.0, -4.0, 6.0), Vec3::new(4.0, 4.0, 14.0)).unwrap();
            let wall = [Vec3::new(-30.0, -30.0, -20.0), Vec3::new(30.0, -30.0, -10.0), Vec3::new(0.0, 30.0, -15.0)];
            sim.add_obstacle(&wall, &[[0, 1, 2]]).unwrap();
        }
        if safe {
            // Avoidance layers: every fourth agent on layer 2, avoiding both; the others ignore it.
            for id in sim.agent_ids().iter().step_by(4).copied().collect::<Vec<_>>() {
                sim.set_agent_avoidance_layers(id, 2).unwrap();
                sim.set_agent_avoidance_mask(id, 3).unwrap();
            }
        }
        let mut prefs: Vec<Vec3> = Vec::with_capacity(goals.len());
        // Steps 0–59 warm up (every thread's scratch and every record reaches its size); the
        // crowd is then in the thick of its crossing, where fallbacks happen.
        for round in 0..200 {
            prefs.clear();
            prefs.extend(goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred(g, p)));
            sim.set_pref_velocities(&prefs).unwrap();
            let before = allocations();
            sim.step();
            let during = allocations() - before;
            if round >= 60 {
                assert_eq!(
                    during, 0,
                    "record {record}, safe {safe}, scattered {scattered}: step {round} allocated {during} times"
                );
            }
        }
    }
}
