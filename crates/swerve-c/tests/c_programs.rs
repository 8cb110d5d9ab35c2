//! C programs built against `include/swerve.h` and the library cargo just built (static and
//! shared), run, and checked: RVO2's recordings replayed bit for bit, bad input refused.
//! Needs a C compiler (`cc`, and `c++` for the header's C++ check), which Rust itself needs
//! for linking.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use swerve::reference::ReferenceRun;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where cargo put `libswerve_c.a` and `libswerve_c.so` for this test run: beside the test
/// executable (cargo builds every crate type of the library before its tests).
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable");
    let dir = exe.parent().expect("its folder").to_path_buf();
    assert!(dir.join("libswerve_c.a").exists(), "no libswerve_c.a in {}", dir.display());
    dir
}

enum Link {
    Static,
    Shared,
}

/// A compiled test program; its folder is removed when it is dropped.
struct Program {
    dir: PathBuf,
    path: PathBuf,
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Compiles `tests/c/NAME` with warnings as errors into a fresh folder.
fn build(compiler: &str, std: &str, source: &str, link: Link) -> Program {
    let kind = match link {
        Link::Static => "static",
        Link::Shared => "shared",
    };
    let out_dir = std::env::temp_dir().join(format!("swerve-c-{}-{compiler}-{kind}-{source}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("a build folder");
    let program = out_dir.join("program");
    let libs = library_dir();
    let mut command = Command::new(compiler);
    command
        .arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-O2", "-ffp-contract=off"])
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join("tests/c").join(source))
        .arg("-o")
        .arg(&program);
    if compiler == "c++" {
        // The C sources, compiled as C++: the header must serve both.
        command.args(["-x", "c++"]);
    }
    match link {
        Link::Static => {
            command.arg(libs.join("libswerve_c.a")).args(["-lpthread", "-ldl", "-lm", "-lrt", "-lgcc_s"]);
        }
        Link::Shared => {
            command.arg("-L").arg(&libs).arg("-lswerve_c").arg(format!("-Wl,-rpath,{}", libs.display())).arg("-lm");
        }
    }
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(output.status.success(), "{compiler} {source} failed:\n{}", String::from_utf8_lossy(&output.stderr));
    Program { dir: out_dir, path: program }
}

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
    let mut child = Command::new(program)
        .arg(threads.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the replay program starts");
    child.stdin.take().expect("stdin").write_all(scenario_text(run).as_bytes()).expect("write the scenario");
    let output = child.wait_with_output().expect("the replay program ends");
    assert!(output.status.success(), "replay failed: {}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");

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
    let program = build("cc", "c99", "replay.c", Link::Static);
    replay_matches_recording(&program.path, &reference("circle-250"), 1);
}

#[test]
fn a_c_program_linked_to_the_shared_library_replays_rvo2_blocks_on_two_threads() {
    let program = build("cc", "c99", "replay.c", Link::Shared);
    replay_matches_recording(&program.path, &reference("blocks-100"), 2);
}

#[test]
fn bad_input_from_c_is_refused_with_a_status_and_a_message_and_changes_nothing() {
    let program = build("cc", "c99", "errors.c", Link::Static);
    let output = Command::new(&program.path).output().expect("the program runs");
    assert!(
        output.status.success(),
        "failed checks:\n{}{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "all checks passed");
}

#[test]
fn the_header_serves_cplusplus_too() {
    let program = build("c++", "c++11", "errors.c", Link::Shared);
    let output = Command::new(&program.path).output().expect("the program runs");
    assert!(output.status.success(), "failed checks:\n{}", String::from_utf8_lossy(&output.stderr));
}
