/* swerve's C interface: RVO2-exact ORCA crowd avoidance and rigid-ball physics. Generated
 * by cbindgen from crates/swerve-c/src (see crates/swerve-c/README.md); do not edit by hand. */

#ifndef SWERVE_H
#define SWERVE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// What a call did. Every failure also leaves a message for
// [`swerve_last_error_message`].
typedef enum SwerveStatus {
  // The call succeeded.
  SWERVE_STATUS_OK = 0,
  // A pointer the call needs was null.
  SWERVE_STATUS_NULL_POINTER = 1,
  // An argument was refused: not finite, out of its range, a polygon with too few
  // vertices or crossing edges, a length that does not match, an unknown setting.
  SWERVE_STATUS_INVALID_ARGUMENT = 2,
  // An id names no live agent, obstacle, mover, ball or sphere (never handed out, or
  // removed).
  SWERVE_STATUS_UNKNOWN_ID = 3,
  // The caller's buffer is smaller than the count the call reported.
  SWERVE_STATUS_BUFFER_TOO_SMALL = 4,
  // An agent's last decision was asked for, but the simulator does not record decisions
  // (see `swerve_simulator_set_record_decisions`).
  SWERVE_STATUS_NOT_RECORDED = 5,
  // A bug in swerve: a Rust panic was stopped at the boundary. The handle the call was
  // given may be inconsistent; free it.
  SWERVE_STATUS_PANIC = 6,
} SwerveStatus;

// What kind of thing a ball touched or a ray met.
typedef enum SwerveColliderKind {
  // A ball; the index is its id.
  SWERVE_COLLIDER_KIND_BALL = 0,
  // A static segment; the index is its place in `swerve_world_segments` (a polygon adds
  // one per edge).
  SWERVE_COLLIDER_KIND_SEGMENT = 1,
  // A wall of the world's box; the index is a `SwerveBoxWall`.
  SWERVE_COLLIDER_KIND_WALL = 2,
} SwerveColliderKind;

// What a broad-phase debug box stands for.
typedef enum SwerveDebugBoxKind {
  // An occupied grid cell (uniform, hierarchical, or grid + sort-and-sweep).
  SWERVE_DEBUG_BOX_KIND_GRID_CELL = 0,
  // A quadtree node's loose bounds.
  SWERVE_DEBUG_BOX_KIND_QUADTREE_NODE = 1,
  // A ball's interval on the sweep axis, drawn across the scene's other extent.
  SWERVE_DEBUG_BOX_KIND_SWEEP_INTERVAL = 2,
  // An AABB-tree node's (fat) box.
  SWERVE_DEBUG_BOX_KIND_TREE_NODE = 3,
} SwerveDebugBoxKind;

// What kind of thing a sphere touched or a ray met in a 3-D world.
typedef enum SwerveCollider3dKind {
  // A sphere; the index is its id.
  SWERVE_COLLIDER3D_KIND_SPHERE = 0,
  // A static triangle; the index is its place in `swerve_world3d_triangles` (a mesh adds
  // one per index triple, in order).
  SWERVE_COLLIDER3D_KIND_TRIANGLE = 1,
  // A wall of the world's box; the index is a `SwerveBoxWall3d`.
  SWERVE_COLLIDER3D_KIND_WALL = 2,
} SwerveCollider3dKind;

// The walls of a world's box, as numbered in a `SwerveCollider` of kind wall.
typedef enum SwerveBoxWall {
  // The wall at `bounds.min.x`.
  SWERVE_BOX_WALL_MIN_X = 0,
  // The wall at `bounds.max.x`.
  SWERVE_BOX_WALL_MAX_X = 1,
  // The wall at `bounds.min.y`.
  SWERVE_BOX_WALL_MIN_Y = 2,
  // The wall at `bounds.max.y`.
  SWERVE_BOX_WALL_MAX_Y = 3,
} SwerveBoxWall;

// The walls of a 3-D world's box, as numbered in a `SwerveCollider3d` of kind wall.
typedef enum SwerveBoxWall3d {
  // The wall at `bounds.min.x`.
  SWERVE_BOX_WALL3D_MIN_X = 0,
  // The wall at `bounds.max.x`.
  SWERVE_BOX_WALL3D_MAX_X = 1,
  // The wall at `bounds.min.y`.
  SWERVE_BOX_WALL3D_MIN_Y = 2,
  // The wall at `bounds.max.y`.
  SWERVE_BOX_WALL3D_MAX_Y = 3,
  // The wall at `bounds.min.z`.
  SWERVE_BOX_WALL3D_MIN_Z = 4,
  // The wall at `bounds.max.z`.
  SWERVE_BOX_WALL3D_MAX_Z = 5,
} SwerveBoxWall3d;

// A planar ORCA simulator. Create it with `swerve_simulator_new`, free it with
// `swerve_simulator_free`.
typedef struct SwerveSimulator SwerveSimulator;

// A 3-D ORCA simulator. Create it with `swerve_simulator3d_new`, free it with
// `swerve_simulator3d_free`.
typedef struct SwerveSimulator3d SwerveSimulator3d;

// A world of balls. Create it with `swerve_world_new`, free it with `swerve_world_free`. A
// world steps on the calling thread.
typedef struct SwerveWorld SwerveWorld;

// A world of spheres. Create it with `swerve_world3d_new`, free it with
// `swerve_world3d_free`. A world steps on the calling thread.
typedef struct SwerveWorld3d SwerveWorld3d;

// A vector in the plane: a position (m) or a velocity (m/s).
typedef struct SwerveVec2 {
  // x.
  float x;
  // y.
  float y;
} SwerveVec2;

// A ball: a rigid disc. `swerve_ball_new` fills one with the defaults (unit areal density,
// elastic, frictionless, not spinning); change the fields you need before adding it.
typedef struct SwerveBall {
  // Centre (m).
  struct SwerveVec2 position;
  // Velocity (m/s).
  struct SwerveVec2 velocity;
  // Radius (m), > 0.
  float radius;
  // Mass (kg), > 0; `INFINITY` makes the ball kinematic: it moves only as its velocity
  // says, pushes the balls it meets without being pushed back, passes through box walls,
  // segments and other kinematic balls, and is left out of the energy and momentum.
  float mass;
  // Coefficient of restitution in [0, 1] (1: perfectly elastic). A pair of balls uses the
  // larger of the two.
  float restitution;
  // Coulomb friction coefficient, ≥ 0 (0: frictionless, the ball never spins from a
  // contact). A pair of balls uses √(μa·μb); a wall or a segment the ball's own.
  float friction;
  // Rolling resistance coefficient, ≥ 0: with gravity, resting contacts brake the ball's
  // rolling (on a floor it slows at ⅔·c·g). A pair uses the larger; a wall the ball's own.
  float rolling_resistance;
  // Angular velocity (rad/s, counter-clockwise).
  float angular_velocity;
  // Orientation (rad, counter-clockwise, kept within [−π, π]); it changes nothing in the
  // dynamics but shows a rolling ball turn.
  float angle;
} SwerveBall;

// An axis-aligned box (m): the walls of a world, or a broad phase's cell.
typedef struct SwerveBounds {
  // The corner with the smallest coordinates.
  struct SwerveVec2 min;
  // The corner with the largest coordinates.
  struct SwerveVec2 max;
} SwerveBounds;

// What the last step did (with substeps, each count is the sum over them but
// `correction_passes`, the most any one ran).
typedef struct SwerveStepStats {
  // Ball pairs the broad phase reported (a superset of the colliding pairs).
  size_t candidate_pairs;
  // Ball–ball and ball–segment collisions resolved (box-wall bounces are not counted).
  size_t contacts;
  // Of those, collisions found by continuous detection at their time of impact.
  size_t time_of_impact_events;
  // Balls that ended the step outside their swept box (the broad phase then ran again).
  size_t escaped_swept_boxes;
  // Position-correction passes the discrete pass ran.
  size_t correction_passes;
  // Times a position correction pushed a ball out of its swept box.
  size_t pushed_out_of_box;
  // With gravity: the resting contacts solved together before the move.
  size_t resting_contacts;
} SwerveStepStats;

// A vector of `double`s: the world's totals (momentum), which are summed in double precision.
typedef struct SwerveVec2d {
  // x.
  double x;
  // y.
  double y;
} SwerveVec2d;

// A static segment balls bounce off (both sides are solid).
typedef struct SwerveSegment {
  // First end point (m).
  struct SwerveVec2 a;
  // Second end point (m).
  struct SwerveVec2 b;
} SwerveSegment;

// Something a ball can collide with or a ray can hit.
typedef struct SwerveCollider {
  // A ball, a segment or a wall.
  enum SwerveColliderKind kind;
  // The ball's id, the segment's index or the wall's `SwerveBoxWall` number.
  uint32_t index;
} SwerveCollider;

// A collision of the last step: every resolution between the same two partners within the
// step (its substeps included), folded into one.
typedef struct SwerveContact {
  // The ball's id; of two balls, the one added first.
  uint32_t ball;
  // What it touched.
  struct SwerveCollider partner;
  // Seconds into the step of the first resolution: 0 for resting contacts (with gravity),
  // the time of impact for collisions found by continuous detection and for wall bounces,
  // the step's length for overlaps resolved after the move.
  float time;
  // The total impulse on `ball` (N·s): its momentum changed by this much through this
  // contact, and a partner ball's by the opposite. Zero when the pair was only pushed
  // apart.
  struct SwerveVec2 impulse;
  // Unit normal at the first resolution, from the ball towards its partner.
  struct SwerveVec2 normal;
} SwerveContact;

// What a ray met first.
typedef struct SwerveRayHit {
  // What it met.
  struct SwerveCollider collider;
  // Distance from the ray's origin (m).
  float distance;
  // Where it met it.
  struct SwerveVec2 point;
  // Unit normal of the collider's surface there, facing the ray's origin.
  struct SwerveVec2 normal;
} SwerveRayHit;

// One box of the structure a broad phase built in the last step, for drawing.
typedef struct SwerveDebugBox {
  // What it is.
  enum SwerveDebugBoxKind kind;
  // Grid level (0 = finest) or tree depth (0 = root); 0 when meaningless.
  uint32_t level;
  // The box.
  struct SwerveBounds bounds;
} SwerveDebugBox;

// A vector in space: a position (m) or a velocity (m/s).
typedef struct SwerveVec3 {
  // x.
  float x;
  // y.
  float y;
  // z.
  float z;
} SwerveVec3;

// A sphere: a rigid ball in space. `swerve_sphere_new` fills one with the defaults (unit
// density, elastic, frictionless, not spinning); change the fields you need before adding it.
typedef struct SwerveSphere {
  // Centre (m).
  struct SwerveVec3 position;
  // Velocity (m/s).
  struct SwerveVec3 velocity;
  // Radius (m), > 0.
  float radius;
  // Mass (kg), > 0; `INFINITY` makes the sphere kinematic: it moves only as its velocity
  // says, pushes the spheres it meets without being pushed back, passes through box walls,
  // triangles and other kinematic spheres, and is left out of the energy and momentum.
  float mass;
  // Coefficient of restitution in [0, 1] (1: perfectly elastic). A pair of spheres uses the
  // larger of the two.
  float restitution;
  // Coulomb friction coefficient, ≥ 0 (0: frictionless, the sphere never spins from a
  // contact). A pair uses √(μa·μb); a wall or a triangle the sphere's own.
  float friction;
  // Rolling resistance coefficient, ≥ 0: with gravity, resting contacts brake the sphere's
  // rolling (on a floor it slows at 5/7·c·g). A pair uses the larger; a wall the sphere's
  // own.
  float rolling_resistance;
  // Angular velocity (rad/s, about the axis it points along, right-handed). The sphere's
  // orientation is not tracked.
  struct SwerveVec3 angular_velocity;
} SwerveSphere;

// An axis-aligned box in space (m): the walls of a 3-D world.
typedef struct SwerveBounds3d {
  // The corner with the smallest coordinates.
  struct SwerveVec3 min;
  // The corner with the largest coordinates.
  struct SwerveVec3 max;
} SwerveBounds3d;

// A vector of `double`s: the 3-D world's momentum, which is summed in double precision.
typedef struct SwerveVec3d {
  // x.
  double x;
  // y.
  double y;
  // z.
  double z;
} SwerveVec3d;

// A static triangle spheres bounce off (both faces are solid).
typedef struct SwerveTriangle {
  // First corner (m).
  struct SwerveVec3 a;
  // Second corner (m).
  struct SwerveVec3 b;
  // Third corner (m); the corners' order sets only which face the normal is on.
  struct SwerveVec3 c;
} SwerveTriangle;

// Something a sphere can collide with or a ray can hit in a 3-D world.
typedef struct SwerveCollider3d {
  // A sphere, a triangle or a wall.
  enum SwerveCollider3dKind kind;
  // The sphere's id, the triangle's index or the wall's `SwerveBoxWall3d` number.
  uint32_t index;
} SwerveCollider3d;

// A collision of the last step in a 3-D world: every resolution between the same two
// partners within the step (its substeps included), folded into one.
typedef struct SwerveContact3d {
  // The sphere's id; of two spheres, the one added first.
  uint32_t sphere;
  // What it touched.
  struct SwerveCollider3d partner;
  // Seconds into the step of the first resolution: 0 for resting contacts (with gravity),
  // the time of impact for collisions found by continuous detection and for wall bounces,
  // the (sub)step's end for overlaps resolved after the move.
  float time;
  // The total impulse on `sphere` (N·s): its momentum changed by this much through this
  // contact, and a partner sphere's by the opposite. Zero when the pair was only pushed
  // apart.
  struct SwerveVec3 impulse;
  // Unit normal at the first resolution, from the sphere towards its partner.
  struct SwerveVec3 normal;
} SwerveContact3d;

// What a ray met first in a 3-D world.
typedef struct SwerveRayHit3d {
  // What it met.
  struct SwerveCollider3d collider;
  // Distance from the ray's origin (m).
  float distance;
  // Where it met it.
  struct SwerveVec3 point;
  // Unit normal of the collider's surface there, facing the ray's origin.
  struct SwerveVec3 normal;
} SwerveRayHit3d;

// The parameters RVO2 keeps per agent (the same names and meaning as RVO2's).
typedef struct SwerveAgentParams {
  // How far away other agents are taken into account (m), ≥ 0.
  float neighbor_dist;
  // At most this many nearest agents are taken into account.
  size_t max_neighbors;
  // How far ahead in time collisions with other agents are avoided (s), > 0.
  float time_horizon;
  // How far ahead in time collisions with obstacles are avoided (s), > 0.
  float time_horizon_obst;
  // The agent's radius (m), > 0.
  float radius;
  // The agent's maximum speed (m/s), ≥ 0.
  float max_speed;
} SwerveAgentParams;

// One vertex of the processed obstacles (RVO2's obstacle vertex list, with the vertices
// the obstacle tree added by splitting edges). The edge from this vertex to `next` is part
// of an obstacle.
typedef struct SwerveObstacleVertex {
  // Where the vertex is (m).
  struct SwerveVec2 point;
  // The number of the next vertex along its polygon.
  uint32_t next;
  // The number of the previous vertex along its polygon.
  uint32_t prev;
} SwerveObstacleVertex;

// Breaking the symmetry that makes ORCA agents stall head-on: every preferred velocity gets
// a reproducible perturbation of length `jitter`, and an agent heading at a neighbour that
// heads back at it (within `cone` radians) turns right by `turn` radians.
typedef struct SwerveSymmetryBreaking {
  // Length of the per-step perturbation of the preferred velocity (m/s), ≥ 0.
  float jitter;
  // Seed of the perturbation directions.
  uint64_t seed;
  // Half-angle of the head-on cone (rad).
  float cone;
  // How far the preferred velocity turns clockwise in a head-on conflict (rad).
  float turn;
} SwerveSymmetryBreaking;

// Removing the overlaps a dense crowd leaves after each step.
typedef struct SwerveOverlapResolution {
  // Projection rounds per step.
  uint32_t passes;
  // Clearance kept between agents, as a fraction of the sum of their radii.
  float margin;
} SwerveOverlapResolution;

// A non-cooperative moving disc (a vehicle, a player) that agents avoid with full
// responsibility; it does not avoid them.
typedef struct SwerveMover {
  // Centre (m).
  struct SwerveVec2 position;
  // Velocity (m/s); agents extrapolate the mover along it.
  struct SwerveVec2 velocity;
  // Radius (m), > 0.
  float radius;
} SwerveMover;

// One ORCA half-plane of an agent's last decision (RVO2's `Line`): the velocities to the
// left of the line through `point` along the unit vector `direction` are permitted.
typedef struct SwerveHalfPlane {
  // A point on the boundary (m/s).
  struct SwerveVec2 point;
  // The boundary's unit direction.
  struct SwerveVec2 direction;
} SwerveHalfPlane;

// What an agent's last decision came to: which linear program chose its velocity and how
// many of its half-planes came from obstacles.
typedef struct SwerveDecision {
  // True when every half-plane could be met (RVO2's linear program 2 chose the velocity
  // nearest the preferred one); false when they conflict and the velocity minimises the
  // largest violation (linear program 3, a dense crowd).
  bool feasible;
  // With `feasible` false: the first half-plane linear program 2 could not meet.
  size_t first_infeasible;
  // How many of the agent's half-planes (the first ones) come from obstacles.
  size_t obstacle_half_planes;
} SwerveDecision;

// The parameters RVO2-3D keeps per agent (the same names and meaning as RVO2-3D's; RVO2-3D
// has no obstacles, so the obstacle time horizon is set on its own, with
// `swerve_simulator3d_set_agent_obstacle_time_horizon`).
typedef struct SwerveAgentParams3d {
  // How far away other agents are taken into account (m), ≥ 0.
  float neighbor_dist;
  // At most this many nearest agents are taken into account.
  size_t max_neighbors;
  // How far ahead in time collisions with other agents are avoided (s), > 0.
  float time_horizon;
  // The agent's radius (m), > 0.
  float radius;
  // The agent's maximum speed (m/s), ≥ 0.
  float max_speed;
} SwerveAgentParams3d;

// Breaking the symmetry that makes ORCA agents stall head-on, in 3-D: every preferred
// velocity gets a reproducible perturbation of length `jitter` in a direction over the
// sphere, and an agent heading at a neighbour that heads back at it (within `cone` radians)
// turns clockwise about `up` by `turn` radians (passes on the right, seen from above).
typedef struct SwerveSymmetryBreaking3d {
  // Length of the per-step perturbation of the preferred velocity (m/s), ≥ 0.
  float jitter;
  // Seed of the perturbation directions.
  uint64_t seed;
  // Half-angle of the head-on cone (rad), ≥ 0.
  float cone;
  // How far the preferred velocity turns clockwise about `up` in a head-on conflict (rad).
  float turn;
  // Which way is up (finite, any length but zero).
  struct SwerveVec3 up;
} SwerveSymmetryBreaking3d;

// A non-cooperative moving sphere (a physics body, a scripted aircraft) that agents avoid
// with full responsibility; it does not avoid them.
typedef struct SwerveMover3d {
  // Centre (m).
  struct SwerveVec3 position;
  // Velocity (m/s); agents extrapolate the mover along it.
  struct SwerveVec3 velocity;
  // Radius (m), > 0.
  float radius;
} SwerveMover3d;

// One ORCA plane of an agent's last decision (RVO2-3D's `Plane`): the velocities `v` with
// `(v - point) · normal ≥ 0` are permitted.
typedef struct SwervePlane {
  // A point on the boundary plane (m/s).
  struct SwerveVec3 point;
  // The unit normal, pointing into the permitted side.
  struct SwerveVec3 normal;
} SwervePlane;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// The broad phases' names, as static NUL-terminated strings, brute force first:
// "brute-force", "sort-and-sweep", "uniform-grid", "hierarchical-grid",
// "grid-sort-and-sweep", "quadtree", "aabb-tree". All give the same collisions, bit for bit;
// they differ in speed. `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `out` is null or valid for writing `capacity` pointers; `count` is null or valid for
// writing.
enum SwerveStatus swerve_broad_phase_names(const char **out, size_t capacity, size_t *count);

// A ball with the defaults: mass π r² (unit areal density), restitution 1, no friction, no
// rolling resistance, not spinning, angle 0. Nothing is checked until the ball is added.
//
// # Safety
// `out` is null or valid for writing a `SwerveBall`.
enum SwerveStatus swerve_ball_new(struct SwerveVec2 position,
                                  struct SwerveVec2 velocity,
                                  float radius,
                                  struct SwerveBall *out);

// A kinematic ball (infinite mass; see `SwerveBall::mass`), otherwise as `swerve_ball_new`.
//
// # Safety
// `out` is null or valid for writing a `SwerveBall`.
enum SwerveStatus swerve_ball_kinematic(struct SwerveVec2 position,
                                        struct SwerveVec2 velocity,
                                        float radius,
                                        struct SwerveBall *out);

// Creates an empty world. `bounds` is the box whose walls the balls bounce off (finite, min
// below max on both axes), or null for open space; `broad_phase` names the broad phase (one
// of `swerve_broad_phase_names`; `InvalidArgument` for any other). On success `*out` holds
// the new handle. No gravity, damping or contact records until set.
//
// # Safety
// `bounds` is null or valid for reading; `broad_phase` is null or a NUL-terminated string;
// `out` is null or valid for writing a pointer.
enum SwerveStatus swerve_world_new(const struct SwerveBounds *bounds,
                                   const char *broad_phase,
                                   struct SwerveWorld **out);

// Frees a world. Null is ignored.
//
// # Safety
// `world` is null or a handle from `swerve_world_new` not yet freed; it is invalid after.
void swerve_world_free(struct SwerveWorld *world);

// Advances the world by `dt` seconds (finite, > 0): with `swerve_world_set_substeps` n, as n
// substeps of `dt / n`. Collisions are found at their time of impact, so fast balls do not
// tunnel; the result is the same for every broad phase. Does not allocate once warmed up.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_step(struct SwerveWorld *world, float dt);

// Whether the world has a box (`*out_bounded`), and if so the box (`*out`, written only
// then).
//
// # Safety
// `world` is null or a live handle; `out_bounded` and `out` are null or valid for writing.
enum SwerveStatus swerve_world_bounds(const struct SwerveWorld *world,
                                      bool *out_bounded,
                                      struct SwerveBounds *out);

// The broad phase in use: `*out` receives its name, a static NUL-terminated string.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing a pointer.
enum SwerveStatus swerve_world_broad_phase(const struct SwerveWorld *world, const char **out);

// Switches the broad phase (one of `swerve_broad_phase_names`); the new one builds on the
// next step. The trajectories do not change.
//
// # Safety
// `world` is null or a live handle; `broad_phase` is null or a NUL-terminated string.
enum SwerveStatus swerve_world_set_broad_phase(struct SwerveWorld *world, const char *broad_phase);

// Gravity (m/s², default (0, 0)).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_gravity(const struct SwerveWorld *world, struct SwerveVec2 *out);

// Sets gravity (m/s², finite). With gravity every non-kinematic ball accelerates, and each
// step solves the touching contacts together (sequential impulses, warm-started), so piles
// and stacks come to rest; slow landings rest, faster impacts bounce with the restitution.
// With (0, 0) the step is exactly the one without gravity.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_gravity(struct SwerveWorld *world, struct SwerveVec2 gravity);

// Substeps per step (default 1).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_substeps(const struct SwerveWorld *world, size_t *out);

// Splits every step into `substeps` (1 to 64) substeps of `dt / substeps`: shorter steps hold
// tall stacks better than more solver sweeps, for the same cost.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_substeps(struct SwerveWorld *world, size_t substeps);

// Sweeps of the resting-contact solver per step (default 10).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_solver_iterations(const struct SwerveWorld *world, size_t *out);

// Sets the sweeps of the resting-contact solver per step (1 to 1,000; only with gravity).
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_solver_iterations(struct SwerveWorld *world, size_t iterations);

// Linear damping rate (1/s, default 0).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_linear_damping(const struct SwerveWorld *world, float *out);

// Sets linear damping (1/s, finite, ≥ 0): at the start of each step every velocity is scaled
// by 1 / (1 + c·dt) — the rolling resistance of a top-down table, the drag on a puck.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_linear_damping(struct SwerveWorld *world, float rate);

// Whether collisions are found at their time of impact (default on). Off, the step moves
// the balls and then resolves overlaps, which lets fast balls tunnel.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_continuous_collision(struct SwerveWorld *world, bool on);

// Whether each velocity carries a float residual that makes energy and momentum
// conservation double-exact (default on). Turning it off drops the current residuals.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_velocity_compensation(struct SwerveWorld *world, bool on);

// What the last step did.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_last_step_stats(const struct SwerveWorld *world,
                                               struct SwerveStepStats *out);

// Total kinetic energy (J), translational and rotational, of the non-kinematic balls, summed
// in double precision.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_kinetic_energy(const struct SwerveWorld *world, double *out);

// Total momentum (kg·m/s) of the non-kinematic balls, summed in double precision.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_momentum(const struct SwerveWorld *world, struct SwerveVec2d *out);

// Adds a ball; `*out_id` receives its id. Ids are handed out in order (0, 1, 2, …) and never
// reused. Refused (nothing added): non-finite numbers (but a kinematic ball's infinite
// mass), radius or mass ≤ 0, restitution outside [0, 1], negative friction or rolling
// resistance, a ball that does not fit inside the bounds (a kinematic ball may).
//
// # Safety
// `world` is null or a live handle; `ball` is null or valid for reading; `out_id` is null or
// valid for writing.
enum SwerveStatus swerve_world_add_ball(struct SwerveWorld *world,
                                        const struct SwerveBall *ball,
                                        uint32_t *out_id);

// Adds `count` balls; `out_ids` receives their ids, in order. If any ball is refused (as by
// `swerve_world_add_ball`), none is added and the message names the first.
//
// # Safety
// `world` is null or a live handle; `balls` is null or valid for reading `count` balls;
// `out_ids` is null or valid for writing `count` ids.
enum SwerveStatus swerve_world_add_balls(struct SwerveWorld *world,
                                         const struct SwerveBall *balls,
                                         size_t count,
                                         uint32_t *out_ids);

// Removes a ball; the others keep their ids and their order, and its id is never reused.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_remove_ball(struct SwerveWorld *world, uint32_t id);

// Removes `count` balls in one pass (repeated ids are fine). If any id names no live ball,
// none is removed.
//
// # Safety
// `world` is null or a live handle; `ids` is null or valid for reading `count` ids.
enum SwerveStatus swerve_world_remove_balls(struct SwerveWorld *world,
                                            const uint32_t *ids,
                                            size_t count);

// Whether `id` names a live ball.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_contains_ball(const struct SwerveWorld *world,
                                             uint32_t id,
                                             bool *out);

// How many balls there are.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_num_balls(const struct SwerveWorld *world, size_t *out);

// A ball's whole state.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_ball(const struct SwerveWorld *world,
                                    uint32_t id,
                                    struct SwerveBall *out);

// Replaces a ball's whole state, with `swerve_world_add_ball`'s rules (nothing changes on
// error). A ball moved onto another is pushed out by the next step.
//
// # Safety
// `world` is null or a live handle; `ball` is null or valid for reading.
enum SwerveStatus swerve_world_set_ball(struct SwerveWorld *world,
                                        uint32_t id,
                                        const struct SwerveBall *ball);

// A ball's position (m).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_ball_position(const struct SwerveWorld *world,
                                             uint32_t id,
                                             struct SwerveVec2 *out);

// Moves a ball (m, finite; inside the bounds unless kinematic), keeping its velocity.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_ball_position(struct SwerveWorld *world,
                                                 uint32_t id,
                                                 struct SwerveVec2 position);

// A ball's velocity (m/s).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_ball_velocity(const struct SwerveWorld *world,
                                             uint32_t id,
                                             struct SwerveVec2 *out);

// Sets a ball's velocity (m/s, finite); a kinematic ball is steered this way.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_ball_velocity(struct SwerveWorld *world,
                                                 uint32_t id,
                                                 struct SwerveVec2 velocity);

// A ball's angular velocity (rad/s, counter-clockwise).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_ball_angular_velocity(const struct SwerveWorld *world,
                                                     uint32_t id,
                                                     float *out);

// Sets a ball's angular velocity (rad/s, finite); the rest of the ball stays as it is (this
// is `swerve_world_set_ball` with one field changed, and refused as that would be).
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_ball_angular_velocity(struct SwerveWorld *world,
                                                         uint32_t id,
                                                         float angular_velocity);

// Applies an impulse (N·s, finite) to a ball: its velocity changes by `impulse / mass`, and
// the world's momentum by `impulse` (double precision). A kinematic ball does not change.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_apply_impulse(struct SwerveWorld *world,
                                             uint32_t id,
                                             struct SwerveVec2 impulse);

// The live balls' ids, in the order every other all-balls function uses (the order they
// were added, less the removed ones). `*count` receives the number of balls; `out` must hold
// that many (`BufferTooSmall` otherwise, with `out` untouched).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_ball_ids(const struct SwerveWorld *world,
                                        uint32_t *out,
                                        size_t capacity,
                                        size_t *count);

// Every ball's whole state; `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` balls;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_balls(const struct SwerveWorld *world,
                                     struct SwerveBall *out,
                                     size_t capacity,
                                     size_t *count);

// Every ball's position (m); `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_positions(const struct SwerveWorld *world,
                                         struct SwerveVec2 *out,
                                         size_t capacity,
                                         size_t *count);

// Every ball's velocity (m/s); `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_velocities(const struct SwerveWorld *world,
                                          struct SwerveVec2 *out,
                                          size_t capacity,
                                          size_t *count);

// Every ball's radius (m); `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_radii(const struct SwerveWorld *world,
                                     float *out,
                                     size_t capacity,
                                     size_t *count);

// Every ball's mass (kg; `INFINITY` for kinematic balls); `*count` and `out` as in
// `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_masses(const struct SwerveWorld *world,
                                      float *out,
                                      size_t capacity,
                                      size_t *count);

// Every ball's angular velocity (rad/s); `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_angular_velocities(const struct SwerveWorld *world,
                                                  float *out,
                                                  size_t capacity,
                                                  size_t *count);

// Every ball's orientation (rad, within [−π, π]); `*count` and `out` as in
// `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_angles(const struct SwerveWorld *world,
                                      float *out,
                                      size_t capacity,
                                      size_t *count);

// Moves every ball at once, in the order of `swerve_world_ball_ids`. `count` must equal the
// number of balls and every ball fit inside the bounds at its new place (kinematic balls
// excepted); otherwise nothing changes.
//
// # Safety
// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_world_set_positions(struct SwerveWorld *world,
                                             const struct SwerveVec2 *values,
                                             size_t count);

// Sets every ball's velocity at once, in the order of `swerve_world_ball_ids`. `count` must
// equal the number of balls and every value be finite; otherwise nothing changes.
//
// # Safety
// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_world_set_velocities(struct SwerveWorld *world,
                                              const struct SwerveVec2 *values,
                                              size_t count);

// Adds a static segment from `a` to `b` (finite, distinct), solid on both sides. Segments
// are numbered in the order they are added, from 0.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_add_segment(struct SwerveWorld *world,
                                           struct SwerveVec2 a,
                                           struct SwerveVec2 b);

// Adds the edges of a closed polygon of `count` vertices as static segments, in order (the
// edge from vertex i to i + 1, and the closing one; a single segment for 2 vertices). Either
// winding works. Refused (nothing added): fewer than 2 vertices, non-finite coordinates,
// repeated consecutive vertices, crossing edges.
//
// # Safety
// `world` is null or a live handle; `vertices` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_world_add_polygon(struct SwerveWorld *world,
                                           const struct SwerveVec2 *vertices,
                                           size_t count);

// How many static segments there are (polygon edges included).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_num_segments(const struct SwerveWorld *world, size_t *out);

// The static segments, by number; `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` segments;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_segments(const struct SwerveWorld *world,
                                        struct SwerveSegment *out,
                                        size_t capacity,
                                        size_t *count);

// Whether each step records its collisions for `swerve_world_contacts` (off by default; on,
// a step logs every resolution and sorts the log at its end). Turning it on or off clears
// the last step's records.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world_set_record_contacts(struct SwerveWorld *world, bool on);

// Whether steps record their collisions.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world_records_contacts(const struct SwerveWorld *world, bool *out);

// The last step's collisions, one per touching pair (ball–ball, ball–segment, ball–wall),
// ordered by ball (in the order of `swerve_world_ball_ids`) and partner; none unless
// contacts are recorded. The same for every broad phase. `*count` and `out` as in
// `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` contacts;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_contacts(const struct SwerveWorld *world,
                                        struct SwerveContact *out,
                                        size_t capacity,
                                        size_t *count);

// The ids of the balls whose disc overlaps the circle (`center`, `radius` ≥ 0), in the order
// of `swerve_world_ball_ids`; with `radius` 0, the balls that contain `center`. O(balls).
// `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_balls_in_circle(const struct SwerveWorld *world,
                                               struct SwerveVec2 center,
                                               float radius,
                                               uint32_t *out,
                                               size_t capacity,
                                               size_t *count);

// The first ball (in the order of `swerve_world_ball_ids`) that contains `point`:
// `*out_found` says whether there is one, and `*out_id` (written only then) is its id.
//
// # Safety
// `world` is null or a live handle; `out_found` and `out_id` are null or valid for writing.
enum SwerveStatus swerve_world_ball_at(const struct SwerveWorld *world,
                                       struct SwerveVec2 point,
                                       bool *out_found,
                                       uint32_t *out_id);

// What the ray from `origin` along `direction` (finite, non-zero, any length) meets first
// within `max_distance` (m, ≥ 0, may be `INFINITY`): a ball where the ray enters it (balls
// that contain the origin are skipped), a segment, or a wall of the box. `*out_hit` says
// whether it meets anything, and `*out` (written only then) what. O(balls + segments).
//
// # Safety
// `world` is null or a live handle; `out_hit` and `out` are null or valid for writing.
enum SwerveStatus swerve_world_cast_ray(const struct SwerveWorld *world,
                                        struct SwerveVec2 origin,
                                        struct SwerveVec2 direction,
                                        float max_distance,
                                        bool *out_hit,
                                        struct SwerveRayHit *out);

// The boxes the broad phase built in the last step (grid cells, tree nodes, sweep
// intervals), for drawing over the balls; `*count` and `out` as in `swerve_world_ball_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` boxes;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world_broad_phase_boxes(const struct SwerveWorld *world,
                                                 struct SwerveDebugBox *out,
                                                 size_t capacity,
                                                 size_t *count);

// The 3-D world's broad phases' names, as static NUL-terminated strings, brute force first:
// "brute-force", "sort-and-sweep", "uniform-grid", "hierarchical-grid", "octree". All give
// the same collisions, bit for bit; they differ in speed. `*count` and `out` as in
// `swerve_world3d_sphere_ids`.
//
// # Safety
// `out` is null or valid for writing `capacity` pointers; `count` is null or valid for
// writing.
enum SwerveStatus swerve_broad_phase3d_names(const char **out, size_t capacity, size_t *count);

// A sphere with the defaults: mass 4/3 π r³ (unit density), restitution 1, no friction, no
// rolling resistance, not spinning. Nothing is checked until the sphere is added.
//
// # Safety
// `out` is null or valid for writing a `SwerveSphere`.
enum SwerveStatus swerve_sphere_new(struct SwerveVec3 position,
                                    struct SwerveVec3 velocity,
                                    float radius,
                                    struct SwerveSphere *out);

// A kinematic sphere (infinite mass; see `SwerveSphere::mass`), otherwise as
// `swerve_sphere_new`.
//
// # Safety
// `out` is null or valid for writing a `SwerveSphere`.
enum SwerveStatus swerve_sphere_kinematic(struct SwerveVec3 position,
                                          struct SwerveVec3 velocity,
                                          float radius,
                                          struct SwerveSphere *out);

// Creates an empty 3-D world. `bounds` is the box whose walls the spheres bounce off
// (finite, min below max on every axis), or null for open space; `broad_phase` names the
// broad phase (one of `swerve_broad_phase3d_names`; `InvalidArgument` for any other). On
// success `*out` holds the new handle. No gravity, damping or contact records until set.
//
// # Safety
// `bounds` is null or valid for reading; `broad_phase` is null or a NUL-terminated string;
// `out` is null or valid for writing a pointer.
enum SwerveStatus swerve_world3d_new(const struct SwerveBounds3d *bounds,
                                     const char *broad_phase,
                                     struct SwerveWorld3d **out);

// Frees a 3-D world. Null is ignored.
//
// # Safety
// `world` is null or a handle from `swerve_world3d_new` not yet freed; it is invalid after.
void swerve_world3d_free(struct SwerveWorld3d *world);

// Advances the world by `dt` seconds (finite, > 0): with `swerve_world3d_set_substeps` n, as
// n substeps of `dt / n`. Collisions are found at their time of impact, so fast spheres do
// not tunnel; the result is the same for every broad phase. Does not allocate once warmed
// up.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_step(struct SwerveWorld3d *world, float dt);

// Whether the world has a box (`*out_bounded`), and if so the box (`*out`, written only
// then).
//
// # Safety
// `world` is null or a live handle; `out_bounded` and `out` are null or valid for writing.
enum SwerveStatus swerve_world3d_bounds(const struct SwerveWorld3d *world,
                                        bool *out_bounded,
                                        struct SwerveBounds3d *out);

// The broad phase in use: `*out` receives its name, a static NUL-terminated string.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing a pointer.
enum SwerveStatus swerve_world3d_broad_phase(const struct SwerveWorld3d *world, const char **out);

// Switches the broad phase (one of `swerve_broad_phase3d_names`); the new one builds on the
// next step. The trajectories do not change.
//
// # Safety
// `world` is null or a live handle; `broad_phase` is null or a NUL-terminated string.
enum SwerveStatus swerve_world3d_set_broad_phase(struct SwerveWorld3d *world,
                                                 const char *broad_phase);

// Gravity (m/s², default (0, 0, 0)).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_gravity(const struct SwerveWorld3d *world, struct SwerveVec3 *out);

// Sets gravity (m/s², finite, e.g. (0, 0, −9.81)). With gravity every non-kinematic sphere
// accelerates, and each step solves the touching contacts together (sequential impulses,
// warm-started), so piles come to rest. With (0, 0, 0) the step is exactly the one without
// gravity.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_gravity(struct SwerveWorld3d *world,
                                             struct SwerveVec3 gravity);

// Substeps per step (default 1).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_substeps(const struct SwerveWorld3d *world, size_t *out);

// Splits every step into `substeps` (1 to 64) substeps of `dt / substeps`: deep piles hold
// better with shorter steps than with more solver sweeps.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_substeps(struct SwerveWorld3d *world, size_t substeps);

// Sweeps of the resting-contact solver per step (default 10).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_solver_iterations(const struct SwerveWorld3d *world, size_t *out);

// Sets the sweeps of the resting-contact solver per step (1 to 1,000; only with gravity).
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_solver_iterations(struct SwerveWorld3d *world,
                                                       size_t iterations);

// Linear damping rate (1/s, default 0).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_linear_damping(const struct SwerveWorld3d *world, float *out);

// Sets linear damping (1/s, finite, ≥ 0): at the start of each step every velocity is scaled
// by 1 / (1 + c·dt).
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_linear_damping(struct SwerveWorld3d *world, float rate);

// Whether collisions are found at their time of impact (default on). Off, the step moves
// the spheres and then resolves overlaps, which lets fast spheres tunnel.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_continuous_collision(struct SwerveWorld3d *world, bool on);

// Whether each velocity carries a float residual that makes energy and momentum
// conservation double-exact (default on). Turning it off drops the current residuals.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_velocity_compensation(struct SwerveWorld3d *world, bool on);

// What the last step did (the planar world's statistics: "balls" are spheres here, and
// "segments" triangles).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_last_step_stats(const struct SwerveWorld3d *world,
                                                 struct SwerveStepStats *out);

// Total kinetic energy (J), translational and rotational (I = 2/5 m r²), of the
// non-kinematic spheres, summed in double precision.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_kinetic_energy(const struct SwerveWorld3d *world, double *out);

// Total momentum (kg·m/s) of the non-kinematic spheres, summed in double precision.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_momentum(const struct SwerveWorld3d *world,
                                          struct SwerveVec3d *out);

// Adds a sphere; `*out_id` receives its id. Ids are handed out in order (0, 1, 2, …) and
// never reused. Refused (nothing added): non-finite numbers (but a kinematic sphere's
// infinite mass), radius or mass ≤ 0, restitution outside [0, 1], negative friction or
// rolling resistance, a sphere that does not fit inside the bounds (a kinematic one may).
//
// # Safety
// `world` is null or a live handle; `sphere` is null or valid for reading; `out_id` is null
// or valid for writing.
enum SwerveStatus swerve_world3d_add_sphere(struct SwerveWorld3d *world,
                                            const struct SwerveSphere *sphere,
                                            uint32_t *out_id);

// Adds `count` spheres; `out_ids` receives their ids, in order. If any sphere is refused (as
// by `swerve_world3d_add_sphere`), none is added and the message names the first.
//
// # Safety
// `world` is null or a live handle; `spheres` is null or valid for reading `count` spheres;
// `out_ids` is null or valid for writing `count` ids.
enum SwerveStatus swerve_world3d_add_spheres(struct SwerveWorld3d *world,
                                             const struct SwerveSphere *spheres,
                                             size_t count,
                                             uint32_t *out_ids);

// Removes a sphere; the others keep their ids and their order, and its id is never reused.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_remove_sphere(struct SwerveWorld3d *world, uint32_t id);

// Removes `count` spheres in one pass (repeated ids are fine). If any id names no live
// sphere, none is removed.
//
// # Safety
// `world` is null or a live handle; `ids` is null or valid for reading `count` ids.
enum SwerveStatus swerve_world3d_remove_spheres(struct SwerveWorld3d *world,
                                                const uint32_t *ids,
                                                size_t count);

// Whether `id` names a live sphere.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_contains_sphere(const struct SwerveWorld3d *world,
                                                 uint32_t id,
                                                 bool *out);

// How many spheres there are.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_num_spheres(const struct SwerveWorld3d *world, size_t *out);

// A sphere's whole state.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_sphere(const struct SwerveWorld3d *world,
                                        uint32_t id,
                                        struct SwerveSphere *out);

// Replaces a sphere's whole state, with `swerve_world3d_add_sphere`'s rules (nothing changes
// on error). A sphere moved onto another is pushed out by the next step.
//
// # Safety
// `world` is null or a live handle; `sphere` is null or valid for reading.
enum SwerveStatus swerve_world3d_set_sphere(struct SwerveWorld3d *world,
                                            uint32_t id,
                                            const struct SwerveSphere *sphere);

// A sphere's position (m).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_sphere_position(const struct SwerveWorld3d *world,
                                                 uint32_t id,
                                                 struct SwerveVec3 *out);

// Moves a sphere (m, finite; inside the bounds unless kinematic), keeping its velocity.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_sphere_position(struct SwerveWorld3d *world,
                                                     uint32_t id,
                                                     struct SwerveVec3 position);

// A sphere's velocity (m/s).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_sphere_velocity(const struct SwerveWorld3d *world,
                                                 uint32_t id,
                                                 struct SwerveVec3 *out);

// Sets a sphere's velocity (m/s, finite); a kinematic sphere is steered this way.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_sphere_velocity(struct SwerveWorld3d *world,
                                                     uint32_t id,
                                                     struct SwerveVec3 velocity);

// A sphere's angular velocity (rad/s).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_sphere_angular_velocity(const struct SwerveWorld3d *world,
                                                         uint32_t id,
                                                         struct SwerveVec3 *out);

// Sets a sphere's angular velocity (rad/s, finite); the rest of the sphere stays as it is
// (this is `swerve_world3d_set_sphere` with one field changed, and refused as that would
// be).
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_sphere_angular_velocity(struct SwerveWorld3d *world,
                                                             uint32_t id,
                                                             struct SwerveVec3 angular_velocity);

// Applies an impulse (N·s, finite) to a sphere: its velocity changes by `impulse / mass`,
// and the world's momentum by `impulse` (double precision). A kinematic sphere does not
// change.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_apply_impulse(struct SwerveWorld3d *world,
                                               uint32_t id,
                                               struct SwerveVec3 impulse);

// The live spheres' ids, in the order every other all-spheres function uses (the order they
// were added, less the removed ones). `*count` receives the number of spheres; `out` must
// hold that many (`BufferTooSmall` otherwise, with `out` untouched).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_sphere_ids(const struct SwerveWorld3d *world,
                                            uint32_t *out,
                                            size_t capacity,
                                            size_t *count);

// Every sphere's whole state; `*count` and `out` as in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` spheres;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_spheres(const struct SwerveWorld3d *world,
                                         struct SwerveSphere *out,
                                         size_t capacity,
                                         size_t *count);

// Every sphere's position (m); `*count` and `out` as in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_positions(const struct SwerveWorld3d *world,
                                           struct SwerveVec3 *out,
                                           size_t capacity,
                                           size_t *count);

// Every sphere's velocity (m/s); `*count` and `out` as in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_velocities(const struct SwerveWorld3d *world,
                                            struct SwerveVec3 *out,
                                            size_t capacity,
                                            size_t *count);

// Every sphere's angular velocity (rad/s); `*count` and `out` as in
// `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_angular_velocities(const struct SwerveWorld3d *world,
                                                    struct SwerveVec3 *out,
                                                    size_t capacity,
                                                    size_t *count);

// Every sphere's radius (m); `*count` and `out` as in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_radii(const struct SwerveWorld3d *world,
                                       float *out,
                                       size_t capacity,
                                       size_t *count);

// Every sphere's mass (kg; `INFINITY` for kinematic spheres); `*count` and `out` as in
// `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` floats;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_masses(const struct SwerveWorld3d *world,
                                        float *out,
                                        size_t capacity,
                                        size_t *count);

// Moves every sphere at once, in the order of `swerve_world3d_sphere_ids`. `count` must
// equal the number of spheres and every sphere fit inside the bounds at its new place
// (kinematic spheres excepted); otherwise nothing changes.
//
// # Safety
// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_world3d_set_positions(struct SwerveWorld3d *world,
                                               const struct SwerveVec3 *values,
                                               size_t count);

// Sets every sphere's velocity at once, in the order of `swerve_world3d_sphere_ids`. `count`
// must equal the number of spheres and every value be finite; otherwise nothing changes.
//
// # Safety
// `world` is null or a live handle; `values` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_world3d_set_velocities(struct SwerveWorld3d *world,
                                                const struct SwerveVec3 *values,
                                                size_t count);

// Adds a static triangle with corners `a`, `b`, `c` (m, finite), solid on both faces.
// Refused: a triangle without area (repeated corners, corners in a line, or a sliver so thin
// its normal would be rounding noise). Triangles are numbered in the order they are added,
// from 0.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_add_triangle(struct SwerveWorld3d *world,
                                              struct SwerveVec3 a,
                                              struct SwerveVec3 b,
                                              struct SwerveVec3 c);

// Adds the triangles of a mesh, in order: `indices` holds `triangle_count` triples of
// indices into the `vertex_count` `vertices`. All or nothing: a non-finite vertex, an index
// beyond the vertices or a triangle without area adds none of them (the message names the
// triangle). Shared edges are fine.
//
// # Safety
// `world` is null or a live handle; `vertices` is null or valid for reading `vertex_count`
// vectors; `indices` is null or valid for reading `3 * triangle_count` indices.
enum SwerveStatus swerve_world3d_add_mesh(struct SwerveWorld3d *world,
                                          const struct SwerveVec3 *vertices,
                                          size_t vertex_count,
                                          const uint32_t *indices,
                                          size_t triangle_count);

// How many static triangles there are (mesh triangles included).
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_num_triangles(const struct SwerveWorld3d *world, size_t *out);

// The static triangles, by number; `*count` and `out` as in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` triangles;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_triangles(const struct SwerveWorld3d *world,
                                           struct SwerveTriangle *out,
                                           size_t capacity,
                                           size_t *count);

// Whether each step records its collisions for `swerve_world3d_contacts` (off by default).
// Turning it on or off clears the last step's records.
//
// # Safety
// `world` is null or a live handle.
enum SwerveStatus swerve_world3d_set_record_contacts(struct SwerveWorld3d *world, bool on);

// Whether steps record their collisions.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_world3d_records_contacts(const struct SwerveWorld3d *world, bool *out);

// The last step's collisions, one per touching pair (sphere–sphere, sphere–triangle,
// sphere–wall), ordered by sphere (in the order of `swerve_world3d_sphere_ids`) and partner;
// none unless contacts are recorded. The same for every broad phase. `*count` and `out` as
// in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` contacts;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_contacts(const struct SwerveWorld3d *world,
                                          struct SwerveContact3d *out,
                                          size_t capacity,
                                          size_t *count);

// The ids of the spheres that overlap the ball (`center`, `radius` ≥ 0), in the order of
// `swerve_world3d_sphere_ids`; with `radius` 0, the spheres that contain `center`.
// O(spheres). `*count` and `out` as in `swerve_world3d_sphere_ids`.
//
// # Safety
// `world` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_world3d_spheres_in_ball(const struct SwerveWorld3d *world,
                                                 struct SwerveVec3 center,
                                                 float radius,
                                                 uint32_t *out,
                                                 size_t capacity,
                                                 size_t *count);

// The first sphere (in the order of `swerve_world3d_sphere_ids`) that contains `point`
// (finite): `*out_found` says whether there is one, and `*out_id` (written only then) is its
// id.
//
// # Safety
// `world` is null or a live handle; `out_found` and `out_id` are null or valid for writing.
enum SwerveStatus swerve_world3d_sphere_at(const struct SwerveWorld3d *world,
                                           struct SwerveVec3 point,
                                           bool *out_found,
                                           uint32_t *out_id);

// What the ray from `origin` along `direction` (finite, non-zero, any length) meets first
// within `max_distance` (m, ≥ 0, may be `INFINITY`): a sphere where the ray enters it
// (spheres that contain the origin are skipped), a triangle (either face), or a wall of the
// box. `*out_hit` says whether it meets anything, and `*out` (written only then) what.
// O(spheres + triangles).
//
// # Safety
// `world` is null or a live handle; `out_hit` and `out` are null or valid for writing.
enum SwerveStatus swerve_world3d_cast_ray(const struct SwerveWorld3d *world,
                                          struct SwerveVec3 origin,
                                          struct SwerveVec3 direction,
                                          float max_distance,
                                          bool *out_hit,
                                          struct SwerveRayHit3d *out);

// RVO2's Circle example parameters: 15 m, 10 neighbours, 10 s, 10 s, 1.5 m, 2 m/s.
//
// # Safety
// `out` is null or valid for writing a `SwerveAgentParams`.
enum SwerveStatus swerve_agent_params_default(struct SwerveAgentParams *out);

// Creates a simulator with time step `time_step` (s, > 0) and the parameters agents get
// from `swerve_simulator_add_agent` (`defaults`; null for `swerve_agent_params_default`'s).
// On success `*out` holds the new handle.
//
// # Safety
// `defaults` is null or valid for reading; `out` is null or valid for writing a pointer.
enum SwerveStatus swerve_simulator_new(float time_step,
                                       const struct SwerveAgentParams *defaults,
                                       struct SwerveSimulator **out);

// Frees a simulator. Null is ignored.
//
// # Safety
// `sim` is null or a handle from `swerve_simulator_new` not yet freed; it is invalid after.
void swerve_simulator_free(struct SwerveSimulator *sim);

// How many threads `swerve_simulator_step` uses: 0 for rayon's global pool (as many as the
// machine has cores, or `RAYON_NUM_THREADS`), n ≥ 1 for a pool of n threads owned by this
// simulator. Results are bit for bit the same for any count.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_threads(struct SwerveSimulator *sim, size_t threads);

// Advances the simulation by one time step: every agent picks its new velocity from the
// state at the start of the step (RVO2's `doStep`), then all move. Never fails on a valid
// handle, and does not allocate once warmed up.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_step(struct SwerveSimulator *sim);

// The time step (s).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_time_step(const struct SwerveSimulator *sim, float *out);

// The simulated time (s): the time steps taken so far, summed in `f32` as RVO2 does.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_global_time(const struct SwerveSimulator *sim, float *out);

// The parameters `swerve_simulator_add_agent` gives new agents.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_defaults(const struct SwerveSimulator *sim,
                                                  struct SwerveAgentParams *out);

// How many agents there are.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_num_agents(const struct SwerveSimulator *sim, size_t *out);

// How many obstacles there are (added and not removed, processed or not).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_num_obstacles(const struct SwerveSimulator *sim, size_t *out);

// How many vertices the processed obstacles have (RVO2's `getNumObstacleVertices` after
// `processObstacles`), including those added by splitting edges.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_num_obstacle_vertices(const struct SwerveSimulator *sim,
                                                         size_t *out);

// Sets the time step (s, > 0).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_time_step(struct SwerveSimulator *sim, float time_step);

// Sets the simulated time (s, finite).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_global_time(struct SwerveSimulator *sim, float time);

// Sets the parameters `swerve_simulator_add_agent` gives new agents (existing agents keep
// theirs).
//
// # Safety
// `sim` is null or a live handle; `params` is null or valid for reading.
enum SwerveStatus swerve_simulator_set_agent_defaults(struct SwerveSimulator *sim,
                                                      const struct SwerveAgentParams *params);

// Adds an agent at `position` (m) with the default parameters, at rest. Ids are handed out
// in order (0, 1, 2, …, RVO2's agent numbers while none is removed) and never reused.
//
// # Safety
// `sim` is null or a live handle; `out_id` is null or valid for writing.
enum SwerveStatus swerve_simulator_add_agent(struct SwerveSimulator *sim,
                                             struct SwerveVec2 position,
                                             uint32_t *out_id);

// Adds an agent at `position` (m) with its own parameters, at rest.
//
// # Safety
// `sim` is null or a live handle; `params` is null or valid for reading; `out_id` is null
// or valid for writing.
enum SwerveStatus swerve_simulator_add_agent_with(struct SwerveSimulator *sim,
                                                  struct SwerveVec2 position,
                                                  const struct SwerveAgentParams *params,
                                                  uint32_t *out_id);

// Removes an agent; the others keep their ids.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_remove_agent(struct SwerveSimulator *sim, uint32_t id);

// Whether `id` names a live agent.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_contains_agent(const struct SwerveSimulator *sim,
                                                  uint32_t id,
                                                  bool *out);

// An agent's position (m).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_position(const struct SwerveSimulator *sim,
                                                  uint32_t id,
                                                  struct SwerveVec2 *out);

// Sets an agent's position (m) (finite).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_position(struct SwerveSimulator *sim,
                                                      uint32_t id,
                                                      struct SwerveVec2 value);

// An agent's velocity (m/s).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_velocity(const struct SwerveSimulator *sim,
                                                  uint32_t id,
                                                  struct SwerveVec2 *out);

// Sets an agent's velocity (m/s) (finite).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_velocity(struct SwerveSimulator *sim,
                                                      uint32_t id,
                                                      struct SwerveVec2 value);

// An agent's preferred velocity (m/s): where it would go with nobody around; set it before every step.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_pref_velocity(const struct SwerveSimulator *sim,
                                                       uint32_t id,
                                                       struct SwerveVec2 *out);

// Sets an agent's preferred velocity (m/s) (finite).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_pref_velocity(struct SwerveSimulator *sim,
                                                           uint32_t id,
                                                           struct SwerveVec2 value);

// An agent's parameters.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_params(const struct SwerveSimulator *sim,
                                                uint32_t id,
                                                struct SwerveAgentParams *out);

// Sets an agent's parameters (all checked first; nothing changes on error).
//
// # Safety
// `sim` is null or a live handle; `params` is null or valid for reading.
enum SwerveStatus swerve_simulator_set_agent_params(struct SwerveSimulator *sim,
                                                    uint32_t id,
                                                    const struct SwerveAgentParams *params);

// An agent's share of avoiding its neighbours (0.5 for everyone is RVO2's reciprocity).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_responsibility(const struct SwerveSimulator *sim,
                                                        uint32_t id,
                                                        float *out);

// Sets an agent's responsibility weight (finite, ≥ 0): in a pair, each takes its weight's
// share of the sum of both. Equal weights are RVO2's half each, bit for bit.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_responsibility(struct SwerveSimulator *sim,
                                                            uint32_t id,
                                                            float weight);

// An agent's maximum acceleration (m/s²): `INFINITY` (the default, RVO2's agents) when its
// velocity may change by any amount in a step.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_max_acceleration(const struct SwerveSimulator *sim,
                                                          uint32_t id,
                                                          float *out);

// Limits how fast an agent's velocity may change (m/s², > 0; `INFINITY` lifts the limit):
// each step its new velocity stays within `max_acceleration · time step` of its current one,
// through eight hard half-planes that come after the obstacles' in
// `swerve_simulator_agent_half_planes` and are counted with them in `SwerveDecision`'s
// `obstacle_half_planes`.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_max_acceleration(struct SwerveSimulator *sim,
                                                              uint32_t id,
                                                              float max_acceleration);

// An agent's avoidance layers: the bits other agents' masks look for (1, the first layer,
// unless set).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_avoidance_layers(const struct SwerveSimulator *sim,
                                                          uint32_t id,
                                                          uint32_t *out);

// Sets which avoidance layers an agent is on (a bit mask, as Godot's `avoidance_layers`; any
// value). Agent A avoids agent B when `A.mask & B.layers != 0`: A's neighbours are then the
// `max_neighbors` nearest agents it avoids, and when A avoids B but B ignores A, A takes the
// whole avoidance of B. Layers 0: nobody avoids the agent. The defaults (layers 1, mask 1
// for every agent) are RVO2 bit for bit.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_avoidance_layers(struct SwerveSimulator *sim,
                                                              uint32_t id,
                                                              uint32_t layers);

// An agent's avoidance mask: it avoids the agents whose layers share a bit with it (1, the
// first layer, unless set).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_avoidance_mask(const struct SwerveSimulator *sim,
                                                        uint32_t id,
                                                        uint32_t *out);

// Sets which avoidance layers an agent avoids (a bit mask, as Godot's `avoidance_mask`; any
// value; see `swerve_simulator_set_agent_avoidance_layers`). Mask 0: the agent avoids no other
// agent (it still avoids obstacles and movers).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_agent_avoidance_mask(struct SwerveSimulator *sim,
                                                            uint32_t id,
                                                            uint32_t mask);

// The live agents' ids, in the order every other all-agents function uses (the order they
// were added, less the removed ones). `*count` receives the number of agents; `out` must
// hold that many (`BufferTooSmall` otherwise, with `out` untouched).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_ids(const struct SwerveSimulator *sim,
                                             uint32_t *out,
                                             size_t capacity,
                                             size_t *count);

// Every agent's position (m), in the order of `swerve_simulator_agent_ids`; `*count` and `out`
// as there.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_positions(const struct SwerveSimulator *sim,
                                             struct SwerveVec2 *out,
                                             size_t capacity,
                                             size_t *count);

// Every agent's velocity (m/s), in the order of `swerve_simulator_agent_ids`; `*count` and `out`
// as there.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_velocities(const struct SwerveSimulator *sim,
                                              struct SwerveVec2 *out,
                                              size_t capacity,
                                              size_t *count);

// Every agent's preferred velocity (m/s), in the order of `swerve_simulator_agent_ids`; `*count` and `out`
// as there.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_pref_velocities(const struct SwerveSimulator *sim,
                                                   struct SwerveVec2 *out,
                                                   size_t capacity,
                                                   size_t *count);

// Sets every agent's preferred velocity at once, in the order of
// `swerve_simulator_agent_ids`. `count` must equal the number of agents and every value be
// finite; otherwise nothing changes.
//
// # Safety
// `sim` is null or a live handle; `values` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_simulator_set_pref_velocities(struct SwerveSimulator *sim,
                                                       const struct SwerveVec2 *values,
                                                       size_t count);

// Adds an obstacle polygon of `count` vertices (RVO2's convention: counter-clockwise for a
// solid obstacle, clockwise for a boundary around the agents, two vertices for a thin wall).
// Agents see it after the next `swerve_simulator_process_obstacles`. Ids are handed out in
// order and never reused. Refused (nothing added): fewer than 2 vertices, non-finite
// coordinates, repeated consecutive vertices, crossing edges.
//
// # Safety
// `sim` is null or a live handle; `vertices` is null or valid for reading `count` vectors;
// `out_id` is null or valid for writing.
enum SwerveStatus swerve_simulator_add_obstacle(struct SwerveSimulator *sim,
                                                const struct SwerveVec2 *vertices,
                                                size_t count,
                                                uint32_t *out_id);

// Builds the obstacle tree from the obstacles added so far (RVO2's `processObstacles`).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_process_obstacles(struct SwerveSimulator *sim);

// Removes an obstacle at once (processed or not); other ids stay valid. From then on the
// simulator steps as one that never had it.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_remove_obstacle(struct SwerveSimulator *sim, uint32_t id);

// The live obstacles' ids (added and not removed), in the order they were added; `*count`
// and `out` as in `swerve_simulator_agent_ids`.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_obstacle_ids(const struct SwerveSimulator *sim,
                                                uint32_t *out,
                                                size_t capacity,
                                                size_t *count);

// An obstacle's vertices as they were added (for drawing it); `*count` and `out` as in
// `swerve_simulator_agent_ids`.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_obstacle_polygon(const struct SwerveSimulator *sim,
                                                    uint32_t id,
                                                    struct SwerveVec2 *out,
                                                    size_t capacity,
                                                    size_t *count);

// The number of an obstacle's first vertex in RVO2's vertex list (what RVO2's
// `addObstacle` returns).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_obstacle_first_vertex(const struct SwerveSimulator *sim,
                                                         uint32_t id,
                                                         size_t *out);

// Processed obstacle vertex number `index` (0 ≤ index < `swerve_simulator_num_obstacle_vertices`).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_obstacle_vertex(const struct SwerveSimulator *sim,
                                                   size_t index,
                                                   struct SwerveObstacleVertex *out);

// Whether a disc of `radius` (m, ≥ 0) can travel from `from` to `to` without touching a
// processed obstacle (RVO2's `queryVisibility`).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_query_visibility(const struct SwerveSimulator *sim,
                                                    struct SwerveVec2 from,
                                                    struct SwerveVec2 to,
                                                    float radius,
                                                    bool *out);

// Turns head-on symmetry breaking on (`value` non-null) or off (null, RVO2's behaviour).
//
// # Safety
// `sim` is null or a live handle; `value` is null or valid for reading.
enum SwerveStatus swerve_simulator_set_symmetry_breaking(struct SwerveSimulator *sim,
                                                         const struct SwerveSymmetryBreaking *value);

// Turns overlap resolution on (`value` non-null) or off (null, RVO2's behaviour).
//
// # Safety
// `sim` is null or a live handle; `value` is null or valid for reading.
enum SwerveStatus swerve_simulator_set_overlap_resolution(struct SwerveSimulator *sim,
                                                          const struct SwerveOverlapResolution *value);

// Clamps every new velocity to the agent's max speed (RVO2's fallback program can exceed
// it slightly; off by default because the clamp changes those bits).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_strict_speed_limit(struct SwerveSimulator *sim, bool on);

// Adds a non-cooperative mover; `*out_id` receives its id (never reused).
//
// # Safety
// `sim` is null or a live handle; `mover` is null or valid for reading; `out_id` is null or
// valid for writing.
enum SwerveStatus swerve_simulator_add_mover(struct SwerveSimulator *sim,
                                             const struct SwerveMover *mover,
                                             uint32_t *out_id);

// Updates a mover (typically every step).
//
// # Safety
// `sim` is null or a live handle; `mover` is null or valid for reading.
enum SwerveStatus swerve_simulator_set_mover(struct SwerveSimulator *sim,
                                             uint32_t id,
                                             const struct SwerveMover *mover);

// A mover's state.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_mover(const struct SwerveSimulator *sim,
                                         uint32_t id,
                                         struct SwerveMover *out);

// Removes a mover; other movers keep their ids.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_remove_mover(struct SwerveSimulator *sim, uint32_t id);

// Whether each step keeps every agent's neighbours and ORCA half-planes for the functions
// below (off by default: it costs memory traffic). Turned on, records fill from the next
// step on.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator_set_record_decisions(struct SwerveSimulator *sim, bool on);

// The agents an agent took into account in the last step, nearest first (RVO2's
// `getAgentAgentNeighbor`); `*count` and `out` as in `swerve_simulator_agent_ids`.
// `NotRecorded` unless decisions are recorded.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_neighbors(const struct SwerveSimulator *sim,
                                                   uint32_t id,
                                                   uint32_t *out,
                                                   size_t capacity,
                                                   size_t *count);

// The obstacle edges an agent took into account in the last step, nearest first, as
// obstacle vertex numbers (RVO2's `getAgentObstacleNeighbor`); as above.
//
// # Safety
// As `swerve_simulator_agent_neighbors`.
enum SwerveStatus swerve_simulator_agent_obstacle_neighbors(const struct SwerveSimulator *sim,
                                                            uint32_t id,
                                                            uint32_t *out,
                                                            size_t capacity,
                                                            size_t *count);

// An agent's ORCA half-planes of the last step (RVO2's `getAgentORCALine`): first the
// obstacles', then one per agent neighbour; as above.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity`
// half-planes; `count` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_half_planes(const struct SwerveSimulator *sim,
                                                     uint32_t id,
                                                     struct SwerveHalfPlane *out,
                                                     size_t capacity,
                                                     size_t *count);

// An agent's last decision (see `SwerveDecision`). `NotRecorded` unless decisions are
// recorded.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator_agent_decision(const struct SwerveSimulator *sim,
                                                  uint32_t id,
                                                  struct SwerveDecision *out);

// RVO2-3D's Sphere example parameters: 15 m, 10 neighbours, 10 s, 1.5 m, 2 m/s.
//
// # Safety
// `out` is null or valid for writing a `SwerveAgentParams3d`.
enum SwerveStatus swerve_agent_params3d_default(struct SwerveAgentParams3d *out);

// Creates a 3-D simulator with time step `time_step` (s, > 0) and the parameters agents get
// from `swerve_simulator3d_add_agent` (`defaults`; null for
// `swerve_agent_params3d_default`'s). On success `*out` holds the new handle.
//
// # Safety
// `defaults` is null or valid for reading; `out` is null or valid for writing a pointer.
enum SwerveStatus swerve_simulator3d_new(float time_step,
                                         const struct SwerveAgentParams3d *defaults,
                                         struct SwerveSimulator3d **out);

// Frees a 3-D simulator. Null is ignored.
//
// # Safety
// `sim` is null or a handle from `swerve_simulator3d_new` not yet freed; it is invalid
// after.
void swerve_simulator3d_free(struct SwerveSimulator3d *sim);

// How many threads `swerve_simulator3d_step` uses: 0 for rayon's global pool (as many as
// the machine has cores, or `RAYON_NUM_THREADS`), n ≥ 1 for a pool of n threads owned by
// this simulator. Results are bit for bit the same for any count.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_threads(struct SwerveSimulator3d *sim, size_t threads);

// Advances the simulation by one time step: every agent picks its new velocity from the
// state at the start of the step (RVO2-3D's `doStep`), then all move. Never fails on a
// valid handle, and does not allocate once warmed up.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_step(struct SwerveSimulator3d *sim);

// The time step (s).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_time_step(const struct SwerveSimulator3d *sim, float *out);

// Sets the time step (s, > 0).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_time_step(struct SwerveSimulator3d *sim, float time_step);

// The simulated time (s): the time steps taken so far, summed in `f32` as RVO2-3D does.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_global_time(const struct SwerveSimulator3d *sim, float *out);

// The parameters `swerve_simulator3d_add_agent` gives new agents.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_defaults(const struct SwerveSimulator3d *sim,
                                                    struct SwerveAgentParams3d *out);

// Sets the parameters `swerve_simulator3d_add_agent` gives new agents (existing agents
// keep theirs; all checked first, nothing changes on error).
//
// # Safety
// `sim` is null or a live handle; `params` is null or valid for reading.
enum SwerveStatus swerve_simulator3d_set_agent_defaults(struct SwerveSimulator3d *sim,
                                                        const struct SwerveAgentParams3d *params);

// How many agents there are.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_num_agents(const struct SwerveSimulator3d *sim, size_t *out);

// Adds an agent at `position` (m) with the default parameters, at rest. Ids are handed out
// in order (0, 1, 2, …, RVO2-3D's agent numbers while none is removed) and never reused.
//
// # Safety
// `sim` is null or a live handle; `out_id` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_add_agent(struct SwerveSimulator3d *sim,
                                               struct SwerveVec3 position,
                                               uint32_t *out_id);

// Adds an agent at `position` (m) with its own parameters, at rest.
//
// # Safety
// `sim` is null or a live handle; `params` is null or valid for reading; `out_id` is null
// or valid for writing.
enum SwerveStatus swerve_simulator3d_add_agent_with(struct SwerveSimulator3d *sim,
                                                    struct SwerveVec3 position,
                                                    const struct SwerveAgentParams3d *params,
                                                    uint32_t *out_id);

// Removes an agent; the others keep their ids and move from then on as if it had never
// been there. The recorded neighbours of the last step are cleared until the next step.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_remove_agent(struct SwerveSimulator3d *sim, uint32_t id);

// Whether `id` names a live agent.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_contains_agent(const struct SwerveSimulator3d *sim,
                                                    uint32_t id,
                                                    bool *out);

// An agent's position (m).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_position(const struct SwerveSimulator3d *sim,
                                                    uint32_t id,
                                                    struct SwerveVec3 *out);

// Sets an agent's position (m) (finite).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_position(struct SwerveSimulator3d *sim,
                                                        uint32_t id,
                                                        struct SwerveVec3 value);

// An agent's velocity (m/s).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_velocity(const struct SwerveSimulator3d *sim,
                                                    uint32_t id,
                                                    struct SwerveVec3 *out);

// Sets an agent's velocity (m/s) (finite): what its neighbours see it doing.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_velocity(struct SwerveSimulator3d *sim,
                                                        uint32_t id,
                                                        struct SwerveVec3 value);

// An agent's preferred velocity (m/s): where it would go with nobody around; set it before
// every step.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_pref_velocity(const struct SwerveSimulator3d *sim,
                                                         uint32_t id,
                                                         struct SwerveVec3 *out);

// Sets an agent's preferred velocity (m/s) (finite).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_pref_velocity(struct SwerveSimulator3d *sim,
                                                             uint32_t id,
                                                             struct SwerveVec3 value);

// An agent's parameters.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_params(const struct SwerveSimulator3d *sim,
                                                  uint32_t id,
                                                  struct SwerveAgentParams3d *out);

// Sets an agent's parameters (all checked first; nothing changes on error).
//
// # Safety
// `sim` is null or a live handle; `params` is null or valid for reading.
enum SwerveStatus swerve_simulator3d_set_agent_params(struct SwerveSimulator3d *sim,
                                                      uint32_t id,
                                                      const struct SwerveAgentParams3d *params);

// An agent's share of avoiding its neighbours (0.5 for everyone is RVO2-3D's reciprocity).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_responsibility(const struct SwerveSimulator3d *sim,
                                                          uint32_t id,
                                                          float *out);

// Sets an agent's responsibility weight (finite, ≥ 0): in a pair, each takes its weight's
// share of the sum of both; an agent of weight 0 facing a positive weight does not yield
// at all. Equal weights are RVO2-3D's half each, bit for bit.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_responsibility(struct SwerveSimulator3d *sim,
                                                              uint32_t id,
                                                              float weight);

// An agent's maximum acceleration (m/s²): `INFINITY` (the default, RVO2-3D's agents) when its
// velocity may change by any amount in a step.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_max_acceleration(const struct SwerveSimulator3d *sim,
                                                            uint32_t id,
                                                            float *out);

// Limits how fast an agent's velocity may change (m/s², > 0; `INFINITY` lifts the limit):
// each step its new velocity stays within `max_acceleration · time step` of its current one
// (applied around the linear program in 3-D: the preferred velocity and then the program's
// velocity are clamped to that reach).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_max_acceleration(struct SwerveSimulator3d *sim,
                                                                uint32_t id,
                                                                float max_acceleration);

// An agent's avoidance layers: the bits other agents' masks look for (1, the first layer,
// unless set).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_avoidance_layers(const struct SwerveSimulator3d *sim,
                                                            uint32_t id,
                                                            uint32_t *out);

// Sets which avoidance layers an agent is on (a bit mask, as Godot's `avoidance_layers`; any
// value). Agent A avoids agent B when `A.mask & B.layers != 0`: A's neighbours are then the
// `max_neighbors` nearest agents it avoids, and when A avoids B but B ignores A, A takes the
// whole avoidance of B. Layers 0: nobody avoids the agent. The defaults (layers 1, mask 1
// for every agent) are RVO2-3D bit for bit.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_avoidance_layers(struct SwerveSimulator3d *sim,
                                                                uint32_t id,
                                                                uint32_t layers);

// An agent's avoidance mask: it avoids the agents whose layers share a bit with it (1, the
// first layer, unless set).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_avoidance_mask(const struct SwerveSimulator3d *sim,
                                                          uint32_t id,
                                                          uint32_t *out);

// Sets which avoidance layers an agent avoids (a bit mask, as Godot's `avoidance_mask`; any
// value; see `swerve_simulator3d_set_agent_avoidance_layers`). Mask 0: the agent avoids no other
// agent (it still avoids movers).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_avoidance_mask(struct SwerveSimulator3d *sim,
                                                              uint32_t id,
                                                              uint32_t mask);

// The live agents' ids, in the order every other all-agents function uses (the order they
// were added, less the removed ones). `*count` receives the number of agents; `out` must
// hold that many (`BufferTooSmall` otherwise, with `out` untouched).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_ids(const struct SwerveSimulator3d *sim,
                                               uint32_t *out,
                                               size_t capacity,
                                               size_t *count);

// Every agent's position (m), in the order of `swerve_simulator3d_agent_ids`; `*count` and
// `out` as there.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_positions(const struct SwerveSimulator3d *sim,
                                               struct SwerveVec3 *out,
                                               size_t capacity,
                                               size_t *count);

// Every agent's velocity (m/s), in the order of `swerve_simulator3d_agent_ids`; `*count`
// and `out` as there.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_velocities(const struct SwerveSimulator3d *sim,
                                                struct SwerveVec3 *out,
                                                size_t capacity,
                                                size_t *count);

// Every agent's preferred velocity (m/s), in the order of `swerve_simulator3d_agent_ids`;
// `*count` and `out` as there.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` vectors;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_pref_velocities(const struct SwerveSimulator3d *sim,
                                                     struct SwerveVec3 *out,
                                                     size_t capacity,
                                                     size_t *count);

// Sets every agent's preferred velocity at once, in the order of
// `swerve_simulator3d_agent_ids`. `count` must equal the number of agents and every value
// be finite; otherwise nothing changes.
//
// # Safety
// `sim` is null or a live handle; `values` is null or valid for reading `count` vectors.
enum SwerveStatus swerve_simulator3d_set_pref_velocities(struct SwerveSimulator3d *sim,
                                                         const struct SwerveVec3 *values,
                                                         size_t count);

// Turns head-on symmetry breaking on (`value` non-null) or off (null, RVO2-3D's
// behaviour). Refused (nothing changes): a negative or non-finite `jitter` or `cone`, a
// non-finite `turn`, an `up` that is not finite or is zero.
//
// # Safety
// `sim` is null or a live handle; `value` is null or valid for reading.
enum SwerveStatus swerve_simulator3d_set_symmetry_breaking(struct SwerveSimulator3d *sim,
                                                           const struct SwerveSymmetryBreaking3d *value);

// Turns "safe mode" on (`value` non-null: every radius scaled by 1 + `margin` in the ORCA
// planes, then `passes` rounds of pushing overlapping agents apart after each step) or off
// (null, RVO2-3D's behaviour). Refused: a negative or non-finite margin.
//
// # Safety
// `sim` is null or a live handle; `value` is null or valid for reading.
enum SwerveStatus swerve_simulator3d_set_overlap_resolution(struct SwerveSimulator3d *sim,
                                                            const struct SwerveOverlapResolution *value);

// Clamps every new velocity to the agent's max speed (RVO2-3D's fallback program can
// exceed it slightly; off by default because the clamp changes those bits).
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_strict_speed_limit(struct SwerveSimulator3d *sim, bool on);

// Adds a non-cooperative mover (finite position and velocity, radius > 0); `*out_id`
// receives its id (never reused). An agent gets a plane from it, after its neighbours',
// while the mover is within the agent's neighbour distance of the mover's surface.
//
// # Safety
// `sim` is null or a live handle; `mover` is null or valid for reading; `out_id` is null or
// valid for writing.
enum SwerveStatus swerve_simulator3d_add_mover(struct SwerveSimulator3d *sim,
                                               const struct SwerveMover3d *mover,
                                               uint32_t *out_id);

// Updates a mover (typically every step).
//
// # Safety
// `sim` is null or a live handle; `mover` is null or valid for reading.
enum SwerveStatus swerve_simulator3d_set_mover(struct SwerveSimulator3d *sim,
                                               uint32_t id,
                                               const struct SwerveMover3d *mover);

// A mover's state.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_mover(const struct SwerveSimulator3d *sim,
                                           uint32_t id,
                                           struct SwerveMover3d *out);

// Removes a mover; other movers keep their ids.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_remove_mover(struct SwerveSimulator3d *sim, uint32_t id);

// Adds a static obstacle: the triangles of a mesh, `indices` holding `triangle_count`
// triples of indices into the `vertex_count` `vertices` (m). Both faces are solid and the
// mesh need not be closed (a wall, a floor, a building). Every agent keeps at least its
// radius from every triangle by a hard plane in its program, from the next step on (unless
// an acceleration limit moves it; safe mode's push never takes an agent into an obstacle). `*out_id` receives the obstacle's id
// (0, 1, 2, … never reused). All or nothing: a non-finite vertex, an index beyond the
// vertices or a triangle without area adds none of it (the message names the triangle).
//
// # Safety
// `sim` is null or a live handle; `vertices` is null or valid for reading `vertex_count`
// vectors; `indices` is null or valid for reading `3 * triangle_count` indices; `out_id` is
// null or valid for writing.
enum SwerveStatus swerve_simulator3d_add_obstacle(struct SwerveSimulator3d *sim,
                                                  const struct SwerveVec3 *vertices,
                                                  size_t vertex_count,
                                                  const uint32_t *indices,
                                                  size_t triangle_count,
                                                  uint32_t *out_id);

// Adds the solid axis-aligned box from `min` to `max` (m) as a static obstacle (see
// `swerve_simulator3d_add_obstacle`): its surface is 12 triangles, but it gives an agent one
// plane, through the box's nearest point, so prefer it to the same box as a mesh (fewer, less
// conservative planes, faster). `*out_id` receives its id. Refused: a non-finite
// corner, a box thinner than 1e-4 m in any direction.
//
// # Safety
// `sim` is null or a live handle; `out_id` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_add_box_obstacle(struct SwerveSimulator3d *sim,
                                                      struct SwerveVec3 min,
                                                      struct SwerveVec3 max,
                                                      uint32_t *out_id);

// Removes a static obstacle, from the next step on; the others keep their ids.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_remove_obstacle(struct SwerveSimulator3d *sim, uint32_t id);

// Whether a sphere of `radius` (m, ≥ 0) can fly straight from `from` to `to` without
// touching a static obstacle (the 3-D `queryVisibility`; touching counts as blocked, and
// `from == to` asks whether a sphere at `from` is clear).
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_query_visibility(const struct SwerveSimulator3d *sim,
                                                      struct SwerveVec3 from,
                                                      struct SwerveVec3 to,
                                                      float radius,
                                                      bool *out);

// The static obstacles' ids (added and not removed), in the order they were added; `*count`
// and `out` as in `swerve_simulator3d_agent_ids`.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_obstacle_ids(const struct SwerveSimulator3d *sim,
                                                  uint32_t *out,
                                                  size_t capacity,
                                                  size_t *count);

// A static obstacle's triangles (a mesh's in the order given, a box's 12); `*count` and
// `out` as in `swerve_simulator3d_agent_ids`.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` triangles;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_obstacle_triangles(const struct SwerveSimulator3d *sim,
                                                        uint32_t id,
                                                        struct SwerveTriangle *out,
                                                        size_t capacity,
                                                        size_t *count);

// An agent's obstacle time horizon (s): how far ahead it avoids reaching a static obstacle;
// its time horizon unless set with `swerve_simulator3d_set_agent_obstacle_time_horizon`.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_obstacle_time_horizon(const struct SwerveSimulator3d *sim,
                                                                 uint32_t id,
                                                                 float *out);

// Sets how far ahead (s, > 0, finite) an agent avoids reaching a static obstacle (RVO2's
// `timeHorizonObst`): it closes the gap to a triangle at no more than gap / horizon, so a
// short horizon lets it fly close before slowing.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_agent_obstacle_time_horizon(struct SwerveSimulator3d *sim,
                                                                     uint32_t id,
                                                                     float horizon);

// Whether each step keeps every agent's neighbours and ORCA planes for the functions
// below (off by default: it costs memory traffic). Turned on, records fill from the next
// step on.
//
// # Safety
// `sim` is null or a live handle.
enum SwerveStatus swerve_simulator3d_set_record_decisions(struct SwerveSimulator3d *sim, bool on);

// The agents an agent took into account in the last step, nearest first (RVO2-3D's
// `getAgentAgentNeighbor`); `*count` and `out` as in `swerve_simulator3d_agent_ids`.
// `NotRecorded` unless decisions are recorded; none after an agent was removed, until the
// next step.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` ids;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_neighbors(const struct SwerveSimulator3d *sim,
                                                     uint32_t id,
                                                     uint32_t *out,
                                                     size_t capacity,
                                                     size_t *count);

// An agent's ORCA planes of the last step (RVO2-3D's `getAgentORCAPlane`): first one per
// static obstacle triangle within reach (`swerve_simulator3d_agent_obstacle_plane_count` of
// them), then one per neighbour in neighbour order (none from a neighbour it does not yield
// to, see `swerve_simulator3d_set_agent_responsibility`), then one per nearby mover. Two
// agents on one point give a NaN plane, as in RVO2-3D, whose programs skip it. `*count` and
// `out` as in `swerve_simulator3d_agent_ids`; `NotRecorded` unless decisions are recorded.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing `capacity` planes;
// `count` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_planes(const struct SwerveSimulator3d *sim,
                                                  uint32_t id,
                                                  struct SwervePlane *out,
                                                  size_t capacity,
                                                  size_t *count);

// How many of an agent's planes of the last step (the first ones of
// `swerve_simulator3d_agent_planes`) came from static obstacles: hard planes, which the
// program's fallback does not trade off. `NotRecorded` unless decisions are recorded.
//
// # Safety
// `sim` is null or a live handle; `out` is null or valid for writing.
enum SwerveStatus swerve_simulator3d_agent_obstacle_plane_count(const struct SwerveSimulator3d *sim,
                                                                uint32_t id,
                                                                size_t *out);

// The message of the last call on this thread that failed, as a NUL-terminated UTF-8
// string; empty if none has. Calls that succeed leave it as it is. The pointer stays valid
// until the next failing call on this thread.
const char *swerve_last_error_message(void);

// This library's version, e.g. `"0.1.0"`, as a static NUL-terminated string.
const char *swerve_version(void);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* SWERVE_H */
