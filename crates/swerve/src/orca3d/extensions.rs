//! Opt-in behaviour beyond RVO2-3D. [`Extensions::default()`] is RVO2-3D exactly: every option
//! is off unless asked for, and the recordings replay with the defaults. The options are the
//! planar simulator's ([`crate::orca::Extensions`]), one dimension up.

use glam::Vec3;

pub use super::symmetry::SymmetryBreaking;
pub use crate::orca::OverlapResolution;

/// Options beyond RVO2-3D. The default is RVO2-3D's behaviour, bit for bit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extensions {
    /// Resolve head-on stalls by passing on the right of an up direction. Off by default.
    pub symmetry_breaking: Option<SymmetryBreaking>,
    /// "Safe mode": keep a clearance in the ORCA planes and remove the overlaps left after
    /// each step by position projection (see [`OverlapResolution`]; as in the plane, a push
    /// that would take an agent through a static obstacle or closer than its radius to one is
    /// not made). Off by default.
    pub overlap_resolution: Option<OverlapResolution>,
    /// Clamp every new velocity to the agent's max speed (RVO2-3D's fallback program, like
    /// RVO2's, is not guaranteed to stay inside the max-speed sphere). Off by default.
    pub strict_speed_limit: bool,
}

/// A sphere that moves on its own and does not avoid anyone (a sphere of the physics world, a
/// scripted aircraft, a bird). Agents take full responsibility for avoiding it. Named by a
/// [`crate::orca::MoverId`], as in the plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// Centre (m).
    pub position: Vec3,
    /// Velocity (m/s); agents extrapolate the mover along it.
    pub velocity: Vec3,
    /// Radius (m).
    pub radius: f32,
}

/// Agent `i`'s push away from every neighbour closer than `(ri + rj)·scale`: `share(i, j)` of
/// the shortfall (half: the neighbour does the other half), along the line between their
/// centres.
/// Coincident centres separate along ±x, the sign fixed by their indices, so that the two
/// move apart deterministically.
pub(crate) fn overlap_push(
    i: usize,
    positions: &[Vec3],
    radii: impl Fn(usize) -> f32,
    share: impl Fn(usize, usize) -> f32,
    neighbors: &[u32],
    scale: f32,
) -> Vec3 {
    let p = positions[i];
    let radius = radii(i);
    let mut push = Vec3::ZERO;
    for &j in neighbors {
        let j = j as usize;
        let combined = (radius + radii(j)) * scale;
        let d = p - positions[j];
        let distance_squared = d.length_squared();
        if distance_squared >= combined * combined {
            continue;
        }
        let distance = distance_squared.sqrt();
        let normal = if distance > 0.0 {
            d / distance
        } else if i < j {
            Vec3::X
        } else {
            Vec3::NEG_X
        };
        push += normal * (share(i, j) * (combined - distance));
    }
    push
}
