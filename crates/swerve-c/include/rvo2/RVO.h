/* RVO2 2.0's C++ API, header-only, on swerve's C interface: a program written for RVO2
 * compiles against this folder instead of RVO2's headers, links libswerve_c instead of
 * RVO2, and steps bit for bit as RVO2 does (tests/rvo2_dropin.rs compiles one program both
 * ways and compares every number it prints).
 *
 *   c++ -I swerve/crates/swerve-c/include/rvo2 my_crowd.cc -L target/release -lswerve_c
 *
 * What differs from RVO2, on purpose:
 * - Input RVO2 accepts silently and computes garbage from (NaN or infinite numbers, a
 *   negative radius, an agent number that does not exist, crossing obstacle edges) throws
 *   RVO::Error (a std::invalid_argument) with swerve's message; nothing changes. RVO2's own
 *   error returns stay: addAgent without defaults and addObstacle with fewer than two
 *   vertices return RVO_ERROR.
 * - doStep without a time step (the default constructor, before setTimeStep) throws.
 * - Getters that return a reference return one into a copy kept by this object, refreshed
 *   by each call; copy the value to keep it across steps.
 * - clearAgents is well defined (RVO2 2.0.3 keeps freed agents in its k-d tree), and agents
 *   added after it are numbered from 0 again.
 * - Every step records what each agent saw and chose, for the getAgent...Neighbor and
 *   getAgentORCALine getters; setRecordDecisions(false) saves that work when they are not
 *   used, and compiling with -DSWERVE_RVO2_NO_RECORDS starts every simulator without
 *   records. setNumThreads and swerve() reach what swerve adds (see swerve.h).
 */
#ifndef SWERVE_RVO2_RVO_H_
#define SWERVE_RVO2_RVO_H_

#include <cmath>
#include <cstddef>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../swerve.h"

namespace RVO {

/* RVO2's error value for agent and vertex numbers. */
const std::size_t RVO_ERROR = std::numeric_limits<std::size_t>::max();
/* RVO2's tolerance (used inside the library; kept for programs that use it). */
const float RVO_EPSILON = 0.00001F;

/* Input swerve refuses; what() is swerve's message. */
class Error : public std::invalid_argument {
 public:
  explicit Error(const std::string &message) : std::invalid_argument(message) {}
};

/* RVO2's two-dimensional vector, with its arithmetic operation for operation (dividing
 * multiplies by the reciprocal; abs is the square root of the dot product), so that a
 * program's own vector arithmetic gives the same bits as with RVO2. */
class Vector2 {
 public:
  Vector2() : x_(0.0F), y_(0.0F) {}
  Vector2(float x, float y) : x_(x), y_(y) {}

  float x() const { return x_; }
  float y() const { return y_; }

  Vector2 operator-() const { return Vector2(-x_, -y_); }
  float operator*(const Vector2 &vector) const { return x_ * vector.x_ + y_ * vector.y_; }
  Vector2 operator*(float scalar) const { return Vector2(x_ * scalar, y_ * scalar); }
  Vector2 operator/(float scalar) const {
    const float invScalar = 1.0F / scalar;
    return Vector2(x_ * invScalar, y_ * invScalar);
  }
  Vector2 operator+(const Vector2 &vector) const { return Vector2(x_ + vector.x_, y_ + vector.y_); }
  Vector2 operator-(const Vector2 &vector) const { return Vector2(x_ - vector.x_, y_ - vector.y_); }
  bool operator==(const Vector2 &vector) const { return x_ == vector.x_ && y_ == vector.y_; }
  bool operator!=(const Vector2 &vector) const { return x_ != vector.x_ || y_ != vector.y_; }
  Vector2 &operator*=(float scalar) {
    x_ *= scalar;
    y_ *= scalar;
    return *this;
  }
  Vector2 &operator/=(float scalar) {
    const float invScalar = 1.0F / scalar;
    x_ *= invScalar;
    y_ *= invScalar;
    return *this;
  }
  Vector2 &operator+=(const Vector2 &vector) {
    x_ += vector.x_;
    y_ += vector.y_;
    return *this;
  }
  Vector2 &operator-=(const Vector2 &vector) {
    x_ -= vector.x_;
    y_ -= vector.y_;
    return *this;
  }

 private:
  float x_;
  float y_;
};

inline Vector2 operator*(float scalar, const Vector2 &vector) { return Vector2(scalar * vector.x(), scalar * vector.y()); }
inline std::ostream &operator<<(std::ostream &stream, const Vector2 &vector) {
  return stream << "(" << vector.x() << "," << vector.y() << ")";
}
inline float abs(const Vector2 &vector) { return std::sqrt(vector * vector); }
inline float absSq(const Vector2 &vector) { return vector * vector; }
inline float det(const Vector2 &vector1, const Vector2 &vector2) {
  return vector1.x() * vector2.y() - vector1.y() * vector2.x();
}
inline float leftOf(const Vector2 &vector1, const Vector2 &vector2, const Vector2 &vector3) {
  return det(vector1 - vector3, vector2 - vector1);
}
inline Vector2 normalize(const Vector2 &vector) { return vector / abs(vector); }

/* An ORCA half-plane: the velocities left of the line through point along direction. */
class Line {
 public:
  Line() {}
  Vector2 direction;
  Vector2 point;
};

class RVOSimulator {
 public:
  RVOSimulator() { init(1.0F, false, NULL, Vector2()); }
  RVOSimulator(float timeStep, float neighborDist, std::size_t maxNeighbors, float timeHorizon,
               float timeHorizonObst, float radius, float maxSpeed, const Vector2 &velocity = Vector2()) {
    SwerveAgentParams defaults = params(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed);
    init(timeStep, true, &defaults, velocity);
  }
  ~RVOSimulator() { swerve_simulator_free(sim_); }

  std::size_t addAgent(const Vector2 &position) {
    if (!hasDefaults_) {
      return RVO_ERROR;
    }
    return addAgent(position, defaults_, defaultVelocity_);
  }
  std::size_t addAgent(const Vector2 &position, float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                       float timeHorizonObst, float radius, float maxSpeed, const Vector2 &velocity = Vector2()) {
    return addAgent(position, params(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed),
                    velocity);
  }

  std::size_t addObstacle(const std::vector<Vector2> &vertices) {
    if (vertices.size() < 2) {
      return RVO_ERROR;
    }
    std::vector<SwerveVec2> points(vertices.size());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      points[i] = vec(vertices[i]);
    }
    uint32_t id = 0;
    check(swerve_simulator_add_obstacle(sim_, &points[0], points.size(), &id));
    std::size_t first = 0;
    check(swerve_simulator_obstacle_first_vertex(sim_, id, &first));
    pending_.push_back(vertices);
    return first;
  }

  void doStep() {
    if (!hasTimeStep_) {
      throw Error("the simulator has no time step: construct it with one or call setTimeStep first");
    }
    check(swerve_simulator_step(sim_));
  }

  std::size_t getAgentAgentNeighbor(std::size_t agentNo, std::size_t neighborNo) const {
    fetchNeighbors(agentNo, swerve_simulator_agent_neighbors);
    return neighborAt(neighborNo) - idOffset_;
  }
  std::size_t getAgentMaxNeighbors(std::size_t agentNo) const { return agentParams(agentNo).max_neighbors; }
  float getAgentMaxSpeed(std::size_t agentNo) const { return agentParams(agentNo).max_speed; }
  float getAgentNeighborDist(std::size_t agentNo) const { return agentParams(agentNo).neighbor_dist; }
  std::size_t getAgentNumAgentNeighbors(std::size_t agentNo) const {
    return fetchNeighbors(agentNo, swerve_simulator_agent_neighbors);
  }
  std::size_t getAgentNumObstacleNeighbors(std::size_t agentNo) const {
    return fetchNeighbors(agentNo, swerve_simulator_agent_obstacle_neighbors);
  }
  std::size_t getAgentNumORCALines(std::size_t agentNo) const { return fetchLines(agentNo); }
  std::size_t getAgentObstacleNeighbor(std::size_t agentNo, std::size_t neighborNo) const {
    fetchNeighbors(agentNo, swerve_simulator_agent_obstacle_neighbors);
    return neighborAt(neighborNo);
  }
  const Line &getAgentORCALine(std::size_t agentNo, std::size_t lineNo) const {
    if (lineNo >= fetchLines(agentNo)) {
      throw Error("agent " + number(agentNo) + " has " + number(lines_.size()) + " ORCA lines, no number " +
                  number(lineNo));
    }
    return lines_[lineNo];
  }
  const Vector2 &getAgentPosition(std::size_t agentNo) const {
    return agentVector(agentNo, swerve_simulator_agent_position, positions_);
  }
  const Vector2 &getAgentPrefVelocity(std::size_t agentNo) const {
    return agentVector(agentNo, swerve_simulator_agent_pref_velocity, prefVelocities_);
  }
  float getAgentRadius(std::size_t agentNo) const { return agentParams(agentNo).radius; }
  float getAgentTimeHorizon(std::size_t agentNo) const { return agentParams(agentNo).time_horizon; }
  float getAgentTimeHorizonObst(std::size_t agentNo) const { return agentParams(agentNo).time_horizon_obst; }
  const Vector2 &getAgentVelocity(std::size_t agentNo) const {
    return agentVector(agentNo, swerve_simulator_agent_velocity, velocities_);
  }
  float getGlobalTime() const {
    float time = 0.0F;
    check(swerve_simulator_global_time(sim_, &time));
    return time;
  }
  std::size_t getNumAgents() const {
    std::size_t count = 0;
    check(swerve_simulator_num_agents(sim_, &count));
    return count;
  }
  std::size_t getNumObstacleVertices() const {
    std::size_t count = processedVertices();
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      count += pending_[k].size();
    }
    return count;
  }
  const Vector2 &getObstacleVertex(std::size_t vertexNo) const {
    vertex_ = obstacleVertex(vertexNo, NULL, NULL);
    return vertex_;
  }
  std::size_t getNextObstacleVertexNo(std::size_t vertexNo) const {
    std::size_t next = 0;
    obstacleVertex(vertexNo, &next, NULL);
    return next;
  }
  std::size_t getPrevObstacleVertexNo(std::size_t vertexNo) const {
    std::size_t prev = 0;
    obstacleVertex(vertexNo, NULL, &prev);
    return prev;
  }
  float getTimeStep() const {
    if (!hasTimeStep_) {
      return 0.0F;
    }
    float timeStep = 0.0F;
    check(swerve_simulator_time_step(sim_, &timeStep));
    return timeStep;
  }

  void processObstacles() {
    check(swerve_simulator_process_obstacles(sim_));
    pending_.clear();
  }
  void clearAgents() {
    std::size_t count = getNumAgents();
    for (std::size_t i = 0; i < count; ++i) {
      check(swerve_simulator_remove_agent(sim_, static_cast<uint32_t>(i + idOffset_)));
    }
    idOffset_ += count;
  }
  bool queryVisibility(const Vector2 &point1, const Vector2 &point2, float radius = 0.0F) const {
    bool visible = false;
    check(swerve_simulator_query_visibility(sim_, vec(point1), vec(point2), radius, &visible));
    return visible;
  }

  void setAgentDefaults(float neighborDist, std::size_t maxNeighbors, float timeHorizon, float timeHorizonObst,
                        float radius, float maxSpeed, const Vector2 &velocity = Vector2()) {
    SwerveAgentParams defaults = params(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed);
    finite(velocity, "default velocity");
    check(swerve_simulator_set_agent_defaults(sim_, &defaults));
    defaults_ = defaults;
    defaultVelocity_ = velocity;
    hasDefaults_ = true;
  }
  void setAgentMaxNeighbors(std::size_t agentNo, std::size_t maxNeighbors) {
    SwerveAgentParams p = agentParams(agentNo);
    p.max_neighbors = maxNeighbors;
    setAgentParams(agentNo, p);
  }
  void setAgentMaxSpeed(std::size_t agentNo, float maxSpeed) {
    SwerveAgentParams p = agentParams(agentNo);
    p.max_speed = maxSpeed;
    setAgentParams(agentNo, p);
  }
  void setAgentNeighborDist(std::size_t agentNo, float neighborDist) {
    SwerveAgentParams p = agentParams(agentNo);
    p.neighbor_dist = neighborDist;
    setAgentParams(agentNo, p);
  }
  void setAgentPosition(std::size_t agentNo, const Vector2 &position) {
    check(swerve_simulator_set_agent_position(sim_, id(agentNo), vec(position)));
  }
  void setAgentPrefVelocity(std::size_t agentNo, const Vector2 &prefVelocity) {
    check(swerve_simulator_set_agent_pref_velocity(sim_, id(agentNo), vec(prefVelocity)));
  }
  void setAgentRadius(std::size_t agentNo, float radius) {
    SwerveAgentParams p = agentParams(agentNo);
    p.radius = radius;
    setAgentParams(agentNo, p);
  }
  void setAgentTimeHorizon(std::size_t agentNo, float timeHorizon) {
    SwerveAgentParams p = agentParams(agentNo);
    p.time_horizon = timeHorizon;
    setAgentParams(agentNo, p);
  }
  void setAgentTimeHorizonObst(std::size_t agentNo, float timeHorizonObst) {
    SwerveAgentParams p = agentParams(agentNo);
    p.time_horizon_obst = timeHorizonObst;
    setAgentParams(agentNo, p);
  }
  void setAgentVelocity(std::size_t agentNo, const Vector2 &velocity) {
    check(swerve_simulator_set_agent_velocity(sim_, id(agentNo), vec(velocity)));
  }
  void setTimeStep(float timeStep) {
    check(swerve_simulator_set_time_step(sim_, timeStep));
    hasTimeStep_ = true;
  }

  /* Beyond RVO2. Whether steps record each agent's neighbours and ORCA lines (on by
   * default, as RVO2 always keeps them). */
  void setRecordDecisions(bool record) { check(swerve_simulator_set_record_decisions(sim_, record)); }
  /* Worker threads for doStep: 0 for rayon's global pool, n for n threads of this
   * simulator's own. Results are the same for any count. */
  void setNumThreads(std::size_t threads) { check(swerve_simulator_set_threads(sim_, threads)); }
  /* The underlying handle, for the rest of swerve.h (symmetry breaking, movers, ...). */
  SwerveSimulator *swerve() { return sim_; }

 private:
  RVOSimulator(const RVOSimulator &other);
  RVOSimulator &operator=(const RVOSimulator &other);

  typedef SwerveStatus (*VectorGetter)(const SwerveSimulator *, uint32_t, SwerveVec2 *);
  typedef SwerveStatus (*NeighborGetter)(const SwerveSimulator *, uint32_t, uint32_t *, size_t, size_t *);

  static void check(SwerveStatus status) {
    if (status != SWERVE_STATUS_OK) {
      throw Error(swerve_last_error_message());
    }
  }
  static std::string number(std::size_t n) {
    std::string digits;
    do {
      digits.insert(digits.begin(), static_cast<char>('0' + n % 10));
      n /= 10;
    } while (n != 0);
    return digits;
  }
  static SwerveVec2 vec(const Vector2 &v) {
    SwerveVec2 out;
    out.x = v.x();
    out.y = v.y();
    return out;
  }
  static void finite(const Vector2 &v, const char *what) {
    if (!(std::isfinite(v.x()) && std::isfinite(v.y()))) {
      throw Error(std::string(what) + " must be finite");
    }
  }
  static SwerveAgentParams params(float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                                  float timeHorizonObst, float radius, float maxSpeed) {
    SwerveAgentParams p;
    p.neighbor_dist = neighborDist;
    p.max_neighbors = maxNeighbors;
    p.time_horizon = timeHorizon;
    p.time_horizon_obst = timeHorizonObst;
    p.radius = radius;
    p.max_speed = maxSpeed;
    return p;
  }

  void init(float timeStep, bool hasTimeStep, const SwerveAgentParams *defaults, const Vector2 &velocity) {
    sim_ = NULL;
    hasTimeStep_ = hasTimeStep;
    hasDefaults_ = defaults != NULL;
    idOffset_ = 0;
    finite(velocity, "default velocity");
    defaultVelocity_ = velocity;
    check(swerve_agent_params_default(&defaults_));
    if (defaults != NULL) {
      defaults_ = *defaults;
    }
    check(swerve_simulator_new(timeStep, &defaults_, &sim_));
#ifndef SWERVE_RVO2_NO_RECORDS
    check(swerve_simulator_set_record_decisions(sim_, true));
#endif
  }

  std::size_t addAgent(const Vector2 &position, const SwerveAgentParams &p, const Vector2 &velocity) {
    finite(velocity, "agent velocity");
    uint32_t agent = 0;
    check(swerve_simulator_add_agent_with(sim_, vec(position), &p, &agent));
    check(swerve_simulator_set_agent_velocity(sim_, agent, vec(velocity)));
    return agent - idOffset_;
  }

  uint32_t id(std::size_t agentNo) const {
    std::size_t count = getNumAgents();
    if (agentNo >= count) {
      throw Error("unknown agent number " + number(agentNo) + " (there are " + number(count) + ")");
    }
    return static_cast<uint32_t>(agentNo + idOffset_);
  }
  SwerveAgentParams agentParams(std::size_t agentNo) const {
    SwerveAgentParams p;
    check(swerve_simulator_agent_params(sim_, id(agentNo), &p));
    return p;
  }
  void setAgentParams(std::size_t agentNo, const SwerveAgentParams &p) {
    check(swerve_simulator_set_agent_params(sim_, id(agentNo), &p));
  }
  const Vector2 &agentVector(std::size_t agentNo, VectorGetter get, std::vector<Vector2> &copies) const {
    SwerveVec2 v;
    check(get(sim_, id(agentNo), &v));
    if (copies.size() <= agentNo) {
      copies.resize(agentNo + 1);
    }
    copies[agentNo] = Vector2(v.x, v.y);
    return copies[agentNo];
  }
  std::size_t fetchNeighbors(std::size_t agentNo, NeighborGetter get) const {
    std::size_t count = 0;
    uint32_t agent = id(agentNo);
    SwerveStatus status = get(sim_, agent, neighbors_.empty() ? NULL : &neighbors_[0], neighbors_.size(), &count);
    if (status == SWERVE_STATUS_BUFFER_TOO_SMALL) {
      neighbors_.resize(count);
      status = get(sim_, agent, &neighbors_[0], neighbors_.size(), &count);
    }
    check(status);
    neighborCount_ = count;
    return count;
  }
  std::size_t neighborAt(std::size_t neighborNo) const {
    if (neighborNo >= neighborCount_) {
      throw Error("the agent has " + number(neighborCount_) + " such neighbours, no number " + number(neighborNo));
    }
    return neighbors_[neighborNo];
  }
  std::size_t fetchLines(std::size_t agentNo) const {
    std::size_t count = 0;
    uint32_t agent = id(agentNo);
    SwerveStatus status = swerve_simulator_agent_half_planes(sim_, agent, planes_.empty() ? NULL : &planes_[0],
                                                             planes_.size(), &count);
    if (status == SWERVE_STATUS_BUFFER_TOO_SMALL) {
      planes_.resize(count);
      status = swerve_simulator_agent_half_planes(sim_, agent, &planes_[0], planes_.size(), &count);
    }
    check(status);
    lines_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      lines_[i].point = Vector2(planes_[i].point.x, planes_[i].point.y);
      lines_[i].direction = Vector2(planes_[i].direction.x, planes_[i].direction.y);
    }
    return count;
  }
  std::size_t processedVertices() const {
    std::size_t count = 0;
    check(swerve_simulator_num_obstacle_vertices(sim_, &count));
    return count;
  }
  /* RVO2's vertex list: the processed vertices (with those the tree split off), then the
   * vertices of the polygons added since, each polygon a ring. */
  Vector2 obstacleVertex(std::size_t vertexNo, std::size_t *next, std::size_t *prev) const {
    std::size_t processed = processedVertices();
    if (vertexNo < processed) {
      SwerveObstacleVertex v;
      check(swerve_simulator_obstacle_vertex(sim_, vertexNo, &v));
      if (next != NULL) *next = v.next;
      if (prev != NULL) *prev = v.prev;
      return Vector2(v.point.x, v.point.y);
    }
    std::size_t first = processed;
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      std::size_t size = pending_[k].size();
      if (vertexNo < first + size) {
        std::size_t i = vertexNo - first;
        if (next != NULL) *next = first + (i + 1) % size;
        if (prev != NULL) *prev = first + (i + size - 1) % size;
        return pending_[k][i];
      }
      first += size;
    }
    throw Error("unknown obstacle vertex " + number(vertexNo) + " (there are " + number(first) + ")");
  }

  SwerveSimulator *sim_;
  bool hasTimeStep_;
  bool hasDefaults_;
  SwerveAgentParams defaults_;
  Vector2 defaultVelocity_;
  /* swerve's id of agent number 0: ids are never reused, RVO2's numbers restart after
   * clearAgents. */
  std::size_t idOffset_;
  /* Polygons added since the last processObstacles. */
  std::vector<std::vector<Vector2> > pending_;
  /* The copies behind the getters that return references. */
  mutable std::vector<Vector2> positions_, velocities_, prefVelocities_;
  mutable Vector2 vertex_;
  mutable std::vector<uint32_t> neighbors_;
  mutable std::size_t neighborCount_;
  mutable std::vector<SwerveHalfPlane> planes_;
  mutable std::vector<Line> lines_;
};

}  // namespace RVO

#endif /* SWERVE_RVO2_RVO_H_ */
