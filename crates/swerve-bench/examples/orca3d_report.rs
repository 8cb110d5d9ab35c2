//! The 3-D ORCA performance table: `swerve::orca3d` on 1 and 2 threads (each in a fresh
//! process, for its peak memory) against RVO2-3D through the `rvo23d` module of the PyPI
//! package jt-pyrvo23d (single-threaded: the wheel is built without OpenMP), on the same
//! scenes in the same run, with a check that every final position equals RVO2-3D's bit for
//! bit. Prints Markdown. The scenes, the timing, the peer and the table are
//! `swerve_bench::orca3d`'s (`swerve bench orca3d` prints the same table, running swerve in
//! its own process, without the peak memory); this program adds the fresh processes.
//!
//! The wheel's RVO2-3D is compiled without optimisation (its machine code keeps every value
//! on the stack and calls even `RVO::sqr` and `std::vector::operator[]` out of line), so the
//! RVO2-3D column measures that build, not RVO2-3D built with -O2/-O3.
//!
//! `cargo build --release -p swerve-bench --example orca3d_report &&
//! target/release/examples/orca3d_report --python .venv/bin/python` (`--quick` for
//! N ≤ 10,000 only).
//!
//! Scenes: `sphere N` and `cube N` ([`Scene3`]), RVO2-3D's Sphere parameters, time step
//! 0.125 s. Timing as the 2-D report: 5 warm-up steps, then the median of 20 steps; only
//! `step()` / `doStep()` is timed. One million agents runs for swerve only, and only if the
//! family's 100,000 took under 200 ms per step on one thread (so a million should take under
//! about 2 s). `--case FAMILY N THREADS OUT` is the child mode: it times swerve on one case,
//! writes the final positions to OUT and prints `median_ms min_ms peak_bytes mean_neighbours`.

use std::path::{Path, PathBuf};
use std::process::Command;
use swerve_bench::orca::{StepTiming, TIMED_STEPS, WARMUP_STEPS};
use swerve_bench::orca3d::{
    positions_from_bytes, positions_to_bytes, render_markdown, run, time_swerve_steps, Scene3, SwerveRun, TIME_STEP,
};

/// Child mode: times swerve on one case and writes its final positions to `out`.
fn run_case(family: &str, n: usize, threads: usize, out: &Path) {
    let scene = Scene3::by_name(family, n).expect("known scene family");
    let run = time_swerve_steps(&scene, threads).expect("valid scene");
    std::fs::write(out, positions_to_bytes(&run.final_positions)).expect("final positions written");
    println!("{} {} {} {}", run.timing.median_ms, run.timing.min_ms, run.peak_bytes.unwrap_or(0), run.mean_neighbours);
}

/// Runs one case in a fresh copy of this program (see `main`) and reads back what it measured.
fn run_child(
    own: &Path,
    dir: &Path,
    copies: &mut Vec<PathBuf>,
    scene: &Scene3,
    threads: usize,
) -> Result<SwerveRun, String> {
    let (family, n) = (scene.family.as_str(), scene.positions.len().to_string());
    // A fresh copy of this program per child, as in the 2-D report: where a cached file's code
    // pages sit moved 2-D steps by up to 20 % on this VM.
    let copy = dir.join(format!("orca3d-report-{family}-{n}-{threads}"));
    std::fs::copy(own, &copy).map_err(|e| format!("cannot copy this program: {e}"))?;
    let out_file = dir.join(format!("swerve-{threads}t.f32"));
    let out = Command::new(&copy)
        .args(["--case", family, &n, &threads.to_string()])
        .arg(&out_file)
        .output()
        .map_err(|e| format!("cannot run the child: {e}"));
    // Kept until the end, so that its pages do not go straight to the next copy.
    copies.push(copy);
    let out = out?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<f64> = text.split_whitespace().filter_map(|f| f.parse().ok()).collect();
    if fields.len() != 4 {
        return Err(format!("unexpected output {text:?}"));
    }
    let bytes = std::fs::read(&out_file).map_err(|e| format!("no final positions: {e}"))?;
    Ok(SwerveRun {
        timing: StepTiming { median_ms: fields[0], min_ms: fields[1] },
        final_positions: positions_from_bytes(&bytes),
        peak_bytes: Some(fields[2] as u64),
        mean_neighbours: fields[3],
    })
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

    let mut copies = Vec::new();
    let report = run(
        sizes,
        python.as_deref(),
        |scene, threads| run_child(&own, &dir, &mut copies, scene, threads),
        |line| eprintln!("{line}"),
    );
    for copy in copies {
        let _ = std::fs::remove_file(copy);
    }
    let _ = std::fs::remove_dir_all(&dir);

    println!("{}", render_markdown(&report.rows));
    for note in report.notes {
        println!("{note}");
    }
    println!(
        "\nTime step {TIME_STEP} s; {WARMUP_STEPS} warm-up steps, median of {TIMED_STEPS}; RVO2-3D is jt-pyrvo23d's \
         `rvo23d` (one thread), timed around `doStep` only. Peak memory: the 2-thread swerve process's VmHWM."
    );
    println!("Command: {}", std::env::args().collect::<Vec<_>>().join(" "));
}
