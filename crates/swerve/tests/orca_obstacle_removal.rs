//! Obstacle removal (beyond RVO2): `Simulator::remove_obstacle`.
//!
//! The oracle is a fresh simulator that was never given the removed obstacle. Removing a
//! processed obstacle builds the tree again, in one build, over the remaining processed
//! obstacles, so its fresh simulator is given those, processes them once, then is given the
//! pending ones; removing a pending obstacle is as if it had never been added, so its fresh
//! simulator replays every call but that `add_obstacle`. Either way the two must step on bit
//! for bit, and report the same vertices, first vertices and visibility.

use proptest::prelude::*;
use swerve::reference::preferred_velocity_toward;
use swerve::spatial::ObstacleTree;
use swerve::{AgentParams, Error, ObstacleId, Simulator, Vec2};

/// Parameters with obstacle ranges (max speed × obstacle horizon + radius, 8 m) that take in
/// several obstacles of the scenes below.
const PARAMS: AgentParams = AgentParams {
    neighbor_dist: 6.0,
    max_neighbors: 8,
    time_horizon: 4.0,
    time_horizon_obst: 5.0,
    radius: 0.5,
    max_speed: 1.5,
};

const TIME_STEP: f32 = 0.25;

fn bits(values: &[Vec2]) -> Vec<[u32; 2]> {
    values.iter().map(|v| [v.x.to_bits(), v.y.to_bits()]).collect()
}

/// A counter-clockwise (solid) axis-aligned rectangle.
fn rectangle(min: Vec2, max: Vec2) -> Vec<Vec2> {
    vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)]
}

/// Sets every agent's preferred velocity toward its goal.
fn set_prefs(sim: &mut Simulator, goals: &[Vec2]) {
    let prefs: Vec<Vec2> = sim.positions().iter().zip(goals).map(|(p, g)| preferred_velocity_toward(*g, *p)).collect();
    sim.set_pref_velocities(&prefs).unwrap();
}

/// A simulator holding `agents` (position, goal) at rest, with [`PARAMS`].
fn with_agents(agents: &[(Vec2, Vec2)]) -> (Simulator, Vec<Vec2>) {
    let mut sim = Simulator::new(TIME_STEP, PARAMS).unwrap();
    for &(position, _) in agents {
        sim.add_agent(position).unwrap();
    }
    (sim, agents.iter().map(|a| a.1).collect())
}

/// Twelve agents crossing a 24 m square through its centre.
fn crossing_agents() -> Vec<(Vec2, Vec2)> {
    (0..12)
        .map(|k| {
            let angle = k as f32 * std::f32::consts::TAU / 12.0 + 0.1;
            let p = 12.0 * Vec2::from_angle(angle);
            (p, -p)
        })
        .collect()
}

/// An L: the `size` rectangle at `corner` with a `cut` rectangle taken out of its top
/// right (counter-clockwise: solid).
fn ell(corner: Vec2, size: Vec2, cut: Vec2) -> Vec<Vec2> {
    let far = corner + size;
    vec![
        corner,
        Vec2::new(far.x, corner.y),
        Vec2::new(far.x, far.y - cut.y),
        Vec2::new(far.x - cut.x, far.y - cut.y),
        Vec2::new(far.x - cut.x, far.y),
        Vec2::new(corner.x, far.y),
    ]
}

/// Three L-shaped blocks on the agents' paths, B in the middle. Processed one at a time,
/// their builds split more edges than one build of all three does: a tree that depends on
/// the processing history.
fn blocks() -> [Vec<Vec2>; 3] {
    [
        ell(Vec2::new(-5.0, -1.0), Vec2::new(2.5, 4.5), Vec2::new(1.0, 0.5)),
        ell(Vec2::new(-1.5, -1.5), Vec2::new(3.0, 5.0), Vec2::new(2.5, 2.5)),
        ell(Vec2::new(5.5, -5.0), Vec2::new(3.0, 3.5), Vec2::new(2.0, 1.5)),
    ]
}

/// Steps both simulators `steps` times toward `goals`, requiring the same bits each step.
fn step_alike(sim: &mut Simulator, fresh: &mut Simulator, goals: &[Vec2], steps: usize, what: &str) {
    for step in 0..steps {
        set_prefs(sim, goals);
        set_prefs(fresh, goals);
        sim.step();
        fresh.step();
        assert_eq!(bits(sim.velocities()), bits(fresh.velocities()), "{what}: velocities differ at step {step}");
        assert_eq!(bits(sim.positions()), bits(fresh.positions()), "{what}: positions differ at step {step}");
    }
}

/// Same obstacle state as the fresh simulator: live polygons, vertex list, first vertices.
fn assert_same_obstacles(sim: &Simulator, fresh: &Simulator) {
    assert_eq!(sim.obstacle_polygons(), fresh.obstacle_polygons(), "polygons");
    assert_eq!(sim.obstacle_vertices(), fresh.obstacle_vertices(), "vertices");
    assert_eq!(sim.obstacle_ids().len(), fresh.obstacle_ids().len());
    for (&id, &fresh_id) in sim.obstacle_ids().iter().zip(fresh.obstacle_ids()) {
        assert_eq!(sim.obstacle_first_vertex(id).unwrap(), fresh.obstacle_first_vertex(fresh_id).unwrap(), "{id:?}");
    }
}

/// A with B with C where B is removed — before processing, after processing them together,
/// and after processing them one at a time (whose builds split edges) — steps as a fresh
/// simulator given A and C; keeping B does not.
#[test]
fn removing_b_from_a_b_c_steps_as_a_fresh_simulator_with_a_and_c() {
    let [a, b, c] = blocks();
    for history in ["pending", "processed together", "processed one at a time"] {
        let (mut sim, goals) = with_agents(&crossing_agents());
        let mut ids = Vec::new();
        for polygon in [&a, &b, &c] {
            ids.push(sim.add_obstacle(polygon).unwrap());
            if history == "processed one at a time" {
                sim.process_obstacles();
            }
        }
        if history == "processed together" {
            sim.process_obstacles();
        }
        if history == "processed one at a time" {
            let at_once = ObstacleTree::build(&[&a, &b, &c].map(|p| p.as_slice())).vertices().len();
            assert!(sim.obstacle_vertices().len() > at_once, "the history made no difference");
        }
        let mut keeping_b = sim.clone();
        sim.remove_obstacle(ids[1]).unwrap();
        if history == "pending" {
            sim.process_obstacles();
            keeping_b.process_obstacles();
        }
        assert_eq!(sim.obstacle_ids(), [ids[0], ids[2]]);

        let (mut fresh, _) = with_agents(&crossing_agents());
        fresh.add_obstacle(&a).unwrap();
        fresh.add_obstacle(&c).unwrap();
        fresh.process_obstacles();
        assert_same_obstacles(&sim, &fresh);
        step_alike(&mut sim, &mut fresh, &goals, 120, history);

        // B mattered: a simulator that kept it took another path.
        let mut other = keeping_b;
        for _ in 0..120 {
            set_prefs(&mut other, &goals);
            other.step();
        }
        assert_ne!(bits(other.positions()), bits(sim.positions()), "{history}: B changed nothing");
    }
}

/// Removing an obstacle not processed yet undoes its `add_obstacle`: the tree built by
/// earlier processing (one obstacle at a time, so with split edges a single build would
/// not make) stays as it is, and processing later builds as in a simulator never given it.
#[test]
fn removing_a_pending_obstacle_is_as_if_it_was_never_added() {
    let [a, b, c] = blocks();
    let (mut sim, goals) = with_agents(&crossing_agents());
    let (mut fresh, _) = with_agents(&crossing_agents());
    for polygon in [&a, &c] {
        sim.add_obstacle(polygon).unwrap();
        sim.process_obstacles();
        fresh.add_obstacle(polygon).unwrap();
        fresh.process_obstacles();
    }
    let at_once = ObstacleTree::build(&[&a, &c].map(|p| p.as_slice())).vertices().len();
    assert_ne!(sim.obstacle_vertices().len(), at_once, "the history made no difference");
    let vertices = sim.obstacle_vertices().to_vec();
    let pending = sim.add_obstacle(&b).unwrap();
    let later = sim.add_obstacle(&rectangle(Vec2::new(-9.0, 8.0), Vec2::new(-7.0, 9.0))).unwrap();
    sim.remove_obstacle(pending).unwrap();
    assert_eq!(sim.obstacle_vertices(), vertices.as_slice(), "removing a pending obstacle changed the tree");
    fresh.add_obstacle(&rectangle(Vec2::new(-9.0, 8.0), Vec2::new(-7.0, 9.0))).unwrap();
    assert_eq!(sim.obstacle_first_vertex(later).unwrap(), vertices.len());
    assert_same_obstacles(&sim, &fresh);
    step_alike(&mut sim, &mut fresh, &goals, 20, "pending removed");
    sim.process_obstacles();
    fresh.process_obstacles();
    assert_same_obstacles(&sim, &fresh);
    step_alike(&mut sim, &mut fresh, &goals, 60, "pending removed, then processed");
}

/// Removed mid-run, after agents have met it: from then on the simulator steps as a fresh
/// one built with the same agents' state and the other obstacles (and, with decisions
/// recorded, each agent's obstacle neighbours are the new tree's).
#[test]
fn removed_mid_run_the_simulator_steps_as_a_fresh_one_without_it() {
    let [a, b, c] = blocks();
    let (mut sim, goals) = with_agents(&crossing_agents());
    sim.set_record_decisions(true);
    let ids: Vec<ObstacleId> = [&a, &b, &c].iter().map(|p| sim.add_obstacle(p).unwrap()).collect();
    sim.process_obstacles();
    let mut met_b = false;
    for _ in 0..20 {
        set_prefs(&mut sim, &goals);
        sim.step();
        for &agent in sim.agent_ids() {
            let b_vertices = 6..12;
            met_b |= sim.agent_obstacle_neighbors(agent).unwrap().any(|v| b_vertices.contains(&v));
        }
    }
    assert!(met_b, "no agent came near B before it was removed");
    let half_planes_before: Vec<usize> =
        sim.agent_ids().iter().map(|&i| sim.agent_half_planes(i).unwrap().len()).collect();
    sim.remove_obstacle(ids[1]).unwrap();
    // The recorded obstacle neighbours named the old vertex numbers: gone until the next
    // step. The half-planes stay what the last step decided.
    for (k, &agent) in sim.agent_ids().iter().enumerate() {
        assert_eq!(sim.agent_obstacle_neighbors(agent).unwrap().len(), 0, "{agent:?}");
        assert_eq!(sim.agent_half_planes(agent).unwrap().len(), half_planes_before[k]);
    }

    let mut fresh = Simulator::new(TIME_STEP, PARAMS).unwrap();
    fresh.set_record_decisions(true);
    for &agent in sim.agent_ids() {
        let f = fresh.add_agent_with(sim.agent_position(agent).unwrap(), sim.agent_params(agent).unwrap()).unwrap();
        fresh.set_agent_velocity(f, sim.agent_velocity(agent).unwrap()).unwrap();
    }
    fresh.add_obstacle(&a).unwrap();
    fresh.add_obstacle(&c).unwrap();
    fresh.process_obstacles();
    assert_same_obstacles(&sim, &fresh);
    let tree = ObstacleTree::build(&[&a, &c].map(|p| p.as_slice()));
    let mut nonempty = 0;
    for step in 0..60 {
        let start = sim.positions().to_vec();
        step_alike(&mut sim, &mut fresh, &goals, 1, "mid-run");
        let mut expected = Vec::new();
        for (k, &agent) in sim.agent_ids().iter().enumerate() {
            tree.edges_near(start[k], PARAMS.obstacle_range().powi(2), &mut expected);
            let listed: Vec<u32> = sim.agent_obstacle_neighbors(agent).unwrap().collect();
            let wanted: Vec<u32> = expected.iter().map(|e| e.1).collect();
            assert_eq!(listed, wanted, "{agent:?} at step {step}");
            nonempty += usize::from(!listed.is_empty());
        }
    }
    assert!(nonempty > 50, "only {nonempty} obstacle-neighbour lists were not empty");
}

/// A wall across the way with a door in it: agents wait at the closed door, and walk
/// through the gap once the door is removed.
#[test]
fn agents_walk_through_the_gap_where_a_removed_door_was() {
    let mut agents = Vec::new();
    for (column, x) in [-8.0f32, -10.0].into_iter().enumerate() {
        for y in [-1.5f32, 0.0, 1.5] {
            let y = y + column as f32 * 0.25;
            agents.push((Vec2::new(x, y), Vec2::new(12.0, y)));
        }
    }
    let (mut sim, goals) = with_agents(&agents);
    sim.add_obstacle(&rectangle(Vec2::new(-0.5, 3.1), Vec2::new(0.5, 40.0))).unwrap();
    let door = sim.add_obstacle(&rectangle(Vec2::new(-0.5, -3.0), Vec2::new(0.5, 3.0))).unwrap();
    sim.add_obstacle(&rectangle(Vec2::new(-0.5, -40.0), Vec2::new(0.5, -3.1))).unwrap();
    sim.process_obstacles();
    assert!(!sim.query_visibility(Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0), PARAMS.radius));

    let mut nearest = f32::NEG_INFINITY;
    for step in 0..160 {
        set_prefs(&mut sim, &goals);
        sim.step();
        for p in sim.positions() {
            assert!(p.x < -0.5, "an agent went through the closed door at step {step}: {p}");
            nearest = nearest.max(p.x);
        }
    }
    assert!(nearest > -2.0, "the agents never reached the door (nearest x {nearest})");

    sim.remove_obstacle(door).unwrap();
    assert!(sim.query_visibility(Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0), PARAMS.radius));
    let mut crossed = vec![false; agents.len()];
    for _ in 0..240 {
        let before = sim.positions().to_vec();
        set_prefs(&mut sim, &goals);
        sim.step();
        for (k, (from, to)) in before.iter().zip(sim.positions()).enumerate() {
            if from.x < 0.0 && to.x >= 0.0 {
                assert!(to.y.abs() < 3.0 - PARAMS.radius * 0.5, "agent {k} crossed the wall at y {}", to.y);
                crossed[k] = true;
            }
        }
    }
    assert!(crossed.iter().all(|&c| c), "not every agent went through the gap: {crossed:?}");
    for (p, g) in sim.positions().iter().zip(&goals) {
        assert!(p.distance(*g) < 3.0, "an agent at {p} did not get near its goal {g}");
    }
}

/// Removing an unknown id, or one already removed, is an error and changes nothing; the
/// removed id is never handed out again and no longer names an obstacle anywhere.
#[test]
fn bad_removals_are_errors_and_change_nothing() {
    let [a, b, c] = blocks();
    let (mut sim, goals) = with_agents(&crossing_agents());
    sim.set_record_decisions(true);
    let ids: Vec<ObstacleId> = [&a, &b, &c].iter().map(|p| sim.add_obstacle(p).unwrap()).collect();
    sim.process_obstacles();
    let pending = sim.add_obstacle(&rectangle(Vec2::new(8.0, 8.0), Vec2::new(9.0, 9.0))).unwrap();
    for _ in 0..10 {
        set_prefs(&mut sim, &goals);
        sim.step();
    }
    let snapshot = format!("{sim:?}");
    assert!(matches!(sim.remove_obstacle(ObstacleId(4)), Err(Error::UnknownObstacle(4))));
    assert!(matches!(sim.remove_obstacle(ObstacleId(u32::MAX)), Err(Error::UnknownObstacle(u32::MAX))));
    assert_eq!(format!("{sim:?}"), snapshot, "a rejected removal changed the simulator");

    sim.remove_obstacle(ids[1]).unwrap();
    sim.remove_obstacle(pending).unwrap();
    let snapshot = format!("{sim:?}");
    for id in [ids[1], pending] {
        assert!(!sim.contains_obstacle(id));
        assert!(matches!(sim.remove_obstacle(id), Err(Error::UnknownObstacle(n)) if n == id.0));
        assert!(matches!(sim.obstacle_first_vertex(id), Err(Error::UnknownObstacle(_))));
        assert!(matches!(sim.obstacle_polygon(id), Err(Error::UnknownObstacle(_))));
    }
    assert_eq!(format!("{sim:?}"), snapshot, "removing twice changed the simulator");
    assert_eq!(sim.remove_obstacle(ids[1]).unwrap_err().to_string(), "unknown obstacle id 1");

    // The others keep their ids; a new obstacle gets a new one.
    assert_eq!(sim.obstacle_ids(), [ids[0], ids[2]]);
    assert_eq!(sim.obstacle_polygon(ids[2]).unwrap(), c.as_slice());
    assert_eq!(sim.add_obstacle(&b).unwrap(), ObstacleId(4));
    assert_eq!(sim.obstacle_ids(), [ids[0], ids[2], ObstacleId(4)]);
}

/// `query_visibility` ignores a removed obstacle at once, still sees the others, and
/// answers as a fresh simulator without it; removing a pending obstacle changes nothing.
#[test]
fn visibility_after_removal() {
    let [a, b, c] = blocks();
    let mut sim = Simulator::new(TIME_STEP, PARAMS).unwrap();
    let ids: Vec<ObstacleId> = [&a, &b, &c].iter().map(|p| sim.add_obstacle(p).unwrap()).collect();
    sim.process_obstacles();
    let through_b = (Vec2::new(0.0, -8.0), Vec2::new(0.0, 8.0));
    let through_a = (Vec2::new(-4.0, -8.0), Vec2::new(-4.0, 8.0));
    assert!(!sim.query_visibility(through_b.0, through_b.1, 0.1));
    assert!(!sim.query_visibility(through_a.0, through_a.1, 0.1));

    // A pending obstacle across everything, removed before processing: no effect.
    let pending = sim.add_obstacle(&rectangle(Vec2::new(-9.0, -0.5), Vec2::new(9.0, 0.5))).unwrap();
    sim.remove_obstacle(pending).unwrap();
    sim.process_obstacles();
    assert!(!sim.query_visibility(through_b.0, through_b.1, 0.1));
    assert!(sim.query_visibility(Vec2::new(-9.0, 6.0), Vec2::new(9.0, 6.0), 0.1));

    sim.remove_obstacle(ids[1]).unwrap();
    assert!(sim.query_visibility(through_b.0, through_b.1, 0.1));
    assert!(!sim.query_visibility(through_a.0, through_a.1, 0.1));
    let mut fresh = Simulator::new(TIME_STEP, PARAMS).unwrap();
    fresh.add_obstacle(&a).unwrap();
    fresh.add_obstacle(&c).unwrap();
    fresh.process_obstacles();
    let mut blocked = 0;
    for i in 0..400 {
        let from = Vec2::new((i % 20) as f32 - 9.5, (i / 20) as f32 - 9.5);
        let to = Vec2::new(9.0 - (i % 7) as f32 * 2.5, (i % 11) as f32 * 1.7 - 8.0);
        for radius in [0.0, 0.5, 2.0] {
            let seen = sim.query_visibility(from, to, radius);
            assert_eq!(seen, fresh.query_visibility(from, to, radius), "{from} → {to}, radius {radius}");
            blocked += usize::from(!seen);
        }
    }
    assert!(blocked > 100, "only {blocked} probes were blocked");

    // Every obstacle removed: nothing blocks, the vertex list is empty.
    sim.remove_obstacle(ids[0]).unwrap();
    sim.remove_obstacle(ids[2]).unwrap();
    assert!(sim.obstacle_vertices().is_empty() && sim.obstacle_ids().is_empty());
    assert!(sim.query_visibility(through_a.0, through_a.1, 0.1));
}

/// Every obstacle removed mid-run: the crowd steps as one without obstacles; obstacles added
/// and processed afterwards work as in a fresh simulator.
#[test]
fn removing_every_obstacle_and_adding_again() {
    let [a, b, c] = blocks();
    let (mut sim, goals) = with_agents(&crossing_agents());
    let ids: Vec<ObstacleId> = [&a, &b, &c].iter().map(|p| sim.add_obstacle(p).unwrap()).collect();
    sim.process_obstacles();
    for _ in 0..15 {
        set_prefs(&mut sim, &goals);
        sim.step();
    }
    for id in ids {
        sim.remove_obstacle(id).unwrap();
    }
    let mut fresh = Simulator::new(TIME_STEP, PARAMS).unwrap();
    for &agent in sim.agent_ids() {
        let f = fresh.add_agent(sim.agent_position(agent).unwrap()).unwrap();
        fresh.set_agent_velocity(f, sim.agent_velocity(agent).unwrap()).unwrap();
    }
    step_alike(&mut sim, &mut fresh, &goals, 10, "no obstacles");
    sim.add_obstacle(&b).unwrap();
    fresh.add_obstacle(&b).unwrap();
    sim.process_obstacles();
    fresh.process_obstacles();
    assert_same_obstacles(&sim, &fresh);
    step_alike(&mut sim, &mut fresh, &goals, 40, "B added again");
}

// ----- the property: any interleaving of additions, processing, removals and steps -----

/// What a fresh simulator is given, in order, to hold the obstacles the tested one holds.
#[derive(Clone, Debug)]
enum Call {
    /// `add_obstacle` of the tested simulator's obstacle with this id.
    Add(ObstacleId, Vec<Vec2>),
    Process,
}

/// The fresh simulator's calls, kept as the tested simulator's obstacles change.
#[derive(Default)]
struct Model {
    calls: Vec<Call>,
    /// The live ids, in id order, and whether each is processed.
    live: Vec<(ObstacleId, bool)>,
}

impl Model {
    fn add(&mut self, id: ObstacleId, polygon: Vec<Vec2>) {
        self.calls.push(Call::Add(id, polygon));
        self.live.push((id, false));
    }

    fn process(&mut self) {
        self.calls.push(Call::Process);
        self.live.iter_mut().for_each(|l| l.1 = true);
    }

    fn remove(&mut self, id: ObstacleId) {
        let at = self.live.iter().position(|l| l.0 == id).unwrap();
        let (_, processed) = self.live.remove(at);
        let polygon_of = |calls: &[Call], id: ObstacleId| {
            calls.iter().find_map(|c| match c {
                Call::Add(i, p) if *i == id => Some(p.clone()),
                _ => None,
            })
        };
        if processed {
            // The remaining processed ones in one build, then the pending ones.
            let mut calls = Vec::new();
            for &(id, processed) in &self.live {
                if processed {
                    calls.push(Call::Add(id, polygon_of(&self.calls, id).unwrap()));
                }
            }
            calls.push(Call::Process);
            for &(id, processed) in &self.live {
                if !processed {
                    calls.push(Call::Add(id, polygon_of(&self.calls, id).unwrap()));
                }
            }
            self.calls = calls;
        } else {
            // As if it had never been added.
            self.calls.retain(|c| !matches!(c, Call::Add(i, _) if *i == id));
        }
    }

    /// A fresh simulator given the calls, with `from`'s agents in their current state.
    fn fresh(&self, from: &Simulator) -> Simulator {
        let mut fresh = Simulator::new(from.time_step(), from.agent_defaults()).unwrap();
        for &agent in from.agent_ids() {
            let f =
                fresh.add_agent_with(from.agent_position(agent).unwrap(), from.agent_params(agent).unwrap()).unwrap();
            fresh.set_agent_velocity(f, from.agent_velocity(agent).unwrap()).unwrap();
        }
        for call in &self.calls {
            match call {
                Call::Add(_, polygon) => drop(fresh.add_obstacle(polygon).unwrap()),
                Call::Process => fresh.process_obstacles(),
            }
        }
        fresh
    }
}

#[derive(Clone, Debug)]
enum Op {
    Add(Vec<Vec2>),
    Process,
    /// Removes the live obstacle at this place (modulo their count), processed or not; or,
    /// when asked and there is one, the pending obstacle at this place.
    Remove(usize, bool),
    /// Removes an id that is not live (a removed one when there is one): must fail.
    RemoveDead(usize),
    Walk(usize),
}

/// Lattice squares and L-shapes (collinear edges and splits are common), walls and random
/// convex polygons, in the 24 m square the agents cross.
fn polygon() -> impl Strategy<Value = Vec<Vec2>> {
    let square = (-4i32..4, -4i32..4, 1i32..4).prop_map(|(x, y, s)| {
        let (x, y, s) = (x as f32 * 2.5, y as f32 * 2.5, s as f32 * 1.5);
        rectangle(Vec2::new(x, y), Vec2::new(x + s, y + s))
    });
    let wall = (-9.0f32..9.0, -9.0f32..9.0, -8.0f32..8.0, -8.0f32..8.0)
        .prop_filter("a wall has length", |(_, _, dx, dy)| dx.abs() + dy.abs() > 0.5)
        .prop_map(|(x, y, dx, dy)| vec![Vec2::new(x, y), Vec2::new(x + dx, y + dy)]);
    let convex =
        (-9.0f32..9.0, -9.0f32..9.0, 0.5f32..3.0, 3usize..8, 0.0f32..6.3).prop_map(|(x, y, radius, sides, turn)| {
            (0..sides)
                .map(|k| {
                    Vec2::new(x, y) + radius * Vec2::from_angle(turn + k as f32 * std::f32::consts::TAU / sides as f32)
                })
                .collect()
        });
    let l_shape = (-4i32..4, -4i32..4, 2i32..6, 2i32..6, 1i32..4, 1i32..4).prop_map(|(x, y, w, h, t, u)| {
        let (w, h) = (w as f32, h as f32);
        let cut = Vec2::new((t as f32).min(w - 1.0), (u as f32).min(h - 1.0));
        ell(Vec2::new(x as f32 * 2.5, y as f32 * 2.5), Vec2::new(w, h), cut)
    });
    prop_oneof![3 => square, 1 => wall, 2 => convex, 3 => l_shape]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => polygon().prop_map(Op::Add),
        2 => Just(Op::Process),
        4 => (any::<usize>(), any::<bool>()).prop_map(|(k, pending)| Op::Remove(k, pending)),
        1 => any::<usize>().prop_map(Op::RemoveDead),
        3 => (1usize..8).prop_map(Op::Walk),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Random obstacle sets, some processed, then additions, processing, removals (of
    /// processed and pending obstacles, and bad ones) and steps in any order: the simulator
    /// always holds the fresh simulator's obstacles (polygons, vertices, first vertices,
    /// visibility) and steps as it, bit for bit; a bad removal fails and changes nothing.
    #[test]
    fn removal_equals_a_fresh_simulator_without_the_obstacle(
        agents in prop::collection::vec((-12.0f32..12.0, -12.0f32..12.0), 4..30),
        initial in prop::collection::vec((polygon(), any::<bool>()), 1..8),
        ops in prop::collection::vec(op(), 1..20),
        probes in prop::collection::vec((-12.0f32..12.0, -12.0f32..12.0, -12.0f32..12.0, -12.0f32..12.0), 8),
    ) {
        let agents: Vec<(Vec2, Vec2)> = agents.iter().map(|&(x, y)| (Vec2::new(x, y), Vec2::new(-x, -y))).collect();
        let (mut sim, goals) = with_agents(&agents);
        let mut model = Model::default();
        let mut removed = Vec::new();
        // Obstacles added one by one, each perhaps processed: histories whose builds split
        // edges a single build would not.
        let initial_ops = initial.into_iter().flat_map(|(polygon, process)| {
            std::iter::once(Op::Add(polygon)).chain(process.then_some(Op::Process))
        });
        for op in initial_ops.chain(ops) {
            let mut walk = 0;
            match op {
                Op::Add(polygon) => {
                    let id = sim.add_obstacle(&polygon).unwrap();
                    model.add(id, polygon);
                }
                Op::Process => {
                    sim.process_obstacles();
                    model.process();
                }
                Op::Remove(k, pending) => {
                    let pending: Vec<ObstacleId> = model.live.iter().filter(|l| pending && !l.1).map(|l| l.0).collect();
                    let candidates: Vec<ObstacleId> =
                        if pending.is_empty() { model.live.iter().map(|l| l.0).collect() } else { pending };
                    if candidates.is_empty() {
                        continue;
                    }
                    let id = candidates[k % candidates.len()];
                    sim.remove_obstacle(id).unwrap();
                    model.remove(id);
                    removed.push(id);
                }
                Op::RemoveDead(k) => {
                    let id = if removed.is_empty() { ObstacleId(1000 + k as u32 % 1000) } else { removed[k % removed.len()] };
                    let snapshot = format!("{sim:?}");
                    prop_assert!(matches!(sim.remove_obstacle(id), Err(Error::UnknownObstacle(n)) if n == id.0));
                    prop_assert_eq!(format!("{sim:?}"), snapshot, "a failed removal changed the simulator");
                }
                Op::Walk(steps) => walk = steps,
            }
            // The oracle: a fresh simulator given the model's calls and the agents' state.
            let mut fresh = model.fresh(&sim);
            let live: Vec<ObstacleId> = model.live.iter().map(|l| l.0).collect();
            prop_assert_eq!(sim.obstacle_ids(), live.as_slice());
            prop_assert_eq!(sim.obstacle_polygons(), fresh.obstacle_polygons());
            prop_assert_eq!(sim.obstacle_vertices(), fresh.obstacle_vertices());
            for (&id, &fresh_id) in sim.obstacle_ids().iter().zip(fresh.obstacle_ids()) {
                prop_assert_eq!(sim.obstacle_first_vertex(id).unwrap(), fresh.obstacle_first_vertex(fresh_id).unwrap());
            }
            for &(x0, y0, x1, y1) in &probes {
                let (from, to) = (Vec2::new(x0, y0), Vec2::new(x1, y1));
                prop_assert_eq!(sim.query_visibility(from, to, 0.5), fresh.query_visibility(from, to, 0.5));
            }
            for step in 0..walk {
                set_prefs(&mut sim, &goals);
                set_prefs(&mut fresh, &goals);
                sim.step();
                fresh.step();
                prop_assert_eq!(bits(sim.velocities()), bits(fresh.velocities()), "velocities, step {}", step);
                prop_assert_eq!(bits(sim.positions()), bits(fresh.positions()), "positions, step {}", step);
            }
        }
    }
}
