//! Built-in scenes: small, self-contained, for trying the viewer and for its tests.
//!
//! They follow RVO2's example programs (Circle, Blocks) so that what the viewer shows can be
//! compared with what RVO2's examples do; the CLI's scenarios replace them for real use.
//! [`towers`] (drones through a field of towers) is shared with `swerve towers`, which runs
//! the same scene from the command line.

use crate::{BallScene, LiveScene, Orca3dScene, OrcaScene, SphereScenarioScene, SphereScene, ViewerError};
use swerve::orca3d::{AgentParams as AgentParams3d, Extensions, Simulator as Simulator3d, Vec3};
use swerve::physics::scene::{ball_pit, seed_scene};
use swerve::physics::BroadPhaseKind;
use swerve::physics3d::scene::sphere_pit;
use swerve::physics3d::{BroadPhaseKind as BroadPhaseKind3d, World as World3d};
use swerve::reference::preferred_velocity_toward3d;
use swerve::scenario::SphereScenario;
use swerve::{AgentParams, Simulator, Vec2};

/// The names [`by_name`] knows. (`swerve serve --scene sphere3d`, RVO2-3D's Sphere example,
/// is built by the CLI, which owns that example's setup; any [`crate::Orca3dScene`] shows the
/// same way.)
pub const NAMES: [&str; 8] =
    ["circle", "crossing", "obstacles", "balls", "ball-pit", "pit3d", "hourglass3d", "towers3d"];

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
        "towers3d" => Box::new(towers3d(count.unwrap_or(TOWERS_AGENTS))?),
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

// ----- towers3d: drones through a field of towers (3-D crowd with static obstacles) -----

/// How many drones [`towers3d`] and `swerve towers` fly by default.
pub const TOWERS_AGENTS: usize = 200;

/// The most drones [`towers`] builds. The block of air, and with it the number of towers,
/// grows with the crowd; `swerve towers` checks every drone against every tower each step
/// for its clearance metric.
pub const MAX_TOWERS_AGENTS: usize = 10_000;

/// The seed of the towers' heights.
pub const TOWERS_SEED: u64 = 2_024;

/// The drones' obstacle time horizon in [`towers3d`] and `swerve towers` by default (s): they
/// see a wall 7.5 m ahead (radius + max speed × horizon), and the inspector shows its plane.
///
/// Measured with `swerve towers --obstacle-horizon H` (200 drones): with each tower one plane
/// (through the box's nearest point) the horizon hardly matters: from 1 to 10 s every drone
/// got through, the last after 304 to 333 s. With a tower's 12 triangles giving a plane each
/// (as the same box added as a mesh would), 1 to 5 s brought every drone through (the last
/// after 340 to 435 s), but with 10 s only 175 of 200 had arrived after 500 s, held back in
/// the streets by the conservative planes of the corners ahead.
pub const TOWERS_OBSTACLE_HORIZON: f32 = 3.0;

/// A tower's square footprint (m).
const TOWER_SIDE: f32 = 10.0;
/// The street between two towers (m: four drone diameters).
const TOWER_STREET: f32 = 12.0;
/// The towers' heights (m): uniform between these, so that some are lower than the drones'
/// rows (flown over) and some higher (flown around).
const TOWER_HEIGHTS: (f32, f32) = (10.0, 46.0);
/// The distance between neighbouring drones in a street's column of goals, across and up (m:
/// four radii).
const TOWER_AGENT_SPACING: f32 = 6.0;
/// The height of the lowest row of drones (m above the floor).
const TOWER_LOWEST_ROW: f32 = 5.0;
/// About how far the drones' lines turn from the x axis (degrees); the sideways shift is
/// rounded to whole tower pitches.
const TOWER_FLIGHT_ANGLE: f32 = 30.0;

/// Drones through a field of towers: `swerve towers` and `swerve serve --scene towers3d`.
#[derive(Clone, Debug)]
pub struct Towers {
    /// The crowd ([`swerve::orca3d::Simulator`], RVO2-3D's Sphere example's agents and time
    /// step) with the floor (obstacle 0) and the towers as static obstacles.
    pub sim: Simulator3d,
    /// Each drone's goal, in agent order: across the block from its start.
    pub goals: Vec<Vec3>,
    /// The towers' boxes (min and max corner, m), in obstacle order after the floor.
    pub towers: Vec<(Vec3, Vec3)>,
    /// The floor's corners, in order round it (m; at z = 0).
    pub floor: [Vec3; 4],
    /// The middle of the drones' starts and goals (m).
    pub centre: Vec3,
    /// The radius of a sphere about `centre` holding the drones' starts and goals and the
    /// towers (m; the floor reaches a little beyond).
    pub radius: f32,
}

/// Drones through a field of towers: `agents` drones (2 to [`MAX_TOWERS_AGENTS`]) start on the
/// west and east faces of a block of air, half on each, and fly to the opposite face, each
/// along a straight line turned about 30° north of the x axis, so that the two halves cross
/// in an X. Their way lies through a grid of box towers
/// ([`swerve::orca3d::Simulator::add_box_obstacle`]) of varied heights with 12 m streets
/// between them, over a floor: the drones fly over the low towers and between the high ones.
/// RVO2-3D's Sphere example's parameters (radius 1.5 m, max speed 2 m/s, time horizon 10 s,
/// 0.125 s a step), an obstacle time horizon of `obstacle_horizon` seconds, `extensions` as
/// given.
///
/// **Why every drone gets through.** ORCA steers locally: a drone whose preferred velocity
/// points into a wall slides along it, toward the point of the wall's plane straight in front
/// of its goal. Where that point lies on the wall, the drone stops there, pressed against it
/// (a local minimum no local planner escapes). Goals are therefore put where no wall has such
/// a point: at x = ±L, beyond the towers (no north, south or roof face lies in front of
/// them), and in the street columns (no west or east face lies in front of them either: the
/// walls across a street's line end at its corners, where a drone slides round). The lines
/// meet the walls about 30° or 60° off their normals, so the sliding is quick.
pub fn towers(agents: usize, extensions: Extensions, obstacle_horizon: f32) -> Result<Towers, ViewerError> {
    if !(2..=MAX_TOWERS_AGENTS).contains(&agents) {
        return Err(ViewerError::InvalidScene(format!(
            "the towers3d scene needs at least 2 drones and holds at most {MAX_TOWERS_AGENTS}, asked for {agents}"
        )));
    }
    if !(obstacle_horizon.is_finite() && obstacle_horizon > 0.0) {
        return Err(ViewerError::InvalidScene(format!(
            "the obstacle time horizon must be a positive number of seconds, got {obstacle_horizon}"
        )));
    }
    let mut sim = Simulator3d::new(0.125, AgentParams3d::default())?;
    sim.set_extensions(extensions)?;
    let pitch = TOWER_SIDE + TOWER_STREET;
    let spacing = TOWER_AGENT_SPACING;
    // Per face: columns of goals, two per street (half a spacing either side of its middle),
    // and rows up, 6 m apart; about twice as many columns as rows, so that the face (11 m of
    // width a column) is some four times wider than high.
    let per_face = agents.div_ceil(2);
    let rows = ((per_face as f32 / 2.0).sqrt().round() as usize).max(1);
    let columns = per_face.div_ceil(rows);
    let streets = columns.div_ceil(2);
    let width = streets as f32 * pitch;
    // Half the block's length, a whole number of pitches: the start faces in the middle of a
    // north–south street, at least three pitches out, and the block about as long as the
    // face is wide.
    let half_pitches = ((width / 2.0 / pitch).round() as usize).max(3);
    let half_length = half_pitches as f32 * pitch;
    // The sideways shift from start to goal, a whole number of pitches (so that the starts
    // are in the street columns too): the lines turn about TOWER_FLIGHT_ANGLE.
    let shift = (2.0 * half_length * TOWER_FLIGHT_ANGLE.to_radians().tan() / pitch).round().max(1.0) * pitch;
    // Street middles at y = pitch × k; the goals' streets centred on y = 0 (to half a pitch).
    let first_street = -((streets as f32 - 1.0) / 2.0).floor();
    let mut goals = Vec::with_capacity(agents);
    for k in 0..agents {
        // West-to-east drones first, then east-to-west ones half a spacing higher.
        let (west, k) = if k < per_face { (true, k) } else { (false, k - per_face) };
        let (row, column) = (k / columns, k % columns);
        let street = first_street + (column / 2) as f32;
        let y = street * pitch + if column % 2 == 0 { -spacing / 2.0 } else { spacing / 2.0 };
        let z = TOWER_LOWEST_ROW + row as f32 * spacing + if west { 0.0 } else { spacing / 2.0 };
        let side = if west { 1.0 } else { -1.0 };
        let goal = Vec3::new(side * half_length, y, z);
        let id = sim.add_agent(Vec3::new(-side * half_length, y - shift, z))?;
        sim.set_agent_obstacle_time_horizon(id, obstacle_horizon)?;
        goals.push(goal);
    }
    // The block's footprint: a parallelogram, the goals' streets at x = ±L and the starts'
    // `shift` to the south at x = ∓L. Its middle line at x is `slant(x)` north of y = 0.
    let (south, north) = (first_street * pitch - pitch / 2.0, (first_street + streets as f32) * pitch - pitch / 2.0);
    let slant = |x: f32| -shift * (half_length - x) / (2.0 * half_length);
    // The floor: the footprint and a margin, as two triangles.
    let floor_x = half_length + 12.0;
    let corners = [
        Vec3::new(-floor_x, south - 12.0 + slant(-floor_x), 0.0),
        Vec3::new(floor_x, south - 12.0 + slant(floor_x), 0.0),
        Vec3::new(floor_x, north + 12.0 + slant(floor_x), 0.0),
        Vec3::new(-floor_x, north + 12.0 + slant(-floor_x), 0.0),
    ];
    sim.add_obstacle(&corners, &[[0, 1, 2], [0, 2, 3]])?;
    // Towers on the grid (street middles at multiples of the pitch), within the footprint and
    // between the start faces, which lie in the middle of the next north–south streets out:
    // the drones start 6 m from the outer walls (4.5 m clear).
    let mut towers = Vec::new();
    // Casts: grid indices within the footprint, small integers.
    let columns_out = half_pitches as i64;
    let (lowest, highest) = (((south - shift) / pitch).floor() as i64 - 1, (north / pitch).ceil() as i64 + 1);
    for i in -columns_out..columns_out {
        for j in lowest..highest {
            let centre = Vec3::new((i as f32 + 0.5) * pitch, (j as f32 + 0.5) * pitch, 0.0);
            let middle = centre.y - slant(centre.x);
            if middle < south || middle > north {
                continue;
            }
            let (low, high) = TOWER_HEIGHTS;
            let height = low + (high - low) * unit_hash(TOWERS_SEED, i, j);
            let half = Vec3::new(TOWER_SIDE / 2.0, TOWER_SIDE / 2.0, 0.0);
            let (min, max) = (centre - half, centre + half + Vec3::Z * height);
            sim.add_box_obstacle(min, max)?;
            towers.push((min, max));
        }
    }
    let ends = sim.positions().iter().chain(&goals);
    let centre = ends.clone().fold(Vec3::ZERO, |sum, p| sum + *p) / (2 * agents) as f32;
    let corners_of = |&(min, max): &(Vec3, Vec3)| {
        (0..8).map(move |k| Vec3::select(glam::BVec3::new(k & 1 != 0, k & 2 != 0, k & 4 != 0), max, min))
    };
    let radius =
        ends.copied().chain(towers.iter().flat_map(corners_of)).map(|p| p.distance(centre)).fold(0.0, f32::max);
    Ok(Towers { sim, goals, towers, floor: corners, centre, radius })
}

/// `towers3d`: [`towers`] with `agents` drones, no extensions and the obstacle time horizon
/// [`TOWERS_OBSTACLE_HORIZON`], flying by RVO2-3D's examples' rule
/// ([`preferred_velocity_toward3d`]: toward the goal at 1 m/s, slowing down within 1 m of it).
pub fn towers3d(agents: usize) -> Result<Orca3dScene, ViewerError> {
    let scene = towers(agents, Extensions::default(), TOWERS_OBSTACLE_HORIZON)?;
    let name = format!("towers3d ({agents} drones through {} towers)", scene.towers.len());
    Orca3dScene::new(name, scene.sim, scene.goals, preferred_velocity_toward3d)
}

/// A number in [0, 1) from a seed and a grid cell (SplitMix64's finaliser).
fn unit_hash(seed: u64, i: i64, j: i64) -> f32 {
    // Casts: the cell's indices as bit patterns, mixed, then the top 24 bits as a fraction.
    let mut z = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (j as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
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
    fn towers_keep_the_drones_clear_and_their_goals_off_every_wall() {
        let scene = towers(40, Extensions::default(), TOWERS_OBSTACLE_HORIZON).unwrap();
        let sim = &scene.sim;
        assert_eq!((sim.num_agents(), scene.goals.len()), (40, 40));
        // The floor first, then one box (12 triangles) per tower.
        let meshes: Vec<usize> = sim.obstacles().map(|(_, mesh)| mesh.len()).collect();
        assert_eq!(meshes.len(), 1 + scene.towers.len());
        assert!(scene.towers.len() >= 10, "{} towers", scene.towers.len());
        assert!(meshes[0] == 2 && meshes[1..].iter().all(|&m| m == 12), "{meshes:?}");
        let radius = sim.agent_defaults().radius;
        let clearance = |p: Vec3| {
            let p = p.as_dvec3();
            sim.obstacles().flat_map(|(_, mesh)| mesh).map(|t| t.closest_point(p).distance(p)).fold(f64::MAX, f64::min)
        };
        for (start, goal) in sim.positions().iter().zip(&scene.goals) {
            // Starts and goals well clear of every triangle, at the block's two ends.
            assert!(clearance(*start) > f64::from(radius) + 3.0 && clearance(*goal) > f64::from(radius) + 3.0);
            assert_eq!(start.x, -goal.x);
            assert!(scene.centre.distance(*start) <= scene.radius && scene.centre.distance(*goal) <= scene.radius);
            // No wall has a point straight in front of a goal (see `towers`): beyond every
            // tower in x, and in a street (outside every tower's y range) in y.
            for &(min, max) in &scene.towers {
                assert!(goal.x.abs() >= max.x.abs().max(min.x.abs()) + TOWER_STREET / 2.0);
                assert!(goal.y < min.y - radius || goal.y > max.y + radius, "goal {goal} behind tower {min}..{max}");
            }
        }
        // Starting pairs at least two radii apart.
        let p = sim.positions();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                assert!(p[i].distance(p[j]) >= 2.0 * radius, "{} {}", p[i], p[j]);
            }
        }
        assert!(towers(1, Extensions::default(), 3.0).is_err());
        assert!(towers(MAX_TOWERS_AGENTS + 1, Extensions::default(), 3.0).is_err());
        let Err(error) = towers(10, Extensions::default(), -1.0) else { panic!("a negative horizon was taken") };
        assert!(error.to_string().contains("obstacle time horizon"), "{error}");
    }

    #[test]
    fn towers3d_shows_obstacle_planes_to_the_drones_near_a_tower() {
        let mut scene = by_name("towers3d", Some(40)).unwrap();
        assert!(scene.is_3d() && scene.name().starts_with("towers3d (40 drones"));
        for _ in 0..400 {
            scene.step();
        }
        let sim = scene.simulator3d().unwrap();
        // A wall's plane is (nearly) vertical, the floor's horizontal.
        let near_a_wall = |id: &&swerve::AgentId| {
            let count = sim.agent_obstacle_plane_count(**id).unwrap();
            sim.agent_planes(**id).unwrap()[..count].iter().any(|p| p.normal.z.abs() < 0.5)
        };
        let near_a_tower = sim.agent_ids().iter().filter(near_a_wall).count();
        assert!(near_a_tower > 0, "no drone has a wall's plane after 50 s");
        assert!(by_name("towers3d", Some(1)).is_err());
    }

    #[test]
    fn counts_past_the_limits_are_refused_before_anything_is_allocated() {
        // A trillion would abort the process if anything were allocated for it first.
        for (name, max) in [
            ("circle", MAX_AGENTS),
            ("crossing", MAX_AGENTS),
            ("ball-pit", MAX_PIT_BALLS),
            ("pit3d", MAX_PIT3D_SPHERES),
            ("towers3d", MAX_TOWERS_AGENTS),
        ] {
            for n in [max + 1, 1_000_000_000_000] {
                let Err(error) = by_name(name, Some(n)) else { panic!("{name} built {n}") };
                let message = error.to_string();
                assert!(message.contains(&format!("at most {max}")) && !message.contains('\n'), "{message}");
            }
        }
    }
}
