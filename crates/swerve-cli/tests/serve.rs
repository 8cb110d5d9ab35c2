//! `swerve serve` as a user starts it: the real binary on a free port, a scenario built-in,
//! plain HTTP against it. (The browser-driven checks of the page run in `scripts/test`'s
//! browser section against the same server library.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let status = response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn serve_runs_a_scenario_and_serves_only_its_page() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swerve"))
        .args(["serve", "blocks", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start swerve serve");
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the server prints its address");
    let url = line.split_whitespace().last().expect("an address").trim_end_matches('/').to_string();
    let addr = url.trim_start_matches("http://").to_string();
    assert!(addr.starts_with("127.0.0.1:"), "loopback by default, got {addr}");

    let (status, page) = get(&addr, "/");
    assert_eq!(status, 200);
    assert!(page.contains("<canvas"), "the page draws on a canvas");
    assert_eq!(get(&addr, "/nope").0, 404);
    assert_eq!(get(&addr, "/../Cargo.toml").0, 404);

    // The simulation runs: the step counter advances, with the scenario's 100 agents.
    let state = |body: &str, key: &str| -> f64 {
        let v: serde_json::Value = serde_json::from_str(body).expect("JSON state");
        v[key].as_f64().unwrap_or_else(|| panic!("no {key} in {body}"))
    };
    let (_, first) = get(&addr, "/api/state");
    assert_eq!(state(&first, "agents"), 100.0);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, now) = get(&addr, "/api/state");
        if state(&now, "step") > state(&first, "step") {
            break;
        }
        assert!(Instant::now() < deadline, "the simulation did not advance");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
}

#[test]
fn serve_reports_an_unknown_scenario_on_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_swerve")).args(["serve", "no-such-scene"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("no-such-scene"));
}

#[test]
fn serve_refuses_demo_scenes_too_large_to_hold() {
    for scene in ["circle", "crossing", "ball-pit"] {
        let out = Command::new(env!("CARGO_BIN_EXE_swerve"))
            .args(["serve", "--scene", scene, "--count", "1000000000000", "--port", "0"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{scene}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("holds at most") && err.contains("asked for 1000000000000"), "{err}");
    }
}

/// Starts `swerve ARGS --port 0`; returns the server (killed on drop) and its address.
fn start(args: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swerve"))
        .args(args)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start swerve serve");
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the server prints its address");
    let url = line.split_whitespace().last().expect("an address").trim_end_matches('/').to_string();
    (server, url.trim_start_matches("http://").to_string())
}

#[test]
fn serve_shows_3d_scenes_and_their_inspector() {
    // RVO2-3D's Sphere example (built by `swerve sphere`'s code), paused: one step, then the
    // inspector has the agent's ORCA planes.
    let (_server, addr) = start(&["serve", "--scene", "sphere3d", "--count", "60", "--paused"]);
    let json = |body: &str| serde_json::from_str::<serde_json::Value>(body).expect("JSON");
    let (_, state) = get(&addr, "/api/state");
    assert_eq!(json(&state)["agents"], 60);
    let (status, report) = get(&addr, "/api/inspect/0");
    assert_eq!(status, 200);
    let report = json(&report);
    assert_eq!(report["dimensions"], 3);
    assert!(report["planes"].is_array() && report["position"].as_array().unwrap().len() == 3);
    // Drones through towers (the scene `swerve towers` runs): the inspector counts the
    // obstacles' planes.
    let (_server, addr) = start(&["serve", "--scene", "towers3d", "--count", "40", "--paused"]);
    let (_, state) = get(&addr, "/api/state");
    assert_eq!(json(&state)["agents"], 40);
    let (_, report) = get(&addr, "/api/inspect/0");
    assert_eq!(json(&report)["obstacle_planes"], 0, "no step yet: no planes");
    // A 3-D scenario file (a [spheres] table) serves its spheres.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/hourglass3d.toml");
    let (_server, addr) = start(&["serve", file, "--paused"]);
    let (_, state) = get(&addr, "/api/state");
    assert_eq!(json(&state)["balls"], 601);
    assert_eq!(json(&state)["broad_phase"], "uniform-grid");
    // A 3-D crowd (a [crowd3d] table) serves its drones, with the file's obstacle horizon.
    let (_server, addr) = start(&["serve", "window3d", "--paused"]);
    let (_, state) = get(&addr, "/api/state");
    assert_eq!(json(&state)["agents"], 128);
    let (_, report) = get(&addr, "/api/inspect/0");
    let report = json(&report);
    assert_eq!((report["dimensions"].as_u64(), report["obstacle_time_horizon"].as_f64()), (Some(3), Some(3.0)));
}

#[test]
fn serve_refuses_bad_3d_scenes_and_counts_on_one_line() {
    for (args, expected) in [
        (&["serve", "--scene", "pit3d", "--count", "0"][..], "at least 1"),
        (&["serve", "--scene", "pit3d", "--count", "99999999999"][..], "at most 1000000"),
        (&["serve", "--scene", "sphere3d", "--count", "1"][..], "at least 2"),
        (&["serve", "--scene", "towers3d", "--count", "1"][..], "at least 2"),
        (&["serve", "--scene", "hourglass3d", "--count", "5"][..], "fixed number"),
        (&["serve", "--scene", "sphere4d"][..], "sphere3d"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_swerve")).args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}
