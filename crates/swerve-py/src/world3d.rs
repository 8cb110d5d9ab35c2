//! `swerve.World3d`: the 3-D ball physics (`swerve::physics3d`), spheres in a box with a
//! selectable broad phase, with numpy arrays in and out. The same shape as `swerve.World` one
//! dimension up.

use crate::errors::{invalid_value, IntoPyResult};
use crate::native3d::{points3, vec3};
use glam::Vec3;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use swerve::physics3d::{Aabb3, BoxWall, BroadPhaseKind, Collider, Sphere, SphereId, World};

fn broad_phase(name: &str) -> PyResult<BroadPhaseKind> {
    name.parse::<BroadPhaseKind>().py()
}

fn check_dt(dt: f32) -> PyResult<f32> {
    // The library ignores such a step; at the Python boundary it is a mistake worth saying.
    if dt.is_finite() && dt > 0.0 {
        Ok(dt)
    } else {
        Err(invalid_value(format!("dt must be finite and greater than 0, got {dt}")))
    }
}

/// A mass from Python's `float`: `math.inf` means kinematic, but a finite number too large for
/// `f32` must not round to infinity and make the sphere kinematic by accident.
fn mass(value: f64, what: &str) -> PyResult<f32> {
    let m = value as f32;
    if value.is_finite() && !m.is_finite() {
        return Err(invalid_value(format!(
            "{what} must be at most {:e} (or math.inf for kinematic), got {value:e}",
            f32::MAX
        )));
    }
    Ok(m)
}

/// A per-sphere value: one number for all `n` spheres or a 1-D array of length `n`, read as
/// `float64` (so that [`mass`] can tell an overflow from `math.inf`). A one-element array is
/// not taken for a number: it must have `n` elements like any other.
fn per_sphere(value: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<f64>> {
    let numpy = value.py().import("numpy")?;
    let array = numpy
        .call_method1("asarray", (value, "float64"))
        .map_err(|e| invalid_value(format!("cannot read {what} as numbers: {e}")))?;
    if array.getattr("ndim")?.extract::<usize>()? == 0 {
        return Ok(vec![array.call_method0("item")?.extract::<f64>()?; n]);
    }
    let array: PyReadonlyArray1<'_, f64> =
        array.extract().map_err(|_| invalid_value(format!("{what} must be a number or a 1-D array")))?;
    if array.len() != n {
        return Err(invalid_value(format!("{what} must have {n} values (one per sphere), got {}", array.len())));
    }
    Ok(array.as_array().to_vec())
}

/// An `(M, 3)` array of vertex indices: integers only (a float index is refused rather than
/// truncated), none negative or beyond `u32`.
pub fn index_triples(value: &Bound<'_, PyAny>) -> PyResult<Vec<[u32; 3]>> {
    let numpy = value.py().import("numpy")?;
    let array = numpy
        .call_method1("asarray", (value,))
        .map_err(|e| invalid_value(format!("cannot read triangles as an array: {e}")))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if shape.len() != 2 || shape[1] != 3 {
        return Err(invalid_value(format!("triangles must have shape (M, 3), got {shape:?}")));
    }
    if shape[0] > 0 && kind != "i" && kind != "u" {
        return Err(invalid_value("triangles must be integer vertex indices"));
    }
    let array: PyReadonlyArray2<'_, i64> = array.call_method1("astype", ("int64",))?.extract()?;
    let view = array.as_array();
    let index = |value: i64| {
        u32::try_from(value).map_err(|_| invalid_value(format!("a triangle names vertex {value}, which no mesh has")))
    };
    view.rows().into_iter().map(|row| Ok([index(row[0])?, index(row[1])?, index(row[2])?])).collect()
}

/// A collider as `(kind, index)`: a sphere by id, a triangle by its index in
/// `triangles()`, a wall as 0–5 for min x, max x, min y, max y, min z, max z.
fn collider(c: Collider) -> (&'static str, u64) {
    match c {
        Collider::Sphere(s) => ("sphere", u64::from(s.0)),
        Collider::Triangle(t) => ("triangle", t as u64),
        Collider::Wall(w) => (
            "wall",
            match w {
                BoxWall::MinX => 0,
                BoxWall::MaxX => 1,
                BoxWall::MinY => 2,
                BoxWall::MaxY => 3,
                BoxWall::MinZ => 4,
                BoxWall::MaxZ => 5,
            },
        ),
    }
}

fn triple(v: Vec3) -> (f32, f32, f32) {
    (v.x, v.y, v.z)
}

/// `N` vectors as a new `(N, 3)` float32 array.
fn to_array<'py>(py: Python<'py>, values: impl Iterator<Item = Vec3>, n: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = values.flat_map(|v| v.to_array()).collect();
    PyArray1::from_vec(py, flat).reshape([n, 3])
}

/// Spheres with mass that bounce off each other, off the walls of an optional box and off
/// static triangles (`add_triangle`, `add_mesh`), with continuous collision detection and
/// optional gravity; `cast_ray` and `spheres_in_ball` query them between steps. Units: metres,
/// seconds, kilograms.
///
/// `broad_phase` names the algorithm that finds candidate pairs: "brute-force",
/// "sort-and-sweep", "uniform-grid", "hierarchical-grid" or "octree"
/// (`World3d.broad_phases()`); all give the same motion, bit for bit. The default is the
/// uniform grid, the fastest on most scenes (sort-and-sweep, the planar `World`'s default,
/// filters poorly on one axis in space).
///
/// Spheres are identified by stable integer ids (0, 1, 2, … in order of addition, never reused
/// after `remove_sphere`). Bulk methods (`positions()`, `radii()`, …) use the order of
/// `sphere_ids()`.
#[pyclass(module = "swerve", name = "World3d")]
pub struct PyWorld3d {
    world: World,
}

#[pymethods]
impl PyWorld3d {
    /// A world; `bounds` is `((min_x, min_y, min_z), (max_x, max_y, max_z))` of a box whose
    /// walls the spheres bounce off, or `None` for open space. `gravity` is `(x, y, z)` in
    /// m/s² (default none).
    #[new]
    #[pyo3(signature = (bounds = None, broad_phase = "uniform-grid", gravity = None))]
    fn new(
        bounds: Option<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
        broad_phase: &str,
        gravity: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let kind = self::broad_phase(broad_phase)?;
        let bounds = match bounds {
            None => None,
            Some((lo, hi)) => Some(Aabb3 { min: vec3(&lo, "bounds min")?, max: vec3(&hi, "bounds max")? }),
        };
        let mut world = World::new(bounds, kind).py()?;
        if let Some(g) = gravity {
            world.set_gravity(vec3(&g, "gravity")?).py()?;
        }
        Ok(PyWorld3d { world })
    }

    /// The names of the broad phases.
    #[staticmethod]
    fn broad_phases() -> Vec<String> {
        BroadPhaseKind::ALL.iter().map(ToString::to_string).collect()
    }

    /// The broad phase in use (its name); assign a name to switch.
    #[getter(broad_phase)]
    fn get_broad_phase(&self) -> String {
        self.world.broad_phase().to_string()
    }

    #[setter(broad_phase)]
    fn set_broad_phase(&mut self, name: &str) -> PyResult<()> {
        self.world.set_broad_phase(broad_phase(name)?);
        Ok(())
    }

    /// The box as `((min_x, min_y, min_z), (max_x, max_y, max_z))`, or `None` (open space).
    #[getter]
    #[allow(clippy::type_complexity)] // the Python value's shape
    fn bounds(&self) -> Option<((f32, f32, f32), (f32, f32, f32))> {
        self.world.bounds().map(|b| (triple(b.min), triple(b.max)))
    }

    /// Adds one sphere; `mass` defaults to the ball's volume (density 1, `4/3 π r³`).
    /// Returns its id.
    ///
    /// `mass=math.inf` makes a kinematic sphere: it moves only as its velocity says (change it
    /// with `set_sphere`), pushes the spheres it meets, passes through the walls and other
    /// kinematic spheres, ignores gravity, and is left out of `momentum()` and
    /// `kinetic_energy()`. `restitution` is in `[0, 1]` (a pair uses the larger of the two).
    /// `friction` is a Coulomb coefficient ≥ 0 (a pair uses `√(μa·μb)`; 0, the default, is
    /// frictionless): contacts then spin the sphere (`angular_velocity`, rad/s, `I = 2/5 m r²`).
    /// `rolling_resistance` ≥ 0 (default 0) brakes its rolling in resting contacts (a sphere
    /// rolling on a floor slows at `5/7 · c · g`).
    #[pyo3(signature = (
        position, velocity = None, *, radius = 1.0, mass = None, restitution = 1.0, friction = 0.0,
        angular_velocity = None, rolling_resistance = 0.0
    ))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn add_sphere(
        &mut self,
        position: &Bound<'_, PyAny>,
        velocity: Option<&Bound<'_, PyAny>>,
        radius: f32,
        mass: Option<f64>,
        restitution: f32,
        friction: f32,
        angular_velocity: Option<&Bound<'_, PyAny>>,
        rolling_resistance: f32,
    ) -> PyResult<u32> {
        let position = vec3(position, "position")?;
        let velocity = velocity.map(|v| vec3(v, "velocity")).transpose()?.unwrap_or(Vec3::ZERO);
        let spin = angular_velocity.map(|w| vec3(w, "angular_velocity")).transpose()?.unwrap_or(Vec3::ZERO);
        let mut sphere = Sphere::new(position, velocity, radius)
            .with_restitution(restitution)
            .with_friction(friction)
            .with_rolling_resistance(rolling_resistance);
        sphere.angular_velocity = spin;
        if let Some(m) = mass {
            sphere = sphere.with_mass(self::mass(m, "mass")?);
        }
        Ok(self.world.add_sphere(sphere).py()?.0)
    }

    /// Adds `N` spheres: `positions` and `velocities` (default 0) are `(N, 3)`; `radii`
    /// (default 1), `masses` (default: volume), `restitutions` (default 1), `frictions` and
    /// `rolling_resistances` (default 0) one number for all or `N`. Returns the ids (uint32).
    /// Nothing is added if any sphere is invalid.
    #[pyo3(signature = (
        positions, velocities = None, *, radii = None, masses = None, restitutions = None, frictions = None,
        rolling_resistances = None
    ))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn add_spheres<'py>(
        &mut self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        velocities: Option<&Bound<'py, PyAny>>,
        radii: Option<&Bound<'py, PyAny>>,
        masses: Option<&Bound<'py, PyAny>>,
        restitutions: Option<&Bound<'py, PyAny>>,
        frictions: Option<&Bound<'py, PyAny>>,
        rolling_resistances: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let positions = points3(positions, "positions")?;
        let n = positions.len();
        let velocities = match velocities {
            Some(v) => points3(v, "velocities")?,
            None => vec![Vec3::ZERO; n],
        };
        if velocities.len() != n {
            return Err(invalid_value(format!("velocities must have {n} rows, got {}", velocities.len())));
        }
        // `f64` to `f32` rounds like Python's `float` to the library's `f32`; an overflow
        // becomes infinite, which the library refuses (but for masses, see `mass`).
        let radii = match radii {
            Some(r) => per_sphere(r, n, "radii")?.into_iter().map(|r| r as f32).collect(),
            None => vec![1.0; n],
        };
        let masses = match masses {
            Some(m) => Some(
                per_sphere(m, n, "masses")?.into_iter().map(|m| mass(m, "masses")).collect::<PyResult<Vec<f32>>>()?,
            ),
            None => None,
        };
        let restitutions = match restitutions {
            Some(e) => per_sphere(e, n, "restitutions")?.into_iter().map(|e| e as f32).collect(),
            None => vec![1.0; n],
        };
        let frictions = match frictions {
            Some(f) => per_sphere(f, n, "frictions")?.into_iter().map(|f| f as f32).collect(),
            None => vec![0.0; n],
        };
        let rolling_resistances = match rolling_resistances {
            Some(c) => per_sphere(c, n, "rolling_resistances")?.into_iter().map(|c| c as f32).collect(),
            None => vec![0.0; n],
        };
        let spheres: Vec<Sphere> = (0..n)
            .map(|i| {
                let sphere = Sphere::new(positions[i], velocities[i], radii[i])
                    .with_restitution(restitutions[i])
                    .with_friction(frictions[i])
                    .with_rolling_resistance(rolling_resistances[i]);
                match &masses {
                    Some(m) => sphere.with_mass(m[i]),
                    None => sphere,
                }
            })
            .collect();
        // Validate every sphere with the library's own rules on a scratch world first, so
        // that a bad sphere adds nothing.
        let mut scratch = World::new(self.world.bounds(), BroadPhaseKind::BruteForce).py()?;
        for sphere in &spheres {
            scratch.add_sphere(*sphere).py()?;
        }
        drop(scratch);
        let mut ids = Vec::with_capacity(n);
        for sphere in spheres {
            match self.world.add_sphere(sphere) {
                Ok(id) => ids.push(id.0),
                Err(error) => {
                    // Only the id limit (2^31 ids ever handed out) can refuse a sphere the
                    // scratch world took: take the batch back out.
                    let first = ids.first().copied().unwrap_or(u32::MAX);
                    self.world.retain_spheres(|id, _| id.0 < first);
                    return Err(error).py();
                }
            }
        }
        Ok(PyArray1::from_vec(py, ids))
    }

    /// Advances `n` steps of `dt` seconds each. The GIL is released meanwhile.
    #[pyo3(signature = (dt, n = 1))]
    fn step(&mut self, py: Python<'_>, dt: f32, n: usize) -> PyResult<()> {
        let dt = check_dt(dt)?;
        let world = &mut self.world;
        py.allow_threads(|| {
            for _ in 0..n {
                world.step(dt);
            }
        });
        Ok(())
    }

    /// The number of live spheres.
    fn __len__(&self) -> usize {
        self.world.num_spheres()
    }

    /// The number of live spheres.
    #[getter]
    fn num_spheres(&self) -> usize {
        self.world.num_spheres()
    }

    /// The live spheres' ids (uint32), in the row order of the bulk arrays.
    fn sphere_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_iter(py, self.world.sphere_ids().iter().map(|s| s.0))
    }

    /// Whether `sphere` is a live sphere id.
    fn contains_sphere(&self, sphere: u32) -> bool {
        self.world.contains_sphere(SphereId(sphere))
    }

    /// One sphere's state as a dict: `position` and `velocity` (tuples), `radius`, `mass`
    /// (`math.inf` for a kinematic sphere), `restitution`, `friction`, `rolling_resistance` and
    /// `angular_velocity`.
    fn sphere<'py>(&self, py: Python<'py>, sphere: u32) -> PyResult<Bound<'py, PyDict>> {
        let s = self.world.sphere(SphereId(sphere)).py()?;
        let d = PyDict::new(py);
        d.set_item("position", triple(s.position))?;
        d.set_item("velocity", triple(s.velocity))?;
        d.set_item("radius", s.radius)?;
        d.set_item("mass", s.mass)?;
        d.set_item("restitution", s.restitution)?;
        d.set_item("friction", s.friction)?;
        d.set_item("rolling_resistance", s.rolling_resistance)?;
        d.set_item("angular_velocity", triple(s.angular_velocity))?;
        Ok(d)
    }

    /// Changes the given fields of one sphere (the others keep their values, the mass too
    /// when the radius changes), with the rules of `add_sphere`; nothing changes on error. A
    /// sphere moved onto another is pushed out by the next step.
    #[pyo3(signature = (
        sphere, *, position = None, velocity = None, radius = None, mass = None, restitution = None,
        friction = None, angular_velocity = None, rolling_resistance = None
    ))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn set_sphere(
        &mut self,
        sphere: u32,
        position: Option<&Bound<'_, PyAny>>,
        velocity: Option<&Bound<'_, PyAny>>,
        radius: Option<f32>,
        mass: Option<f64>,
        restitution: Option<f32>,
        friction: Option<f32>,
        angular_velocity: Option<&Bound<'_, PyAny>>,
        rolling_resistance: Option<f32>,
    ) -> PyResult<()> {
        let id = SphereId(sphere);
        let mut s = self.world.sphere(id).py()?;
        if let Some(p) = position {
            s.position = vec3(p, "position")?;
        }
        if let Some(v) = velocity {
            s.velocity = vec3(v, "velocity")?;
        }
        s.radius = radius.unwrap_or(s.radius);
        if let Some(m) = mass {
            s.mass = self::mass(m, "mass")?;
        }
        s.restitution = restitution.unwrap_or(s.restitution);
        s.friction = friction.unwrap_or(s.friction);
        s.rolling_resistance = rolling_resistance.unwrap_or(s.rolling_resistance);
        if let Some(w) = angular_velocity {
            s.angular_velocity = vec3(w, "angular_velocity")?;
        }
        self.world.set_sphere(id, s).py()
    }

    /// Applies an impulse (N·s) to one sphere: its velocity changes by `impulse / mass`, and
    /// the world's momentum by `impulse` (f64 precision). A kinematic sphere does not change.
    fn apply_impulse(&mut self, sphere: u32, impulse: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world.apply_impulse(SphereId(sphere), vec3(impulse, "impulse")?).py()
    }

    /// Removes one sphere; the other ids stay valid and the id is never reused.
    fn remove_sphere(&mut self, sphere: u32) -> PyResult<()> {
        self.world.remove_sphere(SphereId(sphere)).py().map(drop)
    }

    /// Removes several spheres in one pass (any iterable of ids). Nothing is removed if one
    /// of the ids is unknown.
    fn remove_spheres(&mut self, spheres: Vec<u32>) -> PyResult<()> {
        if let Some(&unknown) = spheres.iter().find(|&&s| !self.world.contains_sphere(SphereId(s))) {
            return self.world.sphere(SphereId(unknown)).py().map(drop);
        }
        let gone: std::collections::HashSet<u32> = spheres.into_iter().collect();
        self.world.retain_spheres(|id, _| !gone.contains(&id.0));
        Ok(())
    }

    /// Adds a static triangle with corners `a`, `b`, `c` (each `(x, y, z)`, m). Both faces are
    /// solid: spheres bounce off it, rest and roll on it, and do not pass through it (kinematic
    /// spheres do). Raises `ValueError` for a non-finite corner or a triangle without area.
    fn add_triangle(&mut self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, c: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world.add_triangle(vec3(a, "a")?, vec3(b, "b")?, vec3(c, "c")?).py()
    }

    /// Adds a triangle mesh: `vertices` an `(N, 3)` array (m), `triangles` an `(M, 3)`
    /// integer array of vertex indices. All or nothing: a non-finite vertex, an index out of
    /// range or a triangle without area raises `ValueError` and adds no triangle.
    fn add_mesh(&mut self, vertices: &Bound<'_, PyAny>, triangles: &Bound<'_, PyAny>) -> PyResult<()> {
        let vertices = points3(vertices, "vertices")?;
        let triangles = index_triples(triangles)?;
        self.world.add_mesh(&vertices, &triangles).py()
    }

    /// The static triangles as a new `(M, 3, 3)` float32 array: triangle, corner, coordinate.
    fn triangles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let triangles = self.world.triangles();
        let flat: Vec<f32> = triangles.iter().flat_map(|t| [t.a, t.b, t.c]).flat_map(|v| v.to_array()).collect();
        PyArray1::from_vec(py, flat).reshape([triangles.len(), 3, 3])
    }

    /// The ids (uint32) of the spheres that overlap the ball (`center`, `radius`), in the
    /// order of `sphere_ids()`; with `radius=0`, the spheres that contain `center`. O(N).
    #[pyo3(signature = (center, radius = 0.0))]
    fn spheres_in_ball<'py>(
        &self,
        py: Python<'py>,
        center: &Bound<'py, PyAny>,
        radius: f32,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let found = self.world.spheres_in_ball(vec3(center, "center")?, radius).py()?;
        Ok(PyArray1::from_iter(py, found.map(|s| s.0)))
    }

    /// The id of the first sphere that contains `point`, or `None`.
    fn sphere_at(&self, point: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self.world.sphere_at(vec3(point, "point")?).py()?.map(|s| s.0))
    }

    /// What the ray from `origin` along `direction` meets first within `max_distance`: `None`,
    /// or a dict with `kind` ("sphere", "triangle", "wall"), `index` (a sphere's id, a
    /// triangle's index in `triangles()`, a wall 0–5: min x, max x, min y, max y, min z, max
    /// z), `distance`, `point` and `normal` (facing the origin). Spheres that contain the
    /// origin are skipped. O(N + triangles).
    #[pyo3(signature = (origin, direction, max_distance = f32::INFINITY))]
    fn cast_ray<'py>(
        &self,
        py: Python<'py>,
        origin: &Bound<'py, PyAny>,
        direction: &Bound<'py, PyAny>,
        max_distance: f32,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let hit = self.world.cast_ray(vec3(origin, "origin")?, vec3(direction, "direction")?, max_distance).py()?;
        hit.map(|h| {
            let (kind, index) = collider(h.collider);
            let d = PyDict::new(py);
            d.set_item("kind", kind)?;
            d.set_item("index", index)?;
            d.set_item("distance", h.distance)?;
            d.set_item("point", triple(h.point))?;
            d.set_item("normal", triple(h.normal))?;
            Ok(d)
        })
        .transpose()
    }

    /// Moves every sphere to the rows of an `(N, 3)` array (nothing changes on error).
    fn set_positions(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points3(values, "positions")?;
        self.world.set_positions(&values).py()
    }

    /// Sets every sphere's velocity from an `(N, 3)` array (nothing changes on error).
    fn set_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points3(values, "velocities")?;
        self.world.set_velocities(&values).py()
    }

    /// Sphere positions (m) as a new `(N, 3)` float32 array, in the order of `sphere_ids()`.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let spheres = self.world.spheres();
        to_array(py, spheres.iter().map(|s| s.position), spheres.len())
    }

    /// Sphere velocities (m/s) as a new `(N, 3)` float32 array, in the order of
    /// `sphere_ids()`.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let spheres = self.world.spheres();
        to_array(py, spheres.iter().map(|s| s.velocity), spheres.len())
    }

    /// Sphere angular velocities (rad/s) as a new `(N, 3)` float32 array, in the order of
    /// `sphere_ids()` (non-zero only for spheres with friction, or set so).
    fn angular_velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let spheres = self.world.spheres();
        to_array(py, spheres.iter().map(|s| s.angular_velocity), spheres.len())
    }

    /// Sphere radii (m) as a new `(N,)` float32 array.
    fn radii<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_iter(py, self.world.spheres().iter().map(|s| s.radius))
    }

    /// Sphere masses (kg; `inf` for kinematic spheres) as a new `(N,)` float32 array.
    fn masses<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_iter(py, self.world.spheres().iter().map(|s| s.mass))
    }

    /// Total kinetic energy (J) of the non-kinematic spheres, summed in f64.
    fn kinetic_energy(&self) -> f64 {
        self.world.kinetic_energy()
    }

    /// Total momentum (kg·m/s) of the non-kinematic spheres as `(x, y, z)`, summed in f64.
    fn momentum(&self) -> (f64, f64, f64) {
        let p = self.world.momentum();
        (p.x, p.y, p.z)
    }

    /// What the last step did: candidate pairs from the broad phase, contacts resolved,
    /// time-of-impact events, spheres that left their swept boxes, position-correction passes,
    /// spheres a correction pushed out of their swept boxes, resting contacts solved (with
    /// gravity).
    fn last_step_stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.world.last_step_stats();
        let d = PyDict::new(py);
        d.set_item("candidate_pairs", s.candidate_pairs)?;
        d.set_item("contacts", s.contacts)?;
        d.set_item("time_of_impact_events", s.time_of_impact_events)?;
        d.set_item("escaped_swept_boxes", s.escaped_swept_boxes)?;
        d.set_item("correction_passes", s.correction_passes)?;
        d.set_item("pushed_out_of_box", s.pushed_out_of_box)?;
        d.set_item("resting_contacts", s.resting_contacts)?;
        Ok(d)
    }

    /// Gravity (m/s², default `(0, 0, 0)`) as `(x, y, z)`. With gravity, each step solves the
    /// touching contacts together (sequential impulses, warm-started), so piles come to rest;
    /// slow landings rest, faster impacts bounce with the restitution.
    #[getter(gravity)]
    fn get_gravity(&self) -> (f32, f32, f32) {
        triple(self.world.gravity())
    }

    #[setter(gravity)]
    fn set_gravity(&mut self, gravity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world.set_gravity(vec3(gravity, "gravity")?).py()
    }

    /// Sweeps of the resting-contact solver per step (1 to 1000, default 10): more hold taller
    /// piles with less sinking.
    #[getter(solver_iterations)]
    fn get_solver_iterations(&self) -> usize {
        self.world.solver_iterations()
    }

    #[setter(solver_iterations)]
    fn set_solver_iterations(&mut self, iterations: usize) -> PyResult<()> {
        self.world.set_solver_iterations(iterations).py()
    }

    /// Substeps per step (1 to 64, default 1): each `step(dt)` runs as this many steps of
    /// `dt / substeps`. Deep piles under gravity hold better with shorter steps.
    #[getter(substeps)]
    fn get_substeps(&self) -> usize {
        self.world.substeps()
    }

    #[setter(substeps)]
    fn set_substeps(&mut self, substeps: usize) -> PyResult<()> {
        self.world.set_substeps(substeps).py()
    }

    /// Linear damping (1/s, default 0): every velocity is scaled by `1 / (1 + c·dt)` at the
    /// start of each step.
    #[getter(linear_damping)]
    fn get_linear_damping(&self) -> f32 {
        self.world.linear_damping()
    }

    #[setter(linear_damping)]
    fn set_linear_damping(&mut self, rate: f32) -> PyResult<()> {
        self.world.set_linear_damping(rate).py()
    }

    /// Whether each step records its collisions for `contacts()` (default False).
    #[getter(record_contacts)]
    fn get_record_contacts(&self) -> bool {
        self.world.records_contacts()
    }

    #[setter(record_contacts)]
    fn set_record_contacts(&mut self, on: bool) {
        self.world.set_record_contacts(on);
    }

    /// The last step's collisions (needs `record_contacts = True`), one row per touching pair,
    /// as a dict of arrays: `sphere` (uint32 ids; of two spheres the one added first),
    /// `partner_kind` ("sphere", "triangle" or "wall"), `partner` (uint32: the other sphere's
    /// id, the triangle's index in `triangles()`, or the wall 0–5: min x, max x, min y, max y,
    /// min z, max z), `time` (seconds into the step), `impulse` (`(K, 3)`, N·s on `sphere`; a
    /// partner sphere got the opposite) and `normal` (`(K, 3)`, unit, from the sphere towards
    /// its partner).
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let contacts = self.world.contacts();
        let k = contacts.len();
        // Triangle indices stay below 2³¹ (`World::add_mesh`), so they fit.
        let named = contacts.iter().map(|c| collider(c.partner));
        let (kinds, partners): (Vec<&str>, Vec<u32>) = named.map(|(kind, i)| (kind, i as u32)).unzip();
        let numpy = py.import("numpy")?;
        let d = PyDict::new(py);
        d.set_item("sphere", PyArray1::from_iter(py, contacts.iter().map(|c| c.sphere.0)))?;
        d.set_item("partner_kind", numpy.call_method1("array", (kinds, "U8"))?)?;
        d.set_item("partner", PyArray1::from_vec(py, partners))?;
        d.set_item("time", PyArray1::from_iter(py, contacts.iter().map(|c| c.time)))?;
        d.set_item("impulse", to_array(py, contacts.iter().map(|c| c.impulse), k)?)?;
        d.set_item("normal", to_array(py, contacts.iter().map(|c| c.normal), k)?)?;
        Ok(d)
    }

    /// Continuous collision detection (on by default): impacts inside a step are found at
    /// their time of impact, so fast spheres do not pass through each other.
    fn set_continuous_collision(&mut self, on: bool) {
        self.world.set_continuous_collision(on);
    }

    fn __repr__(&self) -> String {
        format!("World3d(spheres={}, broad_phase={:?})", self.world.num_spheres(), self.world.broad_phase().to_string())
    }
}
