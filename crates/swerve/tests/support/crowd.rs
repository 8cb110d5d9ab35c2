//! Crowd helpers shared by the ORCA integration tests.

use swerve::reference::preferred_velocity_toward;
use swerve::{AgentParams, Simulator, Vec2};

/// Sets every agent's preferred velocity toward its goal (RVO2 examples' rule).
pub fn set_prefs(sim: &mut Simulator, goals: &[Vec2]) {
    let prefs: Vec<Vec2> = sim.positions().iter().zip(goals).map(|(p, g)| preferred_velocity_toward(*g, *p)).collect();
    sim.set_pref_velocities(&prefs).unwrap();
}

/// `n` agents evenly on a ring of `radius` (m), each heading for the antipodal point.
#[allow(dead_code)] // not every test binary that includes this module builds rings
pub fn ring(n: usize, radius: f32, params: AgentParams, dt: f32) -> (Simulator, Vec<Vec2>) {
    let mut sim = Simulator::new(dt, params).unwrap();
    let mut goals = Vec::new();
    for i in 0..n {
        let a = i as f32 * std::f32::consts::TAU / n as f32;
        let p = radius * Vec2::new(a.cos(), a.sin());
        sim.add_agent(p).unwrap();
        goals.push(-p);
    }
    (sim, goals)
}
