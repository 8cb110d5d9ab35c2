//! Gravity: how swerve's resting-contact solver settles poured piles, what a step costs while
//! they fall and once they rest, and rapier2d on the same piles in the same run; then how tall
//! a stack the solver holds for a number of sweeps. Prints the tables of BENCHMARKS.md's
//! "Gravity" section.
//!
//! Last, friction: a steep pile of rough balls slumping, for several friction
//! coefficients, in swerve and rapier2d.
//!
//! `cargo run --release -p swerve-bench --example gravity_report` (about ten minutes, most
//! of it rapier2d on the largest pour); `-- --quick` for the two smaller pours, the shorter
//! stacks and the friction table; `-- --stacks` for the stacks only; `-- --friction` for the
//! friction table only.

#[path = "../benches/rapier_pit.rs"]
mod rapier_pit;

use std::time::Instant;

use swerve::physics::scene::{pinned_pyramid, poured_pile, slumping_pile, Scene};
use swerve::physics::{BroadPhaseKind, World};
use swerve::Vec2;

const POUR_SEED: u64 = 0x0006_7A11;
const G: f32 = 9.81;
const STEPS: usize = 1800;
const RESTITUTION: f32 = 0.3;

/// What one engine did with one pour.
struct Pour {
    falling_ms: f64,
    resting_ms: f64,
    settled_at: Option<f32>,
    deepest: f32,
    top: f32,
}

/// An engine that steps a pile and reports its balls.
trait Engine {
    fn step(&mut self);
    fn positions(&self) -> Vec<Vec2>;
    fn kinetic_energy(&self) -> f64;
    fn speeds(&self) -> Vec<f32>;
}

impl Engine for World {
    fn step(&mut self) {
        World::step(self, 1.0 / 60.0);
    }
    fn positions(&self) -> Vec<Vec2> {
        self.balls().iter().map(|b| b.position).collect()
    }
    fn kinetic_energy(&self) -> f64 {
        World::kinetic_energy(self)
    }
    fn speeds(&self) -> Vec<f32> {
        self.balls().iter().map(|b| b.velocity.length()).collect()
    }
}

impl Engine for rapier_pit::RapierPit {
    fn step(&mut self) {
        rapier_pit::RapierPit::step(self);
    }
    fn positions(&self) -> Vec<Vec2> {
        rapier_pit::RapierPit::positions(self)
    }
    fn kinetic_energy(&self) -> f64 {
        rapier_pit::RapierPit::kinetic_energy(self)
    }
    fn speeds(&self) -> Vec<f32> {
        rapier_pit::RapierPit::speeds(self)
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The deepest overlap of two unit balls, as a fraction of the radius (sweep along x).
fn deepest_overlap(positions: &[Vec2]) -> f32 {
    let mut order: Vec<Vec2> = positions.to_vec();
    order.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut deepest = 0.0f32;
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            if order[j].x - order[i].x >= 2.0 {
                break;
            }
            deepest = deepest.max(2.0 - order[i].distance(order[j]));
        }
    }
    deepest
}

/// Runs `engine` for [`STEPS`] steps: step times while falling (the first third) and at rest
/// (the last third), when it came to rest (mean kinetic energy under that of 1 cm/s, for
/// good), the deepest overlap and the top of the pile at the end.
fn run(engine: &mut dyn Engine, total_mass: f64) -> Pour {
    let rest = 0.5 * total_mass * 0.01 * 0.01;
    let mut times = Vec::with_capacity(STEPS);
    let mut last_moving = None;
    for s in 0..STEPS {
        let start = Instant::now();
        engine.step();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        if engine.kinetic_energy() >= rest {
            last_moving = Some(s);
        }
    }
    let positions = engine.positions();
    let settled_at = match last_moving {
        Some(s) if s + 1 == STEPS => None,
        Some(s) => Some((s + 1) as f32 / 60.0),
        None => Some(0.0),
    };
    Pour {
        falling_ms: median(times[..STEPS / 3].to_vec()),
        resting_ms: median(times[2 * STEPS / 3..].to_vec()),
        settled_at,
        deepest: deepest_overlap(&positions),
        top: positions.iter().map(|p| p.y + 1.0).fold(0.0, f32::max),
    }
}

fn pour_row(n: usize, width: f32, name: &str, pour: &Pour, ratio: Option<(f64, f64)>) {
    let settled = pour.settled_at.map_or("not in 30 s".to_string(), |t| format!("{t:.1} s"));
    let ratio = ratio.map_or(String::new(), |(f, r)| format!(" | {f:.2}× / {r:.2}×"));
    println!(
        "| {n} in {width} m | {name} | {:.3} | {:.3} | {settled} | {:.2} % | {:.1} m{ratio} |",
        pour.falling_ms,
        pour.resting_ms,
        pour.deepest * 100.0,
        pour.top,
    );
}

/// A `rows`-row pyramid of unit balls pinned at its base, run for 10 s with `iterations`
/// sweeps and `substeps` steps of `dt / substeps` a frame: the largest distance any ball
/// moved.
fn pyramid_drift(rows: usize, iterations: usize, substeps: usize) -> f32 {
    let scene = pinned_pyramid(rows);
    let mut w = scene.world(BroadPhaseKind::UniformGrid).unwrap();
    w.set_gravity(Vec2::new(0.0, -G)).unwrap();
    w.set_solver_iterations(iterations).unwrap();
    w.set_substeps(substeps).unwrap();
    for _ in 0..600 {
        w.step(scene.dt);
    }
    let moved = w.balls().iter().zip(&scene.balls).map(|(b, start)| b.position.distance(start.position));
    moved.fold(0.0, f32::max)
}

/// What a collapsed column left: the heap's height, the angle of its flanks (measured
/// between a quarter and three quarters of its height, from the surface profile in 1 m bins,
/// both flanks averaged), how many balls still move faster than 5 cm/s, and how many rolled
/// or slid off the heap (further from the middle than the heap's foot, where the surface
/// first drops under a ball's diameter).
struct Heap {
    height: f32,
    angle_degrees: f32,
    moving: usize,
    strays: usize,
}

fn heap_of(balls: &[(Vec2, f32, f32)], floor: f32) -> Heap {
    let bins = floor as usize;
    let mut surface = vec![0.0f32; bins];
    for &(p, r, _) in balls {
        let lo = ((p.x - r).max(0.0) as usize).min(bins - 1);
        let hi = ((p.x + r).max(0.0) as usize).min(bins - 1);
        for bin in &mut surface[lo..=hi] {
            *bin = bin.max(p.y + r);
        }
    }
    let middle = bins / 2;
    let height = surface.iter().copied().fold(0.0, f32::max);
    // From the middle outwards on one side: the first bin under a fraction of the height.
    let reach = |fraction: f32, step: isize| {
        let mut at = middle as isize;
        while at >= 0 && (at as usize) < bins && surface[at as usize] >= fraction * height {
            at += step;
        }
        (at - middle as isize).unsigned_abs() as f32
    };
    let flank = |step| 0.5 * height / (reach(0.25, step) - reach(0.75, step)).max(1.0);
    let angle_degrees = (0.5 * (flank(-1) + flank(1))).atan().to_degrees();
    let foot = reach(1.0 / height.max(1.0), -1).max(reach(1.0 / height.max(1.0), 1));
    let strays = balls.iter().filter(|(p, _, _)| (p.x - 0.5 * floor).abs() > foot + 1.0).count();
    let moving = balls.iter().filter(|&&(_, _, speed)| speed > 0.05).count();
    Heap { height, angle_degrees, moving, strays }
}

/// The friction table: a 60° pile of 34 rows (595 balls) slumping on a wide floor for 40 s,
/// for each friction coefficient, in swerve and rapier2d (same balls, same coefficients: a
/// pair uses the coefficient, a ball on the floor its own).
fn friction_table() {
    const ROWS: usize = 34;
    const FLOOR: f32 = 160.0;
    const FRICTION_STEPS: usize = 2400;
    println!("\nFriction: a pile of {} balls (34 rows, radii 0.4–0.6 m, restitution 0.1, flanks at 60°) slumping on a {FLOOR} m floor, 40 s ({FRICTION_STEPS} steps of 1/60 s); swerve: uniform grid, 10 sweeps; rapier2d 0.22: defaults, balls rotate, no sleeping:\n", ROWS * (ROWS + 1) / 2);
    println!("| friction | rolling resistance | engine | ms/step | heap height | flank angle | balls moving > 5 cm/s at 40 s | balls off the heap |");
    println!("|---:|---:|---|---:|---:|---:|---:|---:|");
    // Rapier2d has no rolling resistance: those rows are swerve's alone.
    for (friction, rolling) in [(0.0f32, 0.0f32), (0.2, 0.0), (0.5, 0.0), (1.0, 0.0), (0.5, 0.1), (0.5, 0.3)] {
        let mut scene = slumping_pile(ROWS, FLOOR, friction, POUR_SEED);
        for b in &mut scene.balls {
            *b = b.with_rolling_resistance(rolling);
        }
        let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        world.set_gravity(Vec2::new(0.0, -G)).unwrap();
        let mut engines: Vec<(&str, Box<dyn Engine>)> = vec![("swerve", Box::new(world))];
        if rolling == 0.0 {
            let mut rapier = rapier_pit::RapierPit::new(&scene);
            rapier.set_gravity(0.0, -G);
            rapier.set_friction(friction);
            engines.push(("rapier2d", Box::new(rapier)));
        }
        for (name, mut engine) in engines {
            let mut times = Vec::with_capacity(FRICTION_STEPS);
            for _ in 0..FRICTION_STEPS {
                let start = Instant::now();
                engine.step();
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
            let (positions, speeds) = (engine.positions(), engine.speeds());
            let balls: Vec<(Vec2, f32, f32)> =
                positions.iter().zip(&scene.balls).zip(&speeds).map(|((&p, b), &v)| (p, b.radius, v)).collect();
            let heap = heap_of(&balls, FLOOR);
            println!(
                "| {friction} | {rolling} | {name} | {:.3} | {:.1} m | {:.1}° | {} | {} |",
                median(times),
                heap.height,
                heap.angle_degrees,
                heap.moving,
                heap.strays
            );
        }
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let stacks_only = std::env::args().any(|a| a == "--stacks");
    if std::env::args().any(|a| a == "--friction") {
        friction_table();
        return;
    }
    let pours: &[(usize, f32)] = match (stacks_only, quick) {
        (true, _) => &[],
        (false, true) => &[(300, 40.0), (3000, 200.0)],
        (false, false) => &[(300, 40.0), (3000, 200.0), (30000, 2000.0)],
    };
    if !pours.is_empty() {
        println!("Pours (restitution {RESTITUTION}, g = {G}, dt = 1/60 s, {STEPS} steps; swerve: uniform grid, 10 sweeps; rapier2d 0.22: defaults, no friction, no sleeping):\n");
        println!("| pile | engine | ms/step falling | ms/step at rest | at rest after | deepest overlap (of a radius) | top | rapier2d time ÷ swerve time (falling / at rest) |");
        println!("|---|---|---:|---:|---:|---:|---:|---:|");
    }
    for &(n, width) in pours {
        let scene: Scene = poured_pile(n, width, RESTITUTION, POUR_SEED);
        let total_mass: f64 = scene.balls.iter().map(|b| f64::from(b.mass)).sum();
        let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
        world.set_gravity(Vec2::new(0.0, -G)).unwrap();
        let ours = run(&mut world, total_mass);
        let mut rapier = rapier_pit::RapierPit::new(&scene);
        rapier.set_gravity(0.0, -G);
        let theirs = run(&mut rapier, total_mass);
        pour_row(n, width, "swerve", &ours, None);
        pour_row(
            n,
            width,
            "rapier2d",
            &theirs,
            Some((theirs.falling_ms / ours.falling_ms, theirs.resting_ms / ours.resting_ms)),
        );
    }
    let rows: &[usize] = if quick { &[10, 20] } else { &[10, 20, 30, 40] };
    println!("\nPyramids pinned at the base (largest drift of a ball after 10 s, in radii, and the time to run the 10 s; swerve):\n");
    print!("| rows |");
    // (sweeps, steps a frame of 1/60 s)
    let settings = [(10, 1), (30, 1), (100, 1), (10, 4), (10, 8)];
    for (sweeps, substeps) in settings {
        match substeps {
            1 => print!(" {sweeps} sweeps |"),
            n => print!(" {sweeps} sweeps, {n} steps of dt/{n} |"),
        }
    }
    println!("\n|---:|{}", "---:|".repeat(settings.len()));
    for &r in rows {
        print!("| {r} |");
        for (sweeps, substeps) in settings {
            let start = Instant::now();
            let drift = pyramid_drift(r, sweeps, substeps);
            let seconds = start.elapsed().as_secs_f64();
            let shown = if drift > 1.0 { "collapsed".to_string() } else { format!("{drift:.3}") };
            print!(" {shown} ({seconds:.2} s) |");
        }
        println!();
    }
    if !stacks_only {
        friction_table();
    }
}
