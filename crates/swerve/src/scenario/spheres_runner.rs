//! Playing a 3-D scenario: the [`SphereRunner`] owns the world a [`SphereScenario`] describes
//! and steps it by the file's time step until the file's step count.

use super::SphereScenario;
use crate::physics3d::World;
use crate::Error;

/// A 3-D scenario in progress (the 3-D counterpart of [`super::Runner`]).
///
/// ```
/// use swerve::scenario::{SphereRunner, SphereScenario};
/// let scenario = SphereScenario::builtin("hourglass3d")?;
/// let mut runner = SphereRunner::new(&scenario)?;
/// runner.set_max_steps(3);
/// while !runner.is_finished() {
///     runner.step();
/// }
/// assert_eq!(runner.steps_done(), 3);
/// assert!(runner.world().num_spheres() > 0);
/// # Ok::<(), swerve::Error>(())
/// ```
pub struct SphereRunner {
    scenario: SphereScenario,
    world: World,
    steps: usize,
    max_steps: usize,
}

impl SphereRunner {
    /// Builds the world at time 0 ([`SphereScenario::world`]).
    pub fn new(scenario: &SphereScenario) -> Result<SphereRunner, Error> {
        Ok(SphereRunner { world: scenario.world()?, scenario: scenario.clone(), steps: 0, max_steps: scenario.steps })
    }

    /// Advances the world by one time step.
    pub fn step(&mut self) {
        self.world.step(self.scenario.time_step);
        self.steps += 1;
    }

    /// Whether the step limit is reached.
    pub fn is_finished(&self) -> bool {
        self.steps >= self.max_steps
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &SphereScenario {
        &self.scenario
    }

    /// The physics world (spheres, triangles, statistics of the last step).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The physics world, mutably (to push a sphere, switch the broad phase, …).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Steps run so far.
    pub fn steps_done(&self) -> usize {
        self.steps
    }

    /// The step limit (the file's `steps` unless changed).
    pub fn max_steps(&self) -> usize {
        self.max_steps
    }

    /// Changes the step limit (the CLI's `--steps`).
    pub fn set_max_steps(&mut self, steps: usize) {
        self.max_steps = steps;
    }

    /// Simulated time so far (s).
    pub fn time(&self) -> f64 {
        self.steps as f64 * f64::from(self.scenario.time_step)
    }
}
