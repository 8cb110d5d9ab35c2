//! Playing a scenario: the [`Runner`] owns the simulator, goals, roadmap, spawners and sinks,
//! and each [`Runner::step`] applies the preferred-velocity rule and then steps, so the CLI,
//! the viewer and Python drive scenarios the same way.

use super::generate::{goal_of, sample, AgentSetup, SpawnerPlan};
use super::model::{Navigation, Scenario, StopRule};
use super::placed::near_box;
use super::route::Route;
use super::{InitialBall, Population};
use crate::geom::Aabb;
use crate::metrics::{Metrics, MetricsRecorder};
use crate::navigation::Roadmap;
use crate::orca::{Mover, MoverId, ObstacleId};
use crate::physics::{Ball, BroadPhaseKind, World};
use crate::reference::preferred_velocity_toward;
use crate::spatial::PolygonGrid;
use crate::{AgentId, Error, Simulator, Vec2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Spot attempts per spawn and step before the spawn waits for the next step.
pub(super) const SPAWN_ATTEMPTS: usize = 32;

/// From this many agents, preferred velocities by roadmap are found on every thread.
const PARALLEL_ROADMAP_PREFS: usize = 256;

/// How many agents a spawner owes by `time` (s): one at `start`, then one every `1 / rate`
/// seconds, at most `limit` (none before `start`, allowing a millionth of a second for
/// rounding). The planar and the 3-D spawners' rule.
pub(super) fn spawns_due(time: f32, start: f32, rate: f32, limit: usize) -> usize {
    if time + 1e-6 < start {
        return 0;
    }
    // A non-negative finite product (the reader checks rate and start); `as` saturates.
    (((time - start) * rate).floor() as usize + 1).min(limit)
}

#[derive(Clone, Debug)]
struct Spawner {
    plan: SpawnerPlan,
    rng: ChaCha8Rng,
    added: usize,
}

/// What the runner knows about each agent, indexed by agent id.
#[derive(Clone, Debug, Default)]
struct AgentInfo {
    goal: Vec<Vec2>,
    goal_index: Vec<u32>,
    group: Vec<u32>,
    radius: Vec<f32>,
    tolerance: Vec<f32>,
    remove_at_goal: Vec<bool>,
}

/// An obstacle that a run removed (its `remove_at`, [`super::ObstacleSpec::remove_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObstacleRemoval {
    /// The obstacle's index in the scenario's `obstacles` (file order).
    pub obstacle: usize,
    /// The first step run without it, which is also the first trajectory frame without it
    /// (frame k = after k steps): frames `0..frame` have it.
    pub frame: usize,
    /// The simulator's clock when it was removed (s): the start time of step `frame`.
    pub time: f32,
}

/// A scenario in progress.
///
/// ```
/// use swerve::scenario::{Runner, Scenario};
/// let scenario = Scenario::builtin("head-on")?;
/// let mut runner = Runner::new(&scenario)?;
/// while !runner.is_finished() {
///     runner.step();
/// }
/// let metrics = runner.metrics();
/// assert_eq!(metrics.never_arrived, 0);
/// # Ok::<(), swerve::Error>(())
/// ```
pub struct Runner {
    scenario: Scenario,
    groups: Vec<String>,
    sim: Simulator,
    info: AgentInfo,
    roadmap: Option<Roadmap>,
    roadmap_goals: GoalNumbers,
    spawners: Vec<Spawner>,
    perturbation: Option<(ChaCha8Rng, f32)>,
    balls: Vec<InitialBall>,
    world: Option<World>,
    /// The file's movers: simulator id, the mover now, its route when it flies one.
    movers: Vec<(MoverId, Mover, Option<Route>)>,
    /// Scratch: the movers' centres and radii for the metrics.
    mover_discs: Vec<(Vec2, f32)>,
    /// The simulator's mover for each ball, when agents avoid balls.
    ball_movers: Vec<MoverId>,
    ball_radii: Vec<f32>,
    ball_positions: Vec<Vec2>,
    max_steps: usize,
    steps: usize,
    recorder: MetricsRecorder,
    prefs: Vec<Vec2>,
    /// The obstacles present now, by grid cell: spawns keep clear of these.
    obstacle_grid: PolygonGrid,
    /// Obstacles still to remove: (step, index in the scenario, simulator id), in step order.
    pending_removals: Vec<(usize, usize, ObstacleId)>,
    /// With balls: the obstacles whose edges are walls of the ball world now (index in the
    /// scenario, number of edges), in the world's order of segments.
    ball_walls: Vec<(usize, usize)>,
    removals: Vec<ObstacleRemoval>,
    /// The roadmap's clearance (largest agent radius plus margin), to build it again when an
    /// obstacle goes.
    roadmap_clearance: f32,
    has_sinks: bool,
}

/// The distinct goals, numbered in the order first met (a roadmap's goals), with a hash
/// from goal to number: a crowd of 100,000 with goals of their own was numbered in 4 s by
/// searching the list.
#[derive(Clone, Debug, Default)]
struct GoalNumbers {
    goals: Vec<Vec2>,
    numbers: HashMap<[u32; 2], u32>,
}

impl GoalNumbers {
    /// The key of a goal (`+ 0.0` makes −0 and 0, which compare equal, one key).
    fn key(goal: Vec2) -> [u32; 2] {
        [(goal.x + 0.0).to_bits(), (goal.y + 0.0).to_bits()]
    }

    /// The number of `goal`, numbering it when new.
    fn number(&mut self, goal: Vec2) -> u32 {
        let next = self.goals.len() as u32;
        let number = *self.numbers.entry(Self::key(goal)).or_insert(next);
        if number == next {
            self.goals.push(goal);
        }
        number
    }

    /// The number of `goal`, when it has one.
    fn find(&self, goal: Vec2) -> Option<u32> {
        self.numbers.get(&Self::key(goal)).copied()
    }
}

impl Runner {
    /// Sets up the simulator: obstacles (removing at once those with `remove_at` due before
    /// the first step), agents present at time 0, the roadmap when the scenario navigates by
    /// roadmap, and the spawns due at time 0.
    pub fn new(scenario: &Scenario) -> Result<Runner, Error> {
        let problem = |p: super::Problem| Error::Scenario { file: scenario.name.clone(), problems: vec![p] };
        let Population { defaults, agents, spawners, groups } = scenario.population().map_err(problem)?;
        let balls = scenario.initial_balls().map_err(problem)?;
        let mut sim = Simulator::new(scenario.time_step, defaults)?;
        sim.set_extensions(scenario.extensions.to_extensions())?;
        let obstacles = scenario.obstacle_polygons();
        let mut pending_removals = Vec::new();
        for (k, (polygon, spec)) in obstacles.iter().zip(&scenario.obstacles).enumerate() {
            let id = sim.add_obstacle(polygon)?;
            if let Some(step) = spec.removal_step(scenario.time_step) {
                pending_removals.push((step, k, id));
            }
        }
        // Earliest first; the sort is stable, so obstacles due at one step go in file order.
        pending_removals.sort_by_key(|&(step, _, _)| step);
        sim.process_obstacles();
        let mut movers = Vec::with_capacity(scenario.movers.len());
        for m in &scenario.movers {
            let route = m.route();
            let (position, velocity) = m.start(route.as_ref(), scenario.time_step);
            let mover = Mover { position: position.truncate(), velocity: velocity.truncate(), radius: m.radius };
            movers.push((sim.add_mover(mover)?, mover, route));
        }

        // Roadmap goals: every distinct goal known up front (spawners' goals are points when
        // navigating by roadmap; the reader checks that).
        let mut roadmap_goals = GoalNumbers::default();
        let info = AgentInfo::default();
        let mut runner_agents = Vec::with_capacity(agents.len());
        for a in &agents {
            let index = roadmap_goals.number(a.goal);
            runner_agents.push((a.clone(), index));
        }
        for s in &spawners {
            if let super::GoalRule::Point(p) = s.spec.goal {
                roadmap_goals.number(Vec2::from(p));
            }
        }
        let max_radius = agents
            .iter()
            .map(|a| a.setup.params.radius)
            .chain(spawners.iter().map(|s| s.setup.params.radius))
            .fold(0.0f32, f32::max);
        let roadmap_clearance = max_radius + scenario.roadmap.margin;
        let roadmap = (scenario.navigation == Navigation::Roadmap).then(|| {
            let extra: Vec<Vec2> = scenario.roadmap.vertices.iter().map(|p| Vec2::from(*p)).collect();
            Roadmap::build(&sim, &roadmap_goals.goals, &extra, roadmap_clearance)
        });

        let mut ball_walls = Vec::new();
        let world = match &scenario.balls {
            Some(spec) => {
                let kind: BroadPhaseKind = spec.broad_phase.parse()?;
                let bounds = spec.bounds.map(|b| Aabb { min: Vec2::from(b.min), max: Vec2::from(b.max) });
                let mut world = World::new(bounds, kind);
                world.set_linear_damping(spec.linear_damping)?;
                world.set_gravity(Vec2::from(spec.gravity))?;
                world.set_solver_iterations(spec.solver_iterations)?;
                world.set_substeps(spec.substeps)?;
                for polygon in &obstacles {
                    world.add_polygon(polygon)?;
                }
                let edges = |p: &Vec<Vec2>| if p.len() == 2 { 1 } else { p.len() };
                ball_walls = obstacles.iter().map(edges).enumerate().collect();
                for b in &balls {
                    world.add_ball(Ball {
                        position: b.position,
                        velocity: b.velocity,
                        radius: b.radius,
                        mass: b.mass,
                        restitution: b.restitution,
                        friction: b.friction,
                        rolling_resistance: b.rolling_resistance,
                        angular_velocity: b.angular_velocity,
                        angle: 0.0,
                    })?;
                }
                Some(world)
            }
            None => None,
        };
        let mut runner = Runner {
            scenario: scenario.clone(),
            groups,
            sim,
            info,
            roadmap,
            roadmap_goals,
            spawners: spawners
                .into_iter()
                .map(|plan| Spawner { rng: ChaCha8Rng::seed_from_u64(plan.spec.seed), plan, added: 0 })
                .collect(),
            perturbation: scenario.perturbation.map(|p| (ChaCha8Rng::seed_from_u64(p.seed), p.magnitude)),
            world,
            movers,
            mover_discs: Vec::new(),
            ball_movers: Vec::new(),
            ball_radii: balls.iter().map(|b| b.radius).collect(),
            ball_positions: Vec::new(),
            balls,
            max_steps: scenario.steps,
            steps: 0,
            recorder: MetricsRecorder::new(&obstacles),
            prefs: Vec::new(),
            obstacle_grid: PolygonGrid::new(&obstacles),
            pending_removals,
            ball_walls,
            removals: Vec::new(),
            roadmap_clearance,
            has_sinks: scenario.spawn.iter().any(|s| s.remove_at_goal),
        };
        let avoid = scenario.balls.as_ref().is_some_and(|b| b.agents_avoid);
        if avoid && (!agents.is_empty() || !runner.spawners.is_empty()) {
            for b in &runner.balls {
                let id =
                    runner.sim.add_mover(Mover { position: b.position, velocity: b.velocity, radius: b.radius })?;
                runner.ball_movers.push(id);
            }
        }
        for (a, goal_index) in runner_agents {
            runner.add_agent(a.position, a.goal, goal_index, a.setup, a.group, false)?;
        }
        runner.remove_due_obstacles();
        runner.spawn_due();
        runner.observe(false);
        Ok(runner)
    }

    fn add_agent(
        &mut self,
        position: Vec2,
        goal: Vec2,
        goal_index: u32,
        setup: AgentSetup,
        group: u32,
        remove_at_goal: bool,
    ) -> Result<AgentId, Error> {
        let AgentSetup { params, max_acceleration, avoidance_layers, avoidance_mask } = setup;
        let id = self.sim.add_agent_with(position, params)?;
        if max_acceleration.is_finite() {
            self.sim.set_agent_max_acceleration(id, max_acceleration)?;
        }
        // A new agent starts on the default layer with the default mask (RVO2's "everyone
        // avoids everyone"); only other values are set.
        if avoidance_layers != crate::orca::DEFAULT_AVOIDANCE_LAYERS {
            self.sim.set_agent_avoidance_layers(id, avoidance_layers)?;
        }
        if avoidance_mask != crate::orca::DEFAULT_AVOIDANCE_MASK {
            self.sim.set_agent_avoidance_mask(id, avoidance_mask)?;
        }
        let k = id.0 as usize;
        let info = &mut self.info;
        // Ids are handed out in order, so each agent's slot is the next one.
        info.goal.resize(k + 1, Vec2::ZERO);
        info.goal_index.resize(k + 1, 0);
        info.group.resize(k + 1, 0);
        info.radius.resize(k + 1, 0.0);
        info.tolerance.resize(k + 1, 0.0);
        info.remove_at_goal.resize(k + 1, false);
        let tolerance = self.scenario.goal_tolerance.unwrap_or(params.radius);
        info.goal[k] = goal;
        info.goal_index[k] = goal_index;
        info.group[k] = group;
        info.radius[k] = params.radius;
        info.tolerance[k] = tolerance;
        info.remove_at_goal[k] = remove_at_goal;
        self.recorder.add_agent(id, group, position, goal, tolerance, self.sim.global_time());
        Ok(id)
    }

    /// Removes the obstacles whose removal step is the step about to run (`self.steps`), from
    /// the simulator, the metrics and the spawn checks, and builds the roadmap again without
    /// them. Runs before the frame of that time is observed, so frame `k` is the first
    /// without them (see [`ObstacleRemoval`]).
    fn remove_due_obstacles(&mut self) {
        let due = self.pending_removals.iter().take_while(|&&(step, _, _)| step <= self.steps).count();
        if due == 0 {
            return;
        }
        let time = self.sim.global_time();
        for (_, obstacle, id) in self.pending_removals.drain(..due) {
            // Each id was added in `new` and is removed only here, once, so it is live.
            let _ = self.sim.remove_obstacle(id);
            self.removals.push(ObstacleRemoval { obstacle, frame: self.steps, time });
            // The balls' walls go with it: its edges are the world's segments after those
            // of the obstacles before it that are still there.
            if let (Some(world), Some(k)) = (&mut self.world, self.ball_walls.iter().position(|w| w.0 == obstacle)) {
                let first: usize = self.ball_walls[..k].iter().map(|w| w.1).sum();
                let gone = first..first + self.ball_walls[k].1;
                world.retain_segments(|i, _| !gone.contains(&i));
                self.ball_walls.remove(k);
            }
        }
        let present = self.sim.obstacle_polygons();
        self.obstacle_grid = PolygonGrid::new(present);
        self.recorder.set_obstacles(present);
        if self.roadmap.is_some() {
            // The old roadmap routes around the removed obstacle's corners and misses the
            // passages it opened; the new one is what a scene without it would build.
            let extra: Vec<Vec2> = self.scenario.roadmap.vertices.iter().map(|p| Vec2::from(*p)).collect();
            self.roadmap = Some(Roadmap::build(&self.sim, &self.roadmap_goals.goals, &extra, self.roadmap_clearance));
        }
    }

    /// Adds the agents every spawner owes by now; a spawn whose random spot is taken by an
    /// agent (or an obstacle) waits for a later step.
    fn spawn_due(&mut self) {
        let time = self.sim.global_time();
        for k in 0..self.spawners.len() {
            let spec = &self.spawners[k].plan.spec;
            let due = spawns_due(time, spec.start, spec.rate, spec.limit);
            if self.spawners[k].added >= due {
                continue;
            }
            let (min, max) = (Vec2::from(spec.min), Vec2::from(spec.max));
            let radius = self.spawners[k].plan.setup.params.radius;
            // The agents a spawn could touch: one pass over the crowd, not one per try.
            let (ids, positions, info) = (self.sim.agent_ids(), self.sim.positions(), &self.info);
            let agents = ids.iter().zip(positions).map(|(id, &q)| (q, info.radius[id.0 as usize]));
            let mut near = near_box(agents, min, max, radius);
            while self.spawners[k].added < due {
                let spawner = &mut self.spawners[k];
                // Clear of the obstacles, the agents and the movers (a mover would not make way).
                let spot = (0..SPAWN_ATTEMPTS).map(|_| sample(&mut spawner.rng, min, max)).find(|&p| {
                    self.obstacle_grid.is_clear(p, radius)
                        && near.iter().all(|&(q, r)| q.distance(p) >= r + radius)
                        && self.movers.iter().all(|(_, m, _)| m.position.distance(p) >= m.radius + radius)
                });
                let Some(position) = spot else { break };
                near.push((position, radius));
                spawner.added += 1;
                let plan = spawner.plan.clone();
                let goal = goal_of(plan.spec.goal, position, (min + max) * 0.5);
                let goal_index = self.roadmap_goals.find(goal).unwrap_or(0);
                // Parameters were validated when the scenario was read, so adding cannot fail.
                if self.add_agent(position, goal, goal_index, plan.setup, plan.group, plan.spec.remove_at_goal).is_err()
                {
                    break;
                }
            }
        }
    }

    fn observe(&mut self, stepped: bool) {
        if let Some(world) = &self.world {
            self.ball_positions.clear();
            self.ball_positions.extend(world.balls().iter().map(|b| b.position));
            self.recorder.observe_balls(&self.ball_positions, &self.ball_radii, world.kinetic_energy());
            self.recorder.observe_agent_ball_contacts(
                self.sim.agent_ids(),
                self.sim.positions(),
                &self.info.radius,
                &self.ball_positions,
                &self.ball_radii,
            );
        }
        self.recorder.observe_agents(
            self.sim.global_time(),
            stepped,
            self.sim.agent_ids(),
            self.sim.positions(),
            self.sim.velocities(),
            &self.info.radius,
        );
        if !self.movers.is_empty() {
            self.mover_discs.clear();
            self.mover_discs.extend(self.movers.iter().map(|(_, m, _)| (m.position, m.radius)));
            let (ids, positions) = (self.sim.agent_ids(), self.sim.positions());
            self.recorder.observe_movers(ids, positions, &self.info.radius, &self.mover_discs);
        }
    }

    /// Sets every agent's preferred velocity by the scenario's rule, steps the simulator,
    /// removes the obstacles due at the new time (`remove_at`, see
    /// [`super::ObstacleSpec::removal_step`]), records metrics, removes agents that reached a
    /// sink and adds due spawns.
    pub fn step(&mut self) {
        self.prefs.clear();
        let (sim, info, roadmap) = (&self.sim, &self.info, &self.roadmap);
        let pref_of = |(id, &position): (&AgentId, &Vec2)| {
            let i = id.0 as usize;
            match roadmap {
                None => preferred_velocity_toward(info.goal[i], position),
                Some(roadmap) => roadmap.preferred_velocity(sim, position, info.radius[i], info.goal_index[i] as usize),
            }
        };
        let agents = sim.agent_ids().iter().zip(sim.positions());
        // A roadmap's rule asks visibility questions: worth both threads in a crowd.
        if roadmap.is_some() && agents.len() >= PARALLEL_ROADMAP_PREFS {
            use rayon::prelude::*;
            self.prefs.par_extend(sim.agent_ids().par_iter().zip(sim.positions()).map(pref_of));
        } else {
            self.prefs.extend(agents.map(pref_of));
        }
        if let Some((rng, magnitude)) = &mut self.perturbation {
            for pref in &mut self.prefs {
                // RVO2's Blocks/Roadmap: a random direction and a length up to `magnitude`,
                // drawn agent by agent in order.
                let angle = rng.random::<f32>() * std::f32::consts::TAU;
                let length = rng.random::<f32>() * *magnitude;
                *pref += length * Vec2::new(angle.cos(), angle.sin());
            }
        }
        // Same length as the agent list and finite (goals and positions are finite), so this
        // cannot fail; ignoring the Result keeps the step panic-free either way.
        let _ = self.sim.set_pref_velocities(&self.prefs);
        if let Some(world) = &self.world {
            // Agents see each ball where it is at the start of the step, moving on at its
            // velocity (the world's balls are finite: it validates them and never panics).
            for (id, ball) in self.ball_movers.iter().zip(world.balls()) {
                let _ = self
                    .sim
                    .set_mover(*id, Mover { position: ball.position, velocity: ball.velocity, radius: ball.radius });
            }
        }
        self.sim.step();
        if let Some(world) = &mut self.world {
            world.step(self.scenario.time_step);
        }
        // The file's movers fly on (as in a 3-D crowd file: a route places its mover by the
        // time flown, with the velocity of its next step; a straight one moves by its
        // velocity).
        let dt = self.scenario.time_step;
        let time = (self.steps + 1) as f64 * f64::from(dt);
        for (id, mover, route) in &mut self.movers {
            match route {
                Some(route) => {
                    let (position, velocity) = route.over_step(time, dt);
                    (mover.position, mover.velocity) = (position.truncate(), velocity.truncate());
                }
                None => mover.position += mover.velocity * dt,
            }
            // Finite for any run the file could ask for, else the mover stays where it was.
            let _ = self.sim.set_mover(*id, *mover);
        }
        self.steps += 1;
        self.remove_due_obstacles();
        self.observe(true);
        if self.has_sinks {
            let leaving: Vec<AgentId> = self
                .sim
                .agent_ids()
                .iter()
                .copied()
                .filter(|id| self.info.remove_at_goal[id.0 as usize] && self.recorder.has_arrived(*id))
                .collect();
            for id in leaving {
                // The id is live (just read from the simulator), so removal cannot fail.
                let _ = self.sim.remove_agent(id);
            }
        }
        self.spawn_due();
    }

    /// The file's movers as they are now (`[[movers]]`, in file order).
    pub fn movers(&self) -> impl ExactSizeIterator<Item = Mover> + '_ {
        self.movers.iter().map(|&(_, m, _)| m)
    }

    /// Whether the run is over: the step limit is reached, or (with `stop = "all-at-goal"`)
    /// every agent is within its goal tolerance and no spawner has agents left to add.
    pub fn is_finished(&self) -> bool {
        self.steps >= self.max_steps || (self.scenario.stop == StopRule::AllAtGoal && self.all_at_goal())
    }

    /// Whether every present agent is within its goal tolerance and every spawner is done.
    pub fn all_at_goal(&self) -> bool {
        let spawners_done = self.spawners.iter().all(|s| s.added >= s.plan.spec.limit);
        spawners_done
            && self.sim.agent_ids().iter().zip(self.sim.positions()).all(|(id, p)| {
                let i = id.0 as usize;
                p.distance_squared(self.info.goal[i]) <= self.info.tolerance[i] * self.info.tolerance[i]
            })
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The simulator (positions, velocities, ids, obstacles, half-planes…).
    pub fn simulator(&self) -> &Simulator {
        &self.sim
    }

    /// Whether the simulator keeps every agent's decision for inspection (neighbours,
    /// half-planes): see [`Simulator::set_record_decisions`].
    pub fn set_record_decisions(&mut self, record: bool) {
        self.sim.set_record_decisions(record);
    }

    /// Steps run so far.
    pub fn steps_done(&self) -> usize {
        self.steps
    }

    /// The step limit.
    pub fn max_steps(&self) -> usize {
        self.max_steps
    }

    /// Changes the step limit (the CLI's `--steps`).
    pub fn set_max_steps(&mut self, steps: usize) {
        self.max_steps = steps;
    }

    /// Group names; [`Runner::group`] indexes into this.
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// The goal of agent `id` (also for removed agents); `None` for an unknown id.
    pub fn goal(&self, id: AgentId) -> Option<Vec2> {
        self.info.goal.get(id.0 as usize).copied()
    }

    /// The way agent `id` means to walk from where it is now ([`Roadmap::route`]: its
    /// position, the roadmap's waypoints, its goal); empty without a roadmap, for an agent
    /// not present, or one that sees no vertex.
    pub fn route(&self, id: AgentId) -> Vec<Vec2> {
        let (Some(roadmap), Ok(position)) = (&self.roadmap, self.sim.agent_position(id)) else { return Vec::new() };
        let i = id.0 as usize;
        roadmap.route(&self.sim, position, self.info.radius[i], self.info.goal_index[i] as usize)
    }

    /// The group index of agent `id`.
    pub fn group(&self, id: AgentId) -> Option<u32> {
        self.info.group.get(id.0 as usize).copied()
    }

    /// The radius of agent `id` (m).
    pub fn radius(&self, id: AgentId) -> Option<f32> {
        self.info.radius.get(id.0 as usize).copied()
    }

    /// The obstacles removed so far, in the order they went (see [`ObstacleRemoval`]).
    pub fn obstacle_removals(&self) -> &[ObstacleRemoval] {
        &self.removals
    }

    /// The roadmap, when navigating by roadmap (built again whenever an obstacle goes).
    pub fn roadmap(&self) -> Option<&Roadmap> {
        self.roadmap.as_ref()
    }

    /// The balls at time 0.
    pub fn initial_balls(&self) -> &[InitialBall] {
        &self.balls
    }

    /// The physics world, mutably (to switch its broad phase), when the scene has balls.
    pub fn world_mut(&mut self) -> Option<&mut World> {
        self.world.as_mut()
    }

    /// The physics world, when the scene has balls.
    pub fn world(&self) -> Option<&World> {
        self.world.as_ref()
    }

    /// The metrics so far.
    pub fn metrics(&self) -> Metrics {
        self.recorder.metrics()
    }
}
