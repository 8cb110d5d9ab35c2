//! Measures shared by the 3-D gravity reports (`examples/gravity3d_report.rs`,
//! `examples/hourglass3d_report.rs`), which judge swerve and rapier3d from their positions and
//! speeds alone, by the same code.

use swerve::physics3d::broad_phase::BroadPhaseKind;
use swerve::physics3d::{Aabb3, Vec3, World};

/// The deepest overlap of two spheres of radius `radius`, as a fraction of it: the candidate
/// pairs of swerve's uniform grid on the spheres' boxes (a box with a NaN coordinate overlaps
/// nothing).
pub fn deepest_overlap(positions: &[Vec3], radius: f32) -> f32 {
    let boxes: Vec<Aabb3> = positions.iter().map(|&p| Aabb3::around_sphere(p, radius)).collect();
    let mut pairs = Vec::new();
    BroadPhaseKind::UniformGrid.create().find_pairs(&boxes, &mut pairs);
    let deepest = pairs.iter().map(|&(i, j)| 2.0 * radius - positions[i as usize].distance(positions[j as usize]));
    deepest.fold(0.0, f32::max) / radius
}

/// The median of `values` (the upper one of an even count); `values` must not be empty.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The machine's load averages over 1, 5 and 15 minutes, from `/proc/loadavg`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// A speed (m/s) for a table: in cm/s below 0.1 m/s.
pub fn speed(v: f64) -> String {
    if v < 0.1 {
        format!("{:.1} cm/s", v * 100.0)
    } else {
        format!("{v:.2} m/s")
    }
}

/// The reports' time step (s).
pub const DT: f32 = 1.0 / 60.0;

/// An engine the reports step and judge alike: swerve's [`World`] here, rapier3d's peer in
/// `benches/rapier3d_pit.rs` (rapier3d is a dev-dependency, out of this library's reach).
pub trait Engine {
    /// One step of [`DT`].
    fn step(&mut self);
    /// The spheres' centres, in the scene's order.
    fn positions(&self) -> Vec<Vec3>;
    /// The spheres' speeds (m/s), in the scene's order.
    fn speeds(&self) -> Vec<f32>;
}

impl Engine for World {
    fn step(&mut self) {
        World::step(self, DT);
    }
    fn positions(&self) -> Vec<Vec3> {
        self.spheres().iter().map(|s| s.position).collect()
    }
    fn speeds(&self) -> Vec<f32> {
        self.spheres().iter().map(|s| s.velocity.length()).collect()
    }
}
