//! The 3-D ball benchmark runs end to end on small pits: every broad phase timed (brute force
//! skipped past its limit), a peer's cell beside them, and the tables with a row per engine.

use swerve::physics3d::BroadPhaseKind;
use swerve_bench::balls3d::{best, render_markdown, run, Cell, Config, Pit, Settings, BRUTE_FORCE_MAX};

#[test]
fn a_small_run_times_every_broad_phase_and_renders_every_row() {
    let config = Config {
        pits: vec![(Pit::Spheres, vec![200, BRUTE_FORCE_MAX + 1]), (Pit::Mixed, vec![300])],
        settings: Settings { warmup: 0, min_steps: 1, min_seconds: 0.0 },
        best_k: 2,
    };
    let mut progress = Vec::new();
    let cells = run(
        &config,
        |pit, scene| Some(Cell::skipped(pit, "peer", scene.spheres.len(), "not run (test)".into())),
        |cell| progress.push(cell.progress_line()),
    );
    let phases = BroadPhaseKind::ALL.len();
    assert_eq!(cells.len(), 3 * (phases + 1));
    assert_eq!(progress.len(), cells.len());
    for c in &cells {
        let brute_force_skipped = c.algorithm == "brute-force" && c.n > BRUTE_FORCE_MAX;
        if c.is_swerve() && !brute_force_skipped {
            let (e0, e1, steps) = c.energy.expect("a timed cell has its energies");
            assert!(c.timing.is_some() && steps >= 1, "{}", c.progress_line());
            // The pits are elastic: the step conserves energy.
            assert!(((e1 - e0) / e0).abs() < 1e-9, "{}: {e0} -> {e1}", c.progress_line());
        } else {
            assert!(c.timing.is_none() && !c.note.is_empty(), "{}", c.progress_line());
        }
    }
    assert!(best(&cells, Pit::Spheres, 200).is_some_and(Cell::is_swerve));
    let md = render_markdown(&config, &cells);
    for kind in BroadPhaseKind::ALL {
        // One row in each pit's table.
        assert_eq!(md.matches(&format!("| swerve {kind} |")).count(), 2, "{kind} missing from\n{md}");
    }
    assert_eq!(md.matches("| peer |").count(), 2);
    assert!(md.contains("| N = 200 | N = 10001 |") && md.contains("| N = 300 |"), "{md}");
    assert!(md.contains("skipped: O(n²), run up to 10000 only"), "{md}");
    // The energy check has a row per timed cell.
    let timed = cells.iter().filter(|c| c.timing.is_some()).count();
    assert_eq!(md.lines().filter(|l| l.starts_with("| sphere pit |") || l.starts_with("| mixed pit |")).count(), timed);
}
