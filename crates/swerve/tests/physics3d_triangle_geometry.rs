//! The 3-D world's static-triangle geometry against brute-force oracles: `Triangle::new`'s
//! errors, `Triangle::closest_point` against dense sampling of the triangle (and an exact
//! projection oracle), and `time_of_impact::sphere_triangle` against a finely time-sampled
//! path with bisection. Triangles are random: large and small, slivers, far from the origin.

use glam::{DVec3, Vec3};
use proptest::prelude::*;
use swerve::error::Error;
use swerve::physics3d::time_of_impact::sphere_triangle;
use swerve::physics3d::Triangle;

// ---------------------------------------------------------------------------------------------
// Oracles, written independently of the library's Voronoi-region code.

/// The corners in `f64`.
fn corners(t: &Triangle) -> [DVec3; 3] {
    [t.a.as_dvec3(), t.b.as_dvec3(), t.c.as_dvec3()]
}

/// The nearest point of segment `[s, e]` to `p`.
fn segment_closest(s: DVec3, e: DVec3, p: DVec3) -> DVec3 {
    let d = e - s;
    s + d * ((p - s).dot(d) / d.length_squared()).clamp(0.0, 1.0)
}

/// Barycentric coordinates `(u, v, w)` of `p`'s projection onto the triangle's plane
/// (`p ≈ u a + v b + w c`), by Cramer's rule on the Gram matrix of the edges.
fn barycentric(t: &Triangle, p: DVec3) -> DVec3 {
    let [a, b, c] = corners(t);
    let (e1, e2, d) = (b - a, c - a, p - a);
    let (d11, d12, d22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
    let (d1, d2) = (d.dot(e1), d.dot(e2));
    let det = d11 * d22 - d12 * d12;
    let v = (d22 * d1 - d12 * d2) / det;
    let w = (d11 * d2 - d12 * d1) / det;
    DVec3::new(1.0 - v - w, v, w)
}

/// The exact nearest point: the projection onto the plane when it falls inside, else the
/// nearest of the three edges' nearest points.
fn exact_closest(t: &Triangle, p: DVec3) -> DVec3 {
    let [a, b, c] = corners(t);
    let bary = barycentric(t, p);
    if bary.min_element() >= 0.0 {
        return a * bary.x + b * bary.y + c * bary.z;
    }
    [segment_closest(a, b, p), segment_closest(b, c, p), segment_closest(c, a, p)]
        .into_iter()
        .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
        .unwrap()
}

/// Distance from `p` to the triangle (by [`exact_closest`]).
fn distance(t: &Triangle, p: DVec3) -> f64 {
    p.distance(exact_closest(t, p))
}

/// The longest edge (the triangle's scale).
fn scale(t: &Triangle) -> f64 {
    let [a, b, c] = corners(t);
    a.distance(b).max(b.distance(c)).max(c.distance(a))
}

// ---------------------------------------------------------------------------------------------
// Generators.

fn vec3(range: f32) -> impl Strategy<Value = Vec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Random valid triangles: ordinary, large, tiny, slivers (one corner near the opposite
/// edge), axis-aligned, some ±10⁴ away from the origin.
fn triangle() -> impl Strategy<Value = Triangle> {
    (vec3(10.0), vec3(10.0), vec3(10.0), 0u8..6, -1.0e4f32..1.0e4, 0u8..3, 0.0f32..1.0).prop_filter_map(
        "no area",
        |(a, b, c, kind, far, far_axis, t)| {
            let (b, c) = match kind {
                0 => (a + (b - a) * 5.0, a + (c - a) * 5.0),               // large
                1 => (a + (b - a) * 0.01, a + (c - a) * 0.01),             // small
                2 => (b, a.lerp(b, t) + (c - a) * 1e-3),                   // sliver
                3 => (Vec3::new(b.x, b.y, a.z), Vec3::new(c.x, c.y, a.z)), // flat in z
                _ => (b, c),
            };
            let mut offset = Vec3::ZERO;
            if kind % 2 == 0 {
                offset[usize::from(far_axis)] = far.round();
            }
            Triangle::new(a + offset, b + offset, c + offset).ok()
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Triangle::new.

#[test]
fn new_rejects_non_finite_corners() {
    let ok = [Vec3::ZERO, Vec3::X, Vec3::Y];
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for corner in 0..3 {
            for axis in 0..3 {
                let mut c = ok;
                c[corner][axis] = bad;
                match Triangle::new(c[0], c[1], c[2]) {
                    Err(Error::NonFinite { what, value }) => {
                        assert_eq!(what, "triangle corner");
                        assert!(value.is_nan() == bad.is_nan() && (bad.is_nan() || value == bad));
                    }
                    other => panic!("corner {corner} axis {axis} = {bad}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn new_rejects_triangles_without_area() {
    let (p, q) = (Vec3::new(1.0, 2.0, 3.0), Vec3::new(-4.0, 5.0, 0.5));
    let cases = [
        ("all corners equal", p, p, p),
        ("a = b", p, p, q),
        ("b = c", q, p, p),
        ("c = a", p, q, p),
        ("collinear", p, q, p + (q - p) * 3.0),
        ("collinear, middle corner", p, p.lerp(q, 0.25), q),
        ("axis collinear", Vec3::ZERO, Vec3::X, Vec3::X * 7.0),
        // Height 10⁻¹¹ of the longest edge: below the 10⁻¹⁰ threshold.
        ("sliver", Vec3::ZERO, Vec3::new(1.0e4, 0.0, 0.0), Vec3::new(5.0e3, 1.0e-7, 0.0)),
        ("far collinear", Vec3::splat(1.0e4), Vec3::splat(1.0e4) + Vec3::X, Vec3::splat(1.0e4) + Vec3::X * 2.0),
    ];
    for (name, a, b, c) in cases {
        assert!(
            matches!(Triangle::new(a, b, c), Err(Error::DegenerateTriangle { triangle: 0 })),
            "{name}: {:?}",
            Triangle::new(a, b, c)
        );
    }
}

#[test]
fn new_accepts_thin_but_real_triangles_and_normal_follows_the_corner_order() {
    // Height 10⁻⁸ of the longest edge: above the threshold.
    let thin = Triangle::new(Vec3::ZERO, Vec3::new(1.0e4, 0.0, 0.0), Vec3::new(5.0e3, 1.0e-4, 0.0)).unwrap();
    assert!((thin.normal() - DVec3::Z).length() < 1e-9, "{:?}", thin.normal());
    let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
    assert_eq!(t.normal(), DVec3::Z);
    assert_eq!(Triangle::new(Vec3::ZERO, Vec3::Y, Vec3::X).unwrap().normal(), -DVec3::Z);
    let b = Triangle::new(Vec3::new(1.0, -2.0, 3.0), Vec3::new(-1.0, 4.0, 0.0), Vec3::new(2.0, 2.0, 2.0)).unwrap();
    let bounds = b.bounding_box();
    assert_eq!(bounds.min, Vec3::new(-1.0, -2.0, 0.0));
    assert_eq!(bounds.max, Vec3::new(2.0, 4.0, 3.0));
}

proptest! {
    /// Accepted triangles have a unit normal perpendicular to their edges.
    #[test]
    fn accepted_triangles_have_a_unit_normal(t in triangle()) {
        let n = t.normal();
        let [a, b, c] = corners(&t);
        prop_assert!((n.length() - 1.0).abs() < 1e-12);
        for edge in [b - a, c - b, a - c] {
            prop_assert!(n.dot(edge).abs() <= 1e-5 * edge.length(), "{n:?} · {edge:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// closest_point.

/// Checks `closest_point(p)` against the oracles: on the triangle, no farther than any of a
/// dense set of barycentric samples and than each edge's exact nearest point, and at the exact
/// nearest point.
fn check_closest_point(t: &Triangle, p: DVec3) -> Result<(), TestCaseError> {
    let found = t.closest_point(p);
    let [a, b, c] = corners(t);
    let s = scale(t);
    let tolerance = 1e-9 * (s + p.distance(a));
    // On the triangle: in its plane, with barycentric coordinates in [0, 1].
    prop_assert!((found - a).dot(t.normal()).abs() <= tolerance, "{found:?} off the plane of {t:?}");
    let bary = barycentric(t, found);
    // Barycentric coordinates of a sliver's points are ill-conditioned: scale the slack by
    // the longest edge over the height.
    let [e1, e2] = [b - a, c - a];
    let height = e1.cross(e2).length() / s;
    let bary_tolerance = 1e-9 * (s + p.distance(a)) / height;
    prop_assert!(
        bary.min_element() >= -bary_tolerance && bary.max_element() <= 1.0 + bary_tolerance,
        "{found:?} (barycentric {bary:?}) not in {t:?}"
    );
    let d = found.distance(p);
    // Brute force: dense barycentric samples and the edges' exact nearest points.
    const N: u32 = 40;
    for i in 0..=N {
        for j in 0..=N - i {
            let (u, v) = (f64::from(i) / f64::from(N), f64::from(j) / f64::from(N));
            let sample = a + e1 * u + e2 * v;
            prop_assert!(d <= sample.distance(p) + tolerance, "sample {sample:?} nearer {p:?} than {found:?}");
        }
    }
    for (s, e) in [(a, b), (b, c), (c, a)] {
        let q = segment_closest(s, e, p);
        prop_assert!(d <= q.distance(p) + tolerance, "edge point {q:?} nearer {p:?} than {found:?}");
    }
    let exact = exact_closest(t, p);
    prop_assert!(found.distance(exact) <= 1e-6 * (s + p.distance(a)), "{found:?}, exact {exact:?}");
    Ok(())
}

proptest! {
    /// Points anywhere around random triangles (each Voronoi region is hit often).
    #[test]
    fn closest_point_is_the_nearest_point_of_the_triangle(t in triangle(), p in vec3(25.0)) {
        let centre = (t.a + t.b + t.c) / 3.0;
        check_closest_point(&t, (centre + p).as_dvec3())?;
    }

    /// Points just off the face, above or below it (the face region, and its borders).
    #[test]
    fn closest_point_near_the_face(t in triangle(), u in -0.2f64..1.2, v in -0.2f64..1.2, h in -2.0f64..2.0) {
        let [a, b, c] = corners(&t);
        let p = a + (b - a) * u + (c - a) * v + t.normal() * h;
        check_closest_point(&t, p)?;
    }
}

#[test]
fn closest_point_of_each_region() {
    let t = Triangle::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0)).unwrap();
    let cases = [
        (DVec3::new(0.5, 0.5, 3.0), DVec3::new(0.5, 0.5, 0.0)), // face, above
        (DVec3::new(0.5, 0.5, -3.0), DVec3::new(0.5, 0.5, 0.0)), // face, below
        (DVec3::new(-1.0, -1.0, 1.0), DVec3::ZERO),             // corner a
        (DVec3::new(3.0, -1.0, 0.0), DVec3::new(2.0, 0.0, 0.0)), // corner b
        (DVec3::new(-1.0, 3.0, 0.0), DVec3::new(0.0, 2.0, 0.0)), // corner c
        (DVec3::new(1.0, -1.0, 1.0), DVec3::new(1.0, 0.0, 0.0)), // edge ab
        (DVec3::new(-1.0, 1.0, -1.0), DVec3::new(0.0, 1.0, 0.0)), // edge ca
        (DVec3::new(2.0, 2.0, 0.0), DVec3::new(1.0, 1.0, 0.0)), // edge bc
    ];
    for (p, expected) in cases {
        assert!((t.closest_point(p) - expected).length() < 1e-12, "{p:?}: {:?}", t.closest_point(p));
    }
}

#[test]
fn closest_point_of_a_triangle_without_area_written_out_by_hand() {
    // `Triangle::new` rejects these; written field by field they still get the nearest point
    // of their edges rather than NaN.
    let line = Triangle { a: Vec3::ZERO, b: Vec3::X, c: Vec3::X * 2.0 };
    assert_eq!(line.closest_point(DVec3::new(1.5, 1.0, 0.0)), DVec3::new(1.5, 0.0, 0.0));
    // a = b: Ericson's edge region AB divides 0 by 0 here.
    let repeated = Triangle { a: Vec3::ZERO, b: Vec3::ZERO, c: Vec3::X * 2.0 };
    assert_eq!(repeated.closest_point(DVec3::new(1.0, 1.0, 0.0)), DVec3::new(1.0, 0.0, 0.0));
    let point = Triangle { a: Vec3::ONE, b: Vec3::ONE, c: Vec3::ONE };
    assert_eq!(point.closest_point(DVec3::ZERO), DVec3::ONE);
    assert_eq!(point.normal(), DVec3::ZERO);
}

// ---------------------------------------------------------------------------------------------
// sphere_triangle.

/// A sphere's path: start, velocity, radius, step length.
#[derive(Clone, Copy, Debug)]
struct Path {
    p: Vec3,
    v: Vec3,
    radius: f32,
    t_max: f32,
}

impl Path {
    fn at(&self, t: f64) -> DVec3 {
        self.p.as_dvec3() + self.v.as_dvec3() * t
    }
}

/// Paths aimed at (near) the triangle, moving parallel to it, or random.
fn path_towards(t: Triangle) -> impl Strategy<Value = (Triangle, Path)> {
    (0.0f64..1.0, 0.0f64..1.0, vec3(1.0), 0.01f32..3.0, 0.0f32..40.0, 0.05f32..2.0, 0u8..4, -1.5f32..1.5, vec3(8.0))
        .prop_map(move |(u, v, direction, radius, speed, t_max, kind, miss, start)| {
            let [a, b, c] = corners(&t);
            let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
            let s = scale(&t) as f32;
            let normal = t.normal().as_vec3();
            // Aim at a point on the triangle, or beside it (edges and corners), from a
            // random direction; `miss` shifts the aim off the triangle by up to 1.5 radii.
            let target = (a + (b - a) * u * 1.2 + (c - a) * v * 1.2).as_vec3();
            let direction = direction.try_normalize().unwrap_or(Vec3::Z);
            let (p, vel) = match kind {
                0 => {
                    // Straight at it: starts 1 to 6 radii + travel away.
                    let offset = direction * (radius * (1.0 + 5.0 * miss.abs()) + speed * t_max * 0.5);
                    (target + offset + normal * miss * radius, -direction * speed)
                }
                1 => {
                    // Parallel to the face, at a height around the radius.
                    let along = (direction - normal * direction.dot(normal)).try_normalize().unwrap_or(Vec3::X);
                    (target - along * (s + speed * t_max * 0.5) + normal * radius * miss, along * speed)
                }
                2 => {
                    // Towards the face's plane, from the side (edges and corners first).
                    let from = target + normal * (radius + speed * t_max * 0.3) + direction * s * miss;
                    (from, (target - from).normalize_or_zero() * speed)
                }
                _ => (target + start, direction * speed),
            };
            (t, Path { p, v: vel, radius, t_max })
        })
}

/// Checks `sphere_triangle` on `path` against the sampled path: every contact the samples see
/// is found, not late (before the bisected crossing), at a time where the distance is the
/// radius, and spheres already touching get `None`.
fn check_sphere_triangle(t: &Triangle, path: &Path) -> Result<(), TestCaseError> {
    let found = sphere_triangle(path.p, path.v, path.radius, t, path.t_max);
    let r = f64::from(path.radius);
    let t_max = f64::from(path.t_max);
    let d0 = distance(t, path.at(0.0));
    if d0 <= r * (1.0 - 1e-9) {
        prop_assert!(found.is_none(), "already touching (distance {d0}, radius {r}) but {found:?}");
        return Ok(());
    }
    if d0 <= r * (1.0 + 1e-9) {
        return Ok(()); // touching up to rounding: either answer
    }
    let travel = path.v.as_dvec3().length() * t_max;
    // The distance at the returned time is the radius, up to 10⁻⁶ of the radius plus the path
    // (the time is an `f32`: 6·10⁻⁸ of it).
    if let Some(hit) = found {
        let hit = f64::from(hit);
        prop_assert!((0.0..=t_max).contains(&hit), "time {hit} outside [0, {t_max}]");
        let d = distance(t, path.at(hit));
        prop_assert!((d - r).abs() <= 1e-6 * (r + travel), "at {hit} distance {d}, radius {r}");
    }
    // The first sample within the radius (strictly, so that grazing rounding is no contact).
    const SAMPLES: u32 = 2000;
    let mut previous = 0.0;
    for k in 1..=SAMPLES {
        let time = t_max * f64::from(k) / f64::from(SAMPLES);
        if distance(t, path.at(time)) < r * (1.0 - 1e-7) {
            // A crossing between the two samples, by bisection: the first contact is no later.
            let (mut lo, mut hi) = (previous, time);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                if distance(t, path.at(mid)) > r {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let Some(hit) = found else {
                return Err(TestCaseError::fail(format!("missed: within the radius at {time} (crossing {hi})")));
            };
            prop_assert!(
                f64::from(hit) <= hi + 1e-9 * t_max,
                "late: returned {hit}, but the path crosses the radius at {hi}"
            );
            return Ok(());
        }
        previous = time;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Paths at, past, beside and parallel to random triangles.
    #[test]
    fn sphere_triangle_finds_the_first_contact((t, path) in triangle().prop_flat_map(path_towards)) {
        check_sphere_triangle(&t, &path)?;
    }

    /// Spheres already within their radius of the triangle get `None`.
    #[test]
    fn sphere_triangle_ignores_spheres_already_touching(
        t in triangle(),
        u in 0.0f64..1.0,
        v in 0.0f64..1.0,
        direction in vec3(1.0),
        depth in 0.0f64..1.0,
        radius in 0.01f32..3.0,
        velocity in vec3(30.0),
    ) {
        let [a, b, c] = corners(&t);
        let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
        let on = a + (b - a) * u + (c - a) * v;
        let p = (on + direction.as_dvec3().normalize_or_zero() * depth * f64::from(radius) * 0.999).as_vec3();
        if distance(&t, p.as_dvec3()) < f64::from(radius) * 0.9999 {
            prop_assert_eq!(sphere_triangle(p, velocity, radius, &t, 1.0), None);
        }
    }
}

#[test]
fn sphere_triangle_fixed_cases() {
    let floor =
        Triangle::new(Vec3::new(-1.0, -1.0, 0.0), Vec3::new(3.0, -1.0, 0.0), Vec3::new(-1.0, 3.0, 0.0)).unwrap();
    let toi = |p: Vec3, v: Vec3, r: f32, t_max: f32| sphere_triangle(p, v, r, &floor, t_max);
    // Face, from above and from below (both faces solid).
    assert_eq!(toi(Vec3::new(0.0, 0.0, 5.0), Vec3::new(0.0, 0.0, -1.0), 1.0, 10.0), Some(4.0));
    assert_eq!(toi(Vec3::new(0.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 2.0), 1.0, 10.0), Some(2.0));
    // Not within the step.
    assert_eq!(toi(Vec3::new(0.0, 0.0, 5.0), Vec3::new(0.0, 0.0, -1.0), 1.0, 3.9), None);
    // Moving away, and parallel to the face just above the radius.
    assert_eq!(toi(Vec3::new(0.0, 0.0, 5.0), Vec3::new(0.0, 0.0, 1.0), 1.0, 10.0), None);
    assert_eq!(toi(Vec3::new(-5.0, 0.0, 1.001), Vec3::new(1.0, 0.0, 0.0), 1.0, 100.0), None);
    // Parallel to the face within the radius: hits the edge x = −1 from the side.
    let hit = toi(Vec3::new(-5.0, 0.0, 0.5), Vec3::new(1.0, 0.0, 0.0), 1.0, 100.0).unwrap();
    let expected = 4.0 - (1.0f32 - 0.25).sqrt(); // centre at x = −1 − √(1 − 0.5²)
    assert!((hit - expected).abs() < 1e-6, "{hit} vs {expected}");
    // In the plane, head-on into corner (−1, −1, 0) along the diagonal.
    let d = Vec3::new(1.0, 1.0, 0.0).normalize();
    let hit = toi(Vec3::new(-1.0, -1.0, 0.0) - d * 5.0, d, 1.0, 100.0).unwrap();
    assert!((hit - 4.0).abs() < 1e-5, "{hit}");
    // Already touching: the discrete pass's.
    assert_eq!(toi(Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, -1.0), 1.0, 10.0), None);
    assert_eq!(toi(Vec3::new(0.0, 0.0, 0.5), Vec3::new(0.0, 0.0, -1.0), 1.0, 10.0), None);
    // Tunnelling: far faster than the sphere's size per step.
    let hit = toi(Vec3::new(0.5, 0.5, 100.0), Vec3::new(0.0, 0.0, -1000.0), 0.01, 1.0).unwrap();
    assert!(f64::from(hit) <= (100.0 - f64::from(0.01f32)) / 1000.0 && hit > 0.099_989, "{hit}");
}
