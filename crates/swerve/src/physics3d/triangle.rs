//! Static triangles of the 3-D world: spheres bounce off them, rest on them and roll on them.
//!
//! A triangle is the 3-D counterpart of the planar world's static segment: fixed, infinitely
//! heavy, solid on both faces. This module holds its geometry: construction checks, the
//! bounding box (for [`super::triangle_grid`]), the normal and the closest point to a sphere's
//! centre, which the contact passes need. Computations are in `f64`, like the planar
//! segment's (`crate::physics::time_of_impact::disc_segment`): corners are `f32`, so they
//! convert exactly, and the products of coordinates far from the origin keep their precision.

use glam::{DVec3, Vec3};

use super::Aabb3;
use crate::error::Error;

/// How small the cross product `(b − a) × (c − a)` may get, relative to the square of the
/// longest edge, before the triangle counts as having no area.
///
/// `|(b − a) × (c − a)| / L²` (`L` the longest edge) is twice the area over `L²`: the
/// triangle's height over its longest edge, a measure that does not depend on the scale.
/// The cross product is computed in `f64` from corners that are exact `f64` numbers, so
/// its rounding error is a few units of `2⁻⁵³ L² ≈ 10⁻¹⁶ L²`. Demanding more than
/// `10⁻¹⁰ L²` therefore leaves the normal's direction accurate to about `10⁻⁶`, whatever
/// the triangle's size or distance from the origin; a thinner sliver has a normal that is
/// mostly rounding noise, and no use as a contact normal.
const MIN_AREA_RATIO: f64 = 1e-10;

/// A static triangle spheres bounce off (both faces solid); corners in metres.
///
/// Build it with [`Triangle::new`], which rejects triangles without a normal. The fields are
/// public for reading; a triangle written out field by field skips those checks, and
/// [`Triangle::normal`] and [`Triangle::closest_point`] then only promise not to panic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    /// The first corner (metres).
    pub a: Vec3,
    /// The second corner (metres).
    pub b: Vec3,
    /// The third corner (metres). The corners' order sets the sign of [`Triangle::normal`]
    /// only: both faces are solid.
    pub c: Vec3,
}

impl Triangle {
    /// The triangle with corners `a`, `b` and `c`.
    ///
    /// # Errors
    /// * [`Error::NonFinite`] (`"triangle corner"`) for a corner with a NaN or infinite
    ///   coordinate.
    /// * [`Error::DegenerateTriangle`] (`triangle: 0`) for a triangle without area: repeated
    ///   corners, corners in a line, or a sliver so thin that its normal would be mostly rounding:
    ///   `|(b − a) × (c − a)| ≤ 10⁻¹⁰ L²` (`L` the longest edge, computed in `f64`; the
    ///   ratio is the height over the longest edge, so the test does not depend on scale).
    ///   Every accepted triangle has a [`Triangle::normal`] accurate to about `10⁻⁶`.
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Result<Triangle, Error> {
        for corner in [a, b, c] {
            Error::check_finite_vec3("triangle corner", corner)?;
        }
        let (da, db, dc) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3());
        let longest_squared =
            (db - da).length_squared().max((dc - db).length_squared()).max((da - dc).length_squared());
        // `≤`: also rejects all-equal corners, where both sides are 0. Finite corners keep
        // both sides finite in `f64` (at most about 10⁷⁷).
        if (db - da).cross(dc - da).length() <= MIN_AREA_RATIO * longest_squared {
            return Err(Error::DegenerateTriangle { triangle: 0 });
        }
        Ok(Triangle { a, b, c })
    }

    /// The triangles of a mesh: `triangles` index `vertices` (m), each checked as by
    /// [`Triangle::new`].
    ///
    /// # Errors
    /// * [`Error::NonFinite`] (`"mesh vertex"`) for a vertex with a NaN or infinite coordinate.
    /// * [`Error::MeshIndexOutOfRange`] for an index beyond the vertices.
    /// * [`Error::DegenerateTriangle`] (`triangle`: its place in `triangles`) for a triangle
    ///   without area.
    pub fn mesh(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<Vec<Triangle>, Error> {
        for &v in vertices {
            Error::check_finite_vec3("mesh vertex", v)?;
        }
        let mut mesh = Vec::with_capacity(triangles.len());
        for (k, corners) in triangles.iter().enumerate() {
            let corner = |index: u32| {
                vertices.get(index as usize).copied().ok_or(Error::MeshIndexOutOfRange {
                    triangle: k,
                    index,
                    vertices: vertices.len(),
                })
            };
            let triangle = Triangle::new(corner(corners[0])?, corner(corners[1])?, corner(corners[2])?)
                .map_err(|_| Error::DegenerateTriangle { triangle: k })?;
            mesh.push(triangle);
        }
        Ok(mesh)
    }

    /// The smallest axis-aligned box holding the triangle.
    #[inline]
    pub fn bounding_box(&self) -> Aabb3 {
        Aabb3 { min: self.a.min(self.b).min(self.c), max: self.a.max(self.b).max(self.c) }
    }

    /// Unit normal of `(b − a) × (c − a)`, in `f64` (the zero vector for a triangle without
    /// area, which [`Triangle::new`] rejects).
    #[inline]
    pub fn normal(&self) -> DVec3 {
        let (a, b, c) = (self.a.as_dvec3(), self.b.as_dvec3(), self.c.as_dvec3());
        (b - a).cross(c - a).normalize_or_zero()
    }

    /// The point of the triangle (face, edge or corner) nearest to `p`, in `f64`.
    ///
    /// Ericson, *Real-Time Collision Detection* (2005), §5.1.5 `ClosestPtPointTriangle`: the
    /// Voronoi regions of the corners, then of the edges, are tested with dot products of the
    /// edges and `p`'s offsets from the corners; a point in none of them projects onto the
    /// face, whose barycentric coordinates are the same products' ratios. No square root and
    /// no normal is needed.
    pub fn closest_point(&self, p: DVec3) -> DVec3 {
        let (a, b, c) = (self.a.as_dvec3(), self.b.as_dvec3(), self.c.as_dvec3());
        let found = closest_point_ericson(a, b, c, p);
        if found.is_finite() {
            found
        } else {
            // Only for a triangle without area written out by hand (a division by a zero edge
            // length or area above): the nearest point of its three edges.
            [(a, b), (b, c), (c, a)]
                .map(|(s, e)| closest_point_on_segment(s, e, p))
                .into_iter()
                .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
                .unwrap_or(a)
        }
    }

    /// Where the segment from `p` to `q` crosses the triangle, as the fraction of the way from
    /// `p`, in `f64`: `None` when it does not cross, when `p` lies in the triangle's plane
    /// (no side to leave), or when `q` stays strictly on `p`'s side. A `q` in the plane counts
    /// as crossing (at 1).
    ///
    /// Which side of the plane `p` and `q` are on comes from the signs of their offsets along
    /// `(b − a) × (c − a)`; whether the segment's line passes through the triangle from the
    /// signs of three scalar triple products (Ericson, RTCD §5.3.4 `IntersectLineTriangle`),
    /// accepted with a tolerance of 10⁻⁹ of their sum so that a segment through an edge two
    /// triangles of a mesh share crosses at least one of them despite rounding.
    pub(crate) fn segment_crossing(&self, p: DVec3, q: DVec3) -> Option<f64> {
        let (a, b, c) = (self.a.as_dvec3(), self.b.as_dvec3(), self.c.as_dvec3());
        let n = (b - a).cross(c - a);
        let (from, to) = (n.dot(p - a), n.dot(q - a));
        let stays = if from > 0.0 { to > 0.0 } else { to < 0.0 };
        if from == 0.0 || stays || !(from - to).is_finite() {
            return None;
        }
        let (pq, pa, pb, pc) = (q - p, a - p, b - p, c - p);
        let m = pq.cross(pc);
        let (u, v, w) = (pb.dot(m), -pa.dot(m), pq.cross(pb).dot(pa));
        let tolerance = 1e-9 * (u.abs() + v.abs() + w.abs());
        let through = (u >= -tolerance && v >= -tolerance && w >= -tolerance)
            || (u <= tolerance && v <= tolerance && w <= tolerance);
        through.then(|| from / (from - to))
    }
}

/// Ericson's `ClosestPtPointTriangle` (RTCD §5.1.5), transcribed; the region names are his.
fn closest_point_ericson(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a; // corner region A
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b; // corner region B
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3)); // edge region AB
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c; // corner region C
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6)); // edge region AC
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))); // edge region BC
    }
    // Face region: barycentric coordinates (u, v, w) = (va, vb, vc) / (va + vb + vc).
    let denominator = 1.0 / (va + vb + vc);
    a + ab * (vb * denominator) + ac * (vc * denominator)
}

/// The point of segment `[s, e]` nearest to `p` (RTCD §5.1.2), in `f64`.
fn closest_point_on_segment(s: DVec3, e: DVec3, p: DVec3) -> DVec3 {
    let d = e - s;
    let length_squared = d.length_squared();
    if length_squared <= 0.0 {
        return s;
    }
    s + d * ((p - s).dot(d) / length_squared).clamp(0.0, 1.0)
}
