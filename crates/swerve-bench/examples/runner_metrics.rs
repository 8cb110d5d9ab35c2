//! What a scenario runner's metrics cost beside its steps: `Runner::step` (the simulator's
//! step, preferred velocities and the metrics' observation of the frame) and the observation
//! alone (a `MetricsRecorder` fed the same frame: the pairs' overlaps and smallest gap, the
//! obstacle edges' overlaps and clearance, paths, arrivals), medians of 15 steps after 5, on N
//! agents placed at random at one agent per 30 m² of free ground (RVO2's Circle agents,
//! radius 1.5 m), each bound 5 m east; and the time to load the scenario (`Runner::new`: the
//! agents placed apart). With BLOCKS, that many square obstacles stand on a lattice over the
//! same square (each half its pitch wide: a city of blocks and streets; the agents placed
//! clear of them, and bound one pitch east). With `--roadmap` every agent heads for the far
//! corner of the square by roadmap navigation (RVO2's Roadmap rule: the visible vertex of the
//! least total distance).
//!
//! `cargo build --release -p swerve-bench --example runner_metrics &&
//! target/release/examples/runner_metrics 100000 [BLOCKS] [--roadmap]`
use std::fmt::Write;
use std::time::Instant;
use swerve::metrics::MetricsRecorder;
use swerve::scenario::{Format, Runner, Scenario};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let roadmap = args.iter().any(|a| a == "--roadmap");
    let mut counts =
        args.iter().filter(|a| *a != "--roadmap").map(|s| s.parse::<usize>().expect("counts are whole numbers"));
    let n = counts.next().unwrap_or(100_000);
    let blocks = counts.next().unwrap_or(0);
    let columns = (blocks as f64).sqrt().ceil() as usize;
    // A quarter of the ground is built on.
    let ground = n as f32 * 30.0 * if blocks > 0 { 4.0 / 3.0 } else { 1.0 };
    let side = ground.sqrt();
    // With blocks, a goal one lattice pitch east is as clear of them as the start; by
    // roadmap, everyone heads for the far corner.
    let pitch = side / columns.max(1) as f32;
    let east = if blocks > 0 { pitch } else { 5.0 };
    let (navigation, goal) = if roadmap {
        ("navigation = \"roadmap\"\n", format!("[{}, {}]", side * 0.99, side * 0.99))
    } else {
        ("", format!("{{ offset = [{east}, 0.0] }}"))
    };
    let mut text = format!(
        "name = \"big\"\ntime_step = 0.25\nsteps = 40\n{navigation}[[random]]\ncount = {n}\nmin = [0.0, 0.0]\nmax = [{side}, {side}]\nseed = 3\ngoal = {goal}\n"
    );
    for k in 0..blocks {
        let (x, y) = ((k % columns) as f32 * pitch + pitch / 4.0, (k / columns) as f32 * pitch + pitch / 4.0);
        let (x1, y1) = (x + pitch / 2.0, y + pitch / 2.0);
        writeln!(text, "[[obstacles]]\nvertices = [[{x}, {y}], [{x1}, {y}], [{x1}, {y1}], [{x}, {y1}]]").unwrap();
    }
    let scenario = Scenario::parse(&text, Format::Toml).unwrap();
    let t = Instant::now();
    let mut runner = Runner::new(&scenario).unwrap();
    let load = t.elapsed().as_secs_f64() * 1e3;
    for _ in 0..5 {
        runner.step();
    }
    let (mut steps, mut observes) = (Vec::new(), Vec::new());
    let radii = vec![1.5f32; n];
    let mut recorder = MetricsRecorder::new(&scenario.obstacle_polygons());
    for _ in 0..15 {
        let t = Instant::now();
        runner.step();
        steps.push(t.elapsed().as_secs_f64() * 1e3);
        let sim = runner.simulator();
        let t = Instant::now();
        recorder.observe_agents(1.0, true, sim.agent_ids(), sim.positions(), sim.velocities(), &radii);
        observes.push(t.elapsed().as_secs_f64() * 1e3);
    }
    steps.sort_by(f64::total_cmp);
    observes.sort_by(f64::total_cmp);
    print!("{n}: runner step median {:.2} ms; metrics observation alone {:.2} ms", steps[7], observes[7]);
    if blocks > 0 {
        print!("; {blocks} blocks ({} edges)", 4 * blocks);
    }
    println!("; loading {load:.0} ms");
}
