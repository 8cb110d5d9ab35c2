//! The 3-D tests' crowd: agents spread over a sphere, each bound for the antipodal point
//! (RVO2-3D's Sphere example, with a golden-angle spiral for its latitude rings).
#![allow(dead_code)]

use swerve::orca3d::{AgentParams, Simulator, Vec3};

/// The recordings' preferred-velocity rule (scripts/record-rvo2-3d), in f32.
pub fn preferred(goal: Vec3, position: Vec3) -> Vec3 {
    let g = goal - position;
    if g.length_squared() > 1.0 {
        g * (1.0 / g.length())
    } else {
        g
    }
}

/// A crowd of `n` at rest on a sphere, each bound for the antipodes (its goals returned).
pub fn sphere_crowd(n: usize) -> (Simulator, Vec<Vec3>) {
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    let mut goals = Vec::new();
    let radius = (n as f32).sqrt() * 2.5;
    for i in 0..n {
        let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
        let ring = (1.0 - z * z).sqrt();
        let angle = i as f32 * std::f32::consts::PI * (3.0 - 5.0f32.sqrt());
        let p = Vec3::new(ring * angle.cos(), ring * angle.sin(), z) * radius;
        sim.add_agent(p).unwrap();
        goals.push(-p);
    }
    (sim, goals)
}

/// The same crowd added in a scattered order (agent `i` is the sphere's `i · 1777 mod n`,
/// `n` not a multiple of 1777): neighbours get far-apart numbers. With its goals.
pub fn shuffled_sphere_crowd(n: usize) -> (Simulator, Vec<Vec3>) {
    let (ordered, goals) = sphere_crowd(n);
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    let order: Vec<usize> = (0..n).map(|i| i * 1_777 % n).collect();
    for &k in &order {
        sim.add_agent(ordered.positions()[k]).unwrap();
    }
    (sim, order.iter().map(|&k| goals[k]).collect())
}

pub fn set_prefs(sim: &mut Simulator, goals: &[Vec3]) {
    let prefs: Vec<Vec3> = goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred(g, p)).collect();
    sim.set_pref_velocities(&prefs).unwrap();
}
