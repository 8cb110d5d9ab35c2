//! `swerve`: run scenario files, validate them, render trajectories, replay RVO2 recordings.
//!
//! Every failure ends in one readable line on stderr (`error: FILE:LINE: key: message`) and a
//! non-zero exit code.

mod bench;
mod crowd3d;
mod pit3d;
mod render;
mod render3d;
mod run;
mod serve;
mod sphere;
mod towers;
mod view3d;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use swerve::scenario::{AnyScenario, Format, Navigation, BUILTINS};

/// Many moving discs that must not collide: ORCA crowds and rigid balls.
#[derive(Parser)]
#[command(name = "swerve", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// One variant per subcommand; each holds its own arguments struct, so adding a command is
/// one variant and one match arm.
#[derive(Subcommand)]
enum Command {
    /// Run a scenario (a file, or a built-in name from `swerve list`) and write trajectory,
    /// metrics and an animated GIF.
    Run(run::RunArgs),
    /// Check scenario files and report every problem with its line and key.
    Validate(ValidateArgs),
    /// List the built-in scenarios.
    List,
    /// Render a run's trajectory (a `swerve run` output folder, 2-D or 3-D) to GIF, SVG or PNG frames.
    Render(render::RenderArgs),
    /// Replay an RVO2 reference recording step by step and compare bit for bit.
    Replay(ReplayArgs),
    /// Open a live view of a scenario in the browser (with the ORCA inspector).
    Serve(serve::ServeArgs),
    /// Benchmark ORCA crowds or ball physics and print the table.
    Bench(bench::BenchArgs),
    /// Run RVO2-3D's Sphere example (ORCA in three dimensions) and write trajectory, metrics
    /// and a GIF.
    Sphere(sphere::SphereArgs),
    /// Run the sphere pit (rigid-ball physics in three dimensions) and write trajectory,
    /// metrics and a GIF.
    Pit3d(pit3d::Pit3dArgs),
    /// Fly drones through a field of towers (ORCA in three dimensions with static box
    /// obstacles) and write trajectory, metrics and a GIF.
    Towers(towers::TowersArgs),
}

#[derive(clap::Args)]
struct ValidateArgs {
    /// Scenario files (TOML, or JSON by extension) or built-in names.
    #[arg(required = true)]
    files: Vec<String>,
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// A folder with `scenario.json` and `trajectory.csv[.gz]` recorded from RVO2.
    dir: PathBuf,
}

/// Loads `name`, a scenario of either kind: an existing file, else a built-in scenario.
pub(crate) fn load_any_scenario(name: &str) -> Result<AnyScenario> {
    let path = Path::new(name);
    if path.exists() {
        return Ok(AnyScenario::load(path)?);
    }
    if swerve::scenario::builtin(name).is_some() {
        return Ok(AnyScenario::builtin(name)?);
    }
    let known: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
    bail!("{name}: no such file, and no built-in scenario of that name (built-ins: {})", known.join(", "))
}

fn validate(args: &ValidateArgs) -> Result<bool> {
    let mut all_ok = true;
    for name in &args.files {
        let path = Path::new(name);
        let (text, format) = if path.exists() {
            (std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?, Format::of_path(path))
        } else if let Some(text) = swerve::scenario::builtin(name) {
            (text.to_string(), Format::Toml)
        } else {
            bail!("{name}: no such file, and no built-in scenario of that name");
        };
        match AnyScenario::parse(&text, format) {
            Ok(AnyScenario::Plane(s)) => {
                let population = s.population().map_err(|p| anyhow::anyhow!("{name}: {p}"))?;
                let balls = s.initial_balls().map_err(|p| anyhow::anyhow!("{name}: {p}"))?.len();
                println!(
                    "{name}: ok ({} agents at start, {} spawners, {} obstacles, {balls} balls{})",
                    population.agents.len(),
                    population.spawners.len(),
                    s.obstacles.len(),
                    steering(s.navigation)
                );
            }
            Ok(AnyScenario::Spheres(s)) => {
                let spheres = s.initial_spheres().map_err(|p| anyhow::anyhow!("{name}: {p}"))?.len();
                println!("{name}: ok (3-D: {spheres} spheres at start, {} triangles)", s.triangles().len());
            }
            Ok(AnyScenario::Crowd3d(s)) => {
                let obstacles = s.obstacles().map_err(|p| anyhow::anyhow!("{name}: {p}"))?;
                let agents = s.population(&obstacles).map_err(|p| anyhow::anyhow!("{name}: {p}"))?.agents.len();
                let c = &s.crowd3d;
                println!(
                    "{name}: ok (3-D crowd: {agents} agents at start, {}, {}, {}{})",
                    crowd3d::plural(c.boxes.len(), "box", "boxes"),
                    crowd3d::plural(c.mesh.len(), "mesh", "meshes"),
                    crowd3d::plural(c.mover.len(), "mover", "movers"),
                    steering(s.navigation)
                );
            }
            Err(problems) => {
                all_ok = false;
                for p in &problems {
                    match p.line {
                        Some(line) => print!("{name}:{line}: "),
                        None => print!("{name}: "),
                    }
                    if !p.key.is_empty() {
                        print!("{}: ", p.key);
                    }
                    println!("{}", p.message);
                }
                println!("{name}: {} problem{}", problems.len(), if problems.len() == 1 { "" } else { "s" });
            }
        }
    }
    Ok(all_ok)
}

/// How a valid file's agents steer, for its summary line: nothing for straight at the goal
/// (RVO2's examples), else the rule.
fn steering(navigation: Navigation) -> &'static str {
    match navigation {
        Navigation::Straight => "",
        Navigation::Roadmap => ", steered by a roadmap",
    }
}

fn list() -> Result<()> {
    for b in BUILTINS {
        let s = AnyScenario::builtin(b.name)?;
        println!("{:<11} {}", b.name, s.description());
    }
    Ok(())
}

fn replay(args: &ReplayArgs) -> Result<bool> {
    let run = swerve::reference::ReferenceRun::load(&args.dir)?;
    let report = run.replay()?;
    println!("{report}");
    Ok(report.single_step_identical >= report.steps)
}

/// Makes a write to a closed pipe (`swerve list | head -1`) end the program quietly, as it ends
/// `cat` or `grep`, instead of `println!` panicking on the `BrokenPipe` error.
///
/// The Rust runtime sets SIGPIPE to "ignore" so that such writes return errors; the default
/// action has the kernel end the process on the first one instead, with nothing printed.
#[cfg(unix)]
fn end_quietly_on_broken_pipe() {
    // SAFETY: `signal` with `SIG_DFL` installs no handler code, so nothing runs in signal
    // context; this runs on the main thread before any other thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Elsewhere there is no SIGPIPE: a closed pipe is an error `println!` reports as before.
#[cfg(not(unix))]
fn end_quietly_on_broken_pipe() {}

/// The error as one line: its context chain joined with ": ", and a line number only where
/// there is one.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = match cause.downcast_ref::<swerve::Error>() {
            // Line 0 means "the whole file" (e.g. a row missing from a recording), not a line.
            Some(swerve::Error::Parse { path, line: 0, message }) => format!("{}: {message}", path.display()),
            _ => cause.to_string(),
        };
        // Some errors print their source's message in their own (`cannot read F: {source}`)
        // and also return it as their source; anyhow's chain would repeat it.
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap's message is several lines (usage, hint); keep the house rule of one line.
            let text = e.render().to_string();
            // A bad value of a closed set: clap lists the valid ones on a later line.
            let possible = text.lines().map(str::trim).find_map(|l| l.strip_prefix("[possible values: "));
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut first = lines.next().unwrap_or("invalid arguments").trim_start_matches("error: ").to_string();
            if first.ends_with(':') {
                // "the following required arguments were not provided:" names them below.
                if let Some(what) = lines.next() {
                    first = format!("{first} {what}");
                }
            }
            if let Some(values) = possible {
                first = format!("{first}; possible values: {}", values.trim_end_matches(']'));
            }
            eprintln!("error: {first} (see `swerve --help`)");
            return ExitCode::from(2);
        }
    };
    // Not for the viewer: its server writes to sockets with `writev`, which raises SIGPIPE
    // when a browser has gone; with the default action that would end the server.
    if !matches!(cli.command, Command::Serve(_)) {
        end_quietly_on_broken_pipe();
    }
    let outcome = match &cli.command {
        Command::Run(args) => run::run(args).map(|()| true),
        Command::Validate(args) => validate(args),
        Command::List => list().map(|()| true),
        Command::Render(args) => render::render_command(args).map(|()| true),
        Command::Replay(args) => replay(args),
        Command::Serve(args) => serve::serve(args).map(|()| true),
        Command::Bench(args) => bench::bench(args).map(|()| true),
        Command::Sphere(args) => sphere::run(args).map(|()| true),
        Command::Pit3d(args) => pit3d::run(args).map(|()| true),
        Command::Towers(args) => towers::run(args).map(|()| true),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            ExitCode::FAILURE
        }
    }
}
