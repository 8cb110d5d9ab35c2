// Bad input to Swerve.BallWorld: each refused call raises the exception .NET code expects, with
// swerve's message, and changes nothing (what tests/c/balls_errors.c checks from C). Along the
// way, what each call did is read back, so a wrapper that reads or writes the wrong thing is
// caught too. Prints each check that fails, and "all checks passed" when none does.

using System;
using System.Collections.Generic;
using Swerve;
using Swerve.Native;
using Vec = System.Numerics.Vector2;
using C = Checks;

static unsafe class BallErrors
{
    static bool Same(Ball a, Ball b)
    {
        return a.Position == b.Position && a.Velocity == b.Velocity && a.Radius == b.Radius && a.Mass == b.Mass
            && a.Restitution == b.Restitution && a.Friction == b.Friction && a.RollingResistance == b.RollingResistance
            && a.AngularVelocity == b.AngularVelocity && a.Angle == b.Angle;
    }

    static int Main()
    {
        // The public structs have the C interface's layout (arrays are filled in place).
        C.Check(sizeof(Ball) == sizeof(SwerveBall) && sizeof(Contact) == sizeof(SwerveContact), "Ball and Contact as in C");
        C.Check(sizeof(RayHit) == sizeof(SwerveRayHit) && sizeof(Segment) == sizeof(SwerveSegment), "RayHit and Segment as in C");
        C.Check(sizeof(DebugBox) == sizeof(SwerveDebugBox) && sizeof(Bounds) == sizeof(SwerveBounds), "DebugBox and Bounds as in C");

        // ----- broad phases and creating a world -----
        string[] names = BallWorld.BroadPhaseNames;
        C.Check(string.Join(",", names) == "brute-force,sort-and-sweep,uniform-grid,hierarchical-grid,grid-sort-and-sweep,quadtree,aabb-tree",
                "the broad phases' names, in order: " + string.Join(",", names));
        Bounds box = new Bounds(new Vec(0.0f, 0.0f), new Vec(10.0f, 10.0f));
        C.Raises<ArgumentException>(() => new BallWorld(box, "octree"), "unknown broad phase \"octree\"", "an unknown broad phase");
        C.Raises<ArgumentException>(() => new BallWorld(box, "octree"), "aabb-tree", "the message lists the names");
        C.Raises<ArgumentException>(() => new BallWorld(box, "Uniform-Grid"), "broad phase", "a name in the wrong case");
        C.Raises<ArgumentException>(() => new BallWorld(box, ""), "broad phase", "an empty name");
        C.Raises<ArgumentException>(() => new BallWorld(box, "uniform-grid\0quadtree"), "NUL", "a name with a NUL in it");
        C.Raises<ArgumentNullException>(() => new BallWorld(box, null), "broadPhase", "no name");
        C.Raises<ArgumentException>(() => new BallWorld(new Bounds(new Vec(0.0f, 0.0f), new Vec(10.0f, 0.0f)), "uniform-grid"), "bounds", "flat bounds");
        C.Raises<ArgumentException>(() => new BallWorld(new Bounds(new Vec(0.0f, 0.0f), new Vec(float.NaN, 10.0f)), "uniform-grid"), "bounds", "NaN bounds");
        C.Raises<ArgumentException>(() => new BallWorld(new Bounds(new Vec(float.NegativeInfinity, 0.0f), new Vec(10.0f, 10.0f)), "uniform-grid"), "bounds", "infinite bounds");

        BallWorld world = new BallWorld(box, "sort-and-sweep");
        C.Check(world.Bounds.HasValue && world.Bounds.Value.Max == new Vec(10.0f, 10.0f) && world.Bounds.Value.Min == new Vec(0.0f, 0.0f), "the bounds read back");
        C.Check(world.BroadPhase == "sort-and-sweep", "the broad phase read back: " + world.BroadPhase);

        // ----- balls -----
        Ball ball = new Ball(new Vec(2.0f, 2.0f), new Vec(1.0f, 0.0f), 0.5f);
        C.Check(ball.Mass == 3.14159265f * 0.5f * 0.5f && ball.Restitution == 1.0f && ball.Friction == 0.0f, "a ball's defaults");
        C.Check(ball.Position == new Vec(2.0f, 2.0f) && ball.Velocity == new Vec(1.0f, 0.0f) && ball.Radius == 0.5f, "a ball where it was made");
        C.Check(!ball.IsKinematic && ball.RollingResistance == 0.0f && ball.AngularVelocity == 0.0f && ball.Angle == 0.0f, "a ball at rest, not kinematic");
        uint a = world.AddBall(ball);
        ball.Position = new Vec(5.0f, 5.0f);
        uint b = world.AddBall(ball);
        C.Check(a == 0 && b == 1, "ids from 0");

        // Each rule of AddBall: refused, nothing added.
        Ball bad = ball;
        bad.Position = new Vec(9.8f, 5.0f);
        C.Raises<ArgumentException>(() => world.AddBall(bad), "does not fit inside the world's bounds", "a ball sticking out of the box");
        bad.Position = new Vec(float.NaN, 5.0f);
        C.Raises<ArgumentException>(() => world.AddBall(bad), "ball position must be finite", "a NaN position");
        bad = ball;
        bad.Velocity = new Vec(0.0f, float.PositiveInfinity);
        C.Raises<ArgumentException>(() => world.AddBall(bad), "velocity", "an infinite velocity");
        bad = ball;
        bad.Radius = -0.5f;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "ball radius must be greater than 0", "a negative radius");
        bad.Radius = 0.0f;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "radius", "a zero radius");
        bad = ball;
        bad.Mass = 0.0f;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "mass", "a zero mass");
        bad.Mass = float.NaN;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "mass", "a NaN mass");
        bad = ball;
        bad.Restitution = 1.5f;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "restitution", "a restitution above 1");
        bad = ball;
        bad.Friction = -0.1f;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "friction", "a negative friction");
        bad = ball;
        bad.RollingResistance = -1.0f;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "rolling resistance", "a negative rolling resistance");
        bad = ball;
        bad.AngularVelocity = float.NaN;
        C.Raises<ArgumentException>(() => world.AddBall(bad), "angular velocity", "a NaN angular velocity");
        C.Check(world.BallCount == 2, "no ball added by the refused calls");

        // A kinematic ball may come from outside the box.
        Ball pusher = Ball.Kinematic(new Vec(-3.0f, 5.0f), new Vec(1.0f, 0.0f), 1.0f);
        C.Check(float.IsPositiveInfinity(pusher.Mass) && pusher.IsKinematic && pusher.Radius == 1.0f, "a kinematic ball");
        uint c = world.AddBall(pusher);
        C.Check(c == 2, "the kinematic ball is ball 2");

        // AddBalls is all or nothing.
        Ball[] several = { ball, ball, ball };
        several[0].Position = new Vec(8.0f, 8.0f);
        several[1].Radius = -1.0f;
        C.Raises<ArgumentException>(() => world.AddBalls(several), "ball 1: ball radius", "a bad ball among several");
        C.Check(world.BallCount == 3, "none of the several added");
        C.Raises<ArgumentNullException>(() => world.AddBalls(null), "balls", "no balls");
        C.Check(world.AddBalls(new Ball[0]).Length == 0, "no balls to add");
        uint[] added = world.AddBalls(new Ball[] { several[0] });
        C.Check(added.Length == 1 && added[0] == 3, "the refused adds used up no id: the next is 3");

        // Unknown and removed ids.
        C.Raises<KeyNotFoundException>(() => world.GetBall(99), "unknown ball id 99", "an unknown id");
        world.RemoveBall(3);
        C.Raises<KeyNotFoundException>(() => world.RemoveBall(3), "unknown ball id 3", "removing twice");
        C.Raises<KeyNotFoundException>(() => world.GetBallPosition(3), "3", "the position of a removed ball");
        C.Raises<KeyNotFoundException>(() => world.GetBallVelocity(3), "3", "the velocity of a removed ball");
        C.Raises<KeyNotFoundException>(() => world.SetBallVelocity(3, new Vec(1.0f, 1.0f)), "3", "steering a removed ball");
        C.Raises<KeyNotFoundException>(() => world.SetBallPosition(3, new Vec(1.0f, 1.0f)), "3", "moving a removed ball");
        C.Raises<KeyNotFoundException>(() => world.ApplyImpulse(3, new Vec(1.0f, 1.0f)), "3", "pushing a removed ball");
        C.Raises<KeyNotFoundException>(() => world.SetBallAngularVelocity(3, 1.0f), "3", "spinning a removed ball");
        C.Raises<KeyNotFoundException>(() => world.GetBallAngularVelocity(3), "3", "the spin of a removed ball");
        C.Raises<KeyNotFoundException>(() => world.SetBall(3, ball), "3", "replacing a removed ball");
        C.Check(!world.ContainsBall(3) && world.ContainsBall(b) && world.ContainsBall(a), "ball 3 is gone, 0 and 1 are there");
        C.Raises<KeyNotFoundException>(() => world.RemoveBalls(new uint[] { a, 3 }), "unknown ball id 3", "removing a live and a removed ball");
        C.Check(world.ContainsBall(a), "ball 0 not removed with the unknown one");
        C.Raises<ArgumentNullException>(() => world.RemoveBalls(null), "ids", "no ids to remove");
        C.Check(world.BallCount == 3, "three balls left");

        // Per-ball setters: refused values change nothing; accepted ones read back.
        Ball saved = world.GetBall(a);
        C.Check(Same(saved, world.GetBalls()[0]), "GetBall and GetBalls agree");
        C.Raises<ArgumentException>(() => world.SetBallPosition(a, new Vec(0.2f, 5.0f)), "does not fit", "moving a ball out of the box");
        C.Raises<ArgumentException>(() => world.SetBallPosition(a, new Vec(5.0f, float.NaN)), "finite", "a NaN position");
        C.Raises<ArgumentException>(() => world.SetBallVelocity(a, new Vec(float.PositiveInfinity, 0.0f)), "finite", "an infinite velocity");
        C.Raises<ArgumentException>(() => world.ApplyImpulse(a, new Vec(float.NaN, 0.0f)), "impulse", "a NaN impulse");
        C.Raises<ArgumentException>(() => world.ApplyImpulse(a, new Vec(3e38f, 0.0f)), "impulse", "an impulse too large");
        C.Raises<ArgumentException>(() => world.SetBallAngularVelocity(a, float.PositiveInfinity), "angular velocity", "an infinite spin");
        bad = saved;
        bad.Restitution = -0.5f;
        C.Raises<ArgumentException>(() => world.SetBall(a, bad), "restitution", "a negative restitution");
        C.Check(Same(world.GetBall(a), saved), "ball 0 unchanged by the refused calls");
        world.SetBallPosition(a, new Vec(2.0f, 3.0f));
        C.Check(world.GetBallPosition(a) == new Vec(2.0f, 3.0f), "a position set reads back");
        world.SetBallVelocity(a, new Vec(0.5f, -0.25f));
        C.Check(world.GetBallVelocity(a) == new Vec(0.5f, -0.25f), "a velocity set reads back");
        world.SetBallAngularVelocity(a, 1.5f);
        C.Check(world.GetBallAngularVelocity(a) == 1.5f && world.GetBall(a).Restitution == saved.Restitution, "a spin set reads back, the rest kept");
        world.ApplyImpulse(a, new Vec(saved.Mass, 0.0f));
        C.Check(world.GetBallVelocity(a) == new Vec(1.5f, -0.25f), "an impulse of one mass adds 1 m/s");
        Ball replaced = world.GetBall(a);
        replaced.Friction = 0.25f;
        replaced.Angle = 0.5f;
        world.SetBall(a, replaced);
        C.Check(Same(world.GetBall(a), replaced), "a whole ball set reads back");
        world.SetBall(a, saved);
        C.Check(Same(world.GetBall(a), saved), "and back again");
        world.SetBallPosition(c, new Vec(-30.0f, 40.0f));
        C.Check(world.GetBallPosition(c) == new Vec(-30.0f, 40.0f), "a kinematic ball may be moved anywhere");

        // ----- all-balls arrays: a short buffer raises and is left alone -----
        Vec[] buffer = { new Vec(-9.0f, -9.0f), new Vec(-9.0f, -9.0f) };
        C.Raises<ArgumentException>(() => world.CopyPositions(buffer), "the buffer has room for 2, the call needs 3", "positions into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyVelocities(buffer), "needs 3", "velocities into a short buffer");
        C.Check(buffer[0].X == -9.0f && buffer[1].Y == -9.0f, "the short buffer left alone");
        C.Raises<ArgumentNullException>(() => world.CopyPositions(null), "buffer", "a null buffer");
        uint[] shortIds = { 42, 42 };
        C.Raises<ArgumentException>(() => world.CopyBallIds(shortIds), "needs 3", "ids into a short buffer");
        C.Check(shortIds[0] == 42, "the short id buffer left alone");
        float[] one = { -1.0f };
        C.Raises<ArgumentException>(() => world.CopyRadii(one), "needs 3", "radii into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyMasses(one), "needs 3", "masses into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyAngles(one), "needs 3", "angles into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyAngularVelocities(one), "needs 3", "spins into a short buffer");
        C.Check(one[0] == -1.0f, "the short float buffer left alone");
        Ball[] oneBall = { replaced };
        C.Raises<ArgumentException>(() => world.CopyBalls(oneBall), "needs 3", "balls into a short buffer");
        C.Check(Same(oneBall[0], replaced), "the short ball buffer left alone");
        uint[] ids = world.GetBallIds();
        C.Check(ids.Length == 3 && ids[0] == a && ids[1] == b && ids[2] == c, "the ids in the order added");
        float[] radii = world.GetRadii();
        C.Check(radii.Length == 3 && radii[0] == 0.5f && radii[2] == 1.0f, "the radii");
        float[] masses = world.GetMasses();
        C.Check(masses.Length == 3 && masses[1] == ball.Mass && float.IsPositiveInfinity(masses[2]), "the masses, the kinematic ball's infinite");
        float[] spins = new float[5];
        C.Check(world.CopyAngularVelocities(spins) == 3 && spins[0] == saved.AngularVelocity && spins[3] == 0.0f, "a longer buffer: the count, the rest left alone");
        C.Check(world.GetAngles().Length == 3 && world.GetPositions()[1] == world.GetBallPosition(b), "angles and positions in id order");
        C.Check(world.GetVelocities()[2] == new Vec(1.0f, 0.0f), "the kinematic ball's velocity in id order");

        // Setting all at once: the count must match, and every value pass.
        Vec[] moved = world.GetPositions();
        Vec bAt = moved[1];
        moved[1] = new Vec(9.9f, 5.0f);
        C.Raises<ArgumentException>(() => world.SetPositions(moved), "does not fit", "one ball moved out of the box");
        C.Raises<ArgumentException>(() => world.SetPositions(new Vec[2]), "position count must be equal to the number of balls", "two positions for three balls");
        C.Raises<ArgumentNullException>(() => world.SetPositions(null), "values", "no positions");
        C.Check(world.GetBallPosition(b) == bAt, "ball 1 not moved by the refused calls");
        moved[1] = new Vec(6.0f, 4.0f);
        world.SetPositions(moved);
        C.Check(world.GetBallPosition(b) == new Vec(6.0f, 4.0f) && world.GetBallPosition(a) == moved[0], "positions set at once");
        Vec[] velocities = { new Vec(1.0f, 1.0f), new Vec(float.NaN, 1.0f), new Vec(1.0f, 1.0f) };
        C.Raises<ArgumentException>(() => world.SetVelocities(velocities), "finite", "a NaN among the velocities");
        C.Raises<ArgumentException>(() => world.SetVelocities(new Vec[4]), "count", "four velocities for three balls");
        C.Check(world.GetBallVelocity(a) == saved.Velocity, "no velocity changed by the refused calls");
        velocities[1] = new Vec(-2.0f, 3.0f);
        world.SetVelocities(velocities);
        C.Check(world.GetBallVelocity(b) == new Vec(-2.0f, 3.0f), "velocities set at once");
        world.SetVelocities(new Vec[] { saved.Velocity, new Vec(1.0f, 0.0f), new Vec(1.0f, 0.0f) });
        world.SetPositions(new Vec[] { saved.Position, new Vec(5.0f, 5.0f), new Vec(-30.0f, 40.0f) });

        // ----- segments -----
        C.Raises<ArgumentException>(() => world.AddSegment(new Vec(1.0f, 1.0f), new Vec(1.0f, 1.0f)), "same point", "a segment of one point");
        C.Raises<ArgumentException>(() => world.AddSegment(new Vec(1.0f, float.NaN), new Vec(2.0f, 1.0f)), "finite", "a NaN segment");
        Vec[] crossing = { new Vec(6.0f, 6.0f), new Vec(8.0f, 8.0f), new Vec(8.0f, 6.0f), new Vec(6.0f, 8.0f) };
        C.Raises<ArgumentException>(() => world.AddPolygon(crossing), "intersect", "crossing edges");
        C.Raises<ArgumentException>(() => world.AddPolygon(new Vec[] { new Vec(6.0f, 6.0f) }), "", "one vertex");
        C.Raises<ArgumentNullException>(() => world.AddPolygon(null), "vertices", "no vertices");
        C.Check(world.SegmentCount == 0, "no segment added by the refused calls");
        world.AddPolygon(new List<Vec> { new Vec(6.0f, 6.0f), new Vec(8.0f, 8.0f), new Vec(8.0f, 6.0f) });
        world.AddSegment(new Vec(1.0f, 9.0f), new Vec(3.0f, 9.5f));
        Segment[] segments = world.GetSegments();
        C.Check(world.SegmentCount == 4 && segments.Length == 4, "a triangle's three edges and a segment");
        C.Check(segments[1].A == new Vec(8.0f, 8.0f) && segments[1].B == new Vec(8.0f, 6.0f), "the triangle's second edge");
        C.Check(segments[3].A == new Vec(1.0f, 9.0f) && segments[3].B == new Vec(3.0f, 9.5f), "the segment, numbered after the edges");

        // ----- settings -----
        C.Raises<ArgumentException>(() => world.Step(0.0f), "dt must be finite and greater than 0", "a zero step");
        C.Raises<ArgumentException>(() => world.Gravity = new Vec(0.0f, float.NaN), "gravity", "a NaN gravity");
        C.Check(world.Gravity == new Vec(0.0f, 0.0f), "no gravity yet");
        world.Gravity = new Vec(0.5f, -9.81f);
        C.Check(world.Gravity == new Vec(0.5f, -9.81f), "gravity reads back");
        world.Gravity = new Vec(0.0f, 0.0f);
        C.Raises<ArgumentException>(() => world.Substeps = 0, "substeps", "no substeps");
        C.Raises<ArgumentException>(() => world.Substeps = 65, "substeps", "65 substeps");
        C.Raises<ArgumentException>(() => world.Substeps = -1, "substeps", "-1 substeps");
        C.Check(world.Substeps == 1, "one substep kept");
        world.Substeps = 4;
        C.Check(world.Substeps == 4, "substeps read back");
        world.Substeps = 1;
        C.Raises<ArgumentException>(() => world.SolverIterations = 0, "iterations", "no solver iterations");
        C.Raises<ArgumentException>(() => world.SolverIterations = 1001, "iterations", "1001 solver iterations");
        C.Raises<ArgumentException>(() => world.SolverIterations = -5, "iterations", "-5 solver iterations");
        C.Check(world.SolverIterations == 10, "ten solver iterations kept");
        world.SolverIterations = 20;
        C.Check(world.SolverIterations == 20, "solver iterations read back");
        world.SolverIterations = 10;
        C.Raises<ArgumentException>(() => world.LinearDamping = -1.0f, "damping", "a negative damping");
        C.Raises<ArgumentException>(() => world.LinearDamping = float.PositiveInfinity, "damping", "an infinite damping");
        C.Check(world.LinearDamping == 0.0f, "no damping kept");
        world.LinearDamping = 0.5f;
        C.Check(world.LinearDamping == 0.5f, "damping reads back");
        world.LinearDamping = 0.0f;
        C.Raises<ArgumentException>(() => world.BroadPhase = "octree", "unknown broad phase", "switching to an unknown broad phase");
        C.Raises<ArgumentNullException>(() => world.BroadPhase = null, "value", "switching to no broad phase");
        C.Check(world.BroadPhase == "sort-and-sweep", "the broad phase kept");
        foreach (string name in names)
        {
            world.BroadPhase = name;
            C.Check(world.BroadPhase == name, "switched to " + name);
        }
        world.BroadPhase = "sort-and-sweep";

        // ----- stepping: a refused step changes nothing, not even the last step's records -----
        C.Check(!world.RecordContacts, "no contact records by default");
        world.RecordContacts = true;
        C.Check(world.RecordContacts, "contact records on");
        world.SetBallVelocity(a, new Vec(-20.0f, 0.0f));
        world.Step(0.1f);
        Contact[] contacts = world.GetContacts();
        C.Check(contacts.Length == 1 && world.ContactCount == 1, "one contact");
        C.Check(contacts.Length == 1 && contacts[0].Ball == a && contacts[0].Partner.Kind == ColliderKind.Wall && contacts[0].Partner.Wall == BoxWall.MinX,
                "ball 0 hit the wall at min x");
        C.Check(contacts.Length == 1 && contacts[0].Normal == new Vec(-1.0f, 0.0f) && contacts[0].Impulse.X > 0.0f && contacts[0].Time > 0.0f,
                "the wall pushed ball 0 back, at its time of impact");
        StepStats stats = world.LastStepStats;
        C.Check(stats.CandidatePairs == 0 && stats.Contacts == 0 && stats.CorrectionPasses >= 0, "no ball-ball contact (wall bounces are not counted)");
        saved = world.GetBall(a);
        C.Check(saved.Velocity.X > 0.0f, "ball 0 bounced");
        C.Raises<ArgumentException>(() => world.Step(float.NaN), "dt", "a NaN step");
        C.Raises<ArgumentException>(() => world.Step(-0.1f), "dt", "a negative step");
        C.Raises<ArgumentException>(() => world.Step(float.PositiveInfinity), "dt", "an infinite step");
        C.Check(Same(world.GetBall(a), saved), "ball 0 unchanged by the refused steps");
        C.Check(world.ContactCount == 1 && world.GetContacts()[0].Partner.Wall == BoxWall.MinX, "the contacts kept");
        Contact[] noRoom = new Contact[0];
        C.Raises<ArgumentException>(() => world.CopyContacts(noRoom), "needs 1", "contacts into an empty buffer");
        Contact[] room = new Contact[3];
        room[1].Ball = 4242;
        C.Check(world.CopyContacts(room) == 1 && room[0].Ball == a && room[1].Ball == 4242, "contacts copied, the rest left alone");
        world.RecordContacts = false;
        C.Check(!world.RecordContacts && world.ContactCount == 0, "records off: none");

        // ----- queries -----
        RayHit hit;
        C.Raises<ArgumentException>(() => world.CastRay(new Vec(5.0f, 1.0f), new Vec(0.0f, 0.0f), 10.0f, out hit), "ray direction", "a ray without a direction");
        C.Raises<ArgumentException>(() => world.CastRay(new Vec(5.0f, 1.0f), new Vec(1.0f, 0.0f), -1.0f, out hit), "", "a negative ray length");
        C.Raises<ArgumentException>(() => world.CastRay(new Vec(float.NaN, 1.0f), new Vec(1.0f, 0.0f), 1.0f, out hit), "", "a NaN origin");
        C.Check(world.CastRay(new Vec(5.0f, 1.0f), new Vec(0.0f, -3.0f), float.PositiveInfinity, out hit), "a ray down meets the floor");
        C.Check(hit.Collider.Kind == ColliderKind.Wall && hit.Collider.Wall == BoxWall.MinY && hit.Distance == 1.0f, "the wall at min y, 1 m away");
        C.Check(hit.Point == new Vec(5.0f, 0.0f) && hit.Normal == new Vec(0.0f, 1.0f), "where, and facing the ray");
        C.Check(world.CastRay(new Vec(9.0f, 7.0f), new Vec(-1.0f, 0.0f), 5.0f, out hit), "a ray to the left meets the triangle");
        C.Check(hit.Collider.Kind == ColliderKind.Segment && hit.Collider.Index == 1 && hit.Distance == 1.0f && hit.Normal == new Vec(1.0f, 0.0f),
                "the triangle's second edge, 1 m away");
        C.Check(!world.CastRay(new Vec(9.0f, 7.0f), new Vec(-1.0f, 0.0f), 0.5f, out hit), "nothing within 0.5 m");
        Vec bNow = world.GetBallPosition(b);
        C.Check(world.CastRay(bNow + new Vec(0.0f, 2.0f), new Vec(0.0f, -1.0f), 10.0f, out hit) && hit.Collider.Kind == ColliderKind.Ball && hit.Collider.Index == b,
                "a ray down onto ball 1 meets it");
        C.Check(Math.Abs(hit.Distance - 1.5f) < 1e-5f && (hit.Point - (bNow + new Vec(0.0f, 0.5f))).Length() < 1e-5f, "at its top");
        C.Raises<ArgumentException>(() => world.GetBallsInCircle(new Vec(5.0f, 5.0f), -1.0f), "radius", "a negative query radius");
        uint[] found = world.GetBallsInCircle(bNow, 0.0f);
        C.Check(found.Length == 1 && found[0] == b, "ball 1 contains its centre");
        C.Check(world.GetBallsInCircle(new Vec(5.0f, 9.0f), 0.1f).Length == 0, "no ball near the top");
        found = world.GetBallsInCircle(bNow + new Vec(1.0f, 0.0f), 0.6f);
        C.Check(found.Length == 1 && found[0] == b, "a circle of 0.6 m 1 m right of ball 1's centre overlaps it");
        C.Check(world.GetBallsInCircle(bNow + new Vec(1.0f, 0.0f), 0.4f).Length == 0, "one of 0.4 m does not");
        uint at;
        C.Raises<ArgumentException>(() => world.TryGetBallAt(new Vec(float.NaN, 5.0f), out at), "", "a NaN point");
        C.Check(world.TryGetBallAt(bNow + new Vec(0.25f, 0.0f), out at) && at == b, "ball 1 is there");
        C.Check(!world.TryGetBallAt(new Vec(5.0f, 9.0f), out at), "no ball there");

        // ----- the broad phase's boxes -----
        C.Check(world.GetBroadPhaseBoxes().Length > 0 && world.GetBroadPhaseBoxes()[0].Kind == DebugBoxKind.SweepInterval, "sort and sweep's intervals");
        world.BroadPhase = "uniform-grid";
        world.Step(0.01f);
        DebugBox[] cells = world.GetBroadPhaseBoxes();
        C.Check(cells.Length > 0 && cells[0].Kind == DebugBoxKind.GridCell, "a uniform grid's cells");
        bool covered = false;
        foreach (DebugBox cell in cells)
        {
            Vec p = world.GetBallPosition(b);
            covered |= cell.Bounds.Min.X <= p.X && p.X <= cell.Bounds.Max.X && cell.Bounds.Min.Y <= p.Y && p.Y <= cell.Bounds.Max.Y;
        }
        C.Check(covered, "a cell holds ball 1's centre");
        world.Dispose();
        C.Raises<ObjectDisposedException>(() => world.Step(0.1f), "BallWorld", "a disposed world");
        C.Raises<ObjectDisposedException>(() => world.GetBallIds(), "BallWorld", "the ids of a disposed world");
        C.Raises<ObjectDisposedException>(() => world.GetContacts(), "BallWorld", "the contacts of a disposed world");
        world.Dispose();

        // ----- open space: energy, momentum, and what continuous collision does -----
        using (BallWorld open = new BallWorld(null, "brute-force"))
        {
            C.Check(!open.Bounds.HasValue, "open space has no bounds");
            Ball puck = new Ball(new Vec(0.0f, 0.0f), new Vec(3.0f, -4.0f), 0.5f);
            puck.Mass = 2.0f;
            uint p = open.AddBall(puck);
            C.Check(open.KineticEnergy == 25.0, "½ m v² = 25 J: " + open.KineticEnergy);
            C.Check(open.Momentum.X == 6.0 && open.Momentum.Y == -8.0, "m v = (6, -8)");
            Ball spinning = new Ball(new Vec(10.0f, 0.0f), new Vec(0.0f, 0.0f), 1.0f);
            spinning.Mass = 2.0f;
            spinning.AngularVelocity = 2.0f;
            open.AddBall(spinning);
            C.Check(open.KineticEnergy == 27.0, "with a disc of I = ½ m r² spinning at 2 rad/s: 27 J, got " + open.KineticEnergy);
            open.AddBall(Ball.Kinematic(new Vec(-10.0f, 0.0f), new Vec(5.0f, 0.0f), 1.0f));
            C.Check(open.Momentum.X == 6.0 && open.KineticEnergy == 27.0, "a kinematic ball counts for neither");
            open.RemoveBalls(new uint[] { 1, 2, 2 });
            C.Check(open.BallCount == 1 && open.GetBallIds()[0] == p, "repeated ids removed once");

            // A fast ball at a thin wall: stopped at its time of impact, or tunnelling through
            // it with continuous collision off.
            open.AddSegment(new Vec(10.0f, -5.0f), new Vec(10.0f, 5.0f));
            open.SetBallVelocity(p, new Vec(1000.0f, 0.0f));
            open.Step(0.1f);
            C.Check(open.GetBallPosition(p).X < 10.0f, "continuous collision stops the ball at the wall");
            open.SetBallPosition(p, new Vec(0.0f, 0.0f));
            open.SetBallVelocity(p, new Vec(1000.0f, 0.0f));
            open.SetContinuousCollision(false);
            open.Step(0.1f);
            C.Check(open.GetBallPosition(p).X > 10.0f, "without it the ball tunnels");
            open.SetContinuousCollision(true);
            open.SetVelocityCompensation(false);
            open.SetVelocityCompensation(true);
        }

        return C.Finish();
    }
}
