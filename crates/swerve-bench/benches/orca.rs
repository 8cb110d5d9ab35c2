//! Criterion: `Simulator::step` on the ORCA scenes, 1 and 2 threads.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swerve::Vec2;
use swerve_bench::orca::{set_preferred_velocities, Scene};

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("orca_step");
    group.sample_size(10);
    let families = [
        ("jgrid", &[1_000usize, 10_000, 100_000][..]),
        ("circle", &[1_000, 10_000][..]),
        ("blocks", &[10_000][..]),
        ("city", &[10_000][..]),
    ];
    for (family, sizes) in families {
        for &n in sizes {
            let scene = Scene::by_name(family, n).expect("known family");
            for threads in [1usize, 2] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
                let mut sim = scene.simulator().expect("valid scene");
                let goals: Vec<Vec2> = scene.goals.iter().map(|g| Vec2::from_array(*g)).collect();
                let mut scratch = Vec::new();
                group.throughput(Throughput::Elements(n as u64));
                group.bench_with_input(BenchmarkId::new(format!("{family}/{threads}t"), n), &n, |b, _| {
                    pool.install(|| {
                        b.iter(|| {
                            set_preferred_velocities(&mut sim, &goals, &mut scratch);
                            sim.step();
                        })
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench_step);
criterion_main!(benches);
