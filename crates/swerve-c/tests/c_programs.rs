//! C programs built against `include/swerve.h` and the library cargo just built (static and
//! shared), run, and checked: RVO2's recordings replayed bit for bit, bad input refused.
//! Needs a C compiler (`cc`, and `c++` for the header's C++ check), which Rust itself needs
//! for linking. The same replays run through the C# layer (`csharp/`: RVO2-CS's API and
//! swerve's own) under Mono.

mod common;

use common::{
    assert_same_lines, build_c, build_csharp, crate_dir, expect_all_checks_pass, run_program,
    run_readme_csharp_example, run_readme_example, Link,
};
use std::path::Path;

use swerve::orca::{Extensions, LpOutcome, Mover, OverlapResolution, SymmetryBreaking};
use swerve::reference::ReferenceRun;
use swerve::{AgentId, Simulator, Vec2};

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

/// Runs the replay program on `run` with `args` (the thread count first) and compares every
/// agent's position and velocity after every step with the recording, bit for bit.
fn replay_matches_recording(program: &Path, run: &ReferenceRun, args: &[&str]) {
    let stdout = run_program(program, args, &scenario_text(run));

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
    replay_matches_recording(&program.path, &reference("circle-250"), &["1"]);
}

#[test]
fn a_c_program_linked_to_the_shared_library_replays_rvo2_blocks_on_two_threads() {
    let program = build_c("replay.c", Link::Shared, false);
    replay_matches_recording(&program.path, &reference("blocks-100"), &["2"]);
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

// ----- C# (csharp/), under Mono -----

#[test]
fn a_csharp_program_on_rvo2_cs_api_replays_rvo2_circle_and_blocks_bit_for_bit() {
    let program = build_csharp(&["Replay.cs", "Input.cs"], "replay-rvo");
    replay_matches_recording(&program.path, &reference("circle-250"), &["1", "rvo"]);
    replay_matches_recording(&program.path, &reference("blocks-100"), &["2", "rvo"]);
}

#[test]
fn a_csharp_program_on_swerves_csharp_api_replays_them_too() {
    let program = build_csharp(&["Replay.cs", "Input.cs"], "replay-swerve");
    replay_matches_recording(&program.path, &reference("circle-250"), &["2", "swerve"]);
    replay_matches_recording(&program.path, &reference("blocks-100"), &["1", "swerve"]);
}

/// The recordings' preferred-velocity rule, in `f32` (what tests/cs/Replay.cs computes).
fn toward(goal: Vec2, position: Vec2) -> Vec2 {
    let g = goal - position;
    if g.length_squared() > 1.0 {
        g * (1.0 / g.length())
    } else {
        g
    }
}

fn hex(values: &[f32]) -> String {
    values.iter().map(|v| format!(" {:08x}", v.to_bits())).collect()
}

/// What `Replay.cs THREADS swerve options` prints for `run` (see there), computed by
/// swerve's simulator from Rust.
fn rust_options_output(run: &ReferenceRun) -> String {
    let mut sim = Simulator::new(run.time_step, run.defaults).expect("a simulator");
    for a in &run.agents {
        sim.add_agent_with(a.position, a.params).expect("an agent");
    }
    for polygon in &run.obstacles {
        sim.add_obstacle(polygon).expect("an obstacle");
    }
    sim.process_obstacles();
    for id in sim.agent_ids().to_vec() {
        sim.set_agent_responsibility(id, [1.0, 0.0, 2.0, 0.5][id.0 as usize % 4]).expect("a weight");
    }
    sim.set_extensions(Extensions {
        symmetry_breaking: Some(SymmetryBreaking { seed: 7, ..Default::default() }),
        overlap_resolution: Some(OverlapResolution::default()),
        strict_speed_limit: true,
    })
    .expect("the options");
    sim.set_record_decisions(true);
    let mut mover = Mover { position: Vec2::new(-20.0, 0.5), velocity: Vec2::new(1.5, 0.1), radius: 2.0 };
    let mover_id = sim.add_mover(mover).expect("a mover");
    let mut out = String::new();
    for step in 1..=run.steps {
        if step == 30 {
            sim.remove_agent(AgentId(7)).expect("agent 7");
        }
        if step == 40 {
            sim.remove_obstacle(sim.obstacle_ids()[0]).expect("obstacle 0");
            sim.process_obstacles();
        }
        mover.position += mover.velocity * run.time_step;
        sim.set_mover(mover_id, mover).expect("the mover");
        out += &format!("mover {step} {}{}\n", mover_id.0, hex(&mover.position.to_array()));
        let ids = sim.agent_ids().to_vec();
        let prefs: Vec<Vec2> =
            ids.iter().zip(sim.positions()).map(|(id, &p)| toward(run.agents[id.0 as usize].goal, p)).collect();
        sim.set_pref_velocities(&prefs).expect("preferred velocities");
        sim.step();
        for (i, id) in ids.iter().enumerate() {
            let (p, v) = (sim.positions()[i], sim.velocities()[i]);
            out += &format!("{step} {}{}\n", id.0, hex(&[p.x, p.y, v.x, v.y]));
        }
        if step % 10 == 0 {
            for &id in &ids {
                let neighbors: String = sim.agent_neighbors(id).unwrap().map(|n| format!(" {}", n.0)).collect();
                let obstacles: String = sim.agent_obstacle_neighbors(id).unwrap().map(|n| format!(" {n}")).collect();
                let planes: String = sim
                    .agent_half_planes(id)
                    .unwrap()
                    .iter()
                    .map(|h| hex(&[h.point.x, h.point.y, h.direction.x, h.direction.y]))
                    .collect();
                let (feasible, first) = match sim.agent_lp_outcome(id).unwrap() {
                    LpOutcome::Feasible => (1, 0),
                    LpOutcome::Fallback { first_infeasible } => (0, first_infeasible),
                };
                let from_obstacles = sim.agent_obstacle_half_plane_count(id).unwrap();
                out += &format!("neighbors {step} {}{neighbors}\nobstacles {step} {}{obstacles}\n", id.0, id.0);
                out += &format!("halfplanes {step} {}{planes}\n", id.0);
                out += &format!("decision {step} {} {feasible} {first} {from_obstacles}\n", id.0);
            }
        }
    }
    out
}

#[test]
fn the_options_beyond_rvo2_step_from_csharp_as_from_rust() {
    // RVO2's Blocks with every option on: responsibility weights (some 0), symmetry breaking,
    // safe mode, the strict speed limit, a mover crossing, agent 7 removed, a block removed
    // mid-run, and every record read back.
    let run = reference("blocks-100");
    let program = build_csharp(&["Replay.cs", "Input.cs"], "replay-options");
    let output = run_program(&program.path, &["2", "swerve", "options"], &scenario_text(&run));
    let expected = rust_options_output(&run);
    assert_same_lines("blocks-100 with the options", &output, &expected.lines().collect::<Vec<_>>());

    // The options changed the run, and the records were there to read.
    let plain = run_program(&program.path, &["2", "swerve"], &scenario_text(&run));
    let moved = |text: &str, step: usize| -> Vec<String> {
        text.lines().filter(|l| l.starts_with(&format!("{step} "))).map(str::to_string).collect()
    };
    assert_ne!(moved(&output, 20), moved(&plain, 20), "the options changed nothing by step 20");
    assert!(output.contains("\n29 7 ") && !output.contains("\n30 7 "), "agent 7 was removed before step 30");
    assert!(output.contains("\nmover 60 0 "), "the mover moved every step");
    assert!(output.lines().any(|l| l.starts_with("obstacles ") && l.split(' ').count() > 3), "obstacle neighbours");
    assert!(output.lines().any(|l| l.starts_with("halfplanes 50 ") && l.split(' ').count() > 3), "half-planes");
}

#[test]
fn bad_input_from_csharp_raises_exceptions_and_changes_nothing() {
    let program = build_csharp(&["Errors.cs", "Checks.cs"], "errors");
    expect_all_checks_pass(&program);
}

#[test]
fn the_csharp_readme_example_runs_and_the_two_agents_pass_each_other() {
    // "a at (x, y), b at (x, y)"
    let (text, numbers) = run_readme_csharp_example("CrowdSimulator(0.25f)");
    assert_eq!(numbers.len(), 4, "{text}");
    let (a, b) = ((numbers[0], numbers[1]), (numbers[2], numbers[3]));
    assert!(a.0 > 2.0 && b.0 < -2.0, "they swapped sides: {text}");
    let gap = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    assert!(gap >= 3.0 - 0.01, "two radii of 1.5 apart at least (printed to 2 decimals): {text}");
}
