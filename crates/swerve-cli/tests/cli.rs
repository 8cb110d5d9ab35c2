//! The real `swerve` binary: runs write every output, the GIF decodes and moves, errors are one
//! line with file and key and a non-zero exit, replay reports the conformance line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn swerve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swerve")).args(args).output().expect("the swerve binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Decodes a GIF into its frames' palette-index buffers.
fn gif_frames(path: &Path) -> (u16, u16, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let (w, h) = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), (w, h), "every frame covers the image");
        frames.push(frame.buffer.to_vec());
    }
    (w, h, frames)
}

#[test]
fn run_writes_trajectories_metrics_scene_and_a_moving_gif() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crossing");
    let result = swerve(&["run", "crossing", "--out", out.to_str().unwrap(), "--gif-frames", "40", "--threads", "1"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.starts_with("crossing: 72 agents"), "{stdout}");
    assert!(stdout.contains("arrived 72/72"), "{stdout}");

    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("frame,id,x,y,vx,vy"));
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(first.len(), 6);
    assert_eq!((first[0], first[1]), ("0", "0"));

    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert_eq!(metrics["agents"], 72);
    assert_eq!(metrics["never_arrived"], 0);
    let steps = metrics["steps"].as_u64().unwrap();
    // One CSV row per agent per frame (no agent leaves in this scene): 72 × (steps + 1).
    assert_eq!(csv.lines().count() as u64 - 1, 72 * (steps + 1));

    let txt = std::fs::read_to_string(out.join("trajectory.txt")).unwrap();
    assert!(txt.lines().any(|l| l == "# framerate: 10"), "dt 0.1 s is 10 frames per second");
    let row: Vec<&str> = txt.lines().find(|l| !l.starts_with('#')).unwrap().split_whitespace().collect();
    assert_eq!(row.len(), 5, "ID frame X Y Z");
    assert_eq!(row[4], "0");

    let scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scene.json")).unwrap()).unwrap();
    assert_eq!(scene["agents"].as_array().unwrap().len(), 72);
    assert_eq!(scene["groups"], serde_json::json!(["eastbound", "northbound"]));

    let (w, h, frames) = gif_frames(&out.join("run.gif"));
    assert!(w >= 100 && h >= 100);
    assert!(frames.len() >= 10 && frames.len() <= 41, "{} frames", frames.len());
    let changed = frames.windows(2).filter(|f| f[0] != f[1]).count();
    assert!(changed >= frames.len() / 2, "only {changed} of {} frames differ from the previous", frames.len());
    // Motion, not only the time bar: pixels above the bar change between first and last frame.
    let bar_rows = 3 * w as usize;
    let body = |f: &Vec<u8>| f[..f.len() - bar_rows].to_vec();
    let moved = body(&frames[0]).iter().zip(body(frames.last().unwrap()).iter()).filter(|(a, b)| a != b).count();
    assert!(moved > 500, "only {moved} pixels differ between the first and last frame");
}

#[test]
fn render_makes_svg_png_frames_and_gif_from_a_run_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("head-on");
    assert!(swerve(&["run", "head-on", "--out", out.to_str().unwrap(), "--no-gif"]).status.success());
    assert!(!out.join("run.gif").exists());

    let svg_path = dir.path().join("paths.svg");
    let r = swerve(&["render", out.to_str().unwrap(), "--format", "svg", "--out", svg_path.to_str().unwrap()]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polyline").count(), 2, "one path per agent");

    let frames_dir = dir.path().join("frames");
    let r = swerve(&[
        "render",
        out.join("trajectory.csv").to_str().unwrap(),
        "--format",
        "png",
        "--max-frames",
        "5",
        "--out",
        frames_dir.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let mut pngs: Vec<_> = std::fs::read_dir(&frames_dir).unwrap().map(|e| e.unwrap().path()).collect();
    pngs.sort();
    assert!((5..=6).contains(&pngs.len()), "{pngs:?}");
    let first = std::fs::read(&pngs[0]).unwrap();
    assert_eq!(&first[..8], b"\x89PNG\r\n\x1a\n");
    assert_ne!(first, std::fs::read(pngs.last().unwrap()).unwrap(), "the agents moved");

    let gif_path = dir.path().join("again.gif");
    let r = swerve(&["render", out.to_str().unwrap(), "--out", gif_path.to_str().unwrap(), "--max-frames", "12"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let (_, _, frames) = gif_frames(&gif_path);
    assert!(frames.len() >= 12 && frames[0] != frames[frames.len() - 1]);
}

#[test]
fn ball_scenes_write_ball_trajectories() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seed");
    let r = swerve(&["run", "seed-003", "--steps", "30", "--out", out.to_str().unwrap(), "--gif-frames", "5"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let balls = std::fs::read_to_string(out.join("balls.csv")).unwrap();
    assert_eq!(balls.lines().count(), 1 + 400 * 31);
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert_eq!(metrics["balls"]["count"], 400);
    assert!(metrics["balls"]["kinetic_energy_initial"].as_f64().unwrap() > 0.0);
    let (_, _, frames) = gif_frames(&out.join("run.gif"));
    assert!(frames.len() >= 5 && frames[0] != frames[frames.len() - 1]);
}

const BROKEN: &str = "name = \"broken\"\ntime_step = 0\nsteps = 10\n[[agents]]\nposition = [0, 0]\nradius = -1\n[[obstacles]]\nvertices = [[0, 0]]\n";

#[test]
fn validate_lists_every_problem_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.toml");
    std::fs::write(&file, BROKEN).unwrap();
    let name = file.to_str().unwrap();
    let r = swerve(&["validate", name]);
    assert!(!r.status.success());
    let stdout = text(&r.stdout);
    for expected in [
        format!("{name}:2: time_step: must be greater than 0, got 0"),
        format!("{name}:6: agents[0].radius: must be greater than 0, got -1"),
        format!("{name}:8: obstacles[0].vertices: needs at least 2 points, got 1"),
        format!("{name}: 3 problems"),
    ] {
        assert!(stdout.lines().any(|l| l == expected), "missing `{expected}` in:\n{stdout}");
    }
}

#[test]
fn validate_accepts_every_builtin_and_file() {
    let mut args = vec!["validate".to_string()];
    for entry in std::fs::read_dir(repo_root().join("scenarios")).unwrap() {
        args.push(entry.unwrap().path().to_string_lossy().into_owned());
    }
    args.push("circle".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = swerve(&refs);
    assert!(r.status.success(), "{}{}", text(&r.stdout), text(&r.stderr));
    assert_eq!(text(&r.stdout).lines().filter(|l| l.contains(": ok (")).count(), args.len() - 1);
    // The summary says which files steer their agents by a roadmap: those whose text says so.
    for line in text(&r.stdout).lines() {
        let file = line.split(": ok (").next().unwrap();
        let key = |l: &str| l.trim_start().starts_with("navigation = \"roadmap\"");
        let steered = std::fs::read_to_string(file).is_ok_and(|t| t.lines().any(key));
        assert_eq!(line.ends_with(", steered by a roadmap)"), steered, "{line}");
    }
}

#[test]
fn errors_are_one_line_naming_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.toml");
    std::fs::write(&file, BROKEN).unwrap();
    let r = swerve(&["run", file.to_str().unwrap(), "--out", dir.path().join("o").to_str().unwrap()]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&format!("error: {}:2: time_step:", file.display())), "{stderr}");
    assert!(stderr.contains("(and 2 more problems)"), "{stderr}");

    let r = swerve(&["run", "no-such-scene"]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no-such-scene") && stderr.contains("circle"), "{stderr}");

    let r = swerve(&["render", dir.path().to_str().unwrap()]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("scene.json"), "{stderr}");

    let r = swerve(&["run", "circle", "--steps", "many"]);
    assert_eq!(r.status.code(), Some(2));
    let stderr = text(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--steps") && stderr.contains("many"), "{stderr}");

    let json = dir.path().join("bad.json");
    std::fs::write(
        &json,
        "{\"name\": \"j\", \"time_step\": 0.1, \"steps\": 5, \"agents\": [{\"position\": [0, \"a\"]}]}",
    )
    .unwrap();
    let r = swerve(&["run", json.to_str().unwrap()]);
    let stderr = text(&r.stderr);
    assert!(!r.status.success());
    assert!(stderr.contains("agents[0].position[1]: expected a number"), "{stderr}");
}

#[test]
fn list_names_every_builtin() {
    let r = swerve(&["list"]);
    assert!(r.status.success());
    let names: Vec<String> =
        text(&r.stdout).lines().map(|l| l.split_whitespace().next().unwrap().to_string()).collect();
    assert_eq!(
        names,
        [
            "circle",
            "blocks",
            "roadmap",
            "bottleneck",
            "crossing",
            "door",
            "patrol",
            "head-on",
            "convoy",
            "ball-pit",
            "seed-003",
            "galton",
            "sandpile",
            "hourglass3d",
            "window3d",
            "slalom3d"
        ]
    );
}

#[test]
fn replay_prints_the_conformance_line_last() {
    let r = swerve(&["replay", repo_root().join("tests/data/reference/head-on-2").to_str().unwrap()]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let stdout = text(&r.stdout);
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("replay head-on-2: steps=400 single-step-identical=400/400"), "{last}");

    let r = swerve(&["replay", "/nonexistent-reference"]);
    assert!(!r.status.success());
    assert_eq!(text(&r.stderr).lines().count(), 1);
}

/// Runs `swerve args` with its standard output a pipe whose reading end is already closed,
/// as in `swerve list | head -0`; returns how it ended and its standard error.
#[cfg(unix)]
fn swerve_into_a_closed_pipe(args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_swerve"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the swerve binary runs");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    (child.wait().unwrap(), stderr)
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    // More than a pipe's 64 KiB buffer, so writing fails however late the reader is closed.
    let mut args = vec!["validate"];
    args.extend(std::iter::repeat_n("head-on", 3000));
    for args in [&args[..], &["list"]] {
        let (status, stderr) = swerve_into_a_closed_pipe(args);
        assert!(stderr.is_empty(), "{stderr}");
        // `list` may finish writing into the buffer before the pipe closes.
        let by_sigpipe = status.signal() == Some(13);
        assert!(by_sigpipe || (args[0] == "list" && status.success()), "{status:?}");
    }
}

#[test]
fn frame_limits_are_honoured_down_to_one_frame_and_zero_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("head-on");
    let r = swerve(&["run", "head-on", "--out", out.to_str().unwrap(), "--gif-frames", "1"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(gif_frames(&out.join("run.gif")).2.len(), 1);

    let frames_dir = dir.path().join("frames");
    let r = swerve(&[
        "render",
        out.to_str().unwrap(),
        "--format",
        "png",
        "--max-frames",
        "1",
        "--out",
        frames_dir.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let pngs: Vec<String> = std::fs::read_dir(&frames_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let steps = std::fs::read_to_string(out.join("metrics.json")).unwrap();
    let steps = serde_json::from_str::<serde_json::Value>(&steps).unwrap()["steps"].as_u64().unwrap();
    assert_eq!(pngs, [format!("frame_{steps:05}.png")], "the one frame is the last");

    let gif = dir.path().join("one.gif");
    let r = swerve(&["render", out.to_str().unwrap(), "--max-frames", "2", "--out", gif.to_str().unwrap()]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(gif_frames(&gif).2.len(), 2);

    let never = dir.path().join("never");
    for (args, flag) in [
        (vec!["render", out.to_str().unwrap(), "--max-frames", "0"], "--max-frames"),
        (vec!["run", "head-on", "--out", never.to_str().unwrap(), "--gif-frames", "0"], "--gif-frames"),
    ] {
        let r = swerve(&args);
        assert!(!r.status.success());
        let stderr = text(&r.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(&format!("error: {flag}: must be at least 1")), "{stderr}");
    }
    assert!(!never.exists(), "refused before running");
}

#[test]
fn error_lines_name_what_the_user_gave_once() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let one_line = |args: &[&str]| {
        let r = swerve(args);
        assert!(!r.status.success());
        let stderr = text(&r.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr
    };

    // The OS's reason once, not again as the error's source.
    let stderr = one_line(&["run", folder]);
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");

    let stderr = one_line(&["render", "no-such-run"]);
    assert!(stderr.starts_with("error: no-such-run: no such run folder"), "{stderr}");
    let stderr = one_line(&["render", folder]);
    assert!(stderr.starts_with(&format!("error: {folder}: not a run folder (no scene.json")), "{stderr}");

    // A recording with rows missing: the fault is the whole file's, not line 0's.
    let recording = dir.path().join("recording");
    std::fs::create_dir(&recording).unwrap();
    let reference = repo_root().join("tests/data/reference/head-on-2/scenario.json");
    std::fs::copy(reference, recording.join("scenario.json")).unwrap();
    std::fs::write(recording.join("trajectory.csv"), "step,agent,px,py,vx,vy,pvx,pvy\n0,0,-10,0,0,0,1,0\n").unwrap();
    let stderr = one_line(&["replay", recording.to_str().unwrap()]);
    let csv_path = recording.join("trajectory.csv");
    assert!(stderr.starts_with(&format!("error: {}: no row for step", csv_path.display())), "{stderr}");

    // A recording that claims 10^11 steps: the missing rows are named, nothing is sized by
    // the claim (a 2 TB allocation aborted the process).
    let scenario = std::fs::read_to_string(recording.join("scenario.json")).unwrap();
    let huge = scenario.replace("\"steps\": 400", "\"steps\": 100000000000");
    assert_ne!(huge, scenario, "the recording's step count was not found");
    std::fs::write(recording.join("scenario.json"), huge).unwrap();
    let stderr = one_line(&["replay", recording.to_str().unwrap()]);
    assert!(stderr.contains("no row for step 0 agent 1"), "{stderr}");
}

/// Frame numbers come from a file: a stray frame 4,000,000,000 must not size a table by it (it
/// aborted with a 64 GB allocation). The frames drawn are spread up to it, the last included.
#[test]
fn render_copes_with_a_far_frame_number() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    assert!(swerve(&["run", "head-on", "--steps", "5", "--out", out.to_str().unwrap(), "--no-gif"]).status.success());
    let csv = out.join("trajectory.csv");
    let mut rows = std::fs::read_to_string(&csv).unwrap();
    rows.push_str("4000000000,0,1.0,2.0,0.0,0.0\n");
    std::fs::write(&csv, rows).unwrap();
    let r = swerve(&["render", out.to_str().unwrap(), "--format", "png", "--max-frames", "3"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let mut names: Vec<String> =
        std::fs::read_dir(out.join("frames")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names.last().unwrap(), "frame_4000000000.png");
}

#[test]
fn sphere_runs_rvo2_3d_example_and_writes_3d_trajectories() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sphere");
    let args = ["sphere", "--agents", "80", "--out", out.to_str().unwrap(), "--gif-frames", "20", "--size", "160"];
    let result = swerve(&args);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.starts_with("sphere (3-D): 80 agents"), "{stdout}");
    assert!(stdout.contains("arrived 80/80"), "{stdout}");

    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    let steps = metrics["steps"].as_u64().unwrap();
    assert!(steps > 100, "the crossing takes time: {steps} steps");
    assert!(metrics["max_speed"].as_f64().unwrap() <= 2.0 + 1e-5);

    // The trajectory's last frame has every agent at the antipode of where it started (within
    // the example's two radii).
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("frame,id,x,y,z,vx,vy,vz"));
    let rows: Vec<Vec<f32>> = lines.map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len() as u64, 80 * (steps + 1));
    let (first, last) = (&rows[..80], &rows[rows.len() - 80..]);
    for (a, b) in first.iter().zip(last) {
        assert_eq!(a[1], b[1], "same agent");
        let gap = ((a[2] + b[2]).powi(2) + (a[3] + b[3]).powi(2) + (a[4] + b[4]).powi(2)).sqrt();
        assert!(gap <= 3.0 + 1e-4, "agent {} ended {gap} m from its antipode", a[1]);
    }

    let (w, _, frames) = gif_frames(&out.join("run.gif"));
    assert_eq!(w, 160);
    assert_eq!(frames.len(), 20);
    assert!(frames.windows(2).all(|f| f[0] != f[1]), "every frame moves (the camera circles)");

    let bad = swerve(&["sphere", "--agents", "1", "--out", out.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert_eq!(text(&bad.stderr).trim().lines().count(), 1, "{}", text(&bad.stderr));
    assert!(text(&bad.stderr).contains("--agents"));
}

/// `--mover`: a sphere flies through the crossing and the agents avoid it. The clearance the
/// metrics report is checked against one computed from the trajectory and the mover's path
/// (2 sphere radii out on −x, at 2 m/s along x, 0.125 s a step).
#[test]
fn sphere_with_a_mover_keeps_the_agents_clear_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sphere");
    let result = swerve(&["sphere", "--agents", "80", "--mover", "3", "--no-gif", "--out", out.to_str().unwrap()]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert!(text(&result.stdout).contains("mover: closest agent surface"), "{}", text(&result.stdout));
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    let reported = metrics["mover_min_clearance"].as_f64().unwrap();
    assert_eq!(metrics["arrived"].as_u64(), Some(80));

    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let sphere_radius = 10.0 * (80.0 / (4.0 * std::f64::consts::PI)).sqrt();
    let mut clearance = f64::INFINITY;
    for line in csv.lines().skip(1) {
        let f: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        if f[0] == 0.0 {
            continue; // before the first step
        }
        let mover = [-2.0 * sphere_radius + 2.0 * 0.125 * f[0], 0.3, 0.2];
        let d = ((f[2] - mover[0]).powi(2) + (f[3] - mover[1]).powi(2) + (f[4] - mover[2]).powi(2)).sqrt();
        clearance = clearance.min(d - 3.0 - 1.5);
    }
    assert!((clearance - reported).abs() < 1e-3, "trajectory says {clearance}, metrics {reported}");
    // No agent more than a few centimetres into it (the crush at the centre pushes a few
    // against it).
    assert!(clearance > -0.05, "an agent went {clearance} m into the mover");
    let bad = swerve(&["sphere", "--mover", "0", "--out", out.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert_eq!(text(&bad.stderr).trim().lines().count(), 1, "{}", text(&bad.stderr));
}

/// `swerve towers`: drones fly through a field of box towers; every one arrives, none comes
/// closer to a tower or the floor than its radius, and the GIF circles the block.
#[test]
fn towers_fly_every_drone_through_the_towers_clear_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("towers");
    let o = out.to_str().unwrap();
    let result = swerve(&["towers", "--agents", "40", "--out", o, "--gif-frames", "12", "--size", "120"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.starts_with("towers (3-D): 40 drones through "), "{stdout}");
    assert!(stdout.contains("arrived 40/40"), "{stdout}");

    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert_eq!(metrics["arrived"].as_u64(), Some(40), "{metrics}");
    let clearance = metrics["obstacle_min_clearance"].as_f64().unwrap();
    assert!(clearance >= -1e-3, "a drone went {clearance} m into an obstacle");
    // The towers are in the way: most straight lines cross one (the drones go round or over).
    let towers = metrics["towers"].as_u64().unwrap();
    assert!(towers >= 10 && metrics["triangles"].as_u64() == Some(12 * towers + 2), "{metrics}");
    assert!(metrics["lines_through_towers"].as_u64().unwrap() >= 20, "{metrics}");
    let steps = metrics["steps"].as_u64().unwrap();
    assert!((metrics["last_arrival_time"].as_f64().unwrap() - 0.125 * steps as f64).abs() < 1e-3, "{metrics}");
    assert!(metrics["max_speed"].as_f64().unwrap() <= 2.0 + 1e-5);
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    assert_eq!(csv.lines().count() as u64, 1 + 40 * (steps + 1));
    let (w, _, frames) = gif_frames(&out.join("run.gif"));
    assert_eq!((w, frames.len()), (120, 12));

    for bad in [
        &["towers", "--agents", "0", "--out", o][..],
        &["towers", "--agents", "1", "--out", o][..],
        &["towers", "--obstacle-horizon", "-1", "--out", o][..],
        &["towers", "--obstacle-horizon", "0", "--out", o][..],
        &["towers", "--size", "4", "--out", o][..],
    ] {
        let result = swerve(bad);
        assert!(!result.status.success(), "{bad:?} succeeded");
        let err = text(&result.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{bad:?}: {err}");
        assert!(err.contains(bad[1]), "{bad:?}: {err}");
    }
}

#[test]
fn run_writes_3d_outputs_for_a_sphere_scenario_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hourglass");
    let file = repo_root().join("scenarios/hourglass3d.toml");
    let args = ["run", file.to_str().unwrap(), "--no-gif", "--steps", "20", "--out", out.to_str().unwrap()];
    let result = swerve(&args);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.starts_with("hourglass3d: 601 spheres, 20 steps"), "{stdout}");
    assert!(stdout.contains("wrote") && stdout.contains("{trajectory.csv, metrics.json, scene.json}"), "{stdout}");

    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("frame,id,x,y,z,vx,vy,vz"));
    let rows: Vec<Vec<f32>> = lines.map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 601 * 21, "every sphere in every frame, 0 to 20");
    // The file's listed sphere comes first, where the file puts it, and stays in the box.
    assert_eq!(rows[0], [0.0, 0.0, 4.0, 16.0, -28.5, 0.0, 0.0, 0.0]);
    for r in &rows {
        assert_eq!(r.len(), 8);
        let inside = (0.0..=20.0).contains(&r[2]) && (0.0..=20.0).contains(&r[3]) && (-30.0..=20.0).contains(&r[4]);
        assert!(inside, "{r:?} is outside the file's bounds");
    }
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert_eq!((metrics["spheres"].as_u64(), metrics["triangles"].as_u64()), (Some(601), Some(9)), "{metrics}");
    assert_eq!(metrics["steps"], 20);
    assert_eq!(metrics["broad_phase"], "uniform-grid");
    assert!(!out.join("run.gif").exists());

    // The GIF orbits the scene: a small file, a few frames.
    let small = dir.path().join("two.toml");
    std::fs::write(
        &small,
        "name = \"two\"\ntime_step = 0.05\nsteps = 30\n[spheres]\nbounds = { min = [0, 0, 0], max = [4, 4, 4] }\n\
         [[spheres.sphere]]\nposition = [1, 2, 2]\nvelocity = [2, 0, 0]\nradius = 0.5\n\
         [[spheres.sphere]]\nposition = [3, 2, 2]\nradius = 0.5\n",
    )
    .unwrap();
    let gif_out = dir.path().join("two");
    let args =
        ["run", small.to_str().unwrap(), "--gif-frames", "6", "--size", "64", "--out", gif_out.to_str().unwrap()];
    let result = swerve(&args);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (w, h, frames) = gif_frames(&gif_out.join("run.gif"));
    assert_eq!((w, h, frames.len()), (64, 64, 6));
    assert_ne!(frames[0], frames[5]);
    let bad_size = swerve(&["run", small.to_str().unwrap(), "--size", "4", "--out", gif_out.to_str().unwrap()]);
    assert!(!bad_size.status.success());
    assert_eq!(text(&bad_size.stderr).lines().count(), 1, "{}", text(&bad_size.stderr));
}

const BROKEN_3D: &str =
    "name = \"bad3d\"\ntime_step = 0.01\nsteps = 10\n[[agents]]\nposition = [0.0, 0.0]\n[spheres]\n\
bounds = { min = [0, 0, 0], max = [10, 10, 10] }\n[[spheres.sphere]]\nposition = [5, 5, 9.5]\nradius = 1\n\
[[spheres.mesh]]\nvertices = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]\ntriangles = [[0, 1, 3]]\n";

#[test]
fn validate_and_run_report_every_problem_of_a_3d_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad3d.toml");
    std::fs::write(&file, BROKEN_3D).unwrap();
    let name = file.to_str().unwrap();
    let r = swerve(&["validate", name, "hourglass3d"]);
    assert!(!r.status.success());
    let stdout = text(&r.stdout);
    for expected in [
        format!("{name}:4: agents: a 2-D scenario's key: a file with [spheres] is a 3-D scenario and has no agents, balls, obstacles or crowd settings"),
        format!("{name}:8: spheres.sphere[0]: sphere at (5, 5, 9.5) with radius 1 does not fit inside the world's bounds (spheres.bounds; only a kinematic sphere may be outside)"),
        format!("{name}:13: spheres.mesh[0].triangles[0]: triangle 0 names vertex 3, but the mesh has 3 vertices"),
        format!("{name}: 3 problems"),
        "hourglass3d: ok (3-D: 601 spheres at start, 9 triangles)".to_string(),
    ] {
        assert!(stdout.lines().any(|l| l == expected), "missing `{expected}` in:\n{stdout}");
    }
    assert_eq!(stdout.lines().count(), 5, "{stdout}");

    let r = swerve(&["run", name, "--out", dir.path().join("o").to_str().unwrap()]);
    assert!(!r.status.success());
    let stderr = text(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&format!("error: {name}:4: agents: a 2-D scenario's key")), "{stderr}");
    assert!(stderr.contains("(and 2 more problems)"), "{stderr}");
}

#[test]
fn pit3d_runs_spheres_in_a_box_and_writes_3d_trajectories() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pit3d");
    let o = out.to_str().unwrap();
    let args = ["pit3d", "--spheres", "300", "--steps", "120", "--out", o, "--gif-frames", "12", "--size", "120"];
    let result = swerve(&args);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.starts_with("pit3d: 300 spheres, 120 steps"), "{stdout}");

    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert!(metrics["contacts"].as_u64().unwrap() > 0, "{metrics}");
    // Elastic spheres in a box: the energy holds, nothing is left overlapping.
    assert!(metrics["kinetic_energy_change"].as_f64().unwrap().abs() < 1e-9, "{metrics}");
    assert!(metrics["deepest_overlap"].as_f64().unwrap() < 1e-4, "{metrics}");

    // Every sphere of every frame inside the box the metrics' scene implies: the pit's box is
    // a cube from the origin; every centre stays at least a radius (1 m) inside it.
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("frame,id,x,y,z,vx,vy,vz"));
    let rows: Vec<Vec<f32>> = lines.map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 300 * 121);
    let side = rows.iter().flat_map(|r| [r[2], r[3], r[4]]).fold(0.0f32, f32::max) + 1.0;
    for r in &rows {
        assert!([r[2], r[3], r[4]].iter().all(|&c| (1.0 - 1e-4..=side).contains(&c)), "{r:?} outside the box");
    }
    let (w, _, frames) = gif_frames(&out.join("run.gif"));
    assert_eq!(w, 120);
    assert_eq!(frames.len(), 12);

    // Poured under gravity, the spheres end on the floor's side of the box.
    let poured = dir.path().join("poured");
    let args = ["pit3d", "--spheres", "200", "--steps", "300", "--gravity", "9.81", "--restitution", "0.2"];
    let result = swerve(&[&args[..], &["--no-gif", "--out", poured.to_str().unwrap()]].concat());
    assert!(result.status.success(), "{}", text(&result.stderr));
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(poured.join("metrics.json")).unwrap()).unwrap();
    assert!(metrics["kinetic_energy_end"].as_f64().unwrap() < 0.01 * metrics["kinetic_energy_start"].as_f64().unwrap());
    assert!(!poured.join("run.gif").exists());

    // The hourglass: poured through a funnel of eight triangles into the chamber below it.
    let glass = dir.path().join("hourglass");
    let args = ["pit3d", "--hourglass", "--spheres", "300", "--steps", "240", "--gravity", "9.81"];
    let args = [&args[..], &["--restitution", "0.3", "--no-gif", "--out", glass.to_str().unwrap()]].concat();
    let result = swerve(&args);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(glass.join("metrics.json")).unwrap()).unwrap();
    assert_eq!(metrics["triangles"], 8, "{metrics}");
    let csv = std::fs::read_to_string(glass.join("trajectory.csv")).unwrap();
    let last: Vec<Vec<f32>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect::<Vec<f32>>())
        .filter(|r| r[0] == 240.0)
        .collect();
    // The pit's side, from its start (a cube from the origin); the funnel's opening is half a
    // side below its floor.
    let side = csv
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("0,"))
        .map(|l| l.split(',').nth(4).unwrap().parse::<f32>().unwrap())
        .fold(0.0f32, f32::max)
        + 1.0;
    let below = last.iter().filter(|r| r[4] < -0.5 * side).count();
    assert!(below > 0, "no sphere came through the funnel in 4 s");
    assert!(last.iter().all(|r| r[4] > -1.5 * side), "a sphere left through the floor");

    for bad in [
        &["pit3d", "--spheres", "0"][..],
        &["pit3d", "--fraction", "0.9"],
        &["pit3d", "--restitution", "1.5"],
        &["pit3d", "--broad-phase", "bvh"],
        &["pit3d", "--hourglass", "--mixed"],
        &["pit3d", "--rolling-resistance=-0.1"],
    ] {
        let result = swerve(&[bad, &["--out", o]].concat());
        assert!(!result.status.success(), "{bad:?} succeeded");
        assert_eq!(text(&result.stderr).trim().lines().count(), 1, "{bad:?}: {}", text(&result.stderr));
    }
}

#[test]
fn a_run_records_removed_obstacles_and_render_draws_them_until_then() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("door");
    let result = swerve(&["run", "door", "--out", out.to_str().unwrap(), "--gif-frames", "2", "--threads", "1"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scene.json")).unwrap()).unwrap();
    assert_eq!(scene["obstacles"].as_array().unwrap().len(), 3, "every obstacle of the file");
    let removals = scene["obstacle_removals"].as_array().unwrap();
    assert_eq!(removals.len(), 1);
    assert_eq!((removals[0]["obstacle"].as_u64(), removals[0]["frame"].as_u64()), (Some(2), Some(60)));
    assert!((removals[0]["time"].as_f64().unwrap() - 6.0).abs() < 1e-4);
    // Every frame re-rendered: the door (about 150 pixels long, 2 wide) is drawn up to frame
    // 59 and gone from frame 60, while the corridor's walls stay.
    let gif = out.join("all.gif");
    let result = swerve(&["render", out.to_str().unwrap(), "--max-frames", "1000", "--out", gif.to_str().unwrap()]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(&gif).unwrap()).unwrap();
    let mut obstacle_pixels = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        obstacle_pixels.push(frame.buffer.chunks(4).filter(|p| p[..3] == [88, 88, 96]).count());
    }
    assert_eq!(obstacle_pixels.len(), 1 + 192 /* the run stops at step 192 */);
    let (before, after) = (obstacle_pixels[59], obstacle_pixels[60]);
    assert!(before > after + 100, "door pixels: {before} in frame 59, {after} in frame 60");
    assert!(obstacle_pixels[..60].iter().all(|&n| n + 20 > before), "{obstacle_pixels:?}");
    assert!(obstacle_pixels[60..].iter().all(|&n| n < after + 20 && n > 1000), "{obstacle_pixels:?}");
    let svg = out.join("paths.svg");
    let result = swerve(&["render", out.to_str().unwrap(), "--format", "svg", "--out", svg.to_str().unwrap()]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches("stroke-dasharray").count(), 1, "the door, dashed");
}

#[test]
fn avoidance_layers_in_a_file_run_and_bad_ones_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("layers.toml");
    let good = "name = \"layers\"\ntime_step = 0.1\nsteps = 5\n[[agents]]\nposition = [0.0, 0.0]\n\
                avoidance_mask = 0b110\n[[agents]]\nposition = [5.0, 0.0]\navoidance_layers = 0x4\n";
    std::fs::write(&file, good).unwrap();
    let out = dir.path().join("out");
    let r = swerve(&["run", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-gif"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let v = swerve(&["validate", file.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v.stderr));
    for (bad, message) in [
        ("avoidance_mask = -1", "must be between 0 and 4294967295"),
        ("avoidance_mask = 6.0", "expected an integer bitmask"),
        ("avoidance_mask = \"0b110\"", "expected an integer bitmask"),
        ("avoidance_mask = 4294967296", "must be between 0 and 4294967295"),
    ] {
        std::fs::write(&file, good.replace("avoidance_mask = 0b110", bad)).unwrap();
        let r = swerve(&["run", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-gif"]);
        assert!(!r.status.success(), "{bad}");
        let stderr = text(&r.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let expected = format!("error: {}:6: agents[0].avoidance_mask: {message}", file.display());
        assert!(stderr.starts_with(&expected), "{bad}: {stderr}");
    }
}

/// The `key = value` lines of each `[[crowd3d.lattice]]` table of a scenario file, read here
/// without the library (comments cut; the built-in file's values are one line each).
fn lattice_tables(toml: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut tables = Vec::new();
    let mut current = None;
    for line in toml.lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.starts_with('[') {
            tables.extend(current.take());
            if line == "[[crowd3d.lattice]]" {
                current = Some(std::collections::HashMap::new());
            }
        } else if let (Some(table), Some((key, value))) = (current.as_mut(), line.split_once('=')) {
            table.insert(key.trim().to_string(), value.trim().to_string());
        }
    }
    tables.extend(current);
    tables
}

fn vector3(value: &str) -> [f32; 3] {
    let numbers: Vec<f32> = value.trim_matches(['[', ']']).split(',').map(|x| x.trim().parse().unwrap()).collect();
    numbers.try_into().unwrap()
}

/// `swerve run` on the built-in 3-D crowd: the three files, every agent in every frame, and the
/// start where the file's lattices put it (origin + i·spacing, computed here from the file).
#[test]
fn run_plays_a_3d_crowd_scenario_and_writes_trajectory_metrics_and_gif() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("window");
    let o = out.to_str().unwrap();
    let result = swerve(&["run", "window3d", "--steps", "40", "--out", o, "--gif-frames", "4", "--size", "64"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.starts_with("window3d (3-D crowd): 128 agents"), "{stdout}");
    assert!(stdout.contains("40 steps") && stdout.contains("min separation"), "{stdout}");
    let files = "{trajectory.csv, metrics.json, scene.json, movers.csv, run.gif}";
    assert!(stdout.contains("wrote") && stdout.contains(files), "{stdout}");

    let file = std::fs::read_to_string(repo_root().join("scenarios/window3d.toml")).unwrap();
    let lattices = lattice_tables(&file);
    assert_eq!(lattices.len(), 2, "the file's two swarms");
    let mut expected: Vec<Vec<[f32; 3]>> = Vec::new();
    for l in &lattices {
        let (origin, spacing) = (vector3(&l["origin"]), vector3(&l["spacing"]));
        let count = |key: &str| l[key].parse::<usize>().unwrap();
        let mut starts = Vec::new();
        for i in 0..count("columns") {
            for j in 0..count("rows") {
                for k in 0..count("layers") {
                    let index = [i, j, k];
                    starts.push(std::array::from_fn(|a| origin[a] + index[a] as f32 * spacing[a]));
                }
            }
        }
        expected.push(starts);
    }
    let agents: usize = expected.iter().map(Vec::len).sum();
    assert_eq!(agents, 128);

    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("frame,id,x,y,z,vx,vy,vz"));
    let rows: Vec<Vec<f32>> = lines.map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), agents * 41, "every agent in every frame, 0 to 40");
    for (n, r) in rows.iter().enumerate() {
        assert_eq!(r.len(), 8);
        assert_eq!((r[0], r[1]), ((n / agents) as f32, (n % agents) as f32), "row {n}: frame and id in order");
    }
    // Frame 0 is the start: each lattice's agents, in the file's order of lattices, at rest.
    let mut first = 0;
    for starts in &mut expected {
        let block = &rows[first..first + starts.len()];
        assert!(block.iter().all(|r| r[5..] == [0.0, 0.0, 0.0]), "agents start at rest");
        let mut got: Vec<[f32; 3]> = block.iter().map(|r| [r[2], r[3], r[4]]).collect();
        let order = |a: &[f32; 3], b: &[f32; 3]| a.partial_cmp(b).unwrap();
        got.sort_by(order);
        starts.sort_by(order);
        assert_eq!(&got, starts, "agents {first}.. start on their lattice");
        first += starts.len();
    }
    // And they move: every agent is somewhere else by frame 40.
    let last = &rows[rows.len() - agents..];
    assert!(rows[..agents].iter().zip(last).all(|(a, b)| a[2..5] != b[2..5]), "an agent did not move");

    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert_eq!(metrics["steps"], 40, "{metrics}");
    assert_eq!(metrics["agents"], 128, "{metrics}");
    assert_eq!(metrics["step_limit"], 40, "{metrics}");
    assert!((metrics["simulated_time"].as_f64().unwrap() - 40.0 * 0.125).abs() < 1e-6, "{metrics}");
    let entries = |table: &str| file.lines().filter(|l| l.trim_start().starts_with(table)).count() as u64;
    let counts = [&metrics["boxes"], &metrics["meshes"], &metrics["movers"]].map(|v| v.as_u64());
    let in_file = ["[[crowd3d.box]]", "[[crowd3d.mesh]]", "[[crowd3d.mover]]"].map(|t| Some(entries(t)));
    assert_eq!(counts, in_file, "{metrics}");
    let groups: Vec<String> = lattices.iter().map(|l| l["group"].trim_matches('"').to_string()).collect();
    assert_eq!(metrics["groups"], serde_json::json!(groups));
    assert!(metrics["max_speed"].as_f64().unwrap() <= 2.0 + 1e-5, "RVO2-3D's default max speed");
    assert!(metrics["step_seconds"].as_f64().unwrap() > 0.0);

    let (w, h, frames) = gif_frames(&out.join("run.gif"));
    assert_eq!((w, h, frames.len()), (64, 64, 4));
    assert!(frames.windows(2).all(|f| f[0] != f[1]), "every frame moves (the camera circles)");

    // `validate` sums the file up in one line.
    let r = swerve(&["validate", "window3d"]);
    assert!(r.status.success(), "{}", text(&r.stdout));
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let summary = format!(
        "window3d: ok (3-D crowd: {agents} agents at start, {}, {}, {})",
        plural(entries("[[crowd3d.box]]"), "box", "boxes"),
        plural(entries("[[crowd3d.mesh]]"), "mesh", "meshes"),
        plural(entries("[[crowd3d.mover]]"), "mover", "movers")
    );
    assert_eq!(text(&r.stdout).trim(), summary);
}

/// A 3-D crowd file with a mistake: `validate` names file, line and key and fails; `run`
/// says the same in one line on stderr, fails, and writes nothing.
#[test]
fn a_bad_3d_crowd_file_is_one_line_naming_file_line_and_key() {
    let header = "name = \"bad-crowd\"\ntime_step = 0.125\nsteps = 10\n";
    let backwards_box = format!(
        "{header}[[crowd3d.agent]]\nposition = [0.0, 0.0, 5.0]\ngoal = [10.0, 0.0, 5.0]\n\
         [[crowd3d.box]]\nmin = [2.0, -1.0, 0.0]\nmax = [1.0, 1.0, 3.0]\n"
    );
    let drone_in_a_box = format!(
        "{header}[[crowd3d.agent]]\nposition = [5.0, 0.0, 5.0]\ngoal = [-5.0, 0.0, 5.0]\n\
         [[crowd3d.agent]]\nposition = [0.0, 0.5, 1.0]\ngoal = [10.0, 0.0, 5.0]\n\
         [[crowd3d.box]]\nmin = [-1.0, -1.0, 0.0]\nmax = [1.0, 1.0, 3.0]\n"
    );
    // (file, the line the problem is on, its key, a word of the message)
    let line_of = |text: &str, start: &str| 1 + text.lines().position(|l| l.starts_with(start)).unwrap();
    let cases = [
        (&backwards_box, line_of(&backwards_box, "max ="), "crowd3d.box[0].max", "greater than min"),
        (&drone_in_a_box, line_of(&drone_in_a_box, "position = [0.0"), "crowd3d.agent[1].position", "crowd3d.box[0]"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (k, (contents, line, key, words)) in cases.into_iter().enumerate() {
        let file = dir.path().join(format!("bad{k}.toml"));
        std::fs::write(&file, contents).unwrap();
        let name = file.to_str().unwrap();
        let r = swerve(&["validate", name]);
        assert!(!r.status.success(), "validate accepted {contents}");
        let stdout = text(&r.stdout);
        let problem = format!("{name}:{line}: {key}: ");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{stdout}");
        assert!(lines[0].starts_with(&problem) && lines[0].contains(words), "expected `{problem}…{words}…`:\n{stdout}");
        assert_eq!(lines[1], format!("{name}: 1 problem"));

        let o = dir.path().join(format!("out{k}"));
        let r = swerve(&["run", name, "--out", o.to_str().unwrap()]);
        assert!(!r.status.success());
        let stderr = text(&r.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(&format!("error: {problem}")) && stderr.contains(words), "{stderr}");
        assert!(!o.exists(), "a failed run wrote {}", o.display());
    }
}

/// A 3-D crowd file's own `stop` rule ends the run before its step limit, an obstacle's
/// `remove_at` is counted, and `--no-gif` writes no GIF.
#[test]
fn a_3d_crowd_run_stops_when_all_are_at_their_goals() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pass.toml");
    std::fs::write(
        &file,
        "name = \"pass\"\ntime_step = 0.125\nsteps = 1000\nstop = \"all-at-goal\"\n\
         [[crowd3d.agent]]\nposition = [-5.0, 0.0, 5.0]\ngoal = [5.0, 0.0, 5.0]\n\
         [[crowd3d.box]]\nmin = [20.0, 20.0, 0.0]\nmax = [21.0, 21.0, 1.0]\nremove_at = 1.0\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let result = swerve(&["run", file.to_str().unwrap(), "--no-gif", "--out", out.to_str().unwrap()]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    let files = "{trajectory.csv, metrics.json, scene.json}";
    assert!(stdout.contains("arrived 1/1") && stdout.contains(files), "{stdout}");
    assert!(!out.join("run.gif").exists());
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    let steps = metrics["steps"].as_u64().unwrap();
    // 10 m at 1 m/s is about 80 steps of 0.125 s, less the goal tolerance (the radius).
    assert!((60..=100).contains(&steps), "{metrics}");
    assert_eq!(metrics["step_limit"], 1000, "{metrics}");
    assert_eq!((metrics["boxes"].as_u64(), metrics["obstacles_removed"].as_u64()), (Some(1), Some(1)), "{metrics}");
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    assert_eq!(csv.lines().count() as u64, 1 + (steps + 1));
    let last: Vec<f32> = csv.lines().last().unwrap().split(',').map(|f| f.parse().unwrap()).collect();
    assert_eq!(last[0] as u64, steps);
    let gap = ((last[2] - 5.0).powi(2) + last[3].powi(2) + (last[4] - 5.0).powi(2)).sqrt();
    assert!(gap <= 1.5 + 1e-4, "ended {gap} m from the goal");
}

/// Spawners and sinks in a 3-D crowd file: the trajectory holds each frame's agents as they
/// come and go, and the GIF is drawn for a population that changes.
#[test]
fn a_3d_crowd_with_a_spawner_and_a_sink_writes_its_changing_population() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stream.toml");
    std::fs::write(
        &file,
        "name = \"stream\"\ntime_step = 0.25\nsteps = 200\nstop = \"all-at-goal\"\n\
         [[crowd3d.spawn]]\nrate = 1.0\nlimit = 4\nmin = [-10.0, -10.0, 0.0]\nmax = [10.0, 10.0, 2.0]\n\
         goal = { offset = [0.0, 0.0, 6.0] }\nremove_at_goal = true\nradius = 0.5\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let args = ["run", file.to_str().unwrap(), "--gif-frames", "6", "--size", "64", "--out", out.to_str().unwrap()];
    let result = swerve(&args);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert!(out.join("run.gif").exists());
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert_eq!((metrics["agents"].as_u64(), metrics["arrived"].as_u64()), (Some(4), Some(4)), "{metrics}");
    let steps = metrics["steps"].as_u64().unwrap();
    // Per frame, the agents present: ids appear one a second (every 4 frames) from frame 0 and
    // leave once at their goal; the last frame is empty.
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut per_frame = vec![Vec::new(); steps as usize + 1];
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        per_frame[fields[0].parse::<usize>().unwrap()].push(fields[1].parse::<u32>().unwrap());
    }
    assert_eq!(per_frame[0], [0]);
    assert_eq!(per_frame[4], [0, 1]);
    assert!(per_frame.last().unwrap().is_empty(), "{:?}", per_frame.last());
    let ever: std::collections::BTreeSet<u32> = per_frame.iter().flatten().copied().collect();
    assert_eq!(ever.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
}

/// Decodes a GIF into its frames' RGBA pixels.
fn gif_rgba(path: &Path) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames.push(frame.buffer.to_vec());
    }
    frames
}

/// A 3-D crowd run's `scene.json` and `movers.csv` let `swerve render` draw it again: the
/// rendered GIF's first and last frames are the run's own, pixel for pixel; PNG frames and an
/// SVG of the paths come from the same files; a damaged file is one line naming it.
#[test]
fn render_draws_a_3d_run_again_as_the_run_drew_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("window");
    let o = out.to_str().unwrap();
    let result = swerve(&["run", "window3d", "--steps", "30", "--out", o, "--gif-frames", "4", "--size", "64"]);
    assert!(result.status.success(), "{}", text(&result.stderr));

    let file = std::fs::read_to_string(repo_root().join("scenarios/window3d.toml")).unwrap();
    let movers = file.lines().filter(|l| l.trim_start().starts_with("[[crowd3d.mover]]")).count();
    assert!(movers >= 1, "window3d has a mover");
    let scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scene.json")).unwrap()).unwrap();
    assert_eq!(scene["dimensions"], 3);
    assert_eq!(scene["bodies"].as_array().unwrap().len(), 128, "one body per agent");
    assert_eq!(scene["movers"].as_array().unwrap().len(), movers);
    let edges = scene["edges"].as_array().unwrap().len();
    assert!(edges >= 12, "the boxes' edges at least: {edges}");
    let track = std::fs::read_to_string(out.join("movers.csv")).unwrap();
    let rows: Vec<Vec<f32>> =
        track.lines().skip(1).map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), movers * 31, "every mover in every frame, 0 to 30");
    assert_ne!(rows[0][2..5], rows[rows.len() - movers][2..5], "the mover moves");

    let again = dir.path().join("again.gif");
    let args = ["render", o, "--out", again.to_str().unwrap(), "--max-frames", "4", "--size", "64"];
    let r = swerve(&args);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let (run, rendered) = (gif_rgba(&out.join("run.gif")), gif_rgba(&again));
    assert_eq!(rendered.len(), 4);
    assert!(run[0] == rendered[0], "the first frame is the run's own");
    assert!(run.last() == rendered.last(), "the last frame is the run's own");
    assert!(rendered[0] != rendered[3], "the crowd moved and the camera turned");

    let frames = dir.path().join("frames");
    let args = ["render", o, "--format", "png", "--max-frames", "3", "--out", frames.to_str().unwrap()];
    let r = swerve(&args);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let mut pngs: Vec<String> =
        std::fs::read_dir(&frames).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    pngs.sort();
    // Three frames, evenly spaced: the first, one about halfway and the last.
    assert_eq!((pngs.len(), pngs[0].as_str(), pngs[2].as_str()), (3, "frame_00000.png", "frame_00030.png"));
    let middle: usize = pngs[1]["frame_".len().."frame_".len() + 5].parse().unwrap();
    assert!((10..=20).contains(&middle), "{pngs:?}");

    let r = swerve(&["render", o, "--format", "svg", "--size", "200"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let svg = std::fs::read_to_string(out.join("render.svg")).unwrap();
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="200""#), "{svg}");
    assert_eq!(svg.matches("<polyline").count(), 128 + movers, "a path for each agent and mover");
    assert_eq!(svg.matches("<circle").count(), 128 + movers, "each where it ended");
    assert!(svg.matches("<line ").count() <= edges && svg.matches("<line ").count() >= 12);

    // Damaged files: one line naming the file (and the line and key), a non-zero exit.
    let fails = |needle: &str| {
        let r = swerve(&["render", o, "--out", again.to_str().unwrap()]);
        let stderr = text(&r.stderr);
        assert!(!r.status.success() && stderr.trim().lines().count() == 1, "{stderr}");
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    };
    let scene_path = out.join("scene.json");
    let scene_text = std::fs::read_to_string(&scene_path).unwrap();
    let distance = format!("\"distance\":{}", scene["distance"]);
    assert!(scene_text.contains(&distance), "{distance}");
    std::fs::write(&scene_path, scene_text.replace(&distance, "\"distance\":-1.0")).unwrap();
    fails("scene.json: distance: -1");
    std::fs::write(&scene_path, &scene_text).unwrap();
    std::fs::remove_file(out.join("movers.csv")).unwrap();
    let listed = if movers == 1 { "1 mover".to_string() } else { format!("{movers} movers") };
    fails(&format!("movers.csv: missing (scene.json lists {listed})"));
    std::fs::write(out.join("movers.csv"), &track).unwrap();
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    let mut lines: Vec<&str> = csv.lines().collect();
    lines[3] = "0,2,0,north,0,0,0,0";
    std::fs::write(out.join("trajectory.csv"), lines.join("\n")).unwrap();
    fails("trajectory.csv:4: y: 'north' is not a y");
}

/// `swerve sphere`, `towers` and `pit3d` write a `scene.json` too (with a mover, its track),
/// with a body for every id of the trajectory, and `swerve render` draws each run.
#[test]
fn every_3d_command_writes_a_scene_that_render_draws() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [(&str, &[&str]); 3] = [
        ("sphere", &["sphere", "--agents", "20", "--steps", "30", "--mover", "3", "--no-gif"]),
        ("towers", &["towers", "--agents", "12", "--steps", "20", "--no-gif"]),
        ("pit3d", &["pit3d", "--spheres", "50", "--steps", "20", "--no-gif"]),
    ];
    for (name, args) in runs {
        let out = dir.path().join(name);
        let mut args = args.to_vec();
        args.extend(["--out", out.to_str().unwrap()]);
        let r = swerve(&args);
        assert!(r.status.success(), "{name}: {}", text(&r.stderr));
        assert!(text(&r.stdout).contains("scene.json"), "{name}: {}", text(&r.stdout));
        let scene: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("scene.json")).unwrap()).unwrap();
        let csv = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
        let ids: std::collections::BTreeSet<u32> =
            csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
        assert_eq!(scene["bodies"].as_array().unwrap().len(), ids.len(), "{name}");
        assert_eq!(ids.last().map(|&id| id as usize + 1), Some(ids.len()), "{name}: ids 0..n");
        let movers = scene.get("movers").map_or(0, |m| m.as_array().unwrap().len());
        assert_eq!(movers, usize::from(name == "sphere"), "{name}");
        assert_eq!(out.join("movers.csv").exists(), movers > 0, "{name}");
        let gif = out.join("render.gif");
        let r = swerve(&["render", out.to_str().unwrap(), "--max-frames", "5", "--size", "48"]);
        assert!(r.status.success(), "{name}: {}", text(&r.stderr));
        let (w, h, frames) = gif_frames(&gif);
        assert_eq!((w, h, frames.len()), (48, 48, 5), "{name}");
    }
}

/// A planar file with `[[movers]]` (the built-in `patrol`): `run` writes their track and
/// figures, the scene lists them, and `render` draws them (their paths dashed in the SVG).
#[test]
fn a_planar_run_with_movers_writes_and_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("patrol");
    let o = out.to_str().unwrap();
    let r = swerve(&["run", "patrol", "--steps", "60", "--out", o, "--gif-frames", "5", "--size", "120"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let stdout = text(&r.stdout);
    assert!(stdout.contains("movers: closest agent surface") && stdout.contains("movers.csv"), "{stdout}");
    let scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scene.json")).unwrap()).unwrap();
    let radii: Vec<f64> = scene["movers"].as_array().unwrap().iter().map(|m| m["radius"].as_f64().unwrap()).collect();
    assert_eq!(radii, [1.0, 1.5], "the file's two robots");
    let track = std::fs::read_to_string(out.join("movers.csv")).unwrap();
    let rows: Vec<Vec<f32>> =
        track.lines().skip(1).map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 2 * 61, "both robots in every frame, 0 to 60");
    // The cart drives along x = 0 from y = -14 at 0.8 m/s: 4.8 m in 6 s.
    let cart = rows.iter().rfind(|r| r[1] == 1.0).unwrap();
    assert!((cart[2] - 0.0).abs() < 1e-6 && (cart[3] + 14.0 - 4.8).abs() < 1e-3, "{cart:?}");
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metrics.json")).unwrap()).unwrap();
    assert!(metrics["min_mover_clearance"].is_number() && metrics["mover_overlaps"] == 0, "{metrics}");

    let r = swerve(&["render", o, "--format", "svg"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let svg = std::fs::read_to_string(out.join("render.svg")).unwrap();
    assert_eq!(svg.matches(r#"stroke-dasharray="3 2""#).count(), 2, "a dashed path per robot");
    let r = swerve(&["render", o, "--max-frames", "4"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(gif_frames(&out.join("render.gif")).2.len(), 4);
    std::fs::remove_file(out.join("movers.csv")).unwrap();
    let r = swerve(&["render", o]);
    let stderr = text(&r.stderr);
    assert!(!r.status.success() && stderr.trim().lines().count() == 1, "{stderr}");
    assert!(stderr.contains("movers.csv: missing or empty (scene.json lists 2 movers)"), "{stderr}");
}
