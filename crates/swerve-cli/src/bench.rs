//! `swerve bench orca|balls`: the benchmark tables of BENCHMARKS.md, from the command line.
//!
//! The full reports with the Rust peers (dodgy_2d, rapier2d, which are dev-dependencies of the
//! bench crate only) are `cargo run --release -p swerve-bench --example orca_report` and
//! `--example balls_report`; this command runs swerve itself, RVO2 through pyrvo when a
//! Python with pyrvo installed is given, and RVO2 built with -O3 when the binary of
//! `scripts/build-rvo2-peer` is given.

use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};
use swerve_bench::orca::{
    add_rvo2_runs, render_markdown, summarise, time_pyrvo, time_rvo2, time_swerve_steps, Row, Scene,
};

/// What to benchmark.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Suite {
    /// ORCA crowds: jgrid (also with agents added in random order), circle and blocks scenes on
    /// 1 and 2 threads.
    Orca,
    /// Ball physics: every broad phase on the seed 003 scene and the ball pit.
    Balls,
}

/// Arguments of `swerve bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Which suite.
    suite: Suite,
    /// Small sizes only (a minute instead of many).
    #[arg(long)]
    quick: bool,
    /// A Python with `pyrvo` installed, to time RVO2 on the same ORCA scenes.
    #[arg(long)]
    python: Option<PathBuf>,
    /// The RVO2 -O3 peer built by `scripts/build-rvo2-peer` (`target/rvo2-peer/rvo2_step`), to
    /// time RVO2 itself on 1 and 2 threads and check that its final positions equal swerve's.
    #[arg(long)]
    rvo2: Option<PathBuf>,
}

/// Runs the suite and prints its Markdown table.
pub fn bench(args: &BenchArgs) -> Result<()> {
    match args.suite {
        Suite::Orca => orca(args),
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

fn orca(args: &BenchArgs) -> Result<()> {
    let cases: &[(&str, usize)] = if args.quick {
        &[("jgrid", 1_000), ("jgrid", 10_000), ("circle", 1_000), ("circle", 10_000), ("blocks", 10_000)]
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
        ]
    };
    if let Some(python) = &args.python {
        check_peer("--python", python, |scene| time_pyrvo(scene, python).map(drop))?;
    }
    if let Some(binary) = &args.rvo2 {
        check_peer("--rvo2", binary, |scene| time_rvo2(scene, binary, 1).map(drop))?;
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

/// Checks a peer before any benchmark runs: `path` must be an executable file, and one run of
/// the peer on a tiny scene must succeed. A wrong path otherwise printed a failure for every
/// scene, and the command still succeeded.
fn check_peer(flag: &str, path: &Path, try_once: impl FnOnce(&Scene) -> Result<(), String>) -> Result<()> {
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
    // as the peer does (a Python without pyrvo fails here).
    try_once(&Scene::jgrid(16)).map_err(|e| anyhow!("{flag} {shown}: {}", first_and_last_line(&e)))
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
