//! Obstacles removed during a run (`remove_at` on an `[[obstacles]]` entry): the reader reports
//! bad values at their line and key, the runner removes at the documented step exactly as a
//! hand-written loop over the simulator does (bit for bit), metrics and the scene description
//! follow the removal, and the `door` built-in keeps its crowd behind the door until it opens.

use swerve::reference::preferred_velocity_toward;
use swerve::scenario::trajectory::SceneInfo;
use swerve::scenario::{Format, ObstacleRemoval, ObstacleSpec, Problem, Runner, Scenario};
use swerve::{Simulator, Vec2};

fn has(problems: &[Problem], line: usize, key: &str, message_part: &str) -> bool {
    problems.iter().any(|p| p.line == Some(line) && p.key == key && p.message.contains(message_part))
}

const BAD: &str = r#"name = "bad-removals"
time_step = 0.1
steps = 10

[[agents]]
position = [-3.0, 0.0]

[[obstacles]]
vertices = [[0.0, -1.0], [0.0, 1.0]]
remove_at = -1.0

[[obstacles]]
vertices = [[1.0, -1.0], [1.0, 1.0]]
remove_at = inf

[[obstacles]]
vertices = [[2.0, -1.0], [2.0, 1.0]]
remove_at = "soon"

[[obstacles]]
vertices = [[3.0, -1.0], [3.0, 1.0]]
remove_at = nan

[[obstacles]]
vertices = [[4.0, -1.0], [4.0, 1.0]]
remove_after = 2.0
"#;

#[test]
fn bad_removal_times_are_problems_at_their_line_and_key() {
    let problems = Scenario::parse(BAD, Format::Toml).unwrap_err();
    let listing: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(has(&problems, 10, "obstacles[0].remove_at", "must be at least 0, got -1"), "{listing:#?}");
    assert!(has(&problems, 14, "obstacles[1].remove_at", "must be a finite number"), "{listing:#?}");
    assert!(has(&problems, 18, "obstacles[2].remove_at", "expected a number, found"), "{listing:#?}");
    assert!(has(&problems, 22, "obstacles[3].remove_at", "must be a finite number"), "{listing:#?}");
    assert!(has(&problems, 26, "obstacles[4].remove_after", "expected one of: vertices, remove_at"), "{listing:#?}");
    assert_eq!(problems.len(), 5, "{listing:#?}");
}

/// A ball rolling at a door (a wall at x = 1, before a wall that stays at x = 0): the door's
/// removal takes it away for the balls too, at the same step as for the crowd.
const BALL_AT_A_DOOR: &str = r#"name = "ball-and-door"
time_step = 0.1
steps = 40

[[agents]]
position = [-3.0, 5.0]

[[obstacles]]
vertices = [[0.0, -1.0], [0.0, 1.0]]

[[obstacles]]
vertices = [[1.0, -1.0], [1.0, 1.0]]
remove_at = 2.0

[balls]
[[balls.ball]]
position = [3.0, 0.0]
velocity = [-1.0, 0.0]
radius = 0.5
"#;

/// The smallest x the ball reaches over the run, and the world's segments at the end.
fn ball_run(text: &str) -> (f32, usize) {
    let mut runner = Runner::new(&Scenario::parse(text, Format::Toml).unwrap()).unwrap();
    let mut lowest = f32::INFINITY;
    while !runner.is_finished() {
        runner.step();
        lowest = lowest.min(runner.world().unwrap().balls()[0].position.x);
    }
    (lowest, runner.world().unwrap().segments().len())
}

#[test]
fn a_removed_obstacle_is_gone_for_the_balls_too() {
    // The door goes at 2 s; the ball meets it at 1.5 s (its surface at x = 1): it bounces.
    let (lowest, segments) = ball_run(BALL_AT_A_DOOR);
    assert!((lowest - 1.5).abs() < 1e-3, "bounced off the door at x = 1.5, reached {lowest}");
    assert_eq!(segments, 1, "only the wall that stays is left");
    // The door gone at 1 s, before the ball comes: it rolls on to the wall at x = 0.
    let (lowest, segments) = ball_run(&BALL_AT_A_DOOR.replace("remove_at = 2.0", "remove_at = 1.0"));
    assert!((lowest - 0.5).abs() < 1e-3, "bounced off the wall at x = 0.5, reached {lowest}");
    assert_eq!(segments, 1);
    // A door that stays.
    let (lowest, segments) = ball_run(&BALL_AT_A_DOOR.replace("remove_at = 2.0\n", ""));
    assert!((lowest - 1.5).abs() < 1e-3, "{lowest}");
    assert_eq!(segments, 2);
    // The door first and the wall removed: the right segment goes (the door's edge stays).
    let swapped = BALL_AT_A_DOOR
        .replace("remove_at = 2.0\n", "")
        .replace("vertices = [[0.0, -1.0], [0.0, 1.0]]", "vertices = [[0.0, -1.0], [0.0, 1.0]]\nremove_at = 0.5");
    let mut runner = Runner::new(&Scenario::parse(&swapped, Format::Toml).unwrap()).unwrap();
    for _ in 0..10 {
        runner.step();
    }
    let left: Vec<_> = runner.world().unwrap().segments().iter().map(|s| (s.a, s.b)).collect();
    assert_eq!(left, [(Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0))]);
}

#[test]
fn the_removal_step_is_the_first_starting_at_or_after_the_time() {
    let spec = |remove_at: f32| ObstacleSpec { vertices: vec![[0.0, 0.0], [1.0, 0.0]], remove_at: Some(remove_at) };
    // (remove_at, time step, step): decimal times land on the step they name.
    for (at, dt, step) in [
        (0.0, 0.1, 0),
        (0.05, 0.1, 1),
        (0.1, 0.1, 1),
        (0.3, 0.1, 3),
        (0.31, 0.1, 4),
        (6.0, 0.1, 60),
        (12.5, 0.1, 125),
        (1.0, 0.25, 4),
        (1.01, 0.25, 5),
        (1000.0, 0.01, 100_000),
    ] {
        assert_eq!(spec(at).removal_step(dt), Some(step), "remove_at {at} with steps of {dt} s");
    }
    assert_eq!(ObstacleSpec { vertices: vec![], remove_at: None }.removal_step(0.1), None);
}

/// Three agents walking through a door (removed at 0.75 s: step 8 of 0.1 s steps) past a
/// post that goes at time 0, beside a wall that stays.
const THROUGH: &str = r#"name = "through"
time_step = 0.1
steps = 80

[agent_defaults]
radius = 0.4
max_speed = 1.5
neighbor_dist = 5.0
time_horizon = 2.0
time_horizon_obst = 1.0

[[agents]]
position = [-1.2, 0.3]
goal = [6.0, 0.3]
[[agents]]
position = [-2.5, -0.6]
goal = [6.0, -0.6]
[[agents]]
position = [-3.5, 1.0]
goal = [6.0, 0.5]

[[obstacles]]   # a wall that stays
vertices = [[-5.0, 3.0], [5.0, 3.0], [5.0, 3.5], [-5.0, 3.5]]
[[obstacles]]   # the door
vertices = [[0.0, -2.5], [0.0, 2.5]]
remove_at = 0.75
[[obstacles]]   # a post gone before the first step
vertices = [[2.0, -0.2], [2.4, -0.2], [2.4, 0.2], [2.0, 0.2]]
remove_at = 0.0
"#;

#[test]
fn the_runner_removes_at_its_step_as_a_hand_written_loop_does_bit_for_bit() {
    let scenario = Scenario::parse(THROUGH, Format::Toml).unwrap();
    let door_step = scenario.obstacles[1].removal_step(scenario.time_step).unwrap();
    assert_eq!(door_step, 8);
    let mut runner = Runner::new(&scenario).unwrap();
    // The post goes before anything is observed.
    assert_eq!(runner.obstacle_removals(), [ObstacleRemoval { obstacle: 2, frame: 0, time: 0.0 }]);
    assert_eq!(runner.simulator().obstacle_polygons().len(), 2);

    // The same run by hand: RVO2's loop, with the removals where the format puts them.
    let population = scenario.population().unwrap();
    let mut sim = Simulator::new(scenario.time_step, population.defaults).unwrap();
    let ids: Vec<_> = scenario.obstacle_polygons().iter().map(|polygon| sim.add_obstacle(polygon).unwrap()).collect();
    sim.process_obstacles();
    let goals: Vec<Vec2> = population.agents.iter().map(|a| a.goal).collect();
    for a in &population.agents {
        sim.add_agent_with(a.position, a.setup.params).unwrap();
    }
    sim.remove_obstacle(ids[2]).unwrap();
    let bits = |p: &[Vec2]| p.iter().map(|v| [v.x.to_bits(), v.y.to_bits()]).collect::<Vec<_>>();
    for step in 0..scenario.steps {
        if step == door_step {
            sim.remove_obstacle(ids[1]).unwrap();
        }
        let prefs: Vec<Vec2> =
            sim.positions().iter().zip(&goals).map(|(p, g)| preferred_velocity_toward(*g, *p)).collect();
        sim.set_pref_velocities(&prefs).unwrap();
        sim.step();
        runner.step();
        assert_eq!(bits(runner.simulator().positions()), bits(sim.positions()), "positions after step {step}");
        assert_eq!(bits(runner.simulator().velocities()), bits(sim.velocities()), "velocities after step {step}");
        let expected_obstacles = if step + 1 >= door_step { 1 } else { 2 };
        assert_eq!(runner.simulator().obstacle_polygons().len(), expected_obstacles, "after step {step}");
    }
    let removals = runner.obstacle_removals();
    assert_eq!(removals.len(), 2);
    assert_eq!((removals[1].obstacle, removals[1].frame), (1, door_step));
    assert!((removals[1].time - 0.8).abs() < 1e-5, "{}", removals[1].time);
    // A removal one step later or earlier changes the motion: the test can see it.
    let x_at_door = runner.simulator().positions()[0].x;
    assert!(x_at_door > 2.0, "the first agent went through the doorway: x = {x_at_door}");
}

#[test]
fn the_door_stops_agents_until_its_step() {
    let scenario = Scenario::parse(THROUGH, Format::Toml).unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    let mut first_past = None;
    while !runner.is_finished() {
        runner.step();
        let front = runner.simulator().positions().iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max);
        if runner.steps_done() < 8 {
            // The first agent starts 0.8 m from the door at up to 1.5 m/s: it would be
            // through well before step 8 if the door were gone.
            assert!(
                front <= -0.4 + 1e-3,
                "an agent at x = {front} before the door opened (step {})",
                runner.steps_done()
            );
        } else if first_past.is_none() && front > 0.0 {
            first_past = Some(runner.steps_done());
        }
    }
    // The first agent waits 0.74 m short of the door (its obstacle horizon slows it) and
    // walks at 1 m/s from step 8, the first step without the door: through in step 16.
    assert_eq!(first_past, Some(16));
}

#[test]
fn metrics_stop_counting_a_removed_obstacle() {
    // Agents walk through where the door stood: overlaps with it would count if it stayed in
    // the metrics, and the post (gone at 0 s) lies on the first agent's path.
    let scenario = Scenario::parse(THROUGH, Format::Toml).unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    while !runner.is_finished() {
        runner.step();
    }
    let m = runner.metrics();
    assert_eq!(m.obstacle_overlaps, 0, "{m:?}");
    assert_eq!(m.max_obstacle_penetration, 0.0);

    // An agent standing across a wall that goes at 0 s: never an overlap; the same wall kept
    // for good is one overlap a frame until the agent is pushed off it.
    let standing = |remove: &str| {
        format!(
            "name = \"standing\"\ntime_step = 0.1\nsteps = 3\n[[agents]]\nposition = [0.2, 0.0]\nradius = 0.5\n\
             [[obstacles]]\nvertices = [[0.0, -2.0], [0.0, 2.0]]\n{remove}\n"
        )
    };
    let run = |text: &str| {
        let mut runner = Runner::new(&Scenario::parse(text, Format::Toml).unwrap()).unwrap();
        while !runner.is_finished() {
            runner.step();
        }
        runner.metrics()
    };
    assert_eq!(run(&standing("remove_at = 0.0")).obstacle_overlaps, 0);
    assert!(run(&standing("")).obstacle_overlaps >= 1);
}

#[test]
fn the_scene_description_records_each_removal_and_its_frame() {
    let scenario = Scenario::parse(THROUGH, Format::Toml).unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    for _ in 0..5 {
        runner.step();
    }
    // Before the door's step only the post is recorded.
    let scene = SceneInfo::of_runner(&runner, scenario.time_step);
    assert_eq!(scene.obstacles.len(), 3, "every obstacle of the file, by its index");
    assert_eq!(scene.obstacle_removals.iter().map(|r| (r.obstacle, r.frame)).collect::<Vec<_>>(), [(2, 0)]);
    while !runner.is_finished() {
        runner.step();
    }
    let scene = SceneInfo::of_runner(&runner, scenario.time_step);
    assert_eq!(scene.obstacle_removals.iter().map(|r| (r.obstacle, r.frame)).collect::<Vec<_>>(), [(2, 0), (1, 8)]);
    assert!(scene.obstacle_exists(0, 1_000), "the wall stays");
    assert!(scene.obstacle_exists(1, 7) && !scene.obstacle_exists(1, 8), "the door is in frames 0..8");
    assert!(!scene.obstacle_exists(2, 0), "the post is in no frame");
    // The JSON form carries it, and a scene.json without the key (older runs) still reads.
    let json = serde_json::to_string(&scene).unwrap();
    let back: SceneInfo = serde_json::from_str(&json).unwrap();
    assert_eq!(back, scene);
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value.as_object_mut().unwrap().remove("obstacle_removals");
    let old: SceneInfo = serde_json::from_value(value).unwrap();
    assert!(old.obstacle_removals.is_empty() && old.obstacle_exists(1, 1_000));
}

#[test]
fn removal_times_survive_the_json_form() {
    let scenario = Scenario::parse(THROUGH, Format::Toml).unwrap();
    assert_eq!(scenario.obstacles.iter().map(|o| o.remove_at).collect::<Vec<_>>(), [None, Some(0.75), Some(0.0)]);
    let back = Scenario::from_json_str(&scenario.to_json(), "json").unwrap();
    assert_eq!(back, scenario);
}

#[test]
fn a_roadmap_is_built_again_without_the_removed_obstacle() {
    // Roadmap navigation keeps a vertex at each convex corner; the door's corners go with it.
    let text = THROUGH.replace("steps = 80", "steps = 80\nnavigation = \"roadmap\"").replace(
        "vertices = [[0.0, -2.5], [0.0, 2.5]]",
        "vertices = [[0.0, -2.5], [0.3, -2.5], [0.3, 2.5], [0.0, 2.5]]",
    );
    let scenario = Scenario::parse(&text, Format::Toml).unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    let before = runner.roadmap().unwrap().vertices().len();
    for _ in 0..8 {
        runner.step();
    }
    let after = runner.roadmap().unwrap().vertices().to_vec();
    assert!(after.len() < before, "the door's corner vertices left the roadmap ({before} -> {})", after.len());
    // The same as the roadmap of the scene without the door.
    let without = Scenario::parse(&text.replace("remove_at = 0.75", "remove_at = 0.0"), Format::Toml).unwrap();
    assert_eq!(Runner::new(&without).unwrap().roadmap().unwrap().vertices(), after);
}

#[test]
fn the_door_builtin_holds_its_crowd_until_the_door_opens() {
    let scenario = Scenario::builtin("door").unwrap();
    let door = 2;
    let opens = scenario.obstacles[door].removal_step(scenario.time_step).unwrap();
    assert_eq!(opens, 60);
    let x_door = scenario.obstacles[door].vertices[0][0];
    let mut runner = Runner::new(&scenario).unwrap();
    let mut first_through = None;
    while !runner.is_finished() {
        runner.step();
        let sim = runner.simulator();
        let front = sim.positions().iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max);
        if runner.steps_done() < opens {
            // A disc of radius 0.3 stops at the door, not through it.
            assert!(front < x_door - 0.25, "x = {front} at step {} before the door opened", runner.steps_done());
            assert_eq!(sim.obstacle_polygons().len(), 3);
        } else {
            assert_eq!(sim.obstacle_polygons().len(), 2);
            if first_through.is_none() && front > x_door {
                first_through = Some(runner.steps_done());
            }
        }
    }
    // The crowd pressed against the door, so the first agent is through within a second.
    let first_through = first_through.expect("nobody went through the open door");
    assert!(first_through <= opens + 10, "first through at step {first_through}");
    let m = runner.metrics();
    assert_eq!((m.agents, m.arrived), (25, 25));
    assert_eq!(m.obstacle_overlaps, 0);
    assert!(runner.steps_done() < runner.max_steps(), "stopped early: everyone at their goal");
}
