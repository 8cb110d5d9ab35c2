//! Scenario files of the 3-D crowd ([`crate::orca3d`]): a `[crowd3d]` table of agents,
//! generators, static obstacles (boxes and triangle meshes) and non-cooperative movers.
//! [`Crowd3dScenario`] is the checked file, [`Crowd3dScenario::population`] the agents its
//! generators make (`crowd3d_generate.rs`), and [`super::Crowd3dRunner`] plays it step by step.
//!
//! The format is the `## Crowds in 3-D` section of `docs/scenario-format.md`: the planar
//! crowd's keys with a third coordinate, RVO2-3D's Sphere example as a generator, and the
//! obstacles `orca3d` has beyond RVO2-3D.

use super::document::Node;
use super::model::{ExtensionsSpec, MoverSpec, Navigation, ParamOverrides, StopRule};
use super::spheres::Point3;
use super::{document, Format, Problem};
use crate::orca3d::{Extensions, OverlapResolution, SymmetryBreaking, Vec3};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A whole 3-D crowd scenario: the header every scenario has, the planar crowd's `stop` and
/// `goal_tolerance`, and a `[crowd3d]` table.
///
/// ```
/// use swerve::scenario::{Crowd3dRunner, Crowd3dScenario, Format};
/// let text = r#"
/// name = "pass"
/// time_step = 0.125
/// steps = 400
/// stop = "all-at-goal"
/// [[crowd3d.agent]]
/// position = [-10.0, 0.0, 5.0]
/// goal = [10.0, 0.0, 5.0]
/// [[crowd3d.box]]
/// min = [-1.0, -1.0, 0.0]
/// max = [1.0, 1.0, 3.0]
/// "#;
/// let scenario = Crowd3dScenario::parse(text, Format::Toml).expect("a valid file");
/// let mut runner = Crowd3dRunner::new(&scenario)?;
/// while !runner.is_finished() {
///     runner.step();
/// }
/// assert_eq!(runner.metrics().arrived, 1);
/// # Ok::<(), swerve::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crowd3dScenario {
    /// Short name (`swerve run` writes to `out/NAME`).
    pub name: String,
    /// One or two sentences on what the scene shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Simulation time step (s, > 0).
    pub time_step: f32,
    /// Number of steps (≥ 1): the step limit.
    pub steps: usize,
    /// When the run ends before its step limit.
    #[serde(default)]
    pub stop: StopRule,
    /// Goal tolerance (m); `None`: each agent's radius.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_tolerance: Option<f32>,
    /// How agents steer for their goals: straight (the default), or along a roadmap around
    /// the boxes ([`crate::navigation3d::Roadmap3d`]).
    #[serde(default, skip_serializing_if = "Navigation::is_straight")]
    pub navigation: Navigation,
    /// The roadmap's options (used with `navigation = "roadmap"`).
    #[serde(default, skip_serializing_if = "Roadmap3dSpec::is_default")]
    pub roadmap: Roadmap3dSpec,
    /// The crowd: its defaults, agents, obstacles and movers.
    pub crowd3d: Crowd3dSpec,
}

/// The `[roadmap]` table of a 3-D crowd file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Roadmap3dSpec {
    /// Extra clearance (m, ≥ 0) beyond the largest agent radius: the roadmap's vertices and
    /// edges keep the sum from every obstacle.
    #[serde(default)]
    pub margin: f32,
    /// The longest gap (m, > 0) between the points sampled along a box's edge; `None`:
    /// [`Roadmap3dSpec::DEFAULT_SPACING_IN_CLEARANCES`] clearances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge_spacing: Option<f32>,
    /// Vertices placed by hand (beside a mesh wall, in a doorway), besides the boxes' edges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vertices: Vec<Point3>,
}

impl Roadmap3dSpec {
    /// The default edge spacing, in clearances (largest radius + margin).
    pub const DEFAULT_SPACING_IN_CLEARANCES: f32 = 4.0;

    /// Whether every option is its default.
    pub fn is_default(&self) -> bool {
        *self == Roadmap3dSpec::default()
    }

    /// The clearance of a roadmap for agents up to `largest_radius` (m).
    pub fn clearance(&self, largest_radius: f32) -> f32 {
        largest_radius + self.margin
    }

    /// The edge spacing for that clearance.
    pub fn spacing(&self, clearance: f32) -> f32 {
        self.edge_spacing.unwrap_or(Self::DEFAULT_SPACING_IN_CLEARANCES * clearance)
    }
}

/// The `[crowd3d]` table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Crowd3dSpec {
    /// Parameters for every agent (RVO2-3D's Sphere example's where absent);
    /// `time_horizon_obst` is the obstacle time horizon (default: the agent's time horizon).
    #[serde(default)]
    pub agent_defaults: ParamOverrides,
    /// Options beyond RVO2-3D.
    #[serde(default, skip_serializing_if = "ExtensionsSpec::is_default")]
    pub extensions: ExtensionsSpec,
    /// Agents given one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agent: Vec<Agent3dSpec>,
    /// RVO2-3D's Sphere example: agents spread over a sphere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sphere: Vec<SphereGenerator>,
    /// Agents on a 3-D lattice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lattice: Vec<LatticeGenerator>,
    /// Agents at random places in a box.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random: Vec<Random3dGenerator>,
    /// Agents added during the run, at a rate, in a region.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spawn: Vec<Spawn3dGenerator>,
    /// Solid axis-aligned boxes ([`crate::orca3d::Simulator::add_box_obstacle`]).
    #[serde(default, rename = "box", skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<BoxObstacleSpec>,
    /// Triangle meshes ([`crate::orca3d::Simulator::add_obstacle`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mesh: Vec<MeshObstacleSpec>,
    /// Non-cooperative spheres flying at a constant velocity ([`crate::orca3d::Mover`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mover: Vec<MoverSpec>,
}

/// Where an agent wants to go (the planar goal rules in three dimensions).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GoalRule3d {
    /// `[x, y, z]`: a fixed point.
    Point(Point3),
    /// `"opposite"`: the start reflected through the generator's centre.
    Keyword(super::GoalKeyword),
    /// `{ through = [x, y, z] }`: the start reflected through a point.
    Through {
        /// The centre of reflection.
        through: Point3,
    },
    /// `{ offset = [dx, dy, dz] }`: the start moved by a fixed vector.
    Offset {
        /// The displacement.
        offset: Point3,
    },
}

impl GoalRule3d {
    /// The goal of an agent starting at `p`, for a generator centred on `centre`.
    pub fn goal_of(self, p: Vec3, centre: Vec3) -> Vec3 {
        // Exactly −p for a centre at the origin (RVO2-3D's Sphere goals).
        let reflect = |c: Vec3| if c == Vec3::ZERO { -p } else { 2.0 * c - p };
        match self {
            GoalRule3d::Point(g) => Vec3::from(g),
            GoalRule3d::Keyword(super::GoalKeyword::Opposite) => reflect(centre),
            GoalRule3d::Through { through } => reflect(Vec3::from(through)),
            GoalRule3d::Offset { offset } => p + Vec3::from(offset),
        }
    }
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agent3dSpec {
    /// Start position.
    pub position: Point3,
    /// Goal; absent means the agent stays where it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Point3>,
    /// Group name (colour in renderings); default `"agents"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// RVO2-3D's Sphere example: `count` agents spread evenly over a sphere (a golden-angle
/// spiral), by default each flying to its antipode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SphereGenerator {
    /// Number of agents (≥ 1).
    pub count: usize,
    /// The sphere's centre (default the origin).
    #[serde(default)]
    pub center: Point3,
    /// The sphere's radius (m, > 0; `radius` would be the agents').
    pub sphere_radius: f32,
    /// Goal rule (default `"opposite"`).
    pub goal: GoalRule3d,
    /// Group name; default `sphere-K`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// Agents on a lattice: agent (i, j, k) at `origin + (i·spacing.x, j·spacing.y, k·spacing.z)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatticeGenerator {
    /// The first agent's position.
    pub origin: Point3,
    /// Agents along x (≥ 1).
    pub columns: usize,
    /// Agents along y (≥ 1).
    pub rows: usize,
    /// Agents along z (≥ 1).
    pub layers: usize,
    /// Distance between neighbours along each axis (may be negative).
    pub spacing: Point3,
    /// Goal rule (`"opposite"` reflects through the lattice's centre).
    pub goal: GoalRule3d,
    /// Group name; default `lattice-K`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// Agents at uniformly random positions in a box, no two overlapping, clear of obstacles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Random3dGenerator {
    /// Number of agents (≥ 1).
    pub count: usize,
    /// The region's smallest corner.
    pub min: Point3,
    /// The region's largest corner.
    pub max: Point3,
    /// Seed: the same seed gives the same positions.
    pub seed: u64,
    /// Goal rule (`"opposite"` reflects through the region's centre).
    pub goal: GoalRule3d,
    /// Group name; default `random-K`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// Agents added during the run: one at `start`, then one every `1 / rate` seconds until
/// `limit`, each at a uniformly random spot of the region clear of the agents present and the
/// obstacles (a spawn whose spot is taken waits for the next step). The planar `[[spawn]]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spawn3dGenerator {
    /// Agents per second (> 0).
    pub rate: f32,
    /// How many agents in all (≥ 1).
    pub limit: usize,
    /// The region's smallest corner (`min = max`: a spawn point).
    pub min: Point3,
    /// The region's largest corner.
    pub max: Point3,
    /// When the first agent comes (s, ≥ 0; default 0).
    #[serde(default)]
    pub start: f32,
    /// Seed of the spots (default 0).
    #[serde(default)]
    pub seed: u64,
    /// Goal rule (a point, `through` or `offset`; not `"opposite"`).
    pub goal: GoalRule3d,
    /// Whether its agents leave the crowd once they reach their goal (a sink; default false).
    #[serde(default)]
    pub remove_at_goal: bool,
    /// Group name; default `spawn-K`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Parameter overrides.
    #[serde(flatten)]
    pub params: ParamOverrides,
}

/// A solid axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoxObstacleSpec {
    /// The corner with the smallest coordinates.
    pub min: Point3,
    /// The corner with the largest coordinates.
    pub max: Point3,
    /// When the box disappears (s of simulated time), as a planar obstacle's `remove_at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove_at: Option<f32>,
}

/// A static triangle mesh (both faces solid, need not be closed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshObstacleSpec {
    /// The vertices.
    pub vertices: Vec<Point3>,
    /// Each triangle as three indices into `vertices`, from 0.
    pub triangles: Vec<[u32; 3]>,
    /// When the mesh disappears (s of simulated time), as a planar obstacle's `remove_at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove_at: Option<f32>,
}

impl ExtensionsSpec {
    /// The 3-D crowd's options these switches stand for.
    pub fn to_extensions3d(self) -> Extensions {
        Extensions {
            symmetry_breaking: self.symmetry_breaking.then(SymmetryBreaking::default),
            overlap_resolution: self.safe_mode.then(OverlapResolution::default),
            strict_speed_limit: self.strict_speed_limit,
        }
    }
}

impl Crowd3dScenario {
    /// Parses and checks a 3-D crowd scenario; `Err` holds every problem found.
    pub fn parse(text: &str, format: Format) -> Result<Crowd3dScenario, Vec<Problem>> {
        Crowd3dScenario::from_root(&document::parse(text, format).map_err(|p| vec![p])?)
    }

    /// Reads a parsed file (see [`super::AnyScenario::parse`], which tells the kinds apart).
    pub(super) fn from_root(root: &Node) -> Result<Crowd3dScenario, Vec<Problem>> {
        let mut reader = super::read::Reader::default();
        let scenario = reader.crowd3d_scenario(root);
        let scenario = match scenario {
            Some(s) if reader.problems.is_empty() => s,
            _ => return Err(super::in_file_order(reader.problems)),
        };
        // Generators and obstacles are expanded once now, so that a region too small for its
        // agents or an agent inside an obstacle is reported here, located through its key.
        let mut problems = match scenario.obstacles().and_then(|o| scenario.population(&o).map(|p| (o, p))) {
            Ok((obstacles, population)) => scenario.placement_problems(&obstacles, &population),
            Err(problem) => vec![problem],
        };
        if problems.is_empty() {
            return Ok(scenario);
        }
        for problem in &mut problems {
            problem.line = super::line_of(root, &problem.key);
        }
        Err(super::in_file_order(problems))
    }

    /// Loads a 3-D crowd scenario file (`.json` is JSON, anything else TOML).
    pub fn load(path: &Path) -> Result<Crowd3dScenario, Error> {
        match super::AnyScenario::load(path)? {
            super::AnyScenario::Crowd3d(s) => Ok(s),
            _ => Err(Error::Scenario {
                file: path.display().to_string(),
                problems: vec![Problem {
                    line: None,
                    key: String::new(),
                    message: "not a 3-D crowd scenario (no [crowd3d] table)".into(),
                }],
            }),
        }
    }

    /// The scenario as pretty JSON (the same keys as the TOML form).
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
