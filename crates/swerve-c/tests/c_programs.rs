//! C programs built against `include/swerve.h` and the library cargo just built (static and
//! shared), run, and checked: RVO2's recordings replayed bit for bit, bad input refused.
//! Needs a C compiler (`cc`, and `c++` for the header's C++ check), which Rust itself needs
//! for linking.

mod common;

use common::{build_c, crate_dir, expect_all_checks_pass, run_program, run_readme_example, Link};
use std::path::Path;

use swerve::reference::ReferenceRun;

fn reference(name: &str) -> ReferenceRun {
    ReferenceRun::load(&crate_dir().join("../../tests/data/reference").join(name)).expect("the recording")
}

/// The replay program's input (see tests/c/replay.c): Rust's `{}` prints an `f32` in the
/// shortest decimal that reads back to the same bits.
fn scenario_text(run: &ReferenceRun) -> String {
    let params = |p: &swerve::AgentParams| {
        format!(
            "{} {} {} {} {} {}",
            p.neighbor_dist, p.max_neighbors, p.time_horizon, p.time_horizon_obst, p.radius, p.max_speed
        )
    };
    let mut text = format!("{}\n{}\n{}\n", run.time_step, params(&run.defaults), run.agents.len());
    for a in &run.agents {
        text += &format!("{} {} {} {} {}\n", a.position.x, a.position.y, a.goal.x, a.goal.y, params(&a.params));
    }
    text += &format!("{}\n", run.obstacles.len());
    for polygon in &run.obstacles {
        text += &polygon.len().to_string();
        for v in polygon {
            text += &format!(" {} {}", v.x, v.y);
        }
        text += "\n";
    }
    text + &format!("{}\n", run.steps)
}

/// Runs the replay program on `run` and compares every agent's position and velocity after
/// every step with the recording, bit for bit.
fn replay_matches_recording(program: &Path, run: &ReferenceRun, threads: usize) {
    let stdout = run_program(program, &[&threads.to_string()], &scenario_text(run));

    let mut lines = 0;
    for line in stdout.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 6, "line {line:?}");
        let step: usize = fields[0].parse().expect("step");
        let agent: usize = fields[1].parse().expect("id");
        let bits: Vec<u32> = fields[2..].iter().map(|f| u32::from_str_radix(f, 16).expect("hex bits")).collect();
        let recorded = run.frames[step][agent];
        let expected =
            [recorded.position.x, recorded.position.y, recorded.velocity.x, recorded.velocity.y].map(f32::to_bits);
        assert_eq!(bits, expected, "{}: agent {agent} after step {step} (position x, y, velocity x, y)", run.name);
        lines += 1;
    }
    assert_eq!(lines, run.steps * run.agents.len(), "{}: one line per agent and step", run.name);
}

#[test]
fn a_c_program_linked_statically_replays_rvo2_circle_bit_for_bit() {
    let program = build_c("replay.c", Link::Static, false);
    replay_matches_recording(&program.path, &reference("circle-250"), 1);
}

#[test]
fn a_c_program_linked_to_the_shared_library_replays_rvo2_blocks_on_two_threads() {
    let program = build_c("replay.c", Link::Shared, false);
    replay_matches_recording(&program.path, &reference("blocks-100"), 2);
}

#[test]
fn bad_input_from_c_is_refused_with_a_status_and_a_message_and_changes_nothing() {
    let program = build_c("errors.c", Link::Static, false);
    expect_all_checks_pass(&program);
}

#[test]
fn the_header_serves_cplusplus_too() {
    let program = build_c("errors.c", Link::Shared, true);
    expect_all_checks_pass(&program);
}

#[test]
fn the_readme_example_compiles_and_the_two_agents_pass_each_other() {
    // "a at (x, y), b at (x, y)"
    let (text, numbers) = run_readme_example("swerve_simulator_new", Link::Static);
    assert_eq!(numbers.len(), 4, "{text}");
    let (a, b) = ((numbers[0], numbers[1]), (numbers[2], numbers[3]));
    assert!(a.0 > 2.0 && b.0 < -2.0, "they swapped sides: {text}");
    let gap = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    assert!(gap >= 3.0 - 0.01, "two radii of 1.5 apart at least (printed to 2 decimals): {text}");
}
