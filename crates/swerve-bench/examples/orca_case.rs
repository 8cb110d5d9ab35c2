//! Times one ORCA scene in a fresh process and prints one JSON line (median and min ms per
//! step, peak memory), so that peak memory belongs to that scene alone.
//!
//! `cargo run --release -p swerve-bench --example orca_case -- jgrid 100000 2`

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!(
            "usage: orca_case FAMILY N THREADS   (FAMILY: jgrid, circle, blocks; with -recorded: decisions kept; with -shuffled: agents added in random order)"
        );
        std::process::exit(2);
    }
    let n: usize = args[2].parse().unwrap_or_else(|_| {
        eprintln!("error: N must be a whole number, got {:?}", args[2]);
        std::process::exit(2)
    });
    let threads: usize = args[3].parse().unwrap_or_else(|_| {
        eprintln!("error: THREADS must be a whole number, got {:?}", args[3]);
        std::process::exit(2)
    });
    let Some(scene) = swerve_bench::orca::Scene::by_name(&args[1], n) else {
        eprintln!("error: unknown scene family {:?}", args[1]);
        std::process::exit(2)
    };
    match swerve_bench::orca::time_swerve_steps(&scene, threads) {
        Ok(mut steps_ms) => {
            let steps: Vec<String> = steps_ms.iter().map(|ms| format!("{ms:.3}")).collect();
            let t = swerve_bench::orca::summarise(&mut steps_ms);
            println!(
                "{{\"scene\":\"{}\",\"threads\":{threads},\"median_ms\":{:.3},\"min_ms\":{:.3},\"peak_bytes\":{},\"steps_ms\":[{}]}}",
                scene.name,
                t.median_ms,
                t.min_ms,
                swerve_bench::orca::peak_memory_bytes().unwrap_or(0),
                steps.join(",")
            )
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    }
}
