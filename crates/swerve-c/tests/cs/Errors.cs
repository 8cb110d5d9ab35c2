// Bad input through swerve's C# API (Swerve.CrowdSimulator, Swerve.CrowdSimulator3D and
// RVO2-CS's Simulator): each refused call raises the exception .NET code expects, with
// swerve's message, and changes nothing. Prints each check that fails, and "all checks
// passed" when none does.

using System;
using System.Collections.Generic;
using Swerve;
using C = Checks;
using Vec = System.Numerics.Vector2;
using Vec3 = System.Numerics.Vector3;

static class Errors
{
    // Two agents flying at each other along x, with preferred velocities set.
    static CrowdSimulator3D HeadOn3D()
    {
        CrowdSimulator3D sim = new CrowdSimulator3D(0.125f);
        sim.SetAgentPrefVelocity(sim.AddAgent(new Vec3(-6.0f, 0.0f, 0.0f)), new Vec3(1.0f, 0.0f, 0.0f));
        sim.SetAgentPrefVelocity(sim.AddAgent(new Vec3(6.0f, 0.0f, 0.0f)), new Vec3(-1.0f, 0.0f, 0.0f));
        return sim;
    }

    // Steps both `steps` times; whether every position and velocity stays the same in both.
    static bool StepAlike3D(CrowdSimulator3D a, CrowdSimulator3D b, int steps)
    {
        for (int k = 0; k < steps; ++k)
        {
            a.Step();
            b.Step();
            Vec3[] pa = a.GetPositions(), pb = b.GetPositions(), va = a.GetVelocities(), vb = b.GetVelocities();
            for (int i = 0; i < pa.Length; ++i)
            {
                if (pa[i] != pb[i] || va[i] != vb[i])
                {
                    return false;
                }
            }
        }
        return true;
    }

    static int Main()
    {
        C.Check(Library.Version.Length > 0, "a version");

        // Constructors and parameters.
        C.Raises<ArgumentException>(() => new CrowdSimulator(0.0f), "time step", "a zero time step");
        AgentParams bad = AgentParams.Default;
        bad.Radius = -1.0f;
        C.Raises<ArgumentException>(() => new CrowdSimulator(0.25f, bad), "radius", "a negative radius");
        bad = AgentParams.Default;
        bad.MaxNeighbors = -1;
        C.Raises<ArgumentException>(() => new CrowdSimulator(0.25f, bad), "max neighbors", "negative max neighbors");
        C.Check(AgentParams.Default.NeighborDist == 15.0f && AgentParams.Default.MaxNeighbors == 10, "RVO2 Circle's defaults");

        CrowdSimulator sim = new CrowdSimulator(0.25f);
        uint a = sim.AddAgent(new Vec(0.0f, 0.0f));
        uint b = sim.AddAgent(new Vec(4.0f, 0.0f));
        C.Check(a == 0 && b == 1, "ids from 0");

        // Agents.
        C.Raises<ArgumentException>(() => sim.AddAgent(new Vec(float.NaN, 0.0f)), "finite", "a NaN position");
        C.Raises<ArgumentException>(() => sim.AddAgent(new Vec(1.0f, 1.0f), bad), "max neighbors", "bad parameters");
        C.Check(sim.AgentCount == 2, "no agent added by the refused calls");
        C.Raises<KeyNotFoundException>(() => sim.GetAgentPosition(99), "99", "an unknown id");
        sim.SetAgentPrefVelocity(a, new Vec(1.0f, 0.0f));
        C.Raises<ArgumentException>(() => sim.SetAgentPrefVelocity(a, new Vec(float.PositiveInfinity, 0.0f)), "finite", "an infinite velocity");
        C.Check(sim.GetAgentPrefVelocity(a) == new Vec(1.0f, 0.0f), "the preferred velocity kept");
        AgentParams negative = sim.GetAgentParams(a);
        negative.MaxSpeed = -2.0f;
        C.Raises<ArgumentException>(() => sim.SetAgentParams(a, negative), "speed", "a negative max speed");
        C.Check(sim.GetAgentParams(a).MaxSpeed == 2.0f, "the max speed kept");
        C.Raises<ArgumentException>(() => sim.SetAgentResponsibility(a, -1.0f), "", "a negative weight");
        C.Check(sim.GetAgentResponsibility(a) == 0.5f, "the weight kept (RVO2's half)");

        // Acceleration limits: 2 m/s² over 0.25 s steps, 0.5 m/s a step.
        C.Check(float.IsPositiveInfinity(sim.GetAgentMaxAcceleration(b)), "unlimited by default");
        C.Raises<ArgumentException>(() => sim.SetAgentMaxAcceleration(b, 0.0f), "acceleration", "a zero acceleration");
        C.Raises<ArgumentException>(() => sim.SetAgentMaxAcceleration(b, float.NaN), "acceleration", "a NaN acceleration");
        C.Raises<KeyNotFoundException>(() => sim.SetAgentMaxAcceleration(77, 1.0f), "77", "an acceleration for an unknown id");
        C.Check(float.IsPositiveInfinity(sim.GetAgentMaxAcceleration(b)), "the limit unchanged by the refused calls");
        using (CrowdSimulator lone = new CrowdSimulator(0.25f))
        {
            uint id = lone.AddAgent(new Vec(0.0f, 0.0f));
            lone.SetAgentMaxAcceleration(id, 2.0f);
            C.Check(lone.GetAgentMaxAcceleration(id) == 2.0f, "the limit read back");
            for (int step = 1; step <= 3; ++step)
            {
                lone.SetAgentPrefVelocity(id, new Vec(2.0f, 0.0f));
                lone.Step();
                C.Check(Math.Abs(lone.GetAgentVelocity(id).X - 0.5f * step) < 1e-5f, "0.5 m/s more at step " + step);
            }
        }

        // Avoidance layers and masks: any 32 bits, layer 1 and mask 1 (RVO2) by default.
        C.Check(sim.GetAgentAvoidanceLayers(b) == 1u && sim.GetAgentAvoidanceMask(b) == 1u, "layer 1 and mask 1 by default");
        C.Raises<KeyNotFoundException>(() => sim.SetAgentAvoidanceLayers(77, 2u), "77", "layers for an unknown id");
        C.Raises<KeyNotFoundException>(() => sim.SetAgentAvoidanceMask(76, 2u), "76", "a mask for an unknown id");
        C.Raises<KeyNotFoundException>(() => sim.GetAgentAvoidanceLayers(75), "75", "the layers of an unknown id");
        C.Raises<KeyNotFoundException>(() => sim.GetAgentAvoidanceMask(74), "74", "the mask of an unknown id");
        sim.SetAgentAvoidanceLayers(a, 0xFFFFFFFFu);
        sim.SetAgentAvoidanceMask(b, 0x80000000u);
        C.Check(sim.GetAgentAvoidanceLayers(a) == 0xFFFFFFFFu && sim.GetAgentAvoidanceMask(a) == 1u, "a's layers read back, its mask kept");
        C.Check(sim.GetAgentAvoidanceLayers(b) == 1u && sim.GetAgentAvoidanceMask(b) == 0x80000000u, "b's mask read back, its layers kept");
        sim.SetAgentAvoidanceLayers(a, 1u);
        sim.SetAgentAvoidanceMask(b, 1u);
        // Two agents walking at each other on layer 1 but looking for layer 2 ignore each other:
        // each keeps its preferred velocity, bit for bit, and they pass through each other.
        using (CrowdSimulator pair = new CrowdSimulator(0.25f))
        {
            uint west = pair.AddAgent(new Vec(-5.0f, 0.0f));
            uint east = pair.AddAgent(new Vec(5.0f, 0.01f));
            pair.SetAgentAvoidanceMask(west, 2u);
            pair.SetAgentAvoidanceMask(east, 2u);
            bool straight = true;
            for (int step = 0; step < 24; ++step)
            {
                pair.SetAgentPrefVelocity(west, new Vec(1.0f, 0.0f));
                pair.SetAgentPrefVelocity(east, new Vec(-1.0f, 0.0f));
                pair.Step();
                straight = straight && pair.GetAgentVelocity(west) == new Vec(1.0f, 0.0f) && pair.GetAgentVelocity(east) == new Vec(-1.0f, 0.0f);
            }
            C.Check(straight, "agents that ignore each other keep their preferred velocities");
            C.Check(pair.GetAgentPosition(west).X > pair.GetAgentPosition(east).X, "and pass through each other");
        }

        // Whole-crowd arrays.
        C.Raises<ArgumentException>(() => sim.SetPrefVelocities(new Vec[3]), "", "one preferred velocity too many");
        Vec[] shortBuffer = { new Vec(7.0f, 7.0f) };
        C.Raises<ArgumentException>(() => sim.CopyPositions(shortBuffer), "2", "a buffer too short");
        C.Check(shortBuffer[0] == new Vec(7.0f, 7.0f), "the short buffer left alone");
        C.Raises<ArgumentNullException>(() => sim.CopyPositions(null), "buffer", "a null buffer");
        C.Check(sim.GetPositions().Length == 2 && sim.GetPositions()[1] == new Vec(4.0f, 0.0f), "positions in id order");

        // Removal.
        sim.RemoveAgent(a);
        C.Raises<KeyNotFoundException>(() => sim.RemoveAgent(a), "0", "removing twice");
        C.Raises<KeyNotFoundException>(() => sim.SetAgentAvoidanceMask(a, 2u), "0", "a mask for a removed agent");
        C.Check(!sim.ContainsAgent(a) && sim.ContainsAgent(b) && sim.AgentCount == 1, "only agent 0 removed");
        C.Check(sim.GetAgentIds().Length == 1 && sim.GetAgentIds()[0] == b, "agent 1 keeps its id");
        C.Check(sim.AddAgent(new Vec(-4.0f, 0.0f)) == 2, "a removed id is not handed out again");

        // Obstacles.
        Vec[] crossing = { new Vec(0.0f, 0.0f), new Vec(1.0f, 1.0f), new Vec(1.0f, 0.0f), new Vec(0.0f, 1.0f) };
        C.Raises<ArgumentException>(() => sim.AddObstacle(crossing), "intersect", "crossing edges");
        C.Raises<ArgumentException>(() => sim.AddObstacle(new Vec[] { new Vec(0.0f, 0.0f) }), "", "one vertex");
        C.Raises<ArgumentNullException>(() => sim.AddObstacle(null), "vertices", "no vertices");
        C.Check(sim.ObstacleCount == 0, "no obstacle added by the refused calls");
        uint wall = sim.AddObstacle(new List<Vec> { new Vec(10.0f, -5.0f), new Vec(10.0f, 5.0f) });
        sim.ProcessObstacles();
        C.Check(sim.GetObstaclePolygon(wall).Length == 2 && sim.ObstacleVertexCount == 2, "a wall of two vertices");
        C.Check(!sim.QueryVisibility(new Vec(0.0f, 0.0f), new Vec(20.0f, 0.0f), 0.0f), "the wall blocks the view");
        C.Raises<KeyNotFoundException>(() => sim.RemoveObstacle(5), "5", "an unknown obstacle");
        C.Raises<ArgumentException>(() => sim.GetObstacleVertex(-1), "0", "a negative vertex number");

        // Options and records.
        SymmetryBreaking symmetry = SymmetryBreaking.Default;
        symmetry.Jitter = -1.0f;
        C.Raises<ArgumentException>(() => sim.SetSymmetryBreaking(symmetry), "jitter", "negative jitter");
        OverlapResolution overlap = OverlapResolution.Default;
        overlap.Passes = -1;
        C.Raises<ArgumentException>(() => sim.SetOverlapResolution(overlap), "passes", "negative passes");
        C.Raises<ArgumentException>(() => sim.AddMover(new Mover(new Vec(0.0f, 0.0f), new Vec(0.0f, 0.0f), 0.0f)), "radius", "a mover of radius 0");
        C.Raises<KeyNotFoundException>(() => sim.GetMover(3), "3", "an unknown mover");
        C.Raises<ArgumentException>(() => sim.SetThreads(-1), "threads", "negative threads");
        sim.Step();
        C.Raises<InvalidOperationException>(() => sim.GetAgentDecision(b), "record", "a decision not recorded");
        sim.SetRecordDecisions(true);
        sim.Step();
        C.Check(sim.GetAgentDecision(b).Feasible, "a recorded decision");
        C.Check(sim.GetAgentNeighbors(b).Length == 1 && sim.GetAgentNeighbors(b)[0] == 2, "agent 2 is agent 1's neighbour");
        sim.Dispose();
        C.Raises<ObjectDisposedException>(() => sim.Step(), "CrowdSimulator", "a disposed simulator");
        sim.Dispose();

        // 3-D.
        AgentParams3D bad3 = AgentParams3D.Default;
        bad3.TimeHorizon = 0.0f;
        C.Raises<ArgumentException>(() => new CrowdSimulator3D(0.125f, bad3), "horizon", "a zero time horizon in 3-D");
        using (CrowdSimulator3D sim3 = new CrowdSimulator3D(0.125f))
        {
            uint c = sim3.AddAgent(new Vec3(0.0f, 0.0f, 0.0f));
            C.Raises<ArgumentException>(() => sim3.AddAgent(new Vec3(0.0f, float.NaN, 0.0f)), "finite", "a NaN position in 3-D");
            C.Raises<KeyNotFoundException>(() => sim3.SetAgentVelocity(9, new Vec3(1.0f, 0.0f, 0.0f)), "9", "an unknown id in 3-D");
            C.Raises<ArgumentException>(() => sim3.SetSymmetryBreaking(SymmetryBreaking.Default, new Vec3(0.0f, 0.0f, 0.0f)), "up", "a zero up");
            C.Check(sim3.AgentCount == 1 && sim3.GetAgentPosition(c) == new Vec3(0.0f, 0.0f, 0.0f), "the 3-D crowd unchanged");
            C.Raises<ArgumentException>(() => sim3.SetAgentMaxAcceleration(c, -2.0f), "acceleration", "a negative acceleration in 3-D");
            C.Check(float.IsPositiveInfinity(sim3.GetAgentMaxAcceleration(c)), "unlimited in 3-D by default");
            C.Check(sim3.GetAgentAvoidanceLayers(c) == 1u && sim3.GetAgentAvoidanceMask(c) == 1u, "layer 1 and mask 1 in 3-D by default");
            C.Raises<KeyNotFoundException>(() => sim3.SetAgentAvoidanceLayers(9, 2u), "9", "layers for an unknown id in 3-D");
            C.Raises<KeyNotFoundException>(() => sim3.SetAgentAvoidanceMask(8, 2u), "8", "a mask for an unknown id in 3-D");
            C.Raises<KeyNotFoundException>(() => sim3.GetAgentAvoidanceLayers(7), "7", "the layers of an unknown id in 3-D");
            C.Raises<KeyNotFoundException>(() => sim3.GetAgentAvoidanceMask(6), "6", "the mask of an unknown id in 3-D");
            sim3.SetAgentAvoidanceLayers(c, 0x0000F00Fu);
            sim3.SetAgentAvoidanceMask(c, 0xFFFFFFFFu);
            C.Check(sim3.GetAgentAvoidanceLayers(c) == 0x0000F00Fu && sim3.GetAgentAvoidanceMask(c) == 0xFFFFFFFFu, "layers and mask read back in 3-D");
            sim3.SetAgentMaxAcceleration(c, 4.0f);
            for (int step = 1; step <= 3; ++step)
            {
                sim3.SetAgentPrefVelocity(c, new Vec3(0.0f, 0.0f, 2.0f));
                sim3.Step();
                C.Check(Math.Abs(sim3.GetAgentVelocity(c).Z - 0.5f * step) < 1e-5f, "0.5 m/s more at 3-D step " + step);
            }
        }

        // 3-D static obstacles (beyond RVO2-3D): refused calls raise, take no id and change
        // nothing (a twin stepped beside shows it); the same calls with good values do change
        // the run.
        using (CrowdSimulator3D sim3 = HeadOn3D())
        using (CrowdSimulator3D twin3 = HeadOn3D())
        {
            Vec3[] panel = { new Vec3(0.0f, -10.0f, -10.0f), new Vec3(0.0f, 10.0f, -10.0f), new Vec3(0.0f, 10.0f, 10.0f), new Vec3(0.0f, -10.0f, 10.0f) };
            uint[] square = { 0, 1, 2, 0, 2, 3 };
            Vec3[] nanPanel = (Vec3[])panel.Clone();
            nanPanel[2].Y = float.NaN;
            Vec3 low = new Vec3(-1.0f, -1.0f, -1.0f);
            C.Raises<ArgumentException>(() => sim3.AddObstacle(nanPanel, square), "mesh vertex must be finite", "a NaN mesh vertex");
            C.Raises<ArgumentException>(() => sim3.AddObstacle(panel, new uint[] { 0, 1, 2, 0, 2, 4 }), "triangle 1 names vertex 4", "an index beyond the vertices");
            C.Raises<ArgumentException>(() => sim3.AddObstacle(panel, new uint[] { 0, 1, 2, 0, 2, 2 }), "triangle 1 has no area", "a triangle without area");
            C.Raises<ArgumentException>(() => sim3.AddObstacle(panel, new uint[] { 0, 1, 2, 3 }), "triples", "indices not in triples");
            C.Raises<ArgumentNullException>(() => sim3.AddObstacle(null, square), "vertices", "no vertices");
            C.Raises<ArgumentNullException>(() => sim3.AddObstacle(panel, null), "indices", "no indices");
            C.Raises<ArgumentException>(() => sim3.AddBoxObstacle(low, new Vec3(1.0f, 1.0f, -0.99995f)), "box thickness", "a box thinner than 1e-4 m");
            C.Raises<ArgumentException>(() => sim3.AddBoxObstacle(new Vec3(1.0f, 1.0f, 1.0f), new Vec3(-1.0f, 2.0f, 2.0f)), "box thickness", "an inverted box");
            C.Raises<ArgumentException>(() => sim3.AddBoxObstacle(low, new Vec3(1.0f, float.PositiveInfinity, 1.0f)), "box corner must be finite", "an infinite box corner");
            C.Raises<KeyNotFoundException>(() => sim3.RemoveObstacle(0), "unknown obstacle id 0", "removing an obstacle never added");
            C.Raises<KeyNotFoundException>(() => sim3.GetObstacleTriangles(3), "unknown obstacle id 3", "the triangles of an obstacle never added");
            C.Raises<ArgumentException>(() => sim3.SetAgentObstacleTimeHorizon(0, 0.0f), "obstacle time horizon", "a zero obstacle horizon");
            C.Raises<ArgumentException>(() => sim3.SetAgentObstacleTimeHorizon(1, -1.0f), "obstacle time horizon", "a negative obstacle horizon");
            C.Raises<ArgumentException>(() => sim3.SetAgentObstacleTimeHorizon(0, float.NaN), "obstacle time horizon", "a NaN obstacle horizon");
            C.Raises<ArgumentException>(() => sim3.SetAgentObstacleTimeHorizon(0, float.PositiveInfinity), "finite", "an infinite obstacle horizon");
            C.Raises<KeyNotFoundException>(() => sim3.SetAgentObstacleTimeHorizon(9, 1.0f), "unknown agent id 9", "an obstacle horizon for an unknown id");
            C.Raises<KeyNotFoundException>(() => sim3.GetAgentObstacleTimeHorizon(8), "unknown agent id 8", "the obstacle horizon of an unknown id");
            C.Raises<InvalidOperationException>(() => sim3.GetAgentObstaclePlaneCount(0), "record", "an obstacle plane count not recorded");
            C.Check(sim3.GetObstacleIds().Length == 0, "no obstacle added by the refused calls");
            C.Check(sim3.GetAgentObstacleTimeHorizon(0) == 10.0f && sim3.GetAgentObstacleTimeHorizon(1) == 10.0f, "the obstacle horizons kept (the time horizon)");
            C.Check(StepAlike3D(sim3, twin3, 20), "the run unchanged by the refused calls");

            C.Check(sim3.AddBoxObstacle(low, new Vec3(1.0f, 1.0f, 1.0f)) == 0, "the refused adds took no id");
            C.Check(sim3.AddObstacle(panel, square) == 1, "the next id");
            uint[] obstacles = sim3.GetObstacleIds();
            C.Check(obstacles.Length == 2 && obstacles[0] == 0 && obstacles[1] == 1, "both obstacles listed");
            Triangle[] box = sim3.GetObstacleTriangles(0);
            C.Check(box.Length == 12 && box[0].A == low, "a box's 12 triangles from its min corner");
            Triangle[] mesh = sim3.GetObstacleTriangles(1);
            C.Check(mesh.Length == 2 && mesh[1].A == panel[0] && mesh[1].B == panel[2] && mesh[1].C == panel[3], "the mesh's triangles read back");
            sim3.RemoveObstacle(1);
            C.Raises<KeyNotFoundException>(() => sim3.RemoveObstacle(1), "unknown obstacle id 1", "removing an obstacle twice");
            C.Check(sim3.GetObstacleIds().Length == 1, "one obstacle left");
            C.Check(!sim3.QueryVisibility(new Vec3(-5.0f, 0.0f, 0.0f), new Vec3(5.0f, 0.0f, 0.0f), 0.5f), "through the box: blocked");
            C.Check(sim3.QueryVisibility(new Vec3(-5.0f, 3.0f, 0.0f), new Vec3(5.0f, 3.0f, 0.0f), 0.5f), "2 m beside the box: clear for 0.5 m");
            C.Check(!sim3.QueryVisibility(new Vec3(-5.0f, 3.0f, 0.0f), new Vec3(5.0f, 3.0f, 0.0f), 2.5f), "2 m beside the box: blocked for 2.5 m");
            C.Raises<ArgumentException>(() => sim3.QueryVisibility(new Vec3(float.NaN, 3.0f, 0.0f), new Vec3(5.0f, 3.0f, 0.0f), 0.5f), "from must be finite", "a NaN point");
            C.Raises<ArgumentException>(() => sim3.QueryVisibility(low, new Vec3(5.0f, 3.0f, 0.0f), -1.0f), "radius must be finite and at least 0", "a negative radius");
            sim3.SetAgentObstacleTimeHorizon(0, 2.0f);
            C.Check(sim3.GetAgentObstacleTimeHorizon(0) == 2.0f && sim3.GetAgentObstacleTimeHorizon(1) == 10.0f, "an obstacle horizon read back");
            sim3.SetRecordDecisions(true);
            C.Check(!StepAlike3D(sim3, twin3, 1), "the box changes the run");
            int count = sim3.GetAgentObstaclePlaneCount(0);
            Plane3D[] planes = sim3.GetAgentPlanes(0);
            C.Check(count >= 1 && count < planes.Length, "the box's planes, then the neighbour's: " + count + " of " + planes.Length);
            bool face = false;
            for (int i = 0; i < count; ++i)
            {
                face = face || planes[i].Normal.X < -0.99f;
            }
            C.Check(face, "the plane of the box's face at x = -1 among them");
        }

        // RVO2-CS's API: its own error returns, then exceptions.
        RVO.Simulator rvo = new RVO.Simulator();
        C.Check(rvo.addAgent(new RVO.Vector2(0.0f, 0.0f)) == -1, "addAgent without defaults returns -1");
        C.Check(rvo.AddObstacle(new List<RVO.Vector2> { new RVO.Vector2(1.0f, 1.0f) }) == -1, "one vertex returns -1");
        C.Check(rvo.TimeStep == 0.1f, "RVO2-CS's time step");
        C.Raises<ArgumentOutOfRangeException>(() => rvo.GetAgentPosition(0), "agentNo", "an agent that does not exist");
        rvo.setAgentDefaults(15.0f, 10, 10.0f, 10.0f, 1.5f, 2.0f, new RVO.Vector2(0.5f, 0.0f));
        C.Check(rvo.AddAgent(new RVO.Vector2(0.0f, 0.0f)) == 0, "agent 0");
        C.Check(rvo.getAgentVelocity(0).x() == 0.5f, "the default velocity");
        C.Raises<ArgumentException>(() => rvo.setAgentRadius(0, -1.0f), "radius", "a negative radius through RVO2-CS");
        C.Check(rvo.getAgentRadius(0) == 1.5f, "the radius kept");
        C.Raises<ArgumentException>(() => rvo.setTimeStep(0.0f), "time step", "a zero time step through RVO2-CS");
        C.Raises<ArgumentException>(() => rvo.addAgent(new RVO.Vector2(0.0f, 0.0f), 15.0f, 10, 10.0f, 10.0f, 1.5f, 2.0f, new RVO.Vector2(float.NaN, 0.0f)), "finite", "a NaN velocity");
        C.Check(rvo.NumAgents == 1, "one agent after the refused calls");
        C.Raises<ArgumentOutOfRangeException>(() => rvo.getAgentAgentNeighbor(0, 0), "neighborNo", "a neighbour that does not exist");
        int first = rvo.addObstacle(new List<RVO.Vector2> { new RVO.Vector2(5.0f, -1.0f), new RVO.Vector2(6.0f, -1.0f), new RVO.Vector2(6.0f, 1.0f) });
        C.Check(first == 0 && rvo.getNumObstacleVertices() == 3, "an obstacle's vertices numbered before processing");
        C.Check(rvo.getNextObstacleVertexNo(2) == 0 && rvo.getPrevObstacleVertexNo(0) == 2, "a ring before processing");
        rvo.processObstacles();
        C.Check(rvo.GetObstacleVertex(1).x() == 6.0f && rvo.NumObstacleVertices == 3, "the processed vertices");
        C.Raises<ArgumentOutOfRangeException>(() => rvo.getObstacleVertex(3), "vertexNo", "a vertex that does not exist");
        C.Check(rvo.doStep() == 0.1f && rvo.getGlobalTime() == 0.1f, "doStep returns the global time");

        // The arrays RVO2-CS's API keeps (one native call a frame, not one per agent) always
        // answer what the library holds.
        rvo.AddAgent(new RVO.Vector2(3.0f, 3.0f));
        C.Check(rvo.GetAgentPosition(1).x() == 3.0f && rvo.GetAgentPosition(0).x() != 3.0f, "a new agent is seen");
        rvo.setAgentPrefVelocity(1, new RVO.Vector2(0.25f, 0.0f));
        C.Check(rvo.getAgentPrefVelocity(1).x() == 0.25f, "a preferred velocity not sent yet is read back");
        C.Raises<ArgumentException>(() => rvo.setAgentPrefVelocity(1, new RVO.Vector2(float.NaN, 0.0f)), "finite", "a NaN preferred velocity");
        C.Check(rvo.getAgentPrefVelocity(1).x() == 0.25f, "the preferred velocity kept");
        C.Check(rvo.Swerve.GetAgentPrefVelocity(1).X == 0.25f, "reading Swerve sends the preferred velocities");
        rvo.setAgentPosition(1, new RVO.Vector2(4.0f, 3.0f));
        C.Check(rvo.getAgentPosition(1).x() == 4.0f, "a moved agent is seen");
        rvo.Swerve.SetAgentPosition(1, new System.Numerics.Vector2(5.0f, 3.0f));
        C.Check(rvo.getAgentPosition(1).x() == 5.0f, "an agent moved through Swerve is seen");
        rvo.doStep();
        C.Check(rvo.getAgentPosition(1).x() > 5.0f && rvo.getAgentVelocity(1).x() > 0.0f, "a step is seen");
        rvo.Swerve.RemoveAgent(0);
        C.Raises<InvalidOperationException>(() => rvo.getAgentPosition(1), "Swerve's ids", "numbers after a removal through Swerve");
        rvo.Clear();
        C.Check(rvo.NumAgents == 0 && rvo.GlobalTime == 0.0f && rvo.addAgent(new RVO.Vector2(0.0f, 0.0f)) == -1, "Clear forgets everything");

        return Checks.Finish();
    }
}
