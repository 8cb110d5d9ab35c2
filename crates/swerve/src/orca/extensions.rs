//! Opt-in behaviour beyond RVO2 (issue 8). [`Extensions::default()`] is RVO2 exactly: every
//! option here is off unless asked for, and the reference tests run with the defaults.
//!
//! * [`SymmetryBreaking`] — RVO2's agents can stall forever when they meet perfectly head-on
//!   (seed 004 shows it): ORCA's half-planes are symmetric, so neither side picks a side. This
//!   rule makes every agent prefer passing on the right in a head-on conflict, deterministically.
//! * [`OverlapResolution`] — ORCA guarantees collision-free motion only when the linear program
//!   is feasible; in dense crowds (linear program 3) agents overlap. This removes the residual
//!   overlaps after each step by position projection, without pushing agents into obstacles.
//! * Responsibility weights ([`crate::Simulator::set_agent_responsibility`]), acceleration
//!   limits ([`crate::Simulator::set_agent_max_acceleration`]) and non-cooperative
//!   [`Mover`]s live on the simulator.

use glam::Vec2;

use crate::geom::HalfPlane;
use crate::Error;

/// Options beyond RVO2. The default is RVO2's behaviour, bit for bit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extensions {
    /// Resolve head-on stalls by a consistent right-hand preference. Off by default.
    pub symmetry_breaking: Option<SymmetryBreaking>,
    /// Remove residual overlaps after each step. Off by default.
    pub overlap_resolution: Option<OverlapResolution>,
    /// Clamp every new velocity to the agent's max speed. RVO2's fallback program can exceed
    /// it (by a third in cases proptest found: nearly opposite half-planes make its 1-D
    /// program cancel catastrophically); off by default because the clamp changes those bits.
    pub strict_speed_limit: bool,
}

/// Breaking the symmetry that makes ORCA agents stall.
///
/// Before its linear program every agent's preferred velocity gets a tiny perturbation of
/// length `jitter` (m/s) in a direction drawn from a hash of (`seed`, agent id, step number) —
/// RVO2's own Blocks example does the same with `std::rand`, here it is reproducible and the
/// same for any thread count. On top, an agent that heads at a neighbour (within `cone`
/// radians) heading back at it turns its preferred velocity clockwise by `turn` radians: a
/// consistent right-hand preference, so head-on pairs pass on the right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SymmetryBreaking {
    /// Length of the per-step perturbation of the preferred velocity (m/s).
    pub jitter: f32,
    /// Seed of the perturbation directions.
    pub seed: u64,
    /// Half-angle of the head-on cone (rad).
    pub cone: f32,
    /// How far the preferred velocity turns clockwise in a head-on conflict (rad).
    pub turn: f32,
}

impl Default for SymmetryBreaking {
    /// 0.001 m/s of jitter, seed 0, a 10° head-on cone, a 20° turn.
    fn default() -> Self {
        SymmetryBreaking { jitter: 0.001, seed: 0, cone: 10f32.to_radians(), turn: 20f32.to_radians() }
    }
}

/// A direction in the plane from (seed, agent, step): SplitMix64 finaliser of the mixed
/// inputs, top 24 bits as the angle.
pub(crate) fn jitter_direction(seed: u64, agent: u32, step: u64) -> Vec2 {
    let mut z =
        seed ^ (u64::from(agent)).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ step.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let angle = (z >> 40) as f32 * (std::f32::consts::TAU / (1u64 << 24) as f32);
    Vec2::from_angle(angle)
}

/// "Safe mode": agents keep a clearance `margin` (relative to the sum of radii) from each
/// other, and whatever overlap remains after a step is removed by position projection.
///
/// ORCA avoids collisions only in continuous time and only while its linear program is
/// feasible; with a finite time step and in dense crowds (linear program 3) agents overlap.
/// So, between agents (not obstacles: doorways must still fit):
/// * the ORCA half-planes use radii scaled by `1 + margin`, which leaves room for the
///   discretisation error of a step, and
/// * after each step, `passes` rounds push every pair closer than `(r_i + r_j)(1 + margin)`
///   apart along the line between their centres, each agent by half of the shortfall
///   (Jacobi-style: all corrections of a round are computed from the same positions, so the
///   result does not depend on thread count or agent order), and every agent closer than
///   `(r_i + r_m)(1 + margin)` to a mover out by all of the shortfall (a mover takes no share;
///   it is taken where its velocity carries it by the step's end). A correction that would
///   carry an agent across an obstacle edge or closer to one than its radius is dropped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlapResolution {
    /// Projection rounds per step.
    pub passes: u32,
    /// Clearance kept between agents, as a fraction of the sum of their radii.
    pub margin: f32,
}

impl Default for OverlapResolution {
    /// Two rounds, 5 % clearance. The margin alone removes nearly all overlaps at no cost
    /// (5 overlapping pair-steps against RVO2's 131,778 in the bottleneck scene of
    /// `examples/beyond_rvo2`); two rounds of projection remove the rest.
    fn default() -> Self {
        OverlapResolution { passes: 2, margin: 0.05 }
    }
}

/// RVO2's (and RVO2-3D's) fixed share of the avoidance.
pub(crate) const RVO2_RESPONSIBILITY: f32 = 0.5;

/// The share of the avoidance an agent of weight `mine` takes against one of weight `theirs`:
/// `mine / (mine + theirs)`, or RVO2's ½ when both weights are 0. (Two weights of ½ give
/// exactly ½ too.)
pub(crate) fn share(mine: f32, theirs: f32) -> f32 {
    let sum = mine + theirs;
    if sum > 0.0 {
        mine / sum
    } else {
        RVO2_RESPONSIBILITY
    }
}

/// A disc that moves on its own and does not avoid anyone (a ball of the physics world, a
/// scripted vehicle). Agents take full responsibility for avoiding it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// Centre (m).
    pub position: Vec2,
    /// Velocity (m/s); agents extrapolate the mover along it.
    pub velocity: Vec2,
    /// Radius (m).
    pub radius: f32,
}

/// The movers of a simulator (planar or 3-D) by id, and the live ones packed in the order they
/// were added (what the agents look at).
#[derive(Clone, Debug)]
pub(crate) struct MoverList<M> {
    by_id: Vec<Option<M>>,
    live: Vec<M>,
}

impl<M> Default for MoverList<M> {
    fn default() -> Self {
        MoverList { by_id: Vec::new(), live: Vec::new() }
    }
}

impl<M: Copy> MoverList<M> {
    /// Adds a (checked) mover; its id is the number of movers ever added.
    pub(crate) fn add(&mut self, mover: M) -> Result<MoverId, Error> {
        let id = u32::try_from(self.by_id.len()).map_err(|_| Error::OutOfRange {
            what: "mover count",
            requirement: "below 2^32",
            value: f32::MAX,
        })?;
        self.by_id.push(Some(mover));
        self.live.push(mover);
        Ok(MoverId(id))
    }

    /// Replaces a live mover with a (checked) new state.
    pub(crate) fn set(&mut self, id: MoverId, mover: M) -> Result<(), Error> {
        match self.by_id.get_mut(id.0 as usize) {
            Some(slot @ Some(_)) => *slot = Some(mover),
            _ => return Err(Error::UnknownMover(id.0)),
        }
        self.pack();
        Ok(())
    }

    /// Removes a live mover; the others keep their ids.
    pub(crate) fn remove(&mut self, id: MoverId) -> Result<(), Error> {
        match self.by_id.get_mut(id.0 as usize) {
            Some(slot @ Some(_)) => *slot = None,
            _ => return Err(Error::UnknownMover(id.0)),
        }
        self.pack();
        Ok(())
    }

    /// A live mover's state.
    pub(crate) fn get(&self, id: MoverId) -> Result<M, Error> {
        self.by_id.get(id.0 as usize).copied().flatten().ok_or(Error::UnknownMover(id.0))
    }

    /// The live movers, in the order they were added.
    pub(crate) fn live(&self) -> &[M] {
        &self.live
    }

    fn pack(&mut self) {
        self.live.clear();
        self.live.extend(self.by_id.iter().flatten());
    }
}

/// A handle to a [`Mover`]; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoverId(pub u32);

/// Whether `pref` points at `relative` (a neighbour's offset) within the cone and the
/// neighbour's preferred velocity points back within the cone: a head-on conflict.
#[inline]
pub(crate) fn is_head_on(pref: Vec2, relative: Vec2, other_pref: Vec2, cos_cone: f32) -> bool {
    let (a, b, c) = (pref.length(), relative.length(), other_pref.length());
    if a == 0.0 || b == 0.0 || c == 0.0 {
        return false;
    }
    pref.dot(relative) >= cos_cone * a * b && (-other_pref).dot(relative) >= cos_cone * c * b
}

/// How many sides the polygon of an acceleration limit has.
pub(crate) const ACCELERATION_SIDES: usize = 8;

/// An agent's acceleration limit for one step: its new velocity stays within `reach` (m/s) of
/// `centre`, its current velocity (brought back to its max speed if faster, so that the limit
/// always meets the linear programs' speed disc).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AccelerationLimit {
    centre: Vec2,
    reach: f32,
}

impl AccelerationLimit {
    /// The limit of an agent moving at `velocity` with `max_speed`, whose velocity may change
    /// by `reach` this step.
    pub(crate) fn new(velocity: Vec2, max_speed: f32, reach: f32) -> AccelerationLimit {
        let centre = if velocity.length_squared() > max_speed * max_speed {
            velocity * (max_speed / velocity.length())
        } else {
            velocity
        };
        AccelerationLimit { centre, reach }
    }

    /// The [`ACCELERATION_SIDES`] half-planes bounding a regular octagon inscribed in the
    /// circle of the reach about the centre: inscribed, so every velocity they permit is
    /// within reach; the sides cost at most 1 − cos 22.5° ≈ 7.6 % of the reach between the
    /// corners, which point along the axes and the diagonals. Counterclockwise corners put the
    /// interior on each side's left, as half-planes permit.
    pub(crate) fn half_planes(&self, out: &mut Vec<HalfPlane>) {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let corners = [
            Vec2::new(1.0, 0.0),
            Vec2::new(h, h),
            Vec2::new(0.0, 1.0),
            Vec2::new(-h, h),
            Vec2::new(-1.0, 0.0),
            Vec2::new(-h, -h),
            Vec2::new(0.0, -1.0),
            Vec2::new(h, -h),
        ];
        for k in 0..ACCELERATION_SIDES {
            let (a, b) = (corners[k], corners[(k + 1) % ACCELERATION_SIDES]);
            out.push(HalfPlane { point: self.centre + a * self.reach, direction: (b - a).normalize() });
        }
    }

    /// The preferred velocity as far toward `preferred` as the reach goes. The programs pick
    /// the permitted velocity nearest the preferred one; nearest a far preferred velocity, the
    /// octagon's nearest point can be a corner 22.5° off its direction, while nearest this one
    /// it is within 7.6 % of the reach of it (DetourCrowd clamps the change the same way).
    /// (A preferred velocity within reach is returned as it is, bit for bit: a limit that
    /// never binds changes nothing.)
    pub(crate) fn toward(&self, preferred: Vec2) -> Vec2 {
        let change = preferred - self.centre;
        if change.length_squared() > self.reach * self.reach {
            self.centre + change * (self.reach / change.length())
        } else {
            preferred
        }
    }
}
