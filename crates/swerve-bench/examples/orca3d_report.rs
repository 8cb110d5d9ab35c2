//! The 3-D ORCA performance table: `swerve::orca3d` on 1 and 2 threads (each in a fresh
//! process, for its peak memory) against RVO2-3D through the `rvo23d` module of the PyPI
//! package jt-pyrvo23d (single-threaded: the wheel is built without OpenMP), on the same
//! scenes in the same run, with a check that every final position equals RVO2-3D's bit for
//! bit. Prints Markdown.
//!
//! The wheel's RVO2-3D is compiled without optimisation (its machine code keeps every value
//! on the stack and calls even `RVO::sqr` and `std::vector::operator[]` out of line), so the
//! RVO2-3D column measures that build, not RVO2-3D built with -O2/-O3.
//!
//! `cargo build --release -p swerve-bench --example orca3d_report &&
//! target/release/examples/orca3d_report --python .venv/bin/python` (`--quick` for
//! N ≤ 10,000 only).
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
//! `g * (1.0 / g.length())` when `g.length_squared() > 1`. The Python peer
//! (`peers/rvo2_3d_step.py`) computes the same with numpy float32. Timing as the 2-D report:
//! 5 warm-up steps, then the median of 20 steps; only `step()` / `doStep()` is timed.
//! One million agents runs for swerve only, and only if the family's 100,000 took under
//! 200 ms per step on one thread (so a million should take under about 2 s).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use swerve::orca3d::{AgentParams, Simulator, Vec3};
use swerve_bench::orca::{peak_memory_bytes, summarise, SCENE_SEED, TIMED_STEPS, WARMUP_STEPS};

/// RVO2-3D's Sphere example time step (s).
const TIME_STEP: f32 = 0.125;
/// Agents RVO2-3D's Sphere example puts on its 100 m sphere.
const SPHERE_EXAMPLE_AGENTS: f64 = 812.0;
/// The cube scene's lattice spacing (m) and jitter (± m per axis).
const CUBE_SPACING: f32 = 11.0;
const CUBE_JITTER: f32 = 0.25 * CUBE_SPACING;

/// A 3-D crowd: start positions and goals.
struct Scene3 {
    name: String,
    positions: Vec<Vec3>,
    goals: Vec<Vec3>,
}

impl Scene3 {
    fn sphere(n: usize) -> Scene3 {
        let radius = 100.0 * (n as f64 / SPHERE_EXAMPLE_AGENTS).sqrt();
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        let positions: Vec<Vec3> = (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let ring = (1.0 - z * z).sqrt();
                let angle = i as f64 * golden;
                Vec3::new(
                    (radius * ring * angle.cos()) as f32,
                    (radius * ring * angle.sin()) as f32,
                    (radius * z) as f32,
                )
            })
            .collect();
        let goals = positions.iter().map(|&p| -p).collect();
        Scene3 { name: format!("sphere {n}"), positions, goals }
    }

    fn cube(n: usize) -> Scene3 {
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
        Scene3 { name: format!("cube {n}"), positions, goals }
    }

    fn by_name(family: &str, n: usize) -> Option<Scene3> {
        match family {
            "sphere" => Some(Scene3::sphere(n)),
            "cube" => Some(Scene3::cube(n)),
            _ => None,
        }
    }

    fn simulator(&self) -> Simulator {
        let mut sim = Simulator::new(TIME_STEP, AgentParams::default()).expect("valid parameters");
        for &p in &self.positions {
            sim.add_agent(p).expect("finite position");
        }
        sim
    }

    /// n positions then n goals, x y z each, as little-endian f32.
    fn to_peer_bytes(&self) -> Vec<u8> {
        self.positions.iter().chain(&self.goals).flat_map(|v| v.to_array()).flat_map(f32::to_le_bytes).collect()
    }
}

/// The preferred velocity toward `goal` (RVO2-3D's Sphere example rule, in f32).
fn preferred(goal: Vec3, position: Vec3) -> Vec3 {
    let g = goal - position;
    if g.length_squared() > 1.0 {
        g * (1.0 / g.length())
    } else {
        g
    }
}

fn positions_to_bytes(positions: &[Vec3]) -> Vec<u8> {
    positions.iter().flat_map(|v| v.to_array()).flat_map(f32::to_le_bytes).collect()
}

fn bytes_to_bits(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

/// Child mode: times swerve on one case and writes its final positions to `out`. Prints
/// `median_ms min_ms peak_bytes mean_neighbours`.
fn run_case(family: &str, n: usize, threads: usize, out: &Path) {
    let scene = Scene3::by_name(family, n).expect("known scene family");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
    let mut sim = scene.simulator();
    let mut prefs = Vec::with_capacity(n);
    let mut samples = Vec::with_capacity(TIMED_STEPS);
    pool.install(|| {
        for k in 0..WARMUP_STEPS + TIMED_STEPS {
            prefs.clear();
            prefs.extend(scene.goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred(g, p)));
            sim.set_pref_velocities(&prefs).expect("finite preferred velocities");
            let start = Instant::now();
            sim.step();
            if k >= WARMUP_STEPS {
                samples.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    });
    std::fs::write(out, positions_to_bytes(sim.positions())).expect("final positions written");
    // Read before the untimed step below, whose decision records allocate.
    let peak = peak_memory_bytes().unwrap_or(0);
    // One more (untimed) step with the decisions kept: how many neighbours an agent had.
    sim.set_record_decisions(true);
    pool.install(|| sim.step());
    let total: usize = sim.agent_ids().iter().map(|&id| sim.agent_neighbors(id).map_or(0, |n| n.len())).sum();
    let t = summarise(&mut samples);
    println!("{} {} {peak} {}", t.median_ms, t.min_ms, total as f64 / n as f64);
}

/// One line of the table.
#[derive(Default)]
struct Row {
    scene: String,
    swerve_1t: Option<f64>,
    swerve_2t: Option<f64>,
    swerve_peak_bytes: Option<u64>,
    mean_neighbours: Option<f64>,
    rvo2_3d: Option<f64>,
    /// `Some(differing agents)` when RVO2-3D ran and both swerve runs finished.
    differing_agents: Option<usize>,
    /// Whether swerve's 1- and 2-thread runs ended in the same bits.
    threads_agree: Option<bool>,
}

/// Runs the RVO2-3D peer on `scene`: its median ms per step and its final positions' bits.
fn time_rvo2_3d(scene: &Scene3, python: &Path, dir: &Path) -> Result<(f64, f64, Vec<u32>), String> {
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
    std::fs::write(&scene_file, scene.to_peer_bytes()).map_err(|e| e.to_string())?;
    std::fs::write(&json_file, json.to_string()).map_err(|e| e.to_string())?;
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
    let median = value["median_ms"].as_f64().ok_or("RVO2-3D peer: no median_ms")?;
    let min = value["min_ms"].as_f64().ok_or("RVO2-3D peer: no min_ms")?;
    let bits = bytes_to_bits(&std::fs::read(&out_file).map_err(|e| e.to_string())?);
    Ok((median, min, bits))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(pos) = args.iter().position(|a| a == "--case") {
        let (family, n, threads) = (&args[pos + 1], args[pos + 2].parse().unwrap(), args[pos + 3].parse().unwrap());
        run_case(family, n, threads, Path::new(&args[pos + 4]));
        return;
    }
    let python = args.iter().position(|a| a == "--python").map(|p| PathBuf::from(&args[p + 1]));
    let quick = args.iter().any(|a| a == "--quick");
    let sizes: &[usize] = if quick { &[1_000, 10_000] } else { &[1_000, 10_000, 100_000, 1_000_000] };
    let dir = std::env::temp_dir().join(format!("orca3d-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let own = std::env::current_exe().expect("own path");

    let mut rows = Vec::new();
    let mut copies = Vec::new();
    let mut notes = Vec::new();
    for family in ["sphere", "cube"] {
        let mut hundred_thousand_1t = None;
        for &n in sizes {
            if n > 100_000 {
                match hundred_thousand_1t {
                    Some(ms) if ms < 200.0 => {}
                    _ => {
                        notes.push(format!(
                            "{family} {n}: not run ({family} 100000 took {} ms per step on 1 thread, so a million would take over about 2 s).",
                            hundred_thousand_1t.map_or("?".to_string(), |ms: f64| format!("{ms:.2}"))
                        ));
                        continue;
                    }
                }
            }
            let scene = Scene3::by_name(family, n).expect("known family");
            let mut row = Row { scene: scene.name.clone(), ..Row::default() };
            let mut finals: Vec<Vec<u32>> = Vec::new();
            for threads in [1usize, 2] {
                // A fresh copy of this program per child, as in the 2-D report: where a cached
                // file's code pages sit moved 2-D steps by up to 20 % on this VM.
                let copy = dir.join(format!("orca3d-report-{family}-{n}-{threads}"));
                std::fs::copy(&own, &copy).expect("copy of this program");
                let out_file = dir.join(format!("swerve-{threads}t.f32"));
                let out = Command::new(&copy)
                    .args(["--case", family, &n.to_string(), &threads.to_string()])
                    .arg(&out_file)
                    .output()
                    .expect("child run");
                copies.push(copy);
                if !out.status.success() {
                    eprintln!("{} ({threads} threads) failed: {}", scene.name, String::from_utf8_lossy(&out.stderr));
                    continue;
                }
                let text = String::from_utf8_lossy(&out.stdout);
                let fields: Vec<f64> = text.split_whitespace().filter_map(|f| f.parse().ok()).collect();
                if fields.len() != 4 {
                    eprintln!("{} ({threads} threads): unexpected output {text:?}", scene.name);
                    continue;
                }
                eprintln!(
                    "{} swerve {threads} thread(s): median {:.3} ms, min {:.3} ms, peak {:.0} MiB",
                    scene.name,
                    fields[0],
                    fields[1],
                    fields[2] / (1024.0 * 1024.0)
                );
                if threads == 1 {
                    row.swerve_1t = Some(fields[0]);
                } else {
                    row.swerve_2t = Some(fields[0]);
                    row.swerve_peak_bytes = Some(fields[2] as u64);
                }
                row.mean_neighbours = Some(fields[3]);
                finals.push(bytes_to_bits(&std::fs::read(&out_file).expect("final positions")));
            }
            if finals.len() == 2 {
                row.threads_agree = Some(finals[0] == finals[1]);
            }
            if n == 100_000 {
                hundred_thousand_1t = row.swerve_1t;
            }
            if let (Some(python), true) = (&python, n <= 100_000) {
                match time_rvo2_3d(&scene, python, &dir) {
                    Ok((median, min, bits)) => {
                        eprintln!("{} RVO2-3D: median {median:.3} ms, min {min:.3} ms", scene.name);
                        row.rvo2_3d = Some(median);
                        if finals.len() == 2 && bits.len() == finals[0].len() {
                            let differing = bits
                                .chunks_exact(3)
                                .zip(finals[0].chunks_exact(3))
                                .zip(finals[1].chunks_exact(3))
                                .filter(|((r, a), b)| r != a || r != b)
                                .count();
                            row.differing_agents = Some(differing);
                        }
                    }
                    Err(e) => eprintln!("{}: {e}", scene.name),
                }
            }
            rows.push(row);
        }
    }
    for copy in copies {
        let _ = std::fs::remove_file(copy);
    }
    let _ = std::fs::remove_dir_all(&dir);

    println!("{}", render(&rows));
    for note in notes {
        println!("{note}");
    }
    println!(
        "\nTime step {TIME_STEP} s; {WARMUP_STEPS} warm-up steps, median of {TIMED_STEPS}; RVO2-3D is jt-pyrvo23d's \
         `rvo23d` (one thread), timed around `doStep` only. Peak memory: the 2-thread swerve process's VmHWM."
    );
    println!("Command: {}", std::env::args().collect::<Vec<_>>().join(" "));
}

fn render(rows: &[Row]) -> String {
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
        out += &format!(
            "| {} | {} | {} | {} | {} | {} / {} | {} | {} | {} |\n",
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
