//! Properties of the ORCA simulator beyond the RVO2 recordings: determinism across thread
//! counts, translation invariance, removal with stable ids, and rejection of bad input.

use swerve::orca::constraints::{agent_half_plane, AgentView};
use swerve::orca::{Extensions, OverlapResolution};
use swerve::{AgentId, AgentParams, Error, HalfPlane, InstructionSet, Simulator, Vec2};

/// A crowd on a square grid walking to the mirror-image point through the centre, around
/// four square blocks: dense crossings at the centre, obstacle contact on the way, and at
/// least `n` agents (above the parallel threshold for n > 256).
fn crowd_with_blocks(n: usize) -> (Simulator, Vec<Vec2>) {
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    let mut goals = Vec::new();
    let blocks = [(-22.0f32, 0.0f32), (22.0, 0.0), (0.0, 22.0), (0.0, -22.0)];
    let side = ((n as f32).sqrt() as i32 + 4) | 1;
    'fill: for gy in 0..side {
        for gx in 0..side {
            if goals.len() == n {
                break 'fill;
            }
            let p = Vec2::new((gx - side / 2) as f32 * 4.0 + 0.5, (gy - side / 2) as f32 * 4.0 + 0.25);
            if blocks.iter().any(|&(cx, cy)| (p.x - cx).abs() < 9.0 && (p.y - cy).abs() < 9.0) {
                continue;
            }
            sim.add_agent(p).unwrap();
            goals.push(-p);
        }
    }
    for (cx, cy) in blocks {
        let square = [
            Vec2::new(cx - 6.0, cy - 6.0),
            Vec2::new(cx + 6.0, cy - 6.0),
            Vec2::new(cx + 6.0, cy + 6.0),
            Vec2::new(cx - 6.0, cy + 6.0),
        ];
        sim.add_obstacle(&square).unwrap();
    }
    sim.process_obstacles();
    (sim, goals)
}

#[path = "support/crowd.rs"]
mod crowd;
use crowd::set_prefs;

/// Steps `sim` `steps` times, each agent heading for its goal.
fn walk(sim: &mut Simulator, goals: &[Vec2], steps: usize) {
    for _ in 0..steps {
        set_prefs(sim, goals);
        sim.step();
    }
}

/// Each point's coordinates as `f32` bits, for bit-for-bit comparison.
type Bits = Vec<(u32, u32)>;

fn bits(v: &[Vec2]) -> Bits {
    v.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect()
}

/// Walks `sim` like [`walk`], keeping every step's positions and velocities as bits.
fn walk_recording(sim: &mut Simulator, goals: &[Vec2], steps: usize) -> Vec<(Bits, Bits)> {
    (0..steps)
        .map(|_| {
            set_prefs(sim, goals);
            sim.step();
            (bits(sim.positions()), bits(sim.velocities()))
        })
        .collect()
}

#[test]
fn results_are_bit_identical_for_1_2_and_8_threads() {
    const STEPS: usize = 300;
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut sim, goals) = crowd_with_blocks(400);
            walk_recording(&mut sim, &goals, STEPS)
        })
    };
    let one = run(1);
    assert_eq!(one, run(2), "2 threads differ from 1");
    assert_eq!(one, run(8), "8 threads differ from 1");

    // A crowd large enough for the k-d tree to be built in parallel too.
    let big = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut sim, goals) = crowd_with_blocks(20_000);
            walk(&mut sim, &goals, 8);
            (bits(sim.positions()), bits(sim.velocities()))
        })
    };
    let big_one = big(1);
    assert_eq!(big_one, big(2), "20,000 agents: 2 threads differ from 1");
    assert_eq!(big_one, big(8), "20,000 agents: 8 threads differ from 1");
    // The scene must make agents meet each other and the blocks, or the test proves little.
    let (mut sim, goals) = crowd_with_blocks(400);
    sim.set_record_decisions(true);
    let (mut most_agent_planes, mut obstacle_planes) = (0, 0);
    for _ in 0..STEPS {
        set_prefs(&mut sim, &goals);
        sim.step();
        for &id in sim.agent_ids() {
            let planes = sim.agent_half_planes(id).unwrap().len();
            let from_obstacles = sim.agent_obstacle_half_plane_count(id).unwrap();
            most_agent_planes = most_agent_planes.max(planes - from_obstacles);
            obstacle_planes += from_obstacles;
        }
    }
    assert!(most_agent_planes >= 5 && obstacle_planes > 0, "{most_agent_planes} {obstacle_planes}");
}

/// The hot loops' AVX2 copy (`swerve::instruction_set`) gives the baseline's bits, step after
/// step, through crossings and obstacle contact, small and above the parallel threshold. On a
/// CPU without AVX2, asking for it is refused and changes nothing.
#[test]
fn results_are_bit_identical_on_every_instruction_set() {
    let run = |set: InstructionSet, n: usize, steps: usize| {
        let (mut sim, goals) = crowd_with_blocks(n);
        sim.set_instruction_set(set).unwrap();
        assert_eq!(sim.instruction_set(), set);
        walk_recording(&mut sim, &goals, steps)
    };
    if !InstructionSet::Avx2.is_supported() {
        let (mut sim, _) = crowd_with_blocks(10);
        sim.set_instruction_set(InstructionSet::Baseline).unwrap();
        let err = sim.set_instruction_set(InstructionSet::Avx2).unwrap_err();
        assert!(matches!(err, Error::UnsupportedInstructionSet("avx2")), "{err}");
        assert_eq!(sim.instruction_set(), InstructionSet::Baseline);
        println!("this CPU lacks AVX2: only the baseline runs here");
        return;
    }
    assert_eq!(InstructionSet::best_supported(), InstructionSet::Avx2);
    for (n, steps) in [(400, 300), (3_000, 40)] {
        let baseline = run(InstructionSet::Baseline, n, steps);
        assert_eq!(baseline, run(InstructionSet::Avx2, n, steps), "{n} agents: AVX2 differs from the baseline");
    }
}

/// Recording decisions for inspection changes no bit of the motion — on from the start,
/// switched off and on again, across a removal, on two threads above the parallel threshold —
/// and what it records is what the step used: each agent's nearest agents (checked against a
/// brute-force search over the positions the step started from) and one half-plane for each.
/// Reading decisions that are not recorded is an error, not an empty answer.
#[test]
fn recording_decisions_changes_no_bit_and_records_the_nearest_agents() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    pool.install(|| {
        let (mut plain, mut goals) = crowd_with_blocks(600);
        let (mut recorded, _) = crowd_with_blocks(600);
        recorded.set_record_decisions(true);
        assert!(recorded.records_decisions() && !plain.records_decisions());
        let first = plain.agent_ids()[0];
        assert!(matches!(plain.agent_neighbors(first), Err(Error::DecisionsNotRecorded)));
        assert!(matches!(plain.agent_half_planes(first), Err(Error::DecisionsNotRecorded)));
        assert_eq!(recorded.agent_neighbors(first).unwrap().len(), 0, "nothing decided yet");
        let params = AgentParams::default();
        let mut checked_lists = 0;
        for step in 0..60 {
            if step == 20 {
                for sim in [&mut plain, &mut recorded] {
                    sim.remove_agent(AgentId(17)).unwrap();
                }
                goals.remove(17);
            }
            if step == 30 {
                recorded.set_record_decisions(false);
                assert!(matches!(recorded.agent_lp_outcome(first), Err(Error::DecisionsNotRecorded)));
                recorded.set_record_decisions(true);
                assert_eq!(recorded.agent_half_planes(first).unwrap().len(), 0, "records refill at the next step");
            }
            set_prefs(&mut plain, &goals);
            set_prefs(&mut recorded, &goals);
            let start = recorded.positions().to_vec();
            plain.step();
            recorded.step();
            assert_eq!(bits(plain.positions()), bits(recorded.positions()), "positions differ at step {step}");
            assert_eq!(bits(plain.velocities()), bits(recorded.velocities()), "velocities differ at step {step}");
            // Every 7th agent: its list holds the nearest agents within the neighbour
            // distance, nearest first, at most max_neighbors, and nobody left out is nearer.
            let ids = recorded.agent_ids().to_vec();
            for (i, &id) in ids.iter().enumerate().step_by(7) {
                let distance = |j: usize| start[i].distance_squared(start[j]);
                let listed: Vec<usize> = recorded
                    .agent_neighbors(id)
                    .unwrap()
                    .map(|n| ids.iter().position(|&other| other == n).unwrap())
                    .collect();
                let within = (0..ids.len())
                    .filter(|&j| j != i && distance(j) < params.neighbor_dist * params.neighbor_dist)
                    .count();
                assert_eq!(listed.len(), within.min(params.max_neighbors), "agent {id:?} at step {step}");
                assert!(listed.windows(2).all(|w| distance(w[0]) <= distance(w[1])));
                if let Some(&farthest) = listed.last() {
                    let unlisted_nearer = (0..ids.len())
                        .filter(|&j| j != i && !listed.contains(&j))
                        .any(|j| distance(j) < distance(farthest));
                    assert!(!unlisted_nearer, "agent {id:?} missed a nearer agent at step {step}");
                }
                let agent_planes = recorded.agent_half_planes(id).unwrap().len()
                    - recorded.agent_obstacle_half_plane_count(id).unwrap();
                assert_eq!(agent_planes, listed.len());
                checked_lists += usize::from(listed.len() == params.max_neighbors);
            }
        }
        assert!(checked_lists > 1000, "only {checked_lists} full neighbour lists checked");
    });
}

/// Every recorded obstacle-neighbour list is the one RVO2's tree gives for the agent's
/// position at the start of the step — while agents' obstacle ranges grow past what the
/// step's obstacle grid was built for, and after a new obstacle is processed mid-run.
#[test]
fn recorded_obstacle_neighbors_are_the_trees_through_changes() {
    let (mut sim, goals) = crowd_with_blocks(600);
    sim.set_record_decisions(true);
    let mut tree = swerve::spatial::ObstacleTree::build(sim.obstacle_polygons());
    let mut nonempty_lists = 0;
    for step in 0..45 {
        if step == 15 {
            // Faster agents look farther for obstacles.
            for &id in sim.agent_ids().to_vec().iter().step_by(5) {
                sim.set_agent_max_speed(id, 3.5).unwrap();
            }
        }
        if step == 25 {
            sim.add_obstacle(&[Vec2::new(-30.0, 3.0), Vec2::new(30.0, -3.0)]).unwrap();
            sim.process_obstacles();
            tree = swerve::spatial::ObstacleTree::build(sim.obstacle_polygons());
        }
        set_prefs(&mut sim, &goals);
        let start = sim.positions().to_vec();
        sim.step();
        let mut expected = Vec::new();
        for (i, &id) in sim.agent_ids().to_vec().iter().enumerate() {
            let range = sim.agent_params(id).unwrap().obstacle_range();
            tree.edges_near(start[i], range * range, &mut expected);
            let listed: Vec<u32> = sim.agent_obstacle_neighbors(id).unwrap().collect();
            let wanted: Vec<u32> = expected.iter().map(|&(_, vertex)| vertex).collect();
            assert_eq!(listed, wanted, "agent {id:?} at step {step}");
            nonempty_lists += usize::from(!listed.is_empty());
        }
    }
    assert!(nonempty_lists > 2_000, "only {nonempty_lists} agents saw an obstacle edge");
}

/// A simulator holding `sim`'s agents (state and parameters), obstacles and options, and
/// nothing of its past steps.
fn fresh_copy(sim: &Simulator) -> Simulator {
    let mut fresh = Simulator::new(sim.time_step(), sim.agent_defaults()).unwrap();
    for &id in sim.agent_ids() {
        let f = fresh.add_agent_with(sim.agent_position(id).unwrap(), sim.agent_params(id).unwrap()).unwrap();
        fresh.set_agent_velocity(f, sim.agent_velocity(id).unwrap()).unwrap();
    }
    for polygon in sim.obstacle_polygons().to_vec() {
        fresh.add_obstacle(&polygon).unwrap();
    }
    fresh.process_obstacles();
    fresh.set_extensions(sim.extensions()).unwrap();
    fresh
}

/// State set between steps — a position, a velocity, a radius, one at a time, above the
/// parallel threshold — and positions corrected by overlap resolution count in the next step
/// exactly as in a fresh simulator built with that state (the step keeps copies of radii
/// and parameters, and last step's search radii as hints, which each of these must refresh or
/// discount).
#[test]
fn state_set_between_steps_counts_as_in_a_fresh_simulator() {
    let (mut sim, goals) = crowd_with_blocks(600);
    walk(&mut sim, &goals, 10);
    let ids = sim.agent_ids().to_vec();
    let at = |sim: &Simulator, k: usize| sim.agent_position(ids[k]).unwrap();
    // Each change binds: an agent put half a metre from another, one sent at full speed
    // toward its neighbour, one grown into its neighbours (4 m apart), overlaps pushed apart.
    let changes: [&dyn Fn(&mut Simulator); 4] = [
        &|sim| sim.set_agent_position(ids[3], at(sim, 40) + Vec2::new(0.5, 0.0)).unwrap(),
        &|sim| sim.set_agent_velocity(ids[100], (at(sim, 101) - at(sim, 100)).normalize() * 2.0).unwrap(),
        &|sim| sim.set_agent_radius(ids[200], 3.0).unwrap(),
        &|sim| {
            let overlap_resolution = Some(OverlapResolution { passes: 2, margin: 0.5 });
            sim.set_extensions(Extensions { overlap_resolution, ..Extensions::default() }).unwrap()
        },
    ];
    for (change, name) in changes.iter().zip(["position", "velocity", "radius", "overlap resolution"]) {
        change(&mut sim);
        for step in 0..5 {
            let mut fresh = fresh_copy(&sim);
            set_prefs(&mut sim, &goals);
            set_prefs(&mut fresh, &goals);
            sim.step();
            fresh.step();
            let same = |a: &[Vec2], b: &[Vec2]| bits(a) == bits(b);
            assert!(same(sim.velocities(), fresh.velocities()), "velocities differ: {name} set, step {step}");
            assert!(same(sim.positions(), fresh.positions()), "positions differ: {name} set, step {step}");
        }
    }
}

/// A simulator cloned between steps steps on exactly as the original (a snapshot to roll
/// out from): agents with their own parameters, obstacles, an option set, above the parallel
/// threshold.
#[test]
fn a_cloned_simulator_steps_as_the_original() {
    let (mut sim, goals) = crowd_with_blocks(600);
    let ids = sim.agent_ids().to_vec();
    sim.set_agent_radius(ids[7], 2.5).unwrap();
    let overlap_resolution = Some(OverlapResolution { passes: 2, margin: 0.2 });
    sim.set_extensions(Extensions { overlap_resolution, strict_speed_limit: true, ..Extensions::default() }).unwrap();
    walk(&mut sim, &goals, 30);
    let mut clone = sim.clone();
    let steps = walk_recording(&mut sim, &goals, 20);
    assert_eq!(walk_recording(&mut clone, &goals, 20), steps, "the clone left the original's path");
}

/// Each agent's recorded half-planes are, bit for bit, the scalar construction
/// ([`agent_half_plane`]) from the state the step started with — with one radius for every
/// agent and with radii that differ (the step then gathers each neighbour's).
#[test]
fn recorded_half_planes_equal_the_scalar_construction() {
    for mixed_radii in [false, true] {
        let (mut sim, goals) = crowd_with_blocks(600);
        sim.set_record_decisions(true);
        let ids = sim.agent_ids().to_vec();
        if mixed_radii {
            for (k, &id) in ids.iter().enumerate() {
                sim.set_agent_radius(id, 1.0 + (k % 5) as f32 * 0.25).unwrap();
            }
        }
        let mut checked = 0;
        for _ in 0..20 {
            set_prefs(&mut sim, &goals);
            let (positions, velocities) = (sim.positions().to_vec(), sim.velocities().to_vec());
            sim.step();
            for (i, &id) in ids.iter().enumerate().step_by(5) {
                let params = sim.agent_params(id).unwrap();
                let agent = AgentView {
                    position: positions[i],
                    velocity: velocities[i],
                    radius: params.radius,
                    time_horizon: params.time_horizon,
                    time_horizon_obst: params.time_horizon_obst,
                };
                let expected: Vec<HalfPlane> = sim
                    .agent_neighbors(id)
                    .unwrap()
                    .map(|other| {
                        let (j, radius) = (other.0 as usize, sim.agent_params(other).unwrap().radius);
                        agent_half_plane(&agent, positions[j], velocities[j], radius, sim.time_step(), 0.5)
                    })
                    .collect();
                let planes = sim.agent_half_planes(id).unwrap();
                let recorded = &planes[sim.agent_obstacle_half_plane_count(id).unwrap()..];
                let plane_bits = |h: &HalfPlane| bits(&[h.point, h.direction]);
                assert_eq!(recorded.len(), expected.len());
                for (r, e) in recorded.iter().zip(&expected) {
                    assert_eq!(plane_bits(r), plane_bits(e), "agent {id:?}, mixed radii: {mixed_radii}");
                }
                checked += expected.len();
            }
        }
        assert!(checked > 10_000, "only {checked} half-planes checked");
    }
}

#[test]
fn translating_by_an_exact_offset_leaves_velocities_unchanged() {
    // Coordinates on a 1/8 grid and an offset of (512, -1024): every sum and difference is
    // exact in f32, so ORCA (which only uses relative positions) must give the same bits.
    let offset = Vec2::new(512.0, -1024.0);
    let build = |shift: Vec2| {
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        for i in 0..60 {
            let p = Vec2::new((i % 10) as f32 * 3.125 - 15.0, (i / 10) as f32 * 2.875 - 8.0) + shift;
            let id = sim.add_agent(p).unwrap();
            let v = Vec2::new(((i * 7) % 5) as f32 * 0.25 - 0.5, ((i * 3) % 4) as f32 * 0.125 - 0.25);
            sim.set_agent_velocity(id, v).unwrap();
            sim.set_agent_pref_velocity(id, Vec2::new(-v.y * 2.0 + 0.5, v.x * 2.0 - 0.25)).unwrap();
        }
        let square = [Vec2::new(20.0, -4.0), Vec2::new(28.0, -4.0), Vec2::new(28.0, 4.0), Vec2::new(20.0, 4.0)];
        let shifted: Vec<Vec2> = square.iter().map(|v| *v + shift).collect();
        sim.add_obstacle(&shifted).unwrap();
        let wall = [Vec2::new(-20.0, -12.0) + shift, Vec2::new(-20.0, 12.0) + shift];
        sim.add_obstacle(&wall).unwrap();
        sim.process_obstacles();
        sim.set_record_decisions(true);
        // No edge was split (splits round absolute coordinates and would break exactness).
        assert_eq!(sim.obstacle_vertices().len(), 6);
        sim.step();
        sim
    };
    let a = build(Vec2::ZERO);
    let b = build(offset);
    assert_eq!(bits(a.velocities()), bits(b.velocities()));
    assert!(a.velocities().iter().any(|v| *v != Vec2::ZERO));
    let interacting = a.agent_ids().iter().filter(|&&id| !a.agent_half_planes(id).unwrap().is_empty()).count();
    assert!(interacting > 30, "only {interacting} agents had constraints");
}

#[test]
fn the_order_agents_are_added_in_changes_no_path() {
    // A dense random crowd (decided in the grid's cell order, whatever the agent order) added
    // once in order and once shuffled. Without distance ties, RVO2's answer does not depend on
    // agent numbers, so every agent must take the same path, bit for bit, and see the same
    // neighbours; the recorded lists are in agent order again after each step. (A tie makes
    // the answer depend on RVO2's tree order, which follows the agent order: the comparison
    // ends at the first one.)
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    const N: usize = 1500;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let side = (N as f32 * 12.0).sqrt();
    let mut point = || Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
    let starts: Vec<Vec2> = (0..N).map(|_| point()).collect();
    let goals: Vec<Vec2> = (0..N).map(|_| point()).collect();
    let mut shuffled: Vec<usize> = (0..N).collect();
    shuffled.shuffle(&mut rng);
    let build = |order: &[usize]| {
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        for &k in order {
            sim.add_agent(starts[k]).unwrap();
        }
        sim.set_record_decisions(true);
        let goals: Vec<Vec2> = order.iter().map(|&k| goals[k]).collect();
        (sim, goals)
    };
    let in_order: Vec<usize> = (0..N).collect();
    let (mut a, goals_a) = build(&in_order);
    let (mut b, goals_b) = build(&shuffled);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let compared = pool.install(|| {
        for step in 0..40 {
            walk(&mut a, &goals_a, 1);
            walk(&mut b, &goals_b, 1);
            if a.tie_fallbacks() + b.tie_fallbacks() > 0 {
                return step;
            }
            for (m, &k) in shuffled.iter().enumerate() {
                let (id_a, id_b) = (AgentId(k as u32), AgentId(m as u32));
                let (pa, pb) = (a.agent_position(id_a).unwrap(), b.agent_position(id_b).unwrap());
                assert_eq!(bits(&[pa]), bits(&[pb]), "agent {k} (added as {m}) parted at step {step}");
                let seen_a: Vec<AgentId> = a.agent_neighbors(id_a).unwrap().collect();
                let seen_b: Vec<AgentId> =
                    b.agent_neighbors(id_b).unwrap().map(|n| AgentId(shuffled[n.0 as usize] as u32)).collect();
                assert_eq!(seen_a, seen_b, "agent {k} saw other neighbours at step {step}");
            }
        }
        40
    });
    assert!(compared >= 10, "a distance tie after {compared} steps: pick another seed");
    let crowded = a.agent_ids().iter().filter(|&&id| a.agent_neighbors(id).unwrap().len() == 10).count();
    assert!(crowded > N / 2, "only {crowded} agents had a full neighbour list");
}

#[test]
fn removing_an_agent_keeps_ids_and_equals_never_having_it() {
    let (mut sim, goals) = crowd_with_blocks(300);
    walk(&mut sim, &goals, 40);
    let removed = AgentId(17);
    let before: Vec<(AgentId, Vec2)> =
        sim.agent_ids().iter().map(|&id| (id, sim.agent_position(id).unwrap())).collect();
    sim.remove_agent(removed).unwrap();
    assert!(!sim.contains_agent(removed));
    assert!(matches!(sim.agent_position(removed), Err(Error::UnknownAgent(17))));
    assert!(matches!(sim.remove_agent(removed), Err(Error::UnknownAgent(17))));
    for (id, p) in &before {
        if *id != removed {
            assert_eq!(sim.agent_position(*id).unwrap(), *p, "agent {id:?} moved or lost its id");
        }
    }

    // Oracle: a fresh simulator holding the same remaining agents in the same state.
    let mut fresh = fresh_copy(&sim);
    let remaining_goals: Vec<Vec2> =
        goals.iter().enumerate().filter(|(i, _)| *i != removed.0 as usize).map(|(_, g)| *g).collect();
    for _ in 0..30 {
        set_prefs(&mut sim, &remaining_goals);
        set_prefs(&mut fresh, &remaining_goals);
        sim.step();
        fresh.step();
        assert_eq!(bits(sim.positions()), bits(fresh.positions()));
    }
    // New agents after a removal get fresh ids.
    let new_id = sim.add_agent(Vec2::new(500.0, 500.0)).unwrap();
    assert_eq!(new_id, AgentId(300), "ids continue after the last one handed out");
}

#[test]
fn bad_input_is_rejected_and_changes_nothing() {
    assert!(matches!(Simulator::new(0.0, AgentParams::default()), Err(Error::OutOfRange { .. })));
    assert!(matches!(Simulator::new(-1.0, AgentParams::default()), Err(Error::OutOfRange { .. })));
    assert!(matches!(Simulator::new(f32::NAN, AgentParams::default()), Err(Error::NonFinite { .. })));
    let bad_params = [
        AgentParams { radius: 0.0, ..AgentParams::default() },
        AgentParams { radius: -1.0, ..AgentParams::default() },
        AgentParams { neighbor_dist: -1.0, ..AgentParams::default() },
        AgentParams { time_horizon: -1.0, ..AgentParams::default() },
        AgentParams { time_horizon: 0.0, ..AgentParams::default() },
        AgentParams { time_horizon_obst: -0.5, ..AgentParams::default() },
        AgentParams { max_speed: -2.0, ..AgentParams::default() },
        AgentParams { max_speed: f32::INFINITY, ..AgentParams::default() },
        AgentParams { radius: f32::NAN, ..AgentParams::default() },
    ];
    for params in bad_params {
        assert!(Simulator::new(0.1, params).is_err(), "{params:?} accepted");
    }

    let (mut sim, _) = crowd_with_blocks(10);
    let snapshot = format!("{sim:?}");
    let id = AgentId(3);
    assert!(sim.add_agent(Vec2::new(f32::NAN, 0.0)).is_err());
    assert!(sim.add_agent_with(Vec2::ZERO, bad_params[0]).is_err());
    assert!(sim.set_agent_position(id, Vec2::new(0.0, f32::INFINITY)).is_err());
    assert!(sim.set_agent_velocity(id, Vec2::new(f32::NAN, 0.0)).is_err());
    assert!(sim.set_agent_pref_velocity(id, Vec2::new(f32::NAN, 0.0)).is_err());
    assert!(sim.set_agent_radius(id, -1.0).is_err());
    assert!(sim.set_agent_time_horizon(id, 0.0).is_err());
    assert!(sim.set_agent_neighbor_dist(id, -3.0).is_err());
    assert!(sim.set_pref_velocities(&[Vec2::ZERO; 3]).is_err());
    let mut with_nan = vec![Vec2::ZERO; 10];
    with_nan[9] = Vec2::new(0.0, f32::NAN);
    assert!(sim.set_pref_velocities(&with_nan).is_err());
    assert!(matches!(sim.agent_position(AgentId(99)), Err(Error::UnknownAgent(99))));
    assert!(sim.set_time_step(0.0).is_err());
    assert!(matches!(sim.add_obstacle(&[Vec2::ZERO]), Err(Error::TooFewVertices { count: 1 })));
    assert!(matches!(sim.add_obstacle(&[Vec2::ZERO, Vec2::ZERO, Vec2::ONE]), Err(Error::RepeatedVertex { .. })));
    let bowtie = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)];
    assert!(matches!(sim.add_obstacle(&bowtie), Err(Error::SelfIntersecting { .. })));
    assert!(sim.obstacle_first_vertex(swerve::ObstacleId(9)).is_err());
    assert_eq!(format!("{sim:?}"), snapshot, "a rejected call changed the simulator");
    // Messages are readable.
    assert_eq!(
        Simulator::new(0.0, AgentParams::default()).unwrap_err().to_string(),
        "time step must be greater than 0, got 0"
    );
}

#[test]
fn query_visibility_matches_rvo2_semantics() {
    let (sim, _) = crowd_with_blocks(4);
    // Through the block centred at (22, 0) (it spans 16..28 in x and -6..6 in y).
    assert!(!sim.query_visibility(Vec2::new(10.0, 0.0), Vec2::new(40.0, 0.0), 0.5));
    // Diagonally between the blocks.
    assert!(sim.query_visibility(Vec2::new(-40.0, -40.0), Vec2::new(40.0, 40.0), 0.5));
    // Passing 2 m above the block: a 1.5 m disc fits, a 2.5 m one does not.
    assert!(sim.query_visibility(Vec2::new(10.0, 8.0), Vec2::new(40.0, 8.0), 1.5));
    assert!(!sim.query_visibility(Vec2::new(10.0, 8.0), Vec2::new(40.0, 8.0), 2.5));
}

/// RVO2 takes any `max_neighbors` (a `size_t`); past the crowd's size it means "all of them".
/// A huge value must neither reserve memory by it (it aborted the process with an allocation
/// failure) nor change a bit against a value just above the crowd's size.
#[test]
fn a_huge_max_neighbors_means_every_agent_in_range() {
    let run = |max_neighbors: usize| {
        let (mut sim, goals) = crowd_with_blocks(300);
        let defaults = AgentParams { max_neighbors, ..AgentParams::default() };
        for id in sim.agent_ids().to_vec() {
            sim.set_agent_params(id, defaults).unwrap();
        }
        sim.set_agent_defaults(defaults).unwrap();
        sim.add_agent(Vec2::new(100.0, 100.0)).unwrap();
        let mut goals = goals;
        goals.push(Vec2::ZERO);
        walk_recording(&mut sim, &goals, 30)
    };
    let reference = run(301);
    assert!(run(1 << 40) == reference, "2^40 neighbours differ from 301");
    assert!(run(usize::MAX) == reference, "usize::MAX neighbours differ from 301");
}
