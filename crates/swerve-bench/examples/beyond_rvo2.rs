//! Issue 8's measurements: every option beyond RVO2 against RVO2 itself (swerve's default
//! mode, which is RVO2 bit for bit). Prints Markdown tables.
//!
//! `cargo run --release -p swerve-bench --example beyond_rvo2 [SECTION...]` (sections: stalls,
//! overlaps, accelerations, responsibility, movers, layers, obstacles3d; all by default)

use std::time::Instant;
use swerve::orca::{Extensions, Mover, OverlapResolution, SymmetryBreaking};
use swerve::{AgentParams, Simulator, Vec2};

/// An agent counts as arrived within this distance of its goal (m).
const ARRIVED: f32 = 0.05;

/// RVO2 examples' rule (`swerve_bench::orca::set_preferred_velocities`), with its own scratch.
fn set_prefs(sim: &mut Simulator, goals: &[Vec2]) {
    swerve_bench::orca::set_preferred_velocities(sim, goals, &mut Vec::new());
}

/// Simulated seconds until every agent is within `ARRIVED` of its goal (None: not by `limit`).
fn time_to_all_arrive(mut sim: Simulator, goals: &[Vec2], limit: f32) -> Option<f32> {
    while sim.global_time() < limit {
        if sim.positions().iter().zip(goals).all(|(p, g)| p.distance(*g) < ARRIVED) {
            return Some(sim.global_time());
        }
        set_prefs(&mut sim, goals);
        sim.step();
    }
    None
}

/// RVO2's behaviour, plus symmetry breaking when `on`.
fn symmetry_breaking(on: bool) -> Extensions {
    Extensions { symmetry_breaking: on.then(SymmetryBreaking::default), ..Default::default() }
}

/// RVO2's behaviour, plus safe mode (overlap resolution) when `on`.
fn safe_mode(on: bool) -> Extensions {
    Extensions { overlap_resolution: on.then(OverlapResolution::default), ..Default::default() }
}

fn show(t: Option<f32>, limit: f32) -> String {
    t.map_or(format!("not all by {limit:.0} s"), |t| format!("{t:.1} s"))
}

fn stalls() {
    println!("### Stall resolution: time until all agents are within {ARRIVED} m of their goals\n");
    println!("| scene | RVO2 (swerve default) | symmetry breaking |\n|---|---:|---:|");
    let params = AgentParams {
        neighbor_dist: 15.0,
        max_neighbors: 10,
        time_horizon: 10.0,
        time_horizon_obst: 10.0,
        radius: 1.0,
        max_speed: 1.0,
    };
    // Generous: four times the longest straight-line trip at full speed, plus a minute.
    let limit = 4.0 * 2.0 * 160.0 + 60.0;
    for offset in [0.0f32, 0.001, 0.01, 0.1, 0.5] {
        let build = |sym: bool| {
            let mut sim = Simulator::new(0.1, params).unwrap();
            sim.add_agent(Vec2::new(-10.0, 0.0)).unwrap();
            sim.add_agent(Vec2::new(10.0, offset)).unwrap();
            sim.set_extensions(symmetry_breaking(sym)).unwrap();
            sim
        };
        let goals = [Vec2::new(10.0, 0.0), Vec2::new(-10.0, offset)];
        println!(
            "| head-on pair, lateral offset {offset} m | {} | {} |",
            show(time_to_all_arrive(build(false), &goals, limit), limit),
            show(time_to_all_arrive(build(true), &goals, limit), limit)
        );
    }
    for n in [2usize, 4, 8, 16, 32, 64] {
        let ring = (n as f32 * 2.5).max(10.0);
        let build = |sym: bool| {
            let mut sim = Simulator::new(0.1, params).unwrap();
            let mut goals = Vec::new();
            for i in 0..n {
                let a = i as f32 * std::f32::consts::TAU / n as f32;
                let p = ring * Vec2::new(a.cos(), a.sin());
                sim.add_agent(p).unwrap();
                goals.push(-p);
            }
            sim.set_extensions(symmetry_breaking(sym)).unwrap();
            (sim, goals)
        };
        let (a, goals) = build(false);
        let (b, _) = build(true);
        println!(
            "| circle of {n} (radius {ring} m) | {} | {} |",
            show(time_to_all_arrive(a, &goals, limit), limit),
            show(time_to_all_arrive(b, &goals, limit), limit)
        );
    }
    println!();
}

/// Overlap statistics of a run: overlapping pair-steps, deepest penetration, ms per step,
/// agents arrived; `after_step` sees the simulator after every step.
fn overlap_run(
    mut sim: Simulator,
    goals: &[Vec2],
    steps: usize,
    after_step: &mut dyn FnMut(&Simulator),
) -> (usize, f32, f64, usize) {
    let radii: Vec<f32> = sim.agent_ids().iter().map(|&id| sim.agent_params(id).unwrap().radius).collect();
    let mut grid = swerve::spatial::NeighborGrid::new();
    let mut found = Vec::new();
    let (mut pair_steps, mut deepest, mut elapsed) = (0usize, 0.0f32, 0.0f64);
    let max_r = radii.iter().copied().fold(0.0, f32::max);
    for _ in 0..steps {
        set_prefs(&mut sim, goals);
        let start = Instant::now();
        sim.step();
        elapsed += start.elapsed().as_secs_f64();
        after_step(&sim);
        let positions = sim.positions();
        grid.rebuild(positions, 2.0 * max_r);
        for (i, p) in positions.iter().enumerate() {
            let reach = radii[i] + max_r;
            grid.nearest(*p, i as u32, reach * reach, 64, &mut found);
            for n in &found {
                let j = n.index as usize;
                if j > i {
                    let depth = radii[i] + radii[j] - p.distance(positions[j]);
                    if depth > 0.0 {
                        pair_steps += 1;
                        deepest = deepest.max(depth);
                    }
                }
            }
        }
    }
    let arrived =
        sim.positions().iter().zip(goals).filter(|(p, g)| p.distance(**g) < 3.0 || p.x > 1.5 && g.x > 1.5).count();
    (pair_steps, deepest, elapsed * 1e3 / steps as f64, arrived)
}

/// Builds a scene with the given options: the simulator and each agent's goal.
type BuildScene = fn(Extensions) -> (Simulator, Vec<Vec2>);

/// The dense scenes of [`overlaps`] and [`accelerations`]: a 30 × 30 grid walking to its
/// mirror image, and 300 agents pushing through a 4 m gap; with `extensions`.
fn dense_scenes() -> [(&'static str, BuildScene, usize); 2] {
    fn grid_scene(extensions: Extensions) -> (Simulator, Vec<Vec2>) {
        let params = AgentParams { radius: 1.0, max_speed: 1.5, ..AgentParams::default() };
        let mut sim = Simulator::new(0.1, params).unwrap();
        let mut goals = Vec::new();
        for y in 0..30 {
            for x in 0..30 {
                let p = Vec2::new((x as f32 - 14.5) * 2.4, (y as f32 - 14.5) * 2.4);
                sim.add_agent(p).unwrap();
                goals.push(-p);
            }
        }
        sim.set_extensions(extensions).unwrap();
        (sim, goals)
    }
    fn bottleneck(extensions: Extensions) -> (Simulator, Vec<Vec2>) {
        let params = AgentParams { radius: 1.0, max_speed: 1.5, ..AgentParams::default() };
        let mut sim = Simulator::new(0.1, params).unwrap();
        let mut goals = Vec::new();
        for y in 0..15 {
            for x in 0..20 {
                sim.add_agent(Vec2::new(-60.0 + x as f32 * 2.2, (y as f32 - 7.0) * 2.2)).unwrap();
                goals.push(Vec2::new(40.0, 0.0));
            }
        }
        // Two walls leaving a 4 m gap at x = 0 (counter-clockwise rectangles: solid).
        let wall =
            |y0: f32, y1: f32| [Vec2::new(-1.0, y0), Vec2::new(1.0, y0), Vec2::new(1.0, y1), Vec2::new(-1.0, y1)];
        sim.add_obstacle(&wall(2.0, 40.0)).unwrap();
        sim.add_obstacle(&wall(-40.0, -2.0)).unwrap();
        sim.process_obstacles();
        sim.set_extensions(extensions).unwrap();
        (sim, goals)
    }
    [("900-agent grid, mirrored goals", grid_scene, 600), ("bottleneck, 300 agents, 4 m gap", bottleneck, 900)]
}

fn overlaps() {
    println!("### Dense crowds: overlapping pair-steps, deepest penetration, time per step\n");
    println!("| scene | mode | overlapping pair-steps | max penetration (m) | ms per step | agents arrived (grid: within 3 m of goal; bottleneck: through the gap) |\n|---|---|---:|---:|---:|---:|");
    for (name, build, steps) in dense_scenes() {
        let (sim, goals) = build(safe_mode(false));
        let (a_pairs, a_depth, a_ms, a_arrived) = overlap_run(sim, &goals, steps, &mut |_| {});
        let (sim, goals) = build(safe_mode(true));
        let (b_pairs, b_depth, b_ms, b_arrived) = overlap_run(sim, &goals, steps, &mut |_| {});
        let n = goals.len();
        println!("| {name}, {steps} steps | RVO2 (default) | {a_pairs} | {a_depth:.4} | {a_ms:.3} | {a_arrived}/{n} |");
        println!(
            "| {name}, {steps} steps | safe mode (5 % margin, 2 passes) | {b_pairs} ({:.3} of RVO2) | {b_depth:.4} | {b_ms:.3} ({:.2}×) | {b_arrived}/{n} |",
            b_pairs as f64 / a_pairs.max(1) as f64,
            b_ms / a_ms
        );
    }
    println!();
}

fn accelerations() {
    println!("### Acceleration limits: the dense crowds with every agent limited\n");
    println!("| scene | max acceleration | largest acceleration used (m/s²) | mean of each agent's largest (m/s²) | overlapping pair-steps | max penetration (m) | ms per step | agents arrived |\n|---|---|---:|---:|---:|---:|---:|---:|");
    for (name, build, steps) in dense_scenes() {
        let mut rvo2_ms = 0.0;
        for limit in [f32::INFINITY, 8.0, 4.0, 2.0] {
            let (mut sim, goals) = build(Extensions::default());
            for id in sim.agent_ids().to_vec() {
                sim.set_agent_max_acceleration(id, limit).unwrap();
            }
            let dt = sim.time_step();
            // Each agent's largest change of velocity in a step, over the time step.
            let mut largest = vec![0.0f32; goals.len()];
            let mut last = sim.velocities().to_vec();
            let (pairs, depth, ms, arrived) = overlap_run(sim, &goals, steps, &mut |sim: &Simulator| {
                for ((most, v), old) in largest.iter_mut().zip(sim.velocities()).zip(&mut last) {
                    *most = most.max((*v - *old).length() / dt);
                    *old = *v;
                }
            });
            let top = largest.iter().copied().fold(0.0, f32::max);
            let mean = largest.iter().sum::<f32>() / largest.len() as f32;
            let n = goals.len();
            let mode = if limit.is_finite() { format!("{limit} m/s²") } else { "none (RVO2)".to_string() };
            let speed = if limit.is_finite() { format!("{ms:.3} ({:.2}×)", ms / rvo2_ms) } else { format!("{ms:.3}") };
            if !limit.is_finite() {
                rvo2_ms = ms;
            }
            println!("| {name}, {steps} steps | {mode} | {top:.2} | {mean:.2} | {pairs} | {depth:.4} | {speed} | {arrived}/{n} |");
        }
    }
    println!();
}

fn responsibility() {
    println!("### Responsibility weights: two agents crossing at right angles\n");
    println!("| weights (A, B) | A's largest deviation from its straight path (m) | B's largest deviation (m) | closest approach (m, radii sum 3) |\n|---|---:|---:|---:|");
    for (wa, wb) in [(0.5f32, 0.5f32), (0.0, 1.0), (1.0, 0.0), (0.25, 0.75)] {
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        let a = sim.add_agent(Vec2::new(-20.0, 0.0)).unwrap();
        let b = sim.add_agent(Vec2::new(0.0, -20.0)).unwrap();
        sim.set_agent_responsibility(a, wa).unwrap();
        sim.set_agent_responsibility(b, wb).unwrap();
        let goals = [Vec2::new(20.0, 0.0), Vec2::new(0.0, 20.0)];
        let (mut dev_a, mut dev_b, mut closest) = (0.0f32, 0.0f32, f32::INFINITY);
        for _ in 0..200 {
            set_prefs(&mut sim, &goals);
            sim.step();
            let (pa, pb) = (sim.agent_position(a).unwrap(), sim.agent_position(b).unwrap());
            dev_a = dev_a.max(pa.y.abs());
            dev_b = dev_b.max(pb.x.abs());
            closest = closest.min(pa.distance(pb));
        }
        println!("| ({wa}, {wb}) | {dev_a:.3} | {dev_b:.3} | {closest:.3} |");
    }
    println!();
}

/// 100 pedestrians (radius 0.5 m, 1.5 m/s, time step 0.1 s) standing in a 10 × 10 block 2 m
/// apart around the origin, and their places.
fn standing_block() -> (Simulator, Vec<Vec2>) {
    let params = AgentParams { radius: 0.5, max_speed: 1.5, ..AgentParams::default() };
    let mut sim = Simulator::new(0.1, params).unwrap();
    let places: Vec<Vec2> =
        (0..100).map(|k| Vec2::new((k % 10) as f32 * 2.0 - 9.0, (k / 10) as f32 * 2.0 - 9.0)).collect();
    for &p in &places {
        sim.add_agent(p).unwrap();
    }
    (sim, places)
}

fn movers() {
    println!("### A non-cooperative mover crossing a crowd\n");
    println!("| mode | deepest agent–mover penetration (m) | agent–mover overlapping steps |\n|---|---:|---:|");
    for as_mover in [false, true] {
        let (mut sim, places) = standing_block();
        let goals: Vec<Vec2> = places.iter().map(|&p| p + Vec2::new(0.0, 0.5)).collect();
        // A 1.5 m ball crossing the crowd at 2 m/s, ignoring everyone.
        let mut ball = Mover { position: Vec2::new(-25.0, 0.3), velocity: Vec2::new(2.0, 0.0), radius: 1.5 };
        let id = as_mover.then(|| sim.add_mover(ball).unwrap());
        let (mut deepest, mut overlapping) = (0.0f32, 0usize);
        for _ in 0..250 {
            set_prefs(&mut sim, &goals);
            sim.step();
            ball.position += ball.velocity * 0.1;
            if let Some(id) = id {
                sim.set_mover(id, ball).unwrap();
            }
            let depth =
                sim.positions().iter().map(|p| 0.5 + ball.radius - p.distance(ball.position)).fold(0.0, f32::max);
            deepest = deepest.max(depth);
            overlapping += usize::from(depth > 0.0);
        }
        let mode = if as_mover { "ball given to agents as a mover" } else { "RVO2: agents cannot see the ball" };
        println!("| {mode} | {deepest:.3} | {overlapping} |");
    }
    println!();
}

/// One crowd's stepper for [`alternated_medians`]: sets the preferred velocities, then times
/// one step (ms).
type Stepper = Box<dyn FnMut() -> f64>;

/// Median ms of 20 steps after 5 of the crowds `build(layered)` makes, the unlayered and the
/// layered run alternated over `rounds`: `(unlayered, layered)` medians of the runs' medians.
fn alternated_medians(rounds: usize, build: &dyn Fn(bool) -> Stepper) -> (f64, f64) {
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let time = |layered: bool| {
        let mut step = build(layered);
        let mut samples: Vec<f64> = (0..25).map(|_| step()).skip(5).collect();
        median(&mut samples)
    };
    let (mut plain, mut layered) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        plain.push(time(false));
        layered.push(time(true));
    }
    (median(&mut plain), median(&mut layered))
}

/// Avoidance layers' step time on `jgrid N` (the issue-5 crowd, on the global pool's threads)
/// with agent `k` on `layout(k)`, against RVO2's: see [`alternated_medians`].
fn layer_timing(n: usize, layout: &dyn Fn(usize) -> (u32, u32), rounds: usize) -> (f64, f64) {
    let scene = swerve_bench::orca::Scene::jgrid(n);
    let goals: Vec<Vec2> = scene.goals.iter().map(|g| Vec2::from_array(*g)).collect();
    alternated_medians(rounds, &|layered| {
        let mut sim = scene.simulator().unwrap();
        if layered {
            for (k, id) in sim.agent_ids().to_vec().into_iter().enumerate() {
                let (layers, mask) = layout(k);
                sim.set_agent_avoidance_layers(id, layers).unwrap();
                sim.set_agent_avoidance_mask(id, mask).unwrap();
            }
        }
        let goals = goals.clone();
        Box::new(move || {
            set_prefs(&mut sim, &goals);
            let start = Instant::now();
            sim.step();
            start.elapsed().as_secs_f64() * 1e3
        })
    })
}

/// The same in 3-D, on `cube N` (the 3-D report's crowd, RVO2-3D's parameters).
fn layer_timing_3d(n: usize, layout: &dyn Fn(usize) -> (u32, u32), rounds: usize) -> (f64, f64) {
    use swerve_bench::orca3d::Scene3;
    let scene = Scene3::cube(n);
    alternated_medians(rounds, &|layered| {
        let mut sim = scene.simulator().unwrap();
        if layered {
            for (k, id) in sim.agent_ids().to_vec().into_iter().enumerate() {
                let (layers, mask) = layout(k);
                sim.set_agent_avoidance_layers(id, layers).unwrap();
                sim.set_agent_avoidance_mask(id, mask).unwrap();
            }
        }
        cube_stepper(sim, scene.goals.clone())
    })
}

/// A 3-D crowd's [`Stepper`]: each call sets the preferred velocities toward `goals` (the 3-D
/// report's rule), then times one step (ms).
fn cube_stepper(mut sim: swerve::orca3d::Simulator, goals: Vec<swerve::orca3d::Vec3>) -> Stepper {
    use swerve::reference::preferred_velocity_toward3d;
    let mut prefs = Vec::with_capacity(goals.len());
    Box::new(move || {
        prefs.clear();
        prefs.extend(sim.positions().iter().zip(&goals).map(|(&p, &g)| preferred_velocity_toward3d(g, p)));
        sim.set_pref_velocities(&prefs).unwrap();
        let start = Instant::now();
        sim.step();
        start.elapsed().as_secs_f64() * 1e3
    })
}

/// A vehicle (an agent of radius 1.5 m at 2 m/s) drives through 100 pedestrians standing in
/// a 10 × 10 block: as an RVO2 agent, and on its own layer, ignoring the pedestrians (mask 0)
/// while they avoid it (mask 3).
fn vehicle() {
    println!("A vehicle (radius 1.5 m, 2 m/s) drives 50 m straight through 100 standing pedestrians (radius 0.5 m, 1.5 m/s, 2 m apart):\n");
    println!("| mode | vehicle's time to drive 50 m (s) | deepest pedestrian–vehicle penetration (m) | pedestrians displaced more than 1 m |\n|---|---:|---:|---:|");
    for layered in [false, true] {
        let (mut sim, start) = standing_block();
        if layered {
            for id in sim.agent_ids().to_vec() {
                sim.set_agent_avoidance_mask(id, 3).unwrap();
            }
        }
        let mut goals = start.clone();
        let vehicle_params = AgentParams { radius: 1.5, max_speed: 2.0, ..sim.agent_defaults() };
        let car = sim.add_agent_with(Vec2::new(-25.0, 0.3), vehicle_params).unwrap();
        goals.push(Vec2::new(25.0, 0.3));
        if layered {
            sim.set_agent_avoidance_layers(car, 2).unwrap();
            sim.set_agent_avoidance_mask(car, 0).unwrap();
        }
        let (mut deepest, mut arrived) = (0.0f32, None);
        for step in 1..=1000 {
            let prefs: Vec<Vec2> = sim
                .positions()
                .iter()
                .zip(&goals)
                .enumerate()
                .map(
                    |(i, (p, g))| {
                        if i == 100 {
                            (*g - *p).clamp_length_max(2.0)
                        } else {
                            (*g - *p).clamp_length_max(1.0)
                        }
                    },
                )
                .collect();
            sim.set_pref_velocities(&prefs).unwrap();
            sim.step();
            let at = sim.agent_position(car).unwrap();
            let depth = sim.positions()[..100].iter().map(|p| 2.0 - p.distance(at)).fold(0.0, f32::max);
            deepest = deepest.max(depth);
            if arrived.is_none() && at.distance(goals[100]) < 0.1 {
                arrived = Some(step as f32 * 0.1);
            }
        }
        let displaced = sim.positions()[..100].iter().zip(&start).filter(|(p, s)| p.distance(**s) > 1.0).count();
        let mode = if layered {
            "vehicle on layer 2 ignoring pedestrians (mask 0), pedestrians avoiding it (mask 3)"
        } else {
            "RVO2: everyone avoids everyone"
        };
        let time = arrived.map_or("not in 100 s".to_string(), |t| format!("{t:.1}"));
        println!("| {mode} | {time} | {deepest:.3} | {displaced} |");
    }
    println!();
}

fn layers() {
    println!("### Avoidance layers: two teams crossing, a vehicle through a crowd, and the step time\n");
    println!("Two teams of 100 (blocks of 10 × 10, 2.5 m apart, radius 0.5 m, 1.5 m/s, time step 0.1 s) move 40 m head-on through each other, keeping formation; with layers each avoids only its own team.\n");
    println!("| mode | steps until all arrive | overlapping pair-steps within a team | overlapping pair-steps across teams |\n|---|---:|---:|---:|");
    for teams in [false, true] {
        let params = AgentParams { radius: 0.5, max_speed: 1.5, ..AgentParams::default() };
        let mut sim = Simulator::new(0.1, params).unwrap();
        let mut goals = Vec::new();
        let mut team = Vec::new();
        for side in 0..2 {
            for k in 0..100 {
                let (row, col) = ((k / 10) as f32, (k % 10) as f32);
                let sign = if side == 0 { -1.0 } else { 1.0 };
                let p = Vec2::new(sign * (6.0 + 2.5 * row), 2.5 * col - 11.25);
                let id = sim.add_agent(p).unwrap();
                // The whole block moves 40 m across, keeping its formation.
                goals.push(p - Vec2::new(sign * 40.0, 0.0));
                team.push(side);
                if teams {
                    sim.set_agent_avoidance_layers(id, 1 << side).unwrap();
                    sim.set_agent_avoidance_mask(id, 1 << side).unwrap();
                }
            }
        }
        let (mut within, mut across, mut arrived_at) = (0usize, 0usize, None);
        for step in 1..=3000 {
            set_prefs(&mut sim, &goals);
            sim.step();
            let positions = sim.positions();
            for i in 0..positions.len() {
                for j in i + 1..positions.len() {
                    if positions[i].distance_squared(positions[j]) < 1.0 {
                        if team[i] == team[j] {
                            within += 1;
                        } else {
                            across += 1;
                        }
                    }
                }
            }
            if positions.iter().zip(&goals).all(|(p, g)| p.distance(*g) < 0.5) {
                arrived_at = Some(step);
                break;
            }
        }
        let mode = if teams { "two teams, each avoiding its own" } else { "RVO2: everyone avoids everyone" };
        let arrived = arrived_at.map_or("not in 3,000".to_string(), |s| s.to_string());
        println!("| {mode} | {arrived} | {within} | {across} |");
    }
    println!();
    vehicle();
    println!("Step time on `jgrid N` (median of 20 steps after 5; median of 3 runs alternated with RVO2's):\n");
    println!("| N | layout | ms per step | RVO2 (same runs) | ratio |\n|---:|---|---:|---:|---:|");
    type Layout = (&'static str, Box<dyn Fn(usize) -> (u32, u32)>);
    let layouts: [Layout; 4] = [
        ("layers in use, every mask takes in everyone", Box::new(|_| (1, 3))),
        ("two teams, each avoiding its own", Box::new(|k| (1 << (k % 2), 1 << (k % 2)))),
        ("four teams, each avoiding its own", Box::new(|k| (1 << (k % 4), 1 << (k % 4)))),
        ("one agent in ten ignored by the rest", Box::new(|k| if k % 10 == 0 { (2, 3) } else { (1, 1) })),
    ];
    for n in [10_000, 100_000] {
        for (name, layout) in &layouts {
            let (rvo2, layered) = layer_timing(n, layout.as_ref(), 3);
            println!("| {n} | {name} | {layered:.2} | {rvo2:.2} | {:.2}× |", layered / rvo2);
        }
    }
    println!();
    println!("In 3-D (`orca3d`), on `cube N` (the 3-D report's crowd; the same timing):\n");
    println!("| N | layout | ms per step | RVO2-3D (same runs) | ratio |\n|---:|---|---:|---:|---:|");
    for n in [10_000, 50_000] {
        for (name, layout) in &layouts {
            let (rvo2, layered) = layer_timing_3d(n, layout.as_ref(), 3);
            println!("| {n} | {name} | {layered:.2} | {rvo2:.2} | {:.2}× |", layered / rvo2);
        }
    }
    println!();
}

/// `cube N`'s forest of pillars: a square pillar 2 m wide through the whole height of the
/// cube in every other gap between the lattice's columns (a checkerboard), where no agent of
/// the lattice can start (the jitter leaves at least 0.25 m), as `(min, max)` corners.
fn pillars(n: usize) -> Vec<(swerve::orca3d::Vec3, swerve::orca3d::Vec3)> {
    use swerve::orca3d::Vec3;
    use swerve_bench::orca3d::CUBE_SPACING;
    let side = (1..).find(|s: &usize| s * s * s >= n).unwrap();
    let (bottom, top) = (-CUBE_SPACING, side as f32 * CUBE_SPACING);
    let mut boxes = Vec::new();
    for i in 0..side.saturating_sub(1) {
        for j in 0..side.saturating_sub(1) {
            if (i + j) % 2 == 0 {
                let centre = Vec3::new(i as f32 + 0.5, j as f32 + 0.5, 0.0) * CUBE_SPACING;
                boxes.push((
                    Vec3::new(centre.x - 1.0, centre.y - 1.0, bottom),
                    Vec3::new(centre.x + 1.0, centre.y + 1.0, top),
                ));
            }
        }
    }
    boxes
}

/// 3-D static obstacles: the cube's crowd through a forest of pillars, with the pillars as
/// obstacles and as RVO2-3D (which has none) sees them; then the step time.
fn obstacles3d() {
    use swerve::orca3d::Vec3;
    use swerve::reference::preferred_velocity_toward3d;
    use swerve_bench::orca3d::Scene3;
    println!(
        "### 3-D static obstacles: a crowd through a forest of pillars
"
    );
    let n = 1_000;
    let scene = Scene3::cube(n);
    let boxes = pillars(n);
    println!("`cube {n}` (RVO2-3D's Sphere parameters: radius 1.5 m, 2 m/s, time step 0.125 s) flies to its goals for 120 s through {} square pillars 2 m wide through the cube's height (every other gap of the lattice). Depth: how far an agent's sphere reached into a pillar.
", boxes.len());
    println!("| mode | agents within 3 m of their goal at 120 s | deepest depth into a pillar (m) | agent-steps inside a pillar | ms per step (median) |
|---|---:|---:|---:|---:|");
    let depth_into = |p: Vec3, (min, max): (Vec3, Vec3)| {
        // Outside: minus the distance to the box; inside: the distance to its surface.
        let outside = (min - p).max(p - max).max(Vec3::ZERO).length();
        let inside = (p - min).min(max - p).min_element();
        if outside > 0.0 {
            1.5 - outside
        } else {
            1.5 + inside
        }
    };
    // 0: RVO2-3D; 1: the pillars as boxes; 2: the same pillars as triangle meshes.
    for mode in 0..3 {
        let mut sim = scene.simulator().unwrap();
        for &(min, max) in &boxes {
            match mode {
                1 => drop(sim.add_box_obstacle(min, max).unwrap()),
                2 => {
                    // The box's 12 triangles, as a mesh: one plane per triangle near an agent.
                    let mut probe = swerve::orca3d::Simulator::new(1.0, Default::default()).unwrap();
                    let id = probe.add_box_obstacle(min, max).unwrap();
                    let triangles = probe.obstacle(id).unwrap();
                    let vertices: Vec<Vec3> = triangles.iter().flat_map(|t| [t.a, t.b, t.c]).collect();
                    let indices: Vec<[u32; 3]> =
                        (0..triangles.len() as u32).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
                    sim.add_obstacle(&vertices, &indices).unwrap();
                }
                _ => {}
            }
        }
        let (mut deepest, mut inside, mut times) = (0.0f32, 0usize, Vec::new());
        let mut prefs = Vec::with_capacity(n);
        for _ in 0..960 {
            prefs.clear();
            prefs.extend(sim.positions().iter().zip(&scene.goals).map(|(&p, &g)| preferred_velocity_toward3d(g, p)));
            sim.set_pref_velocities(&prefs).unwrap();
            let start = Instant::now();
            sim.step();
            times.push(start.elapsed().as_secs_f64() * 1e3);
            for &p in sim.positions() {
                let depth = boxes.iter().map(|&b| depth_into(p, b)).fold(f32::MIN, f32::max);
                deepest = deepest.max(depth);
                inside += usize::from(depth > 1e-3);
            }
        }
        times.sort_by(f64::total_cmp);
        let arrived = sim.positions().iter().zip(&scene.goals).filter(|(p, g)| p.distance(**g) < 3.0).count();
        let mode = [
            "RVO2-3D: no obstacles",
            "pillars as boxes (`add_box_obstacle`)",
            "pillars as triangle meshes (`add_obstacle`, 12 triangles each)",
        ][mode];
        println!("| {mode} | {arrived} of {n} | {deepest:.3} | {inside} | {:.3} |", times[times.len() / 2]);
    }
    let unreachable = scene.goals.iter().filter(|&&g| boxes.iter().any(|&b| depth_into(g, b) > 0.0)).count();
    println!("\n{unreachable} of the {n} goals lie within 1.5 m of a pillar, where no agent can get to.\n");
    println!(
        "Step time on `cube N` with and without the pillars (median of 20 steps after 5; median of 3 runs alternated):
"
    );
    println!(
        "| N | pillars (triangles) | ms per step with them | without (RVO2-3D's path, same runs) | ratio |
|---:|---:|---:|---:|---:|"
    );
    for n in [10_000, 50_000] {
        let scene = Scene3::cube(n);
        let boxes = pillars(n);
        let (plain, with) = alternated_medians(3, &|with_obstacles| {
            let mut sim = scene.simulator().unwrap();
            if with_obstacles {
                for &(min, max) in &boxes {
                    sim.add_box_obstacle(min, max).unwrap();
                }
            }
            cube_stepper(sim, scene.goals.clone())
        });
        println!("| {n} | {} ({}) | {with:.2} | {plain:.2} | {:.2}× |", boxes.len(), boxes.len() * 12, with / plain);
    }
    println!();
}

fn main() {
    // Every section, or only those named: `beyond_rvo2 layers movers`.
    let sections: [(&str, fn()); 7] = [
        ("stalls", stalls),
        ("overlaps", overlaps),
        ("accelerations", accelerations),
        ("responsibility", responsibility),
        ("movers", movers),
        ("layers", layers),
        ("obstacles3d", obstacles3d),
    ];
    let asked: Vec<String> = std::env::args().skip(1).collect();
    if let Some(unknown) = asked.iter().find(|a| !sections.iter().any(|(name, _)| name == a)) {
        let names: Vec<&str> = sections.iter().map(|(name, _)| *name).collect();
        eprintln!("beyond_rvo2: no section {unknown:?} (sections: {})", names.join(", "));
        std::process::exit(2);
    }
    for (name, section) in sections {
        if asked.is_empty() || asked.iter().any(|a| a == name) {
            section();
        }
    }
}
