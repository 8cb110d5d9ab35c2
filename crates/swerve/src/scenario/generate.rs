//! Expanding a scenario's generators into the agents present at time 0 and the spawners.

use super::model::*;
use super::placed::Placed;
use super::Problem;
use crate::geom::{distance_to_segment, inside_polygon};
use crate::spatial::PolygonGrid;
use crate::{AgentParams, Vec2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Attempts per agent of the random generator before giving up on the region.
pub(super) const PLACEMENT_ATTEMPTS: usize = 2000;

/// An agent present from the start.
#[derive(Clone, Debug, PartialEq)]
pub struct InitialAgent {
    /// Start position (m).
    pub position: Vec2,
    /// Goal (m); the start position when the file gives none.
    pub goal: Vec2,
    /// Parameters and options (defaults with overrides applied).
    pub setup: AgentSetup,
    /// Index into [`Population::groups`].
    pub group: u32,
}

/// What the simulator is told of an agent besides its position: its parameters and the
/// per-agent options beyond RVO2 that have setters of their own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentSetup {
    /// Parameters.
    pub params: AgentParams,
    /// Maximum acceleration (m/s²; `f32::INFINITY`: unlimited).
    pub max_acceleration: f32,
    /// Avoidance layers ([`crate::Simulator::set_agent_avoidance_layers`]).
    pub avoidance_layers: u32,
    /// Avoidance mask ([`crate::Simulator::set_agent_avoidance_mask`]).
    pub avoidance_mask: u32,
}

impl AgentSetup {
    /// The library's defaults: RVO2's parameters, no acceleration limit, layer 1, mask 1.
    pub fn library() -> AgentSetup {
        AgentSetup {
            params: AgentParams::default(),
            max_acceleration: f32::INFINITY,
            avoidance_layers: crate::orca::DEFAULT_AVOIDANCE_LAYERS,
            avoidance_mask: crate::orca::DEFAULT_AVOIDANCE_MASK,
        }
    }

    /// This setup with the keys present in `overrides` replaced.
    pub fn with(&self, overrides: &ParamOverrides) -> AgentSetup {
        AgentSetup {
            params: overrides.apply(self.params),
            max_acceleration: overrides.max_acceleration.unwrap_or(self.max_acceleration),
            avoidance_layers: overrides.avoidance_layers.unwrap_or(self.avoidance_layers),
            avoidance_mask: overrides.avoidance_mask.unwrap_or(self.avoidance_mask),
        }
    }
}

/// A spawner with its resolved parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct SpawnerPlan {
    /// The spawner as written.
    pub spec: SpawnGenerator,
    /// Parameters and options of its agents.
    pub setup: AgentSetup,
    /// Index into [`Population::groups`].
    pub group: u32,
}

/// Everything the generators of a scenario produce.
#[derive(Clone, Debug, PartialEq)]
pub struct Population {
    /// The scenario's agent defaults.
    pub defaults: AgentParams,
    /// Agents present at time 0, in simulator order: `agents`, then `circle`, `grid`,
    /// `random` generators, each in file order.
    pub agents: Vec<InitialAgent>,
    /// Spawners, in file order.
    pub spawners: Vec<SpawnerPlan>,
    /// Group names, in order of first appearance.
    pub groups: Vec<String>,
}

/// Reflection of `p` through `c`; exactly `-p` for `c = 0` (RVO2's Circle goals).
pub(crate) fn reflect(p: Vec2, c: Vec2) -> Vec2 {
    if c == Vec2::ZERO {
        -p
    } else {
        2.0 * c - p
    }
}

/// Where an agent starting at `p` goes under `rule`; `center` is its generator's centre.
pub(crate) fn goal_of(rule: GoalRule, p: Vec2, center: Vec2) -> Vec2 {
    match rule {
        GoalRule::Point(g) => Vec2::from(g),
        GoalRule::Keyword(GoalKeyword::Opposite) => reflect(p, center),
        GoalRule::Through { through } => reflect(p, Vec2::from(through)),
        GoalRule::Offset { offset } => p + Vec2::from(offset),
    }
}

/// The index of group `name` (`default` when `None`) in `groups`, added at the end if new:
/// the planar and the 3-D generators' rule.
pub(super) fn group_index(groups: &mut Vec<String>, name: Option<&String>, default: String) -> u32 {
    let name = name.cloned().unwrap_or(default);
    // Group counts are tiny (one per generator); a linear search is the simplest lookup.
    let index = groups.iter().position(|g| *g == name).unwrap_or_else(|| {
        groups.push(name);
        groups.len() - 1
    });
    index as u32
}

/// Whether a disc at `p` of `radius` is clear of every obstacle edge and outside every solid
/// (counter-clockwise) polygon.
pub fn clear_of_obstacles(p: Vec2, radius: f32, obstacles: &[Vec<Vec2>]) -> bool {
    obstacles.iter().all(|poly| {
        let n = poly.len();
        let edges = if n == 2 { 1 } else { n };
        let edges_clear = (0..edges).all(|i| distance_to_segment(p, poly[i], poly[(i + 1) % n]) >= radius);
        let solid = n > 2 && crate::geom::Winding::of(poly) == crate::geom::Winding::CounterClockwise;
        edges_clear && !(solid && inside_polygon(p, poly))
    })
}

/// A uniformly random point of the rectangle `min`–`max`.
pub(crate) fn sample(rng: &mut ChaCha8Rng, min: Vec2, max: Vec2) -> Vec2 {
    let x = if max.x > min.x { rng.random_range(min.x..max.x) } else { min.x };
    let y = if max.y > min.y { rng.random_range(min.y..max.y) } else { min.y };
    Vec2::new(x, y)
}

impl Scenario {
    /// The obstacle polygons as points.
    pub fn obstacle_polygons(&self) -> Vec<Vec<Vec2>> {
        self.obstacles.iter().map(|o| o.vertices.iter().map(|p| Vec2::from(*p)).collect()).collect()
    }

    /// Expands the generators. Fails only when a random region cannot hold its agents.
    pub fn population(&self) -> Result<Population, Problem> {
        let default_setup = AgentSetup::library().with(&self.agent_defaults);
        let defaults = default_setup.params;
        let mut groups = Vec::new();
        let mut agents = Vec::new();
        for a in &self.agents {
            let position = Vec2::from(a.position);
            agents.push(InitialAgent {
                position,
                goal: a.goal.map_or(position, Vec2::from),
                setup: default_setup.with(&a.params),
                group: group_index(&mut groups, a.group.as_ref(), "agents".into()),
            });
        }
        for (k, c) in self.circle.iter().enumerate() {
            let group = group_index(&mut groups, c.group.as_ref(), format!("circle-{k}"));
            let setup = default_setup.with(&c.params);
            let center = Vec2::from(c.center);
            for i in 0..c.count {
                // RVO2 2.0.3's Circle computes the angle, cos and sin in float; matching its
                // order of operations gives the recorded start positions bit for bit.
                let angle = i as f32 * 2.0 * std::f32::consts::PI / c.count as f32;
                let unit = Vec2::new(angle.cos(), angle.sin());
                let offset = c.ring_radius * unit;
                let position = if center == Vec2::ZERO { offset } else { center + offset };
                let goal = goal_of(c.goal, position, center);
                agents.push(InitialAgent { position, goal, setup, group });
            }
        }
        for (k, g) in self.grid.iter().enumerate() {
            let group = group_index(&mut groups, g.group.as_ref(), format!("grid-{k}"));
            let setup = default_setup.with(&g.params);
            let origin = Vec2::from(g.origin);
            let spacing = Vec2::from(g.spacing);
            let center = origin + Vec2::new((g.columns - 1) as f32 * spacing.x, (g.rows - 1) as f32 * spacing.y) * 0.5;
            for i in 0..g.columns {
                for j in 0..g.rows {
                    let position = origin + Vec2::new(i as f32 * spacing.x, j as f32 * spacing.y);
                    let goal = goal_of(g.goal, position, center);
                    agents.push(InitialAgent { position, goal, setup, group });
                }
            }
        }
        let obstacles = PolygonGrid::new(&self.obstacle_polygons());
        for (k, r) in self.random.iter().enumerate() {
            let group = group_index(&mut groups, r.group.as_ref(), format!("random-{k}"));
            let setup = default_setup.with(&r.params);
            let (min, max) = (Vec2::from(r.min), Vec2::from(r.max));
            let center = (min + max) * 0.5;
            let radius = setup.params.radius;
            let mut placed = Placed::new(agents.iter().map(|a| (a.position, a.setup.params.radius)), radius);
            let mut rng = ChaCha8Rng::seed_from_u64(r.seed);
            for count in 0..r.count {
                let spot = (0..PLACEMENT_ATTEMPTS)
                    .map(|_| sample(&mut rng, min, max))
                    .find(|&p| obstacles.is_clear(p, radius) && placed.clear(p, radius));
                let Some(position) = spot else {
                    return Err(Problem {
                        line: None,
                        key: format!("random[{k}].count"),
                        message: format!(
                            "could place only {count} of {} agents without overlap in the region (make it larger)",
                            r.count
                        ),
                    });
                };
                placed.add(position, radius);
                let goal = goal_of(r.goal, position, center);
                agents.push(InitialAgent { position, goal, setup, group });
            }
        }
        let spawners = self
            .spawn
            .iter()
            .enumerate()
            .map(|(k, s)| SpawnerPlan {
                spec: s.clone(),
                setup: default_setup.with(&s.params),
                group: group_index(&mut groups, s.group.as_ref(), format!("spawn-{k}")),
            })
            .collect();
        if let Some(balls) = &self.balls {
            if !balls.ball.is_empty() || !balls.random.is_empty() {
                group_index(&mut groups, None, "balls".into());
            }
        }
        Ok(Population { defaults, agents, spawners, groups })
    }
}

impl Scenario {
    /// Agents that start or have their goal inside a solid obstacle, each named by the entry
    /// that made it (`grid[1]`, agent 3 of that grid).
    pub(crate) fn placement_problems(&self, population: &Population) -> Vec<Problem> {
        let obstacles = PolygonGrid::new(&self.obstacle_polygons());
        if !obstacles.has_solids() {
            return Vec::new();
        }
        let mut sources: Vec<(String, usize)> = Vec::new();
        sources.extend((0..self.agents.len()).map(|k| (format!("agents[{k}]"), 1)));
        sources.extend(self.circle.iter().enumerate().map(|(k, c)| (format!("circle[{k}]"), c.count)));
        sources.extend(self.grid.iter().enumerate().map(|(k, g)| (format!("grid[{k}]"), g.columns * g.rows)));
        sources.extend(self.random.iter().enumerate().map(|(k, r)| (format!("random[{k}]"), r.count)));
        let mut problems = Vec::new();
        let mut agents = population.agents.iter();
        for (key, count) in sources {
            for i in 0..count {
                let Some(agent) = agents.next() else { return problems };
                // An agent without a goal has its start as goal: report it once.
                let checks: &[(&str, Vec2)] = if agent.goal == agent.position {
                    &[("starts", agent.position)]
                } else {
                    &[("starts", agent.position), ("has its goal", agent.goal)]
                };
                for &(what, point) in checks {
                    if let Some(o) = obstacles.solid_holding(point) {
                        let who = if count == 1 { String::new() } else { format!("agent {i} ") };
                        problems.push(Problem {
                            line: None,
                            key: key.clone(),
                            message: format!("{who}{what} inside obstacles[{o}] at ({}, {})", point.x, point.y),
                        });
                    }
                }
            }
        }
        problems
    }
}

/// A ball at time 0 (the physics world's `Ball` fields).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InitialBall {
    /// Centre (m).
    pub position: Vec2,
    /// Velocity (m/s).
    pub velocity: Vec2,
    /// Radius (m).
    pub radius: f32,
    /// Mass (kg; infinite for a kinematic ball).
    pub mass: f32,
    /// Coefficient of restitution.
    pub restitution: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Rolling resistance coefficient.
    pub rolling_resistance: f32,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
}

impl Scenario {
    /// The balls at time 0: the listed ones, then each random group's (non-overlapping, clear
    /// of obstacles and inside the bounds). Fails only when a region cannot hold its balls.
    pub fn initial_balls(&self) -> Result<Vec<InitialBall>, Problem> {
        let Some(spec) = &self.balls else { return Ok(Vec::new()) };
        let mut balls: Vec<InitialBall> = spec
            .ball
            .iter()
            .map(|b| InitialBall {
                position: Vec2::from(b.position),
                velocity: Vec2::from(b.velocity),
                radius: b.radius,
                mass: if b.kinematic { f32::INFINITY } else { b.mass },
                restitution: b.restitution,
                friction: b.friction,
                rolling_resistance: b.rolling_resistance,
                angular_velocity: b.angular_velocity,
            })
            .collect();
        let obstacles = PolygonGrid::new(&self.obstacle_polygons());
        for (k, r) in spec.random.iter().enumerate() {
            let mut rng = ChaCha8Rng::seed_from_u64(r.seed);
            let (min, max) = (Vec2::from(r.min), Vec2::from(r.max));
            let largest = r.radius[0].max(r.radius[1]);
            let mut placed = Placed::new(balls.iter().map(|b| (b.position, b.radius)), largest);
            for count in 0..r.count {
                let radius =
                    if r.radius[1] > r.radius[0] { rng.random_range(r.radius[0]..r.radius[1]) } else { r.radius[0] };
                let speed = if r.speed[1] > r.speed[0] { rng.random_range(r.speed[0]..r.speed[1]) } else { r.speed[0] };
                let angle = rng.random_range(0.0..std::f32::consts::TAU);
                // Keep the whole disc inside the region (and so inside bounds drawn around it).
                let (lo, hi) = (min + Vec2::splat(radius), max - Vec2::splat(radius));
                let spot = (lo.x <= hi.x && lo.y <= hi.y)
                    .then(|| {
                        (0..PLACEMENT_ATTEMPTS)
                            .map(|_| sample(&mut rng, lo, hi))
                            .find(|&p| obstacles.is_clear(p, radius) && placed.clear(p, radius))
                    })
                    .flatten();
                let Some(position) = spot else {
                    return Err(Problem {
                        line: None,
                        key: format!("balls.random[{k}].count"),
                        message: format!(
                            "could place only {count} of {} balls without overlap in the region (make it larger)",
                            r.count
                        ),
                    });
                };
                placed.add(position, radius);
                balls.push(InitialBall {
                    position,
                    velocity: speed * Vec2::new(angle.cos(), angle.sin()),
                    radius,
                    // Density 1 kg/m²: mass grows with area, as for discs of one material.
                    mass: std::f32::consts::PI * radius * radius,
                    restitution: r.restitution,
                    friction: r.friction,
                    rolling_resistance: r.rolling_resistance,
                    angular_velocity: 0.0,
                });
            }
        }
        Ok(balls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Format;

    /// Random agents and balls land where a pass over every obstacle and everything placed
    /// before (the generators' rule, replayed from the same seeds) puts them, with radii that
    /// differ between generators and an agent larger than the random ones.
    #[test]
    fn random_placements_are_those_of_a_pass_over_everything() {
        let mut text = String::from(
            "name = \"t\"\ntime_step = 0.25\nsteps = 1\n\
             [[agents]]\nposition = [0.5, 0.5]\nradius = 2.5\n\
             [[random]]\ncount = 300\nmin = [-30.0, -30.0]\nmax = [30.0, 30.0]\nseed = 7\nradius = 0.6\ngoal = [0.0, 0.0]\n\
             [[random]]\ncount = 100\nmin = [-30.0, -30.0]\nmax = [30.0, 30.0]\nseed = 8\nradius = 1.4\ngoal = [0.0, 0.0]\n\
             [[obstacles]]\nvertices = [[-20.0, 25.0], [20.0, -25.0]]\n\
             [[obstacles]]\nvertices = [[-40.0, -40.0], [-40.0, 40.0], [40.0, 40.0], [40.0, -40.0]]\n\
             [balls]\n[[balls.random]]\ncount = 300\nmin = [-30.0, -30.0]\nmax = [30.0, 30.0]\n\
             radius = [0.3, 1.1]\nspeed = [0.0, 1.0]\nseed = 9\n",
        );
        for (x, y) in [(-12.0, -12.0), (6.0, -14.0), (10.0, 10.0), (-16.0, 8.0)] {
            text += &format!(
                "[[obstacles]]\nvertices = [[{x}, {y}], [{}, {y}], [{}, {}], [{x}, {}]]\n",
                x + 5.0,
                x + 5.0,
                y + 5.0,
                y + 5.0
            );
        }
        let scenario = Scenario::parse(&text, Format::Toml).unwrap();
        let obstacles = scenario.obstacle_polygons();
        let population = scenario.population().unwrap();
        let mut expected: Vec<(Vec2, f32)> = vec![(Vec2::new(0.5, 0.5), 2.5)];
        for (seed, radius, count) in [(7, 0.6, 300), (8, 1.4, 100)] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..count {
                let p = (0..PLACEMENT_ATTEMPTS)
                    .map(|_| sample(&mut rng, Vec2::splat(-30.0), Vec2::splat(30.0)))
                    .find(|&p| {
                        clear_of_obstacles(p, radius, &obstacles)
                            && expected.iter().all(|&(q, r)| q.distance(p) >= r + radius)
                    })
                    .unwrap();
                expected.push((p, radius));
            }
        }
        let placed: Vec<(Vec2, f32)> = population.agents.iter().map(|a| (a.position, a.setup.params.radius)).collect();
        assert_eq!(placed, expected);

        let balls = scenario.initial_balls().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut expected: Vec<(Vec2, f32)> = Vec::new();
        for _ in 0..300 {
            let radius = rng.random_range(0.3..1.1);
            let _speed: f32 = rng.random_range(0.0..1.0);
            let _angle: f32 = rng.random_range(0.0..std::f32::consts::TAU);
            let (lo, hi) = (Vec2::splat(-30.0 + radius), Vec2::splat(30.0 - radius));
            let p = (0..PLACEMENT_ATTEMPTS)
                .map(|_| sample(&mut rng, lo, hi))
                .find(|&p| {
                    clear_of_obstacles(p, radius, &obstacles)
                        && expected.iter().all(|&(q, r)| q.distance(p) >= r + radius)
                })
                .unwrap();
            expected.push((p, radius));
        }
        let placed: Vec<(Vec2, f32)> = balls.iter().map(|b| (b.position, b.radius)).collect();
        assert_eq!(placed, expected);
    }
}
