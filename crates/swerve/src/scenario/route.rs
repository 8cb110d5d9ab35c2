//! A mover's route: a polyline of waypoints flown at a constant speed, round and round, back
//! and forth, or once — a patrolling drone, a vehicle on its beat. The mover's state at any
//! time is a function of the distance flown, so it does not drift however long the run.
//!
//! Planar routes are routes with z = 0: the interpolation and the legs' lengths then give the
//! same `f32` x and y as the same sums in two coordinates.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::Error;

/// What a mover does at the end of its route.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteRepeat {
    /// Flies on from the last waypoint to the first and round again.
    #[default]
    Cycle,
    /// Turns at either end and flies the route backwards, then forwards again.
    BackAndForth,
    /// Stops at the last waypoint (its velocity then 0).
    Once,
}

/// A polyline flown at a constant speed ([`Route::at`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The legs' ends in flying order: the waypoints without consecutive repeats, and with
    /// [`RouteRepeat::Cycle`] the first again at the end (unless it already is the last).
    points: Vec<Vec3>,
    /// The distance along the route to each of `points` (m; `f64`, so that a long run's
    /// distance is exact enough to place the mover to the `f32`'s precision).
    along: Vec<f64>,
    speed: f32,
    repeat: RouteRepeat,
}

impl Route {
    /// The route through `waypoints` (flown from the first) at `speed` m/s. Consecutive
    /// repeated waypoints count once. Errors: a non-finite waypoint, fewer than two different
    /// waypoints, a speed that is not positive and finite, a length beyond the float range.
    pub fn new(waypoints: &[Vec3], speed: f32, repeat: RouteRepeat) -> Result<Route, Error> {
        Error::check_positive("route speed", speed)?;
        let mut points: Vec<Vec3> = Vec::with_capacity(waypoints.len() + 1);
        for &p in waypoints {
            Error::check_finite_vec3("route waypoint", p)?;
            if points.last() != Some(&p) {
                points.push(p);
            }
        }
        if points.len() < 2 {
            return Err(Error::OutOfRange {
                what: "route's count of different waypoints",
                requirement: "at least 2",
                value: points.len() as f32,
            });
        }
        if repeat == RouteRepeat::Cycle && points.first() != points.last() {
            points.push(points[0]);
        }
        let mut along = Vec::with_capacity(points.len());
        let mut total = 0.0f64;
        along.push(total);
        for leg in points.windows(2) {
            total += f64::from(leg[0].distance(leg[1]));
            along.push(total);
        }
        if !(total as f32).is_finite() {
            return Err(Error::OutOfRange { what: "route length", requirement: "finite", value: total as f32 });
        }
        Ok(Route { points, along, speed, repeat })
    }

    /// The route's length, start to end (m; with [`RouteRepeat::Cycle`] back to the start).
    pub fn length(&self) -> f64 {
        self.along[self.along.len() - 1]
    }

    /// The speed it is flown at (m/s).
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Where a mover is and how fast it goes after `time` seconds on the route (from its
    /// first waypoint at time 0): its position, and its velocity along the leg it is on
    /// (zero once a [`RouteRepeat::Once`] route is done).
    pub fn at(&self, time: f64) -> (Vec3, Vec3) {
        let length = self.length();
        let flown = (time * f64::from(self.speed)).max(0.0);
        let (distance, forward) = match self.repeat {
            RouteRepeat::Once if flown >= length => return (self.points[self.points.len() - 1], Vec3::ZERO),
            RouteRepeat::Once => (flown, true),
            RouteRepeat::Cycle => (flown.rem_euclid(length), true),
            RouteRepeat::BackAndForth => {
                let u = flown.rem_euclid(2.0 * length);
                if u <= length {
                    (u, true)
                } else {
                    (2.0 * length - u, false)
                }
            }
        };
        // The leg holding `distance`: the last whose start is at or before it (legs have a
        // positive length, so `along` increases).
        let leg = self.along.partition_point(|&a| a <= distance).clamp(1, self.points.len() - 1) - 1;
        let (a, b) = (self.points[leg], self.points[leg + 1]);
        let span = self.along[leg + 1] - self.along[leg];
        let t = ((distance - self.along[leg]) / span).clamp(0.0, 1.0) as f32;
        let direction = (b - a) / span as f32;
        let velocity = direction * if forward { self.speed } else { -self.speed };
        (a + (b - a) * t, velocity)
    }
}

impl Route {
    /// The mover as the agents must expect it for the step of `time_step` seconds that starts
    /// at `time`: where it is, and the velocity that takes it to where the route has it at
    /// the step's end. Along a leg that is [`Route::at`]'s velocity; across a corner or a turn
    /// it is the chord, so that the agents, which extrapolate a mover along its velocity,
    /// avoid the place it will really be.
    pub fn over_step(&self, time: f64, time_step: f32) -> (Vec3, Vec3) {
        let (now, _) = self.at(time);
        let (next, _) = self.at(time + f64::from(time_step));
        (now, (next - now) / time_step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<Vec3> {
        [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]].map(|[x, y]| Vec3::new(x, y, 5.0)).to_vec()
    }

    #[test]
    fn a_cycle_goes_round_and_comes_back_to_its_start() {
        let route = Route::new(&square(), 2.0, RouteRepeat::Cycle).unwrap();
        assert_eq!(route.length(), 40.0);
        assert_eq!(route.at(0.0), (Vec3::new(0.0, 0.0, 5.0), Vec3::new(2.0, 0.0, 0.0)));
        assert_eq!(route.at(7.5), (Vec3::new(10.0, 5.0, 5.0), Vec3::new(0.0, 2.0, 0.0)));
        // The closing leg, from the last waypoint back to the first.
        assert_eq!(route.at(17.5), (Vec3::new(0.0, 5.0, 5.0), Vec3::new(0.0, -2.0, 0.0)));
        assert_eq!(route.at(20.0 * 1_000.0 + 2.5).0, Vec3::new(5.0, 0.0, 5.0), "a thousand rounds on");
    }

    #[test]
    fn back_and_forth_turns_at_each_end() {
        let route = Route::new(&square(), 1.0, RouteRepeat::BackAndForth).unwrap();
        assert_eq!(route.length(), 30.0);
        assert_eq!(route.at(25.0), (Vec3::new(5.0, 10.0, 5.0), Vec3::new(-1.0, 0.0, 0.0)));
        // On the way back along the same leg: the same place, the velocity reversed.
        assert_eq!(route.at(35.0), (Vec3::new(5.0, 10.0, 5.0), Vec3::new(1.0, 0.0, 0.0)));
        assert_eq!(route.at(55.0).0, Vec3::new(5.0, 0.0, 5.0));
        assert_eq!(route.at(60.0).0, square()[0], "back at the start after twice the length");
    }

    #[test]
    fn once_stops_at_the_last_waypoint() {
        let route = Route::new(&square(), 4.0, RouteRepeat::Once).unwrap();
        assert_eq!(route.at(7.0), (Vec3::new(2.0, 10.0, 5.0), Vec3::new(-4.0, 0.0, 0.0)));
        assert_eq!(route.at(7.5), (square()[3], Vec3::ZERO));
        assert_eq!(route.at(1e9), (square()[3], Vec3::ZERO));
    }

    #[test]
    fn the_mover_never_leaves_the_polyline_and_moves_at_its_speed() {
        let points = [Vec3::new(-3.0, 1.0, 0.5), Vec3::new(4.0, -2.0, 7.0), Vec3::new(4.0, -2.0, 7.0), Vec3::Z];
        for repeat in [RouteRepeat::Cycle, RouteRepeat::BackAndForth, RouteRepeat::Once] {
            let route = Route::new(&points, 1.5, repeat).unwrap();
            for k in 0..400 {
                let (p, v) = route.at(f64::from(k) * 0.137);
                let on_a_leg = route.points.windows(2).any(|leg| {
                    let (a, b) = (leg[0], leg[1]);
                    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                    p.distance(a + (b - a) * t) < 1e-4
                });
                assert!(on_a_leg, "{repeat:?} at step {k}: {p} is off the route");
                let done = repeat == RouteRepeat::Once && f64::from(k) * 0.137 * 1.5 >= route.length();
                let speed = if done { 0.0 } else { 1.5 };
                assert!((v.length() - speed).abs() < 1e-5, "{repeat:?} at step {k}: speed {}", v.length());
            }
        }
    }

    #[test]
    fn over_a_step_the_velocity_is_the_chord_to_where_the_step_ends() {
        let route = Route::new(&square(), 2.0, RouteRepeat::BackAndForth).unwrap();
        // Along the first leg: the leg's velocity.
        assert_eq!(route.over_step(1.0, 0.5), (Vec3::new(2.0, 0.0, 5.0), Vec3::new(2.0, 0.0, 0.0)));
        // Round the corner at (10, 0): from (9, 0) to (10, 1) in 1 s.
        assert_eq!(route.over_step(4.5, 1.0), (Vec3::new(9.0, 0.0, 5.0), Vec3::new(1.0, 1.0, 0.0)));
        // Turning back at the end (0, 10) half-way through the step: back where it started.
        assert_eq!(route.over_step(14.5, 1.0), (Vec3::new(1.0, 10.0, 5.0), Vec3::ZERO));
    }

    #[test]
    fn bad_routes_are_refused() {
        let message =
            |points: &[Vec3], speed: f32| Route::new(points, speed, RouteRepeat::Cycle).unwrap_err().to_string();
        assert_eq!(
            message(&[Vec3::ONE, Vec3::ONE], 1.0),
            "route's count of different waypoints must be at least 2, got 1"
        );
        assert_eq!(message(&square(), 0.0), "route speed must be greater than 0, got 0");
        assert_eq!(message(&square(), f32::INFINITY), "route speed must be finite, got inf");
        assert_eq!(message(&[Vec3::ZERO, Vec3::NAN], 1.0), "route waypoint must be finite, got NaN");
        let far = [Vec3::splat(-3e38), Vec3::splat(3e38)];
        assert_eq!(message(&far, 1.0), "route length must be finite, got inf");
    }
}
