//! The ORCA plane one neighbour imposes on an agent's velocity (3-D).
//!
//! The velocity obstacle of agent B for agent A is a cone in relative-velocity space, truncated
//! at the time horizon τ by a sphere of radius (rA + rB)/τ around (pB − pA)/τ. ORCA takes the
//! smallest change `u` that moves the relative velocity out of it, and lets A take half:
//! the permitted velocities are `{v : (v − (vA + u/2)) · n ≥ 0}` (a responsibility weight
//! changes the half, [`crate::orca3d::Simulator::set_agent_responsibility`]), `n` the outward normal
//! where `u` leaves (paper §4; seed 004 §4 for the planar case, which this lifts to 3-D).

use glam::Vec3;

use super::plane::{div, sqr, Plane};

/// Who the neighbour is, as the agent sees it at the start of the step.
#[derive(Clone, Copy, Debug)]
pub struct Body {
    /// Position (m).
    pub position: Vec3,
    /// Velocity (m/s).
    pub velocity: Vec3,
    /// Radius (m).
    pub radius: f32,
}

/// The ORCA plane `other` imposes on `agent` for `time_horizon` (s), `agent` taking the share
/// `responsibility` of the avoidance (RVO2-3D's `computeNewVelocity`, in its order of
/// operations, with its fixed ½ as a parameter; 1 against a body that does not avoid).
/// Already overlapping bodies are pushed apart within one `time_step` (s) instead.
///
/// Always inlined: called from the step's decide loop in two places (RVO2-3D's halves and
/// weighted shares), it was no longer inlined there, and the cube of 20,000 took 8.7 % more
/// instructions (callgrind).
#[inline(always)]
pub fn agent_plane(agent: &Body, other: &Body, inv_time_horizon: f32, time_step: f32, responsibility: f32) -> Plane {
    let relative_position = other.position - agent.position;
    let relative_velocity = agent.velocity - other.velocity;
    let distance_squared = relative_position.length_squared();
    let combined_radius = agent.radius + other.radius;
    let combined_radius_squared = sqr(combined_radius);

    let (normal, u) = if distance_squared > combined_radius_squared {
        // No collision yet. `w`: from the centre of the truncating sphere to the relative
        // velocity.
        let w = relative_velocity - inv_time_horizon * relative_position;
        let w_length_squared = w.length_squared();
        let along = w.dot(relative_position);
        if along < 0.0 && sqr(along) > combined_radius_squared * w_length_squared {
            // Nearest the truncating sphere: project on it.
            let w_length = w_length_squared.sqrt();
            let unit_w = div(w, w_length);
            (unit_w, (combined_radius * inv_time_horizon - w_length) * unit_w)
        } else {
            // Nearest the cone's side: the relative velocity's component along the relative
            // position, `t`, where the ray leaves the cone.
            let a = distance_squared;
            let b = relative_position.dot(relative_velocity);
            let c = relative_velocity.length_squared()
                - relative_position.cross(relative_velocity).length_squared()
                    / (distance_squared - combined_radius_squared);
            let t = (b + (sqr(b) - a * c).sqrt()) / a;
            let w = relative_velocity - t * relative_position;
            let w_length = w.length();
            let unit_w = div(w, w_length);
            (unit_w, (combined_radius * t - w_length) * unit_w)
        }
    } else {
        // Overlapping: separate within one time step.
        let inv_time_step = 1.0 / time_step;
        let w = relative_velocity - inv_time_step * relative_position;
        let w_length = w.length();
        let unit_w = div(w, w_length);
        (unit_w, (combined_radius * inv_time_step - w_length) * unit_w)
    };

    Plane { point: agent.velocity + responsibility * u, normal }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_agents_get_mirror_planes() {
        let a = Body { position: Vec3::new(-5.0, 0.0, 0.0), velocity: Vec3::new(1.0, 0.0, 0.0), radius: 1.0 };
        // Slightly off the axis: exactly head-on, the cone's projection is degenerate (zero
        // `w`, a NaN normal, which RVO2-3D ignores as well until the agents are close).
        let b = Body { position: Vec3::new(5.0, 0.5, 0.2), velocity: Vec3::new(-1.0, 0.0, 0.0), radius: 1.0 };
        let pa = agent_plane(&a, &b, 0.1, 0.25, 0.5);
        let pb = agent_plane(&b, &a, 0.1, 0.25, 0.5);
        // Reciprocity: the same change split in two, in opposite directions, to the bit.
        assert_eq!(pa.normal, -pb.normal);
        assert_eq!(pa.point - a.velocity, -(pb.point - b.velocity));
        // Their current velocities collide within the horizon: both are forbidden.
        assert!(pa.violation(a.velocity) > 0.0 && pb.violation(b.velocity) > 0.0);
    }

    #[test]
    fn a_velocity_on_the_permitted_side_avoids_collision_within_the_horizon() {
        // Sample velocities on the permitted side of A's plane, with B keeping its share:
        // the two spheres do not meet within τ (the ORCA guarantee, paper §4), checked by
        // sampling their distance over time.
        let a = Body { position: Vec3::new(0.0, 0.0, 0.0), velocity: Vec3::new(1.0, 0.2, 0.0), radius: 0.5 };
        let b = Body { position: Vec3::new(6.0, 0.5, 0.3), velocity: Vec3::new(-1.0, 0.0, 0.1), radius: 0.5 };
        let tau = 10.0;
        let pa = agent_plane(&a, &b, 1.0 / tau, 0.25, 0.5);
        let pb = agent_plane(&b, &a, 1.0 / tau, 0.25, 0.5);
        let candidates = [pa.point + pa.normal * 0.01, pa.point + pa.normal * 0.3 + Vec3::new(0.0, 0.0, 0.2)];
        for va in candidates {
            assert!(pa.violation(va) < 0.0);
            let vb = pb.point + pb.normal * 0.01;
            for step in 0..=1000 {
                let t = tau * step as f32 / 1000.0;
                let gap = (b.position + vb * t - a.position - va * t).length();
                assert!(gap > 0.999 * (a.radius + b.radius), "t = {t}: gap {gap}");
            }
        }
    }
}
