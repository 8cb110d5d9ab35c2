//! The ball world from C: C programs built against `include/swerve.h` and the library cargo
//! just built (static and shared). One runs worlds of a few hundred balls and prints their
//! state as bits, which must equal those of the same world run by `swerve::physics::World`
//! directly (the oracle: the library through its Rust API); one checks the world's
//! invariants from C; one feeds it bad input. The C# twin of the first (`tests/cs/Balls.cs`,
//! on `Swerve.BallWorld` under Mono) must print the same bits.

mod common;

use common::{
    assert_same_lines, build_c, build_csharp, expect_all_checks_pass, run_program, run_readme_csharp_example,
    run_readme_example, Link,
};
use std::ffi::CStr;
use std::fmt::Write as _;
use std::path::Path;

use glam::Vec2;
use swerve::geom::Aabb;
use swerve::physics::scene::SplitMix64;
use swerve::physics::{Ball, BallId, BoxWall, BroadPhaseKind, Collider, World};

/// Something the program does between two steps (see tests/c/balls.c for the kinds).
#[derive(Clone, Copy, Debug)]
struct Event {
    before_step: usize,
    kind: char,
    id: u32,
    x: f32,
    y: f32,
}

/// A world and what happens to it: the program's input (see tests/c/balls.c).
struct Scenario {
    bounds: Option<Aabb>,
    broad_phase: BroadPhaseKind,
    dt: f32,
    steps: usize,
    every: usize,
    gravity: Vec2,
    damping: f32,
    substeps: usize,
    iterations: usize,
    record: bool,
    segments: Vec<(Vec2, Vec2)>,
    polygons: Vec<Vec<Vec2>>,
    balls: Vec<Ball>,
    events: Vec<Event>,
}

fn event(before_step: usize, kind: char, id: u32, x: f32, y: f32) -> Event {
    Event { before_step, kind, id, x, y }
}

/// A 60 m box with a square pillar, a slanted wall and a thin wall; a few hundred balls of
/// mixed radii (0.4–1 m), masses (0.2–5 kg), restitutions and frictions, some spinning, some
/// fast enough for continuous detection, one kinematic; no gravity until step 200. Balls are
/// pushed, steered, moved, spun and removed along the way, and the broad phase is switched.
fn arena(broad_phase: BroadPhaseKind) -> Scenario {
    let mut rng = SplitMix64(0xC_BA11);
    let mut balls = Vec::new();
    for i in 0..400 {
        let p = Vec2::new(2.0 + (i % 20) as f32 * 2.9, 2.0 + (i / 20) as f32 * 2.9);
        if (p - Vec2::splat(30.0)).abs().max_element() < 3.5 || (p.y > 47.0 && p.x < 22.0) {
            continue;
        }
        let speed = if i % 37 == 0 { 150.0 } else { 6.0 };
        let v = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * rng.range(0.0, speed);
        let mut ball = Ball::new(p, v, rng.range(0.4, 1.0));
        ball.mass = rng.range(0.2, 5.0);
        ball.restitution = rng.range(0.3, 1.0);
        if i % 3 == 0 {
            ball.friction = rng.range(0.1, 0.8);
        }
        if i % 7 == 0 {
            ball.angular_velocity = rng.range(-5.0, 5.0);
            ball.angle = rng.range(-3.0, 3.0);
        }
        balls.push(ball);
    }
    // A spinning ball to spin otherwise (setting the angular velocity keeps the angle).
    let spinner = (30..balls.len()).find(|&i| balls[i].angle != 0.0 && balls[i].friction == 0.0).unwrap() as u32;
    // A kinematic pusher crossing the box (and leaving it: it passes through walls).
    balls.push(Ball::kinematic(Vec2::new(-3.0, 20.0), Vec2::new(4.0, 0.5), 1.5));
    Scenario {
        bounds: Some(Aabb { min: Vec2::ZERO, max: Vec2::splat(60.0) }),
        broad_phase,
        dt: 1.0 / 60.0,
        steps: 300,
        every: 25,
        gravity: Vec2::ZERO,
        damping: 0.0,
        substeps: 1,
        iterations: World::DEFAULT_SOLVER_ITERATIONS,
        record: true,
        segments: vec![(Vec2::new(5.0, 50.0), Vec2::new(20.0, 56.0)), (Vec2::new(45.0, 5.0), Vec2::new(45.0, 15.0))],
        polygons: vec![vec![
            Vec2::new(28.0, 28.0),
            Vec2::new(32.0, 28.0),
            Vec2::new(32.0, 32.0),
            Vec2::new(28.0, 32.0),
        ]],
        balls,
        events: vec![
            event(20, 'i', 10, 3.0, -1.5),
            event(40, 'v', 11, -7.0, 2.0),
            event(60, 'p', 12, 40.5, 40.5),
            event(80, 'w', spinner, 9.0, 0.0),
            event(100, 'r', 14, 0.0, 0.0),
            event(120, 'R', 20, 0.0, 0.0),
            event(140, 'b', 6, 0.0, 0.0),
            event(160, 'V', 0, 0.9, 0.0),
            event(200, 'g', 0, 0.0, -3.0),
            event(250, 'b', 0, 0.0, 0.0),
        ],
    }
}

/// A pile under gravity: balls of radius 0.3–0.6 m with friction, rolling resistance and low
/// restitution poured onto a slanted wall, a triangle and the floor of a 40 m box, with two
/// substeps, damping, and a kinematic ball ploughing through the pile.
fn pile(broad_phase: BroadPhaseKind) -> Scenario {
    let mut rng = SplitMix64(0x000B_A115);
    let mut balls = Vec::new();
    for i in 0..330 {
        let p = Vec2::new(1.0 + (i % 30) as f32 * 1.3 + 0.1 * rng.unit(), 8.0 + (i / 30) as f32 * 1.3);
        let v = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
        let r = rng.range(0.3, 0.6);
        let mut ball = Ball::new(p, v, r);
        ball.mass *= rng.range(0.5, 3.0);
        ball.restitution = rng.range(0.0, 0.4);
        ball.friction = if i % 5 == 0 { 0.0 } else { rng.range(0.2, 0.7) };
        ball.rolling_resistance = if i % 2 == 0 { rng.range(0.0, 0.05) } else { 0.0 };
        balls.push(ball);
    }
    balls.push(Ball::kinematic(Vec2::new(-2.0, 2.0), Vec2::new(3.0, 0.0), 1.0));
    Scenario {
        bounds: Some(Aabb { min: Vec2::ZERO, max: Vec2::new(40.0, 30.0) }),
        broad_phase,
        dt: 1.0 / 60.0,
        steps: 300,
        every: 30,
        gravity: Vec2::new(0.0, -9.81),
        damping: 0.05,
        substeps: 2,
        iterations: 12,
        record: true,
        segments: vec![(Vec2::new(1.0, 6.0), Vec2::new(12.0, 2.0))],
        polygons: vec![vec![Vec2::new(25.0, 1.0), Vec2::new(31.0, 1.0), Vec2::new(28.0, 5.0)]],
        balls,
        events: vec![
            event(30, 'i', 40, 0.0, 20.0),
            event(90, 'r', 42, 0.0, 0.0),
            event(120, 'b', 1, 0.0, 0.0),
            event(150, 'w', 41, -4.0, 0.0),
            event(160, 'v', 300, 5.0, 5.0),
            event(180, 'g', 0, 1.0, -9.81),
            event(210, 'V', 0, 0.5, 0.0),
        ],
    }
}

impl Scenario {
    /// The program's input. Rust's `{}` prints an `f32` in the shortest decimal that reads
    /// back to the same bits (`strtof` rounds correctly), and infinity as `inf`.
    fn text(&self) -> String {
        let mut t = String::new();
        match self.bounds {
            None => t += "0\n",
            Some(b) => writeln!(t, "1 {} {} {} {}", b.min.x, b.min.y, b.max.x, b.max.y).unwrap(),
        }
        writeln!(t, "{}", self.broad_phase.name()).unwrap();
        writeln!(t, "{} {} {}", self.dt, self.steps, self.every).unwrap();
        writeln!(
            t,
            "{} {} {} {} {} {}",
            self.gravity.x,
            self.gravity.y,
            self.damping,
            self.substeps,
            self.iterations,
            u8::from(self.record)
        )
        .unwrap();
        writeln!(t, "{}", self.segments.len()).unwrap();
        for (a, b) in &self.segments {
            writeln!(t, "{} {} {} {}", a.x, a.y, b.x, b.y).unwrap();
        }
        writeln!(t, "{}", self.polygons.len()).unwrap();
        for polygon in &self.polygons {
            write!(t, "{}", polygon.len()).unwrap();
            for v in polygon {
                write!(t, " {} {}", v.x, v.y).unwrap();
            }
            t += "\n";
        }
        writeln!(t, "{}", self.balls.len()).unwrap();
        for b in &self.balls {
            writeln!(
                t,
                "{} {} {} {} {} {} {} {} {} {} {}",
                b.position.x,
                b.position.y,
                b.velocity.x,
                b.velocity.y,
                b.radius,
                b.mass,
                b.restitution,
                b.friction,
                b.rolling_resistance,
                b.angular_velocity,
                b.angle
            )
            .unwrap();
        }
        writeln!(t, "{}", self.events.len()).unwrap();
        for e in &self.events {
            writeln!(t, "{} {} {} {} {}", e.before_step, e.kind, e.id, e.x, e.y).unwrap();
        }
        t
    }

    /// What the program must print: the same world run through the Rust API, formatted as
    /// tests/c/balls.c formats it. Also checks that the run exercised what it should.
    fn expected(&self) -> Vec<String> {
        let mut w = World::new(self.bounds, self.broad_phase);
        w.set_gravity(self.gravity).unwrap();
        w.set_linear_damping(self.damping).unwrap();
        w.set_substeps(self.substeps).unwrap();
        w.set_solver_iterations(self.iterations).unwrap();
        w.set_record_contacts(self.record);
        for &(a, b) in &self.segments {
            w.add_segment(a, b).unwrap();
        }
        for polygon in &self.polygons {
            w.add_polygon(polygon).unwrap();
        }
        for &ball in &self.balls {
            w.add_ball(ball).unwrap();
        }
        let (mut contacts, mut impacts, mut kinds, mut spinning) = (0, 0, [0usize; 3], 0);
        let mut lines = Vec::new();
        assert!(self.events.windows(2).all(|p| p[0].before_step <= p[1].before_step), "events in step order");
        let mut events = self.events.iter().peekable();
        for k in 0..self.steps {
            while let Some(e) = events.next_if(|e| e.before_step == k) {
                let id = BallId(e.id);
                let v = Vec2::new(e.x, e.y);
                match e.kind {
                    'i' => w.apply_impulse(id, v).unwrap(),
                    'v' => w.set_ball_velocity(id, v).unwrap(),
                    'p' => w.set_ball_position(id, v).unwrap(),
                    'w' => {
                        // Else a setter that loses the angle would go unnoticed.
                        assert!(w.ball(id).unwrap().angle != 0.0, "ball {} turned", e.id);
                        let ball = Ball { angular_velocity: e.x, ..w.ball(id).unwrap() };
                        w.set_ball(id, ball).unwrap();
                    }
                    'r' => drop(w.remove_ball(id).unwrap()),
                    'R' => {
                        assert!(w.contains_ball(id) && w.contains_ball(BallId(e.id + 1)));
                        w.retain_balls(|b, _| b != id && b.0 != e.id + 1);
                    }
                    'g' => w.set_gravity(v).unwrap(),
                    'b' => w.set_broad_phase(BroadPhaseKind::ALL[e.id as usize]),
                    'V' => {
                        let scaled: Vec<Vec2> = w.balls().iter().map(|b| b.velocity * e.x).collect();
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
            for (id, b) in w.ball_ids().iter().zip(w.balls()) {
                let f = [b.position.x, b.position.y, b.velocity.x, b.velocity.y, b.angular_velocity, b.angle];
                let f = f.map(f32::to_bits);
                lines.push(format!(
                    "B {step} {} {:08x} {:08x} {:08x} {:08x} {:08x} {:08x}",
                    id.0, f[0], f[1], f[2], f[3], f[4], f[5]
                ));
                spinning += usize::from(b.angular_velocity != 0.0);
            }
            let (e, p) = (w.kinetic_energy(), w.momentum());
            lines.push(format!("T {step} {:016x} {:016x} {:016x}", e.to_bits(), p.x.to_bits(), p.y.to_bits()));
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
                    Collider::Ball(other) => (0, other.0),
                    Collider::Segment(s) => (1, s as u32),
                    Collider::Wall(BoxWall::MinX) => (2, 0),
                    Collider::Wall(BoxWall::MaxX) => (2, 1),
                    Collider::Wall(BoxWall::MinY) => (2, 2),
                    Collider::Wall(BoxWall::MaxY) => (2, 3),
                };
                kinds[kind] += 1;
                let f = [c.time, c.impulse.x, c.impulse.y, c.normal.x, c.normal.y].map(f32::to_bits);
                lines.push(format!(
                    "C {step} {} {kind} {index} {:08x} {:08x} {:08x} {:08x} {:08x}",
                    c.ball.0, f[0], f[1], f[2], f[3], f[4]
                ));
            }
        }
        assert!(events.next().is_none(), "every event falls within the run");
        assert!(contacts > 1000 && impacts > 0, "the run collides: {contacts} contacts, {impacts} impacts");
        assert!(kinds.iter().all(|&k| k > 0), "contacts with balls, segments and walls are printed: {kinds:?}");
        assert!(spinning > 100, "balls spin ({spinning} spinning ball frames)");
        lines
    }
}

/// Runs `program` (tests/c/balls.c, or its C# twin tests/cs/Balls.cs) on `scenario` and
/// requires exactly the lines the Rust API gives.
fn same_bits(program: &Path, scenario: &Scenario) {
    let actual = run_program(program, &[], &scenario.text());
    let expected = scenario.expected();
    assert_same_lines(&scenario.broad_phase.to_string(), &actual, &expected);
    assert!(expected.len() > 3000, "only {} lines compared", expected.len());
}

#[test]
fn a_ball_arena_from_c_linked_statically_matches_the_rust_api_bit_for_bit_with_sort_and_sweep() {
    same_bits(&build_c("balls.c", Link::Static, false).path, &arena(BroadPhaseKind::SortAndSweep));
}

#[test]
fn a_ball_arena_from_the_shared_library_matches_the_rust_api_bit_for_bit_with_a_quadtree() {
    same_bits(&build_c("balls.c", Link::Shared, false).path, &arena(BroadPhaseKind::Quadtree));
}

#[test]
fn a_pile_under_gravity_from_c_linked_statically_matches_the_rust_api_bit_for_bit_with_a_uniform_grid() {
    same_bits(&build_c("balls.c", Link::Static, false).path, &pile(BroadPhaseKind::UniformGrid));
}

#[test]
fn a_pile_under_gravity_from_the_shared_library_matches_the_rust_api_bit_for_bit_with_an_aabb_tree() {
    same_bits(&build_c("balls.c", Link::Shared, false).path, &pile(BroadPhaseKind::DynamicAabbTree));
}

// ----- C# (csharp/Swerve/BallWorld.cs), under Mono -----

#[test]
fn a_ball_arena_from_csharp_matches_the_rust_api_bit_for_bit_with_a_uniform_grid_and_with_grid_sort_and_sweep() {
    let program = build_csharp(&["Balls.cs", "Input.cs"], "balls-arena");
    same_bits(&program.path, &arena(BroadPhaseKind::UniformGrid));
    same_bits(&program.path, &arena(BroadPhaseKind::GridSortAndSweep));
}

#[test]
fn a_pile_under_gravity_from_csharp_matches_the_rust_api_bit_for_bit_with_a_quadtree_and_with_brute_force() {
    let program = build_csharp(&["Balls.cs", "Input.cs"], "balls-pile");
    same_bits(&program.path, &pile(BroadPhaseKind::Quadtree));
    same_bits(&program.path, &pile(BroadPhaseKind::BruteForce));
}

#[test]
fn bad_input_to_a_ball_world_from_csharp_raises_exceptions_and_changes_nothing() {
    expect_all_checks_pass(&build_csharp(&["BallErrors.cs", "Checks.cs"], "ball-errors"));
}

/// Runs a self-checking program (as C, or as C++ with `cplusplus`): it exits 0 and prints
/// "all checks passed", or lists what failed.
fn passes(source: &str, link: Link, cplusplus: bool) {
    expect_all_checks_pass(&build_c(source, link, cplusplus));
}

#[test]
fn a_ball_world_keeps_its_invariants_seen_from_c() {
    passes("balls_invariants.c", Link::Static, false);
}

#[test]
fn bad_input_to_a_ball_world_is_refused_with_a_status_and_a_message_and_changes_nothing() {
    passes("balls_errors.c", Link::Shared, false);
}

#[test]
fn the_ball_world_serves_cplusplus_too() {
    passes("balls_errors.c", Link::Static, true);
}

/// The names C gets are the library's, in its order, and each names its broad phase.
#[test]
fn the_broad_phase_names_are_the_librarys() {
    let mut names = [std::ptr::null(); 8];
    let mut count = 0;
    let status = unsafe { swerve_c::swerve_broad_phase_names(names.as_mut_ptr(), names.len(), &mut count) };
    assert_eq!(status, swerve_c::SwerveStatus::Ok);
    assert_eq!(count, BroadPhaseKind::ALL.len());
    for (kind, &name) in BroadPhaseKind::ALL.iter().zip(&names) {
        let name = unsafe { CStr::from_ptr(name) }.to_str().expect("UTF-8");
        assert_eq!(name, kind.name());
        let mut world = std::ptr::null_mut();
        let status = unsafe { swerve_c::swerve_world_new(std::ptr::null(), names[0], &mut world) };
        assert_eq!(status, swerve_c::SwerveStatus::Ok);
        let c_name = std::ffi::CString::new(name).unwrap();
        assert_eq!(
            unsafe { swerve_c::swerve_world_set_broad_phase(world, c_name.as_ptr()) },
            swerve_c::SwerveStatus::Ok
        );
        let mut back = std::ptr::null();
        assert_eq!(unsafe { swerve_c::swerve_world_broad_phase(world, &mut back) }, swerve_c::SwerveStatus::Ok);
        assert_eq!(unsafe { CStr::from_ptr(back) }.to_str().unwrap(), kind.name());
        unsafe { swerve_c::swerve_world_free(world) };
    }
}

#[test]
fn the_readme_ball_example_compiles_and_the_ball_comes_to_rest_on_the_floor() {
    // "N impacts, then at rest at (x, y)"
    let (text, numbers) = run_readme_example("swerve_world_new", Link::Shared);
    assert_eq!(numbers.len(), 3, "{text}");
    assert!(numbers[0] >= 2.0, "a half-elastic ball bounces before it rests: {text}");
    assert!(numbers[1] == 5.0 && numbers[2] == 0.5, "it rests where it fell, on the floor (radius 0.5): {text}");
}

#[test]
fn the_csharp_readme_ball_example_runs_and_the_ball_comes_to_rest_on_the_floor() {
    // "N impacts, then at (x, y) moving at s m/s"
    let (text, numbers) = run_readme_csharp_example("BallWorld(box");
    assert_eq!(numbers.len(), 4, "{text}");
    assert!(numbers[0] >= 2.0, "a half-elastic ball bounces before it rests: {text}");
    assert!(numbers[1] == 5.0 && numbers[2] == 0.5, "it rests where it fell, on the floor (radius 0.5): {text}");
    assert!(numbers[3] == 0.0, "at rest: {text}");
}
