//! Avoidance layers and masks (`Simulator::set_agent_avoidance_layers` / `_mask`, Godot's
//! rule): an agent's neighbours are the nearest agents it avoids, by a brute-force oracle, on
//! the grid's path, on lattices whose ties go to RVO2's tree, and with more distinct layers
//! than the step tells apart; agents ignored both ways pass through each other; an agent
//! ignored one way avoids alone and does not collide; layers that filter nobody are RVO2 bit
//! for bit; results do not depend on thread counts or removals; safe mode leaves ignored pairs
//! alone.

use rand::{Rng, SeedableRng};
use swerve::orca::{Extensions, OverlapResolution};
use swerve::{AgentId, AgentParams, Error, InstructionSet, Simulator, Vec2};

#[path = "support/crowd.rs"]
mod crowd;
use crowd::{ring, set_prefs};

/// `n` agents at random over a square of density 0.1 per m² (the issue's `jgrid` density),
/// with goals across it, records kept. `lattice` puts them on integer points (many ties).
fn crowd(n: usize, seed: u64, lattice: bool) -> (Simulator, Vec<Vec2>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let side = (n as f32 * 10.0).sqrt();
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    let mut goals = Vec::new();
    let mut taken = std::collections::HashSet::new();
    while sim.num_agents() < n {
        let mut p = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
        if lattice {
            p = (p / 3.0).round() * 3.0;
            if !taken.insert((p.x as i32, p.y as i32)) {
                continue;
            }
        }
        sim.add_agent(p).unwrap();
        goals.push(Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side)));
    }
    sim.set_record_decisions(true);
    (sim, goals)
}

/// Agent `i`'s neighbours by brute force: every agent it avoids within its neighbour
/// distance, nearest first, cut to `max_neighbors` — as `(distance², index)`.
fn oracle(sim: &Simulator, positions: &[Vec2], i: usize) -> Vec<(f32, usize)> {
    let ids = sim.agent_ids();
    let params = sim.agent_params(ids[i]).unwrap();
    let mask = sim.agent_avoidance_mask(ids[i]).unwrap();
    let mut all: Vec<(f32, usize)> = (0..positions.len())
        .filter(|&j| j != i && mask & sim.agent_avoidance_layers(ids[j]).unwrap() != 0)
        .map(|j| {
            let d = positions[i] - positions[j];
            (d.x * d.x + d.y * d.y, j)
        })
        .filter(|&(d, _)| d < params.neighbor_dist * params.neighbor_dist)
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    all.truncate(params.max_neighbors);
    all
}

/// Steps `sim` and checks every agent's recorded neighbours against the oracle on the
/// positions the step started from. With ties possible only the distances, and the agents
/// strictly nearer than the farthest kept, must match (which of equally distant agents is kept
/// is RVO2's tree order; the library's own tests check that against the tree).
fn step_and_check_neighbors(sim: &mut Simulator, goals: &[Vec2], ties_possible: bool) {
    set_prefs(sim, goals);
    let positions = sim.positions().to_vec();
    sim.step();
    let ids = sim.agent_ids().to_vec();
    let index_of = |id: AgentId| ids.iter().position(|&x| x == id).unwrap();
    for (i, &id) in ids.iter().enumerate() {
        let expected = oracle(sim, &positions, i);
        let got: Vec<usize> = sim.agent_neighbors(id).unwrap().map(index_of).collect();
        let distance = |j: usize| {
            let d = positions[i] - positions[j];
            d.x * d.x + d.y * d.y
        };
        let got_distances: Vec<f32> = got.iter().map(|&j| distance(j)).collect();
        let expected_distances: Vec<f32> = expected.iter().map(|&(d, _)| d).collect();
        assert_eq!(got_distances, expected_distances, "agent {i}: distances");
        let mask = sim.agent_avoidance_mask(id).unwrap();
        for &j in &got {
            assert_ne!(mask & sim.agent_avoidance_layers(ids[j]).unwrap(), 0, "agent {i} listed {j}, which it ignores");
        }
        if !ties_possible {
            let expected: Vec<usize> = expected.iter().map(|&(_, j)| j).collect();
            assert_eq!(got, expected, "agent {i}");
        } else if let Some(&farthest) = expected_distances.last() {
            let nearer = |list: &[usize]| {
                let mut v: Vec<usize> = list.iter().copied().filter(|&j| distance(j) < farthest).collect();
                v.sort();
                v
            };
            let expected: Vec<usize> = expected.iter().map(|&(_, j)| j).collect();
            assert_eq!(nearer(&got), nearer(&expected), "agent {i}: the strictly nearer ones");
        }
    }
}

#[test]
fn neighbours_are_the_nearest_agents_each_one_avoids() {
    // A few layers (the step tells which masks take in everyone), then a random u32 each
    // (more distinct values than it tells apart: every query filtered).
    for (seed, few_layers) in [(1, true), (2, false)] {
        let (mut sim, goals) = crowd(2_000, seed, false);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed + 100);
        for &id in &sim.agent_ids().to_vec() {
            let (layers, mask) = if few_layers {
                (1 << rng.random_range(0..3), [1, 2, 4, 3, 7, 0][rng.random_range(0..6)])
            } else {
                (rng.random::<u32>(), rng.random::<u32>() & rng.random::<u32>())
            };
            sim.set_agent_avoidance_layers(id, layers).unwrap();
            sim.set_agent_avoidance_mask(id, mask).unwrap();
        }
        for _ in 0..4 {
            step_and_check_neighbors(&mut sim, &goals, false);
        }
    }
}

#[test]
fn neighbours_on_a_lattice_keep_the_avoided_ones_through_ties() {
    // Integer points: equal distances everywhere, settled by RVO2's tree, filtered too. Two
    // teams that each avoid only their own; then a few agents change sides.
    let (mut sim, goals) = crowd(1_500, 3, true);
    let ids = sim.agent_ids().to_vec();
    for (k, &id) in ids.iter().enumerate() {
        let team = 1 << (k % 2);
        sim.set_agent_avoidance_layers(id, team).unwrap();
        sim.set_agent_avoidance_mask(id, team).unwrap();
    }
    step_and_check_neighbors(&mut sim, &goals, true);
    for &id in ids.iter().step_by(7) {
        sim.set_agent_avoidance_mask(id, 3).unwrap();
    }
    for _ in 0..3 {
        step_and_check_neighbors(&mut sim, &goals, true);
    }
}

/// Two agents walking head-on along the x axis, 20 m apart.
fn head_on() -> (Simulator, AgentId, AgentId, Vec<Vec2>) {
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    let a = sim.add_agent(Vec2::new(-10.0, 0.0)).unwrap();
    let b = sim.add_agent(Vec2::new(10.0, 0.2)).unwrap();
    (sim, a, b, vec![Vec2::new(10.0, 0.0), Vec2::new(-10.0, 0.2)])
}

#[test]
fn agents_that_ignore_each_other_walk_through_each_other() {
    let (mut sim, a, b, goals) = head_on();
    sim.set_agent_avoidance_layers(a, 1).unwrap();
    sim.set_agent_avoidance_mask(a, 1).unwrap();
    sim.set_agent_avoidance_layers(b, 2).unwrap();
    sim.set_agent_avoidance_mask(b, 2).unwrap();
    let mut closest = f32::INFINITY;
    for _ in 0..80 {
        set_prefs(&mut sim, &goals);
        sim.step();
        for id in [a, b] {
            // Nothing to avoid: each takes its preferred velocity, bit for bit.
            assert_eq!(sim.agent_velocity(id).unwrap(), sim.agent_pref_velocity(id).unwrap());
        }
        closest = closest.min(sim.agent_position(a).unwrap().distance(sim.agent_position(b).unwrap()));
    }
    assert!(closest < 0.5, "they passed through each other: closest {closest}");
}

#[test]
fn an_agent_that_is_ignored_avoids_alone_and_does_not_collide() {
    // b (layer 2) ignores everyone; a avoids layers 1 and 2. Both at full speed, head-on, with
    // a time horizon of 1 s: a reacts late, and must then take all of the avoidance.
    let params = AgentParams { time_horizon: 1.0, ..AgentParams::default() };
    let mut sim = Simulator::new(0.25, params).unwrap();
    let a = sim.add_agent(Vec2::new(-10.0, 0.0)).unwrap();
    let b = sim.add_agent(Vec2::new(10.0, 0.2)).unwrap();
    sim.set_agent_avoidance_mask(a, 3).unwrap();
    sim.set_agent_avoidance_layers(b, 2).unwrap();
    sim.set_agent_avoidance_mask(b, 0).unwrap();
    let combined = 2.0 * params.radius;
    let mut closest = f32::INFINITY;
    for _ in 0..40 {
        sim.set_agent_pref_velocity(a, Vec2::new(2.0, 0.0)).unwrap();
        sim.set_agent_pref_velocity(b, Vec2::new(-2.0, 0.0)).unwrap();
        sim.step();
        assert_eq!(sim.agent_velocity(b).unwrap(), Vec2::new(-2.0, 0.0), "b never yields");
        closest = closest.min(sim.agent_position(a).unwrap().distance(sim.agent_position(b).unwrap()));
    }
    // With half of the avoidance (RVO2's share, Godot's), a runs into b.
    assert!(closest >= combined * (1.0 - 1e-4), "closest {closest} < {combined}");
    assert!(sim.agent_position(a).unwrap().x > 5.0, "a went on past b");
}

/// A 64-agent ring of radius 30 with RVO2's parameters, stepped 150 times; returns the final positions.
fn ring_run(layers: Option<(u32, u32)>) -> Vec<Vec2> {
    let (mut sim, goals) = ring(64, 30.0, AgentParams::default(), 0.25);
    if let Some((l, m)) = layers {
        for &id in &sim.agent_ids().to_vec() {
            sim.set_agent_avoidance_layers(id, l).unwrap();
            sim.set_agent_avoidance_mask(id, m).unwrap();
        }
    }
    for _ in 0..150 {
        set_prefs(&mut sim, &goals);
        sim.step();
    }
    sim.positions().to_vec()
}

#[test]
fn layers_that_filter_nobody_are_rvo2_bit_for_bit() {
    let rvo2 = ring_run(None);
    for layers in [(2, 2), (3, 1), (0xffff_ffff, 0x8000_0000), (1, 1)] {
        assert_eq!(ring_run(Some(layers)), rvo2, "{layers:?}");
    }
    // A filter that does drop agents changes the run (the comparison above can fail).
    let (mut sim, goals) = ring(64, 30.0, AgentParams::default(), 0.25);
    for (k, &id) in sim.agent_ids().to_vec().iter().enumerate() {
        sim.set_agent_avoidance_layers(id, 1 << (k % 2)).unwrap();
        sim.set_agent_avoidance_mask(id, 1 << (k % 2)).unwrap();
    }
    for _ in 0..150 {
        set_prefs(&mut sim, &goals);
        sim.step();
    }
    assert_ne!(sim.positions(), &rvo2[..]);
}

#[test]
fn layers_stay_deterministic_across_thread_counts_instruction_sets_and_removal() {
    let run = |threads: usize, set: InstructionSet| {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| {
            let (mut sim, mut goals) = crowd(1_200, 4, false);
            sim.set_instruction_set(set).unwrap();
            sim.set_record_decisions(false);
            for (k, &id) in sim.agent_ids().to_vec().iter().enumerate() {
                sim.set_agent_avoidance_layers(id, 1 << (k % 3)).unwrap();
                sim.set_agent_avoidance_mask(id, [1, 3, 6][k % 3]).unwrap();
            }
            for step in 0..30 {
                if step == 10 {
                    sim.remove_agent(AgentId(4)).unwrap();
                    goals.remove(4);
                }
                set_prefs(&mut sim, &goals);
                sim.step();
            }
            // Removal shifted the layers with the agents.
            assert_eq!(sim.agent_avoidance_layers(AgentId(5)).unwrap(), 1 << 2);
            assert_eq!(sim.agent_avoidance_mask(AgentId(5)).unwrap(), 6);
            sim.positions().to_vec()
        })
    };
    let one = run(1, InstructionSet::best_supported());
    assert_eq!(run(2, InstructionSet::best_supported()), one);
    assert_eq!(run(8, InstructionSet::best_supported()), one);
    // The layered step has its own copy of the decide loop for each instruction set.
    for set in InstructionSet::ALL.into_iter().filter(|set| set.is_supported()) {
        assert_eq!(run(2, set), one, "{set:?}");
    }
}

#[test]
fn safe_mode_does_not_push_apart_agents_that_ignore_each_other() {
    // Two agents placed overlapping, standing still, ignoring each other: safe mode leaves
    // them; the same pair avoiding each other is pushed apart.
    for ignore in [true, false] {
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        sim.set_extensions(Extensions {
            overlap_resolution: Some(OverlapResolution::default()),
            ..Extensions::default()
        })
        .unwrap();
        let a = sim.add_agent(Vec2::ZERO).unwrap();
        let b = sim.add_agent(Vec2::new(1.0, 0.0)).unwrap();
        if ignore {
            sim.set_agent_avoidance_layers(b, 2).unwrap();
            sim.set_agent_avoidance_mask(b, 2).unwrap();
        }
        sim.step();
        let gap = sim.agent_position(a).unwrap().distance(sim.agent_position(b).unwrap());
        if ignore {
            assert_eq!(gap, 1.0);
        } else {
            assert!(gap >= 3.0, "pushed apart: {gap}");
        }
    }
}

#[test]
fn layers_are_read_back_and_unknown_agents_are_refused() {
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    let a = sim.add_agent(Vec2::ZERO).unwrap();
    assert_eq!(sim.agent_avoidance_layers(a).unwrap(), swerve::orca::DEFAULT_AVOIDANCE_LAYERS);
    assert_eq!(sim.agent_avoidance_mask(a).unwrap(), swerve::orca::DEFAULT_AVOIDANCE_MASK);
    sim.set_agent_avoidance_layers(a, 0b1010).unwrap();
    sim.set_agent_avoidance_mask(a, 0).unwrap();
    assert_eq!((sim.agent_avoidance_layers(a).unwrap(), sim.agent_avoidance_mask(a).unwrap()), (0b1010, 0));
    let gone = AgentId(7);
    assert!(matches!(sim.set_agent_avoidance_layers(gone, 1), Err(Error::UnknownAgent(_))));
    assert!(matches!(sim.set_agent_avoidance_mask(gone, 1), Err(Error::UnknownAgent(_))));
    assert!(matches!(sim.agent_avoidance_layers(gone), Err(Error::UnknownAgent(_))));
    sim.remove_agent(a).unwrap();
    assert!(matches!(sim.agent_avoidance_mask(a), Err(Error::UnknownAgent(_))));
}

/// The same rule in 3-D (`orca3d::Simulator`).
mod three_d {
    use rand::{Rng, SeedableRng};
    use swerve::orca::DEFAULT_AVOIDANCE_LAYERS;
    use swerve::orca3d::{AgentParams, Extensions, OverlapResolution, Simulator, Vec3};
    use swerve::{AgentId, Error};

    /// `n` agents at random in a cube (about one per 10 m³), goals across it.
    fn swarm(n: usize, seed: u64) -> (Simulator, Vec<Vec3>) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let side = (n as f32 * 10.0).cbrt();
        let mut point =
            || Vec3::new(rng.random_range(0.0..side), rng.random_range(0.0..side), rng.random_range(0.0..side));
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        let goals: Vec<Vec3> = (0..n)
            .map(|_| {
                sim.add_agent(point()).unwrap();
                point()
            })
            .collect();
        (sim, goals)
    }

    fn step(sim: &mut Simulator, goals: &[Vec3]) {
        let prefs: Vec<Vec3> = sim
            .agent_ids()
            .iter()
            .zip(sim.positions())
            .map(|(id, p)| (goals[id.0 as usize] - *p).clamp_length_max(1.0))
            .collect();
        sim.set_pref_velocities(&prefs).unwrap();
        sim.step();
    }

    fn set_layers(sim: &mut Simulator, rule: impl Fn(usize) -> (u32, u32)) {
        for (k, &id) in sim.agent_ids().to_vec().iter().enumerate() {
            let (layers, mask) = rule(k);
            sim.set_agent_avoidance_layers(id, layers).unwrap();
            sim.set_agent_avoidance_mask(id, mask).unwrap();
        }
    }

    #[test]
    fn neighbours_are_the_nearest_agents_each_one_avoids() {
        let (mut sim, goals) = swarm(1_500, 5);
        sim.set_record_decisions(true);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        let picks: Vec<(u32, u32)> =
            (0..1_500).map(|_| (1 << rng.random_range(0..3), rng.random_range(0..8))).collect();
        set_layers(&mut sim, |k| picks[k]);
        for _ in 0..3 {
            let positions = sim.positions().to_vec();
            step(&mut sim, &goals);
            for (i, &id) in sim.agent_ids().iter().enumerate() {
                let mask = picks[i].1;
                let mut expected: Vec<(f32, usize)> = (0..positions.len())
                    .filter(|&j| j != i && mask & picks[j].0 != 0)
                    .map(|j| ((positions[i] - positions[j]).length_squared(), j))
                    .filter(|&(d, _)| d < 15.0 * 15.0)
                    .collect();
                expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                expected.truncate(10);
                let got: Vec<usize> = sim.agent_neighbors(id).unwrap().map(|n| n.0 as usize).collect();
                assert_eq!(got, expected.iter().map(|e| e.1).collect::<Vec<_>>(), "agent {i}");
            }
        }
    }

    #[test]
    fn an_agent_that_is_ignored_avoids_alone_and_does_not_collide() {
        let params = AgentParams { time_horizon: 1.0, ..AgentParams::default() };
        let mut sim = Simulator::new(0.25, params).unwrap();
        let a = sim.add_agent(Vec3::new(-10.0, 0.0, 0.0)).unwrap();
        let b = sim.add_agent(Vec3::new(10.0, 0.2, 0.1)).unwrap();
        sim.set_agent_avoidance_mask(a, 3).unwrap();
        sim.set_agent_avoidance_layers(b, 2).unwrap();
        sim.set_agent_avoidance_mask(b, 0).unwrap();
        let mut closest = f32::INFINITY;
        for _ in 0..40 {
            sim.set_agent_pref_velocity(a, Vec3::new(2.0, 0.0, 0.0)).unwrap();
            sim.set_agent_pref_velocity(b, Vec3::new(-2.0, 0.0, 0.0)).unwrap();
            sim.step();
            assert_eq!(sim.agent_velocity(b).unwrap(), Vec3::new(-2.0, 0.0, 0.0), "b never yields");
            closest = closest.min(sim.agent_position(a).unwrap().distance(sim.agent_position(b).unwrap()));
        }
        // With half of the avoidance, a runs into b.
        assert!(closest >= 3.0 * (1.0 - 1e-4), "closest {closest} < 3");
        assert!(sim.agent_position(a).unwrap().x > 5.0, "a went on past b");
    }

    #[test]
    fn layers_that_filter_nobody_are_rvo2_3d_bit_for_bit_and_ignored_pairs_pass_through() {
        let run = |layers: Option<(u32, u32)>| {
            let (mut sim, goals) = swarm(300, 7);
            if let Some(pair) = layers {
                set_layers(&mut sim, |_| pair);
            }
            for _ in 0..60 {
                step(&mut sim, &goals);
            }
            sim.positions().to_vec()
        };
        let rvo2 = run(None);
        for layers in [(2, 2), (3, 1), (DEFAULT_AVOIDANCE_LAYERS, 0xffff_ffff)] {
            assert_eq!(run(Some(layers)), rvo2, "{layers:?}");
        }
        // Mask 0: nobody avoids anybody, so every agent takes its preferred velocity.
        let (mut sim, goals) = swarm(300, 7);
        set_layers(&mut sim, |_| (1, 0));
        for _ in 0..10 {
            step(&mut sim, &goals);
            assert_eq!(sim.velocities(), sim.pref_velocities());
        }
    }

    #[test]
    fn layers_stay_deterministic_across_thread_counts_and_removal() {
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| {
                let (mut sim, goals) = swarm(1_000, 8);
                set_layers(&mut sim, |k| (1 << (k % 3), [1, 3, 6][k % 3]));
                for k in 0..30 {
                    if k == 10 {
                        sim.remove_agent(AgentId(4)).unwrap();
                    }
                    step(&mut sim, &goals);
                }
                assert_eq!(sim.agent_avoidance_layers(AgentId(5)).unwrap(), 1 << 2);
                assert_eq!(sim.agent_avoidance_mask(AgentId(5)).unwrap(), 6);
                sim.positions().to_vec()
            })
        };
        let one = run(1);
        assert_eq!(run(2), one);
        assert_eq!(run(8), one);
    }

    #[test]
    fn safe_mode_leaves_ignored_pairs_and_unknown_agents_are_refused() {
        for ignore in [true, false] {
            let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
            let extensions =
                Extensions { overlap_resolution: Some(OverlapResolution::default()), ..Extensions::default() };
            sim.set_extensions(extensions).unwrap();
            let a = sim.add_agent(Vec3::ZERO).unwrap();
            let b = sim.add_agent(Vec3::new(1.0, 0.0, 0.0)).unwrap();
            if ignore {
                sim.set_agent_avoidance_layers(b, 2).unwrap();
                sim.set_agent_avoidance_mask(b, 2).unwrap();
            }
            sim.step();
            let gap = sim.agent_position(a).unwrap().distance(sim.agent_position(b).unwrap());
            if ignore {
                assert_eq!(gap, 1.0);
            } else {
                assert!(gap >= 3.0, "pushed apart: {gap}");
            }
        }
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        let gone = AgentId(3);
        assert!(matches!(sim.set_agent_avoidance_layers(gone, 1), Err(Error::UnknownAgent(_))));
        assert!(matches!(sim.set_agent_avoidance_mask(gone, 1), Err(Error::UnknownAgent(_))));
        assert!(matches!(sim.agent_avoidance_layers(gone), Err(Error::UnknownAgent(_))));
        assert!(matches!(sim.agent_avoidance_mask(gone), Err(Error::UnknownAgent(_))));
        let a = sim.add_agent(Vec3::ZERO).unwrap();
        assert_eq!(sim.agent_avoidance_layers(a).unwrap(), DEFAULT_AVOIDANCE_LAYERS);
    }
}
