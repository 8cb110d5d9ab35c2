//! `include/rvo2`: RVO2's C++ API on swerve. A program written for RVO2 is built against
//! RVO2's own sources and against swerve's stand-in, and both must print the same bytes
//! (every position, velocity, neighbour, ORCA line and obstacle vertex, as float bits).

mod common;

use common::{build, crate_dir, expect_all_checks_pass, Link};
use std::path::PathBuf;
use std::process::Command;

fn cpp_test(name: &str) -> PathBuf {
    crate_dir().join("tests/cpp").join(name)
}

fn run(program: &common::Program) -> String {
    let output = Command::new(&program.path).output().expect("the program runs");
    assert!(output.status.success(), "{} failed:\n{}", program.path.display(), String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn the_stand_in_throws_where_rvo2_would_compute_garbage() {
    let program =
        build("c++", "c++11", &[cpp_test("rvo2_errors.cc")], &crate_dir().join("include/rvo2"), Link::Static, "errors");
    expect_all_checks_pass(&program);
}

/// Needs RVO2 2.0.3's sources: `SWERVE_RVO2_SRC=target/rvo2-peer/src` after
/// `scripts/build-rvo2-peer` (scripts/test does both).
#[test]
#[ignore = "needs RVO2's sources in SWERVE_RVO2_SRC (scripts/build-rvo2-peer)"]
fn a_program_written_for_rvo2_prints_the_same_bytes_with_swerve() {
    let source = PathBuf::from(std::env::var("SWERVE_RVO2_SRC").expect("SWERVE_RVO2_SRC: RVO2's source folder"));
    let source = if source.is_absolute() { source } else { crate_dir().join("../..").join(source) };
    let mut rvo2_sources = vec![cpp_test("rvo2_api.cc")];
    for entry in std::fs::read_dir(&source).expect("RVO2's source folder") {
        let path = entry.expect("a file").path();
        if path.extension().is_some_and(|e| e == "cc") {
            rvo2_sources.push(path);
        }
    }
    assert!(rvo2_sources.len() >= 6, "RVO2's .cc files in {}", source.display());
    let rvo2 = build("c++", "c++11", &rvo2_sources, &source, Link::None, "api-rvo2");
    let swerve = build(
        "c++",
        "c++11",
        &[cpp_test("rvo2_api.cc")],
        &crate_dir().join("include/rvo2"),
        Link::Static,
        "api-swerve",
    );
    let (expected, actual) = (run(&rvo2), run(&swerve));
    assert!(expected.ends_with("done\n") && expected.lines().count() > 10_000, "RVO2's run printed too little");
    for (line, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        assert_eq!(a, e, "line {} differs (swerve, then RVO2)", line + 1);
    }
    assert_eq!(actual.lines().count(), expected.lines().count());
}
