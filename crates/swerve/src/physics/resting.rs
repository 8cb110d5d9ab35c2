//! Resting contacts under gravity: a projected Gauss–Seidel velocity solver.
//!
//! The world's collisions get one impulse each, which is right for a gas of balls, but a pile
//! pressed down by its own weight is a system: the floor carries the bottom row, which carries
//! the next, and each step gravity pushes every row into the one below. One impulse per pair
//! leaves most of that push unanswered, so balls sink into each other and the position passes
//! shove them out again, forever (a 300-ball pile kept 420 overlapping pairs, up to 76 % of a
//! radius). This module solves all the touching contacts of a step together, as Box2D does
//! (Catto, *Iterative Dynamics with Temporal Coherence*, GDC 2005; *Fast and Simple Physics
//! using Sequential Impulses*, GDC 2006):
//!
//! * each contact is a constraint on the relative normal velocity, `v_n ≥ −gap / dt`: the pair
//!   may close its gap within the step but not move into each other (a *speculative* contact);
//! * the constraints are solved one after another, several times over (projected Gauss–Seidel),
//!   each keeping an accumulated impulse that must stay ≥ 0 (contacts push, never pull);
//! * each contact starts from the impulse it ended the last step with (warm starting), so a
//!   pile's weight, carried down through many rows, does not have to be found again from zero
//!   every step.
//!
//! Which pairs are contacts: those that touch, within a margin of 5 % of a radius. A pair that
//! starts touching this step and approaches faster than the resting speed (a few steps of
//! gravity, see [`crate::physics::World::RESTING_STEPS`]) is an impact instead, and keeps the
//! world's elastic response; a pair the solver held last step stays held, whatever its speed
//! (dropping a fast one would let a pile sink through it), and gets the pair's restitution
//! after the solve if it met an impact.
//!
//! With friction ([`crate::physics::Ball::friction`]) each contact has a second row, along its
//! tangent: an accumulated tangential impulse that stops the two rims sliding past each other,
//! kept within `±μ` times the contact's normal impulse (Coulomb's cone, clamped as Box2D does),
//! and warm-started like the normal one. It turns the discs as well (a solid disc's moment of
//! inertia, `½ m r²`), so a ball on a slope rolls. With rolling resistance
//! ([`crate::physics::Ball::rolling_resistance`]) a third row brakes the two discs' relative
//! spin with an angular impulse of up to the coefficient times the contact's reduced radius
//! `r_a r_b / (r_a + r_b)` (a wall's: the ball's radius) times its normal impulse, as Box2D 3
//! does.
//!
//! What the solve cannot hold (a tall stack needs more sweeps than it gets) the world's
//! position passes push back, but only down to a slop ([`crate::physics::World::RESTING_SLOP`]),
//! so that resting balls stay touching and keep their warm-started impulses. Measured in
//! BENCHMARKS.md ("Gravity"): a 300-ball pile (17 rows) comes to rest with the default 10
//! sweeps; a 15-row pyramid holds; taller stacks sag or, past about 30 rows, need ~100 sweeps.

use glam::{DVec2, Vec2};

use super::ball::{Ball, BallId};
use super::broad_phase::{overlap, Pair};
use super::contact::{BoxWall, Collider};
use super::narrow_phase::closest_point_on_segment;
use super::segment_grid::SegmentGrid;
use super::world::Segment;
use crate::geom::Aabb;

/// No ball: the partner of a contact with a wall or a segment.
const STATIC: u32 = u32::MAX;

/// One touching contact of the step.
#[derive(Clone, Copy, Debug)]
struct RestingContact {
    /// Identifies the contact across steps (warm starting): the first ball's id in the high
    /// half, the partner's code (see [`partner_code`]) in the low half.
    key: u64,
    /// Packed index of the ball.
    a: u32,
    /// Packed index of the partner ball, or [`STATIC`].
    b: u32,
    /// What the partner is, for the contact log (a partner ball by packed index).
    partner: Collider,
    /// Unit normal from `a` towards its partner.
    normal: DVec2,
    /// How fast the two approach along the normal at the start of the solve (m/s).
    approach: f64,
    /// The pair's restitution (the larger of the two balls').
    restitution: f64,
    /// The least relative normal velocity allowed, `−gap / dt` (0 for a pair that overlaps).
    target: f64,
    /// `1 / (1/m_a + 1/m_b)`: the impulse that changes the relative normal velocity by 1.
    mass: f64,
    /// The accumulated impulse along the normal (N·s), pushing the two apart; ≥ 0.
    impulse: f64,
}

/// A resting contact's rows beyond the normal one: friction and rolling resistance. They sit
/// beside the contacts (`RestingContacts::rubs`, same order), and only when some ball has
/// friction or rolling resistance: a frictionless pile's solve then reads contacts half the
/// size (inside them, a 3,000-ball pile at rest stepped 25 % slower).
#[derive(Clone, Copy, Debug)]
struct Rub {
    /// The pair's friction coefficient (0: no tangent row).
    friction: f64,
    /// The lever arms: each ball's radius (0 for a static partner).
    arm_a: f64,
    arm_b: f64,
    /// `1 / (3/m_a + 3/m_b)`: the impulse that changes the rims' sliding speed by 1 (each
    /// solid disc's centre and rim both give way: `1/m + r²/I = 3/m`).
    tangent_mass: f64,
    /// The accumulated impulse along the tangent `perp(normal)` on the partner (N·s), within
    /// `±friction · impulse`.
    tangent_impulse: f64,
    /// Rolling resistance: the largest angular impulse per unit of normal impulse (the pair's
    /// coefficient times its reduced radius, m; 0: no rolling row), each side's inverse moment
    /// of inertia, and the accumulated angular impulse on the partner (N·m·s).
    rolling_arm: f64,
    inverse_inertia_a: f64,
    inverse_inertia_b: f64,
    rolling_impulse: f64,
}

/// The world's resting-contact solver and its buffers (kept between steps: nothing is
/// allocated once they have grown to the scene).
#[derive(Default)]
pub(crate) struct RestingContacts {
    contacts: Vec<RestingContact>,
    /// With friction or rolling resistance anywhere: each contact's other rows, in the order
    /// of `contacts` (empty otherwise).
    rubs: Vec<Rub>,
    /// Last step's contacts as (key, accumulated normal, tangential and rolling impulses),
    /// ordered by key.
    previous: Vec<(u64, [f64; 3])>,
    /// Each ball's velocity during the solve (`f64`, with its residual), and inverse mass.
    velocities: Vec<DVec2>,
    inverse_masses: Vec<f64>,
    /// With friction or rolling resistance anywhere: each ball's angular velocity during the
    /// solve (empty otherwise).
    spins: Vec<f64>,
    /// Which balls a contact touched (their velocities are written back), and their list.
    is_touched: Vec<bool>,
    touched: Vec<u32>,
    /// Scratch: the segments near one ball.
    near: Vec<u32>,
    /// Scratch of the ordering: each ball's first contact, and the contacts in key order.
    starts: Vec<u32>,
    ordered: Vec<RestingContact>,
}

/// What the solver reads of the world.
pub(crate) struct Scene<'a> {
    pub balls: &'a [Ball],
    /// Each ball's velocity residual (see [`crate::physics::World`], "Precision").
    pub residuals: &'a [Vec2],
    pub ids: &'a [BallId],
    /// The step's candidate pairs (swept boxes, which cover each disc and its margin).
    pub pairs: &'a [Pair],
    pub bounds: Option<Aabb>,
    pub segments: &'a [Segment],
    pub segment_boxes: &'a [Aabb],
    pub segment_grid: &'a SegmentGrid,
    /// Whether some ball has friction or rolling resistance (the contacts then get their
    /// friction and rolling rows).
    pub rough: bool,
}

impl RestingContacts {
    /// A contact is a pair whose gap is at most this fraction of the smaller radius (a wall or
    /// segment: of the ball's radius). Less than the swept boxes' room
    /// ([`crate::physics::World::CORRECTION_ROOM`]), so every such pair is a candidate pair.
    pub const MARGIN: f32 = 0.05;

    /// Forgets the warm-start impulses (gravity changed: last step's contacts carried another
    /// weight). Keys are made of ball ids, which edits do not change.
    pub(crate) fn forget(&mut self) {
        self.previous.clear();
    }

    /// Gathers the resting contacts of `scene`, solves them with `iterations` sweeps, and
    /// returns how many there were. `resting_speed` (m/s): a new pair approaching faster is an
    /// impact, left out (module docs). Afterwards [`RestingContacts::solved_velocities`] gives the changed velocities
    /// and [`RestingContacts::impulses`] the contacts' impulses.
    pub(crate) fn solve(&mut self, scene: &Scene<'_>, dt: f32, resting_speed: f64, iterations: usize) -> usize {
        self.gather(scene, dt, resting_speed);
        self.warm_start();
        let contacts = &mut self.contacts;
        let (velocities, inverse_masses) = (&mut self.velocities, &self.inverse_masses);
        self.previous.clear();
        if self.rubs.is_empty() {
            for _ in 0..iterations {
                for c in contacts.iter_mut() {
                    relax(c, c.target, velocities, inverse_masses);
                }
            }
            self.previous.extend(contacts.iter().map(|c| (c.key, [c.impulse, 0.0, 0.0])));
        } else {
            let spins = &mut self.spins;
            for _ in 0..iterations {
                for (c, rub) in contacts.iter_mut().zip(self.rubs.iter_mut()) {
                    // Rolling resistance and friction first, within the limits of the normal
                    // impulse so far (Box2D's order: the normal row then has the last word on
                    // penetration).
                    if rub.rolling_arm > 0.0 {
                        relax_rolling(c, rub, spins);
                    }
                    if rub.friction > 0.0 {
                        relax_friction(c, rub, velocities, inverse_masses, spins);
                    }
                    relax(c, c.target, velocities, inverse_masses);
                }
            }
            let impulses = contacts.iter().zip(&self.rubs);
            self.previous.extend(impulses.map(|(c, r)| (c.key, [c.impulse, r.tangent_impulse, r.rolling_impulse])));
        }
        // Restitution for the held contacts that met an impact (a ball struck from above
        // strikes the floor it rests on), once after the solve and not warm-started, as in
        // Box2D 3: warm-starting a bounce would throw the pair apart again next step.
        for c in contacts.iter_mut() {
            if c.approach > resting_speed && c.impulse > 0.0 && c.restitution > 0.0 {
                relax(c, c.restitution * c.approach, velocities, inverse_masses);
            }
        }
        self.contacts.len()
    }

    /// The balls whose velocity the solve may have changed, with their new `f64` velocity
    /// and, when a contact had friction, their new angular velocity.
    pub(crate) fn solved_velocities(&self) -> impl Iterator<Item = (usize, DVec2, Option<f64>)> + '_ {
        let spins = &self.spins;
        self.touched.iter().map(move |&i| (i as usize, self.velocities[i as usize], spins.get(i as usize).copied()))
    }

    /// The contacts that pushed: (packed ball, partner, impulse on the ball, unit normal from
    /// the ball to its partner).
    pub(crate) fn impulses(&self) -> impl Iterator<Item = (usize, Collider, DVec2, Vec2)> + '_ {
        // A contact can end the solve with no normal impulse but some tangential one (its
        // friction row came before the normal row that let go): that impulse acted too.
        let tangent = |k: usize| self.rubs.get(k).map_or(0.0, |r| r.tangent_impulse);
        let pushed = move |&(k, c): &(usize, &RestingContact)| c.impulse > 0.0 || tangent(k) != 0.0;
        self.contacts.iter().enumerate().filter(pushed).map(move |(k, c)| {
            let on_ball = -c.normal * c.impulse - c.normal.perp() * tangent(k);
            (c.a as usize, c.partner, on_ball, c.normal.as_vec2())
        })
    }

    /// Lists the step's resting contacts, ordered by key (so that the solve does not depend on
    /// the order the broad phase reported its pairs in).
    fn gather(&mut self, scene: &Scene<'_>, dt: f32, resting_speed: f64) {
        let n = scene.balls.len();
        for &i in &self.touched {
            self.is_touched[i as usize] = false;
        }
        self.touched.clear();
        self.is_touched.resize(n, false);
        self.velocities.clear();
        let with_residual = scene.balls.iter().zip(scene.residuals);
        self.velocities.extend(with_residual.map(|(b, r)| b.velocity.as_dvec2() + r.as_dvec2()));
        self.inverse_masses.clear();
        self.inverse_masses.extend(scene.balls.iter().map(|b| 1.0 / f64::from(b.mass)));
        self.spins.clear();
        if scene.rough {
            self.spins.extend(scene.balls.iter().map(|b| f64::from(b.angular_velocity)));
        }
        self.contacts.clear();
        let dt = f64::from(dt);
        let velocities = &self.velocities;
        let inverse_masses = &self.inverse_masses;
        let mut push = |a: usize, b: u32, partner: Collider, code: u32, normal: DVec2, gap: f64, e: f32| {
            let inverse_mass = inverse_masses[a] + if b == STATIC { 0.0 } else { inverse_masses[b as usize] };
            if inverse_mass == 0.0 {
                return; // two kinematic balls
            }
            let vb = if b == STATIC { DVec2::ZERO } else { velocities[b as usize] };
            self.contacts.push(RestingContact {
                key: (u64::from(scene.ids[a].0) << 32) | u64::from(code),
                a: a as u32,
                b,
                partner,
                normal,
                approach: (velocities[a] - vb).dot(normal),
                restitution: f64::from(e),
                target: -gap.max(0.0) / dt,
                mass: 1.0 / inverse_mass,
                impulse: 0.0,
            });
        };
        for &(i, j) in scene.pairs {
            let (a, b) = (&scene.balls[i as usize], &scene.balls[j as usize]);
            let d = b.position.as_dvec2() - a.position.as_dvec2();
            let distance = d.length();
            let gap = distance - f64::from(a.radius + b.radius);
            if gap > f64::from(Self::MARGIN * a.radius.min(b.radius)) || distance == 0.0 {
                continue;
            }
            let partner = Collider::Ball(BallId(j));
            push(
                i as usize,
                j,
                partner,
                partner_code(partner, scene.ids),
                d / distance,
                gap,
                a.restitution.max(b.restitution),
            );
        }
        for (i, ball) in scene.balls.iter().enumerate() {
            if ball.is_kinematic() {
                continue; // passes through walls and segments
            }
            let margin = f64::from(Self::MARGIN * ball.radius);
            let (p, r) = (ball.position.as_dvec2(), f64::from(ball.radius));
            if let Some(bounds) = scene.bounds {
                let (lo, hi) = (bounds.min.as_dvec2(), bounds.max.as_dvec2());
                for axis in 0..2 {
                    for (positive, gap) in [(false, p[axis] - r - lo[axis]), (true, hi[axis] - r - p[axis])] {
                        if gap <= margin {
                            let mut normal = DVec2::ZERO;
                            normal[axis] = if positive { 1.0 } else { -1.0 };
                            let partner = Collider::Wall(BoxWall::on(axis, positive));
                            push(i, STATIC, partner, partner_code(partner, scene.ids), normal, gap, ball.restitution);
                        }
                    }
                }
            }
            let reach = Aabb::around_disc(ball.position, ball.radius * (1.0 + Self::MARGIN));
            self.near.clear();
            scene.segment_grid.near(&reach, &mut self.near);
            for &s in &self.near {
                let (s, segment) = (s as usize, &scene.segments[s as usize]);
                if !overlap(&reach, &scene.segment_boxes[s]) {
                    continue;
                }
                let q = closest_point_on_segment(ball.position, segment.a, segment.b).as_dvec2();
                let d = q - p;
                let distance = d.length();
                if distance - r <= margin && distance > 0.0 {
                    let partner = Collider::Segment(s);
                    push(
                        i,
                        STATIC,
                        partner,
                        partner_code(partner, scene.ids),
                        d / distance,
                        distance - r,
                        ball.restitution,
                    );
                }
            }
        }
        self.order_by_key();
        // Keys are unique but for a pair the broad phase reported twice.
        self.contacts.dedup_by_key(|c| c.key);
        // A contact new this step that approaches fast is an impact, left to the elastic
        // response; one the solver already held last step keeps being held (in a pile it can
        // approach fast when the solve fell short, and dropping it then would let the pile
        // sink through it), starting from last step's impulse. Both lists are ordered by key.
        let mut k = 0;
        let previous = &self.previous;
        let rough = !self.spins.is_empty();
        self.rubs.clear();
        let (rubs, inverse_masses) = (&mut self.rubs, &self.inverse_masses);
        self.contacts.retain_mut(|c| {
            while k < previous.len() && previous[k].0 < c.key {
                k += 1;
            }
            let (keep, warm) = if k < previous.len() && previous[k].0 == c.key {
                c.impulse = previous[k].1[0];
                (true, [previous[k].1[1], previous[k].1[2]])
            } else {
                (c.approach <= resting_speed, [0.0; 2])
            };
            if keep && rough {
                rubs.push(Rub::of(c, scene.balls, inverse_masses, warm));
            }
            keep
        });
        for c in &self.contacts {
            for k in [c.a, c.b] {
                if k != STATIC && !self.is_touched[k as usize] {
                    self.is_touched[k as usize] = true;
                    self.touched.push(k);
                }
            }
        }
    }

    /// Orders the contacts by key: a counting sort by first ball (whose id is the key's high
    /// half, and ids grow with the packed index), then each ball's few contacts by partner.
    /// Sorting the whole list instead moved its ~100-byte entries around and took a quarter
    /// of the solver's time on a 3,000-ball pile.
    fn order_by_key(&mut self) {
        let n = self.is_touched.len();
        let starts = &mut self.starts;
        starts.clear();
        starts.resize(n + 1, 0);
        for c in &self.contacts {
            starts[c.a as usize + 1] += 1;
        }
        for a in 0..n {
            starts[a + 1] += starts[a];
        }
        // Fill with the starts as cursors (which leaves each at the next ball's start).
        self.ordered.clear();
        self.ordered.extend_from_slice(&self.contacts);
        for c in &self.contacts {
            let at = &mut starts[c.a as usize];
            self.ordered[*at as usize] = *c;
            *at += 1;
        }
        let mut from = 0;
        for &end in &starts[..n] {
            self.ordered[from..end as usize].sort_unstable_by_key(|c| c.key);
            from = end as usize;
        }
        std::mem::swap(&mut self.contacts, &mut self.ordered);
    }

    /// Applies the impulses the contacts start from (warm starting).
    fn warm_start(&mut self) {
        for c in &self.contacts {
            let (a, b) = (c.a as usize, c.b as usize);
            self.velocities[a] -= c.normal * (c.impulse * self.inverse_masses[a]);
            if c.b != STATIC {
                self.velocities[b] += c.normal * (c.impulse * self.inverse_masses[b]);
            }
        }
        for (c, rub) in self.contacts.iter().zip(&self.rubs) {
            push_tangent(c, rub, rub.tangent_impulse, &mut self.velocities, &self.inverse_masses, &mut self.spins);
            push_rolling(c, rub, rub.rolling_impulse, &mut self.spins);
        }
    }
}

impl Rub {
    /// Contact `c`'s rows, starting from last step's tangential and rolling impulses `warm`
    /// (kept within this step's limits: a coefficient may have changed since).
    fn of(c: &RestingContact, balls: &[Ball], inverse_masses: &[f64], warm: [f64; 2]) -> Rub {
        let ball_a = &balls[c.a as usize];
        let ra = f64::from(ball_a.radius);
        // Box2D's mixing for a pair's friction, the larger rolling resistance; against a wall
        // or a segment, the ball's own.
        let (friction, rb, rolling_arm) = if c.b == STATIC {
            (f64::from(ball_a.friction), 0.0, f64::from(ball_a.rolling_resistance) * ra)
        } else {
            let ball_b = &balls[c.b as usize];
            let rb = f64::from(ball_b.radius);
            let rolling = f64::from(ball_a.rolling_resistance.max(ball_b.rolling_resistance));
            (f64::from((ball_a.friction * ball_b.friction).sqrt()), rb, rolling * ra * rb / (ra + rb))
        };
        // A solid disc's `1 / I = 2 / (m r²)`, 0 for a kinematic ball or a static partner.
        let inverse_inertia =
            |k: u32, r: f64| if k == STATIC { 0.0 } else { 2.0 * inverse_masses[k as usize] / (r * r) };
        let inverse_mass =
            inverse_masses[c.a as usize] + if c.b == STATIC { 0.0 } else { inverse_masses[c.b as usize] };
        Rub {
            friction,
            arm_a: ra,
            arm_b: rb,
            tangent_mass: 1.0 / (3.0 * inverse_mass),
            tangent_impulse: warm[0].clamp(-friction * c.impulse, friction * c.impulse),
            rolling_arm,
            inverse_inertia_a: inverse_inertia(c.a, ra),
            inverse_inertia_b: inverse_inertia(c.b, rb),
            rolling_impulse: warm[1].clamp(-rolling_arm * c.impulse, rolling_arm * c.impulse),
        }
    }
}

/// One Gauss–Seidel update of contact `c`'s tangent row (`rub`): the impulse change that stops
/// the rims sliding past each other, with the accumulated tangential impulse kept within
/// `±friction · impulse` (Coulomb's cone around the current normal impulse).
#[inline]
fn relax_friction(
    c: &RestingContact,
    rub: &mut Rub,
    velocities: &mut [DVec2],
    inverse_masses: &[f64],
    spins: &mut [f64],
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let (vb, spin_b) = if c.b == STATIC { (DVec2::ZERO, 0.0) } else { (velocities[b], spins[b]) };
    // The rim point of a disc moves at `v + ω × r`; `ω × (r·n) = ω r · perp(n)`.
    let sliding = (vb - velocities[a]).dot(c.normal.perp()) - spin_b * rub.arm_b - spins[a] * rub.arm_a;
    let limit = rub.friction * c.impulse;
    let accumulated = (rub.tangent_impulse - sliding * rub.tangent_mass).clamp(-limit, limit);
    let change = accumulated - rub.tangent_impulse;
    rub.tangent_impulse = accumulated;
    push_tangent(c, rub, change, velocities, inverse_masses, spins);
}

/// One Gauss–Seidel update of contact `c`'s rolling row (`rub`): the angular impulse change
/// that stops the partner turning relative to the ball, with the accumulated angular impulse
/// kept within `±rolling_arm · impulse`.
#[inline]
fn relax_rolling(c: &RestingContact, rub: &mut Rub, spins: &mut [f64]) {
    let spin_b = if c.b == STATIC { 0.0 } else { spins[c.b as usize] };
    let relative_spin = spin_b - spins[c.a as usize];
    let limit = rub.rolling_arm * c.impulse;
    let accumulated =
        (rub.rolling_impulse - relative_spin / (rub.inverse_inertia_a + rub.inverse_inertia_b)).clamp(-limit, limit);
    let change = accumulated - rub.rolling_impulse;
    rub.rolling_impulse = accumulated;
    push_rolling(c, rub, change, spins);
}

/// Applies an angular impulse `j` (N·m·s) at contact `c`: `+j` on the partner, `−j` on the
/// ball.
#[inline]
fn push_rolling(c: &RestingContact, rub: &Rub, j: f64, spins: &mut [f64]) {
    spins[c.a as usize] -= j * rub.inverse_inertia_a;
    if c.b != STATIC {
        spins[c.b as usize] += j * rub.inverse_inertia_b;
    }
}

/// Applies a tangential impulse `j` at contact `c`: `+j·perp(n)` on the partner and the
/// opposite on the ball, each turning its disc by `−j r / I` (both rims are pushed so as to
/// turn their discs the same way).
#[inline]
fn push_tangent(
    c: &RestingContact,
    rub: &Rub,
    j: f64,
    velocities: &mut [DVec2],
    inverse_masses: &[f64],
    spins: &mut [f64],
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let tangent = c.normal.perp();
    velocities[a] -= tangent * (j * inverse_masses[a]);
    spins[a] -= j * rub.arm_a * rub.inverse_inertia_a;
    if c.b != STATIC {
        velocities[b] += tangent * (j * inverse_masses[b]);
        spins[b] -= j * rub.arm_b * rub.inverse_inertia_b;
    }
}

/// One Gauss–Seidel update of contact `c`: the impulse change that brings the relative
/// normal velocity to `target`, with the accumulated impulse kept ≥ 0 (a contact may give
/// back what it pushed earlier in the solve, but never pull).
#[inline]
fn relax(c: &mut RestingContact, target: f64, velocities: &mut [DVec2], inverse_masses: &[f64]) {
    let (a, b) = (c.a as usize, c.b as usize);
    let vb = if c.b == STATIC { DVec2::ZERO } else { velocities[b] };
    let normal_velocity = (vb - velocities[a]).dot(c.normal);
    let accumulated = (c.impulse + (target - normal_velocity) * c.mass).max(0.0);
    let change = accumulated - c.impulse;
    c.impulse = accumulated;
    velocities[a] -= c.normal * (change * inverse_masses[a]);
    if c.b != STATIC {
        velocities[b] += c.normal * (change * inverse_masses[b]);
    }
}

/// The low half of a contact's key: a partner ball's id (below 2³¹, see
/// [`crate::physics::World::add_ball`]), or a wall or segment above it.
fn partner_code(partner: Collider, ids: &[BallId]) -> u32 {
    const STATIC_CODES: u32 = 1 << 31;
    match partner {
        Collider::Ball(j) => ids[j.0 as usize].0,
        Collider::Wall(wall) => STATIC_CODES + wall as u32,
        // Saturates: a world with 2³¹ segments would only share warm starts between its last.
        Collider::Segment(s) => STATIC_CODES.saturating_add(4).saturating_add(u32::try_from(s).unwrap_or(u32::MAX)),
    }
}
