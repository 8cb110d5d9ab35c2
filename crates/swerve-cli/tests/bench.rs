//! `swerve bench` refuses what it cannot do before benchmarking anything: a peer flag the
//! suite has no peer for, and a peer that is missing or cannot run. Each refusal is one line
//! on stderr and a non-zero exit. (The tables themselves are tested in swerve-bench, on
//! crowds and pits small enough for a test.)
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `swerve ARGS`, failing the test if it has not ended within 60 s: a refusal is
/// immediate (it runs a peer on 16 agents at most), while a benchmark that started by mistake
/// would run for minutes.
fn swerve(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swerve"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the swerve binary runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait for swerve").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`swerve {}` still ran after 60 s: it benchmarked instead of refusing", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("swerve's output")
}

/// Asserts that `out` is a refusal: non-zero exit, nothing on stdout (no table), one line on
/// stderr (no progress line of a benchmark) that starts with `start` and contains `why`.
fn assert_refused(out: &Output, start: &str, why: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "succeeded: {err}");
    assert!(out.stdout.is_empty(), "printed {}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.starts_with(start) && err.contains(why), "expected `{start}…{why}…`, got {err}");
}

#[test]
fn bench_rejects_a_missing_python() {
    for suite in ["orca", "orca3d"] {
        let out = swerve(&["bench", suite, "--quick", "--python", "/no/such/python"]);
        assert_refused(&out, "error: --python /no/such/python: ", "no such file");
    }
}

#[test]
fn bench_rejects_a_missing_rvo2_peer() {
    let out = swerve(&["bench", "orca", "--quick", "--rvo2", "/no/such/rvo2_step"]);
    assert_refused(&out, "error: --rvo2 /no/such/rvo2_step: ", "no such file");
}

#[test]
fn bench_rejects_peers_that_cannot_run_before_benchmarking() {
    let dir = tempfile::tempdir().unwrap();
    let text_file = dir.path().join("notes.txt");
    std::fs::write(&text_file, "not a program\n").unwrap();
    let folder = dir.path().to_str().unwrap();
    let text_file = text_file.to_str().unwrap();
    for (suite, flag, path, why) in [
        ("orca", "--python", folder, "is a directory"),
        ("orca", "--rvo2", folder, "is a directory"),
        ("orca", "--rvo2", text_file, "not executable"),
        // Runs, but is no peer: it prints nothing.
        ("orca", "--rvo2", "/bin/true", "printed no JSON"),
        ("orca3d", "--python", folder, "is a directory"),
        ("orca3d", "--python", text_file, "not executable"),
        ("orca3d", "--python", "/bin/true", "RVO2-3D peer printed no JSON"),
    ] {
        let out = swerve(&["bench", suite, "--quick", flag, path]);
        assert_refused(&out, &format!("error: {flag} {path}: "), why);
    }
}

/// A Python that starts but lacks jt-pyrvo23d: its traceback's first and last lines, on one
/// line, before any 3-D crowd is stepped.
#[test]
fn bench_orca3d_rejects_a_python_without_rvo23d() {
    let dir = tempfile::tempdir().unwrap();
    let python = dir.path().join("python");
    std::fs::write(
        &python,
        "#!/bin/sh\n\
         echo 'Traceback (most recent call last):' >&2\n\
         echo '  File \"rvo2_3d_step.py\", line 24, in <module>' >&2\n\
         echo \"ModuleNotFoundError: No module named 'rvo23d'\" >&2\n\
         exit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    let python = python.to_str().unwrap();
    let out = swerve(&["bench", "orca3d", "--quick", "--python", python]);
    assert_refused(
        &out,
        &format!("error: --python {python}: RVO2-3D peer failed: "),
        "Traceback (most recent call last): … ModuleNotFoundError: No module named 'rvo23d'",
    );
}

/// `--rvo2` is RVO2 2.0.3, the planar library; `--python` times the ORCA suites' peers. A flag
/// given to a suite without that peer is refused, not ignored.
#[test]
fn bench_refuses_peer_flags_the_suite_has_no_peer_for() {
    for (suite, flag) in [
        ("orca3d", "--rvo2"),
        ("balls", "--rvo2"),
        ("balls3d", "--rvo2"),
        ("balls", "--python"),
        ("balls3d", "--python"),
    ] {
        // An existing program, so that only the suite can be the reason.
        let out = swerve(&["bench", suite, "--quick", flag, "/bin/true"]);
        assert_refused(&out, &format!("error: {flag} applies to `swerve bench orca`"), &format!("not {suite} ("));
    }
}

/// An unknown suite is refused with the valid ones named on the same line (clap lists them on
/// a later line, which the one-line rule used to drop).
#[test]
fn an_unknown_suite_names_the_suites() {
    let out = swerve(&["bench", "orca4d"]);
    assert_refused(&out, "error: invalid value 'orca4d'", "possible values: orca, balls, orca3d, balls3d");
}
