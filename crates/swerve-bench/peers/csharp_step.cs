// Peer timing: swerve from C# under Mono (crates/swerve-c/csharp), the C# twin of
// rvo2_step.cc, built and run by scripts/bench-csharp.
//
// Reads a scene written by swerve-bench (`Scene::to_peer_text`) and builds it either through
// RVO2-CS's API (`rvo`: RVO.Simulator, one call per agent and frame, as an RVO2-CS program
// does) or through Swerve.CrowdSimulator (`swerve`: whole-crowd arrays). Threads come from
// OMP_NUM_THREADS, as for RVO2. Times the step alone ("steps_ms", what orca_case reads) and,
// apart, the frame's work around it: reading every position and setting every preferred
// velocity by RVO2's example rule ("frame_ms"). Prints one JSON line with the FNV-1a hash of
// the final positions, which swerve's run of the same scene from Rust must reproduce.
//
//     mono csharp_step.exe rvo|swerve scene.txt

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text;
using Swerve;
using Vec = System.Numerics.Vector2;

static class CSharpStep
{
    // RVO2's example rule, every operation in float (dividing RVO2's C++ Vector2 multiplies by
    // the reciprocal; RVO2-CS's divides, which would change the bits).
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

    static unsafe void Hash(ref ulong hash, float value)
    {
        uint bits = *(uint*)&value;
        for (int b = 0; b < 4; ++b)
        {
            hash ^= (bits >> (8 * b)) & 0xffu;
            hash *= 0x100000001b3ul;
        }
    }

    static double Median(List<double> samples)
    {
        List<double> sorted = new List<double>(samples);
        sorted.Sort();
        return sorted[sorted.Count / 2];
    }

    static string Join(List<double> samples)
    {
        StringBuilder text = new StringBuilder();
        for (int k = 0; k < samples.Count; ++k)
        {
            text.Append(k > 0 ? "," : "").Append(samples[k].ToString("F3", CultureInfo.InvariantCulture));
        }
        return text.ToString();
    }

    static int Main(string[] args)
    {
        if (args.Length != 2 || (args[0] != "rvo" && args[0] != "swerve"))
        {
            Console.Error.WriteLine("usage: csharp_step rvo|swerve SCENE.txt");
            return 2;
        }
        string[] lines = File.ReadAllLines(args[1]);
        string[] magic = lines[0].Split(' ');
        if (magic[0] != "swerve-peer-scene" || magic[1] != "1")
        {
            Console.Error.WriteLine("error: not a swerve peer scene (version 1)");
            return 1;
        }
        string name = lines[1].Trim();
        StringBuilder rest = new StringBuilder();
        for (int l = 2; l < lines.Length; ++l)
        {
            rest.Append(lines[l]).Append(' ');
        }
        string[] tokens = rest.ToString().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        int next = 0;
        // Mono reads "-0" as +0: the sign is put back by hand.
        Func<float> f = () =>
        {
            string token = tokens[next++];
            float value = float.Parse(token, CultureInfo.InvariantCulture);
            return value == 0.0f && token.StartsWith("-", StringComparison.Ordinal) ? -value : value;
        };
        Func<int> n = () => int.Parse(tokens[next++], CultureInfo.InvariantCulture);
        float timeStep = f();
        AgentParams defaults = new AgentParams(f(), n(), f(), f(), f(), f());
        int warmup = n();
        int steps = n();
        int agents = n();
        Vec[] starts = new Vec[agents];
        Vec[] goals = new Vec[agents];
        for (int i = 0; i < agents; ++i)
        {
            starts[i] = new Vec(f(), f());
            goals[i] = new Vec(f(), f());
        }
        List<Vec[]> polygons = new List<Vec[]>();
        for (int k = n(); k > 0; --k)
        {
            Vec[] polygon = new Vec[n()];
            for (int v = 0; v < polygon.Length; ++v)
            {
                polygon[v] = new Vec(f(), f());
            }
            polygons.Add(polygon);
        }
        string omp = Environment.GetEnvironmentVariable("OMP_NUM_THREADS");
        int threads = string.IsNullOrEmpty(omp) ? 0 : int.Parse(omp, CultureInfo.InvariantCulture);

        List<double> stepMs = new List<double>();
        List<double> frameMs = new List<double>();
        Vec[] final = new Vec[agents];
        Stopwatch watch = new Stopwatch();
        if (args[0] == "rvo")
        {
            RVO.Simulator sim = RVO.Simulator.Instance;
            sim.Clear();
            sim.SetRecordDecisions(false);
            sim.TimeStep = timeStep;
            sim.SetAgentDefaults(defaults.NeighborDist, defaults.MaxNeighbors, defaults.TimeHorizon, defaults.TimeHorizonObst,
                                 defaults.Radius, defaults.MaxSpeed, new RVO.Vector2(0.0f, 0.0f));
            sim.NumWorkers = threads;
            foreach (Vec start in starts)
            {
                sim.AddAgent(start);
            }
            foreach (Vec[] polygon in polygons)
            {
                List<RVO.Vector2> vertices = new List<RVO.Vector2>();
                foreach (Vec v in polygon)
                {
                    vertices.Add(v);
                }
                sim.AddObstacle(vertices);
            }
            if (polygons.Count > 0)
            {
                sim.ProcessObstacles();
            }
            for (int k = 0; k < warmup + steps; ++k)
            {
                watch.Restart();
                for (int i = 0; i < agents; ++i)
                {
                    sim.SetAgentPrefVelocity(i, Toward(goals[i], sim.GetAgentPosition(i)));
                }
                double frame = watch.Elapsed.TotalMilliseconds;
                watch.Restart();
                sim.DoStep();
                double step = watch.Elapsed.TotalMilliseconds;
                if (k >= warmup)
                {
                    stepMs.Add(step);
                    frameMs.Add(frame);
                }
            }
            for (int i = 0; i < agents; ++i)
            {
                final[i] = sim.GetAgentPosition(i);
            }
        }
        else
        {
            using (CrowdSimulator sim = new CrowdSimulator(timeStep, defaults))
            {
                sim.SetThreads(threads);
                foreach (Vec start in starts)
                {
                    sim.AddAgent(start);
                }
                foreach (Vec[] polygon in polygons)
                {
                    sim.AddObstacle(polygon);
                }
                if (polygons.Count > 0)
                {
                    sim.ProcessObstacles();
                }
                Vec[] positions = new Vec[agents];
                Vec[] preferred = new Vec[agents];
                for (int k = 0; k < warmup + steps; ++k)
                {
                    watch.Restart();
                    sim.CopyPositions(positions);
                    for (int i = 0; i < agents; ++i)
                    {
                        preferred[i] = Toward(goals[i], positions[i]);
                    }
                    sim.SetPrefVelocities(preferred);
                    double frame = watch.Elapsed.TotalMilliseconds;
                    watch.Restart();
                    sim.Step();
                    double step = watch.Elapsed.TotalMilliseconds;
                    if (k >= warmup)
                    {
                        stepMs.Add(step);
                        frameMs.Add(frame);
                    }
                }
                sim.CopyPositions(final);
            }
        }
        ulong hash = 0xcbf29ce484222325ul;
        foreach (Vec p in final)
        {
            Hash(ref hash, p.X);
            Hash(ref hash, p.Y);
        }
        Console.WriteLine(string.Format(CultureInfo.InvariantCulture,
            "{{\"scene\":\"{0}\",\"api\":\"{1}\",\"threads\":{2},\"median_ms\":{3:F3},\"frame_median_ms\":{4:F3},\"steps_ms\":[{5}],\"frame_ms\":[{6}],\"positions_fnv1a\":\"{7:x16}\"}}",
            name, args[0], threads, Median(stepMs), Median(frameMs), Join(stepMs), Join(frameMs), hash));
        return 0;
    }
}
