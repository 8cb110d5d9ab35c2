// swerve for C#: the rigid-ball world (swerve::physics::World) on the C interface.

using System;
using System.Collections.Generic;
using System.Numerics;
using Swerve.Native;

namespace Swerve
{
    /// <summary>A world of balls: discs with real masses that bounce off each other, off the
    /// walls of an optional box and off static segments and polygons. Collisions are found at
    /// their time of impact (fast balls do not tunnel); gravity brings a resting-contact solver
    /// with it, so piles come to rest; balls have restitution, Coulomb friction (which spins
    /// them) and rolling resistance, and a ball of infinite mass is kinematic.</summary>
    ///
    /// <remarks>
    /// The broad phase is chosen by name (<see cref="BroadPhaseNames"/>); all give the same
    /// trajectories, bit for bit, and the same as swerve from Rust. Balls have ids that stay
    /// theirs: removing one leaves the others' ids and order alone, and a removed id is never
    /// handed out again. Whole-world arrays (<see cref="GetPositions"/> and the like) are in
    /// <see cref="GetBallIds"/> order, the order balls were added. Bad input raises
    /// <see cref="ArgumentException"/> and an unknown id <see cref="KeyNotFoundException"/>;
    /// either way nothing changes. A world steps on the calling thread and is used by one
    /// thread at a time; <see cref="Dispose"/> frees it (the finalizer does, when forgotten).
    /// </remarks>
    public sealed unsafe class BallWorld : IDisposable
    {
        private readonly WorldHandle handle = new WorldHandle();
        // The handle's pointer while it is open (null after Dispose), checked on every call: a
        // field read, where SafeHandle's state costs 65 ns a call under Mono.
        private SwerveWorld* raw;

        /// <summary>The broad phases' names, brute force first: "brute-force",
        /// "sort-and-sweep", "uniform-grid", "hierarchical-grid", "grid-sort-and-sweep",
        /// "quadtree", "aabb-tree". All give the same collisions; they differ in speed.</summary>
        public static string[] BroadPhaseNames
        {
            get
            {
                IntPtr[] names = Buffers.Items<IntPtr>((void* p, UIntPtr capacity, UIntPtr* count) =>
                    NativeMethods.swerve_broad_phase_names((byte**)p, capacity, count), null);
                string[] text = new string[names.Length];
                for (int i = 0; i < names.Length; ++i)
                {
                    text[i] = Status.Utf8((byte*)names[i]);
                }
                return text;
            }
        }

        /// <summary>An empty world whose balls bounce off the walls of <paramref name="bounds"/>
        /// (finite, min below max on both axes), or in open space when null, with the broad
        /// phase named <paramref name="broadPhase"/> (one of <see cref="BroadPhaseNames"/>). No
        /// gravity, damping or contact records until set.</summary>
        public BallWorld(Bounds? bounds, string broadPhase)
        {
            byte[] name = Status.NulTerminated(broadPhase, "broadPhase");
            SwerveWorld* raw;
            fixed (byte* n = name)
            {
                if (bounds.HasValue)
                {
                    Bounds box = bounds.Value;
                    Status.Check(NativeMethods.swerve_world_new((SwerveBounds*)&box, n, &raw));
                }
                else
                {
                    Status.Check(NativeMethods.swerve_world_new(null, n, &raw));
                }
            }
            handle.Take((IntPtr)raw);
            this.raw = raw;
        }

        /// <summary>Frees the world; any later call raises ObjectDisposedException.</summary>
        public void Dispose()
        {
            raw = null;
            handle.Dispose();
        }

        private SwerveWorld* Raw
        {
            get
            {
                if (raw == null)
                {
                    throw new ObjectDisposedException("BallWorld");
                }
                return raw;
            }
        }

        // The handle stays reachable until the native call that used it has returned.
        private void Call(SwerveStatus status)
        {
            GC.KeepAlive(handle);
            Status.Check(status);
        }

        /// <summary>Advances the world by <paramref name="dt"/> seconds (finite, &gt; 0): with
        /// <see cref="Substeps"/> n, as n substeps of dt / n. Does not allocate once warmed up.
        /// </summary>
        public void Step(float dt)
        {
            Call(NativeMethods.swerve_world_step(Raw, dt));
        }

        /// <summary>The box whose walls the balls bounce off, or null for open space.</summary>
        public Bounds? Bounds
        {
            get
            {
                bool bounded;
                SwerveBounds native;
                Call(NativeMethods.swerve_world_bounds(Raw, &bounded, &native));
                if (!bounded)
                {
                    return null;
                }
                return new Bounds(Vec.From(native.min), Vec.From(native.max));
            }
        }

        /// <summary>The broad phase's name (one of <see cref="BroadPhaseNames"/>). Setting it
        /// switches the broad phase (it builds on the next step); the trajectories do not
        /// change.</summary>
        public string BroadPhase
        {
            get
            {
                byte* name;
                Call(NativeMethods.swerve_world_broad_phase(Raw, &name));
                return Status.Utf8(name);
            }
            set
            {
                fixed (byte* n = Status.NulTerminated(value, "value"))
                {
                    Call(NativeMethods.swerve_world_set_broad_phase(Raw, n));
                }
            }
        }

        // ----- settings -----

        /// <summary>Gravity (m/s², finite; default zero). With gravity every non-kinematic ball
        /// accelerates and each step solves the touching contacts together, so piles and stacks
        /// come to rest; with zero the step is exactly the one without gravity.</summary>
        public Vector2 Gravity
        {
            get
            {
                SwerveVec2 value;
                Call(NativeMethods.swerve_world_gravity(Raw, &value));
                return Vec.From(value);
            }
            set { Call(NativeMethods.swerve_world_set_gravity(Raw, Vec.ToNative(value))); }
        }

        /// <summary>Substeps per step (1 to 64, default 1): shorter steps hold tall stacks better
        /// than more solver sweeps, for the same cost.</summary>
        public int Substeps
        {
            get
            {
                UIntPtr value;
                Call(NativeMethods.swerve_world_substeps(Raw, &value));
                return Status.Count(value);
            }
            set
            {
                if (value < 0)
                {
                    throw new ArgumentException("substeps must be at least 1, got " + value);
                }
                Call(NativeMethods.swerve_world_set_substeps(Raw, (UIntPtr)(uint)value));
            }
        }

        /// <summary>Sweeps of the resting-contact solver per step (1 to 1,000, default 10; only
        /// with gravity).</summary>
        public int SolverIterations
        {
            get
            {
                UIntPtr value;
                Call(NativeMethods.swerve_world_solver_iterations(Raw, &value));
                return Status.Count(value);
            }
            set
            {
                if (value < 0)
                {
                    throw new ArgumentException("solver iterations must be at least 1, got " + value);
                }
                Call(NativeMethods.swerve_world_set_solver_iterations(Raw, (UIntPtr)(uint)value));
            }
        }

        /// <summary>Linear damping rate (1/s, finite, ≥ 0, default 0): at the start of each step
        /// every velocity is scaled by 1 / (1 + c·dt).</summary>
        public float LinearDamping
        {
            get
            {
                float value;
                Call(NativeMethods.swerve_world_linear_damping(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_world_set_linear_damping(Raw, value)); }
        }

        /// <summary>Whether collisions are found at their time of impact (default on). Off, the
        /// step moves the balls and then resolves overlaps, which lets fast balls tunnel.</summary>
        public void SetContinuousCollision(bool on)
        {
            Call(NativeMethods.swerve_world_set_continuous_collision(Raw, on));
        }

        /// <summary>Whether each velocity carries a float residual that makes energy and momentum
        /// conservation double-exact (default on). Turning it off drops the current residuals.
        /// </summary>
        public void SetVelocityCompensation(bool on)
        {
            Call(NativeMethods.swerve_world_set_velocity_compensation(Raw, on));
        }

        /// <summary>What the last step did.</summary>
        public StepStats LastStepStats
        {
            get
            {
                SwerveStepStats native;
                Call(NativeMethods.swerve_world_last_step_stats(Raw, &native));
                return StepStats.From(native);
            }
        }

        /// <summary>Total kinetic energy (J), translational and rotational, of the non-kinematic
        /// balls, summed in double precision.</summary>
        public double KineticEnergy
        {
            get
            {
                double value;
                Call(NativeMethods.swerve_world_kinetic_energy(Raw, &value));
                return value;
            }
        }

        /// <summary>Total momentum (kg·m/s) of the non-kinematic balls, summed in double
        /// precision.</summary>
        public Vector2Double Momentum
        {
            get
            {
                SwerveVec2d native;
                Call(NativeMethods.swerve_world_momentum(Raw, &native));
                return new Vector2Double(native.x, native.y);
            }
        }

        // ----- balls -----

        /// <summary>How many balls there are.</summary>
        public int BallCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_world_num_balls(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>Adds a ball; returns its id. Ids are handed out in order (0, 1, 2, …) and
        /// never reused. Refused (ArgumentException, nothing added): non-finite numbers (but a
        /// kinematic ball's infinite mass), radius or mass ≤ 0, restitution outside [0, 1],
        /// negative friction or rolling resistance, a ball that does not fit inside the bounds
        /// (a kinematic ball may).</summary>
        public uint AddBall(Ball ball)
        {
            uint id;
            Call(NativeMethods.swerve_world_add_ball(Raw, (SwerveBall*)&ball, &id));
            return id;
        }

        /// <summary>Adds balls; returns their ids, in order. If any ball is refused, none is
        /// added and the message names the first.</summary>
        public uint[] AddBalls(Ball[] balls)
        {
            uint[] ids = new uint[Buffers.NotNull(balls, "balls").Length];
            fixed (Ball* p = balls)
            fixed (uint* q = ids)
            {
                Call(NativeMethods.swerve_world_add_balls(Raw, (SwerveBall*)p, (UIntPtr)balls.Length, q));
            }
            return ids;
        }

        /// <summary>Removes a ball; the others keep their ids and their order.</summary>
        public void RemoveBall(uint id)
        {
            Call(NativeMethods.swerve_world_remove_ball(Raw, id));
        }

        /// <summary>Removes balls in one pass (repeated ids are fine). If any id names no live
        /// ball, none is removed.</summary>
        public void RemoveBalls(uint[] ids)
        {
            fixed (uint* p = Buffers.NotNull(ids, "ids"))
            {
                Call(NativeMethods.swerve_world_remove_balls(Raw, p, (UIntPtr)ids.Length));
            }
        }

        /// <summary>Whether <paramref name="id"/> names a live ball.</summary>
        public bool ContainsBall(uint id)
        {
            bool value;
            Call(NativeMethods.swerve_world_contains_ball(Raw, id, &value));
            return value;
        }

        /// <summary>A ball's whole state.</summary>
        public Ball GetBall(uint id)
        {
            Ball ball;
            Call(NativeMethods.swerve_world_ball(Raw, id, (SwerveBall*)&ball));
            return ball;
        }

        /// <summary>Replaces a ball's whole state, with <see cref="AddBall"/>'s rules. A ball moved
        /// onto another is pushed out by the next step.</summary>
        public void SetBall(uint id, Ball ball)
        {
            Call(NativeMethods.swerve_world_set_ball(Raw, id, (SwerveBall*)&ball));
        }

        /// <summary>A ball's position (m).</summary>
        public Vector2 GetBallPosition(uint id)
        {
            SwerveVec2 value;
            Call(NativeMethods.swerve_world_ball_position(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Moves a ball (m, finite; inside the bounds unless kinematic), keeping its
        /// velocity.</summary>
        public void SetBallPosition(uint id, Vector2 position)
        {
            Call(NativeMethods.swerve_world_set_ball_position(Raw, id, Vec.ToNative(position)));
        }

        /// <summary>A ball's velocity (m/s).</summary>
        public Vector2 GetBallVelocity(uint id)
        {
            SwerveVec2 value;
            Call(NativeMethods.swerve_world_ball_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets a ball's velocity (m/s, finite); a kinematic ball is steered this way.</summary>
        public void SetBallVelocity(uint id, Vector2 velocity)
        {
            Call(NativeMethods.swerve_world_set_ball_velocity(Raw, id, Vec.ToNative(velocity)));
        }

        /// <summary>A ball's angular velocity (rad/s, counter-clockwise).</summary>
        public float GetBallAngularVelocity(uint id)
        {
            float value;
            Call(NativeMethods.swerve_world_ball_angular_velocity(Raw, id, &value));
            return value;
        }

        /// <summary>Sets a ball's angular velocity (rad/s, finite); the rest of the ball stays as
        /// it is.</summary>
        public void SetBallAngularVelocity(uint id, float angularVelocity)
        {
            Call(NativeMethods.swerve_world_set_ball_angular_velocity(Raw, id, angularVelocity));
        }

        /// <summary>Applies an impulse (N·s, finite) to a ball: its velocity changes by impulse /
        /// mass, and the world's momentum by the impulse. A kinematic ball does not change.</summary>
        public void ApplyImpulse(uint id, Vector2 impulse)
        {
            Call(NativeMethods.swerve_world_apply_impulse(Raw, id, Vec.ToNative(impulse)));
        }

        // ----- all balls at once, in GetBallIds order -----

        /// <summary>Every live ball's id, in the order every whole-world array uses (the order
        /// they were added, less the removed ones).</summary>
        public uint[] GetBallIds()
        {
            uint[] values = new uint[BallCount];
            CopyBallIds(values);
            return values;
        }

        /// <summary>Copies every ball's id into <paramref name="buffer"/> (no allocation, for a
        /// per-frame loop); returns the count. A buffer shorter than the world's balls raises
        /// ArgumentException and is left alone.</summary>
        public int CopyBallIds(uint[] buffer)
        {
            UIntPtr count;
            fixed (uint* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_ball_ids(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's whole state, in <see cref="GetBallIds"/> order.</summary>
        public Ball[] GetBalls()
        {
            Ball[] values = new Ball[BallCount];
            CopyBalls(values);
            return values;
        }

        /// <summary>Copies every ball's whole state into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyBalls(Ball[] buffer)
        {
            UIntPtr count;
            fixed (Ball* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_balls(Raw, (SwerveBall*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's position (m), in <see cref="GetBallIds"/> order.</summary>
        public Vector2[] GetPositions()
        {
            Vector2[] values = new Vector2[BallCount];
            CopyPositions(values);
            return values;
        }

        /// <summary>Copies every ball's position into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyPositions(Vector2[] buffer)
        {
            UIntPtr count;
            fixed (Vector2* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_positions(Raw, (SwerveVec2*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's velocity (m/s), in <see cref="GetBallIds"/> order.</summary>
        public Vector2[] GetVelocities()
        {
            Vector2[] values = new Vector2[BallCount];
            CopyVelocities(values);
            return values;
        }

        /// <summary>Copies every ball's velocity into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyVelocities(Vector2[] buffer)
        {
            UIntPtr count;
            fixed (Vector2* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_velocities(Raw, (SwerveVec2*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's radius (m), in <see cref="GetBallIds"/> order.</summary>
        public float[] GetRadii()
        {
            float[] values = new float[BallCount];
            CopyRadii(values);
            return values;
        }

        /// <summary>Copies every ball's radius into <paramref name="buffer"/>; returns the count.</summary>
        public int CopyRadii(float[] buffer)
        {
            UIntPtr count;
            fixed (float* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_radii(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's mass (kg; infinity for kinematic balls), in
        /// <see cref="GetBallIds"/> order.</summary>
        public float[] GetMasses()
        {
            float[] values = new float[BallCount];
            CopyMasses(values);
            return values;
        }

        /// <summary>Copies every ball's mass into <paramref name="buffer"/>; returns the count.</summary>
        public int CopyMasses(float[] buffer)
        {
            UIntPtr count;
            fixed (float* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_masses(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's angular velocity (rad/s), in <see cref="GetBallIds"/> order.</summary>
        public float[] GetAngularVelocities()
        {
            float[] values = new float[BallCount];
            CopyAngularVelocities(values);
            return values;
        }

        /// <summary>Copies every ball's angular velocity into <paramref name="buffer"/>; returns
        /// the count.</summary>
        public int CopyAngularVelocities(float[] buffer)
        {
            UIntPtr count;
            fixed (float* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_angular_velocities(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every ball's orientation (rad, within [−π, π]), in <see cref="GetBallIds"/>
        /// order.</summary>
        public float[] GetAngles()
        {
            float[] values = new float[BallCount];
            CopyAngles(values);
            return values;
        }

        /// <summary>Copies every ball's orientation into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyAngles(float[] buffer)
        {
            UIntPtr count;
            fixed (float* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_angles(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Moves every ball at once, in <see cref="GetBallIds"/> order. The array's
        /// length must be the ball count and every ball fit inside the bounds at its new place
        /// (kinematic balls excepted); otherwise nothing changes.</summary>
        public void SetPositions(Vector2[] values)
        {
            fixed (Vector2* p = Buffers.NotNull(values, "values"))
            {
                Call(NativeMethods.swerve_world_set_positions(Raw, (SwerveVec2*)p, (UIntPtr)values.Length));
            }
        }

        /// <summary>Sets every ball's velocity at once, in <see cref="GetBallIds"/> order. The
        /// array's length must be the ball count and every value finite; otherwise nothing
        /// changes.</summary>
        public void SetVelocities(Vector2[] values)
        {
            fixed (Vector2* p = Buffers.NotNull(values, "values"))
            {
                Call(NativeMethods.swerve_world_set_velocities(Raw, (SwerveVec2*)p, (UIntPtr)values.Length));
            }
        }

        // ----- static segments -----

        /// <summary>Adds a static segment from <paramref name="a"/> to <paramref name="b"/>
        /// (finite, distinct), solid on both sides. Segments are numbered in the order they are
        /// added, from 0.</summary>
        public void AddSegment(Vector2 a, Vector2 b)
        {
            Call(NativeMethods.swerve_world_add_segment(Raw, Vec.ToNative(a), Vec.ToNative(b)));
        }

        /// <summary>Adds the edges of a closed polygon as static segments, in order (the edge from
        /// vertex i to i + 1, and the closing one; a single segment for 2 vertices). Either
        /// winding works. Refused (nothing added): fewer than 2 vertices, non-finite
        /// coordinates, repeated consecutive vertices, crossing edges.</summary>
        public void AddPolygon(IList<Vector2> vertices)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            Vector2[] copy = new Vector2[vertices.Count];
            vertices.CopyTo(copy, 0);
            fixed (Vector2* p = copy)
            {
                Call(NativeMethods.swerve_world_add_polygon(Raw, (SwerveVec2*)p, (UIntPtr)copy.Length));
            }
        }

        /// <summary>How many static segments there are (polygon edges included).</summary>
        public int SegmentCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_world_num_segments(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>The static segments, by number.</summary>
        public Segment[] GetSegments()
        {
            Segment[] values = new Segment[SegmentCount];
            UIntPtr count;
            fixed (Segment* p = values)
            {
                Call(NativeMethods.swerve_world_segments(Raw, (SwerveSegment*)p, (UIntPtr)values.Length, &count));
            }
            return values;
        }

        // ----- contacts -----

        /// <summary>Whether each step records its collisions for <see cref="GetContacts"/> (off by
        /// default). Turning it on or off clears the last step's records.</summary>
        public bool RecordContacts
        {
            get
            {
                bool value;
                Call(NativeMethods.swerve_world_records_contacts(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_world_set_record_contacts(Raw, value)); }
        }

        /// <summary>How many contacts the last step recorded.</summary>
        public int ContactCount
        {
            get
            {
                UIntPtr count;
                int length = Buffers.Count(NativeMethods.swerve_world_contacts(Raw, null, UIntPtr.Zero, &count), count);
                GC.KeepAlive(handle);
                return length;
            }
        }

        /// <summary>The last step's collisions, one per touching pair (ball–ball, ball–segment,
        /// ball–wall), ordered by ball (in <see cref="GetBallIds"/> order) and partner; none
        /// unless <see cref="RecordContacts"/>. The same for every broad phase.</summary>
        public Contact[] GetContacts()
        {
            Contact[] values = new Contact[ContactCount];
            CopyContacts(values);
            return values;
        }

        /// <summary>Copies the last step's collisions into <paramref name="buffer"/> (no
        /// allocation); returns the count. A buffer shorter than <see cref="ContactCount"/>
        /// raises ArgumentException and is left alone.</summary>
        public int CopyContacts(Contact[] buffer)
        {
            UIntPtr count;
            fixed (Contact* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world_contacts(Raw, (SwerveContact*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        // ----- queries -----

        /// <summary>The ids of the balls whose disc overlaps the circle (<paramref name="center"/>,
        /// <paramref name="radius"/> ≥ 0), in <see cref="GetBallIds"/> order; with radius 0, the
        /// balls that contain the centre. O(balls).</summary>
        public uint[] GetBallsInCircle(Vector2 center, float radius)
        {
            SwerveVec2 c = Vec.ToNative(center);
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_world_balls_in_circle(Raw, c, radius, (uint*)p, capacity, count), handle);
        }

        /// <summary>The first ball (in <see cref="GetBallIds"/> order) that contains
        /// <paramref name="point"/> (finite): true and its id, or false (and 0) when none does.
        /// </summary>
        public bool TryGetBallAt(Vector2 point, out uint id)
        {
            bool found;
            uint value = 0;
            Call(NativeMethods.swerve_world_ball_at(Raw, Vec.ToNative(point), &found, &value));
            id = value;
            return found;
        }

        /// <summary>What the ray from <paramref name="origin"/> along <paramref name="direction"/>
        /// (finite, non-zero, any length) meets first within <paramref name="maxDistance"/> (m,
        /// ≥ 0, may be infinity): a ball where the ray enters it (balls that contain the origin
        /// are skipped), a segment, or a wall of the box. True and the hit, or false (and a
        /// default hit) when it meets nothing. O(balls + segments).</summary>
        public bool CastRay(Vector2 origin, Vector2 direction, float maxDistance, out RayHit hit)
        {
            bool found;
            RayHit value = default(RayHit);
            Call(NativeMethods.swerve_world_cast_ray(Raw, Vec.ToNative(origin), Vec.ToNative(direction), maxDistance, &found, (SwerveRayHit*)&value));
            hit = value;
            return found;
        }

        /// <summary>The boxes the broad phase built in the last step (grid cells, tree nodes,
        /// sweep intervals), for drawing over the balls.</summary>
        public DebugBox[] GetBroadPhaseBoxes()
        {
            return Buffers.Items<DebugBox>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_world_broad_phase_boxes(Raw, (SwerveDebugBox*)p, capacity, count), handle);
        }
    }
}
