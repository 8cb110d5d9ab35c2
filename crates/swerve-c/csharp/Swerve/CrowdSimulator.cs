// swerve for C#: the planar ORCA simulator (RVO2 2.0.3 bit for bit) on the C interface.

using System;
using System.Collections.Generic;
using System.Numerics;
using Swerve.Native;

namespace Swerve
{
    /// <summary>A crowd of agents that avoid each other and polygonal obstacles with ORCA,
    /// step for step the same numbers as RVO2 2.0.3, on any number of threads.</summary>
    ///
    /// <remarks>
    /// Agents and obstacles have ids that stay theirs: removing one leaves the others' ids
    /// alone, and a removed id is never handed out again. Whole-crowd arrays
    /// (<see cref="GetPositions"/> and the like) are in <see cref="GetAgentIds"/> order, which
    /// is the order agents were added. Bad input raises <see cref="ArgumentException"/> and
    /// an unknown id <see cref="KeyNotFoundException"/>; either way nothing changes. A
    /// simulator is used by one thread at a time; <see cref="Dispose"/> frees it (the
    /// finalizer does, when forgotten).
    /// </remarks>
    public sealed unsafe class CrowdSimulator : IDisposable
    {
        private readonly SimulatorHandle handle = new SimulatorHandle();
        // The handle's pointer while it is open (null after Dispose), checked on every call: a
        // field read, where SafeHandle's state cost 65 ns a call under Mono (calls are often
        // one per agent and frame).
        private SwerveSimulator* raw;

        /// <summary>A simulator with time step <paramref name="timeStep"/> (s, &gt; 0) whose agents
        /// get <see cref="AgentParams.Default"/> (RVO2's Circle parameters).</summary>
        public CrowdSimulator(float timeStep) : this(timeStep, AgentParams.Default)
        {
        }

        /// <summary>A simulator with time step <paramref name="timeStep"/> (s, &gt; 0) whose agents
        /// get <paramref name="defaults"/> from <see cref="AddAgent(Vector2)"/>.</summary>
        public CrowdSimulator(float timeStep, AgentParams defaults)
        {
            SwerveAgentParams native = defaults.ToNative();
            SwerveSimulator* raw;
            Status.Check(NativeMethods.swerve_simulator_new(timeStep, &native, &raw));
            handle.Take((IntPtr)raw);
            this.raw = raw;
        }

        /// <summary>Frees the simulator; any later call raises ObjectDisposedException.</summary>
        public void Dispose()
        {
            raw = null;
            handle.Dispose();
        }

        private SwerveSimulator* Raw
        {
            get
            {
                if (raw == null)
                {
                    throw new ObjectDisposedException("CrowdSimulator");
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

        /// <summary>How many threads <see cref="Step"/> uses: 0 for every core, n ≥ 1 for a pool
        /// of n threads of this simulator's own. Results are bit for bit the same for any
        /// count.</summary>
        public void SetThreads(int threads)
        {
            if (threads < 0)
            {
                throw new ArgumentException("threads must be at least 0, got " + threads);
            }
            Call(NativeMethods.swerve_simulator_set_threads(Raw, (UIntPtr)(uint)threads));
        }

        /// <summary>Advances the simulation by one time step: every agent picks its new
        /// velocity from the state at the start of the step (RVO2's doStep), then all move.
        /// </summary>
        public void Step()
        {
            Call(NativeMethods.swerve_simulator_step(Raw));
        }

        /// <summary>The time step (s, &gt; 0).</summary>
        public float TimeStep
        {
            get
            {
                float value;
                Call(NativeMethods.swerve_simulator_time_step(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_simulator_set_time_step(Raw, value)); }
        }

        /// <summary>The simulated time (s): the sum of the time steps taken.</summary>
        public float GlobalTime
        {
            get
            {
                float value;
                Call(NativeMethods.swerve_simulator_global_time(Raw, &value));
                return value;
            }
            set { Call(NativeMethods.swerve_simulator_set_global_time(Raw, value)); }
        }

        /// <summary>The parameters <see cref="AddAgent(Vector2)"/> gives new agents.</summary>
        public AgentParams AgentDefaults
        {
            get
            {
                SwerveAgentParams native;
                Call(NativeMethods.swerve_simulator_agent_defaults(Raw, &native));
                return AgentParams.From(native);
            }
            set
            {
                SwerveAgentParams native = value.ToNative();
                Call(NativeMethods.swerve_simulator_set_agent_defaults(Raw, &native));
            }
        }

        // ----- agents -----

        /// <summary>How many agents there are.</summary>
        public int AgentCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_simulator_num_agents(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>Adds an agent at rest with <see cref="AgentDefaults"/>; returns its id.</summary>
        public uint AddAgent(Vector2 position)
        {
            uint id;
            Call(NativeMethods.swerve_simulator_add_agent(Raw, Vec.ToNative(position), &id));
            return id;
        }

        /// <summary>Adds an agent at rest with parameters of its own; returns its id.</summary>
        public uint AddAgent(Vector2 position, AgentParams parameters)
        {
            SwerveAgentParams native = parameters.ToNative();
            uint id;
            Call(NativeMethods.swerve_simulator_add_agent_with(Raw, Vec.ToNative(position), &native, &id));
            return id;
        }

        /// <summary>Removes an agent; the others keep their ids.</summary>
        public void RemoveAgent(uint id)
        {
            Call(NativeMethods.swerve_simulator_remove_agent(Raw, id));
        }

        /// <summary>Whether <paramref name="id"/> names a live agent.</summary>
        public bool ContainsAgent(uint id)
        {
            bool value;
            Call(NativeMethods.swerve_simulator_contains_agent(Raw, id, &value));
            return value;
        }

        /// <summary>An agent's position (m).</summary>
        public Vector2 GetAgentPosition(uint id)
        {
            SwerveVec2 value;
            Call(NativeMethods.swerve_simulator_agent_position(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Moves an agent.</summary>
        public void SetAgentPosition(uint id, Vector2 position)
        {
            Call(NativeMethods.swerve_simulator_set_agent_position(Raw, id, Vec.ToNative(position)));
        }

        /// <summary>An agent's velocity (m/s), as chosen by the last step.</summary>
        public Vector2 GetAgentVelocity(uint id)
        {
            SwerveVec2 value;
            Call(NativeMethods.swerve_simulator_agent_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets an agent's velocity (m/s).</summary>
        public void SetAgentVelocity(uint id, Vector2 velocity)
        {
            Call(NativeMethods.swerve_simulator_set_agent_velocity(Raw, id, Vec.ToNative(velocity)));
        }

        /// <summary>The velocity an agent would take if nothing were in its way (m/s).</summary>
        public Vector2 GetAgentPrefVelocity(uint id)
        {
            SwerveVec2 value;
            Call(NativeMethods.swerve_simulator_agent_pref_velocity(Raw, id, &value));
            return Vec.From(value);
        }

        /// <summary>Sets the velocity an agent would take if nothing were in its way (m/s).</summary>
        public void SetAgentPrefVelocity(uint id, Vector2 velocity)
        {
            Call(NativeMethods.swerve_simulator_set_agent_pref_velocity(Raw, id, Vec.ToNative(velocity)));
        }

        /// <summary>An agent's parameters.</summary>
        public AgentParams GetAgentParams(uint id)
        {
            SwerveAgentParams native;
            Call(NativeMethods.swerve_simulator_agent_params(Raw, id, &native));
            return AgentParams.From(native);
        }

        /// <summary>Replaces an agent's parameters.</summary>
        public void SetAgentParams(uint id, AgentParams parameters)
        {
            SwerveAgentParams native = parameters.ToNative();
            Call(NativeMethods.swerve_simulator_set_agent_params(Raw, id, &native));
        }

        /// <summary>An agent's responsibility weight (0.5 unless set: RVO2's equal share).</summary>
        public float GetAgentResponsibility(uint id)
        {
            float value;
            Call(NativeMethods.swerve_simulator_agent_responsibility(Raw, id, &value));
            return value;
        }

        /// <summary>Sets how much of the avoidance an agent takes on (finite, ≥ 0): between
        /// agents of weights a and b the first takes a / (a + b) of the velocity change (half
        /// if both are 0), so an agent of weight 0 facing one of a positive weight does not
        /// yield at all. Equal weights are RVO2's half each.</summary>
        public void SetAgentResponsibility(uint id, float weight)
        {
            Call(NativeMethods.swerve_simulator_set_agent_responsibility(Raw, id, weight));
        }

        /// <summary>An agent's maximum acceleration (m/s²): infinity (the default, RVO2's
        /// agents) when its velocity may change by any amount in a step.</summary>
        public float GetAgentMaxAcceleration(uint id)
        {
            float value;
            Call(NativeMethods.swerve_simulator_agent_max_acceleration(Raw, id, &value));
            return value;
        }

        /// <summary>Limits how fast an agent's velocity may change (m/s², &gt; 0;
        /// <c>float.PositiveInfinity</c> lifts the limit): each step it changes by at most
        /// <c>maxAcceleration * TimeStep</c>, as game units and robots do (RVO2's agents turn
        /// and stop at once). An agent limited too tightly for its crowd can collide.</summary>
        public void SetAgentMaxAcceleration(uint id, float maxAcceleration)
        {
            Call(NativeMethods.swerve_simulator_set_agent_max_acceleration(Raw, id, maxAcceleration));
        }

        /// <summary>An agent's avoidance layers: the bits other agents' masks look for (1, the
        /// first layer, unless set).</summary>
        public uint GetAgentAvoidanceLayers(uint id)
        {
            uint value;
            Call(NativeMethods.swerve_simulator_agent_avoidance_layers(Raw, id, &value));
            return value;
        }

        /// <summary>Sets which avoidance layers an agent is on (a bit mask, as Godot's
        /// <c>avoidance_layers</c>; default 1). Agent A avoids agent B when
        /// <c>(A.mask &amp; B.layers) != 0</c>: A's neighbours are then the nearest agents it
        /// avoids, and when A avoids B but B ignores A, A takes the whole avoidance of B. Layers
        /// 0: nobody avoids the agent. The defaults (layers 1, mask 1) are RVO2 bit for
        /// bit.</summary>
        public void SetAgentAvoidanceLayers(uint id, uint layers)
        {
            Call(NativeMethods.swerve_simulator_set_agent_avoidance_layers(Raw, id, layers));
        }

        /// <summary>An agent's avoidance mask: it avoids the agents whose layers share a bit
        /// with it (1, the first layer, unless set).</summary>
        public uint GetAgentAvoidanceMask(uint id)
        {
            uint value;
            Call(NativeMethods.swerve_simulator_agent_avoidance_mask(Raw, id, &value));
            return value;
        }

        /// <summary>Sets which avoidance layers an agent avoids (a bit mask, as Godot's
        /// <c>avoidance_mask</c>; default 1); see <see cref="SetAgentAvoidanceLayers"/>. Mask 0:
        /// the agent avoids no other agent (it still avoids obstacles and movers).</summary>
        public void SetAgentAvoidanceMask(uint id, uint mask)
        {
            Call(NativeMethods.swerve_simulator_set_agent_avoidance_mask(Raw, id, mask));
        }

        /// <summary>Every live agent's id, in the order they were added.</summary>
        public uint[] GetAgentIds()
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator_agent_ids(Raw, (uint*)p, capacity, count), handle);
        }

        /// <summary>Every agent's position, in <see cref="GetAgentIds"/> order.</summary>
        public Vector2[] GetPositions()
        {
            Vector2[] values = new Vector2[AgentCount];
            CopyPositions(values);
            return values;
        }

        /// <summary>Copies every agent's position into <paramref name="buffer"/> (no allocation,
        /// for a per-frame loop); returns the count. A buffer shorter than the crowd raises
        /// ArgumentException and is left alone.</summary>
        public int CopyPositions(Vector2[] buffer)
        {
            UIntPtr count;
            fixed (Vector2* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_simulator_positions(Raw, (SwerveVec2*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every agent's velocity, in <see cref="GetAgentIds"/> order.</summary>
        public Vector2[] GetVelocities()
        {
            Vector2[] values = new Vector2[AgentCount];
            CopyVelocities(values);
            return values;
        }

        /// <summary>Copies every agent's velocity into <paramref name="buffer"/>; returns the
        /// count.</summary>
        public int CopyVelocities(Vector2[] buffer)
        {
            UIntPtr count;
            fixed (Vector2* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_simulator_velocities(Raw, (SwerveVec2*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Every agent's preferred velocity, in <see cref="GetAgentIds"/> order.</summary>
        public Vector2[] GetPrefVelocities()
        {
            Vector2[] values = new Vector2[AgentCount];
            CopyPrefVelocities(values);
            return values;
        }

        /// <summary>Copies every agent's preferred velocity into <paramref name="buffer"/>;
        /// returns the count.</summary>
        public int CopyPrefVelocities(Vector2[] buffer)
        {
            UIntPtr count;
            fixed (Vector2* p = Buffers.NotNull(buffer))
            {
                Call(NativeMethods.swerve_simulator_pref_velocities(Raw, (SwerveVec2*)p, (UIntPtr)buffer.Length, &count));
            }
            return Status.Count(count);
        }

        /// <summary>Sets every agent's preferred velocity at once, in <see cref="GetAgentIds"/>
        /// order; the array's length must be the agent count.</summary>
        public void SetPrefVelocities(Vector2[] values)
        {
            fixed (Vector2* p = Buffers.NotNull(values))
            {
                Call(NativeMethods.swerve_simulator_set_pref_velocities(Raw, (SwerveVec2*)p, (UIntPtr)values.Length));
            }
        }

        // ----- obstacles -----

        /// <summary>Adds a polygonal obstacle, vertices counterclockwise (clockwise for a
        /// boundary the agents stay inside; two vertices for a wall); returns its id. Agents
        /// see it after <see cref="ProcessObstacles"/>.</summary>
        public uint AddObstacle(IList<Vector2> vertices)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            Vector2[] copy = new Vector2[vertices.Count];
            vertices.CopyTo(copy, 0);
            uint id;
            fixed (Vector2* p = copy)
            {
                Call(NativeMethods.swerve_simulator_add_obstacle(Raw, (SwerveVec2*)p, (UIntPtr)copy.Length, &id));
            }
            return id;
        }

        /// <summary>Builds the obstacle tree over the obstacles added so far (RVO2's
        /// processObstacles); may be called again after adding or removing obstacles.</summary>
        public void ProcessObstacles()
        {
            Call(NativeMethods.swerve_simulator_process_obstacles(Raw));
        }

        /// <summary>Removes an obstacle (a door opening); agents stop seeing it at the next
        /// <see cref="ProcessObstacles"/>.</summary>
        public void RemoveObstacle(uint id)
        {
            Call(NativeMethods.swerve_simulator_remove_obstacle(Raw, id));
        }

        /// <summary>How many obstacles there are.</summary>
        public int ObstacleCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_simulator_num_obstacles(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>How many obstacle vertices the processed obstacles have (RVO2's
        /// getNumObstacleVertices).</summary>
        public int ObstacleVertexCount
        {
            get
            {
                UIntPtr count;
                Call(NativeMethods.swerve_simulator_num_obstacle_vertices(Raw, &count));
                return Status.Count(count);
            }
        }

        /// <summary>Every obstacle's id, in the order they were added.</summary>
        public uint[] GetObstacleIds()
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator_obstacle_ids(Raw, (uint*)p, capacity, count), handle);
        }

        /// <summary>An obstacle's vertices as it was added.</summary>
        public Vector2[] GetObstaclePolygon(uint id)
        {
            return Buffers.Items<Vector2>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator_obstacle_polygon(Raw, id, (SwerveVec2*)p, capacity, count), handle);
        }

        /// <summary>The number of an obstacle's first vertex among the processed vertices
        /// (what RVO2's addObstacle returns).</summary>
        public int GetObstacleFirstVertex(uint id)
        {
            UIntPtr value;
            Call(NativeMethods.swerve_simulator_obstacle_first_vertex(Raw, id, &value));
            return Status.Count(value);
        }

        /// <summary>A processed obstacle vertex by its number (0 ≤ number &lt;
        /// <see cref="ObstacleVertexCount"/>).</summary>
        public ObstacleVertex GetObstacleVertex(int number)
        {
            if (number < 0)
            {
                throw new ArgumentException("an obstacle vertex number must be at least 0, got " + number);
            }
            SwerveObstacleVertex native;
            Call(NativeMethods.swerve_simulator_obstacle_vertex(Raw, (UIntPtr)(uint)number, &native));
            ObstacleVertex vertex;
            vertex.Point = Vec.From(native.point);
            vertex.Next = (int)native.next;
            vertex.Previous = (int)native.prev;
            return vertex;
        }

        /// <summary>Whether the segment from <paramref name="from"/> to <paramref name="to"/>,
        /// widened by <paramref name="radius"/>, crosses no processed obstacle.</summary>
        public bool QueryVisibility(Vector2 from, Vector2 to, float radius)
        {
            bool value;
            Call(NativeMethods.swerve_simulator_query_visibility(Raw, Vec.ToNative(from), Vec.ToNative(to), radius, &value));
            return value;
        }

        // ----- beyond RVO2 -----

        /// <summary>Turns head-on symmetry breaking on with <paramref name="value"/>.</summary>
        public void SetSymmetryBreaking(SymmetryBreaking value)
        {
            SwerveSymmetryBreaking native;
            native.jitter = value.Jitter;
            native.seed = value.Seed;
            native.cone = value.Cone;
            native.turn = value.Turn;
            Call(NativeMethods.swerve_simulator_set_symmetry_breaking(Raw, &native));
        }

        /// <summary>Turns symmetry breaking off (RVO2's behaviour, the default).</summary>
        public void ClearSymmetryBreaking()
        {
            Call(NativeMethods.swerve_simulator_set_symmetry_breaking(Raw, null));
        }

        /// <summary>Turns overlap resolution ("safe mode") on with <paramref name="value"/>.</summary>
        public void SetOverlapResolution(OverlapResolution value)
        {
            SwerveOverlapResolution native = value.ToNative();
            Call(NativeMethods.swerve_simulator_set_overlap_resolution(Raw, &native));
        }

        /// <summary>Turns overlap resolution off (RVO2's behaviour, the default).</summary>
        public void ClearOverlapResolution()
        {
            Call(NativeMethods.swerve_simulator_set_overlap_resolution(Raw, null));
        }

        /// <summary>Whether every new velocity is clamped to the agent's max speed (RVO2's
        /// fallback program can exceed it slightly). Off by default.</summary>
        public void SetStrictSpeedLimit(bool on)
        {
            Call(NativeMethods.swerve_simulator_set_strict_speed_limit(Raw, on));
        }

        /// <summary>Adds a mover the agents avoid; returns its id.</summary>
        public uint AddMover(Mover mover)
        {
            SwerveMover native = ToNative(mover);
            uint id;
            Call(NativeMethods.swerve_simulator_add_mover(Raw, &native, &id));
            return id;
        }

        /// <summary>Moves a mover (once a frame, say).</summary>
        public void SetMover(uint id, Mover mover)
        {
            SwerveMover native = ToNative(mover);
            Call(NativeMethods.swerve_simulator_set_mover(Raw, id, &native));
        }

        /// <summary>A mover as last set.</summary>
        public Mover GetMover(uint id)
        {
            SwerveMover native;
            Call(NativeMethods.swerve_simulator_mover(Raw, id, &native));
            return new Mover(Vec.From(native.position), Vec.From(native.velocity), native.radius);
        }

        /// <summary>Removes a mover.</summary>
        public void RemoveMover(uint id)
        {
            Call(NativeMethods.swerve_simulator_remove_mover(Raw, id));
        }

        private static SwerveMover ToNative(Mover mover)
        {
            SwerveMover native;
            native.position = Vec.ToNative(mover.Position);
            native.velocity = Vec.ToNative(mover.Velocity);
            native.radius = mover.Radius;
            return native;
        }

        // ----- why an agent chose its velocity -----

        /// <summary>Whether each step records every agent's neighbours, half-planes and
        /// decision for the getters below (off by default: it costs time and memory).</summary>
        public void SetRecordDecisions(bool on)
        {
            Call(NativeMethods.swerve_simulator_set_record_decisions(Raw, on));
        }

        /// <summary>The agents an agent took into account in the last step, nearest first.</summary>
        public uint[] GetAgentNeighbors(uint id)
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator_agent_neighbors(Raw, id, (uint*)p, capacity, count), handle);
        }

        /// <summary>The obstacle edges an agent took into account in the last step, nearest
        /// first, as obstacle vertex numbers.</summary>
        public uint[] GetAgentObstacleNeighbors(uint id)
        {
            return Buffers.Items<uint>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator_agent_obstacle_neighbors(Raw, id, (uint*)p, capacity, count), handle);
        }

        /// <summary>An agent's ORCA half-planes of the last step, obstacles' first.</summary>
        public HalfPlane[] GetAgentHalfPlanes(uint id)
        {
            // HalfPlane is laid out as SwerveHalfPlane (point, then direction): filled in place.
            return Buffers.Items<HalfPlane>((void* p, UIntPtr capacity, UIntPtr* count) =>
                NativeMethods.swerve_simulator_agent_half_planes(Raw, id, (SwerveHalfPlane*)p, capacity, count), handle);
        }

        /// <summary>What an agent's last decision came to.</summary>
        public Decision GetAgentDecision(uint id)
        {
            SwerveDecision native;
            Call(NativeMethods.swerve_simulator_agent_decision(Raw, id, &native));
            Decision decision;
            decision.Feasible = native.feasible;
            decision.FirstInfeasible = Status.Count(native.first_infeasible);
            decision.ObstacleHalfPlanes = Status.Count(native.obstacle_half_planes);
            return decision;
        }
    }
}
