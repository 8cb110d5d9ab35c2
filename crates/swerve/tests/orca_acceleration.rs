//! Acceleration limits (`Simulator::set_agent_max_acceleration`): a limited agent's velocity
//! changes by at most `max_acceleration · time_step` a step, the limit costs little of that
//! reach, it is off by default and exactly off when lifted, it stays deterministic across
//! thread counts and removals, and bad values are refused.

use swerve::{AgentId, AgentParams, Error, Simulator, Vec2};

#[path = "support/crowd.rs"]
mod crowd;
use crowd::{ring, set_prefs};

/// Rounding slack on a change of velocity of `reach`: the linear programs meet their
/// half-planes up to `f32` rounding of velocities of a few m/s.
fn within(change: f32, reach: f32) -> bool {
    change <= reach * (1.0 + 1e-5) + 1e-5
}

fn lone_agent(max_acceleration: f32) -> (Simulator, AgentId) {
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    let id = sim.add_agent(Vec2::ZERO).unwrap();
    sim.set_agent_max_acceleration(id, max_acceleration).unwrap();
    (sim, id)
}

#[test]
fn a_lone_agent_speeds_up_by_its_acceleration_each_step_in_any_direction() {
    // 2 m/s² over 0.25 s: 0.5 m/s a step, up to the max speed of 2 m/s.
    let reach = 2.0 * 0.25;
    for degrees in [0.0f32, 22.5, 30.0, 45.0, 100.0, 200.0, 337.5] {
        let (mut sim, id) = lone_agent(2.0);
        let direction = Vec2::from_angle(degrees.to_radians());
        let mut last = Vec2::ZERO;
        for step in 1..=8 {
            sim.set_agent_pref_velocity(id, 2.0 * direction).unwrap();
            sim.step();
            let velocity = sim.agent_velocity(id).unwrap();
            let change = (velocity - last).length();
            assert!(within(change, reach), "{degrees}°, step {step}: changed by {change} > {reach}");
            // The octagon's sides cost at most 1 − cos 22.5° of the reach (none along its
            // corners, at 0°, 45°, …); the speed only stops growing at the max speed.
            let expected = (step as f32 * reach * (std::f32::consts::PI / 8.0).cos()).min(2.0);
            assert!(
                velocity.length() >= expected - 1e-4,
                "{degrees}°, step {step}: speed {} < {expected}",
                velocity.length()
            );
            assert!(velocity.angle_to(direction).abs() < 0.2, "{degrees}°, step {step}: heading {velocity}");
            last = velocity;
        }
        assert!((last.length() - 2.0).abs() < 1e-4, "{degrees}°: at the max speed after 8 steps ({last})");
    }
    // Along a corner the whole reach is used: exactly 0.5, 1.0, 1.5 m/s.
    let (mut sim, id) = lone_agent(2.0);
    for step in 1..=3 {
        sim.set_agent_pref_velocity(id, Vec2::new(2.0, 0.0)).unwrap();
        sim.step();
        let speed = sim.agent_velocity(id).unwrap().x;
        assert!((speed - step as f32 * reach).abs() < 1e-5, "step {step}: {speed}");
    }
}

#[test]
fn a_limited_agent_brakes_over_several_steps() {
    let (mut sim, id) = lone_agent(4.0);
    sim.set_agent_velocity(id, Vec2::new(2.0, 0.0)).unwrap();
    let mut speeds = Vec::new();
    for _ in 0..3 {
        sim.set_agent_pref_velocity(id, Vec2::ZERO).unwrap();
        sim.step();
        speeds.push(sim.agent_velocity(id).unwrap().length());
    }
    // 4 m/s² × 0.25 s = 1 m/s a step: 2 → 1 → 0 → 0.
    for (speed, expected) in speeds.iter().zip([1.0, 0.0, 0.0]) {
        assert!((speed - expected).abs() < 1e-5, "speeds {speeds:?}");
    }
    // An agent set moving faster than its max speed is first brought back to it: its next
    // velocity is within reach of 2 m/s along its heading, and not above the max speed.
    let (mut sim, id) = lone_agent(4.0);
    sim.set_agent_velocity(id, Vec2::new(0.0, 5.0)).unwrap();
    sim.set_agent_pref_velocity(id, Vec2::new(2.0, 0.0)).unwrap();
    sim.step();
    let velocity = sim.agent_velocity(id).unwrap();
    assert!(within((velocity - Vec2::new(0.0, 2.0)).length(), 1.0), "{velocity}");
    assert!(velocity.length() <= 2.0 + 1e-5 && velocity.x > 0.5, "{velocity}");
    // Without a limit RVO2's agent stops at once.
    let mut free = Simulator::new(0.25, AgentParams::default()).unwrap();
    let other = free.add_agent(Vec2::ZERO).unwrap();
    free.set_agent_velocity(other, Vec2::new(2.0, 0.0)).unwrap();
    free.step();
    assert_eq!(free.agent_velocity(other).unwrap(), Vec2::ZERO);
}

/// A ring of `n` agents heading for the antipodes, every `every`-th limited to
/// `max_acceleration`.
fn limited_ring(n: usize, every: usize, max_acceleration: f32) -> (Simulator, Vec<Vec2>) {
    let params = AgentParams { radius: 1.0, max_speed: 2.0, ..AgentParams::default() };
    let (mut sim, goals) = ring(n, n as f32 * 0.6, params, 0.25);
    for id in sim.agent_ids().to_vec() {
        if id.0 as usize % every == 0 {
            sim.set_agent_max_acceleration(id, max_acceleration).unwrap();
        }
    }
    (sim, goals)
}

/// Runs the ring of [`limited_ring`] for 600 steps (150 s), checking the limit on every
/// agent's every step; the closest any two came and the step all had arrived, if they did.
fn run_ring(max_acceleration: f32) -> (f32, Option<usize>) {
    let (mut sim, goals) = limited_ring(60, 1, max_acceleration);
    let reach = max_acceleration * 0.25;
    let mut closest = f32::INFINITY;
    let mut arrived_at = None;
    for step in 1..=600 {
        let before = sim.velocities().to_vec();
        set_prefs(&mut sim, &goals);
        sim.step();
        for (i, (v, old)) in sim.velocities().iter().zip(&before).enumerate() {
            let change = (*v - *old).length();
            assert!(within(change, reach), "step {step}, agent {i}: changed by {change} > {reach}");
        }
        let p = sim.positions();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                closest = closest.min(p[i].distance(p[j]));
            }
        }
        if arrived_at.is_none() && p.iter().zip(&goals).all(|(p, g)| p.distance(*g) < 0.5) {
            arrived_at = Some(step);
        }
    }
    (closest, arrived_at)
}

#[test]
fn every_step_of_a_limited_crowd_keeps_the_limit_and_the_crowd_still_avoids_and_arrives() {
    // 60 agents of radius 1 crossing a ring of radius 36 m: dense enough at the centre that
    // RVO2's own agents overlap (linear program 3), and symmetric enough that they stall.
    let (rvo2_closest, rvo2_arrived) = run_ring(f32::INFINITY);
    assert!(rvo2_closest < 2.0 && rvo2_arrived.is_none(), "the ring lost its point: {rvo2_closest}, {rvo2_arrived:?}");
    // Limited to 2 m/s² (a second from rest to the max speed) they overlap no deeper than 5 %
    // more than RVO2's, and the smoother turns unstick the ring.
    let (closest, arrived) = run_ring(2.0);
    assert!(closest > 0.95 * rvo2_closest, "closest approach {closest} against RVO2's {rvo2_closest}");
    assert!(arrived.is_some(), "the limited crowd did not all arrive in 150 s");
}

#[test]
fn a_limit_no_step_reaches_changes_nothing_and_a_lifted_one_is_rvo2_again() {
    let run = |limit: Option<f32>, lift: bool| {
        let (mut sim, goals) = ring(40, 25.0, AgentParams::default(), 0.25);
        if let Some(limit) = limit {
            for id in sim.agent_ids().to_vec() {
                sim.set_agent_max_acceleration(id, limit).unwrap();
                if lift {
                    sim.set_agent_max_acceleration(id, f32::INFINITY).unwrap();
                }
            }
        }
        for _ in 0..150 {
            set_prefs(&mut sim, &goals);
            sim.step();
        }
        sim.positions().iter().map(|p| [p.x.to_bits(), p.y.to_bits()]).collect::<Vec<_>>()
    };
    let rvo2 = run(None, false);
    // A reach of 2,500 m/s a step is never binding: the octagon's half-planes all permit
    // every velocity the programs consider, so the bits are RVO2's. (Sides facing inward, or
    // placed wrongly, would bind at once.)
    assert_eq!(run(Some(1e4), false), rvo2, "an unreachable limit changed the run");
    assert_eq!(run(Some(0.5), true), rvo2, "a lifted limit changed the run");
    assert_ne!(run(Some(0.5), false), rvo2, "a tight limit changed nothing");
}

#[test]
fn limits_stay_deterministic_across_thread_counts_and_agent_removal() {
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| {
            let (mut sim, mut goals) = limited_ring(600, 3, 1.5);
            for step in 0..60 {
                if step == 10 {
                    sim.remove_agent(AgentId(4)).unwrap();
                    goals.remove(4);
                }
                set_prefs(&mut sim, &goals);
                sim.step();
            }
            // The agents after the removed one kept their own limits.
            assert_eq!(sim.agent_max_acceleration(AgentId(6)).unwrap(), 1.5);
            assert_eq!(sim.agent_max_acceleration(AgentId(5)).unwrap(), f32::INFINITY);
            sim.positions().iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>()
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(8));
}

#[test]
fn the_limit_is_recorded_as_hard_half_planes_that_permit_the_velocity_it_started_from() {
    let (mut sim, goals) = limited_ring(12, 2, 2.0);
    sim.set_record_decisions(true);
    for _ in 0..20 {
        let before = sim.velocities().to_vec();
        set_prefs(&mut sim, &goals);
        sim.step();
        for (i, &id) in sim.agent_ids().iter().enumerate() {
            let hard = sim.agent_obstacle_half_plane_count(id).unwrap();
            let planes = sim.agent_half_planes(id).unwrap();
            let limited = id.0 % 2 == 0;
            assert_eq!(hard, if limited { 8 } else { 0 }, "agent {}", id.0);
            assert_eq!(
                sim.agent_acceleration_half_plane_count(id).unwrap(),
                hard,
                "agent {}: all hard ones are the limit's",
                id.0
            );
            assert_eq!(
                planes.len() - hard,
                sim.agent_neighbors(id).unwrap().len(),
                "one half-plane per neighbour after them"
            );
            for plane in &planes[..hard] {
                // Left of the line (det ≥ 0) is permitted: the old velocity, the octagon's centre.
                let d = plane.direction.perp_dot(before[i] - plane.point);
                assert!(d > 0.0, "agent {}: the limit excludes the velocity it started from", id.0);
            }
        }
    }
}

#[test]
fn bad_limits_are_refused_and_change_nothing() {
    let (mut sim, id) = lone_agent(3.0);
    for bad in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
        assert!(matches!(sim.set_agent_max_acceleration(id, bad), Err(Error::OutOfRange { .. })), "{bad}");
        assert_eq!(sim.agent_max_acceleration(id).unwrap(), 3.0);
    }
    assert!(matches!(sim.set_agent_max_acceleration(AgentId(9), 1.0), Err(Error::UnknownAgent(_))));
    sim.set_agent_max_acceleration(id, f32::INFINITY).unwrap();
    assert_eq!(sim.agent_max_acceleration(id).unwrap(), f32::INFINITY);
    // A new agent is unlimited, as RVO2's are.
    let other = sim.add_agent(Vec2::new(5.0, 0.0)).unwrap();
    assert_eq!(sim.agent_max_acceleration(other).unwrap(), f32::INFINITY);
}

// ----- 3-D (`orca3d::Simulator::set_agent_max_acceleration`: around the program) -----

mod in_3d {
    use super::within;
    use swerve::orca3d::{AgentParams, Simulator, Vec3};
    use swerve::{AgentId, Error};

    /// `n` agents on a sphere of `radius` (a Fibonacci lattice), each heading for the
    /// antipode, every `every`-th limited to `max_acceleration`.
    fn sphere(n: usize, radius: f32, every: usize, max_acceleration: f32) -> (Simulator, Vec<Vec3>) {
        let params = AgentParams { radius: 1.0, max_speed: 2.0, ..AgentParams::default() };
        let mut sim = Simulator::new(0.125, params).unwrap();
        let mut goals = Vec::new();
        for i in 0..n {
            let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
            let angle = i as f32 * 2.399_963;
            let ring = (1.0 - z * z).sqrt();
            let p = radius * Vec3::new(ring * angle.cos(), ring * angle.sin(), z);
            let id = sim.add_agent(p).unwrap();
            if i % every == 0 {
                sim.set_agent_max_acceleration(id, max_acceleration).unwrap();
            }
            goals.push(-p);
        }
        (sim, goals)
    }

    fn step(sim: &mut Simulator, goals: &[Vec3]) {
        let prefs: Vec<Vec3> = sim
            .agent_ids()
            .iter()
            .zip(sim.positions())
            .map(|(id, p)| (goals[id.0 as usize] - *p).clamp_length_max(1.0))
            .collect();
        sim.set_pref_velocities(&prefs).unwrap();
        sim.step();
    }

    #[test]
    fn a_lone_agent_speeds_up_by_its_acceleration_each_step_in_any_direction() {
        // 2 m/s² over 0.125 s: 0.25 m/s a step, up to 2 m/s.
        let reach = 2.0 * 0.125;
        for direction in [Vec3::X, Vec3::new(1.0, 2.0, -2.0).normalize(), Vec3::new(-0.3, 0.1, 0.9).normalize()] {
            let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
            let id = sim.add_agent(Vec3::ZERO).unwrap();
            sim.set_agent_max_acceleration(id, 2.0).unwrap();
            let mut last = Vec3::ZERO;
            for k in 1..=10 {
                sim.set_agent_pref_velocity(id, 2.0 * direction).unwrap();
                sim.step();
                let v = sim.agent_velocity(id).unwrap();
                assert!(within((v - last).length(), reach), "{direction}, step {k}: {v}");
                let expected = (k as f32 * reach).min(2.0);
                assert!(
                    (v.length() - expected).abs() < 1e-4,
                    "{direction}, step {k}: speed {} ≠ {expected}",
                    v.length()
                );
                assert!(v.normalize().dot(direction) > 0.9999, "{direction}, step {k}: heading {v}");
                last = v;
            }
        }
    }

    #[test]
    fn every_step_of_a_limited_swarm_keeps_the_limit() {
        let (mut sim, goals) = sphere(80, 20.0, 1, 4.0);
        let reach = 4.0 * 0.125;
        let mut closest = f32::INFINITY;
        for k in 0..400 {
            let before = sim.velocities().to_vec();
            step(&mut sim, &goals);
            for (i, (v, old)) in sim.velocities().iter().zip(&before).enumerate() {
                assert!(
                    within((*v - *old).length(), reach),
                    "step {k}, agent {i}: changed by {}",
                    (*v - *old).length()
                );
            }
            let p = sim.positions();
            for i in 0..p.len() {
                for j in i + 1..p.len() {
                    closest = closest.min(p[i].distance(p[j]));
                }
            }
        }
        // They still avoid each other: no pair came closer than 90 % of two radii.
        assert!(closest > 0.9 * 2.0, "closest approach {closest}");
    }

    #[test]
    fn a_limit_never_reached_or_lifted_gives_rvo2_3d_bits() {
        let run = |limit: Option<f32>, lift: bool| {
            let (mut sim, goals) = sphere(40, 15.0, 1, 1.0);
            for id in sim.agent_ids().to_vec() {
                sim.set_agent_max_acceleration(id, f32::INFINITY).unwrap();
                if let Some(limit) = limit {
                    sim.set_agent_max_acceleration(id, limit).unwrap();
                    if lift {
                        sim.set_agent_max_acceleration(id, f32::INFINITY).unwrap();
                    }
                }
            }
            for _ in 0..120 {
                step(&mut sim, &goals);
            }
            sim.positions().iter().map(|p| p.to_array().map(f32::to_bits)).collect::<Vec<_>>()
        };
        let rvo2 = run(None, false);
        assert_eq!(run(Some(1e6), false), rvo2, "an unreachable limit changed the run");
        assert_eq!(run(Some(0.5), true), rvo2, "a lifted limit changed the run");
        assert_ne!(run(Some(0.5), false), rvo2, "a tight limit changed nothing");
    }

    #[test]
    fn limits_stay_deterministic_across_thread_counts_and_removal_and_bad_values_are_refused() {
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| {
                let (mut sim, goals) = sphere(500, 40.0, 3, 1.5);
                for k in 0..40 {
                    if k == 10 {
                        sim.remove_agent(AgentId(4)).unwrap();
                    }
                    step(&mut sim, &goals);
                }
                assert_eq!(sim.agent_max_acceleration(AgentId(6)).unwrap(), 1.5);
                assert_eq!(sim.agent_max_acceleration(AgentId(5)).unwrap(), f32::INFINITY);
                sim.positions().iter().map(|p| p.to_array().map(f32::to_bits)).collect::<Vec<_>>()
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(8));

        let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
        let id = sim.add_agent(Vec3::ZERO).unwrap();
        assert_eq!(sim.agent_max_acceleration(id).unwrap(), f32::INFINITY);
        sim.set_agent_max_acceleration(id, 3.0).unwrap();
        for bad in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
            assert!(matches!(sim.set_agent_max_acceleration(id, bad), Err(Error::OutOfRange { .. })), "{bad}");
            assert_eq!(sim.agent_max_acceleration(id).unwrap(), 3.0);
        }
        assert!(matches!(sim.set_agent_max_acceleration(AgentId(9), 1.0), Err(Error::UnknownAgent(_))));
    }
}
