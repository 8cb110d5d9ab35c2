//! Runs the 3-D ball benchmark — every broad phase of `swerve::physics3d` on the sphere pit and
//! the mixed-size pit, and rapier3d on the same scenes in the same run — and prints Markdown
//! tables (it writes nothing: paste the figures into BENCHMARKS.md by hand).
//!
//! `cargo run --release -p swerve-bench --example balls3d_report` (from the workspace root).
//! Options: `--quick` (small sizes, for a smoke run), `--rapier-max N` (largest size rapier3d
//! runs; default 100,000: rapier2d took 32 s per step at 1,000,000 balls), `--best K` (how
//! many of swerve's broad phases, the fastest at the size before, run at 1,000,000; default 2).
//!
//! Timing is [`time_steps`] of the 2-D report: one thread, wall-clock and thread-CPU time of
//! the step only, after warm-up steps, for at least a second and five steps per cell. Brute
//! force stops at 10,000 spheres (O(n²)); a broad phase whose step is predicted (linearly from
//! the size before, by CPU time) to take more than [`MAX_STEP_SECONDS`] is skipped.

use std::fmt::Write as _;
use std::time::Instant;

use swerve::physics3d::scene::{mixed_pit, sphere_pit, Scene};
use swerve::physics3d::{BroadPhaseKind, World};
use swerve_bench::balls::{time_steps, timing_cell, write_timing_table, Timing, SCENE_SEED};

#[path = "../benches/rapier3d_pit.rs"]
mod rapier3d_pit;

use rapier3d_pit::Rapier3dPit;

/// Volume fraction of both pits.
const FRACTION: f32 = 0.1;
/// A cell whose single step takes longer than this stops after one measured step; a broad
/// phase predicted to exceed it is not run.
const MAX_STEP_SECONDS: f64 = 5.0;
/// Largest size brute force runs at.
const BRUTE_FORCE_MAX: usize = 10_000;
/// Sizes above this run only swerve's best broad phases (see `--best`).
const ALL_PHASES_MAX: usize = 100_000;
/// Name of the peer in the tables.
const RAPIER: &str = "rapier3d";

/// Which scene a cell measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pit {
    /// `sphere_pit`: radius 1.
    Spheres,
    /// `mixed_pit`: radii uniform in [0.25, 1].
    Mixed,
}

impl Pit {
    fn scene(self, n: usize) -> Scene {
        match self {
            Pit::Spheres => sphere_pit(n, FRACTION, SCENE_SEED),
            Pit::Mixed => mixed_pit(n, FRACTION, SCENE_SEED),
        }
    }

    fn title(self) -> &'static str {
        match self {
            Pit::Spheres => "sphere pit (`sphere_pit`: r = 1, 10 % volume, speeds ≤ 10 m/s, dt = 1/60)",
            Pit::Mixed => "mixed-size pit (`mixed_pit`: r ∈ [0.25, 1], the sphere pit's box, dt = 1/60)",
        }
    }

    fn short(self) -> &'static str {
        match self {
            Pit::Spheres => "sphere pit",
            Pit::Mixed => "mixed pit",
        }
    }
}

/// One cell of a table.
struct Cell {
    pit: Pit,
    algorithm: String,
    n: usize,
    /// `None` when not run (see `note`).
    timing: Option<Timing>,
    note: String,
    /// Kinetic energy before the first step and after the last, and the steps taken between
    /// (warm-up and measured).
    energy: Option<(f64, f64, usize)>,
    /// Mean sphere–sphere contacts per step over all steps taken (swerve: `StepStats::contacts`,
    /// collisions resolved; rapier3d: ball–ball pairs that gave its solver contacts, i.e. within
    /// its 2 mm prediction distance — not quite the same count, but the same order).
    contacts: Option<f64>,
}

impl Cell {
    fn skipped(pit: Pit, algorithm: &str, n: usize, note: String) -> Cell {
        Cell { pit, algorithm: algorithm.to_string(), n, timing: None, note, energy: None, contacts: None }
    }

    fn wall_ms(&self) -> Option<f64> {
        self.timing.map(|t| t.wall.as_secs_f64() * 1e3)
    }

    fn cpu_ms(&self) -> Option<f64> {
        self.timing.and_then(|t| t.cpu).map(|c| c.as_secs_f64() * 1e3)
    }

    /// CPU time when measured (less disturbed by other jobs), else wall-clock time.
    fn key_ms(&self) -> f64 {
        self.cpu_ms().or(self.wall_ms()).unwrap_or(f64::INFINITY)
    }

    fn is_swerve(&self) -> bool {
        self.algorithm != RAPIER
    }

    fn log(&self) {
        let result = match self.timing {
            Some(t) => format!(
                "{:.4} ms/step wall, {:.4} ms CPU ({} steps)",
                self.wall_ms().unwrap_or(f64::NAN),
                self.cpu_ms().unwrap_or(f64::NAN),
                t.steps
            ),
            None => self.note.clone(),
        };
        eprintln!("{:>10} {:>18} N={:>8}: {result}", self.pit.short(), self.algorithm, self.n);
    }
}

/// Measurement settings.
struct Settings {
    warmup: usize,
    min_steps: usize,
    min_seconds: f64,
}

/// What the timing loop needs of an engine.
trait Engine {
    /// One step; returns the sphere–sphere contacts it made.
    fn step(&mut self) -> usize;
    /// Kinetic energy (J).
    fn energy(&self) -> f64;
}

impl Engine for (World, f32) {
    fn step(&mut self) -> usize {
        self.0.step(self.1);
        self.0.last_step_stats().contacts
    }

    fn energy(&self) -> f64 {
        self.0.kinetic_energy()
    }
}

impl Engine for Rapier3dPit {
    fn step(&mut self) -> usize {
        Rapier3dPit::step(self);
        self.ball_contacts()
    }

    fn energy(&self) -> f64 {
        self.kinetic_energy()
    }
}

/// Times one engine on `scene` and makes its cell.
fn measure(pit: Pit, algorithm: String, n: usize, engine: &mut impl Engine, settings: &Settings) -> Cell {
    let e0 = engine.energy();
    let (mut steps, mut contacts) = (0usize, 0usize);
    let timing = time_steps(
        || {
            contacts += engine.step();
            steps += 1;
        },
        settings.warmup,
        settings.min_steps,
        settings.min_seconds,
        MAX_STEP_SECONDS,
    );
    Cell {
        pit,
        algorithm,
        n,
        timing: Some(timing),
        note: String::new(),
        energy: Some((e0, engine.energy(), steps)),
        // Over all steps taken, warm-up included: the pit's contact rate is steady.
        contacts: Some(contacts as f64 / steps.max(1) as f64),
    }
}

fn swerve_cell(pit: Pit, scene: &Scene, kind: BroadPhaseKind, settings: &Settings) -> Cell {
    let mut engine = (scene.world(kind).expect("benchmark scenes are valid"), scene.dt);
    measure(pit, kind.to_string(), scene.spheres.len(), &mut engine, settings)
}

fn rapier_cell(pit: Pit, scene: &Scene, settings: &Settings) -> Cell {
    measure(pit, RAPIER.to_string(), scene.spheres.len(), &mut Rapier3dPit::new(scene), settings)
}

/// Runs one pit at the given sizes.
fn run_pit(pit: Pit, sizes: &[usize], best_k: usize, rapier_max: usize, settings: &Settings) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    let mut previous: Option<usize> = None;
    for &n in sizes {
        let scene = pit.scene(n);
        // At the largest sizes only the best broad phases of the size before run.
        let best: Vec<String> = match previous {
            Some(m) if n > ALL_PHASES_MAX => {
                let mut at_m: Vec<&Cell> =
                    cells.iter().filter(|c| c.n == m && c.is_swerve() && c.timing.is_some()).collect();
                at_m.sort_by(|a, b| a.key_ms().total_cmp(&b.key_ms()));
                at_m.iter().take(best_k).map(|c| c.algorithm.clone()).collect()
            }
            _ => BroadPhaseKind::ALL.iter().map(|k| k.to_string()).collect(),
        };
        for kind in BroadPhaseKind::ALL.iter().copied() {
            let name = kind.to_string();
            let before = previous.and_then(|m| cells.iter().find(|c| c.n == m && c.algorithm == name));
            let predicted_s = before.and_then(|c| c.timing.is_some().then(|| c.key_ms() * n as f64 / c.n as f64 / 1e3));
            let cell = if kind == BroadPhaseKind::BruteForce && n > BRUTE_FORCE_MAX {
                Cell::skipped(pit, &name, n, format!("skipped: O(n²), run up to {BRUTE_FORCE_MAX} only"))
            } else if !best.contains(&name) {
                Cell::skipped(pit, &name, n, format!("not run: only the best {best_k} at {}", previous.unwrap_or(0)))
            } else if let Some(s) = predicted_s.filter(|&s| s > MAX_STEP_SECONDS) {
                Cell::skipped(pit, &name, n, format!("skipped: predicted {s:.1} s per step"))
            } else {
                swerve_cell(pit, &scene, kind, settings)
            };
            cell.log();
            cells.push(cell);
        }
        let cell = if n > rapier_max {
            Cell::skipped(pit, RAPIER, n, format!("not run (--rapier-max {rapier_max})"))
        } else {
            rapier_cell(pit, &scene, settings)
        };
        cell.log();
        cells.push(cell);
        previous = Some(n);
    }
    cells
}

/// The timing table of one pit: rows are engines, columns sizes, cells "wall ms (steps/s) ·
/// CPU ms".
fn render_table(out: &mut String, pit: Pit, cells: &[Cell]) {
    let rows: Vec<(String, usize, String)> = cells
        .iter()
        .filter(|c| c.pit == pit)
        .map(|c| {
            let label = if c.algorithm == RAPIER { RAPIER.to_string() } else { format!("swerve {}", c.algorithm) };
            let text = match (c.wall_ms(), c.timing) {
                (Some(ms), Some(t)) => timing_cell(ms, c.cpu_ms(), t.steps),
                _ => c.note.clone(),
            };
            (label, c.n, text)
        })
        .collect();
    write_timing_table(out, pit.title(), "engine / broad phase", &rows);
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
            let best = cells
                .iter()
                .filter(|c| c.pit == *pit && c.n == n && c.is_swerve() && c.timing.is_some())
                .min_by(|a, b| a.key_ms().total_cmp(&b.key_ms()));
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

/// Kinetic energy before and after the timed steps of every cell that ran.
fn render_energy(out: &mut String, cells: &[Cell]) {
    out.push_str(
        "**Energy sanity check** — kinetic energy before the first and after the last step of each timed cell \
         (warm-up included; the cells ran different numbers of steps), and sphere–sphere contacts per step\n\n\
         | scene | N | engine / broad phase | steps | E before (J) | E after (J) | relative change | per step | contacts / step |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for c in cells {
        if let (Some((e0, e1, steps)), Some(contacts)) = (c.energy, c.contacts) {
            let rel = (e1 - e0) / e0;
            let _ = writeln!(
                out,
                "| {} | {} | {} | {steps} | {e0:.9e} | {e1:.9e} | {rel:+.2e} | {:+.2e} | {contacts:.1} |",
                c.pit.short(),
                c.n,
                c.algorithm,
                rel / steps.max(1) as f64
            );
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
    let best_k = option("--best", 2);
    let (pits, settings) = if quick {
        (
            vec![(Pit::Spheres, vec![500, 2_000]), (Pit::Mixed, vec![2_000])],
            Settings { warmup: 1, min_steps: 2, min_seconds: 0.0 },
        )
    } else {
        (
            vec![(Pit::Spheres, vec![1_000, 10_000, 100_000, 1_000_000]), (Pit::Mixed, vec![10_000, 100_000])],
            Settings { warmup: 3, min_steps: 5, min_seconds: 1.0 },
        )
    };
    let load_before = load_average();
    let clock = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let started = Instant::now();
    let mut cells = Vec::new();
    for (pit, sizes) in &pits {
        cells.extend(run_pit(*pit, sizes, best_k, rapier_max, &settings));
    }
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
    for (pit, _) in &pits {
        render_table(&mut text, *pit, &cells);
    }
    render_ratios(&mut text, &cells, &pits);
    render_energy(&mut text, &cells);
    // The fixed-length comparison at a middle size, with each pit's best broad phase there.
    for (pit, sizes) in &pits {
        let n = if quick { sizes[0] } else { 10_000 };
        let best = cells
            .iter()
            .filter(|c| c.pit == *pit && c.n == n && c.is_swerve() && c.timing.is_some())
            .min_by(|a, b| a.key_ms().total_cmp(&b.key_ms()))
            .and_then(|c| c.algorithm.parse::<BroadPhaseKind>().ok())
            .unwrap_or(BroadPhaseKind::ALL[BroadPhaseKind::ALL.len() - 1]);
        render_fixed_run(&mut text, *pit, n, best);
    }
    let _ = writeln!(text, "Whole run: {:.0} s.", started.elapsed().as_secs_f64());
    println!("{text}");
}
