//! The rigid-ball benchmark: ms per step for every broad phase on (a) seed 003's scene and
//! (b) the scaled ball pit.
//!
//! Seed 003 timed its pygame loop by frame rate, so drawing dominated its numbers; here only
//! `World::step` is timed, single-threaded, after a few warm-up steps, for at least
//! [`Config::min_seconds`] per cell of the table. Each cell records wall-clock time and the
//! CPU time of the stepping thread: on a machine shared with other jobs the wall clock also
//! counts time the thread waited for a core, the CPU time does not.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

pub use swerve::physics::scene::{ball_pit, seed_scene, Scene};
use swerve::physics::{BroadPhaseKind, World};

/// Seed of every scene of the benchmark.
pub const SCENE_SEED: u64 = 0x5EED_0003;

/// Which scene a row measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SceneKind {
    /// Seed 003's scene: 1800 × 900 box, radii in [10, 15], velocities in [−4, 4] per step.
    Seed,
    /// The scaled ball pit: radius 1, 10% area fraction, speeds up to 10, dt = 1/60.
    Pit,
}

impl SceneKind {
    /// The scene with `n` balls.
    pub fn scene(self, n: usize) -> Scene {
        match self {
            SceneKind::Seed => seed_scene(n, SCENE_SEED),
            SceneKind::Pit => ball_pit(n, SCENE_SEED),
        }
    }

    /// Title used in tables and plots.
    pub fn title(self) -> &'static str {
        match self {
            SceneKind::Seed => "seed 003 scene (1800×900, r ∈ [10, 15])",
            SceneKind::Pit => "ball pit (r = 1, 10% area, dt = 1/60)",
        }
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// Ball counts of the seed scene (the seed's own: 100, 400, 800, 1600).
    pub seed_sizes: Vec<usize>,
    /// Ball counts of the pit.
    pub pit_sizes: Vec<usize>,
    /// Broad phases to run.
    pub algorithms: Vec<BroadPhaseKind>,
    /// Minimum measured time per cell (seconds).
    pub min_seconds: f64,
    /// Minimum measured steps per cell.
    pub min_steps: usize,
    /// Unmeasured steps first (caches, incremental structures, buffer growth).
    pub warmup_steps: usize,
    /// An algorithm whose step exceeds this (seconds), measured or predicted, is skipped at
    /// larger sizes.
    pub max_step_seconds: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed_sizes: vec![100, 400, 800, 1600],
            pit_sizes: vec![1_600, 10_000, 100_000, 1_000_000],
            algorithms: BroadPhaseKind::ALL.to_vec(),
            min_seconds: 1.0,
            min_steps: 5,
            warmup_steps: 3,
            max_step_seconds: 2.0,
        }
    }
}

impl Config {
    /// A quick configuration for tests and smoke runs: tiny sizes, a few steps.
    pub fn smoke() -> Self {
        Config {
            seed_sizes: vec![100, 200],
            pit_sizes: vec![400, 1_600],
            min_seconds: 0.0,
            min_steps: 2,
            warmup_steps: 1,
            ..Config::default()
        }
    }
}

/// One cell of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The scene.
    pub scene: SceneKind,
    /// Algorithm name: a [`BroadPhaseKind`] name, or a peer such as `"rapier2d"`.
    pub algorithm: String,
    /// Number of balls.
    pub n: usize,
    /// Mean wall-clock milliseconds per step; `None` when skipped.
    pub ms_per_step: Option<f64>,
    /// Mean CPU milliseconds of the stepping thread per step (`None` when skipped or where
    /// thread CPU time is not available).
    pub cpu_ms_per_step: Option<f64>,
    /// Steps measured.
    pub steps: usize,
    /// Why it was skipped, or other remarks.
    pub note: String,
}

impl Row {
    /// One line for progress output, e.g. `ball pit, 10000 balls, uniform-grid: 0.4885 ms per
    /// step`, or why the cell was skipped.
    pub fn progress_line(&self) -> String {
        let scene = match self.scene {
            SceneKind::Seed => "seed 003 scene",
            SceneKind::Pit => "ball pit",
        };
        let result = match self.ms_per_step {
            Some(ms) => format!("{ms:.4} ms per step"),
            None => self.note.clone(),
        };
        format!("{scene}, {} balls, {}: {result}", self.n, self.algorithm)
    }

    /// Steps per second (`1000 / ms_per_step`).
    pub fn steps_per_second(&self) -> Option<f64> {
        self.ms_per_step.map(|ms| 1000.0 / ms)
    }
}

/// CPU time consumed so far by the calling thread (`CLOCK_THREAD_CPUTIME_ID`); `None` where
/// unavailable.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec; the call only writes to it.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if r == 0 {
            // The kernel returns non-negative fields with tv_nsec < 1e9.
            return Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32));
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// A measurement: mean wall-clock and thread-CPU time per step, and the number of steps.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Mean wall-clock time per step.
    pub wall: Duration,
    /// Mean CPU time of the stepping thread per step.
    pub cpu: Option<Duration>,
    /// Steps measured.
    pub steps: usize,
}

/// Steps `step` after `warmup` unmeasured calls until `min_seconds` and `min_steps` are both
/// reached. Stops after one measured step if that step alone exceeds `max_step` seconds (the
/// caller records it and skips larger sizes).
pub fn time_steps(mut step: impl FnMut(), warmup: usize, min_steps: usize, min_seconds: f64, max_step: f64) -> Timing {
    for _ in 0..warmup {
        let t = Instant::now();
        let c = thread_cpu_time();
        step();
        if t.elapsed().as_secs_f64() > max_step {
            let cpu = thread_cpu_time().zip(c).map(|(b, a)| b.saturating_sub(a));
            return Timing { wall: t.elapsed(), cpu, steps: 1 };
        }
    }
    let start = Instant::now();
    let cpu_start = thread_cpu_time();
    let mut steps = 0u32;
    loop {
        step();
        steps += 1;
        let elapsed = start.elapsed();
        let done = (steps == 1 && elapsed.as_secs_f64() > max_step)
            || (steps as usize >= min_steps && elapsed.as_secs_f64() >= min_seconds);
        if done {
            let cpu = thread_cpu_time().zip(cpu_start).map(|(b, a)| b.saturating_sub(a) / steps);
            return Timing { wall: elapsed / steps, cpu, steps: steps as usize };
        }
    }
}

/// Measures one world.
fn measure_world(world: &mut World, dt: f32, config: &Config) -> Timing {
    time_steps(|| world.step(dt), config.warmup_steps, config.min_steps, config.min_seconds, config.max_step_seconds)
}

/// Runs the configured table; progress goes to `progress` (e.g. stderr) one line per cell.
pub fn run_with_progress(config: &Config, mut progress: impl FnMut(&Row)) -> Vec<Row> {
    let mut rows = Vec::new();
    for (scene_kind, sizes) in [(SceneKind::Seed, &config.seed_sizes), (SceneKind::Pit, &config.pit_sizes)] {
        for &kind in &config.algorithms {
            let mut last: Option<(usize, f64)> = None;
            for &n in sizes {
                // Brute force is O(n²): predict from the previous size before building the world.
                let exponent = if kind == BroadPhaseKind::BruteForce { 2.0 } else { 1.0 };
                let predicted = last.map(|(m, ms)| ms * (n as f64 / m as f64).powf(exponent));
                let too_slow = predicted.is_some_and(|ms| ms > config.max_step_seconds * 1e3);
                let row = if too_slow {
                    Row {
                        scene: scene_kind,
                        algorithm: kind.to_string(),
                        n,
                        ms_per_step: None,
                        cpu_ms_per_step: None,
                        steps: 0,
                        note: format!("skipped: predicted {:.1} s per step", predicted.unwrap_or(0.0) / 1e3),
                    }
                } else {
                    let scene = scene_kind.scene(n);
                    let mut world = scene.world(kind).expect("benchmark scenes are valid");
                    let timing = measure_world(&mut world, scene.dt, config);
                    let ms = timing.wall.as_secs_f64() * 1e3;
                    // Predict from CPU time when known: the wall clock includes waiting for a core.
                    let cpu_ms = timing.cpu.map(|c| c.as_secs_f64() * 1e3);
                    last = Some((n, cpu_ms.unwrap_or(ms)));
                    Row {
                        scene: scene_kind,
                        algorithm: kind.to_string(),
                        n,
                        ms_per_step: Some(ms),
                        cpu_ms_per_step: cpu_ms,
                        steps: timing.steps,
                        note: String::new(),
                    }
                };
                progress(&row);
                rows.push(row);
            }
        }
    }
    rows
}

/// Runs the configured table.
pub fn run(config: &Config) -> Vec<Row> {
    run_with_progress(config, |_| {})
}

/// A time in ms with the digits the benchmark tables show (fewer for larger times).
pub fn format_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 1.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.4}")
    }
}

/// One measured cell of a timing table: "wall ms (steps per second[, 1 step]) · CPU ms".
pub fn timing_cell(wall_ms: f64, cpu_ms: Option<f64>, steps: usize) -> String {
    let one = if steps == 1 { ", 1 step" } else { "" };
    let cpu = cpu_ms.map_or(String::new(), |c| format!(" · {}", format_ms(c)));
    let per_second = 1000.0 / wall_ms;
    let per_second = if per_second < 10.0 { format!("{per_second:.2}") } else { format!("{per_second:.0}") };
    format!("{} ({per_second}{one}){cpu}", format_ms(wall_ms))
}

/// Appends a Markdown timing table titled `title`: one row per label of `cells` (in the order
/// first seen), one column per size (ascending), each cell's text from `cells` (label, size,
/// text), "—" where there is none. Shared by the planar and the 3-D ball reports.
pub fn write_timing_table(out: &mut String, title: &str, first_column: &str, cells: &[(String, usize, String)]) {
    let mut sizes: Vec<usize> = cells.iter().map(|c| c.1).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut labels: Vec<&str> = Vec::new();
    for (label, _, _) in cells {
        if !labels.contains(&label.as_str()) {
            labels.push(label);
        }
    }
    let _ = writeln!(
        out,
        "**{title}** — wall-clock ms per step (steps per second) · CPU ms per step of the stepping thread\n"
    );
    let _ = write!(out, "| {first_column} |");
    for n in &sizes {
        let _ = write!(out, " N = {n} |");
    }
    let _ = write!(out, "\n|---|");
    for _ in &sizes {
        let _ = write!(out, "---:|");
    }
    out.push('\n');
    for label in labels {
        let _ = write!(out, "| {label} |");
        for &n in &sizes {
            let text = cells.iter().find(|c| c.0 == label && c.1 == n).map_or("—", |c| c.2.as_str());
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    out.push('\n');
}

/// Markdown tables (one per scene): rows are algorithms, columns are ball counts, cells are
/// "wall ms per step (steps per second) · CPU ms per step". Skipped cells say so.
pub fn render_markdown(rows: &[Row]) -> String {
    let mut out = String::new();
    for scene in [SceneKind::Seed, SceneKind::Pit] {
        let cells: Vec<(String, usize, String)> = rows
            .iter()
            .filter(|r| r.scene == scene)
            .map(|r| {
                let text = match r.ms_per_step {
                    Some(ms) => timing_cell(ms, r.cpu_ms_per_step, r.steps),
                    None => r.note.clone(),
                };
                (r.algorithm.clone(), r.n, text)
            })
            .collect();
        if !cells.is_empty() {
            write_timing_table(&mut out, scene.title(), "algorithm", &cells);
        }
    }
    out
}

/// The fastest measured row of `scene` at `n` among swerve's broad phases, by CPU time when
/// measured (less disturbed by other jobs), else by wall-clock time.
pub fn best(rows: &[Row], scene: SceneKind, n: usize) -> Option<&Row> {
    let key = |r: &Row| r.cpu_ms_per_step.or(r.ms_per_step).unwrap_or(f64::INFINITY);
    rows.iter()
        .filter(|r| r.scene == scene && r.n == n && r.algorithm.parse::<BroadPhaseKind>().is_ok())
        .filter(|r| r.ms_per_step.is_some())
        .min_by(|a, b| key(a).total_cmp(&key(b)))
}
