// Runs a 3-D ORCA scene with static obstacles through Swerve.CrowdSimulator3D the way a C#
// program would, and prints everything it reads back as the bits of the floats: the C# twin
// of tests/c/obstacles3d.c (the same input, the same output; see there), for
// tests/c_programs3d.rs to compare with swerve run from Rust.
//
//   obstacles3d THREADS < scene.txt

using System;
using System.Text;
using Swerve;
using Vec3 = System.Numerics.Vector3;

static class Obstacles3D
{
    static Vec3 ReadVec3()
    {
        float x = Input.Float();
        float y = Input.Float();
        float z = Input.Float();
        return new Vec3(x, y, z);
    }

    static void Append(StringBuilder output, Vec3 v)
    {
        output.Append(' ').Append(Input.Hex(v.X)).Append(' ').Append(Input.Hex(v.Y)).Append(' ').Append(Input.Hex(v.Z));
    }

    // Toward the goal at `speed`, slowing within a metre of it (tests/c/obstacles3d.c's rule);
    // every operation in float.
    static Vec3 Toward(Vec3 goal, Vec3 position, float speed)
    {
        float x = (float)(goal.X - position.X);
        float y = (float)(goal.Y - position.Y);
        float z = (float)(goal.Z - position.Z);
        float lengthSq = (float)((float)((float)(x * x) + (float)(y * y)) + (float)(z * z));
        if (lengthSq > 1.0f)
        {
            float inverse = (float)(1.0f / (float)Math.Sqrt(lengthSq));
            x = (float)(x * inverse);
            y = (float)(y * inverse);
            z = (float)(z * inverse);
        }
        return new Vec3((float)(x * speed), (float)(y * speed), (float)(z * speed));
    }

    static void AppendObstacleIds(StringBuilder output, CrowdSimulator3D sim, int step)
    {
        output.Append("obstacles ").Append(step);
        foreach (uint id in sim.GetObstacleIds())
        {
            output.Append(' ').Append(id);
        }
        output.Append('\n');
    }

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: obstacles3d THREADS < scene.txt");
            return 2;
        }
        Input.Load();
        StringBuilder output = new StringBuilder();
        float timeStep = Input.Float();
        float neighborDist = Input.Float();
        int maxNeighbors = Input.Count();
        float timeHorizon = Input.Float();
        float radius = Input.Float();
        float maxSpeed = Input.Float();
        using (CrowdSimulator3D sim = new CrowdSimulator3D(timeStep, new AgentParams3D(neighborDist, maxNeighbors, timeHorizon, radius, maxSpeed)))
        {
            sim.SetThreads(int.Parse(args[0]));
            sim.SetRecordDecisions(true);
            int agents = Input.Count();
            Vec3[] goals = new Vec3[agents];
            float[] speeds = new float[agents];
            for (int i = 0; i < agents; ++i)
            {
                Vec3 position = ReadVec3();
                goals[i] = ReadVec3();
                speeds[i] = Input.Float();
                float horizon = Input.Float();
                uint id = sim.AddAgent(position);
                if (horizon > 0.0f)
                {
                    sim.SetAgentObstacleTimeHorizon(id, horizon);
                }
            }

            int obstacles = Input.Count();
            for (int i = 0; i < obstacles; ++i)
            {
                uint id;
                if (Input.Count() == 0)
                {
                    Vec3[] vertices = new Vec3[Input.Count()];
                    uint[] indices = new uint[3 * Input.Count()];
                    for (int j = 0; j < vertices.Length; ++j)
                    {
                        vertices[j] = ReadVec3();
                    }
                    for (int j = 0; j < indices.Length; ++j)
                    {
                        indices[j] = (uint)Input.Count();
                    }
                    id = sim.AddObstacle(vertices, indices);
                }
                else
                {
                    Vec3 min = ReadVec3();
                    Vec3 max = ReadVec3();
                    id = sim.AddBoxObstacle(min, max);
                }
                Triangle[] triangles = sim.GetObstacleTriangles(id);
                output.Append("obstacle ").Append(id).Append(' ').Append(triangles.Length);
                foreach (Triangle t in triangles)
                {
                    Append(output, t.A);
                    Append(output, t.B);
                    Append(output, t.C);
                }
                output.Append('\n');
            }
            int removeBefore = Input.Count();
            uint removeId = (uint)Input.Count();
            int steps = Input.Count();

            uint[] ids = sim.GetAgentIds();
            foreach (uint id in ids)
            {
                output.Append("horizon ").Append(id).Append(' ').Append(Input.Hex(sim.GetAgentObstacleTimeHorizon(id))).Append('\n');
            }
            AppendObstacleIds(output, sim, 0);

            Vec3[] positions = new Vec3[ids.Length];
            Vec3[] preferred = new Vec3[ids.Length];
            for (int k = 0; k < steps; ++k)
            {
                int step = k + 1;
                if (removeBefore > 0 && step == removeBefore)
                {
                    sim.RemoveObstacle(removeId);
                    AppendObstacleIds(output, sim, step);
                }
                sim.CopyPositions(positions);
                for (int i = 0; i < ids.Length; ++i)
                {
                    preferred[i] = Toward(goals[ids[i]], positions[i], speeds[ids[i]]);
                }
                sim.SetPrefVelocities(preferred);
                sim.Step();
                positions = sim.GetPositions();
                Vec3[] velocities = sim.GetVelocities();
                for (int i = 0; i < ids.Length; ++i)
                {
                    output.Append(step).Append(' ').Append(ids[i]);
                    Append(output, positions[i]);
                    Append(output, velocities[i]);
                    Append(output, preferred[i]);
                    output.Append(' ').Append(sim.GetAgentPlanes(ids[i]).Length)
                          .Append(' ').Append(sim.GetAgentObstaclePlaneCount(ids[i])).Append('\n');
                }
            }
        }
        Console.Out.Write(output.ToString());
        return 0;
    }
}
