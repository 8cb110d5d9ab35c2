//! What the viewer shows: a [`LiveScene`] it can step and reset.
//!
//! The viewer owns the scene on its simulation thread and reads the ORCA state through
//! [`LiveScene::simulator`]; the per-agent inspector values come from that simulator's own
//! accessors. [`OrcaScene`] is the common case: a [`Simulator`] whose agents walk to fixed
//! goals with RVO2's examples' rule ([`preferred_velocity_toward`]); [`BallScene`] is a
//! physics [`World`] of bouncing balls. In 3-D, [`Orca3dScene`] is a
//! [`swerve::orca3d::Simulator`] crowd flying to goals by a given rule and [`SphereScene`] a
//! [`swerve::physics3d::World`] of spheres (with static triangles and a box); a scene reports
//! them through [`LiveScene::simulator3d`] and [`LiveScene::world3d`].

use crate::ViewerError;
use swerve::orca3d::{Simulator as Simulator3d, Vec3};
use swerve::physics::scene::Scene as BallSetup;
use swerve::physics::{BroadPhaseKind, World};
use swerve::physics3d::World as World3d;
use swerve::reference::preferred_velocity_toward;
use swerve::{Simulator, Vec2};

/// A scene the viewer can run: stepped, reset and read on the viewer's simulation thread.
///
/// Implement it to show a scene whose agents follow another rule than "straight to the goal"
/// (the scenario runner of the CLI, a reinforcement-learning policy, ...).
pub trait LiveScene: Send + 'static {
    /// A short name shown in the page's title bar.
    fn name(&self) -> &str;

    /// Advances the scene by one time step (sets preferred velocities, then steps).
    /// Must not panic.
    fn step(&mut self);

    /// Puts the scene back in its initial state.
    fn reset(&mut self);

    /// Simulated time since the last reset (s).
    fn time(&self) -> f64;

    /// The crowd, if the scene has one. Agents are drawn in the order of
    /// [`Simulator::agent_ids`].
    fn simulator(&self) -> Option<&Simulator>;

    /// The agents' goals (m), in the order of [`Simulator::agent_ids`]; empty when the agents
    /// have none. Used for the "at goal" count and drawn for the inspected agent.
    fn goals(&self) -> &[Vec2];

    /// The balls, if the scene has any (drawn with their broad phase's structure on request).
    fn world(&self) -> Option<&World> {
        None
    }

    /// Mutable access to the balls, used only to switch the broad phase.
    fn world_mut(&mut self) -> Option<&mut World> {
        None
    }

    /// The planar scene's movers (a scenario's `[[movers]]`: discs the agents avoid), as
    /// (centre, radius). Frames carry them after the balls.
    fn movers(&self) -> Vec<(Vec2, f32)> {
        Vec::new()
    }

    /// The crowd of a 3-D scene ([`swerve::orca3d`]), if it has one. A scene is planar or
    /// spatial: one with a 3-D crowd or 3-D spheres returns `None` from [`LiveScene::simulator`]
    /// and [`LiveScene::world`], and its frames carry three coordinates ([`crate::frame`]).
    fn simulator3d(&self) -> Option<&Simulator3d> {
        None
    }

    /// The 3-D agents' goals (m), in the order of [`Simulator3d::agent_ids`]; empty when they
    /// have none.
    fn goals3d(&self) -> &[Vec3] {
        &[]
    }

    /// The way planar agent `agent` means to walk from where it is now, when it navigates by
    /// a roadmap (its position, waypoints, goal; [`swerve::navigation::Roadmap::route`]);
    /// empty otherwise.
    fn route(&self, _agent: u32) -> Vec<Vec2> {
        Vec::new()
    }

    /// The way 3-D agent `agent` means to fly from where it is now, when it navigates by a
    /// roadmap (its position, waypoints, goal; [`swerve::navigation3d::Roadmap3d::route`]);
    /// empty otherwise.
    fn route3d(&self, _agent: u32) -> Vec<Vec3> {
        Vec::new()
    }

    /// The spheres of a 3-D scene ([`swerve::physics3d`]), with their static triangles and box.
    fn world3d(&self) -> Option<&World3d> {
        None
    }

    /// Whether the scene is spatial (3-D crowd or 3-D spheres).
    fn is_3d(&self) -> bool {
        self.simulator3d().is_some() || self.world3d().is_some()
    }
}

/// A [`Simulator`] whose agents walk straight to fixed goals (RVO2 examples' rule:
/// [`preferred_velocity_toward`], unit speed until 1 m from the goal).
///
/// Reset restores a copy of the simulator as it was given.
#[derive(Clone, Debug)]
pub struct OrcaScene {
    name: String,
    initial: Simulator,
    simulator: Simulator,
    goals: Vec<Vec2>,
    preferred: Vec<Vec2>,
    start_time: f32,
}

impl OrcaScene {
    /// A scene from a simulator (obstacles added; [`Simulator::process_obstacles`] is called
    /// here) and one goal per agent, in the order of [`Simulator::agent_ids`].
    ///
    /// Errors: the number of goals differs from the number of agents, or a goal is not finite.
    pub fn new(name: impl Into<String>, mut simulator: Simulator, goals: Vec<Vec2>) -> Result<OrcaScene, ViewerError> {
        if goals.len() != simulator.num_agents() {
            return Err(ViewerError::InvalidScene(format!(
                "{} goals for {} agents (one goal per agent is required)",
                goals.len(),
                simulator.num_agents()
            )));
        }
        if let Some(i) = goals.iter().position(|g| !g.is_finite()) {
            return Err(ViewerError::InvalidScene(format!("goal {i} is not finite: {}", goals[i])));
        }
        simulator.process_obstacles();
        // The inspector and the neighbour links read every agent's decision.
        simulator.set_record_decisions(true);
        let preferred = vec![Vec2::ZERO; goals.len()];
        Ok(OrcaScene {
            name: name.into(),
            start_time: simulator.global_time(),
            initial: simulator.clone(),
            simulator,
            goals,
            preferred,
        })
    }
}

impl LiveScene for OrcaScene {
    fn name(&self) -> &str {
        &self.name
    }

    fn step(&mut self) {
        for ((pref, goal), position) in self.preferred.iter_mut().zip(&self.goals).zip(self.simulator.positions()) {
            *pref = preferred_velocity_toward(*goal, *position);
        }
        // Cannot fail: one value per agent (checked in `new`, agents are never added or
        // removed here) and finite (goals and positions are finite).
        if self.simulator.set_pref_velocities(&self.preferred).is_ok() {
            self.simulator.step();
        }
    }

    fn reset(&mut self) {
        self.simulator.clone_from(&self.initial);
    }

    fn time(&self) -> f64 {
        f64::from(self.simulator.global_time() - self.start_time)
    }

    fn simulator(&self) -> Option<&Simulator> {
        Some(&self.simulator)
    }

    fn goals(&self) -> &[Vec2] {
        &self.goals
    }
}

/// A physics [`World`] of balls built from a [`swerve::physics::scene::Scene`], stepped by
/// the scene's `dt`. Reset rebuilds the world from that setup, keeping the broad phase
/// currently chosen.
pub struct BallScene {
    name: String,
    setup: BallSetup,
    world: World,
    steps: u64,
}

impl BallScene {
    /// A scene of the balls of `setup`, with broad phase `broad_phase`.
    ///
    /// Errors: a ball the world refuses (non-finite, outside the bounds, ...).
    pub fn new(
        name: impl Into<String>,
        setup: BallSetup,
        broad_phase: BroadPhaseKind,
    ) -> Result<BallScene, ViewerError> {
        let world = setup.world(broad_phase)?;
        Ok(BallScene { name: name.into(), setup, world, steps: 0 })
    }
}

impl LiveScene for BallScene {
    fn name(&self) -> &str {
        &self.name
    }

    fn step(&mut self) {
        self.world.step(self.setup.dt);
        self.steps += 1;
    }

    fn reset(&mut self) {
        // Building from the same balls cannot fail a second time (checked in `new`); should it
        // anyway, keeping the current world is the harmless choice.
        if let Ok(world) = self.setup.world(self.world.broad_phase()) {
            self.world = world;
            self.steps = 0;
        }
    }

    fn time(&self) -> f64 {
        self.steps as f64 * f64::from(self.setup.dt)
    }

    fn simulator(&self) -> Option<&Simulator> {
        None
    }

    fn goals(&self) -> &[Vec2] {
        &[]
    }

    fn world(&self) -> Option<&World> {
        Some(&self.world)
    }

    fn world_mut(&mut self) -> Option<&mut World> {
        Some(&mut self.world)
    }
}

/// The rule that turns an agent's goal and position into its preferred velocity (m/s).
pub type PreferredVelocity3d = fn(goal: Vec3, position: Vec3) -> Vec3;

/// A 3-D crowd ([`swerve::orca3d::Simulator`]) whose agents fly to fixed goals by a given rule
/// (RVO2-3D's Sphere example: toward the goal at most at unit speed). Reset restores a copy of
/// the simulator as it was given.
#[derive(Clone, Debug)]
pub struct Orca3dScene {
    name: String,
    initial: Simulator3d,
    simulator: Simulator3d,
    goals: Vec<Vec3>,
    preferred_rule: PreferredVelocity3d,
    preferred: Vec<Vec3>,
    start_time: f32,
}

impl Orca3dScene {
    /// A scene from a simulator and one goal per agent (in the order of
    /// [`Simulator3d::agent_ids`]); every step sets each agent's preferred velocity to
    /// `preferred(goal, position)` and steps.
    ///
    /// Errors: the number of goals differs from the number of agents, or a goal is not finite.
    pub fn new(
        name: impl Into<String>,
        mut simulator: Simulator3d,
        goals: Vec<Vec3>,
        preferred: PreferredVelocity3d,
    ) -> Result<Orca3dScene, ViewerError> {
        if goals.len() != simulator.num_agents() {
            return Err(ViewerError::InvalidScene(format!(
                "{} goals for {} agents (one goal per agent is required)",
                goals.len(),
                simulator.num_agents()
            )));
        }
        if let Some(i) = goals.iter().position(|g| !g.is_finite()) {
            return Err(ViewerError::InvalidScene(format!("goal {i} is not finite: {}", goals[i])));
        }
        // The inspector and the neighbour links read every agent's decision.
        simulator.set_record_decisions(true);
        Ok(Orca3dScene {
            name: name.into(),
            start_time: simulator.global_time(),
            initial: simulator.clone(),
            simulator,
            preferred: vec![Vec3::ZERO; goals.len()],
            goals,
            preferred_rule: preferred,
        })
    }
}

impl LiveScene for Orca3dScene {
    fn name(&self) -> &str {
        &self.name
    }

    fn step(&mut self) {
        let rule = self.preferred_rule;
        for ((pref, goal), position) in self.preferred.iter_mut().zip(&self.goals).zip(self.simulator.positions()) {
            *pref = rule(*goal, *position);
        }
        // Fails only for a non-finite value (a rule gone wrong): then the agents keep their
        // last preferred velocities rather than the step panicking.
        let _ = self.simulator.set_pref_velocities(&self.preferred);
        self.simulator.step();
    }

    fn reset(&mut self) {
        self.simulator.clone_from(&self.initial);
    }

    fn time(&self) -> f64 {
        f64::from(self.simulator.global_time() - self.start_time)
    }

    fn simulator(&self) -> Option<&Simulator> {
        None
    }

    fn goals(&self) -> &[Vec2] {
        &[]
    }

    fn simulator3d(&self) -> Option<&Simulator3d> {
        Some(&self.simulator)
    }

    fn goals3d(&self) -> &[Vec3] {
        &self.goals
    }
}

/// Builds a 3-D sphere world: called once by [`SphereScene::new`] and again by each reset.
pub type WorldBuilder3d = Box<dyn Fn() -> Result<World3d, swerve::Error> + Send>;

/// A 3-D world of spheres ([`swerve::physics3d::World`]: spheres, static triangles, a box)
/// stepped by a fixed `dt`. Reset builds the world again ([`World3d`] is not `Clone`).
pub struct SphereScene {
    name: String,
    build: WorldBuilder3d,
    dt: f32,
    world: World3d,
    steps: u64,
}

impl SphereScene {
    /// A scene of the world `build` makes, stepped by `dt` seconds.
    ///
    /// Errors: `build` fails, or `dt` is not a positive finite number.
    pub fn new(name: impl Into<String>, dt: f32, build: WorldBuilder3d) -> Result<SphereScene, ViewerError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(ViewerError::InvalidScene(format!(
                "the time step must be a positive number of seconds, got {dt}"
            )));
        }
        let world = build()?;
        Ok(SphereScene { name: name.into(), build, dt, world, steps: 0 })
    }
}

impl LiveScene for SphereScene {
    fn name(&self) -> &str {
        &self.name
    }

    fn step(&mut self) {
        self.world.step(self.dt);
        self.steps += 1;
    }

    fn reset(&mut self) {
        // The builder succeeded in `new`; should it fail now, keep the current world rather
        // than panic on the simulation thread.
        if let Ok(world) = (self.build)() {
            self.world = world;
            self.steps = 0;
        }
    }

    fn time(&self) -> f64 {
        self.steps as f64 * f64::from(self.dt)
    }

    fn simulator(&self) -> Option<&Simulator> {
        None
    }

    fn goals(&self) -> &[Vec2] {
        &[]
    }

    fn world3d(&self) -> Option<&World3d> {
        Some(&self.world)
    }
}
