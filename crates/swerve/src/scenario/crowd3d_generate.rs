//! Expanding a 3-D crowd scenario ([`Crowd3dScenario`]): its obstacles as the simulator takes
//! them, the agents its entries and generators make, and the placement checks (an agent
//! starting inside an obstacle, a goal that cannot be reached) — the planar `generate.rs` in
//! three dimensions.

use super::crowd3d::{Crowd3dScenario, GoalRule3d, Spawn3dGenerator};
use super::generate::group_index;
use super::model::{Navigation, ParamOverrides};
use super::placed::Placed;
use super::Problem;
use crate::navigation3d;
use crate::orca3d::{AgentParams, Triangle, Vec3};
use crate::physics3d::Aabb3;
use crate::Error;
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A spawner with its resolved parameters (see [`Crowd3dPopulation::spawners`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Spawner3dPlan {
    /// The spawner as written.
    pub spec: Spawn3dGenerator,
    /// Parameters and options of its agents.
    pub setup: AgentSetup3d,
    /// Index into [`Crowd3dPopulation::groups`].
    pub group: u32,
}

/// A static obstacle of a 3-D crowd scenario, in the order the runner adds them: the boxes,
/// then the meshes.
#[derive(Clone, Debug, PartialEq)]
pub struct Obstacle3d {
    /// Its key path (`crowd3d.box[2]`), for messages.
    pub key: String,
    /// The box, for a `[[crowd3d.box]]` entry.
    pub solid_box: Option<Aabb3>,
    /// Its triangles (a box's 12).
    pub triangles: Vec<Triangle>,
    /// Its bounding box.
    pub bounds: Aabb3,
    /// When it goes away, as written.
    pub remove_at: Option<f32>,
}

impl Obstacle3d {
    /// The distance from `p` to the obstacle: 0 inside a box, else to its nearest point
    /// (`f64`, as [`Triangle::closest_point`]).
    pub fn distance(&self, p: Vec3) -> f64 {
        match self.solid_box {
            Some(b) => {
                let p = p.as_dvec3();
                p.distance(p.clamp(b.min.as_dvec3(), b.max.as_dvec3()))
            }
            None => {
                let q = p.as_dvec3();
                self.triangles.iter().map(|t| t.closest_point(q).distance(q)).fold(f64::INFINITY, f64::min)
            }
        }
    }

    /// The distance from `p` to the obstacle's bounding box (0 inside it): a lower bound of
    /// [`Obstacle3d::distance`].
    pub fn bounds_distance(&self, p: Vec3) -> f64 {
        let p: DVec3 = p.as_dvec3();
        p.distance(p.clamp(self.bounds.min.as_dvec3(), self.bounds.max.as_dvec3()))
    }

    /// The index `k` of the first step run without the obstacle (see
    /// [`super::ObstacleSpec::removal_step`]); `None` when it stays.
    pub fn removal_step(&self, time_step: f32) -> Option<usize> {
        self.remove_at.map(|at| super::model::removal_step(at, time_step))
    }
}

/// What the simulator is told of a 3-D agent besides its position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentSetup3d {
    /// Parameters.
    pub params: AgentParams,
    /// Obstacle time horizon (s; `None`: the time horizon).
    pub obstacle_time_horizon: Option<f32>,
    /// Maximum acceleration (m/s²; `f32::INFINITY`: unlimited).
    pub max_acceleration: f32,
    /// Avoidance layers.
    pub avoidance_layers: u32,
    /// Avoidance mask.
    pub avoidance_mask: u32,
}

impl AgentSetup3d {
    /// The library's defaults: RVO2-3D's Sphere example's parameters, no limits, layer 1,
    /// mask 1.
    pub fn library() -> AgentSetup3d {
        AgentSetup3d {
            params: AgentParams::default(),
            obstacle_time_horizon: None,
            max_acceleration: f32::INFINITY,
            avoidance_layers: crate::orca::DEFAULT_AVOIDANCE_LAYERS,
            avoidance_mask: crate::orca::DEFAULT_AVOIDANCE_MASK,
        }
    }

    /// This setup with the keys present in `o` replaced.
    pub fn with(&self, o: &ParamOverrides) -> AgentSetup3d {
        let p = self.params;
        AgentSetup3d {
            params: AgentParams {
                neighbor_dist: o.neighbor_dist.unwrap_or(p.neighbor_dist),
                max_neighbors: o.max_neighbors.unwrap_or(p.max_neighbors),
                time_horizon: o.time_horizon.unwrap_or(p.time_horizon),
                radius: o.radius.unwrap_or(p.radius),
                max_speed: o.max_speed.unwrap_or(p.max_speed),
            },
            obstacle_time_horizon: o.time_horizon_obst.or(self.obstacle_time_horizon),
            max_acceleration: o.max_acceleration.unwrap_or(self.max_acceleration),
            avoidance_layers: o.avoidance_layers.unwrap_or(self.avoidance_layers),
            avoidance_mask: o.avoidance_mask.unwrap_or(self.avoidance_mask),
        }
    }
}

/// An agent present from the start.
#[derive(Clone, Debug, PartialEq)]
pub struct InitialAgent3d {
    /// Start position (m).
    pub position: Vec3,
    /// Goal (m); the start when the file gives none.
    pub goal: Vec3,
    /// Parameters and options.
    pub setup: AgentSetup3d,
    /// Index into [`Crowd3dPopulation::groups`].
    pub group: u32,
    /// The entry that made it (`crowd3d.lattice[1]`, agent 3 of it), for messages.
    pub source: (String, usize),
}

/// The agents a 3-D crowd scenario's entries make, in simulator order: `agent` entries, then
/// the `sphere`, `lattice` and `random` generators, each in file order; and the spawners.
#[derive(Clone, Debug, PartialEq)]
pub struct Crowd3dPopulation {
    /// The agents present at time 0.
    pub agents: Vec<InitialAgent3d>,
    /// The spawners, in file order.
    pub spawners: Vec<Spawner3dPlan>,
    /// Group names, in order of first appearance.
    pub groups: Vec<String>,
}

impl Crowd3dPopulation {
    /// The largest radius of an agent present at time 0 or spawned later (0 without any).
    pub fn largest_radius(&self) -> f32 {
        let spawned = self.spawners.iter().map(|s| s.setup.params.radius);
        self.agents.iter().map(|a| a.setup.params.radius).chain(spawned).fold(0.0, f32::max)
    }
}

/// Attempts per agent of the random generator before giving up on the region.
const PLACEMENT_ATTEMPTS: usize = 2000;

/// `n` points spread evenly over a sphere of `radius` about the origin: a golden-angle spiral
/// (RVO2-3D's example uses latitude rings, which crowd its poles).
pub fn sphere_points(n: usize, radius: f32) -> impl Iterator<Item = Vec3> {
    (0..n).map(move |i| {
        let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
        let ring = (1.0 - z * z).max(0.0).sqrt();
        let angle = i as f32 * std::f32::consts::PI * (3.0 - 5.0f32.sqrt());
        Vec3::new(ring * angle.cos(), ring * angle.sin(), z) * radius
    })
}

impl Crowd3dScenario {
    /// The static obstacles: the boxes, then the meshes, in file order. Fails (as a problem
    /// of the entry) only on what the reader leaves to the library: a box too thin, a mesh
    /// with a degenerate triangle.
    pub fn obstacles(&self) -> Result<Vec<Obstacle3d>, Problem> {
        let mut out = Vec::with_capacity(self.crowd3d.boxes.len() + self.crowd3d.mesh.len());
        let problem = |key: String, e: Error| Problem { line: None, key, message: e.to_string() };
        // The simulator's own check of a box, and its triangles, from one scratch simulator.
        let mut scratch =
            crate::orca3d::Simulator::new(1.0, AgentParams::default()).map_err(|e| problem("crowd3d".into(), e))?;
        for (k, b) in self.crowd3d.boxes.iter().enumerate() {
            let key = format!("crowd3d.box[{k}]");
            let (min, max) = (Vec3::from(b.min), Vec3::from(b.max));
            let id = scratch.add_box_obstacle(min, max).map_err(|e| problem(key.clone(), e))?;
            let triangles = scratch.obstacle(id).map_err(|e| problem(key.clone(), e))?.to_vec();
            let bounds = Aabb3 { min, max };
            out.push(Obstacle3d { key, solid_box: Some(bounds), triangles, bounds, remove_at: b.remove_at });
        }
        for (k, m) in self.crowd3d.mesh.iter().enumerate() {
            let key = format!("crowd3d.mesh[{k}]");
            let vertices: Vec<Vec3> = m.vertices.iter().map(|&v| Vec3::from(v)).collect();
            let triangles = Triangle::mesh(&vertices, &m.triangles).map_err(|e| problem(key.clone(), e))?;
            let Some(bounds) = triangles.iter().map(Triangle::bounding_box).reduce(|a, b| a.union(&b)) else {
                return Err(Problem { line: None, key, message: "has no triangles".into() });
            };
            out.push(Obstacle3d { key, solid_box: None, triangles, bounds, remove_at: m.remove_at });
        }
        Ok(out)
    }

    /// Expands the generators. Fails only when a random region cannot hold its agents clear
    /// of each other and of the `obstacles` present at time 0.
    pub fn population(&self, obstacles: &[Obstacle3d]) -> Result<Crowd3dPopulation, Problem> {
        let c = &self.crowd3d;
        let default_setup = AgentSetup3d::library().with(&c.agent_defaults);
        let mut groups = Vec::new();
        let mut agents = Vec::new();
        for (k, a) in c.agent.iter().enumerate() {
            let position = Vec3::from(a.position);
            agents.push(InitialAgent3d {
                position,
                goal: a.goal.map_or(position, Vec3::from),
                setup: default_setup.with(&a.params),
                group: group_index(&mut groups, a.group.as_ref(), "agents".into()),
                source: (format!("crowd3d.agent[{k}]"), 0),
            });
        }
        for (k, s) in c.sphere.iter().enumerate() {
            let group = group_index(&mut groups, s.group.as_ref(), format!("sphere-{k}"));
            let setup = default_setup.with(&s.params);
            let centre = Vec3::from(s.center);
            for (i, p) in sphere_points(s.count, s.sphere_radius).enumerate() {
                let position = if centre == Vec3::ZERO { p } else { centre + p };
                let goal = s.goal.goal_of(position, centre);
                agents.push(InitialAgent3d {
                    position,
                    goal,
                    setup,
                    group,
                    source: (format!("crowd3d.sphere[{k}]"), i),
                });
            }
        }
        for (k, l) in c.lattice.iter().enumerate() {
            let group = group_index(&mut groups, l.group.as_ref(), format!("lattice-{k}"));
            let setup = default_setup.with(&l.params);
            let (origin, spacing) = (Vec3::from(l.origin), Vec3::from(l.spacing));
            let last = Vec3::new((l.columns - 1) as f32, (l.rows - 1) as f32, (l.layers - 1) as f32);
            let centre = origin + last * spacing * 0.5;
            let mut index = 0;
            for i in 0..l.columns {
                for j in 0..l.rows {
                    for m in 0..l.layers {
                        let position = origin + Vec3::new(i as f32, j as f32, m as f32) * spacing;
                        let goal = l.goal.goal_of(position, centre);
                        let source = (format!("crowd3d.lattice[{k}]"), index);
                        agents.push(InitialAgent3d { position, goal, setup, group, source });
                        index += 1;
                    }
                }
            }
        }
        let present: Vec<&Obstacle3d> =
            obstacles.iter().filter(|o| o.removal_step(self.time_step) != Some(0)).collect();
        for (k, r) in c.random.iter().enumerate() {
            let group = group_index(&mut groups, r.group.as_ref(), format!("random-{k}"));
            let setup = default_setup.with(&r.params);
            let (min, max) = (Vec3::from(r.min), Vec3::from(r.max));
            let centre = (min + max) * 0.5;
            let radius = setup.params.radius;
            let mut placed = Placed::new(agents.iter().map(|a| (a.position, a.setup.params.radius)), radius);
            let mut rng = ChaCha8Rng::seed_from_u64(r.seed);
            for i in 0..r.count {
                let mut sample = || {
                    Vec3::new(
                        rng.random_range(min.x..max.x),
                        rng.random_range(min.y..max.y),
                        rng.random_range(min.z..max.z),
                    )
                };
                let clear = |p: Vec3, placed: &Placed<Vec3>| {
                    placed.clear(p, radius)
                        && present
                            .iter()
                            .all(|o| o.bounds_distance(p) >= f64::from(radius) || o.distance(p) >= f64::from(radius))
                };
                let Some(position) = (0..PLACEMENT_ATTEMPTS).map(|_| sample()).find(|&p| clear(p, &placed)) else {
                    return Err(Problem {
                        line: None,
                        key: format!("crowd3d.random[{k}].count"),
                        message: format!(
                            "could place only {i} of {} agents clear of each other and the obstacles in the region \
                             (make it larger)",
                            r.count
                        ),
                    });
                };
                placed.add(position, radius);
                let goal = r.goal.goal_of(position, centre);
                agents.push(InitialAgent3d {
                    position,
                    goal,
                    setup,
                    group,
                    source: (format!("crowd3d.random[{k}]"), i),
                });
            }
        }
        let spawners = c
            .spawn
            .iter()
            .enumerate()
            .map(|(k, s)| Spawner3dPlan {
                spec: s.clone(),
                setup: default_setup.with(&s.params),
                group: group_index(&mut groups, s.group.as_ref(), format!("spawn-{k}")),
            })
            .collect();
        Ok(Crowd3dPopulation { agents, spawners, groups })
    }

    /// Agents that start within their radius of an obstacle present at time 0, or whose goal
    /// lies within their radius of an obstacle that stays: neither can be flown.
    pub(super) fn placement_problems(&self, obstacles: &[Obstacle3d], population: &Crowd3dPopulation) -> Vec<Problem> {
        let mut problems: Vec<Problem> = Vec::new();
        let removed_at_start = |o: &Obstacle3d| o.removal_step(self.time_step) == Some(0);
        let within =
            |o: &Obstacle3d, p: Vec3, r: f32| o.bounds_distance(p) < f64::from(r) && o.distance(p) < f64::from(r);
        let mut reported: Vec<&str> = Vec::new();
        for a in &population.agents {
            let (entry, index) = (&a.source.0, a.source.1);
            // One report per entry is enough to find the mistake.
            if reported.contains(&entry.as_str()) {
                continue;
            }
            let r = a.setup.params.radius;
            let listed = entry.starts_with("crowd3d.agent[");
            let which = if listed { String::new() } else { format!("agent {index} of it ") };
            // A generator's product can pass the float range (a lattice spaced 1e38 apart).
            let problem = if !(a.position.is_finite() && a.goal.is_finite()) {
                let (what, key) = if a.position.is_finite() { ("goal", "goal") } else { ("start", "position") };
                let key = if listed || key == "goal" { format!("{entry}.{key}") } else { entry.clone() };
                let message = format!("{which}has a {what} beyond the float range ({} → {})", a.position, a.goal);
                Problem { line: None, key, message }
            } else if let Some(o) = obstacles.iter().find(|o| !removed_at_start(o) && within(o, a.position, r)) {
                let key = if listed { format!("{entry}.position") } else { entry.clone() };
                Problem { line: None, key, message: format!("{which}starts within its radius ({r} m) of {}", o.key) }
            } else if let Some(o) = obstacles.iter().find(|o| o.remove_at.is_none() && within(o, a.goal, r)) {
                let message = format!("{which}has its goal within its radius ({r} m) of {}, which stays", o.key);
                Problem { line: None, key: format!("{entry}.goal"), message }
            } else {
                continue;
            };
            problems.push(problem);
            reported.push(entry);
        }
        for (k, s) in population.spawners.iter().enumerate() {
            let r = s.setup.params.radius;
            let (min, max) = (Vec3::from(s.spec.min), Vec3::from(s.spec.max));
            // A point goal can be checked before any agent exists (the others move with the spot).
            if let GoalRule3d::Point(goal) = s.spec.goal {
                if let Some(o) = obstacles.iter().find(|o| o.remove_at.is_none() && within(o, Vec3::from(goal), r)) {
                    let message = format!("has its goal within its radius ({r} m) of {}, which stays", o.key);
                    problems.push(Problem { line: None, key: format!("crowd3d.spawn[{k}].goal"), message });
                }
            }
            // A region wholly inside a box that stays would never spawn anything.
            if let Some(o) = obstacles.iter().find(|o| {
                o.remove_at.is_none() && o.solid_box.is_some_and(|b| min.cmpge(b.min).all() && max.cmple(b.max).all())
            }) {
                let message = format!("lies inside {}, which stays: no agent could ever be spawned", o.key);
                problems.push(Problem { line: None, key: format!("crowd3d.spawn[{k}].min"), message });
            }
        }
        if self.navigation == Navigation::Roadmap {
            let clearance = self.roadmap.clearance(population.largest_radius());
            let spacing = self.roadmap.spacing(clearance);
            let boxes = obstacles.iter().filter_map(|o| o.solid_box);
            let count = self.roadmap.vertices.len()
                + boxes.map(|b| navigation3d::box_vertex_count(&b, clearance, spacing)).sum::<usize>();
            if !(clearance.is_finite() && spacing.is_finite()) {
                let message = format!(
                    "the roadmap's clearance (largest radius + margin: {clearance} m) or edge spacing ({spacing} m) \
                     is beyond the float range"
                );
                problems.push(Problem { line: None, key: "roadmap.margin".into(), message });
            } else if count > navigation3d::MAX_ROADMAP_VERTICES {
                let key = if self.roadmap.edge_spacing.is_some() { "roadmap.edge_spacing" } else { "navigation" };
                let message = format!(
                    "the boxes' edges sampled every {spacing} m give {count} roadmap vertices, more than {}: set a \
                     larger [roadmap] edge_spacing",
                    navigation3d::MAX_ROADMAP_VERTICES
                );
                problems.push(Problem { line: None, key: key.into(), message });
            }
        }
        problems
    }
}
