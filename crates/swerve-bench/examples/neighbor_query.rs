//! Times the neighbour search of one step on its own — the grid and k-d tree rebuilds, RVO2's
//! k-d tree queries, and the grid's queries without and with the simulator's hints — over a
//! warmed-up scene, and checks that every grid answer claimed exact equals the tree's.
//!
//! `cargo run --release -p swerve-bench --example neighbor_query -- jgrid 100000`

use std::time::Instant;
use swerve::spatial::{AgentKdTree, GridQuery, Neighbor, NeighborGrid};
use swerve::Vec2;
use swerve_bench::orca::{set_preferred_velocities, Scene};

/// Best of this many timed repetitions.
const REPETITIONS: usize = 5;

fn best_ms(mut f: impl FnMut()) -> f64 {
    (0..REPETITIONS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let family = args.get(1).map_or("jgrid", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let Some(scene) = Scene::by_name(family, n) else {
        eprintln!("error: unknown scene family {family:?}");
        std::process::exit(2)
    };
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
    let (range_squared, k) = (15.0f32 * 15.0, 10usize);
    let mut out = Vec::with_capacity(k);

    // The simulator's hints: last step's k-th distance + 1/64 (a guess), then + 2 × the
    // largest move (a bound).
    let mut tree = AgentKdTree::new();
    tree.rebuild(&before);
    let largest_move = before.iter().zip(&positions).map(|(a, b)| a.distance(*b)).fold(0.0f32, f32::max);
    let hints: Vec<[f32; 2]> = (0..n)
        .map(|i| {
            tree.nearest(before[i], i as u32, range_squared, k, &mut out);
            let kth = if out.len() == k { out[k - 1].distance_squared.sqrt() } else { 15.0 };
            let (guess, bound) = (kth * (1.0 + 1.0 / 64.0), kth + 2.0 * largest_move);
            [guess, bound * (1.0 + 1e-5)]
        })
        .collect();
    let mean_kth = hints.iter().map(|h| h[0] / (1.0 + 1.0 / 64.0)).sum::<f32>() / n as f32;

    let mut grid = NeighborGrid::new();
    println!("grid rebuild: {:.2} ms", best_ms(|| grid.rebuild(&positions, 0.5 * mean_kth)));
    println!("tree rebuild: {:.2} ms", best_ms(|| tree.rebuild(&positions)));
    let mut expected: Vec<Vec<Neighbor>> = vec![Vec::new(); n];
    println!(
        "tree queries: {:.2} ms",
        best_ms(|| {
            for (i, p) in positions.iter().enumerate() {
                tree.nearest(*p, i as u32, range_squared, k, &mut expected[i]);
            }
        })
    );
    for (label, use_hints) in [("grid queries, no hint", false), ("grid queries, guess + bound hints", true)] {
        let mut tied = 0;
        let ms = best_ms(|| {
            tied = 0;
            for (i, p) in positions.iter().enumerate() {
                let hints: &[f32] = if use_hints { &hints[i] } else { &[] };
                tied += usize::from(
                    grid.nearest_with_hints(*p, i as u32, range_squared, k, hints, &mut out) == GridQuery::Tied,
                );
            }
        });
        for (i, p) in positions.iter().enumerate() {
            let hints: &[f32] = if use_hints { &hints[i] } else { &[] };
            if grid.nearest_with_hints(*p, i as u32, range_squared, k, hints, &mut out) == GridQuery::Exact {
                assert_eq!(out, expected[i], "agent {i}");
            }
        }
        println!("{label}: {ms:.2} ms ({tied} tied, left to the tree; every other answer equals the tree's)");
    }
}
