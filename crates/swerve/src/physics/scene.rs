//! Reproducible scenes: seed 003's benchmark scene, the scaled ball pit, and a pour for
//! gravity.
//!
//! Shared by the tests, the benchmark crate, the CLI and the bindings so that every figure is
//! measured on the same balls. Randomness is SplitMix64 from a named seed (no dependency, same
//! numbers on every platform).

use glam::Vec2;

use super::{Ball, BroadPhaseKind, World};
use crate::error::Error;
use crate::geom::Aabb;

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and good enough to place balls.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 24 random bits (exact in `f32`).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// A set of balls in a box, and the time step to run them with.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The box.
    pub bounds: Aabb,
    /// The balls, in row-major order of their starting cells (neighbours are near in memory).
    pub balls: Vec<Ball>,
    /// Time step (seconds; the seed scene's velocities are per step, so its `dt` is 1).
    pub dt: f32,
}

impl Scene {
    /// A world holding this scene.
    pub fn world(&self, broad_phase: BroadPhaseKind) -> Result<World, Error> {
        let mut world = World::new(Some(self.bounds), broad_phase);
        for b in &self.balls {
            world.add_ball(*b)?;
        }
        Ok(world)
    }
}

/// Seed 003's experiment (§4): an 1800 × 900 box, radii uniform in `[10, 15]`, velocity
/// components uniform in `[−4, 4]` per step (so `dt = 1`), no overlap at the start. Masses are
/// real (`π r²`, unit density), not the seed's `m = r`; restitution 1. At most 1,800 balls
/// (one per 30 × 30 cell, which is what makes the start overlap-free).
pub fn seed_scene(n: usize, seed: u64) -> Scene {
    let (cols, rows, cell) = (60usize, 30usize, 30.0f32);
    let n = n.min(cols * rows);
    let mut rng = SplitMix64(seed);
    let balls = (0..n)
        .map(|i| {
            // Spread the balls evenly over the cells, in row-major order.
            let c = i * cols * rows / n.max(1);
            let centre = Vec2::new((c % cols) as f32 + 0.5, (c / cols) as f32 + 0.5) * cell;
            let r = rng.range(10.0, 15.0);
            let slack = cell * 0.5 - r;
            let p = centre + Vec2::new(rng.range(-slack, slack), rng.range(-slack, slack));
            let v = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            Ball::new(p, v, r)
        })
        .collect();
    Scene { bounds: Aabb { min: Vec2::ZERO, max: Vec2::new(1800.0, 900.0) }, balls, dt: 1.0 }
}

/// The scaled ball pit: `n` balls of radius 1 covering 10% of a square box, speeds uniform in
/// `[0, 10]` in uniformly random directions, `dt = 1/60`. Balls start on a jittered lattice
/// (one per cell, no overlap), row by row.
pub fn ball_pit(n: usize, seed: u64) -> Scene {
    let radius = 1.0f32;
    let side = (n.max(1) as f32 * std::f32::consts::PI * radius * radius / 0.1).sqrt();
    let per_row = (n.max(1) as f32).sqrt().ceil() as usize;
    let cell = side / per_row as f32;
    let mut rng = SplitMix64(seed);
    let slack = (cell * 0.5 - radius).max(0.0);
    let balls = (0..n)
        .map(|i| {
            let centre = Vec2::new((i % per_row) as f32 + 0.5, (i / per_row) as f32 + 0.5) * cell;
            let p = centre + Vec2::new(rng.range(-slack, slack), rng.range(-slack, slack));
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let speed = rng.range(0.0, 10.0);
            Ball::new(p, Vec2::from_angle(angle) * speed, radius)
        })
        .collect();
    Scene { bounds: Aabb { min: Vec2::ZERO, max: Vec2::splat(side) }, balls, dt: 1.0 / 60.0 }
}

/// A pour for gravity: `n` balls of radius 1 with restitution `e`, in rows 2.1 m apart over
/// the floor of a box `width` metres wide (rows 2.3 m apart, jittered by up to 0.1 m, moving
/// at up to 0.5 m/s), as if just poured in; `dt = 1/60`. Run it with
/// [`World::set_gravity`] (`(0, −9.81)`): it falls into a pile about `n / (width / 2)` rows
/// deep. The box is tall enough to hold the start.
pub fn poured_pile(n: usize, width: f32, e: f32, seed: u64) -> Scene {
    let per_row = (((width - 2.0) / 2.1) as usize).max(1);
    let mut rng = SplitMix64(seed);
    let balls: Vec<Ball> = (0..n)
        .map(|k| {
            let x = 1.2 + (k % per_row) as f32 * 2.1 + 0.1 * rng.unit();
            let y = 2.0 + (k / per_row) as f32 * 2.3 + 0.1 * rng.unit();
            let v = Vec2::new(rng.unit() - 0.5, rng.unit() - 0.5);
            Ball { restitution: e, ..Ball::new(Vec2::new(x, y), v, 1.0) }
        })
        .collect();
    let top = 4.0 + (n / per_row + 1) as f32 * 2.3;
    Scene { bounds: Aabb { min: Vec2::ZERO, max: Vec2::new(width, top) }, balls, dt: 1.0 / 60.0 }
}

/// A steep pile left to slump, a test of a granular material's friction: a triangle of `rows`
/// rows of balls (the bottom row `rows` balls wide, 1.3 m apart; each row above 1.126 m higher
/// and one ball shorter, so its flanks stand at 60°), radii 0.4–0.6 m (mixed, so that they
/// cannot lock into a crystal), restitution 0.1 and friction coefficient `friction`, at rest on
/// the middle of a floor `floor` metres wide; `dt = 1/60`. Run it with gravity: the pile
/// slumps until its flanks are no steeper than the friction holds (a frictionless one spreads
/// into a layer).
pub fn slumping_pile(rows: usize, floor: f32, friction: f32, seed: u64) -> Scene {
    const PITCH: f32 = 1.3;
    let rise = PITCH * 0.866_025_4;
    let mut rng = SplitMix64(seed);
    let mut balls = Vec::with_capacity(rows * (rows + 1) / 2);
    for row in 0..rows {
        let across = rows - row;
        let left = 0.5 * floor - 0.5 * PITCH * (across - 1) as f32;
        for k in 0..across {
            let radius = rng.range(0.4, 0.6);
            let position = Vec2::new(left + k as f32 * PITCH, 0.65 + row as f32 * rise);
            balls.push(Ball { restitution: 0.1, ..Ball::new(position, Vec2::ZERO, radius) }.with_friction(friction));
        }
    }
    let top = 3.0 + rows as f32 * rise;
    Scene { bounds: Aabb { min: Vec2::ZERO, max: Vec2::new(floor, top) }, balls, dt: 1.0 / 60.0 }
}

/// A pyramid for gravity: `rows` rows of unit balls (restitution 0), the bottom row `rows`
/// balls wide on the floor of a box, each row above one ball shorter and nested in the one
/// below; two kinematic balls at the bottom row's ends keep it from sliding apart (frictionless
/// discs would). The first `rows · (rows + 1) / 2` balls are the pyramid's, row by row from
/// the bottom; `dt = 1/60`. Run it with gravity: how far its balls drift is how well the
/// resting-contact solver holds a stack.
pub fn pinned_pyramid(rows: usize) -> Scene {
    let half = rows as f32 + 4.0;
    let mut balls = Vec::with_capacity(rows * (rows + 1) / 2 + 2);
    for row in 0..rows {
        for k in 0..rows - row {
            let p = Vec2::new(2.0 * k as f32 - (rows - row - 1) as f32, 1.0 + row as f32 * 3f32.sqrt());
            balls.push(Ball { restitution: 0.0, ..Ball::new(p, Vec2::ZERO, 1.0) });
        }
    }
    for x in [-(rows as f32) - 1.0, rows as f32 + 1.0] {
        balls.push(Ball::kinematic(Vec2::new(x, 1.0), Vec2::ZERO, 1.0));
    }
    Scene { bounds: Aabb { min: Vec2::new(-half, 0.0), max: Vec2::new(half, 2.0 * half) }, balls, dt: 1.0 / 60.0 }
}
