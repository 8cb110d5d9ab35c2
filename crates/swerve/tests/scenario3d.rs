//! 3-D scenario files (a `[spheres]` table): a dropped sphere comes to rest on a triangle
//! floor, random regions place what they promise, a file steps exactly as the world built by
//! hand, every bad value is a problem with its line and key, and JSON reads the same.

use swerve::physics3d::{Aabb3, BroadPhaseKind, Sphere, Triangle, Vec3, World};
use swerve::scenario::{AnyScenario, Format, Problem, Scenario, SphereRunner, SphereScenario, BUILTINS};

fn parse(text: &str) -> SphereScenario {
    SphereScenario::parse(text, Format::Toml).unwrap_or_else(|problems| panic!("{problems:#?}"))
}

fn listing(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn a_sphere_dropped_on_a_triangle_floor_rests_at_its_radius() {
    // No walls: without the two triangles of the floor the sphere would fall for ever.
    let text = r#"name = "drop"
time_step = 0.016666668
steps = 240
[spheres]
gravity = [0.0, 0.0, -9.81]
[[spheres.triangle]]
corners = [[-5.0, -5.0, 0.0], [5.0, -5.0, 0.0], [5.0, 5.0, 0.0]]
[[spheres.triangle]]
corners = [[-5.0, -5.0, 0.0], [5.0, 5.0, 0.0], [-5.0, 5.0, 0.0]]
[[spheres.sphere]]
position = [1.5, -1.0, 3.0]
radius = 0.5
restitution = 0.0
friction = 0.4
"#;
    let scenario = parse(text);
    assert_eq!(scenario.spheres.triangle.len(), 2);
    let mut runner = SphereRunner::new(&scenario).unwrap();
    assert_eq!(runner.world().triangles().len(), 2);
    while !runner.is_finished() {
        runner.step();
    }
    assert_eq!(runner.steps_done(), 240);
    assert!((runner.time() - 4.0).abs() < 1e-5, "{}", runner.time());
    let sphere = runner.world().spheres()[0];
    // The resting solver leaves overlaps up to RESTING_SLOP of the radius alone.
    let slop = World::RESTING_SLOP * 0.5;
    assert!((sphere.position.z - 0.5).abs() <= slop + 1e-4, "rests at z = {}", sphere.position.z);
    assert!(sphere.velocity.length() < 0.05, "still moving at {}", sphere.velocity);
    // It fell straight down: nothing pushed it sideways.
    assert!((sphere.position.truncate() - glam::Vec2::new(1.5, -1.0)).length() < 1e-3, "{}", sphere.position);
}

const RANDOM: &str = r#"name = "random"
time_step = 0.01
steps = 1
[spheres]
bounds = { min = [-20.0, -20.0, -20.0], max = [20.0, 20.0, 20.0] }
[[spheres.sphere]]
position = [0.0, 0.0, 0.0]
radius = 3.0
kinematic = true
[[spheres.triangle]]
corners = [[-12.0, -12.0, 2.0], [12.0, -12.0, 2.0], [0.0, 12.0, 2.0]]
[[spheres.random]]
count = 400
min = [-8.0, -6.0, -4.0]
max = [8.0, 6.0, 4.0]
radius = [0.2, 0.35]
speed = [1.0, 2.0]
restitution = 0.5
friction = 0.25
rolling_resistance = 0.1
seed = 11
"#;

#[test]
fn random_spheres_are_inside_their_region_apart_and_reproducible() {
    let scenario = parse(RANDOM);
    let spheres = scenario.initial_spheres().unwrap();
    assert_eq!(spheres.len(), 401, "the listed sphere, then the 400 random ones");
    let (listed, random) = spheres.split_at(1);
    assert!(listed[0].is_kinematic());
    let (min, max) = (Vec3::new(-8.0, -6.0, -4.0), Vec3::new(8.0, 6.0, 4.0));
    let plate =
        Triangle::new(Vec3::new(-12.0, -12.0, 2.0), Vec3::new(12.0, -12.0, 2.0), Vec3::new(0.0, 12.0, 2.0)).unwrap();
    for s in random {
        let r = Vec3::splat(s.radius);
        assert!((min + r).cmple(s.position).all() && s.position.cmple(max - r).all(), "{s:?} leaves the region");
        assert!((0.2..=0.35).contains(&s.radius), "{s:?}");
        assert!((1.0..=2.0).contains(&s.velocity.length()), "{s:?}");
        let mass = 4.0 / 3.0 * std::f32::consts::PI * s.radius.powi(3);
        assert!((s.mass - mass).abs() <= 1e-5 * mass, "mass by volume: {s:?}");
        assert_eq!((s.restitution, s.friction, s.rolling_resistance), (0.5, 0.25, 0.1));
        let to_plate = plate.closest_point(s.position.as_dvec3()).distance(s.position.as_dvec3());
        assert!(to_plate >= f64::from(s.radius), "{s:?} cuts the triangle");
    }
    for (i, a) in spheres.iter().enumerate() {
        for b in &spheres[i + 1..] {
            assert!(a.position.distance(b.position) >= a.radius + b.radius, "{a:?} overlaps {b:?}");
        }
    }
    // Directions are spread over the whole sphere, not one octant.
    let mean: Vec3 = random.iter().map(|s| s.velocity.normalize()).sum::<Vec3>() / random.len() as f32;
    assert!(mean.length() < 0.15, "mean direction {mean}");

    // The same seed gives the same spheres; another seed others.
    assert_eq!(parse(RANDOM).initial_spheres().unwrap(), spheres);
    let reseeded = parse(&RANDOM.replace("seed = 11", "seed = 12")).initial_spheres().unwrap();
    assert_eq!(reseeded.len(), 401);
    assert_ne!(reseeded[1..], spheres[1..]);

    // The world holds them as placed.
    let world = scenario.world().unwrap();
    assert_eq!(world.spheres(), &spheres[..]);

    // A region that cannot hold its spheres is a problem of its count, with the line.
    let crowded = RANDOM.replace("max = [8.0, 6.0, 4.0]", "max = [-6.0, -4.0, -2.0]");
    let problems = SphereScenario::parse(&crowded, Format::Toml).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!((problems[0].line, problems[0].key.as_str()), (Some(13), "spheres.random[0].count"));
    assert!(problems[0].message.starts_with("could place only "), "{}", problems[0].message);
}

const MESH: &str = r#"name = "ramp"
time_step = 0.01
steps = 50
[spheres]
broad_phase = "octree"
bounds = { min = [0.0, 0.0, 0.0], max = [10.0, 6.0, 8.0] }
gravity = [0.0, 0.0, -9.81]
linear_damping = 0.1
solver_iterations = 14
substeps = 3
continuous_collision = false
[[spheres.mesh]]
vertices = [[0.0, 0.0, 4.0], [6.0, 0.0, 1.0], [6.0, 6.0, 1.0], [0.0, 6.0, 4.0]]
triangles = [[0, 1, 2], [0, 2, 3]]
[[spheres.sphere]]
position = [1.0, 2.0, 4.5]
velocity = [0.5, 0.0, 0.0]
radius = 0.5
mass = 2.5
restitution = 0.2
friction = 0.6
rolling_resistance = 0.05
angular_velocity = [0.0, 1.0, 0.0]
[[spheres.sphere]]
position = [1.5, 4.0, 4.2]
radius = 0.4
[[spheres.sphere]]
position = [9.0, 3.0, 4.0]
velocity = [-3.0, 0.0, 0.0]
radius = 0.3
kinematic = true
"#;

/// The world `MESH` describes, built with the physics API alone.
fn mesh_world_by_hand() -> World {
    let bounds = Aabb3 { min: Vec3::ZERO, max: Vec3::new(10.0, 6.0, 8.0) };
    let mut world = World::new(Some(bounds), BroadPhaseKind::Octree).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    world.set_linear_damping(0.1).unwrap();
    world.set_solver_iterations(14).unwrap();
    world.set_substeps(3).unwrap();
    world.set_continuous_collision(false);
    let vertices =
        [Vec3::new(0.0, 0.0, 4.0), Vec3::new(6.0, 0.0, 1.0), Vec3::new(6.0, 6.0, 1.0), Vec3::new(0.0, 6.0, 4.0)];
    world.add_mesh(&vertices, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    let first = Sphere::new(Vec3::new(1.0, 2.0, 4.5), Vec3::new(0.5, 0.0, 0.0), 0.5)
        .with_mass(2.5)
        .with_restitution(0.2)
        .with_friction(0.6)
        .with_rolling_resistance(0.05);
    world.add_sphere(Sphere { angular_velocity: Vec3::new(0.0, 1.0, 0.0), ..first }).unwrap();
    world.add_sphere(Sphere::new(Vec3::new(1.5, 4.0, 4.2), Vec3::ZERO, 0.4)).unwrap();
    world.add_sphere(Sphere::kinematic(Vec3::new(9.0, 3.0, 4.0), Vec3::new(-3.0, 0.0, 0.0), 0.3)).unwrap();
    world
}

fn bits(world: &World) -> Vec<[u32; 11]> {
    world
        .spheres()
        .iter()
        .map(|s| {
            let (p, v, w) = (s.position, s.velocity, s.angular_velocity);
            [p.x, p.y, p.z, v.x, v.y, v.z, w.x, w.y, w.z, s.radius, s.mass].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn a_mesh_file_steps_as_the_same_world_built_by_hand() {
    let scenario = parse(MESH);
    let mut runner = SphereRunner::new(&scenario).unwrap();
    let mut by_hand = mesh_world_by_hand();
    assert_eq!(runner.world().triangles(), by_hand.triangles());
    assert_eq!(runner.world().broad_phase(), BroadPhaseKind::Octree);
    assert_eq!((runner.world().substeps(), runner.world().solver_iterations()), (3, 14));
    assert_eq!(bits(runner.world()), bits(&by_hand));
    while !runner.is_finished() {
        runner.step();
        by_hand.step(0.01);
    }
    assert_eq!(runner.steps_done(), 50);
    assert_eq!(bits(runner.world()), bits(&by_hand), "same bits after 50 steps");
    // The first sphere ends on the ramp, so the comparison covers mesh contacts.
    let p = runner.world().spheres()[0].position.as_dvec3();
    let gap = runner.world().triangles().iter().map(|t| t.closest_point(p).distance(p)).fold(f64::INFINITY, f64::min);
    assert!((gap - 0.5).abs() < 0.02, "the first sphere is {gap} m from the ramp");
    // Each setting reached the world: with another value the run differs.
    for (from, to) in [
        ("substeps = 3", "substeps = 1"),
        ("linear_damping = 0.1", "linear_damping = 0.0"),
        ("friction = 0.6", "friction = 0.0"),
        ("angular_velocity = [0.0, 1.0, 0.0]", "angular_velocity = [0.0, 0.0, 0.0]"),
    ] {
        let mut other = SphereRunner::new(&parse(&MESH.replace(from, to))).unwrap();
        while !other.is_finished() {
            other.step();
        }
        assert_ne!(bits(other.world()), bits(runner.world()), "{to} changed nothing");
    }
}

/// A small valid file; each case of the table below changes one part of it.
const BASE: &str = r#"name = "base"
time_step = 0.01
steps = 10
[spheres]
bounds = { min = [0.0, 0.0, 0.0], max = [10.0, 10.0, 10.0] }
gravity = [0.0, 0.0, -9.81]
[[spheres.sphere]]
position = [5.0, 5.0, 5.0]
radius = 1.0
[[spheres.triangle]]
corners = [[0.0, 0.0, 1.0], [10.0, 0.0, 1.0], [0.0, 10.0, 1.0]]
[[spheres.mesh]]
vertices = [[0.0, 0.0, 2.0], [10.0, 0.0, 2.0], [10.0, 10.0, 2.0]]
triangles = [[0, 1, 2]]
[[spheres.random]]
count = 5
min = [1.0, 1.0, 7.0]
max = [9.0, 9.0, 9.0]
radius = [0.2, 0.3]
speed = [0.0, 1.0]
seed = 1
"#;

#[test]
fn every_bad_value_is_a_problem_naming_its_line_and_key() {
    parse(BASE);
    // (replace this, with that, line, key, part of the message)
    let cases: &[(&str, &str, usize, &str, &str)] = &[
        ("radius = 1.0", "radius = 1.0\ncolour = \"red\"", 10, "spheres.sphere[0].colour", "unknown key"),
        ("steps = 10", "steps = 10\nspeed = 3", 4, "speed", "unknown key (expected one of: name, description"),
        ("[spheres]", "[[agents]]\nposition = [0.0, 0.0]\n[spheres]", 4, "agents", "a 2-D scenario's key"),
        ("[spheres]", "[balls]\n[spheres]", 4, "balls", "a 2-D scenario's key"),
        ("[[0, 1, 2]]", "[[0, 1, 3]]", 14, "spheres.mesh[0].triangles[0]", "names vertex 3, but the mesh has 3"),
        ("[[0, 1, 2]]", "[[0, 1, -1]]", 14, "spheres.mesh[0].triangles[0]", "vertex indices run from 0"),
        ("[[0, 1, 2]]", "[[0, 1, 2.0]]", 14, "spheres.mesh[0].triangles[0]", "expected an integer vertex index"),
        ("[[0, 1, 2]]", "[[0, 1]]", 14, "spheres.mesh[0].triangles[0]", "expected three vertex indices"),
        ("[[0, 1, 2]]", "[[0, 1, 2],\n  [0, 2, 2]]", 15, "spheres.mesh[0].triangles[1]", "triangle 1 has no area"),
        (
            "[0.0, 10.0, 1.0]]",
            "[5.0, 0.0, 1.0]]",
            11,
            "spheres.triangle[0].corners",
            "has no area (its corners are repeated or in a line)",
        ),
        ("[0.0, 10.0, 1.0]]", "[0.0, 10.0, 1.0], [1.0, 1.0, 1.0]]", 11, "spheres.triangle[0].corners", "exactly 3"),
        ("[5.0, 5.0, 5.0]", "[5.0, 5.0, 9.5]", 7, "spheres.sphere[0]", "does not fit inside the world's bounds"),
        ("radius = 1.0", "radius = inf", 9, "spheres.sphere[0].radius", "must be a finite number, got inf"),
        ("[0.0, 0.0, -9.81]", "[0.0, 0.0, nan]", 6, "spheres.gravity[2]", "must be a finite number"),
        ("radius = 1.0", "radius = -1.0", 9, "spheres.sphere[0].radius", "must be greater than 0, got -1"),
        ("radius = 1.0", "radius = 1e13", 9, "spheres.sphere[0].radius", "its volume, 4/3 π r³, must be finite"),
        ("[5.0, 5.0, 5.0]", "[5.0, 5.0]", 8, "spheres.sphere[0].position", "expected a point [x, y, z]"),
        ("radius = 1.0\n", "", 7, "spheres.sphere[0].radius", "missing key"),
        ("[spheres]", "[spheres]\nbroad_phase = \"bvh\"", 5, "spheres.broad_phase", "unknown 3-D broad phase \"bvh\""),
        ("[spheres]", "[spheres]\nsubsteps = 65", 5, "spheres.substeps", "must be at most 64"),
        ("[spheres]", "[spheres]\ncontinuous_collision = 1", 5, "spheres.continuous_collision", "true or false"),
        ("[1.0, 1.0, 7.0]", "[-1.0, 1.0, 7.0]", 17, "spheres.random[0].min", "must lie inside spheres.bounds"),
        ("max = [9.0, 9.0, 9.0]", "max = [9.0, 0.5, 9.0]", 18, "spheres.random[0].max", "greater than min's"),
        ("[0.2, 0.3]", "[0.3, 0.2]", 19, "spheres.random[0].radius", "needs 0 < low ≤ high"),
        ("[0.0, 1.0]", "[1.0]", 20, "spheres.random[0].speed", "expected [low, high]"),
        ("seed = 1", "seed = -1", 21, "spheres.random[0].seed", "at least 0"),
        ("count = 5", "count = 10000001", 16, "spheres.random[0].count", "at most 10000000"),
    ];
    for &(from, to, line, key, part) in cases {
        assert!(BASE.contains(from), "the case {from:?} changes nothing");
        let text = BASE.replacen(from, to, 1);
        let problems = SphereScenario::parse(&text, Format::Toml).expect_err(to);
        let shown = listing(&problems);
        assert!(
            problems.iter().any(|p| p.line == Some(line) && p.key == key && p.message.contains(part)),
            "{to:?}: expected line {line} {key}: …{part}… in {shown:#?}"
        );
        assert_eq!(problems.len(), 1, "{to:?}: one problem expected, got {shown:#?}");
        // The kind-telling reader reads it the same way.
        assert_eq!(AnyScenario::parse(&text, Format::Toml).unwrap_err(), problems);
    }
}

#[test]
fn every_problem_of_a_file_is_reported_in_file_order() {
    let text = r#"name = "many"
time_step = 0
steps = 10
[[obstacles]]
vertices = [[0.0, 0.0], [1.0, 1.0]]
[spheres]
linear_damping = -1.0
[[spheres.sphere]]
position = [1.0, 1.0, "z"]
radius = 0.0
[[spheres.mesh]]
vertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
triangles = [[0, 1, 2], [0, 1, 9]]
"#;
    let problems = SphereScenario::parse(text, Format::Toml).unwrap_err();
    let expected = [
        "line 2: time_step: must be greater than 0, got 0",
        "line 4: obstacles: a 2-D scenario's key: a file with [spheres] is a 3-D scenario and has no agents, balls, obstacles or crowd settings",
        "line 7: spheres.linear_damping: must be at least 0, got -1",
        "line 9: spheres.sphere[0].position[2]: expected a number, found a string",
        "line 10: spheres.sphere[0].radius: must be greater than 0, got 0",
        "line 13: spheres.mesh[0].triangles[0]: triangle 0 has no area (its corners are repeated or in a line)",
        "line 13: spheres.mesh[0].triangles[1]: triangle 1 names vertex 9, but the mesh has 3 vertices",
    ];
    assert_eq!(listing(&problems), expected);

    // A region whose size overflows is refused before random numbers are drawn from it (the
    // generator would panic on an infinite range); the check is the 2-D reader's too.
    let huge = "name = \"h\"\ntime_step = 0.1\nsteps = 1\n[[spheres.random]]\ncount = 2\nmin = [-3e38, 0.0, 0.0]\n\
                max = [3e38, 1.0, 1.0]\nradius = [0.1, 0.2]\nspeed = [0.0, 1.0]\nseed = 1\n";
    let problems = SphereScenario::parse(huge, Format::Toml).unwrap_err();
    assert_eq!(listing(&problems), ["line 7: spheres.random[0].max: the region's size (max − min) must be finite"]);
    let plane = "name = \"h\"\ntime_step = 0.1\nsteps = 1\n[[random]]\ncount = 2\nmin = [-3e38, 0.0]\n\
                 max = [3e38, 10.0]\nseed = 1\ngoal = [0.0, 0.0]\n";
    let problems = Scenario::parse(plane, Format::Toml).unwrap_err();
    assert_eq!(listing(&problems), ["line 7: random[0].max: the region's size (max − min) must be finite"]);

    // A file with nothing to move says so.
    let empty = "name = \"e\"\ntime_step = 0.1\nsteps = 1\n[spheres]\ngravity = [0.0, 0.0, -1.0]\n";
    let problems = SphereScenario::parse(empty, Format::Toml).unwrap_err();
    assert_eq!(
        listing(&problems),
        ["line 4: spheres: no spheres (add [[spheres.sphere]] or [[spheres.random]] entries)"]
    );
    // A radius whose volume (the default mass) would be infinite is refused, with a mass given
    // or not, as the world refuses it.
    let heavy = "name = \"h\"\ntime_step = 0.1\nsteps = 1\n[[spheres.sphere]]\nposition = [0, 0, 0]\nradius = 5e12\n";
    for text in [heavy.to_string(), format!("{heavy}mass = 1.0\n")] {
        let problems = SphereScenario::parse(&text, Format::Toml).unwrap_err();
        assert!(
            listing(&problems)[0].starts_with("line 6: spheres.sphere[0].radius: must be below 4.3e12"),
            "{problems:?}"
        );
    }
}

#[test]
fn the_kinds_of_scenario_are_told_apart_by_the_spheres_table() {
    // The 2-D reader names the table instead of listing every key of the 3-D file.
    let problems = Scenario::parse(BASE, Format::Toml).unwrap_err();
    assert_eq!(
        listing(&problems),
        ["line 4: spheres: a 3-D scenario's table: read the file with SphereScenario or AnyScenario"]
    );
    assert!(matches!(AnyScenario::parse(BASE, Format::Toml), Ok(AnyScenario::Spheres(_))));
    // And a 2-D file read as 3-D is missing its table.
    let plane = "name = \"p\"\ntime_step = 0.1\nsteps = 1\n[[agents]]\nposition = [0.0, 0.0]\n";
    assert!(matches!(AnyScenario::parse(plane, Format::Toml), Ok(AnyScenario::Plane(_))));
    let problems = SphereScenario::parse(plane, Format::Toml).unwrap_err();
    assert!(listing(&problems).contains(&"line 1: spheres: missing key".to_string()), "{problems:#?}");

    // Every built-in is of one kind; the 3-D ball world is the example of the docs.
    let mut spheres = Vec::new();
    for b in BUILTINS {
        match AnyScenario::builtin(b.name).unwrap_or_else(|e| panic!("{}: {e}", b.name)) {
            AnyScenario::Spheres(s) => spheres.push(s),
            AnyScenario::Plane(s) => assert_eq!(s.name, b.name),
            AnyScenario::Crowd3d(s) => assert_eq!(s.name, b.name),
        }
    }
    assert_eq!(spheres.len(), 1);
    let hourglass = &spheres[0];
    assert_eq!(hourglass.name, "hourglass3d");
    assert_eq!(hourglass.initial_spheres().unwrap().len(), 601);
    assert_eq!(hourglass.triangles().len(), 9);
    assert_eq!(&SphereScenario::builtin("hourglass3d").unwrap(), hourglass);
    assert!(SphereScenario::builtin("circle").unwrap_err().to_string().contains("not a 3-D ball scenario"));
    assert!(SphereScenario::builtin("nope").is_err());
}

#[test]
fn json_files_read_like_toml_and_round_trip() {
    for scenario in [SphereScenario::builtin("hourglass3d").unwrap(), parse(MESH), parse(RANDOM)] {
        let json = scenario.to_json();
        let back = SphereScenario::from_json_str(&json, "json").unwrap_or_else(|e| panic!("{e}\n{json}"));
        assert_eq!(back, scenario);
        let from_serde: SphereScenario = serde_json::from_str(&json).unwrap();
        assert_eq!(from_serde, scenario);
    }
    let json = r#"{
  "name": "j",
  "time_step": 0.01,
  "steps": 5,
  "spheres": {
    "sphere": [
      {"position": [0, 0, 1], "radius": 0.5},
      {"position": [0, 0, 3], "radius": -0.5}
    ],
    "mesh": [{"vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 5]]}]
  }
}"#;
    let problems = SphereScenario::parse(json, Format::Json).unwrap_err();
    assert_eq!(
        listing(&problems),
        [
            "line 8: spheres.sphere[1].radius: must be greater than 0, got -0.5",
            "line 10: spheres.mesh[0].triangles[0]: triangle 0 names vertex 5, but the mesh has 3 vertices",
        ]
    );
    let good = json.replace("-0.5", "0.5").replace("[0, 1, 5]", "[0, 1, 2]");
    let scenario = SphereScenario::parse(&good, Format::Json).unwrap();
    assert_eq!(scenario.world().unwrap().num_spheres(), 2);
    assert!(matches!(AnyScenario::parse(&good, Format::Json), Ok(AnyScenario::Spheres(_))));
}

/// The placement grid keeps random spheres clear of listed spheres far larger than its cells,
/// and the world refuses nothing the reader accepted, wherever the spheres are.
#[test]
fn large_and_far_spheres_are_placed_and_accepted() {
    let text = r#"name = "far"
time_step = 0.01
steps = 2
[[spheres.sphere]]
position = [1e7, 1e7, 1e7]
radius = 40.0
[[spheres.sphere]]
position = [1e7, 1e7, 1e7]
radius = 0.5
kinematic = true
[[spheres.random]]
count = 300
min = [9999950.0, 9999950.0, 9999950.0]
max = [10000050.0, 10000050.0, 10000050.0]
radius = [0.5, 1.0]
speed = [0.0, 0.0]
seed = 5
"#;
    let scenario = parse(text);
    let mut runner = SphereRunner::new(&scenario).unwrap();
    let spheres = runner.world().spheres().to_vec();
    assert_eq!(spheres.len(), 302);
    let big = spheres[0];
    for s in &spheres[2..] {
        assert!(s.position.distance(big.position) >= big.radius + s.radius, "{s:?} inside the big sphere");
        assert_eq!(s.velocity, Vec3::ZERO);
    }
    // Cells far smaller than the coordinates (indices beyond i64, saturated) still work.
    let tiny = "name = \"tiny\"\ntime_step = 0.01\nsteps = 1\n[[spheres.sphere]]\nposition = [0, 0, 0]\nradius = 1\n\
                [[spheres.random]]\ncount = 20\nmin = [-1, -1, -1]\nmax = [1, 1, 1]\nradius = [1e-30, 1e-30]\n\
                speed = [0, 0]\nseed = 2\n";
    let placed = parse(tiny).initial_spheres().unwrap();
    assert_eq!(placed.len(), 21);
    assert!(placed[1..].iter().all(|s| s.position.length() >= 1.0), "a tiny sphere inside the listed one");

    runner.step();
    runner.set_max_steps(1);
    assert!(runner.is_finished());
    assert_eq!(runner.max_steps(), 1);
    assert_eq!(runner.scenario(), &scenario);
}

/// The commented example of `docs/scenario-format.md` is a valid file, with every key shown.
#[test]
fn the_documented_example_is_valid() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scenario-format.md")).unwrap();
    let section = &docs[docs.find("## Spheres (3-D)").expect("the section")..];
    let start = section.find("```toml\n").expect("an example") + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let scenario = parse(example);
    let spec = &scenario.spheres;
    assert_eq!((spec.sphere.len(), spec.random.len(), spec.triangle.len(), spec.mesh.len()), (1, 1, 1, 1));
    let world = scenario.world().unwrap();
    assert_eq!((world.num_spheres(), world.triangles().len()), (501, 3));
    assert_eq!(world.gravity(), Vec3::new(0.0, 0.0, -9.81));
}
