//! The benchmark runs end to end on tiny sizes and renders a table with every cell.

use swerve_bench::balls::{best, render_markdown, run, Config, SceneKind};
use swerve_bench::plot::render_svg;

#[test]
fn smoke_run_renders_every_cell() {
    let config = Config::smoke();
    let rows = run(&config);
    assert_eq!(rows.len(), config.algorithms.len() * (config.seed_sizes.len() + config.pit_sizes.len()));
    assert!(rows.iter().all(|r| r.ms_per_step.is_some_and(|ms| ms > 0.0) && r.steps >= 2));
    let md = render_markdown(&rows);
    for alg in [
        "brute-force",
        "sort-and-sweep",
        "uniform-grid",
        "hierarchical-grid",
        "grid-sort-and-sweep",
        "quadtree",
        "aabb-tree",
    ] {
        assert_eq!(md.matches(&format!("| {alg} |")).count(), 2, "{alg} missing from\n{md}");
    }
    assert!(md.contains("N = 1600"));
    assert!(best(&rows, SceneKind::Pit, 1600).is_some());
    let svg = render_svg(&rows);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polyline").count(), 14);
}

#[test]
fn slow_algorithms_are_skipped_with_a_reason() {
    let config = Config {
        seed_sizes: vec![],
        pit_sizes: vec![400, 40_000],
        algorithms: vec![swerve::physics::BroadPhaseKind::BruteForce],
        max_step_seconds: 1e-6,
        ..Config::smoke()
    };
    let rows = run(&config);
    assert!(rows[1].ms_per_step.is_none() && rows[1].note.starts_with("skipped"), "{:?}", rows[1]);
    assert!(render_markdown(&rows).contains("skipped: predicted"));
    // Progress lines name the cell and give its time, or why it was skipped.
    let (measured, skipped) = (rows[0].progress_line(), rows[1].progress_line());
    assert!(
        measured.starts_with("ball pit, 400 balls, brute-force: ") && measured.ends_with(" ms per step"),
        "{measured}"
    );
    assert_eq!(skipped, format!("ball pit, 40000 balls, brute-force: {}", rows[1].note));
}
