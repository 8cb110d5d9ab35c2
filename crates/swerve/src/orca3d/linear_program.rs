//! The linear programs that pick an agent's new velocity in 3-D: nearest to the preferred
//! velocity, inside the max-speed sphere and on the permitted side of every ORCA plane.
//!
//! RVO2-3D's incremental (Seidel-style) programs, one dimension up from the planar ones
//! (seed 004 §5 walks through the planar three; the paper is van den Berg et al.,
//! *Reciprocal n-Body Collision Avoidance*, §5.2):
//!
//! * `on_line` — 1-D: along the line where two planes meet, clipped by the sphere and by
//!   the earlier planes.
//! * `on_plane` — 2-D: on one plane's boundary, inside the circle the sphere cuts from it;
//!   each earlier plane the point breaks moves it onto their common line.
//! * `in_space` — 3-D: the whole program; each plane the point breaks moves it onto that
//!   plane. Returns the first plane it cannot meet.
//! * `least_violation` — the fallback when the planes conflict (a dense crowd): from the
//!   failing plane on, the velocity that minimises the largest violation, found as a 3-D
//!   program over the bisector planes of each pair (the "4-D" program of RVO2-3D). Beyond
//!   RVO2-3D, the first planes may be *hard* (the static obstacles'): the fallback keeps them
//!   as they are instead of trading them off, as RVO2's planar `linearProgram3` keeps its
//!   obstacle lines.
//!
//! Every comparison and operation is RVO2-3D's, in its order, so results are bit-identical.

use glam::Vec3;

use super::plane::{sqr, unit, Plane};
use crate::orca::LpOutcome;

/// Below this (squared) a denominator or cross product counts as parallel (RVO2-3D's
/// `RVO_EPSILON`).
const EPSILON: f32 = 0.00001;

/// A directed line in velocity space.
#[derive(Clone, Copy, Debug)]
struct Line {
    point: Vec3,
    /// Unit direction.
    direction: Vec3,
}

/// Solves the agent's whole program: the velocity nearest `preferred` within `max_speed` and
/// every plane, or, when the planes conflict, the one that breaks the worst of the soft ones
/// least while meeting the first `hard` planes. `projected` is scratch for the fallback
/// (reused so that a step does not allocate). With `hard` 0 this is RVO2-3D's program.
pub fn solve(
    planes: &[Plane],
    hard: usize,
    max_speed: f32,
    preferred: Vec3,
    projected: &mut Vec<Plane>,
) -> (Vec3, LpOutcome) {
    let mut velocity = Vec3::ZERO;
    let failed = in_space(planes, max_speed, preferred, false, &mut velocity);
    if failed < planes.len() {
        least_violation(planes, hard, failed, max_speed, &mut velocity, projected);
        (velocity, LpOutcome::Fallback { first_infeasible: failed })
    } else {
        (velocity, LpOutcome::Feasible)
    }
}

/// The 1-D program on `line`, which lies on the boundary of the plane after `earlier`:
/// the best point of the line inside the sphere of `radius` and every plane of `earlier`,
/// or `None` when there is none. With `direction_opt`, "best" is farthest along
/// `target` (a unit direction); otherwise nearest to `target`.
fn on_line(earlier: &[Plane], line: Line, radius: f32, target: Vec3, direction_opt: bool) -> Option<Vec3> {
    // Where the line crosses the sphere: |point + t·direction|² = radius².
    let along = line.point.dot(line.direction);
    let discriminant = sqr(along) + sqr(radius) - line.point.length_squared();
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let mut t_left = -along - root;
    let mut t_right = -along + root;

    for plane in earlier {
        let numerator = (plane.point - line.point).dot(plane.normal);
        let denominator = line.direction.dot(plane.normal);
        if sqr(denominator) <= EPSILON {
            // The line runs (almost) parallel to the plane: wholly inside or wholly out.
            if numerator > 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        // `std::max` / `std::min` as RVO2-3D calls them (the first argument wins ties).
        if denominator >= 0.0 {
            if t_left < t {
                t_left = t;
            }
        } else if t < t_right {
            t_right = t;
        }
        if t_left > t_right {
            return None;
        }
    }

    let t = if direction_opt {
        if target.dot(line.direction) > 0.0 {
            t_right
        } else {
            t_left
        }
    } else {
        let nearest = line.direction.dot(target - line.point);
        if nearest < t_left {
            t_left
        } else if nearest > t_right {
            t_right
        } else {
            nearest
        }
    };
    Some(line.point + t * line.direction)
}

/// The 2-D program on the boundary of `planes[index]`, within the earlier planes: writes the
/// best point to `result` and returns whether there is one. On failure `result` may hold a
/// partial answer (the caller restores its own).
fn on_plane(planes: &[Plane], index: usize, radius: f32, target: Vec3, direction_opt: bool, result: &mut Vec3) -> bool {
    let plane = planes[index];
    let plane_distance = plane.point.dot(plane.normal);
    let plane_distance_squared = sqr(plane_distance);
    let radius_squared = sqr(radius);
    if plane_distance_squared > radius_squared {
        // The max-speed sphere does not reach the plane.
        return false;
    }
    // The circle the sphere cuts from the plane.
    let circle_radius_squared = radius_squared - plane_distance_squared;
    let circle_centre = plane_distance * plane.normal;

    if direction_opt {
        // The target direction projected on the plane, taken to the circle's rim.
        let in_plane = target - target.dot(plane.normal) * plane.normal;
        let in_plane_squared = in_plane.length_squared();
        *result = if in_plane_squared <= EPSILON {
            circle_centre
        } else {
            circle_centre + (circle_radius_squared / in_plane_squared).sqrt() * in_plane
        };
    } else {
        // The target point projected on the plane, pulled into the circle if outside.
        *result = target + (plane.point - target).dot(plane.normal) * plane.normal;
        if result.length_squared() > radius_squared {
            let from_centre = *result - circle_centre;
            let from_centre_squared = from_centre.length_squared();
            *result = circle_centre + (circle_radius_squared / from_centre_squared).sqrt() * from_centre;
        }
    }

    for (earlier_index, earlier) in planes[..index].iter().enumerate() {
        if earlier.violation(*result) > 0.0 {
            // The best point breaks an earlier plane: the answer lies on the line where the
            // two planes meet.
            let cross = earlier.normal.cross(plane.normal);
            if cross.length_squared() <= EPSILON {
                // (Almost) parallel: the earlier plane excludes this one entirely.
                return false;
            }
            let direction = unit(cross);
            let line_normal = direction.cross(plane.normal);
            let offset = (earlier.point - plane.point).dot(earlier.normal) / line_normal.dot(earlier.normal);
            let line = Line { point: plane.point + offset * line_normal, direction };
            match on_line(&planes[..earlier_index], line, radius, target, direction_opt) {
                Some(point) => *result = point,
                None => return false,
            }
        }
    }
    true
}

/// The 3-D program over all of `planes`: writes the best point to `result` and returns
/// `planes.len()`, or the index of the first plane it could not meet (then `result` is the
/// best point for the planes before it).
fn in_space(planes: &[Plane], radius: f32, target: Vec3, direction_opt: bool, result: &mut Vec3) -> usize {
    *result = if direction_opt {
        // `target` is a unit direction here.
        target * radius
    } else if target.length_squared() > sqr(radius) {
        unit(target) * radius
    } else {
        target
    };

    for (index, plane) in planes.iter().enumerate() {
        if plane.violation(*result) > 0.0 {
            let before = *result;
            if !on_plane(planes, index, radius, target, direction_opt, result) {
                *result = before;
                return index;
            }
        }
    }
    planes.len()
}

/// The fallback: from plane `begin` on, moves `result` to the velocity whose largest
/// violation of the planes from `begin` on is least, keeping the planes before `begin` met
/// as well as they were (RVO2-3D's `linearProgram4`).
///
/// For each plane `i` that is broken by more than the violation reached so far, the best
/// point is where plane `i`'s violation equals every earlier plane's: a 3-D program, pushing
/// as far along plane `i`'s normal as possible, over the planes that bisect `i` and each
/// earlier `j` — and the first `hard` planes themselves, which are met, not traded off (RVO2's
/// planar `linearProgram3` does the same with its obstacle lines).
fn least_violation(
    planes: &[Plane],
    hard: usize,
    begin: usize,
    radius: f32,
    result: &mut Vec3,
    projected: &mut Vec<Plane>,
) {
    let mut distance = 0.0f32;
    for i in begin..planes.len() {
        let plane = planes[i];
        // Written as `!(a > b)` so that a NaN plane is skipped, as RVO2-3D's `> distance`
        // test skips it (a NaN plane comes from an exactly degenerate pair, e.g. an agent
        // overlapping a neighbour at a relative velocity of exactly `relative position / dt`).
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        if !(plane.violation(*result) > distance) {
            continue;
        }
        projected.clear();
        projected.extend_from_slice(&planes[..hard.min(i)]);
        for earlier in &planes[hard.min(i)..i] {
            let cross = earlier.normal.cross(plane.normal);
            let point = if cross.length_squared() <= EPSILON {
                if plane.normal.dot(earlier.normal) > 0.0 {
                    // Parallel and facing the same way: the bisector is no constraint.
                    continue;
                }
                // Parallel and facing each other: halfway between.
                0.5 * (plane.point + earlier.point)
            } else {
                // A point on the line where the two planes meet.
                let line_normal = cross.cross(plane.normal);
                let offset = (earlier.point - plane.point).dot(earlier.normal) / line_normal.dot(earlier.normal);
                plane.point + offset * line_normal
            };
            projected.push(Plane { point, normal: unit(earlier.normal - plane.normal) });
        }

        let before = *result;
        if in_space(projected, radius, plane.normal, true, result) < projected.len() {
            // In principle impossible (`result` already meets these planes); a rounding
            // error: keep the last point.
            *result = before;
        }
        distance = plane.violation(*result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(point: [f32; 3], normal: [f32; 3]) -> Plane {
        Plane { point: Vec3::from_array(point), normal: unit(Vec3::from_array(normal)) }
    }

    #[test]
    fn no_planes_keeps_the_preferred_velocity_or_caps_its_speed() {
        let mut scratch = Vec::new();
        let slow = Vec3::new(0.3, -0.4, 0.5);
        assert_eq!(solve(&[], 0, 2.0, slow, &mut scratch), (slow, LpOutcome::Feasible));
        let (fast, outcome) = solve(&[], 0, 2.0, Vec3::new(0.0, 6.0, 8.0), &mut scratch);
        assert_eq!(outcome, LpOutcome::Feasible);
        assert!((fast - Vec3::new(0.0, 1.2, 1.6)).length() < 1e-6);
    }

    #[test]
    fn one_plane_projects_the_preferred_velocity_onto_it() {
        // Permitted: x ≥ 1. Preferred (−1, 0.5, 0) projects to (1, 0.5, 0).
        let planes = [plane([1.0, 0.0, 0.0], [1.0, 0.0, 0.0])];
        let (v, outcome) = solve(&planes, 0, 2.0, Vec3::new(-1.0, 0.5, 0.0), &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Feasible);
        assert!((v - Vec3::new(1.0, 0.5, 0.0)).length() < 1e-6, "{v}");
    }

    #[test]
    fn two_planes_meet_on_their_common_line() {
        // x ≥ 1 and y ≥ 1; preferred at the origin: nearest is (1, 1, 0).
        let planes = [plane([1.0, 0.0, 0.0], [1.0, 0.0, 0.0]), plane([0.0, 1.0, 0.0], [0.0, 1.0, 0.0])];
        let (v, outcome) = solve(&planes, 0, 2.0, Vec3::ZERO, &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Feasible);
        assert!((v - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6, "{v}");
    }

    #[test]
    fn three_planes_meet_at_their_corner() {
        let planes = [
            plane([0.5, 0.0, 0.0], [1.0, 0.0, 0.0]),
            plane([0.0, 0.5, 0.0], [0.0, 1.0, 0.0]),
            plane([0.0, 0.0, 0.5], [0.0, 0.0, 1.0]),
        ];
        let (v, outcome) = solve(&planes, 0, 2.0, Vec3::new(-1.0, -1.0, -1.0), &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Feasible);
        assert!((v - Vec3::splat(0.5)).length() < 1e-6, "{v}");
    }

    #[test]
    fn conflicting_planes_fall_back_to_the_least_violation() {
        // x ≥ 1 and x ≤ −1 cannot both hold: the least worst violation is at x = 0, where
        // each is broken by 1.
        let planes = [plane([1.0, 0.0, 0.0], [1.0, 0.0, 0.0]), plane([-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])];
        let (v, outcome) = solve(&planes, 0, 2.0, Vec3::new(0.5, 0.0, 0.0), &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Fallback { first_infeasible: 1 });
        assert!(v.x.abs() < 1e-6, "{v}");
        assert!(v.length() <= 2.0 + 1e-5);
    }

    #[test]
    fn a_nan_plane_is_skipped_by_every_program_as_in_rvo2_3d() {
        // RVO2-3D tests each plane with `>`, false for NaN: a NaN plane (an exactly degenerate
        // pair) changes nothing, in the fallback too.
        let nan = Plane { point: Vec3::NAN, normal: Vec3::NAN };
        let conflicting = [plane([1.0, 0.0, 0.0], [1.0, 0.0, 0.0]), plane([-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])];
        let with_nan = [conflicting[0], nan, conflicting[1], nan];
        let preferred = Vec3::new(0.5, 0.2, 0.0);
        let (v, _) = solve(&conflicting, 0, 2.0, preferred, &mut Vec::new());
        let (w, outcome) = solve(&with_nan, 0, 2.0, preferred, &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Fallback { first_infeasible: 2 });
        assert_eq!(v, w);
        let (w, outcome) = solve(&[nan, conflicting[0]], 0, 2.0, preferred, &mut Vec::new());
        assert_eq!((w, outcome), (Vec3::new(1.0, 0.2, 0.0), LpOutcome::Feasible));
    }

    #[test]
    fn a_plane_beyond_the_sphere_is_infeasible() {
        // x ≥ 3 with max speed 2: the fallback goes as far toward it as the sphere allows.
        let planes = [plane([3.0, 0.0, 0.0], [1.0, 0.0, 0.0])];
        let (v, outcome) = solve(&planes, 0, 2.0, Vec3::ZERO, &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Fallback { first_infeasible: 0 });
        assert!((v - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-5, "{v}");
    }

    #[test]
    fn the_fallback_keeps_hard_planes_and_trades_off_only_the_soft_ones() {
        // Hard: x ≤ 0.5 (a wall ahead). Soft: x ≥ 1 and y ≥ 1.5, which the wall makes
        // infeasible together with it.
        let planes = [
            plane([0.5, 0.0, 0.0], [-1.0, 0.0, 0.0]),
            plane([1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            plane([0.0, 1.5, 0.0], [0.0, 1.0, 0.0]),
        ];
        let (v, outcome) = solve(&planes, 1, 2.0, Vec3::new(1.0, 0.0, 0.0), &mut Vec::new());
        assert_eq!(outcome, LpOutcome::Fallback { first_infeasible: 1 });
        assert!(planes[0].violation(v) <= 1e-6, "the hard plane is broken: {v}");
        // The soft planes share the least violation: x ≥ 1 is broken by 0.5 at best, so
        // y ≥ 1.5 is met up to that, as the speed sphere allows.
        assert!((planes[1].violation(v) - 0.5).abs() < 1e-5, "{v}");
        assert!(planes[2].violation(v) <= 0.5 + 1e-5, "{v}");
        // Without the hard plane the same program breaks the wall.
        let (w, _) = solve(&planes, 0, 2.0, Vec3::new(1.0, 0.0, 0.0), &mut Vec::new());
        assert!(planes[0].violation(w) > 1e-3, "{w}");
    }
}
