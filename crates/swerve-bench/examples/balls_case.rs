//! Times one rigid-ball case in a fresh process and prints one line: mean, median and minimum
//! ms per step, the mean of the first and of the last 20 timed steps (the pit starts on a
//! lattice and turns into a gas over its first hundred or so steps, with ever more contacts),
//! a hash of the final positions and velocities, so that two builds can be compared for speed
//! and for identical results, and what the last step did (`swerve::physics::StepStats`).
//!
//! `cargo run --release -p swerve-bench --example balls_case -- pit 100000 uniform-grid 200`
//!
//! SCENE is `pit` or `seed`; ALGORITHM a broad phase's name (`swerve::physics::BroadPhaseKind`);
//! STEPS the timed steps, after 3 warm-up steps. A fifth argument `--contacts` turns on contact
//! recording (`World::set_record_contacts`), to time what it costs.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use swerve::physics::BroadPhaseKind;
use swerve_bench::balls::SceneKind;

fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let record_contacts = args.last().is_some_and(|a| a == "--contacts");
    if record_contacts {
        args.pop();
    }
    if args.len() != 4 {
        fail("usage: balls_case SCENE N ALGORITHM STEPS [--contacts]   (SCENE: pit, seed)".into());
    }
    let kind = match args[0].as_str() {
        "pit" => SceneKind::Pit,
        "seed" => SceneKind::Seed,
        other => fail(format!("unknown scene {other:?} (expected pit or seed)")),
    };
    let n: usize = args[1].parse().unwrap_or_else(|_| fail(format!("N must be a whole number, got {:?}", args[1])));
    let algorithm: BroadPhaseKind = args[2].parse().unwrap_or_else(|e| fail(format!("{e}")));
    let steps: usize =
        args[3].parse().unwrap_or_else(|_| fail(format!("STEPS must be a whole number, got {:?}", args[3])));
    if steps < 20 {
        fail("STEPS must be at least 20".into());
    }
    let scene = kind.scene(n);
    let mut world = scene.world(algorithm).unwrap_or_else(|e| fail(e.to_string()));
    world.set_record_contacts(record_contacts);
    for _ in 0..3 {
        world.step(scene.dt);
    }
    let mut ms = Vec::with_capacity(steps);
    for _ in 0..steps {
        let start = Instant::now();
        world.step(scene.dt);
        ms.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let (first, last) = (mean(&ms[..20]), mean(&ms[steps - 20..]));
    let all = mean(&ms);
    ms.sort_by(f64::total_cmp);
    let mut hasher = DefaultHasher::new();
    for b in world.balls() {
        (b.position.x.to_bits(), b.position.y.to_bits(), b.velocity.x.to_bits(), b.velocity.y.to_bits())
            .hash(&mut hasher);
    }
    let stats = world.last_step_stats();
    println!(
        "{} {n} {algorithm}: mean {all:.3} median {:.3} min {:.3} first-20 {first:.3} last-20 {last:.3} ms; final state {:016x}; last step: {} candidate pairs, {} contacts, {} correction passes",
        args[0],
        ms[steps / 2],
        ms[0],
        hasher.finish(),
        stats.candidate_pairs,
        stats.contacts,
        stats.correction_passes
    );
}
