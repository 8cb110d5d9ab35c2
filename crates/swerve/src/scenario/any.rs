//! A scenario file of any kind: a crowd and ball world in the plane ([`Scenario`]), a 3-D
//! sphere world ([`SphereScenario`]) or a 3-D crowd ([`Crowd3dScenario`]), told apart by a
//! top-level `[spheres]` or `[crowd3d]` table.

use super::{builtin, document, Crowd3dScenario, Format, Problem, Scenario, SphereScenario, BUILTINS};
use crate::Error;
use std::path::Path;

/// A checked scenario file of any kind.
// One value per file read: the size difference of the variants costs nothing worth a Box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum AnyScenario {
    /// Agents, obstacles and balls in the plane.
    Plane(Scenario),
    /// Spheres and static triangles in space (the file has a `[spheres]` table).
    Spheres(SphereScenario),
    /// A crowd in space with static obstacles and movers (the file has a `[crowd3d]` table).
    Crowd3d(Crowd3dScenario),
}

impl AnyScenario {
    /// Parses and checks a scenario of any kind; `Err` holds every problem found. A file
    /// with a top-level `spheres` key is read as a 3-D ball world, one with a `crowd3d` key
    /// as a 3-D crowd (and their 2-D keys are problems).
    pub fn parse(text: &str, format: Format) -> Result<AnyScenario, Vec<Problem>> {
        let root = document::parse(text, format).map_err(|p| vec![p])?;
        if root.get("spheres").is_some() {
            SphereScenario::from_root(&root).map(AnyScenario::Spheres)
        } else if root.get("crowd3d").is_some() {
            Crowd3dScenario::from_root(&root).map(AnyScenario::Crowd3d)
        } else {
            Scenario::from_root(&root).map(AnyScenario::Plane)
        }
    }

    /// [`AnyScenario::parse`] with the problems joined into one [`Error`] named after
    /// `source` (a file name or `<builtin NAME>`).
    pub fn from_text(text: &str, format: Format, source: &str) -> Result<AnyScenario, Error> {
        AnyScenario::parse(text, format).map_err(|problems| Error::Scenario { file: source.to_string(), problems })
    }

    /// Loads a scenario file of either kind (`.json` is JSON, anything else TOML).
    pub fn load(path: &Path) -> Result<AnyScenario, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        AnyScenario::from_text(&text, Format::of_path(path), &path.display().to_string())
    }

    /// A built-in scenario of either kind by name (see [`BUILTINS`]).
    pub fn builtin(name: &str) -> Result<AnyScenario, Error> {
        let text = builtin(name).ok_or_else(|| Error::UnknownScenario {
            name: name.to_string(),
            known: BUILTINS.iter().map(|b| b.name).collect::<Vec<_>>().join(", "),
        })?;
        AnyScenario::from_text(text, Format::Toml, &format!("<builtin {name}>"))
    }

    /// The scenario's name.
    pub fn name(&self) -> &str {
        match self {
            AnyScenario::Plane(s) => &s.name,
            AnyScenario::Spheres(s) => &s.name,
            AnyScenario::Crowd3d(s) => &s.name,
        }
    }

    /// The scenario's description.
    pub fn description(&self) -> &str {
        match self {
            AnyScenario::Plane(s) => &s.description,
            AnyScenario::Spheres(s) => &s.description,
            AnyScenario::Crowd3d(s) => &s.description,
        }
    }
}

impl SphereScenario {
    /// A built-in 3-D ball scenario by name (see [`BUILTINS`]; another kind is an error).
    pub fn builtin(name: &str) -> Result<SphereScenario, Error> {
        match AnyScenario::builtin(name)? {
            AnyScenario::Spheres(s) => Ok(s),
            _ => Err(wrong_kind(name, "not a 3-D ball scenario (no [spheres] table)")),
        }
    }
}

impl Crowd3dScenario {
    /// A built-in 3-D crowd scenario by name (see [`BUILTINS`]; another kind is an error).
    pub fn builtin(name: &str) -> Result<Crowd3dScenario, Error> {
        match AnyScenario::builtin(name)? {
            AnyScenario::Crowd3d(s) => Ok(s),
            _ => Err(wrong_kind(name, "not a 3-D crowd scenario (no [crowd3d] table)")),
        }
    }
}

/// The error of a built-in of another kind than asked for.
fn wrong_kind(name: &str, message: &str) -> Error {
    Error::Scenario {
        file: format!("<builtin {name}>"),
        problems: vec![Problem { line: None, key: String::new(), message: message.into() }],
    }
}
