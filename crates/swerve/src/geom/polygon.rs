//! Polygon checks done once, when an obstacle is added.

use crate::Error;
use glam::{DVec2, Vec2};

/// The turning sense of a closed polygon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winding {
    /// Counter-clockwise: in RVO2's convention a solid obstacle.
    CounterClockwise,
    /// Clockwise: in RVO2's convention a boundary that encloses the agents.
    Clockwise,
    /// Zero signed area (a segment, or a degenerate polygon).
    Degenerate,
}

impl Winding {
    /// The winding of `vertices` by the sign of the shoelace area (computed in `f64`).
    pub fn of(vertices: &[Vec2]) -> Winding {
        let n = vertices.len();
        let mut twice_area = 0.0f64;
        for i in 0..n {
            let a = vertices[i].as_dvec2();
            let b = vertices[(i + 1) % n].as_dvec2();
            twice_area += a.perp_dot(b);
        }
        if twice_area > 0.0 {
            Winding::CounterClockwise
        } else if twice_area < 0.0 {
            Winding::Clockwise
        } else {
            Winding::Degenerate
        }
    }
}

/// Checks an obstacle outline: at least 2 vertices, all finite, no two consecutive vertices
/// equal, and (for 3 or more vertices) no two edges crossing or touching except consecutive
/// edges at their shared vertex.
///
/// Edge `i` runs from vertex `i` to vertex `(i + 1) % n`. The tests use `f64` so that the
/// verdict does not depend on `f32` rounding of nearly parallel edges.
pub fn validate_polygon(vertices: &[Vec2]) -> Result<(), Error> {
    let n = vertices.len();
    if n < 2 {
        return Err(Error::TooFewVertices { count: n });
    }
    for v in vertices {
        Error::check_finite_vec("obstacle vertex", *v)?;
    }
    let edge_count = if n == 2 { 1 } else { n };
    for i in 0..edge_count {
        let j = (i + 1) % n;
        if vertices[i] == vertices[j] {
            return Err(Error::RepeatedVertex { first: i, second: j });
        }
    }
    if n == 2 {
        return Ok(());
    }
    let edge = |i: usize| (vertices[i].as_dvec2(), vertices[(i + 1) % n].as_dvec2());
    for i in 0..n {
        for j in (i + 1)..n {
            let (a, b) = edge(i);
            let (c, d) = edge(j);
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            let crosses = if adjacent {
                // Consecutive edges share one vertex; they are only at fault when they fold
                // back onto each other (collinear and overlapping beyond that vertex).
                folds_back(a, b, c, d, j == i + 1)
            } else {
                segments_touch(a, b, c, d)
            };
            if crosses {
                return Err(Error::SelfIntersecting { first: i, second: j });
            }
        }
    }
    Ok(())
}

fn orientation(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

fn on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Whether the closed segments `a`–`b` and `c`–`d` share at least one point.
fn segments_touch(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let o1 = orientation(a, b, c);
    let o2 = orientation(a, b, d);
    let o3 = orientation(c, d, a);
    let o4 = orientation(c, d, b);
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0)) {
        return true;
    }
    (o1 == 0.0 && on_segment(a, b, c))
        || (o2 == 0.0 && on_segment(a, b, d))
        || (o3 == 0.0 && on_segment(c, d, a))
        || (o4 == 0.0 && on_segment(c, d, b))
}

/// For consecutive edges: whether they are collinear and point back over each other.
/// `forward` is true when edge 2 starts where edge 1 ends (`b == c`), false when the
/// pair is (edge 0, edge n-1), where `a == d`.
fn folds_back(a: DVec2, b: DVec2, c: DVec2, d: DVec2, forward: bool) -> bool {
    let (first, second) = if forward { (b - a, d - c) } else { (d - c, b - a) };
    first.perp_dot(second) == 0.0 && first.dot(second) < 0.0
}

/// Distance from `p` to segment `a`–`b`.
pub fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(a + t * ab)
}

/// Whether `p` lies inside the closed polygon (even-odd rule).
pub(crate) fn inside_polygon(p: Vec2, polygon: &[Vec2]) -> bool {
    let mut inside = false;
    let n = polygon.len();
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn accepts_squares_in_both_windings_and_segments() {
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        assert!(validate_polygon(&square).is_ok());
        assert_eq!(Winding::of(&square), Winding::CounterClockwise);
        let mut reversed = square;
        reversed.reverse();
        assert!(validate_polygon(&reversed).is_ok());
        assert_eq!(Winding::of(&reversed), Winding::Clockwise);
        assert!(validate_polygon(&[v(0.0, 0.0), v(3.0, 1.0)]).is_ok());
    }

    #[test]
    fn rejects_bad_outlines() {
        assert!(matches!(validate_polygon(&[v(0.0, 0.0)]), Err(Error::TooFewVertices { count: 1 })));
        assert!(matches!(
            validate_polygon(&[v(0.0, 0.0), v(0.0, 0.0)]),
            Err(Error::RepeatedVertex { first: 0, second: 1 })
        ));
        let bowtie = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
        assert!(matches!(validate_polygon(&bowtie), Err(Error::SelfIntersecting { .. })));
        let folded = [v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0)];
        assert!(matches!(validate_polygon(&folded), Err(Error::SelfIntersecting { .. })));
        assert!(matches!(validate_polygon(&[v(0.0, 0.0), v(f32::NAN, 1.0)]), Err(Error::NonFinite { .. })));
        let closing_repeat = [v(0.0, 0.0), v(1.0, 0.0), v(0.0, 0.0)];
        assert!(validate_polygon(&closing_repeat).is_err());
    }
}
