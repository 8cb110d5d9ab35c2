//! RVO2's Circle example: 250 agents on a ring of radius 200 m walk to the antipodal point.
//!
//! Prints progress every 50 steps: simulated time, agents at goal, closest approach.

use swerve::reference::preferred_velocity_toward;
use swerve::{AgentParams, Simulator, Vec2};

fn main() -> Result<(), swerve::Error> {
    let mut sim = Simulator::new(0.25, AgentParams::default())?;
    let n = 250;
    let mut goals = Vec::new();
    for i in 0..n {
        let angle = i as f32 * 2.0 * std::f32::consts::PI / n as f32;
        let position = 200.0 * Vec2::new(angle.cos(), angle.sin());
        sim.add_agent(position)?;
        goals.push(-position);
    }
    let ids = sim.agent_ids().to_vec();
    for step in 0..=2000 {
        let positions = sim.positions().to_vec();
        let at_goal = positions.iter().zip(&goals).filter(|(p, g)| p.distance_squared(**g) < 1.5 * 1.5).count();
        if step % 50 == 0 || at_goal == n {
            let mut closest = f32::INFINITY;
            for (i, a) in positions.iter().enumerate() {
                for b in &positions[i + 1..] {
                    closest = closest.min(a.distance(*b));
                }
            }
            println!(
                "t = {:6.2} s   at goal {:3}/{n}   closest pair {:6.3} m (2 radii = 3.000)",
                sim.global_time(),
                at_goal,
                closest
            );
        }
        if at_goal == n {
            break;
        }
        for (id, (p, g)) in ids.iter().zip(positions.iter().zip(&goals)) {
            sim.set_agent_pref_velocity(*id, preferred_velocity_toward(*g, *p))?;
        }
        sim.step();
    }
    Ok(())
}
