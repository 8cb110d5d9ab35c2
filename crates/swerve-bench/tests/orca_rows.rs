//! The ORCA table's progress lines: readable, naming only the runners that ran.

use swerve_bench::orca::Row;

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
}
