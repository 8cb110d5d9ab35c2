//! Any scenario file in the viewer: [`ScenarioScene`] drives the library's scenario
//! [`Runner`] (its preferred-velocity rule, roadmap, spawners, sinks and balls), so
//! `swerve serve SCENARIO` shows exactly what `swerve run SCENARIO` computes. A 3-D file (a
//! `[spheres]` table) plays in [`SphereScenarioScene`] through the library's [`SphereRunner`],
//! a 3-D crowd (a `[crowd3d]` table) in [`Crowd3dScenarioScene`] through [`Crowd3dRunner`];
//! [`scene_of`] picks the right one for any scenario.

use crate::{LiveScene, ViewerError};
use swerve::orca3d::{Simulator as Simulator3d, Vec3};
use swerve::physics::World;
use swerve::physics3d::World as World3d;
use swerve::scenario::{AnyScenario, Crowd3dRunner, Crowd3dScenario, Runner, Scenario, SphereRunner, SphereScenario};
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

    fn route(&self, agent: u32) -> Vec<Vec2> {
        self.runner.route(swerve::AgentId(agent))
    }

    fn world(&self) -> Option<&World> {
        self.runner.world()
    }

    fn world_mut(&mut self) -> Option<&mut World> {
        self.runner.world_mut()
    }

    fn movers(&self) -> Vec<(Vec2, f32)> {
        self.runner.movers().map(|m| (m.position, m.radius)).collect()
    }
}

/// The live scene of any scenario: [`ScenarioScene`] for a planar one, [`SphereScenarioScene`]
/// for a 3-D ball world, [`Crowd3dScenarioScene`] for a 3-D crowd. Errors are the scenario's
/// own (invalid values).
pub fn scene_of(scenario: AnyScenario) -> Result<Box<dyn LiveScene>, ViewerError> {
    Ok(match scenario {
        AnyScenario::Plane(s) => Box::new(ScenarioScene::new(s)?),
        AnyScenario::Spheres(s) => Box::new(SphereScenarioScene::new(s)?),
        AnyScenario::Crowd3d(s) => Box::new(Crowd3dScenarioScene::new(s)?),
    })
}

/// A 3-D scenario (a `[spheres]` table) run live by the library's [`SphereRunner`], stepping
/// past the file's step count for as long as the page plays. Reset builds a fresh runner.
pub struct SphereScenarioScene {
    scenario: SphereScenario,
    runner: SphereRunner,
}

impl SphereScenarioScene {
    /// Builds the scenario's world; errors are the scenario's own (invalid values).
    pub fn new(scenario: SphereScenario) -> Result<SphereScenarioScene, ViewerError> {
        let runner = SphereRunner::new(&scenario)?;
        Ok(SphereScenarioScene { scenario, runner })
    }
}

impl LiveScene for SphereScenarioScene {
    fn name(&self) -> &str {
        &self.scenario.name
    }

    fn step(&mut self) {
        self.runner.step();
    }

    fn reset(&mut self) {
        // Valid when this scene was built, so rebuilding cannot fail; keep the current run if
        // it somehow does rather than panic on the simulation thread.
        if let Ok(runner) = SphereRunner::new(&self.scenario) {
            self.runner = runner;
        }
    }

    fn time(&self) -> f64 {
        self.runner.time()
    }

    fn simulator(&self) -> Option<&Simulator> {
        None
    }

    fn goals(&self) -> &[Vec2] {
        &[]
    }

    fn world3d(&self) -> Option<&World3d> {
        Some(self.runner.world())
    }
}

/// A 3-D crowd scenario (a `[crowd3d]` table) run live by the library's [`Crowd3dRunner`]
/// (its goals, movers, spawners, sinks and obstacle removals), with every decision recorded for the
/// inspector; it steps past the file's step count for as long as the page plays. Reset
/// builds a fresh runner.
pub struct Crowd3dScenarioScene {
    scenario: Crowd3dScenario,
    runner: Crowd3dRunner,
    goals: Vec<Vec3>,
}

impl Crowd3dScenarioScene {
    /// Builds the scenario's crowd; errors are the scenario's own (invalid values).
    pub fn new(scenario: Crowd3dScenario) -> Result<Crowd3dScenarioScene, ViewerError> {
        let mut runner = Crowd3dRunner::new(&scenario)?;
        runner.set_record_decisions(true);
        let goals = runner.goals().collect();
        Ok(Crowd3dScenarioScene { scenario, runner, goals })
    }
}

impl LiveScene for Crowd3dScenarioScene {
    fn name(&self) -> &str {
        &self.scenario.name
    }

    fn step(&mut self) {
        self.runner.step();
        // Spawners and sinks change the population.
        self.goals.clear();
        self.goals.extend(self.runner.goals());
    }

    fn reset(&mut self) {
        // Valid when this scene was built, so rebuilding cannot fail; keep the current run if
        // it somehow does rather than panic on the simulation thread.
        if let Ok(scene) = Crowd3dScenarioScene::new(self.scenario.clone()) {
            *self = scene;
        }
    }

    fn time(&self) -> f64 {
        f64::from(self.runner.simulator().global_time())
    }

    fn simulator(&self) -> Option<&Simulator> {
        None
    }

    fn goals(&self) -> &[Vec2] {
        &[]
    }

    fn simulator3d(&self) -> Option<&Simulator3d> {
        Some(self.runner.simulator())
    }

    fn goals3d(&self) -> &[Vec3] {
        &self.goals
    }

    fn route3d(&self, agent: u32) -> Vec<Vec3> {
        self.runner.route(swerve::AgentId(agent))
    }
}
