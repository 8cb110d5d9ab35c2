//! Playing a 3-D crowd scenario: the [`Crowd3dRunner`] owns the [`Simulator`] a
//! [`Crowd3dScenario`] describes, sets each agent's preferred velocity toward its goal every
//! step (RVO2-3D's examples' rule), flies the movers, takes obstacles away when their
//! `remove_at` comes, and keeps the run's [`Crowd3dMetrics`].

use super::crowd3d::{Crowd3dScenario, Obstacle3d};
use super::StopRule;
use crate::metrics::OVERLAP_TOLERANCE;
use crate::orca3d::{Mover, MoverId, ObstacleId, Simulator, Vec3};
use crate::reference::preferred_velocity_toward3d;
use crate::AgentId;
use crate::Error;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Summary of a 3-D crowd run (the planar [`crate::metrics::Metrics`]' counterpart).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crowd3dMetrics {
    /// Steps run.
    pub steps: usize,
    /// Simulated time (s).
    pub simulated_time: f32,
    /// Agents.
    pub agents: usize,
    /// Agents that came within their goal tolerance at some time.
    pub arrived: usize,
    /// Agents that never did.
    pub never_arrived: usize,
    /// Mean time to goal over arrived agents (s).
    pub time_to_goal_mean: Option<f32>,
    /// Largest time to goal (s).
    pub time_to_goal_max: Option<f32>,
    /// The tolerance used for overlap counts (m).
    pub overlap_tolerance: f32,
    /// Frame-pairs of overlapping agents.
    pub agent_overlaps: u64,
    /// Deepest agent-agent penetration (m; 0 when none).
    pub max_agent_penetration: f32,
    /// Smallest surface-to-surface gap between two agents over the run (m; negative when
    /// they overlapped; `None` with fewer than two agents).
    pub min_separation: Option<f32>,
    /// Frame-agent pairs overlapping a static obstacle.
    pub obstacle_overlaps: u64,
    /// Deepest agent-obstacle penetration (m).
    pub max_obstacle_penetration: f32,
    /// Smallest gap between an agent's surface and a static obstacle over the run (m;
    /// `None` without obstacles).
    pub min_obstacle_clearance: Option<f32>,
    /// Frame-agent pairs overlapping a mover.
    pub mover_overlaps: u64,
    /// Smallest gap between an agent's and a mover's surfaces over the run (m; `None`
    /// without movers).
    pub min_mover_clearance: Option<f32>,
    /// Mean path length over arrived agents (m).
    pub path_length_mean: Option<f32>,
    /// Mean of path length ÷ (straight-line distance − goal tolerance) over arrived agents
    /// that had somewhere to go (1 = straight line).
    pub path_length_ratio_mean: Option<f32>,
    /// Mean speed of agents on their way (not yet arrived), over all their frames (m/s).
    pub mean_speed: Option<f32>,
    /// The fastest any agent went (m/s).
    pub max_speed: f32,
}

/// Per agent, what the metrics follow.
#[derive(Clone, Debug)]
struct Track {
    start: Vec3,
    goal: Vec3,
    tolerance: f32,
    radius: f32,
    arrival: Option<f32>,
    path_length: f64,
    last: Vec3,
}

/// A 3-D crowd scenario in progress (the 3-D counterpart of [`super::Runner`]).
///
/// Agents are never added or removed during a run, so agent `i` of the simulator is agent
/// `i` of [`Crowd3dScenario::population`] throughout.
pub struct Crowd3dRunner {
    scenario: Crowd3dScenario,
    sim: Simulator,
    obstacles: Vec<Obstacle3d>,
    /// Each obstacle's simulator id and the step before which it goes (`None`: stays, or gone).
    obstacle_ids: Vec<(ObstacleId, Option<usize>)>,
    movers: Vec<(MoverId, Mover)>,
    groups: Vec<String>,
    group_of: Vec<u32>,
    tracks: Vec<Track>,
    prefs: Vec<Vec3>,
    order: Vec<u32>,
    steps: usize,
    max_steps: usize,
    // Metric sums and extremes.
    agent_overlaps: u64,
    max_agent_penetration: f32,
    min_separation: f32,
    obstacle_overlaps: u64,
    max_obstacle_penetration: f32,
    min_obstacle_clearance: f32,
    mover_overlaps: u64,
    min_mover_clearance: f32,
    speed_sum: f64,
    speed_samples: u64,
    max_speed: f32,
}

impl Crowd3dRunner {
    /// Builds the simulator at time 0: obstacles (boxes, then meshes), movers, then the
    /// agents in [`Crowd3dScenario::population`]'s order. Errors are the scenario's own
    /// (values a checked file cannot have).
    pub fn new(scenario: &Crowd3dScenario) -> Result<Crowd3dRunner, Error> {
        let problem = |p: super::Problem| Error::Scenario { file: scenario.name.clone(), problems: vec![p] };
        let obstacles = scenario.obstacles().map_err(problem)?;
        let population = scenario.population(&obstacles).map_err(problem)?;
        let mut sim = Simulator::new(scenario.time_step, super::crowd3d::AgentSetup3d::library().params)?;
        sim.set_extensions(scenario.crowd3d.extensions.to_extensions3d())?;
        let mut obstacle_ids = Vec::with_capacity(obstacles.len());
        for o in &obstacles {
            let id = match o.solid_box {
                Some(b) => sim.add_box_obstacle(b.min, b.max)?,
                None => {
                    let spec = &scenario.crowd3d.mesh[obstacle_ids.len() - scenario.crowd3d.boxes.len()];
                    let vertices: Vec<Vec3> = spec.vertices.iter().map(|&v| Vec3::from(v)).collect();
                    sim.add_obstacle(&vertices, &spec.triangles)?
                }
            };
            obstacle_ids.push((id, o.removal_step(scenario.time_step)));
        }
        let mut movers = Vec::with_capacity(scenario.crowd3d.mover.len());
        for m in &scenario.crowd3d.mover {
            let mover = Mover { position: Vec3::from(m.position), velocity: Vec3::from(m.velocity), radius: m.radius };
            movers.push((sim.add_mover(mover)?, mover));
        }
        let mut tracks = Vec::with_capacity(population.agents.len());
        let mut group_of = Vec::with_capacity(population.agents.len());
        for a in &population.agents {
            let s = a.setup;
            let id = sim.add_agent_with(a.position, s.params)?;
            if let Some(horizon) = s.obstacle_time_horizon {
                sim.set_agent_obstacle_time_horizon(id, horizon)?;
            }
            if s.max_acceleration.is_finite() {
                sim.set_agent_max_acceleration(id, s.max_acceleration)?;
            }
            if s.avoidance_layers != crate::orca::DEFAULT_AVOIDANCE_LAYERS {
                sim.set_agent_avoidance_layers(id, s.avoidance_layers)?;
            }
            if s.avoidance_mask != crate::orca::DEFAULT_AVOIDANCE_MASK {
                sim.set_agent_avoidance_mask(id, s.avoidance_mask)?;
            }
            let tolerance = scenario.goal_tolerance.unwrap_or(s.params.radius);
            tracks.push(Track {
                start: a.position,
                goal: a.goal,
                tolerance,
                radius: s.params.radius,
                arrival: None,
                path_length: 0.0,
                last: a.position,
            });
            group_of.push(a.group);
        }
        let mut runner = Crowd3dRunner {
            scenario: scenario.clone(),
            sim,
            obstacles,
            obstacle_ids,
            movers,
            groups: population.groups,
            group_of,
            prefs: Vec::with_capacity(tracks.len()),
            tracks,
            order: Vec::new(),
            steps: 0,
            max_steps: scenario.steps,
            agent_overlaps: 0,
            max_agent_penetration: 0.0,
            min_separation: f32::INFINITY,
            obstacle_overlaps: 0,
            max_obstacle_penetration: 0.0,
            min_obstacle_clearance: f32::INFINITY,
            mover_overlaps: 0,
            min_mover_clearance: f32::INFINITY,
            speed_sum: 0.0,
            speed_samples: 0,
            max_speed: 0.0,
        };
        runner.remove_due_obstacles();
        runner.observe(false);
        Ok(runner)
    }

    /// Sets every agent's preferred velocity toward its goal (at most 1 m/s:
    /// [`preferred_velocity_toward3d`]), steps the simulator, flies the movers on, removes
    /// the obstacles due at the new time and records the metrics.
    pub fn step(&mut self) {
        self.prefs.clear();
        let goals = self.tracks.iter().map(|t| t.goal);
        self.prefs.extend(goals.zip(self.sim.positions()).map(|(g, &p)| preferred_velocity_toward3d(g, p)));
        // One finite velocity per agent (goals and positions are finite): cannot fail, and
        // ignoring the Result keeps the step panic-free either way.
        let _ = self.sim.set_pref_velocities(&self.prefs);
        self.sim.step();
        let dt = self.scenario.time_step;
        for (id, mover) in &mut self.movers {
            mover.position += mover.velocity * dt;
            // Finite for any run the file could ask for, else the mover stays where it was.
            let _ = self.sim.set_mover(*id, *mover);
        }
        self.steps += 1;
        self.remove_due_obstacles();
        self.observe(true);
    }

    /// Removes the obstacles whose removal step is the next step to run.
    fn remove_due_obstacles(&mut self) {
        for (id, due) in &mut self.obstacle_ids {
            if due.is_some_and(|k| k <= self.steps) {
                // The id is live (removed once, then `due` is cleared).
                let _ = self.sim.remove_obstacle(*id);
                *due = None;
            }
        }
    }

    /// Whether obstacle `k` (in [`Crowd3dRunner::obstacles`]' order) is still there.
    pub fn obstacle_present(&self, k: usize) -> bool {
        self.obstacle_ids.get(k).is_some_and(|&(id, _)| self.sim.obstacle(id).is_ok())
    }

    fn observe(&mut self, stepped: bool) {
        let time = self.sim.global_time();
        let positions = self.sim.positions();
        for ((track, &p), v) in self.tracks.iter_mut().zip(positions).zip(self.sim.velocities()) {
            if track.arrival.is_none() {
                track.path_length += f64::from(track.last.distance(p));
                if stepped {
                    self.speed_sum += f64::from(v.length());
                    self.speed_samples += 1;
                }
                if p.distance(track.goal) <= track.tolerance {
                    track.arrival = Some(time);
                }
            }
            if stepped {
                self.max_speed = self.max_speed.max(v.length());
            }
            track.last = p;
        }
        let (overlaps, deepest, closest) = pair_sweep(positions, &self.tracks, &mut self.order);
        self.agent_overlaps += overlaps;
        self.max_agent_penetration = self.max_agent_penetration.max(deepest);
        self.min_separation = self.min_separation.min(closest);
        // Obstacles: each agent's smallest gap to those still there, in parallel (a check, not
        // the hot path: agents × obstacles, with a bounding-box test before the triangles).
        let present: Vec<&Obstacle3d> =
            self.obstacles.iter().enumerate().filter(|(k, _)| self.obstacle_present(*k)).map(|(_, o)| o).collect();
        if !present.is_empty() {
            let gap_of = |(&p, track): (&Vec3, &Track)| {
                let r = f64::from(track.radius);
                let mut nearest = f64::INFINITY;
                let mut overlaps = 0u64;
                let mut deepest = 0.0f64;
                for o in &present {
                    if o.bounds_distance(p) - r >= nearest.max(0.0) {
                        continue;
                    }
                    let gap = o.distance(p) - r;
                    nearest = nearest.min(gap);
                    if -gap > f64::from(OVERLAP_TOLERANCE) {
                        overlaps += 1;
                        deepest = deepest.max(-gap);
                    }
                }
                (nearest, overlaps, deepest)
            };
            let merge = |a: (f64, u64, f64), b: (f64, u64, f64)| (a.0.min(b.0), a.1 + b.1, a.2.max(b.2));
            let (nearest, overlaps, deepest) = positions
                .par_iter()
                .zip(&self.tracks)
                .with_min_len(256)
                .map(gap_of)
                .reduce(|| (f64::INFINITY, 0, 0.0), merge);
            self.min_obstacle_clearance = self.min_obstacle_clearance.min(nearest as f32);
            self.obstacle_overlaps += overlaps;
            self.max_obstacle_penetration = self.max_obstacle_penetration.max(deepest as f32);
        }
        for (_, mover) in &self.movers {
            for (&p, track) in positions.iter().zip(&self.tracks) {
                let gap = p.distance(mover.position) - mover.radius - track.radius;
                self.min_mover_clearance = self.min_mover_clearance.min(gap);
                if -gap > OVERLAP_TOLERANCE {
                    self.mover_overlaps += 1;
                }
            }
        }
    }

    /// Whether the run is over: the step limit is reached, or (with `stop = "all-at-goal"`)
    /// every agent is within its goal tolerance.
    pub fn is_finished(&self) -> bool {
        self.steps >= self.max_steps || (self.scenario.stop == StopRule::AllAtGoal && self.all_at_goal())
    }

    /// Whether every agent is within its goal tolerance now.
    pub fn all_at_goal(&self) -> bool {
        let tracks = self.tracks.iter();
        tracks.zip(self.sim.positions()).all(|(t, p)| p.distance_squared(t.goal) <= t.tolerance * t.tolerance)
    }

    /// The metrics so far.
    pub fn metrics(&self) -> Crowd3dMetrics {
        let arrived: Vec<&Track> = self.tracks.iter().filter(|t| t.arrival.is_some()).collect();
        let times: Vec<f32> = arrived.iter().filter_map(|t| t.arrival).collect();
        let mean =
            |values: &[f64]| (!values.is_empty()).then(|| (values.iter().sum::<f64>() / values.len() as f64) as f32);
        let lengths: Vec<f64> = arrived.iter().map(|t| t.path_length).collect();
        let ratios: Vec<f64> = arrived
            .iter()
            .filter_map(|t| {
                let straight = f64::from(t.start.distance(t.goal) - t.tolerance);
                (straight > 0.0).then(|| (t.path_length / straight).max(1.0))
            })
            .collect();
        let times64: Vec<f64> = times.iter().map(|&t| f64::from(t)).collect();
        Crowd3dMetrics {
            steps: self.steps,
            simulated_time: self.sim.global_time(),
            agents: self.tracks.len(),
            arrived: arrived.len(),
            never_arrived: self.tracks.len() - arrived.len(),
            time_to_goal_mean: mean(&times64),
            time_to_goal_max: times.iter().copied().reduce(f32::max),
            overlap_tolerance: OVERLAP_TOLERANCE,
            agent_overlaps: self.agent_overlaps,
            max_agent_penetration: self.max_agent_penetration,
            min_separation: self.min_separation.is_finite().then_some(self.min_separation),
            obstacle_overlaps: self.obstacle_overlaps,
            max_obstacle_penetration: self.max_obstacle_penetration,
            min_obstacle_clearance: self.min_obstacle_clearance.is_finite().then_some(self.min_obstacle_clearance),
            mover_overlaps: self.mover_overlaps,
            min_mover_clearance: self.min_mover_clearance.is_finite().then_some(self.min_mover_clearance),
            path_length_mean: mean(&lengths),
            path_length_ratio_mean: mean(&ratios),
            mean_speed: (self.speed_samples > 0).then(|| (self.speed_sum / self.speed_samples as f64) as f32),
            max_speed: self.max_speed,
        }
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Crowd3dScenario {
        &self.scenario
    }

    /// The simulator.
    pub fn simulator(&self) -> &Simulator {
        &self.sim
    }

    /// Records what every agent saw and decided ([`Simulator::set_record_decisions`]; the
    /// viewer's inspector reads it).
    pub fn set_record_decisions(&mut self, record: bool) {
        self.sim.set_record_decisions(record);
    }

    /// Each agent's goal, in agent order.
    pub fn goals(&self) -> impl ExactSizeIterator<Item = Vec3> + '_ {
        self.tracks.iter().map(|t| t.goal)
    }

    /// The goal of agent `id`.
    pub fn goal(&self, id: AgentId) -> Option<Vec3> {
        self.tracks.get(id.0 as usize).map(|t| t.goal)
    }

    /// Group names, in order of first appearance.
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// Each agent's group (an index into [`Crowd3dRunner::groups`]), in agent order.
    pub fn agent_groups(&self) -> &[u32] {
        &self.group_of
    }

    /// The scenario's static obstacles (boxes, then meshes), removed ones included (see
    /// [`Crowd3dRunner::obstacle_present`]).
    pub fn obstacles(&self) -> &[Obstacle3d] {
        &self.obstacles
    }

    /// The movers as they are now.
    pub fn movers(&self) -> impl ExactSizeIterator<Item = Mover> + '_ {
        self.movers.iter().map(|&(_, m)| m)
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
}

/// Overlapping pairs beyond [`OVERLAP_TOLERANCE`], the deepest penetration and the smallest
/// gap between agents' surfaces: a sweep along x over the agents sorted into `order`.
fn pair_sweep(positions: &[Vec3], tracks: &[Track], order: &mut Vec<u32>) -> (u64, f32, f32) {
    order.clear();
    order.extend(0..positions.len() as u32);
    order.sort_unstable_by(|&a, &b| positions[a as usize].x.total_cmp(&positions[b as usize].x));
    let r_max = tracks.iter().map(|t| t.radius).fold(0.0f32, f32::max);
    let (mut overlaps, mut deepest, mut closest) = (0u64, 0.0f32, f32::INFINITY);
    for (k, &i) in order.iter().enumerate() {
        let (pi, ri) = (positions[i as usize], tracks[i as usize].radius);
        for &j in &order[k + 1..] {
            let pj = positions[j as usize];
            // Beyond this x distance no later sphere can overlap or beat the smallest gap.
            if pj.x - pi.x - ri - r_max > closest.max(0.0) {
                break;
            }
            let gap = pi.distance(pj) - (ri + tracks[j as usize].radius);
            closest = closest.min(gap);
            if -gap > OVERLAP_TOLERANCE {
                overlaps += 1;
                deepest = deepest.max(-gap);
            }
        }
    }
    (overlaps, deepest, closest)
}
