// Runs a 3-D ball world through Swerve.BallWorld3D the way a C# program would, and prints the
// state every few steps as the bits of the numbers: the C# twin of tests/c/balls3d.c (the same
// input, the same output; see there), for tests/c_programs_balls3d.rs to compare with the same
// world run by the Rust library directly.
//
//   balls3d < scenario.txt
//
// Frames take turns reading the state four ways: the Copy* arrays into buffers kept across
// frames, one sphere at a time (GetSphere), the Get* arrays, and the per-sphere getters;
// contacts alternate between GetContacts and ContactCount + CopyContacts.

using System;
using System.Text;
using Swerve;
using Vec3 = System.Numerics.Vector3;

static class Balls3D
{
    struct Event
    {
        public int BeforeStep;
        public char Kind;
        public uint Id;
        public Vec3 V;
    }

    static Vec3 ReadVec3()
    {
        float x = Input.Float();
        float y = Input.Float();
        float z = Input.Float();
        return new Vec3(x, y, z);
    }

    static void Apply(BallWorld3D world, Event e)
    {
        switch (e.Kind)
        {
            case 'i':
                world.ApplyImpulse(e.Id, e.V);
                break;
            case 'v':
                world.SetSphereVelocity(e.Id, e.V);
                break;
            case 'p':
                world.SetSpherePosition(e.Id, e.V);
                break;
            case 'w':
                world.SetSphereAngularVelocity(e.Id, e.V);
                break;
            case 'r':
                world.RemoveSphere(e.Id);
                break;
            case 'R':
                world.RemoveSpheres(new uint[] { e.Id, e.Id + 1 });
                break;
            case 'g':
                world.Gravity = e.V;
                break;
            case 'b':
                world.BroadPhase = BallWorld3D.BroadPhaseNames[e.Id];
                break;
            case 'V':
            {
                Vec3[] velocities = world.GetVelocities();
                float s = e.V.X;
                for (int i = 0; i < velocities.Length; ++i)
                {
                    Vec3 v = velocities[i];
                    velocities[i] = new Vec3((float)(v.X * s), (float)(v.Y * s), (float)(v.Z * s));
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
    static Vec3[] positions, velocities, spins;
    static Contact3D[] contacts = new Contact3D[0];

    static void Append(StringBuilder output, Vec3 v)
    {
        output.Append(' ').Append(Input.Hex(v.X)).Append(' ').Append(Input.Hex(v.Y)).Append(' ').Append(Input.Hex(v.Z));
    }

    static void PrintSphere(StringBuilder output, int step, uint id, Vec3 p, Vec3 v, Vec3 w)
    {
        output.Append("B ").Append(step).Append(' ').Append(id);
        Append(output, p);
        Append(output, v);
        Append(output, w);
        output.Append('\n');
    }

    static void PrintFrame(StringBuilder output, BallWorld3D world, int step, int frame, bool record)
    {
        switch (frame % 4)
        {
            case 0:
            {
                int n = world.CopySphereIds(ids);
                world.CopyPositions(positions);
                world.CopyVelocities(velocities);
                world.CopyAngularVelocities(spins);
                for (int i = 0; i < n; ++i)
                {
                    PrintSphere(output, step, ids[i], positions[i], velocities[i], spins[i]);
                }
                break;
            }
            case 1:
                foreach (uint id in world.GetSphereIds())
                {
                    Sphere sphere = world.GetSphere(id);
                    PrintSphere(output, step, id, sphere.Position, sphere.Velocity, sphere.AngularVelocity);
                }
                break;
            case 2:
            {
                uint[] all = world.GetSphereIds();
                Vec3[] p = world.GetPositions();
                Vec3[] v = world.GetVelocities();
                Vec3[] w = world.GetAngularVelocities();
                for (int i = 0; i < all.Length; ++i)
                {
                    PrintSphere(output, step, all[i], p[i], v[i], w[i]);
                }
                break;
            }
            default:
            {
                // The per-sphere getters, which must agree with every sphere's state read whole.
                uint[] all = world.GetSphereIds();
                Sphere[] spheres = world.GetSpheres();
                for (int i = 0; i < all.Length; ++i)
                {
                    uint id = all[i];
                    Vec3 p = world.GetSpherePosition(id);
                    Vec3 v = world.GetSphereVelocity(id);
                    Vec3 w = world.GetSphereAngularVelocity(id);
                    if (spheres[i].Position != p || spheres[i].Velocity != v || spheres[i].AngularVelocity != w)
                    {
                        Console.Error.WriteLine("GetSpheres and the per-sphere getters disagree on sphere " + id);
                        Environment.Exit(1);
                    }
                    PrintSphere(output, step, id, p, v, w);
                }
                break;
            }
        }

        Vector3Double momentum = world.Momentum;
        output.Append("T ").Append(step).Append(' ').Append(Input.Hex(world.KineticEnergy));
        output.Append(' ').Append(Input.Hex(momentum.X)).Append(' ').Append(Input.Hex(momentum.Y));
        output.Append(' ').Append(Input.Hex(momentum.Z)).Append('\n');
        StepStats stats = world.LastStepStats;
        output.Append("S ").Append(step).Append(' ').Append(stats.CandidatePairs).Append(' ').Append(stats.Contacts);
        output.Append(' ').Append(stats.TimeOfImpactEvents).Append(' ').Append(stats.EscapedSweptBoxes);
        output.Append(' ').Append(stats.CorrectionPasses).Append(' ').Append(stats.PushedOutOfBox);
        output.Append(' ').Append(stats.RestingContacts).Append('\n');

        if (record)
        {
            Contact3D[] these;
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
                    contacts = new Contact3D[needed + 16];
                }
                these = contacts;
                count = world.CopyContacts(contacts);
            }
            for (int i = 0; i < count; ++i)
            {
                Contact3D c = these[i];
                output.Append("C ").Append(step).Append(' ').Append(c.Sphere).Append(' ').Append((int)c.Partner.Kind);
                output.Append(' ').Append(c.Partner.Index).Append(' ').Append(Input.Hex(c.Time));
                Append(output, c.Impulse);
                Append(output, c.Normal);
                output.Append('\n');
            }
        }
    }

    static int Main()
    {
        Input.Load();
        StringBuilder output = new StringBuilder();
        Bounds3D? bounds = null;
        if (Input.Count() != 0)
        {
            Vec3 min = ReadVec3();
            Vec3 max = ReadVec3();
            bounds = new Bounds3D(min, max);
        }
        string name = Input.Word();
        using (BallWorld3D world = new BallWorld3D(bounds, name))
        {
            float dt = Input.Float();
            int steps = Input.Count();
            int every = Input.Count();
            world.Gravity = ReadVec3();
            world.LinearDamping = Input.Float();
            world.Substeps = Input.Count();
            world.SolverIterations = Input.Count();
            bool record = Input.Count() != 0;
            world.RecordContacts = record;

            int triangles = Input.Count();
            for (int k = 0; k < triangles; ++k)
            {
                Vec3 a = ReadVec3();
                Vec3 b = ReadVec3();
                Vec3 c = ReadVec3();
                world.AddTriangle(a, b, c);
            }
            int meshes = Input.Count();
            for (int k = 0; k < meshes; ++k)
            {
                Vec3[] vertices = new Vec3[Input.Count()];
                for (int i = 0; i < vertices.Length; ++i)
                {
                    vertices[i] = ReadVec3();
                }
                uint[] indices = new uint[3 * Input.Count()];
                for (int i = 0; i < indices.Length; ++i)
                {
                    indices[i] = (uint)Input.Count();
                }
                world.AddMesh(vertices, indices);
            }

            // The first half in one call, the rest one at a time.
            int n = Input.Count();
            Sphere[] spheres = new Sphere[n];
            for (int i = 0; i < n; ++i)
            {
                Vec3 position = ReadVec3();
                Vec3 velocity = ReadVec3();
                spheres[i] = new Sphere(position, velocity, Input.Float());
                spheres[i].Mass = Input.Float();
                spheres[i].Restitution = Input.Float();
                spheres[i].Friction = Input.Float();
                spheres[i].RollingResistance = Input.Float();
                spheres[i].AngularVelocity = ReadVec3();
            }
            int half = n / 2;
            Sphere[] first = new Sphere[half];
            Array.Copy(spheres, first, half);
            uint[] added = world.AddSpheres(first);
            for (int i = 0; i < n; ++i)
            {
                uint id = i < half ? added[i] : world.AddSphere(spheres[i]);
                if (id != (uint)i)
                {
                    Console.Error.WriteLine("sphere " + i + " got id " + id);
                    return 1;
                }
            }
            ids = new uint[n];
            positions = new Vec3[n];
            velocities = new Vec3[n];
            spins = new Vec3[n];

            Event[] events = new Event[Input.Count()];
            for (int k = 0; k < events.Length; ++k)
            {
                events[k].BeforeStep = Input.Count();
                events[k].Kind = Input.Word()[0];
                events[k].Id = (uint)Input.Count();
                events[k].V = ReadVec3();
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
