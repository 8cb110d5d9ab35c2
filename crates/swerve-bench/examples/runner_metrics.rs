//! What a scenario runner's metrics cost beside its steps: `Runner::step` (the simulator's
//! step, preferred velocities and the metrics' observation of the frame) and the observation
//! alone (a `MetricsRecorder` fed the same frame: the pairs' overlaps and smallest gap, paths,
//! arrivals), medians of 15 steps after 5, on N agents placed at random in a square at one
//! agent per 30 m² (RVO2's Circle agents, radius 1.5 m), each bound 5 m east.
//!
//! `cargo build --release -p swerve-bench --example runner_metrics &&
//! target/release/examples/runner_metrics 100000`
use std::time::Instant;
use swerve::metrics::MetricsRecorder;
use swerve::scenario::{Format, Runner, Scenario};
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let side = (n as f32 * 30.0).sqrt();
    let text = format!(
        "name = \"big\"\ntime_step = 0.25\nsteps = 40\n[[random]]\ncount = {n}\nmin = [0.0, 0.0]\nmax = [{side}, {side}]\nseed = 3\ngoal = {{ offset = [5.0, 0.0] }}\n"
    );
    let scenario = Scenario::parse(&text, Format::Toml).unwrap();
    let mut runner = Runner::new(&scenario).unwrap();
    for _ in 0..5 {
        runner.step();
    }
    let (mut steps, mut observes) = (Vec::new(), Vec::new());
    let radii = vec![1.5f32; n];
    let mut recorder = MetricsRecorder::new(&[]);
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
    println!("{n}: runner step median {:.2} ms; metrics observation alone {:.2} ms", steps[7], observes[7]);
}
