//! The typed scenario: what a scenario file says, after reading and checking.
//!
//! The serde form of [`Scenario`] is the file format itself (`docs/scenario-format.md`), so
//! the viewer and Python can exchange scenarios as JSON. Files are read through
//! [`Scenario::from_toml_str`] / [`Scenario::from_json_str`], which report every problem with
//! its line and key; plain serde deserialisation stops at the first.

use super::route::{Route, RouteRepeat};
use super::spheres::Point3;
use crate::AgentParams;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// A point or vector in a file: `[x, y]` (metres, or metres per second).
pub type Point = [f32; 2];

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Short name (built-ins: the name `swerve run` takes).
    pub name: String,
    /// One or two sentences on what the scene shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Simulation time step (s, > 0).
    pub time_step: f32,
    /// Maximum number of steps (≥ 1).
    pub steps: usize,
    /// When to stop before `steps`.
    #[serde(default)]
    pub stop: StopRule,
    /// Distance (m) within which an agent counts as at its goal; `None` means each agent's
    /// radius (RVO2's Circle example).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_tolerance: Option<f32>,
    /// How preferred velocities are chosen every step.
    #[serde(default)]
    pub navigation: Navigation,
    /// Options of the roadmap (used when `navigation` is `roadmap`).
    #[serde(default)]
    pub roadmap: RoadmapSpec,
    /// A tiny random perturbation of preferred velocities (RVO2's Blocks and Roadmap examples
    /// add one to break symmetric deadlocks); absent means none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perturbation: Option<Perturbation>,
    /// Parameters of every agent unless overridden (missing keys take
    /// [`AgentParams::default`], RVO2's Circle values).
    #[serde(default)]
    pub agent_defaults: ParamOverrides,
    /// Agents given one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentSpec>,
    /// Agents on a circle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub circle: Vec<CircleGenerator>,
    /// Agents on a rectangular grid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grid: Vec<GridGenerator>,
    /// Agents at random, non-overlapping positions in a rectangle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random: Vec<RandomGenerator>,
    /// Agents appearing over time at a rate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spawn: Vec<SpawnGenerator>,
    /// Static polygon obstacles (RVO2 winding: counter-clockwise is solid, clockwise is a
    /// boundary enclosing the agents; two vertices make a thin wall).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<ObstacleSpec>,
    /// Non-cooperative movers: discs the agents avoid, flying straight or along a route.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<MoverSpec<Point>>,
    /// Rigid balls of the physics world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balls: Option<BallsSpec>,
    /// Options beyond RVO2 (all off by default: RVO2's behaviour).
    #[serde(default, skip_serializing_if = "ExtensionsSpec::is_default")]
    pub extensions: ExtensionsSpec,
}

/// The `[extensions]` table: options beyond RVO2, each with its library defaults
/// ([`crate::orca::Extensions`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtensionsSpec {
    /// Seeded jitter plus pass-on-the-right in head-on conflicts ([`crate::orca::SymmetryBreaking`]).
    #[serde(default)]
    pub symmetry_breaking: bool,
    /// Clearance margin and overlap projection ([`crate::orca::OverlapResolution`]).
    #[serde(default)]
    pub safe_mode: bool,
    /// Never exceed an agent's max speed (RVO2's fallback program can).
    #[serde(default)]
    pub strict_speed_limit: bool,
}

impl ExtensionsSpec {
    /// Whether every option is off.
    pub fn is_default(&self) -> bool {
        *self == ExtensionsSpec::default()
    }

    /// The library options these switches stand for.
    pub fn to_extensions(self) -> crate::orca::Extensions {
        crate::orca::Extensions {
            symmetry_breaking: self.symmetry_breaking.then(crate::orca::SymmetryBreaking::default),
            overlap_resolution: self.safe_mode.then(crate::orca::OverlapResolution::default),
            strict_speed_limit: self.strict_speed_limit,
        }
    }
}

/// When a run ends before its step limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopRule {
    /// Run exactly `steps` steps.
    #[default]
    Steps,
    /// Stop as soon as every agent is at its goal and no spawner has agents left to add.
    AllAtGoal,
}

/// The preferred-velocity rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Navigation {
    /// Straight toward the goal at up to 1 m/s: RVO2's examples
    /// ([`crate::reference::preferred_velocity_toward`]).
    #[default]
    Straight,
    /// Toward the next corner of the shortest path on a visibility roadmap
    /// ([`crate::navigation::Roadmap`]), as RVO2's Roadmap example.
    Roadmap,
}

impl Navigation {
    /// Whether it is [`Navigation::Straight`] (the default).
    pub fn is_straight(&self) -> bool {
        *self == Navigation::Straight
    }
}

/// Roadmap options.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoadmapSpec {
    /// Extra clearance (m) of corner vertices beyond the largest agent radius (≥ 0).
    #[serde(default)]
    pub margin: f32,
    /// Roadmap vertices added by hand, besides the goals and the obstacle corners.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vertices: Vec<Point>,
}

/// Random perturbation of preferred velocities.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Perturbation {
    /// Largest perturbation (m/s, ≥ 0); RVO2's examples use 0.0001.
    pub magnitude: f32,
    /// Seed of the random numbers.
    pub seed: u64,
}

/// Agent parameters where every key may be missing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ParamOverrides {
    /// See [`AgentParams::neighbor_dist`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbor_dist: Option<f32>,
    /// See [`AgentParams::max_neighbors`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_neighbors: Option<usize>,
    /// See [`AgentParams::time_horizon`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_horizon: Option<f32>,
    /// See [`AgentParams::time_horizon_obst`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_horizon_obst: Option<f32>,
    /// See [`AgentParams::radius`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
    /// See [`AgentParams::max_speed`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_speed: Option<f32>,
    /// The agents' maximum acceleration (m/s², > 0; see
    /// [`crate::Simulator::set_agent_max_acceleration`]). Absent everywhere: unlimited, as
    /// RVO2's agents are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_acceleration: Option<f32>,
    /// The agents' avoidance layers, a 32-bit mask (see
    /// [`crate::Simulator::set_agent_avoidance_layers`]; beyond RVO2). Absent everywhere:
    /// [`crate::orca::DEFAULT_AVOIDANCE_LAYERS`], the first layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoidance_layers: Option<u32>,
    /// The agents' avoidance mask: they avoid the agents whose layers share a bit with it (see
    /// [`crate::Simulator::set_agent_avoidance_mask`]; beyond RVO2). Absent everywhere:
    /// [`crate::orca::DEFAULT_AVOIDANCE_MASK`], the first layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoidance_mask: Option<u32>,
}

impl ParamOverrides {
    /// `base` with the keys that are present replaced.
    pub fn apply(&self, base: AgentParams) -> AgentParams {
        AgentParams {
            neighbor_dist: self.neighbor_dist.unwrap_or(base.neighbor_dist),
            max_neighbors: self.max_neighbors.unwrap_or(base.max_neighbors),
            time_horizon: self.time_horizon.unwrap_or(base.time_horizon),
            time_horizon_obst: self.time_horizon_obst.unwrap_or(base.time_horizon_obst),
            radius: self.radius.unwrap_or(base.radius),
            max_speed: self.max_speed.unwrap_or(base.max_speed),
        }
    }
}

/// Where an agent wants to go.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GoalRule {
    /// `[x, y]`: a fixed point.
    Point(Point),
    /// `"opposite"`: the start reflected through the generator's centre (the circle's centre,
    /// the grid's or the region's centre).
    Keyword(GoalKeyword),
    /// `{ through = [x, y] }`: the start reflected through a point.
    Through {
        /// The centre of reflection.
        through: Point,
    },
    /// `{ offset = [dx, dy] }`: the start moved by a fixed vector.
    Offset {
        /// The displacement.
        offset: Point,
    },
}

/// Goal rules named by a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GoalKeyword {
    /// Reflect the start through the generator's centre.
    Opposite,
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentSpec {
    /// Start position.
    pub position: Point,
    /// Goal; absent means the agent stays where it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Point>,
    /// Group name (colour in renderings); default `"agents"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// `count` agents evenly spaced on a circle, the first at angle 0 (RVO2's Circle: agent `i`
/// at `ring_radius * (cos, sin)(i * 2π / count)`, computed in `f32` as RVO2 2.0.3 does).
/// (`radius`, as everywhere, is the agents' radius.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CircleGenerator {
    /// Number of agents (≥ 1).
    pub count: usize,
    /// Centre.
    #[serde(default)]
    pub center: Point,
    /// Radius of the ring (m, > 0).
    pub ring_radius: f32,
    /// Goal rule; default `"opposite"`.
    #[serde(default = "opposite")]
    pub goal: GoalRule,
    /// Group name; default `circle-N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// `columns × rows` agents on a grid: agent `(i, j)` at `origin + (i·spacing.x, j·spacing.y)`,
/// column-major (RVO2's Blocks order within a group).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridGenerator {
    /// Position of agent (0, 0).
    pub origin: Point,
    /// Number of columns (≥ 1).
    pub columns: usize,
    /// Number of rows (≥ 1).
    pub rows: usize,
    /// Distance between neighbours along x and y (may be negative to grow leftward/down).
    pub spacing: Point,
    /// Goal rule (no default).
    pub goal: GoalRule,
    /// Group name; default `grid-N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// `count` agents at random positions in the rectangle `min`–`max`, no two closer than
/// their radii allow (rejection sampling with a fixed seed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomGenerator {
    /// Number of agents (≥ 1).
    pub count: usize,
    /// Lower-left corner of the region.
    pub min: Point,
    /// Upper-right corner of the region.
    pub max: Point,
    /// Seed of the random positions.
    pub seed: u64,
    /// Goal rule (no default).
    pub goal: GoalRule,
    /// Group name; default `random-N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// Agents appearing at `rate` per second in the rectangle `min`–`max` from time `start` until
/// `limit` agents were added; a spawn waits while its random spot is taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpawnGenerator {
    /// Agents per second (> 0).
    pub rate: f32,
    /// Total number of agents to add (≥ 1).
    pub limit: usize,
    /// Lower-left corner of the spawn region.
    pub min: Point,
    /// Upper-right corner of the spawn region (may equal `min`: a spawn point).
    pub max: Point,
    /// First spawn time (s, ≥ 0).
    #[serde(default)]
    pub start: f32,
    /// Seed of the random spots.
    #[serde(default)]
    pub seed: u64,
    /// Goal rule (`"opposite"` is not allowed: a spawner has no centre of symmetry).
    pub goal: GoalRule,
    /// Whether agents leave the simulation when they reach their goal (a sink).
    #[serde(default)]
    pub remove_at_goal: bool,
    /// Group name; default `spawn-N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// One obstacle polygon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObstacleSpec {
    /// Vertices in RVO2's winding.
    pub vertices: Vec<Point>,
    /// When the obstacle disappears (s of simulated time, ≥ 0): the runner removes it before
    /// the first step whose start time reaches this ([`ObstacleSpec::removal_step`]); absent
    /// means it stays for the whole run. A door that opens, a wall that falls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove_at: Option<f32>,
}

impl ObstacleSpec {
    /// The index `k` of the first step run without this obstacle, for a time step of
    /// `time_step` seconds: the smallest `k` whose start time `k · time_step` is at least
    /// `remove_at`, up to one part in a million. (Decimal times are not exact in binary:
    /// 0.3 s over steps of 0.1 s divides to 3.0000001, and the slack makes it step 3, as
    /// written; products and quotients are taken in `f64` of the file's `f32` values.)
    /// Frames `0..k` (the state after fewer than `k` steps) still have the obstacle; frame
    /// `k` (time `k · time_step`) is the first without it. `None` without `remove_at`.
    pub fn removal_step(&self, time_step: f32) -> Option<usize> {
        self.remove_at.map(|at| removal_step(at, time_step))
    }
}

/// [`ObstacleSpec::removal_step`] of a `remove_at` time: the planar and the 3-D obstacles'
/// rule.
pub(super) fn removal_step(remove_at: f32, time_step: f32) -> usize {
    let steps = f64::from(remove_at) / f64::from(time_step) * (1.0 - 1e-6);
    // A non-negative finite quotient (the reader checks both numbers); `as` saturates for a
    // time beyond any run.
    steps.ceil().max(0.0) as usize
}

/// The physics world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallsSpec {
    /// Broad phase name (`brute-force`, `sort-and-sweep`, `uniform-grid`,
    /// `hierarchical-grid`, `grid-sort-and-sweep`, `quadtree`, `aabb-tree`).
    #[serde(default = "default_broad_phase")]
    pub broad_phase: String,
    /// Walls of a box the balls bounce in; absent means unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<BoundsSpec>,
    /// Balls given one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ball: Vec<BallSpec>,
    /// Balls at random non-overlapping positions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random: Vec<RandomBalls>,
    /// Whether agents avoid the balls (as non-cooperative movers that take no part in the
    /// avoidance); default true. Balls do not see agents either way.
    #[serde(default = "yes")]
    pub agents_avoid: bool,
    /// Linear damping of every ball (1/s, ≥ 0; default 0): see
    /// [`crate::physics::World::set_linear_damping`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub linear_damping: f32,
    /// Gravity (m/s², default none): see [`crate::physics::World::set_gravity`].
    #[serde(default, skip_serializing_if = "is_origin")]
    pub gravity: Point,
    /// Sweeps of the resting-contact solver per step (1 to 1,000; default
    /// [`crate::physics::World::DEFAULT_SOLVER_ITERATIONS`]): see
    /// [`crate::physics::World::set_solver_iterations`].
    #[serde(default = "default_solver_iterations", skip_serializing_if = "is_default_solver_iterations")]
    pub solver_iterations: usize,
    /// Substeps per step (1 to [`crate::physics::World::MAX_SUBSTEPS`]; default 1): see
    /// [`crate::physics::World::set_substeps`].
    #[serde(default = "one_substep", skip_serializing_if = "is_one_substep")]
    pub substeps: usize,
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundsSpec {
    /// Lower-left corner.
    pub min: Point,
    /// Upper-right corner.
    pub max: Point,
}

/// One ball.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallSpec {
    /// Centre (m).
    pub position: Point,
    /// Velocity (m/s).
    #[serde(default)]
    pub velocity: Point,
    /// Radius (m, > 0).
    pub radius: f32,
    /// Mass (kg, > 0); default 1.
    #[serde(default = "one")]
    pub mass: f32,
    /// Coefficient of restitution in [0, 1]; default 1 (elastic, seed 003).
    #[serde(default = "one")]
    pub restitution: f32,
    /// Coulomb friction coefficient (≥ 0); default 0 (frictionless, no spin).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub friction: f32,
    /// Rolling resistance coefficient (≥ 0); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// Angular velocity (rad/s, counter-clockwise); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angular_velocity: f32,
    /// A kinematic ball (infinite mass, `mass` is ignored): it keeps its velocity, pushes the
    /// others and passes through walls ([`crate::physics::Ball::kinematic`]); default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub kinematic: bool,
}

/// `count` balls at random non-overlapping positions in `min`–`max`, radii uniform in
/// `radius` (`[lo, hi]`), random directions at speeds uniform in `speed`, mass proportional
/// to area (density 1 kg/m²).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomBalls {
    /// Number of balls (≥ 1).
    pub count: usize,
    /// Lower-left corner of the region.
    pub min: Point,
    /// Upper-right corner of the region.
    pub max: Point,
    /// Smallest and largest radius (m).
    pub radius: Point,
    /// Smallest and largest speed (m/s).
    pub speed: Point,
    /// Coefficient of restitution; default 1.
    #[serde(default = "one")]
    pub restitution: f32,
    /// Coulomb friction coefficient (≥ 0); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub friction: f32,
    /// Rolling resistance coefficient (≥ 0); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// Seed.
    pub seed: u64,
}

fn opposite() -> GoalRule {
    GoalRule::Keyword(GoalKeyword::Opposite)
}

pub(super) fn yes() -> bool {
    true
}

pub(super) fn one() -> f32 {
    1.0
}

pub(super) fn is_false(value: &bool) -> bool {
    !*value
}

pub(super) fn is_zero(value: &f32) -> bool {
    *value == 0.0
}

pub(super) fn is_origin<const N: usize>(value: &[f32; N]) -> bool {
    value.iter().all(|&x| x == 0.0)
}

pub(super) fn one_substep() -> usize {
    1
}

pub(super) fn is_one_substep(value: &usize) -> bool {
    *value == 1
}

fn default_solver_iterations() -> usize {
    crate::physics::World::DEFAULT_SOLVER_ITERATIONS
}

fn is_default_solver_iterations(value: &usize) -> bool {
    *value == default_solver_iterations()
}

fn default_broad_phase() -> String {
    "sort-and-sweep".to_string()
}

/// The most agents one scenario file may create (present at the start plus every spawner's
/// `limit`). The simulator keeps roughly 250 bytes per agent, and the runner and the
/// trajectory output more, so ten million agents already take several gigabytes; a larger
/// count is a typo, and honouring it would end the process with an out-of-memory abort
/// instead of a problem report.
pub const MAX_AGENTS: usize = 10_000_000;

/// The most balls one scenario file may create (listed plus random), for the same reason as
/// [`MAX_AGENTS`]: the physics world keeps about a hundred bytes per ball.
pub const MAX_BALLS: usize = 10_000_000;

/// The largest `max_neighbors` a file may give. It counts agents, so any value above the
/// agents a file can create ([`MAX_AGENTS`]) means no more than "every agent", and a value
/// like 99999999999999 is a typo worth reporting (the simulator itself takes any value, as
/// RVO2 does, and sizes its scratch by the crowd). A million neighbours is far beyond any
/// crowd ORCA resolves in reasonable time.
pub const MAX_NEIGHBORS: usize = 1_000_000;

/// The broad-phase names a scenario may use (the physics module's `BroadPhaseKind` names).
pub const BROAD_PHASE_NAMES: [&str; 7] = [
    "brute-force",
    "sort-and-sweep",
    "uniform-grid",
    "hierarchical-grid",
    "grid-sort-and-sweep",
    "quadtree",
    "aabb-tree",
];

/// A non-cooperative mover (a disc in the plane, `P = Point`; a sphere in space, `P = Point3`),
/// flying at a constant velocity or along a route: the agents avoid it with full
/// responsibility; it avoids nothing and passes through obstacles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "P: Deserialize<'de> + Default"))]
pub struct MoverSpec<P = Point3> {
    /// How it moves.
    #[serde(flatten)]
    pub motion: MoverMotion<P>,
    /// Radius (m, > 0).
    pub radius: f32,
}

/// How a mover moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged, bound(deserialize = "P: Deserialize<'de> + Default"))]
pub enum MoverMotion<P = Point3> {
    /// Along waypoints at a constant speed, from the first ([`Route`]).
    Route {
        /// The waypoints (at least two different ones).
        route: Vec<P>,
        /// Speed along the route (m/s, > 0).
        speed: f32,
        /// What it does at the route's end (default: round again).
        #[serde(default)]
        repeat: RouteRepeat,
    },
    /// In a straight line at a constant velocity.
    Straight {
        /// Position at time 0.
        position: P,
        /// Velocity (m/s; default 0: a mover that stays put).
        #[serde(default)]
        velocity: P,
    },
}

/// A point of a file in space: a planar `[x, y]` is `[x, y, 0]` (a planar route is a route in
/// the plane z = 0).
pub trait Waypoint: Copy {
    /// The point in space.
    fn to_vec3(self) -> Vec3;
}

impl Waypoint for Point {
    fn to_vec3(self) -> Vec3 {
        Vec3::new(self[0], self[1], 0.0)
    }
}

impl Waypoint for Point3 {
    fn to_vec3(self) -> Vec3 {
        Vec3::from(self)
    }
}

impl<P: Waypoint> MoverSpec<P> {
    /// Its route, if it flies one (checked when the file was read: `None` for a straight
    /// mover).
    pub fn route(&self) -> Option<Route> {
        match &self.motion {
            MoverMotion::Route { route, speed, repeat } => {
                let points: Vec<Vec3> = route.iter().map(|&p| p.to_vec3()).collect();
                Route::new(&points, *speed, *repeat).ok()
            }
            MoverMotion::Straight { .. } => None,
        }
    }

    /// Its position and velocity at time 0 (on a route: at its first waypoint, with the
    /// velocity of its first step of `time_step` seconds, [`Route::over_step`]); planar ones
    /// with z = 0.
    pub fn start(&self, route: Option<&Route>, time_step: f32) -> (Vec3, Vec3) {
        match (&self.motion, route) {
            (_, Some(route)) => route.over_step(0.0, time_step),
            (MoverMotion::Straight { position, velocity }, None) => (position.to_vec3(), velocity.to_vec3()),
            (MoverMotion::Route { route, .. }, None) => (route[0].to_vec3(), Vec3::ZERO),
        }
    }
}
