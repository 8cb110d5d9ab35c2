//! `swerve towers`: drones through a field of towers — a 3-D crowd (`swerve::orca3d`) with
//! static box obstacles. Half the drones start on one face of a block of air, half on the
//! opposite face, and each flies straight across to the other side, over or between towers of
//! varied heights. Writes the trajectory, metrics and a GIF seen from a camera circling the
//! block. The scene is `swerve_viewer::scenes::towers`, which `swerve serve --scene towers3d`
//! shows live.

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use swerve::orca3d::{Extensions, OverlapResolution, Simulator, SymmetryBreaking, Triangle, Vec3};
use swerve::physics3d::Aabb3;
use swerve::reference::preferred_velocity_toward3d;
use swerve_viewer::scenes::{towers, Towers, MAX_TOWERS_AGENTS, TOWERS_AGENTS, TOWERS_OBSTACLE_HORIZON};

use crate::sphere::{closest_pair, create, write_frame};
use crate::view3d::{box_edges, start_colour, write_gif, Body3d, Edge3d, FrameKeeper, GifArgs, Scene3d};

/// Arguments of `swerve towers`.
#[derive(clap::Args)]
pub struct TowersArgs {
    /// Number of drones, half starting on each side of the block of air (the block, and the
    /// number of towers in it, grow with the count).
    #[arg(long, default_value_t = TOWERS_AGENTS)]
    agents: usize,
    /// Step limit (the run ends sooner, when every drone is within two radii of its goal:
    /// after about 2,600 steps for 200 drones, 4,900 for 800).
    #[arg(long, default_value_t = 8000)]
    steps: usize,
    /// Output folder.
    #[arg(long, default_value = "out/towers")]
    out: PathBuf,
    /// Worker threads for the simulation (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Break head-on symmetry (pass on the right of +z, with seeded jitter).
    #[arg(long)]
    symmetry_breaking: bool,
    /// "Safe mode": a 5 % clearance in the ORCA planes and two rounds of overlap projection a
    /// step. A push that would take a drone closer than its radius to a tower is not made.
    #[arg(long)]
    safe_mode: bool,
    /// How far ahead the drones avoid reaching a tower or the floor (s); their time horizon
    /// for each other stays RVO2-3D's 10 s.
    #[arg(long, default_value_t = TOWERS_OBSTACLE_HORIZON, allow_negative_numbers = true)]
    obstacle_horizon: f32,
    #[command(flatten)]
    gif: GifArgs,
}

/// What `metrics.json` holds.
#[derive(Serialize)]
struct Metrics {
    agents: usize,
    towers: usize,
    /// Static triangles: 12 a tower and 2 for the floor.
    triangles: usize,
    /// The drones' obstacle time horizon (s).
    obstacle_time_horizon: f32,
    /// Drones whose straight line from start to goal passes within a radius of a tower: the
    /// ones the towers are in the way of.
    lines_through_towers: usize,
    steps: usize,
    /// Simulated seconds.
    simulated_time: f32,
    /// Drones within two radii of their goal at the end.
    arrived: usize,
    /// When the drones first came within two radii of their goal (s), over those that did:
    /// the mean and the last.
    mean_arrival_time: f32,
    last_arrival_time: f32,
    /// The smallest distance from a drone's centre to any obstacle triangle (tower or floor)
    /// minus its radius, over every drone and step from the start on (m; negative when a drone
    /// overlapped one).
    obstacle_min_clearance: f32,
    /// The smallest centre distance minus the sum of radii over every pair and step (m;
    /// negative when some pair overlapped).
    min_separation: f32,
    /// Pair-steps in which two drones overlapped.
    overlapping_pair_steps: usize,
    /// The mean speed over drones and steps (m/s).
    mean_speed: f32,
    /// The fastest any drone went (m/s).
    max_speed: f32,
    /// Wall-clock seconds of the simulation alone.
    simulation_seconds: f64,
}

/// Runs the scene and writes `trajectory.csv`, `metrics.json`, `scene.json` (what `swerve
/// render` draws again) and `run.gif`.
pub fn run(args: &TowersArgs) -> Result<()> {
    anyhow::ensure!(
        (2..=MAX_TOWERS_AGENTS).contains(&args.agents),
        "--agents: must be between 2 and {MAX_TOWERS_AGENTS}"
    );
    anyhow::ensure!(args.steps >= 1, "--steps: must be at least 1");
    anyhow::ensure!(
        args.obstacle_horizon.is_finite() && args.obstacle_horizon > 0.0,
        "--obstacle-horizon: must be a positive number of seconds"
    );
    let gif_frames = args.gif.frames()?;
    if let Some(threads) = args.threads {
        anyhow::ensure!(threads >= 1, "--threads: must be at least 1");
        rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().context("--threads")?;
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;

    let extensions = Extensions {
        symmetry_breaking: args.symmetry_breaking.then(SymmetryBreaking::default),
        overlap_resolution: args.safe_mode.then(OverlapResolution::default),
        strict_speed_limit: false,
    };
    let Towers { mut sim, goals, towers: boxes, floor, centre, radius: scene_radius } =
        towers(args.agents, extensions, args.obstacle_horizon)?;
    let radius = sim.agent_defaults().radius;
    let n = args.agents;
    let meshes = Meshes::of(&sim);
    let lines_through_towers = sim
        .positions()
        .iter()
        .zip(&goals)
        .filter(|(&start, &goal)| {
            // The box grown by the radius (a little generous at its corners).
            let grown =
                |(min, max): (Vec3, Vec3)| Aabb3 { min: min - Vec3::splat(radius), max: max + Vec3::splat(radius) };
            boxes.iter().any(|&b| grown(b).meets_segment(start, goal))
        })
        .count();
    let reach = 2.0 * radius;
    let at_goal = |sim: &Simulator, i: usize| sim.positions()[i].distance_squared(goals[i]) <= reach * reach;

    // Drones coloured by where they start; the towers' edges, and the floor's outline (not the
    // diagonal between its triangles).
    let mut scene = Scene3d::new("towers", sim.time_step(), centre, 3.0 * scene_radius);
    let look = |p: Vec3| Body3d { radius, colour: start_colour((p - centre) / scene_radius) };
    scene.bodies = sim.positions().iter().map(|&p| look(p)).collect();
    scene.edges = boxes.iter().flat_map(|&(min, max)| box_edges(min, max)).map(Edge3d::lasting).collect();
    scene.edges.extend((0..4).map(|k| Edge3d::lasting((floor[k], floor[(k + 1) % 4]))));

    let started = Instant::now();
    let mut frames = FrameKeeper::new(gif_frames.unwrap_or(0));
    frames.offer(0, sim.positions());
    let mut sorted = Vec::with_capacity(n);
    let mut trajectory = BufWriter::new(create(&args.out.join("trajectory.csv"))?);
    writeln!(trajectory, "frame,id,x,y,z,vx,vy,vz")?;
    write_frame(&mut trajectory, 0, &sim)?;
    let mut clearance = meshes.min_clearance(sim.positions(), radius);
    let (mut min_separation, mut overlapping, mut speed_sum, mut max_speed) = (f32::INFINITY, 0, 0.0f64, 0.0f32);
    let mut arrival: Vec<Option<f32>> = (0..n).map(|i| at_goal(&sim, i).then_some(0.0)).collect();
    let mut prefs = Vec::with_capacity(n);
    let mut steps = 0;
    let mut simulation = Duration::ZERO;
    while steps < args.steps && (0..n).any(|i| !at_goal(&sim, i)) {
        prefs.clear();
        prefs.extend(goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred_velocity_toward3d(g, p)));
        sim.set_pref_velocities(&prefs)?;
        let step_started = Instant::now();
        sim.step();
        simulation += step_started.elapsed();
        steps += 1;
        clearance = clearance.min(meshes.min_clearance(sim.positions(), radius));
        let (closest, overlaps) = closest_pair(sim.positions(), 2.0 * radius, &mut sorted);
        min_separation = min_separation.min(closest);
        overlapping += overlaps;
        for v in sim.velocities() {
            speed_sum += f64::from(v.length());
            max_speed = max_speed.max(v.length());
        }
        for (i, first) in arrival.iter_mut().enumerate() {
            if first.is_none() && at_goal(&sim, i) {
                *first = Some(sim.global_time());
            }
        }
        write_frame(&mut trajectory, steps, &sim)?;
        frames.offer(steps, sim.positions());
    }
    trajectory.flush()?;
    frames.finish(steps, sim.positions());

    let times: Vec<f32> = arrival.iter().flatten().copied().collect();
    let metrics = Metrics {
        agents: n,
        towers: boxes.len(),
        triangles: meshes.triangles(),
        obstacle_time_horizon: args.obstacle_horizon,
        lines_through_towers,
        steps,
        simulated_time: sim.global_time(),
        arrived: (0..n).filter(|&i| at_goal(&sim, i)).count(),
        mean_arrival_time: times.iter().sum::<f32>() / times.len().max(1) as f32,
        last_arrival_time: times.iter().copied().fold(0.0, f32::max),
        obstacle_min_clearance: clearance,
        min_separation,
        overlapping_pair_steps: overlapping,
        mean_speed: (speed_sum / (steps.max(1) * n) as f64) as f32,
        max_speed,
        simulation_seconds: simulation.as_secs_f64(),
    };
    let mut f = create(&args.out.join("metrics.json"))?;
    serde_json::to_writer_pretty(&mut f, &metrics).context("writing metrics.json")?;
    writeln!(f)?;
    scene.write(&args.out)?;
    let mut files = vec!["trajectory.csv", "metrics.json", "scene.json"];
    if let Some(gif_frames) = gif_frames {
        write_gif(&args.out.join("run.gif"), &frames.kept, steps, &scene, gif_frames, args.gif.size)?;
        files.push("run.gif");
    }

    println!(
        "towers (3-D): {n} drones through {} towers, {steps} steps ({:.2} s simulated) in {:.2} s ({:.2} ms a step)",
        boxes.len(),
        metrics.simulated_time,
        started.elapsed().as_secs_f64(),
        1e3 * metrics.simulation_seconds / steps.max(1) as f64
    );
    println!(
        "  arrived {}/{n} (last at {:.1} s); obstacle clearance {:.5} m; min separation {:.4} m; overlapping pair-steps {overlapping}; \
         {lines_through_towers} of {n} straight lines cross a tower",
        metrics.arrived, metrics.last_arrival_time, clearance, min_separation,
    );
    println!("  wrote {}/{{{}}}", args.out.display(), files.join(", "));
    Ok(())
}

/// The obstacles' triangles, mesh by mesh with each mesh's bounding box, for the clearance
/// check. They never move, so this is taken once.
struct Meshes(Vec<(Aabb3, Vec<Triangle>)>);

impl Meshes {
    fn of(sim: &Simulator) -> Meshes {
        Meshes(
            sim.obstacles()
                .filter_map(|(_, mesh)| {
                    let bounds = mesh.iter().map(Triangle::bounding_box).reduce(|a, b| a.union(&b))?;
                    Some((bounds, mesh.to_vec()))
                })
                .collect(),
        )
    }

    fn triangles(&self) -> usize {
        self.0.iter().map(|(_, mesh)| mesh.len()).sum()
    }

    /// The smallest distance from any of `positions` to any triangle, less `radius` (m): by
    /// brute force over the triangles ([`Triangle::closest_point`]), skipping a mesh only when
    /// its bounding box is no nearer than the nearest triangle found so far. A check, not the
    /// hot path: in parallel over the drones.
    fn min_clearance(&self, positions: &[Vec3], radius: f32) -> f32 {
        let nearest = |&point: &Vec3| {
            let p = point.as_dvec3();
            let mut best = f64::INFINITY;
            for (bounds, mesh) in &self.0 {
                // The distance to the box, in `f32`: skipped only when it is beyond the best by
                // more than its rounding.
                let outside = (bounds.min - point).max(point - bounds.max).max(Vec3::ZERO);
                if f64::from(outside.length()) > best + 1e-3 {
                    continue;
                }
                for t in mesh {
                    best = best.min(t.closest_point(p).distance(p));
                }
            }
            best
        };
        let d = positions.par_iter().map(nearest).reduce(|| f64::INFINITY, f64::min);
        (d - f64::from(radius)) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clearance_is_the_distance_to_the_nearest_triangle_less_the_radius() {
        let mut sim = Simulator::new(0.125, swerve::orca3d::AgentParams::default()).unwrap();
        sim.add_box_obstacle(Vec3::ZERO, Vec3::splat(2.0)).unwrap();
        sim.add_box_obstacle(Vec3::new(10.0, 0.0, 0.0), Vec3::new(12.0, 2.0, 2.0)).unwrap();
        let meshes = Meshes::of(&sim);
        assert_eq!(meshes.triangles(), 24);
        // 3 m beyond the first box's +x face, 2 m before the second's −x face.
        let clearance = meshes.min_clearance(&[Vec3::new(5.0, 1.0, 1.0), Vec3::new(8.0, 1.0, 1.0)], 1.5);
        assert!((clearance - 0.5).abs() < 1e-6, "{clearance}");
        // Off a corner: the distance to the corner.
        let corner = meshes.min_clearance(&[Vec3::new(-3.0, -4.0, 2.0)], 1.0);
        assert!((corner - 4.0).abs() < 1e-6, "{corner}");
    }
}
