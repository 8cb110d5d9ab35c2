//! Questions about a 3-D world between steps: which spheres overlap a ball (or hold a point),
//! and what a ray meets first — picking, line of sight, a shot, a range sensor's beam.
//!
//! The planar world's queries (`crate::physics`'s `query` module) with a third coordinate and
//! triangles for segments. Each query scans every sphere and triangle once: O(n), meant for a
//! few queries a step, not for one per sphere. The arithmetic is `f64`, so a hit lies on its
//! collider to `f32` precision wherever the world is.

use glam::{DVec3, Vec3};

use super::contact::{BoxWall, Collider};
use super::{Aabb3, Sphere, SphereId, Triangle};

/// What a ray met first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// What it met.
    pub collider: Collider,
    /// Distance from the ray's origin (m).
    pub distance: f32,
    /// Where it met it.
    pub point: Vec3,
    /// Unit normal of the collider's surface there, facing the ray's origin.
    pub normal: Vec3,
}

/// The ids of the spheres that overlap the ball (`center`, `radius`): closer than the sum of
/// the radii. With `radius = 0`, the spheres that contain `center`.
pub(crate) fn spheres_in_ball<'a>(
    spheres: &'a [Sphere],
    ids: &'a [SphereId],
    center: Vec3,
    radius: f32,
) -> impl Iterator<Item = SphereId> + 'a {
    let c = center.as_dvec3();
    spheres.iter().zip(ids).filter_map(move |(s, &id)| {
        let reach = f64::from(s.radius) + f64::from(radius);
        (s.position.as_dvec3().distance_squared(c) < reach * reach).then_some(id)
    })
}

/// The first collider the ray `origin + t·direction` (unit `direction`, `0 ≤ t ≤ max`) meets:
/// a sphere where the ray enters it (spheres that contain the origin are not met: the ray
/// starts inside them), a triangle (either face), or a wall of the box (from either side).
/// Ties go to spheres, in the order of `spheres`, then triangles, then walls.
pub(crate) fn cast_ray(
    spheres: &[Sphere],
    ids: &[SphereId],
    triangles: &[Triangle],
    bounds: Option<Aabb3>,
    origin: DVec3,
    direction: DVec3,
    max: f64,
) -> Option<RayHit> {
    let mut best: Option<(f64, Collider, DVec3)> = None;
    let mut consider = |t: f64, collider: Collider, normal: DVec3| {
        if t <= max && best.map_or(true, |(bt, _, _)| t < bt) {
            best = Some((t, collider, normal));
        }
    };
    for (s, &id) in spheres.iter().zip(ids) {
        let centre = s.position.as_dvec3();
        if let Some(t) = ray_enters_sphere(origin, direction, centre, f64::from(s.radius)) {
            consider(t, Collider::Sphere(id), (origin + direction * t - centre).normalize_or_zero());
        }
    }
    for (k, triangle) in triangles.iter().enumerate() {
        if let Some((t, normal)) = ray_meets_triangle(origin, direction, triangle) {
            consider(t, Collider::Triangle(k), normal);
        }
    }
    if let Some(bounds) = bounds {
        let (lo, hi) = (bounds.min.as_dvec3(), bounds.max.as_dvec3());
        for axis in 0..3 {
            if direction[axis] == 0.0 {
                continue; // parallel to both walls of this axis
            }
            for (plane, max_side) in [(lo[axis], false), (hi[axis], true)] {
                let t = (plane - origin[axis]) / direction[axis];
                if t < 0.0 {
                    continue;
                }
                let point = origin + direction * t;
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                let on_face = (lo[u]..=hi[u]).contains(&point[u]) && (lo[v]..=hi[v]).contains(&point[v]);
                if on_face {
                    let mut normal = DVec3::ZERO;
                    normal[axis] = -direction[axis].signum(); // facing the origin
                    consider(t, Collider::Wall(BoxWall::on(axis, max_side)), normal);
                }
            }
        }
    }
    best.map(|(t, collider, normal)| RayHit {
        collider,
        distance: t as f32,
        point: (origin + direction * t).as_vec3(),
        normal: normal.as_vec3(),
    })
}

/// Where the ray enters the sphere, if it does at `t ≥ 0`; `None` from inside or on its
/// surface.
pub(crate) fn ray_enters_sphere(origin: DVec3, direction: DVec3, centre: DVec3, radius: f64) -> Option<f64> {
    let m = origin - centre;
    let b = m.dot(direction);
    let c = m.length_squared() - radius * radius;
    if c <= 0.0 || b >= 0.0 {
        return None; // inside, or outside and moving away
    }
    let discriminant = b * b - c;
    (discriminant >= 0.0).then(|| -b - discriminant.sqrt())
}

/// Where the ray crosses the triangle at `t ≥ 0`, with the triangle's normal facing the ray's
/// origin; `None` if it misses or runs parallel to it (Möller & Trumbore, "Fast, minimum
/// storage ray/triangle intersection", 1997, in `f64`).
fn ray_meets_triangle(origin: DVec3, direction: DVec3, triangle: &Triangle) -> Option<(f64, DVec3)> {
    let (a, b, c) = (triangle.a.as_dvec3(), triangle.b.as_dvec3(), triangle.c.as_dvec3());
    let (ab, ac) = (b - a, c - a);
    let p = direction.cross(ac);
    let determinant = ab.dot(p);
    if determinant == 0.0 {
        return None;
    }
    let inverse = 1.0 / determinant;
    let to_origin = origin - a;
    let u = to_origin.dot(p) * inverse;
    let q = to_origin.cross(ab);
    let v = direction.dot(q) * inverse;
    if !(0.0..=1.0).contains(&u) || v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = ac.dot(q) * inverse;
    if t < 0.0 {
        return None;
    }
    let normal = triangle.normal();
    Some((t, if normal.dot(direction) > 0.0 { -normal } else { normal }))
}
