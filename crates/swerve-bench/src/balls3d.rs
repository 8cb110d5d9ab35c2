//! The 3-D ball benchmark: every broad phase of `swerve::physics3d` on the sphere pit and the
//! mixed-size pit, timed by [`time_steps`] of the 2-D benchmark (one thread, wall-clock and
//! thread-CPU time of the step only, after warm-up steps), and its Markdown tables.
//! `swerve bench balls3d` prints them; `examples/balls3d_report.rs` adds rapier3d on the same
//! scenes in the same run (a peer cell per size through [`run_pit`]'s `peer`), which stays a
//! dev-dependency of this crate.
//!
//! Brute force stops at [`BRUTE_FORCE_MAX`] spheres (O(n²)); a broad phase whose step is
//! predicted (linearly from the size before, by CPU time) to take more than
//! [`MAX_STEP_SECONDS`] is skipped; above [`ALL_PHASES_MAX`] only the best few broad phases of
//! the size before run.

use std::fmt::Write as _;

use swerve::physics3d::scene::{mixed_pit, sphere_pit, Scene};
use swerve::physics3d::{BroadPhaseKind, World};

use crate::balls::{time_steps, timing_cell, write_timing_table, Timing, SCENE_SEED};

/// Volume fraction of both pits.
pub const FRACTION: f32 = 0.1;
/// A cell whose single step takes longer than this (s) stops after one measured step; a broad
/// phase predicted to exceed it is not run.
pub const MAX_STEP_SECONDS: f64 = 5.0;
/// Largest size brute force runs at.
pub const BRUTE_FORCE_MAX: usize = 10_000;
/// Sizes above this run only swerve's best broad phases of the size before
/// ([`Config::best_k`]).
pub const ALL_PHASES_MAX: usize = 100_000;

/// Which scene a cell measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pit {
    /// `sphere_pit`: radius 1.
    Spheres,
    /// `mixed_pit`: radii uniform in [0.25, 1].
    Mixed,
}

impl Pit {
    /// The scene with `n` spheres ([`FRACTION`] of the box filled, seed [`SCENE_SEED`]).
    pub fn scene(self, n: usize) -> Scene {
        match self {
            Pit::Spheres => sphere_pit(n, FRACTION, SCENE_SEED),
            Pit::Mixed => mixed_pit(n, FRACTION, SCENE_SEED),
        }
    }

    /// Title of the pit's table.
    pub fn title(self) -> &'static str {
        match self {
            Pit::Spheres => "sphere pit (`sphere_pit`: r = 1, 10 % volume, speeds ≤ 10 m/s, dt = 1/60)",
            Pit::Mixed => "mixed-size pit (`mixed_pit`: r ∈ [0.25, 1], the sphere pit's box, dt = 1/60)",
        }
    }

    /// Short name, for progress lines and summary tables.
    pub fn short(self) -> &'static str {
        match self {
            Pit::Spheres => "sphere pit",
            Pit::Mixed => "mixed pit",
        }
    }
}

/// One cell of a table: one engine (a swerve broad phase or a peer) on one pit at one size.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The scene.
    pub pit: Pit,
    /// A [`BroadPhaseKind`] name for swerve, or the peer's name (e.g. `rapier3d`).
    pub algorithm: String,
    /// Number of spheres.
    pub n: usize,
    /// `None` when not run (see `note`).
    pub timing: Option<Timing>,
    /// Why the cell was not run.
    pub note: String,
    /// Kinetic energy (J) before the first step and after the last, and the steps taken
    /// between (warm-up and measured).
    pub energy: Option<(f64, f64, usize)>,
    /// Mean sphere–sphere contacts per step over all steps taken (what [`Engine::step`]
    /// returns).
    pub contacts: Option<f64>,
}

impl Cell {
    /// A cell that did not run, and why.
    pub fn skipped(pit: Pit, algorithm: &str, n: usize, note: String) -> Cell {
        Cell { pit, algorithm: algorithm.to_string(), n, timing: None, note, energy: None, contacts: None }
    }

    /// Mean wall-clock ms per step, when run.
    pub fn wall_ms(&self) -> Option<f64> {
        self.timing.map(|t| t.wall.as_secs_f64() * 1e3)
    }

    /// Mean thread-CPU ms per step, when run and measurable.
    pub fn cpu_ms(&self) -> Option<f64> {
        self.timing.and_then(|t| t.cpu).map(|c| c.as_secs_f64() * 1e3)
    }

    /// CPU time when measured (less disturbed by other jobs), else wall-clock time; infinite
    /// when not run. What "best" and the predictions go by.
    pub fn key_ms(&self) -> f64 {
        self.cpu_ms().or(self.wall_ms()).unwrap_or(f64::INFINITY)
    }

    /// Whether the cell is one of swerve's broad phases (not a peer).
    pub fn is_swerve(&self) -> bool {
        self.algorithm.parse::<BroadPhaseKind>().is_ok()
    }

    /// The row label in the tables: `swerve NAME` for swerve's broad phases, the peer's name
    /// otherwise.
    pub fn label(&self) -> String {
        if self.is_swerve() {
            format!("swerve {}", self.algorithm)
        } else {
            self.algorithm.clone()
        }
    }

    /// One line for progress output: pit, engine, size, and the times or why it did not run.
    pub fn progress_line(&self) -> String {
        let result = match self.timing {
            Some(t) => format!(
                "{:.4} ms/step wall, {:.4} ms CPU ({} steps)",
                self.wall_ms().unwrap_or(f64::NAN),
                self.cpu_ms().unwrap_or(f64::NAN),
                t.steps
            ),
            None => self.note.clone(),
        };
        format!("{:>10} {:>18} N={:>8}: {result}", self.pit.short(), self.algorithm, self.n)
    }
}

/// Measurement settings of every cell.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Unmeasured steps first.
    pub warmup: usize,
    /// Minimum measured steps per cell.
    pub min_steps: usize,
    /// Minimum measured time per cell (s).
    pub min_seconds: f64,
}

/// What the timing loop needs of an engine.
pub trait Engine {
    /// One step; returns the sphere–sphere contacts it made.
    fn step(&mut self) -> usize;
    /// Kinetic energy (J).
    fn energy(&self) -> f64;
}

/// swerve's world and the time step (s) it is stepped by.
impl Engine for (World, f32) {
    fn step(&mut self) -> usize {
        self.0.step(self.1);
        self.0.last_step_stats().contacts
    }

    fn energy(&self) -> f64 {
        self.0.kinetic_energy()
    }
}

/// Times `engine` (already holding `pit`'s scene of `n` spheres) and makes its cell.
pub fn measure(pit: Pit, algorithm: String, n: usize, engine: &mut impl Engine, settings: &Settings) -> Cell {
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

/// Times swerve's world with broad phase `kind` on `scene` (of `pit`).
pub fn swerve_cell(pit: Pit, scene: &Scene, kind: BroadPhaseKind, settings: &Settings) -> Cell {
    // The pits are built valid by `swerve::physics3d::scene`; a failure is a bug there.
    let mut engine = (scene.world(kind).expect("benchmark scenes are valid"), scene.dt);
    measure(pit, kind.to_string(), scene.spheres.len(), &mut engine, settings)
}

/// Runs one pit at the given sizes: at each size every broad phase of
/// [`BroadPhaseKind::ALL`] (or why not), then `peer`'s cell for the scene, if it gives one.
/// Each cell goes to `progress` as it is made.
pub fn run_pit(
    pit: Pit,
    sizes: &[usize],
    best_k: usize,
    settings: &Settings,
    mut peer: impl FnMut(Pit, &Scene) -> Option<Cell>,
    mut progress: impl FnMut(&Cell),
) -> Vec<Cell> {
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
            progress(&cell);
            cells.push(cell);
        }
        if let Some(cell) = peer(pit, &scene) {
            progress(&cell);
            cells.push(cell);
        }
        previous = Some(n);
    }
    cells
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// The pits and their sizes, in table order.
    pub pits: Vec<(Pit, Vec<usize>)>,
    /// Measurement settings of every cell.
    pub settings: Settings,
    /// How many of the best broad phases of the size before run above [`ALL_PHASES_MAX`].
    pub best_k: usize,
}

impl Config {
    /// The recorded table: the sphere pit at 1,000 to 1,000,000, the mixed pit at 10,000 and
    /// 100,000; at least 5 steps and 1 s per cell after 3 warm-up steps.
    pub fn full() -> Config {
        Config {
            pits: vec![(Pit::Spheres, vec![1_000, 10_000, 100_000, 1_000_000]), (Pit::Mixed, vec![10_000, 100_000])],
            settings: Settings { warmup: 3, min_steps: 5, min_seconds: 1.0 },
            best_k: 2,
        }
    }

    /// `swerve bench balls3d --quick`: the sphere pit at 1,000 and 10,000 and the mixed pit at
    /// 10,000, at least 5 steps and 0.2 s per cell (well under a minute on the 2-core machine).
    pub fn quick() -> Config {
        Config {
            pits: vec![(Pit::Spheres, vec![1_000, 10_000]), (Pit::Mixed, vec![10_000])],
            settings: Settings { warmup: 3, min_steps: 5, min_seconds: 0.2 },
            best_k: 2,
        }
    }

    /// The report's smoke run (`balls3d_report --quick`): 500 and 2,000 spheres, 2,000 mixed,
    /// two measured steps per cell after one warm-up step.
    pub fn smoke() -> Config {
        Config {
            pits: vec![(Pit::Spheres, vec![500, 2_000]), (Pit::Mixed, vec![2_000])],
            settings: Settings { warmup: 1, min_steps: 2, min_seconds: 0.0 },
            best_k: 2,
        }
    }
}

/// Runs every pit of `config` ([`run_pit`] with `peer` and `progress`).
pub fn run(
    config: &Config,
    mut peer: impl FnMut(Pit, &Scene) -> Option<Cell>,
    mut progress: impl FnMut(&Cell),
) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (pit, sizes) in &config.pits {
        cells.extend(run_pit(*pit, sizes, config.best_k, &config.settings, &mut peer, &mut progress));
    }
    cells
}

/// The best measured swerve broad phase of `pit` at `n`, by [`Cell::key_ms`].
pub fn best(cells: &[Cell], pit: Pit, n: usize) -> Option<&Cell> {
    cells
        .iter()
        .filter(|c| c.pit == pit && c.n == n && c.is_swerve() && c.timing.is_some())
        .min_by(|a, b| a.key_ms().total_cmp(&b.key_ms()))
}

/// Appends the timing table of one pit: rows are engines, columns sizes, cells "wall ms
/// (steps/s) · CPU ms", or why the cell did not run.
pub fn render_table(out: &mut String, pit: Pit, cells: &[Cell]) {
    let rows: Vec<(String, usize, String)> = cells
        .iter()
        .filter(|c| c.pit == pit)
        .map(|c| {
            let text = match (c.wall_ms(), c.timing) {
                (Some(ms), Some(t)) => timing_cell(ms, c.cpu_ms(), t.steps),
                _ => c.note.clone(),
            };
            (c.label(), c.n, text)
        })
        .collect();
    write_timing_table(out, pit.title(), "engine / broad phase", &rows);
}

/// Appends the kinetic energy before and after the steps of every cell that ran, and its
/// contacts per step.
pub fn render_energy(out: &mut String, cells: &[Cell]) {
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

/// The timing table of every pit of `config` that has cells, then the energy check.
pub fn render_markdown(config: &Config, cells: &[Cell]) -> String {
    let mut out = String::new();
    for (pit, _) in &config.pits {
        render_table(&mut out, *pit, cells);
    }
    render_energy(&mut out, cells);
    out
}

/// What the tables measured, in one paragraph (for the tables' preamble).
pub fn describe(settings: &Settings) -> String {
    format!(
        "One thread, wall-clock and thread-CPU time of `World::step` only, mean over ≥ {} steps and ≥ {} s per \
         cell after {} warm-up steps; scenes from `swerve::physics3d::scene` with seed `SCENE_SEED`, 10 % volume \
         fraction.",
        settings.min_steps, settings.min_seconds, settings.warmup
    )
}
