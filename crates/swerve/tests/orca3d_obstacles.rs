//! Static obstacles in the 3-D crowd (`orca3d::Simulator::add_obstacle`, beyond RVO2-3D):
//! obstacles out of every agent's reach, and obstacles removed, leave RVO2-3D's bits; an agent
//! that starts clear of every triangle never comes closer than its radius to one (checked by
//! brute force over all triangles, every step, in random scenes, in a dense crowd pressed
//! against a wall whose programs fall back, and with every option on); agents fly through a
//! window; the obstacle time horizon sets how fast an agent may close in; thread counts change
//! nothing; bad input changes nothing.

#[path = "support/sphere3d.rs"]
mod sphere3d;

use rand::{Rng, SeedableRng};
use sphere3d::{set_prefs, sphere_crowd};
use swerve::orca::LpOutcome;
use swerve::orca3d::{
    AgentParams, Extensions, Mover, ObstacleId, OverlapResolution, Simulator, SymmetryBreaking, Vec3,
};
use swerve::Error;

/// The smallest distance from `p` to any obstacle triangle of `sim`, by brute force (m).
fn distance_to_obstacles(sim: &Simulator, p: Vec3) -> f64 {
    let p = p.as_dvec3();
    sim.obstacles()
        .flat_map(|(_, triangles)| triangles.iter())
        .map(|t| t.closest_point(p).distance(p))
        .fold(f64::INFINITY, f64::min)
}

/// A solid box obstacle, as `(min, max)`.
type SolidBox = (Vec3, Vec3);

/// Whether `p` lies inside one of `boxes` (solid, unlike a mesh's surface).
fn inside(boxes: &[SolidBox], p: Vec3) -> bool {
    boxes.iter().any(|&(min, max)| p.cmpgt(min).all() && p.cmplt(max).all())
}

/// The smallest clearance (distance to the obstacles' surfaces minus the radius; inside a
/// solid box, minus the distance too) over all agents (m).
fn min_clearance(sim: &Simulator, boxes: &[SolidBox]) -> f64 {
    sim.agent_ids()
        .iter()
        .zip(sim.positions())
        .map(|(&id, &p)| {
            let d = distance_to_obstacles(sim, p);
            let d = if inside(boxes, p) { -d } else { d };
            d - f64::from(sim.agent_params(id).unwrap().radius)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The square wall x = 0, |y|, |z| ≤ `half`, with a square window |y|, |z| < `hole` in it
/// (eight triangles: four trapezoids between the outer and inner squares).
fn wall_with_window(half: f32, hole: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let square = |s: f32| [Vec3::new(0.0, -s, -s), Vec3::new(0.0, s, -s), Vec3::new(0.0, s, s), Vec3::new(0.0, -s, s)];
    let vertices: Vec<Vec3> = square(half).into_iter().chain(square(hole)).collect();
    let mut triangles = Vec::new();
    for k in 0..4u32 {
        let (o0, o1, i0, i1) = (k, (k + 1) % 4, 4 + k, 4 + (k + 1) % 4);
        triangles.push([o0, o1, i1]);
        triangles.push([o0, i1, i0]);
    }
    (vertices, triangles)
}

/// Steps `sim` toward `goals` for `steps` steps; returns the smallest clearance seen.
fn fly(sim: &mut Simulator, goals: &[Vec3], steps: usize, boxes: &[SolidBox]) -> f64 {
    let mut smallest = min_clearance(sim, boxes);
    for _ in 0..steps {
        set_prefs(sim, goals);
        sim.step();
        smallest = smallest.min(min_clearance(sim, boxes));
    }
    smallest
}

#[test]
fn obstacles_out_of_reach_and_removed_obstacles_leave_rvo2_3d_bits() {
    let (mut plain, goals) = sphere_crowd(150);
    let (mut far, _) = sphere_crowd(150);
    let (mut removed, _) = sphere_crowd(150);
    // Beyond every agent's reach (radius + max speed · horizon = 21.5 m from the crowd's
    // sphere of radius about 31 m).
    far.add_box_obstacle(Vec3::splat(200.0), Vec3::splat(210.0)).unwrap();
    // Through the middle of the crowd, removed before the first step.
    let (vertices, triangles) = wall_with_window(50.0, 5.0);
    let wall = removed.add_obstacle(&vertices, &triangles).unwrap();
    removed.remove_obstacle(wall).unwrap();
    for step in 0..120 {
        for sim in [&mut plain, &mut far, &mut removed] {
            set_prefs(sim, &goals);
            sim.step();
        }
        assert_eq!(plain.positions(), far.positions(), "step {step}: a far obstacle changed the crowd");
        assert_eq!(plain.positions(), removed.positions(), "step {step}: a removed obstacle changed the crowd");
    }
}

/// A random scene: `boxes` boxes and one slanted triangle in a 60 m cube, `agents` agents of
/// varied radii and speeds placed at least 0.1 m clear of them and of each other, with goals
/// clear of the obstacles too.
fn random_scene(seed: u64, boxes: usize, agents: usize) -> (Simulator, Vec<Vec3>, Vec<SolidBox>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let params = AgentParams { neighbor_dist: 8.0, max_neighbors: 10, time_horizon: 4.0, radius: 0.6, max_speed: 2.0 };
    let mut sim = Simulator::new(0.125, params).unwrap();
    let point = |rng: &mut rand_chacha::ChaCha8Rng| {
        Vec3::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0))
    };
    let mut solids = Vec::new();
    for _ in 0..boxes {
        let min = point(&mut rng);
        let size = Vec3::new(rng.random_range(1.0..12.0), rng.random_range(1.0..12.0), rng.random_range(1.0..12.0));
        sim.add_box_obstacle(min, min + size).unwrap();
        solids.push((min, min + size));
    }
    let (a, b, c) = (point(&mut rng), point(&mut rng), point(&mut rng));
    sim.add_obstacle(&[a, b, c], &[[0, 1, 2]]).unwrap();
    let mut goals = Vec::new();
    while sim.num_agents() < agents {
        let radius = rng.random_range(0.3..1.2);
        let (p, goal) = (point(&mut rng), point(&mut rng));
        let clear = |q: Vec3| !inside(&solids, q) && distance_to_obstacles(&sim, q) >= f64::from(radius) + 0.1;
        let apart = sim
            .agent_ids()
            .iter()
            .zip(sim.positions())
            .all(|(&id, &other)| other.distance(p) >= radius + sim.agent_params(id).unwrap().radius + 0.1);
        if clear(p) && clear(goal) && apart {
            let params = AgentParams { radius, max_speed: rng.random_range(0.5..3.0), ..params };
            let id = sim.add_agent_with(p, params).unwrap();
            if rng.random_bool(0.3) {
                sim.set_agent_obstacle_time_horizon(id, rng.random_range(0.05..8.0)).unwrap();
            }
            goals.push(goal);
        }
    }
    (sim, goals, solids)
}

#[test]
fn no_agent_comes_closer_than_its_radius_to_a_triangle_in_random_scenes() {
    for seed in 0..6 {
        let (mut sim, goals, boxes) = random_scene(seed, 12, 60);
        let smallest = fly(&mut sim, &goals, 240, &boxes);
        assert!(smallest >= -1e-3, "seed {seed}: an agent came {:.5} m inside an obstacle", -smallest);
    }
}

#[test]
fn obstacles_hold_with_every_option_on_and_thread_counts_change_nothing() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut sim, goals, boxes) = random_scene(11, 10, 80);
            sim.set_extensions(Extensions {
                symmetry_breaking: Some(SymmetryBreaking::default()),
                overlap_resolution: None,
                strict_speed_limit: true,
            })
            .unwrap();
            sim.set_record_decisions(true);
            let ids = sim.agent_ids().to_vec();
            for &id in ids.iter().step_by(5) {
                sim.set_agent_responsibility(id, 0.0).unwrap();
            }
            for &id in ids.iter().skip(1).step_by(7) {
                sim.set_agent_avoidance_layers(id, 2).unwrap();
            }
            sim.add_mover(Mover {
                position: Vec3::new(-40.0, 0.0, 0.0),
                velocity: Vec3::new(1.0, 0.0, 0.0),
                radius: 3.0,
            })
            .unwrap();
            let smallest = fly(&mut sim, &goals, 200, &boxes);
            (smallest, sim.positions().to_vec())
        })
    };
    let (smallest, one) = run(1);
    assert!(smallest >= -1e-3, "an agent came {:.5} m inside an obstacle", -smallest);
    assert_eq!(one, run(2).1, "1 and 2 threads differ");
}

/// 120 agents (4 × 6 × 5, 1.2 m apart) in a block just in front of the plane x = 0, all
/// bound for points behind it; returns their goals.
fn press_crowd(sim: &mut Simulator) -> Vec<Vec3> {
    let mut goals = Vec::new();
    for i in 0..120 {
        let (x, y, z) = (i % 4, (i / 4) % 6, i / 24);
        let p = Vec3::new(-1.6 - 1.2 * x as f32, -3.0 + 1.2 * y as f32, -3.0 + 1.2 * z as f32);
        sim.add_agent(p).unwrap();
        goals.push(Vec3::new(10.0, p.y * 0.2, p.z * 0.2));
    }
    goals
}

#[test]
fn a_dense_crowd_pressed_against_a_wall_falls_back_but_keeps_clear_of_it() {
    // 120 agents in a block 2 m in front of a solid wall, all bound for points behind it:
    // their neighbours' planes conflict with the wall's (the programs fall back), and the
    // wall's planes must hold.
    let params = AgentParams { neighbor_dist: 6.0, max_neighbors: 10, time_horizon: 3.0, radius: 0.5, max_speed: 2.0 };
    let mut sim = Simulator::new(0.125, params).unwrap();
    let (vertices, triangles) = wall_with_window(20.0, 0.0 + 1e-3);
    let wall = sim.add_obstacle(&vertices, &triangles).unwrap();
    let goals = press_crowd(&mut sim);
    sim.set_record_decisions(true);
    let mut fallbacks = 0;
    let mut smallest = f64::INFINITY;
    for _ in 0..160 {
        set_prefs(&mut sim, &goals);
        sim.step();
        smallest = smallest.min(min_clearance(&sim, &[]));
        for &id in sim.agent_ids() {
            let planes = sim.agent_planes(id).unwrap();
            let hard = sim.agent_obstacle_plane_count(id).unwrap();
            if matches!(sim.agent_lp_outcome(id).unwrap(), LpOutcome::Fallback { .. }) {
                fallbacks += 1;
            }
            // The velocity taken meets every obstacle plane, fallback or not.
            let v = sim.agent_velocity(id).unwrap();
            for plane in &planes[..hard] {
                assert!(plane.violation(v) <= 1e-4, "agent {id:?} broke an obstacle plane by {}", plane.violation(v));
            }
        }
    }
    assert!(fallbacks > 100, "only {fallbacks} fallbacks: the crowd was not dense enough to test them");
    assert!(smallest >= -1e-3, "an agent came {:.5} m inside the wall", -smallest);
    // The wall's planes are what held them: without it they all fly on.
    sim.remove_obstacle(wall).unwrap();
    fly(&mut sim, &goals, 200, &[]);
    assert!(sim.positions().iter().all(|p| p.x > 5.0), "the crowd did not cross once the wall was gone");
}

#[test]
fn agents_fly_through_a_window_to_their_goals() {
    let params = AgentParams { neighbor_dist: 6.0, max_neighbors: 10, time_horizon: 3.0, radius: 0.5, max_speed: 2.0 };
    let mut sim = Simulator::new(0.125, params).unwrap();
    let (vertices, triangles) = wall_with_window(30.0, 3.0);
    sim.add_obstacle(&vertices, &triangles).unwrap();
    let mut goals = Vec::new();
    // A 4 × 4 block of agents spread wider than the window (±7.5 m against ±3 m), bound for
    // a block a fifth as wide on the other side: the outer ones meet the wall about 4.5 m off
    // the centre and slide along it to the window.
    for i in 0..16 {
        let (y, z) = (-7.5 + 5.0 * (i % 4) as f32, -7.5 + 5.0 * (i / 4) as f32);
        sim.add_agent(Vec3::new(-15.0, y, z)).unwrap();
        goals.push(Vec3::new(15.0, 0.2 * y, 0.2 * z));
    }
    let smallest = fly(&mut sim, &goals, 800, &[]);
    assert!(smallest >= -1e-3, "an agent came {:.5} m inside the wall", -smallest);
    for (i, (p, g)) in sim.positions().iter().zip(&goals).enumerate() {
        assert!(p.distance(*g) < 0.5, "agent {i} at {p} did not reach {g}");
    }
}

#[test]
fn the_obstacle_time_horizon_sets_how_fast_an_agent_closes_in() {
    for horizon in [1.0f32, 4.0, 10.0] {
        let params = AgentParams { radius: 1.0, max_speed: 2.0, ..AgentParams::default() };
        let mut sim = Simulator::new(0.125, params).unwrap();
        sim.add_box_obstacle(Vec3::new(0.0, -50.0, -50.0), Vec3::new(1.0, 50.0, 50.0)).unwrap();
        let id = sim.add_agent(Vec3::new(-30.0, 0.0, 0.0)).unwrap();
        assert_eq!(sim.agent_obstacle_time_horizon(id).unwrap(), params.time_horizon, "the default");
        sim.set_agent_obstacle_time_horizon(id, horizon).unwrap();
        assert_eq!(sim.agent_obstacle_time_horizon(id).unwrap(), horizon);
        let mut closest_speed_ratio = 0.0f32;
        for _ in 0..800 {
            // Straight at the wall, as fast as it may.
            sim.set_agent_pref_velocity(id, Vec3::new(10.0, 0.0, 0.0)).unwrap();
            let gap = -sim.agent_position(id).unwrap().x - 1.0;
            sim.step();
            let speed = sim.agent_velocity(id).unwrap().x;
            assert!(speed <= gap / horizon + 1e-5, "horizon {horizon}: {speed} m/s at a gap of {gap} m");
            closest_speed_ratio = closest_speed_ratio.max(speed * horizon / gap.max(1e-6));
        }
        let gap = -sim.agent_position(id).unwrap().x - 1.0;
        assert!((0.0..0.05).contains(&gap), "horizon {horizon}: stopped {gap} m short of the wall");
        // It used what the horizon allows (not merely stayed away).
        assert!(closest_speed_ratio > 0.99, "horizon {horizon}: at most {closest_speed_ratio} of the allowed speed");
    }
}

#[test]
fn an_acceleration_limit_brakes_in_time_when_the_horizon_is_max_speed_over_the_limit() {
    let fly_at_wall = |horizon: f32| {
        let params = AgentParams { radius: 1.0, max_speed: 2.0, ..AgentParams::default() };
        let mut sim = Simulator::new(0.125, params).unwrap();
        let wall = (Vec3::new(0.0, -50.0, -50.0), Vec3::new(1.0, 50.0, 50.0));
        sim.add_box_obstacle(wall.0, wall.1).unwrap();
        let id = sim.add_agent(Vec3::new(-30.0, 0.0, 0.0)).unwrap();
        sim.set_agent_velocity(id, Vec3::new(2.0, 0.0, 0.0)).unwrap();
        sim.set_agent_max_acceleration(id, 1.0).unwrap();
        sim.set_agent_obstacle_time_horizon(id, horizon).unwrap();
        let mut smallest = f64::INFINITY;
        for _ in 0..400 {
            sim.set_agent_pref_velocity(id, Vec3::new(2.0, 0.0, 0.0)).unwrap();
            sim.step();
            smallest = smallest.min(min_clearance(&sim, &[wall]));
        }
        smallest
    };
    // max speed / limit = 2 s: enough.
    assert!(fly_at_wall(2.0) >= -1e-3);
    // Half a second is not: the limit holds and the agent runs into the wall.
    assert!(fly_at_wall(0.5) < -0.1);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    let id = sim.add_agent(Vec3::ZERO).unwrap();
    let good = [Vec3::ZERO, Vec3::X, Vec3::Y];
    assert!(matches!(
        sim.add_obstacle(&[Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 0.0, 0.0)], &[[0, 1, 2]]),
        Err(Error::NonFinite { what: "mesh vertex", .. })
    ));
    assert!(matches!(
        sim.add_obstacle(&good, &[[0, 1, 2], [0, 1, 3]]),
        Err(Error::MeshIndexOutOfRange { triangle: 1, index: 3, vertices: 3 })
    ));
    assert!(matches!(
        sim.add_obstacle(&[Vec3::ZERO, Vec3::X, Vec3::X * 2.0], &[[0, 1, 2]]),
        Err(Error::DegenerateTriangle { triangle: 0 })
    ));
    assert!(matches!(
        sim.add_box_obstacle(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0)),
        Err(Error::OutOfRange { what: "box thickness", .. })
    ));
    assert!(matches!(
        sim.add_box_obstacle(Vec3::ONE, Vec3::ZERO),
        Err(Error::OutOfRange { what: "box thickness", .. })
    ));
    assert!(matches!(
        sim.add_box_obstacle(Vec3::ZERO, Vec3::splat(f32::INFINITY)),
        Err(Error::NonFinite { what: "box corner", .. })
    ));
    assert_eq!(sim.obstacles().count(), 0, "a refused obstacle was added");
    assert!(matches!(sim.remove_obstacle(ObstacleId(0)), Err(Error::UnknownObstacle(0))));
    assert!(matches!(sim.obstacle(ObstacleId(0)), Err(Error::UnknownObstacle(0))));
    for horizon in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(sim.set_agent_obstacle_time_horizon(id, horizon).is_err(), "horizon {horizon} accepted");
    }
    assert_eq!(sim.agent_obstacle_time_horizon(id).unwrap(), AgentParams::default().time_horizon);
    // A good one after all that: ids count from 0, and the box has 12 triangles.
    let first = sim.add_box_obstacle(Vec3::ZERO, Vec3::ONE).unwrap();
    assert_eq!(first, ObstacleId(0));
    assert_eq!(sim.obstacle(first).unwrap().len(), 12);
    assert!(matches!(sim.agent_obstacle_plane_count(id), Err(Error::DecisionsNotRecorded)));
}

#[test]
fn a_box_obstacle_is_closed_and_its_faces_face_out() {
    // Every face of the box: an agent in front of the face's centre gets a plane whose normal
    // points out of the box along the face's axis.
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    let (min, max) = (Vec3::new(-1.0, -2.0, -3.0), Vec3::new(1.0, 2.0, 3.0));
    sim.add_box_obstacle(min, max).unwrap();
    let centre = (min + max) * 0.5;
    let mut ids = Vec::new();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut out = Vec3::ZERO;
            out[axis] = sign;
            let p = centre + out * ((max - min)[axis] * 0.5 + 3.0);
            ids.push((sim.add_agent(p).unwrap(), out));
        }
    }
    sim.set_record_decisions(true);
    sim.step();
    for (id, out) in ids {
        let hard = sim.agent_obstacle_plane_count(id).unwrap();
        let planes = &sim.agent_planes(id).unwrap()[..hard];
        assert!(planes.iter().any(|p| (p.normal - out).length() < 1e-5), "no plane facing {out} among {planes:?}");
        // And the triangles of that face reach the agent: the distance by brute force is 3 m.
        let d = distance_to_obstacles(&sim, sim.agent_position(id).unwrap());
        assert!((d - 3.0).abs() < 0.1, "{d}");
    }
}

#[test]
fn safe_mode_pushes_never_take_an_agent_into_an_obstacle() {
    // Safe mode's overlap push acts after the program; a push that would bring an agent
    // closer than its radius to a triangle or a box (or through one) is not made, so the hard
    // planes' guarantee holds with it too.
    for seed in [3, 11, 23] {
        let (mut crowd, goals, boxes) = random_scene(seed, 8, 60);
        crowd
            .set_extensions(Extensions {
                overlap_resolution: Some(OverlapResolution::default()),
                ..Extensions::default()
            })
            .unwrap();
        let smallest = fly(&mut crowd, &goals, 150, &boxes);
        assert!(smallest >= -1e-3, "seed {seed}: safe mode took an agent {:.5} m inside an obstacle", -smallest);
    }
    // A dense crowd pressed against a wall, a mesh and then a box: here the pushes are many.
    for as_box in [false, true] {
        let params =
            AgentParams { neighbor_dist: 6.0, max_neighbors: 10, time_horizon: 3.0, radius: 0.5, max_speed: 2.0 };
        let mut sim = Simulator::new(0.125, params).unwrap();
        sim.set_extensions(Extensions {
            overlap_resolution: Some(OverlapResolution::default()),
            ..Extensions::default()
        })
        .unwrap();
        let solid = (Vec3::new(0.0, -20.0, -20.0), Vec3::new(0.5, 20.0, 20.0));
        if as_box {
            sim.add_box_obstacle(solid.0, solid.1).unwrap();
        } else {
            let (vertices, triangles) = wall_with_window(20.0, 1e-3);
            sim.add_obstacle(&vertices, &triangles).unwrap();
        }
        let goals = press_crowd(&mut sim);
        let boxes = if as_box { vec![solid] } else { Vec::new() };
        let smallest = fly(&mut sim, &goals, 160, &boxes);
        assert!(smallest >= -1e-3, "box {as_box}: safe mode took an agent {:.5} m inside the wall", -smallest);
    }
}

#[test]
fn an_agent_placed_inside_a_box_leaves_it_through_the_nearest_face() {
    // Boxes are solid (a mesh is only a surface): 0.5 m inside the face x = 4 of a box, the
    // agent must leave along +x, at up to its max speed, and then stay out.
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    let solid = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, 20.0, 20.0));
    sim.add_box_obstacle(solid.0, solid.1).unwrap();
    let id = sim.add_agent(Vec3::new(3.5, 10.0, 10.0)).unwrap();
    for _ in 0..40 {
        sim.set_agent_pref_velocity(id, Vec3::ZERO).unwrap();
        sim.step();
    }
    let p = sim.agent_position(id).unwrap();
    assert!((p.y, p.z) == (10.0, 10.0) && p.x >= 4.0 + 1.5 - 1e-3, "{p}");
    assert!(min_clearance(&sim, &[solid]) >= -1e-3);
}
