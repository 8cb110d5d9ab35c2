//! What 3-D roadmap navigation costs (`swerve::navigation3d`, `navigation = "roadmap"` in a
//! `[crowd3d]` file), measured against the straight rule and the ORCA step in the same run:
//! the roadmap's build, its steering (every agent's preferred velocity) and the whole
//! runner's step, on `slalom3d` and on a city of box towers whose drones' goals lie behind
//! towers; with `--full`, each scene also runs to its end both ways and prints the arrivals.
//!
//! `cargo run --release -p swerve-bench --example roadmap3d_report -- [--full] [DRONES]`
//! (DRONES: the city's, default 2000).

use std::time::Instant;
use swerve::navigation3d::Roadmap3d;
use swerve::reference::preferred_velocity_toward3d;
use swerve::scenario::{Crowd3dRunner, Crowd3dScenario, Format, Navigation};

/// Steps before timing, and steps timed (median).
const WARM_UP: usize = 10;
const TIMED: usize = 20;

/// A city of 8 × 8 box towers (10 m square, 10–46 m high, 12 m streets) over a floor, and
/// `drones` drones at random in two slabs west and east of it, each bound 236 m across to
/// the far side at its own height and street offset: most straight lines cross towers.
fn city(drones: usize) -> String {
    let mut text = format!(
        "name = \"city\"\ntime_step = 0.125\nsteps = 6000\nstop = \"all-at-goal\"\nnavigation = \"roadmap\"\n\
         [roadmap]\nmargin = 0.25\n[crowd3d.agent_defaults]\ntime_horizon_obst = 3.0\n\
         [crowd3d.extensions]\nsymmetry_breaking = true\n\
         [[crowd3d.random]]\ngroup = \"west\"\ncount = {west}\nmin = [-40.0, 0.0, 5.0]\nmax = [-16.0, 176.0, 40.0]\nseed = 1\n\
         goal = {{ offset = [236.0, 0.0, 0.0] }}\n\
         [[crowd3d.random]]\ngroup = \"east\"\ncount = {east}\nmin = [192.0, 0.0, 5.0]\nmax = [216.0, 176.0, 40.0]\nseed = 2\n\
         goal = {{ offset = [-236.0, 0.0, 0.0] }}\n\
         [[crowd3d.mesh]]\nvertices = [[-60.0, -20.0, 0.0], [236.0, -20.0, 0.0], [236.0, 196.0, 0.0], [-60.0, 196.0, 0.0]]\n\
         triangles = [[0, 1, 2], [0, 2, 3]]\n",
        west = drones / 2,
        east = drones - drones / 2,
    );
    for i in 0..8 {
        for j in 0..8 {
            // Heights from a fixed mix of the tower's indices: 10–46 m.
            let height = 10.0 + ((i * 37 + j * 11 + i * j * 7) % 37) as f32;
            let (x, y) = (12.0 + 22.0 * i as f32, 12.0 + 22.0 * j as f32);
            text += &format!("[[crowd3d.box]]\nmin = [{x}, {y}, 0.0]\nmax = [{}, {}, {height}]\n", x + 10.0, y + 10.0);
        }
    }
    text
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn report(name: &str, scenario: &Crowd3dScenario, full: bool) {
    let mut runner = Crowd3dRunner::new(scenario).expect("a valid scene");
    let started = ms(|| drop(Crowd3dRunner::new(scenario).expect("a valid scene")));
    let roadmap = runner.roadmap().expect("roadmap navigation");
    let (vertices, edges) = (roadmap.vertices().len(), roadmap.edges().count());
    let (clearance, extra): (f32, Vec<_>) = (roadmap.clearance(), Vec::new());
    let spacing = scenario.roadmap.spacing(clearance);
    let build =
        median((0..3).map(|_| ms(|| drop(Roadmap3d::build(runner.simulator(), &extra, clearance, spacing)))).collect());
    // Adding every agent's goal to a fresh roadmap (what the runner did when it started).
    let mut with_goals = Roadmap3d::build(runner.simulator(), &extra, clearance, spacing).expect("built once already");
    let goals: Vec<_> = runner.goals().collect();
    let mut route = Vec::new();
    let add_goals = ms(|| {
        for &g in &goals {
            route.push(with_goals.add_goal(runner.simulator(), g).expect("a finite goal"));
        }
    });
    for _ in 0..WARM_UP {
        runner.step();
    }
    let (mut step, mut steer, mut straight) = (Vec::new(), Vec::new(), Vec::new());
    let mut scratch = Vec::new();
    for _ in 0..TIMED {
        let sim = runner.simulator();
        let ids = sim.agent_ids();
        // Steering alone, on one thread, agent after agent (the runner spreads it over both).
        steer.push(ms(|| {
            for (id, &p) in ids.iter().zip(sim.positions()) {
                // No agent leaves these scenes: agent ids are the goals' order.
                let goal = route[id.0 as usize];
                std::hint::black_box(with_goals.preferred_velocity_with(
                    sim,
                    p,
                    runner.radius(*id).unwrap(),
                    goal,
                    &mut scratch,
                ));
            }
        }));
        straight.push(ms(|| {
            for (id, &p) in ids.iter().zip(sim.positions()) {
                std::hint::black_box(preferred_velocity_toward3d(runner.goal(*id).unwrap(), p));
            }
        }));
        step.push(ms(|| runner.step()));
    }
    // The same crowd flying straight (no roadmap), over the same steps: the ORCA step and
    // the runner's bookkeeping without the steering.
    let mut plain = scenario.clone();
    plain.navigation = Navigation::Straight;
    let mut plain = Crowd3dRunner::new(&plain).expect("a valid scene");
    for _ in 0..WARM_UP {
        plain.step();
    }
    let plain_step = median((0..TIMED).map(|_| ms(|| plain.step())).collect());
    let (step, steer, straight) = (median(step), median(steer), median(straight));
    println!(
        "{name}: {} agents, {} boxes; roadmap {vertices} vertices, {edges} edges, built in {build:.1} ms \
         (+ {add_goals:.1} ms for {} goals); the runner started in {started:.1} ms",
        runner.simulator().num_agents(),
        scenario.crowd3d.boxes.len(),
        goals.len(),
    );
    println!(
        "  per step (median of {TIMED}, steps {}–{}): runner step {step:.2} ms with the roadmap, {plain_step:.2} ms \
         flying straight ({:.1}×; 2 threads); roadmap steering alone {steer:.2} ms on 1 thread, {:.1} µs an agent \
         (the straight rule: {straight:.3} ms)",
        WARM_UP + 1,
        WARM_UP + TIMED,
        step / plain_step,
        1e3 * steer / runner.simulator().num_agents().max(1) as f64,
    );
    if full {
        for navigation in [Navigation::Roadmap, Navigation::Straight] {
            let mut s = scenario.clone();
            s.navigation = navigation;
            let mut runner = Crowd3dRunner::new(&s).expect("a valid scene");
            let wall = ms(|| {
                while !runner.is_finished() {
                    runner.step();
                }
            });
            let m = runner.metrics();
            println!(
                "  {navigation:?}: {} of {} arrived in {} steps ({:.1} s wall); obstacle overlaps {}, path ratio {:?}",
                m.arrived,
                m.agents,
                m.steps,
                wall / 1e3,
                m.obstacle_overlaps,
                m.path_length_ratio_mean
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full");
    let drones = args.iter().find_map(|a| a.parse().ok()).unwrap_or(2000);
    report("slalom3d", &Crowd3dScenario::builtin("slalom3d").expect("built in"), full);
    let city = Crowd3dScenario::parse(&city(drones), Format::Toml).unwrap_or_else(|p| panic!("{p:#?}"));
    report("city", &city, full);
}
