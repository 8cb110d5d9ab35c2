//! Global navigation in three dimensions: a visibility roadmap around the boxes of a 3-D
//! crowd ([`crate::orca3d`]), the planar [`crate::navigation::Roadmap`] one dimension up.
//!
//! **Vertices.** In the plane, a shortest path around polygons bends only at their corners,
//! so RVO2's Roadmap example puts one vertex beside each. In space a shortest path around a
//! box bends on its *edges*, anywhere along them (over a wall, it crosses the top edge where
//! the straight line would): so the roadmap samples each box's 12 edges, on the box grown by
//! the clearance, at most `edge_spacing` apart, corners included (the edge subdivision of
//! Papadimitriou's approximation of 3-D shortest paths). Moving a path's crossing of an edge
//! to the nearest sample, at most half the spacing away, lengthens it by at most the spacing
//! (triangle inequality on the legs either side), so the roadmap's path is longer than the
//! shortest path round the grown boxes by at most the spacing per edge it crosses (over a
//! wall: within 5 % in the test below). Hand-placed vertices come first; meshes add none of their own
//! (a floor, a terrain needs no detour; place vertices by hand beside a mesh wall). A vertex
//! closer than the clearance to an obstacle (the sampled edge of a box that touches
//! another) is left out.
//!
//! **Edges** join vertices a sphere of the clearance can fly between
//! ([`Simulator::query_visibility`]), found for all pairs on every thread.
//!
//! **Goals** ([`Roadmap3d::add_goals`]) are joined to the vertices they see, and every
//! vertex's shortest distance to each comes from Dijkstra's algorithm started from all of a
//! goal's visible vertices at once; a goal is not a vertex of the others' paths. The search
//! is written here, over the edges stored as one adjacency array, rather than taken from
//! petgraph (which the planar roadmap uses): petgraph's single-source `dijkstra` needs the
//! goal added to a copy of the graph and keeps its distances in a hash map, and that took
//! 10 ms a goal on a city of 1,932 vertices and 368,058 edges (20 s for 2,000 drones with
//! goals of their own; BENCHMARKS.md, "3-D roadmap navigation").
//!
//! **Steering** ([`Roadmap3d::preferred_velocity`]): the planar rule. An agent that sees its
//! goal flies straight at it (RVO2's examples' rule, slowing on arrival); otherwise at unit
//! speed toward the vertex it sees that minimises "distance to the vertex + the vertex's
//! distance to the goal".

use crate::orca3d::{Simulator, Vec3};
use crate::physics3d::Aabb3;
use crate::reference::preferred_velocity_toward3d;
use crate::Error;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

/// The most vertices a roadmap may have: its build tests every pair for visibility.
pub const MAX_ROADMAP_VERTICES: usize = 5_000;

/// How many of an agent's best candidate vertices are sorted first (then twice as many of
/// the rest, and so on).
const FIRST_CANDIDATES: usize = 16;

/// How much farther than the clearance a box's sampled edges lie from its faces: a vertex,
/// and the segment between two vertices on one face, must be strictly clear of the box
/// (touching blocks), whatever the rounding of the grown box's coordinates.
const CLEARANCE_SLACK: f32 = 1.01;
const CLEARANCE_SLACK_ABSOLUTE: f32 = 1e-3;

/// A 3-D roadmap: vertices, the edges between mutually visible ones, and for each goal
/// added, every vertex's shortest distance to it.
#[derive(Clone, Debug)]
pub struct Roadmap3d {
    vertices: Vec<Vec3>,
    /// The edges as adjacency lists in one array: vertex `k`'s neighbours and the lengths of
    /// the edges to them are `neighbors[offsets[k]..offsets[k + 1]]`.
    offsets: Vec<u32>,
    neighbors: Vec<(u32, f32)>,
    clearance: f32,
    goals: Vec<Route>,
    /// Each goal's number, by its coordinates' bits.
    goal_numbers: HashMap<[u32; 3], usize>,
}

/// One goal: where it is, and each vertex's shortest roadmap distance to it (infinite when
/// none reaches it).
#[derive(Clone, Debug)]
struct Route {
    goal: Vec3,
    distance: Vec<f32>,
}

impl Roadmap3d {
    /// Builds the roadmap over the simulator's live obstacles: `extra_vertices` first, then
    /// every box's edges sampled at most `edge_spacing` (m) apart, each at `clearance` (m,
    /// a little more) from the box's two faces (see the module's account). Add the goals with
    /// [`Roadmap3d::add_goal`].
    ///
    /// Errors on a clearance that is not finite and positive, an edge spacing that is not
    /// finite and positive, a non-finite extra vertex, or more than
    /// [`MAX_ROADMAP_VERTICES`] vertices (sample more sparsely).
    pub fn build(
        sim: &Simulator,
        extra_vertices: &[Vec3],
        clearance: f32,
        edge_spacing: f32,
    ) -> Result<Roadmap3d, Error> {
        if !(clearance.is_finite() && clearance > 0.0) {
            return Err(Error::OutOfRange {
                what: "roadmap clearance",
                requirement: "finite and > 0",
                value: clearance,
            });
        }
        if !(edge_spacing.is_finite() && edge_spacing > 0.0) {
            let requirement = "finite and > 0";
            return Err(Error::OutOfRange { what: "roadmap edge spacing", requirement, value: edge_spacing });
        }
        for v in extra_vertices {
            Error::check_finite_vec3("roadmap vertex", *v)?;
        }
        let mut candidates: Vec<Vec3> = extra_vertices.to_vec();
        for (id, _) in sim.obstacles() {
            if let Ok(Some(solid)) = sim.obstacle_box(id) {
                let count = box_vertex_count(&solid, clearance, edge_spacing);
                if candidates.len() + count > MAX_ROADMAP_VERTICES {
                    return Err(too_many(candidates.len() + count));
                }
                candidates.extend(box_vertices(&solid, clearance, edge_spacing));
            }
        }
        if candidates.len() > MAX_ROADMAP_VERTICES {
            return Err(too_many(candidates.len()));
        }
        // Clear of every obstacle, once each (boxes that meet give some points twice).
        let mut seen = HashSet::new();
        let clear: Vec<bool> = candidates.par_iter().map(|&v| sim.query_visibility(v, v, clearance)).collect();
        let vertices: Vec<Vec3> = candidates
            .iter()
            .zip(clear)
            .filter(|&(v, clear)| clear && seen.insert(v.to_array().map(f32::to_bits)))
            .map(|(v, _)| *v)
            .collect();
        let edges: Vec<(u32, u32, f32)> = (0..vertices.len())
            .into_par_iter()
            .flat_map_iter(|i| {
                let vertices = &vertices;
                ((i + 1)..vertices.len()).filter_map(move |j| {
                    let (a, b) = (vertices[i], vertices[j]);
                    sim.query_visibility(a, b, clearance).then(|| (i as u32, j as u32, a.distance(b)))
                })
            })
            .collect();
        // Each edge in both of its vertices' lists, in the order found.
        let mut offsets = vec![0u32; vertices.len() + 1];
        for &(i, j, _) in &edges {
            offsets[i as usize + 1] += 1;
            offsets[j as usize + 1] += 1;
        }
        for k in 0..vertices.len() {
            offsets[k + 1] += offsets[k];
        }
        let mut cursor = offsets.clone();
        let mut neighbors = vec![(0u32, 0.0f32); 2 * edges.len()];
        for &(i, j, length) in &edges {
            for (from, to) in [(i, j), (j, i)] {
                neighbors[cursor[from as usize] as usize] = (to, length);
                cursor[from as usize] += 1;
            }
        }
        Ok(Roadmap3d { vertices, offsets, neighbors, clearance, goals: Vec::new(), goal_numbers: HashMap::new() })
    }

    /// Vertex `k`'s neighbours and the lengths of the edges to them.
    fn adjacent(&self, k: usize) -> &[(u32, f32)] {
        &self.neighbors[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }

    /// Adds a goal, joined to every vertex it sees with the roadmap's clearance, and finds
    /// each vertex's shortest distance to it; its number for
    /// [`Roadmap3d::preferred_velocity`]. A goal added before at the same point gives its
    /// number again. Errors on a non-finite goal.
    pub fn add_goal(&mut self, sim: &Simulator, goal: Vec3) -> Result<usize, Error> {
        Ok(self.add_goals(sim, &[goal])?[0])
    }

    /// [`Roadmap3d::add_goal`] for many goals at once, their searches spread over the
    /// threads; their numbers, in order. All or nothing: a non-finite goal adds none.
    pub fn add_goals(&mut self, sim: &Simulator, goals: &[Vec3]) -> Result<Vec<usize>, Error> {
        for &goal in goals {
            Error::check_finite_vec3("roadmap goal", goal)?;
        }
        let key = |goal: Vec3| goal.to_array().map(f32::to_bits);
        let mut new = Vec::new();
        let numbers: Vec<usize> = goals
            .iter()
            .map(|&goal| {
                let next = self.goals.len() + new.len();
                *self.goal_numbers.entry(key(goal)).or_insert_with(|| {
                    new.push(goal);
                    next
                })
            })
            .collect();
        let routes: Vec<Route> =
            new.par_iter().map(|&goal| Route { goal, distance: self.distances_to(sim, goal) }).collect();
        self.goals.extend(routes);
        Ok(numbers)
    }

    /// Every vertex's shortest roadmap distance to `goal` (infinite where none): Dijkstra
    /// started from every vertex the goal sees, at its distance from the goal.
    fn distances_to(&self, sim: &Simulator, goal: Vec3) -> Vec<f32> {
        let mut distance = vec![f32::INFINITY; self.vertices.len()];
        // Distances are finite and not negative: their bits order as they do.
        let mut heap = BinaryHeap::new();
        for (k, &v) in self.vertices.iter().enumerate() {
            if sim.query_visibility(goal, v, self.clearance) {
                distance[k] = goal.distance(v);
                heap.push(Reverse((distance[k].to_bits(), k as u32)));
            }
        }
        while let Some(Reverse((bits, k))) = heap.pop() {
            let here = f32::from_bits(bits);
            if here > distance[k as usize] {
                continue; // reached by a shorter way since it was queued
            }
            for &(j, length) in self.adjacent(k as usize) {
                let through = here + length;
                if through < distance[j as usize] {
                    distance[j as usize] = through;
                    heap.push(Reverse((through.to_bits(), j)));
                }
            }
        }
        distance
    }

    /// The vertices: the hand-placed ones that are clear, then the boxes' edge samples.
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The edges, as pairs of indices into [`Roadmap3d::vertices`] (goals' edges left out).
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.vertices.len()).flat_map(move |k| {
            self.adjacent(k).iter().filter(move |&&(j, _)| j as usize > k).map(move |&(j, _)| (k, j as usize))
        })
    }

    /// The clearance it was built for (m).
    pub fn clearance(&self) -> f32 {
        self.clearance
    }

    /// The goals added, in order.
    pub fn goals(&self) -> impl ExactSizeIterator<Item = Vec3> + '_ {
        self.goals.iter().map(|route| route.goal)
    }

    /// The shortest roadmap distance (m) from vertex `vertex` to goal `goal`: infinite when
    /// no path joins them or either number is out of range.
    pub fn distance_to_goal(&self, goal: usize, vertex: usize) -> f32 {
        self.goals.get(goal).and_then(|route| route.distance.get(vertex)).copied().unwrap_or(f32::INFINITY)
    }

    /// The preferred velocity of an agent of `radius` at `position` bound for goal number
    /// `goal` (see the module's account): straight at the goal (at most 1 m/s,
    /// [`preferred_velocity_toward3d`]) when it sees it, else at 1 m/s toward the best vertex
    /// it sees. An agent that sees neither (pressed into an obstacle's reach, or cut off)
    /// flies straight at the goal, as without a roadmap; zero for a goal never added.
    ///
    /// Sight is tested with the radius a thousandth smaller: an agent the obstacle planes
    /// hold at its radius from a wall touches it up to rounding, and would see nothing.
    pub fn preferred_velocity(&self, sim: &Simulator, position: Vec3, radius: f32, goal: usize) -> Vec3 {
        self.preferred_velocity_with(sim, position, radius, goal, &mut Vec::new())
    }

    /// [`Roadmap3d::preferred_velocity`] with a reusable scratch list (a caller steering many
    /// agents allocates it once).
    pub fn preferred_velocity_with(
        &self,
        sim: &Simulator,
        position: Vec3,
        radius: f32,
        goal: usize,
        scratch: &mut Vec<(f32, u32)>,
    ) -> Vec3 {
        let Some(route) = self.goals.get(goal) else { return Vec3::ZERO };
        match self.target(sim, position, radius, route, scratch) {
            Some(k) => (self.vertices[k] - position).normalize_or_zero(),
            None => preferred_velocity_toward3d(route.goal, position),
        }
    }

    /// The way an agent of `radius` at `position` means to fly to goal number `goal`: its
    /// position, the vertex it heads for ([`Roadmap3d::preferred_velocity`]'s), the roadmap's
    /// shortest path from there, and the goal; `[position, goal]` when it flies straight.
    /// Empty for a goal never added. What the viewer draws to show why an agent flies where
    /// it does.
    pub fn route(&self, sim: &Simulator, position: Vec3, radius: f32, goal: usize) -> Vec<Vec3> {
        let Some(route) = self.goals.get(goal) else { return Vec::new() };
        let mut way = vec![position];
        let mut at = self.target(sim, position, radius, route, &mut Vec::new());
        // Down the shortest path: from each vertex, the neighbour (or the goal) through which
        // its distance was found. A path visits each vertex once, so the guard never fires on
        // a consistent roadmap.
        while let Some(k) = at.filter(|_| way.len() <= self.vertices.len()) {
            way.push(self.vertices[k]);
            // No path is shorter than the straight line: one as short is the goal's own edge.
            let here = route.distance[k];
            if here <= self.vertices[k].distance(route.goal) {
                break;
            }
            at = self
                .adjacent(k)
                .iter()
                .map(|&(j, length)| (length + route.distance[j as usize], j as usize))
                .filter(|&(through, j)| route.distance[j] < here && through.is_finite())
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .map(|(_, j)| j);
        }
        way.push(route.goal);
        way
    }

    /// The vertex an agent heads for: `None` when it sees its goal (or nothing at all).
    fn target(
        &self,
        sim: &Simulator,
        position: Vec3,
        radius: f32,
        route: &Route,
        scratch: &mut Vec<(f32, u32)>,
    ) -> Option<usize> {
        let sight = radius * 0.999;
        // Most candidates out of sight are hidden by the box that hid the last one.
        let mut hint = usize::MAX;
        let mut in_sight = |v: Vec3| sim.query_visibility_hinted(position, v, sight, &mut hint);
        if in_sight(route.goal) {
            return None;
        }
        scratch.clear();
        for (k, (&v, &rest)) in self.vertices.iter().zip(&route.distance).enumerate() {
            let away = v.distance(position);
            // A vertex the agent stands on gives no direction; the next one on the path has
            // the same total.
            if rest.is_finite() && away > 1e-3 {
                scratch.push((away + rest, k as u32));
            }
        }
        // In order of total, the first in sight. It is nearly always among the first few: so
        // the first 16 are picked out and sorted, then (none in sight) the next 32, 64, …,
        // rather than all of them sorted (a quarter of a city crowd's steering time went to
        // sorting).
        let order = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        let (mut rest, mut batch) = (&mut scratch[..], FIRST_CANDIDATES);
        while !rest.is_empty() {
            let first = batch.min(rest.len());
            if first < rest.len() {
                rest.select_nth_unstable_by(first, order);
            }
            let (head, tail) = rest.split_at_mut(first);
            head.sort_unstable_by(order);
            if let Some(&(_, k)) = head.iter().find(|&&(_, k)| in_sight(self.vertices[k as usize])) {
                return Some(k as usize);
            }
            (rest, batch) = (tail, 2 * batch);
        }
        None
    }
}

fn too_many(count: usize) -> Error {
    Error::OutOfRange {
        what: "roadmap vertex count (sample the box edges more sparsely)",
        requirement: "at most 5000",
        value: count as f32,
    }
}

/// The box `solid` grown by a little more than `clearance` on every side.
fn grown(solid: &Aabb3, clearance: f32) -> Aabb3 {
    let c = Vec3::splat(clearance * CLEARANCE_SLACK + CLEARANCE_SLACK_ABSOLUTE);
    Aabb3 { min: solid.min - c, max: solid.max + c }
}

/// How many points an edge of `length` is cut into at most `spacing` apart (its segments).
fn segments(length: f32, spacing: f32) -> usize {
    // At least one (also for a NaN quotient: `max` drops it); the cap keeps a huge box from
    // asking for more than a `usize` (the roadmap then refuses it by its vertex count).
    (length / spacing).ceil().max(1.0).min((MAX_ROADMAP_VERTICES + 1) as f32) as usize
}

/// How many points [`box_vertices`] gives (without building them: a scenario file's check).
pub fn box_vertex_count(solid: &Aabb3, clearance: f32, spacing: f32) -> usize {
    let size = grown(solid, clearance).max - grown(solid, clearance).min;
    8 + 4 * (0..3).map(|axis| segments(size[axis], spacing) - 1).sum::<usize>()
}

/// The roadmap points of a box: the 8 corners of the box grown by the clearance (a little
/// more), then the points that cut each of its 12 edges into equal pieces at most `spacing`
/// long, edge after edge.
pub fn box_vertices(solid: &Aabb3, clearance: f32, spacing: f32) -> Vec<Vec3> {
    let g = grown(solid, clearance);
    let corner = |k: usize| {
        Vec3::new(
            if k & 1 == 0 { g.min.x } else { g.max.x },
            if k & 2 == 0 { g.min.y } else { g.max.y },
            if k & 4 == 0 { g.min.z } else { g.max.z },
        )
    };
    let mut out: Vec<Vec3> = (0..8).map(corner).collect();
    for axis in 0..3 {
        let n = segments(g.max[axis] - g.min[axis], spacing);
        // The four edges along `axis` start at the corners whose `axis` bit is clear.
        for k in (0..8).filter(|k| k & (1 << axis) == 0) {
            let (from, to) = (corner(k), corner(k | 1 << axis));
            out.extend((1..n).map(|i| from.lerp(to, i as f32 / n as f32)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orca3d::AgentParams;

    /// A wall at x = 0 (2 m thick, 40 m wide, 20 m high) with a 6 m square window at
    /// y = 10, z = 10, off the straight line from (−20, 0, 10) to (20, 0, 10).
    fn wall_with_window() -> Simulator {
        let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
        let boxes = [
            ([-1.0, -20.0, 0.0], [1.0, 20.0, 7.0]),
            ([-1.0, -20.0, 13.0], [1.0, 20.0, 20.0]),
            ([-1.0, -20.0, 7.0], [1.0, 7.0, 13.0]),
            ([-1.0, 13.0, 7.0], [1.0, 20.0, 13.0]),
        ];
        for (min, max) in boxes {
            sim.add_box_obstacle(Vec3::from(min), Vec3::from(max)).unwrap();
        }
        sim
    }

    #[test]
    fn box_vertices_sample_every_edge_at_most_the_spacing_apart_beyond_the_clearance() {
        let solid = Aabb3 { min: Vec3::ZERO, max: Vec3::new(10.0, 2.0, 4.0) };
        let points = box_vertices(&solid, 1.0, 3.0);
        assert_eq!(points.len(), box_vertex_count(&solid, 1.0, 3.0));
        for p in &points {
            // On an edge of the grown box: beyond the clearance along two or three axes.
            let outside = (0..3).filter(|&a| p[a] < solid.min[a] - 1.0 || p[a] > solid.max[a] + 1.0).count();
            assert!(outside >= 2, "{p} is not on an edge of the grown box");
            let distance = p.distance(p.clamp(solid.min, solid.max));
            assert!(distance > 1.0 * 2f32.sqrt(), "{p} is {distance} m from the box");
        }
        // Along each edge, neighbours are at most the spacing apart: the longest edge (12.02 m
        // grown) is cut into 5 pieces, so 4 points inside each of its 4 copies.
        let along_x = points.iter().filter(|p| p.x > -1.0 && p.x < 11.0).count();
        assert_eq!(along_x, 4 * 4);
    }

    #[test]
    fn a_goal_behind_the_wall_is_reached_through_the_window_and_the_path_never_touches_the_wall() {
        let sim = wall_with_window();
        let mut roadmap = Roadmap3d::build(&sim, &[], 1.0, 2.0).unwrap();
        assert!(roadmap.vertices().iter().all(|&v| sim.query_visibility(v, v, 1.0)));
        let (start, goal_point) = (Vec3::new(-20.0, 0.0, 10.0), Vec3::new(20.0, 0.0, 10.0));
        assert!(!sim.query_visibility(start, goal_point, 0.5));
        let goal = roadmap.add_goal(&sim, goal_point).unwrap();
        assert_eq!(roadmap.add_goal(&sim, goal_point).unwrap(), goal, "the same goal twice");
        // Shortest distances are no shorter than the straight line, and finite: the window
        // joins the two sides.
        for (k, v) in roadmap.vertices().iter().enumerate() {
            let d = roadmap.distance_to_goal(goal, k);
            assert!(d.is_finite(), "vertex {k} at {v} cannot reach the goal");
            assert!(d >= v.distance(goal_point) * (1.0 - 1e-6), "shorter than the straight line");
        }
        // The route: from the start to the goal through the window, each leg a clear flight,
        // as long as the best total the agent steers by, and heading where the agent does.
        let way = roadmap.route(&sim, start, 0.5, goal);
        assert!(way.len() >= 3 && way[0] == start && *way.last().unwrap() == goal_point, "{way:?}");
        for leg in way.windows(2) {
            assert!(sim.query_visibility(leg[0], leg[1], 0.5 * 0.999), "{leg:?}");
        }
        let length: f32 = way.windows(2).map(|leg| leg[0].distance(leg[1])).sum();
        let best = (0..roadmap.vertices().len())
            .filter(|&k| sim.query_visibility(start, roadmap.vertices()[k], 0.5 * 0.999))
            .map(|k| start.distance(roadmap.vertices()[k]) + roadmap.distance_to_goal(goal, k))
            .fold(f32::INFINITY, f32::min);
        assert!((length - best).abs() < 1e-3 * best, "route {length} m, best total {best} m");
        let heading = roadmap.preferred_velocity(&sim, start, 0.5, goal);
        assert!((heading - (way[1] - start).normalize()).length() < 1e-6);
        let through = way.iter().filter(|v| v.x.abs() <= 2.0).collect::<Vec<_>>();
        assert!(through.iter().all(|v| (v.y - 10.0).abs() < 3.0 && (v.z - 10.0).abs() < 3.0), "{way:?}");
        assert_eq!(roadmap.route(&sim, goal_point - Vec3::X, 0.5, goal), [goal_point - Vec3::X, goal_point]);
        assert!(roadmap.route(&sim, start, 0.5, goal + 1).is_empty());
        // Following the preferred velocity flies through the window (|y − 10| < 3) and never
        // comes within the radius of the wall.
        let (mut p, mut crossed_at) = (start, None);
        for _ in 0..800 {
            let v = roadmap.preferred_velocity(&sim, p, 0.5, goal);
            assert!(v.length() <= 1.0 + 1e-5);
            let next = p + v * 0.25;
            if p.x < 0.0 && next.x >= 0.0 {
                crossed_at = Some(next);
            }
            p = next;
            assert!(sim.query_visibility(p, p, 0.5 * 0.99), "flew into the wall at {p}");
        }
        let crossed = crossed_at.expect("never crossed the wall");
        assert!((crossed.y - 10.0).abs() < 3.0 && (crossed.z - 10.0).abs() < 3.0, "crossed at {crossed}");
        assert!(p.distance(goal_point) < 0.1, "ended at {p}");
        // Straight at a goal in sight, slowing on arrival.
        let near = goal_point - Vec3::new(0.5, 0.0, 0.0);
        assert_eq!(roadmap.preferred_velocity(&sim, near, 0.5, goal), Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(roadmap.preferred_velocity(&sim, near, 0.5, goal + 1), Vec3::ZERO);
    }

    #[test]
    fn the_path_length_is_near_the_true_shortest_over_the_wall() {
        // One wall 2 m thick, 10 m high and very wide: from 10 m in front to 10 m behind, at
        // height 5, the shortest path for a sphere of clearance 1 goes over the top edge
        // (through z = 11): 2 · √(9² + 6²) + 2 ≈ 23.6 m, not round the ends.
        let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
        sim.add_box_obstacle(Vec3::new(-1.0, -100.0, 0.0), Vec3::new(1.0, 100.0, 10.0)).unwrap();
        let mut roadmap = Roadmap3d::build(&sim, &[], 1.0, 2.0).unwrap();
        let goal_point = Vec3::new(10.0, 0.0, 5.0);
        let goal = roadmap.add_goal(&sim, goal_point).unwrap();
        let start = Vec3::new(-10.0, 0.0, 5.0);
        let best = (0..roadmap.vertices().len())
            .filter(|&k| sim.query_visibility(start, roadmap.vertices()[k], 1.0))
            .map(|k| start.distance(roadmap.vertices()[k]) + roadmap.distance_to_goal(goal, k))
            .fold(f32::INFINITY, f32::min);
        let shortest = 2.0 * (9.0f32 * 9.0 + 6.0 * 6.0).sqrt() + 2.0;
        assert!(best >= shortest * 0.999 && best < shortest * 1.05, "roadmap path {best} m, shortest {shortest} m");
    }

    #[test]
    fn bad_arguments_are_errors_and_a_dense_sampling_is_refused() {
        let sim = wall_with_window();
        assert!(Roadmap3d::build(&sim, &[], 0.0, 1.0).is_err());
        assert!(Roadmap3d::build(&sim, &[], f32::NAN, 1.0).is_err());
        assert!(Roadmap3d::build(&sim, &[], 1.0, 0.0).is_err());
        assert!(Roadmap3d::build(&sim, &[], 1.0, f32::INFINITY).is_err());
        assert!(Roadmap3d::build(&sim, &[Vec3::new(f32::NAN, 0.0, 0.0)], 1.0, 1.0).is_err());
        let error = Roadmap3d::build(&sim, &[], 1.0, 0.01).unwrap_err().to_string();
        assert!(error.contains("roadmap vertex count"), "{error}");
        // A clearance that grows the boxes beyond the float range: their edges count as
        // sampled without end, and the roadmap is refused rather than a panic.
        assert!(Roadmap3d::build(&sim, &[], 3e38, 1e38).is_err());
        let unit = Aabb3 { min: Vec3::ZERO, max: Vec3::ONE };
        assert_eq!(box_vertex_count(&unit, f32::MAX, f32::INFINITY), 8);
        let mut roadmap = Roadmap3d::build(&sim, &[], 1.0, 4.0).unwrap();
        assert!(roadmap.add_goal(&sim, Vec3::new(0.0, f32::INFINITY, 0.0)).is_err());
        assert_eq!(roadmap.goals().len(), 0);
    }

    #[test]
    fn hand_placed_vertices_come_first_and_ones_inside_an_obstacle_are_left_out() {
        let sim = wall_with_window();
        let inside = Vec3::new(0.0, 0.0, 3.0);
        let free = Vec3::new(-5.0, 0.0, 10.0);
        let roadmap = Roadmap3d::build(&sim, &[free, inside], 1.0, 4.0).unwrap();
        assert_eq!(roadmap.vertices()[0], free);
        assert!(!roadmap.vertices().contains(&inside));
        // Every edge is a clear flight, and each edge's ends differ.
        for (a, b) in roadmap.edges() {
            assert_ne!(a, b);
            assert!(sim.query_visibility(roadmap.vertices()[a], roadmap.vertices()[b], 1.0));
        }
    }
}
