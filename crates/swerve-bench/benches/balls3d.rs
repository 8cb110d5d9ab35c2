//! Criterion suite for the 3-D ball world: every broad phase of `swerve::physics3d` on the
//! sphere pit (radius 1, 10 % volume fraction) at 1,000 and 10,000 spheres, and rapier3d on the
//! same scenes. `BenchmarkId::new(algorithm, n)`, throughput in spheres (elements) per step.
//!
//! Kept short (10 samples, 2 s of measurement per benchmark); `examples/balls3d_report.rs`
//! has the larger sizes and the mixed-size pit. `cargo bench -p swerve-bench --bench balls3d`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swerve::physics3d::scene::sphere_pit;
use swerve::physics3d::BroadPhaseKind;
use swerve_bench::balls::SCENE_SEED;

#[path = "rapier3d_pit.rs"]
mod rapier3d_pit;

fn balls3d(c: &mut Criterion) {
    let mut group = c.benchmark_group("balls3d/pit");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for n in [1_000, 10_000] {
        let scene = sphere_pit(n, 0.1, SCENE_SEED);
        group.throughput(Throughput::Elements(n as u64));
        for kind in BroadPhaseKind::ALL.iter().copied() {
            let mut world = scene.world(kind).expect("valid scene");
            group.bench_function(BenchmarkId::new(kind.to_string(), n), |b| b.iter(|| world.step(scene.dt)));
        }
        let mut rapier = rapier3d_pit::Rapier3dPit::new(&scene);
        group.bench_function(BenchmarkId::new("rapier3d", n), |b| b.iter(|| rapier.step()));
    }
    group.finish();
}

criterion_group!(benches, balls3d);
criterion_main!(benches);
