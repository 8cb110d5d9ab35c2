//! The ORCA performance table (issue 5): every scene and size, swerve on 1 and 2 threads
//! (each in a fresh process, for its peak memory), RVO2 2.0.3 through pyrvo, and dodgy_2d fed
//! by swerve's neighbour grid on 1 and 2 threads — all in the same run — and, with
//! `--rvo2 BINARY`, RVO2 2.0.3 itself built with -O3 and OpenMP (`scripts/build-rvo2-peer`)
//! on 1 and 2 threads, whose final positions must equal swerve's bit for bit. Prints
//! Markdown.
//!
//! `cargo run --release -p swerve-bench --example orca_report -- --python .venv/bin/python
//! --rvo2 target/rvo2-peer/rvo2_step` (`--quick` for the small sizes only). pyrvo and
//! dodgy_2d are skipped where one step would take more than a few seconds (1,000,000 agents);
//! the RVO2 build runs a million agents added in order too.

use rayon::prelude::*;
use std::borrow::Cow;
use std::path::PathBuf;
use std::time::Instant;
use swerve::spatial::{Neighbor, NeighborGrid};
use swerve::Vec2;
use swerve_bench::orca::{render_markdown, summarise, Row, Scene, StepTiming, TIMED_STEPS, WARMUP_STEPS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(pos) = args.iter().position(|a| a == "--case") {
        // Child mode: time one swerve case, print `median_ms peak_bytes positions_fnv1a`.
        let (family, n, threads) = (&args[pos + 1], args[pos + 2].parse().unwrap(), args[pos + 3].parse().unwrap());
        let scene = Scene::by_name(family, n).expect("known scene family");
        let mut run = swerve_bench::orca::time_swerve_steps(&scene, threads).expect("valid scene");
        let t = summarise(&mut run.steps_ms);
        let peak = swerve_bench::orca::peak_memory_bytes().unwrap_or(0);
        println!("{} {peak} {:016x}", t.median_ms, run.positions_fnv1a);
        return;
    }
    let python = args.iter().position(|a| a == "--python").map(|p| PathBuf::from(&args[p + 1]));
    let rvo2 = args.iter().position(|a| a == "--rvo2").map(|p| PathBuf::from(&args[p + 1]));
    let quick = args.iter().any(|a| a == "--quick");
    let mut cases: Vec<(&str, usize)> = vec![("jgrid", 1_000), ("jgrid", 10_000), ("jgrid", 100_000)];
    if !quick {
        // What keeping every agent's decision for inspection costs (swerve only), and a crowd
        // whose agent numbers say nothing of where agents are.
        cases.extend([("jgrid-recorded", 100_000), ("jgrid-shuffled", 100_000)]);
        cases.extend([("jgrid", 1_000_000), ("jgrid-shuffled", 1_000_000)]);
    }
    cases.extend([("circle", 1_000), ("circle", 10_000)]);
    if !quick {
        cases.push(("circle", 100_000));
    }
    cases.extend([("blocks", 10_000), ("city", 10_000)]);
    if !quick {
        cases.extend([("blocks", 100_000), ("city", 100_000)]);
    }

    let mut rows = Vec::new();
    let mut copies = Vec::new();
    for (family, n) in cases {
        let scene = Scene::by_name(family, n).expect("known family");
        let mut row = Row { scene: scene.name.clone(), agents: n, ..Row::default() };
        // The final positions of swerve's runs (RVO2's must equal them).
        let mut hashes = Vec::new();
        for threads in [1usize, 2] {
            // Each child runs from a fresh copy of this program: a cached file's code keeps its
            // physical pages, and on the project's VM that placement alone moved a step by
            // 20 % against a byte-identical copy (docs/orca-performance-log.md, sixth round).
            let own = std::env::current_exe().expect("own path");
            let copy = std::env::temp_dir().join(format!("orca-report-{}-{family}-{n}-{threads}", std::process::id()));
            std::fs::copy(&own, &copy).expect("copy of this program");
            let out = std::process::Command::new(&copy)
                .args(["--case", family, &n.to_string(), &threads.to_string()])
                .output()
                .expect("child run");
            // Kept until the end, so that its pages do not go straight to the next copy.
            copies.push(copy);
            let text = String::from_utf8_lossy(&out.stdout);
            let mut fields = text.split_whitespace();
            let ms: Option<f64> = fields.next().and_then(|f| f.parse().ok());
            let peak: Option<u64> = fields.next().and_then(|f| f.parse().ok());
            hashes.extend(fields.next().and_then(|f| u64::from_str_radix(f, 16).ok()));
            if threads == 1 {
                row.swerve_1t = ms;
            } else {
                row.swerve_2t = ms;
                row.swerve_peak_bytes = peak;
            }
        }
        // RVO2 -O3 runs everything but the recorded crowd (the same steps as the plain one)
        // and the million added in random order (its slowest case: at 100,000 a shuffled
        // crowd takes it 2.9-4.1x the in-order one, and the in-order million takes 1.4-1.9 s a
        // step on 1 thread).
        let shuffled_million = n > 100_000 && family.ends_with("-shuffled");
        if let Some(binary) = rvo2.as_ref().filter(|_| !scene.record_decisions && !shuffled_million) {
            swerve_bench::orca::add_rvo2_runs(&mut row, &scene, binary, &hashes);
        }
        let peers = n <= 100_000 && !scene.record_decisions;
        if peers {
            if let Some(python) = &python {
                match swerve_bench::orca::time_pyrvo(&scene, python) {
                    Ok(t) => row.pyrvo = Some(t.median_ms),
                    Err(e) => eprintln!("{}: {e}", scene.name),
                }
            }
            // dodgy_2d has no obstacle BSP comparable to RVO2's; it runs the obstacle-free scenes.
            if scene.obstacles.is_empty() {
                row.dodgy_1t = Some(time_dodgy(&scene, 1).median_ms);
                row.dodgy_2t = Some(time_dodgy(&scene, 2).median_ms);
            }
        }
        eprintln!("{}", row.progress_line());
        rows.push(row);
    }
    for copy in copies {
        let _ = std::fs::remove_file(copy);
    }
    println!("{}", render_markdown(&rows));
    println!("swerve's hot loops ran with the {} instruction set.", swerve::InstructionSet::best_supported().name());
}

/// dodgy_2d on `scene`: every step rebuilds swerve's neighbour grid, gives each agent its 10
/// nearest within 15 m (RVO2's rule), asks dodgy for the avoiding velocity and integrates.
/// The whole step is timed (dodgy has no simulator step of its own besides an O(n²) one).
fn time_dodgy(scene: &Scene, threads: usize) -> StepTiming {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
    let p = scene.params;
    let options = dodgy_2d::AvoidanceOptions {
        obstacle_margin: 0.0,
        time_horizon: p.time_horizon,
        obstacle_time_horizon: p.time_horizon_obst,
    };
    let goals: Vec<Vec2> = scene.goals.iter().map(|g| Vec2::from_array(*g)).collect();
    let mut agents: Vec<dodgy_2d::Agent> = scene
        .positions
        .iter()
        .map(|q| dodgy_2d::Agent {
            position: Vec2::from_array(*q),
            velocity: Vec2::ZERO,
            radius: p.radius,
            avoidance_responsibility: 1.0,
        })
        .collect();
    let mut grid = NeighborGrid::new();
    let mut positions: Vec<Vec2> = Vec::new();
    let mut samples = Vec::new();
    pool.install(|| {
        for k in 0..WARMUP_STEPS + TIMED_STEPS {
            let start = Instant::now();
            positions.clear();
            positions.extend(agents.iter().map(|a| a.position));
            grid.rebuild(&positions, 0.5 * p.neighbor_dist);
            let new_velocities: Vec<Vec2> = agents
                .par_iter()
                .enumerate()
                .map_init(Vec::<Neighbor>::new, |found, (i, agent)| {
                    grid.nearest(agent.position, i as u32, p.neighbor_dist * p.neighbor_dist, p.max_neighbors, found);
                    let neighbours: Vec<Cow<'_, dodgy_2d::Agent>> =
                        found.iter().map(|n| Cow::Borrowed(&agents[n.index as usize])).collect();
                    let preferred = swerve::reference::preferred_velocity_toward(goals[i], agent.position);
                    agent.compute_avoiding_velocity(&neighbours, &[], preferred, p.max_speed, scene.time_step, &options)
                })
                .collect();
            for (agent, v) in agents.iter_mut().zip(new_velocities) {
                agent.velocity = v;
                agent.position += v * scene.time_step;
            }
            if k >= WARMUP_STEPS {
                samples.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    });
    summarise(&mut samples)
}
