//! Run metrics: arrival, collisions, separation, path efficiency, speed, ball energy.
//!
//! A [`MetricsRecorder`] watches a run frame by frame (the [`crate::scenario::Runner`] feeds
//! one) and [`MetricsRecorder::metrics`] summarises it. Overlaps are counted per frame and pair,
//! beyond [`OVERLAP_TOLERANCE`] so that `f32` rounding at contact is not counted.

use crate::spatial::PolygonGrid;
use crate::{AgentId, Vec2};
use serde::{Deserialize, Serialize};

/// Penetration (m) below which touching discs do not count as overlapping: ORCA keeps agents
/// apart up to `f32` rounding, which leaves gaps of about 1e-6 m at contact.
pub const OVERLAP_TOLERANCE: f32 = 1e-4;

/// Per-agent results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentMetrics {
    /// The agent's id.
    pub id: u32,
    /// Its group index.
    pub group: u32,
    /// Seconds from its appearance until it first came within the goal tolerance.
    pub time_to_goal: Option<f32>,
    /// Distance travelled until arrival (or the end of the run) (m).
    pub path_length: f32,
    /// The shortest way to arrive: straight-line distance from the start to the goal minus the
    /// goal tolerance (m; arrival counts once within the tolerance).
    pub straight_line: f32,
    /// `path_length / straight_line` (≥ 1) for agents that arrived and had somewhere to go.
    pub path_length_ratio: Option<f32>,
}

/// Ball-world results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallMetrics {
    /// Number of balls.
    pub count: usize,
    /// Kinetic energy at the start (J).
    pub kinetic_energy_initial: f64,
    /// Kinetic energy at the end (J).
    pub kinetic_energy_final: f64,
    /// Largest |E(t) − E(0)| / E(0) over the run (0 for elastic collisions without loss).
    pub kinetic_energy_max_relative_change: f64,
    /// Frame-pairs of overlapping balls.
    pub overlaps: u64,
    /// Deepest ball-ball penetration (m).
    pub max_penetration: f32,
    /// Frame-pairs of an agent overlapping a ball.
    #[serde(default)]
    pub agent_overlaps: u64,
    /// Deepest agent-ball penetration (m).
    #[serde(default)]
    pub max_agent_penetration: f32,
}

/// Summary of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Steps run.
    pub steps: usize,
    /// Simulated time (s).
    pub simulated_time: f32,
    /// Agents that took part (including spawned and removed ones).
    pub agents: usize,
    /// Agents that reached their goal.
    pub arrived: usize,
    /// Agents that never reached their goal.
    pub never_arrived: usize,
    /// Mean time to goal over arrived agents (s).
    pub time_to_goal_mean: Option<f32>,
    /// Largest time to goal (s).
    pub time_to_goal_max: Option<f32>,
    /// The tolerance used for overlap counts (m).
    pub overlap_tolerance: f32,
    /// Frame-pairs of overlapping agents.
    pub agent_overlaps: u64,
    /// Deepest agent-agent penetration (m; 0 when none).
    pub max_agent_penetration: f32,
    /// Frame-agent pairs overlapping an obstacle edge.
    pub obstacle_overlaps: u64,
    /// Deepest agent-obstacle penetration (m).
    pub max_obstacle_penetration: f32,
    /// Smallest surface-to-surface gap between two agents over the run (m; negative when
    /// they overlapped).
    pub min_separation: Option<f32>,
    /// Smallest gap between an agent and an obstacle edge (m).
    pub min_obstacle_clearance: Option<f32>,
    /// Frame-agent pairs overlapping a mover (a scenario's `[[movers]]`).
    #[serde(default)]
    pub mover_overlaps: u64,
    /// Smallest gap between an agent's and a mover's edges over the run (m; negative when
    /// they overlapped; `None` without movers).
    #[serde(default)]
    pub min_mover_clearance: Option<f32>,
    /// Mean path length over arrived agents (m).
    pub path_length_mean: Option<f32>,
    /// Mean path-length ratio over arrived agents (1 = straight line).
    pub path_length_ratio_mean: Option<f32>,
    /// Largest path-length ratio.
    pub path_length_ratio_max: Option<f32>,
    /// Mean speed of agents on their way (not yet arrived), over all their frames (m/s).
    pub mean_speed: Option<f32>,
    /// Ball-world results, when the scene has balls.
    pub balls: Option<BallMetrics>,
    /// Per-agent results, by id.
    pub per_agent: Vec<AgentMetrics>,
}

#[derive(Clone, Debug)]
struct Track {
    group: u32,
    start: Vec2,
    goal: Vec2,
    tolerance: f32,
    appeared: f32,
    arrival: Option<f32>,
    path_length: f64,
    last: Vec2,
}

/// Accumulates metrics frame by frame.
#[derive(Clone, Debug)]
pub struct MetricsRecorder {
    steps: usize,
    time: f32,
    /// The obstacles' edges by grid cell.
    obstacles: PolygonGrid,
    tracks: Vec<Option<Track>>,
    agent_overlaps: u64,
    max_agent_penetration: f32,
    obstacle_overlaps: u64,
    max_obstacle_penetration: f32,
    min_separation: f32,
    min_obstacle_clearance: f32,
    mover_overlaps: u64,
    min_mover_clearance: f32,
    speed_sum: f64,
    speed_samples: u64,
    balls: Option<BallMetrics>,
    order: Vec<u32>,
    pairs: PairScratch,
    radii: Vec<f32>,
}

impl MetricsRecorder {
    /// A recorder for a scene with these obstacle polygons.
    pub fn new(obstacles: &[Vec<Vec2>]) -> MetricsRecorder {
        MetricsRecorder {
            steps: 0,
            time: 0.0,
            obstacles: PolygonGrid::new(obstacles),
            tracks: Vec::new(),
            agent_overlaps: 0,
            max_agent_penetration: 0.0,
            obstacle_overlaps: 0,
            max_obstacle_penetration: 0.0,
            min_separation: f32::INFINITY,
            min_obstacle_clearance: f32::INFINITY,
            mover_overlaps: 0,
            min_mover_clearance: f32::INFINITY,
            speed_sum: 0.0,
            speed_samples: 0,
            balls: None,
            order: Vec::new(),
            pairs: PairScratch::default(),
            radii: Vec::new(),
        }
    }

    /// Replaces the obstacle polygons: the observations from now on measure overlaps and
    /// clearance against these only (after an obstacle was removed, the ones left); what was
    /// recorded so far stays.
    pub fn set_obstacles(&mut self, obstacles: &[Vec<Vec2>]) {
        self.obstacles = PolygonGrid::new(obstacles);
    }

    /// Registers an agent when it appears at `time` (s); it arrives once within `tolerance`
    /// (m) of `goal`.
    pub fn add_agent(&mut self, id: AgentId, group: u32, position: Vec2, goal: Vec2, tolerance: f32, time: f32) {
        let k = id.0 as usize;
        if self.tracks.len() <= k {
            self.tracks.resize(k + 1, None);
        }
        let arrival = (position.distance(goal) <= tolerance).then_some(0.0);
        self.tracks[k] = Some(Track {
            group,
            start: position,
            goal,
            tolerance,
            appeared: time,
            arrival,
            path_length: 0.0,
            last: position,
        });
    }

    /// Whether agent `id` has reached its goal at some frame.
    pub fn has_arrived(&self, id: AgentId) -> bool {
        self.tracks.get(id.0 as usize).and_then(Option::as_ref).is_some_and(|t| t.arrival.is_some())
    }

    /// Observes the agents after a step (or at time 0 with `stepped = false`): `radius_by_id`
    /// is indexed by agent id.
    pub fn observe_agents(
        &mut self,
        time: f32,
        stepped: bool,
        ids: &[AgentId],
        positions: &[Vec2],
        velocities: &[Vec2],
        radius_by_id: &[f32],
    ) {
        if stepped {
            self.steps += 1;
        }
        self.time = time;
        let mut radii = std::mem::take(&mut self.radii);
        radii.clear();
        radii.extend(ids.iter().map(|id| radius_by_id.get(id.0 as usize).copied().unwrap_or(0.0)));
        for ((id, p), v) in ids.iter().zip(positions).zip(velocities) {
            let Some(Some(track)) = self.tracks.get_mut(id.0 as usize) else { continue };
            if track.arrival.is_none() {
                track.path_length += f64::from(track.last.distance(*p));
                if stepped {
                    self.speed_sum += f64::from(v.length());
                    self.speed_samples += 1;
                }
                if p.distance(track.goal) <= track.tolerance {
                    track.arrival = Some(time - track.appeared);
                }
            }
            track.last = *p;
        }
        let (overlaps, deepest, closest) = pair_sweep(positions, &radii, &mut self.pairs);
        self.agent_overlaps += overlaps;
        self.max_agent_penetration = self.max_agent_penetration.max(deepest);
        self.min_separation = self.min_separation.min(closest);
        let edges = EdgeFigures::of(&self.obstacles, positions, &radii);
        self.min_obstacle_clearance = self.min_obstacle_clearance.min(edges.closest);
        self.obstacle_overlaps += edges.overlaps;
        self.max_obstacle_penetration = self.max_obstacle_penetration.max(edges.deepest);
        self.radii = radii;
    }

    /// Observes the agents against the movers (each a centre and a radius) in the same frame
    /// as [`MetricsRecorder::observe_agents`]: every agent-mover pair (a scene has few movers).
    pub fn observe_movers(
        &mut self,
        ids: &[AgentId],
        positions: &[Vec2],
        radius_by_id: &[f32],
        movers: &[(Vec2, f32)],
    ) {
        for &(centre, mover_radius) in movers {
            for (id, p) in ids.iter().zip(positions) {
                let r = radius_by_id.get(id.0 as usize).copied().unwrap_or(0.0);
                let gap = p.distance(centre) - r - mover_radius;
                self.min_mover_clearance = self.min_mover_clearance.min(gap);
                if -gap > OVERLAP_TOLERANCE {
                    self.mover_overlaps += 1;
                }
            }
        }
    }

    /// Observes the balls (positions, radii, total kinetic energy in J).
    pub fn observe_balls(&mut self, positions: &[Vec2], radii: &[f32], kinetic_energy: f64) {
        let (overlaps, deepest, _) = pair_sweep(positions, radii, &mut self.pairs);
        let balls = self.balls.get_or_insert(BallMetrics {
            count: positions.len(),
            kinetic_energy_initial: kinetic_energy,
            kinetic_energy_final: kinetic_energy,
            kinetic_energy_max_relative_change: 0.0,
            overlaps: 0,
            max_penetration: 0.0,
            agent_overlaps: 0,
            max_agent_penetration: 0.0,
        });
        balls.kinetic_energy_final = kinetic_energy;
        if balls.kinetic_energy_initial > 0.0 {
            let change = (kinetic_energy - balls.kinetic_energy_initial).abs() / balls.kinetic_energy_initial;
            balls.kinetic_energy_max_relative_change = balls.kinetic_energy_max_relative_change.max(change);
        }
        balls.overlaps += overlaps;
        balls.max_penetration = balls.max_penetration.max(deepest);
    }

    /// Counts agents overlapping balls (call after [`MetricsRecorder::observe_balls`] for the
    /// same frame). Balls are searched by x within reach of each agent.
    pub fn observe_agent_ball_contacts(
        &mut self,
        ids: &[AgentId],
        positions: &[Vec2],
        radius_by_id: &[f32],
        balls: &[Vec2],
        ball_radii: &[f32],
    ) {
        let Some(metrics) = self.balls.as_mut() else { return };
        self.order.clear();
        self.order.extend(0..balls.len() as u32);
        self.order.sort_unstable_by(|&a, &b| balls[a as usize].x.total_cmp(&balls[b as usize].x));
        let r_max = ball_radii.iter().copied().fold(0.0f32, f32::max);
        for (id, p) in ids.iter().zip(positions) {
            let r = radius_by_id.get(id.0 as usize).copied().unwrap_or(0.0);
            let first = self.order.partition_point(|&b| balls[b as usize].x < p.x - r - r_max);
            for &b in &self.order[first..] {
                let q = balls[b as usize];
                if q.x > p.x + r + r_max {
                    break;
                }
                let gap = p.distance(q) - (r + ball_radii[b as usize]);
                if -gap > OVERLAP_TOLERANCE {
                    metrics.agent_overlaps += 1;
                    metrics.max_agent_penetration = metrics.max_agent_penetration.max(-gap);
                }
            }
        }
    }

    /// The summary so far.
    pub fn metrics(&self) -> Metrics {
        let per_agent: Vec<AgentMetrics> = self
            .tracks
            .iter()
            .enumerate()
            .filter_map(|(id, t)| t.as_ref().map(|t| (id, t)))
            .map(|(id, t)| {
                let straight_line = (t.start.distance(t.goal) - t.tolerance).max(0.0);
                let path_length = t.path_length as f32;
                AgentMetrics {
                    id: id as u32,
                    group: t.group,
                    time_to_goal: t.arrival,
                    path_length,
                    straight_line,
                    path_length_ratio: (t.arrival.is_some() && straight_line > 0.0)
                        .then(|| path_length / straight_line),
                }
            })
            .collect();
        let arrived: Vec<&AgentMetrics> = per_agent.iter().filter(|a| a.time_to_goal.is_some()).collect();
        let mean = |values: Vec<f32>| (!values.is_empty()).then(|| values.iter().sum::<f32>() / values.len() as f32);
        let max = |values: Vec<f32>| values.into_iter().reduce(f32::max);
        let times = || arrived.iter().filter_map(|a| a.time_to_goal).collect::<Vec<_>>();
        let ratios = || per_agent.iter().filter_map(|a| a.path_length_ratio).collect::<Vec<_>>();
        Metrics {
            steps: self.steps,
            simulated_time: self.time,
            agents: per_agent.len(),
            arrived: arrived.len(),
            never_arrived: per_agent.len() - arrived.len(),
            time_to_goal_mean: mean(times()),
            time_to_goal_max: max(times()),
            overlap_tolerance: OVERLAP_TOLERANCE,
            agent_overlaps: self.agent_overlaps,
            max_agent_penetration: self.max_agent_penetration,
            obstacle_overlaps: self.obstacle_overlaps,
            max_obstacle_penetration: self.max_obstacle_penetration,
            min_separation: self.min_separation.is_finite().then_some(self.min_separation),
            min_obstacle_clearance: self.min_obstacle_clearance.is_finite().then_some(self.min_obstacle_clearance),
            mover_overlaps: self.mover_overlaps,
            min_mover_clearance: self.min_mover_clearance.is_finite().then_some(self.min_mover_clearance),
            path_length_mean: mean(arrived.iter().map(|a| a.path_length).collect()),
            path_length_ratio_mean: mean(ratios()),
            path_length_ratio_max: max(ratios()),
            mean_speed: (self.speed_samples > 0).then(|| (self.speed_sum / self.speed_samples as f64) as f32),
            balls: self.balls.clone(),
            per_agent,
        }
    }
}

/// Discs against obstacle edges: the smallest gap to an edge near (whose box, grown by the
/// radius, holds the centre), the overlaps beyond the tolerance and the deepest one.
#[derive(Clone, Copy)]
struct EdgeFigures {
    closest: f32,
    overlaps: u64,
    deepest: f32,
}

/// From this many discs, their edges are looked at on every thread.
const PARALLEL_EDGE_CHECK: usize = 4096;

impl EdgeFigures {
    const NONE: EdgeFigures = EdgeFigures { closest: f32::INFINITY, overlaps: 0, deepest: 0.0 };

    /// Over the discs at `positions` with `radii` (the smallest, the largest and the count do
    /// not depend on the order, so any split over threads gives the same figures).
    fn of(obstacles: &PolygonGrid, positions: &[Vec2], radii: &[f32]) -> EdgeFigures {
        let one = |(&p, &r): (&Vec2, &f32)| {
            let mut figures = EdgeFigures::NONE;
            obstacles.visit_edges_near(p, r, |a, b| {
                // Only edges whose box, grown by the radius, holds the centre can touch.
                if p.x < a.x.min(b.x) - r || p.x > a.x.max(b.x) + r || p.y < a.y.min(b.y) - r || p.y > a.y.max(b.y) + r
                {
                    return true;
                }
                let gap = crate::geom::distance_to_segment(p, a, b) - r;
                figures.closest = figures.closest.min(gap);
                if -gap > OVERLAP_TOLERANCE {
                    figures.overlaps += 1;
                    figures.deepest = figures.deepest.max(-gap);
                }
                true
            });
            figures
        };
        let both = |x: EdgeFigures, y: EdgeFigures| EdgeFigures {
            closest: x.closest.min(y.closest),
            overlaps: x.overlaps + y.overlaps,
            deepest: x.deepest.max(y.deepest),
        };
        if obstacles.is_empty() {
            EdgeFigures::NONE
        } else if positions.len() >= PARALLEL_EDGE_CHECK {
            use rayon::prelude::*;
            positions.par_iter().zip(radii).map(one).reduce(|| EdgeFigures::NONE, both)
        } else {
            positions.iter().zip(radii).map(one).fold(EdgeFigures::NONE, both)
        }
    }
}

/// A centre the pair search takes: a disc's in the plane, a sphere's in space.
pub(crate) trait Centre: Copy {
    /// 2 in the plane, 3 in space.
    const DIMENSIONS: usize;
    /// The coordinates (a planar centre's z is 0).
    fn coords(self) -> [f32; 3];
    /// The coordinate the sweep sorts by.
    fn x(self) -> f32;
    /// The distance to another centre.
    fn distance(self, other: Self) -> f32;
}

impl Centre for Vec2 {
    const DIMENSIONS: usize = 2;
    fn coords(self) -> [f32; 3] {
        [self.x, self.y, 0.0]
    }
    fn x(self) -> f32 {
        self.x
    }
    fn distance(self, other: Vec2) -> f32 {
        Vec2::distance(self, other)
    }
}

impl Centre for glam::Vec3 {
    const DIMENSIONS: usize = 3;
    fn coords(self) -> [f32; 3] {
        self.to_array()
    }
    fn x(self) -> f32 {
        self.x
    }
    fn distance(self, other: glam::Vec3) -> f32 {
        glam::Vec3::distance(self, other)
    }
}

/// The pair search's scratch, kept between frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairScratch {
    /// The sweep's centres in x order.
    order: Vec<u32>,
    /// The grid's centres, cell by cell: cell `c` holds `sorted[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    sorted: Vec<u32>,
    /// Each centre's cell.
    cells: Vec<u32>,
}

/// Below this many centres the sweep along x is as quick as the grid.
const SWEEP_ONLY: usize = 64;

/// The grid has at most this many cells per centre (a spread-out crowd gets coarser cells).
const CELLS_PER_CENTRE: usize = 4;

/// Every pair of discs (or spheres): (overlapping pairs beyond the tolerance, deepest
/// penetration, smallest surface gap). Exact. A crowd's pairs come from a grid of cells four
/// largest radii wide (each pair of the same or neighbouring cells once): a pair farther apart
/// than a cell is farther than any overlap, and its gap exceeds the smallest one whenever that
/// is within a largest radius, as in any crowd. Otherwise (a sparse few, or a tiny crowd) the
/// sweep along x answers.
pub(crate) fn pair_sweep<P: Centre>(positions: &[P], radii: &[f32], scratch: &mut PairScratch) -> (u64, f32, f32) {
    if positions.len() >= SWEEP_ONLY {
        if let Some(found) = grid_pairs(positions, radii, scratch) {
            return found;
        }
    }
    x_sweep(positions, radii, &mut scratch.order)
}

/// The running figures of a pair search.
struct PairFigures {
    overlaps: u64,
    deepest: f32,
    closest: f32,
}

impl PairFigures {
    #[inline(always)]
    fn pair<P: Centre>(&mut self, positions: &[P], radii: &[f32], i: usize, j: usize) {
        // `d - (ri + rj)` is symmetric in i and j, bit for bit.
        let gap = positions[i].distance(positions[j]) - (radii[i] + radii[j]);
        self.closest = self.closest.min(gap);
        if -gap > OVERLAP_TOLERANCE {
            self.overlaps += 1;
            self.deepest = self.deepest.max(-gap);
        }
    }
}

/// The grid's answer, or `None` when the smallest gap it found is too wide to be sure no pair
/// of farther cells has a smaller one (or there is no positive radius to size cells by).
fn grid_pairs<P: Centre>(positions: &[P], radii: &[f32], scratch: &mut PairScratch) -> Option<(u64, f32, f32)> {
    let r_max = radii.iter().copied().fold(0.0f32, f32::max);
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for p in positions {
        for (axis, c) in p.coords().into_iter().enumerate() {
            lo[axis] = lo[axis].min(c);
            hi[axis] = hi[axis].max(c);
        }
    }
    let extent: [f32; 3] = std::array::from_fn(|a| hi[a] - lo[a]);
    if !(r_max > 0.0 && r_max.is_finite() && extent.iter().all(|e| e.is_finite())) {
        return None;
    }
    // Cells four largest radii wide, coarser when that would make more than
    // `CELLS_PER_CENTRE` cells a centre (a sparse crowd).
    let most = (CELLS_PER_CENTRE * positions.len()) as f32;
    let dims_for = |cell: f32| extent.map(|e| (e / cell).floor() + 1.0);
    let mut cell = 4.0 * r_max;
    while dims_for(cell).iter().product::<f32>() > most {
        cell *= 1.5;
    }
    let dims = dims_for(cell).map(|d| d as usize);
    let inverse = 1.0 / cell;
    let axis_cell = |c: f32, axis: usize| (((c - lo[axis]) * inverse) as usize).min(dims[axis] - 1);
    let count = dims[0] * dims[1] * dims[2];
    let PairScratch { start, sorted, cells, .. } = scratch;
    start.clear();
    start.resize(count + 1, 0);
    cells.clear();
    for p in positions {
        let [x, y, z] = p.coords();
        let c = axis_cell(x, 0) + dims[0] * (axis_cell(y, 1) + dims[1] * axis_cell(z, 2));
        start[c + 1] += 1;
        cells.push(c as u32);
    }
    for c in 0..count {
        start[c + 1] += start[c];
    }
    sorted.clear();
    sorted.resize(positions.len(), 0);
    // Each centre to its cell's next free place, counting `start[c]` up as it goes, then the
    // starts shifted back.
    for (i, &c) in cells.iter().enumerate() {
        sorted[start[c as usize] as usize] = i as u32;
        start[c as usize] += 1;
    }
    for c in (1..=count).rev() {
        start[c] = start[c - 1];
    }
    start[0] = 0;
    // The neighbouring cells after a cell (each pair of cells met once): in the plane 4 of
    // the 8, in space 13 of the 26.
    let (mut forward, mut forward_count) = ([[0isize; 3]; 13], 0);
    for dz in if dims[2] == 1 { 0isize..=0 } else { -1..=1 } {
        for dy in -1isize..=1 {
            for dx in -1isize..=1 {
                if (dz, dy, dx) > (0, 0, 0) {
                    forward[forward_count] = [dx, dy, dz];
                    forward_count += 1;
                }
            }
        }
    }
    let mut figures = PairFigures { overlaps: 0, deepest: 0.0, closest: f32::INFINITY };
    let members = |c: usize| &sorted[start[c] as usize..start[c + 1] as usize];
    for z in 0..dims[2] {
        for y in 0..dims[1] {
            for x in 0..dims[0] {
                let here = members(x + dims[0] * (y + dims[1] * z));
                for (k, &a) in here.iter().enumerate() {
                    for &b in &here[k + 1..] {
                        figures.pair(positions, radii, a as usize, b as usize);
                    }
                }
                if here.is_empty() {
                    continue;
                }
                for [dx, dy, dz] in &forward[..forward_count] {
                    let (nx, ny, nz) = (x as isize + dx, y as isize + dy, z as isize + dz);
                    let inside = |v: isize, axis: usize| (0..dims[axis] as isize).contains(&v);
                    if !(inside(nx, 0) && inside(ny, 1) && inside(nz, 2)) {
                        continue;
                    }
                    let there = members(nx as usize + dims[0] * (ny as usize + dims[1] * nz as usize));
                    for &a in here {
                        for &b in there {
                            figures.pair(positions, radii, a as usize, b as usize);
                        }
                    }
                }
            }
        }
    }
    // Two centres whose cells are two or more apart along an axis are at least about a cell
    // apart: their gap is at least `cell - 2 r_max` less rounding, and half of it bounds the
    // smallest gap found.
    (figures.closest <= 0.5 * (cell - 2.0 * r_max)).then_some((figures.overlaps, figures.deepest, figures.closest))
}

/// Sweep over discs (or spheres) sorted by x: exact, since every pair closer than the running
/// smallest gap is visited (a pair is skipped only when its x distance alone exceeds that gap).
fn x_sweep<P: Centre>(positions: &[P], radii: &[f32], order: &mut Vec<u32>) -> (u64, f32, f32) {
    order.clear();
    order.extend(0..positions.len() as u32);
    order.sort_unstable_by(|&a, &b| positions[a as usize].x().total_cmp(&positions[b as usize].x()));
    let r_max = radii.iter().copied().fold(0.0f32, f32::max);
    let mut figures = PairFigures { overlaps: 0, deepest: 0.0, closest: f32::INFINITY };
    for (k, &i) in order.iter().enumerate() {
        let (pi, ri) = (positions[i as usize], radii[i as usize]);
        for &j in &order[k + 1..] {
            // Beyond this x distance no later disc can overlap or beat the smallest gap.
            if positions[j as usize].x() - pi.x() - ri - r_max > figures.closest.max(0.0) {
                break;
            }
            figures.pair(positions, radii, i as usize, j as usize);
        }
    }
    (figures.overlaps, figures.deepest, figures.closest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force<P: Centre>(positions: &[P], radii: &[f32]) -> (u64, f32, f32) {
        let (mut overlaps, mut deepest, mut closest) = (0u64, 0.0f32, f32::INFINITY);
        for i in 0..positions.len() {
            for j in i + 1..positions.len() {
                let gap = positions[i].distance(positions[j]) - (radii[i] + radii[j]);
                closest = closest.min(gap);
                if -gap > OVERLAP_TOLERANCE {
                    overlaps += 1;
                    deepest = deepest.max(-gap);
                }
            }
        }
        (overlaps, deepest, closest)
    }

    proptest! {
        #[test]
        fn sweep_equals_brute_force(discs in prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0, 0.1f32..2.0), 0..60)) {
            let positions: Vec<Vec2> = discs.iter().map(|d| Vec2::new(d.0, d.1)).collect();
            let radii: Vec<f32> = discs.iter().map(|d| d.2).collect();
            let mut scratch = PairScratch::default();
            prop_assert_eq!(pair_sweep(&positions, &radii, &mut scratch), brute_force(&positions, &radii));
        }

        /// Crowds large enough for the grid, from packed (overlaps everywhere) to sparse (the
        /// smallest gap too wide for the grid: the sweep answers), in the plane and in space.
        #[test]
        fn the_grid_equals_brute_force(
            discs in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, 0.1f32..2.0), 64..300),
            spread in 1.0f32..400.0,
            flat in any::<bool>(),
        ) {
            let radii: Vec<f32> = discs.iter().map(|d| d.3).collect();
            let mut scratch = PairScratch::default();
            if flat {
                let positions: Vec<Vec2> = discs.iter().map(|d| Vec2::new(d.0, d.1) * spread).collect();
                prop_assert_eq!(pair_sweep(&positions, &radii, &mut scratch), brute_force(&positions, &radii));
            } else {
                let positions: Vec<glam::Vec3> = discs.iter().map(|d| glam::Vec3::new(d.0, d.1, d.2) * spread).collect();
                prop_assert_eq!(pair_sweep(&positions, &radii, &mut scratch), brute_force(&positions, &radii));
            }
        }
    }

    #[test]
    fn a_crowd_is_answered_by_the_grid_and_a_sparse_few_by_the_sweep() {
        // A jittered lattice 3 m apart, radius 1.5 (RVO2's Circle agents, touching): the grid
        // is sure of its smallest gap.
        let mut positions = Vec::new();
        for i in 0..30 {
            for j in 0..30 {
                let jitter = ((i * 31 + j * 17) % 7) as f32 * 0.01;
                positions.push(Vec2::new(i as f32 * 3.0 + jitter, j as f32 * 3.0 - jitter));
            }
        }
        let radii = vec![1.5; positions.len()];
        let mut scratch = PairScratch::default();
        let grid = grid_pairs(&positions, &radii, &mut scratch).expect("the grid answers a crowd");
        assert_eq!(grid, brute_force(&positions, &radii));
        // The same agents 100 m apart: every gap is wider than a cell, so the grid cannot say.
        let sparse: Vec<Vec2> = positions.iter().map(|p| *p * 33.0).collect();
        assert_eq!(grid_pairs(&sparse, &radii, &mut scratch), None);
        assert_eq!(pair_sweep(&sparse, &radii, &mut scratch), brute_force(&sparse, &radii));
    }

    #[test]
    fn arrival_path_and_overlaps_of_a_hand_made_run() {
        let wall = vec![vec![Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)]];
        let mut recorder = MetricsRecorder::new(&wall);
        let ids = [AgentId(0), AgentId(1)];
        let radii = [0.5, 0.5];
        recorder.add_agent(ids[0], 0, Vec2::new(-3.0, 0.0), Vec2::new(-3.0, 4.0), 0.1, 0.0);
        recorder.add_agent(ids[1], 0, Vec2::new(-3.0, 2.0), Vec2::new(-3.0, 2.0), 0.1, 0.0);
        let v = [Vec2::new(0.0, 2.0), Vec2::ZERO];
        recorder.observe_agents(0.0, false, &ids, &[Vec2::new(-3.0, 0.0), Vec2::new(-3.0, 2.0)], &v, &radii);
        // Agent 0 walks up 2 m a step through agent 1's spot (a 1 m overlap); then agent 1
        // is moved 0.3 m into the wall.
        recorder.observe_agents(1.0, true, &ids, &[Vec2::new(-3.0, 2.0), Vec2::new(-3.0, 2.0)], &v, &radii);
        recorder.observe_agents(2.0, true, &ids, &[Vec2::new(-3.0, 4.0), Vec2::new(-0.2, 2.0)], &v, &radii);
        let m = recorder.metrics();
        assert_eq!(m.steps, 2);
        assert_eq!(m.arrived, 2);
        assert_eq!(m.per_agent[0].time_to_goal, Some(2.0));
        assert_eq!(m.per_agent[0].path_length, 4.0);
        // 4 m from the goal with a 0.1 m tolerance: 3.9 m is the shortest way to arrive.
        assert!((m.per_agent[0].path_length_ratio.unwrap() - 4.0 / 3.9).abs() < 1e-6);
        assert_eq!(m.per_agent[1].time_to_goal, Some(0.0));
        assert_eq!(m.agent_overlaps, 1);
        assert!((m.max_agent_penetration - 1.0).abs() < 1e-6);
        assert_eq!(m.obstacle_overlaps, 1);
        assert!((m.max_obstacle_penetration - 0.3).abs() < 1e-6);
        assert_eq!(m.min_separation, Some(-1.0));
        assert_eq!(m.mean_speed, Some(2.0));
    }

    #[test]
    fn a_removed_obstacle_no_longer_counts() {
        let wall = vec![Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)];
        let post = vec![Vec2::new(10.0, -1.0), Vec2::new(10.0, 1.0)];
        let mut recorder = MetricsRecorder::new(&[wall.clone(), post.clone()]);
        let ids = [AgentId(0)];
        recorder.add_agent(ids[0], 0, Vec2::new(-0.2, 0.0), Vec2::new(-0.2, 4.0), 0.1, 0.0);
        let v = [Vec2::ZERO];
        // 0.3 m into the wall: one overlap; then the wall goes and the agent stays put.
        recorder.observe_agents(0.0, false, &ids, &[Vec2::new(-0.2, 0.0)], &v, &[0.5]);
        recorder.set_obstacles(&[post]);
        recorder.observe_agents(1.0, true, &ids, &[Vec2::new(-0.2, 0.0)], &v, &[0.5]);
        recorder.observe_agents(2.0, true, &ids, &[Vec2::new(-0.1, 0.0)], &v, &[0.5]);
        let m = recorder.metrics();
        assert_eq!(m.obstacle_overlaps, 1, "only the frame before the removal");
        assert!((m.max_obstacle_penetration - 0.3).abs() < 1e-6);
        // The clearance kept from before; the post alone is 9.6 m away.
        assert!((m.min_obstacle_clearance.unwrap() + 0.3).abs() < 1e-6);
    }

    /// A crowd large enough to be checked on every thread, among blocks and walls: the
    /// obstacle figures are those of a pass over every edge.
    #[test]
    fn a_big_crowd_among_obstacles_gets_the_figures_of_a_pass_over_every_edge() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut obstacles: Vec<Vec<Vec2>> = Vec::new();
        for i in 0..10 {
            for j in 0..10 {
                let (x, y) = (i as f32 * 12.0, j as f32 * 12.0);
                obstacles.push(vec![
                    Vec2::new(x, y),
                    Vec2::new(x + 6.0, y),
                    Vec2::new(x + 6.0, y + 6.0),
                    Vec2::new(x, y + 6.0),
                ]);
            }
        }
        obstacles.push(vec![Vec2::new(-5.0, -5.0), Vec2::new(125.0, 110.0)]);
        let n = 2 * PARALLEL_EDGE_CHECK;
        let positions: Vec<Vec2> =
            (0..n).map(|_| Vec2::new(rng.random_range(-10.0..130.0), rng.random_range(-10.0..130.0))).collect();
        let radii: Vec<f32> = (0..n).map(|_| rng.random_range(0.2..1.5)).collect();
        let (mut closest, mut overlaps, mut deepest) = (f32::INFINITY, 0u64, 0.0f32);
        for (p, r) in positions.iter().zip(&radii) {
            for poly in &obstacles {
                let count = if poly.len() == 2 { 1 } else { poly.len() };
                for k in 0..count {
                    let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
                    if p.x < a.x.min(b.x) - r
                        || p.x > a.x.max(b.x) + r
                        || p.y < a.y.min(b.y) - r
                        || p.y > a.y.max(b.y) + r
                    {
                        continue;
                    }
                    let gap = crate::geom::distance_to_segment(*p, a, b) - r;
                    closest = closest.min(gap);
                    if -gap > OVERLAP_TOLERANCE {
                        overlaps += 1;
                        deepest = deepest.max(-gap);
                    }
                }
            }
        }
        let mut recorder = MetricsRecorder::new(&obstacles);
        let ids: Vec<AgentId> = (0..n as u32).map(AgentId).collect();
        recorder.observe_agents(0.0, false, &ids, &positions, &vec![Vec2::ZERO; n], &radii);
        let m = recorder.metrics();
        assert!(overlaps > 100, "the scene should overlap often, got {overlaps}");
        assert_eq!(m.obstacle_overlaps, overlaps);
        assert_eq!(m.max_obstacle_penetration, deepest);
        assert_eq!(m.min_obstacle_clearance, Some(closest));
    }
}
