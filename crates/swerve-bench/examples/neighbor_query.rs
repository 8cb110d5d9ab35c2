//! Times the neighbour queries of one step alone: grid (with and without the search hint) and
//! RVO2's k-d tree, over a warmed-up scene's positions, and checks they agree.
//!
//! `cargo run --release -p swerve-bench --example neighbor_query -- jgrid 100000`

use std::time::Instant;
use swerve::spatial::{AgentKdTree, GridQuery, Neighbor, NeighborGrid};
use swerve::Vec2;
use swerve_bench::orca::{set_preferred_velocities, Scene};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let family = args.get(1).map_or("jgrid", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let scene = Scene::by_name(family, n).expect("known family");
    let mut sim = scene.simulator().expect("valid scene");
    let goals: Vec<Vec2> = scene.goals.iter().map(|g| Vec2::from_array(*g)).collect();
    let mut scratch = Vec::new();
    for _ in 0..5 {
        set_preferred_velocities(&mut sim, &goals, &mut scratch);
        sim.step();
    }
    let before = sim.positions().to_vec();
    set_preferred_velocities(&mut sim, &goals, &mut scratch);
    sim.step();
    let positions = sim.positions().to_vec();
    if std::env::var("KTH_GROWTH").is_ok() {
        let mut t0 = AgentKdTree::new();
        t0.rebuild(&before);
        let mut o = Vec::new();
        let mut growth: Vec<f32> = (0..n)
            .map(|i| {
                t0.nearest(before[i], i as u32, 225.0, 10, &mut o);
                let a = o.last().unwrap().distance_squared.sqrt();
                t0.nearest(positions[i], i as u32, 225.0, 10, &mut o);
                let b = o.last().unwrap().distance_squared.sqrt();
                b - a
            })
            .collect();
        growth.sort_by(f32::total_cmp);
        for q in [0.5, 0.9, 0.95, 0.99, 0.999, 1.0] {
            println!("growth quantile {q}: {:.3}", growth[((n - 1) as f64 * q) as usize]);
        }
    }
    let (range_squared, k) = (15.0f32 * 15.0, 10usize);
    let mut tree = AgentKdTree::new();
    tree.rebuild(&positions);
    let mut out = Vec::with_capacity(k);
    // The k-th neighbour distance of every agent, as last step's hint would give it (+1 m).
    let mut previous = AgentKdTree::new();
    previous.rebuild(&before);
    let hints: Vec<[f32; 2]> = (0..n)
        .map(|i| {
            previous.nearest(before[i], i as u32, range_squared, k, &mut out);
            let kth = out.last().map_or(15.0, |x| x.distance_squared.sqrt());
            let guess = kth * (1.0 + 1.0 / 64.0);
            [guess * guess, (kth + 1.0) * (kth + 1.0)]
        })
        .collect();
    let mean_kth = hints.iter().map(|h| h[1].sqrt() - 1.0).sum::<f32>() / n as f32;
    let mut grid = NeighborGrid::new();
    let cell = 0.5 * mean_kth;
    let t = Instant::now();
    for _ in 0..10 {
        grid.rebuild(&positions, cell);
    }
    println!("grid rebuild: {:.2} ms", t.elapsed().as_secs_f64() * 100.0);
    let t = Instant::now();
    for _ in 0..5 {
        tree.rebuild(&positions);
    }
    println!("tree rebuild: {:.2} ms", t.elapsed().as_secs_f64() * 200.0);

    let mut expected: Vec<Vec<Neighbor>> = Vec::with_capacity(n);
    let t = Instant::now();
    for (i, p) in positions.iter().enumerate() {
        tree.nearest(*p, i as u32, range_squared, k, &mut out);
        expected.push(out.clone());
    }
    println!("tree queries: {:.2} ms", t.elapsed().as_secs_f64() * 1000.0);
    let only: Option<usize> = std::env::var("MODE").ok().and_then(|m| m.parse().ok());
    for (label, use_hint) in [("grid, no hint", 0), ("grid, bound hint", 1), ("grid, guess + bound", 2)] {
        if only.is_some_and(|m| m != use_hint) {
            continue;
        }
        let mut best = f64::INFINITY;
        let mut tied = 0;
        let mut checksum = 0usize;
        let reps: usize = std::env::var("REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
        for _ in 0..reps {
            tied = 0;
            let t = Instant::now();
            for (i, p) in positions.iter().enumerate() {
                let hint: &[f32] = match use_hint {
                    0 => &[],
                    1 => &hints[i][1..],
                    _ => &hints[i],
                };
                if grid.nearest_with_hints(*p, i as u32, range_squared, k, hint, &mut out) == GridQuery::Tied {
                    tied += 1;
                } else {
                    checksum = checksum.wrapping_add(out.len() + out[0].index as usize);
                }
            }
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            for (i, p) in positions.iter().enumerate().filter(|_| std::env::var("NOCHECK").is_err()) {
                if grid.nearest(*p, i as u32, range_squared, k, &mut out) == GridQuery::Exact {
                    assert_eq!(out, expected[i], "agent {i}");
                }
            }
        }
        println!("{label}: {best:.2} ms ({tied} tied, checksum {checksum})");
    }
}
