//! 3-D crowd scenario files (a `[crowd3d]` table): a file steps exactly as the simulator
//! built and driven by hand, generators place what they promise, obstacles go away when
//! told, the metrics agree with brute force over the trajectory, every bad value is a
//! problem with its line and key, and JSON reads the same.

use swerve::orca3d::{AgentParams, Extensions, Mover, Simulator, SymmetryBreaking, Vec3};
use swerve::scenario::{AnyScenario, Crowd3dRunner, Crowd3dScenario, Format, Navigation, Problem};

fn parse(text: &str) -> Crowd3dScenario {
    Crowd3dScenario::parse(text, Format::Toml).unwrap_or_else(|problems| panic!("{problems:#?}"))
}

fn listing(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(|p| p.to_string()).collect()
}

/// Every kind of entry, small.
const MIXED: &str = r#"name = "mixed"
time_step = 0.125
steps = 120

[crowd3d.agent_defaults]
radius = 1.0
time_horizon_obst = 2.0

[crowd3d.extensions]
symmetry_breaking = true

[[crowd3d.agent]]
position = [-12.0, 0.5, 6.0]
goal = [12.0, 0.0, 6.0]
max_speed = 1.5
[[crowd3d.agent]]
position = [12.0, -0.5, 6.0]
goal = [-12.0, 0.0, 6.0]
time_horizon_obst = 4.0

[[crowd3d.lattice]]
origin = [-10.0, -8.0, 3.0]
columns = 2
rows = 3
layers = 2
spacing = [3.0, 3.0, 3.0]
goal = { offset = [20.0, 0.0, 0.0] }
radius = 0.8

[[crowd3d.box]]
min = [-1.0, -1.0, 0.0]
max = [1.0, 1.0, 4.0]

[[crowd3d.mesh]]
vertices = [[-30.0, -30.0, 0.0], [30.0, -30.0, 0.0], [30.0, 30.0, 0.0], [-30.0, 30.0, 0.0]]
triangles = [[0, 1, 2], [0, 2, 3]]

[[crowd3d.mover]]
position = [0.0, -20.0, 6.0]
velocity = [0.0, 1.0, 0.0]
radius = 2.0
"#;

/// The preferred velocity of RVO2-3D's examples, written out here as the oracle.
fn toward(goal: Vec3, p: Vec3) -> Vec3 {
    let g = goal - p;
    if g.x * g.x + g.y * g.y + g.z * g.z > 1.0 {
        g * (1.0 / (g.x * g.x + g.y * g.y + g.z * g.z).sqrt())
    } else {
        g
    }
}

#[test]
fn a_file_steps_as_the_simulator_built_and_driven_by_hand() {
    let scenario = parse(MIXED);
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();

    // The same crowd from the file's numbers, without the library's scenario code.
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    sim.set_extensions(Extensions { symmetry_breaking: Some(SymmetryBreaking::default()), ..Extensions::default() })
        .unwrap();
    sim.add_box_obstacle(Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 4.0)).unwrap();
    let floor = [[-30.0, -30.0, 0.0], [30.0, -30.0, 0.0], [30.0, 30.0, 0.0], [-30.0, 30.0, 0.0]].map(Vec3::from);
    sim.add_obstacle(&floor, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    let mut mover = Mover { position: Vec3::new(0.0, -20.0, 6.0), velocity: Vec3::Y, radius: 2.0 };
    let mover_id = sim.add_mover(mover).unwrap();
    let base = AgentParams { radius: 1.0, ..AgentParams::default() };
    let mut goals = Vec::new();
    let a = sim.add_agent_with(Vec3::new(-12.0, 0.5, 6.0), AgentParams { max_speed: 1.5, ..base }).unwrap();
    sim.set_agent_obstacle_time_horizon(a, 2.0).unwrap();
    goals.push(Vec3::new(12.0, 0.0, 6.0));
    let b = sim.add_agent_with(Vec3::new(12.0, -0.5, 6.0), base).unwrap();
    sim.set_agent_obstacle_time_horizon(b, 4.0).unwrap();
    goals.push(Vec3::new(-12.0, 0.0, 6.0));
    for i in 0..2 {
        for j in 0..3 {
            for k in 0..2 {
                let p = Vec3::new(-10.0 + 3.0 * i as f32, -8.0 + 3.0 * j as f32, 3.0 + 3.0 * k as f32);
                let id = sim.add_agent_with(p, AgentParams { radius: 0.8, ..base }).unwrap();
                sim.set_agent_obstacle_time_horizon(id, 2.0).unwrap();
                goals.push(p + Vec3::new(20.0, 0.0, 0.0));
            }
        }
    }
    assert_eq!(runner.simulator().positions(), sim.positions());
    assert_eq!(runner.goals().collect::<Vec<_>>(), goals);

    let bits = |s: &Simulator| {
        s.positions().iter().chain(s.velocities()).map(|v| v.to_array().map(f32::to_bits)).collect::<Vec<_>>()
    };
    let mut prefs = Vec::new();
    for step in 0..120 {
        prefs.clear();
        prefs.extend(goals.iter().zip(sim.positions()).map(|(&g, &p)| toward(g, p)));
        sim.set_pref_velocities(&prefs).unwrap();
        sim.step();
        mover.position += mover.velocity * 0.125;
        sim.set_mover(mover_id, mover).unwrap();
        runner.step();
        assert_eq!(bits(runner.simulator()), bits(&sim), "step {step}");
        assert_eq!(runner.movers().next(), Some(mover));
    }
    assert!(runner.is_finished());
    // The agents went somewhere: the box and the mover did not stop them.
    let starts = parse(MIXED);
    let starts = starts.population(&starts.obstacles().unwrap()).unwrap();
    let nearer = starts
        .agents
        .iter()
        .zip(sim.positions())
        .filter(|(a, p)| p.distance(a.goal) < a.position.distance(a.goal) - 5.0);
    assert_eq!(nearer.count(), 14);
}

#[test]
fn the_metrics_agree_with_brute_force_over_the_trajectory() {
    let mut scenario = parse(MIXED);
    scenario.crowd3d.extensions.symmetry_breaking = false;
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();
    let radii: Vec<f32> = (0..runner.simulator().num_agents())
        .map(|i| runner.simulator().agent_params(runner.simulator().agent_ids()[i]).unwrap().radius)
        .collect();
    let obstacles: Vec<_> = runner.obstacles().iter().flat_map(|o| o.triangles.clone()).collect();
    let (mut separation, mut clearance, mut mover_clearance) = (f32::INFINITY, f64::INFINITY, f32::INFINITY);
    let mut observe = |runner: &Crowd3dRunner| {
        let p = runner.simulator().positions();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                separation = separation.min(p[i].distance(p[j]) - (radii[i] + radii[j]));
            }
            for t in &obstacles {
                let q = p[i].as_dvec3();
                clearance = clearance.min(t.closest_point(q).distance(q) - f64::from(radii[i]));
            }
            for m in runner.movers() {
                mover_clearance = mover_clearance.min(p[i].distance(m.position) - m.radius - radii[i]);
            }
        }
    };
    observe(&runner);
    while !runner.is_finished() {
        runner.step();
        observe(&runner);
    }
    let m = runner.metrics();
    assert_eq!(m.steps, 120);
    assert_eq!(m.agents, 14);
    assert_eq!(m.min_separation, Some(separation));
    // The box's distance is taken by clamping, the floor's by its triangles: equal to
    // rounding.
    let reported = f64::from(m.min_obstacle_clearance.unwrap());
    assert!((reported - clearance).abs() < 1e-5, "{reported} against {clearance}");
    assert_eq!(m.min_mover_clearance, Some(mover_clearance));
    // Hard obstacle planes: no agent came into an obstacle.
    assert!(clearance > -1e-3, "an agent went {clearance} m into an obstacle");
    assert_eq!(m.obstacle_overlaps, 0);
    assert_eq!(m.arrived + m.never_arrived, 14);
}

#[test]
fn sphere_and_lattice_generators_place_what_they_promise() {
    let text = r#"name = "gen"
time_step = 0.1
steps = 1
[[crowd3d.sphere]]
count = 50
center = [5.0, -3.0, 20.0]
sphere_radius = 30.0
[[crowd3d.lattice]]
origin = [100.0, 0.0, 0.0]
columns = 3
rows = 2
layers = 4
spacing = [4.0, -5.0, 6.0]
goal = "opposite"
"#;
    let scenario = parse(text);
    let obstacles = scenario.obstacles().unwrap();
    let population = scenario.population(&obstacles).unwrap();
    assert_eq!(population.agents.len(), 50 + 24);
    assert_eq!(population.groups, ["sphere-0", "lattice-0"]);
    let centre = Vec3::new(5.0, -3.0, 20.0);
    for a in &population.agents[..50] {
        assert!(((a.position - centre).length() - 30.0).abs() < 1e-3, "{}", a.position);
        // The antipode through the centre.
        assert!((a.goal + a.position - 2.0 * centre).length() < 1e-4, "{} → {}", a.position, a.goal);
    }
    // Spread out: no two of 50 points on a sphere of 30 m closer than 6 m.
    for (i, a) in population.agents[..50].iter().enumerate() {
        for b in &population.agents[i + 1..50] {
            assert!(a.position.distance(b.position) > 6.0);
        }
    }
    let lattice = &population.agents[50..];
    let middle = Vec3::new(104.0, -2.5, 9.0);
    for (n, a) in lattice.iter().enumerate() {
        let (i, j, k) = (n / 8, n / 4 % 2, n % 4);
        assert_eq!(a.position, Vec3::new(100.0 + 4.0 * i as f32, -5.0 * j as f32, 6.0 * k as f32));
        assert!((a.goal - (2.0 * middle - a.position)).length() < 1e-4);
    }
}

const RANDOM: &str = r#"name = "random"
time_step = 0.1
steps = 1
[[crowd3d.random]]
count = 120
min = [0.0, 0.0, 0.0]
max = [20.0, 20.0, 20.0]
seed = 7
goal = [50.0, 50.0, 50.0]
[[crowd3d.box]]
min = [5.0, 5.0, 5.0]
max = [15.0, 15.0, 15.0]
"#;

#[test]
fn random_agents_are_apart_clear_of_obstacles_and_reproducible() {
    let scenario = parse(RANDOM);
    let obstacles = scenario.obstacles().unwrap();
    let population = scenario.population(&obstacles).unwrap();
    let positions: Vec<Vec3> = population.agents.iter().map(|a| a.position).collect();
    assert_eq!(positions.len(), 120);
    for (i, &p) in positions.iter().enumerate() {
        assert!(p.cmpge(Vec3::ZERO).all() && p.cmple(Vec3::splat(20.0)).all(), "{p}");
        // Outside the box grown by the radius (1.5 m), by its own distance.
        let nearest = p.clamp(Vec3::splat(5.0), Vec3::splat(15.0));
        assert!(p.distance(nearest) >= 1.5, "{p} is {} m from the box", p.distance(nearest));
        for &q in &positions[i + 1..] {
            assert!(p.distance(q) >= 3.0, "{p} and {q} overlap");
        }
    }
    let again = parse(RANDOM).population(&obstacles).unwrap();
    assert_eq!(again.agents.iter().map(|a| a.position).collect::<Vec<_>>(), positions);
    let other = parse(&RANDOM.replace("seed = 7", "seed = 8")).population(&obstacles).unwrap();
    assert_ne!(other.agents.iter().map(|a| a.position).collect::<Vec<_>>(), positions);

    // A region that cannot hold them is the count's problem.
    let crowded = RANDOM.replace("count = 120", "count = 2000");
    let problems = Crowd3dScenario::parse(&crowded, Format::Toml).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].key, "crowd3d.random[0].count");
    assert_eq!(problems[0].line, Some(5));
    assert!(problems[0].message.contains("could place only"), "{}", problems[0].message);
}

#[test]
fn an_obstacle_goes_away_before_the_step_its_time_reaches() {
    // A door (a box) across the way, removed at 1.0 s with steps of 0.25 s: before step 4.
    let text = r#"name = "door"
time_step = 0.25
steps = 200
stop = "all-at-goal"
[[crowd3d.agent]]
position = [-6.0, 0.0, 5.0]
goal = [6.0, 0.0, 5.0]
[[crowd3d.box]]
min = [-0.5, -10.0, 0.0]
max = [0.5, 10.0, 10.0]
remove_at = 1.0
[[crowd3d.box]]
min = [20.0, 20.0, 0.0]
max = [21.0, 21.0, 1.0]
"#;
    let mut runner = Crowd3dRunner::new(&parse(text)).unwrap();
    assert_eq!(runner.simulator().obstacles().count(), 2);
    for step in 1..=6 {
        runner.step();
        let present = runner.simulator().obstacles().count();
        assert_eq!(present, if step < 4 { 2 } else { 1 }, "after {step} steps");
        assert_eq!(runner.obstacle_present(0), step < 4);
        assert!(runner.obstacle_present(1));
    }
    while !runner.is_finished() {
        runner.step();
    }
    let m = runner.metrics();
    assert_eq!(m.arrived, 1, "{m:?}");
    assert!(runner.steps_done() < 200, "the run stops once the agent is at its goal");
    assert!(runner.all_at_goal());

    // Removed at time 0, the door is in no step: the agent flies straight through.
    let open = text.replace("remove_at = 1.0", "remove_at = 0.0");
    let runner = Crowd3dRunner::new(&parse(&open)).unwrap();
    assert_eq!(runner.simulator().obstacles().count(), 1);
}

#[test]
fn every_bad_value_is_a_problem_naming_its_line_and_key() {
    // Lines 1–6; each case's entry starts on line 7.
    let head = "name = \"bad\"\ntime_step = 0.1\nsteps = 10\n[[crowd3d.agent]]\nposition = [-45.0, 0.0, 50.0]\ngoal = [50.0, 0.0, 50.0]\n";
    let cases: &[(&str, &str, usize, &str)] = &[
        ("[[crowd3d.box]]\nmin = [0.0, 0.0, 0.0]\nmax = [0.0, 1.0, 1.0]\n", "crowd3d.box[0].max", 9, "greater than min"),
        ("[[crowd3d.box]]\nmin = [0.0, 0.0, 0.0]\nmax = [0.00001, 1.0, 1.0]\n", "crowd3d.box[0]", 7, "box thickness"),
        (
            "[[crowd3d.mesh]]\nvertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]\ntriangles = [[0, 1, 2]]\n",
            "crowd3d.mesh[0].triangles",
            9,
            "triangle 0 has no area",
        ),
        (
            "[[crowd3d.mesh]]\nvertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]\ntriangles = [[0, 1, 3]]\n",
            "crowd3d.mesh[0].triangles",
            9,
            "3",
        ),
        (
            "[[crowd3d.mesh]]\nvertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]\ntriangles = [[0, 1, -2]]\n",
            "crowd3d.mesh[0].triangles[0]",
            9,
            "vertex indices",
        ),
        ("[[crowd3d.mover]]\nposition = [0.0, 0.0, 20.0]\nradius = 0.0\n", "crowd3d.mover[0].radius", 9, "greater than 0"),
        // Movers on routes: a position beside the route, speed without a route, a route of one
        // place, no speed, an unknown repeat.
        (
            "[[crowd3d.mover]]\nradius = 1.0\nroute = [[0.0, 0.0, 20.0], [9.0, 0.0, 20.0]]\nspeed = 1.0\nposition = [0.0, 0.0, 20.0]\n",
            "crowd3d.mover[0].position",
            11,
            "starts at its first waypoint",
        ),
        ("[[crowd3d.mover]]\nradius = 1.0\nposition = [0.0, 0.0, 20.0]\nspeed = 1.0\n", "crowd3d.mover[0].speed", 10, "only with a route"),
        (
            "[[crowd3d.mover]]\nradius = 1.0\nroute = [[0.0, 0.0, 20.0], [0.0, 0.0, 20.0]]\nspeed = 1.0\n",
            "crowd3d.mover[0].route",
            9,
            "route's count of different waypoints must be at least 2, got 1",
        ),
        ("[[crowd3d.mover]]\nradius = 1.0\nroute = [[0.0, 0.0, 20.0]]\nspeed = 1.0\n", "crowd3d.mover[0].route", 9, "at least 2"),
        ("[[crowd3d.mover]]\nradius = 1.0\nroute = [[0.0, 0.0, 20.0], [9.0, 0.0, 20.0]]\n", "crowd3d.mover[0].speed", 7, "missing"),
        (
            "[[crowd3d.mover]]\nradius = 1.0\nroute = [[0.0, 0.0, 20.0], [9.0, 0.0, 20.0]]\nspeed = 1.0\nrepeat = \"loop\"\n",
            "crowd3d.mover[0].repeat",
            11,
            "expected \"cycle\", \"back-and-forth\" or \"once\", got \"loop\"",
        ),
        (
            "[[crowd3d.lattice]]\norigin = [0.0, 0.0, 20.0]\ncolumns = 2\nrows = 2\nlayers = 0\nspacing = [3.0, 3.0, 3.0]\ngoal = \"opposite\"\n",
            "crowd3d.lattice[0].layers",
            11,
            "at least 1",
        ),
        ("[[crowd3d.sphere]]\ncount = 3\nsphere_radius = 10.0\ngoal = [1.0, 2.0]\n", "crowd3d.sphere[0].goal", 10, "[x, y, z]"),
        ("[crowd3d.agent_defaults]\nradius = -1.0\n", "crowd3d.agent_defaults.radius", 8, "greater than 0"),
        ("[crowd3d.extensions]\nsafe_mod = true\n", "crowd3d.extensions.safe_mod", 8, "unknown key"),
        ("[[crowd3d.agent]]\nposition = [0.0, 0.0, 9.0]\ngoal = [1.0, 1.0, 9.0]\nspeed = 1.0\n", "crowd3d.agent[1].speed", 10, "unknown key"),
        // The first agent starts inside a box; its goal lies inside one that stays.
        (
            "[[crowd3d.box]]\nmin = [-50.0, -5.0, 45.0]\nmax = [-40.0, 5.0, 55.0]\n",
            "crowd3d.agent[0].position",
            5,
            "starts within its radius (1.5 m) of crowd3d.box[0]",
        ),
        (
            "[[crowd3d.box]]\nmin = [45.0, -5.0, 45.0]\nmax = [55.0, 5.0, 55.0]\n",
            "crowd3d.agent[0].goal",
            6,
            "has its goal within its radius (1.5 m) of crowd3d.box[0], which stays",
        ),
        // A lattice spaced so far apart that its third agent lies beyond the float range.
        (
            "[[crowd3d.lattice]]\norigin = [0.0, 0.0, 20.0]\ncolumns = 3\nrows = 1\nlayers = 1\nspacing = [3e38, 5.0, 5.0]\ngoal = { offset = [0.0, 0.0, 10.0] }\n",
            "crowd3d.lattice[0]",
            7,
            "agent 2 of it has a start beyond the float range",
        ),
        // A lattice agent 1 m above a floor, for a radius of 1.5 m.
        (
            "[[crowd3d.lattice]]\norigin = [0.0, 0.0, 1.0]\ncolumns = 2\nrows = 1\nlayers = 1\nspacing = [5.0, 5.0, 5.0]\ngoal = { offset = [0.0, 0.0, 10.0] }\n[[crowd3d.mesh]]\nvertices = [[-9.0, -9.0, 0.0], [9.0, -9.0, 0.0], [0.0, 9.0, 0.0]]\ntriangles = [[0, 1, 2]]\n",
            "crowd3d.lattice[0]",
            7,
            "agent 0 of it starts within its radius (1.5 m) of crowd3d.mesh[0]",
        ),
    ];
    for &(tail, key, line, message) in cases {
        let text = format!("{head}{tail}");
        let problems = match Crowd3dScenario::parse(&text, Format::Toml) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(problems) => problems,
        };
        let Some(p) = problems.iter().find(|p| p.key == key) else {
            panic!("no problem at {key} in {:#?}\n{text}", listing(&problems))
        };
        assert!(p.message.contains(message), "{key}: {}", p.message);
        assert_eq!(p.line, Some(line), "{key}: {p}\n{text}");
    }
}

#[test]
fn the_kinds_of_scenario_are_told_apart_and_not_mixed() {
    let crowd = "name = \"c\"\ntime_step = 0.1\nsteps = 1\n[[crowd3d.agent]]\nposition = [0.0, 0.0, 0.0]\n";
    assert!(matches!(AnyScenario::parse(crowd, Format::Toml), Ok(AnyScenario::Crowd3d(_))));
    // A planar key, a ball world's table and an unknown key in a 3-D crowd file.
    let mixed = format!("{crowd}[[obstacles]]\nvertices = [[0.0, 0.0], [1.0, 0.0]]\n[spheres]\n");
    let Err(problems) = Crowd3dScenario::parse(&format!("colour = 1\n{mixed}"), Format::Toml) else { panic!() };
    let text = listing(&problems).join("\n");
    assert!(text.contains("obstacles: a 2-D scenario's key"), "{text}");
    assert!(text.contains("spheres: a 3-D ball scenario's table"), "{text}");
    assert!(text.contains("colour: unknown key"), "{text}");
    // Read as any kind, `[spheres]` decides first and names the crowd's table.
    let Err(problems) = AnyScenario::parse(&mixed, Format::Toml) else { panic!() };
    assert!(listing(&problems).join("\n").contains("crowd3d: a 3-D crowd's table"), "{problems:#?}");
    // The planar reader refuses the table.
    assert!(swerve::scenario::Scenario::parse(crowd, Format::Toml).is_err());
    // A file with the table but no agents.
    let empty =
        "name = \"e\"\ntime_step = 0.1\nsteps = 1\n[[crowd3d.box]]\nmin = [0.0, 0.0, 0.0]\nmax = [1.0, 1.0, 1.0]\n";
    let Err(problems) = Crowd3dScenario::parse(empty, Format::Toml) else { panic!() };
    assert!(problems[0].message.starts_with("no agents"), "{problems:#?}");
}

#[test]
fn json_files_read_like_toml_and_round_trip() {
    let scenario = parse(MIXED);
    let json = scenario.to_json();
    let Ok(AnyScenario::Crowd3d(again)) = AnyScenario::parse(&json, Format::Json) else { panic!("{json}") };
    assert_eq!(again, scenario);
    for name in ["window3d", "slalom3d"] {
        let builtin = Crowd3dScenario::builtin(name).unwrap();
        let Ok(AnyScenario::Crowd3d(again)) = AnyScenario::parse(&builtin.to_json(), Format::Json) else { panic!() };
        assert_eq!(again, builtin);
    }
}

#[test]
fn the_window_swarms_keep_clear_of_the_wall_and_each_other() {
    let scenario = Crowd3dScenario::builtin("window3d").unwrap();
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();
    assert_eq!(runner.simulator().num_agents(), 128);
    assert_eq!(runner.groups(), ["west", "east"]);
    runner.set_max_steps(400);
    while !runner.is_finished() {
        runner.step();
    }
    let m = runner.metrics();
    // By 400 steps (50 s) the swarms have met in the window; the wall's planes are hard.
    assert_eq!(m.obstacle_overlaps, 0, "{m:?}");
    assert!(m.min_obstacle_clearance.unwrap() > -1e-3, "{m:?}");
    assert!(m.min_mover_clearance.unwrap() > -1e-3, "{m:?}");
    let through = runner.simulator().positions().iter().zip(runner.goals()).filter(|(p, g)| (p.x > 0.0) == (g.x > 0.0));
    assert!(through.count() > 0, "nobody is on the far side of the wall yet");
}

/// The windows of `slalom3d`: (wall x, y range, z range).
const SLALOM_WINDOWS: [(f32, [f32; 2], [f32; 2]); 2] =
    [(-15.0, [-24.0, -12.0], [14.0, 26.0]), (15.0, [12.0, 24.0], [14.0, 26.0])];

#[test]
fn roadmap_navigation_threads_the_windows_that_straight_flight_stalls_at() {
    let scenario = Crowd3dScenario::builtin("slalom3d").unwrap();
    assert_eq!(scenario.navigation, Navigation::Roadmap);
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();
    let roadmap = runner.roadmap().expect("a roadmap");
    // Built for the drones' radius plus the margin; every vertex and edge keeps it.
    assert_eq!(roadmap.clearance(), 1.5 + 0.25);
    let sim = runner.simulator();
    assert!(roadmap.vertices().len() > 100 && roadmap.goals().len() == 54);
    for (a, b) in roadmap.edges() {
        assert!(sim.query_visibility(roadmap.vertices()[a], roadmap.vertices()[b], 1.75));
    }
    // Every drone passes each wall through its window (not round its ends or over it),
    // keeps clear of the walls, and arrives.
    let mut last: Vec<Vec3> = runner.simulator().positions().to_vec();
    let mut crossings = 0;
    while !runner.is_finished() {
        runner.step();
        // No agent leaves in this file: positions stay in agent order.
        for (before, &now) in last.iter_mut().zip(runner.simulator().positions()) {
            for (x, ys, zs) in SLALOM_WINDOWS {
                if (before.x < x) != (now.x < x) {
                    let at = before.lerp(now, (x - before.x) / (now.x - before.x));
                    assert!(at.y > ys[0] && at.y < ys[1] && at.z > zs[0] && at.z < zs[1], "crossed x = {x} at {at}");
                    crossings += 1;
                }
            }
            *before = now;
        }
    }
    let m = runner.metrics();
    assert_eq!((m.arrived, crossings), (54, 2 * 54), "{m:?}");
    assert_eq!(m.obstacle_overlaps, 0, "{m:?}");
    assert!(m.min_obstacle_clearance.unwrap() > -1e-3, "{m:?}");
    // Flying straight at their goals, the swarms press into the first wall and none arrives.
    let mut straight = scenario.clone();
    straight.navigation = Navigation::Straight;
    let mut runner = Crowd3dRunner::new(&straight).unwrap();
    assert!(runner.roadmap().is_none());
    runner.set_max_steps(m.steps);
    while !runner.is_finished() {
        runner.step();
    }
    assert_eq!(runner.metrics().arrived, 0, "{:?}", runner.metrics());
}

/// A mesh wall (two triangles, 20 m wide and high) between an agent and its goal, and a
/// box far away; `{navigation}` and `{roadmap}` are filled in.
const MESH_WALL: &str = r#"name = "mesh-wall"
time_step = 0.125
steps = 600
stop = "all-at-goal"
{navigation}
[[crowd3d.agent]]
position = [-8.0, 0.0, 5.0]
goal = [8.0, 0.0, 5.0]
[[crowd3d.mesh]]
vertices = [[0.0, -10.0, 0.0], [0.0, 10.0, 0.0], [0.0, 10.0, 20.0], [0.0, -10.0, 20.0]]
triangles = [[0, 1, 2], [0, 2, 3]]
[[crowd3d.box]]
min = [40.0, 40.0, 0.0]
max = [41.0, 41.0, 1.0]
remove_at = 2.0
{roadmap}
"#;

fn mesh_wall(navigation: &str, roadmap: &str) -> Crowd3dScenario {
    parse(&MESH_WALL.replace("{navigation}", navigation).replace("{roadmap}", roadmap))
}

#[test]
fn hand_placed_vertices_lead_round_a_mesh_and_the_roadmap_is_built_again_when_a_box_goes() {
    let run = |scenario: &Crowd3dScenario| {
        let mut runner = Crowd3dRunner::new(scenario).unwrap();
        while !runner.is_finished() {
            runner.step();
        }
        runner
    };
    // Meshes give the roadmap no vertices of their own: without hand-placed ones the agent
    // sees none, flies straight and stalls at the wall, as without a roadmap.
    for navigation in ["", "navigation = \"roadmap\""] {
        let runner = run(&mesh_wall(navigation, ""));
        assert_eq!(runner.metrics().arrived, 0, "{navigation}: {:?}", runner.metrics());
    }
    // Two vertices past the wall's south edge: round it to the goal.
    let roadmap = "[roadmap]\nvertices = [[-3.0, -13.0, 5.0], [3.0, -13.0, 5.0]]";
    let scenario = mesh_wall("navigation = \"roadmap\"", roadmap);
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();
    let boxes_vertices = runner.roadmap().unwrap().vertices().len() - 2;
    assert_eq!(boxes_vertices, 8 + 4 * 3 * ((1.0 + 2.0 * 1.5 * 1.01 + 2e-3) / 6.0f32).ceil() as usize - 12);
    assert_eq!(&runner.roadmap().unwrap().vertices()[..2], [Vec3::new(-3.0, -13.0, 5.0), Vec3::new(3.0, -13.0, 5.0)]);
    for _ in 0..16 {
        runner.step();
    }
    // The box went at 2 s (after 16 steps): the roadmap has the hand-placed vertices only.
    assert_eq!(runner.roadmap().unwrap().vertices().len(), 2);
    while !runner.is_finished() {
        runner.step();
    }
    let m = runner.metrics();
    assert_eq!(m.arrived, 1, "{m:?}");
    assert_eq!(m.obstacle_overlaps, 0, "{m:?}");
}

#[test]
fn roadmap_options_are_checked_and_a_too_dense_sampling_is_refused() {
    let problems = |text: &str| match Crowd3dScenario::parse(text, Format::Toml) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(problems) => listing(&problems).join("\n"),
    };
    let roadmap = "navigation = \"roadmap\"";
    let text = MESH_WALL.replace("{navigation}", "navigation = \"fly\"").replace("{roadmap}", "");
    assert!(
        problems(&text).contains("line 5: navigation: expected \"straight\" or \"roadmap\", got \"fly\""),
        "{}",
        problems(&text)
    );
    for (table, expected) in [
        ("[roadmap]\nedge_spacing = 0.0", "line 17: roadmap.edge_spacing: must be greater than 0"),
        ("[roadmap]\nmargin = -1.0", "line 17: roadmap.margin"),
        ("[roadmap]\nmargin = 3.4e38", "line 17: roadmap.margin: the roadmap's clearance (largest radius + margin: 340000000000000000000000000000000000000 m) or edge spacing (inf m) is beyond the float range"),
        ("[roadmap]\nspacing = 1.0", "line 17: roadmap.spacing: unknown key"),
        ("[roadmap]\nvertices = [[1.0, 2.0]]", "line 17: roadmap.vertices[0]"),
        // The box's edges cut every 1 mm: far beyond the vertex limit, refused by the
        // reader rather than when the run starts.
        (
            "[roadmap]\nedge_spacing = 0.001",
            "line 17: roadmap.edge_spacing: the boxes' edges sampled every 0.001 m give",
        ),
    ] {
        let text = MESH_WALL.replace("{navigation}", roadmap).replace("{roadmap}", table);
        let found = problems(&text);
        assert!(found.contains(expected), "{table}: {found}");
    }
    // Without the key, the problem is the navigation's: a box too large for the default.
    let text = MESH_WALL
        .replace("{navigation}", roadmap)
        .replace("{roadmap}", "")
        .replace("[41.0, 41.0, 1.0]", "[4e4, 4e4, 4e4]");
    assert!(
        problems(&text).contains("line 5: navigation: the boxes' edges sampled every 6 m give"),
        "{}",
        problems(&text)
    );
}

#[test]
fn the_documented_example_is_valid() {
    let doc = include_str!("../../../docs/scenario-format.md");
    let section = doc.split("## Crowds in 3-D").nth(1).expect("the section");
    let example = section.split("```toml").nth(1).and_then(|s| s.split("```").next()).expect("its example");
    let scenario = parse(example);
    let runner = Crowd3dRunner::new(&scenario).unwrap();
    assert!(runner.simulator().num_agents() > 0);
}

#[test]
fn spawners_add_agents_on_time_and_sinks_take_them_away_at_their_goal() {
    // Two a second from t = 1 s, ten in all, in a box wide enough that every spot is free;
    // each flies 12 m up and leaves there.
    let text = r#"name = "stream"
time_step = 0.125
steps = 2000
stop = "all-at-goal"
[[crowd3d.agent]]                 # one that stays to the end: the run stops once it is home
position = [40.0, 0.0, 5.0]
goal = [40.0, 0.0, 10.0]
[[crowd3d.spawn]]
rate = 2.0
limit = 10
min = [-20.0, -20.0, 0.0]
max = [20.0, 20.0, 4.0]
start = 1.0
seed = 3
goal = { offset = [0.0, 0.0, 12.0] }
remove_at_goal = true
radius = 0.5
"#;
    let scenario = parse(text);
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();
    assert_eq!(runner.max_agents(), 11);
    assert_eq!(runner.groups(), ["agents", "spawn-0"]);
    let mut seen = std::collections::BTreeMap::new();
    let mut left = 0;
    while !runner.is_finished() {
        let before: Vec<_> = runner.simulator().agent_ids().to_vec();
        runner.step();
        let t = runner.simulator().global_time();
        // Due by now: one at 1 s, then one every 0.5 s (the planar rule), at most ten.
        let due = if t + 1e-6 < 1.0 { 0 } else { (((t - 1.0) * 2.0).floor() as usize + 1).min(10) };
        assert_eq!(runner.agents_added(), 1 + due, "at {t} s");
        for (&id, &p) in runner.simulator().agent_ids().iter().zip(runner.simulator().positions()) {
            if id.0 > 0 && !seen.contains_key(&id.0) {
                // A new agent: inside the region, its goal 12 m above where it appeared.
                assert!(p.cmpge(Vec3::new(-20.0, -20.0, 0.0)).all() && p.cmple(Vec3::new(20.0, 20.0, 4.0)).all());
                assert_eq!(runner.goal(id), Some(p + Vec3::new(0.0, 0.0, 12.0)));
                seen.insert(id.0, p);
            }
        }
        // Those that left had reached their goal.
        for id in before.iter().filter(|id| !runner.simulator().contains_agent(**id)) {
            let goal = runner.goal(*id).unwrap();
            assert!(seen.contains_key(&id.0), "{id:?}");
            assert!(goal.z >= 12.0, "{id:?} left before reaching {goal}");
            left += 1;
        }
    }
    assert_eq!(seen.len(), 10);
    assert_eq!(left, 10, "every spawned agent left at its goal");
    assert_eq!(runner.simulator().num_agents(), 1, "only the listed agent is left");
    assert!(runner.steps_done() < 2000);
    let m = runner.metrics();
    assert_eq!((m.agents, m.arrived), (11, 11), "{m:?}");
    // Times to goal count from each agent's appearance: about 12 m at 1 m/s.
    assert!(m.time_to_goal_max.unwrap() < 20.0, "{m:?}");

    // A spawn point taken by the last agent spawned waits: at 0.25 s apart and 1 m/s, agents
    // of 1.5 m radius need 3 s to clear the point for the next.
    let crowded = text
        .replace("min = [-20.0, -20.0, 0.0]", "min = [0.0, 0.0, 0.0]")
        .replace("max = [20.0, 20.0, 4.0]", "max = [0.0, 0.0, 0.0]")
        .replace("rate = 2.0", "rate = 4.0")
        .replace("radius = 0.5", "radius = 1.5");
    let mut runner = Crowd3dRunner::new(&parse(&crowded)).unwrap();
    for _ in 0..24 {
        runner.step();
    }
    // At 3 s: the first at 1 s, the next once the first is 3 m away (about 4 s): one.
    assert_eq!(runner.agents_added(), 2, "spawned onto an occupied point");
}

#[test]
fn a_spawner_needs_a_goal_it_can_reach_and_a_region_outside_the_boxes() {
    let head =
        "name = \"s\"\ntime_step = 0.1\nsteps = 10\n[[crowd3d.box]]\nmin = [0.0, 0.0, 0.0]\nmax = [10.0, 10.0, 10.0]\n";
    let cases = [
        (
            "goal = \"opposite\"\nmin = [20.0, 0.0, 0.0]\nmax = [30.0, 1.0, 1.0]\n",
            "crowd3d.spawn[0].goal",
            "needs a centre",
        ),
        (
            "goal = [5.0, 5.0, 5.0]\nmin = [20.0, 0.0, 0.0]\nmax = [30.0, 1.0, 1.0]\n",
            "crowd3d.spawn[0].goal",
            "which stays",
        ),
        (
            "goal = [50.0, 5.0, 5.0]\nmin = [2.0, 2.0, 2.0]\nmax = [3.0, 3.0, 3.0]\n",
            "crowd3d.spawn[0].min",
            "no agent could ever be spawned",
        ),
        (
            "goal = [50.0, 5.0, 5.0]\nmin = [20.0, 0.0, 0.0]\nmax = [30.0, 1.0, 1.0]\nrate = 0.0\n",
            "crowd3d.spawn[0].rate",
            "greater than 0",
        ),
    ];
    for (body, key, message) in cases {
        let rate = if body.contains("rate") { "" } else { "rate = 1.0\n" };
        let text = format!("{head}[[crowd3d.spawn]]\nlimit = 3\n{rate}{body}");
        let problems = Crowd3dScenario::parse(&text, Format::Toml).unwrap_err();
        let Some(p) = problems.iter().find(|p| p.key == key) else { panic!("no {key} in {problems:#?}") };
        assert!(p.message.contains(message), "{p}");
        assert!(p.line.is_some(), "{p}");
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Values a mutation puts in place of a key's value: wrong shapes, extremes, zero,
    /// negatives, goal rules.
    const VALUES: [&str; 13] = [
        "[0, 1, 2]",
        "[3e38, -3e38, 0]",
        "[1e-30, 0, 0]",
        "-1",
        "0",
        "2",
        "2.5",
        "\"opposite\"",
        "[[0, 0, 0], [1, 0, 0], [0, 1, 0]]",
        "[[0, 1, 2], [0, 2, 5]]",
        "{ offset = [1, 1, 1] }",
        "true",
        "1e40",
    ];

    /// Every kind of entry, valid, with a spawner and a sink: the file the mutations start from.
    fn base() -> Vec<String> {
        let spawn = "[[crowd3d.spawn]]\nrate = 2.0\nlimit = 3\nmin = [20.0, 0.0, 5.0]\nmax = [22.0, 2.0, 6.0]\n\
                     goal = [-20.0, 0.0, 5.0]\nremove_at_goal = true\n\
                     [[crowd3d.sphere]]\ncount = 4\ncenter = [0.0, 30.0, 10.0]\nsphere_radius = 6.0\n\
                     [[crowd3d.random]]\ncount = 3\nmin = [-30.0, -30.0, 5.0]\nmax = [-20.0, -20.0, 9.0]\nseed = 1\n\
                     goal = { through = [0.0, 0.0, 7.0] }\n";
        // Roadmap navigation, so that its options and the rebuild are fuzzed too.
        let mixed = MIXED.replace("steps = 120\n", "steps = 120\nnavigation = \"roadmap\"\n");
        let roadmap = "[roadmap]\nmargin = 0.5\nedge_spacing = 3.0\nvertices = [[0.0, -5.0, 6.0]]\n";
        mixed.lines().chain(spawn.lines()).chain(roadmap.lines()).map(String::from).collect()
    }

    /// One edit of the base file: delete a line, replace a value, or repeat a line.
    fn edit() -> impl Strategy<Value = (usize, u8, usize)> {
        (any::<usize>(), 0u8..3, 0..VALUES.len())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn reading_and_running_never_panic_and_every_rejection_says_why(
            edits in prop::collection::vec(edit(), 0..4),
        ) {
            let mut lines = base();
            for (at, kind, value) in edits {
                let at = at % lines.len();
                match kind {
                    0 => {
                        lines.remove(at);
                    }
                    1 => {
                        if let Some((key, _)) = lines[at].split_once(" = ") {
                            lines[at] = format!("{key} = {}", VALUES[value]);
                        }
                    }
                    _ => {
                        let copy = lines[at].clone();
                        lines.insert(at, copy);
                    }
                }
            }
            let text = lines.join("\n");
            match AnyScenario::parse(&text, Format::Toml) {
                Ok(AnyScenario::Crowd3d(s)) => {
                    // An accepted scenario can be run.
                    let mut runner = Crowd3dRunner::new(&s).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                    for _ in 0..3 {
                        runner.step();
                    }
                    let _ = runner.metrics();
                }
                Ok(_) => {}
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

/// A mover on a route flies it as the file says: from its first waypoint, at its speed, turning
/// at the ends (back and forth), and the agents keep clear of it; the file survives a trip
/// through JSON.
#[test]
fn a_mover_on_a_route_patrols_it_and_the_agents_keep_clear() {
    let text = "name = \"patrol\"\ntime_step = 0.125\nsteps = 400\n\
        [[crowd3d.lattice]]\norigin = [-20.0, -3.0, 10.0]\ncolumns = 2\nrows = 3\nlayers = 2\nspacing = [3.0, 3.0, 3.0]\n\
        goal = { offset = [40.0, 0.0, 0.0] }\n\
        [[crowd3d.mover]]\nradius = 2.0\nroute = [[0.0, -15.0, 12.0], [0.0, 15.0, 12.0], [5.0, 15.0, 12.0]]\n\
        speed = 2.5\nrepeat = \"back-and-forth\"\n";
    let scenario = parse(text);
    let Ok(AnyScenario::Crowd3d(again)) = AnyScenario::parse(&scenario.to_json(), Format::Json) else { panic!() };
    assert_eq!(again, scenario, "through JSON and back");
    let mut runner = Crowd3dRunner::new(&scenario).unwrap();
    let waypoints = [Vec3::new(0.0, -15.0, 12.0), Vec3::new(0.0, 15.0, 12.0), Vec3::new(5.0, 15.0, 12.0)];
    let start = runner.movers().next().unwrap();
    assert_eq!(start.position, waypoints[0]);
    assert_eq!(start.velocity, Vec3::new(0.0, 2.5, 0.0), "along the first leg at its speed");
    let on_route = |p: Vec3| {
        waypoints.windows(2).any(|leg| {
            let (a, b) = (leg[0], leg[1]);
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            p.distance(a + (b - a) * t) < 1e-4
        })
    };
    // The route is 35 m: at 2.5 m/s, out in 14 s (112 steps) and back in another 14.
    let (mut last, mut turned, mut home) = (start.position, 0, None);
    let (mut previous_velocity, mut predicted) = (start.velocity, start.position + start.velocity * 0.125);
    while !runner.is_finished() {
        runner.step();
        let m = runner.movers().next().unwrap();
        // Its velocity said where the step would take it.
        assert!(
            m.position.distance(predicted) < 1e-4,
            "step {}: at {}, not {predicted}",
            runner.steps_done(),
            m.position
        );
        predicted = m.position + m.velocity * 0.125;
        assert!(on_route(m.position), "step {}: {} is off the route", runner.steps_done(), m.position);
        let moved = m.position.distance(last);
        assert!(moved <= 2.5 * 0.125 + 1e-4, "step {}: moved {moved} m", runner.steps_done());
        // The velocity takes it to where it will be after the next step (along a leg, the
        // leg's direction at its speed; round a corner or a turn, the chord).
        assert!(m.velocity.length() <= 2.5 + 1e-4);
        if m.velocity.length() > 1.0 {
            turned += usize::from(m.velocity.dot(previous_velocity) < 0.0);
            previous_velocity = m.velocity;
        }
        if home.is_none() && runner.steps_done() > 1 && m.position.distance(waypoints[0]) < 1e-3 {
            home = Some(runner.steps_done());
        }
        last = m.position;
    }
    assert_eq!(home, Some(224), "back at the start after 70 m");
    assert!(turned >= 2, "it turned at both ends: {turned}");
    let metrics = runner.metrics();
    assert!(metrics.min_mover_clearance.unwrap() > -1e-3, "{metrics:?}");
}

/// Spawned drones start clear of the movers (a parked sphere fills much of the region).
#[test]
fn spawned_agents_start_clear_of_the_movers() {
    let text = "name = \"spawn\"\ntime_step = 0.125\nsteps = 30\n[crowd3d.agent_defaults]\nradius = 0.5\n\
        [[crowd3d.spawn]]\nrate = 40.0\nlimit = 20\nmin = [-3.0, -3.0, -3.0]\nmax = [3.0, 3.0, 3.0]\nseed = 7\n\
        goal = [40.0, 0.0, 0.0]\n[[crowd3d.mover]]\nradius = 2.5\nposition = [0.0, 0.0, 0.0]\n";
    let mut runner = Crowd3dRunner::new(&parse(text)).unwrap();
    let mut seen = std::collections::HashSet::new();
    while !runner.is_finished() {
        let sim = runner.simulator();
        for (id, p) in sim.agent_ids().iter().zip(sim.positions()) {
            if seen.insert(id.0) {
                assert!(p.length() >= 2.5 + 0.5 - 1e-5, "agent {} started at {p}, inside the mover", id.0);
            }
        }
        runner.step();
    }
    assert_eq!(seen.len(), 20, "every agent of the spawner came");
}
