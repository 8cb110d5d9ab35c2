//! Hardening of the 3-D simulator, as `orca_fuzz.rs` does for the planar one: whole steps on
//! random, often degenerate crowds (agents on top of each other, zero speeds and neighbour
//! counts, tiny and huge parameters, responsibility weights, movers on top of agents, agents
//! removed between steps) must never panic, never turn finite input into NaN, and with the
//! strict speed limit never exceed an agent's max speed.

use proptest::prelude::*;
use swerve::orca3d::{AgentParams, Extensions, Mover, OverlapResolution, Simulator, SymmetryBreaking, Vec3};

/// Coordinates on a coarse lattice (so that coincident agents and exact head-on pairs are
/// common) or anywhere in a box.
fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![(-6i32..6).prop_map(|v| v as f32 * 0.5), -15.0f32..15.0]
}

fn point() -> impl Strategy<Value = Vec3> {
    (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn params() -> impl Strategy<Value = AgentParams> {
    (0.0f32..30.0, 0usize..15, 0.01f32..20.0, 0.05f32..3.0, 0.0f32..5.0).prop_map(
        |(neighbor_dist, max_neighbors, time_horizon, radius, max_speed)| AgentParams {
            neighbor_dist,
            max_neighbors,
            time_horizon,
            radius,
            max_speed,
        },
    )
}

/// A responsibility weight: RVO2-3D's ½ most often, else 0, a large one or anything between.
fn weight() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.5f32), Just(0.0f32), Just(1e6f32), 0.0f32..2.0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn random_crowds_step_without_panic_or_nan(
        agents in prop::collection::vec((point(), point(), point(), params(), weight()), 1..30),
        movers in prop::collection::vec((point(), point(), 0.01f32..4.0), 0..3),
        removals in prop::collection::vec(0usize..30, 0..4),
        time_step in 0.01f32..1.0,
        strict in any::<bool>(),
        extras in any::<bool>(),
        record in any::<bool>(),
    ) {
        let mut sim = Simulator::new(time_step, AgentParams::default()).unwrap();
        sim.set_extensions(Extensions {
            strict_speed_limit: strict,
            symmetry_breaking: extras.then(SymmetryBreaking::default),
            overlap_resolution: extras.then(OverlapResolution::default),
        })
        .unwrap();
        sim.set_record_decisions(record);
        for (position, velocity, pref, p, w) in &agents {
            let id = sim.add_agent_with(*position, *p).unwrap();
            sim.set_agent_velocity(id, *velocity).unwrap();
            sim.set_agent_pref_velocity(id, *pref).unwrap();
            sim.set_agent_responsibility(id, *w).unwrap();
        }
        for (position, velocity, radius) in &movers {
            sim.add_mover(Mover { position: *position, velocity: *velocity, radius: *radius }).unwrap();
        }
        for step in 0..6 {
            if let Some(&k) = removals.get(step) {
                let ids = sim.agent_ids().to_vec();
                if !ids.is_empty() {
                    sim.remove_agent(ids[k % ids.len()]).unwrap();
                }
            }
            sim.step();
            for (&id, (p, v)) in sim.agent_ids().iter().zip(sim.positions().iter().zip(sim.velocities())) {
                prop_assert!(p.is_finite() && v.is_finite(), "agent {:?}: position {} velocity {}", id, p, v);
                if strict {
                    let max = sim.agent_params(id).unwrap().max_speed;
                    prop_assert!(v.length() <= max * (1.0 + 1e-6), "speed {} above max {}", v.length(), max);
                }
                if record {
                    let planes = sim.agent_planes(id).unwrap();
                    let neighbors = sim.agent_neighbors(id).unwrap().len();
                    prop_assert!(planes.len() <= neighbors + sim.movers().len(), "{} planes, {} neighbours", planes.len(), neighbors);
                    // Movers' planes come after the neighbours' and are never NaN.
                    prop_assert!(planes.iter().skip(neighbors).all(|p| p.is_finite()), "a NaN mover plane: {:?}", planes);
                }
            }
        }
    }
}

/// Found by the property above: an agent whose neighbour's plane is NaN (an exactly
/// degenerate pair) and whose other planes conflict went to the fallback program, which
/// processed the NaN plane where RVO2-3D's `> distance` test skips it, and the agent's
/// velocity and position became NaN for good (RVO2-3D's velocity is 0; the Python suite
/// compares with it).
#[test]
fn a_nan_plane_in_the_fallback_leaves_the_velocity_finite() {
    let mut sim = Simulator::new(0.01, AgentParams::default()).unwrap();
    sim.set_record_decisions(true);
    let small = AgentParams { neighbor_dist: 0.0, max_neighbors: 0, time_horizon: 0.01, radius: 0.05, max_speed: 0.0 };
    let big = AgentParams {
        neighbor_dist: 11.291555,
        max_neighbors: 2,
        time_horizon: 4.141505,
        radius: 1.8410391,
        max_speed: 0.0,
    };
    let a = sim.add_agent_with(Vec3::new(1.3686087, -3.0, -1.5), small).unwrap();
    let b = sim.add_agent_with(Vec3::new(9.972639, -3.0, -1.5), big).unwrap();
    let c = sim.add_agent_with(Vec3::new(12.022314, -1.0, 0.0), small).unwrap();
    for (id, v) in [(a, Vec3::new(1.0, 0.5, 0.0)), (b, Vec3::new(-1.5, 0.5, 0.0)), (c, Vec3::new(-0.5, 0.0, 0.0))] {
        sim.set_agent_velocity(id, v).unwrap();
    }
    sim.step();
    assert!(matches!(sim.agent_lp_outcome(b).unwrap(), swerve::orca::LpOutcome::Fallback { .. }));
    assert_eq!(sim.agent_neighbors(b).unwrap().len(), 2);
    // The record keeps RVO2-3D's NaN plane, one plane per neighbour.
    let planes = sim.agent_planes(b).unwrap();
    assert_eq!(planes.len(), 2);
    assert!(planes[0].is_finite() && !planes[1].is_finite(), "{planes:?}");
    // Max speed 0: the only velocity there is.
    assert_eq!(sim.agent_velocity(b).unwrap(), Vec3::ZERO);
}

#[test]
fn agents_at_the_far_ends_of_the_float_range_step_without_panic() {
    // Finite coordinates whose differences overflow to infinity (the grid's extent): the step
    // must neither panic nor index out of its grid; with and without obstacles and movers.
    for extras in [false, true] {
        let mut sim = Simulator::new(0.1, AgentParams::default()).unwrap();
        for p in [Vec3::splat(3e38), Vec3::splat(-3e38), Vec3::new(3e38, -3e38, 0.0), Vec3::ZERO, Vec3::ONE] {
            sim.add_agent(p).unwrap();
        }
        if extras {
            sim.add_mover(Mover { position: Vec3::splat(-3e38), velocity: Vec3::ZERO, radius: 1.0 }).unwrap();
            sim.add_box_obstacle(Vec3::splat(10.0), Vec3::splat(11.0)).unwrap();
            sim.set_extensions(Extensions {
                overlap_resolution: Some(OverlapResolution::default()),
                ..Extensions::default()
            })
            .unwrap();
        }
        sim.set_pref_velocities(&[Vec3::X; 5]).unwrap();
        for _ in 0..3 {
            sim.step();
        }
        // The two agents near the origin see each other and move on finitely.
        assert!(sim.positions()[3..].iter().all(|p| p.is_finite()), "{:?}", sim.positions());
    }
}
