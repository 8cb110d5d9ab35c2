//! Runs the 3-D ball benchmark — every broad phase of `swerve::physics3d` on the sphere pit and
//! the mixed-size pit, and rapier3d on the same scenes in the same run — and prints Markdown
//! tables (it writes nothing: paste the figures into BENCHMARKS.md by hand).
//!
//! `cargo run --release -p swerve-bench --example balls3d_report` (from the workspace root).
//! Options: `--quick` (small sizes, for a smoke run), `--rapier-max N` (largest size rapier3d
//! runs; default 100,000: rapier2d took 32 s per step at 1,000,000 balls), `--best K` (how
//! many of swerve's broad phases, the fastest at the size before, run at 1,000,000; default 2).
//!
//! The scenes, the timing and the swerve tables are `swerve_bench::balls3d`'s (`swerve bench
//! balls3d` prints the same tables without rapier3d); this program adds rapier3d's cells, the
//! ratios and a fixed-length run of both engines. Timing is `balls::time_steps` of the 2-D
//! report: one thread, wall-clock and thread-CPU time of the step only, after warm-up steps,
//! for at least a second and five steps per cell. Brute force stops at 10,000 spheres (O(n²));
//! a broad phase whose step is predicted (linearly from the size before, by CPU time) to take
//! more than `balls3d::MAX_STEP_SECONDS` is skipped.

use std::fmt::Write as _;
use std::time::Instant;

use swerve::physics3d::BroadPhaseKind;
use swerve_bench::balls3d::{best, measure, render_energy, render_table, run, Cell, Config, Engine, Pit};

#[path = "../benches/rapier3d_pit.rs"]
mod rapier3d_pit;

use rapier3d_pit::Rapier3dPit;

/// Name of the peer in the tables.
const RAPIER: &str = "rapier3d";

/// rapier3d's contacts per step are the ball–ball pairs that gave its solver contacts, i.e.
/// within its 2 mm prediction distance (swerve's are the collisions resolved,
/// `StepStats::contacts`): not quite the same count, but the same order.
impl Engine for Rapier3dPit {
    fn step(&mut self) -> usize {
        Rapier3dPit::step(self);
        self.ball_contacts()
    }

    fn energy(&self) -> f64 {
        self.kinetic_energy()
    }
}

/// rapier3d ÷ the best swerve broad phase at each size of each pit.
fn render_ratios(out: &mut String, cells: &[Cell], pits: &[(Pit, Vec<usize>)]) {
    out.push_str(
        "**rapier3d ÷ best swerve broad phase** (same scene, same run; > 1 means swerve is faster; best by CPU time)\n\n\
         | scene | N | best swerve broad phase | swerve wall / CPU ms | rapier3d wall / CPU ms | ratio (wall) | ratio (CPU) |\n\
         |---|---:|---|---:|---:|---:|---:|\n",
    );
    for (pit, sizes) in pits {
        for &n in sizes {
            let best = best(cells, *pit, n);
            let rapier = cells.iter().find(|c| c.pit == *pit && c.n == n && !c.is_swerve());
            let Some(b) = best else { continue };
            let (bw, bc) = (b.wall_ms().unwrap_or(f64::NAN), b.cpu_ms().unwrap_or(f64::NAN));
            match rapier.and_then(|r| r.wall_ms().map(|w| (w, r.cpu_ms().unwrap_or(f64::NAN)))) {
                Some((rw, rc)) => {
                    let _ = writeln!(
                        out,
                        "| {} | {n} | {} | {bw:.3} / {bc:.3} | {rw:.3} / {rc:.3} | {:.1}× | {:.1}× |",
                        pit.short(),
                        b.algorithm,
                        rw / bw,
                        rc / bc
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "| {} | {n} | {} | {bw:.3} / {bc:.3} | {} | — | — |",
                        pit.short(),
                        b.algorithm,
                        rapier.map_or("—", |r| r.note.as_str())
                    );
                }
            }
        }
    }
    out.push('\n');
}

/// The same number of steps in both engines from the same scene: energy after 1 s and 2 s of
/// simulated time and the contacts on the way, and how far the positions are apart after one
/// step (the scene is the same; they differ only where spheres touched something).
fn render_fixed_run(out: &mut String, pit: Pit, n: usize, kind: BroadPhaseKind) {
    let scene = pit.scene(n);
    let mut swerve = (scene.world(kind).expect("benchmark scenes are valid"), scene.dt);
    let mut rapier = Rapier3dPit::new(&scene);
    let e0 = [swerve.energy(), rapier.energy()];
    let mut contacts = [swerve.step(), Engine::step(&mut rapier)];
    let (a, b) = (swerve.0.spheres(), rapier.positions());
    let distances: Vec<f32> = a.iter().zip(&b).map(|(s, p)| s.position.distance(*p)).collect();
    let max = distances.iter().copied().fold(0.0f32, f32::max);
    let mean = distances.iter().map(|&d| f64::from(d)).sum::<f64>() / distances.len().max(1) as f64;
    let apart = distances.iter().filter(|&&d| d > 1e-4).count();
    // One step is done; on to 1 s, then 2 s.
    let steps_per_second = (1.0 / scene.dt).round() as usize;
    let mut energies = [[0.0; 2]; 2];
    let mut done = 1;
    for (k, energy) in energies.iter_mut().enumerate() {
        while done < (k + 1) * steps_per_second {
            contacts[0] += swerve.step();
            contacts[1] += Engine::step(&mut rapier);
            done += 1;
        }
        *energy = [swerve.energy(), rapier.energy()];
    }
    let _ = writeln!(
        out,
        "**Same steps, {} at N = {n}** (swerve {kind} and rapier3d from the same scene, {done} steps)\n\n\
         After one step the positions differ by {mean:.2e} m on average, {max:.2e} m at most; {apart} of {n} spheres \
         differ by more than 0.1 mm.\n\n\
         | engine | E at 0 (J) | E after 1 s | E after 2 s | relative change at 2 s | sphere–sphere contacts in 2 s |\n\
         |---|---:|---:|---:|---:|---:|",
        pit.short()
    );
    for (k, name) in [format!("swerve {kind}"), RAPIER.to_string()].iter().enumerate() {
        let _ = writeln!(
            out,
            "| {name} | {:.9e} | {:.9e} | {:.9e} | {:+.2e} | {} |",
            e0[k],
            energies[0][k],
            energies[1][k],
            (energies[1][k] - e0[k]) / e0[k],
            contacts[k]
        );
    }
    out.push('\n');
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let option = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let rapier_max = option("--rapier-max", 100_000);
    let mut config = if quick { Config::smoke() } else { Config::full() };
    config.best_k = option("--best", config.best_k);
    let settings = config.settings;
    let load_before = load_average();
    let clock = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let started = Instant::now();
    let rapier = |pit: Pit, scene: &swerve::physics3d::scene::Scene| {
        let n = scene.spheres.len();
        Some(if n > rapier_max {
            Cell::skipped(pit, RAPIER, n, format!("not run (--rapier-max {rapier_max})"))
        } else {
            measure(pit, RAPIER.to_string(), n, &mut Rapier3dPit::new(scene), &settings)
        })
    };
    let cells = run(&config, rapier, |cell| eprintln!("{}", cell.progress_line()));
    let mut text = String::new();
    let _ = write!(
        text,
        "Command: `cargo run --release -p swerve-bench --example balls3d_report{}` — started {clock}; one thread, \
         wall-clock and thread-CPU time of `World::step` / rapier3d's `PhysicsPipeline::step` only, mean over ≥ {} \
         steps and ≥ {} s per cell after {} warm-up steps; scenes from `swerve::physics3d::scene` with seed \
         `SCENE_SEED`, 10 % volume fraction. rapier3d 0.22: density 1, restitution 1 (`Max` combine), no \
         friction, gravity, sleeping or CCD, six fixed cuboid walls, default solver, single thread. Machine: the \
         project's 2-core box, shared with other jobs (load average `{load_before}` before the run, `{}` after), \
         so absolute times carry noise; the ratios are measured in the same run.\n\n",
        if quick { " -- --quick" } else { "" },
        settings.min_steps,
        settings.min_seconds,
        settings.warmup,
        load_average(),
    );
    for (pit, _) in &config.pits {
        render_table(&mut text, *pit, &cells);
    }
    render_ratios(&mut text, &cells, &config.pits);
    render_energy(&mut text, &cells);
    // The fixed-length comparison at a middle size, with each pit's best broad phase there.
    for (pit, sizes) in &config.pits {
        let n = if quick { sizes[0] } else { 10_000 };
        let best = best(&cells, *pit, n)
            .and_then(|c| c.algorithm.parse::<BroadPhaseKind>().ok())
            .unwrap_or(BroadPhaseKind::ALL[BroadPhaseKind::ALL.len() - 1]);
        render_fixed_run(&mut text, *pit, n, best);
    }
    let _ = writeln!(text, "Whole run: {:.0} s.", started.elapsed().as_secs_f64());
    println!("{text}");
}
