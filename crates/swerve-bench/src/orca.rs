//! ORCA benchmark scenes and the step timer.
//!
//! Every scene uses RVO2's Circle parameters unless said (neighbour distance 15, max neighbours
//! 10, time horizons 10, radius 1.5, max speed 2, time step 0.25) and the RVO2 examples'
//! preferred velocity (toward the goal, at most unit length). Only `Simulator::step` is timed:
//! 5 warm-up steps, then the median of 20.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::Serialize;
use std::path::Path;
use std::process::Command;
use std::time::Instant;
use swerve::reference::preferred_velocity_toward;
use swerve::{AgentParams, Simulator, Vec2};

/// The seed of every randomised scene.
pub const SCENE_SEED: u64 = 0x5eed_0fc0_ffee;

/// A random order of `len` agents, the same every time: how the scenes "added in random
/// order" (planar and 3-D) number their agents.
pub fn random_order(len: usize) -> Vec<usize> {
    use rand::seq::SliceRandom;
    let mut order: Vec<usize> = (0..len).collect();
    order.shuffle(&mut Pcg64Mcg::seed_from_u64(SCENE_SEED ^ 0x5417_f1ed));
    order
}

/// Warm-up steps before timing.
pub const WARMUP_STEPS: usize = 5;
/// Timed steps (the median is reported).
pub const TIMED_STEPS: usize = 20;

/// A crowd scene: agents with goals, obstacles, parameters.
#[derive(Clone, Debug, Serialize)]
pub struct Scene {
    /// Scene family and size, e.g. `jgrid 100000`.
    pub name: String,
    /// Time step (s).
    pub time_step: f32,
    /// Parameters of every agent.
    #[serde(skip)]
    pub params: AgentParams,
    /// Start positions (m).
    pub positions: Vec<[f32; 2]>,
    /// Goals (m).
    pub goals: Vec<[f32; 2]>,
    /// Obstacle polygons, RVO2 winding.
    pub obstacles: Vec<Vec<[f32; 2]>>,
    /// Whether swerve keeps every agent's decision for inspection
    /// ([`Simulator::set_record_decisions`]; off, as by default, unless the family name ends
    /// in `-recorded`).
    #[serde(skip)]
    pub record_decisions: bool,
}

/// RVO2's Circle parameters (15 m, 10 neighbours, 10 s, 10 s, 1.5 m, 2 m/s): the library
/// defaults.
fn circle_params() -> AgentParams {
    AgentParams::default()
}

impl Scene {
    /// `jgrid N`: N agents on a ⌈√N⌉-wide square grid with spacing √10 (density 0.1 per m²),
    /// each jittered by up to ±0.075 m per axis, goals uniform over the same square.
    pub fn jgrid(n: usize) -> Scene {
        let mut rng = Pcg64Mcg::seed_from_u64(SCENE_SEED);
        let side = (n as f64).sqrt().ceil() as usize;
        let spacing = 10f32.sqrt();
        let extent = side as f32 * spacing;
        let mut positions = Vec::with_capacity(n);
        let mut goals = Vec::with_capacity(n);
        for i in 0..n {
            let (gx, gy) = ((i % side) as f32, (i / side) as f32);
            let jitter = [rng.random_range(-0.075f32..=0.075), rng.random_range(-0.075f32..=0.075)];
            positions.push([gx * spacing + jitter[0], gy * spacing + jitter[1]]);
            goals.push([rng.random_range(0.0..extent), rng.random_range(0.0..extent)]);
        }
        Scene {
            name: format!("jgrid {n}"),
            time_step: 0.25,
            params: circle_params(),
            positions,
            goals,
            obstacles: Vec::new(),
            record_decisions: false,
        }
    }

    /// `circle N`: RVO2's Circle with ring radius `N · 1.5 · 4 / (2π)`, goals antipodal.
    pub fn circle(n: usize) -> Scene {
        let radius = n as f32 * 1.5 * 4.0 / (2.0 * std::f32::consts::PI);
        let mut positions = Vec::with_capacity(n);
        for i in 0..n {
            let angle = i as f32 * 2.0 * std::f32::consts::PI / n as f32;
            positions.push([radius * angle.cos(), radius * angle.sin()]);
        }
        let goals = positions.iter().map(|p| [-p[0], -p[1]]).collect();
        Scene {
            name: format!("circle {n}"),
            time_step: 0.25,
            params: circle_params(),
            positions,
            goals,
            obstacles: Vec::new(),
            record_decisions: false,
        }
    }

    /// `blocks N`: RVO2's Blocks example (4 squares, 4 groups of 25 agents heading for the
    /// opposite corner; time horizons 5, radius 2) tiled on a square grid of 200 m cells until
    /// N agents: many agents and many obstacles.
    pub fn blocks(n: usize) -> Scene {
        let tiles = n.div_ceil(100);
        let side = (tiles as f64).sqrt().ceil() as usize;
        let mut positions = Vec::with_capacity(n);
        let mut goals = Vec::with_capacity(n);
        let mut obstacles = Vec::new();
        for t in 0..tiles {
            let o = [(t % side) as f32 * 200.0, (t / side) as f32 * 200.0];
            for i in 0..5 {
                for j in 0..5 {
                    for (sx, sy) in [(1.0f32, 1.0f32), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                        if positions.len() == n {
                            continue;
                        }
                        positions.push([o[0] + sx * (55.0 + i as f32 * 10.0), o[1] + sy * (55.0 + j as f32 * 10.0)]);
                        goals.push([o[0] - sx * 75.0, o[1] - sy * 75.0]);
                    }
                }
            }
            let square = |x0: f32, y0: f32, x1: f32, y1: f32| {
                vec![[o[0] + x0, o[1] + y0], [o[0] + x1, o[1] + y0], [o[0] + x1, o[1] + y1], [o[0] + x0, o[1] + y1]]
            };
            obstacles.push(square(-40.0, 10.0, -10.0, 40.0));
            obstacles.push(square(10.0, 10.0, 40.0, 40.0));
            obstacles.push(square(10.0, -40.0, 40.0, -10.0));
            obstacles.push(square(-40.0, -40.0, -10.0, -10.0));
        }
        let params = AgentParams { time_horizon: 5.0, time_horizon_obst: 5.0, radius: 2.0, ..circle_params() };
        Scene {
            name: format!("blocks {n}"),
            time_step: 0.25,
            params,
            positions,
            goals,
            obstacles,
            record_decisions: false,
        }
    }

    /// `city N`: a city of 10 m square blocks on a 20 m lattice (streets 10 m wide) and N
    /// agents in its streets, on jgrid's jittered √10 m lattice wherever a point is at least
    /// 1.6 m from every block, bound for random street points; the city is square and as
    /// large as N needs. RVO2's Circle parameters, so every agent sees obstacle edges within
    /// 21.5 m, and many see a corner's two edges at the same distance (the corner's vertex):
    /// many agents, many obstacles, and obstacle neighbours that tie.
    pub fn city(n: usize) -> Scene {
        const PITCH: f32 = 20.0;
        const CLEARANCE: f32 = 1.6;
        let mut rng = Pcg64Mcg::seed_from_u64(SCENE_SEED);
        // In the streets: outside the block [5, 15]² of the lattice cell, grown by `margin`.
        let in_street = |p: [f32; 2], margin: f32| {
            p.iter().any(|&c| {
                let offset = c.rem_euclid(PITCH);
                offset < 5.0 - margin || offset > 15.0 + margin
            })
        };
        let spacing = 10f32.sqrt();
        // A quarter of the ground is built on.
        let extent = (n as f32 * 10.0 * 4.0 / 3.0).sqrt();
        let columns = (extent / spacing).ceil() as usize;
        let mut positions = Vec::with_capacity(n);
        let mut k = 0;
        while positions.len() < n {
            let (gx, gy) = ((k % columns) as f32, (k / columns) as f32);
            let jitter = [rng.random_range(-0.075f32..=0.075), rng.random_range(-0.075f32..=0.075)];
            let p = [gx * spacing + jitter[0], gy * spacing + jitter[1]];
            if in_street(p, CLEARANCE) {
                positions.push(p);
            }
            k += 1;
        }
        let top = positions.iter().map(|p| p[1]).fold(0.0, f32::max);
        let goals = (0..n)
            .map(|_| loop {
                let g = [rng.random_range(0.0..extent), rng.random_range(0.0..top)];
                if in_street(g, CLEARANCE) {
                    break g;
                }
            })
            .collect();
        let mut obstacles = Vec::new();
        for i in 0..(extent / PITCH).ceil() as usize {
            for j in 0..(top / PITCH).ceil() as usize {
                let (x, y) = (i as f32 * PITCH + 5.0, j as f32 * PITCH + 5.0);
                obstacles.push(vec![[x, y], [x + 10.0, y], [x + 10.0, y + 10.0], [x, y + 10.0]]);
            }
        }
        Scene {
            name: format!("city {n}"),
            time_step: 0.25,
            params: circle_params(),
            positions,
            goals,
            obstacles,
            record_decisions: false,
        }
    }

    /// Builds a family by name (`jgrid`, `circle`, `blocks`, `city`), with every agent's decision
    /// recorded when the name ends in `-recorded` (e.g. `jgrid-recorded`: what inspection
    /// costs), and the agents added in a random order when it ends in `-shuffled` (e.g.
    /// `jgrid-shuffled`: a crowd whose agent numbers say nothing of where agents are).
    pub fn by_name(family: &str, n: usize) -> Option<Scene> {
        if let Some(family) = family.strip_suffix("-shuffled") {
            let mut scene = Scene::by_name(family, n)?;
            scene.shuffle();
            return Some(scene);
        }
        if let Some(family) = family.strip_suffix("-recorded") {
            let mut scene = Scene::by_name(family, n)?;
            scene.name += " (decisions recorded)";
            scene.record_decisions = true;
            return Some(scene);
        }
        match family {
            "jgrid" => Some(Scene::jgrid(n)),
            "circle" => Some(Scene::circle(n)),
            "blocks" => Some(Scene::blocks(n)),
            "city" => Some(Scene::city(n)),
            _ => None,
        }
    }

    /// Puts the agents (with their goals) in a random order, the same every time.
    pub fn shuffle(&mut self) {
        let order = random_order(self.positions.len());
        self.positions = order.iter().map(|&k| self.positions[k]).collect();
        self.goals = order.iter().map(|&k| self.goals[k]).collect();
        self.name += " (added in random order)";
    }

    /// A swerve simulator holding the scene, at rest, obstacles processed.
    pub fn simulator(&self) -> Result<Simulator, swerve::Error> {
        let mut sim = Simulator::new(self.time_step, self.params)?;
        sim.set_record_decisions(self.record_decisions);
        for p in &self.positions {
            sim.add_agent(Vec2::from_array(*p))?;
        }
        for polygon in &self.obstacles {
            let vertices: Vec<Vec2> = polygon.iter().map(|v| Vec2::from_array(*v)).collect();
            sim.add_obstacle(&vertices)?;
        }
        sim.process_obstacles();
        Ok(sim)
    }

    /// The scene as text for the RVO2 -O3 peer (`peers/rvo2_step.cc`), which has no JSON
    /// parser: a header line, the parameters, the warm-up and timed step counts, one
    /// `x y goal_x goal_y` line per agent, then each obstacle as its vertex count and
    /// vertices. Numbers are written as Rust's shortest round-trip form, so the peer reads
    /// back exactly the `f32` values swerve uses.
    pub fn to_peer_text(&self) -> String {
        use std::fmt::Write;
        let p = &self.params;
        let mut text = format!("swerve-peer-scene 1\n{}\n", self.name);
        let _ = writeln!(
            text,
            "{} {} {} {} {} {} {}\n{WARMUP_STEPS} {TIMED_STEPS}\n{}",
            self.time_step,
            p.neighbor_dist,
            p.max_neighbors,
            p.time_horizon,
            p.time_horizon_obst,
            p.radius,
            p.max_speed,
            self.positions.len()
        );
        for (q, g) in self.positions.iter().zip(&self.goals) {
            let _ = writeln!(text, "{} {} {} {}", q[0], q[1], g[0], g[1]);
        }
        let _ = writeln!(text, "{}", self.obstacles.len());
        for polygon in &self.obstacles {
            let _ = write!(text, "{}", polygon.len());
            for v in polygon {
                let _ = write!(text, " {} {}", v[0], v[1]);
            }
            text.push('\n');
        }
        text
    }

    /// The scene as JSON for the pyrvo peer script (`peers/pyrvo_step.py`).
    pub fn to_peer_json(&self) -> String {
        let p = &self.params;
        serde_json::json!({
            "name": self.name,
            "time_step": self.time_step,
            "params": [p.neighbor_dist, p.max_neighbors, p.time_horizon, p.time_horizon_obst, p.radius, p.max_speed],
            "positions": self.positions,
            "goals": self.goals,
            "obstacles": self.obstacles,
            "warmup": WARMUP_STEPS,
            "steps": TIMED_STEPS,
        })
        .to_string()
    }
}

/// Sets every agent's preferred velocity toward its goal (RVO2 examples' rule).
pub fn set_preferred_velocities(sim: &mut Simulator, goals: &[Vec2], scratch: &mut Vec<Vec2>) {
    scratch.clear();
    scratch.extend(sim.positions().iter().zip(goals).map(|(p, g)| preferred_velocity_toward(*g, *p)));
    // The goals and positions are finite, so this cannot fail.
    let _ = sim.set_pref_velocities(scratch);
}

/// Step timing of one run.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct StepTiming {
    /// Median wall time of one `step()` (ms).
    pub median_ms: f64,
    /// Fastest step (ms).
    pub min_ms: f64,
}

/// One timed run of a scene: each timed step's wall time, and where the agents ended.
#[derive(Clone, Debug)]
pub struct TimedRun {
    /// The [`TIMED_STEPS`] step times (ms), in step order.
    pub steps_ms: Vec<f64>,
    /// [`positions_fnv1a`] of the agents' positions after the last step, in agent order:
    /// equal for two runs of one scene exactly when every final position is bit-identical.
    pub positions_fnv1a: u64,
}

/// FNV-1a (64-bit) over the little-endian bytes of each position's `x` then `y` `f32` bits,
/// in order (the RVO2 peer hashes its agents the same way).
pub fn positions_fnv1a(positions: &[Vec2]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in positions.iter().flat_map(|p| [p.x.to_bits().to_le_bytes(), p.y.to_bits().to_le_bytes()]).flatten() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Times `Simulator::step` on `scene` with `threads` rayon threads: [`WARMUP_STEPS`] steps,
/// then [`TIMED_STEPS`] timed ones (setting preferred velocities is not timed). Returns each
/// timed step's time, in step order ([`summarise`] gives the median), and the final
/// positions' hash. Runs of one scene are deterministic, so step k of one run can be set
/// against step k of another, as `scripts/ab-orca` does. The hot loops run with the best
/// instruction set the CPU supports.
pub fn time_swerve_steps(scene: &Scene, threads: usize) -> Result<TimedRun, swerve::Error> {
    time_swerve_steps_with(scene, threads, swerve::InstructionSet::best_supported())
}

/// [`time_swerve_steps`] with the hot loops on `instructions` (an error if the CPU lacks it).
pub fn time_swerve_steps_with(
    scene: &Scene,
    threads: usize,
    instructions: swerve::InstructionSet,
) -> Result<TimedRun, swerve::Error> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| swerve::Error::Parse {
        path: "rayon".into(),
        line: 0,
        message: e.to_string(),
    })?;
    let mut sim = scene.simulator()?;
    sim.set_instruction_set(instructions)?;
    let goals: Vec<Vec2> = scene.goals.iter().map(|g| Vec2::from_array(*g)).collect();
    let mut scratch = Vec::new();
    let mut samples = Vec::with_capacity(TIMED_STEPS);
    pool.install(|| {
        for k in 0..WARMUP_STEPS + TIMED_STEPS {
            set_preferred_velocities(&mut sim, &goals, &mut scratch);
            let start = Instant::now();
            sim.step();
            if k >= WARMUP_STEPS {
                samples.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    });
    Ok(TimedRun { steps_ms: samples, positions_fnv1a: positions_fnv1a(sim.positions()) })
}

/// Median and minimum of step times (ms).
pub fn summarise(samples: &mut [f64]) -> StepTiming {
    samples.sort_by(f64::total_cmp);
    StepTiming { median_ms: samples[samples.len() / 2], min_ms: samples[0] }
}

/// Peak resident memory of this process so far (bytes), from `/proc/self/status` (Linux).
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// One row of the ORCA table: a scene at one size, with every runner's median ms per step.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    /// Scene family and size, e.g. `jgrid 100000`.
    pub scene: String,
    /// Number of agents.
    pub agents: usize,
    /// swerve, 1 thread (ms per step).
    pub swerve_1t: Option<f64>,
    /// swerve, 2 threads (ms per step).
    pub swerve_2t: Option<f64>,
    /// Peak resident memory of the process that ran swerve on 2 threads (bytes).
    pub swerve_peak_bytes: Option<u64>,
    /// RVO2 2.0.3 built with -O3, link-time optimisation and OpenMP
    /// (`scripts/build-rvo2-peer`), 1 thread (ms per step).
    pub rvo2_1t: Option<f64>,
    /// The same RVO2 build, 2 threads (ms per step).
    pub rvo2_2t: Option<f64>,
    /// Whether swerve's final positions equal that RVO2 build's bit for bit, in every run of
    /// both (`None` when RVO2 did not run).
    pub same_positions_as_rvo2: Option<bool>,
    /// RVO2 2.0.3 through pyrvo, single-threaded (ms per step).
    pub pyrvo: Option<f64>,
    /// dodgy_2d fed by a uniform grid, 1 thread (ms per step).
    pub dodgy_1t: Option<f64>,
    /// dodgy_2d fed by a uniform grid, 2 threads (ms per step).
    pub dodgy_2t: Option<f64>,
}

impl Row {
    /// One line for progress output, e.g. `jgrid 10000: swerve 4.50 ms (1 thread), 2.27 ms
    /// (2 threads); pyrvo 29.94 ms`, naming only the runners that ran.
    pub fn progress_line(&self) -> String {
        let ms = |v: Option<f64>| v.map_or_else(|| "–".to_string(), |ms| format!("{ms:.2} ms"));
        let mut line =
            format!("{}: swerve {} (1 thread), {} (2 threads)", self.scene, ms(self.swerve_1t), ms(self.swerve_2t));
        if self.rvo2_1t.is_some() || self.rvo2_2t.is_some() {
            line += &format!("; RVO2 -O3 {} / {}", ms(self.rvo2_1t), ms(self.rvo2_2t));
            if self.same_positions_as_rvo2 == Some(false) {
                line += " (final positions differ from swerve's)";
            }
        }
        if self.pyrvo.is_some() {
            line += &format!("; pyrvo {}", ms(self.pyrvo));
        }
        if self.dodgy_1t.is_some() || self.dodgy_2t.is_some() {
            line += &format!("; dodgy_2d {} / {}", ms(self.dodgy_1t), ms(self.dodgy_2t));
        }
        line
    }
}

/// Times `scene` in RVO2 through pyrvo: writes the scene to a temporary file and runs
/// `peers/pyrvo_step.py` with `python` (which must have `pyrvo` installed).
pub fn time_pyrvo(scene: &Scene, python: &Path) -> Result<StepTiming, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/pyrvo_step.py");
    let value = run_peer("pyrvo", "scene.json", &scene.to_peer_json(), |path| {
        let mut command = Command::new(python);
        command.arg(&script).arg(path);
        command
    })?;
    let median_ms = value["median_ms"].as_f64().ok_or("pyrvo peer: no median_ms")?;
    let min_ms = value["min_ms"].as_f64().ok_or("pyrvo peer: no min_ms")?;
    Ok(StepTiming { median_ms, min_ms })
}

/// Times `scene` in RVO2 2.0.3 itself, built with -O3 and OpenMP by
/// `scripts/build-rvo2-peer` (the reference build): writes the scene to a temporary
/// file and runs `binary` on it with `OMP_NUM_THREADS=threads`.
pub fn time_rvo2(scene: &Scene, binary: &Path, threads: usize) -> Result<TimedRun, String> {
    let value = run_peer("RVO2", "scene.txt", &scene.to_peer_text(), |path| {
        let mut command = Command::new(binary);
        command.arg(path).env("OMP_NUM_THREADS", threads.to_string());
        command
    })?;
    let steps_ms = value["steps_ms"]
        .as_array()
        .and_then(|steps| steps.iter().map(serde_json::Value::as_f64).collect::<Option<Vec<f64>>>())
        .filter(|steps| steps.len() == TIMED_STEPS)
        .ok_or("RVO2 peer: no steps_ms")?;
    let positions_fnv1a = value["positions_fnv1a"]
        .as_str()
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or("RVO2 peer: no positions_fnv1a")?;
    Ok(TimedRun { steps_ms, positions_fnv1a })
}

/// Fills `row`'s RVO2 -O3 columns: times `scene` in the RVO2 `binary` on 1 and 2 threads and
/// records whether every final position of both runs equals swerve's, whose runs of the
/// scene ended with `swerve_hashes` ([`TimedRun::positions_fnv1a`]). A failed run is
/// reported on standard error and leaves its column empty (and the positions unconfirmed).
pub fn add_rvo2_runs(row: &mut Row, scene: &Scene, binary: &Path, swerve_hashes: &[u64]) {
    let mut hashes = swerve_hashes.to_vec();
    for threads in [1usize, 2] {
        match time_rvo2(scene, binary, threads) {
            Ok(mut run) => {
                hashes.push(run.positions_fnv1a);
                let ms = Some(summarise(&mut run.steps_ms).median_ms);
                if threads == 1 {
                    row.rvo2_1t = ms;
                } else {
                    row.rvo2_2t = ms;
                }
            }
            Err(e) => eprintln!("{}: {e}", scene.name),
        }
    }
    let complete = hashes.len() == swerve_hashes.len() + 2 && !swerve_hashes.is_empty();
    row.same_positions_as_rvo2 = Some(complete && hashes.iter().all(|&h| h == hashes[0]));
}

/// Writes `contents` to `file_name` in a fresh temporary directory, runs the command that
/// `command` makes for that path, and parses the one JSON line it prints.
fn run_peer(
    peer: &str,
    file_name: &str,
    contents: &str,
    command: impl FnOnce(&Path) -> Command,
) -> Result<serde_json::Value, String> {
    // One directory per call: peers may run from several threads of one process (tests).
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("swerve-bench-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(file_name);
    std::fs::write(&path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut command = command(&path);
    let output = command.output().map_err(|e| format!("cannot run {peer} peer {:?}: {e}", command.get_program()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    if !output.status.success() {
        return Err(format!("{peer} peer failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("{peer} peer printed no JSON: {e}"))
}

/// Renders rows as a Markdown table with ratios (peer time / swerve time, same threads).
pub fn render_markdown(rows: &[Row]) -> String {
    let ms = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.2}"));
    let ratio = |peer: Option<f64>, ours: Option<f64>| match (peer, ours) {
        (Some(p), Some(o)) if o > 0.0 => format!("{:.1}×", p / o),
        _ => "—".to_string(),
    };
    let mut out = String::from(
        "| scene | swerve 1 thread (ms) | swerve 2 threads (ms) | RVO2 -O3 1 thread (ms) | RVO2 -O3 2 threads (ms) \
         | RVO2 -O3 ÷ swerve (1 t / 2 t) | final positions equal RVO2's | pyrvo 1 thread (ms) | pyrvo ÷ swerve (1 t) \
         | dodgy_2d 1 thread (ms) | dodgy_2d 2 threads (ms) | dodgy ÷ swerve (1 t / 2 t) | swerve peak memory |\n\
         |---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let same = match r.same_positions_as_rvo2 {
            Some(true) => "yes",
            Some(false) => "**no**",
            None => "—",
        };
        out += &format!(
            "| {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} / {} | {} |\n",
            r.scene,
            ms(r.swerve_1t),
            ms(r.swerve_2t),
            ms(r.rvo2_1t),
            ms(r.rvo2_2t),
            ratio(r.rvo2_1t, r.swerve_1t),
            ratio(r.rvo2_2t, r.swerve_2t),
            same,
            ms(r.pyrvo),
            ratio(r.pyrvo, r.swerve_1t),
            ms(r.dodgy_1t),
            ms(r.dodgy_2t),
            ratio(r.dodgy_1t, r.swerve_1t),
            ratio(r.dodgy_2t, r.swerve_2t),
            r.swerve_peak_bytes.map_or("—".to_string(), |b| format!("{:.0} MiB", b as f64 / (1024.0 * 1024.0))),
        );
    }
    out
}
