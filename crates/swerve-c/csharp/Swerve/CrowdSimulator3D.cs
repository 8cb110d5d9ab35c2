// swerve for C#: the 3-D ORCA simulator (RVO2-3D bit for bit) on the C interface.

using System;
using System.Collections.Generic;
using System.Numerics;
using Swerve.Native;

namespace Swerve
{
    /// <summary>A crowd of spheres (drones, flying units) that avoid each other with 3-D ORCA,
    /// step for step the same numbers as RVO2-3D, on any number of threads.</summary>
    ///
    /// <remarks>The same rules as <see cref="CrowdSimulator"/>: stable ids, arrays in
    /// <see cref="GetAgentIds"/> order, exceptions that change nothing, one thread at a time.
    /// Beyond RVO2-3D (which has none), static triangle-mesh obstacles
    /// (<see cref="AddObstacle"/>, <see cref="AddBoxObstacle"/>).</remarks>
    public sealed unsafe class CrowdSimulator3D : IDisposable
    {
        private readonly Simulator3DHandle handle = new Simulator3DHandle();
        // The handle's pointer while it is open (null after Dispose); see CrowdSimulator.
        private SwerveSimulator3d* raw;

        /// <summary>A simulator with time step <paramref name="timeStep"/> (s, &gt; 0) whose agents
        /// get <see cref="AgentParams3D.Default"/> (RVO2-3D's Sphere parameters).</summary>
        public CrowdSimulator3D(float timeStep) : this(timeStep, AgentParams3D.Default)
        {
        }

        /// <summary>A simulator with time step <paramref name="timeStep"/> (s, &gt; 0) whose agents
        /// get <paramref name="defaults"/> from <see cref="AddAgent(Vector3)"/>.</summary>
        public CrowdSimulator3D(float timeStep, AgentParams3D defaults)
        {
            SwerveAgentParams3d native = defaults.ToNative();
            SwerveSimulator3d* raw;
            Status.Check(NativeMethods.swerve_simulator3d_new(timeStep, &native, &raw));
            handle.Take((IntPtr)raw);
            this.raw = raw;
        }

        /// <summary>Frees the simulator; any later call raises ObjectDisposedException.</summary>
        public void Dispose()
        {
            raw = null;
            handle.Dispose();
        }

        private SwerveSimulator3d* Raw
        {
            get
            {
                if (raw == null)
                {
                    throw new ObjectDisposedException("CrowdSimulator3D");
                }
                return raw;
            }
        }

        private void Call(SwerveStatus status)
        {
            GC.KeepAlive(handle);
            Status.Check(status);
        }

        /// <summary>How many threads <see cref="Step"/> uses: 0 for every core, n ≥ 1 for a pool
        /// of n threads of this simulator's own. Results are the same for any count.</summary>
        public void SetThreads(int threads)
        {
            if (threads < 0)
            {
                throw new ArgumentException("threads must be at least 0, got " + threads);
            }
            Call(NativeMethods.swerve_simulator3d_set_threads(Raw, (UIntPtr)(uint)threads));
        }

        /// <summary>Advances the simulation by one time step (RVO2-3D's doStep).</summary>
        public void Step()
        {
            Call(NativeMethods.swerve_simulator3d_step(Raw));
        }

        /// <summary>The time step (s, &gt; 0).</summary>
        public float TimeStep
        {
            get
            {
                float value;
                Call(NativeMethods.swerve_simulator3d_time_step(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_simulator3d_set_time_step(Raw, value)); }
        }

        /// <summary>The simulated time (s).</summary>
        public float GlobalTime
        {
            get
            {
                float value;
                Call(NativeMethods.swerve_simulator3d_global_time(Raw, &value));
                return value;
            }
        }

        /// <summary>The parameters <see cref="AddAgent(Vector3)"/> gives new agents.</summary>
        public AgentParams3D AgentDefaults
        {
            get
            {
                SwerveAgentParams3d native;
                Call(NativeMethods.swerve_simulator3d_agent_defaults(Raw, &native));
                return AgentParams3D.From(native);
            }
            set
            {
                SwerveAgentParams3d native = value.ToNative();
                Call(NativeMethods.swerve_simulator3d_set_agent_defaults(Raw, &native));
            }
        }

        /// <summary>How many agents there are.</summary>
        public int AgentCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_simulator3d_num_agents(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>Adds an agent at rest with <see cref="AgentDefaults"/>; returns its id.</summary>
        public uint AddAgent(Vector3 position)
        {
            uint id;
            Call(NativeMethods.swerve_simulator3d_add_agent(Raw, Vec.ToNative(position), &id));
            return id;
        }

        /// <summary>Adds an agent at rest with parameters of its own; returns its id.</summary>
        public uint AddAgent(Vector3 position, AgentParams3D parameters)
        {
            SwerveAgentParams3d native = parameters.ToNative();
            uint id;
            Call(NativeMethods.swerve_simulator3d_add_agent_with(Raw, Vec.ToNative(position), &native, &id));
            return id;
        }

        /// <summary>Removes an agent; the others keep their ids.</summary>
        public void RemoveAgent(uint id)
        {
            Call(NativeMethods.swerve_simulator3d_remove_agent(Raw, id));
        }

        /// <summary>Whether <paramref name="id"/> names a live agent.</summary>
        public bool ContainsAgent(uint id)
        {
            bool value;
            Call(NativeMethods.swerve_simulator3d_contains_agent(Raw, id, &value));
            return value;
        }

        /// <summary>An agent's position (m).</summary>
        public Vector3 GetAgentPosition(uint id)
        {
            SwerveVec3 value;
            Call(NativeMethods.swerve_simulator3d_agent_position(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Moves an agent.</summary>
        public void SetAgentPosition(uint id, Vector3 position)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_position(Raw, id, Vec.ToNative(position)));
        }

        /// <summary>An agent's velocity (m/s), as chosen by the last step.</summary>
        public Vector3 GetAgentVelocity(uint id)
        {
            SwerveVec3 value;
            Call(NativeMethods.swerve_simulator3d_agent_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets an agent's velocity (m/s).</summary>
        public void SetAgentVelocity(uint id, Vector3 velocity)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_velocity(Raw, id, Vec.ToNative(velocity)));
        }

        /// <summary>The velocity an agent would take if nothing were in its way (m/s).</summary>
        public Vector3 GetAgentPrefVelocity(uint id)
        {
            SwerveVec3 value;
            Call(NativeMethods.swerve_simulator3d_agent_pref_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets the velocity an agent would take if nothing were in its way (m/s).</summary>
        public void SetAgentPrefVelocity(uint id, Vector3 velocity)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_pref_velocity(Raw, id, Vec.ToNative(velocity)));
        }

        /// <summary>An agent's parameters.</summary>
        public AgentParams3D GetAgentParams(uint id)
        {
            SwerveAgentParams3d native;
            Call(NativeMethods.swerve_simulator3d_agent_params(Raw, id, &native));
            return AgentParams3D.From(native);
        }

        /// <summary>Replaces an agent's parameters.</summary>
        public void SetAgentParams(uint id, AgentParams3D parameters)
        {
            SwerveAgentParams3d native = parameters.ToNative();
            Call(NativeMethods.swerve_simulator3d_set_agent_params(Raw, id, &native));
        }

        /// <summary>An agent's responsibility weight (0.5 unless set: RVO2's equal share).</summary>
        public float GetAgentResponsibility(uint id)
        {
            float value;
            Call(NativeMethods.swerve_simulator3d_agent_responsibility(Raw, id, &value));
            return value;
        }

        /// <summary>Sets how much of the avoidance an agent takes on (finite, ≥ 0); see
        /// <see cref="CrowdSimulator.SetAgentResponsibility"/>.</summary>
        public void SetAgentResponsibility(uint id, float weight)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_responsibility(Raw, id, weight));
        }

        /// <summary>An agent's maximum acceleration (m/s²): infinity (the default, RVO2-3D's
        /// agents) when its velocity may change by any amount in a step.</summary>
        public float GetAgentMaxAcceleration(uint id)
        {
            float value;
            Call(NativeMethods.swerve_simulator3d_agent_max_acceleration(Raw, id, &value));
            return value;
        }

        /// <summary>Limits how fast an agent's velocity may change (m/s², &gt; 0;
        /// <c>float.PositiveInfinity</c> lifts the limit): each step it changes by at most
        /// <c>maxAcceleration * TimeStep</c>.</summary>
        public void SetAgentMaxAcceleration(uint id, float maxAcceleration)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_max_acceleration(Raw, id, maxAcceleration));
        }

        /// <summary>An agent's avoidance layers: the bits other agents' masks look for (1, the
        /// first layer, unless set).</summary>
        public uint GetAgentAvoidanceLayers(uint id)
        {
            uint value;
            Call(NativeMethods.swerve_simulator3d_agent_avoidance_layers(Raw, id, &value));
            return value;
        }

        /// <summary>Sets which avoidance layers an agent is on (a bit mask; default 1); see
        /// <see cref="CrowdSimulator.SetAgentAvoidanceLayers"/>. The defaults are RVO2-3D bit for
        /// bit.</summary>
        public void SetAgentAvoidanceLayers(uint id, uint layers)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_avoidance_layers(Raw, id, layers));
        }

        /// <summary>An agent's avoidance mask: it avoids the agents whose layers share a bit
        /// with it (1, the first layer, unless set).</summary>
        public uint GetAgentAvoidanceMask(uint id)
        {
            uint value;
            Call(NativeMethods.swerve_simulator3d_agent_avoidance_mask(Raw, id, &value));
            return value;
        }

        /// <summary>Sets which avoidance layers an agent avoids (a bit mask; default 1); see
        /// <see cref="CrowdSimulator.SetAgentAvoidanceMask"/>. Mask 0: the agent avoids no other
        /// agent (it still avoids movers).</summary>
        public void SetAgentAvoidanceMask(uint id, uint mask)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_avoidance_mask(Raw, id, mask));
        }

        /// <summary>Every live agent's id, in the order they were added.</summary>
        public uint[] GetAgentIds()
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator3d_agent_ids(Raw, (uint*)p, capacity, count), handle);
        }

        /// <summary>Every agent's position, in <see cref="GetAgentIds"/> order.</summary>
        public Vector3[] GetPositions()
        {
            Vector3[] values = new Vector3[AgentCount];
            CopyPositions(values);
            return values;
        }

        /// <summary>Copies every agent's position into <paramref name="buffer"/>; returns the
        /// count. A buffer shorter than the crowd raises ArgumentException.</summary>
        public int CopyPositions(Vector3[] buffer)
        {
            UIntPtr count;
            fixed (Vector3* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_simulator3d_positions(Raw, (SwerveVec3*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every agent's velocity, in <see cref="GetAgentIds"/> order.</summary>
        public Vector3[] GetVelocities()
        {
            Vector3[] values = new Vector3[AgentCount];
            CopyVelocities(values);
            return values;
        }

        /// <summary>Copies every agent's velocity into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyVelocities(Vector3[] buffer)
        {
            UIntPtr count;
            fixed (Vector3* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_simulator3d_velocities(Raw, (SwerveVec3*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every agent's preferred velocity, in <see cref="GetAgentIds"/> order.</summary>
        public Vector3[] GetPrefVelocities()
        {
            Vector3[] values = new Vector3[AgentCount];
            CopyPrefVelocities(values);
            return values;
        }

        /// <summary>Copies every agent's preferred velocity into <paramref name="buffer"/>;
        /// returns the count.</summary>
        public int CopyPrefVelocities(Vector3[] buffer)
        {
            UIntPtr count;
            fixed (Vector3* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_simulator3d_pref_velocities(Raw, (SwerveVec3*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Sets every agent's preferred velocity at once; the array's length must be
        /// the agent count.</summary>
        public void SetPrefVelocities(Vector3[] values)
        {
            fixed (Vector3* p = Buffers.NotNull(values))
            {
                Call(NativeMethods.swerve_simulator3d_set_pref_velocities(Raw, (SwerveVec3*)p, (UIntPtr)values.Length));
            }
        }

        /// <summary>Turns head-on symmetry breaking on: two agents flying straight at each other
        /// pass on the right, <paramref name="up"/> (non-zero) telling which way is up.</summary>
        public void SetSymmetryBreaking(SymmetryBreaking value, Vector3 up)
        {
            SwerveSymmetryBreaking3d native;
            native.jitter = value.Jitter;
            native.seed = value.Seed;
            native.cone = value.Cone;
            native.turn = value.Turn;
            native.up = Vec.ToNative(up);
            Call(NativeMethods.swerve_simulator3d_set_symmetry_breaking(Raw, &native));
        }

        /// <summary>Turns symmetry breaking off (RVO2-3D's behaviour, the default).</summary>
        public void ClearSymmetryBreaking()
        {
            Call(NativeMethods.swerve_simulator3d_set_symmetry_breaking(Raw, null));
        }

        /// <summary>Turns overlap resolution ("safe mode") on with <paramref name="value"/>.</summary>
        public void SetOverlapResolution(OverlapResolution value)
        {
            SwerveOverlapResolution native = value.ToNative();
            Call(NativeMethods.swerve_simulator3d_set_overlap_resolution(Raw, &native));
        }

        /// <summary>Turns overlap resolution off (the default).</summary>
        public void ClearOverlapResolution()
        {
            Call(NativeMethods.swerve_simulator3d_set_overlap_resolution(Raw, null));
        }

        /// <summary>Whether every new velocity is clamped to the agent's max speed.</summary>
        public void SetStrictSpeedLimit(bool on)
        {
            Call(NativeMethods.swerve_simulator3d_set_strict_speed_limit(Raw, on));
        }

        /// <summary>Adds a mover the agents avoid; returns its id.</summary>
        public uint AddMover(Mover3D mover)
        {
            SwerveMover3d native = ToNative(mover);
            uint id;
            Call(NativeMethods.swerve_simulator3d_add_mover(Raw, &native, &id));
            return id;
        }

        /// <summary>Moves a mover.</summary>
        public void SetMover(uint id, Mover3D mover)
        {
            SwerveMover3d native = ToNative(mover);
            Call(NativeMethods.swerve_simulator3d_set_mover(Raw, id, &native));
        }

        /// <summary>A mover as last set.</summary>
        public Mover3D GetMover(uint id)
        {
            SwerveMover3d native;
            Call(NativeMethods.swerve_simulator3d_mover(Raw, id, &native));
            return new Mover3D(Vec.From(native.position), Vec.From(native.velocity), native.radius);
        }

        /// <summary>Removes a mover.</summary>
        public void RemoveMover(uint id)
        {
            Call(NativeMethods.swerve_simulator3d_remove_mover(Raw, id));
        }

        /// <summary>Adds a static obstacle (beyond RVO2-3D, which has none): a triangle mesh,
        /// <paramref name="indices"/> holding three numbers of <paramref name="vertices"/> (m) per
        /// triangle. Both faces are solid and the mesh need not be closed (a wall, a floor, a
        /// building); every agent keeps at least its radius from every triangle from the next
        /// step on. Returns its id (0, 1, 2, … never reused). All or nothing: a non-finite vertex,
        /// an index beyond the vertices or a triangle without area raises ArgumentException and
        /// adds nothing.</summary>
        public uint AddObstacle(Vector3[] vertices, uint[] indices)
        {
            Buffers.NotNull(vertices, "vertices");
            Buffers.NotNull(indices, "indices");
            if (indices.Length % 3 != 0)
            {
                throw new ArgumentException("a mesh's indices come in triples, got " + indices.Length + " indices");
            }
            uint id;
            fixed (Vector3* v = vertices)
            fixed (uint* i = indices)
            {
                Call(NativeMethods.swerve_simulator3d_add_obstacle(Raw, (SwerveVec3*)v, (UIntPtr)vertices.Length, i, (UIntPtr)(indices.Length / 3), &id));
            }
            return id;
        }

        /// <summary>Adds the solid axis-aligned box from <paramref name="min"/> to
        /// <paramref name="max"/> (m) as a solid static obstacle (12 triangles, but one plane
        /// an agent, through its nearest point: prefer it to the same box as a mesh); returns its id. A
        /// non-finite corner or a box thinner than 1e-4 m raises ArgumentException.</summary>
        public uint AddBoxObstacle(Vector3 min, Vector3 max)
        {
            uint id;
            Call(NativeMethods.swerve_simulator3d_add_box_obstacle(Raw, Vec.ToNative(min), Vec.ToNative(max), &id));
            return id;
        }

        /// <summary>Whether a sphere of <paramref name="radius"/> (m, ≥ 0) can fly straight from
        /// <paramref name="from"/> to <paramref name="to"/> without touching a static obstacle
        /// (touching counts as blocked).</summary>
        public bool QueryVisibility(Vector3 from, Vector3 to, float radius)
        {
            bool value;
            Call(NativeMethods.swerve_simulator3d_query_visibility(Raw, Vec.ToNative(from), Vec.ToNative(to), radius, &value));
            return value;
        }

        /// <summary>Removes a static obstacle, from the next step on; the others keep their
        /// ids.</summary>
        public void RemoveObstacle(uint id)
        {
            Call(NativeMethods.swerve_simulator3d_remove_obstacle(Raw, id));
        }

        /// <summary>The static obstacles' ids (not removed), in the order they were added.</summary>
        public uint[] GetObstacleIds()
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator3d_obstacle_ids(Raw, (uint*)p, capacity, count), handle);
        }

        /// <summary>A static obstacle's triangles (a mesh's in the order given, a box's 12).</summary>
        public Triangle[] GetObstacleTriangles(uint id)
        {
            // Triangle is laid out as SwerveTriangle (three corners): filled in place.
            return Buffers.Items<Triangle>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator3d_obstacle_triangles(Raw, id, (SwerveTriangle*)p, capacity, count), handle);
        }

        /// <summary>An agent's obstacle time horizon (s): how far ahead it avoids reaching a
        /// static obstacle; its time horizon unless set.</summary>
        public float GetAgentObstacleTimeHorizon(uint id)
        {
            float value;
            Call(NativeMethods.swerve_simulator3d_agent_obstacle_time_horizon(Raw, id, &value));
            return value;
        }

        /// <summary>Sets how far ahead (s, &gt; 0, finite) an agent avoids reaching a static
        /// obstacle (RVO2's timeHorizonObst): it closes the gap to a triangle at no more than gap
        /// / horizon, so a short horizon lets it fly close before slowing.</summary>
        public void SetAgentObstacleTimeHorizon(uint id, float horizon)
        {
            Call(NativeMethods.swerve_simulator3d_set_agent_obstacle_time_horizon(Raw, id, horizon));
        }

        private static SwerveMover3d ToNative(Mover3D mover)
        {
            SwerveMover3d native;
            native.position = Vec.ToNative(mover.Position);
            native.velocity = Vec.ToNative(mover.Velocity);
            native.radius = mover.Radius;
            return native;
        }

        /// <summary>Whether each step records every agent's neighbours and planes (off by
        /// default).</summary>
        public void SetRecordDecisions(bool on)
        {
            Call(NativeMethods.swerve_simulator3d_set_record_decisions(Raw, on));
        }

        /// <summary>The agents an agent took into account in the last step, nearest first.</summary>
        public uint[] GetAgentNeighbors(uint id)
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator3d_agent_neighbors(Raw, id, (uint*)p, capacity, count), handle);
        }

        /// <summary>An agent's ORCA planes of the last step: first the static obstacles' (see
        /// <see cref="GetAgentObstaclePlaneCount"/>), then its neighbours', then the movers'.</summary>
        public Plane3D[] GetAgentPlanes(uint id)
        {
            // Plane3D is laid out as SwervePlane (point, then normal): filled in place.
            return Buffers.Items<Plane3D>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator3d_agent_planes(Raw, id, (SwervePlane*)p, capacity, count), handle);
        }

        /// <summary>How many of <see cref="GetAgentPlanes"/> (the first ones) came from static
        /// obstacles in the last step: hard planes, which the program's fallback keeps.</summary>
        public int GetAgentObstaclePlaneCount(uint id)
        {
            UIntPtr value;
            Call(NativeMethods.swerve_simulator3d_agent_obstacle_plane_count(Raw, id, &value));
            return Status.Count(value);
        }
    }
}
