//! Bit-exactness against RVO2 2.0.3 recordings (`tests/data/reference`, copied from
//! `shared/reference`): every single step of every run must reproduce RVO2's positions and
//! velocities bit for bit.

use std::path::PathBuf;
use swerve::reference::ReferenceRun;

fn run(name: &str) -> ReferenceRun {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/reference").join(name);
    ReferenceRun::load(&dir).unwrap_or_else(|e| panic!("loading {name}: {e}"))
}

fn check(name: &str) {
    let run = run(name);
    let report = run.replay().expect("replay");
    println!("{report}");
    assert_eq!(report.single_step_identical, report.steps, "{report}");
}

#[test]
fn head_on_2_is_bit_identical() {
    check("head-on-2");
}

#[test]
fn blocks_100_is_bit_identical() {
    check("blocks-100");
}

#[test]
fn circle_250_is_bit_identical() {
    check("circle-250");
}
