//! Gravity in three dimensions: how swerve's 3-D resting-contact solver settles poured piles
//! of spheres, what a step costs while they fall and once they rest, and rapier3d on the same
//! spheres in the same run. The 3-D twin of `gravity_report`'s pour table; prints Markdown
//! (it writes nothing).
//!
//! `cargo run --release -p swerve-bench --example gravity3d_report` (500, 4,000 and 20,000
//! spheres); `-- --quick` for the 500-sphere pour only; `-- --sweeps N` runs swerve's solver with
//! `N` sweeps instead of its default (to see what more sweeps buy); `-- --substeps N` splits
//! swerve's steps into `N` substeps; `-- --largest N` skips the pours above `N` spheres (the
//! 20,000-sphere pour takes most of the 19-minute run); `-- --swerve-only` leaves
//! rapier3d out. The full run took 19 minutes on the project's 2-core machine, two thirds of it
//! on the 20,000-sphere pour (rapier3d 11 minutes, swerve 7).
//!
//! Each pour: unit spheres of restitution 0.3 in square layers over the floor of a box (see
//! [`poured_pile`]), g = 9.81 m/s² along −z, dt = 1/60 s, 30 s (1,800 steps). swerve: uniform
//! grid, default solver sweeps ([`World::DEFAULT_SOLVER_ITERATIONS`]), continuous collision on
//! (its default). rapier3d 0.22 (`benches/rapier3d_pit.rs`): defaults, no friction, no
//! sleeping, no CCD, single thread, gravity set. The fastest fall (the top layer of the
//! 20,000-sphere pour, about 140 m onto the floor at worst) reaches about 52 m/s, under 0.9 m
//! a step, less than a sphere's radius, so no pair can pass through another within a step and
//! rapier needs no CCD.
//!
//! Timing: wall clock of `World::step` / rapier's `PhysicsPipeline::step` only, the median
//! over the first 10 s (falling) and over the last 10 s (at rest, or as near as it gets). Both
//! engines are judged from their positions and velocities alone, by the same code: mean speed,
//! the deepest sphere–sphere overlap (touching pairs from swerve's uniform grid on the spheres'
//! boxes), penetration into the walls, spheres outside the box.

#[path = "../benches/rapier3d_pit.rs"]
mod rapier3d_pit;

use std::time::Instant;

use swerve::physics::scene::SplitMix64;
use swerve::physics3d::broad_phase::BroadPhaseKind;
use swerve::physics3d::scene::Scene;
use swerve::physics3d::{Aabb3, Sphere, Vec3, World};

use rapier3d_pit::Rapier3dPit;
use swerve_bench::pour3d::{deepest_overlap, load_average, median, speed, Engine, DT};

const POUR_SEED: u64 = 0x0006_7A11;
const G: f32 = 9.81;
/// 30 s.
const STEPS: usize = 1800;
/// Steps a second.
const PER_SECOND: usize = 60;
const RESTITUTION: f32 = 0.3;
/// A pour is at rest once its mean speed stays below this (m/s).
const REST_SPEED: f64 = 0.01;
/// The spheres' radius (m).
const RADIUS: f32 = 1.0;

/// A pour in 3-D, written here rather than in `swerve::physics3d::scene`: `n` unit spheres of
/// restitution `e`, in square layers over the floor of a box `width` metres square, as if just
/// poured in; `dt = 1/60`. The 2-D `poured_pile` with a third axis: spheres 2.1 m apart in x
/// and y (as many a row as the 2-D pour puts in a row of that width, starting 1.2 m from the
/// walls at x = 0 and y = 0), layers 2.3 m apart from z = 2, each coordinate jittered by up to
/// 0.1 m, velocities in uniformly random directions at up to 0.5 m/s. The box is tall enough
/// to hold the start.
fn poured_pile(n: usize, width: f32, e: f32, seed: u64) -> Scene {
    let per_row = (((width - 2.0) / 2.1) as usize).max(1);
    let per_layer = per_row * per_row;
    let mut rng = SplitMix64(seed);
    let spheres: Vec<Sphere> = (0..n)
        .map(|k| {
            let (i, layer) = (k % per_layer, k / per_layer);
            let x = 1.2 + (i % per_row) as f32 * 2.1 + 0.1 * rng.unit();
            let y = 1.2 + (i / per_row) as f32 * 2.1 + 0.1 * rng.unit();
            let z = 2.0 + layer as f32 * 2.3 + 0.1 * rng.unit();
            // A uniformly random direction: z uniform in [−1, 1], angle uniform (Archimedes).
            let dz = rng.range(-1.0, 1.0);
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let across = (1.0 - dz * dz).max(0.0).sqrt();
            let direction = Vec3::new(across * angle.cos(), across * angle.sin(), dz);
            let v = direction * rng.range(0.0, 0.5);
            Sphere::new(Vec3::new(x, y, z), v, RADIUS).with_restitution(e)
        })
        .collect();
    let top = 4.0 + (n / per_layer + 1) as f32 * 2.3;
    Scene { bounds: Aabb3 { min: Vec3::ZERO, max: Vec3::new(width, width, top) }, spheres, dt: DT }
}

/// The state of a pile at one moment, from its positions and speeds.
#[derive(Clone, Copy, Default)]
struct Snapshot {
    mean_speed: f64,
    median_speed: f32,
    fastest: f32,
    /// The deepest sphere–sphere overlap, as a fraction of the radius.
    deepest: f32,
    /// The deepest penetration of a sphere into a wall, as a fraction of the radius.
    into_wall: f32,
    /// Spheres whose centre is outside the box, or not finite.
    outside: usize,
    /// The highest centre (m).
    top: f32,
}

fn snapshot(engine: &dyn Engine, bounds: Aabb3) -> Snapshot {
    let positions = engine.positions();
    let mut speeds = engine.speeds();
    let mean_speed = speeds.iter().map(|&v| f64::from(v)).sum::<f64>() / speeds.len() as f64;
    speeds.sort_by(f32::total_cmp);
    let inside = |p: Vec3| p.is_finite() && bounds.min.cmple(p).all() && p.cmple(bounds.max).all();
    let into_wall = positions
        .iter()
        .filter(|p| p.is_finite())
        .map(|&p| (RADIUS - (p - bounds.min).min(bounds.max - p).min_element()) / RADIUS)
        .fold(0.0, f32::max);
    Snapshot {
        mean_speed,
        median_speed: speeds[speeds.len() / 2],
        fastest: speeds[speeds.len() - 1],
        deepest: deepest_overlap(&positions, RADIUS),
        into_wall,
        outside: positions.iter().filter(|&&p| !inside(p)).count(),
        top: positions.iter().map(|p| p.z).fold(f32::NEG_INFINITY, f32::max),
    }
}

/// What one engine did with one pour.
struct Pour {
    falling_ms: f64,
    resting_ms: f64,
    /// When the mean speed fell below [`REST_SPEED`] for good (s), if it did.
    settled_at: Option<f32>,
    /// When it first fell below [`REST_SPEED`] (s), if it did.
    first_below: Option<f32>,
    /// At 10, 20 and 30 s.
    snapshots: [Snapshot; 3],
    /// Wall-clock time of the whole run, measurements included (s).
    seconds: f64,
}

/// Runs `engine` for [`STEPS`] steps.
fn run(engine: &mut dyn Engine, bounds: Aabb3) -> Pour {
    let started = Instant::now();
    let mut times = Vec::with_capacity(STEPS);
    let (mut last_moving, mut first_below) = (None, None);
    let mut snapshots = [Snapshot::default(); 3];
    for s in 0..STEPS {
        let start = Instant::now();
        engine.step();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        let speeds = engine.speeds();
        let mean = speeds.iter().map(|&v| f64::from(v)).sum::<f64>() / speeds.len() as f64;
        // NaN counts as moving.
        if mean >= REST_SPEED || mean.is_nan() {
            last_moving = Some(s);
        } else if first_below.is_none() {
            first_below = Some((s + 1) as f32 / PER_SECOND as f32);
        }
        if (s + 1) % (10 * PER_SECOND) == 0 {
            snapshots[(s + 1) / (10 * PER_SECOND) - 1] = snapshot(engine, bounds);
        }
    }
    let settled_at = match last_moving {
        Some(s) if s + 1 == STEPS => None,
        Some(s) => Some((s + 1) as f32 / PER_SECOND as f32),
        None => Some(0.0),
    };
    Pour {
        falling_ms: median(times[..STEPS / 3].to_vec()),
        resting_ms: median(times[2 * STEPS / 3..].to_vec()),
        settled_at,
        first_below,
        snapshots,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let sweeps = match args.iter().position(|a| a == "--sweeps") {
        Some(k) => args.get(k + 1).and_then(|n| n.parse().ok()).expect("--sweeps takes a number of sweeps"),
        None => World::DEFAULT_SOLVER_ITERATIONS,
    };
    let substeps = match args.iter().position(|a| a == "--substeps") {
        Some(k) => args.get(k + 1).and_then(|n| n.parse().ok()).expect("--substeps takes a number of substeps"),
        None => 1,
    };
    let with_rapier = !args.iter().any(|a| a == "--swerve-only");
    let largest: usize = match args.iter().position(|a| a == "--largest") {
        Some(k) => args.get(k + 1).and_then(|n| n.parse().ok()).expect("--largest takes a sphere count"),
        None => 20_000,
    };
    let pours: Vec<(usize, f32)> = [(500, 12.0), (4000, 24.0), (20_000, 40.0)]
        .into_iter()
        .filter(|&(n, _)| n <= largest && (!quick || n == 500))
        .collect();
    println!("Load average before: {}\n", load_average());
    let mut results = Vec::new();
    for &(n, width) in &pours {
        let scene = poured_pile(n, width, RESTITUTION, POUR_SEED);
        let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        world.set_gravity(Vec3::new(0.0, 0.0, -G)).unwrap();
        world.set_solver_iterations(sweeps).unwrap();
        world.set_substeps(substeps).unwrap();
        let ours = run(&mut world, scene.bounds);
        eprintln!("swerve, {n} in {width} m: {:.1} s", ours.seconds);
        let mut engines = vec![("swerve", ours)];
        if with_rapier {
            let mut rapier = Rapier3dPit::new(&scene);
            rapier.set_gravity(0.0, 0.0, -G);
            let theirs = run(&mut rapier, scene.bounds);
            eprintln!("rapier3d, {n} in {width} m: {:.1} s", theirs.seconds);
            engines.push(("rapier3d", theirs));
        }
        results.push((n, width, scene.bounds.max.z, engines));
    }
    println!(
        "Pours in 3-D (unit spheres in layers over the floor of a square box, restitution {RESTITUTION}, frictionless, g = {G} m/s² along −z, dt = 1/60 s, {STEPS} steps = 30 s; swerve: uniform grid, {} sweeps, {} substep(s); rapier3d 0.22: defaults, no friction, no sleeping; median ms per step over the first and the last 10 s; at rest = mean speed below 1 cm/s from then on):\n",
        sweeps, substeps
    );
    println!("| pour | engine | ms/step falling (0–10 s) | ms/step at rest (20–30 s) | at rest after | mean speed at 10 / 20 / 30 s | deepest overlap at 30 s (of a radius) | top (highest centre) at 30 s | rapier3d time ÷ swerve time (falling / at rest) |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (n, width, _, engines) in &results {
        let ours = &engines[0].1;
        for (name, pour) in engines {
            let settled = match (pour.settled_at, pour.first_below) {
                (None, None) => "not in 30 s".to_string(),
                (None, Some(first)) => format!("not in 30 s (below 1 cm/s at {first:.1} s, not for good)"),
                (Some(t), Some(first)) if first < t => format!("{t:.1} s (first below at {first:.1} s)"),
                (Some(t), _) => format!("{t:.1} s"),
            };
            let speeds: Vec<String> = pour.snapshots.iter().map(|s| speed(s.mean_speed)).collect();
            let end = pour.snapshots[2];
            let ratio = if *name == "rapier3d" {
                format!("{:.2}× / {:.2}×", pour.falling_ms / ours.falling_ms, pour.resting_ms / ours.resting_ms)
            } else {
                String::new()
            };
            println!(
                "| {n} in {width} m | {name} | {:.3} | {:.3} | {settled} | {} | {:.2} % | {:.2} m | {ratio} |",
                pour.falling_ms,
                pour.resting_ms,
                speeds.join(" / "),
                end.deepest * 100.0,
                end.top,
            );
        }
    }
    println!("\nChecks (same runs): deepest sphere–sphere overlap and deepest penetration into a wall (of a radius), spheres whose centre left the box, median and fastest speed at 30 s, wall time of the run (measurements included):\n");
    println!("| pour (box height) | engine | deepest overlap at 10 / 20 / 30 s | into a wall at 10 / 20 / 30 s | outside the box at 30 s | median / fastest speed at 30 s | run |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for (n, width, height, engines) in &results {
        for (name, pour) in engines {
            let overlaps: Vec<String> = pour.snapshots.iter().map(|s| format!("{:.2} %", s.deepest * 100.0)).collect();
            let walls: Vec<String> = pour.snapshots.iter().map(|s| format!("{:.2} %", s.into_wall * 100.0)).collect();
            let end = pour.snapshots[2];
            println!(
                "| {n} in {width} m ({height:.1} m) | {name} | {} | {} | {} | {} / {} | {:.1} s |",
                overlaps.join(" / "),
                walls.join(" / "),
                end.outside,
                speed(f64::from(end.median_speed)),
                speed(f64::from(end.fastest)),
                pour.seconds,
            );
        }
    }
    println!("\nLoad average after: {}", load_average());
}
