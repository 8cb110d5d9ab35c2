//! Scenario files and the runner: every built-in loads, malformed files report every problem
//! with line and key, the runner reproduces RVO2 recordings bit for bit, and runs keep the
//! invariants (speed ≤ max, no obstacle penetration, energy kept by elastic balls).

use std::path::{Path, PathBuf};
use swerve::physics::World;
use swerve::reference::ReferenceRun;
use swerve::scenario::{
    AgentSpec, AnyScenario, Format, Navigation, ParamOverrides, Problem, Runner, Scenario, BUILTINS,
};
use swerve::{AgentParams, Vec2};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_builtin_parses_validates_and_round_trips_through_json() {
    // (name, agents at start, obstacles, balls) — counts written in each file's comment.
    let expected = [
        ("circle", 250, 0, 0),
        ("blocks", 100, 4, 0),
        ("roadmap", 100, 4, 0),
        ("bottleneck", 80, 5, 0),
        ("crossing", 72, 4, 0),
        ("door", 25, 3, 0),
        ("patrol", 48, 1, 0),
        ("head-on", 2, 0, 0),
        ("convoy", 43, 0, 0),
        ("ball-pit", 12, 3, 200),
        ("seed-003", 0, 0, 400),
        ("galton", 0, 204, 300),
        ("sandpile", 0, 2, 400),
    ];
    // The 3-D built-ins (a [spheres] or [crowd3d] table) are checked in tests/scenario3d.rs and
    // tests/scenario_crowd3d.rs.
    let planar = BUILTINS.iter().filter(|b| matches!(AnyScenario::builtin(b.name), Ok(AnyScenario::Plane(_))));
    assert_eq!(planar.count(), expected.len());
    for (name, agents, obstacles, balls) in expected {
        let s = Scenario::builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.name, name);
        assert!(!s.description.is_empty(), "{name} has no description");
        assert_eq!(s.population().unwrap().agents.len(), agents, "{name} agents");
        assert_eq!(s.obstacles.len(), obstacles, "{name} obstacles");
        assert_eq!(s.initial_balls().unwrap().len(), balls, "{name} balls");
        let back = Scenario::from_json_str(&s.to_json(), "json").unwrap_or_else(|e| panic!("{name} as JSON: {e}"));
        assert_eq!(back, s, "{name}: the JSON form reads back to the same scenario");
        let from_serde: Scenario = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(from_serde, s, "{name}: plain serde reads the same form");
    }
    assert_eq!(Scenario::builtin("roadmap").unwrap().navigation, Navigation::Roadmap);
}

#[test]
fn the_scenarios_folder_is_exactly_the_builtins() {
    let mut files: Vec<String> = std::fs::read_dir(repo_root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut names: Vec<String> = BUILTINS.iter().map(|b| b.name.to_string()).collect();
    names.sort();
    assert_eq!(files, names);
    for b in BUILTINS {
        let on_disk = std::fs::read_to_string(repo_root().join("scenarios").join(format!("{}.toml", b.name))).unwrap();
        assert_eq!(on_disk, b.text, "{} differs from the embedded copy", b.name);
    }
}

const MALFORMED: &str = r#"name = "broken"
time_step = -0.25
steps = 100
colour = "red"

[agent_defaults]
radius = "big"
max_speed = 2.0

[[agents]]
position = [0.0, 0.0]
goal = [1.0]

[[agents]]
goal = [3.0, 3.0]

[[circle]]
count = 2.5
ring_radius = 10.0

[[obstacles]]
vertices = [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]

[balls]
broad_phase = "octree"
linear_damping = -1.0
solver_iterations = 0
substeps = 65

[[balls.ball]]
position = [0.0, 0.0]
radius = 0.0
friction = -0.2
angular_velocity = "fast"
"#;

fn has(problems: &[Problem], line: usize, key: &str, message_part: &str) -> bool {
    problems.iter().any(|p| p.line == Some(line) && p.key == key && p.message.contains(message_part))
}

#[test]
fn a_malformed_file_reports_every_problem_with_line_and_key() {
    let problems = Scenario::parse(MALFORMED, Format::Toml).unwrap_err();
    let listing: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    let expected = [
        (2, "time_step", "greater than 0"),
        (4, "colour", "unknown key"),
        (7, "agent_defaults.radius", "expected a number"),
        (12, "agents[0].goal", "expected a point"),
        (14, "agents[1].position", "missing key"),
        (18, "circle[0].count", "expected an integer"),
        (22, "obstacles[0].vertices", "intersect"),
        (25, "balls.broad_phase", "unknown broad phase"),
        (26, "balls.linear_damping", "at least 0"),
        (27, "balls.solver_iterations", "at least 1"),
        (28, "balls.substeps", "at most 64"),
        // After an unknown broad phase the rest of [balls] is still read.
        (32, "balls.ball[0].radius", "greater than 0"),
        (33, "balls.ball[0].friction", "at least 0"),
        (34, "balls.ball[0].angular_velocity", "expected a number"),
    ];
    for (line, key, part) in expected {
        assert!(has(&problems, line, key, part), "missing line {line} {key} ({part}) in {listing:#?}");
    }
    assert_eq!(problems.len(), expected.len(), "{listing:#?}");
    // The error of the loading functions names the file, the first problem and the count.
    let err = Scenario::from_toml_str(MALFORMED, "broken.toml").unwrap_err().to_string();
    assert_eq!(err, "broken.toml:2: time_step: must be greater than 0, got -0.25 (and 13 more problems)");
}

#[test]
fn syntax_errors_and_json_problems_are_located() {
    let problems = Scenario::parse("name = \"x\"\ntime_step = 0.1\nsteps = = 3\n", Format::Toml).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, Some(3));
    assert!(problems[0].message.starts_with("TOML syntax"), "{}", problems[0]);

    let json =
        "{\"name\": \"j\", \"time_step\": 0.1, \"steps\": 0,\n\"agents\": [\n{\"position\": [0, 0],\n\"radius\": -1}]}";
    let problems = Scenario::parse(json, Format::Json).unwrap_err();
    let located: Vec<(Option<usize>, &str)> = problems.iter().map(|p| (p.line, p.key.as_str())).collect();
    assert_eq!(located, [(Some(1), "steps"), (Some(4), "agents[0].radius")]);

    let problems = Scenario::parse("{\"name\": \"j\",\n\"steps\": }", Format::Json).unwrap_err();
    assert_eq!(problems[0].line, Some(2));
}

#[test]
fn generator_and_goal_rule_errors() {
    let crowded = "name = \"c\"\ntime_step = 0.1\nsteps = 1\n[[random]]\ncount = 50\nmin = [0, 0]\nmax = [2, 2]\nseed = 1\ngoal = \"opposite\"\n";
    let problems = Scenario::parse(crowded, Format::Toml).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].key, "random[0].count");
    assert_eq!(problems[0].line, Some(5));
    assert!(problems[0].message.contains("could place only"), "{}", problems[0]);

    let spawn_opposite = "name = \"s\"\ntime_step = 0.1\nsteps = 1\n[[spawn]]\nrate = 1\nlimit = 2\nmin = [0, 0]\nmax = [0, 0]\ngoal = \"opposite\"\n";
    let problems = Scenario::parse(spawn_opposite, Format::Toml).unwrap_err();
    assert_eq!(problems[0].key, "spawn[0].goal");
    assert_eq!(problems[0].line, Some(9));

    let buried = "name = \"b\"\ntime_step = 0.1\nsteps = 1\n[[agents]]\nposition = [0.5, 0.5]\n[[grid]]\norigin = [-3, 0]\ncolumns = 3\nrows = 1\nspacing = [2, 0]\ngoal = [0.2, 0.2]\n[[obstacles]]\nvertices = [[0, 0], [1, 0], [1, 1], [0, 1]]\n";
    let problems = Scenario::parse(buried, Format::Toml).unwrap_err();
    let listing: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        listing,
        [
            "line 4: agents[0]: starts inside obstacles[0] at (0.5, 0.5)",
            "line 6: grid[0]: agent 0 has its goal inside obstacles[0] at (0.2, 0.2)",
            "line 6: grid[0]: agent 1 has its goal inside obstacles[0] at (0.2, 0.2)",
            "line 6: grid[0]: agent 2 has its goal inside obstacles[0] at (0.2, 0.2)",
        ]
    );

    let balls_only = "name = \"b\"\ntime_step = 0.1\nsteps = 1\nstop = \"all-at-goal\"\n[[balls.ball]]\nposition = [0, 0]\nradius = 1\n";
    let problems = Scenario::parse(balls_only, Format::Toml).unwrap_err();
    assert_eq!((problems[0].line, problems[0].key.as_str()), (Some(4), "stop"));

    let empty = "name = \"e\"\ntime_step = 0.1\nsteps = 1\n";
    let problems = Scenario::parse(empty, Format::Toml).unwrap_err();
    assert!(problems[0].message.contains("no agents"), "{}", problems[0]);
}

/// The built-in `name` with its generated agents replaced by the recording's exact start
/// positions and goals (RVO2's Circle computes sin/cos in float; the recorder's sin/cos
/// differ from this machine's libm by up to 2 ulp, checked separately below).
fn builtin_with_recorded_agents(name: &str, reference: &ReferenceRun) -> Scenario {
    let mut scenario = Scenario::builtin(name).unwrap();
    scenario.circle.clear();
    scenario.grid.clear();
    // The recordings leave out RVO2's random perturbation (tests/data/reference/README).
    scenario.perturbation = None;
    scenario.agents = reference
        .agents
        .iter()
        .map(|a| AgentSpec {
            position: a.position.to_array(),
            goal: Some(a.goal.to_array()),
            group: None,
            params: ParamOverrides::default(),
        })
        .collect();
    scenario
}

/// Runs the scenario in lockstep with a recording: after each step every agent's position and
/// velocity must have the recorded bits.
fn assert_runner_matches_recording(name: &str, recording: &str) {
    let reference = ReferenceRun::load(&repo_root().join("tests/data/reference").join(recording)).unwrap();
    let scenario = builtin_with_recorded_agents(name, &reference);
    assert_eq!(scenario.time_step.to_bits(), reference.time_step.to_bits());
    assert_eq!(scenario.agent_defaults.apply(AgentParams::default()), reference.defaults);
    let mut runner = Runner::new(&scenario).unwrap();
    assert_eq!(runner.simulator().num_agents(), reference.agents.len());
    for step in 0..reference.steps {
        runner.step();
        let expected = &reference.frames[step + 1];
        for (i, (p, v)) in runner.simulator().positions().iter().zip(runner.simulator().velocities()).enumerate() {
            let e = expected[i];
            assert!(
                p.x.to_bits() == e.position.x.to_bits()
                    && p.y.to_bits() == e.position.y.to_bits()
                    && v.x.to_bits() == e.velocity.x.to_bits()
                    && v.y.to_bits() == e.velocity.y.to_bits(),
                "{name}: agent {i} differs from RVO2 after step {}: {p} {v} vs {} {}",
                step + 1,
                e.position,
                e.velocity
            );
        }
    }
}

#[test]
fn the_circle_builtin_runs_rvo2s_circle_bit_for_bit() {
    assert_runner_matches_recording("circle", "circle-250");
}

#[test]
fn the_blocks_builtin_runs_rvo2s_blocks_bit_for_bit() {
    // Same obstacles (through the scenario's obstacle list), parameters and rule; RVO2 adds
    // the four groups interleaved, so the recorded agent order is used.
    assert_runner_matches_recording("blocks", "blocks-100");
    let reference = ReferenceRun::load(&repo_root().join("tests/data/reference/blocks-100")).unwrap();
    let scenario = Scenario::builtin("blocks").unwrap();
    assert_eq!(scenario.obstacle_polygons(), reference.obstacles);
    // The grids make the same set of starts and goals as RVO2's interleaved loop.
    let key = |p: Vec2, g: Vec2| (p.x.to_bits(), p.y.to_bits(), g.x.to_bits(), g.y.to_bits());
    let mut ours: Vec<_> = scenario.population().unwrap().agents.iter().map(|a| key(a.position, a.goal)).collect();
    let mut theirs: Vec<_> = reference.agents.iter().map(|a| key(a.position, a.goal)).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
}

#[test]
fn the_head_on_builtin_runs_the_recorded_head_on_bit_for_bit() {
    assert_runner_matches_recording("head-on", "head-on-2");
    // head-on lists its agents one by one, so its own start is the recording's exactly.
    let reference = ReferenceRun::load(&repo_root().join("tests/data/reference/head-on-2")).unwrap();
    let population = Scenario::builtin("head-on").unwrap().population().unwrap();
    for (a, r) in population.agents.iter().zip(&reference.agents) {
        assert_eq!((a.position, a.goal), (r.position, r.goal));
    }
}

#[test]
fn the_circle_generator_places_rvo2s_start_positions() {
    let reference = ReferenceRun::load(&repo_root().join("tests/data/reference/circle-250")).unwrap();
    let population = Scenario::builtin("circle").unwrap().population().unwrap();
    assert_eq!(population.agents.len(), reference.agents.len());
    let mut worst = 0.0f32;
    for (a, r) in population.agents.iter().zip(&reference.agents) {
        worst = worst.max((a.position - r.position).abs().max_element()).max((a.goal - r.goal).abs().max_element());
    }
    // 200 m × 2^-23 ≈ 2.4e-5 m is one ulp on the ring; allow four.
    assert!(worst <= 1e-4, "start positions differ by {worst} m from the recording");
}

#[test]
fn crowd_runs_keep_speed_limits_and_stay_out_of_obstacles() {
    for name in ["crossing", "bottleneck"] {
        let scenario = Scenario::builtin(name).unwrap();
        let max_speed = scenario.agent_defaults.max_speed.unwrap();
        let mut runner = Runner::new(&scenario).unwrap();
        while !runner.is_finished() {
            runner.step();
            for v in runner.simulator().velocities() {
                // ORCA's velocity lies in the max-speed disc (f32 rounding aside).
                assert!(v.length() <= max_speed * (1.0 + 1e-5), "{name}: speed {} > {max_speed}", v.length());
            }
        }
        let m = runner.metrics();
        assert!(runner.all_at_goal(), "{name}: stopped before every agent arrived");
        assert_eq!(m.never_arrived, 0, "{name}");
        assert_eq!(m.obstacle_overlaps, 0, "{name}: an agent entered a wall");
        assert!(m.path_length_ratio_mean.unwrap() >= 1.0, "{name}: a path shorter than the straight line");
        // Agents never overlap by more than a small fraction of their radius (ORCA's LP3
        // fallback allows slight violations in dense crowds).
        assert!(m.max_agent_penetration < 0.5 * 0.4, "{name}: penetration {}", m.max_agent_penetration);
    }
}

#[test]
fn roadmap_navigation_gets_everyone_through_the_door_where_straight_lines_fail() {
    let roadmap = Scenario::builtin("bottleneck").unwrap();
    let mut straight = roadmap.clone();
    straight.navigation = Navigation::Straight;
    straight.steps = 1500;
    let run = |s: &Scenario| {
        let mut r = Runner::new(s).unwrap();
        while !r.is_finished() {
            r.step();
        }
        r.metrics()
    };
    let with_roadmap = run(&roadmap);
    let without = run(&straight);
    assert_eq!(with_roadmap.never_arrived, 0);
    // Agents aiming straight at spots behind the wall press into it and many never pass.
    assert!(without.never_arrived > 10, "straight-line agents: {} never arrived", without.never_arrived);
}

const SPAWN: &str = r#"name = "spawn"
time_step = 0.1
steps = 400
stop = "all-at-goal"
[agent_defaults]
radius = 0.3
max_speed = 1.5
neighbor_dist = 3.0
time_horizon = 2.0
[[spawn]]
rate = 2.0
limit = 10
min = [-10.0, -1.0]
max = [-10.0, 1.0]
seed = 5
goal = [10.0, 0.0]
remove_at_goal = true
"#;

#[test]
fn spawners_add_at_their_rate_and_sinks_remove_arrivals() {
    let scenario = Scenario::from_toml_str(SPAWN, "spawn").unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    assert_eq!(runner.simulator().num_agents(), 1, "one agent at the start time");
    let mut most = 0;
    for _ in 0..10 {
        runner.step();
        most = most.max(runner.simulator().num_agents());
    }
    // After 1 s at 2 agents/s: the first plus one every 0.5 s = 3 (spots are 0.5 m+ apart
    // once the first agents walked on, so no spawn had to wait).
    assert_eq!(runner.simulator().num_agents(), 3);
    while !runner.is_finished() {
        runner.step();
        most = most.max(runner.simulator().num_agents());
    }
    let m = runner.metrics();
    assert_eq!(m.agents, 10);
    assert_eq!(m.arrived, 10);
    assert_eq!(runner.simulator().num_agents(), 0, "every arrival left through the sink");
    assert!(most >= 3);
    // Agents are spawned with 20 m to go at up to 1 m/s preferred speed.
    assert!(m.time_to_goal_mean.unwrap() >= 20.0 - 0.5);
}

#[test]
fn elastic_ball_scenes_keep_their_kinetic_energy() {
    let scenario = Scenario::builtin("seed-003").unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    runner.set_max_steps(120);
    while !runner.is_finished() {
        runner.step();
    }
    let world = runner.world().expect("seed-003 has balls");
    assert_eq!(world.balls().len(), 400);
    let b = runner.metrics().balls.unwrap();
    assert!(b.kinetic_energy_max_relative_change < 1e-4, "energy drift {}", b.kinetic_energy_max_relative_change);
    // Every ball stays inside the box.
    for ball in world.balls() {
        assert!(ball.position.cmpge(Vec2::ZERO).all() && ball.position.cmple(Vec2::new(100.0, 75.0)).all());
    }

    // With damping the same scene loses energy by exactly the damping factor (squared) a
    // step: the elastic collisions neither add nor take any.
    let mut damped = scenario.clone();
    damped.balls.as_mut().unwrap().linear_damping = 0.5;
    let text = damped.to_json();
    assert!(text.contains("\"linear_damping\": 0.5"), "the key is written:\n{text}");
    let mut runner = Runner::new(&Scenario::from_json_str(&text, "damped.json").unwrap()).unwrap();
    let e0 = runner.world().unwrap().kinetic_energy();
    let steps = 120;
    for _ in 0..steps {
        runner.step();
    }
    let factor = 1.0 / (1.0 + 0.5 * f64::from(damped.time_step));
    let expected = e0 * factor.powi(2 * steps);
    let got = runner.world().unwrap().kinetic_energy();
    assert!((got - expected).abs() < 1e-4 * expected, "energy {got} vs {expected} (undamped {e0})");
}

#[test]
fn head_on_agents_pass_without_touching() {
    let mut runner = Runner::new(&Scenario::builtin("head-on").unwrap()).unwrap();
    while !runner.is_finished() {
        runner.step();
    }
    let m = runner.metrics();
    assert_eq!(m.arrived, 2);
    assert!(m.min_separation.unwrap() >= 0.0);
    assert_eq!(m.agent_overlaps, 0);
    // Each had 19 m to go (20 m less the 1 m tolerance) and had to swerve: longer than the
    // straight line, not absurdly.
    for a in &m.per_agent {
        assert_eq!(a.straight_line, 19.0);
        assert!(a.path_length > a.straight_line && a.path_length < 1.2 * a.straight_line, "{a:?}");
    }
}

#[test]
fn runners_can_move_between_threads() {
    // Python and the viewer hold a runner in another thread than the one that made it.
    fn assert_send<T: Send>() {}
    assert_send::<Runner>();
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Lines drawn from a scenario vocabulary, so that mutated files get past the syntax check
    /// and reach the reader's checks.
    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("name = \"f\"".to_string()),
            Just("time_step = 0.1".to_string()),
            Just("steps = 5".to_string()),
            Just("[[agents]]".to_string()),
            Just("[[circle]]".to_string()),
            Just("[[obstacles]]".to_string()),
            Just("[balls]".to_string()),
            Just("[[balls.ball]]".to_string()),
            Just("[agent_defaults]".to_string()),
            (
                prop::sample::select(vec![
                    "position",
                    "goal",
                    "radius",
                    "count",
                    "ring_radius",
                    "vertices",
                    "seed",
                    "stop"
                ]),
                prop::sample::select(vec![
                    "[0, 1]",
                    "-1",
                    "2.5",
                    "\"opposite\"",
                    "[[0, 0], [1, 0], [0, 1]]",
                    "{ offset = [1, 1] }",
                    "true",
                    "1e40"
                ])
            )
                .prop_map(|(k, v)| format!("{k} = {v}")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn reading_never_panics_and_every_rejection_says_why(lines in prop::collection::vec(line(), 0..14)) {
            let text = lines.join("\n");
            match Scenario::parse(&text, Format::Toml) {
                Ok(s) => {
                    // An accepted scenario can be run.
                    let mut runner = Runner::new(&s).unwrap();
                    runner.step();
                }
                Err(problems) => {
                    prop_assert!(!problems.is_empty());
                    for p in &problems {
                        prop_assert!(!p.message.is_empty());
                        if let Some(line) = p.line {
                            prop_assert!(line >= 1 && line <= lines.len().max(1));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn scenario_broad_phase_names_are_the_physics_names() {
    let physics: Vec<String> = swerve::physics::BroadPhaseKind::ALL.iter().map(|k| k.to_string()).collect();
    assert_eq!(physics, swerve::scenario::BROAD_PHASE_NAMES.map(String::from));
    for name in swerve::scenario::BROAD_PHASE_NAMES {
        // Every name a file may use makes a runnable world.
        let text = format!("name = \"b\"\ntime_step = 0.01\nsteps = 2\n[balls]\nbroad_phase = \"{name}\"\n[[balls.ball]]\nposition = [0, 0]\nradius = 1\n");
        let mut runner = Runner::new(&Scenario::from_toml_str(&text, "b").unwrap()).unwrap();
        runner.step();
        assert_eq!(runner.world().unwrap().broad_phase().to_string(), name);
    }
}

/// The built-in Galton board, run to its end: every ball has fallen through the pegs into a
/// bin and come to rest there, and the bins fill like a bell — the middle ones far more than
/// the edges (a ball's bin is the sum of its bounces left and right).
#[test]
fn the_galton_board_ends_at_rest_in_a_bell() {
    let scenario = Scenario::builtin("galton").unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    for _ in 0..scenario.steps {
        runner.step();
    }
    let world = runner.world().unwrap();
    for ball in world.balls() {
        assert!(ball.velocity.length() < 5e-3, "still moving: {ball:?}");
    }
    let balls = world.balls();
    for (i, a) in balls.iter().enumerate() {
        for b in &balls[i + 1..] {
            let overlap = (a.radius + b.radius - a.position.distance(b.position)) / a.radius.min(b.radius);
            assert!(overlap <= 1.01 * World::RESTING_SLOP, "{a:?} and {b:?} overlap by {:.2} %", overlap * 100.0);
        }
    }
    // The bins: 16 walls 1.4 m apart from x = 1.5, 9 m tall, and the box's walls 1.4 m beyond.
    let mut bins = [0usize; 17];
    for ball in world.balls() {
        assert!(ball.position.y < 9.0, "a ball stayed above the bins: {ball:?}");
        bins[(((ball.position.x - 1.5) / 1.4).floor() + 1.0).clamp(0.0, 16.0) as usize] += 1;
    }
    let middle: usize = bins[6..=10].iter().sum();
    let edges: usize = bins[..3].iter().chain(&bins[14..]).sum();
    assert!(middle > 2 * edges, "bins {bins:?}: the middle five hold {middle}, the six at the edges {edges}");
    assert!(world.last_step_stats().resting_contacts > 300, "the balls do not rest on anything");
}

/// The built-in sandpile, run to its end: the rough balls have run out of the hopper into a
/// heap at rest on the floor, standing far higher and narrower than the layer the same balls
/// spread into without friction and rolling resistance.
#[test]
fn the_sandpile_ends_in_a_heap_that_smooth_balls_would_not_make() {
    let settle = |rough: bool| {
        let mut scenario = Scenario::builtin("sandpile").unwrap();
        if !rough {
            let random = &mut scenario.balls.as_mut().unwrap().random[0];
            (random.friction, random.rolling_resistance) = (0.0, 0.0);
        }
        let mut runner = Runner::new(&scenario).unwrap();
        while !runner.is_finished() {
            runner.step();
        }
        let world = runner.world().unwrap();
        let top = world.balls().iter().map(|b| b.position.y + b.radius).fold(0.0f32, f32::max);
        // Half the balls lie within this distance of the middle.
        let mut spread: Vec<f32> = world.balls().iter().map(|b| (b.position.x - 30.0).abs()).collect();
        spread.sort_by(f32::total_cmp);
        (world.balls().to_vec(), top, spread[spread.len() / 2])
    };
    let (balls, top, half_width) = settle(true);
    for ball in &balls {
        assert!(ball.velocity.length() < 5e-3 && ball.angular_velocity.abs() < 2e-2, "still moving: {ball:?}");
        assert!(ball.position.y < 20.0, "a ball stayed in the hopper: {ball:?}");
    }
    let (_, smooth_top, smooth_half_width) = settle(false);
    assert!(
        top > smooth_top + 2.0 && half_width < 0.75 * smooth_half_width,
        "heap {top} m high, half within {half_width} m; smooth: {smooth_top} m, {smooth_half_width} m"
    );
}

#[test]
fn agents_dodge_balls_when_told_to() {
    // Agent-ball overlaps per agent and frame, with and without avoidance.
    let rate = |avoid: bool| {
        let mut scenario = Scenario::builtin("ball-pit").unwrap();
        scenario.balls.as_mut().unwrap().agents_avoid = avoid;
        let mut runner = Runner::new(&scenario).unwrap();
        assert_eq!(runner.simulator().movers().len(), if avoid { 200 } else { 0 });
        let mut agent_frames = 0usize;
        while !runner.is_finished() && runner.metrics().never_arrived > 0 {
            runner.step();
            agent_frames += runner.simulator().num_agents();
        }
        let m = runner.metrics();
        assert_eq!(m.never_arrived, 0, "avoid = {avoid}: agents still walking at the step limit");
        m.balls.unwrap().agent_overlaps as f64 / agent_frames as f64
    };
    let (dodging, ignoring) = (rate(true), rate(false));
    assert!(ignoring > 0.1, "the pit is dense enough to walk into balls: {ignoring}");
    assert!(dodging * 5.0 < ignoring, "dodging {dodging} vs ignoring {ignoring} overlaps per agent-frame");
}

/// The `[extensions]` table switches on the options beyond RVO2 for the run, and a wrong
/// value or key is reported with its line.
#[test]
fn extensions_table_turns_on_options_beyond_rvo2() {
    let base = "name = \"ext\"\ntime_step = 0.1\nsteps = 10\n\n[[agents]]\nposition = [0.0, 0.0]\ngoal = [5.0, 0.0]\n";
    let on = format!("{base}\n[extensions]\nsymmetry_breaking = true\nsafe_mode = true\nstrict_speed_limit = true\n");
    let scenario = Scenario::parse(&on, Format::Toml).expect("valid");
    let runner = Runner::new(&scenario).unwrap();
    let ext = runner.simulator().extensions();
    assert!(ext.symmetry_breaking.is_some() && ext.overlap_resolution.is_some() && ext.strict_speed_limit);
    // Absent: RVO2's behaviour.
    let off = Runner::new(&Scenario::parse(base, Format::Toml).unwrap()).unwrap();
    assert_eq!(off.simulator().extensions(), swerve::orca::Extensions::default());

    let bad = format!("{base}\n[extensions]\nsafe_mode = 3\nfast = true\n");
    let problems = Scenario::parse(&bad, Format::Toml).unwrap_err();
    let find = |key: &str| problems.iter().find(|p| p.key == key).unwrap_or_else(|| panic!("{key}: {problems:?}"));
    assert_eq!(find("extensions.safe_mode").line, Some(10));
    assert_eq!(find("extensions.fast").line, Some(11));
}

/// `kinematic = true` makes a listed ball a pusher: infinite mass, its path straight through
/// the others and out of the box; the key survives the JSON round trip.
#[test]
fn a_kinematic_ball_from_a_scenario_file_pushes_through() {
    let text = r#"name = "pusher"
time_step = 0.05
steps = 80

[balls]
bounds = { min = [0.0, 0.0], max = [20.0, 20.0] }

[[balls.ball]]
position = [-2.0, 10.0]
velocity = [5.0, 0.0]
radius = 1.5
kinematic = true

[[balls.random]]
count = 40
min = [4.0, 6.0]
max = [18.0, 14.0]
radius = [0.3, 0.6]
speed = [0.0, 0.5]
seed = 5
"#;
    let scenario = Scenario::from_toml_str(text, "pusher.toml").unwrap();
    assert!(scenario.balls.as_ref().unwrap().ball[0].kinematic);
    let again = Scenario::from_json_str(&scenario.to_json(), "pusher.json").unwrap();
    assert_eq!(again, scenario);
    let mut runner = Runner::new(&scenario).unwrap();
    let e0 = runner.world().unwrap().kinetic_energy();
    while !runner.is_finished() {
        runner.step();
    }
    let world = runner.world().unwrap();
    let pusher = world.balls()[0];
    assert!(pusher.is_kinematic() && pusher.velocity == Vec2::new(5.0, 0.0));
    assert!((pusher.position - Vec2::new(18.0, 10.0)).length() < 1e-3, "{}", pusher.position);
    assert!(world.kinetic_energy() > 2.0 * e0, "the pusher did work on the others");
    let bad = text.replace("kinematic = true", "kinematic = 1");
    let problems = Scenario::parse(&bad, Format::Toml).unwrap_err();
    assert!(problems.iter().any(|p| p.key == "balls.ball[0].kinematic"), "{problems:?}");
}

/// The listing of `problems` as `validate` prints them (without the file name).
fn listing(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(|p| p.to_string()).collect()
}

/// Counts that would make the reader's caller allocate without bound (agents, balls,
/// RVO2's neighbour scratch) are problems of their key, every one of them, before anything
/// is expanded: the file below would otherwise abort out of memory.
#[test]
fn absurd_counts_are_problems_of_their_keys_not_out_of_memory() {
    use swerve::scenario::{MAX_AGENTS, MAX_BALLS, MAX_NEIGHBORS};
    let text = r#"name = "huge"
time_step = 0.1
steps = 5
[agent_defaults]
max_neighbors = 99999999999999
[[agents]]
position = [0.0, 0.0]
max_neighbors = 1000001
[[circle]]
count = 1000000000000
ring_radius = 10.0
[[grid]]
origin = [0.0, 0.0]
columns = 100000
rows = 100000
spacing = [1.0, 1.0]
goal = [0.0, 0.0]
[[grid]]
origin = [0.0, 0.0]
columns = 9223372036854775807
rows = 1
spacing = [1.0, 1.0]
goal = [0.0, 0.0]
[[spawn]]
rate = 1e30
limit = 10000001
min = [0.0, 0.0]
max = [1.0, 1.0]
goal = [5.0, 5.0]
[[balls.random]]
count = 1000000000000
min = [0.0, 0.0]
max = [10.0, 10.0]
radius = [0.1, 0.2]
speed = [0.0, 1.0]
seed = 1
"#;
    let problems = Scenario::parse(text, Format::Toml).unwrap_err();
    let shown = listing(&problems);
    let limit = MAX_AGENTS.to_string();
    let expected = [
        (5, "agent_defaults.max_neighbors", MAX_NEIGHBORS.to_string()),
        (8, "agents[0].max_neighbors", MAX_NEIGHBORS.to_string()),
        (10, "circle[0].count", limit.clone()),
        (15, "grid[0].rows", format!("columns × rows = 10000000000 agents, more than the limit of {limit}")),
        (20, "grid[1].columns", limit.clone()),
        (26, "spawn[0].limit", limit.clone()),
        (31, "balls.random[0].count", MAX_BALLS.to_string()),
    ];
    for (line, key, part) in &expected {
        assert!(has(&problems, *line, key, part), "missing line {line} {key} ({part}) in {shown:#?}");
    }
    assert_eq!(problems.len(), expected.len(), "{shown:#?}");

    // Entries within the limit one by one but not together: the one that crosses it is named.
    let half = MAX_AGENTS / 2 + 1;
    let text = format!(
        "name = \"sum\"\ntime_step = 0.1\nsteps = 5\n[[circle]]\ncount = {half}\nring_radius = 10.0\n\
         [[spawn]]\nrate = 1.0\nlimit = {half}\nmin = [0.0, 0.0]\nmax = [1.0, 1.0]\ngoal = [5.0, 5.0]\n"
    );
    let problems = Scenario::parse(&text, Format::Toml).unwrap_err();
    assert_eq!(
        listing(&problems),
        [format!(
            "line 9: spawn[0].limit: brings the file's agents to {}, more than the limit of {limit} per file",
            2 * half
        )]
    );

    // The limit itself is allowed, and the largest max_neighbors runs.
    let text = format!(
        "name = \"cap\"\ntime_step = 0.1\nsteps = 5\n[agent_defaults]\nmax_neighbors = {MAX_NEIGHBORS}\n\
         [[agents]]\nposition = [0.0, 0.0]\ngoal = [5.0, 0.0]\n[[agents]]\nposition = [5.0, 0.0]\ngoal = [0.0, 0.0]\n"
    );
    let scenario = Scenario::parse(&text, Format::Toml).unwrap_or_else(|p| panic!("{p:?}"));
    let mut runner = Runner::new(&scenario).unwrap();
    runner.step();
    assert_eq!(runner.simulator().num_agents(), 2);
}

/// A listed ball must lie inside the walls unless it is kinematic (the physics world refuses
/// it, and the run would fail without a line); random regions must lie inside the walls; and
/// a radius whose square overflows is refused as the world refuses it.
#[test]
fn balls_that_the_world_would_refuse_are_problems_of_their_keys() {
    let scene = |balls: &str| {
        format!(
            "name = \"fit\"\ntime_step = 0.05\nsteps = 5\n[balls]\nbounds = {{ min = [0.0, 0.0], max = [20.0, 20.0] }}\n{balls}"
        )
    };
    let too_big = scene("[[balls.ball]]\nposition = [10.0, 10.0]\nradius = 100.0\n");
    let problems = Scenario::parse(&too_big, Format::Toml).unwrap_err();
    assert_eq!(
        listing(&problems),
        ["line 6: balls.ball[0]: a ball of radius 100 at (10, 10) does not fit inside balls.bounds (only a kinematic ball may be outside)"]
    );
    // Touching a wall is inside (the world's rule: min + r ≤ position ≤ max − r); a little
    // further is not.
    let touching = scene("[[balls.ball]]\nposition = [1.0, 19.0]\nradius = 1.0\n");
    Runner::new(&Scenario::parse(&touching, Format::Toml).unwrap()).unwrap().step();
    let poking = scene("[[balls.ball]]\nposition = [1.0, 19.5]\nradius = 1.0\n");
    let problems = Scenario::parse(&poking, Format::Toml).unwrap_err();
    assert_eq!((problems.len(), problems[0].key.as_str()), (1, "balls.ball[0]"));
    // A kinematic ball passes through walls, so it may be anywhere.
    let kinematic = scene("[[balls.ball]]\nposition = [10.0, 10.0]\nradius = 100.0\nkinematic = true\n");
    Runner::new(&Scenario::parse(&kinematic, Format::Toml).unwrap()).unwrap().step();

    let outside = scene(
        "[[balls.random]]\ncount = 50\nmin = [-10.0, 0.0]\nmax = [30.0, 20.0]\nradius = [0.1, 0.2]\nspeed = [0.0, 1.0]\nseed = 1\n\
         [[balls.ball]]\nposition = [0.0, 0.0]\nradius = 1e20\nkinematic = true\n",
    );
    let problems = Scenario::parse(&outside, Format::Toml).unwrap_err();
    let shown = listing(&problems);
    assert_eq!(shown.len(), 3, "{shown:#?}");
    assert!(has(&problems, 8, "balls.random[0].min", "inside balls.bounds"), "{shown:#?}");
    assert!(has(&problems, 9, "balls.random[0].max", "inside balls.bounds"), "{shown:#?}");
    assert!(has(&problems, 15, "balls.ball[0].radius", "area π r² must be finite"), "{shown:#?}");
}

/// `swerve run` writes to `out/NAME`, so a name must be one plain path component.
#[test]
fn names_that_would_leave_the_output_folder_are_problems() {
    let file = |name: &str| format!("name = {name}\ntime_step = 0.1\nsteps = 1\n[[agents]]\nposition = [0, 0]\n");
    for bad in [
        r#""""#,
        r#""../../escaped""#,
        r#""/abs/path""#,
        r#""a/b""#,
        r#""a\\b""#,
        r#"".""#,
        r#""..""#,
        r#"".hidden""#,
        r#""nul\u0000""#,
        r#""two\nlines""#,
    ] {
        let problems = Scenario::parse(&file(bad), Format::Toml).unwrap_err();
        assert_eq!(problems.len(), 1, "{bad}: {problems:?}");
        assert_eq!((problems[0].line, problems[0].key.as_str()), (Some(1), "name"), "{bad}");
    }
    // Along with every other problem of the file, not instead of them.
    let problems =
        Scenario::parse("name = \"../x\"\ntime_step = 0\nsteps = 1\n[[agents]]\nposition = [0, 0]\n", Format::Toml)
            .unwrap_err();
    assert_eq!(problems.len(), 2, "{problems:?}");
    let json = "{\"name\": \"/etc\", \"time_step\": 0.1, \"steps\": 1, \"agents\": [{\"position\": [0, 0]}]}";
    assert_eq!(Scenario::parse(json, Format::Json).unwrap_err()[0].key, "name");
    for good in [r#""crossing-2""#, r#""my scene v1.2""#, r#""ünïcode_名前""#, r#""a.""#] {
        assert!(Scenario::parse(&file(good), Format::Toml).is_ok(), "{good}");
    }
}

/// `friction`, `rolling_resistance` and `angular_velocity` reach the world's balls (listed and
/// random), `substeps` the world; they survive the JSON round trip, and make a ball roll down
/// a slope.
#[test]
fn friction_and_spin_keys_reach_the_world() {
    let text = "name = \"rough\"\ntime_step = 0.01\nsteps = 150\n\
        [[obstacles]]\nvertices = [[0.0, 0.0], [40.0, -14.56], [40.0, -20.0], [0.0, -20.0]]\n\
        [balls]\ngravity = [0.0, -9.81]\nsubsteps = 2\n\
        [[balls.ball]]\nposition = [1.0, 1.2]\nradius = 0.5\nfriction = 0.6\nangular_velocity = 0.5\n\
        [[balls.random]]\ncount = 3\nmin = [-30.0, 20.0]\nmax = [-20.0, 30.0]\nradius = [0.3, 0.4]\nspeed = [0.0, 0.1]\nfriction = 0.25\nrolling_resistance = 0.125\nseed = 4\n";
    let scenario = Scenario::parse(text, Format::Toml).unwrap();
    let json = scenario.to_json();
    assert!(json.contains("\"friction\": 0.6") && json.contains("\"angular_velocity\": 0.5"), "{json}");
    assert_eq!(Scenario::parse(&json, Format::Json).unwrap(), scenario);
    let mut runner = Runner::new(&scenario).unwrap();
    assert_eq!(runner.world().unwrap().substeps(), 2);
    let balls = runner.world().unwrap().balls().to_vec();
    assert_eq!((balls[0].friction, balls[0].angular_velocity), (0.6, 0.5));
    assert!(balls[1..]
        .iter()
        .all(|b| b.friction == 0.25 && b.rolling_resistance == 0.125 && b.angular_velocity == 0.0));
    assert_eq!(balls[0].rolling_resistance, 0.0);
    while !runner.is_finished() {
        runner.step();
    }
    let ball = runner.world().unwrap().balls()[0];
    // Down a 20° slope (tan 20° = 0.364), rolling clockwise.
    assert!(ball.velocity.x > 1.5 && ball.angular_velocity < -3.0, "{ball:?}");
}

#[test]
fn max_acceleration_is_read_from_defaults_entries_generators_and_spawners() {
    let text = r#"name = "ramps"
time_step = 0.25
steps = 12
[agent_defaults]
max_acceleration = 1.0
[[agents]]
position = [0.0, 0.0]
goal = [30.0, 0.0]
[[agents]]
position = [0.0, 10.0]
goal = [30.0, 10.0]
max_acceleration = 4.0
[[grid]]
origin = [0.0, 20.0]
columns = 1
rows = 1
spacing = [1.0, 1.0]
goal = [30.0, 20.0]
max_acceleration = 2.0
[[spawn]]
rate = 1.0
limit = 1
min = [0.0, 30.0]
max = [0.0, 30.0]
goal = [30.0, 30.0]
"#;
    let scenario = Scenario::from_toml_str(text, "ramps").unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    runner.step();
    let sim = runner.simulator();
    let limits: Vec<f32> = sim.agent_ids().iter().map(|&id| sim.agent_max_acceleration(id).unwrap()).collect();
    assert_eq!(limits, [1.0, 4.0, 2.0, 1.0], "defaults, an entry's own, a generator's, a spawner's (defaults)");
    // One step from rest at 0.25 s: each gained its limit × 0.25 s of speed (RVO2's max 2 m/s).
    let speeds: Vec<f32> = sim.velocities().iter().map(|v| v.length()).collect();
    for (speed, expected) in speeds.iter().zip([0.25, 1.0, 0.5]) {
        assert!((speed - expected).abs() < 1e-5, "speeds {speeds:?}");
    }
    // The key round-trips through JSON (scene.json) and is refused when not positive.
    let json = serde_json::to_string(&scenario).unwrap();
    assert!(json.contains("\"max_acceleration\":4.0"), "{json}");
    let bad = text.replace("max_acceleration = 4.0", "max_acceleration = 0.0");
    let problems = Scenario::parse(&bad, Format::Toml).unwrap_err();
    assert!(has(&problems, 12, "agents[1].max_acceleration", "greater than 0"), "{problems:?}");
}

const LAYERED: &str = r#"name = "layers"
time_step = 0.25
steps = 12
[agent_defaults]
avoidance_mask = 3
[[agents]]
position = [0.0, 0.0]
goal = [30.0, 0.0]
[[agents]]
position = [0.0, 10.0]
goal = [30.0, 10.0]
avoidance_layers = 0x2
avoidance_mask = 0b10
[[grid]]
origin = [0.0, 20.0]
columns = 1
rows = 1
spacing = [1.0, 1.0]
goal = [30.0, 20.0]
avoidance_layers = 4294967295
[[spawn]]
rate = 1.0
limit = 1
min = [0.0, 30.0]
max = [0.0, 30.0]
goal = [30.0, 30.0]
[[spawn]]
rate = 1.0
limit = 1
min = [0.0, 40.0]
max = [0.0, 40.0]
goal = [30.0, 40.0]
avoidance_layers = 0
avoidance_mask = 0
[[circle]]
count = 1
center = [100.0, 0.0]
ring_radius = 1.0
avoidance_mask = 4
[[random]]
count = 1
min = [200.0, 0.0]
max = [210.0, 10.0]
seed = 1
goal = [0.0, 0.0]
avoidance_layers = 0b1000
"#;

#[test]
fn avoidance_layers_and_masks_are_read_from_defaults_entries_generators_and_spawners() {
    let scenario = Scenario::from_toml_str(LAYERED, "layers").unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    runner.step();
    let sim = runner.simulator();
    let read: Vec<(u32, u32)> = sim
        .agent_ids()
        .iter()
        .map(|&id| (sim.agent_avoidance_layers(id).unwrap(), sim.agent_avoidance_mask(id).unwrap()))
        .collect();
    // In id order (entries, circles, grids, random generators, then spawners): the defaults
    // (layers 1 from the library, mask 3 from the file), an entry's own (hex and binary
    // literals), a circle's mask and a grid's and a random generator's layers each with the
    // file's other value, a spawner's defaults and a spawner's own values (0: on no layer,
    // avoiding nobody).
    assert_eq!(read, [(1, 3), (2, 2), (1, 4), (u32::MAX, 3), (8, 3), (1, 3), (0, 0)]);
    // The keys round-trip through JSON (scene.json), and a file without them is RVO2's.
    let json = serde_json::to_string(&scenario).unwrap();
    assert!(json.contains("\"avoidance_mask\":3") && json.contains("\"avoidance_layers\":4294967295"), "{json}");
    assert_eq!(Scenario::from_json_str(&scenario.to_json(), "json").unwrap(), scenario);
    let plain = Scenario::from_toml_str(&LAYERED.replace("avoidance_", "# avoidance_"), "plain").unwrap();
    assert!(!plain.to_json().contains("avoidance"));
    let runner = Runner::new(&plain).unwrap();
    let sim = runner.simulator();
    for &id in sim.agent_ids() {
        assert_eq!(sim.agent_avoidance_layers(id).unwrap(), swerve::orca::DEFAULT_AVOIDANCE_LAYERS);
        assert_eq!(sim.agent_avoidance_mask(id).unwrap(), swerve::orca::DEFAULT_AVOIDANCE_MASK);
    }
}

#[test]
fn bad_avoidance_layers_and_masks_are_one_line_problems_of_their_keys() {
    let cases = [
        ("avoidance_mask = 3", "avoidance_mask = -1", 5, "agent_defaults.avoidance_mask", "between 0 and 4294967295"),
        ("avoidance_mask = 0b10", "avoidance_mask = 4294967296", 13, "agents[1].avoidance_mask", "got 4294967296"),
        ("avoidance_layers = 0x2", "avoidance_layers = 2.0", 12, "agents[1].avoidance_layers", "found a number"),
        ("avoidance_layers = 4294967295", "avoidance_layers = \"2\"", 20, "grid[0].avoidance_layers", "found \"2\""),
        ("avoidance_mask = 0\n", "avoidance_mask = [1, 2]\n", 34, "spawn[1].avoidance_mask", "found an array of 2"),
        ("avoidance_layers = 0\n", "avoidance_layer = 0\n", 33, "spawn[1].avoidance_layer", "unknown key"),
    ];
    for (good, bad, line, key, part) in cases {
        let text = LAYERED.replace(good, bad);
        assert_ne!(text, LAYERED, "{good}");
        let problems = Scenario::parse(&text, Format::Toml).unwrap_err();
        assert_eq!(problems.len(), 1, "{bad}: {problems:?}");
        assert!(has(&problems, line, key, part), "{bad}: {problems:?}");
        let err = Scenario::from_toml_str(&text, "layers.toml").unwrap_err().to_string();
        assert!(err.starts_with(&format!("layers.toml:{line}: {key}: ")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // JSON: a whole number written as a float is still not a mask.
    let scenario = Scenario::from_toml_str(LAYERED, "layers").unwrap();
    let json = scenario.to_json().replace("\"avoidance_mask\": 3", "\"avoidance_mask\": 3.0");
    let problems = Scenario::parse(&json, Format::Json).unwrap_err();
    assert!(problems.iter().any(|p| p.key == "agent_defaults.avoidance_mask" && p.message.contains("found a number")));
}

#[test]
fn the_convoy_builtin_keeps_its_line_while_pedestrians_step_aside() {
    let scenario = Scenario::builtin("convoy").unwrap();
    let population = scenario.population().unwrap();
    let vehicles: Vec<_> =
        population.agents.iter().filter(|a| population.groups[a.group as usize] == "vehicles").collect();
    assert_eq!(vehicles.len(), 3);
    assert!(vehicles.iter().all(|a| (a.setup.avoidance_layers, a.setup.avoidance_mask) == (2, 2)));
    assert!(population
        .agents
        .iter()
        .filter(|a| a.setup.params.radius < 0.5)
        .all(|a| (a.setup.avoidance_layers, a.setup.avoidance_mask) == (1, 3)));
    // The vehicles' grid comes last in the file, so they are the last agents.
    let pedestrians = population.agents.len() - vehicles.len();
    let run = |scenario: &Scenario| {
        let mut runner = Runner::new(scenario).unwrap();
        let mut vehicle_drift = 0.0f32;
        let mut closest = f32::INFINITY;
        while !runner.is_finished() {
            runner.step();
            let sim = runner.simulator();
            let positions = sim.positions();
            for v in pedestrians..positions.len() {
                vehicle_drift = vehicle_drift.max(positions[v].y.abs());
                for p in 0..pedestrians {
                    closest = closest.min(positions[v].distance(positions[p]) - 0.9 - 0.3);
                }
            }
        }
        (vehicle_drift, closest, runner.metrics().never_arrived, runner.steps_done())
    };
    let (drift, closest, never_arrived, steps) = run(&scenario);
    // The vehicles ignore the pedestrians: they drive along y = 0 exactly. The pedestrians take
    // the whole avoidance and keep clear of them, and everyone arrives.
    assert_eq!(drift, 0.0, "a vehicle swerved");
    // (Crowds of RVO2 overlap by millimetres to centimetres: 2.7 cm in the crossing built-in.)
    assert!(closest > -0.03, "a pedestrian ran into a vehicle ({closest} m)");
    assert_eq!(never_arrived, 0);
    assert!(steps < scenario.steps, "stopped at the step limit");
    // Without layers (every agent on layer 1 with mask 1, RVO2) the vehicles do swerve.
    let mut rvo2 = scenario.clone();
    rvo2.agent_defaults.avoidance_mask = None;
    for g in &mut rvo2.grid {
        g.params.avoidance_layers = None;
        g.params.avoidance_mask = None;
    }
    let (drift, _, _, _) = run(&rvo2);
    assert!(drift > 0.1, "vehicles kept their line without layers too ({drift} m)");
}
