//! `swerve sphere`: RVO2-3D's Sphere example — agents spread over a sphere fly to the
//! antipodal points through its centre (ORCA in three dimensions, `swerve::orca3d`). Writes the
//! trajectory, metrics and a GIF seen from a camera circling the sphere.

use anyhow::{Context, Result};
use serde::Serialize;
use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use swerve::orca3d::{AgentParams, Extensions, Mover, OverlapResolution, Simulator, SymmetryBreaking, Vec3};
use swerve::reference::preferred_velocity_toward3d;
use swerve::scenario::sphere_points;

use crate::view3d::{start_colour, write_gif, Body3d, FrameKeeper, GifArgs, MoverTrack, Scene3d};

/// Arguments of `swerve sphere`.
#[derive(clap::Args)]
pub struct SphereArgs {
    /// Number of agents, spread evenly over the sphere (RVO2-3D's example has 812; the sphere's
    /// radius grows with the count so that neighbours start about 10 m apart, as there).
    #[arg(long, default_value_t = 400)]
    agents: usize,
    /// Step limit (the run also ends when every agent is within two radii of its goal, the
    /// example's rule).
    #[arg(long, default_value_t = 3000)]
    steps: usize,
    /// Output folder.
    #[arg(long, default_value = "out/sphere")]
    out: PathBuf,
    /// Worker threads for the simulation (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Break head-on symmetry (pass on the right of +z, with seeded jitter); off is RVO2-3D
    /// bit for bit.
    #[arg(long)]
    symmetry_breaking: bool,
    /// "Safe mode": a 5 % clearance in the ORCA planes and two rounds of overlap projection a
    /// step (RVO2-3D lets agents overlap in the crush at the centre).
    #[arg(long)]
    safe_mode: bool,
    /// A non-cooperative sphere of this radius (m) flies through the centre along x at 2 m/s,
    /// reaching it when the crowd does; the agents avoid it with full responsibility
    /// (`orca3d::Simulator::add_mover`). Drawn in grey.
    #[arg(long)]
    mover: Option<f32>,
    #[command(flatten)]
    gif: GifArgs,
}

/// What `metrics.json` holds.
#[derive(Serialize)]
struct Metrics {
    agents: usize,
    steps: usize,
    /// Simulated seconds.
    simulated_time: f32,
    /// Agents within two radii of their goal at the end.
    arrived: usize,
    /// The smallest centre distance minus the sum of radii over every pair and step (m;
    /// negative when some pair overlapped).
    min_separation: f32,
    /// Pair-steps in which two agents overlapped.
    overlapping_pair_steps: usize,
    /// The mean speed over agents and steps (m/s).
    mean_speed: f32,
    /// The fastest any agent went (m/s).
    max_speed: f32,
    /// With `--mover`: the smallest distance between an agent's and the mover's surfaces over
    /// every step (m; negative when an agent overlapped it).
    #[serde(skip_serializing_if = "Option::is_none")]
    mover_min_clearance: Option<f32>,
    /// Wall-clock seconds of the simulation alone.
    simulation_seconds: f64,
}

/// Runs the example and writes `trajectory.csv`, `metrics.json`, `scene.json` (what `swerve
/// render` draws again), `movers.csv` with `--mover`, and `run.gif`.
pub fn run(args: &SphereArgs) -> Result<()> {
    check_agents(args.agents, "--agents")?;
    anyhow::ensure!(args.steps >= 1, "--steps: must be at least 1");
    let gif_frames = args.gif.frames()?;
    if let Some(threads) = args.threads {
        anyhow::ensure!(threads >= 1, "--threads: must be at least 1");
        rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().context("--threads")?;
    }
    if let Some(r) = args.mover {
        anyhow::ensure!(r.is_finite() && r > 0.0, "--mover: the radius must be a positive number of metres");
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;

    let params = AgentParams::default();
    let extensions = Extensions {
        symmetry_breaking: args.symmetry_breaking.then(SymmetryBreaking::default),
        overlap_resolution: args.safe_mode.then(OverlapResolution::default),
        strict_speed_limit: false,
    };
    let Crowd { mut sim, goals, radius } = crowd(args.agents, extensions)?;
    // The mover starts 2 sphere radii out and flies at 2 m/s, reaching the centre after about
    // as many seconds as the crowd, which walks at 1 m/s from 1 radius out.
    let mut mover = args.mover.map(|r| Mover {
        position: Vec3::new(-2.0 * radius, 0.3, 0.2),
        velocity: Vec3::new(2.0, 0.0, 0.0),
        radius: r,
    });
    let mover_id = mover.map(|m| sim.add_mover(m)).transpose()?;
    let mut mover_min_clearance = f32::INFINITY;
    let arrived = |sim: &Simulator| {
        let reach = 2.0 * params.radius;
        sim.positions().iter().zip(&goals).filter(|(p, g)| p.distance_squared(**g) <= reach * reach).count()
    };

    // Agents coloured by where they start, the mover grey.
    let mut scene = Scene3d::new("sphere", sim.time_step(), Vec3::ZERO, 3.2 * radius);
    scene.bodies =
        sim.positions().iter().map(|&p| Body3d { radius: params.radius, colour: start_colour(p / radius) }).collect();
    scene.movers = mover.iter().map(|m| Body3d { radius: m.radius, colour: [150, 150, 150] }).collect();

    let started = Instant::now();
    let mut frames = FrameKeeper::new(gif_frames.unwrap_or(0));
    frames.offer(0, &with_mover(&sim, mover));
    let mut sorted = Vec::with_capacity(args.agents);
    let mut trajectory = BufWriter::new(create(&args.out.join("trajectory.csv"))?);
    writeln!(trajectory, "frame,id,x,y,z,vx,vy,vz")?;
    write_frame(&mut trajectory, 0, &sim)?;
    let mut mover_track = MoverTrack::create(&args.out, mover.is_some())?;
    mover_track.write(0, mover.into_iter())?;
    let (mut min_separation, mut overlapping, mut speed_sum, mut max_speed) = (f32::INFINITY, 0, 0.0f64, 0.0f32);
    let mut prefs = Vec::with_capacity(args.agents);
    let mut steps = 0;
    let mut simulation = std::time::Duration::ZERO;
    while steps < args.steps && arrived(&sim) < args.agents {
        prefs.clear();
        prefs.extend(goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred_velocity_toward3d(g, p)));
        sim.set_pref_velocities(&prefs)?;
        let step_started = Instant::now();
        sim.step();
        simulation += step_started.elapsed();
        steps += 1;
        if let (Some(m), Some(id)) = (mover.as_mut(), mover_id) {
            m.position += m.velocity * sim.time_step();
            sim.set_mover(id, *m)?;
            let nearest = sim.positions().iter().map(|p| p.distance(m.position)).fold(f32::INFINITY, f32::min);
            mover_min_clearance = mover_min_clearance.min(nearest - m.radius - params.radius);
        }
        let (closest, overlaps) = closest_pair(sim.positions(), 2.0 * params.radius, &mut sorted);
        min_separation = min_separation.min(closest);
        overlapping += overlaps;
        for v in sim.velocities() {
            speed_sum += f64::from(v.length());
            max_speed = max_speed.max(v.length());
        }
        write_frame(&mut trajectory, steps, &sim)?;
        mover_track.write(steps, mover.into_iter())?;
        frames.offer(steps, &with_mover(&sim, mover));
    }
    trajectory.flush()?;
    let with_movers = mover_track.finish()?;
    frames.finish(steps, &with_mover(&sim, mover));

    let metrics = Metrics {
        agents: args.agents,
        steps,
        simulated_time: sim.global_time(),
        arrived: arrived(&sim),
        min_separation,
        overlapping_pair_steps: overlapping,
        mean_speed: (speed_sum / (steps.max(1) * args.agents) as f64) as f32,
        max_speed,
        mover_min_clearance: mover.map(|_| mover_min_clearance),
        simulation_seconds: simulation.as_secs_f64(),
    };
    let mut f = create(&args.out.join("metrics.json"))?;
    serde_json::to_writer_pretty(&mut f, &metrics).context("writing metrics.json")?;
    writeln!(f)?;
    scene.write(&args.out)?;
    let mut files = vec!["trajectory.csv", "metrics.json", "scene.json"];
    if with_movers {
        files.push("movers.csv");
    }
    if let Some(gif_frames) = gif_frames {
        write_gif(&args.out.join("run.gif"), &frames.kept, steps, &scene, gif_frames, args.gif.size)?;
        files.push("run.gif");
    }

    println!(
        "sphere (3-D): {} agents, {} steps ({:.2} s simulated) in {:.2} s ({:.2} ms a step)",
        args.agents,
        steps,
        metrics.simulated_time,
        started.elapsed().as_secs_f64(),
        1e3 * metrics.simulation_seconds / steps.max(1) as f64
    );
    println!(
        "  arrived {}/{}; min separation {:.4} m; overlapping pair-steps {}; mean speed {:.3} m/s (max {:.3})",
        metrics.arrived, args.agents, min_separation, overlapping, metrics.mean_speed, max_speed
    );
    if let Some(clearance) = metrics.mover_min_clearance {
        println!("  mover: closest agent surface {clearance:.4} m from its surface");
    }
    println!("  wrote {}/{{{}}}", args.out.display(), files.join(", "));
    Ok(())
}

/// The example's agents, before any step (also what `swerve serve --scene sphere3d` shows).
pub(crate) struct Crowd {
    /// RVO2-3D's Sphere example's simulator: time step 0.125 s, its agent defaults.
    pub sim: Simulator,
    /// Each agent's goal, the antipode of its start, in agent order.
    pub goals: Vec<Vec3>,
    /// The radius of the sphere the agents start on (m).
    pub radius: f32,
}

/// Refuses agent counts the example cannot run (`flag` names the option for the message).
pub(crate) fn check_agents(agents: usize, flag: &str) -> Result<()> {
    anyhow::ensure!(agents >= 2, "{flag}: must be at least 2");
    anyhow::ensure!(agents <= 1_000_000, "{flag}: at most 1,000,000");
    Ok(())
}

/// RVO2-3D's Sphere example with `agents` agents (2 to 1,000,000) spread over a sphere, each
/// to fly to its antipode, with `extensions`.
pub(crate) fn crowd(agents: usize, extensions: Extensions) -> Result<Crowd> {
    check_agents(agents, "agents")?;
    let mut sim = Simulator::new(0.125, AgentParams::default())?;
    sim.set_extensions(extensions)?;
    // Neighbours about 10 m apart, as on the example's sphere of radius 100 with 812 agents.
    let radius = 10.0 * (agents as f32 / (4.0 * std::f32::consts::PI)).sqrt();
    let mut goals = Vec::with_capacity(agents);
    for p in sphere_points(agents, radius) {
        sim.add_agent(p)?;
        goals.push(-p);
    }
    Ok(Crowd { sim, goals, radius })
}

/// What the GIF draws: the agents, then the mover (a copy only when there is one).
fn with_mover(sim: &Simulator, mover: Option<Mover>) -> Cow<'_, [Vec3]> {
    match mover {
        None => Cow::Borrowed(sim.positions()),
        Some(m) => Cow::Owned(sim.positions().iter().copied().chain([m.position]).collect()),
    }
}

/// The smallest centre distance minus `contact` over all pairs, and how many pairs are closer
/// than `contact`: a sweep along x over the agents sorted into `sorted` (reused).
pub(crate) fn closest_pair(positions: &[Vec3], contact: f32, sorted: &mut Vec<Vec3>) -> (f32, usize) {
    sorted.clear();
    sorted.extend_from_slice(positions);
    sorted.sort_unstable_by(|a, b| a.x.total_cmp(&b.x));
    let (mut closest, mut overlaps) = (f32::INFINITY, 0);
    // Beyond `reach` along x no pair can set a new minimum below `reach − contact`.
    let reach = contact * 4.0;
    for (i, a) in sorted.iter().enumerate() {
        for b in &sorted[i + 1..] {
            if b.x - a.x > reach {
                break;
            }
            let gap = a.distance(*b) - contact;
            closest = closest.min(gap);
            overlaps += usize::from(gap < 0.0);
        }
    }
    (closest.min(reach - contact), overlaps)
}

pub(crate) fn create(path: &Path) -> Result<File> {
    File::create(path).with_context(|| format!("cannot create {}", path.display()))
}

pub(crate) fn write_frame(out: &mut impl Write, frame: usize, sim: &Simulator) -> Result<()> {
    for ((id, p), v) in sim.agent_ids().iter().zip(sim.positions()).zip(sim.velocities()) {
        writeln!(out, "{frame},{},{},{},{},{},{},{}", id.0, p.x, p.y, p.z, v.x, v.y, v.z)?;
    }
    Ok(())
}
