//! The ORCA table's progress lines: readable, naming only the runners that ran.

use swerve_bench::orca::{render_markdown, Row};

#[test]
fn progress_lines_name_the_scene_and_each_runner_that_ran() {
    let mut row = Row { scene: "jgrid 10000".into(), agents: 10_000, swerve_1t: Some(4.5), ..Row::default() };
    assert_eq!(row.progress_line(), "jgrid 10000: swerve 4.50 ms (1 thread), – (2 threads)");
    row.swerve_2t = Some(2.271);
    row.pyrvo = Some(29.94);
    row.dodgy_1t = Some(11.2);
    assert_eq!(
        row.progress_line(),
        "jgrid 10000: swerve 4.50 ms (1 thread), 2.27 ms (2 threads); pyrvo 29.94 ms; dodgy_2d 11.20 ms / –"
    );
    row.rvo2_1t = Some(14.29);
    row.rvo2_2t = Some(7.854);
    row.same_positions_as_rvo2 = Some(true);
    assert_eq!(
        row.progress_line(),
        "jgrid 10000: swerve 4.50 ms (1 thread), 2.27 ms (2 threads); RVO2 -O3 14.29 ms / 7.85 ms; \
         pyrvo 29.94 ms; dodgy_2d 11.20 ms / –"
    );
    // A mismatch with RVO2 is said on the line, not only in the table.
    row.same_positions_as_rvo2 = Some(false);
    assert!(row.progress_line().contains("RVO2 -O3 14.29 ms / 7.85 ms (final positions differ from swerve's)"));
}

/// The table gives RVO2's ratios per thread count and says plainly when positions differ.
#[test]
fn the_table_gives_rvo2_ratios_and_flags_differing_positions() {
    let row = Row {
        scene: "jgrid 100000".into(),
        agents: 100_000,
        swerve_1t: Some(40.0),
        swerve_2t: Some(20.0),
        rvo2_1t: Some(140.0),
        rvo2_2t: Some(90.0),
        same_positions_as_rvo2: Some(false),
        ..Row::default()
    };
    let table = render_markdown(&[row]);
    let line = table.lines().find(|l| l.starts_with("| jgrid 100000")).expect("a row for the scene");
    assert!(line.contains("| 140.00 | 90.00 | 3.5× / 4.5× | **no** |"), "{line}");
}
