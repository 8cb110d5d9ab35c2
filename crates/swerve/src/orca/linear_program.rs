//! The three small linear programs of ORCA (paper §5.2; seed 004, "linearProgram1–3").
//!
//! The feasible region is the intersection of the half-planes and the disc of radius
//! `max_speed`. [`linear_program2`] adds half-planes one by one (incremental 2-D LP, Seidel /
//! de Berg et al.): when the current optimum violates a new half-plane, the new optimum lies
//! on that half-plane's line and is found by the 1-D program [`linear_program1`]. If the
//! region is empty, [`linear_program3`] instead minimises the largest violation of the agent
//! half-planes while keeping the obstacle ones hard (paper §5.3): a 2-D LP per violated
//! half-plane, in the projected space of the ones before it.
//!
//! The arithmetic is RVO2's, operation for operation, so results are bit-identical.

use crate::geom::exact::EPSILON;
use crate::geom::exact::{cpp_max, cpp_min, det, dot, length_squared, normalize};
use crate::geom::HalfPlane;
use glam::Vec2;

/// Which program produced an agent's new velocity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LpOutcome {
    /// All half-planes could be met: the velocity is the feasible one nearest the preferred
    /// velocity (linear program 2).
    #[default]
    Feasible,
    /// The half-planes conflict (a dense crowd): from half-plane `first_infeasible` on, the
    /// velocity minimises the largest violation (linear program 3).
    Fallback {
        /// Index of the first half-plane linear program 2 could not satisfy.
        first_infeasible: usize,
    },
}

/// Solves the whole ORCA program: nearest to `preferred` within `max_speed` and all
/// `half_planes`, falling back to least violation. `obstacle_count` leading half-planes are
/// hard constraints in the fallback. `scratch` is reused to avoid allocating.
#[inline(always)]
pub fn solve(
    half_planes: &[HalfPlane],
    obstacle_count: usize,
    max_speed: f32,
    preferred: Vec2,
    scratch: &mut Vec<HalfPlane>,
) -> (Vec2, LpOutcome) {
    let (result, failed) = linear_program2(half_planes, max_speed, preferred, false);
    if failed < half_planes.len() {
        let result = linear_program3(half_planes, obstacle_count, failed, max_speed, result, scratch);
        (result, LpOutcome::Fallback { first_infeasible: failed })
    } else {
        (result, LpOutcome::Feasible)
    }
}

/// The 1-D program on the line of `half_planes[line]`, restricted by the disc and by the
/// half-planes before it. Returns `None` when that segment of line is empty.
///
/// (Results travel by value through the three programs: written through a reference, the
/// optimum lived on the stack and each violation test waited for a store and a reload.)
///
/// With `direction_opt`, `target` is a direction and the result is the extreme point of the
/// segment along it; otherwise the result is the segment's point nearest `target`.
#[inline(always)]
pub fn linear_program1(
    half_planes: &[HalfPlane],
    line: usize,
    radius: f32,
    target: Vec2,
    direction_opt: bool,
) -> Option<Vec2> {
    let plane = half_planes[line];
    // Where the line enters and leaves the max-speed disc: |point + t·direction| = radius.
    let dot_product = dot(plane.point, plane.direction);
    let discriminant = dot_product * dot_product + radius * radius - length_squared(plane.point);
    if discriminant < 0.0 {
        // The line misses the disc.
        return None;
    }
    let sqrt_discriminant = discriminant.sqrt();
    let mut t_left = -dot_product - sqrt_discriminant;
    let mut t_right = -dot_product + sqrt_discriminant;

    for earlier in &half_planes[..line] {
        let denominator = det(plane.direction, earlier.direction);
        let numerator = det(earlier.direction, plane.point - earlier.point);
        if denominator.abs() <= EPSILON {
            // Parallel lines: either the earlier half-plane excludes this whole line, or it
            // does not restrict it at all.
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = cpp_min(t_right, t);
        } else {
            t_left = cpp_max(t_left, t);
        }
        if t_left > t_right {
            return None;
        }
    }

    let t = if direction_opt {
        if dot(target, plane.direction) > 0.0 {
            t_right
        } else {
            t_left
        }
    } else {
        let t = dot(plane.direction, target - plane.point);
        if t < t_left {
            t_left
        } else if t > t_right {
            t_right
        } else {
            t
        }
    };
    Some(plane.point + t * plane.direction)
}

/// The 2-D program: incremental over `half_planes`. Returns the optimum and the index of the
/// first half-plane that could not be satisfied (`half_planes.len()` on success); on failure
/// the optimum is that of the half-planes before it.
#[inline(always)]
pub fn linear_program2(half_planes: &[HalfPlane], radius: f32, target: Vec2, direction_opt: bool) -> (Vec2, usize) {
    let mut result = if direction_opt {
        // `target` is a unit direction: start at the disc's extreme point along it.
        target * radius
    } else if length_squared(target) > radius * radius {
        normalize(target) * radius
    } else {
        target
    };
    for (i, plane) in half_planes.iter().enumerate() {
        if plane.violation(result) > 0.0 {
            match linear_program1(half_planes, i, radius, target, direction_opt) {
                Some(on_line) => result = on_line,
                None => return (result, i),
            }
        }
    }
    (result, half_planes.len())
}

/// The fallback: for each half-plane from `begin` whose violation exceeds the current worst,
/// minimise the violation within the obstacle half-planes and the bisectors with the agent
/// half-planes before it, starting from `result`; returns the least-violation velocity.
/// `projected` is scratch space.
#[inline(always)]
pub fn linear_program3(
    half_planes: &[HalfPlane],
    obstacle_count: usize,
    begin: usize,
    radius: f32,
    mut result: Vec2,
    projected: &mut Vec<HalfPlane>,
) -> Vec2 {
    let mut distance = 0.0f32;
    for i in begin..half_planes.len() {
        let plane = half_planes[i];
        // Written as `!(a > b)` so that a NaN skips the plane, as in RVO2.
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        if !(plane.violation(result) > distance) {
            continue;
        }
        // The obstacle half-planes stay hard; each earlier agent half-plane j is replaced by
        // the bisector of i and j: where violating i and j equally.
        projected.clear();
        if obstacle_count > 0 {
            projected.extend_from_slice(&half_planes[..obstacle_count]);
        }
        // When the failing half-plane is itself an obstacle one, there are no agent
        // half-planes before it to project (RVO2's loop from numObstLines to i is empty).
        let earlier_agent_planes = if i > obstacle_count { &half_planes[obstacle_count..i] } else { &[] };
        for other in earlier_agent_planes {
            let determinant = det(plane.direction, other.direction);
            let point = if determinant.abs() <= EPSILON {
                if dot(plane.direction, other.direction) > 0.0 {
                    // Same direction: j is implied by i.
                    continue;
                }
                // Opposite directions: the bisector runs midway.
                0.5 * (plane.point + other.point)
            } else {
                plane.point + (det(other.direction, plane.point - other.point) / determinant) * plane.direction
            };
            projected.push(HalfPlane { point, direction: normalize(other.direction - plane.direction) });
        }
        // Optimise in the direction that leaves plane i fastest (its inward normal).
        let inward = Vec2::new(-plane.direction.y, plane.direction.x);
        let (optimum, failed) = linear_program2(projected, radius, inward, true);
        // Failing cannot happen in exact arithmetic (the previous result is feasible);
        // rounding can cause it, and then the previous result is kept.
        if failed == projected.len() {
            result = optimum;
        }
        distance = plane.violation(result);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn unit(angle: f32) -> Vec2 {
        Vec2::new(angle.cos(), angle.sin())
    }

    fn half_plane_strategy() -> impl Strategy<Value = HalfPlane> {
        ((-3.0f32..3.0), (-3.0f32..3.0), (0.0f32..std::f32::consts::TAU))
            .prop_map(|(x, y, a)| HalfPlane { point: Vec2::new(x, y), direction: unit(a) })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// A feasible result meets every half-plane (within 1e-4 m/s) and the speed limit
        /// (within 1e-4 m/s of rounding); any result is finite.
        ///
        /// The fallback (linear program 3) keeps RVO2's arithmetic for exactness, and RVO2's
        /// fallback is not bounded by the disc in `f32`: when two agent half-planes are nearly
        /// opposite (|det| just above 1e-5) their bisector's point lies thousands of m/s away
        /// and the 1-D program's discriminant `d² + r² - |p|²` loses `r²` to rounding. See
        /// `rvo2_fallback_can_overshoot_max_speed` below; only finiteness holds there.
        #[test]
        fn result_is_feasible_and_within_max_speed(
            planes in prop::collection::vec(half_plane_strategy(), 0..12),
            obstacle_count in 0usize..4,
            max_speed in 0.1f32..5.0,
            px in -6.0f32..6.0,
            py in -6.0f32..6.0,
        ) {
            let obstacle_count = obstacle_count.min(planes.len());
            let mut scratch = Vec::new();
            let (v, outcome) = solve(&planes, obstacle_count, max_speed, Vec2::new(px, py), &mut scratch);
            prop_assert!(v.is_finite());
            match outcome {
                LpOutcome::Feasible => {
                    prop_assert!(v.length() <= max_speed + 1e-4, "speed {} > {}", v.length(), max_speed);
                    for p in &planes {
                        prop_assert!(p.violation(v) <= 1e-4, "violates {:?} by {}", p, p.violation(v));
                    }
                }
                LpOutcome::Fallback { .. } => {}
            }
        }

        /// When the preferred velocity is already feasible it is returned unchanged.
        #[test]
        fn feasible_preferred_velocity_is_kept(
            planes in prop::collection::vec(half_plane_strategy(), 0..8),
            px in -1.0f32..1.0,
            py in -1.0f32..1.0,
        ) {
            let preferred = Vec2::new(px, py);
            // Turn every half-plane that excludes the preferred velocity around.
            let planes: Vec<HalfPlane> = planes
                .into_iter()
                .map(|p| if p.violation(preferred) > 0.0 { HalfPlane { point: p.point, direction: -p.direction } } else { p })
                .collect();
            let mut scratch = Vec::new();
            let (v, outcome) = solve(&planes, 0, 2.0, preferred, &mut scratch);
            prop_assert_eq!(outcome, LpOutcome::Feasible);
            prop_assert_eq!(v, preferred);
        }
    }

    /// A case proptest found: two nearly opposite half-planes make RVO2's linear program 3
    /// return a velocity a third faster than `max_speed`. Kept as a record of RVO2's
    /// behaviour that exactness obliges us to reproduce.
    #[test]
    fn rvo2_fallback_can_overshoot_max_speed() {
        let planes = [
            HalfPlane { point: Vec2::ZERO, direction: Vec2::new(1.0, 0.0) },
            HalfPlane { point: Vec2::new(0.0, 1.9059579), direction: Vec2::new(0.9868709, 0.16151123) },
            HalfPlane { point: Vec2::ZERO, direction: Vec2::new(-0.9868282, -0.16177166) },
        ];
        let max_speed = 3.755639;
        let (v, outcome) = solve(&planes, 0, max_speed, Vec2::ZERO, &mut Vec::new());
        assert!(matches!(outcome, LpOutcome::Fallback { .. }));
        assert!(v.length() > max_speed * 1.2, "{}", v.length());
    }

    #[test]
    fn single_half_plane_projects_the_preferred_velocity() {
        // Permitted: y >= 1 (direction +x, so the left side is +y).
        let planes = [HalfPlane { point: Vec2::new(0.0, 1.0), direction: Vec2::new(1.0, 0.0) }];
        let mut scratch = Vec::new();
        let (v, outcome) = solve(&planes, 0, 5.0, Vec2::new(2.0, -3.0), &mut scratch);
        assert_eq!(outcome, LpOutcome::Feasible);
        assert!((v - Vec2::new(2.0, 1.0)).length() < 1e-6, "{v}");
    }

    #[test]
    fn conflicting_half_planes_fall_back_to_least_violation() {
        // y >= 1 and y <= -1 cannot both hold: the fallback splits the difference at y = 0.
        let planes = [
            HalfPlane { point: Vec2::new(0.0, 1.0), direction: Vec2::new(1.0, 0.0) },
            HalfPlane { point: Vec2::new(0.0, -1.0), direction: Vec2::new(-1.0, 0.0) },
        ];
        let mut scratch = Vec::new();
        let (v, outcome) = solve(&planes, 0, 5.0, Vec2::new(0.0, 3.0), &mut scratch);
        assert_eq!(outcome, LpOutcome::Fallback { first_infeasible: 1 });
        assert!(v.y.abs() < 1e-5, "{v}");
    }
}
