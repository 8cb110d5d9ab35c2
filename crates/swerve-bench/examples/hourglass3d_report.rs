//! The hourglass in three dimensions: spheres pouring under gravity through a funnel of static
//! triangles into a lower chamber, swerve's 3-D world against rapier3d on the same spheres and
//! the same funnel, in the same run. What a step costs, how fast the spheres flow through the
//! opening (the two engines should roughly agree: a big disagreement means one of them leaks or
//! jams), and whether any sphere goes through the funnel. Prints Markdown (it writes nothing).
//!
//! `cargo run --release -p swerve-bench --example hourglass3d_report` (2,000 and 10,000
//! spheres); `-- --quick` for the 2,000-sphere hourglass only; `-- --largest N` skips the
//! hourglasses above `N` spheres; `-- --swerve-only` leaves rapier3d out. The full run took
//! about 5 minutes (4.7 and 5.0 in two runs) on the project's 2-core machine, shared with other
//! work (load average 1.9 to 2.6, printed before and after), most of it on the 10,000-sphere
//! hourglass (rapier3d 2.5 to 2.8 minutes, each swerve run under 1); `--quick` takes half a
//! minute. The simulation is deterministic: the counts and depths repeat exactly from run to
//! run, the timings do not.
//!
//! The scene: [`hourglass`]`(n, 0.1, SCENE_SEED)`, the sphere pit's unit spheres (10 % of the
//! pit's volume, speeds up to 10 m/s in random directions) over a square funnel of eight
//! triangles, in a box 2.5 pit sides deep; restitution 0.3, no friction in either engine, g =
//! 9.81 m/s² along −z, dt = 1/60 s, 20 s (1,200 steps). swerve: uniform grid, defaults
//! otherwise (continuous collision on), and a second run with two substeps a step. rapier3d 0.22
//! (`benches/rapier3d_pit.rs`): balls of density 1 (swerve's masses, `4/3 π r³`), the box's
//! walls as six fixed cuboids, the funnel as one fixed trimesh collider (default flags, both
//! faces solid), restitution with `Max` combine (walls and funnel 0), defaults otherwise, no
//! sleeping, no CCD, single thread. The fastest fall (from the top of the 10,000-sphere pit to
//! the floor, about 190 m) reaches about 60 m/s plus the start's 10, about 1.2 m a step, less
//! than a sphere's diameter; across the funnel (falling at most about 75 m onto it) a sphere
//! moves about 0.8 m a step, less than its radius, so rapier needs no CCD to stop at a
//! triangle.
//!
//! Timing: wall clock of `World::step` / rapier's `PhysicsPipeline::step` only, the median over
//! the whole run and over the first 5 s (the spheres fall into the funnel). Both engines are
//! judged from their positions and velocities alone, by the same code: spheres below the
//! funnel's opening (centre below z = −½ side) at 5, 10 and 20 s; spheres whose centre crossed
//! a funnel wall within one step (checked after every step: from inside the funnel or above it
//! to the band beside it, z ∈ (−½ side, 0) outside the funnel's square cross-section at that
//! height, or back), and the spheres in that band at 20 s (a sphere can also reach it
//! legitimately, bouncing up from the lower chamber); centres outside the box; the deepest
//! sphere–sphere overlap (touching pairs from swerve's uniform grid on the spheres' boxes); the
//! deepest penetration into the funnel (the sphere's radius minus its centre's distance to the
//! nearest triangle, by Ericson's closest point on a triangle, computed here in `f64`), worst
//! after any step and at 20 s; penetration into the box's walls; mean and fastest speed.

#[path = "../benches/rapier3d_pit.rs"]
mod rapier3d_pit;

use std::time::Instant;

use glam::DVec3;
use swerve::physics3d::broad_phase::BroadPhaseKind;
use swerve::physics3d::scene::{hourglass, Mesh};
use swerve::physics3d::{Aabb3, Vec3};
use swerve_bench::balls::SCENE_SEED;

use rapier3d_pit::Rapier3dPit;
use swerve_bench::pour3d::{deepest_overlap, load_average, median, speed, Engine};

const G: f32 = 9.81;
/// 20 s.
const STEPS: usize = 1200;
/// Steps a second.
const PER_SECOND: usize = 60;
/// The first 5 s, for the falling-phase timing.
const FIRST_STEPS: usize = 5 * PER_SECOND;
/// Snapshots at these times (s).
const SNAPSHOT_SECONDS: [usize; 3] = [5, 10, 20];
const RESTITUTION: f32 = 0.3;
/// The fraction of the pit's volume the spheres fill (the sphere pit's density).
const FRACTION: f32 = 0.1;
/// The spheres' radius (m).
const RADIUS: f32 = 1.0;

/// Where a sphere's centre is, relative to the funnel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Region {
    /// In the pit, above the funnel's rim (z ≥ 0).
    Above,
    /// In the funnel: between its rim and its opening, within its cross-section.
    Inside,
    /// Beside the funnel: between its rim and its opening, outside its cross-section (behind
    /// the triangles).
    Beside,
    /// Below the funnel's opening, in the lower chamber.
    Below,
    /// Outside the box, or not finite.
    Escaped,
}

/// The hourglass's square funnel, read back from its mesh.
struct Funnel {
    triangles: Vec<[DVec3; 3]>,
    /// The funnel's axis (x = y = `centre`).
    centre: f32,
    rim_z: f32,
    rim_half: f32,
    opening_z: f32,
    opening_half: f32,
}

impl Funnel {
    /// The mesh of [`hourglass`]: the rim's four corners, then the opening's.
    fn new(mesh: &Mesh) -> Funnel {
        let v = &mesh.vertices;
        let centre = 0.5 * (v[0].x + v[2].x);
        Funnel {
            triangles: mesh.triangles.iter().map(|t| t.map(|k| v[k as usize].as_dvec3())).collect(),
            centre,
            rim_z: v[0].z,
            rim_half: centre - v[0].x,
            opening_z: v[4].z,
            opening_half: centre - v[4].x,
        }
    }

    /// The funnel's half-width at height `z` (between its opening and its rim).
    fn half_width(&self, z: f32) -> f32 {
        let t = (z - self.rim_z) / (self.opening_z - self.rim_z);
        self.rim_half + (self.opening_half - self.rim_half) * t
    }

    fn region(&self, p: Vec3, bounds: Aabb3) -> Region {
        if !(p.is_finite() && bounds.min.cmple(p).all() && p.cmple(bounds.max).all()) {
            Region::Escaped
        } else if p.z >= self.rim_z {
            Region::Above
        } else if p.z <= self.opening_z {
            Region::Below
        } else {
            let h = self.half_width(p.z);
            if (p.x - self.centre).abs() <= h && (p.y - self.centre).abs() <= h {
                Region::Inside
            } else {
                Region::Beside
            }
        }
    }

    /// The deepest penetration of a sphere into a triangle of the funnel (m): the radius minus
    /// the distance from the centre to the nearest triangle, at most over the spheres (0 if none
    /// touches).
    fn deepest_into(&self, positions: &[Vec3]) -> f32 {
        let near = |p: &&Vec3| p.is_finite() && p.z < self.rim_z + RADIUS && p.z > self.opening_z - RADIUS;
        let depth = |p: &Vec3| {
            let q = p.as_dvec3();
            let distance = self.triangles.iter().map(|t| closest_point(q, t).distance(q)).fold(f64::INFINITY, f64::min);
            f64::from(RADIUS) - distance
        };
        positions.iter().filter(near).map(depth).fold(0.0, f64::max) as f32
    }
}

/// The point of triangle `t` closest to `p` (Ericson, *Real-Time Collision Detection*, 5.1.5):
/// which of the seven Voronoi regions (three corners, three edges, the face) `p` projects into.
fn closest_point(p: DVec3, [a, b, c]: &[DVec3; 3]) -> DVec3 {
    let (ab, ac, ap) = (*b - *a, *c - *a, p - *a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - *b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return *a + ab * (d1 / (d1 - d3));
    }
    let cp = p - *c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return *a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return *b + (*c - *b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    *a + ab * (vb * denom) + ac * (vc * denom)
}

/// The hourglass at one moment, from its positions and speeds.
#[derive(Clone, Copy, Default)]
struct Snapshot {
    /// Spheres below the funnel's opening.
    below: usize,
    /// Spheres beside the funnel ([`Region::Beside`]).
    beside: usize,
    /// Spheres outside the box, or not finite.
    escaped: usize,
    /// The deepest sphere–sphere overlap, as a fraction of the radius.
    deepest: f32,
    /// The deepest penetration into the funnel, as a fraction of the radius.
    into_funnel: f32,
    /// The deepest penetration into a wall of the box, as a fraction of the radius.
    into_wall: f32,
    mean_speed: f64,
    fastest: f32,
}

fn snapshot(engine: &dyn Engine, bounds: Aabb3, funnel: &Funnel) -> Snapshot {
    let positions = engine.positions();
    let speeds = engine.speeds();
    let count = |region: Region| positions.iter().filter(|&&p| funnel.region(p, bounds) == region).count();
    let into_wall = positions
        .iter()
        .filter(|p| p.is_finite())
        .map(|&p| (RADIUS - (p - bounds.min).min(bounds.max - p).min_element()) / RADIUS)
        .fold(0.0, f32::max);
    Snapshot {
        below: count(Region::Below),
        beside: count(Region::Beside),
        escaped: count(Region::Escaped),
        deepest: deepest_overlap(&positions, RADIUS),
        into_funnel: funnel.deepest_into(&positions) / RADIUS,
        into_wall,
        mean_speed: speeds.iter().map(|&v| f64::from(v)).sum::<f64>() / speeds.len() as f64,
        fastest: speeds.iter().copied().fold(0.0, f32::max),
    }
}

/// What one engine did with one hourglass.
struct Run {
    /// Median ms a step over the whole run, and over the first 5 s.
    all_ms: f64,
    first_ms: f64,
    /// At [`SNAPSHOT_SECONDS`].
    snapshots: [Snapshot; 3],
    /// When half the spheres, and when all of them, were first below the opening (s).
    half_below_at: Option<f32>,
    all_below_at: Option<f32>,
    /// Spheres whose centre crossed a funnel wall within one step at least once, and how many
    /// such crossings there were.
    crossed: usize,
    crossings: usize,
    /// Spheres that were outside the box after some step.
    escaped_ever: usize,
    /// The deepest penetration into the funnel after any step, as a fraction of the radius.
    into_funnel_ever: f32,
    /// Wall-clock time of the whole run, measurements included (s).
    seconds: f64,
}

/// Runs `engine` for [`STEPS`] steps.
fn run(engine: &mut dyn Engine, bounds: Aabb3, funnel: &Funnel) -> Run {
    let started = Instant::now();
    let mut times = Vec::with_capacity(STEPS);
    let mut snapshots = [Snapshot::default(); 3];
    let mut regions: Vec<Region> = engine.positions().iter().map(|&p| funnel.region(p, bounds)).collect();
    let (mut crossed, mut escaped) = (vec![false; regions.len()], vec![false; regions.len()]);
    let mut crossings = 0;
    let mut into_funnel_ever = 0.0f32;
    let (mut half_below_at, mut all_below_at) = (None, None);
    for s in 0..STEPS {
        let start = Instant::now();
        engine.step();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        let positions = engine.positions();
        for (k, &p) in positions.iter().enumerate() {
            let region = funnel.region(p, bounds);
            let through = matches!(
                (regions[k], region),
                (Region::Above | Region::Inside, Region::Beside) | (Region::Beside, Region::Above | Region::Inside)
            );
            if through {
                crossings += 1;
                crossed[k] = true;
            }
            escaped[k] |= region == Region::Escaped;
            regions[k] = region;
        }
        into_funnel_ever = into_funnel_ever.max(funnel.deepest_into(&positions) / RADIUS);
        let below = regions.iter().filter(|&&r| r == Region::Below).count();
        let now = (s + 1) as f32 / PER_SECOND as f32;
        if 2 * below >= regions.len() {
            half_below_at.get_or_insert(now);
        }
        if below == regions.len() {
            all_below_at.get_or_insert(now);
        }
        if let Some(k) = SNAPSHOT_SECONDS.iter().position(|&t| t * PER_SECOND == s + 1) {
            snapshots[k] = snapshot(engine, bounds, funnel);
        }
    }
    Run {
        all_ms: median(times.clone()),
        first_ms: median(times[..FIRST_STEPS].to_vec()),
        snapshots,
        half_below_at,
        all_below_at,
        crossed: crossed.iter().filter(|&&c| c).count(),
        crossings,
        escaped_ever: escaped.iter().filter(|&&e| e).count(),
        into_funnel_ever,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn seconds(t: Option<f32>) -> String {
    t.map_or_else(|| "not in 20 s".to_string(), |t| format!("{t:.2} s"))
}

fn percent(fraction: f32) -> String {
    format!("{:.2} %", fraction * 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let with_rapier = !args.iter().any(|a| a == "--swerve-only");
    let largest: usize = match args.iter().position(|a| a == "--largest") {
        Some(k) => args.get(k + 1).and_then(|n| n.parse().ok()).expect("--largest takes a sphere count"),
        None => 10_000,
    };
    let sizes: Vec<usize> = [2000, 10_000].into_iter().filter(|&n| n <= largest && (!quick || n == 2000)).collect();
    println!("Load average before: {}\n", load_average());
    let whole = Instant::now();
    let mut results = Vec::new();
    for &n in &sizes {
        let (mut scene, mesh) = hourglass(n, FRACTION, SCENE_SEED);
        for s in &mut scene.spheres {
            (s.restitution, s.friction) = (RESTITUTION, 0.0);
        }
        let funnel = Funnel::new(&mesh);
        let side = scene.bounds.max.x - scene.bounds.min.x;
        let mut engines = Vec::new();
        for substeps in [1, 2] {
            let mut world = scene.world(BroadPhaseKind::UniformGrid).unwrap();
            world.add_mesh(&mesh.vertices, &mesh.triangles).unwrap();
            world.set_gravity(Vec3::new(0.0, 0.0, -G)).unwrap();
            world.set_substeps(substeps).unwrap();
            let name = if substeps == 1 { "swerve".to_string() } else { format!("swerve, {substeps} substeps") };
            let ours = run(&mut world, scene.bounds, &funnel);
            eprintln!("{name}, {n}: {:.1} s", ours.seconds);
            engines.push((name, ours));
        }
        if with_rapier {
            let mut rapier = Rapier3dPit::new(&scene);
            rapier.add_trimesh(&mesh.vertices, &mesh.triangles);
            rapier.set_gravity(0.0, 0.0, -G);
            let theirs = run(&mut rapier, scene.bounds, &funnel);
            eprintln!("rapier3d, {n}: {:.1} s", theirs.seconds);
            engines.push(("rapier3d".to_string(), theirs));
        }
        results.push((n, side, 2.0 * funnel.opening_half, engines));
    }
    println!(
        "The hourglass in 3-D (`hourglass(n, {FRACTION}, SCENE_SEED)`: unit spheres over a square funnel of 8 static triangles, restitution {RESTITUTION}, frictionless in both engines, g = {G} m/s² along −z, dt = 1/60 s, {STEPS} steps = 20 s; swerve: uniform grid, defaults otherwise, 1 or 2 substeps; rapier3d 0.22: the funnel as one trimesh collider, defaults, no friction, no sleeping, no CCD; median ms per step over the whole run and over the first 5 s; below = centre under the funnel's opening, z < −½ side; half / all below at = when half / all the spheres were first below it):\n"
    );
    println!("| hourglass (pit side, opening) | engine | ms/step (0–20 s) | ms/step (0–5 s) | below the opening at 5 / 10 / 20 s | half / all below at | rapier3d time ÷ this (0–20 s / 0–5 s) |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for (n, side, opening, engines) in &results {
        let rapier = engines.iter().find(|(name, _)| name == "rapier3d").map(|(_, r)| r);
        for (name, r) in engines {
            let below: Vec<String> = r.snapshots.iter().map(|s| s.below.to_string()).collect();
            let ratio = match rapier {
                Some(theirs) if name != "rapier3d" => {
                    format!("{:.2}× / {:.2}×", theirs.all_ms / r.all_ms, theirs.first_ms / r.first_ms)
                }
                _ => String::new(),
            };
            println!(
                "| {n} ({side:.1} m, {opening:.1} m) | {name} | {:.3} | {:.3} | {} of {n} | {} / {} | {ratio} |",
                r.all_ms,
                r.first_ms,
                below.join(" / "),
                seconds(r.half_below_at),
                seconds(r.all_below_at),
            );
        }
    }
    println!("\nChecks (same runs): spheres whose centre crossed a funnel wall within one step (checked after every step; spheres / crossings), spheres beside the funnel (z ∈ (−½ side, 0), outside its cross-section) at 20 s, centres outside the box (at 20 s / ever), the deepest sphere–sphere overlap, the deepest penetration into the funnel (radius minus distance to the nearest triangle) and into a wall (all of a radius), mean / fastest speed at 20 s, wall time of the run (measurements included):\n");
    println!("| hourglass | engine | through a funnel wall | beside the funnel at 20 s | outside the box (20 s / ever) | deepest overlap at 5 / 10 / 20 s | into the funnel at 5 / 10 / 20 s (worst after any step) | into a wall at 20 s | mean / fastest speed at 20 s | run |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (n, _, _, engines) in &results {
        for (name, r) in engines {
            let end = r.snapshots[2];
            let overlaps: Vec<String> = r.snapshots.iter().map(|s| percent(s.deepest)).collect();
            let funnel: Vec<String> = r.snapshots.iter().map(|s| percent(s.into_funnel)).collect();
            println!(
                "| {n} | {name} | {} / {} | {} | {} / {} | {} | {} ({}) | {} | {} / {} | {:.1} s |",
                r.crossed,
                r.crossings,
                end.beside,
                end.escaped,
                r.escaped_ever,
                overlaps.join(" / "),
                funnel.join(" / "),
                percent(r.into_funnel_ever),
                percent(end.into_wall),
                speed(end.mean_speed),
                speed(f64::from(end.fastest)),
                r.seconds,
            );
        }
    }
    println!("\nWhole run: {:.1} min. Load average after: {}", whole.elapsed().as_secs_f64() / 60.0, load_average());
}
