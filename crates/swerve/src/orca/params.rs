//! Per-agent parameters.

use crate::Error;

/// The parameters RVO2 keeps per agent. All distances in metres, times in seconds, speeds in
/// metres per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentParams {
    /// How far away other agents are taken into account (m).
    pub neighbor_dist: f32,
    /// At most this many nearest agents are taken into account.
    pub max_neighbors: usize,
    /// How far ahead in time collisions with other agents are avoided (s). Larger values make
    /// agents react sooner and yield more.
    pub time_horizon: f32,
    /// How far ahead in time collisions with obstacles are avoided (s).
    pub time_horizon_obst: f32,
    /// The agent's radius (m).
    pub radius: f32,
    /// The agent's maximum speed (m/s).
    pub max_speed: f32,
}

impl Default for AgentParams {
    /// RVO2's Circle example values: 15 m, 10 neighbours, 10 s, 10 s, 1.5 m, 2 m/s.
    fn default() -> Self {
        AgentParams {
            neighbor_dist: 15.0,
            max_neighbors: 10,
            time_horizon: 10.0,
            time_horizon_obst: 10.0,
            radius: 1.5,
            max_speed: 2.0,
        }
    }
}

impl AgentParams {
    /// How far from the agent (m) RVO2 looks for obstacle edges: as far as it can travel at
    /// full speed within its obstacle time horizon, plus its radius (RVO2's
    /// `computeNeighbors`).
    pub fn obstacle_range(&self) -> f32 {
        self.time_horizon_obst * self.max_speed + self.radius
    }

    /// Checks every field: finite; `radius`, `time_horizon` and `time_horizon_obst` > 0
    /// (ORCA divides by the horizons); `neighbor_dist` and `max_speed` ≥ 0.
    pub fn validate(&self) -> Result<(), Error> {
        Error::check_non_negative("neighbor distance", self.neighbor_dist)?;
        Error::check_positive("time horizon", self.time_horizon)?;
        Error::check_positive("obstacle time horizon", self.time_horizon_obst)?;
        Error::check_positive("radius", self.radius)?;
        Error::check_non_negative("max speed", self.max_speed)?;
        Ok(())
    }
}
