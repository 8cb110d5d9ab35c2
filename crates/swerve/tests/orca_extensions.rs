//! Options beyond RVO2 (issue 8): each must do what it says, keep results deterministic across
//! thread counts, and leave RVO2's behaviour untouched when off (the reference replays run
//! with the defaults).

use swerve::orca::{Extensions, Mover, OverlapResolution, SymmetryBreaking};
use swerve::{AgentParams, Error, Simulator, Vec2};

#[path = "support/crowd.rs"]
mod crowd;
use crowd::{ring, set_prefs};

#[test]
fn symmetry_breaking_resolves_a_circle_that_stalls_in_rvo2() {
    let params = AgentParams { radius: 1.0, max_speed: 1.0, ..AgentParams::default() };
    let arrived =
        |sim: &Simulator, goals: &[Vec2]| sim.positions().iter().zip(goals).all(|(p, g)| p.distance(*g) < 0.1);
    let run = |symmetry: bool| {
        let (mut sim, goals) = ring(8, 20.0, params, 0.1);
        if symmetry {
            sim.set_extensions(Extensions {
                symmetry_breaking: Some(SymmetryBreaking::default()),
                ..Default::default()
            })
            .unwrap();
        }
        for _ in 0..2000 {
            set_prefs(&mut sim, &goals);
            sim.step();
        }
        arrived(&sim, &goals)
    };
    assert!(!run(false), "RVO2 no longer stalls on the 8-agent circle: the test lost its point");
    assert!(run(true), "symmetry breaking did not resolve the 8-agent circle in 200 s");
}

#[test]
fn extensions_stay_deterministic_across_thread_counts() {
    let params = AgentParams { radius: 1.0, max_speed: 1.5, ..AgentParams::default() };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| {
            let (mut sim, goals) = ring(600, 60.0, params, 0.1);
            sim.set_extensions(Extensions {
                symmetry_breaking: Some(SymmetryBreaking::default()),
                overlap_resolution: Some(OverlapResolution::default()),
                strict_speed_limit: true,
            })
            .unwrap();
            sim.set_agent_responsibility(sim.agent_ids()[3], 0.0).unwrap();
            sim.add_mover(Mover { position: Vec2::new(-70.0, 0.0), velocity: Vec2::new(2.0, 0.0), radius: 2.0 })
                .unwrap();
            for _ in 0..80 {
                set_prefs(&mut sim, &goals);
                sim.step();
            }
            sim.positions().iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>()
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(8));
}

#[test]
fn an_agent_with_responsibility_zero_does_not_yield() {
    let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
    let a = sim.add_agent(Vec2::new(-20.0, 0.0)).unwrap();
    let b = sim.add_agent(Vec2::new(0.0, -20.0)).unwrap();
    sim.set_agent_responsibility(a, 0.0).unwrap();
    sim.set_agent_responsibility(b, 1.0).unwrap();
    // Weights changed back and forth and an agent removed: the simulator's count of agents
    // whose share is not RVO2's ½ must still see A's and B's weights.
    let c = sim.add_agent(Vec2::new(500.0, 500.0)).unwrap();
    sim.set_agent_responsibility(c, 0.3).unwrap();
    sim.set_agent_responsibility(b, 0.5).unwrap();
    sim.set_agent_responsibility(b, 1.0).unwrap();
    sim.set_agent_responsibility(c, 0.5).unwrap();
    sim.remove_agent(c).unwrap();
    let goals = [Vec2::new(20.0, 0.0), Vec2::new(0.0, 20.0)];
    let mut closest = f32::INFINITY;
    let mut b_deviation = 0.0f32;
    for _ in 0..200 {
        set_prefs(&mut sim, &goals);
        sim.step();
        let (pa, pb) = (sim.agent_position(a).unwrap(), sim.agent_position(b).unwrap());
        // A keeps its straight line exactly: it never yields.
        assert_eq!(pa.y, 0.0);
        b_deviation = b_deviation.max(pb.x.abs());
        closest = closest.min(pa.distance(pb));
    }
    assert!(b_deviation > 0.5, "B must do all the avoiding");
    assert!(closest > 3.0 - 1e-3, "they collided: {closest}");
    assert!(sim.set_agent_responsibility(a, -1.0).is_err());
    assert!(sim.set_agent_responsibility(a, f32::NAN).is_err());
}

#[test]
fn agents_keep_clear_of_a_non_cooperative_mover() {
    let params = AgentParams { radius: 0.5, max_speed: 1.5, ..AgentParams::default() };
    let mut sim = Simulator::new(0.1, params).unwrap();
    let mut goals = Vec::new();
    for y in 0..10 {
        for x in 0..10 {
            let p = Vec2::new(x as f32 * 2.0 - 9.0, y as f32 * 2.0 - 9.0);
            sim.add_agent(p).unwrap();
            goals.push(p);
        }
    }
    let mut ball = Mover { position: Vec2::new(-25.0, 0.3), velocity: Vec2::new(2.0, 0.0), radius: 1.5 };
    let id = sim.add_mover(ball).unwrap();
    let mut deepest = 0.0f32;
    for _ in 0..250 {
        set_prefs(&mut sim, &goals);
        sim.step();
        ball.position += ball.velocity * 0.1;
        sim.set_mover(id, ball).unwrap();
        for p in sim.positions() {
            deepest = deepest.max(0.5 + ball.radius - p.distance(ball.position));
        }
    }
    // The ball crossed the whole crowd (it ends beyond it) and nobody was run over.
    assert!(ball.position.x > 20.0);
    assert!(deepest < 0.05, "an agent overlapped the mover by {deepest} m");
    sim.remove_mover(id).unwrap();
    assert!(matches!(sim.set_mover(id, ball), Err(Error::UnknownMover(_))));
    assert!(sim.add_mover(Mover { radius: 0.0, ..ball }).is_err());
}

#[test]
fn safe_mode_cuts_overlaps_tenfold_without_entering_obstacles() {
    let params = AgentParams { radius: 1.0, max_speed: 1.5, ..AgentParams::default() };
    let count = |resolve: bool| {
        let (mut sim, goals) = ring(120, 25.0, params, 0.1);
        // A square block in the middle that nobody may enter.
        let block = [Vec2::new(-3.0, -3.0), Vec2::new(3.0, -3.0), Vec2::new(3.0, 3.0), Vec2::new(-3.0, 3.0)];
        sim.add_obstacle(&block).unwrap();
        sim.process_obstacles();
        if resolve {
            sim.set_extensions(Extensions {
                overlap_resolution: Some(OverlapResolution::default()),
                ..Default::default()
            })
            .unwrap();
        }
        let mut overlaps = 0usize;
        for _ in 0..400 {
            set_prefs(&mut sim, &goals);
            sim.step();
            let p = sim.positions();
            for i in 0..p.len() {
                // Never inside the block.
                assert!(p[i].x.abs() >= 3.0 || p[i].y.abs() >= 3.0, "agent {i} inside the block at {}", p[i]);
                for j in i + 1..p.len() {
                    overlaps += usize::from(p[i].distance(p[j]) < 2.0);
                }
            }
        }
        overlaps
    };
    let (rvo2, resolved) = (count(false), count(true));
    assert!(rvo2 > 100, "the scene must be dense enough to overlap in RVO2 ({rvo2})");
    // The target: at most a tenth of RVO2's overlapping pair-steps.
    assert!(resolved * 10 <= rvo2, "safe mode: {resolved} overlapping pair-steps vs RVO2's {rvo2}");
}
