//! `swerve run` on a 3-D crowd scenario (a file with a `[crowd3d]` table): the library's
//! [`Crowd3dRunner`] played to its end and written as `swerve sphere` writes RVO2-3D's example
//! — `trajectory.csv`, `metrics.json`, `scene.json` (and `movers.csv`) for `swerve render`, and
//! a GIF seen from a camera circling the scene, with the obstacles' edges and the movers drawn.

use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};
use swerve::orca3d::{Triangle, Vec3};
use swerve::scenario::{Crowd3dMetrics, Crowd3dRunner, Crowd3dScenario, Obstacle3d};

use crate::pit3d::Outputs;
use crate::run::{fmt_opt, progress_bar};
use crate::sphere::{create, write_frame};
use crate::view3d::{box_edges, start_colour, write_gif, Body3d, Edge3d, FrameKeeper, MoverTrack, Scene3d};

/// The colour of a mover in the GIF (movers avoid nothing; the agents avoid them).
const MOVER_COLOUR: [u8; 3] = [150, 150, 150];

/// What `metrics.json` holds: the library's [`Crowd3dMetrics`] (its keys at the top level) and
/// what the file and the run were.
#[derive(Serialize)]
struct Metrics<'a> {
    /// The library's summary of the run (see [`Crowd3dMetrics`]).
    #[serde(flatten)]
    run: Crowd3dMetrics,
    /// The step limit: the file's `steps`, or `--steps`. `steps` is less when the file's
    /// `stop = "all-at-goal"` ended the run first.
    step_limit: usize,
    /// Time step (s).
    time_step: f32,
    /// Group names; the trajectory's agents are numbered in the file's order of entries.
    groups: &'a [String],
    /// `[[crowd3d.box]]` obstacles.
    boxes: usize,
    /// `[[crowd3d.mesh]]` obstacles.
    meshes: usize,
    /// Static triangles of all the obstacles (12 a box).
    triangles: usize,
    /// Obstacles gone by the end of the run (their `remove_at` came).
    obstacles_removed: usize,
    /// `[[crowd3d.mover]]` spheres.
    movers: usize,
    /// Wall-clock seconds spent in [`Crowd3dRunner::step`]: the simulation step and the
    /// runner's own work around it (preferred velocities, movers, removals and the metrics'
    /// separation and clearance checks), not writing files or drawing.
    step_seconds: f64,
}

/// Plays `scenario` to its end (the file's `steps`, or `steps` when given, or sooner by its
/// `stop` rule), writes `trajectory.csv` (`frame,id,x,y,z,vx,vy,vz`, frame 0 the start),
/// `movers.csv` (the same columns) when it has movers, `metrics.json`, `scene.json` and
/// (unless told not to) `run.gif` into `outputs.folder`, and prints a summary.
pub fn play(scenario: &Crowd3dScenario, steps: Option<usize>, outputs: &Outputs) -> Result<()> {
    let mut runner = Crowd3dRunner::new(scenario).with_context(|| scenario.name.clone())?;
    if let Some(steps) = steps {
        anyhow::ensure!(steps >= 1, "--steps: must be at least 1");
        runner.set_max_steps(steps);
    }
    let folder = outputs.folder;
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    // Taken before the first step: the camera frames the scene as it starts.
    let view = View::of(&runner, scenario);

    let started = Instant::now();
    let mut frames = FrameKeeper::new(outputs.gif_frames.unwrap_or(0));
    let mut bodies = Vec::new();
    bodies_of(&runner, &mut bodies);
    frames.offer(0, &bodies);
    let mut trajectory = BufWriter::new(create(&folder.join("trajectory.csv"))?);
    writeln!(trajectory, "frame,id,x,y,z,vx,vy,vz")?;
    write_frame(&mut trajectory, 0, runner.simulator())?;
    let mut mover_track = MoverTrack::create(folder, runner.movers().len() > 0)?;
    mover_track.write(0, runner.movers())?;
    let progress = progress_bar(&scenario.name, runner.max_steps());
    let mut stepping = Duration::ZERO;
    while !runner.is_finished() {
        let step_started = Instant::now();
        runner.step();
        stepping += step_started.elapsed();
        let step = runner.steps_done();
        write_frame(&mut trajectory, step, runner.simulator())?;
        mover_track.write(step, runner.movers())?;
        bodies_of(&runner, &mut bodies);
        frames.offer(step, &bodies);
        progress.inc(1);
    }
    progress.finish_and_clear();
    trajectory.flush().context("writing trajectory.csv")?;
    let with_movers = mover_track.finish()?;
    let steps = runner.steps_done();
    frames.finish(steps, &bodies);

    let obstacles = runner.obstacles();
    let boxes = obstacles.iter().filter(|o| o.solid_box.is_some()).count();
    let metrics = Metrics {
        run: runner.metrics(),
        step_limit: runner.max_steps(),
        time_step: scenario.time_step,
        groups: runner.groups(),
        boxes,
        meshes: obstacles.len() - boxes,
        triangles: obstacles.iter().map(|o| o.triangles.len()).sum(),
        obstacles_removed: (0..obstacles.len()).filter(|&k| !runner.obstacle_present(k)).count(),
        movers: runner.movers().len(),
        step_seconds: stepping.as_secs_f64(),
    };
    let mut f = create(&folder.join("metrics.json"))?;
    serde_json::to_writer_pretty(&mut f, &metrics).context("writing metrics.json")?;
    writeln!(f)?;
    let scene = scene_of(&runner, scenario, &view);
    scene.write(folder)?;
    let mut files = vec!["trajectory.csv", "metrics.json", "scene.json"];
    if with_movers {
        files.push("movers.csv");
    }
    if let Some(gif_frames) = outputs.gif_frames {
        write_gif(&folder.join("run.gif"), &frames.kept, steps, &scene, gif_frames, outputs.size)?;
        files.push("run.gif");
    }

    let m = &metrics.run;
    println!(
        "{} (3-D crowd): {} agents, {}, {}, {}; {steps} steps ({:.2} s simulated) in {:.2} s ({:.2} ms a step)",
        scenario.name,
        m.agents,
        plural(metrics.boxes, "box", "boxes"),
        plural(metrics.meshes, "mesh", "meshes"),
        plural(metrics.movers, "mover", "movers"),
        m.simulated_time,
        started.elapsed().as_secs_f64(),
        1e3 * metrics.step_seconds / steps.max(1) as f64
    );
    println!(
        "  arrived {}/{} (never {}); time to goal mean {} s, max {} s; mean speed {} m/s (max {:.3})",
        m.arrived,
        m.agents,
        m.never_arrived,
        fmt_opt(m.time_to_goal_mean, 2),
        fmt_opt(m.time_to_goal_max, 2),
        fmt_opt(m.mean_speed, 3),
        m.max_speed
    );
    println!(
        "  min separation {} m; obstacle clearance {} m; mover clearance {} m",
        fmt_opt(m.min_separation, 4),
        fmt_opt(m.min_obstacle_clearance, 4),
        fmt_opt(m.min_mover_clearance, 4)
    );
    println!(
        "  overlaps: agent-agent {} (deepest {:.4} m), agent-obstacle {} (deepest {:.4} m), agent-mover {}",
        m.agent_overlaps, m.max_agent_penetration, m.obstacle_overlaps, m.max_obstacle_penetration, m.mover_overlaps
    );
    println!("  wrote {}/{{{}}}", folder.display(), files.join(", "));
    Ok(())
}

/// `1 box`, `4 boxes`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the GIF draws: a place for every agent the run can have, by id (NaN, not drawn,
/// before a spawner adds it and after it leaves at a sink), then the movers.
fn bodies_of(runner: &Crowd3dRunner, bodies: &mut Vec<Vec3>) {
    bodies.clear();
    bodies.resize(runner.max_agents(), Vec3::NAN);
    let sim = runner.simulator();
    for (id, &p) in sim.agent_ids().iter().zip(sim.positions()) {
        bodies[id.0 as usize] = p;
    }
    bodies.extend(runner.movers().map(|m| m.position));
}

/// The sphere the camera frames: about the middle of the agents' starts and goals, the
/// spawners' regions and the obstacles' bounding boxes, reaching the farthest of them.
struct View {
    centre: Vec3,
    /// At least 1 m.
    radius: f32,
}

impl View {
    fn of(runner: &Crowd3dRunner, scenario: &Crowd3dScenario) -> View {
        let corners = |o: &Obstacle3d| {
            let (min, max) = (o.bounds.min, o.bounds.max);
            (0..8).map(move |k| {
                let pick = |bit: usize, lo: f32, hi: f32| if k & bit == 0 { lo } else { hi };
                Vec3::new(pick(1, min.x, max.x), pick(2, min.y, max.y), pick(4, min.z, max.z))
            })
        };
        let points: Vec<Vec3> = (runner.simulator().positions().iter().copied())
            .chain(runner.goals())
            .chain(scenario.crowd3d.spawn.iter().flat_map(|s| [Vec3::from(s.min), Vec3::from(s.max)]))
            .chain(runner.obstacles().iter().flat_map(corners))
            .collect();
        let (min, max) =
            points.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        // A scenario has at least one agent, so the box is not empty.
        let centre = (min + max) * 0.5;
        let radius = points.iter().map(|p| p.distance(centre)).fold(1.0, f32::max);
        View { centre, radius }
    }
}

/// What the pictures show, taken after the run (when every spawned agent is known): each
/// agent slot's radius and colour — by group when the file has several groups, else by where
/// it started (as `swerve sphere` colours them) — the movers in grey, and the obstacles'
/// edges (a box's twelve, a mesh's [`mesh_edges`]), each drawn until its obstacle's removal.
fn scene_of(runner: &Crowd3dRunner, scenario: &Crowd3dScenario, view: &View) -> Scene3d {
    let mut scene = Scene3d::new(&scenario.name, scenario.time_step, view.centre, 3.2 * view.radius);
    let by_group = runner.groups().len() > 1;
    scene.bodies = (0..runner.max_agents())
        .map(|k| {
            let id = swerve::AgentId(k as u32);
            // Slots of agents never added are never drawn (no trajectory rows, NaN in frames).
            let colour = match (by_group, runner.group(id), runner.start(id)) {
                (true, Some(g), _) => crate::render::group_color(g),
                (false, _, Some(p)) => start_colour((p - view.centre) / view.radius),
                _ => MOVER_COLOUR,
            };
            Body3d { radius: runner.radius(id).unwrap_or(0.0), colour }
        })
        .collect();
    scene.movers = runner.movers().map(|m| Body3d { radius: m.radius, colour: MOVER_COLOUR }).collect();
    for o in runner.obstacles() {
        let edges = match o.solid_box {
            Some(b) => box_edges(b.min, b.max),
            None => mesh_edges(&o.triangles),
        };
        let gone = o.removal_step(scenario.time_step);
        scene.edges.extend(edges.into_iter().map(|e| Edge3d { gone, ..Edge3d::lasting(e) }));
    }
    scene
}

/// A mesh's edges worth drawing: each shared edge once, and none between two triangles in one
/// plane (the diagonal of a flat quad), so that a floor of two triangles is its outline.
fn mesh_edges(triangles: &[Triangle]) -> Vec<(Vec3, Vec3)> {
    // Corners by their bits (−0 as +0), the two ends in a fixed order: an edge's key.
    let bits = |p: Vec3| (p + Vec3::ZERO).to_array().map(f32::to_bits);
    let key = |a: Vec3, b: Vec3| if bits(a) <= bits(b) { (bits(a), bits(b)) } else { (bits(b), bits(a)) };
    let mut index = HashMap::new();
    // Each edge once, in the order first met, with the normals of the triangles that have it.
    let mut edges: Vec<((Vec3, Vec3), Vec<Vec3>)> = Vec::new();
    for t in triangles {
        let normal = t.normal().as_vec3();
        for (a, b) in [(t.a, t.b), (t.b, t.c), (t.c, t.a)] {
            let k = *index.entry(key(a, b)).or_insert_with(|| {
                edges.push(((a, b), Vec::new()));
                edges.len() - 1
            });
            edges[k].1.push(normal);
        }
    }
    // Two triangles meeting at an edge lie in one plane when their unit normals are parallel.
    let flat = |n: &[Vec3]| n.len() == 2 && n[0].dot(n[1]).abs() > 1.0 - 1e-6;
    edges.into_iter().filter(|(_, normals)| !flat(normals)).map(|(edge, _)| edge).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> Triangle {
        Triangle::new(Vec3::from(a), Vec3::from(b), Vec3::from(c)).unwrap()
    }

    #[test]
    fn a_flat_quad_is_drawn_as_its_outline() {
        let (a, b, c, d) = ([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [4.0, 3.0, 0.0], [0.0, 3.0, 0.0]);
        // The second triangle wound the other way: both faces are solid, so either winding.
        let edges = mesh_edges(&[triangle(a, b, c), triangle(a, d, c)]);
        assert_eq!(edges.len(), 4, "{edges:?}");
        let diagonal = |&(p, q): &(Vec3, Vec3)| p.distance(q) == 5.0;
        assert!(!edges.iter().any(diagonal), "the diagonal is inside the flat face: {edges:?}");
    }

    #[test]
    fn a_tetrahedron_has_six_edges_each_once() {
        let [o, x, y, z] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let edges = mesh_edges(&[triangle(o, x, y), triangle(o, y, z), triangle(o, z, x), triangle(x, y, z)]);
        assert_eq!(edges.len(), 6, "{edges:?}");
        let along_x = edges.iter().filter(|&&(p, q)| (p - q).abs() == Vec3::X).count();
        assert_eq!(along_x, 1, "{edges:?}");
    }
}
