// swerve for C#: the values the ball worlds (BallWorld, BallWorld3D) take and give back.
//
// The structs that cross the C interface in arrays (Ball, Sphere, Contact, Segment and the
// like) are laid out exactly as the C interface's (sequential, the same fields in the same
// order, System.Numerics vectors for its vectors), so that whole-world arrays are filled by
// the library in place, without a copy per element. Do not reorder their fields.

using System;
using System.Numerics;
using System.Runtime.InteropServices;
using Swerve.Native;

namespace Swerve
{
    /// <summary>An axis-aligned box (m): the walls of a <see cref="BallWorld"/>, or a broad
    /// phase's cell.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Bounds
    {
        /// <summary>The corner with the smallest coordinates.</summary>
        public Vector2 Min;
        /// <summary>The corner with the largest coordinates.</summary>
        public Vector2 Max;

        /// <summary>The box from <paramref name="min"/> to <paramref name="max"/>.</summary>
        public Bounds(Vector2 min, Vector2 max)
        {
            Min = min;
            Max = max;
        }
    }

    /// <summary>An axis-aligned box in space (m): the walls of a <see cref="BallWorld3D"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Bounds3D
    {
        /// <summary>The corner with the smallest coordinates.</summary>
        public Vector3 Min;
        /// <summary>The corner with the largest coordinates.</summary>
        public Vector3 Max;

        /// <summary>The box from <paramref name="min"/> to <paramref name="max"/>.</summary>
        public Bounds3D(Vector3 min, Vector3 max)
        {
            Min = min;
            Max = max;
        }
    }

    /// <summary>A planar vector of doubles: a ball world's momentum, which is summed in double
    /// precision.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vector2Double
    {
        /// <summary>x.</summary>
        public double X;
        /// <summary>y.</summary>
        public double Y;

        /// <summary>The vector (<paramref name="x"/>, <paramref name="y"/>).</summary>
        public Vector2Double(double x, double y)
        {
            X = x;
            Y = y;
        }
    }

    /// <summary>A vector of doubles in space: a 3-D ball world's momentum.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vector3Double
    {
        /// <summary>x.</summary>
        public double X;
        /// <summary>y.</summary>
        public double Y;
        /// <summary>z.</summary>
        public double Z;

        /// <summary>The vector (<paramref name="x"/>, <paramref name="y"/>, <paramref name="z"/>).</summary>
        public Vector3Double(double x, double y, double z)
        {
            X = x;
            Y = y;
            Z = z;
        }
    }

    /// <summary>A ball of a <see cref="BallWorld"/>: a rigid disc. <c>new Ball(position,
    /// velocity, radius)</c> has the defaults (unit areal density, elastic, frictionless, not
    /// spinning); change the fields you need before adding it. Nothing is checked until the
    /// ball is added.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct Ball
    {
        /// <summary>Centre (m).</summary>
        public Vector2 Position;
        /// <summary>Velocity (m/s).</summary>
        public Vector2 Velocity;
        /// <summary>Radius (m), &gt; 0.</summary>
        public float Radius;
        /// <summary>Mass (kg), &gt; 0; <see cref="float.PositiveInfinity"/> makes the ball
        /// kinematic: it moves only as its velocity says, pushes the balls it meets without being
        /// pushed back, passes through box walls, segments and other kinematic balls, and is left
        /// out of the energy and momentum.</summary>
        public float Mass;
        /// <summary>Coefficient of restitution in [0, 1] (1: perfectly elastic). A pair of balls
        /// uses the larger of the two.</summary>
        public float Restitution;
        /// <summary>Coulomb friction coefficient, ≥ 0 (0: frictionless, the ball never spins from
        /// a contact). A pair of balls uses √(μa·μb); a wall or a segment the ball's own.</summary>
        public float Friction;
        /// <summary>Rolling resistance coefficient, ≥ 0: with gravity, resting contacts brake the
        /// ball's rolling (on a floor it slows at ⅔·c·g).</summary>
        public float RollingResistance;
        /// <summary>Angular velocity (rad/s, counter-clockwise).</summary>
        public float AngularVelocity;
        /// <summary>Orientation (rad, counter-clockwise, kept within [−π, π]); it changes nothing
        /// in the dynamics but shows a rolling ball turn.</summary>
        public float Angle;

        /// <summary>A ball with the defaults: mass π r² (unit areal density), restitution 1, no
        /// friction, no rolling resistance, not spinning, angle 0.</summary>
        public Ball(Vector2 position, Vector2 velocity, float radius)
        {
            SwerveBall native;
            Status.Check(NativeMethods.swerve_ball_new(Vec.ToNative(position), Vec.ToNative(velocity), radius, &native));
            this = *(Ball*)&native;
        }

        /// <summary>A kinematic ball (infinite mass; see <see cref="Mass"/>), otherwise as
        /// <see cref="Ball(Vector2, Vector2, float)"/>: a paddle, a pusher.</summary>
        public static Ball Kinematic(Vector2 position, Vector2 velocity, float radius)
        {
            SwerveBall native;
            Status.Check(NativeMethods.swerve_ball_kinematic(Vec.ToNative(position), Vec.ToNative(velocity), radius, &native));
            return *(Ball*)&native;
        }

        /// <summary>Whether the ball is kinematic (its mass is infinite).</summary>
        public bool IsKinematic
        {
            get { return float.IsPositiveInfinity(Mass); }
        }
    }

    /// <summary>A sphere of a <see cref="BallWorld3D"/>: a rigid ball in space.
    /// <c>new Sphere(position, velocity, radius)</c> has the defaults (unit density, elastic,
    /// frictionless, not spinning); change the fields you need before adding it. Nothing is
    /// checked until the sphere is added.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct Sphere
    {
        /// <summary>Centre (m).</summary>
        public Vector3 Position;
        /// <summary>Velocity (m/s).</summary>
        public Vector3 Velocity;
        /// <summary>Radius (m), &gt; 0.</summary>
        public float Radius;
        /// <summary>Mass (kg), &gt; 0; <see cref="float.PositiveInfinity"/> makes the sphere
        /// kinematic (see <see cref="Ball.Mass"/>).</summary>
        public float Mass;
        /// <summary>Coefficient of restitution in [0, 1]. A pair uses the larger of the two.</summary>
        public float Restitution;
        /// <summary>Coulomb friction coefficient, ≥ 0. A pair uses √(μa·μb); a wall or a triangle
        /// the sphere's own.</summary>
        public float Friction;
        /// <summary>Rolling resistance coefficient, ≥ 0: with gravity, resting contacts brake the
        /// sphere's rolling (on a floor it slows at 5/7·c·g).</summary>
        public float RollingResistance;
        /// <summary>Angular velocity (rad/s, about the axis it points along, right-handed). The
        /// sphere's orientation is not tracked.</summary>
        public Vector3 AngularVelocity;

        /// <summary>A sphere with the defaults: mass 4/3 π r³ (unit density), restitution 1, no
        /// friction, no rolling resistance, not spinning.</summary>
        public Sphere(Vector3 position, Vector3 velocity, float radius)
        {
            SwerveSphere native;
            Status.Check(NativeMethods.swerve_sphere_new(Vec.ToNative(position), Vec.ToNative(velocity), radius, &native));
            this = *(Sphere*)&native;
        }

        /// <summary>A kinematic sphere (infinite mass), otherwise as
        /// <see cref="Sphere(Vector3, Vector3, float)"/>.</summary>
        public static Sphere Kinematic(Vector3 position, Vector3 velocity, float radius)
        {
            SwerveSphere native;
            Status.Check(NativeMethods.swerve_sphere_kinematic(Vec.ToNative(position), Vec.ToNative(velocity), radius, &native));
            return *(Sphere*)&native;
        }

        /// <summary>Whether the sphere is kinematic (its mass is infinite).</summary>
        public bool IsKinematic
        {
            get { return float.IsPositiveInfinity(Mass); }
        }
    }

    /// <summary>A static segment balls bounce off (both sides are solid).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Segment
    {
        /// <summary>First end point (m).</summary>
        public Vector2 A;
        /// <summary>Second end point (m).</summary>
        public Vector2 B;
    }

    /// <summary>A static triangle spheres bounce off (both faces are solid).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Triangle
    {
        /// <summary>First corner (m).</summary>
        public Vector3 A;
        /// <summary>Second corner (m).</summary>
        public Vector3 B;
        /// <summary>Third corner (m); the corners' order sets only which face the normal is on.</summary>
        public Vector3 C;
    }

    /// <summary>What kind of thing a ball touched or a ray met.</summary>
    public enum ColliderKind
    {
        /// <summary>A ball; the index is its id.</summary>
        Ball = 0,
        /// <summary>A static segment; the index is its number in
        /// <see cref="BallWorld.GetSegments"/> (a polygon adds one per edge).</summary>
        Segment = 1,
        /// <summary>A wall of the world's box; the index is a <see cref="BoxWall"/>.</summary>
        Wall = 2,
    }

    /// <summary>The walls of a world's box, as numbered in a <see cref="Collider"/> of kind
    /// wall.</summary>
    public enum BoxWall
    {
        /// <summary>The wall at <c>Bounds.Min.X</c>.</summary>
        MinX = 0,
        /// <summary>The wall at <c>Bounds.Max.X</c>.</summary>
        MaxX = 1,
        /// <summary>The wall at <c>Bounds.Min.Y</c>.</summary>
        MinY = 2,
        /// <summary>The wall at <c>Bounds.Max.Y</c>.</summary>
        MaxY = 3,
    }

    /// <summary>Something a ball can collide with or a ray can hit.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Collider
    {
        /// <summary>A ball, a segment or a wall.</summary>
        public ColliderKind Kind;
        /// <summary>The ball's id, the segment's number or the wall's <see cref="BoxWall"/>
        /// number.</summary>
        public uint Index;

        /// <summary>The wall, when <see cref="Kind"/> is <see cref="ColliderKind.Wall"/>.</summary>
        public BoxWall Wall
        {
            get { return (BoxWall)Index; }
        }
    }

    /// <summary>What kind of thing a sphere touched or a ray met in a 3-D world.</summary>
    public enum ColliderKind3D
    {
        /// <summary>A sphere; the index is its id.</summary>
        Sphere = 0,
        /// <summary>A static triangle; the index is its number in
        /// <see cref="BallWorld3D.GetTriangles"/> (a mesh adds one per index triple, in order).</summary>
        Triangle = 1,
        /// <summary>A wall of the world's box; the index is a <see cref="BoxWall3D"/>.</summary>
        Wall = 2,
    }

    /// <summary>The walls of a 3-D world's box, as numbered in a <see cref="Collider3D"/> of
    /// kind wall.</summary>
    public enum BoxWall3D
    {
        /// <summary>The wall at <c>Bounds.Min.X</c>.</summary>
        MinX = 0,
        /// <summary>The wall at <c>Bounds.Max.X</c>.</summary>
        MaxX = 1,
        /// <summary>The wall at <c>Bounds.Min.Y</c>.</summary>
        MinY = 2,
        /// <summary>The wall at <c>Bounds.Max.Y</c>.</summary>
        MaxY = 3,
        /// <summary>The wall at <c>Bounds.Min.Z</c>.</summary>
        MinZ = 4,
        /// <summary>The wall at <c>Bounds.Max.Z</c>.</summary>
        MaxZ = 5,
    }

    /// <summary>Something a sphere can collide with or a ray can hit in a 3-D world.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Collider3D
    {
        /// <summary>A sphere, a triangle or a wall.</summary>
        public ColliderKind3D Kind;
        /// <summary>The sphere's id, the triangle's number or the wall's
        /// <see cref="BoxWall3D"/> number.</summary>
        public uint Index;

        /// <summary>The wall, when <see cref="Kind"/> is <see cref="ColliderKind3D.Wall"/>.</summary>
        public BoxWall3D Wall
        {
            get { return (BoxWall3D)Index; }
        }
    }

    /// <summary>A collision of the last step: every resolution between the same two partners
    /// within the step (its substeps included), folded into one.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Contact
    {
        /// <summary>The ball's id; of two balls, the one added first.</summary>
        public uint Ball;
        /// <summary>What it touched.</summary>
        public Collider Partner;
        /// <summary>Seconds into the step of the first resolution: 0 for resting contacts (with
        /// gravity), the time of impact for collisions found by continuous detection and for wall
        /// bounces, the step's length for overlaps resolved after the move.</summary>
        public float Time;
        /// <summary>The total impulse on <see cref="Ball"/> (N·s): its momentum changed by this
        /// much through this contact, and a partner ball's by the opposite.</summary>
        public Vector2 Impulse;
        /// <summary>Unit normal at the first resolution, from the ball towards its partner.</summary>
        public Vector2 Normal;
    }

    /// <summary>A collision of the last step in a 3-D world (see <see cref="Contact"/>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Contact3D
    {
        /// <summary>The sphere's id; of two spheres, the one added first.</summary>
        public uint Sphere;
        /// <summary>What it touched.</summary>
        public Collider3D Partner;
        /// <summary>Seconds into the step of the first resolution (see <see cref="Contact.Time"/>).</summary>
        public float Time;
        /// <summary>The total impulse on <see cref="Sphere"/> (N·s).</summary>
        public Vector3 Impulse;
        /// <summary>Unit normal at the first resolution, from the sphere towards its partner.</summary>
        public Vector3 Normal;
    }

    /// <summary>What a ray met first.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct RayHit
    {
        /// <summary>What it met.</summary>
        public Collider Collider;
        /// <summary>Distance from the ray's origin (m).</summary>
        public float Distance;
        /// <summary>Where it met it.</summary>
        public Vector2 Point;
        /// <summary>Unit normal of the collider's surface there, facing the ray's origin.</summary>
        public Vector2 Normal;
    }

    /// <summary>What a ray met first in a 3-D world.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct RayHit3D
    {
        /// <summary>What it met.</summary>
        public Collider3D Collider;
        /// <summary>Distance from the ray's origin (m).</summary>
        public float Distance;
        /// <summary>Where it met it.</summary>
        public Vector3 Point;
        /// <summary>Unit normal of the collider's surface there, facing the ray's origin.</summary>
        public Vector3 Normal;
    }

    /// <summary>What a broad-phase debug box stands for.</summary>
    public enum DebugBoxKind
    {
        /// <summary>An occupied grid cell (uniform, hierarchical, or grid + sort-and-sweep).</summary>
        GridCell = 0,
        /// <summary>A quadtree node's loose bounds.</summary>
        QuadtreeNode = 1,
        /// <summary>A ball's interval on the sweep axis, drawn across the scene's other extent.</summary>
        SweepInterval = 2,
        /// <summary>An AABB-tree node's (fat) box.</summary>
        TreeNode = 3,
    }

    /// <summary>One box of the structure a broad phase built in the last step, for drawing.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DebugBox
    {
        /// <summary>What it is.</summary>
        public DebugBoxKind Kind;
        /// <summary>Grid level (0 = finest) or tree depth (0 = root); 0 when meaningless.</summary>
        public uint Level;
        /// <summary>The box.</summary>
        public Bounds Bounds;
    }

    /// <summary>What the last step of a ball world did (with substeps, each count is the sum
    /// over them but <see cref="CorrectionPasses"/>, the most any one ran). In a 3-D world
    /// "balls" are spheres and "segments" triangles.</summary>
    public struct StepStats
    {
        /// <summary>Ball pairs the broad phase reported (a superset of the colliding pairs).</summary>
        public int CandidatePairs;
        /// <summary>Ball–ball and ball–segment collisions resolved (box-wall bounces are not
        /// counted).</summary>
        public int Contacts;
        /// <summary>Of those, collisions found by continuous detection at their time of impact.</summary>
        public int TimeOfImpactEvents;
        /// <summary>Balls that ended the step outside their swept box (the broad phase then ran
        /// again).</summary>
        public int EscapedSweptBoxes;
        /// <summary>Position-correction passes the discrete pass ran.</summary>
        public int CorrectionPasses;
        /// <summary>Times a position correction pushed a ball out of its swept box.</summary>
        public int PushedOutOfBox;
        /// <summary>With gravity: the resting contacts solved together before the move.</summary>
        public int RestingContacts;

        internal static StepStats From(SwerveStepStats native)
        {
            StepStats stats;
            stats.CandidatePairs = Status.Count(native.candidate_pairs);
            stats.Contacts = Status.Count(native.contacts);
            stats.TimeOfImpactEvents = Status.Count(native.time_of_impact_events);
            stats.EscapedSweptBoxes = Status.Count(native.escaped_swept_boxes);
            stats.CorrectionPasses = Status.Count(native.correction_passes);
            stats.PushedOutOfBox = Status.Count(native.pushed_out_of_box);
            stats.RestingContacts = Status.Count(native.resting_contacts);
            return stats;
        }
    }
}
