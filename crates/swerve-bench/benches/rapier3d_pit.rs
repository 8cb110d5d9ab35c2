//! rapier3d on the same 3-D scenes, for the ratio (dev-dependency only; shared by the criterion
//! bench and the report example through `#[path]`). The 3-D twin of `rapier_pit.rs`.
//!
//! Configured to do the same work as swerve's 3-D world: dynamic balls of density 1 (so the
//! masses of swerve's `Sphere::new`, `4/3 π r³`), each ball's restitution with `Max` combine
//! (the walls' is 0, so a ball keeps its own against them), no friction, no gravity (unless
//! [`Rapier3dPit::set_gravity`]: the 3-D gravity report), no sleeping (swerve simulates every
//! sphere every step), six fixed cuboid walls, rapier's default solver
//! ([`IntegrationParameters::default`]), single thread (rapier3d without its `parallel`
//! feature), no CCD (rapier's default). At the pits' speeds (at most 10 m/s, so
//! pairs close at most 1/3 m per step at `dt = 1/60`) no pair can pass through another in one
//! step (that takes the sum of the radii, at least 0.5 m), so rapier needs no CCD; swerve's
//! continuous detection never runs in the radius-1 pit (it starts at half the smaller radius)
//! and runs for some pairs of small spheres in the mixed pit. Rapier also does things swerve
//! does not (a general constraint solver, islands, rotation), which is part of what the ratio
//! shows.

use rapier3d::prelude::*;
use swerve::physics3d::scene::Scene;

/// A rapier3d world holding a swerve 3-D scene.
pub struct Rapier3dPit {
    pipeline: PhysicsPipeline,
    params: IntegrationParameters,
    islands: IslandManager,
    broad_phase: DefaultBroadPhase,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    ccd: CCDSolver,
    gravity: Vector<f32>,
}

impl Rapier3dPit {
    /// Builds the scene in rapier3d.
    pub fn new(scene: &Scene) -> Rapier3dPit {
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        for s in &scene.spheres {
            let body = RigidBodyBuilder::dynamic()
                .translation(vector![s.position.x, s.position.y, s.position.z])
                .linvel(vector![s.velocity.x, s.velocity.y, s.velocity.z])
                .can_sleep(false)
                .build();
            let handle = bodies.insert(body);
            let collider = ColliderBuilder::ball(s.radius)
                .density(1.0)
                .restitution(s.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .friction(0.0)
                .build();
            colliders.insert_with_parent(collider, handle, &mut bodies);
        }
        // Six slabs of thickness 2t around the box, overlapping at the edges.
        let (min, max) = (scene.bounds.min, scene.bounds.max);
        let (size, mid) = (max - min, (min + max) / 2.0);
        let t = size.max_element() * 0.05 + 1.0;
        let half = size / 2.0 + swerve::physics3d::Vec3::splat(2.0 * t);
        let walls = [
            ([min.x - t, mid.y, mid.z], [t, half.y, half.z]),
            ([max.x + t, mid.y, mid.z], [t, half.y, half.z]),
            ([mid.x, min.y - t, mid.z], [half.x, t, half.z]),
            ([mid.x, max.y + t, mid.z], [half.x, t, half.z]),
            ([mid.x, mid.y, min.z - t], [half.x, half.y, t]),
            ([mid.x, mid.y, max.z + t], [half.x, half.y, t]),
        ];
        for ([x, y, z], [hx, hy, hz]) in walls {
            colliders.insert(
                ColliderBuilder::cuboid(hx, hy, hz)
                    .translation(vector![x, y, z])
                    .restitution(0.0)
                    .restitution_combine_rule(CoefficientCombineRule::Max)
                    .friction(0.0)
                    .build(),
            );
        }
        let params = IntegrationParameters { dt: scene.dt, ..IntegrationParameters::default() };
        Rapier3dPit {
            pipeline: PhysicsPipeline::new(),
            params,
            islands: IslandManager::new(),
            broad_phase: DefaultBroadPhase::new(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            ccd: CCDSolver::new(),
            gravity: vector![0.0, 0.0, 0.0],
        }
    }

    /// Gravity (m/s²; none unless set, as in swerve's world).
    #[allow(dead_code)] // used by the 3-D gravity report, not the criterion bench
    pub fn set_gravity(&mut self, x: f32, y: f32, z: f32) {
        self.gravity = vector![x, y, z];
    }

    /// Adds a fixed triangle mesh as one trimesh collider (rapier's default flags, so both
    /// faces are solid, as swerve's triangles), of the walls' material: restitution 0 with
    /// `Max` combine (a ball keeps its own), no friction. `triangles` index `vertices`.
    #[allow(dead_code)] // used by the hourglass report, not the criterion bench
    pub fn add_trimesh(&mut self, vertices: &[swerve::physics3d::Vec3], triangles: &[[u32; 3]]) {
        let points = vertices.iter().map(|v| point![v.x, v.y, v.z]).collect();
        self.colliders.insert(
            ColliderBuilder::trimesh(points, triangles.to_vec())
                .restitution(0.0)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .friction(0.0)
                .build(),
        );
    }

    /// The balls' speeds (m/s), in the scene's order.
    #[allow(dead_code)] // used by the 3-D gravity report, not the criterion bench
    pub fn speeds(&self) -> Vec<f32> {
        self.bodies.iter().map(|(_, b)| b.linvel().norm()).collect()
    }

    /// The balls' positions, in the scene's order.
    #[allow(dead_code)] // used by the report example, not the criterion bench
    pub fn positions(&self) -> Vec<swerve::physics3d::Vec3> {
        self.bodies
            .iter()
            .map(|(_, b)| {
                let p = b.translation();
                swerve::physics3d::Vec3::new(p.x, p.y, p.z)
            })
            .collect()
    }

    /// One step.
    pub fn step(&mut self) {
        self.pipeline.step(
            &self.gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.ccd,
            None,
            &(),
            &(),
        );
    }

    /// Ball–ball pairs with an active contact in the last step (pairs that gave the solver
    /// contacts: touching or within rapier's prediction distance; walls not counted).
    #[allow(dead_code)] // used by the report example, not the criterion bench
    pub fn ball_contacts(&self) -> usize {
        let is_ball = |h: ColliderHandle| self.colliders.get(h).is_some_and(|c| c.parent().is_some());
        self.narrow_phase
            .contact_pairs()
            .filter(|p| p.has_any_active_contact && is_ball(p.collider1) && is_ball(p.collider2))
            .count()
    }

    /// Kinetic energy of the balls in `f64`, translational and rotational (a sanity check that
    /// rapier simulates the same pit; without friction the balls should not spin). A ball's
    /// inertia is isotropic, so `½ Σ Iₖ ωₖ²` holds in any frame.
    #[allow(dead_code)] // used by the report example, not the criterion bench
    pub fn kinetic_energy(&self) -> f64 {
        let energy = |b: &RigidBody| {
            let inertia = b.mass_properties().local_mprops.principal_inertia();
            let spin: f64 = (0..3).map(|k| f64::from(inertia[k]) * f64::from(b.angvel()[k]).powi(2)).sum();
            0.5 * f64::from(b.mass()) * f64::from(b.linvel().norm_squared()) + 0.5 * spin
        };
        self.bodies.iter().map(|(_, b)| energy(b)).sum()
    }
}

impl swerve_bench::pour3d::Engine for Rapier3dPit {
    fn step(&mut self) {
        Rapier3dPit::step(self);
    }
    fn positions(&self) -> Vec<swerve::physics3d::Vec3> {
        Rapier3dPit::positions(self)
    }
    fn speeds(&self) -> Vec<f32> {
        Rapier3dPit::speeds(self)
    }
}
