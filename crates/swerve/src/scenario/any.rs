//! A scenario file of either kind: a crowd and ball world in the plane ([`Scenario`]) or a
//! 3-D sphere world ([`SphereScenario`]), told apart by a top-level `[spheres]` table.

use super::{builtin, document, Format, Problem, Scenario, SphereScenario, BUILTINS};
use crate::Error;
use std::path::Path;

/// A checked scenario file of either kind.
// One value per file read: the size difference of the variants costs nothing worth a Box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum AnyScenario {
    /// Agents, obstacles and balls in the plane.
    Plane(Scenario),
    /// Spheres and static triangles in space (the file has a `[spheres]` table).
    Spheres(SphereScenario),
}

impl AnyScenario {
    /// Parses and checks a scenario of either kind; `Err` holds every problem found. A file
    /// with a top-level `spheres` key is read as 3-D (and its 2-D keys are problems).
    pub fn parse(text: &str, format: Format) -> Result<AnyScenario, Vec<Problem>> {
        let root = document::parse(text, format).map_err(|p| vec![p])?;
        if root.get("spheres").is_some() {
            SphereScenario::from_root(&root).map(AnyScenario::Spheres)
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
        }
    }

    /// The scenario's description.
    pub fn description(&self) -> &str {
        match self {
            AnyScenario::Plane(s) => &s.description,
            AnyScenario::Spheres(s) => &s.description,
        }
    }
}

impl SphereScenario {
    /// A built-in 3-D scenario by name (see [`BUILTINS`]; a 2-D built-in is an error).
    pub fn builtin(name: &str) -> Result<SphereScenario, Error> {
        match AnyScenario::builtin(name)? {
            AnyScenario::Spheres(s) => Ok(s),
            AnyScenario::Plane(_) => Err(Error::Scenario {
                file: format!("<builtin {name}>"),
                problems: vec![Problem {
                    line: None,
                    key: String::new(),
                    message: "a 2-D scenario (no [spheres] table): load it with Scenario::builtin".into(),
                }],
            }),
        }
    }
}
