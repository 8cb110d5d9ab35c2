// What swerve's RVO2 stand-in does where RVO2 itself computes garbage or has undefined
// behaviour: it throws RVO::Error and changes nothing. Exits 0 when every check holds.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "RVO.h"

namespace {

int failures = 0;

void check(bool condition, const char *what, int line) {
  if (!condition) {
    std::fprintf(stderr, "rvo2_errors.cc:%d: check failed: %s\n", line, what);
    ++failures;
  }
}
#define CHECK(condition) check((condition), #condition, __LINE__)

// Runs `call`; true when it threw RVO::Error whose message contains `text`.
template <typename Call>
bool throws(Call call, const char *text) {
  try {
    call();
  } catch (const RVO::Error &error) {
    return std::strstr(error.what(), text) != NULL;
  }
  return false;
}

}  // namespace

int main() {
  RVO::RVOSimulator unset;
  CHECK(throws([&] { unset.doStep(); }, "time step"));
  CHECK(unset.getGlobalTime() == 0.0F);

  RVO::RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.5F, 2.0F);
  CHECK(sim.addAgent(RVO::Vector2(0.0F, 0.0F)) == 0);
  CHECK(sim.addAgent(RVO::Vector2(4.0F, 0.0F)) == 1);
  CHECK(throws([&] { sim.addAgent(RVO::Vector2(NAN, 0.0F)); }, "finite"));
  CHECK(sim.getNumAgents() == 2);
  CHECK(throws([&] { sim.getAgentPosition(5); }, "unknown agent number 5"));
  CHECK(throws([&] { sim.setAgentRadius(0, -1.0F); }, "radius"));
  CHECK(sim.getAgentRadius(0) == 1.5F);
  std::vector<RVO::Vector2> bowtie;
  bowtie.push_back(RVO::Vector2(10.0F, 10.0F));
  bowtie.push_back(RVO::Vector2(12.0F, 12.0F));
  bowtie.push_back(RVO::Vector2(12.0F, 10.0F));
  bowtie.push_back(RVO::Vector2(10.0F, 12.0F));
  CHECK(throws([&] { sim.addObstacle(bowtie); }, "intersect"));
  CHECK(sim.getNumObstacleVertices() == 0);

  sim.setAgentPrefVelocity(0, RVO::Vector2(1.0F, 0.0F));
  sim.setAgentPrefVelocity(1, RVO::Vector2(-1.0F, 0.0F));
  sim.doStep();
  CHECK(sim.getAgentNumAgentNeighbors(0) == 1 && sim.getAgentAgentNeighbor(0, 0) == 1);
  CHECK(throws([&] { sim.getAgentORCALine(0, 50); }, "no number 50"));

  // clearAgents: numbering starts again at 0 and the new crowd steps.
  sim.clearAgents();
  CHECK(sim.getNumAgents() == 0);
  CHECK(sim.addAgent(RVO::Vector2(0.0F, 10.0F)) == 0);
  CHECK(sim.addAgent(RVO::Vector2(0.0F, 14.0F)) == 1);
  sim.setAgentPrefVelocity(0, RVO::Vector2(0.0F, 1.0F));
  sim.setAgentPrefVelocity(1, RVO::Vector2(0.0F, -1.0F));
  sim.doStep();
  CHECK(sim.getAgentNumAgentNeighbors(1) == 1 && sim.getAgentAgentNeighbor(1, 0) == 0);
  CHECK(sim.getAgentPosition(0).y() > 10.0F && sim.getAgentPosition(1).y() < 14.0F);
  CHECK(RVO::abs(sim.getAgentVelocity(0)) <= 2.0F);

  if (failures == 0) {
    std::printf("all checks passed\n");
  }
  return failures == 0 ? 0 : 1;
}
