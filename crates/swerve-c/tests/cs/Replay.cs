// Runs an RVO2 scenario through swerve's C# API the way a C# program (a Unity project, say)
// would, and prints every agent's position and velocity after every step as the bits of the
// floats, for tests/c_programs.rs to compare with RVO2's own recording and with swerve run
// from Rust. The C# twin of tests/c/replay.c: the same input, the same output.
//
//   replay THREADS rvo|swerve [options] < scenario.txt
//
// rvo: through RVO2-CS's Simulator (csharp/RVO), odd steps by RVO2-CS 2.0's names and even
// steps by 2.1's. swerve: through Swerve.CrowdSimulator, even steps through the all-agent
// arrays and odd steps one agent at a time. "options" (swerve only) turns on what RVO2 does
// not have and prints what the agents saw and chose every 10 steps:
//   responsibility weights 1, 0, 2, 0.5 by agent number modulo 4; symmetry breaking (seed 7);
//   overlap resolution (the defaults); the strict speed limit; one mover at (-20, 0.5) moving
//   at (1.5, 0.1) with radius 2, moved before each step ("mover STEP ID px py"); agent 7
//   removed before step 30; obstacle 0 removed and the obstacles processed again before
//   step 40; and every 10th step, per agent, "neighbors STEP ID ids...", "obstacles STEP ID
//   vertices...", "halfplanes STEP ID (px py dx dy)..." and "decision STEP ID feasible first
//   obstacle_half_planes".

using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Swerve;
using Vec = System.Numerics.Vector2;

static class Replay
{
    static AgentParams ReadParams()
    {
        float neighborDist = Input.Float();
        int maxNeighbors = Input.Count();
        float timeHorizon = Input.Float();
        float timeHorizonObst = Input.Float();
        float radius = Input.Float();
        float maxSpeed = Input.Float();
        return new AgentParams(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed);
    }

    // RVO2's examples: toward the goal, normalised when longer than 1 (RVO::normalize divides
    // by RVO::abs, and dividing RVO2's C++ Vector2 multiplies by the reciprocal). The casts
    // keep every operation in float, as C# allows wider intermediates.
    static Vec Toward(Vec goal, Vec position)
    {
        float x = (float)(goal.X - position.X);
        float y = (float)(goal.Y - position.Y);
        float lengthSq = (float)((float)(x * x) + (float)(y * y));
        if (lengthSq > 1.0f)
        {
            float inverse = (float)(1.0f / (float)Math.Sqrt(lengthSq));
            x = (float)(x * inverse);
            y = (float)(y * inverse);
        }
        return new Vec(x, y);
    }

    static int Main(string[] args)
    {
        if (args.Length < 2 || (args[1] != "rvo" && args[1] != "swerve"))
        {
            Console.Error.WriteLine("usage: replay THREADS rvo|swerve [options] < scenario.txt");
            return 2;
        }
        int threads = int.Parse(args[0], CultureInfo.InvariantCulture);
        bool options = args.Length > 2 && args[2] == "options";
        Input.Load();

        float timeStep = Input.Float();
        AgentParams defaults = ReadParams();
        int agents = Input.Count();
        Vec[] starts = new Vec[agents];
        Vec[] goals = new Vec[agents];
        AgentParams[] parameters = new AgentParams[agents];
        for (int i = 0; i < agents; ++i)
        {
            starts[i] = new Vec(Input.Float(), Input.Float());
            goals[i] = new Vec(Input.Float(), Input.Float());
            parameters[i] = ReadParams();
        }
        int obstacles = Input.Count();
        List<Vec[]> polygons = new List<Vec[]>();
        for (int k = 0; k < obstacles; ++k)
        {
            Vec[] polygon = new Vec[Input.Count()];
            for (int i = 0; i < polygon.Length; ++i)
            {
                polygon[i] = new Vec(Input.Float(), Input.Float());
            }
            polygons.Add(polygon);
        }
        int steps = Input.Count();

        StringBuilder output = new StringBuilder();
        if (args[1] == "rvo")
        {
            RunRvo(timeStep, defaults, starts, goals, parameters, polygons, steps, threads, output);
        }
        else
        {
            RunSwerve(timeStep, defaults, starts, goals, parameters, polygons, steps, threads, options, output);
        }
        Console.Out.Write(output.ToString());
        return 0;
    }

    static void RunRvo(float timeStep, AgentParams d, Vec[] starts, Vec[] goals, AgentParams[] parameters,
                       List<Vec[]> polygons, int steps, int threads, StringBuilder output)
    {
        RVO.Simulator sim = RVO.Simulator.Instance;
        sim.Clear();
        sim.setTimeStep(timeStep);
        sim.setAgentDefaults(d.NeighborDist, d.MaxNeighbors, d.TimeHorizon, d.TimeHorizonObst, d.Radius, d.MaxSpeed,
                             new RVO.Vector2(0.0f, 0.0f));
        sim.NumWorkers = threads;
        for (int i = 0; i < starts.Length; ++i)
        {
            AgentParams p = parameters[i];
            int number = sim.AddAgent(starts[i], p.NeighborDist, p.MaxNeighbors, p.TimeHorizon, p.TimeHorizonObst,
                                      p.Radius, p.MaxSpeed, new RVO.Vector2(0.0f, 0.0f));
            if (number != i)
            {
                throw new Exception("agent " + i + " got number " + number);
            }
        }
        foreach (Vec[] polygon in polygons)
        {
            List<RVO.Vector2> vertices = new List<RVO.Vector2>();
            foreach (Vec v in polygon)
            {
                vertices.Add(v);
            }
            sim.addObstacle(vertices);
        }
        sim.processObstacles();
        for (int k = 0; k < steps; ++k)
        {
            if (k % 2 == 0)
            {
                for (int i = 0; i < sim.NumAgents; ++i)
                {
                    sim.SetAgentPrefVelocity(i, Toward(goals[i], sim.GetAgentPosition(i)));
                }
                sim.DoStep();
            }
            else
            {
                for (int i = 0; i < sim.getNumAgents(); ++i)
                {
                    sim.setAgentPrefVelocity(i, Toward(goals[i], sim.getAgentPosition(i)));
                }
                sim.doStep();
            }
            for (int i = 0; i < sim.NumAgents; ++i)
            {
                RVO.Vector2 p = sim.GetAgentPosition(i);
                RVO.Vector2 v = sim.getAgentVelocity(i);
                output.Append(k + 1).Append(' ').Append(i).Append(' ').Append(Input.Hex(p.x())).Append(' ').Append(Input.Hex(p.y()))
                      .Append(' ').Append(Input.Hex(v.X)).Append(' ').Append(Input.Hex(v.Y)).Append('\n');
            }
        }
    }

    static void RunSwerve(float timeStep, AgentParams defaults, Vec[] starts, Vec[] goals, AgentParams[] parameters,
                          List<Vec[]> polygons, int steps, int threads, bool options, StringBuilder output)
    {
        using (CrowdSimulator sim = new CrowdSimulator(timeStep, defaults))
        {
            sim.SetThreads(threads);
            for (int i = 0; i < starts.Length; ++i)
            {
                sim.AddAgent(starts[i], parameters[i]);
            }
            foreach (Vec[] polygon in polygons)
            {
                sim.AddObstacle(polygon);
            }
            sim.ProcessObstacles();

            Mover mover = new Mover(new Vec(-20.0f, 0.5f), new Vec(1.5f, 0.1f), 2.0f);
            uint moverId = 0;
            if (options)
            {
                float[] weights = { 1.0f, 0.0f, 2.0f, 0.5f };
                foreach (uint id in sim.GetAgentIds())
                {
                    sim.SetAgentResponsibility(id, weights[id % 4]);
                }
                SymmetryBreaking symmetry = SymmetryBreaking.Default;
                symmetry.Seed = 7;
                sim.SetSymmetryBreaking(symmetry);
                sim.SetOverlapResolution(OverlapResolution.Default);
                sim.SetStrictSpeedLimit(true);
                sim.SetRecordDecisions(true);
                moverId = sim.AddMover(mover);
            }

            for (int k = 0; k < steps; ++k)
            {
                int step = k + 1;
                if (options)
                {
                    if (step == 30)
                    {
                        sim.RemoveAgent(7);
                    }
                    if (step == 40)
                    {
                        sim.RemoveObstacle(sim.GetObstacleIds()[0]);
                        sim.ProcessObstacles();
                    }
                    mover.Position = new Vec((float)(mover.Position.X + (float)(mover.Velocity.X * timeStep)),
                                             (float)(mover.Position.Y + (float)(mover.Velocity.Y * timeStep)));
                    sim.SetMover(moverId, mover);
                    Mover moved = sim.GetMover(moverId);
                    output.Append("mover ").Append(step).Append(' ').Append(moverId).Append(' ')
                          .Append(Input.Hex(moved.Position.X)).Append(' ').Append(Input.Hex(moved.Position.Y)).Append('\n');
                }
                uint[] ids = sim.GetAgentIds();
                Vec[] positions = sim.GetPositions();
                if (k % 2 == 0)
                {
                    Vec[] preferred = new Vec[ids.Length];
                    for (int i = 0; i < ids.Length; ++i)
                    {
                        preferred[i] = Toward(goals[ids[i]], positions[i]);
                    }
                    sim.SetPrefVelocities(preferred);
                }
                else
                {
                    for (int i = 0; i < ids.Length; ++i)
                    {
                        sim.SetAgentPrefVelocity(ids[i], Toward(goals[ids[i]], sim.GetAgentPosition(ids[i])));
                    }
                }
                sim.Step();
                Vec[] after = new Vec[ids.Length];
                Vec[] velocities = new Vec[ids.Length];
                sim.CopyPositions(after);
                sim.CopyVelocities(velocities);
                for (int i = 0; i < ids.Length; ++i)
                {
                    output.Append(step).Append(' ').Append(ids[i]).Append(' ').Append(Input.Hex(after[i].X)).Append(' ')
                          .Append(Input.Hex(after[i].Y)).Append(' ').Append(Input.Hex(velocities[i].X)).Append(' ')
                          .Append(Input.Hex(velocities[i].Y)).Append('\n');
                }
                if (options && step % 10 == 0)
                {
                    foreach (uint id in ids)
                    {
                        Records(sim, step, id, output);
                    }
                }
            }
        }
    }

    static void Records(CrowdSimulator sim, int step, uint id, StringBuilder output)
    {
        output.Append("neighbors ").Append(step).Append(' ').Append(id);
        foreach (uint n in sim.GetAgentNeighbors(id))
        {
            output.Append(' ').Append(n);
        }
        output.Append("\nobstacles ").Append(step).Append(' ').Append(id);
        foreach (uint n in sim.GetAgentObstacleNeighbors(id))
        {
            output.Append(' ').Append(n);
        }
        output.Append("\nhalfplanes ").Append(step).Append(' ').Append(id);
        foreach (HalfPlane plane in sim.GetAgentHalfPlanes(id))
        {
            output.Append(' ').Append(Input.Hex(plane.Point.X)).Append(' ').Append(Input.Hex(plane.Point.Y)).Append(' ')
                  .Append(Input.Hex(plane.Direction.X)).Append(' ').Append(Input.Hex(plane.Direction.Y));
        }
        Decision decision = sim.GetAgentDecision(id);
        output.Append("\ndecision ").Append(step).Append(' ').Append(id).Append(' ').Append(decision.Feasible ? 1 : 0)
              .Append(' ').Append(decision.FirstInfeasible).Append(' ').Append(decision.ObstacleHalfPlanes).Append('\n');
    }
}
