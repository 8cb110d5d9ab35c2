//! RVO2 reference runs: loading recordings and replaying them against [`Simulator`].
//!
//! A run is a folder with `scenario.json` (time step, agent defaults, agents with goals and
//! optional per-agent parameters, obstacles, step count) and `trajectory.csv` or
//! `trajectory.csv.gz` (header `step,agent,px,py,vx,vy,pvx,pvy`: each agent's position,
//! velocity and preferred velocity at the start of every step, and a last block with the
//! final state). Numbers are `f32` printed with 9 significant digits, so they parse back to
//! the exact bits.
//!
//! [`ReferenceRun::replay`] checks every step independently (load the recorded state of step
//! k, run one step, compare bits with step k+1) and also runs freely from step 0.

use crate::{AgentParams, Error, InstructionSet, Simulator, Vec2};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The recorded state of one agent at the start of a step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentSample {
    /// Position (m).
    pub position: Vec2,
    /// Velocity (m/s).
    pub velocity: Vec2,
    /// Preferred velocity set for this step (m/s).
    pub pref_velocity: Vec2,
}

/// One agent of a reference scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceAgent {
    /// Start position (m).
    pub position: Vec2,
    /// Goal (m).
    pub goal: Vec2,
    /// Parameters (defaults with the agent's overrides applied).
    pub params: AgentParams,
}

/// A loaded reference run.
#[derive(Clone, Debug)]
pub struct ReferenceRun {
    /// The run's name (the `name` key, or the folder name).
    pub name: String,
    /// Time step (s).
    pub time_step: f32,
    /// Parameters for agents without overrides.
    pub defaults: AgentParams,
    /// The agents.
    pub agents: Vec<ReferenceAgent>,
    /// Obstacle polygons in the order given to RVO2.
    pub obstacles: Vec<Vec<Vec2>>,
    /// Number of steps run.
    pub steps: usize,
    /// `frames[k][i]`: agent `i` at the start of step `k`; `frames[steps]` is the final state.
    pub frames: Vec<Vec<AgentSample>>,
}

/// The outcome of [`ReferenceRun::replay`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayReport {
    /// The run's name.
    pub name: String,
    /// Steps in the run.
    pub steps: usize,
    /// Steps whose single-step result matched the recording bit for bit (all agents'
    /// positions and velocities).
    pub single_step_identical: usize,
    /// The largest absolute difference of any coordinate over all single steps.
    pub max_abs_diff: f32,
    /// A free run from step 0 matched the recording bit for bit through this many steps.
    pub free_run_identical_through: usize,
}

impl std::fmt::Display for ReplayReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "replay {}: steps={} single-step-identical={}/{} max-abs-diff={:e} free-run-identical-through={}",
            self.name,
            self.steps,
            self.single_step_identical,
            self.steps,
            self.max_abs_diff,
            self.free_run_identical_through
        )
    }
}

#[derive(Deserialize)]
struct ParamsFile {
    neighbor_dist: f32,
    max_neighbors: usize,
    time_horizon: f32,
    time_horizon_obst: f32,
    radius: f32,
    max_speed: f32,
}

#[derive(Deserialize)]
struct AgentFile {
    position: [f32; 2],
    goal: [f32; 2],
    neighbor_dist: Option<f32>,
    max_neighbors: Option<usize>,
    time_horizon: Option<f32>,
    time_horizon_obst: Option<f32>,
    radius: Option<f32>,
    max_speed: Option<f32>,
}

#[derive(Deserialize)]
struct ScenarioFile {
    name: Option<String>,
    time_step: f32,
    agent_defaults: ParamsFile,
    agents: Vec<AgentFile>,
    #[serde(default)]
    obstacles: Vec<Vec<[f32; 2]>>,
    steps: usize,
}

fn vec2(a: [f32; 2]) -> Vec2 {
    Vec2::new(a[0], a[1])
}

/// RVO2 examples' preferred velocity: toward the goal, at most unit length.
///
/// `g = goal - position`; if `|g|² > 1`, `g *= 1 / sqrt(g.x² + g.y²)` (float32).
pub fn preferred_velocity_toward(goal: Vec2, position: Vec2) -> Vec2 {
    let g = goal - position;
    if crate::geom::exact::length_squared(g) > 1.0 {
        crate::geom::exact::normalize(g)
    } else {
        g
    }
}

/// RVO2-3D examples' preferred velocity: toward the goal, at most unit length (`f32`: the
/// offset `g`, times `1 / |g|` when `|g|² > 1`, as RVO2-3D's Sphere example computes it).
pub fn preferred_velocity_toward3d(goal: glam::Vec3, position: glam::Vec3) -> glam::Vec3 {
    let g = goal - position;
    if g.length_squared() > 1.0 {
        g * (1.0 / g.length())
    } else {
        g
    }
}

impl ReferenceRun {
    /// Loads the run in `dir` (`scenario.json` plus `trajectory.csv` or
    /// `trajectory.csv.gz`).
    pub fn load(dir: &Path) -> Result<ReferenceRun, Error> {
        let scenario_path = dir.join("scenario.json");
        let text = std::fs::read_to_string(&scenario_path)
            .map_err(|source| Error::Io { path: scenario_path.clone(), source })?;
        let file: ScenarioFile = serde_json::from_str(&text).map_err(|e| Error::Parse {
            path: scenario_path.clone(),
            line: e.line(),
            message: e.to_string(),
        })?;
        let d = &file.agent_defaults;
        let defaults = AgentParams {
            neighbor_dist: d.neighbor_dist,
            max_neighbors: d.max_neighbors,
            time_horizon: d.time_horizon,
            time_horizon_obst: d.time_horizon_obst,
            radius: d.radius,
            max_speed: d.max_speed,
        };
        let agents = file
            .agents
            .iter()
            .map(|a| ReferenceAgent {
                position: vec2(a.position),
                goal: vec2(a.goal),
                params: AgentParams {
                    neighbor_dist: a.neighbor_dist.unwrap_or(defaults.neighbor_dist),
                    max_neighbors: a.max_neighbors.unwrap_or(defaults.max_neighbors),
                    time_horizon: a.time_horizon.unwrap_or(defaults.time_horizon),
                    time_horizon_obst: a.time_horizon_obst.unwrap_or(defaults.time_horizon_obst),
                    radius: a.radius.unwrap_or(defaults.radius),
                    max_speed: a.max_speed.unwrap_or(defaults.max_speed),
                },
            })
            .collect::<Vec<_>>();
        let obstacles = file.obstacles.iter().map(|o| o.iter().copied().map(vec2).collect()).collect();
        let name = file
            .name
            .clone()
            .unwrap_or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        let frames = load_trajectory(dir, agents.len(), file.steps)?;
        Ok(ReferenceRun { name, time_step: file.time_step, defaults, agents, obstacles, steps: file.steps, frames })
    }

    /// A simulator set up as the recording's was before step 0 (agents at rest, obstacles
    /// processed). Fails if the scenario holds invalid values.
    pub fn simulator(&self) -> Result<Simulator, Error> {
        let mut sim = Simulator::new(self.time_step, self.defaults)?;
        for agent in &self.agents {
            sim.add_agent_with(agent.position, agent.params)?;
        }
        for polygon in &self.obstacles {
            sim.add_obstacle(polygon)?;
        }
        if !self.obstacles.is_empty() {
            sim.process_obstacles();
        }
        Ok(sim)
    }

    /// Replays the run: every step from its recorded state, then a free run from step 0.
    pub fn replay(&self) -> Result<ReplayReport, Error> {
        self.replay_with(InstructionSet::best_supported())
    }

    /// [`ReferenceRun::replay`] with the step's hot loops on `instructions` (see
    /// [`Simulator::set_instruction_set`]; an error if this CPU lacks it).
    pub fn replay_with(&self, instructions: InstructionSet) -> Result<ReplayReport, Error> {
        let mut report = ReplayReport {
            name: self.name.clone(),
            steps: self.steps,
            single_step_identical: 0,
            max_abs_diff: 0.0,
            free_run_identical_through: 0,
        };

        // Single steps. One simulator throughout, so that the agent tree's kept permutation
        // evolves from the recorded positions exactly as RVO2's did.
        let mut sim = self.simulator()?;
        sim.set_instruction_set(instructions)?;
        let ids: Vec<_> = sim.agent_ids().to_vec();
        for k in 0..self.steps {
            for (id, sample) in ids.iter().zip(&self.frames[k]) {
                sim.set_agent_position(*id, sample.position)?;
                sim.set_agent_velocity(*id, sample.velocity)?;
                sim.set_agent_pref_velocity(*id, sample.pref_velocity)?;
            }
            sim.step();
            let (identical, diff) = compare(&sim, &self.frames[k + 1]);
            report.max_abs_diff = report.max_abs_diff.max(diff);
            if identical {
                report.single_step_identical += 1;
            }
        }

        // Free run with the examples' preferred-velocity rule.
        let mut sim = self.simulator()?;
        sim.set_instruction_set(instructions)?;
        for k in 0..self.steps {
            for (i, id) in ids.iter().enumerate() {
                let pref = preferred_velocity_toward(self.agents[i].goal, sim.positions()[i]);
                sim.set_agent_pref_velocity(*id, pref)?;
            }
            sim.step();
            if compare(&sim, &self.frames[k + 1]).0 {
                report.free_run_identical_through = k + 1;
            } else {
                break;
            }
        }
        Ok(report)
    }
}

/// Whether positions and velocities equal `expected` bit for bit, and the largest difference.
fn compare(sim: &Simulator, expected: &[AgentSample]) -> (bool, f32) {
    let mut identical = true;
    let mut max_diff = 0.0f32;
    for ((p, v), e) in sim.positions().iter().zip(sim.velocities()).zip(expected) {
        for (a, b) in [(p.x, e.position.x), (p.y, e.position.y), (v.x, e.velocity.x), (v.y, e.velocity.y)] {
            if a.to_bits() != b.to_bits() {
                identical = false;
                max_diff = max_diff.max((a - b).abs());
            }
        }
    }
    (identical, max_diff)
}

fn load_trajectory(dir: &Path, agents: usize, steps: usize) -> Result<Vec<Vec<AgentSample>>, Error> {
    let plain = dir.join("trajectory.csv");
    let gz = dir.join("trajectory.csv.gz");
    let (path, reader): (PathBuf, Box<dyn Read>) = if plain.exists() {
        let f = std::fs::File::open(&plain).map_err(|source| Error::Io { path: plain.clone(), source })?;
        (plain, Box::new(f))
    } else {
        let f = std::fs::File::open(&gz).map_err(|source| Error::Io { path: gz.clone(), source })?;
        (gz, Box::new(flate2::read::GzDecoder::new(f)))
    };
    let parse_error = |line: usize, message: String| Error::Parse { path: path.clone(), line, message };
    // The rows are read before anything is sized by `steps` and `agents`: a recording holds a
    // row for each pair, so the file itself bounds them, and a scenario claiming 10^11 steps
    // is reported instead of aborting on a 2 TB allocation.
    let mut rows = Vec::new();
    for (n, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|source| Error::Io { path: path.clone(), source })?;
        if n == 0 {
            if line.trim() != "step,agent,px,py,vx,vy,pvx,pvy" {
                return Err(parse_error(1, format!("unexpected header {line:?}")));
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 8 {
            return Err(parse_error(n + 1, format!("expected 8 fields, got {}", fields.len())));
        }
        let step: usize = fields[0].trim().parse().map_err(|_| parse_error(n + 1, "bad step".into()))?;
        let agent: usize = fields[1].trim().parse().map_err(|_| parse_error(n + 1, "bad agent".into()))?;
        if step > steps || agent >= agents {
            return Err(parse_error(n + 1, format!("step {step} or agent {agent} out of range")));
        }
        let mut values = [0f32; 6];
        for (value, field) in values.iter_mut().zip(&fields[2..]) {
            *value = field.trim().parse().map_err(|_| parse_error(n + 1, format!("bad number {field:?}")))?;
        }
        let sample = AgentSample {
            position: Vec2::new(values[0], values[1]),
            velocity: Vec2::new(values[2], values[3]),
            pref_velocity: Vec2::new(values[4], values[5]),
        };
        rows.push((step, agent, sample));
    }
    let needed = steps.checked_add(1).and_then(|frames| frames.checked_mul(agents));
    if needed.map_or(true, |needed| needed > rows.len()) {
        // Some (step, agent) has no row: name the first, found from the sorted rows.
        let mut keys: Vec<u128> =
            rows.iter().map(|&(step, agent, _)| step as u128 * agents as u128 + agent as u128).collect();
        keys.sort_unstable();
        keys.dedup();
        let missing =
            keys.iter().enumerate().find(|&(i, &k)| k != i as u128).map_or(keys.len() as u128, |(i, _)| i as u128);
        let (step, agent) = (missing / agents as u128, missing % agents as u128);
        return Err(parse_error(0, format!("no row for step {step} agent {agent}")));
    }
    let mut frames = vec![vec![AgentSample::default(); agents]; steps + 1];
    let mut seen = vec![false; agents * (steps + 1)];
    for (step, agent, sample) in rows {
        frames[step][agent] = sample;
        seen[step * agents + agent] = true;
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(parse_error(0, format!("no row for step {} agent {}", missing / agents, missing % agents)));
    }
    Ok(frames)
}
