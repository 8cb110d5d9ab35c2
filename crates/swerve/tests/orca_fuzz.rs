//! Hardening (issue 8): whole simulator steps on random, often degenerate scenes — agents
//! on top of each other, on obstacle corners, zero speeds, tiny and huge parameters — must
//! never panic, never turn finite input into NaN, and with the strict speed limit never
//! exceed an agent's max speed. Obstacle processing is fuzzed with random polygons, valid or
//! not: invalid ones must be rejected with an error, valid ones processed without panic.

use proptest::prelude::*;
use swerve::orca::{Extensions, OverlapResolution, SymmetryBreaking};
use swerve::{AgentParams, Simulator, Vec2};

/// Coordinates on a coarse lattice (so that coincidences and collinear edges are common) or
/// anywhere in a box.
fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![(-8i32..8).prop_map(|v| v as f32 * 0.5), -20.0f32..20.0]
}

fn point() -> impl Strategy<Value = Vec2> {
    (coordinate(), coordinate()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn params() -> impl Strategy<Value = AgentParams> {
    (0.0f32..30.0, 0usize..15, 0.01f32..20.0, 0.01f32..20.0, 0.05f32..3.0, 0.0f32..5.0).prop_map(
        |(neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed)| AgentParams {
            neighbor_dist,
            max_neighbors,
            time_horizon,
            time_horizon_obst,
            radius,
            max_speed,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn random_scenes_step_without_panic_or_nan(
        agents in prop::collection::vec((point(), point(), point(), params()), 1..30),
        polygons in prop::collection::vec(prop::collection::vec(point(), 0..7), 0..5),
        time_step in 0.01f32..1.0,
        strict in any::<bool>(),
        extras in any::<bool>(),
    ) {
        let mut sim = Simulator::new(time_step, AgentParams::default()).unwrap();
        sim.set_extensions(Extensions {
            strict_speed_limit: strict,
            symmetry_breaking: extras.then(SymmetryBreaking::default),
            overlap_resolution: extras.then(OverlapResolution::default),
        })
        .unwrap();
        for (position, velocity, pref, p) in &agents {
            let id = sim.add_agent_with(*position, *p).unwrap();
            sim.set_agent_velocity(id, *velocity).unwrap();
            sim.set_agent_pref_velocity(id, *pref).unwrap();
        }
        let mut accepted = 0;
        for polygon in &polygons {
            let before = sim.obstacle_polygons().len();
            match sim.add_obstacle(polygon) {
                Ok(_) => accepted += 1,
                Err(_) => prop_assert_eq!(sim.obstacle_polygons().len(), before, "a rejected obstacle was kept"),
            }
        }
        sim.process_obstacles();
        prop_assert_eq!(sim.obstacle_polygons().len(), accepted);
        for _ in 0..5 {
            sim.step();
            for (&id, (p, v)) in sim.agent_ids().iter().zip(sim.positions().iter().zip(sim.velocities())) {
                prop_assert!(p.is_finite() && v.is_finite(), "agent {:?}: position {} velocity {}", id, p, v);
                if strict {
                    let max = sim.agent_params(id).unwrap().max_speed;
                    prop_assert!(v.length() <= max * (1.0 + 1e-6), "speed {} above max {}", v.length(), max);
                }
            }
        }
    }
}

/// Two agents at one point with one velocity: RVO2 normalises a zero vector there; the NaN
/// half-plane must not leak into velocities or into the inspection data.
#[test]
fn coincident_agents_with_equal_velocities_stay_finite() {
    let mut sim = Simulator::new(0.1, AgentParams::default()).unwrap();
    sim.set_record_decisions(true);
    let a = sim.add_agent(Vec2::new(1.0, 1.0)).unwrap();
    let b = sim.add_agent(Vec2::new(1.0, 1.0)).unwrap();
    for id in [a, b] {
        sim.set_agent_velocity(id, Vec2::new(0.5, 0.0)).unwrap();
        sim.set_agent_pref_velocity(id, Vec2::new(1.0, 0.0)).unwrap();
    }
    sim.step();
    assert!(sim.positions().iter().chain(sim.velocities()).all(|v| v.is_finite()), "{:?}", sim.velocities());
    for id in [a, b] {
        assert!(sim.agent_half_planes(id).unwrap().iter().all(|h| h.is_finite()));
    }
}

/// A crowd spawned at one point (a door, a spawn marker) with a straight wall drawn with many
/// collinear vertices: RVO2's trees for both are chains as deep as the input is large. Stepped
/// on worker threads with small stacks, which recursing that deep overflowed (aborting the
/// process) before the trees made room on the stack; the crowd must then spread out.
#[test]
fn a_crowd_spawned_at_one_point_next_to_a_many_vertex_wall_steps_without_overflow() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).stack_size(256 * 1024).build().expect("pool");
    pool.install(|| {
        let mut sim = Simulator::new(0.25, AgentParams::default()).expect("valid");
        let spawn = Vec2::new(0.0, 5.0);
        for _ in 0..3000 {
            sim.add_agent(spawn).expect("valid");
        }
        let mut wall: Vec<Vec2> = (0..=150).map(|i| Vec2::new(i as f32 - 75.0, 0.0)).collect();
        wall.extend((0..=150).rev().map(|i| Vec2::new(i as f32 - 75.0, -1.0)));
        sim.add_obstacle(&wall).expect("valid wall");
        sim.process_obstacles();
        let goals: Vec<Vec2> = (0..3000).map(|i| Vec2::from_angle(i as f32) * 2.0).collect();
        sim.set_pref_velocities(&goals).expect("finite");
        for _ in 0..2 {
            sim.step();
        }
        assert!(sim.positions().iter().all(|p| p.is_finite()));
        let spread = sim.positions().iter().filter(|p| p.distance(spawn) > 0.01).count();
        assert!(spread > 2900, "only {spread} of 3000 agents left the spawn point");
    });
}

#[test]
fn agents_at_the_far_ends_of_the_float_range_step_without_panic() {
    // Finite coordinates whose differences overflow to infinity: the step must neither panic
    // nor index out of its grid or tree; with and without an obstacle and safe mode.
    for extras in [false, true] {
        let mut sim = Simulator::new(0.1, AgentParams::default()).unwrap();
        for p in [Vec2::splat(3e38), Vec2::splat(-3e38), Vec2::new(3e38, -3e38), Vec2::ZERO, Vec2::ONE] {
            sim.add_agent(p).unwrap();
        }
        if extras {
            sim.add_obstacle(&[Vec2::new(10.0, 10.0), Vec2::new(11.0, 10.0), Vec2::new(11.0, 11.0)]).unwrap();
            sim.process_obstacles();
            sim.set_extensions(Extensions {
                overlap_resolution: Some(OverlapResolution::default()),
                ..Extensions::default()
            })
            .unwrap();
        }
        sim.set_pref_velocities(&[Vec2::X; 5]).unwrap();
        for _ in 0..3 {
            sim.step();
        }
        assert!(sim.positions()[3..].iter().all(|p| p.is_finite()), "{:?}", sim.positions());
    }
}
