//! Resting contacts under gravity: the planar world's projected Gauss–Seidel velocity solver
//! (`crate::physics`'s `resting` module; Catto, *Iterative Dynamics with Temporal Coherence*,
//! GDC 2005) for frictionless spheres.
//!
//! One impulse per colliding pair is right for a gas of spheres, but a pile pressed down by its
//! own weight is a system: the floor carries the bottom layer, which carries the next. Without
//! solving the contacts together a 2,000-sphere pour never settled (mean speed 0.65 m/s after
//! 15 s, overlaps of 7 % of a radius, 38,000 corrections a step). So, as in the plane:
//!
//! * each touching contact (a pair or a sphere and a wall within [`RestingContacts::MARGIN`])
//!   constrains the relative normal velocity, `v_n ≥ −gap / dt` (a speculative contact);
//! * the constraints are relaxed one after another, several sweeps over, each keeping an
//!   accumulated impulse ≥ 0 (contacts push, never pull);
//! * each contact starts from last step's impulse (warm starting), found by a key made of the
//!   two sphere ids;
//! * a contact new this step that approaches faster than the resting speed is an impact, left
//!   to the world's elastic response; a contact already held keeps being held, and gets its
//!   restitution once after the solve if it met an impact;
//! * with friction, each contact also has a tangential row: an accumulated impulse in the
//!   tangent plane that stops the two contact points sliding, kept within a disc of radius `μ`
//!   times the normal impulse (Coulomb's cone) and warm-started like the normal one. It turns
//!   the spheres (module `friction`), so a sphere set sliding on a floor ends up rolling;
//! * with rolling resistance ([`super::Sphere::rolling_resistance`]), a third row brakes the
//!   two spheres' relative rolling (their relative angular velocity in the tangent plane) with
//!   an accumulated angular impulse kept within a disc of radius `c · r_reduced` times the
//!   normal impulse, the planar solver's rolling row (Box2D 3's) in three dimensions.

use glam::{DVec3, Vec3};

use super::broad_phase::Pair;
use super::friction::{apply_tangent_impulse, sliding_velocity, tangent_inverse_mass, ContactSide};
use super::world::pair_friction;
use super::{Aabb3, Sphere, SphereId, Triangle};

/// No sphere: the partner of a contact with a wall.
const WALL: u32 = u32::MAX;

/// One touching contact of the step.
#[derive(Clone, Copy, Debug)]
struct RestingContact {
    /// Identifies the contact across steps (warm starting): the first sphere's id in the high
    /// half, the partner's id (or `2³¹ + wall`) in the low half.
    key: u64,
    /// Packed index of the sphere.
    a: u32,
    /// Packed index of the partner sphere, or [`WALL`].
    b: u32,
    /// Unit normal from `a` towards its partner.
    normal: DVec3,
    /// How fast the two approach along the normal at the start of the solve (m/s).
    approach: f64,
    /// The pair's restitution (the larger of the two spheres').
    restitution: f64,
    /// The least relative normal velocity allowed, `−gap / dt` (0 for a pair that overlaps).
    target: f64,
    /// `1 / (1/m_a + 1/m_b)`: the impulse that changes the relative normal velocity by 1.
    mass: f64,
    /// The accumulated impulse along the normal (N·s), pushing the two apart; ≥ 0.
    impulse: f64,
    /// The contact's friction coefficient (0: no tangential row).
    friction: f64,
    /// The arms from each centre to the contact point, along the normal (m): `r_a` and `−r_b`
    /// (0 for a wall).
    arm_a: f64,
    arm_b: f64,
    /// The accumulated tangential impulse on the partner (N·s), in the tangent plane, within
    /// `friction · impulse`.
    tangent: DVec3,
    /// The rolling row's reach, `c · r_reduced` (m; 0: no rolling row): the accumulated
    /// angular impulse stays within this times the normal impulse.
    rolling_arm: f64,
    /// The accumulated angular impulse on the sphere (N·m·s; the partner gets the opposite),
    /// in the tangent plane.
    rolling: DVec3,
}

/// What a resting contact's sphere touches.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Partner {
    /// A sphere, by packed index.
    Sphere(u32),
    /// The box's wall on an axis (0 = x, 1 = y, 2 = z), at its `max` end or not.
    Wall(usize, bool),
    /// A static triangle, by index.
    Triangle(usize),
}

/// The solver and its buffers (kept between steps: nothing is allocated once they have grown
/// to the scene).
#[derive(Default)]
pub(crate) struct RestingContacts {
    contacts: Vec<RestingContact>,
    /// Last step's contacts as (key, accumulated normal, tangential and rolling impulses),
    /// ordered by key.
    previous: Vec<(u64, f64, DVec3, DVec3)>,
    /// Each sphere's velocity during the solve (`f64`, with its residual), and inverse mass.
    velocities: Vec<DVec3>,
    inverse_masses: Vec<f64>,
    /// With friction or rolling resistance anywhere: each sphere's spin during the solve and
    /// inverse moment of inertia (empty otherwise).
    spins: Vec<DVec3>,
    inverse_inertias: Vec<f64>,
    /// Which spheres a contact touched (their velocities are written back), and their list.
    is_touched: Vec<bool>,
    touched: Vec<u32>,
    /// One sphere's triangles within the contact margin, while they are gathered.
    touches: Vec<TriangleTouch>,
}

/// A triangle within a sphere's contact margin.
#[derive(Clone, Copy, Debug)]
struct TriangleTouch {
    triangle: u32,
    /// The triangle's point nearest the sphere's centre, and the offset to it.
    point: DVec3,
    toward: DVec3,
    distance: f64,
    gap: f64,
    /// Whether `point` is inside the face (not on an edge or corner).
    on_face: bool,
}

/// What the solver reads of the world.
pub(crate) struct Scene<'a> {
    pub spheres: &'a [Sphere],
    /// Each sphere's velocity residual.
    pub residuals: &'a [Vec3],
    pub ids: &'a [SphereId],
    /// The step's candidate pairs (swept boxes, which cover each sphere and its margin).
    pub pairs: &'a [Pair],
    pub bounds: Option<Aabb3>,
    /// The static triangles, and the step's candidate (sphere, triangle) pairs.
    pub triangles: &'a [Triangle],
    pub triangle_pairs: &'a [(u32, u32)],
}

impl RestingContacts {
    /// A contact is a pair whose gap is at most this fraction of the smaller radius (a wall:
    /// of the sphere's radius). Less than the swept boxes' room
    /// ([`super::World::CORRECTION_ROOM`]), so every such pair is a candidate pair.
    pub const MARGIN: f32 = 0.05;

    /// Forgets the warm-start impulses (gravity changed: last step's contacts carried another
    /// weight).
    pub(crate) fn forget(&mut self) {
        self.previous.clear();
    }

    /// Gathers the resting contacts of `scene`, solves them with `iterations` sweeps, and
    /// returns how many there were. `resting_speed` (m/s): a new contact approaching faster is
    /// an impact, left out. Afterwards [`RestingContacts::solved_velocities`] gives the changed
    /// velocities.
    pub(crate) fn solve(&mut self, scene: &Scene<'_>, dt: f32, resting_speed: f64, iterations: usize) -> usize {
        self.gather(scene, dt, resting_speed);
        let (contacts, velocities, inverse_masses) = (&mut self.contacts, &mut self.velocities, &self.inverse_masses);
        let mut bodies = Bodies { spins: &mut self.spins, inverse_inertias: &self.inverse_inertias };
        // Warm start: the impulses each contact ended last step with.
        for c in contacts.iter() {
            velocities[c.a as usize] -= c.normal * (c.impulse * inverse_masses[c.a as usize]);
            if c.b != WALL {
                velocities[c.b as usize] += c.normal * (c.impulse * inverse_masses[c.b as usize]);
            }
            if c.friction > 0.0 {
                bodies.push_tangent(c, c.tangent, velocities, inverse_masses);
            }
            if c.rolling_arm > 0.0 {
                bodies.push_rolling(c, c.rolling);
            }
        }
        for _ in 0..iterations {
            for c in contacts.iter_mut() {
                // Friction first, within the normal impulse so far (Box2D's order: the normal
                // row then has the last word on penetration).
                if c.friction > 0.0 {
                    bodies.relax_friction(c, velocities, inverse_masses);
                }
                if c.rolling_arm > 0.0 {
                    bodies.relax_rolling(c);
                }
                relax(c, c.target, velocities, inverse_masses);
            }
        }
        self.previous.clear();
        self.previous.extend(contacts.iter().map(|c| (c.key, c.impulse, c.tangent, c.rolling)));
        // Restitution for the held contacts that met an impact, once after the solve and not
        // warm-started (as Box2D 3 does: warm-starting a bounce throws the pair apart again).
        for c in contacts.iter_mut() {
            if c.approach > resting_speed && c.impulse > 0.0 && c.restitution > 0.0 {
                relax(c, c.restitution * c.approach, velocities, inverse_masses);
            }
        }
        self.contacts.len()
    }

    /// The spheres whose velocity the solve may have changed, with their new `f64` velocity
    /// and, when some contact had friction, their new spin.
    pub(crate) fn solved_velocities(&self) -> impl Iterator<Item = (usize, DVec3, Option<DVec3>)> + '_ {
        let spins = &self.spins;
        self.touched.iter().map(move |&i| (i as usize, self.velocities[i as usize], spins.get(i as usize).copied()))
    }

    /// The contacts that pushed: (packed sphere, partner, impulse on the sphere, unit normal
    /// from the sphere to its partner). Rolling rows turn the spheres but change no momentum,
    /// so they are not in the impulse.
    pub(crate) fn impulses(&self) -> impl Iterator<Item = (usize, Partner, DVec3, Vec3)> + '_ {
        // A contact can end the solve with no normal impulse but some tangential one (its
        // friction row came before the normal row that let go): that impulse acted too.
        let pushed = |c: &&RestingContact| c.impulse > 0.0 || c.tangent != DVec3::ZERO;
        self.contacts.iter().filter(pushed).map(|c| {
            let partner = if c.b != WALL {
                Partner::Sphere(c.b)
            } else {
                // The low half of the key: `2³¹ + 2·axis + side` for a wall, `2³¹ + 6 + t`
                // for a triangle (`gather`).
                let code = (c.key as u32) - (1 << 31);
                if code < 6 {
                    Partner::Wall((code / 2) as usize, code % 2 == 1)
                } else {
                    Partner::Triangle((code - 6) as usize)
                }
            };
            // `tangent` is the impulse on the partner.
            (c.a as usize, partner, -c.normal * c.impulse - c.tangent, c.normal.as_vec3())
        })
    }

    /// Lists the step's resting contacts, ordered by key (so that the solve does not depend on
    /// the order the broad phase reported its pairs in), and keeps those held last step or
    /// approaching slowly.
    fn gather(&mut self, scene: &Scene<'_>, dt: f32, resting_speed: f64) {
        let n = scene.spheres.len();
        for &i in &self.touched {
            self.is_touched[i as usize] = false;
        }
        self.touched.clear();
        self.is_touched.resize(n, false);
        self.velocities.clear();
        let with_residual = scene.spheres.iter().zip(scene.residuals);
        self.velocities.extend(with_residual.map(|(s, r)| s.velocity.as_dvec3() + r.as_dvec3()));
        self.inverse_masses.clear();
        self.inverse_masses.extend(scene.spheres.iter().map(|s| 1.0 / f64::from(s.mass)));
        self.spins.clear();
        self.inverse_inertias.clear();
        if scene.spheres.iter().any(|s| s.friction > 0.0 || s.rolling_resistance > 0.0) {
            self.spins.extend(scene.spheres.iter().map(|s| s.angular_velocity.as_dvec3()));
            self.inverse_inertias.extend(scene.spheres.iter().map(Sphere::inverse_inertia));
        }
        self.contacts.clear();
        let dt = f64::from(dt);
        let (velocities, inverse_masses) = (&self.velocities, &self.inverse_masses);
        let mut push =
            |a: usize, b: u32, code: u32, normal: DVec3, gap: f64, e: f32, friction: f32, rolling_arm: f64| {
                let inverse_mass = inverse_masses[a] + if b == WALL { 0.0 } else { inverse_masses[b as usize] };
                if inverse_mass == 0.0 {
                    return; // two kinematic spheres
                }
                let vb = if b == WALL { DVec3::ZERO } else { velocities[b as usize] };
                self.contacts.push(RestingContact {
                    key: (u64::from(scene.ids[a].0) << 32) | u64::from(code),
                    a: a as u32,
                    b,
                    normal,
                    approach: (velocities[a] - vb).dot(normal),
                    restitution: f64::from(e),
                    target: -gap.max(0.0) / dt,
                    mass: 1.0 / inverse_mass,
                    impulse: 0.0,
                    friction: f64::from(friction),
                    arm_a: f64::from(scene.spheres[a].radius),
                    arm_b: if b == WALL { 0.0 } else { -f64::from(scene.spheres[b as usize].radius) },
                    tangent: DVec3::ZERO,
                    rolling_arm,
                    rolling: DVec3::ZERO,
                });
            };
        for &(i, j) in scene.pairs {
            let (a, b) = (&scene.spheres[i as usize], &scene.spheres[j as usize]);
            let d = b.position.as_dvec3() - a.position.as_dvec3();
            let distance = d.length();
            let gap = distance - f64::from(a.radius + b.radius);
            if gap > f64::from(Self::MARGIN * a.radius.min(b.radius)) || distance == 0.0 {
                continue;
            }
            // Ids are below 2³¹ (`World::add_sphere`), below the walls' codes.
            let e = a.restitution.max(b.restitution);
            let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
            let rolling_arm = f64::from(a.rolling_resistance.max(b.rolling_resistance)) * ra * rb / (ra + rb);
            push(i as usize, j, scene.ids[j as usize].0, d / distance, gap, e, pair_friction(a, b), rolling_arm);
        }
        if let Some(bounds) = scene.bounds {
            let (lo, hi) = (bounds.min.as_dvec3(), bounds.max.as_dvec3());
            for (i, sphere) in scene.spheres.iter().enumerate() {
                if sphere.is_kinematic() {
                    continue; // passes through walls
                }
                let margin = f64::from(Self::MARGIN * sphere.radius);
                let (p, r) = (sphere.position.as_dvec3(), f64::from(sphere.radius));
                for axis in 0..3 {
                    for (side, gap) in [(0u32, p[axis] - r - lo[axis]), (1, hi[axis] - r - p[axis])] {
                        if gap <= margin {
                            let mut normal = DVec3::ZERO;
                            normal[axis] = if side == 1 { 1.0 } else { -1.0 };
                            let code = (1 << 31) + 2 * axis as u32 + side;
                            let rolling_arm = f64::from(sphere.rolling_resistance) * r;
                            push(i, WALL, code, normal, gap, sphere.restitution, sphere.friction, rolling_arm);
                        }
                    }
                }
            }
        }
        // Each sphere's triangles, a run per sphere (`World::find_triangle_pairs` lists them
        // sphere by sphere).
        let mut rest = scene.triangle_pairs;
        while let Some(&(i, _)) = rest.first() {
            let run = rest.iter().take_while(|pair| pair.0 == i).count();
            let (pairs, after) = rest.split_at(run);
            rest = after;
            let sphere = &scene.spheres[i as usize];
            let center = sphere.position.as_dvec3();
            self.touches.clear();
            for &(_, t) in pairs {
                let triangle = &scene.triangles[t as usize];
                let point = triangle.closest_point(center);
                let toward = point - center;
                let distance = toward.length();
                let gap = distance - f64::from(sphere.radius);
                if gap > f64::from(Self::MARGIN * sphere.radius) || distance == 0.0 {
                    continue;
                }
                // On the face: the nearest point is straight below the centre.
                let on_face = toward.dot(triangle.normal()).abs() >= (1.0 - 1e-9) * distance;
                self.touches.push(TriangleTouch { triangle: t, point, toward, distance, gap, on_face });
            }
            for touch in &self.touches {
                // A mesh's seam: an edge or corner of one triangle where a face the sphere
                // touches no farther away goes on. That contact is the face's seen from its
                // neighbour, with a normal tilted toward the face; kept, it would push a sphere
                // rolling over the seam sideways.
                let scale = 1e-9 * (1.0 + touch.point.abs().max_element());
                let seam = !touch.on_face
                    && self.touches.iter().any(|face| {
                        face.on_face
                            && face.gap <= touch.gap
                            && scene.triangles[face.triangle as usize].closest_point(touch.point).distance(touch.point)
                                <= scale
                    });
                if seam {
                    continue;
                }
                // After the six walls' codes (`World::add_triangles` keeps `t` below 2³¹ − 8).
                let code = (1 << 31) + 6 + touch.triangle;
                let rolling_arm = f64::from(sphere.rolling_resistance) * f64::from(sphere.radius);
                let (e, friction) = (sphere.restitution, sphere.friction);
                push(i as usize, WALL, code, touch.toward / touch.distance, touch.gap, e, friction, rolling_arm);
            }
        }
        self.contacts.sort_unstable_by_key(|c| c.key);
        // Keys are unique but for a pair the broad phase reported twice.
        self.contacts.dedup_by_key(|c| c.key);
        // Held last step: keep, from last step's impulse. New and fast: an impact, left out.
        // Both lists are ordered by key.
        let mut k = 0;
        let previous = &self.previous;
        self.contacts.retain_mut(|c| {
            while k < previous.len() && previous[k].0 < c.key {
                k += 1;
            }
            if k < previous.len() && previous[k].0 == c.key {
                c.impulse = previous[k].1;
                // Last step's tangent and rolling impulses, in this step's tangent plane (the
                // normal turns a little).
                let in_plane = |v: DVec3| v - c.normal * v.dot(c.normal);
                c.tangent = if c.friction > 0.0 { in_plane(previous[k].2) } else { DVec3::ZERO };
                c.rolling = if c.rolling_arm > 0.0 { in_plane(previous[k].3) } else { DVec3::ZERO };
                true
            } else {
                c.approach <= resting_speed
            }
        });
        for c in &self.contacts {
            for k in [c.a, c.b] {
                if k != WALL && !self.is_touched[k as usize] {
                    self.is_touched[k as usize] = true;
                    self.touched.push(k);
                }
            }
        }
    }
}

/// The spheres' spins and inverse inertias during the solve (empty without friction).
struct Bodies<'a> {
    spins: &'a mut [DVec3],
    inverse_inertias: &'a [f64],
}

impl Bodies<'_> {
    /// Contact `c`'s two sides (module `friction`), with the current velocities and spins.
    #[inline]
    fn sides(&self, c: &RestingContact, velocities: &[DVec3], inverse_masses: &[f64]) -> (ContactSide, ContactSide) {
        let side = |k: usize, arm: f64| ContactSide {
            velocity: velocities[k],
            spin: self.spins[k],
            inverse_mass: inverse_masses[k],
            inverse_inertia: self.inverse_inertias[k],
            arm: c.normal * arm,
        };
        let b = if c.b == WALL { ContactSide::STATIC } else { side(c.b as usize, c.arm_b) };
        (side(c.a as usize, c.arm_a), b)
    }

    /// Writes contact `c`'s sides back.
    #[inline]
    fn store(&mut self, c: &RestingContact, a: ContactSide, b: ContactSide, velocities: &mut [DVec3]) {
        velocities[c.a as usize] = a.velocity;
        self.spins[c.a as usize] = a.spin;
        if c.b != WALL {
            velocities[c.b as usize] = b.velocity;
            self.spins[c.b as usize] = b.spin;
        }
    }

    /// Applies tangential impulse `p` on `c`'s partner (and `−p` on its sphere).
    #[inline]
    fn push_tangent(&mut self, c: &RestingContact, p: DVec3, velocities: &mut [DVec3], inverse_masses: &[f64]) {
        let (mut a, mut b) = self.sides(c, velocities, inverse_masses);
        apply_tangent_impulse(&mut a, &mut b, p);
        self.store(c, a, b, velocities);
    }

    /// Relaxes contact `c`'s tangential row: the accumulated impulse that stops the contact
    /// points sliding, clamped to the disc of radius `friction · impulse`.
    #[inline]
    fn relax_friction(&mut self, c: &mut RestingContact, velocities: &mut [DVec3], inverse_masses: &[f64]) {
        let (mut a, mut b) = self.sides(c, velocities, inverse_masses);
        let k = tangent_inverse_mass(&a, &b);
        if k == 0.0 {
            return;
        }
        let wanted = c.tangent - sliding_velocity(&a, &b, c.normal) / k;
        let (limit, length) = (c.friction * c.impulse, wanted.length());
        let accumulated = if length > limit { wanted * (limit / length) } else { wanted };
        apply_tangent_impulse(&mut a, &mut b, accumulated - c.tangent);
        c.tangent = accumulated;
        self.store(c, a, b, velocities);
    }
}

impl Bodies<'_> {
    /// Applies angular impulse `j` to `c`'s sphere and `−j` to its partner.
    #[inline]
    fn push_rolling(&mut self, c: &RestingContact, j: DVec3) {
        self.spins[c.a as usize] += j * self.inverse_inertias[c.a as usize];
        if c.b != WALL {
            self.spins[c.b as usize] -= j * self.inverse_inertias[c.b as usize];
        }
    }

    /// Relaxes contact `c`'s rolling row: the accumulated angular impulse that stops the two
    /// spheres rolling on each other (their relative angular velocity in the tangent plane),
    /// clamped to the disc of radius `rolling_arm · impulse`.
    #[inline]
    fn relax_rolling(&mut self, c: &mut RestingContact) {
        let (a, b) = (c.a as usize, c.b as usize);
        let (spin_b, inverse_b) =
            if c.b == WALL { (DVec3::ZERO, 0.0) } else { (self.spins[b], self.inverse_inertias[b]) };
        let k = self.inverse_inertias[a] + inverse_b;
        if k == 0.0 {
            return;
        }
        let relative = self.spins[a] - spin_b;
        let rolling = relative - c.normal * relative.dot(c.normal);
        let wanted = c.rolling - rolling / k;
        let (limit, length) = (c.rolling_arm * c.impulse, wanted.length());
        let accumulated = if length > limit { wanted * (limit / length) } else { wanted };
        self.push_rolling(c, accumulated - c.rolling);
        c.rolling = accumulated;
    }
}

/// Relaxes one contact towards a relative normal velocity of at least `target`, keeping its
/// accumulated impulse ≥ 0.
#[inline]
fn relax(c: &mut RestingContact, target: f64, velocities: &mut [DVec3], inverse_masses: &[f64]) {
    let (a, b) = (c.a as usize, c.b as usize);
    let vb = if c.b == WALL { DVec3::ZERO } else { velocities[b] };
    let normal_velocity = (vb - velocities[a]).dot(c.normal);
    let accumulated = (c.impulse + (target - normal_velocity) * c.mass).max(0.0);
    let change = accumulated - c.impulse;
    c.impulse = accumulated;
    velocities[a] -= c.normal * (change * inverse_masses[a]);
    if c.b != WALL {
        velocities[b] += c.normal * (change * inverse_masses[b]);
    }
}
