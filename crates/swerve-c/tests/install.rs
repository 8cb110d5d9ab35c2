//! `scripts/install-c`: what it installs serves a C program through pkg-config, a C++
//! project through CMake's `find_package(swerve)` and a C# program under Mono, and the
//! programs built that way give the same bytes as when built against the source tree.

mod common;

use common::{build, crate_dir, run_program, Link};
use std::path::PathBuf;
use std::process::Command;

fn checked(command: &mut Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {what}: {e} (scripts/test installs it)"));
    assert!(
        output.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A fresh install prefix holding this test run's libraries.
fn install(label: &str) -> PathBuf {
    let prefix = std::env::temp_dir().join(format!("swerve-c-{}-install-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&prefix);
    let libs = std::env::current_exe().expect("the test executable").parent().expect("its folder").to_path_buf();
    checked(
        Command::new(crate_dir().join("../../scripts/install-c")).arg(&prefix).env("SWERVE_C_LIB_DIR", &libs),
        "scripts/install-c",
    );
    prefix
}

#[test]
fn a_c_program_builds_against_the_install_through_pkg_config() {
    let prefix = install("pkg-config");
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "swerve"])
        .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
        .output()
        .expect("pkg-config (scripts/test installs it)");
    assert!(flags.status.success(), "pkg-config: {}", String::from_utf8_lossy(&flags.stderr));
    let flags = String::from_utf8(flags.stdout).expect("UTF-8");
    assert!(flags.contains(&format!("-I{}", prefix.join("include/swerve").display())), "{flags}");

    let program = prefix.join("errors");
    checked(
        Command::new("cc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
            .arg(crate_dir().join("tests/c/errors.c"))
            .arg("-o")
            .arg(&program)
            .args(flags.split_whitespace()),
        "cc with pkg-config's flags",
    );
    assert_eq!(run_program(&program, &[], "").trim(), "all checks passed");
    // It runs on the installed library (the rpath pkg-config gave), not on the build tree's.
    let ldd = Command::new("ldd").arg(&program).env_remove("LD_LIBRARY_PATH").output().expect("ldd");
    let ldd = String::from_utf8_lossy(&ldd.stdout).to_string();
    assert!(ldd.contains(&prefix.join("lib/libswerve_c.so").display().to_string()), "{ldd}");
    let _ = std::fs::remove_dir_all(&prefix);
}

#[test]
fn a_cmake_project_finds_the_install_and_builds_rvo2_programs_on_it() {
    let prefix = install("cmake");
    let build_dir = prefix.join("consumer");
    checked(
        Command::new("cmake")
            .arg("-S")
            .arg(crate_dir().join("tests/cmake"))
            .arg("-B")
            .arg(&build_dir)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
            .arg("-DCMAKE_BUILD_TYPE=Release"),
        "cmake (configure)",
    );
    checked(Command::new("cmake").arg("--build").arg(&build_dir), "cmake --build");

    // The same program built against the source tree (static) prints the same bytes.
    let reference = build(
        "c++",
        "c++11",
        &[crate_dir().join("tests/cpp/rvo2_api.cc")],
        &crate_dir().join("include/rvo2"),
        Link::Static,
        "install-reference",
    );
    let expected = run_program(&reference.path, &[], "");
    assert!(expected.ends_with("done\n"), "the reference run finished");
    assert_eq!(run_program(&build_dir.join("rvo2_api"), &[], ""), expected);

    // The static target links: a two-agent scene through the C replay program.
    let scene = "0.25\n15 10 10 10 1.5 2\n2\n-5 0 5 0 15 10 10 10 1.5 2\n5 0.01 -5 0 15 10 10 10 1.5 2\n0\n40\n";
    let lines = run_program(&build_dir.join("replay_static"), &["1"], scene);
    assert_eq!(lines.lines().count(), 80, "one line per agent and step");
    let _ = std::fs::remove_dir_all(&prefix);
}

#[test]
fn a_csharp_program_builds_from_the_installed_sources_and_runs_on_the_installed_library() {
    let prefix = install("csharp");
    let sources = prefix.join("share/swerve/csharp");
    let mut files = Vec::new();
    for folder in ["Swerve", "RVO"] {
        for entry in std::fs::read_dir(sources.join(folder)).expect("the installed C# sources") {
            files.push(entry.expect("a file").path());
        }
    }
    assert!(files.iter().any(|f| f.ends_with("Swerve/NativeMethods.g.cs")), "{files:?}");
    // The C# replay program, reading RVO2's Circle through RVO2-CS's API.
    let exe = prefix.join("replay.exe");
    checked(
        Command::new("mcs")
            .args(["-langversion:5", "-unsafe", "-warnaserror", "-r:System.Numerics", "-r:System.Numerics.Vectors"])
            .arg(format!("-out:{}", exe.display()))
            .args(&files)
            .arg(crate_dir().join("tests/cs/Replay.cs"))
            .arg(crate_dir().join("tests/cs/Input.cs")),
        "mcs on the installed sources",
    );
    // Two agents swapping places; the library comes from PREFIX/lib alone.
    let scene = "0.25\n15 10 10 10 1.5 2\n2\n-5 0 5 0 15 10 10 10 1.5 2\n5 0.01 -5 0 15 10 10 10 1.5 2\n0\n40\n";
    let run = |program: &std::path::Path, library_path: &std::path::Path| {
        use std::io::Write;
        let mut child = Command::new("mono")
            .arg(program)
            .args(["1", "rvo"])
            .env("LD_LIBRARY_PATH", library_path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("mono (scripts/test installs it)");
        child.stdin.take().expect("stdin").write_all(scene.as_bytes()).expect("the scene");
        child.wait_with_output().expect("mono ends")
    };
    let output = run(&exe, &prefix.join("lib"));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(text.lines().count(), 80, "one line per agent and step");
    // Without the installed library on the path, it is not found: the run above used it.
    let missing = run(&exe, &prefix.join("nowhere"));
    assert!(!missing.status.success(), "the program ran without the library");
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("swerve_c"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let _ = std::fs::remove_dir_all(&prefix);
}
