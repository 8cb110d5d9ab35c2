//! Movers in planar scenario files (`[[movers]]`): discs the agents avoid, flying straight or
//! along a route. The reader names every bad value at its line and key; the runner flies them
//! as the file says, the crowd keeps clear, and the metrics agree with a brute-force pass over
//! the run.

use swerve::scenario::{AnyScenario, Format, Problem, Runner, Scenario};
use swerve::Vec2;

/// Two rows of agents crossing a corridor that a patrolling disc and a straight one cross.
const CROSSING: &str = r#"name = "movers"
time_step = 0.1
steps = 300

[agent_defaults]
radius = 0.5

[[grid]]
origin = [-12.0, -3.0]
columns = 2
rows = 4
spacing = [2.0, 2.0]
goal = { offset = [24.0, 0.0] }

[[movers]]
radius = 1.0
route = [[0.0, -10.0], [0.0, 10.0]]
speed = 1.5
repeat = "back-and-forth"

[[movers]]
radius = 0.8
position = [6.0, -12.0]
velocity = [0.0, 0.8]
"#;

fn parse(text: &str) -> Scenario {
    Scenario::parse(text, Format::Toml).unwrap_or_else(|p| panic!("{p:#?}"))
}

#[test]
fn movers_fly_as_the_file_says_and_the_crowd_keeps_clear() {
    let scenario = parse(CROSSING);
    let Ok(AnyScenario::Plane(again)) = AnyScenario::parse(&scenario.to_json(), Format::Json) else { panic!() };
    assert_eq!(again, scenario, "through JSON and back");
    let mut runner = Runner::new(&scenario).unwrap();
    let ids: Vec<_> = runner.simulator().agent_ids().to_vec();
    let radii: Vec<f32> = ids.iter().map(|&id| runner.radius(id).unwrap()).collect();
    let on_patrol = |p: Vec2| p.x == 0.0 && (-10.0..=10.0).contains(&p.y);
    let (mut clearance, mut overlaps) = (f32::INFINITY, 0);
    let observe = |runner: &Runner, clearance: &mut f32, overlaps: &mut u64| {
        for m in runner.movers() {
            for (p, r) in runner.simulator().positions().iter().zip(&radii) {
                let gap = p.distance(m.position) - r - m.radius;
                *clearance = clearance.min(gap);
                *overlaps += u64::from(gap < -swerve::metrics::OVERLAP_TOLERANCE);
            }
        }
    };
    observe(&runner, &mut clearance, &mut overlaps);
    let (mut reversals, mut last_y) = (0, -1.0f32);
    while !runner.is_finished() {
        runner.step();
        observe(&runner, &mut clearance, &mut overlaps);
        let movers: Vec<_> = runner.movers().collect();
        assert_eq!(movers.len(), 2);
        // The patrol stays on its segment at its speed; the other flies straight on.
        assert!(on_patrol(movers[0].position), "step {}: {}", runner.steps_done(), movers[0].position);
        assert!(movers[0].velocity.length() <= 1.5 + 1e-4, "{}", movers[0].velocity);
        let t = runner.steps_done() as f32 * 0.1;
        assert!((movers[1].position - Vec2::new(6.0, -12.0 + 0.8 * t)).length() < 1e-3, "{}", movers[1].position);
        if movers[0].velocity.y.abs() > 1.0 {
            reversals += usize::from(movers[0].velocity.y.signum() != last_y.signum());
            last_y = movers[0].velocity.y;
        }
    }
    // 30 s at 1.5 m/s is 45 m: up 20, down 20 and up again.
    assert_eq!(reversals, 3, "it turned at both ends (the first count is its start)");
    let m = runner.metrics();
    assert_eq!(m.min_mover_clearance, Some(clearance), "{m:?}");
    assert_eq!(m.mover_overlaps, overlaps, "{m:?}");
    // The agents take the whole avoidance on themselves and make way.
    assert!(clearance > -1e-3, "an agent went {clearance} m into a mover");
    assert!(clearance < 0.5, "the movers came close: the test tests something ({clearance} m)");
    assert_eq!(m.arrived, 8, "{m:?}");
}

#[test]
fn a_file_without_movers_has_no_mover_figures() {
    let runner = Runner::new(&Scenario::builtin("head-on").unwrap()).unwrap();
    assert_eq!(runner.movers().len(), 0);
    let m = runner.metrics();
    assert_eq!((m.mover_overlaps, m.min_mover_clearance), (0, None));
}

#[test]
fn bad_movers_are_problems_naming_their_line_and_key() {
    // Lines 1–5; each case's entry starts on line 6.
    let head = "name = \"bad\"\ntime_step = 0.1\nsteps = 10\n[[agents]]\nposition = [-5.0, 0.0]\n";
    let cases: &[(&str, &str, usize, &str)] = &[
        ("[[movers]]\nposition = [0.0, 0.0]\nradius = 0.0\n", "movers[0].radius", 8, "greater than 0"),
        ("[[movers]]\nradius = 1.0\n", "movers[0].position", 6, "missing"),
        ("[[movers]]\nradius = 1.0\nposition = [0.0, 0.0, 1.0]\n", "movers[0].position", 8, "[x, y]"),
        (
            "[[movers]]\nradius = 1.0\nposition = [0.0, 0.0]\nrepeat = \"once\"\n",
            "movers[0].repeat",
            9,
            "only with a route",
        ),
        (
            "[[movers]]\nradius = 1.0\nroute = [[0.0, 0.0], [0.0, 0.0]]\nspeed = 1.0\n",
            "movers[0].route",
            8,
            "route's count of different waypoints must be at least 2, got 1",
        ),
        (
            "[[movers]]\nradius = 1.0\nroute = [[0.0, 0.0], [4.0, 0.0]]\nspeed = -1.0\n",
            "movers[0].speed",
            9,
            "greater than 0",
        ),
        (
            "[[movers]]\nradius = 1.0\nroute = [[0.0, 0.0], [4.0, 0.0]]\nspeed = 1.0\nvelocity = [1.0, 0.0]\n",
            "movers[0].velocity",
            10,
            "starts at its first waypoint",
        ),
        ("[[movers]]\nradius = 1.0\nposition = [0.0, 0.0]\ncolour = 1\n", "movers[0].colour", 9, "unknown key"),
    ];
    for &(tail, key, line, message) in cases {
        let text = format!("{head}{tail}");
        let Err(problems) = Scenario::parse(&text, Format::Toml) else { panic!("accepted:\n{text}") };
        let Some(p) = problems.iter().find(|p| p.key == key) else {
            panic!("no problem at {key} in {:#?}\n{text}", problems.iter().map(Problem::to_string).collect::<Vec<_>>())
        };
        assert!(p.message.contains(message), "{key}: {}", p.message);
        assert_eq!(p.line, Some(line), "{key}: {p}\n{text}");
    }
    // A 3-D crowd file takes its movers in [[crowd3d.mover]]; the planar key is refused.
    let crowd = "name = \"c\"\ntime_step = 0.1\nsteps = 1\n[[crowd3d.agent]]\nposition = [0.0, 0.0, 0.0]\n\
                 [[movers]]\nradius = 1.0\nposition = [0.0, 0.0]\n";
    let Err(problems) = AnyScenario::parse(crowd, Format::Toml) else { panic!() };
    assert!(problems.iter().any(|p| p.key == "movers" && p.message.contains("2-D")), "{problems:#?}");
}

/// The built-in `patrol`: two groups cross a hall round two robots. Plain ORCA gives a mover
/// no share of the avoidance, and walkers boxed in between robot and crowd graze it; safe mode
/// (on in the file) pushes them out of the robots too, as out of each other.
#[test]
fn in_safe_mode_the_walkers_keep_clear_of_the_robots() {
    let scenario = Scenario::builtin("patrol").unwrap();
    assert!(scenario.extensions.safe_mode);
    assert_eq!(scenario.movers.len(), 2);
    let run = |scenario: &Scenario| {
        let mut runner = Runner::new(scenario).unwrap();
        while !runner.is_finished() {
            runner.step();
        }
        runner.metrics()
    };
    let safe = run(&scenario);
    assert_eq!((safe.arrived, safe.never_arrived), (48, 0), "{safe:?}");
    assert_eq!((safe.mover_overlaps, safe.agent_overlaps, safe.obstacle_overlaps), (0, 0, 0), "{safe:?}");
    assert!(safe.min_mover_clearance.unwrap() > 0.0, "{safe:?}");
    let mut plain = scenario.clone();
    plain.extensions.safe_mode = false;
    let plain = run(&plain);
    assert!(plain.mover_overlaps > 0, "plain ORCA grazes the robots here: {plain:?}");
}

/// Spawned agents start clear of the movers, as of the agents and obstacles: a mover would
/// not make way for one placed inside it. A parked mover covers half of the spawn region here.
#[test]
fn spawned_agents_start_clear_of_the_movers() {
    let text = "name = \"spawn\"\ntime_step = 0.1\nsteps = 30\n[agent_defaults]\nradius = 0.3\n\
        [[spawn]]\nrate = 40.0\nlimit = 20\nmin = [-2.0, -2.0]\nmax = [2.0, 2.0]\nseed = 7\ngoal = [30.0, 0.0]\n\
        [[movers]]\nradius = 1.6\nposition = [0.0, 0.0]\n";
    let mut runner = Runner::new(&parse(text)).unwrap();
    let mut seen = std::collections::HashSet::new();
    while !runner.is_finished() {
        let sim = runner.simulator();
        for (id, p) in sim.agent_ids().iter().zip(sim.positions()) {
            // Each agent where it started (the frame it first appears in).
            if seen.insert(id.0) {
                assert!(p.length() >= 1.6 + 0.3 - 1e-5, "agent {} started at {p}, inside the mover", id.0);
            }
        }
        runner.step();
    }
    assert_eq!(seen.len(), 20, "every agent of the spawner came");
}
