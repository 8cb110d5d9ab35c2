//! Runs the whole rigid-ball benchmark — every broad phase on seed 003's scene and the ball
//! pit, and rapier2d on the same pit in the same run — then writes the "Rigid-ball physics"
//! section of BENCHMARKS.md and the plot docs/balls-bench.svg.
//!
//! `cargo run --release -p swerve-bench --example balls_report` (from the workspace root).
//! Options: `--quick` (small sizes, for a smoke run), `--no-write` (print only),
//! `--rapier-max N` (largest pit size for rapier; default 1,000,000).

use std::time::Instant;

use swerve_bench::balls::{best, render_markdown, run_with_progress, time_steps, Config, Row, SceneKind};
use swerve_bench::plot::render_svg;

#[path = "../benches/rapier_pit.rs"]
mod rapier_pit;

const BEGIN: &str = "<!-- balls-bench:begin -->";
const END: &str = "<!-- balls-bench:end -->";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let write = !args.iter().any(|a| a == "--no-write");
    let rapier_max: usize = args
        .iter()
        .position(|a| a == "--rapier-max")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let config = if quick { Config::smoke() } else { Config::default() };
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let started = Instant::now();
    let log = |r: &Row| {
        eprintln!(
            "{:?} {:>20} N={:>8}: {}",
            r.scene,
            r.algorithm,
            r.n,
            r.ms_per_step.map_or(r.note.clone(), |ms| format!(
                "{ms:.4} ms/step wall, {:.4} ms CPU ({} steps)",
                r.cpu_ms_per_step.unwrap_or(f64::NAN),
                r.steps
            ))
        )
    };
    let mut rows = run_with_progress(&config, log);
    for &n in &config.pit_sizes {
        if n > rapier_max {
            let row = Row {
                scene: SceneKind::Pit,
                algorithm: "rapier2d".into(),
                n,
                ms_per_step: None,
                cpu_ms_per_step: None,
                steps: 0,
                note: format!("not run (--rapier-max {rapier_max})"),
            };
            log(&row);
            rows.push(row);
            continue;
        }
        let scene = SceneKind::Pit.scene(n);
        let mut rapier = rapier_pit::RapierPit::new(&scene);
        let e0 = rapier.kinetic_energy();
        let timing = time_steps(
            || rapier.step(),
            config.warmup_steps,
            config.min_steps,
            config.min_seconds,
            config.max_step_seconds * 5.0,
        );
        eprintln!("rapier2d N={n}: kinetic energy {e0:.6e} -> {:.6e}", rapier.kinetic_energy());
        let row = Row {
            scene: SceneKind::Pit,
            algorithm: "rapier2d".into(),
            n,
            ms_per_step: Some(timing.wall.as_secs_f64() * 1e3),
            cpu_ms_per_step: timing.cpu.map(|c| c.as_secs_f64() * 1e3),
            steps: timing.steps,
            note: String::new(),
        };
        log(&row);
        rows.push(row);
    }
    let mut text = String::new();
    text.push_str(&format!(
        "Command: `cargo run --release -p swerve-bench --example balls_report{}` — one thread, wall-clock \
         and thread-CPU time of `World::step` only (no drawing), mean over ≥ {} steps and ≥ {} s per cell after {} warm-up \
         steps; scenes from `swerve::physics::scene` with seed `SCENE_SEED`. Machine: the project's 2-core \
         box, shared with other jobs (load average `{}` before the run, `{}` after), so absolute times carry \
         noise; the rapier2d ratio is measured in the same run. Plot: `docs/balls-bench.svg`.\n\n",
        if quick { " -- --quick" } else { "" },
        config.min_steps,
        config.min_seconds,
        config.warmup_steps,
        load_before.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    ));
    text.push_str(&render_markdown(&rows));
    text.push_str(
        "**rapier2d ÷ best swerve broad phase** (same pit, same run; > 1 means swerve is faster)\n\n\
         | N | best swerve broad phase | swerve wall / CPU ms | rapier2d wall / CPU ms | ratio (wall) | ratio (CPU) |\n\
         |---:|---|---:|---:|---:|---:|\n",
    );
    for &n in &config.pit_sizes {
        let b = best(&rows, SceneKind::Pit, n);
        let r = rows.iter().find(|r| r.scene == SceneKind::Pit && r.n == n && r.algorithm == "rapier2d");
        if let (Some(b), Some(Row { ms_per_step: Some(rms), cpu_ms_per_step: rcpu, .. })) = (b, r) {
            let bms = b.ms_per_step.unwrap_or(f64::NAN);
            let bcpu = b.cpu_ms_per_step.unwrap_or(f64::NAN);
            let rcpu = rcpu.unwrap_or(f64::NAN);
            text.push_str(&format!(
                "| {n} | {} | {bms:.3} / {bcpu:.3} | {rms:.3} / {rcpu:.3} | {:.1}× | {:.1}× |\n",
                b.algorithm,
                rms / bms,
                rcpu / bcpu
            ));
            eprintln!(
                "ratio at N={n}: rapier2d {rms:.3} ms / {} {bms:.4} ms = {:.1}x wall, {:.1}x CPU",
                b.algorithm,
                rms / bms,
                rcpu / bcpu
            );
        }
    }
    text.push('\n');
    if let Some(b) = best(&rows, SceneKind::Seed, 1600) {
        let sps = b.steps_per_second().unwrap_or(0.0);
        let cpu_sps = b.cpu_ms_per_step.map_or(f64::NAN, |c| 1000.0 / c);
        text.push_str(&format!(
            "Seed scene at 1,600 balls: best {} at {sps:.0} steps/s wall-clock ({cpu_sps:.0} by CPU time) = \
             {:.1}× ({:.1}×) the 118 steps/s the issue quotes for the seed report (target ≥ 100×).\n\n",
            b.algorithm,
            sps / 118.0,
            cpu_sps / 118.0
        ));
    }
    text.push_str(&format!("Whole run: {:.0} s.\n", started.elapsed().as_secs_f64()));
    println!("{text}");
    if write {
        let section = format!("{BEGIN}\n{text}{END}");
        let path = "BENCHMARKS.md";
        let old = std::fs::read_to_string(path).unwrap_or_default();
        const HEADING: &str = "## Rigid-ball physics\n";
        let new = match (old.find(BEGIN), old.find(END), old.find(HEADING)) {
            // Re-run: replace the previous figures.
            (Some(a), Some(b), _) if a < b => format!("{}{section}{}", &old[..a], &old[b + END.len()..]),
            // First run: the section's body (up to the next section) becomes the figures.
            (_, _, Some(h)) => {
                let body = h + HEADING.len();
                let end = old[body..].find("\n## ").map_or(old.len(), |e| body + e + 1);
                format!("{}\n{section}\n\n{}", &old[..body], &old[end..])
            }
            _ => format!("{old}{}{HEADING}\n{section}\n", if old.is_empty() { "" } else { "\n" }),
        };
        std::fs::write(path, new).expect("write BENCHMARKS.md");
        std::fs::create_dir_all("docs").expect("create docs/");
        std::fs::write("docs/balls-bench.svg", render_svg(&rows)).expect("write docs/balls-bench.svg");
        eprintln!("wrote BENCHMARKS.md (section between {BEGIN} and {END}) and docs/balls-bench.svg");
    }
}
