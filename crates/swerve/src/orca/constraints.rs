//! The ORCA half-planes: one per nearby obstacle edge, one per neighbouring agent.
//!
//! Each half-plane bounds the velocities that avoid a collision within the time horizon,
//! linearised at the agent's current velocity (paper §4 for agents, §5.1 for obstacles; seed
//! 004 walks through RVO2's `computeNewVelocity` case by case). The arithmetic follows RVO2
//! operation for operation so that the linear program sees identical `f32` inputs.

use crate::geom::exact::EPSILON;
use crate::geom::exact::{det, div, dot, length, length_squared, normalize};
use crate::geom::HalfPlane;
use crate::spatial::ObstacleVertex;
use glam::Vec2;
use wide::f32x4;

/// The deciding agent's state, as the half-plane constructions see it.
#[derive(Clone, Copy, Debug)]
pub struct AgentView {
    /// Position (m).
    pub position: Vec2,
    /// Current velocity (m/s): ORCA linearises around it.
    pub velocity: Vec2,
    /// Radius (m).
    pub radius: f32,
    /// Time horizon for agents (s).
    pub time_horizon: f32,
    /// Time horizon for obstacles (s).
    pub time_horizon_obst: f32,
}

/// Appends to `out` the half-planes for the obstacle edges `neighbors` (first vertex index of
/// each edge, nearest first), skipping edges whose velocity obstacle the half-planes already
/// in `out` cover.
pub fn obstacle_half_planes(
    agent: &AgentView,
    neighbors: &[(f32, u32)],
    vertices: &[ObstacleVertex],
    out: &mut Vec<HalfPlane>,
) {
    let inv_time_horizon_obst = 1.0 / agent.time_horizon_obst;
    let radius = agent.radius;
    let radius_sq = radius * radius;
    let position = agent.position;
    let velocity = agent.velocity;

    for &(_, first) in neighbors {
        let mut v1 = first as usize;
        let mut v2 = vertices[v1].next as usize;
        let relative_position1 = vertices[v1].point - position;
        let relative_position2 = vertices[v2].point - position;

        // Already covered: both end points of the edge's cut-off segment (scaled by
        // 1/τ_obst) lie at least `radius/τ_obst` inside an existing half-plane.
        let already_covered = out.iter().any(|plane| {
            det(inv_time_horizon_obst * relative_position1 - plane.point, plane.direction)
                - inv_time_horizon_obst * radius
                >= -EPSILON
                && det(inv_time_horizon_obst * relative_position2 - plane.point, plane.direction)
                    - inv_time_horizon_obst * radius
                    >= -EPSILON
        });
        if already_covered {
            continue;
        }

        // Collision now? `s` is where the agent projects onto the edge (0 at v1, 1 at v2).
        let dist_sq1 = length_squared(relative_position1);
        let dist_sq2 = length_squared(relative_position2);
        let obstacle_vector = vertices[v2].point - vertices[v1].point;
        let s = dot(-relative_position1, obstacle_vector) / length_squared(obstacle_vector);
        let dist_sq_line = length_squared(-relative_position1 - s * obstacle_vector);

        if s < 0.0 && dist_sq1 <= radius_sq {
            // Overlapping the first vertex: move straight away from it (if it is a corner).
            if vertices[v1].is_convex {
                let away = normalize(Vec2::new(-relative_position1.y, relative_position1.x));
                out.push(HalfPlane { point: Vec2::ZERO, direction: away });
            }
            continue;
        } else if s > 1.0 && dist_sq2 <= radius_sq {
            // Overlapping the second vertex; the next edge handles it unless this edge faces
            // the agent at that vertex.
            if vertices[v2].is_convex && det(relative_position2, vertices[v2].unit_dir) >= 0.0 {
                let away = normalize(Vec2::new(-relative_position2.y, relative_position2.x));
                out.push(HalfPlane { point: Vec2::ZERO, direction: away });
            }
            continue;
        } else if (0.0..1.0).contains(&s) && dist_sq_line <= radius_sq {
            // Overlapping the edge itself: forbid moving further into it.
            out.push(HalfPlane { point: Vec2::ZERO, direction: -vertices[v1].unit_dir });
            continue;
        }

        // No collision. The velocity obstacle is bounded by two legs (tangents from the agent
        // to the discs of `radius` around the end points) and the cut-off line between them.
        // Seen obliquely, both legs come from one vertex; at a non-convex vertex a leg runs
        // along the edge (it "extends the cut-off line").
        let left_leg_direction;
        let right_leg_direction;
        let tangent_left = |rel: Vec2, dist_sq: f32| {
            let leg = (dist_sq - radius_sq).sqrt();
            div(Vec2::new(rel.x * leg - rel.y * radius, rel.x * radius + rel.y * leg), dist_sq)
        };
        let tangent_right = |rel: Vec2, dist_sq: f32| {
            let leg = (dist_sq - radius_sq).sqrt();
            div(Vec2::new(rel.x * leg + rel.y * radius, -rel.x * radius + rel.y * leg), dist_sq)
        };
        if s < 0.0 && dist_sq_line <= radius_sq {
            // Oblique view: the first vertex defines the velocity obstacle.
            if !vertices[v1].is_convex {
                continue;
            }
            v2 = v1;
            left_leg_direction = tangent_left(relative_position1, dist_sq1);
            right_leg_direction = tangent_right(relative_position1, dist_sq1);
        } else if s > 1.0 && dist_sq_line <= radius_sq {
            // Oblique view: the second vertex defines the velocity obstacle.
            if !vertices[v2].is_convex {
                continue;
            }
            v1 = v2;
            left_leg_direction = tangent_left(relative_position2, dist_sq2);
            right_leg_direction = tangent_right(relative_position2, dist_sq2);
        } else {
            left_leg_direction = if vertices[v1].is_convex {
                tangent_left(relative_position1, dist_sq1)
            } else {
                -vertices[v1].unit_dir
            };
            right_leg_direction = if vertices[v2].is_convex {
                tangent_right(relative_position2, dist_sq2)
            } else {
                vertices[v1].unit_dir
            };
        }

        // A leg at a convex vertex must not point into the neighbouring edge; if it would,
        // the neighbour edge's direction replaces it and the leg is "foreign": a velocity
        // projecting onto it is handled by that neighbour edge, so no half-plane is added.
        let left_neighbor = vertices[v1].prev as usize;
        let mut left_leg_direction = left_leg_direction;
        let mut right_leg_direction = right_leg_direction;
        let mut is_left_leg_foreign = false;
        let mut is_right_leg_foreign = false;
        if vertices[v1].is_convex && det(left_leg_direction, -vertices[left_neighbor].unit_dir) >= 0.0 {
            left_leg_direction = -vertices[left_neighbor].unit_dir;
            is_left_leg_foreign = true;
        }
        if vertices[v2].is_convex && det(right_leg_direction, vertices[v2].unit_dir) <= 0.0 {
            right_leg_direction = vertices[v2].unit_dir;
            is_right_leg_foreign = true;
        }

        // Cut-off centres: the end points scaled by 1/τ_obst.
        let left_cutoff = inv_time_horizon_obst * (vertices[v1].point - position);
        let right_cutoff = inv_time_horizon_obst * (vertices[v2].point - position);
        let cutoff_vector = right_cutoff - left_cutoff;
        let same_vertex = v1 == v2;

        // Where the current velocity projects: onto the cut-off segment (t), the left leg
        // (t_left) and the right leg (t_right).
        let t =
            if same_vertex { 0.5 } else { dot(velocity - left_cutoff, cutoff_vector) / length_squared(cutoff_vector) };
        let t_left = dot(velocity - left_cutoff, left_leg_direction);
        let t_right = dot(velocity - right_cutoff, right_leg_direction);

        let cutoff_radius = radius * inv_time_horizon_obst;
        if (t < 0.0 && t_left < 0.0) || (same_vertex && t_left < 0.0 && t_right < 0.0) {
            // Nearest the left cut-off circle.
            let unit_w = normalize(velocity - left_cutoff);
            out.push(HalfPlane {
                direction: Vec2::new(unit_w.y, -unit_w.x),
                point: left_cutoff + cutoff_radius * unit_w,
            });
            continue;
        } else if t > 1.0 && t_right < 0.0 {
            // Nearest the right cut-off circle.
            let unit_w = normalize(velocity - right_cutoff);
            out.push(HalfPlane {
                direction: Vec2::new(unit_w.y, -unit_w.x),
                point: right_cutoff + cutoff_radius * unit_w,
            });
            continue;
        }

        // Otherwise project on the left leg, the right leg or the cut-off line, whichever is
        // nearest to the current velocity.
        // Not `!(0.0..=1.0).contains(&t)`: that differs for NaN, and RVO2's test is this one.
        #[allow(clippy::manual_range_contains)]
        let dist_sq_cutoff = if t < 0.0 || t > 1.0 || same_vertex {
            f32::INFINITY
        } else {
            length_squared(velocity - (left_cutoff + t * cutoff_vector))
        };
        let dist_sq_left = if t_left < 0.0 {
            f32::INFINITY
        } else {
            length_squared(velocity - (left_cutoff + t_left * left_leg_direction))
        };
        let dist_sq_right = if t_right < 0.0 {
            f32::INFINITY
        } else {
            length_squared(velocity - (right_cutoff + t_right * right_leg_direction))
        };
        let left_normal = |d: Vec2| Vec2::new(-d.y, d.x);

        if dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right {
            let direction = -vertices[v1].unit_dir;
            out.push(HalfPlane { direction, point: left_cutoff + cutoff_radius * left_normal(direction) });
        } else if dist_sq_left <= dist_sq_right {
            if is_left_leg_foreign {
                continue;
            }
            let direction = left_leg_direction;
            out.push(HalfPlane { direction, point: left_cutoff + cutoff_radius * left_normal(direction) });
        } else {
            if is_right_leg_foreign {
                continue;
            }
            let direction = -right_leg_direction;
            out.push(HalfPlane { direction, point: right_cutoff + cutoff_radius * left_normal(direction) });
        }
    }
}

/// The half-plane for one neighbouring agent (paper §4, eq. 5): the agent takes the share
/// `responsibility` of the smallest change `u` of relative velocity that leaves the truncated
/// velocity obstacle. RVO2 always uses ½.
///
/// When the two already overlap, the velocity obstacle is truncated at one time step instead,
/// so that they separate within the next step.
#[inline]
pub fn agent_half_plane(
    agent: &AgentView,
    other_position: Vec2,
    other_velocity: Vec2,
    other_radius: f32,
    time_step: f32,
    responsibility: f32,
) -> HalfPlane {
    let inv_time_horizon = 1.0 / agent.time_horizon;
    let relative_position = other_position - agent.position;
    let relative_velocity = agent.velocity - other_velocity;
    let dist_sq = length_squared(relative_position);
    let combined_radius = agent.radius + other_radius;
    let combined_radius_sq = combined_radius * combined_radius;

    let direction;
    let u;
    if dist_sq > combined_radius_sq {
        // No collision. w: from the cut-off circle's centre to the relative velocity.
        let w = relative_velocity - inv_time_horizon * relative_position;
        let w_length_sq = length_squared(w);
        let dot_product1 = dot(w, relative_position);
        if dot_product1 < 0.0 && dot_product1 * dot_product1 > combined_radius_sq * w_length_sq {
            // Nearest the cut-off circle.
            let w_length = w_length_sq.sqrt();
            let unit_w = div(w, w_length);
            direction = Vec2::new(unit_w.y, -unit_w.x);
            u = (combined_radius * inv_time_horizon - w_length) * unit_w;
        } else {
            // Nearest one of the legs.
            let leg = (dist_sq - combined_radius_sq).sqrt();
            direction = if det(relative_position, w) > 0.0 {
                div(
                    Vec2::new(
                        relative_position.x * leg - relative_position.y * combined_radius,
                        relative_position.x * combined_radius + relative_position.y * leg,
                    ),
                    dist_sq,
                )
            } else {
                -div(
                    Vec2::new(
                        relative_position.x * leg + relative_position.y * combined_radius,
                        -relative_position.x * combined_radius + relative_position.y * leg,
                    ),
                    dist_sq,
                )
            };
            let dot_product2 = dot(relative_velocity, direction);
            u = dot_product2 * direction - relative_velocity;
        }
    } else {
        // Already overlapping: use the cut-off circle of one time step.
        let inv_time_step = 1.0 / time_step;
        let w = relative_velocity - inv_time_step * relative_position;
        let w_length = length(w);
        let unit_w = div(w, w_length);
        direction = Vec2::new(unit_w.y, -unit_w.x);
        u = (combined_radius * inv_time_step - w_length) * unit_w;
    }
    HalfPlane { point: agent.velocity + responsibility * u, direction }
}

/// A neighbouring agent as the half-plane construction sees it.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeighborView {
    /// Position (m).
    pub position: Vec2,
    /// Velocity (m/s).
    pub velocity: Vec2,
    /// Radius (m).
    pub radius: f32,
    /// The deciding agent's share of the avoidance against this neighbour.
    pub responsibility: f32,
}

/// Up to four neighbours for [`agent_half_planes_x4`], one per SIMD lane (one vector per
/// field), built by a 4×4 transpose of one (position, velocity) vector per neighbour.
#[derive(Clone, Copy, Debug)]
pub struct NeighborBatch {
    position_x: f32x4,
    position_y: f32x4,
    velocity_x: f32x4,
    velocity_y: f32x4,
    radius: f32x4,
    responsibility: f32x4,
    len: usize,
}

impl NeighborBatch {
    /// The batch of four neighbours given as `motions[k]` = (position x, position y,
    /// velocity x, velocity y) of lane k, with their radii and the deciding agent's shares;
    /// only the first `len` lanes (clamped to 1..=4) give half-planes. One vector load per
    /// neighbour and a transpose, rather than lane-by-lane inserts into six vectors.
    #[inline(always)]
    pub fn from_motions(motions: [f32x4; 4], radius: f32x4, responsibility: f32x4, len: usize) -> NeighborBatch {
        let [position_x, position_y, velocity_x, velocity_y] = f32x4::transpose(motions);
        NeighborBatch { position_x, position_y, velocity_x, velocity_y, radius, responsibility, len: len.clamp(1, 4) }
    }

    /// The batch of the first (at most four) of `views`; unused lanes repeat the last one.
    ///
    /// # Panics
    ///
    /// If `views` is empty.
    pub fn from_views(views: &[NeighborView]) -> NeighborBatch {
        assert!(!views.is_empty(), "a neighbour batch needs at least one neighbour");
        let last = views.len().min(4) - 1;
        let lanes: [NeighborView; 4] = std::array::from_fn(|lane| views[last.min(lane)]);
        NeighborBatch::from_motions(
            lanes.map(|v| f32x4::new([v.position.x, v.position.y, v.velocity.x, v.velocity.y])),
            f32x4::new(lanes.map(|v| v.radius)),
            f32x4::new(lanes.map(|v| v.responsibility)),
            last + 1,
        )
    }
}

/// [`agent_half_plane`] for a batch of up to four neighbours, one per SIMD lane: appends to
/// `out` their half-planes, in order, each bit for bit `agent_half_plane(agent, others[i]…)`,
/// skipping those that are not finite (RVO2's degenerate geometry can give NaN half-planes,
/// which its linear programs then ignore) and those of neighbours the agent takes no share
/// of the avoidance against (responsibility 0: it does not yield to them).
///
/// Every lane runs the same IEEE operations in the same order as the scalar construction
/// (no fused multiply-add, negation by flipping the sign bit). The three cases — cut-off
/// circle, legs, overlap — are computed for all four lanes and then selected per lane (the
/// legs and the overlap case only when some lane needs them), so the results are identical
/// while the square roots and divisions of four neighbours overlap.
#[inline(always)]
pub fn agent_half_planes_x4(agent: &AgentView, others: &NeighborBatch, time_step: f32, out: &mut Vec<HalfPlane>) {
    use wide::{CmpGt, CmpLt, CmpNe};
    let neg = |x: f32x4| x ^ f32x4::splat(-0.0);
    let splat = f32x4::splat;
    let zero = f32x4::ZERO;

    let inv_time_horizon = splat(1.0 / agent.time_horizon);
    let (px, py) = (others.position_x - splat(agent.position.x), others.position_y - splat(agent.position.y));
    let (vx, vy) = (splat(agent.velocity.x) - others.velocity_x, splat(agent.velocity.y) - others.velocity_y);
    let dist_sq = px * px + py * py;
    let combined_radius = splat(agent.radius) + others.radius;
    let combined_radius_sq = combined_radius * combined_radius;

    // No collision: w from the cut-off circle's centre to the relative velocity.
    let (wx, wy) = (vx - inv_time_horizon * px, vy - inv_time_horizon * py);
    let w_length_sq = wx * wx + wy * wy;
    let dot_product1 = wx * px + wy * py;
    let near_cutoff =
        dot_product1.cmp_lt(splat(0.0)) & (dot_product1 * dot_product1).cmp_gt(combined_radius_sq * w_length_sq);
    let apart = dist_sq.cmp_gt(combined_radius_sq);
    // (direction x, direction y, u x, u y) for each lane. Each case is computed only when
    // some lane needs it (a square root and a division each), and nearly every neighbour of
    // a dense crowd is nearest the cut-off circle (95 % of them at jgrid 100,000): the legs
    // are usually skipped. Nearest the cut-off circle, ...
    let mut chosen = off_circle(wx, wy, w_length_sq, combined_radius * inv_time_horizon);
    // ... or one of the legs, ...
    if (!near_cutoff & apart).move_mask() != 0 {
        let leg = (dist_sq - combined_radius_sq).sqrt();
        let inv_dist_sq = splat(1.0) / dist_sq;
        // RVO2's left leg is ((px·leg − py·r), (px·r + py·leg)) / d² and its right leg
        // −((px·leg + py·r), (−px·r + py·leg)) / d². Both are one expression with the
        // radius's sign flipped for the right leg (`a − b` is `a + (−b)` and `(−a)·b` is
        // `−(a·b)`, bit for bit) and the result negated after the division, as RVO2 does:
        // the legs are not both computed and blended.
        let on_left = (px * wy - py * wx).cmp_gt(splat(0.0));
        let right_sign = (!on_left) & splat(-0.0);
        let signed_radius = combined_radius ^ right_sign;
        let leg_dx = ((px * leg + py * neg(signed_radius)) * inv_dist_sq) ^ right_sign;
        let leg_dy = ((px * signed_radius + py * leg) * inv_dist_sq) ^ right_sign;
        let dot_product2 = vx * leg_dx + vy * leg_dy;
        let legs = (leg_dx, leg_dy, dot_product2 * leg_dx - vx, dot_product2 * leg_dy - vy);
        chosen = select4(near_cutoff, chosen, legs);
    }
    // ... and for lanes already overlapping, the cut-off circle of one time step instead.
    if apart.move_mask() != 0b1111 {
        let inv_time_step = splat(1.0 / time_step);
        let (ox, oy) = (vx - inv_time_step * px, vy - inv_time_step * py);
        let overlap = off_circle(ox, oy, ox * ox + oy * oy, combined_radius * inv_time_step);
        chosen = select4(apart, chosen, overlap);
    }

    let (direction_x, direction_y) = (chosen.0, chosen.1);
    let responsibility = others.responsibility;
    let point_x = splat(agent.velocity.x) + responsibility * chosen.2;
    let point_y = splat(agent.velocity.y) + responsibility * chosen.3;
    // |x| < ∞ fails for infinities and NaN.
    let is_finite = |x: f32x4| x.abs().cmp_lt(splat(f32::INFINITY));
    let kept = is_finite(direction_x) & is_finite(direction_y) & is_finite(point_x) & is_finite(point_y);
    let kept = (kept & responsibility.cmp_ne(zero)).move_mask() as usize & ((1 << others.len) - 1);
    // One vector per half-plane (point x, point y, direction x, direction y), all four
    // appended and the unused lanes cut off. Unkept lanes (NaN, zero share) are rare and
    // removed afterwards: the output's length must not wait for the arithmetic, or the
    // next batch's stores would (they once did: 8 % of a step spent waiting there).
    let planes: [HalfPlane; 4] = bytemuck::cast(f32x4::transpose([point_x, point_y, direction_x, direction_y]));
    let base = out.len();
    out.extend_from_slice(&planes);
    out.truncate(base + others.len);
    if kept != (1 << others.len) - 1 {
        drop_unkept(out, base, kept);
    }
}

/// The half-plane off a cut-off circle, four lanes at a time: `(x, y)` is the relative
/// velocity's offset from the circle's centre (`length_squared` = x² + y², already computed
/// by the caller) and `radius` the circle's. Returns (direction x, direction y, u x, u y),
/// with RVO2's operations: the unit offset `w / |w|` and `u = (radius − |w|) · unit`.
#[inline(always)]
fn off_circle(x: f32x4, y: f32x4, length_squared: f32x4, radius: f32x4) -> (f32x4, f32x4, f32x4, f32x4) {
    let length = length_squared.sqrt();
    let inv_length = f32x4::splat(1.0) / length;
    let (unit_x, unit_y) = (x * inv_length, y * inv_length);
    let scale = radius - length;
    (unit_y, unit_x ^ f32x4::splat(-0.0), scale * unit_x, scale * unit_y)
}

/// Lane by lane, `if_set` where `mask` is set and `if_clear` elsewhere, for each of four vectors.
#[inline(always)]
fn select4(
    mask: f32x4,
    if_set: (f32x4, f32x4, f32x4, f32x4),
    if_clear: (f32x4, f32x4, f32x4, f32x4),
) -> (f32x4, f32x4, f32x4, f32x4) {
    (
        mask.blend(if_set.0, if_clear.0),
        mask.blend(if_set.1, if_clear.1),
        mask.blend(if_set.2, if_clear.2),
        mask.blend(if_set.3, if_clear.3),
    )
}

/// Removes from `out[base..]` the half-planes whose lane bit in `kept` is clear, keeping the
/// others in order.
#[cold]
fn drop_unkept(out: &mut Vec<HalfPlane>, base: usize, kept: usize) {
    let mut write = base;
    for read in base..out.len() {
        if kept >> (read - base) & 1 == 1 {
            out[write] = out[read];
            write += 1;
        }
    }
    out.truncate(write);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits(h: &HalfPlane) -> [u32; 4] {
        [h.point.x.to_bits(), h.point.y.to_bits(), h.direction.x.to_bits(), h.direction.y.to_bits()]
    }

    fn neighbor() -> impl Strategy<Value = NeighborView> {
        // Some neighbours overlapping the agent, some exactly on it, some far; velocities
        // that head for the cut-off circle and for either leg.
        (
            prop_oneof![-6.0f32..6.0, Just(0.0)],
            prop_oneof![-6.0f32..6.0, Just(0.0)],
            prop_oneof![-3.0f32..3.0, Just(0.0)],
            prop_oneof![-3.0f32..3.0, Just(0.0)],
            prop_oneof![0.1f32..2.0, Just(0.0)],
            prop_oneof![Just(0.5f32), 0.0f32..1.0, Just(0.0)],
        )
            .prop_map(|(x, y, vx, vy, radius, responsibility)| NeighborView {
                position: Vec2::new(x, y),
                velocity: Vec2::new(vx, vy),
                radius,
                responsibility,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]
        /// Each lane of the four-wide construction is bit for bit the scalar one (RVO2's).
        #[test]
        fn four_lanes_equal_the_scalar_construction(
            others in prop::array::uniform4(neighbor()),
            velocity in (prop_oneof![-2.0f32..2.0, Just(0.0)], prop_oneof![-2.0f32..2.0, Just(0.0)]),
            radius in 0.1f32..2.0,
            time_horizon in 0.5f32..15.0,
            time_step in prop_oneof![Just(0.25f32), 0.01f32..1.0],
        ) {
            let agent = AgentView {
                // At the origin, so that zero coordinates give exactly zero components (where
                // the sign of zero must match too).
                position: Vec2::ZERO,
                velocity: Vec2::new(velocity.0, velocity.1),
                radius,
                time_horizon,
                time_horizon_obst: time_horizon,
            };
            // Every batch length: only the first lanes count, in order; neighbours with no
            // share of the avoidance and non-finite half-planes are left out.
            for len in 1..=4 {
                let mut batched = vec![HalfPlane::default()];
                agent_half_planes_x4(&agent, &NeighborBatch::from_views(&others[..len]), time_step, &mut batched);
                let scalar: Vec<HalfPlane> = std::iter::once(HalfPlane::default())
                    .chain(
                        others[..len]
                            .iter()
                            .filter(|o| o.responsibility != 0.0)
                            .map(|o| agent_half_plane(&agent, o.position, o.velocity, o.radius, time_step, o.responsibility))
                            .filter(HalfPlane::is_finite),
                    )
                    .collect();
                prop_assert_eq!(batched.iter().map(bits).collect::<Vec<_>>(), scalar.iter().map(bits).collect::<Vec<_>>());
            }
        }
    }
}
