//! Scenario files of the 3-D ball world ([`crate::physics3d`]): a `[spheres]` table instead of
//! agents and balls. [`SphereScenario`] is the checked file, [`SphereScenario::world`] the
//! world it describes, and [`super::SphereRunner`] plays it step by step.
//!
//! The format is the `## Spheres (3-D)` section of `docs/scenario-format.md`: the 2-D
//! `[balls]` table with a third coordinate, plus static triangles and meshes.

use super::document::Node;
use super::model::{is_false, is_one_substep, is_origin, is_zero, one, one_substep, yes};
use super::{document, read, Format, Problem};
use crate::physics3d::{Aabb3, BroadPhaseKind, Sphere, Triangle, Vec3, World};
use crate::Error;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// A point or vector in space in a file: `[x, y, z]` (metres, metres per second, …).
pub type Point3 = [f32; 3];

/// The most spheres one scenario file may create (listed plus random), for the reason of
/// [`super::MAX_BALLS`]: a number far beyond it is a typo, and honouring it would end the run
/// out of memory instead of with a problem report.
pub const MAX_SPHERES: usize = 10_000_000;

/// A whole 3-D scenario: the header every scenario has and a `[spheres]` table.
///
/// ```
/// use swerve::scenario::{Format, SphereScenario};
/// let text = r#"
/// name = "drop"
/// time_step = 0.01
/// steps = 100
/// [spheres]
/// gravity = [0.0, 0.0, -9.81]
/// [[spheres.sphere]]
/// position = [0.0, 0.0, 2.0]
/// radius = 0.5
/// "#;
/// let scenario = SphereScenario::parse(text, Format::Toml).expect("a valid file");
/// assert_eq!(scenario.spheres.sphere.len(), 1);
/// let world = scenario.world()?;
/// assert_eq!(world.num_spheres(), 1);
/// # Ok::<(), swerve::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SphereScenario {
    /// Short name (`swerve run` writes to `out/NAME`).
    pub name: String,
    /// One or two sentences on what the scene shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Simulation time step (s, > 0).
    pub time_step: f32,
    /// Number of steps (≥ 1).
    pub steps: usize,
    /// The world: its settings, spheres and static triangles.
    pub spheres: SpheresSpec,
}

/// The `[spheres]` table: a [`World`]'s settings and contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpheresSpec {
    /// Broad phase name ([`BroadPhaseKind::name`]: `brute-force`, `sort-and-sweep`,
    /// `uniform-grid`, `hierarchical-grid`, `octree`); default `uniform-grid`.
    #[serde(default = "default_broad_phase")]
    pub broad_phase: String,
    /// Walls of a box the spheres bounce in; absent means unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds3Spec>,
    /// Gravity (m/s², default none): see [`World::set_gravity`].
    #[serde(default, skip_serializing_if = "is_origin")]
    pub gravity: Point3,
    /// Linear damping (1/s, ≥ 0; default 0): see [`World::set_linear_damping`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub linear_damping: f32,
    /// Sweeps of the resting-contact solver per step (1 to 1,000; default
    /// [`World::DEFAULT_SOLVER_ITERATIONS`]): see [`World::set_solver_iterations`].
    #[serde(default = "default_solver_iterations", skip_serializing_if = "is_default_solver_iterations")]
    pub solver_iterations: usize,
    /// Substeps per step (1 to [`World::MAX_SUBSTEPS`]; default 1): see
    /// [`World::set_substeps`].
    #[serde(default = "one_substep", skip_serializing_if = "is_one_substep")]
    pub substeps: usize,
    /// Continuous collision detection (default true): see [`World::set_continuous_collision`].
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub continuous_collision: bool,
    /// Spheres given one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sphere: Vec<SphereSpec>,
    /// Spheres at random non-overlapping positions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random: Vec<RandomSpheres>,
    /// Static triangles given one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triangle: Vec<TriangleSpec>,
    /// Static triangle meshes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mesh: Vec<MeshSpec>,
}

/// An axis-aligned box in space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bounds3Spec {
    /// The corner with the smallest coordinates.
    pub min: Point3,
    /// The corner with the largest coordinates.
    pub max: Point3,
}

impl Bounds3Spec {
    /// The box as the physics world takes it.
    pub fn to_aabb(self) -> Aabb3 {
        Aabb3 { min: Vec3::from(self.min), max: Vec3::from(self.max) }
    }
}

/// One sphere ([`Sphere`]'s fields).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SphereSpec {
    /// Centre (m).
    pub position: Point3,
    /// Velocity (m/s); default 0.
    #[serde(default, skip_serializing_if = "is_origin")]
    pub velocity: Point3,
    /// Radius (m, > 0).
    pub radius: f32,
    /// Mass (kg, > 0); default `4/3 π r³` (density 1 kg/m³, as [`Sphere::new`] and random
    /// spheres have).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f32>,
    /// Coefficient of restitution in [0, 1]; default 1 (elastic).
    #[serde(default = "one")]
    pub restitution: f32,
    /// Coulomb friction coefficient (≥ 0); default 0 (frictionless: never spins).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub friction: f32,
    /// Rolling resistance coefficient (≥ 0); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// Angular velocity (rad/s, about the axis it points along); default 0.
    #[serde(default, skip_serializing_if = "is_origin")]
    pub angular_velocity: Point3,
    /// A kinematic sphere (infinite mass, `mass` is ignored): it keeps its velocity, pushes
    /// the others and passes through walls and triangles ([`Sphere::kinematic`]); default
    /// false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub kinematic: bool,
}

impl SphereSpec {
    /// The sphere as the physics world takes it.
    pub fn to_sphere(&self) -> Sphere {
        let (position, velocity) = (Vec3::from(self.position), Vec3::from(self.velocity));
        let sphere = if self.kinematic {
            Sphere::kinematic(position, velocity, self.radius)
        } else {
            let sphere = Sphere::new(position, velocity, self.radius);
            self.mass.map_or(sphere, |mass| sphere.with_mass(mass))
        };
        Sphere {
            angular_velocity: Vec3::from(self.angular_velocity),
            ..sphere
                .with_restitution(self.restitution)
                .with_friction(self.friction)
                .with_rolling_resistance(self.rolling_resistance)
        }
    }
}

/// `count` spheres at random non-overlapping positions wholly inside the box `min`–`max` (and
/// clear of the static triangles), radii uniform in `radius` (`[low, high]`), speeds uniform
/// in `speed` in uniformly random directions, mass by volume (density 1 kg/m³).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomSpheres {
    /// Number of spheres (≥ 1).
    pub count: usize,
    /// The region's corner with the smallest coordinates.
    pub min: Point3,
    /// The region's corner with the largest coordinates.
    pub max: Point3,
    /// Smallest and largest radius (m).
    pub radius: [f32; 2],
    /// Smallest and largest speed (m/s).
    pub speed: [f32; 2],
    /// Coefficient of restitution; default 1.
    #[serde(default = "one")]
    pub restitution: f32,
    /// Coulomb friction coefficient (≥ 0); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub friction: f32,
    /// Rolling resistance coefficient (≥ 0); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// Seed of the positions, radii and velocities.
    pub seed: u64,
}

/// One static triangle ([`World::add_triangle`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriangleSpec {
    /// The three corners (m).
    pub corners: [Point3; 3],
}

/// A static triangle mesh ([`World::add_mesh`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshSpec {
    /// Corner positions (m).
    pub vertices: Vec<Point3>,
    /// Each triangle's three indices into `vertices` (from 0).
    pub triangles: Vec<[u32; 3]>,
}

fn default_broad_phase() -> String {
    BroadPhaseKind::UniformGrid.name().to_string()
}

fn is_true(value: &bool) -> bool {
    *value
}

fn default_solver_iterations() -> usize {
    World::DEFAULT_SOLVER_ITERATIONS
}

fn is_default_solver_iterations(value: &usize) -> bool {
    *value == default_solver_iterations()
}

impl SphereScenario {
    /// Parses and checks a 3-D scenario; `Err` holds every problem found (at least one).
    pub fn parse(text: &str, format: Format) -> Result<SphereScenario, Vec<Problem>> {
        SphereScenario::from_root(&document::parse(text, format).map_err(|p| vec![p])?)
    }

    /// Reads a parsed file (see [`super::AnyScenario::parse`], which tells the kinds apart).
    pub(super) fn from_root(root: &Node) -> Result<SphereScenario, Vec<Problem>> {
        let mut reader = read::Reader::default();
        let scenario = reader.sphere_scenario(root);
        let scenario = match scenario {
            Some(s) if reader.problems.is_empty() => s,
            _ => return Err(super::in_file_order(reader.problems)),
        };
        // A random region can fail only when expanded (too small for its spheres): expand once
        // now so that such a file is reported here, located through the key path.
        match scenario.initial_spheres() {
            Ok(_) => Ok(scenario),
            Err(mut problem) => {
                problem.line = super::line_of(root, &problem.key);
                Err(vec![problem])
            }
        }
    }

    /// [`SphereScenario::parse`] of TOML text, with the problems joined into one [`Error`]
    /// named after `source` (a file name or `<builtin NAME>`).
    pub fn from_toml_str(text: &str, source: &str) -> Result<SphereScenario, Error> {
        SphereScenario::parse(text, Format::Toml)
            .map_err(|problems| Error::Scenario { file: source.to_string(), problems })
    }

    /// [`SphereScenario::parse`] of JSON text (same keys as TOML), with the problems joined
    /// into one [`Error`].
    pub fn from_json_str(text: &str, source: &str) -> Result<SphereScenario, Error> {
        SphereScenario::parse(text, Format::Json)
            .map_err(|problems| Error::Scenario { file: source.to_string(), problems })
    }

    /// Loads a 3-D scenario file (`.json` is JSON, anything else TOML).
    pub fn load(path: &Path) -> Result<SphereScenario, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        let source = path.display().to_string();
        match Format::of_path(path) {
            Format::Toml => SphereScenario::from_toml_str(&text, &source),
            Format::Json => SphereScenario::from_json_str(&text, &source),
        }
    }

    /// The scenario as pretty JSON (the same keys as the TOML form).
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The broad phase the file names (the reader accepted it, so this fails only for a
    /// scenario built by hand with another name).
    pub fn broad_phase(&self) -> Result<BroadPhaseKind, Error> {
        self.spheres.broad_phase.parse()
    }

    /// The spheres at time 0: the listed ones in file order, then each random group's
    /// (non-overlapping, inside their region, clear of the static triangles). Fails only when a
    /// region cannot hold its spheres (the problem names `spheres.random[K].count`).
    pub fn initial_spheres(&self) -> Result<Vec<Sphere>, Problem> {
        let spec = &self.spheres;
        let mut spheres: Vec<Sphere> = spec.sphere.iter().map(SphereSpec::to_sphere).collect();
        let triangles = self.triangles();
        let largest_random = spec.random.iter().map(|r| r.radius[1]).fold(0.0f32, f32::max);
        let mut occupied = Occupancy::new(2.0 * largest_random);
        for s in &spheres {
            occupied.insert(s.position, s.radius);
        }
        for (k, r) in spec.random.iter().enumerate() {
            let mut rng = ChaCha8Rng::seed_from_u64(r.seed);
            let (min, max) = (Vec3::from(r.min), Vec3::from(r.max));
            for placed in 0..r.count {
                let radius = uniform(&mut rng, r.radius);
                let speed = uniform(&mut rng, r.speed);
                // A uniformly random direction: z uniform in [−1, 1], angle uniform
                // (Archimedes; `physics3d::scene` draws directions the same way).
                let z = rng.random_range(-1.0f32..=1.0);
                let angle = rng.random_range(0.0..std::f32::consts::TAU);
                let across = (1.0 - z * z).max(0.0).sqrt();
                let direction = Vec3::new(across * angle.cos(), across * angle.sin(), z);
                // Keep the whole sphere inside the region (and so inside bounds around it).
                let (lo, hi) = (min + Vec3::splat(radius), max - Vec3::splat(radius));
                let spot = lo
                    .cmple(hi)
                    .all()
                    .then(|| {
                        (0..super::generate::PLACEMENT_ATTEMPTS).map(|_| sample(&mut rng, lo, hi)).find(|&p| {
                            clear_of_triangles(p, radius, &triangles) && occupied.is_free(p, radius, &spheres)
                        })
                    })
                    .flatten();
                let Some(position) = spot else {
                    return Err(Problem {
                        line: None,
                        key: format!("spheres.random[{k}].count"),
                        message: format!(
                            "could place only {placed} of {} spheres without overlap in the region (make it larger)",
                            r.count
                        ),
                    });
                };
                occupied.insert(position, radius);
                spheres.push(
                    Sphere::new(position, speed * direction, radius)
                        .with_restitution(r.restitution)
                        .with_friction(r.friction)
                        .with_rolling_resistance(r.rolling_resistance),
                );
            }
        }
        Ok(spheres)
    }

    /// The static triangles: the `[[spheres.triangle]]` entries in file order, then each
    /// mesh's triangles. Entries the reader would refuse (no area, an index out of range) are
    /// left out; [`SphereScenario::world`] reports them as errors.
    pub fn triangles(&self) -> Vec<Triangle> {
        let corner = |p: Point3| Vec3::from(p);
        let single = self.spheres.triangle.iter().map(|t| t.corners.map(corner));
        let meshed = self.spheres.mesh.iter().flat_map(|m| {
            m.triangles.iter().filter_map(|indices| {
                let mut corners = [Vec3::ZERO; 3];
                for (c, &i) in corners.iter_mut().zip(indices) {
                    *c = corner(*m.vertices.get(i as usize)?);
                }
                Some(corners)
            })
        });
        single.chain(meshed).filter_map(|[a, b, c]| Triangle::new(a, b, c).ok()).collect()
    }

    /// The world the file describes, at time 0: its settings, triangles, meshes and spheres.
    pub fn world(&self) -> Result<World, Error> {
        let problem = |p: Problem| Error::Scenario { file: self.name.clone(), problems: vec![p] };
        let spheres = self.initial_spheres().map_err(problem)?;
        let spec = &self.spheres;
        let mut world = World::new(spec.bounds.map(Bounds3Spec::to_aabb), self.broad_phase()?)?;
        world.set_gravity(Vec3::from(spec.gravity))?;
        world.set_linear_damping(spec.linear_damping)?;
        world.set_solver_iterations(spec.solver_iterations)?;
        world.set_substeps(spec.substeps)?;
        world.set_continuous_collision(spec.continuous_collision);
        for t in &spec.triangle {
            let [a, b, c] = t.corners.map(Vec3::from);
            world.add_triangle(a, b, c)?;
        }
        for m in &spec.mesh {
            let vertices: Vec<Vec3> = m.vertices.iter().map(|&v| Vec3::from(v)).collect();
            world.add_mesh(&vertices, &m.triangles)?;
        }
        for s in spheres {
            world.add_sphere(s)?;
        }
        Ok(world)
    }
}

/// A uniform draw from `[low, high]` (`low` when the range is empty).
fn uniform(rng: &mut ChaCha8Rng, [low, high]: [f32; 2]) -> f32 {
    if high > low {
        rng.random_range(low..high)
    } else {
        low
    }
}

/// A uniformly random point of the box `lo`–`hi` (a flat side gives its one coordinate).
fn sample(rng: &mut ChaCha8Rng, lo: Vec3, hi: Vec3) -> Vec3 {
    let mut axis = |l: f32, h: f32| if h > l { rng.random_range(l..h) } else { l };
    let x = axis(lo.x, hi.x);
    let y = axis(lo.y, hi.y);
    let z = axis(lo.z, hi.z);
    Vec3::new(x, y, z)
}

/// Whether a sphere at `p` of `radius` keeps clear of every triangle.
fn clear_of_triangles(p: Vec3, radius: f32, triangles: &[Triangle]) -> bool {
    let reach = Vec3::splat(radius);
    triangles.iter().all(|t| {
        let b = t.bounding_box();
        // Only triangles whose box comes within `radius` can touch; the rest need no distance.
        let near = (b.min - reach).cmple(p).all() && p.cmple(b.max + reach).all();
        !near || t.closest_point(p.as_dvec3()).distance(p.as_dvec3()) >= f64::from(radius)
    })
}

/// The spheres placed so far, bucketed in a uniform grid so that placing `n` random spheres
/// takes about `n` distance tests rather than `n²` (a file may ask for millions). Each sphere
/// is listed in every cell its box touches; a sphere that would cover many cells (a listed
/// one much larger than the random ones) goes in `large`, which every test checks.
struct Occupancy {
    cell: f32,
    cells: HashMap<[i64; 3], Vec<u32>>,
    large: Vec<u32>,
    count: u32,
}

impl Occupancy {
    /// Cells this many on a side or more make a sphere "large".
    const MOST_CELLS: u64 = 64;

    fn new(cell: f32) -> Occupancy {
        // A cell of 0 (no random spheres) or beyond f32 leaves every sphere in `large`, which
        // is right: nothing will be placed.
        Occupancy { cell, cells: HashMap::new(), large: Vec::new(), count: 0 }
    }

    /// The cells of the box around `p` of half-size `radius`, as inclusive index ranges,
    /// or `None` when they are too many.
    fn cell_range(&self, p: Vec3, radius: f32) -> Option<([i64; 3], [i64; 3])> {
        if !(self.cell > 0.0 && self.cell.is_finite()) {
            return None;
        }
        // `as` saturates, so far-away coordinates share an edge cell: still correct, as the
        // distance test decides (and `abs_diff` counts the cells between without overflow).
        let index = |x: f32| (x / self.cell).floor() as i64;
        let lo = (p - Vec3::splat(radius)).to_array().map(index);
        let hi = (p + Vec3::splat(radius)).to_array().map(index);
        let cells = (0..3).map(|i| hi[i].abs_diff(lo[i]).saturating_add(1)).fold(1u64, u64::saturating_mul);
        (cells <= Self::MOST_CELLS).then_some((lo, hi))
    }

    fn insert(&mut self, p: Vec3, radius: f32) {
        let id = self.count;
        self.count += 1;
        let Some((lo, hi)) = self.cell_range(p, radius) else {
            self.large.push(id);
            return;
        };
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    self.cells.entry([x, y, z]).or_default().push(id);
                }
            }
        }
    }

    /// Whether a sphere at `p` of `radius` overlaps none of `placed` (the spheres inserted,
    /// in insertion order).
    fn is_free(&self, p: Vec3, radius: f32, placed: &[Sphere]) -> bool {
        let clear = |&id: &u32| {
            let s = &placed[id as usize];
            s.position.distance(p) >= s.radius + radius
        };
        if !self.large.iter().all(clear) {
            return false;
        }
        let Some((lo, hi)) = self.cell_range(p, radius) else {
            return (0..self.count).all(|id| clear(&id));
        };
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    if !self.cells.get(&[x, y, z]).map_or(true, |ids| ids.iter().all(clear)) {
                        return false;
                    }
                }
            }
        }
        true
    }
}
