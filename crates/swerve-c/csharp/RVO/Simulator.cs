// RVO2-CS's Simulator on swerve: a program (or Unity project) written against RVO2-CS, the
// C# port of RVO2, swaps RVO2-CS's sources for this folder and Swerve/, links libswerve_c,
// and steps as RVO2 2.0.3 does, bit for bit (tests/csharp.rs replays RVO2's recordings through
// it), on as many threads as it is given.
//
// What differs from RVO2-CS, on purpose:
// - Both generations of RVO2-CS's names work: AddAgent/DoStep/GetAgentPosition/NumAgents
//   (RVO2-CS 2.1) and addAgent/doStep/getAgentPosition/getNumAgents (2.0).
// - Input swerve refuses (NaN or infinite numbers, a negative radius, crossing obstacle edges)
//   raises ArgumentException with swerve's message, and nothing changes; an agent or vertex
//   number that does not exist raises ArgumentOutOfRangeException. AddAgent without defaults
//   and AddObstacle with fewer than two vertices return -1, as in RVO2-CS.
// - ProcessObstacles may be called again after adding obstacles (RVO2-CS 2.1 throws).
// - GetAgentOrcaLines and the neighbour getters need the records each step keeps of every
//   agent's decision; SetRecordDecisions(false) saves that work when they are not used.
// - Agent numbers are swerve's agent ids: the agents added to this simulator, numbered from 0
//   (Clear starts again from 0). Swerve reaches the rest of swerve (symmetry breaking, safe
//   mode, movers); once agents are added or removed through it, the numbers no longer name
//   them, and the getters say so (InvalidOperationException) rather than answer wrongly.
// - RVO2-CS programs make a call per agent and frame (GetAgentPosition, SetAgentPrefVelocity),
//   and a call into the native library costs 20–100 ns under Mono. So this class keeps the
//   crowd's positions, velocities and preferred velocities in arrays of its own, read from the
//   library in one call when first asked after a change, and sends the preferred velocities
//   set in one call before the step. The values are the library's, bit for bit. Read Swerve
//   afresh for each use (sim.Swerve.SetAgentPosition(...)): reading it sends what is pending
//   and forgets the arrays, so a change made through it is seen.

using System;
using System.Collections.Generic;
using Swerve;

namespace RVO
{
    /// <summary>The simulation (RVO2-CS's Simulator), on swerve.</summary>
    public class Simulator
    {
        private static readonly Simulator instance_ = new Simulator();

        private CrowdSimulator sim_;
        private bool hasDefaults_;
        private Vector2 defaultVelocity_;
        private int numAgents_;
        private int workers_;
        // Polygons added since the last ProcessObstacles: RVO2 numbers their vertices after the
        // processed ones, each polygon a ring.
        private List<Vector2[]> pending_ = new List<Vector2[]>();
        // The crowd's arrays as last read from the library (see the top of this file): each
        // valid while its flag is set. prefs_ may hold values not sent yet (prefsPending_).
        private System.Numerics.Vector2[] positions_ = new System.Numerics.Vector2[0];
        private System.Numerics.Vector2[] velocities_ = new System.Numerics.Vector2[0];
        private System.Numerics.Vector2[] prefs_ = new System.Numerics.Vector2[0];
        private bool positionsRead_;
        private bool velocitiesRead_;
        private bool prefsRead_;
        private bool prefsPending_;
        // Set when Swerve was read: the crowd may have changed other than through this object,
        // and the next array read checks that agent numbers still are swerve's ids.
        private bool verify_;

        /// <summary>The shared simulator RVO2-CS programs use.</summary>
        public static Simulator Instance
        {
            get { return instance_; }
        }

        /// <summary>A simulator of its own (RVO2-CS has only <see cref="Instance"/>).</summary>
        public Simulator()
        {
            Clear();
        }

        /// <summary>The swerve simulator underneath, for what RVO2 does not have. Read it
        /// afresh for each use: reading it sends the preferred velocities set since the last
        /// step and makes this object read the crowd again.</summary>
        public CrowdSimulator Swerve
        {
            get
            {
                Forget();
                verify_ = true;
                return sim_;
            }
        }

        // Sends the preferred velocities set since the last step (one native call).
        private void SendPrefs()
        {
            if (prefsPending_)
            {
                sim_.SetPrefVelocities(prefs_);
                prefsPending_ = false;
            }
        }

        // Sends what is pending and forgets the arrays: the crowd changes other than by them.
        private void Forget()
        {
            SendPrefs();
            positionsRead_ = false;
            velocitiesRead_ = false;
            prefsRead_ = false;
        }

        // Fills `array` (positions_, velocities_ or prefs_) by `copy` in one native call and
        // sets `read`. (Callers test `read` first: a method group makes a delegate each time.)
        private void Mirror(ref System.Numerics.Vector2[] array, ref bool read, Func<System.Numerics.Vector2[], int> copy)
        {
            if (verify_)
            {
                uint[] ids = sim_.GetAgentIds();
                bool numbered = ids.Length == numAgents_;
                for (int i = 0; numbered && i < ids.Length; ++i)
                {
                    numbered = ids[i] == (uint)i;
                }
                if (!numbered)
                {
                    throw new InvalidOperationException(
                        "agents were added or removed through Swerve, so RVO2's agent numbers no longer name them: use Swerve's ids");
                }
                verify_ = false;
            }
            if (array.Length != numAgents_)
            {
                array = new System.Numerics.Vector2[numAgents_];
            }
            copy(array);
            read = true;
        }

        /// <summary>Removes every agent and obstacle and forgets the defaults; the time step is
        /// 0.1 s again and the global time 0.</summary>
        public void Clear()
        {
            CrowdSimulator fresh = new CrowdSimulator(0.1f);
            fresh.SetRecordDecisions(true);
            if (sim_ != null)
            {
                sim_.Dispose();
            }
            sim_ = fresh;
            hasDefaults_ = false;
            defaultVelocity_ = new Vector2(0.0f, 0.0f);
            numAgents_ = 0;
            workers_ = 0;
            pending_ = new List<Vector2[]>();
            positionsRead_ = false;
            velocitiesRead_ = false;
            prefsRead_ = false;
            prefsPending_ = false;
            verify_ = false;
        }

        /// <summary>Whether each step records every agent's neighbours and ORCA lines (on, as
        /// RVO2 always keeps them); off saves time when no getter of them is used.</summary>
        public void SetRecordDecisions(bool on)
        {
            sim_.SetRecordDecisions(on);
        }

        // ----- agents -----

        /// <summary>Adds an agent with the defaults; its number, or -1 without defaults.</summary>
        public int AddAgent(Vector2 position)
        {
            if (!hasDefaults_)
            {
                return -1;
            }
            SendPrefs();
            return Added(sim_.AddAgent(position), defaultVelocity_);
        }

        /// <summary>Adds an agent with parameters of its own; its number.</summary>
        public int AddAgent(Vector2 position, float neighborDist, int maxNeighbors, float timeHorizon, float timeHorizonObst, float radius, float maxSpeed, Vector2 velocity)
        {
            AgentParams parameters = new AgentParams(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed);
            Finite(velocity, "velocity");
            SendPrefs();
            return Added(sim_.AddAgent(position, parameters), velocity);
        }

        private int Added(uint id, Vector2 velocity)
        {
            sim_.SetAgentVelocity(id, velocity);
            ++numAgents_;
            Forget();
            return (int)id;
        }

        /// <summary>Sets the parameters and initial velocity agents added by
        /// <see cref="AddAgent(Vector2)"/> get.</summary>
        public void SetAgentDefaults(float neighborDist, int maxNeighbors, float timeHorizon, float timeHorizonObst, float radius, float maxSpeed, Vector2 velocity)
        {
            Finite(velocity, "velocity");
            sim_.AgentDefaults = new AgentParams(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed);
            defaultVelocity_ = velocity;
            hasDefaults_ = true;
        }

        /// <summary>Performs a simulation step; returns the global time after it.</summary>
        public float DoStep()
        {
            SendPrefs();
            sim_.Step();
            positionsRead_ = false;
            velocitiesRead_ = false;
            prefsRead_ = false;
            return sim_.GlobalTime;
        }

        /// <summary>The number of agents.</summary>
        public int NumAgents
        {
            get { return numAgents_; }
        }

        /// <summary>The global time (s).</summary>
        public float GlobalTime
        {
            get { return sim_.GlobalTime; }
        }

        /// <summary>Sets the global time (s).</summary>
        public void SetGlobalTime(float globalTime)
        {
            sim_.GlobalTime = globalTime;
        }

        /// <summary>The time step (s, &gt; 0).</summary>
        public float TimeStep
        {
            get { return sim_.TimeStep; }
            set { sim_.TimeStep = value; }
        }

        /// <summary>How many threads a step uses: 0 or less for every core (rayon's pool),
        /// n for n threads. Results are the same for any count.</summary>
        public int NumWorkers
        {
            get { return workers_; }
            set
            {
                int threads = value <= 0 ? 0 : value;
                sim_.SetThreads(threads);
                workers_ = threads;
            }
        }

        private uint Agent(int agentNo)
        {
            if (agentNo < 0 || agentNo >= numAgents_)
            {
                throw new ArgumentOutOfRangeException("agentNo", agentNo, "there are " + numAgents_ + " agents");
            }
            return (uint)agentNo;
        }

        private static void Finite(Vector2 v, string what)
        {
            if (float.IsNaN(v.x_) || float.IsInfinity(v.x_) || float.IsNaN(v.y_) || float.IsInfinity(v.y_))
            {
                throw new ArgumentException(what + " must be finite, got " + v);
            }
        }

        /// <summary>An agent's position.</summary>
        public Vector2 GetAgentPosition(int agentNo)
        {
            uint id = Agent(agentNo);
            if (!positionsRead_)
            {
                Mirror(ref positions_, ref positionsRead_, sim_.CopyPositions);
            }
            return positions_[id];
        }

        /// <summary>An agent's velocity.</summary>
        public Vector2 GetAgentVelocity(int agentNo)
        {
            uint id = Agent(agentNo);
            if (!velocitiesRead_)
            {
                Mirror(ref velocities_, ref velocitiesRead_, sim_.CopyVelocities);
            }
            return velocities_[id];
        }

        /// <summary>An agent's preferred velocity.</summary>
        public Vector2 GetAgentPrefVelocity(int agentNo)
        {
            uint id = Agent(agentNo);
            if (!prefsRead_)
            {
                Mirror(ref prefs_, ref prefsRead_, sim_.CopyPrefVelocities);
            }
            return prefs_[id];
        }

        /// <summary>An agent's maximum neighbour count.</summary>
        public int GetAgentMaxNeighbors(int agentNo)
        {
            return sim_.GetAgentParams(Agent(agentNo)).MaxNeighbors;
        }

        /// <summary>An agent's maximum speed.</summary>
        public float GetAgentMaxSpeed(int agentNo)
        {
            return sim_.GetAgentParams(Agent(agentNo)).MaxSpeed;
        }

        /// <summary>An agent's neighbour distance.</summary>
        public float GetAgentNeighborDist(int agentNo)
        {
            return sim_.GetAgentParams(Agent(agentNo)).NeighborDist;
        }

        /// <summary>An agent's radius.</summary>
        public float GetAgentRadius(int agentNo)
        {
            return sim_.GetAgentParams(Agent(agentNo)).Radius;
        }

        /// <summary>An agent's time horizon.</summary>
        public float GetAgentTimeHorizon(int agentNo)
        {
            return sim_.GetAgentParams(Agent(agentNo)).TimeHorizon;
        }

        /// <summary>An agent's time horizon with respect to obstacles.</summary>
        public float GetAgentTimeHorizonObst(int agentNo)
        {
            return sim_.GetAgentParams(Agent(agentNo)).TimeHorizonObst;
        }

        /// <summary>How many agents an agent took into account in the last step.</summary>
        public int GetAgentNumAgentNeighbors(int agentNo)
        {
            return sim_.GetAgentNeighbors(Agent(agentNo)).Length;
        }

        /// <summary>The number of an agent's neighbour, nearest first.</summary>
        public int GetAgentAgentNeighbor(int agentNo, int neighborNo)
        {
            return (int)At(sim_.GetAgentNeighbors(Agent(agentNo)), neighborNo);
        }

        /// <summary>How many obstacle edges an agent took into account in the last step.</summary>
        public int GetAgentNumObstacleNeighbors(int agentNo)
        {
            return sim_.GetAgentObstacleNeighbors(Agent(agentNo)).Length;
        }

        /// <summary>The first vertex number of an agent's obstacle neighbour, nearest first.</summary>
        public int GetAgentObstacleNeighbor(int agentNo, int neighborNo)
        {
            return (int)At(sim_.GetAgentObstacleNeighbors(Agent(agentNo)), neighborNo);
        }

        private static uint At(uint[] neighbors, int neighborNo)
        {
            if (neighborNo < 0 || neighborNo >= neighbors.Length)
            {
                throw new ArgumentOutOfRangeException("neighborNo", neighborNo, "the agent has " + neighbors.Length + " such neighbors");
            }
            return neighbors[neighborNo];
        }

        /// <summary>An agent's ORCA lines of the last step (obstacles' first).</summary>
        public IList<Line> GetAgentOrcaLines(int agentNo)
        {
            HalfPlane[] planes = sim_.GetAgentHalfPlanes(Agent(agentNo));
            List<Line> lines = new List<Line>(planes.Length);
            foreach (HalfPlane plane in planes)
            {
                Line line;
                line.direction = plane.Direction;
                line.point = plane.Point;
                lines.Add(line);
            }
            return lines;
        }

        /// <summary>Sets an agent's maximum neighbour count.</summary>
        public void SetAgentMaxNeighbors(int agentNo, int maxNeighbors)
        {
            AgentParams p = sim_.GetAgentParams(Agent(agentNo));
            p.MaxNeighbors = maxNeighbors;
            sim_.SetAgentParams((uint)agentNo, p);
        }

        /// <summary>Sets an agent's maximum speed.</summary>
        public void SetAgentMaxSpeed(int agentNo, float maxSpeed)
        {
            AgentParams p = sim_.GetAgentParams(Agent(agentNo));
            p.MaxSpeed = maxSpeed;
            sim_.SetAgentParams((uint)agentNo, p);
        }

        /// <summary>Sets an agent's neighbour distance.</summary>
        public void SetAgentNeighborDist(int agentNo, float neighborDist)
        {
            AgentParams p = sim_.GetAgentParams(Agent(agentNo));
            p.NeighborDist = neighborDist;
            sim_.SetAgentParams((uint)agentNo, p);
        }

        /// <summary>Sets an agent's radius.</summary>
        public void SetAgentRadius(int agentNo, float radius)
        {
            AgentParams p = sim_.GetAgentParams(Agent(agentNo));
            p.Radius = radius;
            sim_.SetAgentParams((uint)agentNo, p);
        }

        /// <summary>Sets an agent's time horizon.</summary>
        public void SetAgentTimeHorizon(int agentNo, float timeHorizon)
        {
            AgentParams p = sim_.GetAgentParams(Agent(agentNo));
            p.TimeHorizon = timeHorizon;
            sim_.SetAgentParams((uint)agentNo, p);
        }

        /// <summary>Sets an agent's time horizon with respect to obstacles.</summary>
        public void SetAgentTimeHorizonObst(int agentNo, float timeHorizonObst)
        {
            AgentParams p = sim_.GetAgentParams(Agent(agentNo));
            p.TimeHorizonObst = timeHorizonObst;
            sim_.SetAgentParams((uint)agentNo, p);
        }

        /// <summary>Moves an agent.</summary>
        public void SetAgentPosition(int agentNo, Vector2 position)
        {
            sim_.SetAgentPosition(Agent(agentNo), position);
            positionsRead_ = false;
        }

        /// <summary>Sets an agent's preferred velocity.</summary>
        public void SetAgentPrefVelocity(int agentNo, Vector2 prefVelocity)
        {
            uint id = Agent(agentNo);
            Finite(prefVelocity, "preferred velocity");
            if (!prefsRead_)
            {
                Mirror(ref prefs_, ref prefsRead_, sim_.CopyPrefVelocities);
            }
            prefs_[id] = prefVelocity;
            prefsPending_ = true;
        }

        /// <summary>Sets an agent's velocity.</summary>
        public void SetAgentVelocity(int agentNo, Vector2 velocity)
        {
            sim_.SetAgentVelocity(Agent(agentNo), velocity);
            velocitiesRead_ = false;
        }

        // ----- obstacles -----

        /// <summary>Adds a polygonal obstacle (counterclockwise; clockwise for a boundary);
        /// returns the number of its first vertex, or -1 with fewer than two vertices. Agents
        /// see it after <see cref="ProcessObstacles"/>.</summary>
        public int AddObstacle(IList<Vector2> vertices)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            if (vertices.Count < 2)
            {
                return -1;
            }
            Vector2[] copy = new Vector2[vertices.Count];
            vertices.CopyTo(copy, 0);
            System.Numerics.Vector2[] points = new System.Numerics.Vector2[copy.Length];
            for (int i = 0; i < copy.Length; ++i)
            {
                points[i] = copy[i];
            }
            uint id = sim_.AddObstacle(points);
            pending_.Add(copy);
            return sim_.GetObstacleFirstVertex(id);
        }

        /// <summary>Builds the obstacle tree over the obstacles added so far.</summary>
        public void ProcessObstacles()
        {
            sim_.ProcessObstacles();
            pending_.Clear();
        }

        /// <summary>Whether the two points see each other past the processed obstacles, with
        /// <paramref name="radius"/> of clearance.</summary>
        public bool QueryVisibility(Vector2 point1, Vector2 point2, float radius)
        {
            return sim_.QueryVisibility(point1, point2, radius);
        }

        /// <summary>The number of obstacle vertices (the processed ones, with those the tree
        /// split off, and those added since).</summary>
        public int NumObstacleVertices
        {
            get
            {
                int count = sim_.ObstacleVertexCount;
                foreach (Vector2[] polygon in pending_)
                {
                    count += polygon.Length;
                }
                return count;
            }
        }

        /// <summary>An obstacle vertex's position.</summary>
        public Vector2 GetObstacleVertex(int vertexNo)
        {
            int next, previous;
            return Vertex(vertexNo, out next, out previous);
        }

        /// <summary>The number of the vertex after this one in its polygon.</summary>
        public int GetNextObstacleVertexNo(int vertexNo)
        {
            int next, previous;
            Vertex(vertexNo, out next, out previous);
            return next;
        }

        /// <summary>The number of the vertex before this one in its polygon.</summary>
        public int GetPrevObstacleVertexNo(int vertexNo)
        {
            int next, previous;
            Vertex(vertexNo, out next, out previous);
            return previous;
        }

        private Vector2 Vertex(int vertexNo, out int next, out int previous)
        {
            int processed = sim_.ObstacleVertexCount;
            if (vertexNo >= 0 && vertexNo < processed)
            {
                ObstacleVertex vertex = sim_.GetObstacleVertex(vertexNo);
                next = vertex.Next;
                previous = vertex.Previous;
                return vertex.Point;
            }
            int first = processed;
            foreach (Vector2[] polygon in pending_)
            {
                if (vertexNo >= first && vertexNo < first + polygon.Length)
                {
                    int i = vertexNo - first;
                    next = first + (i + 1) % polygon.Length;
                    previous = first + (i + polygon.Length - 1) % polygon.Length;
                    return polygon[i];
                }
                first += polygon.Length;
            }
            throw new ArgumentOutOfRangeException("vertexNo", vertexNo, "there are " + first + " obstacle vertices");
        }

        // ----- RVO2-CS 2.0's names -----

        /// <summary>RVO2-CS 2.0's <see cref="AddAgent(Vector2)"/>.</summary>
        public int addAgent(Vector2 position) { return AddAgent(position); }
        /// <summary>RVO2-CS 2.0's AddAgent with parameters.</summary>
        public int addAgent(Vector2 position, float neighborDist, int maxNeighbors, float timeHorizon, float timeHorizonObst, float radius, float maxSpeed, Vector2 velocity) { return AddAgent(position, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity); }
        /// <summary>RVO2-CS 2.0's <see cref="AddObstacle"/>.</summary>
        public int addObstacle(IList<Vector2> vertices) { return AddObstacle(vertices); }
        /// <summary>RVO2-CS 2.0's <see cref="DoStep"/>.</summary>
        public float doStep() { return DoStep(); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentAgentNeighbor"/>.</summary>
        public int getAgentAgentNeighbor(int agentNo, int neighborNo) { return GetAgentAgentNeighbor(agentNo, neighborNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentMaxNeighbors"/>.</summary>
        public int getAgentMaxNeighbors(int agentNo) { return GetAgentMaxNeighbors(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentMaxSpeed"/>.</summary>
        public float getAgentMaxSpeed(int agentNo) { return GetAgentMaxSpeed(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentNeighborDist"/>.</summary>
        public float getAgentNeighborDist(int agentNo) { return GetAgentNeighborDist(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentNumAgentNeighbors"/>.</summary>
        public int getAgentNumAgentNeighbors(int agentNo) { return GetAgentNumAgentNeighbors(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentNumObstacleNeighbors"/>.</summary>
        public int getAgentNumObstacleNeighbors(int agentNo) { return GetAgentNumObstacleNeighbors(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentObstacleNeighbor"/>.</summary>
        public int getAgentObstacleNeighbor(int agentNo, int neighborNo) { return GetAgentObstacleNeighbor(agentNo, neighborNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentOrcaLines"/>.</summary>
        public IList<Line> getAgentOrcaLines(int agentNo) { return GetAgentOrcaLines(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentPosition"/>.</summary>
        public Vector2 getAgentPosition(int agentNo) { return GetAgentPosition(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentPrefVelocity"/>.</summary>
        public Vector2 getAgentPrefVelocity(int agentNo) { return GetAgentPrefVelocity(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentRadius"/>.</summary>
        public float getAgentRadius(int agentNo) { return GetAgentRadius(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentTimeHorizon"/>.</summary>
        public float getAgentTimeHorizon(int agentNo) { return GetAgentTimeHorizon(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentTimeHorizonObst"/>.</summary>
        public float getAgentTimeHorizonObst(int agentNo) { return GetAgentTimeHorizonObst(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetAgentVelocity"/>.</summary>
        public Vector2 getAgentVelocity(int agentNo) { return GetAgentVelocity(agentNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GlobalTime"/>.</summary>
        public float getGlobalTime() { return GlobalTime; }
        /// <summary>RVO2-CS 2.0's <see cref="NumAgents"/>.</summary>
        public int getNumAgents() { return NumAgents; }
        /// <summary>RVO2-CS 2.0's <see cref="NumObstacleVertices"/>.</summary>
        public int getNumObstacleVertices() { return NumObstacleVertices; }
        /// <summary>RVO2-CS 2.0's <see cref="NumWorkers"/>.</summary>
        public int GetNumWorkers() { return NumWorkers; }
        /// <summary>RVO2-CS 2.0's <see cref="NumWorkers"/> setter.</summary>
        public void SetNumWorkers(int numWorkers) { NumWorkers = numWorkers; }
        /// <summary>RVO2-CS 2.0's <see cref="GetObstacleVertex"/>.</summary>
        public Vector2 getObstacleVertex(int vertexNo) { return GetObstacleVertex(vertexNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetNextObstacleVertexNo"/>.</summary>
        public int getNextObstacleVertexNo(int vertexNo) { return GetNextObstacleVertexNo(vertexNo); }
        /// <summary>RVO2-CS 2.0's <see cref="GetPrevObstacleVertexNo"/>.</summary>
        public int getPrevObstacleVertexNo(int vertexNo) { return GetPrevObstacleVertexNo(vertexNo); }
        /// <summary>RVO2-CS 2.0's <see cref="TimeStep"/>.</summary>
        public float getTimeStep() { return TimeStep; }
        /// <summary>RVO2-CS 2.0's <see cref="TimeStep"/> setter.</summary>
        public void setTimeStep(float timeStep) { TimeStep = timeStep; }
        /// <summary>RVO2-CS 2.0's <see cref="SetGlobalTime"/>.</summary>
        public void setGlobalTime(float globalTime) { SetGlobalTime(globalTime); }
        /// <summary>RVO2-CS 2.0's <see cref="ProcessObstacles"/>.</summary>
        public void processObstacles() { ProcessObstacles(); }
        /// <summary>RVO2-CS 2.0's <see cref="QueryVisibility"/>.</summary>
        public bool queryVisibility(Vector2 point1, Vector2 point2, float radius) { return QueryVisibility(point1, point2, radius); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentDefaults"/>.</summary>
        public void setAgentDefaults(float neighborDist, int maxNeighbors, float timeHorizon, float timeHorizonObst, float radius, float maxSpeed, Vector2 velocity) { SetAgentDefaults(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentMaxNeighbors"/>.</summary>
        public void setAgentMaxNeighbors(int agentNo, int maxNeighbors) { SetAgentMaxNeighbors(agentNo, maxNeighbors); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentMaxSpeed"/>.</summary>
        public void setAgentMaxSpeed(int agentNo, float maxSpeed) { SetAgentMaxSpeed(agentNo, maxSpeed); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentNeighborDist"/>.</summary>
        public void setAgentNeighborDist(int agentNo, float neighborDist) { SetAgentNeighborDist(agentNo, neighborDist); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentPosition"/>.</summary>
        public void setAgentPosition(int agentNo, Vector2 position) { SetAgentPosition(agentNo, position); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentPrefVelocity"/>.</summary>
        public void setAgentPrefVelocity(int agentNo, Vector2 prefVelocity) { SetAgentPrefVelocity(agentNo, prefVelocity); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentRadius"/>.</summary>
        public void setAgentRadius(int agentNo, float radius) { SetAgentRadius(agentNo, radius); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentTimeHorizon"/>.</summary>
        public void setAgentTimeHorizon(int agentNo, float timeHorizon) { SetAgentTimeHorizon(agentNo, timeHorizon); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentTimeHorizonObst"/>.</summary>
        public void setAgentTimeHorizonObst(int agentNo, float timeHorizonObst) { SetAgentTimeHorizonObst(agentNo, timeHorizonObst); }
        /// <summary>RVO2-CS 2.0's <see cref="SetAgentVelocity"/>.</summary>
        public void setAgentVelocity(int agentNo, Vector2 velocity) { SetAgentVelocity(agentNo, velocity); }
    }
}
