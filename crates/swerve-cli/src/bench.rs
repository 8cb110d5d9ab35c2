//! `swerve bench orca|balls|orca3d|balls3d`: the benchmark tables of BENCHMARKS.md, from the
//! command line.
//!
//! The full reports with the Rust peers (dodgy_2d, rapier2d, rapier3d, which are
//! dev-dependencies of the bench crate only) are `cargo run --release -p swerve-bench --example
//! orca_report`, `--example balls_report` and `--example balls3d_report`; this command runs
//! swerve itself, RVO2 through pyrvo when a Python with pyrvo installed is given, RVO2 built
//! with -O3 when the binary of `scripts/build-rvo2-peer` is given, and RVO2-3D through
//! jt-pyrvo23d when a Python with its `rvo23d` module is given.

use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};
use swerve_bench::orca::{
    add_rvo2_runs, render_markdown, summarise, time_pyrvo, time_rvo2, time_swerve_steps, Row, Scene, TIMED_STEPS,
    WARMUP_STEPS,
};
use swerve_bench::{balls3d, orca3d};

/// What to benchmark.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// ORCA crowds: jgrid (also with agents added in random order), circle, blocks and city
    /// scenes on 1 and 2 threads.
    Orca,
    /// Ball physics: every broad phase on the seed 003 scene and the ball pit.
    Balls,
    /// ORCA in three dimensions: the sphere and cube crowds on 1 and 2 threads.
    #[value(name = "orca3d")]
    Orca3d,
    /// Ball physics in three dimensions: every broad phase on the sphere pit and the mixed
    /// pit.
    #[value(name = "balls3d")]
    Balls3d,
}

impl Suite {
    /// The name on the command line.
    fn name(self) -> &'static str {
        match self {
            Suite::Orca => "orca",
            Suite::Balls => "balls",
            Suite::Orca3d => "orca3d",
            Suite::Balls3d => "balls3d",
        }
    }
}

/// Arguments of `swerve bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Which suite.
    suite: Suite,
    /// Small sizes only (a minute instead of many).
    #[arg(long)]
    quick: bool,
    /// A Python to time the ORCA suites' peer on the same scenes: with `pyrvo` installed for
    /// orca (RVO2), with `rvo23d` of jt-pyrvo23d for orca3d (RVO2-3D, whose final positions
    /// must equal swerve's bit for bit).
    #[arg(long)]
    python: Option<PathBuf>,
    /// orca only: the RVO2 -O3 peer built by `scripts/build-rvo2-peer`
    /// (`target/rvo2-peer/rvo2_step`), to time RVO2 itself on 1 and 2 threads and check that
    /// its final positions equal swerve's.
    #[arg(long)]
    rvo2: Option<PathBuf>,
}

/// Runs the suite and prints its Markdown table.
pub fn bench(args: &BenchArgs) -> Result<()> {
    refuse_flags_that_do_not_apply(args)?;
    match args.suite {
        Suite::Orca => orca(args),
        Suite::Orca3d => orca3d(args),
        Suite::Balls3d => balls3d(args),
        Suite::Balls => {
            let mut config = swerve_bench::balls::Config::default();
            if args.quick {
                config.seed_sizes = vec![100, 400];
                config.pit_sizes = vec![1_600, 10_000];
                config.min_seconds = 0.2;
            }
            let rows = swerve_bench::balls::run_with_progress(&config, |row| eprintln!("{}", row.progress_line()));
            println!("{}", swerve_bench::balls::render_markdown(&rows));
            Ok(())
        }
    }
}

/// A peer flag given to a suite without that peer is an error, not silently ignored (a user
/// who asked for a comparison would otherwise wait through a table without it).
fn refuse_flags_that_do_not_apply(args: &BenchArgs) -> Result<()> {
    let suite = args.suite.name();
    if args.rvo2.is_some() && args.suite != Suite::Orca {
        let why = match args.suite {
            Suite::Orca3d => "RVO2 2.0.3 is planar; orca3d times RVO2-3D with --python",
            _ => "the ball suites have no RVO2 peer",
        };
        bail!("--rvo2 applies to `swerve bench orca` only, not {suite} ({why})");
    }
    if args.python.is_some() && matches!(args.suite, Suite::Balls | Suite::Balls3d) {
        bail!("--python applies to `swerve bench orca` and `orca3d` only, not {suite} (the ball suites have no Python peer)");
    }
    Ok(())
}

fn orca(args: &BenchArgs) -> Result<()> {
    let cases: &[(&str, usize)] = if args.quick {
        &[
            ("jgrid", 1_000),
            ("jgrid", 10_000),
            ("circle", 1_000),
            ("circle", 10_000),
            ("blocks", 10_000),
            ("city", 10_000),
        ]
    } else {
        &[
            ("jgrid", 1_000),
            ("jgrid", 10_000),
            ("jgrid", 100_000),
            ("jgrid-shuffled", 100_000),
            ("jgrid", 1_000_000),
            ("jgrid-shuffled", 1_000_000),
            ("circle", 1_000),
            ("circle", 10_000),
            ("circle", 100_000),
            ("blocks", 10_000),
            ("blocks", 100_000),
            ("city", 10_000),
            ("city", 100_000),
        ]
    };
    if let Some(python) = &args.python {
        check_peer("--python", python, || time_pyrvo(&Scene::jgrid(16), python).map(drop))?;
    }
    if let Some(binary) = &args.rvo2 {
        check_peer("--rvo2", binary, || time_rvo2(&Scene::jgrid(16), binary, 1).map(drop))?;
    }
    let mut rows = Vec::new();
    for &(family, n) in cases {
        let Some(scene) = Scene::by_name(family, n) else { bail!("unknown scene family {family}") };
        let mut row = Row { scene: scene.name.clone(), agents: n, ..Row::default() };
        let mut hashes = Vec::new();
        for threads in [1, 2] {
            let mut run = time_swerve_steps(&scene, threads)?;
            hashes.push(run.positions_fnv1a);
            let median = Some(summarise(&mut run.steps_ms).median_ms);
            if threads == 1 {
                row.swerve_1t = median;
            } else {
                row.swerve_2t = median;
            }
        }
        // (Not the million added in random order, RVO2's slowest case: at 100,000 a shuffled
        // crowd takes it 2.9-4.1x the in-order one, and the in-order million takes 1.4-1.9 s a
        // step on 1 thread.)
        if let (Some(binary), false) = (&args.rvo2, n > 100_000 && family.ends_with("-shuffled")) {
            add_rvo2_runs(&mut row, &scene, binary, &hashes);
        }
        if let (Some(python), true) = (&args.python, n <= 100_000) {
            match time_pyrvo(&scene, python) {
                Ok(t) => row.pyrvo = Some(t.median_ms),
                Err(e) => eprintln!("{}: {e}", scene.name),
            }
        }
        eprintln!("{}", row.progress_line());
        rows.push(row);
    }
    println!("{}", render_markdown(&rows));
    println!("swerve's hot loops ran with the {} instruction set.", swerve::InstructionSet::best_supported().name());
    Ok(())
}

/// `swerve bench orca3d`: swerve in this process on 1 and 2 threads (the report
/// `examples/orca3d_report.rs` runs each case in a fresh process, for its peak memory), and
/// RVO2-3D through `--python` with the final positions compared bit for bit.
fn orca3d(args: &BenchArgs) -> Result<()> {
    let sizes: &[usize] = if args.quick { &[1_000, 10_000] } else { &[1_000, 10_000, 100_000, 1_000_000] };
    if let Some(python) = &args.python {
        check_peer("--python", python, || orca3d::time_rvo2_3d(&orca3d::Scene3::sphere(16), python).map(drop))?;
    }
    let report = orca3d::run(
        sizes,
        args.python.as_deref(),
        |scene, threads| {
            let mut run = orca3d::time_swerve_steps(scene, threads).map_err(|e| e.to_string())?;
            // This process's peak is every case's so far, not this one's.
            run.peak_bytes = None;
            Ok(run)
        },
        |line| eprintln!("{line}"),
    );
    println!("{}", orca3d::render_markdown(&report.rows));
    for note in &report.notes {
        println!("{note}");
    }
    println!(
        "Time step {} s; {WARMUP_STEPS} warm-up steps, median of {TIMED_STEPS}; RVO2-3D is jt-pyrvo23d's `rvo23d` \
         (one thread), timed around `doStep` only. Peak memory is measured by `examples/orca3d_report`, which runs \
         each case in a fresh process.",
        orca3d::TIME_STEP
    );
    Ok(())
}

/// `swerve bench balls3d`: every broad phase of `swerve::physics3d` on the two pits (rapier3d
/// is in `examples/balls3d_report.rs` only).
fn balls3d(args: &BenchArgs) -> Result<()> {
    let config = if args.quick { balls3d::Config::quick() } else { balls3d::Config::full() };
    let cells = balls3d::run(&config, |_, _| None, |cell| eprintln!("{}", cell.progress_line()));
    println!("{}\n", balls3d::describe(&config.settings));
    print!("{}", balls3d::render_markdown(&config, &cells));
    Ok(())
}

/// Checks a peer before any benchmark runs: `path` must be an executable file, and one run of
/// the peer on a tiny scene (`try_once`) must succeed. A wrong path otherwise printed a
/// failure for every scene, and the command still succeeded.
fn check_peer(flag: &str, path: &Path, try_once: impl FnOnce() -> Result<(), String>) -> Result<()> {
    let shown = path.display();
    let metadata = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => anyhow!("{flag} {shown}: no such file"),
        _ => anyhow!("{flag} {shown}: {e}"),
    })?;
    if metadata.is_dir() {
        bail!("{flag} {shown}: is a directory, not a program");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // No execute bit: `exec` refuses it even for root. Said here more plainly than the
        // peer runner's "cannot run ... Permission denied".
        if metadata.permissions().mode() & 0o111 == 0 {
            bail!("{flag} {shown}: not executable");
        }
    }
    // 16 agents for 25 steps take milliseconds, and show that the program starts and answers
    // as the peer does (a Python without pyrvo, or without rvo23d, fails here).
    try_once().map_err(|e| anyhow!("{flag} {shown}: {}", first_and_last_line(&e)))
}

/// A peer's message on one line: a Python traceback is many lines, whose first says where
/// the failure starts and whose last says what it was.
fn first_and_last_line(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or_default();
    match lines.next_back() {
        Some(last) => format!("{first} … {last}"),
        None => first.to_string(),
    }
}
