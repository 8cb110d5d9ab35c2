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
//! **Finding the triangles.** A uniform grid over the triangles (the 3-D balls' grid, built
//! once after obstacles change) gives the triangles near the cube of half-side
//! `r + max_speed · τ`; a triangle farther than that cannot constrain a velocity within the
//! max-speed sphere.

use glam::{DVec3, Vec3};

use super::plane::Plane;
use crate::orca::ObstacleId;
use crate::physics3d::triangle_grid::TriangleGrid;
use crate::physics3d::{Aabb3, Triangle};
use crate::Error;

/// The obstacle meshes of a 3-D crowd and the grid over their triangles.
#[derive(Clone, Debug, Default)]
pub(crate) struct Obstacles {
    /// Each obstacle's triangles, by id; `None` once removed.
    meshes: Vec<Option<Vec<Triangle>>>,
    /// Every live mesh's triangles, in id order (rebuilt by [`Obstacles::prepare`]).
    triangles: Vec<Triangle>,
    grid: TriangleGrid,
    /// How many triangles the live meshes have.
    live: usize,
    /// Whether `triangles` and `grid` predate the last change.
    stale: bool,
}

impl Obstacles {
    /// Adds a mesh of checked triangles; its id.
    pub(crate) fn add(&mut self, mesh: Vec<Triangle>) -> Result<ObstacleId, Error> {
        let live = self.live + mesh.len();
        // Triangle numbers are `u32` in the grid.
        if live >= u32::MAX as usize || self.meshes.len() >= u32::MAX as usize {
            return Err(Error::OutOfRange {
                what: "obstacle triangle count",
                requirement: "below 2^32 - 1",
                value: live as f32,
            });
        }
        self.meshes.push(Some(mesh));
        self.live = live;
        self.stale = true;
        Ok(ObstacleId(self.meshes.len() as u32 - 1))
    }

    /// Removes obstacle `id`; the other ids stay valid and `id` is not reused.
    pub(crate) fn remove(&mut self, id: ObstacleId) -> Result<(), Error> {
        match self.meshes.get_mut(id.0 as usize) {
            Some(mesh @ Some(_)) => {
                self.live -= mesh.take().map_or(0, |m| m.len());
                self.stale = true;
                Ok(())
            }
            _ => Err(Error::UnknownObstacle(id.0)),
        }
    }

    /// Obstacle `id`'s triangles.
    pub(crate) fn mesh(&self, id: ObstacleId) -> Result<&[Triangle], Error> {
        match self.meshes.get(id.0 as usize) {
            Some(Some(mesh)) => Ok(mesh),
            _ => Err(Error::UnknownObstacle(id.0)),
        }
    }

    /// The live obstacles and their triangles, in id order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ObstacleId, &[Triangle])> + '_ {
        self.meshes.iter().enumerate().filter_map(|(id, mesh)| Some((ObstacleId(id as u32), mesh.as_deref()?)))
    }

    /// Whether there is no live triangle (as of the last [`Obstacles::prepare`]).
    pub(crate) fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// How many live triangles there are (as of the last [`Obstacles::prepare`]): the most a
    /// query can return.
    pub(crate) fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Brings the triangle list and the grid up to date after a change (allocates then only).
    pub(crate) fn prepare(&mut self) {
        if !self.stale {
            return;
        }
        self.triangles = self.meshes.iter().flatten().flatten().copied().collect();
        self.grid = TriangleGrid::build(&self.triangles);
        self.stale = false;
    }

    /// Appends to `out` the hard plane of every triangle within `reach` of `position` (see
    /// the module's account), leaving out a plane equal to one already appended (the corner
    /// that several triangles of a mesh share gives the same plane to each).
    ///
    /// `near` is scratch; with capacity for [`Obstacles::triangle_count`] triangles, this does
    /// not allocate beyond growing `out`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn planes(
        &self,
        position: Vec3,
        radius: f32,
        reach: f32,
        inv_horizon: f32,
        inv_time_step: f32,
        near: &mut Vec<u32>,
        out: &mut Vec<Plane>,
    ) {
        let query = Aabb3 { min: position - Vec3::splat(reach), max: position + Vec3::splat(reach) };
        self.grid.near(&query, near);
        let first = out.len();
        let p = position.as_dvec3();
        let (radius, reach) = (f64::from(radius), f64::from(reach));
        for &t in near.iter() {
            let triangle = &self.triangles[t as usize];
            let offset = p - triangle.closest_point(p);
            let distance_squared = offset.length_squared();
            // `!(a < b)`: a NaN distance (a position too large for `f64` products) adds nothing.
            if !(distance_squared < reach * reach) {
                continue;
            }
            let distance = distance_squared.sqrt();
            // On the triangle itself: away along its normal (either face would do).
            let normal: DVec3 = if distance > 0.0 { offset / distance } else { triangle.normal() };
            let gap = distance - radius;
            let speed = if gap >= 0.0 { -gap * f64::from(inv_horizon) } else { -gap * f64::from(inv_time_step) };
            let plane = Plane { point: (normal * speed).as_vec3(), normal: normal.as_vec3() };
            if plane.is_finite() && !out[first..].contains(&plane) {
                out.push(plane);
            }
        }
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
        obstacles.prepare();
        obstacles
    }

    #[test]
    fn a_wall_ahead_allows_closing_in_at_the_gap_over_the_horizon() {
        let (mut near, mut planes) = (Vec::new(), Vec::new());
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
        let (mut near, mut planes) = (Vec::new(), Vec::new());
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
        obstacles.prepare();
        assert!(obstacles.is_empty());
        let (mut near, mut planes) = (Vec::new(), Vec::new());
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
            obstacles.prepare();
            let (position, reach) = (Vec3::from(position), radius * reach_over_radius);
            let (mut near, mut planes) = (Vec::new(), Vec::new());
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
}
