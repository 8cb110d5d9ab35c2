//! The 3-D ball world from C: C programs built against `include/swerve.h` and the library
//! cargo just built (static and shared). One runs worlds of a couple of hundred spheres with
//! static triangles and meshes and prints their state as bits, which must equal those of the
//! same world run by `swerve::physics3d::World` directly (the oracle: the library through its
//! Rust API); one checks the world's invariants from C; one feeds it bad input. The C# twin of
//! the first (`tests/cs/Balls3D.cs`, on `Swerve.BallWorld3D` under Mono) must print the same
//! bits.

mod common;

use common::{assert_same_lines, build_c, build_csharp, expect_all_checks_pass, run_program, run_readme_example, Link};
use std::ffi::CStr;
use std::fmt::Write as _;
use std::path::Path;

use swerve::physics::scene::SplitMix64;
use swerve::physics3d::{Aabb3, BoxWall, BroadPhaseKind, Collider, Sphere, SphereId, Vec3, World};

/// Something the program does between two steps (see tests/c/balls3d.c for the kinds).
#[derive(Clone, Copy, Debug)]
struct Event {
    before_step: usize,
    kind: char,
    id: u32,
    v: Vec3,
}

fn event(before_step: usize, kind: char, id: u32, x: f32, y: f32, z: f32) -> Event {
    Event { before_step, kind, id, v: Vec3::new(x, y, z) }
}

/// A mesh: vertices and index triples.
struct Mesh {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
}

/// A world and what happens to it: the program's input (see tests/c/balls3d.c).
struct Scenario {
    bounds: Option<Aabb3>,
    broad_phase: BroadPhaseKind,
    dt: f32,
    steps: usize,
    every: usize,
    gravity: Vec3,
    damping: f32,
    substeps: usize,
    iterations: usize,
    record: bool,
    triangles: Vec<[Vec3; 3]>,
    meshes: Vec<Mesh>,
    spheres: Vec<Sphere>,
    events: Vec<Event>,
}

/// A 30 m box with a ramp (a two-triangle mesh), a tetrahedron (a closed mesh) and a slanted
/// plate (a single triangle); spheres of mixed radii (0.4–1 m), masses (0.2–5 kg),
/// restitutions and frictions, some spinning, some fast enough for continuous detection, one
/// kinematic; no gravity until step 150. Spheres are pushed, steered, moved, spun and removed
/// along the way, and the broad phase is switched.
fn arena(broad_phase: BroadPhaseKind) -> Scenario {
    let mut rng = SplitMix64(0x3D_BA11);
    let mut spheres = Vec::new();
    for i in 0..343 {
        let p = Vec3::new(2.0 + (i % 7) as f32 * 3.7, 2.0 + (i / 7 % 7) as f32 * 3.7, 2.0 + (i / 49) as f32 * 3.7);
        if (p - Vec3::splat(15.0)).abs().max_element() < 4.5 || (p.x < 9.0 && p.z < 8.0) || (p.z > 24.0 && p.y > 20.0) {
            continue;
        }
        let speed = if i % 37 == 0 { 150.0 } else { 6.0 };
        let direction = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize_or_zero();
        let mut sphere = Sphere::new(p, direction * rng.range(0.0, speed), rng.range(0.4, 1.0))
            .with_mass(rng.range(0.2, 5.0))
            .with_restitution(rng.range(0.3, 1.0));
        if i % 3 == 0 {
            sphere.friction = rng.range(0.1, 0.8);
        }
        if i % 7 == 0 {
            sphere.angular_velocity = Vec3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        }
        spheres.push(sphere);
    }
    // A kinematic pusher crossing the box (and leaving it: it passes through walls).
    spheres.push(Sphere::kinematic(Vec3::new(-3.0, 15.0, 10.0), Vec3::new(4.0, 0.3, 0.2), 1.5));
    let ramp = Mesh {
        vertices: vec![
            Vec3::new(0.0, 0.0, 6.0),
            Vec3::new(8.0, 0.0, 0.0),
            Vec3::new(8.0, 30.0, 0.0),
            Vec3::new(0.0, 30.0, 6.0),
        ],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
    };
    let tetrahedron = Mesh {
        vertices: vec![
            Vec3::new(12.0, 12.0, 12.0),
            Vec3::new(18.0, 12.0, 12.0),
            Vec3::new(15.0, 18.0, 12.0),
            Vec3::new(15.0, 14.0, 18.0),
        ],
        triangles: vec![[0, 1, 2], [0, 1, 3], [1, 2, 3], [0, 2, 3]],
    };
    Scenario {
        bounds: Some(Aabb3 { min: Vec3::ZERO, max: Vec3::splat(30.0) }),
        broad_phase,
        dt: 1.0 / 60.0,
        steps: 240,
        every: 20,
        gravity: Vec3::ZERO,
        damping: 0.0,
        substeps: 1,
        iterations: World::DEFAULT_SOLVER_ITERATIONS,
        record: true,
        triangles: vec![[Vec3::new(4.0, 22.0, 28.0), Vec3::new(26.0, 22.0, 28.0), Vec3::new(15.0, 29.0, 22.0)]],
        meshes: vec![ramp, tetrahedron],
        spheres,
        events: vec![
            event(15, 'i', 10, 3.0, -1.5, 2.0),
            event(30, 'v', 11, -7.0, 2.0, 1.0),
            event(45, 'p', 12, 25.5, 25.5, 4.5),
            event(60, 'w', 13, 9.0, 0.0, -3.0),
            event(75, 'r', 14, 0.0, 0.0, 0.0),
            event(90, 'R', 20, 0.0, 0.0, 0.0),
            event(105, 'b', 4, 0.0, 0.0, 0.0),
            event(120, 'V', 0, 0.9, 0.0, 0.0),
            event(150, 'g', 0, 0.0, 0.0, -9.81),
            event(200, 'b', 0, 0.0, 0.0, 0.0),
        ],
    }
}

/// A funnel under gravity: rough spheres of radius 0.3–0.6 m with rolling resistance and low
/// restitution poured into a square funnel (an eight-triangle mesh) over the floor of a
/// 20 × 20 × 30 m box, with two substeps, damping, and a kinematic sphere ploughing through
/// what piles up beneath.
fn funnel(broad_phase: BroadPhaseKind) -> Scenario {
    let mut rng = SplitMix64(0x0F_0771);
    let mut spheres = Vec::new();
    for i in 0..216 {
        let p = Vec3::new(
            3.5 + (i % 9) as f32 * 1.6 + 0.1 * rng.unit(),
            3.5 + (i / 9 % 9) as f32 * 1.6,
            16.0 + (i / 81) as f32 * 1.6,
        );
        let v = Vec3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
        let mut sphere = Sphere::new(p, v, rng.range(0.3, 0.6));
        sphere.mass *= rng.range(0.5, 3.0);
        sphere.restitution = rng.range(0.0, 0.4);
        sphere.friction = if i % 5 == 0 { 0.0 } else { rng.range(0.2, 0.7) };
        sphere.rolling_resistance = if i % 2 == 0 { rng.range(0.0, 0.05) } else { 0.0 };
        spheres.push(sphere);
    }
    spheres.push(Sphere::kinematic(Vec3::new(-2.0, 10.0, 1.0), Vec3::new(3.0, 0.0, 0.0), 1.0));
    // The rim (z = 14) and the throat (z = 6), four sloped sides of two triangles each.
    let (lo, hi, a, b) = (6.0, 14.0, 1.5, 18.5);
    let (c, d) = (7.5, 12.5);
    let vertices = vec![
        Vec3::new(a, a, hi),
        Vec3::new(b, a, hi),
        Vec3::new(b, b, hi),
        Vec3::new(a, b, hi),
        Vec3::new(c, c, lo),
        Vec3::new(d, c, lo),
        Vec3::new(d, d, lo),
        Vec3::new(c, d, lo),
    ];
    let sides = vec![[0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]];
    Scenario {
        bounds: Some(Aabb3 { min: Vec3::ZERO, max: Vec3::new(20.0, 20.0, 30.0) }),
        broad_phase,
        dt: 1.0 / 60.0,
        steps: 240,
        every: 24,
        gravity: Vec3::new(0.0, 0.0, -9.81),
        damping: 0.05,
        substeps: 2,
        iterations: 12,
        record: true,
        triangles: vec![],
        meshes: vec![Mesh { vertices, triangles: sides }],
        spheres,
        events: vec![
            event(30, 'i', 40, 0.0, 2.0, 5.0),
            event(60, 'r', 42, 0.0, 0.0, 0.0),
            event(90, 'b', 1, 0.0, 0.0, 0.0),
            event(100, 'w', 41, -4.0, 2.0, 0.0),
            event(120, 'v', 100, 1.0, -1.0, 3.0),
            event(130, 'R', 50, 0.0, 0.0, 0.0),
            event(150, 'g', 0, 0.5, 0.0, -9.81),
            event(180, 'V', 0, 0.5, 0.0, 0.0),
        ],
    }
}

impl Scenario {
    /// The program's input. Rust's `{}` prints an `f32` in the shortest decimal that reads
    /// back to the same bits (`strtof` rounds correctly), and infinity as `inf`.
    fn text(&self) -> String {
        let v3 = |v: Vec3| format!("{} {} {}", v.x, v.y, v.z);
        let mut t = String::new();
        match self.bounds {
            None => t += "0\n",
            Some(b) => writeln!(t, "1 {} {}", v3(b.min), v3(b.max)).unwrap(),
        }
        writeln!(t, "{}", self.broad_phase.name()).unwrap();
        writeln!(t, "{} {} {}", self.dt, self.steps, self.every).unwrap();
        writeln!(
            t,
            "{} {} {} {} {}",
            v3(self.gravity),
            self.damping,
            self.substeps,
            self.iterations,
            u8::from(self.record)
        )
        .unwrap();
        writeln!(t, "{}", self.triangles.len()).unwrap();
        for [a, b, c] in &self.triangles {
            writeln!(t, "{} {} {}", v3(*a), v3(*b), v3(*c)).unwrap();
        }
        writeln!(t, "{}", self.meshes.len()).unwrap();
        for mesh in &self.meshes {
            write!(t, "{}", mesh.vertices.len()).unwrap();
            for &v in &mesh.vertices {
                write!(t, " {}", v3(v)).unwrap();
            }
            write!(t, "\n{}", mesh.triangles.len()).unwrap();
            for [i, j, k] in &mesh.triangles {
                write!(t, " {i} {j} {k}").unwrap();
            }
            t += "\n";
        }
        writeln!(t, "{}", self.spheres.len()).unwrap();
        for s in &self.spheres {
            writeln!(
                t,
                "{} {} {} {} {} {} {} {}",
                v3(s.position),
                v3(s.velocity),
                s.radius,
                s.mass,
                s.restitution,
                s.friction,
                s.rolling_resistance,
                v3(s.angular_velocity)
            )
            .unwrap();
        }
        writeln!(t, "{}", self.events.len()).unwrap();
        for e in &self.events {
            writeln!(t, "{} {} {} {}", e.before_step, e.kind, e.id, v3(e.v)).unwrap();
        }
        t
    }

    /// What the program must print: the same world run through the Rust API, formatted as
    /// tests/c/balls3d.c formats it. Also checks that the run exercised what it should.
    fn expected(&self) -> Vec<String> {
        let mut w = World::new(self.bounds, self.broad_phase).unwrap();
        w.set_gravity(self.gravity).unwrap();
        w.set_linear_damping(self.damping).unwrap();
        w.set_substeps(self.substeps).unwrap();
        w.set_solver_iterations(self.iterations).unwrap();
        w.set_record_contacts(self.record);
        for &[a, b, c] in &self.triangles {
            w.add_triangle(a, b, c).unwrap();
        }
        for mesh in &self.meshes {
            w.add_mesh(&mesh.vertices, &mesh.triangles).unwrap();
        }
        for &sphere in &self.spheres {
            w.add_sphere(sphere).unwrap();
        }
        let (mut contacts, mut impacts, mut kinds, mut spinning) = (0, 0, [0usize; 3], 0);
        let mut lines = Vec::new();
        assert!(self.events.windows(2).all(|p| p[0].before_step <= p[1].before_step), "events in step order");
        let mut events = self.events.iter().peekable();
        for k in 0..self.steps {
            while let Some(e) = events.next_if(|e| e.before_step == k) {
                let id = SphereId(e.id);
                match e.kind {
                    'i' => w.apply_impulse(id, e.v).unwrap(),
                    'v' => w.set_sphere_velocity(id, e.v).unwrap(),
                    'p' => w.set_sphere_position(id, e.v).unwrap(),
                    'w' => {
                        let sphere = Sphere { angular_velocity: e.v, ..w.sphere(id).unwrap() };
                        w.set_sphere(id, sphere).unwrap();
                    }
                    'r' => drop(w.remove_sphere(id).unwrap()),
                    'R' => {
                        assert!(w.contains_sphere(id) && w.contains_sphere(SphereId(e.id + 1)));
                        w.retain_spheres(|s, _| s != id && s.0 != e.id + 1);
                    }
                    'g' => w.set_gravity(e.v).unwrap(),
                    'b' => w.set_broad_phase(BroadPhaseKind::ALL[e.id as usize]),
                    'V' => {
                        let scaled: Vec<Vec3> = w.spheres().iter().map(|s| s.velocity * e.v.x).collect();
                        w.set_velocities(&scaled).unwrap();
                    }
                    other => panic!("unknown event kind {other}"),
                }
            }
            w.step(self.dt);
            let stats = w.last_step_stats();
            contacts += stats.contacts;
            impacts += stats.time_of_impact_events;
            if (k + 1) % self.every != 0 {
                continue;
            }
            let step = k + 1;
            for (id, s) in w.sphere_ids().iter().zip(w.spheres()) {
                let f = [s.position, s.velocity, s.angular_velocity].map(|v| v.to_array().map(f32::to_bits));
                lines.push(format!(
                    "B {step} {} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x}",
                    id.0, f[0][0], f[0][1], f[0][2], f[1][0], f[1][1], f[1][2], f[2][0], f[2][1], f[2][2]
                ));
                spinning += usize::from(s.angular_velocity != Vec3::ZERO);
            }
            let (e, p) = (w.kinetic_energy(), w.momentum());
            lines.push(format!(
                "T {step} {:016x} {:016x} {:016x} {:016x}",
                e.to_bits(),
                p.x.to_bits(),
                p.y.to_bits(),
                p.z.to_bits()
            ));
            lines.push(format!(
                "S {step} {} {} {} {} {} {} {}",
                stats.candidate_pairs,
                stats.contacts,
                stats.time_of_impact_events,
                stats.escaped_swept_boxes,
                stats.correction_passes,
                stats.pushed_out_of_box,
                stats.resting_contacts
            ));
            for c in w.contacts() {
                // The numbering the header promises, written out here independently.
                let (kind, index) = match c.partner {
                    Collider::Sphere(other) => (0, other.0),
                    Collider::Triangle(t) => (1, t as u32),
                    Collider::Wall(BoxWall::MinX) => (2, 0),
                    Collider::Wall(BoxWall::MaxX) => (2, 1),
                    Collider::Wall(BoxWall::MinY) => (2, 2),
                    Collider::Wall(BoxWall::MaxY) => (2, 3),
                    Collider::Wall(BoxWall::MinZ) => (2, 4),
                    Collider::Wall(BoxWall::MaxZ) => (2, 5),
                };
                kinds[kind] += 1;
                let f = [c.impulse, c.normal].map(|v| v.to_array().map(f32::to_bits));
                lines.push(format!(
                    "C {step} {} {kind} {index} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x}",
                    c.sphere.0,
                    c.time.to_bits(),
                    f[0][0],
                    f[0][1],
                    f[0][2],
                    f[1][0],
                    f[1][1],
                    f[1][2]
                ));
            }
        }
        assert!(events.next().is_none(), "every event falls within the run");
        assert!(contacts > 300 && impacts > 0, "the run collides: {contacts} contacts, {impacts} impacts");
        assert!(kinds.iter().all(|&k| k > 0), "contacts with spheres, triangles and walls are printed: {kinds:?}");
        assert!(spinning > 100, "spheres spin ({spinning} spinning sphere frames)");
        lines
    }
}

/// Runs `program` (tests/c/balls3d.c, or its C# twin tests/cs/Balls3D.cs) on `scenario` and
/// requires exactly the lines the Rust API gives.
fn same_bits(program: &Path, scenario: &Scenario) {
    let actual = run_program(program, &[], &scenario.text());
    let expected = scenario.expected();
    assert_same_lines(&scenario.broad_phase.to_string(), &actual, &expected);
    assert!(expected.len() > 2000, "only {} lines compared", expected.len());
}

#[test]
fn a_sphere_arena_from_c_linked_statically_matches_the_rust_api_bit_for_bit_with_sort_and_sweep() {
    same_bits(&build_c("balls3d.c", Link::Static, false).path, &arena(BroadPhaseKind::SortAndSweep));
}

#[test]
fn a_sphere_arena_from_the_shared_library_matches_the_rust_api_bit_for_bit_with_an_octree() {
    same_bits(&build_c("balls3d.c", Link::Shared, false).path, &arena(BroadPhaseKind::Octree));
}

#[test]
fn a_funnel_under_gravity_from_c_linked_statically_matches_the_rust_api_bit_for_bit_with_a_uniform_grid() {
    same_bits(&build_c("balls3d.c", Link::Static, false).path, &funnel(BroadPhaseKind::UniformGrid));
}

#[test]
fn a_funnel_under_gravity_from_the_shared_library_matches_the_rust_api_bit_for_bit_with_a_hierarchical_grid() {
    same_bits(&build_c("balls3d.c", Link::Shared, false).path, &funnel(BroadPhaseKind::HierarchicalGrid));
}

// ----- C# (csharp/Swerve/BallWorld3D.cs), under Mono -----

#[test]
fn a_sphere_arena_from_csharp_matches_the_rust_api_bit_for_bit_with_an_octree_and_with_brute_force() {
    let program = build_csharp(&["Balls3D.cs", "Input.cs"], "balls3d-arena");
    same_bits(&program.path, &arena(BroadPhaseKind::Octree));
    same_bits(&program.path, &arena(BroadPhaseKind::BruteForce));
}

#[test]
fn a_funnel_under_gravity_from_csharp_matches_the_rust_api_bit_for_bit_with_sort_and_sweep_and_a_uniform_grid() {
    let program = build_csharp(&["Balls3D.cs", "Input.cs"], "balls3d-funnel");
    same_bits(&program.path, &funnel(BroadPhaseKind::SortAndSweep));
    same_bits(&program.path, &funnel(BroadPhaseKind::UniformGrid));
}

#[test]
fn bad_input_to_a_sphere_world_from_csharp_raises_exceptions_and_changes_nothing() {
    expect_all_checks_pass(&build_csharp(&["BallErrors3D.cs", "Checks.cs"], "ball-errors3d"));
}

/// Runs a self-checking program (as C, or as C++ with `cplusplus`): it exits 0 and prints
/// "all checks passed", or lists what failed.
fn passes(source: &str, link: Link, cplusplus: bool) {
    expect_all_checks_pass(&build_c(source, link, cplusplus));
}

#[test]
fn a_sphere_world_keeps_its_invariants_seen_from_c() {
    passes("balls3d_invariants.c", Link::Static, false);
}

#[test]
fn bad_input_to_a_sphere_world_is_refused_with_a_status_and_a_message_and_changes_nothing() {
    passes("balls3d_errors.c", Link::Shared, false);
}

#[test]
fn the_sphere_world_serves_cplusplus_too() {
    passes("balls3d_errors.c", Link::Static, true);
}

/// The names C gets are the library's, in its order, and each names its broad phase.
#[test]
fn the_3d_broad_phase_names_are_the_librarys() {
    let mut names = [std::ptr::null(); 8];
    let mut count = 0;
    let status = unsafe { swerve_c::swerve_broad_phase3d_names(names.as_mut_ptr(), names.len(), &mut count) };
    assert_eq!(status, swerve_c::SwerveStatus::Ok);
    assert_eq!(count, BroadPhaseKind::ALL.len());
    for (kind, &name) in BroadPhaseKind::ALL.iter().zip(&names) {
        let name = unsafe { CStr::from_ptr(name) }.to_str().expect("UTF-8");
        assert_eq!(name, kind.name());
        let mut world = std::ptr::null_mut();
        let status = unsafe { swerve_c::swerve_world3d_new(std::ptr::null(), names[0], &mut world) };
        assert_eq!(status, swerve_c::SwerveStatus::Ok);
        let c_name = std::ffi::CString::new(name).unwrap();
        assert_eq!(
            unsafe { swerve_c::swerve_world3d_set_broad_phase(world, c_name.as_ptr()) },
            swerve_c::SwerveStatus::Ok
        );
        let mut back = std::ptr::null();
        assert_eq!(unsafe { swerve_c::swerve_world3d_broad_phase(world, &mut back) }, swerve_c::SwerveStatus::Ok);
        assert_eq!(unsafe { CStr::from_ptr(back) }.to_str().unwrap(), kind.name());
        unsafe { swerve_c::swerve_world3d_free(world) };
    }
}

#[test]
fn the_readme_sphere_example_compiles_and_the_sphere_rolls_down_the_ramp_to_rest_on_the_floor() {
    // "N ramp contacts, then at (x, y, z) moving at s m/s"
    let (text, numbers) = run_readme_example("swerve_world3d_new", Link::Shared);
    assert_eq!(numbers.len(), 5, "{text}");
    assert!(numbers[0] >= 10.0, "the sphere rolls down the ramp, touching it step after step: {text}");
    assert!(
        numbers[1] > 5.0 && numbers[1] < 19.5,
        "it rolls on past the ramp's foot (x = 4), short of the wall: {text}"
    );
    assert!((numbers[2] - 5.0).abs() < 0.005, "it keeps to its plane, y = 5, across the ramp's seam: {text}");
    assert!(numbers[3] == 0.5, "it is on the floor (radius 0.5): {text}");
    assert!(numbers[4] == 0.0, "rolling resistance has stopped it: {text}");
}
