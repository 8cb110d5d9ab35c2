//! `swerve run`: play a scenario, write its trajectory, metrics and GIF, print a summary.

use crate::render::{self, RenderOptions, Tracks};
use crate::{crowd3d, pit3d};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use swerve::scenario::trajectory::{SceneInfo, Trajectory};
use swerve::scenario::{AnyScenario, Crowd3dScenario, Runner, SphereScenario};

/// Arguments of `swerve run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// A scenario file (TOML, or JSON by extension) or a built-in name (`swerve list`).
    scenario: String,
    /// Step limit (replaces the scenario's `steps`).
    #[arg(long)]
    steps: Option<usize>,
    /// Output folder (default `out/NAME`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads for the simulation (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// At most this many frames in the GIF, evenly spaced, always the last (at least 1; with
    /// 1, only the last frame).
    #[arg(long, default_value_t = 150)]
    gif_frames: usize,
    /// Width and height of the GIF's longer side in pixels.
    #[arg(long, default_value_t = 480)]
    size: u32,
    /// Skip the GIF.
    #[arg(long)]
    no_gif: bool,
}

fn create(path: &Path) -> Result<BufWriter<File>> {
    Ok(BufWriter::new(File::create(path).with_context(|| format!("cannot create {}", path.display()))?))
}

/// Runs the scenario to its end, writes every output file and prints the summary (a 3-D ball
/// scenario: what `swerve pit3d` writes and prints; a 3-D crowd: what [`crowd3d::play`] does).
pub fn run(args: &RunArgs) -> Result<()> {
    if let Some(threads) = args.threads {
        anyhow::ensure!(threads >= 1, "--threads: must be at least 1");
        rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().context("--threads")?;
    }
    // Before the simulation, which may take minutes, rather than after it.
    if !args.no_gif {
        render::check_max_frames("--gif-frames", args.gif_frames)?;
    }
    let scenario = match crate::load_any_scenario(&args.scenario)? {
        AnyScenario::Plane(scenario) => scenario,
        AnyScenario::Spheres(scenario) => return run_spheres(args, &scenario),
        AnyScenario::Crowd3d(scenario) => return run_crowd3d(args, &scenario),
    };
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("out").join(&scenario.name));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut runner = Runner::new(&scenario).with_context(|| scenario.name.clone())?;
    if let Some(steps) = args.steps {
        anyhow::ensure!(steps >= 1, "--steps: must be at least 1");
        runner.set_max_steps(steps);
    }

    let progress = progress_bar(&scenario.name, runner.max_steps());

    let started = Instant::now();
    let mut tracks =
        Tracks { agents: Trajectory::default(), balls: Trajectory::default(), movers: Trajectory::default() };
    let record = |runner: &Runner, tracks: &mut Tracks| {
        let frame = runner.steps_done() as u32;
        let sim = runner.simulator();
        tracks.agents.record(frame, sim.agent_ids().iter().map(|id| id.0), sim.positions(), sim.velocities());
        if let Some(world) = runner.world() {
            let positions: Vec<_> = world.balls().iter().map(|b| b.position).collect();
            let velocities: Vec<_> = world.balls().iter().map(|b| b.velocity).collect();
            tracks.balls.record(frame, 0..positions.len() as u32, &positions, &velocities);
        }
        if runner.movers().len() > 0 {
            let (positions, velocities): (Vec<_>, Vec<_>) = runner.movers().map(|m| (m.position, m.velocity)).unzip();
            tracks.movers.record(frame, 0..positions.len() as u32, &positions, &velocities);
        }
    };
    record(&runner, &mut tracks);
    while !runner.is_finished() {
        runner.step();
        record(&runner, &mut tracks);
        progress.inc(1);
    }
    progress.finish_and_clear();
    let simulated = started.elapsed();

    let metrics = runner.metrics();
    let scene = SceneInfo::of_runner(&runner, scenario.time_step);
    let written = |name: &str| out.join(name);
    tracks.agents.write_csv(create(&written("trajectory.csv"))?).context("writing trajectory.csv")?;
    tracks
        .agents
        .write_pedpy(create(&written("trajectory.txt"))?, &scenario.name, 1.0 / scenario.time_step)
        .context("writing trajectory.txt")?;
    if runner.world().is_some() {
        tracks.balls.write_csv(create(&written("balls.csv"))?).context("writing balls.csv")?;
    }
    if runner.movers().len() > 0 {
        tracks.movers.write_csv(create(&written("movers.csv"))?).context("writing movers.csv")?;
    }
    let mut f = create(&written("metrics.json"))?;
    serde_json::to_writer_pretty(&mut f, &metrics).context("writing metrics.json")?;
    writeln!(f)?;
    let mut f = create(&written("scene.json"))?;
    serde_json::to_writer_pretty(&mut f, &scene).context("writing scene.json")?;
    writeln!(f)?;
    f.flush()?;
    let mut files = vec!["trajectory.csv", "trajectory.txt", "metrics.json", "scene.json"];
    if runner.world().is_some() {
        files.push("balls.csv");
    }
    if runner.movers().len() > 0 {
        files.push("movers.csv");
    }
    if !args.no_gif {
        let options = RenderOptions { max_frames: args.gif_frames, size: args.size };
        render::write_gif(&written("run.gif"), &scene, &tracks, &options)?;
        files.push("run.gif");
    }

    println!(
        "{}: {} agents, {} balls, {} steps ({:.2} s simulated) in {:.2} s",
        scenario.name,
        metrics.agents,
        metrics.balls.as_ref().map_or(0, |b| b.count),
        metrics.steps,
        metrics.simulated_time,
        simulated.as_secs_f64()
    );
    if metrics.agents > 0 {
        println!(
            "  arrived {}/{} (never {}); time to goal mean {} s, max {} s",
            metrics.arrived,
            metrics.agents,
            metrics.never_arrived,
            fmt_opt(metrics.time_to_goal_mean, 2),
            fmt_opt(metrics.time_to_goal_max, 2)
        );
        println!(
            "  overlaps: agent-agent {} (deepest {:.4} m), agent-obstacle {} (deepest {:.4} m); min separation {} m",
            metrics.agent_overlaps,
            metrics.max_agent_penetration,
            metrics.obstacle_overlaps,
            metrics.max_obstacle_penetration,
            fmt_opt(metrics.min_separation, 4)
        );
        if metrics.min_mover_clearance.is_some() {
            println!(
                "  movers: closest agent surface {} m from a mover's; agent-mover overlaps {}",
                fmt_opt(metrics.min_mover_clearance, 4),
                metrics.mover_overlaps
            );
        }
        println!(
            "  path-length ratio mean {} (max {}); mean speed {} m/s",
            fmt_opt(metrics.path_length_ratio_mean, 3),
            fmt_opt(metrics.path_length_ratio_max, 3),
            fmt_opt(metrics.mean_speed, 3)
        );
    }
    if let Some(b) = &metrics.balls {
        println!(
            "  balls: kinetic energy {:.3} J -> {:.3} J (max relative change {:.2e}); overlaps {} (deepest {:.4} m)",
            b.kinetic_energy_initial,
            b.kinetic_energy_final,
            b.kinetic_energy_max_relative_change,
            b.overlaps,
            b.max_penetration
        );
        if metrics.agents > 0 {
            println!("  agent-ball overlaps {} (deepest {:.4} m)", b.agent_overlaps, b.max_agent_penetration);
        }
    }
    println!("  wrote {}/{{{}}}", out.display(), files.join(", "));
    Ok(())
}

/// A bar on stderr counting `steps` steps of the run called `name`; hidden when stderr is not
/// a terminal (a log file, a test).
pub(crate) fn progress_bar(name: &str, steps: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(steps as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} steps ({elapsed} elapsed, at most {eta} left)")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(name.to_string());
    bar
}

/// `swerve run` on a 3-D ball scenario: the world stepped and written as `swerve pit3d` does.
fn run_spheres(args: &RunArgs, scenario: &SphereScenario) -> Result<()> {
    if !args.no_gif {
        pit3d::check_gif_options(args.gif_frames, args.size)?;
    }
    let steps = args.steps.unwrap_or(scenario.steps);
    anyhow::ensure!(steps >= 1, "--steps: must be at least 1");
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("out").join(&scenario.name));
    let mut world = scenario.world().with_context(|| scenario.name.clone())?;
    let outputs =
        pit3d::Outputs { folder: &out, gif_frames: (!args.no_gif).then_some(args.gif_frames), size: args.size };
    pit3d::play(&scenario.name, &mut world, scenario.time_step, steps, &outputs)
}

/// `swerve run` on a 3-D crowd scenario: the runner played and written by [`crowd3d::play`].
fn run_crowd3d(args: &RunArgs, scenario: &Crowd3dScenario) -> Result<()> {
    if !args.no_gif {
        pit3d::check_gif_options(args.gif_frames, args.size)?;
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("out").join(&scenario.name));
    let outputs =
        pit3d::Outputs { folder: &out, gif_frames: (!args.no_gif).then_some(args.gif_frames), size: args.size };
    crowd3d::play(scenario, args.steps, &outputs)
}

/// `value` with `decimals` decimals, or `-` for `None`.
pub(crate) fn fmt_opt(value: Option<f32>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.decimals$}"))
}
