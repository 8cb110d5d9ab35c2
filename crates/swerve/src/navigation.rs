//! Global navigation: a visibility-graph roadmap over obstacle corners, as in RVO2's Roadmap
//! example. Each step an agent heads for the roadmap vertex it can see that minimises
//! "distance to the vertex + shortest-path distance from the vertex to the goal", so agents
//! route around obstacles instead of pressing into them. Shortest paths come from petgraph's
//! Dijkstra, run once per distinct goal when the roadmap is built.

use crate::geom::exact;
use crate::reference::preferred_velocity_toward;
use crate::{Simulator, Vec2};
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::visit::EdgeRef;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

thread_local! {
    /// The candidate targets of one agent (total's bits, then vertex), reused from one to the next.
    static TARGET_SCRATCH: std::cell::RefCell<BinaryHeap<Reverse<u64>>> = const { std::cell::RefCell::new(BinaryHeap::new()) };
}

/// A roadmap: vertices (goals first, then hand-placed vertices, then obstacle corners), edges
/// between mutually visible vertices, and each vertex's shortest distance to every goal.
#[derive(Clone, Debug)]
pub struct Roadmap {
    vertices: Vec<Vec2>,
    graph: UnGraph<Vec2, f32>,
    goal_count: usize,
    /// `distance_to_goal[g][v]`: shortest roadmap distance (m) from vertex `v` to goal `g`
    /// (infinite when unreachable).
    distance_to_goal: Vec<Vec<f32>>,
}

impl Roadmap {
    /// Builds the roadmap for `goals` over the simulator's processed obstacles.
    ///
    /// Corner vertices sit at distance `clearance` (m) from both edges of every convex corner
    /// (RVO2's `isConvex`, the corners that stick into free space; RVO2's Roadmap example
    /// places its vertices exactly so, at the agent radius 2 from the 40 m blocks' corners).
    /// Edges join vertices that a disc of `clearance` can travel between
    /// ([`Simulator::query_visibility`]).
    pub fn build(sim: &Simulator, goals: &[Vec2], extra_vertices: &[Vec2], clearance: f32) -> Roadmap {
        let polygons = sim.obstacle_polygons();
        let mut vertices: Vec<Vec2> = goals.iter().chain(extra_vertices).copied().collect();
        let obstacles = crate::spatial::PolygonGrid::new(polygons);
        for corner in corner_vertices(polygons, clearance) {
            // A corner vertex too close to another obstacle would be unusable; skip it.
            if obstacles.is_clear(corner, clearance * 0.999) {
                vertices.push(corner);
            }
        }
        let mut graph = UnGraph::with_capacity(vertices.len(), vertices.len() * 4);
        let nodes: Vec<NodeIndex> = vertices.iter().map(|v| graph.add_node(*v)).collect();
        for i in 0..vertices.len() {
            for j in (i + 1)..vertices.len() {
                if sim.query_visibility(vertices[i], vertices[j], clearance) {
                    graph.add_edge(nodes[i], nodes[j], exact::length(vertices[j] - vertices[i]));
                }
            }
        }
        let distance_to_goal = (0..goals.len())
            .map(|g| {
                let distances = petgraph::algo::dijkstra(&graph, nodes[g], None, |e| *e.weight());
                nodes.iter().map(|n| distances.get(n).copied().unwrap_or(f32::INFINITY)).collect()
            })
            .collect();
        Roadmap { vertices, graph, goal_count: goals.len(), distance_to_goal }
    }

    /// The vertices (goals first).
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// The edges as vertex index pairs.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.graph.edge_indices().filter_map(|e| self.graph.edge_endpoints(e)).map(|(a, b)| (a.index(), b.index()))
    }

    /// Number of goals the roadmap was built for.
    pub fn goal_count(&self) -> usize {
        self.goal_count
    }

    /// Shortest roadmap distance (m) from vertex `vertex` to goal `goal`.
    pub fn distance_to_goal(&self, goal: usize, vertex: usize) -> f32 {
        self.distance_to_goal.get(goal).and_then(|d| d.get(vertex)).copied().unwrap_or(f32::INFINITY)
    }

    /// RVO2 Roadmap's preferred velocity for an agent of `radius` at `position` heading to
    /// goal number `goal`: unit speed toward the visible vertex minimising distance + distance
    /// to goal; zero when none is visible.
    ///
    /// One deliberate difference: once the goal vertex itself is the target, the agent slows
    /// down on arrival like RVO2's other examples ([`preferred_velocity_toward`]) instead of
    /// keeping unit speed and circling the goal.
    pub fn preferred_velocity(&self, sim: &Simulator, position: Vec2, radius: f32, goal: usize) -> Vec2 {
        let Some(j) = self.target(sim, position, radius, goal) else { return Vec2::ZERO };
        let vertex = self.vertices[j];
        if j == goal {
            return preferred_velocity_toward(vertex, position);
        }
        let toward = vertex - position;
        if exact::length_squared(toward) == 0.0 {
            // Standing on an intermediate vertex: head for the goal (RVO2's rule).
            let goal_position = self.vertices[goal];
            let toward_goal = goal_position - position;
            return if exact::length_squared(toward_goal) == 0.0 { Vec2::ZERO } else { exact::normalize(toward_goal) };
        }
        exact::normalize(toward)
    }
}

impl Roadmap {
    /// The vertex an agent heads for (RVO2 Roadmap's rule): the one it sees that minimises
    /// distance + distance to goal, the first in vertex order on equal totals; `None` when it
    /// sees none (or `goal` is out of range).
    ///
    /// RVO2's loop asks about visibility for every vertex that beats the best seen so far:
    /// all of them while the goal and the vertices numbered first are out of sight, as in a
    /// city (10,000 agents among 400 blocks took 4.3 s a step). The totals need no visibility,
    /// so visibility is asked in the order of the totals (a heap), and the first vertex seen
    /// is the loop's answer.
    fn target(&self, sim: &Simulator, position: Vec2, radius: f32, goal: usize) -> Option<usize> {
        let distances = self.distance_to_goal.get(goal)?;
        TARGET_SCRATCH.with_borrow_mut(|scratch| {
            let mut candidates = std::mem::take(scratch).into_vec();
            candidates.clear();
            candidates.extend(self.vertices.iter().zip(distances).enumerate().filter_map(|(j, (vertex, distance))| {
                let total = exact::length(*vertex - position) + distance;
                // Only a total below infinity can beat the loop's first best (never NaN).
                // Totals are ≥ +0, so their bits order them as `<` does; equal totals go
                // by the lower index, as the loop's strict `<` keeps the first.
                (total < f32::INFINITY).then_some(Reverse(u64::from(total.to_bits()) << 32 | j as u64))
            }));
            let mut cheapest_first = BinaryHeap::from(candidates);
            let mut found = None;
            while let Some(Reverse(key)) = cheapest_first.pop() {
                let j = (key & u64::from(u32::MAX)) as usize;
                if sim.query_visibility(position, self.vertices[j], radius) {
                    found = Some(j);
                    break;
                }
            }
            *scratch = cheapest_first;
            found
        })
    }

    /// The way an agent of `radius` at `position` means to go to goal number `goal`: its
    /// position, the vertex it heads for ([`Roadmap::preferred_velocity`]'s), the roadmap's
    /// shortest path on to the goal vertex. Empty when it sees no vertex (it stands still)
    /// or for a goal never built. What the viewer draws to show why an agent walks where it
    /// does (as [`crate::navigation3d::Roadmap3d::route`] in space).
    pub fn route(&self, sim: &Simulator, position: Vec2, radius: f32, goal: usize) -> Vec<Vec2> {
        let Some(mut at) = self.target(sim, position, radius, goal) else { return Vec::new() };
        let distances = &self.distance_to_goal[goal];
        let mut way = vec![position];
        // Down the shortest path: from each vertex, the neighbour through which its distance
        // was found. Distances fall strictly along it, so it ends (the guard never fires on a
        // consistent roadmap).
        while way.len() <= self.vertices.len() {
            way.push(self.vertices[at]);
            if at == goal {
                break;
            }
            let here = distances[at];
            let node = NodeIndex::new(at);
            let next = self
                .graph
                .edges(node)
                .map(|e| {
                    let other = if e.source() == node { e.target() } else { e.source() }.index();
                    (*e.weight() + distances[other], other)
                })
                .filter(|&(through, other)| distances[other] < here && through.is_finite())
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            match next {
                Some((_, other)) => at = other,
                None => break,
            }
        }
        way
    }
}

/// The points at distance `clearance` from both edges of every convex corner of `polygons`
/// (for thin walls: two points beyond each end).
pub fn corner_vertices(polygons: &[Vec<Vec2>], clearance: f32) -> Vec<Vec2> {
    let mut out = Vec::new();
    for poly in polygons {
        let n = poly.len();
        if n == 2 {
            let d = (poly[1] - poly[0]).normalize();
            let normal = d.perp();
            for (end, outward) in [(poly[0], -d), (poly[1], d)] {
                out.push(end + clearance * (outward + normal));
                out.push(end + clearance * (outward - normal));
            }
            continue;
        }
        for i in 0..n {
            let prev = poly[(i + n - 1) % n];
            let here = poly[i];
            let next = poly[(i + 1) % n];
            // Free space is to the right of each edge in RVO2's winding (outside a
            // counter-clockwise solid, inside a clockwise boundary); a corner juts into free
            // space when the boundary turns left there (RVO2's `isConvex`).
            if exact::left_of(prev, here, next) <= 0.0 {
                continue;
            }
            let right = |d: Vec2| Vec2::new(d.y, -d.x);
            let n1 = right((here - prev).normalize());
            let n2 = right((next - here).normalize());
            // The point at distance `clearance` from both edge lines lies on the bisector.
            out.push(here + clearance * (n1 + n2) / (1.0 + n1.dot(n2)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentParams;

    fn blocks() -> Simulator {
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        // RVO2's Blocks / Roadmap obstacles.
        for (x, y) in [(-1.0f32, 1.0f32), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
            let (a, b) = (10.0 * x, 40.0 * x);
            let (c, d) = (10.0 * y, 40.0 * y);
            let mut square = vec![
                Vec2::new(a.min(b), c.min(d)),
                Vec2::new(a.max(b), c.min(d)),
                Vec2::new(a.max(b), c.max(d)),
                Vec2::new(a.min(b), c.max(d)),
            ];
            // Counter-clockwise already (min,min → max,min → max,max → min,max).
            square.dedup();
            sim.add_obstacle(&square).unwrap();
        }
        sim.process_obstacles();
        sim
    }

    #[test]
    fn corners_match_rvo2_roadmap_vertices() {
        let sim = blocks();
        let mut corners: Vec<(i32, i32)> = corner_vertices(sim.obstacle_polygons(), 2.0)
            .iter()
            .map(|v| (v.x.round() as i32, v.y.round() as i32))
            .collect();
        corners.sort();
        // RVO2's Roadmap example places its 16 vertices at (±42 | ±8, ±42 | ±8).
        let mut expected = Vec::new();
        for x in [-42, -8, 8, 42] {
            for y in [-42, -8, 8, 42] {
                expected.push((x, y));
            }
        }
        assert_eq!(corners, expected);
    }

    #[test]
    fn shortest_paths_are_at_least_the_straight_line_and_route_around_blocks() {
        let sim = blocks();
        let goals = [Vec2::new(-75.0, -75.0), Vec2::new(75.0, 75.0)];
        let roadmap = Roadmap::build(&sim, &goals, &[], 2.0);
        let vertices = roadmap.vertices();
        assert_eq!(vertices.len(), 2 + 16);
        for (v, p) in vertices.iter().enumerate() {
            for (g, goal) in goals.iter().enumerate() {
                let d = roadmap.distance_to_goal(g, v);
                assert!(d.is_finite(), "vertex {v} cannot reach goal {g}");
                assert!(d >= p.distance(*goal) - 1e-3, "shortest path shorter than the straight line");
            }
        }
        // An agent whose straight line to the goal crosses a block heads for a corner.
        let position = Vec2::new(25.0, 50.0);
        assert!(!sim.query_visibility(position, goals[0], 2.0));
        let v = roadmap.preferred_velocity(&sim, position, 2.0, 0);
        assert!((v.length() - 1.0).abs() < 1e-5);
        let straight = (goals[0] - position).normalize();
        assert!(v.dot(straight) < 0.999, "roadmap velocity should not point straight into the block");
        // Following the roadmap velocity never enters the block.
        let mut p = position;
        for _ in 0..1000 {
            let v = roadmap.preferred_velocity(&sim, p, 2.0, 0);
            p += v * 0.25;
            assert!(crate::scenario::clear_of_obstacles(p, 1.9, sim.obstacle_polygons()), "walked into a block at {p}");
        }
        assert!(p.distance(goals[0]) < 1.0, "did not reach the goal: {p}");
    }

    #[test]
    fn the_route_goes_round_the_blocks_as_long_as_the_best_total_and_where_the_agent_heads() {
        let sim = blocks();
        let goals = [Vec2::new(-75.0, -75.0), Vec2::new(75.0, 75.0)];
        let roadmap = Roadmap::build(&sim, &goals, &[], 2.0);
        let position = Vec2::new(25.0, 50.0);
        let way = roadmap.route(&sim, position, 2.0, 0);
        assert!(way.len() >= 3 && way[0] == position && *way.last().unwrap() == goals[0], "{way:?}");
        for leg in way.windows(2) {
            assert!(sim.query_visibility(leg[0], leg[1], 2.0), "{leg:?}");
        }
        let length: f32 = way.windows(2).map(|leg| leg[0].distance(leg[1])).sum();
        let best = (0..roadmap.vertices().len())
            .filter(|&k| sim.query_visibility(position, roadmap.vertices()[k], 2.0))
            .map(|k| position.distance(roadmap.vertices()[k]) + roadmap.distance_to_goal(0, k))
            .fold(f32::INFINITY, f32::min);
        assert!((length - best).abs() < 1e-3 * best, "route {length} m, best total {best} m");
        let heading = roadmap.preferred_velocity(&sim, position, 2.0, 0);
        assert!((heading - (way[1] - position).normalize()).length() < 1e-5);
        // In sight of the goal: straight to it; an unknown goal: no route.
        assert_eq!(roadmap.route(&sim, Vec2::new(-70.0, -70.0), 2.0, 0), [Vec2::new(-70.0, -70.0), goals[0]]);
        assert!(roadmap.route(&sim, position, 2.0, 5).is_empty());
    }

    /// RVO2's loop over every vertex, asking visibility whenever the total beats the best.
    fn target_by_every_vertex(
        roadmap: &Roadmap,
        sim: &Simulator,
        position: Vec2,
        radius: f32,
        goal: usize,
    ) -> Option<usize> {
        let (mut best, mut target) = (f32::INFINITY, None);
        for (j, vertex) in roadmap.vertices.iter().enumerate() {
            let total = exact::length(*vertex - position) + roadmap.distance_to_goal[goal][j];
            if total < best && sim.query_visibility(position, *vertex, radius) {
                best = total;
                target = Some(j);
            }
        }
        target
    }

    /// A city of 49 blocks (196 corner vertices, many totals equal by symmetry) and goals in
    /// its streets and inside a block: every point of a lattice over it, in the streets and
    /// inside the blocks, gets the target of RVO2's loop.
    #[test]
    fn targets_ranked_by_total_are_those_of_rvo2s_loop() {
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        for i in 0..7 {
            for j in 0..7 {
                let (x, y) = (i as f32 * 20.0 + 5.0, j as f32 * 20.0 + 5.0);
                let block =
                    [Vec2::new(x, y), Vec2::new(x + 10.0, y), Vec2::new(x + 10.0, y + 10.0), Vec2::new(x, y + 10.0)];
                sim.add_obstacle(&block).unwrap();
            }
        }
        sim.process_obstacles();
        let goals = [Vec2::new(140.0, 140.0), Vec2::new(0.0, 70.0), Vec2::new(70.0, 70.0), Vec2::new(30.0, 30.0)];
        let roadmap = Roadmap::build(&sim, &goals, &[], 1.5);
        let (mut checked, mut via_corners) = (0, 0);
        for i in 0..71 {
            for j in 0..71 {
                let p = Vec2::new(i as f32 * 2.0, j as f32 * 2.0);
                for goal in 0..goals.len() {
                    let expected = target_by_every_vertex(&roadmap, &sim, p, 1.5, goal);
                    assert_eq!(roadmap.target(&sim, p, 1.5, goal), expected, "at {p} for goal {goal}");
                    checked += 1;
                    via_corners += usize::from(expected.is_some_and(|j| j >= goals.len()));
                }
            }
        }
        assert_eq!(checked, 71 * 71 * 4);
        // Most points do not see their goal: the answer is a corner, picked from many totals.
        assert!(via_corners > checked / 2, "only {via_corners} of {checked} head for a corner");
    }
}
