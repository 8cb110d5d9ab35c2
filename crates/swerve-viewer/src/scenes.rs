//! Built-in scenes: small, self-contained, for trying the viewer and for its tests.
//!
//! They follow RVO2's example programs (Circle, Blocks) so that what the viewer shows can be
//! compared with what RVO2's examples do; the CLI's scenarios replace them for real use.

use crate::{BallScene, LiveScene, OrcaScene, SphereScenarioScene, SphereScene, ViewerError};
use swerve::orca3d::Vec3;
use swerve::physics::scene::{ball_pit, seed_scene};
use swerve::physics::BroadPhaseKind;
use swerve::physics3d::scene::sphere_pit;
use swerve::physics3d::{BroadPhaseKind as BroadPhaseKind3d, World as World3d};
use swerve::scenario::SphereScenario;
use swerve::{AgentParams, Simulator, Vec2};

/// The names [`by_name`] knows. (`swerve serve --scene sphere3d`, RVO2-3D's Sphere example,
/// is built by the CLI, which owns that example's setup; any [`crate::Orca3dScene`] shows the
/// same way.)
pub const NAMES: [&str; 7] = ["circle", "crossing", "obstacles", "balls", "ball-pit", "pit3d", "hourglass3d"];

/// The most spheres [`pit3d`] builds (the CLI's `swerve pit3d` limit).
pub const MAX_PIT3D_SPHERES: usize = 1_000_000;

/// The seed of the ball scenes' random placement.
pub const BALL_SEED: u64 = 2003;

/// The most agents [`circle`] and [`crossing`] build. Served, a million agents held about
/// 930 MB (peak resident size of `swerve serve --scene circle --count 1000000` after 15 s of
/// running: ~930 bytes an agent), so this is about 2 GB; far larger counts ended in an
/// out-of-memory abort instead of an error.
pub const MAX_AGENTS: usize = 2_000_000;

/// The most balls [`pit`] builds. Served, a million balls held about 170 MB (peak resident
/// size, measured as for [`MAX_AGENTS`]: ~170 bytes a ball), so this is about 2 GB too.
pub const MAX_PIT_BALLS: usize = 10_000_000;

/// An error unless `n` is at most `max` (`scene` and `discs` name the scene and what it holds).
fn check_count(scene: &str, discs: &str, n: usize, max: usize) -> Result<(), ViewerError> {
    if n > max {
        return Err(ViewerError::InvalidScene(format!("the {scene} scene holds at most {max} {discs}, asked for {n}")));
    }
    Ok(())
}

/// A built-in scene by name (one of [`NAMES`]), with `count` agents or balls where the scene
/// lets the count vary (`None`: its usual size).
pub fn by_name(name: &str, count: Option<usize>) -> Result<Box<dyn LiveScene>, ViewerError> {
    Ok(match name {
        "circle" => Box::new(circle(count.unwrap_or(250))?),
        "crossing" => Box::new(crossing(count.unwrap_or(1000))?),
        "obstacles" => match count {
            None => Box::new(obstacles()?),
            Some(_) => {
                return Err(ViewerError::InvalidScene("the obstacles scene has a fixed number of agents".into()))
            }
        },
        "balls" => Box::new(balls(count.unwrap_or(400))?),
        "ball-pit" => Box::new(pit(count.unwrap_or(2000))?),
        "pit3d" => Box::new(pit3d(count.unwrap_or(2000))?),
        "hourglass3d" => match count {
            None => Box::new(hourglass3d()?),
            Some(_) => {
                return Err(ViewerError::InvalidScene(
                    "the hourglass3d scene has a fixed number of spheres (its scenario file's)".into(),
                ))
            }
        },
        other => {
            return Err(ViewerError::InvalidScene(format!("unknown scene {other:?}; known: {}", NAMES.join(", "))))
        }
    })
}

/// A pour in three dimensions ([`swerve::physics3d`]): `n` unit spheres of the sphere pit
/// ([`swerve::physics3d::scene::sphere_pit`], 10 % of a cubic box, random speeds up to
/// 10 m/s) fall under gravity (9.81 m/s² along −z) with friction 0.5 and restitution 0.3,
/// and pile up on the floor; 60 steps per simulated second, uniform-grid broad phase. At
/// least 1, at most [`MAX_PIT3D_SPHERES`].
pub fn pit3d(n: usize) -> Result<SphereScene, ViewerError> {
    check_count("pit3d", "spheres", n, MAX_PIT3D_SPHERES)?;
    if n == 0 {
        return Err(ViewerError::InvalidScene("the pit3d scene needs at least 1 sphere".into()));
    }
    let setup = sphere_pit(n, 0.1, BALL_SEED);
    let dt = setup.dt;
    let build = move || {
        let mut world = World3d::new(Some(setup.bounds), BroadPhaseKind3d::UniformGrid)?;
        for s in &setup.spheres {
            world.add_sphere(s.with_friction(0.5).with_restitution(0.3))?;
        }
        world.set_gravity(Vec3::new(0.0, 0.0, -9.81))?;
        Ok(world)
    };
    SphereScene::new(format!("pit3d ({n} spheres poured under gravity)"), dt, Box::new(build))
}

/// The built-in 3-D scenario `hourglass3d` (`scenarios/hourglass3d.toml`): 600 rough spheres
/// pour through a funnel of static triangles onto a tilted plate.
pub fn hourglass3d() -> Result<SphereScenarioScene, ViewerError> {
    SphereScenarioScene::new(SphereScenario::builtin("hourglass3d")?)
}

/// Seed 003's experiment: `n` balls (at most 1,800) of radius 10–15 bouncing in an 1800 × 900
/// box (one step = one time unit, as in the seed), with a uniform grid broad phase.
pub fn balls(n: usize) -> Result<BallScene, ViewerError> {
    check_count("balls", "balls", n, 1800)?;
    BallScene::new(format!("balls (seed 003, {n} balls)"), seed_scene(n, BALL_SEED), BroadPhaseKind::UniformGrid)
}

/// The ball pit: `n` unit balls covering 10% of a square box, 60 steps per simulated second,
/// with a sort-and-sweep broad phase. At most [`MAX_PIT_BALLS`].
pub fn pit(n: usize) -> Result<BallScene, ViewerError> {
    check_count("ball-pit", "balls", n, MAX_PIT_BALLS)?;
    BallScene::new(format!("ball pit ({n} balls)"), ball_pit(n, BALL_SEED), BroadPhaseKind::SortAndSweep)
}

/// RVO2's Circle example: `n` agents evenly on a ring walk to the antipodal point. The ring's
/// radius grows with `n` (200 m for RVO2's 250 agents) so that the start spacing stays 5 m.
/// At most [`MAX_AGENTS`].
pub fn circle(n: usize) -> Result<OrcaScene, ViewerError> {
    check_count("circle", "agents", n, MAX_AGENTS)?;
    let mut sim = Simulator::new(0.25, AgentParams::default())?;
    let ring = (200.0 * n as f32 / 250.0).max(20.0);
    let mut goals = Vec::with_capacity(n);
    for i in 0..n {
        let angle = i as f32 * std::f32::consts::TAU / n as f32;
        let position = ring * Vec2::new(angle.cos(), angle.sin());
        sim.add_agent(position)?;
        goals.push(-position);
    }
    OrcaScene::new(format!("circle ({n} agents)"), sim, goals)
}

/// Four square blocks of agents, one per quadrant, each moving as a block to the opposite
/// quadrant (goal = start − 2 × block centre): the four blocks meet and pass through each
/// other in the middle. `n` agents in all (5 m spacing, RVO2 Circle parameters); this is the
/// scene of the 10,000-agent frame-rate measurement. At most [`MAX_AGENTS`].
pub fn crossing(n: usize) -> Result<OrcaScene, ViewerError> {
    check_count("crossing", "agents", n, MAX_AGENTS)?;
    let mut sim = Simulator::new(0.25, AgentParams::default())?;
    let per_block = n.div_ceil(4);
    let side = (per_block as f64).sqrt().ceil() as usize;
    let centre = 20.0 + 2.5 * (side as f32 - 1.0);
    let quadrants = [Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0), Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0)];
    let mut goals = Vec::with_capacity(n);
    'fill: for k in 0..per_block {
        let (i, j) = (k % side, k / side);
        for q in quadrants {
            if goals.len() == n {
                break 'fill;
            }
            let position = q * Vec2::new(20.0 + 5.0 * i as f32, 20.0 + 5.0 * j as f32);
            sim.add_agent(position)?;
            goals.push(position - 2.0 * centre * q);
        }
    }
    OrcaScene::new(format!("crossing ({n} agents)"), sim, goals)
}

/// A four-way crossing between RVO2's Blocks obstacles: four squads of 5 × 5 agents start in
/// the corridors between the four square obstacles and walk to their mirror images through
/// the origin, so they meet in the middle. They start within the obstacle range (obstacle
/// time horizon × max speed + radius = 12 m), so agents have obstacle half-planes from the
/// first step on.
pub fn obstacles() -> Result<OrcaScene, ViewerError> {
    // RVO2 Blocks: setAgentDefaults(15, 10, 5, 5, 2, 2) with time step 0.25.
    let params = AgentParams {
        neighbor_dist: 15.0,
        max_neighbors: 10,
        time_horizon: 5.0,
        time_horizon_obst: 5.0,
        radius: 2.0,
        max_speed: 2.0,
    };
    let mut sim = Simulator::new(0.25, params)?;
    let mut goals = Vec::new();
    for i in 0..5 {
        for j in 0..5 {
            // Along the corridor: 45 m to 69 m out; across it: -9 m to 9 m (4.5 m > 2 radii).
            let (along, across) = (45.0 + 6.0 * i as f32, -9.0 + 4.5 * j as f32);
            for position in [
                Vec2::new(along, across),
                Vec2::new(-across, along),
                Vec2::new(-along, -across),
                Vec2::new(across, -along),
            ] {
                sim.add_agent(position)?;
                goals.push(-position);
            }
        }
    }
    // RVO2 Blocks' obstacles, counter-clockwise (solid).
    let square = [Vec2::new(-10.0, 40.0), Vec2::new(-40.0, 40.0), Vec2::new(-40.0, 10.0), Vec2::new(-10.0, 10.0)];
    for mirror in [Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0), Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0)] {
        let mut polygon: Vec<Vec2> = square.iter().map(|v| *v * mirror).collect();
        // Mirroring in one axis reverses the winding; restore counter-clockwise order.
        if mirror.x * mirror.y < 0.0 {
            polygon.reverse();
        }
        sim.add_obstacle(&polygon)?;
    }
    OrcaScene::new("obstacles (crossing between RVO2 Blocks obstacles, 100 agents)", sim, goals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LiveScene;
    use swerve::geom::Winding;

    #[test]
    fn sizes_are_as_asked() {
        for n in [1, 3, 4, 5, 250, 1001] {
            assert_eq!(crossing(n).unwrap().simulator().unwrap().num_agents(), n);
            assert_eq!(circle(n).unwrap().goals().len(), n);
        }
    }

    #[test]
    fn obstacles_are_solid_and_agents_start_within_obstacle_range() {
        let mut scene = obstacles().unwrap();
        let sim = scene.simulator().unwrap();
        assert_eq!(sim.obstacle_polygons().len(), 4);
        for polygon in sim.obstacle_polygons() {
            assert_eq!(Winding::of(polygon), Winding::CounterClockwise);
        }
        scene.step();
        let sim = scene.simulator().unwrap();
        let with_obstacle_planes =
            sim.agent_ids().iter().filter(|id| sim.agent_obstacle_half_plane_count(**id).unwrap() > 0).count();
        assert!(with_obstacle_planes > 0, "no agent sees an obstacle after one step");
    }

    #[test]
    fn unknown_names_are_refused_with_the_known_ones_listed() {
        let Err(error) = by_name("nope", None) else { panic!("an unknown scene was built") };
        let message = error.to_string();
        assert!(message.contains("circle") && message.contains("obstacles"), "{message}");
        assert!(by_name("obstacles", Some(3)).is_err());
        assert!(by_name("balls", Some(5000)).is_err());
        assert_eq!(by_name("ball-pit", Some(30)).unwrap().world().unwrap().balls().len(), 30);
    }

    #[test]
    fn scenes_in_3d_are_built_and_checked() {
        let pit = by_name("pit3d", Some(50)).unwrap();
        assert!(pit.is_3d() && pit.simulator().is_none() && pit.world().is_none());
        assert_eq!(pit.world3d().unwrap().num_spheres(), 50);
        assert!(by_name("pit3d", Some(0)).is_err());
        let hourglass = by_name("hourglass3d", None).unwrap();
        assert!(hourglass.world3d().unwrap().triangles().len() >= 9);
        let Err(error) = by_name("hourglass3d", Some(10)) else { panic!("hourglass3d took a count") };
        assert!(error.to_string().contains("fixed number"), "{error}");
        let Err(error) = by_name("pit4d", None) else { panic!("an unknown scene was built") };
        assert!(error.to_string().contains("pit3d") && error.to_string().contains("hourglass3d"), "{error}");
    }

    #[test]
    fn counts_past_the_limits_are_refused_before_anything_is_allocated() {
        // A trillion would abort the process if anything were allocated for it first.
        for (name, max) in [
            ("circle", MAX_AGENTS),
            ("crossing", MAX_AGENTS),
            ("ball-pit", MAX_PIT_BALLS),
            ("pit3d", MAX_PIT3D_SPHERES),
        ] {
            for n in [max + 1, 1_000_000_000_000] {
                let Err(error) = by_name(name, Some(n)) else { panic!("{name} built {n}") };
                let message = error.to_string();
                assert!(message.contains(&format!("at most {max}")) && !message.contains('\n'), "{message}");
            }
        }
    }
}
