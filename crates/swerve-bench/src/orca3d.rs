//! The 3-D ORCA benchmark: the `sphere N` and `cube N` scenes, the step timer for
//! `swerve::orca3d`, the RVO2-3D peer (the `rvo23d` module of the PyPI package jt-pyrvo23d,
//! driven by `peers/rvo2_3d_step.py`) with its bit-for-bit final-position check, and the
//! Markdown table. `examples/orca3d_report.rs` runs swerve in a fresh process per case (for
//! its peak memory); `swerve bench orca3d` runs it in its own process.
//!
//! Scenes (RVO2-3D's Sphere parameters: neighbour distance 15 m, 10 neighbours, time horizon
//! 10 s, radius 1.5 m, max speed 2 m/s; time step 0.125 s as in that example):
//!
//! * `sphere N` — N agents on a golden-angle spiral over a sphere, each bound for the
//!   antipodal point. RVO2-3D's Sphere example puts 812 agents on a 100 m sphere (one per
//!   155 m² of surface); the radius here is `100 · √(N / 812)` m, the same surface density.
//! * `cube N` — N agents on a ⌈∛N⌉-wide cubic lattice with 11 m spacing, each jittered
//!   uniformly by up to ±2.75 m per axis (no two closer than 5.5 m), goals uniform inside the
//!   cube (seeded). On average about 10 other agents lie within the 15 m neighbour distance
//!   (the bare lattice would have 6; 10.5 m spacing 18).
//!
//! Preferred velocity before every step, in f32: `g = goal − position`, then
//! `g * (1.0 / g.length())` when `g.length_squared() > 1` ([`preferred_velocity_toward3d`]). The
//! Python peer computes the same with numpy float32. Timing as in 2-D: [`WARMUP_STEPS`]
//! warm-up steps, then the median of [`TIMED_STEPS`]; only `step()` / `doStep()` is timed.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use swerve::orca3d::{AgentParams, Simulator, Vec3};
use swerve::reference::preferred_velocity_toward3d;

use crate::orca::{peak_memory_bytes, summarise, StepTiming, SCENE_SEED, TIMED_STEPS, WARMUP_STEPS};

/// RVO2-3D's Sphere example time step (s).
pub const TIME_STEP: f32 = 0.125;
/// Agents RVO2-3D's Sphere example puts on its 100 m sphere.
pub const SPHERE_EXAMPLE_AGENTS: f64 = 812.0;
/// The cube scene's lattice spacing (m).
pub const CUBE_SPACING: f32 = 11.0;
/// The cube scene's jitter (± m per axis).
pub const CUBE_JITTER: f32 = 0.25 * CUBE_SPACING;
/// The scene families, in table order: the cube a second time with its agents added in a
/// random order (the step then decides in the grid's cell order).
pub const FAMILIES: [&str; 3] = ["sphere", "cube", "cube-shuffled"];
/// The largest crowd the RVO2-3D peer runs: the unoptimised wheel takes 1.5–2.5 s a step at
/// 100,000 agents, so a million would take minutes.
pub const PEER_MAX_AGENTS: usize = 100_000;
/// Sizes above 100,000 run only if the family's 100,000 took less than this on one thread
/// (ms per step), so that a million should take under about 2 s a step.
pub const LARGE_CROWD_GATE_MS: f64 = 200.0;

/// A 3-D crowd: start positions and goals (m).
#[derive(Clone, Debug)]
pub struct Scene3 {
    /// Family and size, e.g. `sphere 10000`.
    pub name: String,
    /// The name [`Scene3::by_name`] builds it from, e.g. `cube-shuffled`.
    pub family: String,
    /// Start positions (m).
    pub positions: Vec<Vec3>,
    /// Goals (m), one per agent.
    pub goals: Vec<Vec3>,
}

impl Scene3 {
    /// `sphere N`: N agents on a golden-angle spiral over a sphere of radius
    /// `100 · √(N / 812)` m, each bound for the antipodal point.
    pub fn sphere(n: usize) -> Scene3 {
        let radius = 100.0 * (n as f64 / SPHERE_EXAMPLE_AGENTS).sqrt();
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        let positions: Vec<Vec3> = (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let ring = (1.0 - z * z).sqrt();
                let angle = i as f64 * golden;
                // Computed in f64 and rounded once, as the recorded tables were.
                Vec3::new(
                    (radius * ring * angle.cos()) as f32,
                    (radius * ring * angle.sin()) as f32,
                    (radius * z) as f32,
                )
            })
            .collect();
        let goals = positions.iter().map(|&p| -p).collect();
        Scene3 { name: format!("sphere {n}"), family: "sphere".into(), positions, goals }
    }

    /// `cube N`: N agents on a ⌈∛N⌉-wide cubic lattice with [`CUBE_SPACING`] spacing, each
    /// jittered by up to ±[`CUBE_JITTER`] per axis, goals uniform inside the cube (seeded with
    /// [`SCENE_SEED`]).
    pub fn cube(n: usize) -> Scene3 {
        let mut rng = Pcg64Mcg::seed_from_u64(SCENE_SEED);
        let mut side = (n as f64).cbrt().round() as usize;
        while side * side * side < n {
            side += 1;
        }
        let extent = side as f32 * CUBE_SPACING;
        let mut positions = Vec::with_capacity(n);
        let mut goals = Vec::with_capacity(n);
        for i in 0..n {
            let cell = Vec3::new((i % side) as f32, ((i / side) % side) as f32, (i / (side * side)) as f32);
            let mut jitter = || rng.random_range(-CUBE_JITTER..=CUBE_JITTER);
            let jitter = Vec3::new(jitter(), jitter(), jitter());
            positions.push(cell * CUBE_SPACING + jitter);
            goals.push(Vec3::new(
                rng.random_range(0.0..extent),
                rng.random_range(0.0..extent),
                rng.random_range(0.0..extent),
            ));
        }
        Scene3 { name: format!("cube {n}"), family: "cube".into(), positions, goals }
    }

    /// The same crowd with its agents (and their goals) added in a random order: agent
    /// numbers then say nothing of where agents are.
    pub fn shuffle(&mut self) {
        let order = crate::orca::random_order(self.positions.len());
        self.positions = order.iter().map(|&k| self.positions[k]).collect();
        self.goals = order.iter().map(|&k| self.goals[k]).collect();
        self.name += " (added in random order)";
        self.family += "-shuffled";
    }

    /// Builds a family by name (`sphere`, `cube`; see [`FAMILIES`]), its agents added in a
    /// random order when the name ends in `-shuffled` (e.g. `cube-shuffled`).
    pub fn by_name(family: &str, n: usize) -> Option<Scene3> {
        if let Some(family) = family.strip_suffix("-shuffled") {
            let mut scene = Scene3::by_name(family, n)?;
            scene.shuffle();
            return Some(scene);
        }
        match family {
            "sphere" => Some(Scene3::sphere(n)),
            "cube" => Some(Scene3::cube(n)),
            _ => None,
        }
    }

    /// A swerve simulator holding the scene at rest: [`TIME_STEP`], RVO2-3D's Sphere
    /// parameters (the library defaults).
    pub fn simulator(&self) -> Result<Simulator, swerve::Error> {
        let mut sim = Simulator::new(TIME_STEP, AgentParams::default())?;
        for &p in &self.positions {
            sim.add_agent(p)?;
        }
        Ok(sim)
    }

    /// The scene file the RVO2-3D peer reads: n positions then n goals, x y z each, as
    /// little-endian f32.
    pub fn to_peer_bytes(&self) -> Vec<u8> {
        let mut bytes = positions_to_bytes(&self.positions);
        bytes.extend(positions_to_bytes(&self.goals));
        bytes
    }
}

/// Positions as little-endian f32, x y z per agent, in agent order (the peer's file format).
pub fn positions_to_bytes(positions: &[Vec3]) -> Vec<u8> {
    positions.iter().flat_map(|v| v.to_array()).flat_map(f32::to_le_bytes).collect()
}

/// The inverse of [`positions_to_bytes`] (trailing bytes short of a whole position are
/// ignored).
pub fn positions_from_bytes(bytes: &[u8]) -> Vec<Vec3> {
    bytes
        .chunks_exact(12)
        .map(|b| {
            let f = |k: usize| f32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
            Vec3::new(f(0), f(4), f(8))
        })
        .collect()
}

/// FNV-1a (64-bit) over [`positions_to_bytes`]: equal for two runs exactly when every final
/// position is bit-identical (a one-line summary for progress output and tests).
pub fn positions_fnv1a(positions: &[Vec3]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in positions_to_bytes(positions) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// How many agents of `reference` end anywhere but bit for bit where every one of `runs` put
/// them. Agents missing from a run count as differing.
pub fn differing_agents(reference: &[Vec3], runs: &[&[Vec3]]) -> usize {
    let bits = |v: Vec3| v.to_array().map(f32::to_bits);
    (0..reference.len())
        .filter(|&i| runs.iter().any(|run| run.get(i).map_or(true, |&p| bits(p) != bits(reference[i]))))
        .count()
}

/// One timed swerve run of a scene.
#[derive(Clone, Debug)]
pub struct SwerveRun {
    /// Median and fastest of the [`TIMED_STEPS`] step times (ms).
    pub timing: StepTiming,
    /// The agents' positions after the last timed step, in agent order.
    pub final_positions: Vec<Vec3>,
    /// This process's peak resident memory (bytes), read right after the timed steps: the
    /// case's own only when the process ran nothing else before it (the report's child
    /// processes). `None` where unknown or not meaningful.
    pub peak_bytes: Option<u64>,
    /// Mean neighbours per agent, counted in one more (untimed) step after the timed ones.
    pub mean_neighbours: f64,
}

/// Times `swerve::orca3d::Simulator::step` on `scene` with `threads` rayon threads:
/// [`WARMUP_STEPS`] steps, then [`TIMED_STEPS`] timed ones (setting preferred velocities is
/// not timed). The final positions are the same bits for any thread count.
pub fn time_swerve_steps(scene: &Scene3, threads: usize) -> Result<SwerveRun, swerve::Error> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| swerve::Error::Parse {
        path: "rayon".into(),
        line: 0,
        message: e.to_string(),
    })?;
    let mut sim = scene.simulator()?;
    let mut prefs = Vec::with_capacity(scene.goals.len());
    let mut samples = Vec::with_capacity(TIMED_STEPS);
    let mut outcome = Ok(());
    pool.install(|| {
        for k in 0..WARMUP_STEPS + TIMED_STEPS {
            prefs.clear();
            prefs.extend(scene.goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred_velocity_toward3d(g, p)));
            if let Err(e) = sim.set_pref_velocities(&prefs) {
                outcome = Err(e);
                return;
            }
            let start = Instant::now();
            sim.step();
            if k >= WARMUP_STEPS {
                samples.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    });
    outcome?;
    let final_positions = sim.positions().to_vec();
    // Read before the untimed step below, whose decision records allocate.
    let peak_bytes = peak_memory_bytes();
    // One more (untimed) step with the decisions kept: how many neighbours an agent had.
    sim.set_record_decisions(true);
    pool.install(|| sim.step());
    let total: usize = sim.agent_ids().iter().map(|&id| sim.agent_neighbors(id).map_or(0, |n| n.len())).sum();
    Ok(SwerveRun {
        timing: summarise(&mut samples),
        final_positions,
        peak_bytes,
        mean_neighbours: total as f64 / scene.positions.len().max(1) as f64,
    })
}

/// One timed RVO2-3D run of a scene.
#[derive(Clone, Debug)]
pub struct PeerRun {
    /// Median and fastest of the [`TIMED_STEPS`] `doStep` times (ms).
    pub timing: StepTiming,
    /// The agents' positions after the last timed step, in agent order.
    pub final_positions: Vec<Vec3>,
}

/// Times `scene` in RVO2-3D through `peers/rvo2_3d_step.py`, run by `python` (which must have
/// numpy and the `rvo23d` module of jt-pyrvo23d): writes the scene to a fresh temporary
/// directory, runs the script, reads its timing and final positions.
pub fn time_rvo2_3d(scene: &Scene3, python: &Path) -> Result<PeerRun, String> {
    // One directory per call: peers may run from several threads of one process (tests).
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("swerve-bench-3d-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let result = run_rvo2_3d_in(scene, python, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_rvo2_3d_in(scene: &Scene3, python: &Path, dir: &Path) -> Result<PeerRun, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/rvo2_3d_step.py");
    let scene_file = dir.join("scene.f32");
    let out_file = dir.join("rvo2_3d_final.f32");
    let json_file = dir.join("scene.json");
    let p = AgentParams::default();
    let json = serde_json::json!({
        "name": scene.name,
        "agents": scene.positions.len(),
        "time_step": TIME_STEP,
        "params": {
            "neighbor_dist": p.neighbor_dist,
            "max_neighbors": p.max_neighbors,
            "time_horizon": p.time_horizon,
            "radius": p.radius,
            "max_speed": p.max_speed,
        },
        "warmup": WARMUP_STEPS,
        "steps": TIMED_STEPS,
        "scene_file": scene_file,
        "out_file": out_file,
    });
    let write = |path: &PathBuf, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(&scene_file, &scene.to_peer_bytes())?;
    write(&json_file, json.to_string().as_bytes())?;
    let output = Command::new(python)
        .arg(&script)
        .arg(&json_file)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !output.status.success() {
        return Err(format!("RVO2-3D peer failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("RVO2-3D peer printed no JSON: {e}"))?;
    let median_ms = value["median_ms"].as_f64().ok_or("RVO2-3D peer: no median_ms")?;
    let min_ms = value["min_ms"].as_f64().ok_or("RVO2-3D peer: no min_ms")?;
    let bytes = std::fs::read(&out_file).map_err(|e| format!("RVO2-3D peer wrote no positions: {e}"))?;
    let final_positions = positions_from_bytes(&bytes);
    if final_positions.len() != scene.positions.len() {
        return Err(format!(
            "RVO2-3D peer wrote {} positions for {} agents",
            final_positions.len(),
            scene.positions.len()
        ));
    }
    Ok(PeerRun { timing: StepTiming { median_ms, min_ms }, final_positions })
}

/// One line of the table.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// Family and size, e.g. `cube 10000`.
    pub scene: String,
    /// swerve, 1 thread (median ms per step).
    pub swerve_1t: Option<f64>,
    /// swerve, 2 threads (median ms per step).
    pub swerve_2t: Option<f64>,
    /// Peak resident memory of the 2-thread swerve run's process (bytes), where measured.
    pub swerve_peak_bytes: Option<u64>,
    /// Mean neighbours per agent (after the timed steps).
    pub mean_neighbours: Option<f64>,
    /// RVO2-3D through jt-pyrvo23d, one thread (median ms per step).
    pub rvo2_3d: Option<f64>,
    /// `Some(differing agents)` when RVO2-3D ran and both swerve runs finished.
    pub differing_agents: Option<usize>,
    /// Whether swerve's 1- and 2-thread runs ended in the same bits.
    pub threads_agree: Option<bool>,
}

/// The table's rows and the notes printed under it (sizes not run, and why).
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One row per scene that ran, families in [`FAMILIES`] order, sizes ascending.
    pub rows: Vec<Row>,
    /// One line per case left out.
    pub notes: Vec<String>,
}

/// Runs every family of [`FAMILIES`] at each of `sizes`: swerve on 1 and 2 threads through
/// `run_swerve` (in this process, or in a child process as the report does), then, when
/// `python` is given and the crowd has at most [`PEER_MAX_AGENTS`], RVO2-3D on the same scene
/// with every final position compared bit for bit. Sizes above 100,000 run only after the
/// family's 100,000 took under [`LARGE_CROWD_GATE_MS`] on one thread (else a note says why).
/// Progress and failures of single runs go to `progress`, one line each; a failed run leaves
/// its cells empty.
pub fn run(
    sizes: &[usize],
    python: Option<&Path>,
    mut run_swerve: impl FnMut(&Scene3, usize) -> Result<SwerveRun, String>,
    mut progress: impl FnMut(&str),
) -> Report {
    let mut report = Report::default();
    for family in FAMILIES {
        let mut hundred_thousand_1t = None;
        for &n in sizes {
            if n > 100_000 {
                match hundred_thousand_1t {
                    Some(ms) if ms < LARGE_CROWD_GATE_MS => {}
                    _ => {
                        report.notes.push(format!(
                            "{family} {n}: not run ({family} 100000 took {} ms per step on 1 thread, so a million would take over about 2 s).",
                            hundred_thousand_1t.map_or("?".to_string(), |ms: f64| format!("{ms:.2}"))
                        ));
                        continue;
                    }
                }
            }
            let Some(scene) = Scene3::by_name(family, n) else { continue };
            let mut row = Row { scene: scene.name.clone(), ..Row::default() };
            let mut finals: Vec<Vec<Vec3>> = Vec::new();
            for threads in [1usize, 2] {
                let result = match run_swerve(&scene, threads) {
                    Ok(result) => result,
                    Err(e) => {
                        progress(&format!("{} ({threads} threads) failed: {e}", scene.name));
                        continue;
                    }
                };
                let peak = result
                    .peak_bytes
                    .map_or(String::new(), |b| format!(", peak {:.0} MiB", b as f64 / (1024.0 * 1024.0)));
                progress(&format!(
                    "{} swerve {threads} thread(s): median {:.3} ms, min {:.3} ms{peak}",
                    scene.name, result.timing.median_ms, result.timing.min_ms
                ));
                if threads == 1 {
                    row.swerve_1t = Some(result.timing.median_ms);
                } else {
                    row.swerve_2t = Some(result.timing.median_ms);
                    row.swerve_peak_bytes = result.peak_bytes;
                }
                row.mean_neighbours = Some(result.mean_neighbours);
                finals.push(result.final_positions);
            }
            if finals.len() == 2 {
                row.threads_agree = Some(differing_agents(&finals[0], &[&finals[1]]) == 0);
            }
            if n == 100_000 {
                hundred_thousand_1t = row.swerve_1t;
            }
            if let (Some(python), true) = (python, n <= PEER_MAX_AGENTS) {
                match time_rvo2_3d(&scene, python) {
                    Ok(peer) => {
                        progress(&format!(
                            "{} RVO2-3D: median {:.3} ms, min {:.3} ms",
                            scene.name, peer.timing.median_ms, peer.timing.min_ms
                        ));
                        row.rvo2_3d = Some(peer.timing.median_ms);
                        if finals.len() == 2 {
                            row.differing_agents =
                                Some(differing_agents(&peer.final_positions, &[&finals[0], &finals[1]]));
                        }
                    }
                    Err(e) => progress(&format!("{}: {e}", scene.name)),
                }
            }
            report.rows.push(row);
        }
    }
    report
}

/// The rows as a Markdown table, with RVO2-3D's ratios (its time ÷ swerve's on 1 and on 2
/// threads) and whether the final positions agree.
pub fn render_markdown(rows: &[Row]) -> String {
    let ms = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.2}"));
    let ratio = |peer: Option<f64>, ours: Option<f64>| match (peer, ours) {
        (Some(p), Some(o)) if o > 0.0 => format!("{:.1}×", p / o),
        _ => "—".to_string(),
    };
    let mut out = String::from(
        "| scene | neighbours per agent (mean) | swerve 1 thread (ms) | swerve 2 threads (ms) | RVO2-3D (ms) \
         | RVO2-3D ÷ swerve (1 t / 2 t) | final positions equal RVO2-3D's | swerve 1 t = 2 t | swerve peak memory |\n\
         |---|---:|---:|---:|---:|---:|---|---|---:|\n",
    );
    for r in rows {
        let same = match r.differing_agents {
            Some(0) => "yes, bit for bit".to_string(),
            Some(k) => format!("**no** ({k} agents differ)"),
            None => "—".to_string(),
        };
        let agree = match r.threads_agree {
            Some(true) => "yes",
            Some(false) => "**no**",
            None => "—",
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} / {} | {} | {} | {} |",
            r.scene,
            r.mean_neighbours.map_or("—".to_string(), |m| format!("{m:.1}")),
            ms(r.swerve_1t),
            ms(r.swerve_2t),
            ms(r.rvo2_3d),
            ratio(r.rvo2_3d, r.swerve_1t),
            ratio(r.rvo2_3d, r.swerve_2t),
            same,
            agree,
            r.swerve_peak_bytes.map_or("—".to_string(), |b| format!("{:.0} MiB", b as f64 / (1024.0 * 1024.0))),
        );
    }
    out
}
