//! Playing a 3-D crowd scenario: the [`Crowd3dRunner`] owns the [`Simulator`] a
//! [`Crowd3dScenario`] describes, sets each agent's preferred velocity toward its goal every
//! step (RVO2-3D's examples' rule), flies the movers, takes obstacles away when their
//! `remove_at` comes, adds the spawners' agents and takes away the sinks', and keeps the
//! run's [`Crowd3dMetrics`].

use super::crowd3d::Crowd3dScenario;
use super::crowd3d_generate::{AgentSetup3d, Obstacle3d, Spawner3dPlan};
use super::placed::near_box;
use super::route::Route;
use super::runner::{spawns_due, SPAWN_ATTEMPTS};
use super::{Navigation, StopRule};
use crate::metrics::{pair_sweep, PairScratch, OVERLAP_TOLERANCE};
use crate::navigation3d::Roadmap3d;
use crate::orca3d::{Mover, MoverId, ObstacleId, Simulator, Vec3};
use crate::physics3d::Aabb3;
use crate::reference::preferred_velocity_toward3d;
use crate::AgentId;
use crate::Error;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Summary of a 3-D crowd run (the planar [`crate::metrics::Metrics`]' counterpart).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crowd3dMetrics {
    /// Steps run.
    pub steps: usize,
    /// Simulated time (s).
    pub simulated_time: f32,
    /// Agents that took part (spawned and removed ones included).
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

/// Per agent (by id), what the runner and the metrics follow.
#[derive(Clone, Debug)]
struct Track {
    start: Vec3,
    goal: Vec3,
    tolerance: f32,
    radius: f32,
    group: u32,
    /// A sink's agent: it leaves the crowd once it reaches its goal.
    remove_at_goal: bool,
    /// When it came (s).
    appeared: f32,
    /// When it first came within its goal tolerance (s).
    arrival: Option<f32>,
    /// Its goal's number in the roadmap (0 without one).
    route: usize,
    path_length: f64,
    last: Vec3,
}

/// A spawner in progress.
struct Spawner {
    plan: Spawner3dPlan,
    rng: ChaCha8Rng,
    added: usize,
}

/// A 3-D crowd scenario in progress (the 3-D counterpart of [`super::Runner`]).
///
/// Agent ids count up from 0 in the order agents are added and are never reused: the agents
/// of [`Crowd3dScenario::population`] first, then the spawners' as they come.
pub struct Crowd3dRunner {
    scenario: Crowd3dScenario,
    sim: Simulator,
    obstacles: Vec<Obstacle3d>,
    /// The obstacles still there, by a grid over their bounds (the clearance metric's).
    obstacle_index: ObstacleIndex,
    /// Each obstacle's simulator id and the step before which it goes (`None`: stays, or gone).
    obstacle_ids: Vec<(ObstacleId, Option<usize>)>,
    /// Each mover's simulator id, its state now, and its route when it flies one.
    movers: Vec<(MoverId, Mover, Option<Route>)>,
    groups: Vec<String>,
    spawners: Vec<Spawner>,
    /// The agents at time 0 and every spawner's limit, added up.
    max_agents: usize,
    /// By agent id.
    tracks: Vec<Track>,
    /// With `navigation = "roadmap"`: the roadmap, built again whenever an obstacle goes.
    roadmap: Option<Roadmap3d>,
    /// The roadmap's clearance (the largest agent radius plus the margin) and edge spacing.
    roadmap_clearance: f32,
    roadmap_spacing: f32,
    prefs: Vec<Vec3>,
    /// The present agents' radii, in agent order (scratch of the metrics).
    radii: Vec<f32>,
    pairs: PairScratch,
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
        let roadmap_clearance = scenario.roadmap.clearance(population.largest_radius());
        let mut sim = Simulator::new(scenario.time_step, AgentSetup3d::library().params)?;
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
            let route = m.route();
            let (position, velocity) = m.start(route.as_ref(), scenario.time_step);
            let mover = Mover { position, velocity, radius: m.radius };
            movers.push((sim.add_mover(mover)?, mover, route));
        }
        let spawners = population
            .spawners
            .into_iter()
            .map(|plan| Spawner { rng: ChaCha8Rng::seed_from_u64(plan.spec.seed), plan, added: 0 })
            .collect::<Vec<_>>();
        let max_agents = population.agents.len() + spawners.iter().map(|s| s.plan.spec.limit).sum::<usize>();
        let roadmap_spacing = scenario.roadmap.spacing(roadmap_clearance);
        let roadmap = match scenario.navigation {
            Navigation::Roadmap => Some(Self::roadmap_for(&sim, scenario, roadmap_clearance, roadmap_spacing)?),
            Navigation::Straight => None,
        };
        let mut runner = Crowd3dRunner {
            scenario: scenario.clone(),
            sim,
            obstacle_index: ObstacleIndex::new(&obstacles, (0..obstacles.len()).collect(), roadmap_clearance),
            obstacles,
            obstacle_ids,
            movers,
            groups: population.groups,
            spawners,
            max_agents,
            prefs: Vec::new(),
            tracks: Vec::new(),
            roadmap,
            roadmap_clearance,
            roadmap_spacing,
            radii: Vec::new(),
            pairs: PairScratch::default(),
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
        if let Some(roadmap) = &mut runner.roadmap {
            // Every goal of time 0 at once, on both threads; `add_agent` then finds them.
            let goals: Vec<Vec3> = population.agents.iter().map(|a| a.goal).collect();
            roadmap.add_goals(&runner.sim, &goals)?;
        }
        for a in &population.agents {
            runner.add_agent(a.position, a.goal, a.setup, a.group, false)?;
        }
        runner.remove_due_obstacles();
        runner.spawn_due();
        runner.observe(false);
        Ok(runner)
    }

    fn add_agent(
        &mut self,
        position: Vec3,
        goal: Vec3,
        setup: AgentSetup3d,
        group: u32,
        remove_at_goal: bool,
    ) -> Result<AgentId, Error> {
        let route = match &mut self.roadmap {
            Some(roadmap) => roadmap.add_goal(&self.sim, goal)?,
            None => 0,
        };
        let sim = &mut self.sim;
        let id = sim.add_agent_with(position, setup.params)?;
        if let Some(horizon) = setup.obstacle_time_horizon {
            sim.set_agent_obstacle_time_horizon(id, horizon)?;
        }
        if setup.max_acceleration.is_finite() {
            sim.set_agent_max_acceleration(id, setup.max_acceleration)?;
        }
        // A new agent is on the default layer with the default mask; only others are set.
        if setup.avoidance_layers != crate::orca::DEFAULT_AVOIDANCE_LAYERS {
            sim.set_agent_avoidance_layers(id, setup.avoidance_layers)?;
        }
        if setup.avoidance_mask != crate::orca::DEFAULT_AVOIDANCE_MASK {
            sim.set_agent_avoidance_mask(id, setup.avoidance_mask)?;
        }
        // Ids are handed out in order from 0, so the agent's track is the next one.
        debug_assert_eq!(id.0 as usize, self.tracks.len());
        self.tracks.push(Track {
            start: position,
            goal,
            tolerance: self.scenario.goal_tolerance.unwrap_or(setup.params.radius),
            radius: setup.params.radius,
            group,
            remove_at_goal,
            appeared: sim.global_time(),
            arrival: None,
            route,
            path_length: 0.0,
            last: position,
        });
        Ok(id)
    }

    /// Adds the agents every spawner owes by now; a spawn whose random spot is taken by an
    /// agent or an obstacle waits for a later step.
    fn spawn_due(&mut self) {
        let time = self.sim.global_time();
        for k in 0..self.spawners.len() {
            let spec = &self.spawners[k].plan.spec;
            let due = spawns_due(time, spec.start, spec.rate, spec.limit);
            if self.spawners[k].added >= due {
                continue;
            }
            let (min, max) = (Vec3::from(spec.min), Vec3::from(spec.max));
            let radius = self.spawners[k].plan.setup.params.radius;
            // The agents a spawn could touch: one pass over the crowd, not one per try.
            let (ids, positions, tracks) = (self.sim.agent_ids(), self.sim.positions(), &self.tracks);
            let agents = ids.iter().zip(positions).map(|(id, &q)| (q, tracks[id.0 as usize].radius));
            let mut near = near_box(agents, min, max, radius);
            while self.spawners[k].added < due {
                let spawner = &mut self.spawners[k];
                let (obstacles, obstacle_ids) = (&self.obstacles, &self.obstacle_ids);
                let (sim, movers) = (&self.sim, &self.movers);
                // Clear of the obstacles, the agents and the movers (a mover would not make way).
                let clear = |p: Vec3| {
                    let r = f64::from(radius);
                    let obstacle_clear = obstacles.iter().zip(obstacle_ids).all(|(o, (id, _))| {
                        sim.obstacle(*id).is_err() || o.bounds_distance(p) >= r || o.distance(p) >= r
                    });
                    obstacle_clear
                        && near.iter().all(|&(q, r)| q.distance(p) >= r + radius)
                        && movers.iter().all(|(_, m, _)| m.position.distance(p) >= m.radius + radius)
                };
                let mut sample = || {
                    let axis =
                        |rng: &mut ChaCha8Rng, lo: f32, hi: f32| if hi > lo { rng.random_range(lo..hi) } else { lo };
                    let rng = &mut spawner.rng;
                    Vec3::new(axis(rng, min.x, max.x), axis(rng, min.y, max.y), axis(rng, min.z, max.z))
                };
                let Some(position) = (0..SPAWN_ATTEMPTS).map(|_| sample()).find(|&p| clear(p)) else { break };
                near.push((position, radius));
                spawner.added += 1;
                let plan = spawner.plan.clone();
                let goal = plan.spec.goal.goal_of(position, (min + max) * 0.5);
                // The parameters were checked when the file was read: adding cannot fail.
                if self.add_agent(position, goal, plan.setup, plan.group, plan.spec.remove_at_goal).is_err() {
                    break;
                }
            }
        }
    }

    /// Sets every agent's preferred velocity toward its goal (at most 1 m/s:
    /// [`preferred_velocity_toward3d`], or along the roadmap:
    /// [`Roadmap3d::preferred_velocity`]), steps the simulator, flies the movers on, removes
    /// the obstacles due at the new time and records the metrics.
    pub fn step(&mut self) {
        self.prefs.clear();
        let (sim, tracks) = (&self.sim, &self.tracks);
        let agents = sim.agent_ids().par_iter().zip(sim.positions());
        match &self.roadmap {
            // Each agent looks for the vertices it sees: worth both threads.
            Some(roadmap) => self.prefs.par_extend(agents.map_init(Vec::new, |scratch, (id, &p)| {
                let track = &tracks[id.0 as usize];
                roadmap.preferred_velocity_with(sim, p, track.radius, track.route, scratch)
            })),
            None => {
                self.prefs.par_extend(agents.map(|(id, &p)| preferred_velocity_toward3d(tracks[id.0 as usize].goal, p)))
            }
        }
        // One finite velocity per agent (goals and positions are finite): cannot fail, and
        // ignoring the Result keeps the step panic-free either way.
        let _ = self.sim.set_pref_velocities(&self.prefs);
        self.sim.step();
        let dt = self.scenario.time_step;
        // The time after this step, for the movers on routes (placed by the distance flown,
        // which does not drift, with the velocity of their next step); straight ones move on
        // by their velocity.
        let time = (self.steps + 1) as f64 * f64::from(dt);
        for (id, mover, route) in &mut self.movers {
            match route {
                Some(route) => (mover.position, mover.velocity) = route.over_step(time, dt),
                None => mover.position += mover.velocity * dt,
            }
            // Finite for any run the file could ask for, else the mover stays where it was.
            let _ = self.sim.set_mover(*id, *mover);
        }
        self.steps += 1;
        self.remove_due_obstacles();
        self.observe(true);
        // Sinks: agents that reached their goal leave (after the frame that saw them arrive).
        if self.tracks.iter().any(|t| t.remove_at_goal) {
            let ids = self.sim.agent_ids().iter().copied();
            let leaving: Vec<AgentId> = ids
                .filter(|id| {
                    let t = &self.tracks[id.0 as usize];
                    t.remove_at_goal && t.arrival.is_some()
                })
                .collect();
            for id in leaving {
                // Read from the simulator just now: live, so removal cannot fail.
                let _ = self.sim.remove_agent(id);
            }
        }
        self.spawn_due();
    }

    /// Removes the obstacles whose removal step is the next step to run, and builds the
    /// roadmap again without them (the old one would route round them).
    fn remove_due_obstacles(&mut self) {
        let mut removed = false;
        for (id, due) in &mut self.obstacle_ids {
            if due.is_some_and(|k| k <= self.steps) {
                // The id is live (removed once, then `due` is cleared).
                removed |= self.sim.remove_obstacle(*id).is_ok();
                *due = None;
            }
        }
        if removed {
            let present: Vec<usize> = (0..self.obstacles.len()).filter(|&k| self.obstacle_present(k)).collect();
            self.obstacle_index = ObstacleIndex::new(&self.obstacles, present, self.obstacle_index.cell);
        }
        if removed && self.roadmap.is_some() {
            // Fewer obstacles cannot make the build fail where it succeeded before, nor a
            // finite goal fail to be added; should they, the old roadmap stays.
            if let Ok(mut roadmap) =
                Self::roadmap_for(&self.sim, &self.scenario, self.roadmap_clearance, self.roadmap_spacing)
            {
                // The agents present (a sink's departed agents need no route).
                let ids = self.sim.agent_ids();
                let goals: Vec<Vec3> = ids.iter().map(|id| self.tracks[id.0 as usize].goal).collect();
                if let Ok(routes) = roadmap.add_goals(&self.sim, &goals) {
                    for (id, route) in ids.iter().zip(routes) {
                        self.tracks[id.0 as usize].route = route;
                    }
                    self.roadmap = Some(roadmap);
                }
            }
        }
    }

    /// The roadmap over the simulator's live obstacles, with the file's hand-placed vertices.
    fn roadmap_for(
        sim: &Simulator,
        scenario: &Crowd3dScenario,
        clearance: f32,
        spacing: f32,
    ) -> Result<Roadmap3d, Error> {
        let extra: Vec<Vec3> = scenario.roadmap.vertices.iter().map(|&v| Vec3::from(v)).collect();
        Roadmap3d::build(sim, &extra, clearance, spacing)
    }

    /// The roadmap, with `navigation = "roadmap"` (built again whenever an obstacle goes).
    pub fn roadmap(&self) -> Option<&Roadmap3d> {
        self.roadmap.as_ref()
    }

    /// The way agent `id` means to fly from where it is now ([`Roadmap3d::route`]: its
    /// position, the roadmap vertices, its goal); empty without a roadmap or for an agent not
    /// present.
    pub fn route(&self, id: AgentId) -> Vec<Vec3> {
        let (Some(roadmap), Ok(position)) = (&self.roadmap, self.sim.agent_position(id)) else { return Vec::new() };
        let track = &self.tracks[id.0 as usize];
        roadmap.route(&self.sim, position, track.radius, track.route)
    }

    /// Whether obstacle `k` (in [`Crowd3dRunner::obstacles`]' order) is still there.
    pub fn obstacle_present(&self, k: usize) -> bool {
        self.obstacle_ids.get(k).is_some_and(|&(id, _)| self.sim.obstacle(id).is_ok())
    }

    fn observe(&mut self, stepped: bool) {
        let time = self.sim.global_time();
        let positions = self.sim.positions();
        self.radii.clear();
        for ((id, &p), v) in self.sim.agent_ids().iter().zip(positions).zip(self.sim.velocities()) {
            let track = &mut self.tracks[id.0 as usize];
            self.radii.push(track.radius);
            if track.arrival.is_none() {
                track.path_length += f64::from(track.last.distance(p));
                if stepped {
                    self.speed_sum += f64::from(v.length());
                    self.speed_samples += 1;
                }
                if p.distance(track.goal) <= track.tolerance {
                    track.arrival = Some(time - track.appeared);
                }
            }
            if stepped {
                self.max_speed = self.max_speed.max(v.length());
            }
            track.last = p;
        }
        let (overlaps, deepest, closest) = pair_sweep(positions, &self.radii, &mut self.pairs);
        self.agent_overlaps += overlaps;
        self.max_agent_penetration = self.max_agent_penetration.max(deepest);
        self.min_separation = self.min_separation.min(closest);
        // Obstacles: each agent's smallest gap to those still there, in parallel. Only gaps
        // below the run's smallest so far (or below 0: overlaps) can change a metric, so once
        // there is one, each agent asks the grid for the obstacles within its radius plus
        // that gap: a few, instead of every obstacle (a city of 64 towers and 2,000 drones
        // spent more time here than in the step).
        if !self.obstacle_index.is_empty() {
            let reach = f64::from(self.min_obstacle_clearance.max(0.0));
            let (nearest, overlaps, deepest) =
                self.obstacle_index.gaps(&self.obstacles, positions, &self.radii, reach.is_finite().then_some(reach));
            self.min_obstacle_clearance = self.min_obstacle_clearance.min(nearest as f32);
            self.obstacle_overlaps += overlaps;
            self.max_obstacle_penetration = self.max_obstacle_penetration.max(deepest as f32);
        }
        for (_, mover, _) in &self.movers {
            for (&p, &radius) in positions.iter().zip(&self.radii) {
                let gap = p.distance(mover.position) - mover.radius - radius;
                self.min_mover_clearance = self.min_mover_clearance.min(gap);
                if -gap > OVERLAP_TOLERANCE {
                    self.mover_overlaps += 1;
                }
            }
        }
    }

    /// Whether the run is over: the step limit is reached, or (with `stop = "all-at-goal"`)
    /// every agent is within its goal tolerance and every spawner is done.
    pub fn is_finished(&self) -> bool {
        self.steps >= self.max_steps || (self.scenario.stop == StopRule::AllAtGoal && self.all_at_goal())
    }

    /// Whether every present agent is within its goal tolerance now and every spawner is done.
    pub fn all_at_goal(&self) -> bool {
        let spawners_done = self.spawners.iter().all(|s| s.added >= s.plan.spec.limit);
        let ids = self.sim.agent_ids().iter().zip(self.sim.positions());
        spawners_done
            && ids
                .map(|(id, p)| (&self.tracks[id.0 as usize], p))
                .all(|(t, p)| p.distance_squared(t.goal) <= t.tolerance * t.tolerance)
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

    /// Each present agent's goal, in agent order ([`Simulator::agent_ids`]).
    pub fn goals(&self) -> impl ExactSizeIterator<Item = Vec3> + '_ {
        self.sim.agent_ids().iter().map(|id| self.tracks[id.0 as usize].goal)
    }

    /// The goal of agent `id` (also of one that has left).
    pub fn goal(&self, id: AgentId) -> Option<Vec3> {
        self.tracks.get(id.0 as usize).map(|t| t.goal)
    }

    /// Group names, in order of first appearance.
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// Each present agent's group (an index into [`Crowd3dRunner::groups`]), in agent order.
    pub fn agent_groups(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.sim.agent_ids().iter().map(|id| self.tracks[id.0 as usize].group)
    }

    /// The group of agent `id` (also of one that has left).
    pub fn group(&self, id: AgentId) -> Option<u32> {
        self.tracks.get(id.0 as usize).map(|t| t.group)
    }

    /// Where agent `id` started (also one that has left).
    pub fn start(&self, id: AgentId) -> Option<Vec3> {
        self.tracks.get(id.0 as usize).map(|t| t.start)
    }

    /// The radius of agent `id` (also of one that has left).
    pub fn radius(&self, id: AgentId) -> Option<f32> {
        self.tracks.get(id.0 as usize).map(|t| t.radius)
    }

    /// How many agents have been added so far (ids `0..` this).
    pub fn agents_added(&self) -> usize {
        self.tracks.len()
    }

    /// The most agents the run can have in all: those at time 0 and every spawner's limit
    /// (ids stay below it).
    pub fn max_agents(&self) -> usize {
        self.max_agents
    }

    /// The scenario's static obstacles (boxes, then meshes), removed ones included (see
    /// [`Crowd3dRunner::obstacle_present`]).
    pub fn obstacles(&self) -> &[Obstacle3d] {
        &self.obstacles
    }

    /// The movers as they are now.
    pub fn movers(&self) -> impl ExactSizeIterator<Item = Mover> + '_ {
        self.movers.iter().map(|&(_, m, _)| m)
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

/// The static obstacles present, listed in the cells of a uniform grid that their bounds
/// overlap: which obstacles can be within a distance of a point, for the clearance metric.
struct ObstacleIndex {
    /// Cell edge (m).
    cell: f32,
    /// Each cell's obstacles (indices into the runner's obstacle list), by cell.
    cells: HashMap<[i32; 3], Vec<u32>>,
    /// The obstacles indexed (present), for the first look, which takes all of them.
    members: Vec<usize>,
}

/// An obstacle overlapping more cells than this is looked at by every query instead (a
/// floor or terrain far larger than the cells).
const MAX_CELLS_PER_OBSTACLE: usize = 4096;

impl ObstacleIndex {
    /// The grid over `members` of `obstacles`, with cells of about four times `scale` (the
    /// agents' largest radius and the roadmap margin: a query's box is about `2 × scale`
    /// wide) and at least 1 m.
    fn new(obstacles: &[Obstacle3d], members: Vec<usize>, scale: f32) -> ObstacleIndex {
        let cell = (4.0 * scale).max(1.0);
        let mut index = ObstacleIndex { cell, cells: HashMap::new(), members };
        let mut everywhere = Vec::new();
        for &k in &index.members {
            let range = index.range(&obstacles[k].bounds);
            if range.iter().map(|(lo, hi)| (hi - lo + 1) as usize).product::<usize>() > MAX_CELLS_PER_OBSTACLE {
                everywhere.push(k as u32);
                continue;
            }
            let [(x0, x1), (y0, y1), (z0, z1)] = range;
            for x in x0..=x1 {
                for y in y0..=y1 {
                    for z in z0..=z1 {
                        index.cells.entry([x, y, z]).or_default().push(k as u32);
                    }
                }
            }
        }
        // Under the farthest cell's key: a query that far out only looks at them once more.
        if !everywhere.is_empty() {
            index.cells.insert(EVERYWHERE, everywhere);
        }
        index
    }

    fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The inclusive cell ranges along x, y and z that `b` overlaps (saturating far out).
    fn range(&self, b: &Aabb3) -> [(i32, i32); 3] {
        let (lo, hi) = ((b.min / self.cell).floor().as_ivec3(), (b.max / self.cell).floor().as_ivec3());
        [(lo.x, hi.x), (lo.y, hi.y), (lo.z, hi.z)]
    }

    /// Over the agents at `positions` with `radii`: the smallest gap between an agent's
    /// surface and an obstacle, how many agent–obstacle pairs overlap by more than the
    /// tolerance, and the deepest overlap (m), counting only the gaps below `reach` when
    /// given (a gap of `reach` or more is then left out, and the smallest gap is infinite
    /// when every one is); every gap without it.
    fn gaps(&self, obstacles: &[Obstacle3d], positions: &[Vec3], radii: &[f32], reach: Option<f64>) -> (f64, u64, f64) {
        let gap_of = |candidates: &mut Vec<u32>, (&p, &radius): (&Vec3, &f32)| {
            let r = f64::from(radius);
            candidates.clear();
            let extent = Vec3::splat(reach.map_or(f32::INFINITY, |reach| (r + reach) as f32));
            let range = self.range(&Aabb3 { min: p - extent, max: p + extent });
            let cells = range.iter().map(|&(lo, hi)| i64::from(hi) - i64::from(lo) + 1).fold(1i64, i64::saturating_mul);
            // Far from every obstacle the box is large: then looking at them all is cheaper.
            match reach.filter(|_| extent.x.is_finite() && cells <= 64) {
                None => candidates.extend(self.members.iter().map(|&k| k as u32)),
                Some(_) => {
                    let [(x0, x1), (y0, y1), (z0, z1)] = range;
                    for x in x0..=x1 {
                        for y in y0..=y1 {
                            for z in z0..=z1 {
                                candidates.extend(self.cells.get(&[x, y, z]).into_iter().flatten());
                            }
                        }
                    }
                    candidates.extend(self.cells.get(&EVERYWHERE).into_iter().flatten());
                    candidates.sort_unstable();
                    candidates.dedup();
                }
            }
            let (mut nearest, mut overlaps, mut deepest) = (reach.unwrap_or(f64::INFINITY), 0u64, 0.0f64);
            for &k in candidates.iter() {
                let o = &obstacles[k as usize];
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
            // `nearest` started at the reach: a gap no smaller is no gap found.
            (if reach.is_some_and(|reach| nearest >= reach) { f64::INFINITY } else { nearest }, overlaps, deepest)
        };
        let merge = |a: (f64, u64, f64), b: (f64, u64, f64)| (a.0.min(b.0), a.1 + b.1, a.2.max(b.2));
        positions
            .par_iter()
            .zip(radii)
            .with_min_len(256)
            .map_init(Vec::new, gap_of)
            .reduce(|| (f64::INFINITY, 0, 0.0), merge)
    }
}

/// The key of [`ObstacleIndex`]'s obstacles that every query looks at.
const EVERYWHERE: [i32; 3] = [i32::MAX, i32::MAX, i32::MAX];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orca3d::Triangle;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The grid's answer equals a pass over every obstacle: the same overlaps and deepest
        /// overlap, and the same smallest gap among those below the reach.
        #[test]
        fn the_obstacle_index_finds_what_a_pass_over_every_obstacle_finds(
            boxes in prop::collection::vec((prop::array::uniform3(-30.0f32..30.0), prop::array::uniform3(0.1f32..20.0)), 0..12),
            corners in prop::collection::vec(prop::array::uniform3(-40.0f32..40.0), 0..12),
            agents in prop::collection::vec((prop::array::uniform3(-45.0f32..45.0), 0.1f32..3.0), 1..60),
            reach in prop::option::of(0.0f64..12.0),
            removed in prop::collection::vec(any::<bool>(), 16),
        ) {
            let mut obstacles: Vec<Obstacle3d> = boxes
                .iter()
                .map(|&(min, size)| {
                    let b = Aabb3 { min: Vec3::from(min), max: Vec3::from(min) + Vec3::from(size) };
                    Obstacle3d { key: String::new(), solid_box: Some(b), triangles: Vec::new(), bounds: b, remove_at: None }
                })
                .collect();
            for c in corners.chunks_exact(3) {
                if let Ok(t) = Triangle::new(Vec3::from(c[0]), Vec3::from(c[1]), Vec3::from(c[2])) {
                    let bounds = Aabb3 { min: t.a.min(t.b).min(t.c), max: t.a.max(t.b).max(t.c) };
                    obstacles.push(Obstacle3d { key: String::new(), solid_box: None, triangles: vec![t], bounds, remove_at: None });
                }
            }
            let members: Vec<usize> = (0..obstacles.len()).filter(|&k| !removed[k % removed.len()]).collect();
            let index = ObstacleIndex::new(&obstacles, members.clone(), 1.5);
            let positions: Vec<Vec3> = agents.iter().map(|&(p, _)| Vec3::from(p)).collect();
            let radii: Vec<f32> = agents.iter().map(|&(_, r)| r).collect();
            let (mut nearest, mut overlaps, mut deepest) = (f64::INFINITY, 0u64, 0.0f64);
            for (p, &r) in positions.iter().zip(&radii) {
                for &k in &members {
                    let gap = obstacles[k].distance(*p) - f64::from(r);
                    if reach.is_none_or(|reach| gap < reach) {
                        nearest = nearest.min(gap);
                    }
                    if -gap > f64::from(OVERLAP_TOLERANCE) {
                        overlaps += 1;
                        deepest = deepest.max(-gap);
                    }
                }
            }
            let found = index.gaps(&obstacles, &positions, &radii, reach);
            prop_assert_eq!(found, (nearest, overlaps, deepest));
        }
    }
}
