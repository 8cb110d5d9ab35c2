//! `swerve pit3d`: the sphere pit (rigid-ball physics in three dimensions, `swerve::physics3d`)
//! — elastic spheres in a box, or poured under gravity. Writes the trajectory, metrics and a
//! GIF seen from a camera circling the box.

use anyhow::{Context, Result};
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use swerve::physics3d::broad_phase::BroadPhase;
use swerve::physics3d::scene::{hourglass, mixed_pit, sphere_pit};
use swerve::physics3d::{Aabb3, BroadPhaseKind, Sphere, Vec3, World};

use crate::view3d::{box_edges, start_colour, write_gif, Body3d, Edge3d, FrameKeeper, GifArgs, Scene3d};

/// Arguments of `swerve pit3d`.
#[derive(clap::Args)]
pub struct Pit3dArgs {
    /// Number of spheres.
    #[arg(long, default_value_t = 2000)]
    spheres: usize,
    /// Fraction of the box's volume the spheres fill (0.001 to 0.5).
    #[arg(long, default_value_t = 0.1)]
    fraction: f32,
    /// Radii from 0.25 to 1 m instead of all 1 m.
    #[arg(long)]
    mixed: bool,
    /// The spheres start above a funnel of static triangles that opens into a lower chamber
    /// (`swerve::physics3d::scene::hourglass`); pour them with `--gravity`.
    #[arg(long, conflicts_with = "mixed")]
    hourglass: bool,
    /// Restitution of every sphere (1 is elastic).
    #[arg(long, default_value_t = 1.0)]
    restitution: f32,
    /// Coulomb friction coefficient of every sphere (0 is frictionless; contacts then spin
    /// the spheres).
    #[arg(long, default_value_t = 0.0)]
    friction: f32,
    /// Rolling resistance coefficient of every sphere (0 is none; with gravity and friction
    /// a sphere rolling on a floor slows at 5/7 of it times g).
    #[arg(long, default_value_t = 0.0)]
    rolling_resistance: f32,
    /// Gravity along −z (m/s²; 0 is none).
    #[arg(long, default_value_t = 0.0)]
    gravity: f32,
    /// Split each step into this many substeps (1 to 64): deep piles under gravity hold
    /// better with shorter steps.
    #[arg(long, default_value_t = 1)]
    substeps: usize,
    /// Broad phase: brute-force, sort-and-sweep, uniform-grid, hierarchical-grid or octree.
    #[arg(long, default_value = "uniform-grid")]
    broad_phase: String,
    /// Steps of 1/60 s.
    #[arg(long, default_value_t = 600)]
    steps: usize,
    /// Scene seed.
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// Output folder.
    #[arg(long, default_value = "out/pit3d")]
    out: PathBuf,
    #[command(flatten)]
    gif: GifArgs,
}

/// What `metrics.json` holds.
#[derive(Serialize)]
pub struct Metrics {
    spheres: usize,
    /// Static triangles (the hourglass's funnel).
    triangles: usize,
    steps: usize,
    broad_phase: String,
    /// Simulated seconds.
    simulated_time: f32,
    /// Kinetic energy at the start and at the end (J), and their relative change.
    kinetic_energy_start: f64,
    kinetic_energy_end: f64,
    kinetic_energy_change: f64,
    /// Momentum at the start and at the end (kg·m/s).
    momentum_start: [f64; 3],
    momentum_end: [f64; 3],
    /// Sphere–sphere collisions over the run, and how many of them continuous detection found.
    contacts: usize,
    time_of_impact_events: usize,
    /// The deepest overlap after any step, as a fraction of the pair's smaller radius.
    deepest_overlap: f32,
    /// Wall-clock seconds of `World::step` alone.
    simulation_seconds: f64,
}

/// Where a 3-D run writes its outputs, and how it draws the GIF.
pub struct Outputs<'a> {
    /// The output folder (created if missing).
    pub folder: &'a Path,
    /// At most this many GIF frames; `None` writes no GIF.
    pub gif_frames: Option<usize>,
    /// Width and height of the GIF in pixels.
    pub size: u32,
}

/// Checks the GIF options before a run, which may take minutes, rather than after it.
pub fn check_gif_options(gif_frames: usize, size: u32) -> Result<()> {
    anyhow::ensure!(gif_frames >= 1, "--gif-frames: must be at least 1");
    anyhow::ensure!((16..=4096).contains(&size), "--size: must be between 16 and 4096");
    Ok(())
}

/// Runs the pit and writes `trajectory.csv`, `metrics.json` and `run.gif`.
pub fn run(args: &Pit3dArgs) -> Result<()> {
    anyhow::ensure!((1..=1_000_000).contains(&args.spheres), "--spheres: must be between 1 and 1,000,000");
    anyhow::ensure!((0.001..=0.5).contains(&args.fraction), "--fraction: must be between 0.001 and 0.5");
    anyhow::ensure!((0.0..=1.0).contains(&args.restitution), "--restitution: must be between 0 and 1");
    anyhow::ensure!(args.gravity.is_finite() && args.gravity >= 0.0, "--gravity: must be 0 or more");
    anyhow::ensure!(args.friction.is_finite() && args.friction >= 0.0, "--friction: must be 0 or more");
    anyhow::ensure!(
        args.rolling_resistance.is_finite() && args.rolling_resistance >= 0.0,
        "--rolling-resistance: must be 0 or more"
    );
    anyhow::ensure!(args.steps >= 1, "--steps: must be at least 1");
    let gif_frames = args.gif.frames()?;
    let kind: BroadPhaseKind = args.broad_phase.parse().context("--broad-phase")?;

    let (mut scene, mesh) = if args.hourglass {
        let (scene, mesh) = hourglass(args.spheres, args.fraction, args.seed);
        (scene, Some(mesh))
    } else if args.mixed {
        (mixed_pit(args.spheres, args.fraction, args.seed), None)
    } else {
        (sphere_pit(args.spheres, args.fraction, args.seed), None)
    };
    for s in &mut scene.spheres {
        (s.restitution, s.friction, s.rolling_resistance) = (args.restitution, args.friction, args.rolling_resistance);
    }
    let mut world = scene.world(kind)?;
    if let Some(mesh) = &mesh {
        world.add_mesh(&mesh.vertices, &mesh.triangles)?;
    }
    world.set_gravity(Vec3::new(0.0, 0.0, -args.gravity))?;
    world.set_substeps(args.substeps).context("--substeps")?;
    let outputs = Outputs { folder: &args.out, gif_frames, size: args.gif.size };
    play("pit3d", &mut world, scene.dt, args.steps, &outputs)
}

/// Steps `world` `steps` times by `dt`, writes `trajectory.csv` (`frame,id,x,y,z,vx,vy,vz`),
/// `metrics.json`, `scene.json` (what `swerve render` draws again) and (unless told not to) an
/// orbiting `run.gif` with the walls and triangles drawn, and prints a summary under `label`. Shared by `swerve pit3d` and `swerve run` on a
/// 3-D scenario.
pub fn play(label: &str, world: &mut World, dt: f32, steps: usize, outputs: &Outputs) -> Result<()> {
    let folder = outputs.folder;
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    // Each sphere at its id's place, as in `trajectory.csv` and the scene's bodies.
    let positions = |w: &World| by_id(w, |s| s.position, Vec3::NAN);
    // Taken before the first step: the camera frames the scene as it starts, and the spheres
    // are coloured by where they start in it. The walls' edges and the triangles' are drawn.
    let view = view_box(world);
    let (centre, half) = ((view.min + view.max) * 0.5, (view.max - view.min) * 0.5);
    let mut scene = Scene3d::new(label, dt, centre, 3.2 * half.length());
    let look = |s: &Sphere| Body3d { radius: s.radius, colour: start_colour((s.position - centre) / half) };
    scene.bodies = by_id(world, look, Body3d { radius: 0.0, colour: [0; 3] });
    let walls = world.bounds().map_or_else(Vec::new, |b| box_edges(b.min, b.max));
    let sides = world.triangles().iter().flat_map(|t| [(t.a, t.b), (t.b, t.c), (t.c, t.a)]);
    scene.edges = walls.into_iter().chain(sides).map(Edge3d::lasting).collect();

    let started = Instant::now();
    let mut frames = FrameKeeper::new(outputs.gif_frames.unwrap_or(0));
    frames.offer(0, &positions(world));
    let path = folder.join("trajectory.csv");
    let mut trajectory =
        BufWriter::new(std::fs::File::create(&path).with_context(|| format!("cannot create {}", path.display()))?);
    writeln!(trajectory, "frame,id,x,y,z,vx,vy,vz")?;
    write_frame(&mut trajectory, 0, world)?;
    let (e0, p0) = (world.kinetic_energy(), world.momentum());
    let (mut contacts, mut toi, mut deepest) = (0, 0, 0.0f32);
    let mut overlaps = OverlapMeter::new();
    let mut simulation = Duration::ZERO;
    for step in 1..=steps {
        let step_started = Instant::now();
        world.step(dt);
        simulation += step_started.elapsed();
        let stats = world.last_step_stats();
        contacts += stats.contacts;
        toi += stats.time_of_impact_events;
        deepest = deepest.max(overlaps.deepest(world));
        write_frame(&mut trajectory, step, world)?;
        frames.offer(step, &positions(world));
    }
    trajectory.flush()?;
    frames.finish(steps, &positions(world));

    let (e1, p1) = (world.kinetic_energy(), world.momentum());
    let kind = world.broad_phase();
    let metrics = Metrics {
        spheres: world.num_spheres(),
        triangles: world.triangles().len(),
        steps,
        broad_phase: kind.to_string(),
        simulated_time: steps as f32 * dt,
        kinetic_energy_start: e0,
        kinetic_energy_end: e1,
        kinetic_energy_change: if e0 > 0.0 { (e1 - e0) / e0 } else { 0.0 },
        momentum_start: p0.to_array(),
        momentum_end: p1.to_array(),
        contacts,
        time_of_impact_events: toi,
        deepest_overlap: deepest,
        simulation_seconds: simulation.as_secs_f64(),
    };
    let path = folder.join("metrics.json");
    let mut f = std::fs::File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
    serde_json::to_writer_pretty(&mut f, &metrics).context("writing metrics.json")?;
    writeln!(f)?;
    scene.write(folder)?;
    let mut files = vec!["trajectory.csv", "metrics.json", "scene.json"];
    if let Some(gif_frames) = outputs.gif_frames {
        write_gif(&folder.join("run.gif"), &frames.kept, steps, &scene, gif_frames, outputs.size)?;
        files.push("run.gif");
    }

    println!(
        "{label}: {} spheres, {} steps ({:.2} s simulated, {kind}) in {:.2} s ({:.3} ms a step)",
        metrics.spheres,
        steps,
        metrics.simulated_time,
        started.elapsed().as_secs_f64(),
        1e3 * metrics.simulation_seconds / steps.max(1) as f64
    );
    println!(
        "  contacts {contacts} ({toi} by time of impact); kinetic energy {e0:.6e} → {e1:.6e} J ({:+.3e}); deepest overlap {:.2e} of a radius",
        metrics.kinetic_energy_change, deepest
    );
    println!("  wrote {}/{{{}}}", folder.display(), files.join(", "));
    Ok(())
}

/// The box the camera frames and the colours span: the walls, or without walls the smallest
/// box around the spheres and triangles.
fn view_box(world: &World) -> Aabb3 {
    if let Some(bounds) = world.bounds() {
        return bounds;
    }
    let spheres = world.spheres().iter().map(|s| Aabb3::around_sphere(s.position, s.radius));
    let triangles = world.triangles().iter().map(|t| t.bounding_box());
    let empty = Aabb3 { min: Vec3::splat(f32::INFINITY), max: Vec3::splat(f32::NEG_INFINITY) };
    let extent = spheres.chain(triangles).fold(empty, |a, b| Aabb3 { min: a.min.min(b.min), max: a.max.max(b.max) });
    // A world of spheres has a box of positive size (radii are > 0); without any, a unit cube.
    if extent.min.cmple(extent.max).all() {
        extent
    } else {
        Aabb3 { min: Vec3::ZERO, max: Vec3::ONE }
    }
}

/// The deepest overlap of any pair after a step, as a fraction of the pair's smaller radius:
/// the pairs whose boxes overlap come from a uniform grid (a sweep along one axis collects
/// `N^(5/3)` candidates in a cube, and took 83 % of a 100,000-sphere run).
struct OverlapMeter {
    grid: Box<dyn BroadPhase>,
    boxes: Vec<Aabb3>,
    pairs: Vec<(u32, u32)>,
}

impl OverlapMeter {
    fn new() -> OverlapMeter {
        OverlapMeter { grid: BroadPhaseKind::UniformGrid.create(), boxes: Vec::new(), pairs: Vec::new() }
    }

    fn deepest(&mut self, world: &World) -> f32 {
        let spheres = world.spheres();
        self.boxes.clear();
        self.boxes.extend(spheres.iter().map(|s| Aabb3::around_sphere(s.position, s.radius)));
        self.pairs.clear();
        self.grid.find_pairs(&self.boxes, &mut self.pairs);
        let depth = |&(i, j): &(u32, u32)| {
            let (a, b) = (&spheres[i as usize], &spheres[j as usize]);
            (a.radius + b.radius - a.position.distance(b.position)) / a.radius.min(b.radius)
        };
        self.pairs.iter().map(depth).fold(0.0, f32::max)
    }
}

/// `what` of every sphere at its id's place (`missing` where no sphere has the id).
fn by_id<T: Clone>(world: &World, what: impl Fn(&Sphere) -> T, missing: T) -> Vec<T> {
    let slots = world.sphere_ids().iter().map(|id| id.0 as usize + 1).max().unwrap_or(0);
    let mut values = vec![missing; slots];
    for (id, s) in world.sphere_ids().iter().zip(world.spheres()) {
        values[id.0 as usize] = what(s);
    }
    values
}

fn write_frame(out: &mut impl Write, frame: usize, world: &World) -> Result<()> {
    for (id, s) in world.sphere_ids().iter().zip(world.spheres()) {
        let (p, v) = (s.position, s.velocity);
        writeln!(out, "{frame},{},{},{},{},{},{},{}", id.0, p.x, p.y, p.z, v.x, v.y, v.z)?;
    }
    Ok(())
}
