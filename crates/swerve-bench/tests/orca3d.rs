//! The 3-D ORCA benchmark's library on tiny crowds: swerve's 1- and 2-thread runs end in the
//! same bits, the table has a row per scene and says what agreed, large crowds wait for the
//! 100,000, and a peer that fails leaves its cells empty with the reason on the progress line.

use std::path::Path;
use swerve::orca3d::Vec3;
use swerve_bench::orca3d::{
    differing_agents, positions_fnv1a, positions_from_bytes, positions_to_bytes, render_markdown, run, time_rvo2_3d,
    time_swerve_steps, Row, Scene3,
};

#[test]
fn one_and_two_threads_end_in_the_same_bits() {
    for scene in [Scene3::sphere(48), Scene3::cube(40)] {
        let one = time_swerve_steps(&scene, 1).expect("valid scene");
        let two = time_swerve_steps(&scene, 2).expect("valid scene");
        assert_eq!(one.final_positions.len(), scene.positions.len());
        assert_eq!(positions_fnv1a(&one.final_positions), positions_fnv1a(&two.final_positions), "{}", scene.name);
        assert_eq!(differing_agents(&one.final_positions, &[&two.final_positions]), 0, "{}", scene.name);
        // The agents did move: the comparison is not of the start positions.
        assert_ne!(positions_fnv1a(&one.final_positions), positions_fnv1a(&scene.positions), "{}", scene.name);
        assert!(one.timing.median_ms > 0.0 && one.timing.min_ms <= one.timing.median_ms);
    }
    // The cube's lattice (11 m) is closer than the neighbour distance (15 m).
    assert!(time_swerve_steps(&Scene3::cube(64), 1).unwrap().mean_neighbours > 1.0);
}

#[test]
fn the_table_has_a_row_per_scene_and_says_the_threads_agree() {
    let mut lines = Vec::new();
    let mut runs = 0;
    let report = run(
        &[27, 64],
        None,
        |scene, threads| {
            runs += 1;
            time_swerve_steps(scene, threads).map_err(|e| e.to_string())
        },
        |line| lines.push(line.to_string()),
    );
    assert_eq!(runs, 12, "three families, two sizes, two thread counts");
    let names: Vec<&str> = report.rows.iter().map(|r| r.scene.as_str()).collect();
    assert_eq!(
        names,
        [
            "sphere 27",
            "sphere 64",
            "cube 27",
            "cube 64",
            "cube 27 (added in random order)",
            "cube 64 (added in random order)"
        ]
    );
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    assert!(lines.iter().any(|l| l.starts_with("cube 64 swerve 2 thread(s): median ")), "{lines:?}");
    let table = render_markdown(&report.rows);
    assert_eq!(table.lines().count(), 2 + 6, "{table}");
    for row in &report.rows {
        let line = table.lines().find(|l| l.starts_with(&format!("| {} |", row.scene))).expect("a row per scene");
        // No peer: its cells are empty; the two thread counts agree.
        assert!(line.contains(" | — | — / — | — | yes | "), "{line}");
        assert!(row.swerve_1t.is_some() && row.swerve_2t.is_some() && row.mean_neighbours.is_some());
    }
}

#[test]
fn crowds_above_a_hundred_thousand_wait_for_the_hundred_thousand() {
    let report = run(
        &[20, 2_000_000],
        None,
        |scene, threads| {
            assert!(scene.positions.len() <= 20, "{} ran", scene.name);
            time_swerve_steps(scene, threads).map_err(|e| e.to_string())
        },
        |_| {},
    );
    assert_eq!(report.rows.len(), 3);
    assert_eq!(report.notes.len(), 3);
    assert!(report.notes[0].starts_with("sphere 2000000: not run (sphere 100000 took ? ms"), "{:?}", report.notes);
}

#[test]
fn the_table_gives_the_peer_ratios_and_flags_differences() {
    let row = Row {
        scene: "cube 1000".into(),
        swerve_1t: Some(1.0),
        swerve_2t: Some(0.5),
        swerve_peak_bytes: Some(3 << 20),
        mean_neighbours: Some(8.74),
        rvo2_3d: Some(20.0),
        differing_agents: Some(3),
        threads_agree: Some(false),
    };
    let table = render_markdown(std::slice::from_ref(&row));
    assert!(
        table.contains(
            "| cube 1000 | 8.7 | 1.00 | 0.50 | 20.00 | 20.0× / 40.0× | **no** (3 agents differ) | **no** | 3 MiB |"
        ),
        "{table}"
    );
    let same = Row { differing_agents: Some(0), threads_agree: Some(true), ..row };
    assert!(render_markdown(&[same]).contains("| yes, bit for bit | yes |"));
}

#[test]
fn differing_agents_counts_every_bit() {
    let a = vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-4.0, 5.0, 0.0)];
    let mut b = a.clone();
    assert_eq!(differing_agents(&a, &[&b, &b]), 0);
    b[1].z = -0.0; // equal as numbers, not as bits
    assert_eq!(differing_agents(&a, &[&a, &b]), 1);
    assert_eq!(differing_agents(&a, &[&a[..1]]), 1, "a missing agent differs");
    assert_eq!(positions_from_bytes(&positions_to_bytes(&b)), b);
}

#[test]
fn a_failing_peer_leaves_its_cells_empty_and_says_why() {
    let scene = Scene3::sphere(16);
    let error = time_rvo2_3d(&scene, Path::new("/bin/false")).unwrap_err();
    assert!(error.starts_with("RVO2-3D peer failed"), "{error}");
    let error = time_rvo2_3d(&scene, Path::new("/no/such/python")).unwrap_err();
    assert!(error.starts_with("cannot run /no/such/python"), "{error}");
    let mut lines = Vec::new();
    let report = run(
        &[16],
        Some(Path::new("/bin/false")),
        |scene, threads| time_swerve_steps(scene, threads).map_err(|e| e.to_string()),
        |line| lines.push(line.to_string()),
    );
    assert!(report.rows.iter().all(|r| r.rvo2_3d.is_none() && r.differing_agents.is_none()));
    assert!(lines.iter().any(|l| l.starts_with("sphere 16: RVO2-3D peer failed")), "{lines:?}");
}

/// swerve against RVO2-3D through jt-pyrvo23d, as the table's check does, and the check can
/// fail: one agent started one unit in the last place away changes where the crowd ends.
#[test]
#[ignore = "needs a Python with numpy and jt-pyrvo23d: set SWERVE_RVO2_3D_PYTHON"]
fn final_positions_equal_rvo2_3d() {
    let python = std::env::var_os("SWERVE_RVO2_3D_PYTHON").expect("SWERVE_RVO2_3D_PYTHON names a Python with rvo23d");
    let python = Path::new(&python);
    // The shuffled crowds are decided in the grid's cell order (the sphere's ties too).
    let shuffled = |family: &str, n: usize| Scene3::by_name(family, n).expect("a family");
    for scene in
        [Scene3::sphere(200), Scene3::cube(216), shuffled("sphere-shuffled", 2_000), shuffled("cube-shuffled", 3_375)]
    {
        let ours = time_swerve_steps(&scene, 2).expect("valid scene");
        let theirs = time_rvo2_3d(&scene, python).expect("the RVO2-3D peer runs");
        assert_eq!(differing_agents(&theirs.final_positions, &[&ours.final_positions]), 0, "{}", scene.name);
        let mut nudged = scene.clone();
        nudged.positions[100].x = f32::from_bits(nudged.positions[100].x.to_bits() + 1);
        let theirs = time_rvo2_3d(&nudged, python).expect("the RVO2-3D peer runs");
        assert_ne!(differing_agents(&theirs.final_positions, &[&ours.final_positions]), 0, "{}", scene.name);
    }
}

/// A scene is rebuilt from its family and size (the report's child processes do so): the
/// shuffled cube too, as the same permutation of the cube.
#[test]
fn a_scene_is_rebuilt_from_its_family_and_size() {
    for family in ["sphere", "cube", "cube-shuffled", "sphere-shuffled"] {
        let scene = Scene3::by_name(family, 64).expect("a family");
        assert_eq!(scene.family, family);
        let again = Scene3::by_name(&scene.family, scene.positions.len()).expect("a family");
        assert_eq!(positions_fnv1a(&again.positions), positions_fnv1a(&scene.positions), "{family}");
        assert_eq!(positions_fnv1a(&again.goals), positions_fnv1a(&scene.goals), "{family}");
    }
    let (ordered, shuffled) = (Scene3::cube(64), Scene3::by_name("cube-shuffled", 64).unwrap());
    assert_ne!(positions_fnv1a(&ordered.positions), positions_fnv1a(&shuffled.positions));
    let sorted = |p: &[Vec3]| {
        let mut v: Vec<[u32; 3]> = p.iter().map(|q| q.to_array().map(f32::to_bits)).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(sorted(&ordered.positions), sorted(&shuffled.positions), "the same agents");
}
