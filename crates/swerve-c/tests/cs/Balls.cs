// Runs a ball world through Swerve.BallWorld the way a C# program would, and prints the state
// every few steps as the bits of the numbers: the C# twin of tests/c/balls.c (the same input,
// the same output; see there), for tests/c_programs_balls.rs to compare with the same world
// run by the Rust library directly.
//
//   balls < scenario.txt
//
// Frames take turns reading the state four ways: the Copy* arrays into buffers kept across
// frames, one ball at a time (GetBall), the Get* arrays, and the per-ball getters; contacts
// alternate between GetContacts and ContactCount + CopyContacts.

using System;
using System.Text;
using Swerve;
using Vec = System.Numerics.Vector2;

static class Balls
{
    struct Event
    {
        public int BeforeStep;
        public char Kind;
        public uint Id;
        public float X, Y;
    }

    static Vec ReadVec()
    {
        float x = Input.Float();
        float y = Input.Float();
        return new Vec(x, y);
    }

    static void Apply(BallWorld world, Event e)
    {
        Vec v = new Vec(e.X, e.Y);
        switch (e.Kind)
        {
            case 'i':
                world.ApplyImpulse(e.Id, v);
                break;
            case 'v':
                world.SetBallVelocity(e.Id, v);
                break;
            case 'p':
                world.SetBallPosition(e.Id, v);
                break;
            case 'w':
                world.SetBallAngularVelocity(e.Id, e.X);
                break;
            case 'r':
                world.RemoveBall(e.Id);
                break;
            case 'R':
                world.RemoveBalls(new uint[] { e.Id, e.Id + 1 });
                break;
            case 'g':
                world.Gravity = v;
                break;
            case 'b':
                world.BroadPhase = BallWorld.BroadPhaseNames[e.Id];
                break;
            case 'V':
            {
                Vec[] velocities = world.GetVelocities();
                for (int i = 0; i < velocities.Length; ++i)
                {
                    velocities[i] = new Vec((float)(velocities[i].X * e.X), (float)(velocities[i].Y * e.X));
                }
                world.SetVelocities(velocities);
                break;
            }
            default:
                Console.Error.WriteLine("unknown event kind " + e.Kind);
                Environment.Exit(2);
                break;
        }
    }

    // Kept across frames: the Copy* calls fill them without allocating.
    static uint[] ids;
    static Vec[] positions, velocities;
    static float[] spins, angles;
    static Contact[] contacts = new Contact[0];

    static void PrintBall(StringBuilder output, int step, uint id, Vec p, Vec v, float spin, float angle)
    {
        output.Append("B ").Append(step).Append(' ').Append(id);
        output.Append(' ').Append(Input.Hex(p.X)).Append(' ').Append(Input.Hex(p.Y));
        output.Append(' ').Append(Input.Hex(v.X)).Append(' ').Append(Input.Hex(v.Y));
        output.Append(' ').Append(Input.Hex(spin)).Append(' ').Append(Input.Hex(angle)).Append('\n');
    }

    static void PrintFrame(StringBuilder output, BallWorld world, int step, int frame, bool record)
    {
        switch (frame % 4)
        {
            case 0:
            {
                int n = world.CopyBallIds(ids);
                world.CopyPositions(positions);
                world.CopyVelocities(velocities);
                world.CopyAngularVelocities(spins);
                world.CopyAngles(angles);
                for (int i = 0; i < n; ++i)
                {
                    PrintBall(output, step, ids[i], positions[i], velocities[i], spins[i], angles[i]);
                }
                break;
            }
            case 1:
                foreach (uint id in world.GetBallIds())
                {
                    Ball ball = world.GetBall(id);
                    PrintBall(output, step, id, ball.Position, ball.Velocity, ball.AngularVelocity, ball.Angle);
                }
                break;
            case 2:
            {
                uint[] all = world.GetBallIds();
                Vec[] p = world.GetPositions();
                Vec[] v = world.GetVelocities();
                float[] w = world.GetAngularVelocities();
                float[] a = world.GetAngles();
                for (int i = 0; i < all.Length; ++i)
                {
                    PrintBall(output, step, all[i], p[i], v[i], w[i], a[i]);
                }
                break;
            }
            default:
            {
                uint[] all = world.GetBallIds();
                Ball[] balls = world.GetBalls();
                for (int i = 0; i < all.Length; ++i)
                {
                    uint id = all[i];
                    PrintBall(output, step, id, world.GetBallPosition(id), world.GetBallVelocity(id), world.GetBallAngularVelocity(id), balls[i].Angle);
                }
                break;
            }
        }

        Vector2Double momentum = world.Momentum;
        output.Append("T ").Append(step).Append(' ').Append(Input.Hex(world.KineticEnergy));
        output.Append(' ').Append(Input.Hex(momentum.X)).Append(' ').Append(Input.Hex(momentum.Y)).Append('\n');
        StepStats stats = world.LastStepStats;
        output.Append("S ").Append(step).Append(' ').Append(stats.CandidatePairs).Append(' ').Append(stats.Contacts);
        output.Append(' ').Append(stats.TimeOfImpactEvents).Append(' ').Append(stats.EscapedSweptBoxes);
        output.Append(' ').Append(stats.CorrectionPasses).Append(' ').Append(stats.PushedOutOfBox);
        output.Append(' ').Append(stats.RestingContacts).Append('\n');

        if (record)
        {
            Contact[] these;
            int count;
            if (frame % 2 == 0)
            {
                these = world.GetContacts();
                count = these.Length;
            }
            else
            {
                int needed = world.ContactCount;
                if (contacts.Length < needed)
                {
                    contacts = new Contact[needed + 16];
                }
                these = contacts;
                count = world.CopyContacts(contacts);
            }
            for (int i = 0; i < count; ++i)
            {
                Contact c = these[i];
                output.Append("C ").Append(step).Append(' ').Append(c.Ball).Append(' ').Append((int)c.Partner.Kind);
                output.Append(' ').Append(c.Partner.Index).Append(' ').Append(Input.Hex(c.Time));
                output.Append(' ').Append(Input.Hex(c.Impulse.X)).Append(' ').Append(Input.Hex(c.Impulse.Y));
                output.Append(' ').Append(Input.Hex(c.Normal.X)).Append(' ').Append(Input.Hex(c.Normal.Y)).Append('\n');
            }
        }
    }

    static int Main()
    {
        Input.Load();
        StringBuilder output = new StringBuilder();
        Bounds? bounds = null;
        if (Input.Count() != 0)
        {
            Vec min = ReadVec();
            Vec max = ReadVec();
            bounds = new Bounds(min, max);
        }
        string name = Input.Word();
        using (BallWorld world = new BallWorld(bounds, name))
        {
            float dt = Input.Float();
            int steps = Input.Count();
            int every = Input.Count();
            world.Gravity = ReadVec();
            world.LinearDamping = Input.Float();
            world.Substeps = Input.Count();
            world.SolverIterations = Input.Count();
            bool record = Input.Count() != 0;
            world.RecordContacts = record;

            int segments = Input.Count();
            for (int k = 0; k < segments; ++k)
            {
                Vec a = ReadVec();
                Vec b = ReadVec();
                world.AddSegment(a, b);
            }
            int polygons = Input.Count();
            for (int k = 0; k < polygons; ++k)
            {
                Vec[] vertices = new Vec[Input.Count()];
                for (int i = 0; i < vertices.Length; ++i)
                {
                    vertices[i] = ReadVec();
                }
                world.AddPolygon(vertices);
            }

            // The first half in one call, the rest one at a time.
            int n = Input.Count();
            Ball[] balls = new Ball[n];
            for (int i = 0; i < n; ++i)
            {
                Vec position = ReadVec();
                Vec velocity = ReadVec();
                balls[i] = new Ball(position, velocity, Input.Float());
                balls[i].Mass = Input.Float();
                balls[i].Restitution = Input.Float();
                balls[i].Friction = Input.Float();
                balls[i].RollingResistance = Input.Float();
                balls[i].AngularVelocity = Input.Float();
                balls[i].Angle = Input.Float();
            }
            int half = n / 2;
            Ball[] first = new Ball[half];
            Array.Copy(balls, first, half);
            uint[] added = world.AddBalls(first);
            for (int i = 0; i < n; ++i)
            {
                uint id = i < half ? added[i] : world.AddBall(balls[i]);
                if (id != (uint)i)
                {
                    Console.Error.WriteLine("ball " + i + " got id " + id);
                    return 1;
                }
            }
            ids = new uint[n];
            positions = new Vec[n];
            velocities = new Vec[n];
            spins = new float[n];
            angles = new float[n];

            Event[] events = new Event[Input.Count()];
            for (int k = 0; k < events.Length; ++k)
            {
                events[k].BeforeStep = Input.Count();
                events[k].Kind = Input.Word()[0];
                events[k].Id = (uint)Input.Count();
                events[k].X = Input.Float();
                events[k].Y = Input.Float();
            }

            int next = 0;
            for (int k = 0; k < steps; ++k)
            {
                while (next < events.Length && events[next].BeforeStep == k)
                {
                    Apply(world, events[next]);
                    ++next;
                }
                world.Step(dt);
                if ((k + 1) % every == 0)
                {
                    PrintFrame(output, world, k + 1, (k + 1) / every, record);
                }
            }
        }
        Console.Out.Write(output.ToString());
        return 0;
    }
}
