//! Static triangles in the 3-D ball world: a bounce off a slanted face equals the mirror
//! formula, bullets do not pass through, a sphere rolls down a ramp at 5/7 g sin θ (slides at
//! g sin θ without friction), a closed mesh holds an elastic gas with its energy, a pour onto
//! a hopper rests above it, every broad phase gives the same bits, and bad meshes are refused.

use glam::{DVec3, Vec3};
use swerve::physics3d::scene::sphere_pit;
use swerve::physics3d::{Aabb3, BroadPhaseKind, Sphere, Triangle, World};

const GAS_SEED: u64 = 0x7A1_6A5;

/// The 12 triangles of the cube `[min, max]`, as a mesh.
fn cube_mesh(min: Vec3, max: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let corner = |k: u32| {
        Vec3::new(
            if k & 1 == 0 { min.x } else { max.x },
            if k & 2 == 0 { min.y } else { max.y },
            if k & 4 == 0 { min.z } else { max.z },
        )
    };
    let vertices = (0..8).map(corner).collect();
    // Two triangles per face (the winding does not matter: both faces are solid).
    let faces = [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]];
    let triangles = faces.iter().flat_map(|f| [[f[0], f[1], f[2]], [f[0], f[2], f[3]]]).collect();
    (vertices, triangles)
}

/// The distance from `p` to the triangle, by brute force over a fine barycentric lattice and
/// the three edges' exact nearest points (an oracle independent of `Triangle::closest_point`).
fn distance_to(triangle: &Triangle, p: Vec3) -> f64 {
    let (a, b, c, p) = (triangle.a.as_dvec3(), triangle.b.as_dvec3(), triangle.c.as_dvec3(), p.as_dvec3());
    let on_edge = |u: DVec3, v: DVec3| {
        let t = ((p - u).dot(v - u) / (v - u).length_squared()).clamp(0.0, 1.0);
        p.distance(u + (v - u) * t)
    };
    let mut best = on_edge(a, b).min(on_edge(b, c)).min(on_edge(c, a));
    const STEPS: usize = 200;
    for i in 0..=STEPS {
        for j in 0..=STEPS - i {
            let (s, t) = (i as f64 / STEPS as f64, j as f64 / STEPS as f64);
            best = best.min(p.distance(a + (b - a) * s + (c - a) * t));
        }
    }
    best
}

#[test]
fn a_bounce_off_a_slanted_triangle_mirrors_the_velocity_about_its_normal() {
    let mut world = World::new(None, BroadPhaseKind::SortAndSweep).unwrap();
    // A large triangle through the origin, tilted about two axes.
    let (a, b, c) = (Vec3::new(-20.0, -20.0, -3.0), Vec3::new(20.0, -15.0, 4.0), Vec3::new(0.0, 25.0, 2.0));
    world.add_triangle(a, b, c).unwrap();
    let triangle = world.triangles()[0];
    let n = (b - a).as_dvec3().cross((c - a).as_dvec3()).normalize();
    let v0 = Vec3::new(0.7, -1.3, -9.0);
    let start = Vec3::new(0.5, 0.2, 6.0);
    let id = world.add_sphere(Sphere::new(start, v0, 0.5)).unwrap();
    let e0 = world.kinetic_energy();
    for _ in 0..60 {
        world.step(1.0 / 60.0);
    }
    let s = world.sphere(id).unwrap();
    // The mirror formula: v' = v − 2 (v·n) n.
    let v = v0.as_dvec3();
    let mirrored = v - n * (2.0 * v.dot(n));
    assert!((s.velocity.as_dvec3() - mirrored).length() < 1e-5, "{:?} against {mirrored:?}", s.velocity);
    assert!((world.kinetic_energy() - e0).abs() < 1e-12 * e0, "energy {e0} → {}", world.kinetic_energy());
    // Back on the side it came from, never inside the triangle's slab.
    assert!(distance_to(&triangle, s.position) >= 0.5 - 1e-5);
    assert!((s.position - a).as_dvec3().dot(n) * (start - a).as_dvec3().dot(n) > 0.0);
}

#[test]
fn a_bullet_does_not_pass_through_a_thin_triangle_unless_continuous_detection_is_off() {
    let ends_on_start_side = |continuous: bool| {
        let mut world = World::new(None, BroadPhaseKind::UniformGrid).unwrap();
        world.set_continuous_collision(continuous);
        // A wall at x = 0, zero thickness.
        world
            .add_triangle(Vec3::new(0.0, -10.0, -10.0), Vec3::new(0.0, 10.0, -10.0), Vec3::new(0.0, 0.0, 10.0))
            .unwrap();
        // 0.1 m bullet at 300 m/s: 5 m per step, fifty radii.
        let id = world.add_sphere(Sphere::new(Vec3::new(-3.0, 0.3, 0.2), Vec3::new(300.0, 0.0, 0.0), 0.1)).unwrap();
        for _ in 0..4 {
            world.step(1.0 / 60.0);
        }
        world.sphere(id).unwrap().position.x < 0.0
    };
    assert!(ends_on_start_side(true), "the bullet passed through the triangle");
    assert!(!ends_on_start_side(false), "without continuous detection it should tunnel (else this test shows nothing)");
}

/// A ramp (two triangles) inclined by `theta` about the y axis, rising towards −x, and a sphere
/// of radius `r` resting on it; returns the world, the sphere's id and the unit vector down the
/// slope.
fn ramp(theta: f32, friction: f32, r: f32) -> (World, swerve::physics3d::SphereId, Vec3) {
    let mut world = World::new(None, BroadPhaseKind::UniformGrid).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let down = Vec3::new(theta.cos(), 0.0, -theta.sin());
    let normal = Vec3::new(theta.sin(), 0.0, theta.cos());
    let (length, width) = (60.0, 4.0);
    let top = Vec3::ZERO;
    let bottom = top + down * length;
    let side = Vec3::new(0.0, width, 0.0);
    let vertices = [top - side, top + side, bottom + side, bottom - side];
    world.add_mesh(&vertices, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    // On the slope, just touching, a little below the top edge.
    let center = top + down * 2.0 + normal * r;
    let sphere = Sphere::new(center, Vec3::ZERO, r).with_friction(friction).with_restitution(0.0);
    let id = world.add_sphere(sphere).unwrap();
    (world, id, down)
}

#[test]
fn a_sphere_rolls_down_a_ramp_at_five_sevenths_g_sin_theta_and_slides_at_g_sin_theta_without_friction() {
    let theta = 20f32.to_radians();
    let (dt, steps) = (1.0 / 120.0, 240);
    let time = dt * steps as f32;
    // Rolling without slipping needs μ ≥ 2/7 tan θ ≈ 0.10; 0.5 is plenty.
    for (friction, fraction) in [(0.5f32, 5.0 / 7.0), (0.0, 1.0)] {
        let (mut world, id, down) = ramp(theta, friction, 0.5);
        for _ in 0..steps {
            world.step(dt);
        }
        let s = world.sphere(id).unwrap();
        let expected = fraction * 9.81 * theta.sin() * time;
        let along = s.velocity.dot(down);
        assert!(
            (along - expected).abs() < 0.02 * expected,
            "μ = {friction}: {along} m/s down the slope, expected {expected}"
        );
        // It stays on the slope: no speed across it, none off it.
        let normal = Vec3::new(theta.sin(), 0.0, theta.cos());
        assert!(s.velocity.dot(normal).abs() < 0.01 * expected, "μ = {friction}: leaves the slope, {:?}", s.velocity);
        assert!(s.velocity.y.abs() < 1e-4, "{:?}", s.velocity);
        if friction > 0.0 {
            // Rolling: the contact point (at −r n from the centre) is at rest, ω = v / r.
            let point = s.velocity + s.angular_velocity.cross(-normal * 0.5);
            assert!(point.length() < 0.02 * expected, "the contact point slides at {point:?}");
        } else {
            assert_eq!(s.angular_velocity, Vec3::ZERO);
        }
    }
}

/// A flat slope of two triangles split along one or the other diagonal, a sphere on its
/// centre line: it crosses the seam halfway down without being pushed off its line (the
/// neighbour's edge, which the sphere also touches near the seam, is not a contact of its
/// own: found from C by the ball world's tests, where it drifted 2 cm sideways).
#[test]
fn a_sphere_rolls_straight_across_the_seam_of_a_flat_mesh() {
    let theta = 20f32.to_radians();
    let down = Vec3::new(theta.cos(), 0.0, -theta.sin());
    let normal = Vec3::new(theta.sin(), 0.0, theta.cos());
    let (length, half_width, r) = (12.0, 5.0, 0.5);
    let side = Vec3::new(0.0, half_width, 0.0);
    let vertices = [-side, side, down * length + side, down * length - side];
    for (diagonal, triangles) in [("0-2", [[0, 1, 2], [0, 2, 3]]), ("1-3", [[0, 1, 3], [1, 2, 3]])] {
        for friction in [0.5f32, 0.0] {
            let mut world = World::new(None, BroadPhaseKind::UniformGrid).unwrap();
            world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
            world.add_mesh(&vertices, &triangles).unwrap();
            let start = down * 1.0 + normal * r;
            let sphere = Sphere::new(start, Vec3::ZERO, r).with_friction(friction).with_restitution(0.0);
            let id = world.add_sphere(sphere).unwrap();
            let mut furthest = 0.0f32;
            for step in 0..150 {
                world.step(1.0 / 60.0);
                let s = world.sphere(id).unwrap();
                assert!(
                    s.position.y.abs() < 1e-6 && s.velocity.y.abs() < 1e-6,
                    "diagonal {diagonal}, μ = {friction}, step {step}: off its line at {:?}, moving {:?}",
                    s.position,
                    s.velocity
                );
                furthest = furthest.max(s.position.dot(down));
            }
            // The seam crosses the centre line halfway down.
            assert!(furthest > 0.5 * length + 1.0, "diagonal {diagonal}, μ = {friction}: only {furthest} m down");
        }
    }
}

#[test]
fn a_closed_mesh_holds_an_elastic_gas_and_keeps_its_energy() {
    // The pit's spheres, but held by a cube of triangles rather than by the world's box.
    let pit = sphere_pit(300, 0.05, GAS_SEED);
    let (bounds, spheres) = (pit.bounds, pit.spheres);
    let mut world = World::new(None, BroadPhaseKind::UniformGrid).unwrap();
    let (vertices, triangles) = cube_mesh(bounds.min, bounds.max);
    world.add_mesh(&vertices, &triangles).unwrap();
    for s in spheres {
        world.add_sphere(s).unwrap();
    }
    let e0 = world.kinetic_energy();
    let mut wall_contacts = 0;
    for _ in 0..400 {
        world.step(pit.dt);
        wall_contacts += world.last_step_stats().contacts;
    }
    assert!(wall_contacts > 0);
    let drift = (world.kinetic_energy() - e0).abs() / e0;
    assert!(drift < 1e-9, "energy drifted by {drift:e}");
    for s in world.spheres() {
        let r = Vec3::splat(s.radius * 0.999);
        assert!(
            (bounds.min + r).cmple(s.position).all() && s.position.cmple(bounds.max - r).all(),
            "a sphere left the mesh: {:?} (box {bounds:?})",
            s.position
        );
    }
}

/// A square hopper: four slanted triangles pairs narrowing down to a floor, spheres poured
/// from above.
fn hopper_pour(kind: BroadPhaseKind, spheres: usize) -> World {
    let mut world = World::new(None, kind).unwrap();
    world.set_gravity(Vec3::new(0.0, 0.0, -9.81)).unwrap();
    let (top, bottom, height) = (6.0f32, 2.0f32, 4.0f32);
    let ring = |half: f32, z: f32| {
        [Vec3::new(-half, -half, z), Vec3::new(half, -half, z), Vec3::new(half, half, z), Vec3::new(-half, half, z)]
    };
    let mut vertices = ring(bottom, 0.0).to_vec();
    vertices.extend(ring(top, height));
    let mut triangles = vec![[0, 1, 2], [0, 2, 3]]; // the floor
    for k in 0..4u32 {
        let (a, b) = (k, (k + 1) % 4);
        triangles.push([a, b, b + 4]);
        triangles.push([a, b + 4, a + 4]);
    }
    world.add_mesh(&vertices, &triangles).unwrap();
    let r = 0.25;
    let per_layer = 64;
    for k in 0..spheres {
        let (layer, place) = (k / per_layer, k % per_layer);
        let (x, y) = ((place % 8) as f32 - 3.5, (place / 8) as f32 - 3.5);
        let jitter = 0.01 * ((k * 7919 % 13) as f32 - 6.0);
        let center = Vec3::new(x * 0.6 + jitter, y * 0.6 - jitter, height + 1.0 + layer as f32 * 0.6);
        world.add_sphere(Sphere::new(center, Vec3::ZERO, r).with_restitution(0.2).with_friction(0.4)).unwrap();
    }
    world
}

#[test]
fn a_pour_into_a_hopper_comes_to_rest_inside_it() {
    let mut world = hopper_pour(BroadPhaseKind::UniformGrid, 256);
    world.set_substeps(2).unwrap();
    for _ in 0..600 {
        world.step(1.0 / 60.0);
    }
    let n = world.num_spheres() as f32;
    let mean_speed = world.spheres().iter().map(|s| s.velocity.length()).sum::<f32>() / n;
    assert!(mean_speed < 0.02, "still moving at {mean_speed} m/s on average");
    let triangles = world.triangles().to_vec();
    for s in world.spheres() {
        // Above the floor and inside the slanted walls: no sphere went through the mesh.
        assert!(s.position.z > 0.0, "fell through the floor: {:?}", s.position);
        let half = 2.0 + s.position.z.min(4.0); // the walls' half-width at this height
        assert!(s.position.x.abs() < half && s.position.y.abs() < half, "left through a wall: {:?}", s.position);
        let nearest = triangles.iter().map(|t| distance_to(t, s.position)).fold(f64::INFINITY, f64::min);
        assert!(nearest > 0.97 * f64::from(s.radius), "sunk {nearest} into the mesh at {:?}", s.position);
    }
}

#[test]
fn every_broad_phase_gives_the_same_bits_with_triangles() {
    let run = |kind: BroadPhaseKind| {
        let mut world = hopper_pour(kind, 128);
        for _ in 0..90 {
            world.step(1.0 / 60.0);
        }
        world
            .spheres()
            .iter()
            .map(|s| (s.position.to_array().map(f32::to_bits), s.velocity.to_array().map(f32::to_bits)))
            .collect::<Vec<_>>()
    };
    let reference = run(BroadPhaseKind::BruteForce);
    for kind in BroadPhaseKind::ALL {
        assert!(run(kind) == reference, "{kind:?} differs from brute force");
    }
}

#[test]
fn kinematic_spheres_pass_through_triangles() {
    let mut world = World::new(None, BroadPhaseKind::BruteForce).unwrap();
    world.add_triangle(Vec3::new(0.0, -5.0, -5.0), Vec3::new(0.0, 5.0, -5.0), Vec3::new(0.0, 0.0, 5.0)).unwrap();
    let piston = Sphere::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.5).with_mass(f32::INFINITY);
    let id = world.add_sphere(piston).unwrap();
    for _ in 0..120 {
        world.step(1.0 / 60.0);
    }
    let s = world.sphere(id).unwrap();
    assert_eq!(s.velocity, Vec3::new(2.0, 0.0, 0.0));
    assert!(s.position.x > 1.9, "{:?}", s.position);
}

#[test]
fn bad_triangles_and_meshes_are_refused_and_add_nothing() {
    let mut world = World::new(Some(Aabb3 { min: Vec3::ZERO, max: Vec3::ONE }), BroadPhaseKind::BruteForce).unwrap();
    world.add_triangle(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    let message = |e: swerve::Error| e.to_string();
    assert!(message(world.add_triangle(nan, Vec3::X, Vec3::Y).unwrap_err()).contains("finite"));
    assert!(message(world.add_triangle(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).unwrap_err()).contains("no area"));
    assert!(message(world.add_triangle(Vec3::ZERO, Vec3::X, Vec3::ZERO).unwrap_err()).contains("no area"));
    let vertices = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let error = world.add_mesh(&vertices, &[[0, 1, 2], [0, 1, 4]]).unwrap_err();
    assert_eq!(message(error), "triangle 1 names vertex 4, but the mesh has 4 vertices");
    let error = world.add_mesh(&vertices, &[[0, 1, 2], [0, 1, 3], [1, 1, 2]]).unwrap_err();
    assert_eq!(message(error), "triangle 2 has no area (its corners are repeated or in a line)");
    assert!(world.add_mesh(&[Vec3::ZERO, nan, Vec3::Y], &[[0, 1, 2]]).is_err());
    assert_eq!(world.triangles().len(), 1, "a refused mesh added some of its triangles");
}

#[test]
fn a_sphere_wedged_in_a_narrow_groove_is_pushed_clear_of_both_faces() {
    // A V-shaped groove along y, 40° wide, each face two triangles; a sphere put deep into it
    // overlaps both. Pushing it out of one face pushes it into the other: the position passes
    // must keep checking the first face after the second pushed it.
    let beta = 20f32.to_radians();
    let mut world = World::new(None, BroadPhaseKind::BruteForce).unwrap();
    for side in [-1.0f32, 1.0] {
        let up = Vec3::new(side * beta.sin(), 0.0, beta.cos()) * 10.0;
        let (a, b) = (Vec3::new(0.0, -10.0, 0.0), Vec3::new(0.0, 10.0, 0.0));
        world.add_mesh(&[a, b, b + up, a + up], &[[0, 1, 2], [0, 2, 3]]).unwrap();
    }
    let id = world.add_sphere(Sphere::new(Vec3::new(0.05, 0.0, 1.5), Vec3::ZERO, 1.0)).unwrap();
    let clearance = |world: &World| {
        let p = world.sphere(id).unwrap().position;
        world.triangles().iter().map(|t| distance_to(t, p)).fold(f64::INFINITY, f64::min)
    };
    assert!(clearance(&world) < 0.6, "the sphere must start deep in the groove");
    world.step(1.0 / 60.0);
    assert!(clearance(&world) > 1.0 - 1e-3, "left overlapping a face by {}", 1.0 - clearance(&world));
}
