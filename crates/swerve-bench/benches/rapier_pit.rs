//! rapier2d on the same scenes, for the ratio (dev-dependency only; shared by the criterion
//! bench and the report example through `#[path]`).
//!
//! Configured to do the same work as swerve's world: dynamic balls (density 1, so the same
//! masses), each ball's restitution with `Max` combine (the walls' is 0, so a ball keeps its
//! own against them), no friction unless [`RapierPit::set_friction`], no gravity unless
//! [`RapierPit::set_gravity`], no sleeping (swerve simulates every ball every step), four fixed
//! walls, rapier's default solver iterations, single thread (rapier2d without its `parallel`
//! feature). Rapier also does things swerve does not (a general constraint solver, islands),
//! which is part of what the ratio shows.

use rapier2d::prelude::*;
use swerve::physics::scene::Scene;

/// A rapier world holding a swerve scene.
pub struct RapierPit {
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

impl RapierPit {
    /// Builds the scene in rapier.
    pub fn new(scene: &Scene) -> RapierPit {
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        for b in &scene.balls {
            let body = RigidBodyBuilder::dynamic()
                .translation(vector![b.position.x, b.position.y])
                .linvel(vector![b.velocity.x, b.velocity.y])
                .can_sleep(false)
                .build();
            let handle = bodies.insert(body);
            let collider = ColliderBuilder::ball(b.radius)
                .density(1.0)
                .restitution(b.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .friction(0.0)
                .build();
            colliders.insert_with_parent(collider, handle, &mut bodies);
        }
        let (min, max) = (scene.bounds.min, scene.bounds.max);
        let size = max - min;
        let t = size.max_element() * 0.05 + 1.0;
        let walls = [
            (min.x - t, (min.y + max.y) / 2.0, t, size.y / 2.0 + 2.0 * t),
            (max.x + t, (min.y + max.y) / 2.0, t, size.y / 2.0 + 2.0 * t),
            ((min.x + max.x) / 2.0, min.y - t, size.x / 2.0 + 2.0 * t, t),
            ((min.x + max.x) / 2.0, max.y + t, size.x / 2.0 + 2.0 * t, t),
        ];
        for (x, y, hx, hy) in walls {
            colliders.insert(
                ColliderBuilder::cuboid(hx, hy)
                    .translation(vector![x, y])
                    .restitution(0.0)
                    .restitution_combine_rule(CoefficientCombineRule::Max)
                    .friction(0.0)
                    .build(),
            );
        }
        let params = IntegrationParameters { dt: scene.dt, ..IntegrationParameters::default() };
        RapierPit {
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
            gravity: vector![0.0, 0.0],
        }
    }

    /// Sets gravity (m/s²).
    #[allow(dead_code)] // used by the gravity report, not the criterion bench
    pub fn set_gravity(&mut self, x: f32, y: f32) {
        self.gravity = vector![x, y];
    }

    /// Gives every ball the Coulomb friction coefficient `friction`, combined by `Max` (the
    /// walls' is 0): a ball pair then has `friction` (as swerve's `√(μ·μ)`) and a ball on a
    /// wall its own, as in swerve. Rapier's balls rotate, as swerve's do with friction.
    #[allow(dead_code)] // used by the gravity report, not the criterion bench
    pub fn set_friction(&mut self, friction: f32) {
        for (_, collider) in self.colliders.iter_mut() {
            if collider.parent().is_some() {
                collider.set_friction(friction);
            }
            collider.set_friction_combine_rule(CoefficientCombineRule::Max);
        }
    }

    /// The balls' positions, in the scene's order.
    #[allow(dead_code)] // used by the gravity report, not the criterion bench
    pub fn positions(&self) -> Vec<swerve::Vec2> {
        self.bodies.iter().map(|(_, b)| swerve::Vec2::new(b.translation().x, b.translation().y)).collect()
    }

    /// The balls' speeds (m/s), in the scene's order.
    #[allow(dead_code)] // used by the gravity report, not the criterion bench
    pub fn speeds(&self) -> Vec<f32> {
        self.bodies.iter().map(|(_, b)| b.linvel().norm()).collect()
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

    /// Kinetic energy of the balls, translational and rotational (a sanity check that rapier
    /// simulates the same pit).
    #[allow(dead_code)] // used by the report example, not the criterion bench
    pub fn kinetic_energy(&self) -> f64 {
        let energy = |b: &RigidBody| {
            let spin = f64::from(b.angvel());
            let inertia = f64::from(b.mass_properties().local_mprops.principal_inertia());
            0.5 * f64::from(b.mass()) * f64::from(b.linvel().norm_squared()) + 0.5 * inertia * spin * spin
        };
        self.bodies.iter().map(|(_, b)| energy(b)).sum()
    }
}
