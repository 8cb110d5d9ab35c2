//! Breaking the symmetry that makes 3-D ORCA agents stall head-on (opt-in; off is RVO2-3D).
//!
//! Two agents flying exactly at each other get mirror-image ORCA planes and brake straight
//! down instead of turning aside: RVO2-3D's own head-on recording
//! (`tests/data/reference3d/head-on-2`) ends with both at rest, touching, short of their
//! goals. The planar rule ([`crate::orca::SymmetryBreaking`]) carries over with one choice
//! made explicit: "the right" needs an up direction.

use glam::Vec3;

/// Breaking head-on symmetry in 3-D.
///
/// Before its linear programs every agent's preferred velocity is turned, when it heads at a
/// neighbour (within `cone` radians) heading back at it, by `turn` radians clockwise about
/// `up` (seen from above: pass on the right), and then gets a perturbation of length
/// `jitter` (m/s) in a direction drawn from a hash of (`seed`, agent id, step number) —
/// reproducible and the same for any thread count. Agents meeting along `up` itself have no
/// right; the jitter separates them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SymmetryBreaking {
    /// Length of the per-step perturbation of the preferred velocity (m/s).
    pub jitter: f32,
    /// Seed of the perturbation directions.
    pub seed: u64,
    /// Half-angle of the head-on cone (rad).
    pub cone: f32,
    /// How far the preferred velocity turns clockwise about `up` in a head-on conflict (rad).
    pub turn: f32,
    /// Which way is up (any length but zero).
    pub up: Vec3,
}

impl Default for SymmetryBreaking {
    /// 0.001 m/s of jitter, seed 0, a 10° head-on cone, a 20° turn, `+z` up.
    fn default() -> Self {
        SymmetryBreaking { jitter: 0.001, seed: 0, cone: 10f32.to_radians(), turn: 20f32.to_radians(), up: Vec3::Z }
    }
}

impl SymmetryBreaking {
    /// The preferred velocity agent `agent` steers by at step `step`, given whether it is in
    /// a head-on conflict.
    pub(crate) fn steer(&self, preferred: Vec3, head_on: bool, agent: u32, step: u64) -> Vec3 {
        let mut steered = preferred;
        if head_on {
            // Rodrigues' rotation about the unit up axis by −turn (clockwise from above).
            let axis = self.up.normalize();
            let (sin, cos) = (-self.turn).sin_cos();
            steered = steered * cos + axis.cross(steered) * sin + axis * axis.dot(steered) * (1.0 - cos);
        }
        steered + self.jitter * jitter_direction(self.seed, agent, step)
    }
}

/// Whether `preferred` points at `relative` (a neighbour's offset) within the cone and the
/// neighbour's preferred velocity points back within it: a head-on conflict.
pub(crate) fn is_head_on(preferred: Vec3, relative: Vec3, other_preferred: Vec3, cos_cone: f32) -> bool {
    let (a, b, c) = (preferred.length(), relative.length(), other_preferred.length());
    if a == 0.0 || b == 0.0 || c == 0.0 {
        return false;
    }
    preferred.dot(relative) >= cos_cone * a * b && (-other_preferred).dot(relative) >= cos_cone * c * b
}

/// A unit direction from (seed, agent, step), uniform over the sphere: SplitMix64's finaliser
/// of the mixed inputs; 24 bits for the height, 24 for the angle (Archimedes: a uniform height
/// on the sphere's axis gives a uniform point on the sphere).
fn jitter_direction(seed: u64, agent: u32, step: u64) -> Vec3 {
    let mut z =
        seed ^ (u64::from(agent)).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ step.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let unit = |bits: u64| (bits & 0xFF_FFFF) as f32 / (1u64 << 24) as f32;
    let height = 1.0 - 2.0 * unit(z >> 40);
    let angle = std::f32::consts::TAU * unit(z >> 16);
    let ring = (1.0 - height * height).max(0.0).sqrt();
    Vec3::new(ring * angle.cos(), ring * angle.sin(), height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_is_clockwise_about_up() {
        let rule = SymmetryBreaking { jitter: 0.0, turn: std::f32::consts::FRAC_PI_2, ..SymmetryBreaking::default() };
        // Heading +x with +z up, a quarter turn clockwise from above heads −y (to the right).
        let steered = rule.steer(Vec3::X, true, 0, 0);
        assert!((steered - Vec3::NEG_Y).length() < 1e-6, "{steered}");
        assert_eq!(rule.steer(Vec3::X, false, 0, 0), Vec3::X);
    }

    #[test]
    fn jitter_directions_are_unit_and_spread_over_the_sphere() {
        let mut mean = Vec3::ZERO;
        for agent in 0..4000 {
            let d = jitter_direction(7, agent, 3);
            assert!((d.length() - 1.0).abs() < 1e-5);
            mean += d;
        }
        // The mean of n uniform unit vectors has length about 1/√n (here ~0.016).
        assert!((mean / 4000.0).length() < 0.05, "{mean}");
        assert_ne!(jitter_direction(7, 1, 3), jitter_direction(7, 1, 4));
    }
}
