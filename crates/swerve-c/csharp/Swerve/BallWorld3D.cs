// swerve for C#: the 3-D rigid-ball world (swerve::physics3d::World) on the C interface.

using System;
using System.Collections.Generic;
using System.Numerics;
using Swerve.Native;

namespace Swerve
{
    /// <summary>A world of spheres: balls in space with real masses that bounce off each
    /// other, off the six walls of an optional box and off static triangles (single ones, or
    /// meshes: ramps, funnels, closed solids). Collisions are found at their time of impact;
    /// gravity brings a resting-contact solver with it, so piles come to rest; spheres have
    /// restitution, Coulomb friction (which spins them about any axis) and rolling resistance,
    /// and a sphere of infinite mass is kinematic. <see cref="BallWorld"/> in space.</summary>
    ///
    /// <remarks>
    /// The broad phase is chosen by name (<see cref="BroadPhaseNames"/>); all give the same
    /// trajectories, bit for bit, and the same as swerve from Rust. Spheres have ids that stay
    /// theirs: removing one leaves the others' ids and order alone, and a removed id is never
    /// handed out again. Whole-world arrays (<see cref="GetPositions"/> and the like) are in
    /// <see cref="GetSphereIds"/> order, the order spheres were added. Bad input raises
    /// <see cref="ArgumentException"/> and an unknown id <see cref="KeyNotFoundException"/>;
    /// either way nothing changes. A world steps on the calling thread and is used by one
    /// thread at a time; <see cref="Dispose"/> frees it (the finalizer does, when forgotten).
    /// </remarks>
    public sealed unsafe class BallWorld3D : IDisposable
    {
        private readonly World3DHandle handle = new World3DHandle();
        // The handle's pointer while it is open (null after Dispose), checked on every call: a
        // field read, where SafeHandle's state costs 65 ns a call under Mono.
        private SwerveWorld3d* raw;

        /// <summary>The 3-D broad phases' names, brute force first: "brute-force",
        /// "sort-and-sweep", "uniform-grid", "hierarchical-grid", "octree". All give the same
        /// collisions; they differ in speed. (The planar world's quadtree and trees are not
        /// among them.)</summary>
        public static string[] BroadPhaseNames
        {
            get
            {
                IntPtr[] names = Buffers.Items<IntPtr>((void* p, UIntPtr capacity, UIntPtr* count) =>
                    NativeMethods.swerve_broad_phase3d_names((byte**)p, capacity, count), null);
                string[] text = new string[names.Length];
                for (int i = 0; i < names.Length; ++i)
                {
                    text[i] = Status.Utf8((byte*)names[i]);
                }
                return text;
            }
        }

        /// <summary>An empty world whose spheres bounce off the walls of <paramref name="bounds"/>
        /// (finite, min below max on every axis), or in open space when null, with the broad
        /// phase named <paramref name="broadPhase"/> (one of <see cref="BroadPhaseNames"/>). No
        /// gravity, damping or contact records until set.</summary>
        public BallWorld3D(Bounds3D? bounds, string broadPhase)
        {
            byte[] name = Status.NulTerminated(broadPhase, "broadPhase");
            SwerveWorld3d* raw;
            fixed (byte* n = name)
            {
                if (bounds.HasValue)
                {
                    Bounds3D box = bounds.Value;
                    Status.Check(NativeMethods.swerve_world3d_new((SwerveBounds3d*)&box, n, &raw));
                }
                else
                {
                    Status.Check(NativeMethods.swerve_world3d_new(null, n, &raw));
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

        private SwerveWorld3d* Raw
        {
            get
            {
                if (raw == null)
                {
                    throw new ObjectDisposedException("BallWorld3D");
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
            Call(NativeMethods.swerve_world3d_step(Raw, dt));
        }

        /// <summary>The box whose walls the spheres bounce off, or null for open space.</summary>
        public Bounds3D? Bounds
        {
            get
            {
                bool bounded;
                SwerveBounds3d native;
                Call(NativeMethods.swerve_world3d_bounds(Raw, &bounded, &native));
                if (!bounded)
                {
                    return null;
                }
                return new Bounds3D(Vec.From(native.min), Vec.From(native.max));
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
                Call(NativeMethods.swerve_world3d_broad_phase(Raw, &name));
                return Status.Utf8(name);
            }
            set
            {
                fixed (byte* n = Status.NulTerminated(value, "value"))
                {
                    Call(NativeMethods.swerve_world3d_set_broad_phase(Raw, n));
                }
            }
        }

        // ----- settings -----

        /// <summary>Gravity (m/s², finite; default zero). With gravity every non-kinematic sphere
        /// accelerates and each step solves the touching contacts together, so piles come to rest
        /// (e.g. (0, 0, −9.81)); with zero the step is exactly the one without gravity.</summary>
        public Vector3 Gravity
        {
            get
            {
                SwerveVec3 value;
                Call(NativeMethods.swerve_world3d_gravity(Raw, &value));
                return Vec.From(value);
            }
            set { Call(NativeMethods.swerve_world3d_set_gravity(Raw, Vec.ToNative(value))); }
        }

        /// <summary>Substeps per step (1 to 64, default 1): deep piles hold better with shorter
        /// steps than with more solver sweeps.</summary>
        public int Substeps
        {
            get
            {
                UIntPtr value;
                Call(NativeMethods.swerve_world3d_substeps(Raw, &value));
                return Status.Count(value);
            }
            set
            {
                if (value < 0)
                {
                    throw new ArgumentException("substeps must be at least 1, got " + value);
                }
                Call(NativeMethods.swerve_world3d_set_substeps(Raw, (UIntPtr)(uint)value));
            }
        }

        /// <summary>Sweeps of the resting-contact solver per step (1 to 1,000, default 10; only
        /// with gravity).</summary>
        public int SolverIterations
        {
            get
            {
                UIntPtr value;
                Call(NativeMethods.swerve_world3d_solver_iterations(Raw, &value));
                return Status.Count(value);
            }
            set
            {
                if (value < 0)
                {
                    throw new ArgumentException("solver iterations must be at least 1, got " + value);
                }
                Call(NativeMethods.swerve_world3d_set_solver_iterations(Raw, (UIntPtr)(uint)value));
            }
        }

        /// <summary>Linear damping rate (1/s, finite, ≥ 0, default 0): at the start of each step
        /// every velocity is scaled by 1 / (1 + c·dt).</summary>
        public float LinearDamping
        {
            get
            {
                float value;
                Call(NativeMethods.swerve_world3d_linear_damping(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_world3d_set_linear_damping(Raw, value)); }
        }

        /// <summary>Whether collisions are found at their time of impact (default on). Off, the
        /// step moves the spheres and then resolves overlaps, which lets fast spheres tunnel.</summary>
        public void SetContinuousCollision(bool on)
        {
            Call(NativeMethods.swerve_world3d_set_continuous_collision(Raw, on));
        }

        /// <summary>Whether each velocity carries a float residual that makes energy and momentum
        /// conservation double-exact (default on). Turning it off drops the current residuals.
        /// </summary>
        public void SetVelocityCompensation(bool on)
        {
            Call(NativeMethods.swerve_world3d_set_velocity_compensation(Raw, on));
        }

        /// <summary>What the last step did (the planar world's statistics: "balls" are spheres
        /// here, and "segments" triangles).</summary>
        public StepStats LastStepStats
        {
            get
            {
                SwerveStepStats native;
                Call(NativeMethods.swerve_world3d_last_step_stats(Raw, &native));
                return StepStats.From(native);
            }
        }

        /// <summary>Total kinetic energy (J), translational and rotational (I = 2/5 m r²), of the
        /// non-kinematic spheres, summed in double precision.</summary>
        public double KineticEnergy
        {
            get
            {
                double value;
                Call(NativeMethods.swerve_world3d_kinetic_energy(Raw, &value));
                return value;
            }
        }

        /// <summary>Total momentum (kg·m/s) of the non-kinematic spheres, summed in double
        /// precision.</summary>
        public Vector3Double Momentum
        {
            get
            {
                SwerveVec3d native;
                Call(NativeMethods.swerve_world3d_momentum(Raw, &native));
                return new Vector3Double(native.x, native.y, native.z);
            }
        }

        // ----- spheres -----

        /// <summary>How many spheres there are.</summary>
        public int SphereCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_world3d_num_spheres(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>Adds a sphere; returns its id. Ids are handed out in order (0, 1, 2, …) and
        /// never reused. Refused (ArgumentException, nothing added): non-finite numbers (but a
        /// kinematic sphere's infinite mass), radius or mass ≤ 0, restitution outside [0, 1],
        /// negative friction or rolling resistance, a sphere that does not fit inside the bounds
        /// (a kinematic sphere may).</summary>
        public uint AddSphere(Sphere sphere)
        {
            uint id;
            Call(NativeMethods.swerve_world3d_add_sphere(Raw, (SwerveSphere*)&sphere, &id));
            return id;
        }

        /// <summary>Adds spheres; returns their ids, in order. If any sphere is refused, none is
        /// added and the message names the first.</summary>
        public uint[] AddSpheres(Sphere[] spheres)
        {
            uint[] ids = new uint[Buffers.NotNull(spheres, "spheres").Length];
            fixed (Sphere* p = spheres)
            fixed (uint* q = ids)
            {
                Call(NativeMethods.swerve_world3d_add_spheres(Raw, (SwerveSphere*)p, (UIntPtr)spheres.Length, q));
            }
            return ids;
        }

        /// <summary>Removes a sphere; the others keep their ids and their order.</summary>
        public void RemoveSphere(uint id)
        {
            Call(NativeMethods.swerve_world3d_remove_sphere(Raw, id));
        }

        /// <summary>Removes spheres in one pass (repeated ids are fine). If any id names no live
        /// sphere, none is removed.</summary>
        public void RemoveSpheres(uint[] ids)
        {
            fixed (uint* p = Buffers.NotNull(ids, "ids"))
            {
                Call(NativeMethods.swerve_world3d_remove_spheres(Raw, p, (UIntPtr)ids.Length));
            }
        }

        /// <summary>Whether <paramref name="id"/> names a live sphere.</summary>
        public bool ContainsSphere(uint id)
        {
            bool value;
            Call(NativeMethods.swerve_world3d_contains_sphere(Raw, id, &value));
            return value;
        }

        /// <summary>A sphere's whole state.</summary>
        public Sphere GetSphere(uint id)
        {
            Sphere sphere;
            Call(NativeMethods.swerve_world3d_sphere(Raw, id, (SwerveSphere*)&sphere));
            return sphere;
        }

        /// <summary>Replaces a sphere's whole state, with <see cref="AddSphere"/>'s rules. A sphere moved
        /// onto another is pushed out by the next step.</summary>
        public void SetSphere(uint id, Sphere sphere)
        {
            Call(NativeMethods.swerve_world3d_set_sphere(Raw, id, (SwerveSphere*)&sphere));
        }

        /// <summary>A sphere's position (m).</summary>
        public Vector3 GetSpherePosition(uint id)
        {
            SwerveVec3 value;
            Call(NativeMethods.swerve_world3d_sphere_position(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Moves a sphere (m, finite; inside the bounds unless kinematic), keeping its
        /// velocity.</summary>
        public void SetSpherePosition(uint id, Vector3 position)
        {
            Call(NativeMethods.swerve_world3d_set_sphere_position(Raw, id, Vec.ToNative(position)));
        }

        /// <summary>A sphere's velocity (m/s).</summary>
        public Vector3 GetSphereVelocity(uint id)
        {
            SwerveVec3 value;
            Call(NativeMethods.swerve_world3d_sphere_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets a sphere's velocity (m/s, finite); a kinematic sphere is steered this way.</summary>
        public void SetSphereVelocity(uint id, Vector3 velocity)
        {
            Call(NativeMethods.swerve_world3d_set_sphere_velocity(Raw, id, Vec.ToNative(velocity)));
        }

        /// <summary>A sphere's angular velocity (rad/s, about the axis it points along).</summary>
        public Vector3 GetSphereAngularVelocity(uint id)
        {
            SwerveVec3 value;
            Call(NativeMethods.swerve_world3d_sphere_angular_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets a sphere's angular velocity (rad/s, finite); the rest of the sphere stays as
        /// it is.</summary>
        public void SetSphereAngularVelocity(uint id, Vector3 angularVelocity)
        {
            Call(NativeMethods.swerve_world3d_set_sphere_angular_velocity(Raw, id, Vec.ToNative(angularVelocity)));
        }

        /// <summary>Applies an impulse (N·s, finite) to a sphere: its velocity changes by impulse /
        /// mass, and the world's momentum by the impulse. A kinematic sphere does not change.</summary>
        public void ApplyImpulse(uint id, Vector3 impulse)
        {
            Call(NativeMethods.swerve_world3d_apply_impulse(Raw, id, Vec.ToNative(impulse)));
        }

        // ----- all spheres at once, in GetSphereIds order -----

        /// <summary>Every live sphere's id, in the order every whole-world array uses (the order
        /// they were added, less the removed ones).</summary>
        public uint[] GetSphereIds()
        {
            uint[] values = new uint[SphereCount];
            CopySphereIds(values);
            return values;
        }

        /// <summary>Copies every sphere's id into <paramref name="buffer"/> (no allocation, for a
        /// per-frame loop); returns the count. A buffer shorter than the world's spheres raises
        /// ArgumentException and is left alone.</summary>
        public int CopySphereIds(uint[] buffer)
        {
            UIntPtr count;
            fixed (uint* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_sphere_ids(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every sphere's whole state, in <see cref="GetSphereIds"/> order.</summary>
        public Sphere[] GetSpheres()
        {
            Sphere[] values = new Sphere[SphereCount];
            CopySpheres(values);
            return values;
        }

        /// <summary>Copies every sphere's whole state into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopySpheres(Sphere[] buffer)
        {
            UIntPtr count;
            fixed (Sphere* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_spheres(Raw, (SwerveSphere*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every sphere's position (m), in <see cref="GetSphereIds"/> order.</summary>
        public Vector3[] GetPositions()
        {
            Vector3[] values = new Vector3[SphereCount];
            CopyPositions(values);
            return values;
        }

        /// <summary>Copies every sphere's position into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyPositions(Vector3[] buffer)
        {
            UIntPtr count;
            fixed (Vector3* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_positions(Raw, (SwerveVec3*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every sphere's velocity (m/s), in <see cref="GetSphereIds"/> order.</summary>
        public Vector3[] GetVelocities()
        {
            Vector3[] values = new Vector3[SphereCount];
            CopyVelocities(values);
            return values;
        }

        /// <summary>Copies every sphere's velocity into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyVelocities(Vector3[] buffer)
        {
            UIntPtr count;
            fixed (Vector3* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_velocities(Raw, (SwerveVec3*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every sphere's radius (m), in <see cref="GetSphereIds"/> order.</summary>
        public float[] GetRadii()
        {
            float[] values = new float[SphereCount];
            CopyRadii(values);
            return values;
        }

        /// <summary>Copies every sphere's radius into <paramref name="buffer"/>; returns the count.</summary>
        public int CopyRadii(float[] buffer)
        {
            UIntPtr count;
            fixed (float* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_radii(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every sphere's mass (kg; infinity for kinematic spheres), in
        /// <see cref="GetSphereIds"/> order.</summary>
        public float[] GetMasses()
        {
            float[] values = new float[SphereCount];
            CopyMasses(values);
            return values;
        }

        /// <summary>Copies every sphere's mass into <paramref name="buffer"/>; returns the count.</summary>
        public int CopyMasses(float[] buffer)
        {
            UIntPtr count;
            fixed (float* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_masses(Raw, p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every sphere's angular velocity (rad/s), in <see cref="GetSphereIds"/> order.</summary>
        public Vector3[] GetAngularVelocities()
        {
            Vector3[] values = new Vector3[SphereCount];
            CopyAngularVelocities(values);
            return values;
        }

        /// <summary>Copies every sphere's angular velocity into <paramref name="buffer"/>; returns
        /// the count.</summary>
        public int CopyAngularVelocities(Vector3[] buffer)
        {
            UIntPtr count;
            fixed (Vector3* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_angular_velocities(Raw, (SwerveVec3*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Moves every sphere at once, in <see cref="GetSphereIds"/> order. The array's
        /// length must be the sphere count and every sphere fit inside the bounds at its new place
        /// (kinematic spheres excepted); otherwise nothing changes.</summary>
        public void SetPositions(Vector3[] values)
        {
            fixed (Vector3* p = Buffers.NotNull(values, "values"))
            {
                Call(NativeMethods.swerve_world3d_set_positions(Raw, (SwerveVec3*)p, (UIntPtr)values.Length));
            }
        }

        /// <summary>Sets every sphere's velocity at once, in <see cref="GetSphereIds"/> order. The
        /// array's length must be the sphere count and every value finite; otherwise nothing
        /// changes.</summary>
        public void SetVelocities(Vector3[] values)
        {
            fixed (Vector3* p = Buffers.NotNull(values, "values"))
            {
                Call(NativeMethods.swerve_world3d_set_velocities(Raw, (SwerveVec3*)p, (UIntPtr)values.Length));
            }
        }

        // ----- static triangles -----

        /// <summary>Adds a static triangle with corners <paramref name="a"/>, <paramref name="b"/>,
        /// <paramref name="c"/> (m, finite), solid on both faces. Refused: a triangle without
        /// area (repeated corners, corners in a line, or a sliver so thin its normal would be
        /// rounding noise). Triangles are numbered in the order they are added, from 0.</summary>
        public void AddTriangle(Vector3 a, Vector3 b, Vector3 c)
        {
            Call(NativeMethods.swerve_world3d_add_triangle(Raw, Vec.ToNative(a), Vec.ToNative(b), Vec.ToNative(c)));
        }

        /// <summary>Adds the triangles of a mesh, in order: <paramref name="indices"/> holds a
        /// triple of indices into <paramref name="vertices"/> per triangle (its length a multiple
        /// of 3). All or nothing: a non-finite vertex, an index beyond the vertices or a triangle
        /// without area adds none of them (the message names the triangle). Shared edges are
        /// fine.</summary>
        public void AddMesh(Vector3[] vertices, uint[] indices)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            if (indices == null)
            {
                throw new ArgumentNullException("indices");
            }
            if (indices.Length % 3 != 0)
            {
                throw new ArgumentException("a mesh's indices come in triples, got " + indices.Length + " indices");
            }
            fixed (Vector3* v = vertices)
            fixed (uint* i = indices)
            {
                Call(NativeMethods.swerve_world3d_add_mesh(Raw, (SwerveVec3*)v, (UIntPtr)vertices.Length, i, (UIntPtr)(indices.Length / 3)));
            }
        }

        /// <summary>How many static triangles there are (mesh triangles included).</summary>
        public int TriangleCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_world3d_num_triangles(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>The static triangles, by number.</summary>
        public Triangle[] GetTriangles()
        {
            Triangle[] values = new Triangle[TriangleCount];
            UIntPtr count;
            fixed (Triangle* p = values)
            {
                Call(NativeMethods.swerve_world3d_triangles(Raw, (SwerveTriangle*)p, (UIntPtr)values.Length, &count));
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
                Call(NativeMethods.swerve_world3d_records_contacts(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_world3d_set_record_contacts(Raw, value)); }
        }

        /// <summary>How many contacts the last step recorded.</summary>
        public int ContactCount
        {
            get
            {
                UIntPtr count;
                int length = Buffers.Count(NativeMethods.swerve_world3d_contacts(Raw, null, UIntPtr.Zero, &count), count);
                GC.KeepAlive(handle);
                return length;
            }
        }

        /// <summary>The last step's collisions, one per touching pair (sphere–sphere, sphere–triangle,
        /// sphere–wall), ordered by sphere (in <see cref="GetSphereIds"/> order) and partner;
        /// none unless <see cref="RecordContacts"/>. The same for every broad phase.</summary>
        public Contact3D[] GetContacts()
        {
            Contact3D[] values = new Contact3D[ContactCount];
            CopyContacts(values);
            return values;
        }

        /// <summary>Copies the last step's collisions into <paramref name="buffer"/> (no
        /// allocation); returns the count. A buffer shorter than <see cref="ContactCount"/>
        /// raises ArgumentException and is left alone.</summary>
        public int CopyContacts(Contact3D[] buffer)
        {
            UIntPtr count;
            fixed (Contact3D* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_world3d_contacts(Raw, (SwerveContact3d*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        // ----- queries -----

        /// <summary>The ids of the spheres that overlap the ball (<paramref name="center"/>,
        /// <paramref name="radius"/> ≥ 0), in <see cref="GetSphereIds"/> order; with radius 0,
        /// the spheres that contain the centre. O(spheres).</summary>
        public uint[] GetSpheresInBall(Vector3 center, float radius)
        {
            SwerveVec3 c = Vec.ToNative(center);
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_world3d_spheres_in_ball(Raw, c, radius, (uint*)p, capacity, count), handle);
        }

        /// <summary>The first sphere (in <see cref="GetSphereIds"/> order) that contains
        /// <paramref name="point"/> (finite): true and its id, or false (and 0) when none does.
        /// </summary>
        public bool TryGetSphereAt(Vector3 point, out uint id)
        {
            bool found;
            uint value = 0;
            Call(NativeMethods.swerve_world3d_sphere_at(Raw, Vec.ToNative(point), &found, &value));
            id = value;
            return found;
        }

        /// <summary>What the ray from <paramref name="origin"/> along <paramref name="direction"/>
        /// (finite, non-zero, any length) meets first within <paramref name="maxDistance"/> (m,
        /// ≥ 0, may be infinity): a sphere where the ray enters it (spheres that contain the
        /// origin are skipped), a triangle (either face), or a wall of the box. True and the hit,
        /// or false (and a default hit) when it meets nothing. O(spheres + triangles).</summary>
        public bool CastRay(Vector3 origin, Vector3 direction, float maxDistance, out RayHit3D hit)
        {
            bool found;
            RayHit3D value = default(RayHit3D);
            Call(NativeMethods.swerve_world3d_cast_ray(Raw, Vec.ToNative(origin), Vec.ToNative(direction), maxDistance, &found, (SwerveRayHit3d*)&value));
            hit = value;
            return found;
        }
    }
}
