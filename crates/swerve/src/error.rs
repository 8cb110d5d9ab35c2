//! The one error type of the library.

use std::path::PathBuf;

/// Everything that can go wrong at the library's boundary (constructors, setters, loaders).
///
/// Once a [`crate::Simulator`] accepted its input, stepping never fails: all validation
/// happens here, up front.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A number that must be finite was NaN or infinite.
    #[error("{what} must be finite, got {value}")]
    NonFinite {
        /// Which quantity was rejected.
        what: &'static str,
        /// The offending value.
        value: f32,
    },
    /// A number was outside its allowed range.
    #[error("{what} must be {requirement}, got {value}")]
    OutOfRange {
        /// Which quantity was rejected.
        what: &'static str,
        /// The rule it breaks, e.g. "greater than 0".
        requirement: &'static str,
        /// The offending value.
        value: f32,
    },
    /// An obstacle polygon with fewer than two vertices.
    #[error("an obstacle needs at least 2 vertices, got {count}")]
    TooFewVertices {
        /// The number of vertices given.
        count: usize,
    },
    /// Two consecutive obstacle vertices coincide (a zero-length edge has no direction).
    #[error("obstacle vertices {first} and {second} are the same point")]
    RepeatedVertex {
        /// Index of the first of the two vertices.
        first: usize,
        /// Index of the second (the next one, cyclically).
        second: usize,
    },
    /// Two edges of an obstacle polygon cross each other.
    #[error("obstacle edges {first} and {second} intersect (the polygon is self-intersecting)")]
    SelfIntersecting {
        /// Index of the first edge (edge i runs from vertex i to vertex i+1).
        first: usize,
        /// Index of the second edge.
        second: usize,
    },
    /// An agent id that does not name a live agent (never added, or removed).
    #[error("unknown agent id {0}")]
    UnknownAgent(u32),
    /// An agent's last decision was asked for, but decisions are not recorded.
    #[error("agent decisions are not recorded: call Simulator::set_record_decisions(true) before stepping")]
    DecisionsNotRecorded,
    /// An instruction set this CPU lacks was asked for (see
    /// [`crate::Simulator::set_instruction_set`]).
    #[error("this CPU does not support the {0} instruction set")]
    UnsupportedInstructionSet(&'static str),
    /// A mover id that does not name a live mover.
    #[error("unknown mover id {0}")]
    UnknownMover(u32),
    /// An obstacle id that does not name an obstacle (never added, or removed).
    #[error("unknown obstacle id {0}")]
    UnknownObstacle(u32),
    /// A ball id that does not name a live ball (never added, or removed).
    #[error("unknown ball id {0}")]
    UnknownBall(u32),
    /// A broad-phase name that is not one of `BroadPhaseKind::ALL`'s names.
    #[error("unknown broad phase {0:?} (expected one of brute-force, sort-and-sweep, uniform-grid, hierarchical-grid, grid-sort-and-sweep, quadtree, aabb-tree)")]
    UnknownBroadPhase(String),
    /// A broad-phase name that is not one of `physics3d::BroadPhaseKind::ALL`'s names.
    #[error("unknown 3-D broad phase {0:?} (expected one of brute-force, sort-and-sweep, uniform-grid, hierarchical-grid, octree)")]
    UnknownBroadPhase3d(String),
    /// A sphere id that does not name a live sphere of a 3-D world (never added, or removed).
    #[error("unknown sphere id {0}")]
    UnknownSphere(u32),
    /// A sphere that does not lie inside its 3-D world's bounds.
    #[error("sphere at ({x}, {y}, {z}) with radius {radius} does not fit inside the world's bounds")]
    SphereOutsideBounds {
        /// Centre x.
        x: f32,
        /// Centre y.
        y: f32,
        /// Centre z.
        z: f32,
        /// Radius.
        radius: f32,
    },
    /// A static triangle of a 3-D world whose corners are repeated or in a line (it has no
    /// normal).
    #[error("triangle {triangle} has no area (its corners are repeated or in a line)")]
    DegenerateTriangle {
        /// The triangle's place in what was given (0 for a single triangle).
        triangle: usize,
    },
    /// A mesh triangle that names a vertex the mesh does not have.
    #[error("triangle {triangle} names vertex {index}, but the mesh has {vertices} vertices")]
    MeshIndexOutOfRange {
        /// The triangle's place in the mesh.
        triangle: usize,
        /// The vertex index it gave.
        index: u32,
        /// How many vertices the mesh has.
        vertices: usize,
    },
    /// A ball that does not lie inside the world's bounds.
    #[error("ball at ({x}, {y}) with radius {radius} does not fit inside the world's bounds")]
    BallOutsideBounds {
        /// Centre x.
        x: f32,
        /// Centre y.
        y: f32,
        /// Radius.
        radius: f32,
    },
    /// Reading a file failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A file was read but its content is malformed.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line number (0 when the whole file is at fault).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A scenario file has problems; all of them are listed (see `swerve validate`).
    #[error("{}", scenario_message(file, problems))]
    Scenario {
        /// The file name, or `<builtin NAME>`.
        file: String,
        /// Every problem found, in file order.
        problems: Vec<crate::scenario::Problem>,
    },
    /// No built-in scenario has this name.
    #[error("unknown scenario \"{name}\" (built-ins: {known})")]
    UnknownScenario {
        /// The name asked for.
        name: String,
        /// The built-in names, comma-separated.
        known: String,
    },
}

/// `file:line: key: message`, and how many more problems there are.
fn scenario_message(file: &str, problems: &[crate::scenario::Problem]) -> String {
    let Some(first) = problems.first() else { return format!("{file}: invalid scenario") };
    let mut text = file.to_string();
    if let Some(line) = first.line {
        text += &format!(":{line}");
    }
    text += ": ";
    if !first.key.is_empty() {
        text += &format!("{}: ", first.key);
    }
    text += &first.message;
    if problems.len() > 1 {
        text += &format!(" (and {} more problems)", problems.len() - 1);
    }
    text
}

impl Error {
    /// Checks that `value` is finite.
    pub(crate) fn check_finite(what: &'static str, value: f32) -> Result<f32, Error> {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Error::NonFinite { what, value })
        }
    }

    /// Checks that `value` is finite and strictly positive.
    pub(crate) fn check_positive(what: &'static str, value: f32) -> Result<f32, Error> {
        Self::check_finite(what, value)?;
        if value > 0.0 {
            Ok(value)
        } else {
            Err(Error::OutOfRange { what, requirement: "greater than 0", value })
        }
    }

    /// Checks that `value` is finite and not negative.
    pub(crate) fn check_non_negative(what: &'static str, value: f32) -> Result<f32, Error> {
        Self::check_finite(what, value)?;
        if value >= 0.0 {
            Ok(value)
        } else {
            Err(Error::OutOfRange { what, requirement: "at least 0", value })
        }
    }

    /// Checks that both components of a point are finite.
    pub(crate) fn check_finite_vec(what: &'static str, v: glam::Vec2) -> Result<glam::Vec2, Error> {
        Self::check_finite(what, v.x)?;
        Self::check_finite(what, v.y)?;
        Ok(v)
    }

    /// Checks that the three components of a point or vector in space are finite.
    pub(crate) fn check_finite_vec3(what: &'static str, v: glam::Vec3) -> Result<glam::Vec3, Error> {
        for component in v.to_array() {
            Self::check_finite(what, component)?;
        }
        Ok(v)
    }
}
