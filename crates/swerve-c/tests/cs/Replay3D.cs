// Runs a 3-D ORCA scenario through Swerve.CrowdSimulator3D the way a C# program would, and
// prints everything it reads back as the bits of the floats: the C# twin of
// tests/c/replay3d.c (the same input, the same output; see there), for tests/c_programs3d.rs
// to compare with RVO2-3D's recordings and with swerve run from Rust.
//
//   replay3d THREADS < scenario.txt
//
// Even steps go through the all-agent arrays, odd steps through the per-agent calls.

using System;
using System.Text;
using Swerve;
using Vec3 = System.Numerics.Vector3;

static class Replay3D
{
    static Vec3 ReadVec3()
    {
        float x = Input.Float();
        float y = Input.Float();
        float z = Input.Float();
        return new Vec3(x, y, z);
    }

    static AgentParams3D ReadParams()
    {
        float neighborDist = Input.Float();
        int maxNeighbors = Input.Count();
        float timeHorizon = Input.Float();
        float radius = Input.Float();
        float maxSpeed = Input.Float();
        return new AgentParams3D(neighborDist, maxNeighbors, timeHorizon, radius, maxSpeed);
    }

    static void Append(StringBuilder output, Vec3 v)
    {
        output.Append(' ').Append(Input.Hex(v.X)).Append(' ').Append(Input.Hex(v.Y)).Append(' ').Append(Input.Hex(v.Z));
    }

    // The recordings' rule: toward the goal, normalised when longer than 1 by multiplying with
    // the reciprocal of the length (RVO2-3D's Vector3 division); every operation in float.
    static Vec3 Toward(Vec3 goal, Vec3 position)
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
        return new Vec3(x, y, z);
    }

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: replay3d THREADS < scenario.txt");
            return 2;
        }
        Input.Load();
        StringBuilder output = new StringBuilder();
        float timeStep = Input.Float();
        AgentParams3D defaults = ReadParams();
        using (CrowdSimulator3D sim = new CrowdSimulator3D(timeStep, defaults))
        {
            sim.SetThreads(int.Parse(args[0]));
            int agents = Input.Count();
            Vec3[] goals = new Vec3[agents];
            for (int i = 0; i < agents; ++i)
            {
                Vec3 position = ReadVec3();
                Vec3 velocity = ReadVec3();
                goals[i] = ReadVec3();
                AgentParams3D parameters = ReadParams();
                float weight = Input.Float();
                uint id = sim.AddAgent(position, parameters);
                sim.SetAgentVelocity(id, velocity);
                sim.SetAgentResponsibility(id, weight);
            }

            int recordEvery = Input.Count();
            sim.SetRecordDecisions(recordEvery > 0);
            bool symmetryOn = Input.Count() != 0;
            SymmetryBreaking symmetry;
            symmetry.Jitter = Input.Float();
            symmetry.Seed = Input.Seed();
            symmetry.Cone = Input.Float();
            symmetry.Turn = Input.Float();
            Vec3 up = ReadVec3();
            if (symmetryOn)
            {
                sim.SetSymmetryBreaking(symmetry, up);
            }
            else
            {
                sim.ClearSymmetryBreaking();
            }
            bool overlapOn = Input.Count() != 0;
            OverlapResolution overlap;
            overlap.Passes = Input.Count();
            overlap.Margin = Input.Float();
            if (overlapOn)
            {
                sim.SetOverlapResolution(overlap);
            }
            else
            {
                sim.ClearOverlapResolution();
            }
            sim.SetStrictSpeedLimit(Input.Count() != 0);

            uint[] movers = new uint[Input.Count()];
            for (int i = 0; i < movers.Length; ++i)
            {
                Vec3 position = ReadVec3();
                Vec3 velocity = ReadVec3();
                movers[i] = sim.AddMover(new Mover3D(position, velocity, Input.Float()));
            }
            int removeBefore = Input.Count();
            uint removeId = (uint)Input.Count();
            int steps = Input.Count();

            foreach (uint id in sim.GetAgentIds())
            {
                AgentParams3D p = sim.GetAgentParams(id);
                output.Append("params ").Append(id).Append(' ').Append(Input.Hex(p.NeighborDist)).Append(' ')
                      .Append(p.MaxNeighbors).Append(' ').Append(Input.Hex(p.TimeHorizon)).Append(' ')
                      .Append(Input.Hex(p.Radius)).Append(' ').Append(Input.Hex(p.MaxSpeed)).Append(' ')
                      .Append(Input.Hex(sim.GetAgentResponsibility(id))).Append('\n');
            }

            for (int k = 0; k < steps; ++k)
            {
                int step = k + 1;
                bool whole = k % 2 == 0;
                if (removeBefore > 0 && step == removeBefore)
                {
                    sim.RemoveAgent(removeId);
                }
                uint[] ids = sim.GetAgentIds();
                foreach (uint moverId in movers)
                {
                    Mover3D mover = sim.GetMover(moverId);
                    mover.Position = new Vec3((float)(mover.Position.X + (float)(mover.Velocity.X * timeStep)),
                                              (float)(mover.Position.Y + (float)(mover.Velocity.Y * timeStep)),
                                              (float)(mover.Position.Z + (float)(mover.Velocity.Z * timeStep)));
                    sim.SetMover(moverId, mover);
                    output.Append("mover ").Append(step).Append(' ').Append(moverId);
                    Append(output, mover.Position);
                    output.Append('\n');
                }
                Vec3[] positions = new Vec3[ids.Length];
                Vec3[] velocities = new Vec3[ids.Length];
                Vec3[] preferred = new Vec3[ids.Length];
                if (whole)
                {
                    sim.CopyPositions(positions);
                    for (int i = 0; i < ids.Length; ++i)
                    {
                        preferred[i] = Toward(goals[ids[i]], positions[i]);
                    }
                    sim.SetPrefVelocities(preferred);
                }
                else
                {
                    foreach (uint id in ids)
                    {
                        sim.SetAgentPrefVelocity(id, Toward(goals[id], sim.GetAgentPosition(id)));
                    }
                }
                sim.Step();
                if (whole)
                {
                    positions = sim.GetPositions();
                    velocities = sim.GetVelocities();
                    preferred = sim.GetPrefVelocities();
                }
                else
                {
                    for (int i = 0; i < ids.Length; ++i)
                    {
                        positions[i] = sim.GetAgentPosition(ids[i]);
                        velocities[i] = sim.GetAgentVelocity(ids[i]);
                        preferred[i] = sim.GetAgentPrefVelocity(ids[i]);
                    }
                }
                for (int i = 0; i < ids.Length; ++i)
                {
                    output.Append(step).Append(' ').Append(ids[i]);
                    Append(output, positions[i]);
                    Append(output, velocities[i]);
                    Append(output, preferred[i]);
                    output.Append('\n');
                }
                output.Append("time ").Append(step).Append(' ').Append(Input.Hex(sim.GlobalTime)).Append('\n');
                if (recordEvery > 0 && step % recordEvery == 0)
                {
                    foreach (uint id in ids)
                    {
                        output.Append("neighbors ").Append(step).Append(' ').Append(id);
                        foreach (uint n in sim.GetAgentNeighbors(id))
                        {
                            output.Append(' ').Append(n);
                        }
                        output.Append("\nplanes ").Append(step).Append(' ').Append(id);
                        foreach (Plane3D plane in sim.GetAgentPlanes(id))
                        {
                            Append(output, plane.Point);
                            Append(output, plane.Normal);
                        }
                        output.Append('\n');
                    }
                }
            }
        }
        Console.Out.Write(output.ToString());
        return 0;
    }
}
