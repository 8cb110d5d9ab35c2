//! Reading a 3-D scenario (a `[spheres]` table) with the 2-D reader's checks, collecting every
//! problem with its line and key. What only the physics world knows (a sphere poking through
//! its walls, a triangle without area, a mesh index beyond its vertices) is asked of
//! [`crate::physics3d`] itself, and its error becomes the entry's problem.

use super::document::{Node, Value};
use super::read::{describe, Header, RandomKind, Range, Reader, Table, HEADER_KEYS, SCENARIO_KEYS};
use super::spheres::{
    Bounds3Spec, MeshSpec, Point3, RandomSpheres, SphereScenario, SphereSpec, SpheresSpec, TriangleSpec, MAX_SPHERES,
};
use crate::physics3d::{BroadPhaseKind, Sphere, Triangle, Vec3, World};
use crate::Error;

/// The keys of `[spheres]`.
const SPHERES_KEYS: [&str; 11] = [
    "broad_phase",
    "bounds",
    "gravity",
    "linear_damping",
    "solver_iterations",
    "substeps",
    "continuous_collision",
    "sphere",
    "random",
    "triangle",
    "mesh",
];

/// Why the counts of random spheres are limited, as their problems say.
const SPHERE_LIMIT: &str = "the limit of spheres per file";

impl Reader {
    /// Reads a whole 3-D scenario; `None` when any problem was found.
    pub(super) fn sphere_scenario(&mut self, root: &Node) -> Option<SphereScenario> {
        let t = self.expect_table(root, "")?;
        self.check_top_level_keys(t);
        let Header { name, description, time_step, steps } = self.header(t);
        let spheres = match t.node.get("spheres") {
            Some(node) => self.expect_table(node, "spheres").and_then(|s| self.spheres_table(s)),
            None => {
                self.missing(t, "spheres");
                None
            }
        };
        let scenario =
            SphereScenario { name: name?, description, time_step: time_step?, steps: steps?, spheres: spheres? };
        if !self.problems.is_empty() {
            return None;
        }
        if scenario.spheres.sphere.is_empty() && scenario.spheres.random.is_empty() {
            let line = t.node.get("spheres").and_then(|n| n.line);
            self.problem(line, "spheres".into(), "no spheres (add [[spheres.sphere]] or [[spheres.random]] entries)");
            return None;
        }
        Some(scenario)
    }

    /// Like [`Reader::check_keys`], but a 2-D scenario's key (agents, balls, obstacles, …)
    /// gets its own message: the file mixes the two kinds of scenario.
    fn check_top_level_keys(&mut self, t: Table) {
        let Value::Table(entries) = &t.node.value else { return };
        let known: Vec<&str> = HEADER_KEYS.iter().copied().chain(["spheres"]).collect();
        for (key, node) in entries {
            if known.contains(&key.as_str()) {
                continue;
            }
            let message = if key == "crowd3d" {
                "a 3-D crowd's table: a file is either a ball world ([spheres]) or a crowd ([crowd3d])".to_string()
            } else if SCENARIO_KEYS.contains(&key.as_str()) {
                "a 2-D scenario's key: a file with [spheres] is a 3-D scenario and has no agents, balls, \
                 obstacles or crowd settings"
                    .to_string()
            } else {
                format!("unknown key (expected one of: {})", known.join(", "))
            };
            self.problem(node.line, key.clone(), message);
        }
    }

    fn spheres_table(&mut self, s: Table) -> Option<SpheresSpec> {
        self.check_keys(s, &SPHERES_KEYS);
        let default_kind = BroadPhaseKind::UniformGrid.name().to_string();
        let broad_phase = match self.opt_string(s, "broad_phase") {
            Some(name) => match name.parse::<BroadPhaseKind>() {
                Ok(_) => name,
                Err(e) => {
                    let line = s.node.get("broad_phase").and_then(|n| n.line);
                    self.problem(line, "spheres.broad_phase".into(), e.to_string());
                    // Keep reading: the rest of [spheres] may have problems of its own.
                    default_kind
                }
            },
            None => default_kind,
        };
        let bounds = s.node.get("bounds").and_then(|n| self.expect_table(n, "spheres.bounds")).and_then(|bt| {
            self.check_keys(bt, &["min", "max"]);
            self.region(bt, false).map(|(min, max)| Bounds3Spec { min, max })
        });
        let gravity = self.opt_vector(s, "gravity").unwrap_or([0.0; 3]);
        let linear_damping = self.opt_number(s, "linear_damping", Range::NonNegative).unwrap_or(0.0);
        let solver_iterations = self.opt_integer(s, "solver_iterations", 1).map(|i| i as usize);
        let solver_iterations = self
            .at_most(s, "solver_iterations", solver_iterations, 1_000, "the solver's limit")
            .unwrap_or(World::DEFAULT_SOLVER_ITERATIONS);
        let substeps = self.opt_integer(s, "substeps", 1).map(|i| i as usize);
        let substeps = self.at_most(s, "substeps", substeps, World::MAX_SUBSTEPS, "the world's limit").unwrap_or(1);
        let continuous_collision = self.opt_bool(s, "continuous_collision").unwrap_or(true);

        // The world itself decides whether a listed sphere fits inside its walls: a scratch
        // world with the file's bounds is given each sphere that read cleanly.
        let mut walls = bounds.and_then(|b| World::new(Some(b.to_aabb()), BroadPhaseKind::BruteForce).ok());
        let sphere = self.tables(s, "sphere", |r, t| r.listed_sphere(t, walls.as_mut()));
        let random = self.tables(s, "random", |r, t| r.random_spheres(t, bounds));
        let triangle = self.tables(s, "triangle", |r, t| r.triangle(t));
        let mesh = self.tables(s, "mesh", |r, t| r.mesh(t));
        Some(SpheresSpec {
            broad_phase,
            bounds,
            gravity,
            linear_damping,
            solver_iterations,
            substeps,
            continuous_collision,
            sphere,
            random,
            triangle,
            mesh,
        })
    }

    /// Adds `count` spheres made by `key` of `t` to the file's total ([`MAX_SPHERES`]).
    fn count_spheres(&mut self, t: Table, key: &str, count: usize) {
        self.spheres = self.add_to_limit(t, key, self.spheres, count, MAX_SPHERES, "spheres");
    }

    /// `radius` when the world takes it: its volume (`4/3 π r³`, [`Sphere::new`]'s mass) must
    /// be finite, as [`World::add_sphere`] requires of every sphere (an infinite mass would make
    /// the sphere kinematic by accident).
    fn sphere_radius(&mut self, t: Table, key: &str, radius: f32) -> Option<f32> {
        if Sphere::new(Vec3::ZERO, Vec3::ZERO, radius).mass.is_finite() {
            return Some(radius);
        }
        let line = t.node.get(key).and_then(|n| n.line);
        let problem = format!("must be below 4.3e12 (its volume, 4/3 π r³, must be finite), got {radius}");
        self.problem(line, Self::join(t.path, key), problem);
        None
    }

    /// `[low, high]` at `key` of `t` (required).
    fn req_interval(&mut self, t: Table, key: &str) -> Option<[f32; 2]> {
        let Some(node) = t.node.get(key) else {
            self.missing(t, key);
            return None;
        };
        self.numbers(node, &Self::join(t.path, key), "[low, high]")
    }

    /// One `[[spheres.sphere]]`; `walls` is a world with the file's bounds, if it has any.
    fn listed_sphere(&mut self, t: Table, walls: Option<&mut World>) -> Option<SphereSpec> {
        self.check_keys(
            t,
            &[
                "position",
                "velocity",
                "radius",
                "mass",
                "restitution",
                "friction",
                "rolling_resistance",
                "angular_velocity",
                "kinematic",
            ],
        );
        let position = self.req_vector(t, "position");
        let velocity = self.opt_vector(t, "velocity").unwrap_or([0.0; 3]);
        let mass = self.opt_number(t, "mass", Range::Positive);
        let kinematic = self.opt_bool(t, "kinematic").unwrap_or(false);
        let radius = self.req_number(t, "radius", Range::Positive);
        let radius = radius.and_then(|radius| self.sphere_radius(t, "radius", radius));
        let restitution = self.opt_number(t, "restitution", Range::Unit).unwrap_or(1.0);
        let friction = self.opt_number(t, "friction", Range::NonNegative).unwrap_or(0.0);
        let rolling_resistance = self.opt_number(t, "rolling_resistance", Range::NonNegative).unwrap_or(0.0);
        let angular_velocity = self.opt_vector(t, "angular_velocity").unwrap_or([0.0; 3]);
        self.count_spheres(t, "", 1);
        let spec = SphereSpec {
            position: position?,
            velocity,
            radius: radius?,
            mass,
            restitution,
            friction,
            rolling_resistance,
            angular_velocity,
            kinematic,
        };
        if let Some(world) = walls {
            // Every other rule of `add_sphere` was checked key by key above, so what remains
            // is the walls (a kinematic sphere passes through them, so it may be outside).
            if let Err(e) = world.add_sphere(spec.to_sphere()) {
                let message = match e {
                    Error::SphereOutsideBounds { .. } => {
                        format!("{e} (spheres.bounds; only a kinematic sphere may be outside)")
                    }
                    other => other.to_string(),
                };
                self.problem(t.node.line, t.path.to_string(), message);
                return None;
            }
        }
        Some(spec)
    }

    /// One `[[spheres.random]]`: the planar entry's keys in three dimensions.
    fn random_spheres(&mut self, t: Table, bounds: Option<Bounds3Spec>) -> Option<RandomSpheres> {
        let kind = RandomKind {
            bounds: bounds.map(|b| (b.min, b.max)),
            bounds_key: "spheres.bounds",
            limit: (MAX_SPHERES, SPHERE_LIMIT),
            count: Reader::count_spheres,
            interval: Reader::req_interval,
            largest_radius: Reader::sphere_radius,
        };
        let e = self.random_entry(t, kind)?;
        Some(RandomSpheres {
            count: e.count,
            min: e.min,
            max: e.max,
            radius: e.radius,
            speed: e.speed,
            restitution: e.restitution,
            friction: e.friction,
            rolling_resistance: e.rolling_resistance,
            seed: e.seed,
        })
    }

    /// One `[[spheres.triangle]]`: three corners with an area ([`Triangle::new`] decides).
    fn triangle(&mut self, t: Table) -> Option<TriangleSpec> {
        self.check_keys(t, &["corners"]);
        let corners: Vec<Point3> = self.point_list(t, "corners", 3)?;
        let path = Self::join(t.path, "corners");
        let line = t.node.get("corners").and_then(|n| n.line);
        let [a, b, c] = corners[..] else {
            self.problem(line, path, format!("needs exactly 3 points, got {}", corners.len()));
            return None;
        };
        if let Err(e) = Triangle::new(Vec3::from(a), Vec3::from(b), Vec3::from(c)) {
            let message = match e {
                // The error numbers triangles within a call (0 here); the key names this one.
                Error::DegenerateTriangle { .. } => "has no area (its corners are repeated or in a line)".to_string(),
                other => other.to_string(),
            };
            self.problem(line, path, message);
            return None;
        }
        Some(TriangleSpec { corners: [a, b, c] })
    }

    /// One `[[spheres.mesh]]`: vertices, and triangles of three indices into them, each
    /// checked as [`World::add_mesh`] checks it, with the triangle's own line.
    fn mesh(&mut self, t: Table) -> Option<MeshSpec> {
        self.check_keys(t, &["vertices", "triangles"]);
        let vertices: Option<Vec<Point3>> = self.point_list(t, "vertices", 3);
        let triangles = self.index_triples(t, "triangles");
        let (vertices, triangles) = (vertices?, triangles?);
        let mut all_good = true;
        for (k, (indices, line)) in triangles.iter().enumerate() {
            let path = format!("{}.triangles[{k}]", t.path);
            let beyond = indices.iter().find(|&&i| i as usize >= vertices.len());
            let problem = match beyond {
                Some(&index) => Some(Error::MeshIndexOutOfRange { triangle: k, index, vertices: vertices.len() }),
                None => {
                    let [a, b, c] = indices.map(|i| Vec3::from(vertices[i as usize]));
                    Triangle::new(a, b, c).err().map(|e| match e {
                        Error::DegenerateTriangle { .. } => Error::DegenerateTriangle { triangle: k },
                        other => other,
                    })
                }
            };
            if let Some(e) = problem {
                self.problem(*line, path, e.to_string());
                all_good = false;
            }
        }
        all_good.then(|| MeshSpec { vertices, triangles: triangles.into_iter().map(|(indices, _)| indices).collect() })
    }

    /// `[[i, j, k], ...]` at `key` of `t` (required, at least one): vertex indices, each with
    /// the line of its triple.
    fn index_triples(&mut self, t: Table, key: &str) -> Option<Vec<([u32; 3], Option<usize>)>> {
        let Some(node) = t.node.get(key) else {
            self.missing(t, key);
            return None;
        };
        let path = Self::join(t.path, key);
        let items = match &node.value {
            Value::Array(items) if !items.is_empty() => items,
            _ => {
                let found = describe(node);
                self.problem(
                    node.line,
                    path,
                    format!("expected a list of index triples [[i, j, k], ...], found {found}"),
                );
                return None;
            }
        };
        let mut triples = Vec::with_capacity(items.len());
        let mut all_read = true;
        for (k, item) in items.iter().enumerate() {
            let item_path = format!("{path}[{k}]");
            let Value::Array(indices) = &item.value else {
                self.problem(
                    item.line,
                    item_path,
                    format!("expected three vertex indices [i, j, k], found {}", describe(item)),
                );
                all_read = false;
                continue;
            };
            if indices.len() != 3 {
                self.problem(
                    item.line,
                    item_path,
                    format!("expected three vertex indices [i, j, k], found {}", describe(item)),
                );
                all_read = false;
                continue;
            }
            let mut triple = [0u32; 3];
            for (slot, index) in triple.iter_mut().zip(indices) {
                match self.vertex_index(index, &item_path) {
                    Some(i) => *slot = i,
                    None => all_read = false,
                }
            }
            triples.push((triple, item.line.or(node.line)));
        }
        all_read.then_some(triples)
    }

    /// One vertex index: an integer from 0 to `u32::MAX` (the world's index type).
    fn vertex_index(&mut self, node: &Node, path: &str) -> Option<u32> {
        match node.value {
            Value::Integer(i) => match u32::try_from(i) {
                Ok(i) => Some(i),
                Err(_) => {
                    self.problem(
                        node.line,
                        path.to_string(),
                        format!("vertex indices run from 0 to {}, got {i}", u32::MAX),
                    );
                    None
                }
            },
            ref other => {
                let message = format!("expected an integer vertex index, found {}", other.kind());
                self.problem(node.line, path.to_string(), message);
                None
            }
        }
    }
}
