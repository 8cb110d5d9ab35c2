//! Criterion: `swerve::orca3d::Simulator::step` on the `sphere N` scene of
//! `examples/orca3d_report.rs` (RVO2-3D's Sphere example at its surface density, any size),
//! on rayon's default pool.
//!
//! Every iteration steps a copy of the crowd as it stands after the report's 5 warm-up steps
//! (preferred velocities set by the report's rule), so that each sample times the same step:
//! stepping one crowd on and on would carry the 1,000 agents (radius 111 m, 1 m/s) through
//! the crowded crossing at the centre within the thousands of iterations criterion runs.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use swerve::orca3d::{AgentParams, Simulator, Vec3};

/// `sphere N` (as in the report): N agents on a golden-angle spiral over a sphere of radius
/// `100 · √(N / 812)` m (the 812 agents of RVO2-3D's Sphere example on its 100 m sphere),
/// each bound for the antipodal point. Returns the simulator (time step 0.125 s, RVO2-3D's
/// Sphere parameters) and the goals.
fn sphere(n: usize) -> (Simulator, Vec<Vec3>) {
    let mut sim = Simulator::new(0.125, AgentParams::default()).expect("valid parameters");
    let radius = 100.0 * (n as f64 / 812.0).sqrt();
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut goals = Vec::with_capacity(n);
    for i in 0..n {
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
        let ring = (1.0 - z * z).sqrt();
        let angle = i as f64 * golden;
        let p =
            Vec3::new((radius * ring * angle.cos()) as f32, (radius * ring * angle.sin()) as f32, (radius * z) as f32);
        sim.add_agent(p).expect("finite position");
        goals.push(-p);
    }
    (sim, goals)
}

/// The report's preferred velocity (toward the goal, at most unit length, in f32).
fn preferred(goal: Vec3, position: Vec3) -> Vec3 {
    let g = goal - position;
    if g.length_squared() > 1.0 {
        g * (1.0 / g.length())
    } else {
        g
    }
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("orca3d_step");
    group.sample_size(10);
    for n in [1_000usize, 10_000] {
        let (mut sim, goals) = sphere(n);
        let set_prefs = |sim: &mut Simulator| {
            let prefs: Vec<Vec3> = goals.iter().zip(sim.positions()).map(|(&g, &p)| preferred(g, p)).collect();
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
