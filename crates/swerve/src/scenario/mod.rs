//! Scenario files: a documented TOML (or JSON) description of a crowd and a ball world, the
//! built-in scenes, the [`Runner`] that plays one step by step, and the trajectory formats.
//! A file with a `[spheres]` table describes a 3-D sphere world instead ([`SphereScenario`],
//! played by [`SphereRunner`]), one with a `[crowd3d]` table a 3-D crowd
//! ([`Crowd3dScenario`], played by [`Crowd3dRunner`]); [`AnyScenario`] reads any kind.
//!
//! The format is described in `docs/scenario-format.md`. Loading reports every problem of a
//! file with its line and key ([`Problem`]), not only the first.

mod any;
mod builtin;
mod crowd3d;
mod crowd3d_generate;
mod crowd3d_read;
mod crowd3d_runner;
mod document;
mod generate;
mod model;
mod placed;
mod read;
mod route;
mod runner;
mod spheres;
mod spheres_read;
mod spheres_runner;
pub mod trajectory;

pub use any::AnyScenario;
pub use builtin::{builtin, BUILTINS};
pub use crowd3d::{
    Agent3dSpec, BoxObstacleSpec, Crowd3dScenario, Crowd3dSpec, GoalRule3d, LatticeGenerator, MeshObstacleSpec,
    Random3dGenerator, Roadmap3dSpec, Spawn3dGenerator, SphereGenerator,
};
pub use crowd3d_generate::{sphere_points, AgentSetup3d, Crowd3dPopulation, InitialAgent3d, Obstacle3d, Spawner3dPlan};
pub use crowd3d_runner::{Crowd3dMetrics, Crowd3dRunner};
pub use generate::{AgentSetup, InitialAgent, InitialBall, Population, SpawnerPlan};
pub use model::*;
pub use route::{Route, RouteRepeat};
pub use runner::{ObstacleRemoval, Runner};
pub use spheres::{
    Bounds3Spec, MeshSpec, Point3, RandomSpheres, SphereScenario, SphereSpec, SpheresSpec, TriangleSpec, MAX_SPHERES,
};
pub use spheres_runner::SphereRunner;

pub use crate::geom::distance_to_segment;
pub use generate::clear_of_obstacles;

use crate::Error;
use std::path::Path;

/// One problem found in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line, when known (a missing key is located at its table).
    pub line: Option<usize>,
    /// The key path, e.g. `circle[0].radius` (empty for the whole file).
    pub key: String,
    /// What is wrong (lowercase, no trailing period).
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if !self.key.is_empty() {
            write!(f, "{}: ", self.key)?;
        }
        f.write_str(&self.message)
    }
}

/// The text formats a scenario can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML (the documented form).
    Toml,
    /// JSON with the same keys.
    Json,
}

impl Format {
    /// By file extension: `.json` is JSON, anything else TOML.
    pub fn of_path(path: &Path) -> Format {
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
            Format::Json
        } else {
            Format::Toml
        }
    }
}

impl Scenario {
    /// Parses and checks a scenario; `Err` holds every problem found (at least one).
    pub fn parse(text: &str, format: Format) -> Result<Scenario, Vec<Problem>> {
        Scenario::from_root(&document::parse(text, format).map_err(|p| vec![p])?)
    }

    /// Reads a parsed file (see [`AnyScenario::parse`], which tells the kinds apart).
    fn from_root(root: &document::Node) -> Result<Scenario, Vec<Problem>> {
        for (key, reader) in [("spheres", "SphereScenario"), ("crowd3d", "Crowd3dScenario")] {
            if let Some(table) = root.get(key) {
                let message = format!("a 3-D scenario's table: read the file with {reader} or AnyScenario");
                return Err(vec![Problem { line: table.line, key: key.into(), message }]);
            }
        }
        let mut reader = read::Reader::default();
        let scenario = reader.scenario(root);
        let scenario = match scenario {
            Some(s) if reader.problems.is_empty() => s,
            _ => return Err(in_file_order(reader.problems)),
        };
        // Generators can fail only when expanded (a region too small for its agents): expand
        // once now so that such a file is reported here, located through the key path.
        let population = scenario.population().and_then(|p| scenario.initial_balls().map(|_| p));
        let mut problems = match population {
            Ok(population) => scenario.placement_problems(&population),
            Err(problem) => vec![problem],
        };
        if problems.is_empty() {
            return Ok(scenario);
        }
        for problem in &mut problems {
            problem.line = line_of(root, &problem.key);
        }
        Err(problems)
    }

    /// [`Scenario::parse`] of TOML text, with the problems joined into one [`Error`] named
    /// after `source` (a file name or `<builtin circle>`).
    pub fn from_toml_str(text: &str, source: &str) -> Result<Scenario, Error> {
        Scenario::parse(text, Format::Toml).map_err(|problems| Error::Scenario { file: source.to_string(), problems })
    }

    /// [`Scenario::parse`] of JSON text (same keys as TOML), with the problems joined into one
    /// [`Error`].
    pub fn from_json_str(text: &str, source: &str) -> Result<Scenario, Error> {
        Scenario::parse(text, Format::Json).map_err(|problems| Error::Scenario { file: source.to_string(), problems })
    }

    /// Loads a scenario file (`.json` is JSON, anything else TOML).
    pub fn load(path: &Path) -> Result<Scenario, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        let source = path.display().to_string();
        match Format::of_path(path) {
            Format::Toml => Scenario::from_toml_str(&text, &source),
            Format::Json => Scenario::from_json_str(&text, &source),
        }
    }

    /// A built-in scenario by name (see [`BUILTINS`]).
    pub fn builtin(name: &str) -> Result<Scenario, Error> {
        let text = builtin(name).ok_or_else(|| Error::UnknownScenario {
            name: name.to_string(),
            known: BUILTINS.iter().map(|b| b.name).collect::<Vec<_>>().join(", "),
        })?;
        Scenario::from_toml_str(text, &format!("<builtin {name}>"))
    }

    /// The scenario as pretty JSON (the same keys as the TOML form).
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// `problems` in file order; problems without a line (JSON) keep their reading order, last.
pub(super) fn in_file_order(mut problems: Vec<Problem>) -> Vec<Problem> {
    problems.sort_by_key(|p| p.line.unwrap_or(usize::MAX));
    problems
}

/// The line of the node at `path` (`circle[0].radius`), or of its nearest ancestor.
pub(super) fn line_of(root: &document::Node, path: &str) -> Option<usize> {
    let mut node = root;
    let mut line = root.line;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, index) = match part.split_once('[') {
            Some((k, rest)) => (k, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        let Some(next) = node.get(key) else { break };
        node = next;
        line = node.line.or(line);
        if let Some(i) = index {
            let document::Value::Array(items) = &node.value else { break };
            let Some(item) = items.get(i) else { break };
            node = item;
            line = node.line.or(line);
        }
    }
    line
}
