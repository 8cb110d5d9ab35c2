//! Criterion suite: every broad phase on seed 003's scene and on the ball pit, and rapier2d on
//! the same pit. `BenchmarkId::new(algorithm, n)`, throughput in balls (elements) per step.
//!
//! Pit sizes stop at 100,000 by default (criterion's sampling makes 1,000,000 take minutes per
//! algorithm); set `SWERVE_BENCH_FULL=1` for 1,000,000. Brute force stops at 10,000.
//! `cargo bench -p swerve-bench --bench balls`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swerve::physics::BroadPhaseKind;
use swerve_bench::balls::SceneKind;

#[path = "rapier_pit.rs"]
mod rapier_pit;

fn bench_scene(c: &mut Criterion, scene_kind: SceneKind, sizes: &[usize], with_rapier: bool) {
    let mut group = c.benchmark_group(match scene_kind {
        SceneKind::Seed => "balls/seed-scene",
        SceneKind::Pit => "balls/pit",
    });
    group.sample_size(10);
    for &n in sizes {
        let scene = scene_kind.scene(n);
        group.throughput(Throughput::Elements(n as u64));
        for kind in BroadPhaseKind::ALL {
            if kind == BroadPhaseKind::BruteForce && n > 10_000 {
                continue; // O(n²): seconds per step beyond this
            }
            let mut world = scene.world(kind).expect("valid scene");
            group.bench_function(BenchmarkId::new(kind.name(), n), |b| b.iter(|| world.step(scene.dt)));
        }
        if with_rapier && n <= 100_000 {
            let mut rapier = rapier_pit::RapierPit::new(&scene);
            group.bench_function(BenchmarkId::new("rapier2d", n), |b| b.iter(|| rapier.step()));
        }
    }
    group.finish();
}

fn balls(c: &mut Criterion) {
    bench_scene(c, SceneKind::Seed, &[100, 400, 800, 1600], false);
    let full = std::env::var_os("SWERVE_BENCH_FULL").is_some();
    let pit: &[usize] = if full { &[1_600, 10_000, 100_000, 1_000_000] } else { &[1_600, 10_000, 100_000] };
    bench_scene(c, SceneKind::Pit, pit, true);
}

criterion_group!(benches, balls);
criterion_main!(benches);
