//! `swerve.World`: the rigid-ball physics with a selectable broad phase, with numpy arrays in
//! and out.

use crate::convert::{per_agent, points, vec2};
use crate::errors::{invalid_value, IntoPyResult};
use glam::Vec2;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use swerve::geom::Aabb;
use swerve::physics::{Ball, BallId, BoxWall, BroadPhaseKind, Collider, DebugBoxKind, World};

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

/// A collider as Python sees it: its kind ("ball", "segment", "wall") and a number (the ball's
/// id, the segment's index, or the wall: 0 min x, 1 max x, 2 min y, 3 max y).
fn collider(c: Collider) -> (&'static str, u32) {
    match c {
        Collider::Ball(b) => ("ball", b.0),
        // Segment indices are below the ball count limit (2^31) in any world that fits in
        // memory; saturate rather than wrap if not.
        Collider::Segment(s) => ("segment", u32::try_from(s).unwrap_or(u32::MAX)),
        Collider::Wall(w) => (
            "wall",
            match w {
                BoxWall::MinX => 0,
                BoxWall::MaxX => 1,
                BoxWall::MinY => 2,
                BoxWall::MaxY => 3,
            },
        ),
    }
}

fn to_array<'py>(py: Python<'py>, values: impl Iterator<Item = Vec2>, n: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = values.flat_map(|v| [v.x, v.y]).collect();
    PyArray1::from_vec(py, flat).reshape([n, 2])
}

/// Balls with mass that bounce off each other, off the walls of an optional box and off
/// static segments and polygons. Units: metres, seconds, kilograms.
///
/// `broad_phase` names the algorithm that finds candidate pairs: "brute-force",
/// "sort-and-sweep", "uniform-grid", "hierarchical-grid", "grid-sort-and-sweep", "quadtree"
/// or "aabb-tree" (`World.broad_phases()`); all give the same collisions.
///
/// Balls are identified by stable integer ids (0, 1, 2, … in order of addition, never reused
/// after `remove_ball`). Bulk methods (`positions()`, `set_velocities()`, …) use the order of
/// `ball_ids()`.
#[pyclass(module = "swerve", name = "World")]
pub struct PyWorld {
    world: World,
}

#[pymethods]
impl PyWorld {
    /// A world; `bounds` is `((min_x, min_y), (max_x, max_y))` of a box whose walls the balls
    /// bounce off, or `None` for open space.
    #[new]
    #[pyo3(signature = (bounds = None, broad_phase = "sort-and-sweep", gravity = None))]
    fn new(
        bounds: Option<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
        broad_phase: &str,
        gravity: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let kind = self::broad_phase(broad_phase)?;
        let bounds = match bounds {
            None => None,
            Some((lo, hi)) => {
                let (min, max) = (vec2(&lo, "bounds min")?, vec2(&hi, "bounds max")?);
                if !(min.is_finite() && max.is_finite() && min.x < max.x && min.y < max.y) {
                    return Err(invalid_value(format!(
                        "bounds must be finite with min < max, got ({}, {}) .. ({}, {})",
                        min.x, min.y, max.x, max.y
                    )));
                }
                Some(Aabb { min, max })
            }
        };
        let mut world = World::new(bounds, kind);
        if let Some(g) = gravity {
            world.set_gravity(vec2(&g, "gravity")?).py()?;
        }
        Ok(PyWorld { world })
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

    /// Adds one ball; `mass` defaults to the disc's area (density 1). Returns its id.
    ///
    /// `mass=math.inf` makes a kinematic ball: it moves only as its velocity says (change it
    /// with `set_ball`), pushes the balls it meets, passes through walls, segments and other
    /// kinematic balls, and is left out of `momentum()` and `kinetic_energy()`.
    ///
    /// `friction` is the Coulomb coefficient (default 0: frictionless, never spins; a pair of
    /// balls uses `sqrt(μa·μb)`, a wall or segment the ball's own); `rolling_resistance` (default
    /// 0) brakes rolling on resting contacts (with gravity: on a floor at `2/3 c g`);
    /// `angular_velocity` is in rad/s, counter-clockwise.
    #[pyo3(signature = (
        position, velocity = None, *, radius = 0.5, mass = None, restitution = 1.0, friction = 0.0,
        rolling_resistance = 0.0, angular_velocity = 0.0
    ))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn add_ball(
        &mut self,
        position: &Bound<'_, PyAny>,
        velocity: Option<&Bound<'_, PyAny>>,
        radius: f32,
        mass: Option<f32>,
        restitution: f32,
        friction: f32,
        rolling_resistance: f32,
        angular_velocity: f32,
    ) -> PyResult<u32> {
        let position = vec2(position, "position")?;
        let velocity = velocity.map(|v| vec2(v, "velocity")).transpose()?.unwrap_or(Vec2::ZERO);
        let mut ball = Ball::new(position, velocity, radius);
        if let Some(mass) = mass {
            ball.mass = mass;
        }
        ball.restitution = restitution;
        ball.friction = friction;
        ball.rolling_resistance = rolling_resistance;
        ball.angular_velocity = angular_velocity;
        Ok(self.world.add_ball(ball).py()?.0)
    }

    /// Adds `N` balls: `positions` and `velocities` are `(N, 2)`; `radii`, `masses` (default:
    /// area), `restitutions`, `frictions` and `rolling_resistances` (default 0) one number for
    /// all or `N`. Returns the ids (uint32). Nothing is added if any ball is invalid.
    #[pyo3(signature = (
        positions, velocities = None, *, radii = None, masses = None, restitutions = None, frictions = None,
        rolling_resistances = None
    ))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn add_balls<'py>(
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
        let positions = points(positions, "positions")?;
        let n = positions.len();
        let velocities = match velocities {
            Some(v) => points(v, "velocities")?,
            None => vec![Vec2::ZERO; n],
        };
        if velocities.len() != n {
            return Err(invalid_value(format!("velocities must have {n} rows, got {}", velocities.len())));
        }
        let radii = match radii {
            Some(r) => per_agent(r, n, "radii")?,
            None => vec![0.5; n],
        };
        let masses = masses.map(|m| per_agent(m, n, "masses")).transpose()?;
        let restitutions = match restitutions {
            Some(e) => per_agent(e, n, "restitutions")?,
            None => vec![1.0; n],
        };
        let frictions = match frictions {
            Some(mu) => per_agent(mu, n, "frictions")?,
            None => vec![0.0; n],
        };
        let rolling_resistances = match rolling_resistances {
            Some(c) => per_agent(c, n, "rolling_resistances")?,
            None => vec![0.0; n],
        };
        let balls: Vec<Ball> = (0..n)
            .map(|i| {
                let mut ball = Ball::new(positions[i], velocities[i], radii[i]);
                if let Some(masses) = &masses {
                    ball.mass = masses[i];
                }
                ball.restitution = restitutions[i];
                ball.friction = frictions[i];
                ball.rolling_resistance = rolling_resistances[i];
                ball
            })
            .collect();
        // Validate every ball with the library's own rules on a scratch world first, so that
        // a bad ball adds nothing.
        let mut scratch = World::new(self.world.bounds(), BroadPhaseKind::BruteForce);
        for ball in &balls {
            scratch.add_ball(*ball).py()?;
        }
        let mut ids = Vec::with_capacity(n);
        for ball in balls {
            ids.push(self.world.add_ball(ball).py()?.0);
        }
        Ok(PyArray1::from_vec(py, ids))
    }

    /// Adds a static segment (both sides solid).
    fn add_segment(&mut self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world.add_segment(vec2(a, "a")?, vec2(b, "b")?).py()
    }

    /// Adds a static closed polygon (`(M, 2)` vertices) as its edges.
    fn add_polygon(&mut self, vertices: &Bound<'_, PyAny>) -> PyResult<()> {
        let vertices = points(vertices, "vertices")?;
        self.world.add_polygon(&vertices).py()
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

    /// The number of live balls.
    fn __len__(&self) -> usize {
        self.world.num_balls()
    }

    /// The number of live balls.
    #[getter]
    fn num_balls(&self) -> usize {
        self.world.num_balls()
    }

    /// The live balls' ids (uint32), in the row order of the bulk arrays.
    fn ball_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_iter(py, self.world.ball_ids().iter().map(|b| b.0))
    }

    /// Whether `ball` is a live ball id.
    fn contains_ball(&self, ball: u32) -> bool {
        self.world.contains_ball(BallId(ball))
    }

    /// One ball's state as a dict: `position` and `velocity` (tuples), `radius`, `mass`,
    /// `restitution`, `friction`, `rolling_resistance`, `angular_velocity`, `angle`.
    fn ball<'py>(&self, py: Python<'py>, ball: u32) -> PyResult<Bound<'py, PyDict>> {
        let b = self.world.ball(BallId(ball)).py()?;
        let d = PyDict::new(py);
        d.set_item("position", (b.position.x, b.position.y))?;
        d.set_item("velocity", (b.velocity.x, b.velocity.y))?;
        d.set_item("radius", b.radius)?;
        d.set_item("mass", b.mass)?;
        d.set_item("restitution", b.restitution)?;
        d.set_item("friction", b.friction)?;
        d.set_item("rolling_resistance", b.rolling_resistance)?;
        d.set_item("angular_velocity", b.angular_velocity)?;
        d.set_item("angle", b.angle)?;
        Ok(d)
    }

    /// Changes the given fields of one ball (the others keep their values), with the rules of
    /// `add_ball`; nothing changes on error. A ball moved onto another is pushed out by the
    /// next step.
    #[pyo3(signature = (
        ball, *, position = None, velocity = None, radius = None, mass = None, restitution = None, friction = None,
        rolling_resistance = None, angular_velocity = None
    ))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn set_ball(
        &mut self,
        ball: u32,
        position: Option<&Bound<'_, PyAny>>,
        velocity: Option<&Bound<'_, PyAny>>,
        radius: Option<f32>,
        mass: Option<f32>,
        restitution: Option<f32>,
        friction: Option<f32>,
        rolling_resistance: Option<f32>,
        angular_velocity: Option<f32>,
    ) -> PyResult<()> {
        let id = BallId(ball);
        let mut b = self.world.ball(id).py()?;
        if let Some(p) = position {
            b.position = vec2(p, "position")?;
        }
        if let Some(v) = velocity {
            b.velocity = vec2(v, "velocity")?;
        }
        b.radius = radius.unwrap_or(b.radius);
        b.mass = mass.unwrap_or(b.mass);
        b.restitution = restitution.unwrap_or(b.restitution);
        b.friction = friction.unwrap_or(b.friction);
        b.rolling_resistance = rolling_resistance.unwrap_or(b.rolling_resistance);
        b.angular_velocity = angular_velocity.unwrap_or(b.angular_velocity);
        self.world.set_ball(id, b).py()
    }

    /// Applies an impulse (N·s) to one ball: its velocity changes by `impulse / mass`, and the
    /// world's momentum by `impulse` (f64 precision).
    fn apply_impulse(&mut self, ball: u32, impulse: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world.apply_impulse(BallId(ball), vec2(impulse, "impulse")?).py()
    }

    /// Removes one ball; the other ids stay valid and the id is never reused.
    fn remove_ball(&mut self, ball: u32) -> PyResult<()> {
        self.world.remove_ball(BallId(ball)).py().map(drop)
    }

    /// Removes several balls in one pass (any iterable of ids). Nothing is removed if one of
    /// the ids is unknown.
    fn remove_balls(&mut self, balls: Vec<u32>) -> PyResult<()> {
        if let Some(&unknown) = balls.iter().find(|&&b| !self.world.contains_ball(BallId(b))) {
            return self.world.ball(BallId(unknown)).py().map(drop);
        }
        let gone: std::collections::HashSet<u32> = balls.into_iter().collect();
        self.world.retain_balls(|id, _| !gone.contains(&id.0));
        Ok(())
    }

    /// Moves every ball to the rows of an `(N, 2)` array (nothing changes on error).
    fn set_positions(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points(values, "positions")?;
        self.world.set_positions(&values).py()
    }

    /// Sets every ball's velocity from an `(N, 2)` array (nothing changes on error).
    fn set_velocities(&mut self, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = points(values, "velocities")?;
        self.world.set_velocities(&values).py()
    }

    /// Ball positions (m) as a new `(N, 2)` float32 array, in the order of `ball_ids()`.
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let balls = self.world.balls();
        to_array(py, balls.iter().map(|b| b.position), balls.len())
    }

    /// Ball velocities (m/s) as a new `(N, 2)` float32 array, in the order of `ball_ids()`.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let balls = self.world.balls();
        to_array(py, balls.iter().map(|b| b.velocity), balls.len())
    }

    /// Ball radii (m) as a new `(N,)` float32 array.
    fn radii<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_iter(py, self.world.balls().iter().map(|b| b.radius))
    }

    /// Ball masses (kg) as a new `(N,)` float32 array.
    fn masses<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_iter(py, self.world.balls().iter().map(|b| b.mass))
    }

    /// Ball angular velocities (rad/s, counter-clockwise) as a new `(N,)` float32 array.
    fn angular_velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_iter(py, self.world.balls().iter().map(|b| b.angular_velocity))
    }

    /// Ball orientations (radians in `[−π, π]`, counter-clockwise) as a new `(N,)` float32
    /// array: each turns by its angular velocity times `dt` a step.
    fn angles<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_iter(py, self.world.balls().iter().map(|b| b.angle))
    }

    /// Total kinetic energy (J), translational and rotational, summed in f64.
    fn kinetic_energy(&self) -> f64 {
        self.world.kinetic_energy()
    }

    /// Total momentum (kg·m/s) as `(x, y)`, summed in f64.
    fn momentum(&self) -> (f64, f64) {
        let p = self.world.momentum();
        (p.x, p.y)
    }

    /// What the last step did: candidate pairs from the broad phase, contacts resolved,
    /// time-of-impact events, balls that left their swept boxes, position-correction passes,
    /// balls a correction pushed out of their swept boxes, resting contacts solved (with
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

    /// Gravity (m/s², default `(0, 0)`) as `(x, y)`. With gravity, each step solves the
    /// touching contacts together (sequential impulses, warm-started), so piles and stacks
    /// come to rest; slow landings rest, faster impacts bounce with the restitution.
    #[getter(gravity)]
    fn get_gravity(&self) -> (f32, f32) {
        let g = self.world.gravity();
        (g.x, g.y)
    }

    #[setter(gravity)]
    fn set_gravity(&mut self, gravity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world.set_gravity(vec2(gravity, "gravity")?).py()
    }

    /// Sweeps of the resting-contact solver per step (1 to 1000, default 10): more hold taller
    /// stacks with less sinking.
    #[getter(solver_iterations)]
    fn get_solver_iterations(&self) -> usize {
        self.world.solver_iterations()
    }

    #[setter(solver_iterations)]
    fn set_solver_iterations(&mut self, iterations: usize) -> PyResult<()> {
        self.world.set_solver_iterations(iterations).py()
    }

    /// Substeps per step (1 to 64, default 1): each `step(dt)` runs that many steps of
    /// `dt / substeps`, which hold tall stacks better than more solver sweeps.
    #[getter(substeps)]
    fn get_substeps(&self) -> usize {
        self.world.substeps()
    }

    #[setter(substeps)]
    fn set_substeps(&mut self, substeps: usize) -> PyResult<()> {
        self.world.set_substeps(substeps).py()
    }

    /// Linear damping (1/s, default 0): every velocity is scaled by `1 / (1 + c·dt)` at the
    /// start of each step (rolling resistance on a top-down table).
    #[getter(linear_damping)]
    fn get_linear_damping(&self) -> f32 {
        self.world.linear_damping()
    }

    #[setter(linear_damping)]
    fn set_linear_damping(&mut self, rate: f32) -> PyResult<()> {
        self.world.set_linear_damping(rate).py()
    }

    /// Whether each step records its collisions for `contacts()` (off by default).
    #[getter(record_contacts)]
    fn get_record_contacts(&self) -> bool {
        self.world.records_contacts()
    }

    #[setter(record_contacts)]
    fn set_record_contacts(&mut self, on: bool) {
        self.world.set_record_contacts(on);
    }

    /// The last step's collisions (needs `record_contacts = True`), one row per touching pair,
    /// as a dict of arrays: `ball` (uint32 ids; of two balls the one added first),
    /// `partner_kind` ("ball", "segment" or "wall"), `partner` (uint32: the other ball's id,
    /// the segment's index, or the wall: 0 min x, 1 max x, 2 min y, 3 max y), `time` (seconds
    /// into the step), `impulse` (`(K, 2)`, N·s on `ball`; a partner ball got the opposite) and
    /// `normal` (`(K, 2)`, unit, from the ball towards its partner).
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let contacts = self.world.contacts();
        let k = contacts.len();
        let (kinds, partners): (Vec<&str>, Vec<u32>) = contacts.iter().map(|c| collider(c.partner)).unzip();
        let numpy = py.import("numpy")?;
        let d = PyDict::new(py);
        d.set_item("ball", PyArray1::from_iter(py, contacts.iter().map(|c| c.ball.0)))?;
        d.set_item("partner_kind", numpy.call_method1("array", (kinds, "U7"))?)?;
        d.set_item("partner", PyArray1::from_vec(py, partners))?;
        d.set_item("time", PyArray1::from_iter(py, contacts.iter().map(|c| c.time)))?;
        d.set_item("impulse", to_array(py, contacts.iter().map(|c| c.impulse), k)?)?;
        d.set_item("normal", to_array(py, contacts.iter().map(|c| c.normal), k)?)?;
        Ok(d)
    }

    /// The ids (uint32) of the balls whose disc overlaps the circle (`center`, `radius`), in
    /// the order of `ball_ids()`; with `radius=0`, the balls that contain `center`. O(N).
    #[pyo3(signature = (center, radius = 0.0))]
    fn balls_in_circle<'py>(
        &self,
        py: Python<'py>,
        center: &Bound<'py, PyAny>,
        radius: f32,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let found = self.world.balls_in_circle(vec2(center, "center")?, radius).py()?;
        Ok(PyArray1::from_iter(py, found.map(|b| b.0)))
    }

    /// The id of the first ball that contains `point`, or `None`.
    fn ball_at(&self, point: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self.world.ball_at(vec2(point, "point")?).py()?.map(|b| b.0))
    }

    /// What the ray from `origin` along `direction` meets first within `max_distance`: `None`,
    /// or a dict with `kind` ("ball", "segment", "wall"), `index` (as in `contacts()`'s
    /// `partner`), `distance`, `point` and `normal` (facing the origin). Balls that contain
    /// the origin are skipped. O(N).
    #[pyo3(signature = (origin, direction, max_distance = f32::INFINITY))]
    fn cast_ray<'py>(
        &self,
        py: Python<'py>,
        origin: &Bound<'py, PyAny>,
        direction: &Bound<'py, PyAny>,
        max_distance: f32,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let hit = self.world.cast_ray(vec2(origin, "origin")?, vec2(direction, "direction")?, max_distance).py()?;
        hit.map(|h| {
            let (kind, index) = collider(h.collider);
            let d = PyDict::new(py);
            d.set_item("kind", kind)?;
            d.set_item("index", index)?;
            d.set_item("distance", h.distance)?;
            d.set_item("point", (h.point.x, h.point.y))?;
            d.set_item("normal", (h.normal.x, h.normal.y))?;
            Ok(d)
        })
        .transpose()
    }

    /// Continuous collision detection (on by default): impacts inside a step are found at
    /// their time of impact, so fast balls do not tunnel.
    fn set_continuous_collision(&mut self, on: bool) {
        self.world.set_continuous_collision(on);
    }

    /// The boxes the broad phase uses (for drawing): a list of dicts with `kind`
    /// ("grid-cell", "quadtree-node", "sweep-interval", "tree-node"), `level` and `boxes`, an
    /// `(K, 4)` float32 array of rows `(min_x, min_y, max_x, max_y)`.
    fn broad_phase_debug<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let debug = self.world.broad_phase_debug();
        let list = PyList::empty(py);
        for layer in &debug.layers {
            let kind = match layer.kind {
                DebugBoxKind::GridCell => "grid-cell",
                DebugBoxKind::QuadtreeNode => "quadtree-node",
                DebugBoxKind::SweepInterval => "sweep-interval",
                DebugBoxKind::TreeNode => "tree-node",
            };
            let flat: Vec<f32> = layer.boxes.iter().flat_map(|b| [b.min.x, b.min.y, b.max.x, b.max.y]).collect();
            let d = PyDict::new(py);
            d.set_item("kind", kind)?;
            d.set_item("level", layer.level)?;
            d.set_item("boxes", PyArray1::from_vec(py, flat).reshape([layer.boxes.len(), 4])?)?;
            list.append(d)?;
        }
        Ok(list)
    }

    fn __repr__(&self) -> String {
        format!("World(balls={}, broad_phase={:?})", self.world.balls().len(), self.world.broad_phase().to_string())
    }
}
