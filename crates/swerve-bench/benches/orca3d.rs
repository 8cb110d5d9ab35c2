//! Criterion: `swerve::orca3d::Simulator::step` on the `sphere N` scene of
//! `swerve_bench::orca3d` (the report's and `swerve bench orca3d`'s: RVO2-3D's Sphere example
//! at its surface density, any size), on rayon's default pool.
//!
//! Every iteration steps a copy of the crowd as it stands after the report's 5 warm-up steps
//! (preferred velocities set by the report's rule), so that each sample times the same step:
//! stepping one crowd on and on would carry the 1,000 agents (radius 111 m, 1 m/s) through
//! the crowded crossing at the centre within the thousands of iterations criterion runs.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use swerve::orca3d::{Simulator, Vec3};
use swerve::reference::preferred_velocity_toward3d;
use swerve_bench::orca3d::Scene3;

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("orca3d_step");
    group.sample_size(10);
    for n in [1_000usize, 10_000] {
        let scene = Scene3::sphere(n);
        let mut sim = scene.simulator().expect("a valid scene");
        let set_prefs = |sim: &mut Simulator| {
            let prefs: Vec<Vec3> =
                scene.goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred_velocity_toward3d(g, p)).collect();
            sim.set_pref_velocities(&prefs).expect("finite preferred velocities");
        };
        for _ in 0..5 {
            set_prefs(&mut sim);
            sim.step();
        }
        set_prefs(&mut sim);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("swerve-orca3d", n), &n, |b, _| {
            b.iter_batched_ref(|| sim.clone(), |crowd| crowd.step(), BatchSize::LargeInput)
        });
    }
    group.finish();
}

criterion_group!(benches, bench_step);
criterion_main!(benches);
