// swerve for C#: the values the crowd simulators take and give back, as plain .NET structs.
// Vectors are System.Numerics' (two or three floats, the layout of the C interface's).

using System;
using System.Numerics;
using Swerve.Native;

namespace Swerve
{
    /// <summary>The parameters RVO2 keeps per agent, with RVO2's names and meaning.</summary>
    public struct AgentParams
    {
        /// <summary>How far away other agents are taken into account (m), ≥ 0.</summary>
        public float NeighborDist;
        /// <summary>At most this many nearest agents are taken into account, ≥ 0.</summary>
        public int MaxNeighbors;
        /// <summary>How far ahead in time collisions with other agents are avoided (s), &gt; 0.</summary>
        public float TimeHorizon;
        /// <summary>How far ahead in time collisions with obstacles are avoided (s), &gt; 0.</summary>
        public float TimeHorizonObst;
        /// <summary>The agent's radius (m), &gt; 0.</summary>
        public float Radius;
        /// <summary>The agent's maximum speed (m/s), ≥ 0.</summary>
        public float MaxSpeed;

        /// <summary>Parameters in RVO2's order.</summary>
        public AgentParams(float neighborDist, int maxNeighbors, float timeHorizon, float timeHorizonObst, float radius, float maxSpeed)
        {
            NeighborDist = neighborDist;
            MaxNeighbors = maxNeighbors;
            TimeHorizon = timeHorizon;
            TimeHorizonObst = timeHorizonObst;
            Radius = radius;
            MaxSpeed = maxSpeed;
        }

        /// <summary>RVO2's Circle example parameters: 15 m, 10 neighbours, 10 s, 10 s, 1.5 m,
        /// 2 m/s.</summary>
        public static AgentParams Default
        {
            get
            {
                unsafe
                {
                    SwerveAgentParams native;
                    Status.Check(NativeMethods.swerve_agent_params_default(&native));
                    return From(native);
                }
            }
        }

        internal SwerveAgentParams ToNative()
        {
            if (MaxNeighbors < 0)
            {
                throw new ArgumentException("max neighbors must be at least 0, got " + MaxNeighbors);
            }
            SwerveAgentParams native;
            native.neighbor_dist = NeighborDist;
            native.max_neighbors = (UIntPtr)(uint)MaxNeighbors;
            native.time_horizon = TimeHorizon;
            native.time_horizon_obst = TimeHorizonObst;
            native.radius = Radius;
            native.max_speed = MaxSpeed;
            return native;
        }

        internal static AgentParams From(SwerveAgentParams native)
        {
            return new AgentParams(
                native.neighbor_dist,
                Status.Count(native.max_neighbors),
                native.time_horizon,
                native.time_horizon_obst,
                native.radius,
                native.max_speed);
        }
    }

    /// <summary>The parameters RVO2-3D keeps per agent (no obstacle horizon: RVO2-3D has no
    /// obstacles).</summary>
    public struct AgentParams3D
    {
        /// <summary>How far away other agents are taken into account (m), ≥ 0.</summary>
        public float NeighborDist;
        /// <summary>At most this many nearest agents are taken into account, ≥ 0.</summary>
        public int MaxNeighbors;
        /// <summary>How far ahead in time collisions are avoided (s), &gt; 0.</summary>
        public float TimeHorizon;
        /// <summary>The agent's radius (m), &gt; 0.</summary>
        public float Radius;
        /// <summary>The agent's maximum speed (m/s), ≥ 0.</summary>
        public float MaxSpeed;

        /// <summary>Parameters in RVO2-3D's order.</summary>
        public AgentParams3D(float neighborDist, int maxNeighbors, float timeHorizon, float radius, float maxSpeed)
        {
            NeighborDist = neighborDist;
            MaxNeighbors = maxNeighbors;
            TimeHorizon = timeHorizon;
            Radius = radius;
            MaxSpeed = maxSpeed;
        }

        /// <summary>RVO2-3D's Sphere example parameters.</summary>
        public static AgentParams3D Default
        {
            get
            {
                unsafe
                {
                    SwerveAgentParams3d native;
                    Status.Check(NativeMethods.swerve_agent_params3d_default(&native));
                    return From(native);
                }
            }
        }

        internal SwerveAgentParams3d ToNative()
        {
            if (MaxNeighbors < 0)
            {
                throw new ArgumentException("max neighbors must be at least 0, got " + MaxNeighbors);
            }
            SwerveAgentParams3d native;
            native.neighbor_dist = NeighborDist;
            native.max_neighbors = (UIntPtr)(uint)MaxNeighbors;
            native.time_horizon = TimeHorizon;
            native.radius = Radius;
            native.max_speed = MaxSpeed;
            return native;
        }

        internal static AgentParams3D From(SwerveAgentParams3d native)
        {
            return new AgentParams3D(
                native.neighbor_dist, Status.Count(native.max_neighbors), native.time_horizon, native.radius, native.max_speed);
        }
    }

    /// <summary>One ORCA half-plane of an agent's last decision (RVO2's Line): the velocities
    /// to the left of the line through <see cref="Point"/> along the unit vector
    /// <see cref="Direction"/> are permitted.</summary>
    public struct HalfPlane
    {
        /// <summary>A point on the boundary (m/s).</summary>
        public Vector2 Point;
        /// <summary>The boundary's unit direction.</summary>
        public Vector2 Direction;
    }

    /// <summary>One ORCA plane of a 3-D agent's last decision (RVO2-3D's Plane): the
    /// velocities on the side <see cref="Normal"/> points to are permitted.</summary>
    public struct Plane3D
    {
        /// <summary>A point on the plane (m/s).</summary>
        public Vector3 Point;
        /// <summary>The plane's unit normal.</summary>
        public Vector3 Normal;
    }

    /// <summary>What an agent's last decision came to.</summary>
    public struct Decision
    {
        /// <summary>True when every half-plane could be met (RVO2's linear program 2 chose the
        /// velocity); false when the crowd was too dense and linear program 3 chose the
        /// velocity that least violates them.</summary>
        public bool Feasible;
        /// <summary>When not <see cref="Feasible"/>: the first half-plane that could not be
        /// met.</summary>
        public int FirstInfeasible;
        /// <summary>How many of the half-planes came from obstacles (they come first).</summary>
        public int ObstacleHalfPlanes;
    }

    /// <summary>One vertex of the processed obstacles, numbered as RVO2 numbers them.</summary>
    public struct ObstacleVertex
    {
        /// <summary>Where the vertex is (m).</summary>
        public Vector2 Point;
        /// <summary>The number of the next vertex along its polygon.</summary>
        public int Next;
        /// <summary>The number of the previous vertex along its polygon.</summary>
        public int Previous;
    }

    /// <summary>Breaking the head-on stall of two agents walking straight at each other: a
    /// tiny per-step jitter of the preferred velocity and, inside a head-on cone, a turn so
    /// that both pass on the right. Off by default (RVO2's behaviour).</summary>
    public struct SymmetryBreaking
    {
        /// <summary>Length of the per-step perturbation of the preferred velocity (m/s), ≥ 0.</summary>
        public float Jitter;
        /// <summary>Seed of the perturbation directions.</summary>
        public ulong Seed;
        /// <summary>Half-angle of the head-on cone (rad).</summary>
        public float Cone;
        /// <summary>How far the preferred velocity turns clockwise in a head-on conflict (rad).</summary>
        public float Turn;

        /// <summary>0.001 m/s of jitter, seed 0, a 10° head-on cone, a 20° turn (swerve's
        /// defaults, the same bits as in Rust).</summary>
        public static SymmetryBreaking Default
        {
            get
            {
                SymmetryBreaking value;
                value.Jitter = 0.001f;
                value.Seed = 0;
                value.Cone = 0.17453292f;
                value.Turn = 0.34906584f;
                return value;
            }
        }
    }

    /// <summary>Removing the overlaps a dense crowd leaves after each step ("safe mode").</summary>
    public struct OverlapResolution
    {
        /// <summary>Projection rounds per step.</summary>
        public int Passes;
        /// <summary>Clearance kept between agents, as a fraction of the sum of their radii.</summary>
        public float Margin;

        /// <summary>Two rounds, 5 % clearance.</summary>
        public static OverlapResolution Default
        {
            get
            {
                OverlapResolution value;
                value.Passes = 2;
                value.Margin = 0.05f;
                return value;
            }
        }

        internal SwerveOverlapResolution ToNative()
        {
            if (Passes < 0)
            {
                throw new ArgumentException("overlap resolution passes must be at least 0, got " + Passes);
            }
            SwerveOverlapResolution native;
            native.passes = (uint)Passes;
            native.margin = Margin;
            return native;
        }
    }

    /// <summary>A non-cooperative disc (a player, a vehicle) that agents avoid taking the whole
    /// avoidance themselves; it does not react to them.</summary>
    public struct Mover
    {
        /// <summary>Centre (m).</summary>
        public Vector2 Position;
        /// <summary>Velocity (m/s); agents extrapolate the mover along it.</summary>
        public Vector2 Velocity;
        /// <summary>Radius (m), &gt; 0.</summary>
        public float Radius;

        /// <summary>A mover at <paramref name="position"/> moving at <paramref name="velocity"/>.</summary>
        public Mover(Vector2 position, Vector2 velocity, float radius)
        {
            Position = position;
            Velocity = velocity;
            Radius = radius;
        }
    }

    /// <summary>A non-cooperative sphere that 3-D agents avoid.</summary>
    public struct Mover3D
    {
        /// <summary>Centre (m).</summary>
        public Vector3 Position;
        /// <summary>Velocity (m/s).</summary>
        public Vector3 Velocity;
        /// <summary>Radius (m), &gt; 0.</summary>
        public float Radius;

        /// <summary>A mover at <paramref name="position"/> moving at <paramref name="velocity"/>.</summary>
        public Mover3D(Vector3 position, Vector3 velocity, float radius)
        {
            Position = position;
            Velocity = velocity;
            Radius = radius;
        }
    }
}
