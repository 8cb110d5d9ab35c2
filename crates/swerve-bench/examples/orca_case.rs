//! Times one ORCA scene in a fresh process and prints one JSON line (median and min ms per
//! step, peak memory, every timed step, and a hash of the final positions), so that peak
//! memory belongs to that scene alone.
//!
//! `cargo run --release -p swerve-bench --example orca_case -- jgrid 100000 2`
//!
//! With `--rvo2 BINARY` first, the same scene runs in the RVO2 -O3 peer built by
//! `scripts/build-rvo2-peer` instead (its own process; peak memory is not reported), so that
//! the two print the same line and their final positions can be compared. With
//! `--instructions baseline` (or `avx2`) first, swerve's hot loops run with that instruction
//! set instead of the best the CPU has (`swerve::InstructionSet`), so that one binary can be
//! timed both ways.

use swerve::InstructionSet;
use swerve_bench::orca::{peak_memory_bytes, summarise, time_rvo2, time_swerve_steps_with, Scene};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rvo2 = None;
    let mut instructions = InstructionSet::best_supported();
    while args.len() > 1 && args[0].starts_with("--") {
        let value = args.remove(1);
        match args.remove(0).as_str() {
            "--rvo2" => rvo2 = Some(std::path::PathBuf::from(value)),
            "--instructions" => {
                instructions = InstructionSet::by_name(&value).unwrap_or_else(|| {
                    eprintln!("error: unknown instruction set {value:?} (expected baseline or avx2)");
                    std::process::exit(2)
                })
            }
            option => {
                eprintln!("error: unknown option {option}");
                std::process::exit(2)
            }
        }
    }
    if args.len() != 3 {
        eprintln!(
            "usage: orca_case [--rvo2 BINARY] [--instructions baseline|avx2] FAMILY N THREADS   (FAMILY: jgrid, circle, blocks; with -recorded: decisions kept; with -shuffled: agents added in random order)"
        );
        std::process::exit(2);
    }
    let n: usize = args[1].parse().unwrap_or_else(|_| {
        eprintln!("error: N must be a whole number, got {:?}", args[1]);
        std::process::exit(2)
    });
    let threads: usize = args[2].parse().unwrap_or_else(|_| {
        eprintln!("error: THREADS must be a whole number, got {:?}", args[2]);
        std::process::exit(2)
    });
    let Some(scene) = Scene::by_name(&args[0], n) else {
        eprintln!("error: unknown scene family {:?}", args[0]);
        std::process::exit(2)
    };
    let run = match &rvo2 {
        Some(binary) => time_rvo2(&scene, binary, threads),
        None => time_swerve_steps_with(&scene, threads, instructions).map_err(|e| e.to_string()),
    };
    match run {
        Ok(run) => {
            let steps: Vec<String> = run.steps_ms.iter().map(|ms| format!("{ms:.3}")).collect();
            let t = summarise(&mut run.steps_ms.clone());
            let peak = if rvo2.is_some() { 0 } else { peak_memory_bytes().unwrap_or(0) };
            println!(
                "{{\"scene\":\"{}\",\"runner\":\"{}\",\"instructions\":\"{}\",\"threads\":{threads},\"median_ms\":{:.3},\"min_ms\":{:.3},\"peak_bytes\":{peak},\"steps_ms\":[{}],\"positions_fnv1a\":\"{:016x}\"}}",
                scene.name,
                if rvo2.is_some() { "rvo2-O3" } else { "swerve" },
                if rvo2.is_some() { "-" } else { instructions.name() },
                t.median_ms,
                t.min_ms,
                steps.join(","),
                run.positions_fnv1a
            )
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    }
}
