//! Static obstacles for the 3-D crowd, beyond RVO2-3D (which has none): triangle meshes —
//! walls, buildings, terrain — that every agent keeps clear of.
//!
//! **The constraint.** For each triangle within reach, the agent takes one plane through the
//! triangle's point nearest to it. With `c` that point, `d` the distance to it and `n` the
//! unit vector from `c` to the agent, the permitted velocities are
//!
//! ```text
//! v · n ≥ −(d − r) / τ
//! ```
//!
//! with `r` the agent's radius and `τ` its obstacle time horizon: the agent does not reach the
//! plane at distance `r` from `c` within `τ`. A triangle is convex, so it lies wholly beyond
//! the plane through `c` normal to `n`; keeping that plane `r` away keeps the whole triangle `r`
//! away. Against a wall this is the exact velocity obstacle of the wall's half-space; at
//! edges and corners it is conservative (it also forbids some velocities that would pass the
//! edge), which is the price of one plane per triangle instead of the truncated cone over a
//! dilated triangle. An agent closer than `r` is pushed out within one time step:
//! `v · n ≥ (r − d) / Δt`, as RVO2 pushes overlapping agents apart.
//!
//! **Hard planes.** As RVO2's planar obstacle lines, the obstacle planes come first in the
//! agent's program and the fallback for conflicting planes keeps them (see
//! [`super::linear_program::solve`]). An agent that starts clear of every triangle therefore
//! never comes closer than its radius to one (up to rounding): every obstacle plane admits
//! standing still, so the obstacle planes never conflict with each other or with the speed
//! limit; only the other agents' planes give way in a dense crowd.
//!
//! **Boxes** ([`super::Simulator::add_box_obstacle`]) are solid: one plane per box, through
//! the box's point nearest the agent (a clamp), instead of one per triangle of its surface —
//! fewer and less conservative planes (the planes of a box's faces seen past their edges
//! would forbid velocities that pass the box), at a fraction of the cost.
//!
//! **Finding them.** Two uniform grids with cells about as wide as the agents' typical reach
//! `r + max_speed · τ` (built once after the obstacles change; a triangle or box farther than
//! the reach cannot constrain a velocity within the max-speed sphere): the 3-D balls' grid
//! over the triangles, and a grid over the boxes' bounds that reports each box once, from
//! the first cell of the query that it covers.

use glam::{DVec3, Vec3};

use super::plane::Plane;
use crate::orca::ObstacleId;
use crate::physics3d::triangle_grid::TriangleGrid;
use crate::physics3d::{Aabb3, Triangle};
use crate::Error;

/// One obstacle: its surface's triangles, and for a box, the box (which gives its planes).
#[derive(Clone, Debug)]
struct Obstacle {
    triangles: Vec<Triangle>,
    solid_box: Option<Aabb3>,
    /// The triangles' bounding box (the visibility query's first test).
    bounds: Aabb3,
}

/// The obstacles of a 3-D crowd and the grids over them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Obstacles {
    /// Each obstacle, by id; `None` once removed.
    meshes: Vec<Option<Obstacle>>,
    /// Every live mesh's triangles (not the boxes'), in id order (rebuilt by
    /// [`Obstacles::prepare`]).
    triangles: Vec<Triangle>,
    grid: TriangleGrid,
    /// Every live box, in id order (rebuilt by [`Obstacles::prepare`]).
    boxes: Vec<Aabb3>,
    box_grid: BoxGrid,
    /// How many triangles the live meshes have.
    live: usize,
    /// Whether `triangles` and `grid` predate the last change.
    stale: bool,
}

impl Obstacles {
    /// Adds a mesh of checked triangles; its id.
    pub(crate) fn add(&mut self, mesh: Vec<Triangle>) -> Result<ObstacleId, Error> {
        let bounds = bounds_of(&mesh);
        self.push(Obstacle { triangles: mesh, solid_box: None, bounds })
    }

    /// Adds the solid box `solid` (checked), whose surface is `triangles`; its id.
    pub(crate) fn add_box(&mut self, solid: Aabb3, triangles: Vec<Triangle>) -> Result<ObstacleId, Error> {
        self.push(Obstacle { triangles, solid_box: Some(solid), bounds: solid })
    }

    fn push(&mut self, obstacle: Obstacle) -> Result<ObstacleId, Error> {
        let live = self.live + obstacle.triangles.len();
        // Triangle numbers are `u32` in the grid.
        if live >= u32::MAX as usize || self.meshes.len() >= u32::MAX as usize {
            return Err(Error::OutOfRange {
                what: "obstacle triangle count",
                requirement: "below 2^32 - 1",
                value: live as f32,
            });
        }
        self.meshes.push(Some(obstacle));
        self.live = live;
        self.stale = true;
        Ok(ObstacleId(self.meshes.len() as u32 - 1))
    }

    /// Removes obstacle `id`; the other ids stay valid and `id` is not reused.
    pub(crate) fn remove(&mut self, id: ObstacleId) -> Result<(), Error> {
        match self.meshes.get_mut(id.0 as usize) {
            Some(mesh @ Some(_)) => {
                self.live -= mesh.take().map_or(0, |m| m.triangles.len());
                self.stale = true;
                Ok(())
            }
            _ => Err(Error::UnknownObstacle(id.0)),
        }
    }

    /// Obstacle `id`'s triangles.
    pub(crate) fn mesh(&self, id: ObstacleId) -> Result<&[Triangle], Error> {
        match self.meshes.get(id.0 as usize) {
            Some(Some(mesh)) => Ok(&mesh.triangles),
            _ => Err(Error::UnknownObstacle(id.0)),
        }
    }

    /// Obstacle `id`'s box, `None` for a mesh.
    pub(crate) fn solid_box(&self, id: ObstacleId) -> Result<Option<Aabb3>, Error> {
        match self.meshes.get(id.0 as usize) {
            Some(Some(mesh)) => Ok(mesh.solid_box),
            _ => Err(Error::UnknownObstacle(id.0)),
        }
    }

    /// The live obstacles and their triangles, in id order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ObstacleId, &[Triangle])> + '_ {
        self.meshes
            .iter()
            .enumerate()
            .filter_map(|(id, mesh)| Some((ObstacleId(id as u32), mesh.as_ref()?.triangles.as_slice())))
    }

    /// Whether there is no live obstacle (as of the last [`Obstacles::prepare`]).
    pub(crate) fn is_empty(&self) -> bool {
        self.triangles.is_empty() && self.boxes.is_empty()
    }

    /// Brings the triangle list and the grid up to date after a change (allocates then only),
    /// with cells of about `reach()` (m), the agents' typical obstacle reach: a query then
    /// looks at a few cells a side, however long the triangles are.
    pub(crate) fn prepare(&mut self, reach: impl FnOnce() -> f32) {
        if !self.stale {
            return;
        }
        let live = || self.meshes.iter().flatten();
        self.triangles = live().filter(|m| m.solid_box.is_none()).flat_map(|m| m.triangles.iter().copied()).collect();
        self.boxes = live().filter_map(|m| m.solid_box).collect();
        let reach = f64::from(reach());
        self.grid = TriangleGrid::build_with_cell(&self.triangles, Some(reach));
        self.box_grid = BoxGrid::build(&self.boxes, reach);
        self.stale = false;
    }

    /// Appends to `out` the hard plane of every box, then of every mesh triangle, within
    /// `reach` of `position` (see the module's account), leaving out a triangle's plane equal
    /// to one already appended (the corner that several triangles of a mesh share gives the
    /// same plane to each).
    ///
    /// `visited` is the thread's scratch; once it has been sized for every triangle (its first
    /// query), this does not allocate beyond growing `out`.
    // Kept out of line: the decide loop of a crowd without obstacles stays as it was.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn planes(
        &self,
        position: Vec3,
        radius: f32,
        reach: f32,
        inv_horizon: f32,
        inv_time_step: f32,
        visited: &mut Visited,
        out: &mut Vec<Plane>,
    ) {
        let query = Aabb3 { min: position - Vec3::splat(reach), max: position + Vec3::splat(reach) };
        // The speed at which the plane lets the agent close a gap (m/s; negative: it must
        // open an overlap within the step).
        let gap_speed =
            |gap: f64| if gap >= 0.0 { -gap * f64::from(inv_horizon) } else { -gap * f64::from(inv_time_step) };
        // Boxes: one plane each, through the nearest point (inside: the nearest face's).
        self.box_grid.for_each_near(&query, |b| {
            let solid = &self.boxes[b as usize];
            let offset = position - position.clamp(solid.min, solid.max);
            let distance_squared = offset.length_squared();
            if distance_squared.is_nan() || distance_squared >= reach * reach {
                return;
            }
            let (normal, gap) = if distance_squared > 0.0 {
                let distance = distance_squared.sqrt();
                (offset / distance, distance - radius)
            } else {
                // Inside: out through the nearest face.
                let (below, above) = (position - solid.min, solid.max - position);
                let depth = below.min(above).min_element();
                let axis = (0..3).find(|&k| below[k] == depth || above[k] == depth).unwrap_or(0);
                let mut normal = Vec3::ZERO;
                normal[axis] = if below[axis] == depth { -1.0 } else { 1.0 };
                (normal, -depth - radius)
            };
            let plane = Plane { point: normal * gap_speed(f64::from(gap)) as f32, normal };
            if plane.is_finite() {
                out.push(plane);
            }
        });

        visited.begin(self.triangles.len());
        let first = out.len();
        let p = position.as_dvec3();
        let reach_f32 = reach;
        let (radius, reach) = (f64::from(radius), f64::from(reach));
        self.grid.for_each_listed(&query, |t| {
            if !visited.first_visit(t) {
                return;
            }
            let triangle = &self.triangles[t as usize];
            // The triangle's box is a cheap first test: most of what the grid returns lies
            // farther than `reach` from the agent.
            let bounds = triangle.bounding_box();
            let outside = (bounds.min - position).max(position - bounds.max).max(Vec3::ZERO);
            if outside.length_squared() > reach_f32 * reach_f32 * (1.0 + 1e-5) {
                return;
            }
            let offset = p - triangle.closest_point(p);
            let distance_squared = offset.length_squared();
            // A NaN distance (a position too large for `f64` products) adds nothing.
            if distance_squared.is_nan() || distance_squared >= reach * reach {
                return;
            }
            let distance = distance_squared.sqrt();
            // On the triangle itself: away along its normal (either face would do).
            let normal: DVec3 = if distance > 0.0 { offset / distance } else { triangle.normal() };
            let plane = Plane { point: (normal * gap_speed(distance - radius)).as_vec3(), normal: normal.as_vec3() };
            if plane.is_finite() && !out[first..].contains(&plane) {
                out.push(plane);
            }
        });
    }
}

impl Obstacles {
    /// Whether safe mode's overlap push may move an agent of `radius` from `from` to `to`: not
    /// through a mesh triangle or into a box it is outside of, and not closer than its radius
    /// to an obstacle unless it already was (then not closer still) — the planar rule
    /// (`orca::simulator::OverlapContext::correction`). The push acts after the program, so
    /// without this check it could undo the hard obstacle planes' guarantee.
    pub(crate) fn allows_push(&self, from: Vec3, to: Vec3, radius: f32) -> bool {
        let reach = radius + from.distance(to);
        if !reach.is_finite() {
            return false;
        }
        let query = Aabb3 { min: from.min(to) - Vec3::splat(reach), max: from.max(to) + Vec3::splat(reach) };
        let (p, q) = (from.as_dvec3(), to.as_dvec3());
        let (mut before, mut after, mut crossed) = (f64::INFINITY, f64::INFINITY, false);
        self.box_grid.for_each_near(&query, |b| {
            let solid = &self.boxes[b as usize];
            let (low, high) = (solid.min.as_dvec3(), solid.max.as_dvec3());
            let inside = |x: DVec3| x.cmpge(low).all() && x.cmple(high).all();
            before = before.min(p.distance(p.clamp(low, high)));
            after = after.min(q.distance(q.clamp(low, high)));
            crossed |= !inside(p) && solid.meets_segment(from, to);
        });
        self.grid.for_each_listed(&query, |t| {
            let triangle = &self.triangles[t as usize];
            before = before.min(triangle.closest_point(p).distance(p));
            after = after.min(triangle.closest_point(q).distance(q));
            crossed |= triangle.segment_crossing(p, q).is_some();
        });
        !crossed && after >= f64::from(radius).min(before)
    }
}

impl Obstacles {
    /// Whether a sphere of `radius` can travel from `from` to `to` without touching a live
    /// obstacle (the 3-D `queryVisibility` of RVO2's planar roadmap): no point of the segment
    /// within `radius` of a mesh triangle (the swept sphere of
    /// [`crate::physics3d::time_of_impact::sphere_triangle`], with its start checked apart)
    /// or of a box (the segment's exact distance to it). `from == to` asks whether the
    /// sphere at `from` is clear.
    ///
    /// Every live obstacle is looked at, its bounds first (a roadmap's segments are long and
    /// would cover most of the grids' cells); up to date from the change on, without waiting
    /// for [`Obstacles::prepare`]. A non-finite argument or a negative radius is never visible.
    pub(crate) fn is_visible(&self, from: Vec3, to: Vec3, radius: f32) -> bool {
        let mut no_hint = usize::MAX;
        self.is_visible_hinted(from, to, radius, &mut no_hint)
    }

    /// [`Obstacles::is_visible`], looking first at the obstacle numbered `*hint` (a slot in
    /// `meshes`), and noting there the obstacle that blocks the way when one does: a caller
    /// testing many segments from one point (an agent's roadmap candidates) finds most of
    /// the blocked ones blocked by the last blocker, without looking through the others.
    /// The answer is the same whatever the hint.
    pub(crate) fn is_visible_hinted(&self, from: Vec3, to: Vec3, radius: f32, hint: &mut usize) -> bool {
        if !(radius.is_finite() && radius >= 0.0 && from.is_finite() && to.is_finite()) {
            return false;
        }
        let grown = |b: &Aabb3| Aabb3 { min: b.min - Vec3::splat(radius), max: b.max + Vec3::splat(radius) };
        let (a, b) = (from.as_dvec3(), to.as_dvec3());
        let r = f64::from(radius);
        let near = |t: &Triangle| {
            let bounds = Aabb3 { min: t.a.min(t.b).min(t.c), max: t.a.max(t.b).max(t.c) };
            grown(&bounds).meets_segment(from, to)
                && (t.closest_point(a).distance(a) <= r
                    || crate::physics3d::time_of_impact::sphere_triangle(from, to - from, radius, t, 1.0).is_some())
        };
        // The segment's box: most obstacles are told apart by it, without the slab test's
        // divisions.
        let span = grown(&Aabb3 { min: from.min(to), max: from.max(to) });
        let blocks = |o: &Obstacle| {
            o.bounds.overlaps(&span)
                && grown(&o.bounds).meets_segment(from, to)
                && match o.solid_box {
                    Some(solid) => {
                        segment_box_distance_squared(a, b, solid.min.as_dvec3(), solid.max.as_dvec3()) <= r * r
                    }
                    None => o.triangles.iter().any(near),
                }
        };
        if self.meshes.get(*hint).and_then(Option::as_ref).is_some_and(blocks) {
            return false;
        }
        match self.meshes.iter().position(|o| o.as_ref().is_some_and(blocks)) {
            Some(blocker) => {
                *hint = blocker;
                false
            }
            None => true,
        }
    }
}

/// The squared distance between the segment from `a` to `b` and the solid box from `lo` to
/// `hi` (0 where they meet). The squared distance from `a + t (b − a)` to the box is a sum,
/// over the axes, of the squared gap beyond the box's slab on that axis: convex in `t`, and
/// one quadratic between the times the segment crosses a slab's planes. So it is least at an
/// end, or at the vertex of one of those quadratics.
fn segment_box_distance_squared(a: DVec3, b: DVec3, lo: DVec3, hi: DVec3) -> f64 {
    let d = b - a;
    let at = |t: f64| {
        let p = a + d * t;
        p.distance_squared(p.clamp(lo, hi))
    };
    let mut cuts = [0.0f64; 8];
    cuts[1] = 1.0;
    let mut count = 2;
    for axis in 0..3 {
        if d[axis] != 0.0 {
            for plane in [lo[axis], hi[axis]] {
                let t = (plane - a[axis]) / d[axis];
                if t > 0.0 && t < 1.0 {
                    cuts[count] = t;
                    count += 1;
                }
            }
        }
    }
    let cuts = &mut cuts[..count];
    cuts.sort_unstable_by(f64::total_cmp);
    let mut best = at(0.0).min(at(1.0));
    for pair in cuts.windows(2) {
        let (t0, t1) = (pair[0], pair[1]);
        let middle = a + d * (0.5 * (t0 + t1));
        // On this piece, the axes outside their slab add (x(t) − plane)²: together
        // A t² + B t + C, least at −B / 2A.
        let (mut quadratic, mut linear) = (0.0, 0.0);
        for axis in 0..3 {
            let plane = if middle[axis] < lo[axis] {
                lo[axis]
            } else if middle[axis] > hi[axis] {
                hi[axis]
            } else {
                continue;
            };
            quadratic += d[axis] * d[axis];
            linear += 2.0 * d[axis] * (a[axis] - plane);
        }
        if quadratic > 0.0 {
            best = best.min(at((-linear / (2.0 * quadratic)).clamp(t0, t1)));
        }
    }
    best
}

/// The bounding box of `triangles` (empty: a box at the origin).
fn bounds_of(triangles: &[Triangle]) -> Aabb3 {
    let mut corners = triangles.iter().flat_map(|t| [t.a, t.b, t.c]);
    let first = corners.next().unwrap_or(Vec3::ZERO);
    corners.fold(Aabb3 { min: first, max: first }, |b, c| Aabb3 { min: b.min.min(c), max: b.max.max(c) })
}

/// A thread's marks of the triangles one query has looked at: a long triangle is listed in
/// many of the cells a query covers, and marking it is cheaper than sorting the lists.
#[derive(Clone, Debug, Default)]
pub(crate) struct Visited {
    /// The query that last looked at each triangle.
    stamps: Vec<u32>,
    current: u32,
}

impl Visited {
    /// Starts a query over `count` triangles (allocates only when `count` grows).
    fn begin(&mut self, count: usize) {
        if self.stamps.len() < count {
            self.stamps.resize(count, 0);
        }
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            // After 2³² queries: clear the stamps so that none equals the new mark by chance.
            self.stamps.fill(0);
            self.current = 1;
        }
    }

    /// Whether this query looks at triangle `t` for the first time (and marks it).
    fn first_visit(&mut self, t: u32) -> bool {
        let stamp = &mut self.stamps[t as usize];
        let first = *stamp != self.current;
        *stamp = self.current;
        first
    }
}

/// A uniform grid over boxes: each box is listed in every cell its bounds overlap, and a query
/// reports it once, from the first cell of the query's range it covers (no sort, no marks).
#[derive(Clone, Debug, Default)]
struct BoxGrid {
    origin: DVec3,
    cell: f64,
    /// Cells along x, y and z (all 0 for the empty grid).
    counts: [usize; 3],
    /// Compressed rows: the boxes of cell `c` are `entries[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    entries: Vec<u32>,
    /// Each box's first cell along x, y and z.
    first_cells: Vec<[usize; 3]>,
}

impl BoxGrid {
    /// How many cells the grid may have per box, plus 64: the bound on its memory.
    const CELLS_PER_BOX: usize = 8;

    /// The grid over `boxes` (finite and not inverted, as [`super::Simulator::add_box_obstacle`]
    /// checks), with cells of about `cell` (m), coarser if the bound on the cell count needs.
    fn build(boxes: &[Aabb3], cell: f64) -> BoxGrid {
        let Some(bounds) = boxes.iter().copied().reduce(|a, b| a.union(&b)) else {
            return BoxGrid::default();
        };
        let (origin, size) = (bounds.min.as_dvec3(), bounds.max.as_dvec3() - bounds.min.as_dvec3());
        let mut cell = if cell.is_finite() && cell > 0.0 { cell } else { size.max_element() };
        cell = cell.max(1e-6 * size.max_element()).max(f64::from(f32::MIN_POSITIVE));
        // `as` saturates: a huge count stays huge rather than wrapping.
        let counts_for = |cell: f64| size.to_array().map(|s| (s / cell) as usize + 1);
        let bound = Self::CELLS_PER_BOX.saturating_mul(boxes.len()).saturating_add(64);
        while counts_for(cell).iter().fold(1usize, |acc, &k| acc.saturating_mul(k)) > bound {
            cell *= 2.0;
        }
        let mut grid = BoxGrid { origin, cell, counts: counts_for(cell), ..BoxGrid::default() };
        let ranges: Vec<[(usize, usize); 3]> =
            boxes.iter().map(|b| grid.cell_range(b).unwrap_or([(1, 0); 3])).collect();
        let total = grid.counts.iter().product::<usize>();
        let mut starts = vec![0u32; total + 1];
        for range in &ranges {
            grid.for_each_cell(range, |c| starts[c + 1] += 1);
        }
        for c in 0..total {
            starts[c + 1] += starts[c];
        }
        let mut entries = vec![0u32; starts[total] as usize];
        for (b, range) in ranges.iter().enumerate() {
            grid.for_each_cell(range, |c| {
                entries[starts[c] as usize] = b as u32;
                starts[c] += 1;
            });
        }
        for c in (1..=total).rev() {
            starts[c] = starts[c - 1];
        }
        starts[0] = 0;
        grid.first_cells = ranges.iter().map(|r| r.map(|(lo, _)| lo)).collect();
        grid.starts = starts;
        grid.entries = entries;
        grid
    }

    /// The cells (inclusive ranges along x, y and z) that `b` overlaps, or `None` when it lies
    /// outside the grid or is not finite (the planar grid's rule: a monotone cell index).
    fn cell_range(&self, b: &Aabb3) -> Option<[(usize, usize); 3]> {
        if self.counts[0] == 0 {
            return None; // the empty grid
        }
        let mut range = [(0, 0); 3];
        for (axis, slot) in range.iter_mut().enumerate() {
            let n = self.counts[axis] as f64;
            let lo = (f64::from(b.min[axis]) - self.origin[axis]) / self.cell;
            let hi = (f64::from(b.max[axis]) - self.origin[axis]) / self.cell;
            // Also false for NaN.
            if !(hi >= 0.0 && lo < n && lo <= hi) {
                return None;
            }
            *slot = (lo.clamp(0.0, n - 1.0) as usize, hi.clamp(0.0, n - 1.0) as usize);
        }
        Some(range)
    }

    fn for_each_cell(&self, range: &[(usize, usize); 3], mut f: impl FnMut(usize)) {
        let [(x0, x1), (y0, y1), (z0, z1)] = *range;
        for z in z0..=z1 {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    f((z * self.counts[1] + y) * self.counts[0] + x);
                }
            }
        }
    }

    /// Calls `f` once with every box whose bounds overlap `query`'s cells (a superset of the
    /// boxes that meet `query`).
    fn for_each_near(&self, query: &Aabb3, mut f: impl FnMut(u32)) {
        let Some(range) = self.cell_range(query) else { return };
        let [(x0, _), (y0, _), (z0, _)] = range;
        self.for_each_cell(&range, |c| {
            let (x, y, z) =
                (c % self.counts[0], (c / self.counts[0]) % self.counts[1], c / (self.counts[0] * self.counts[1]));
            for &b in &self.entries[self.starts[c] as usize..self.starts[c + 1] as usize] {
                let [bx, by, bz] = self.first_cells[b as usize];
                // The first cell of the box within the query's range: report it there only.
                if x == bx.max(x0) && y == by.max(y0) && z == bz.max(z0) {
                    f(b);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall() -> Obstacles {
        // The square x = 0, −10 ≤ y, z ≤ 10, as two triangles.
        let corners = [
            Vec3::new(0.0, -10.0, -10.0),
            Vec3::new(0.0, 10.0, -10.0),
            Vec3::new(0.0, 10.0, 10.0),
            Vec3::new(0.0, -10.0, 10.0),
        ];
        let mut obstacles = Obstacles::default();
        obstacles.add(Triangle::mesh(&corners, &[[0, 1, 2], [0, 2, 3]]).unwrap()).unwrap();
        obstacles.prepare(|| 5.0);
        obstacles
    }

    #[test]
    fn a_wall_ahead_allows_closing_in_at_the_gap_over_the_horizon() {
        let (mut near, mut planes) = (Visited::default(), Vec::new());
        // 5 m from the wall, radius 1: a gap of 4 m, closed at most in the horizon of 2 s.
        wall().planes(Vec3::new(5.0, 0.3, 0.2), 1.0, 6.0, 0.5, 4.0, &mut near, &mut planes);
        // The face the agent is in front of gives the wall's own plane; the other triangle of
        // the square gives a plane through the nearest point of their shared diagonal, tilted
        // a little (the conservative plane of a triangle seen past its edge).
        let wall_plane = planes.iter().find(|p| (p.normal - Vec3::X).length() < 1e-6).expect("the wall's plane");
        // Toward the wall at 2 m/s is the limit; faster breaks it, slower keeps it.
        assert!(wall_plane.violation(Vec3::new(-2.0, 0.0, 0.0)).abs() < 1e-6);
        assert!(wall_plane.violation(Vec3::new(-2.1, 5.0, 0.0)) > 0.0);
        assert!(wall_plane.violation(Vec3::new(-1.9, -5.0, 3.0)) < 0.0);
        for plane in &planes {
            assert!(plane.violation(Vec3::ZERO) < 0.0 && plane.violation(Vec3::new(-1.9, 0.0, 0.0)) < 0.0, "{plane:?}");
        }
    }

    #[test]
    fn an_overlapping_agent_must_leave_within_a_step_and_a_far_one_gets_no_plane() {
        let (mut near, mut planes) = (Visited::default(), Vec::new());
        wall().planes(Vec3::new(0.5, 0.0, 0.0), 1.0, 3.0, 0.5, 4.0, &mut near, &mut planes);
        // Half a metre short: at least 0.5 / 0.25 = 2 m/s away from the wall.
        assert!(planes.iter().all(|p| p.violation(Vec3::new(2.0, 0.0, 0.0)).abs() < 1e-6));
        assert!(planes.iter().all(|p| p.violation(Vec3::new(1.9, 0.0, 0.0)) > 0.0));
        planes.clear();
        wall().planes(Vec3::new(3.5, 0.0, 0.0), 1.0, 3.0, 0.5, 4.0, &mut near, &mut planes);
        assert!(planes.is_empty(), "{planes:?}");
    }

    #[test]
    fn removed_obstacles_give_no_planes_and_ids_are_not_reused() {
        let mut obstacles = wall();
        let second = obstacles.add(obstacles.mesh(ObstacleId(0)).unwrap().to_vec()).unwrap();
        assert_eq!(second, ObstacleId(1));
        obstacles.remove(ObstacleId(0)).unwrap();
        obstacles.remove(second).unwrap();
        assert!(matches!(obstacles.remove(second), Err(Error::UnknownObstacle(1))));
        obstacles.prepare(|| 5.0);
        assert!(obstacles.is_empty());
        let (mut near, mut planes) = (Visited::default(), Vec::new());
        obstacles.planes(Vec3::new(1.0, 0.0, 0.0), 1.0, 5.0, 0.5, 4.0, &mut near, &mut planes);
        assert!(planes.is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The grid finds every triangle that gives a plane: the planes equal those of a
        /// brute-force pass over all triangles (as sets; the grid's order is its own).
        #[test]
        fn the_grid_gives_the_planes_of_a_brute_force_pass(
            centres in proptest::collection::vec(proptest::array::uniform3(-20.0f32..20.0), 1..200),
            offsets in proptest::collection::vec(proptest::array::uniform3(-2.0f32..2.0), 600),
            position in proptest::array::uniform3(-25.0f32..25.0),
            radius in 0.2f32..2.0,
            reach_over_radius in 1.0f32..8.0,
        ) {
            // Small triangles (about 2 m) scattered over 40 m, so that the grid's cells are
            // small and a query that looked at too few of them would miss some.
            let triangles: Vec<Triangle> = centres
                .iter()
                .zip(offsets.chunks_exact(3))
                .filter_map(|(&c, o)| {
                    let c = Vec3::from(c);
                    Triangle::new(c + Vec3::from(o[0]), c + Vec3::from(o[1]), c + Vec3::from(o[2])).ok()
                })
                .collect();
            let mut obstacles = Obstacles::default();
            obstacles.add(triangles.clone()).unwrap();
            obstacles.prepare(|| 5.0);
            let (position, reach) = (Vec3::from(position), radius * reach_over_radius);
            let (mut near, mut planes) = (Visited::default(), Vec::new());
            obstacles.planes(position, radius, reach, 0.25, 8.0, &mut near, &mut planes);

            let mut expected: Vec<Plane> = Vec::new();
            let p = position.as_dvec3();
            for t in &triangles {
                let offset = p - t.closest_point(p);
                let d = offset.length();
                if d < f64::from(reach) {
                    let n = if d > 0.0 { offset / d } else { t.normal() };
                    let gap = d - f64::from(radius);
                    let speed = if gap >= 0.0 { -gap * 0.25 } else { -gap * 8.0 };
                    let plane = Plane { point: (n * speed).as_vec3(), normal: n.as_vec3() };
                    if !expected.contains(&plane) {
                        expected.push(plane);
                    }
                }
            }
            let key = |p: &Plane| [p.point.x, p.point.y, p.point.z, p.normal.x, p.normal.y, p.normal.z].map(f32::to_bits);
            planes.sort_by_key(key);
            expected.sort_by_key(key);
            proptest::prop_assert_eq!(planes, expected);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The box grid reports every box that meets the query once, and only boxes near it.
        #[test]
        fn the_box_grid_reports_each_box_meeting_the_query_once(
            corners in proptest::collection::vec(proptest::array::uniform3(-30.0f32..30.0), 1..120),
            sizes in proptest::collection::vec(proptest::array::uniform3(0.01f32..25.0), 120),
            centre in proptest::array::uniform3(-40.0f32..40.0),
            half in 0.1f32..20.0,
            cell in 0.5f64..30.0,
        ) {
            let boxes: Vec<Aabb3> = corners
                .iter()
                .zip(&sizes)
                .map(|(&c, &s)| Aabb3 { min: Vec3::from(c), max: Vec3::from(c) + Vec3::from(s) })
                .collect();
            let grid = BoxGrid::build(&boxes, cell);
            let query = Aabb3 { min: Vec3::from(centre) - half, max: Vec3::from(centre) + half };
            let mut reported = Vec::new();
            grid.for_each_near(&query, |b| reported.push(b));
            let count = reported.len();
            reported.sort_unstable();
            reported.dedup();
            proptest::prop_assert_eq!(count, reported.len(), "a box reported twice");
            for (b, solid) in boxes.iter().enumerate() {
                let meets = solid.min.cmple(query.max).all() && query.min.cmple(solid.max).all();
                if meets {
                    proptest::prop_assert!(reported.binary_search(&(b as u32)).is_ok(), "box {} missed", b);
                }
            }
        }
    }

    #[test]
    fn a_box_gives_one_plane_through_its_nearest_point_and_pushes_out_through_the_nearest_face() {
        let mut obstacles = Obstacles::default();
        let solid = Aabb3 { min: Vec3::new(0.0, 0.0, 0.0), max: Vec3::new(4.0, 2.0, 10.0) };
        obstacles.add_box(solid, Vec::new()).unwrap();
        obstacles.prepare(|| 5.0);
        let (mut near, mut planes) = (Visited::default(), Vec::new());
        // Beyond the corner (4, 2, ·): the normal points from the edge to the agent.
        obstacles.planes(Vec3::new(7.0, 6.0, 5.0), 1.0, 10.0, 0.5, 8.0, &mut near, &mut planes);
        assert_eq!(planes.len(), 1);
        assert!((planes[0].normal - Vec3::new(0.6, 0.8, 0.0)).length() < 1e-6, "{planes:?}");
        // Distance 5, radius 1: closing at 4 m / 2 s = 2 m/s along the normal is the limit.
        assert!(planes[0].violation(Vec3::new(-1.2, -1.6, 0.0)).abs() < 1e-6);
        // Inside, 0.5 m from the face x = 4 (the nearest): out along +x at (0.5 + 1) / 0.125.
        planes.clear();
        obstacles.planes(Vec3::new(3.5, 1.0, 5.0), 1.0, 10.0, 0.5, 8.0, &mut near, &mut planes);
        assert_eq!(planes.len(), 1);
        assert_eq!(planes[0].normal, Vec3::X);
        assert!(planes[0].violation(Vec3::new(12.0, 0.0, 0.0)).abs() < 1e-5, "{planes:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        /// Visibility agrees with the segment's distance to the obstacles, measured at 4,001
        /// points along it: a visible segment keeps every point farther than the radius; a
        /// blocked one comes within the radius (so some sample within the radius plus half a
        /// sample's spacing), or runs inside a box.
        #[test]
        fn visibility_agrees_with_the_distance_sampled_along_the_segment(
            boxes in proptest::collection::vec((proptest::array::uniform3(-10.0f32..10.0), proptest::array::uniform3(0.5f32..6.0)), 0..4),
            corners in proptest::collection::vec(proptest::array::uniform3(-12.0f32..12.0), 0..9),
            ends in proptest::array::uniform2(proptest::array::uniform3(-15.0f32..15.0)),
            radius in 0.05f32..3.0,
            removed in proptest::option::of(0usize..4),
        ) {
            let mut obstacles = Obstacles::default();
            let mut solids = Vec::new();
            for (min, size) in &boxes {
                let solid = Aabb3 { min: Vec3::from(*min), max: Vec3::from(*min) + Vec3::from(*size) };
                let v: [Vec3; 8] = std::array::from_fn(|k| Vec3::select(glam::BVec3::new(k & 1 != 0, k & 2 != 0, k & 4 != 0), solid.max, solid.min));
                const FACES: [[u32; 4]; 6] = [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 6, 7, 5]];
                let triangles: Vec<[u32; 3]> = FACES.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
                obstacles.add_box(solid, Triangle::mesh(&v, &triangles).unwrap()).unwrap();
                solids.push(Some(solid));
            }
            let mut meshes = Vec::new();
            for c in corners.chunks_exact(3) {
                if let Ok(t) = Triangle::new(Vec3::from(c[0]), Vec3::from(c[1]), Vec3::from(c[2])) {
                    obstacles.add(vec![t]).unwrap();
                    meshes.push(Some(t));
                    solids.push(None);
                }
            }
            if let Some(k) = removed.filter(|&k| k < solids.len()) {
                obstacles.remove(ObstacleId(k as u32)).unwrap();
                if k < boxes.len() { solids[k] = None } else { meshes[k - boxes.len()] = None }
            }
            let (from, to) = (Vec3::from(ends[0]), Vec3::from(ends[1]));
            let distance = |p: DVec3| {
                let to_boxes = solids.iter().flatten().map(|b| p.distance(p.clamp(b.min.as_dvec3(), b.max.as_dvec3())));
                let to_triangles = meshes.iter().flatten().map(|t| t.closest_point(p).distance(p));
                to_boxes.chain(to_triangles).fold(f64::INFINITY, f64::min)
            };
            const SAMPLES: usize = 4000;
            let nearest = (0..=SAMPLES)
                .map(|i| distance(from.as_dvec3().lerp(to.as_dvec3(), i as f64 / SAMPLES as f64)))
                .fold(f64::INFINITY, f64::min);
            let r = f64::from(radius);
            let half_spacing = f64::from(from.distance(to)) / SAMPLES as f64 / 2.0;
            if obstacles.is_visible(from, to, radius) {
                proptest::prop_assert!(nearest > r * (1.0 - 1e-6), "visible, yet a point {} m from an obstacle", nearest);
            } else {
                proptest::prop_assert!(nearest <= r * (1.0 + 1e-6) + half_spacing, "blocked, yet every point {} m away", nearest);
            }
            // A point: clear exactly when farther than the radius.
            proptest::prop_assert_eq!(obstacles.is_visible(from, from, radius), distance(from.as_dvec3()) > r);
            // Whatever obstacle is looked at first, the answer is the same; a blocked segment
            // notes a blocker that blocks it on its own.
            let visible = obstacles.is_visible(from, to, radius);
            for start in [0, 1, 2, 7, usize::MAX] {
                let mut hint = start;
                proptest::prop_assert_eq!(obstacles.is_visible_hinted(from, to, radius, &mut hint), visible);
                if !visible && hint != start {
                    let mut alone = Obstacles::default();
                    let blocker = obstacles.meshes[hint].clone().unwrap();
                    alone.push(blocker).unwrap();
                    proptest::prop_assert!(!alone.is_visible(from, to, radius));
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// The segment–box distance is the least of the distances sampled along the segment
        /// (to within the samples' spacing), and never more than any of them.
        #[test]
        fn the_segment_box_distance_is_the_least_sampled(
            ends in proptest::array::uniform2(proptest::array::uniform3(-10.0f64..10.0)),
            corner in proptest::array::uniform3(-5.0f64..5.0),
            size in proptest::array::uniform3(0.01f64..6.0),
        ) {
            let (a, b) = (DVec3::from(ends[0]), DVec3::from(ends[1]));
            let (lo, hi) = (DVec3::from(corner), DVec3::from(corner) + DVec3::from(size));
            let exact = segment_box_distance_squared(a, b, lo, hi).sqrt();
            const SAMPLES: usize = 20_000;
            let sampled = (0..=SAMPLES)
                .map(|i| {
                    let p = a.lerp(b, i as f64 / SAMPLES as f64);
                    p.distance(p.clamp(lo, hi))
                })
                .fold(f64::INFINITY, f64::min);
            proptest::prop_assert!(exact <= sampled + 1e-9, "{} above a sample {}", exact, sampled);
            proptest::prop_assert!(sampled <= exact + a.distance(b) / SAMPLES as f64 + 1e-9, "{} far below the samples {}", exact, sampled);
        }
    }

    #[test]
    fn non_finite_arguments_are_never_visible() {
        let obstacles = Obstacles::default();
        assert!(obstacles.is_visible(Vec3::ZERO, Vec3::X, 1.0));
        assert!(!obstacles.is_visible(Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0), 1.0));
        assert!(!obstacles.is_visible(Vec3::splat(f32::INFINITY), Vec3::X, 1.0));
        assert!(!obstacles.is_visible(Vec3::ZERO, Vec3::X, f32::NAN));
        assert!(!obstacles.is_visible(Vec3::ZERO, Vec3::X, -1.0));
        assert!(obstacles.is_visible(Vec3::ZERO, Vec3::X, 0.0));
    }
}
