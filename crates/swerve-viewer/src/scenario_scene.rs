//! Any scenario file in the viewer: [`ScenarioScene`] drives the library's scenario
//! [`Runner`] (its preferred-velocity rule, roadmap, spawners, sinks and balls), so
//! `swerve serve SCENARIO` shows exactly what `swerve run SCENARIO` computes.

use crate::{LiveScene, ViewerError};
use swerve::physics::World;
use swerve::scenario::{Runner, Scenario};
use swerve::{Simulator, Vec2};

/// A scenario run live. Reset builds a fresh [`Runner`] from the scenario.
pub struct ScenarioScene {
    scenario: Scenario,
    runner: Runner,
    /// Goals in the order of [`Simulator::agent_ids`], refreshed after every step (spawners
    /// and sinks change the population).
    goals: Vec<Vec2>,
}

impl ScenarioScene {
    /// Builds the scenario's runner; errors are the scenario's own (invalid values).
    pub fn new(scenario: Scenario) -> Result<ScenarioScene, ViewerError> {
        let mut runner = Runner::new(&scenario)?;
        // The inspector and the neighbour links read every agent's decision.
        runner.set_record_decisions(true);
        let mut scene = ScenarioScene { scenario, runner, goals: Vec::new() };
        scene.refresh_goals();
        Ok(scene)
    }

    fn refresh_goals(&mut self) {
        let sim = self.runner.simulator();
        self.goals.clear();
        self.goals.extend(sim.agent_ids().iter().map(|&id| {
            // An agent without a goal is drawn as already there.
            self.runner.goal(id).unwrap_or_else(|| sim.agent_position(id).unwrap_or(Vec2::ZERO))
        }));
    }
}

impl LiveScene for ScenarioScene {
    fn name(&self) -> &str {
        &self.scenario.name
    }

    fn step(&mut self) {
        self.runner.step();
        self.refresh_goals();
    }

    fn reset(&mut self) {
        // The scenario was valid when this scene was built, so rebuilding cannot fail; keep
        // the current run if it somehow does rather than panic on the simulation thread.
        if let Ok(mut runner) = Runner::new(&self.scenario) {
            runner.set_record_decisions(true);
            self.runner = runner;
            self.refresh_goals();
        }
    }

    fn time(&self) -> f64 {
        f64::from(self.runner.simulator().global_time())
    }

    fn simulator(&self) -> Option<&Simulator> {
        Some(self.runner.simulator())
    }

    fn goals(&self) -> &[Vec2] {
        &self.goals
    }

    fn world(&self) -> Option<&World> {
        self.runner.world()
    }

    fn world_mut(&mut self) -> Option<&mut World> {
        self.runner.world_mut()
    }
}
