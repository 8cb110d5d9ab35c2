// A program written against RVO2 2.0's C++ API and nothing else: RVO2's Blocks example
// (fewer agents, no random perturbation) plus one agent with its own parameters, parameter
// changes mid-run, and every getter. It prints every number it reads as the bits of the
// float, so that tests/rvo2_dropin.rs can build it against RVO2 and against swerve's
// include/rvo2 and require the same output.
#include <cstdio>
#include <cstring>
#include <vector>

#include "RVO.h"

namespace {

unsigned bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

void print(const char *tag, const RVO::Vector2 &v) { std::printf(" %s %08x %08x", tag, bits(v.x()), bits(v.y())); }

void printVertices(const RVO::RVOSimulator &sim) {
  std::printf("vertices %lu\n", static_cast<unsigned long>(sim.getNumObstacleVertices()));
  for (std::size_t i = 0; i < sim.getNumObstacleVertices(); ++i) {
    std::printf("vertex %lu", static_cast<unsigned long>(i));
    print("at", sim.getObstacleVertex(i));
    std::printf(" next %lu prev %lu\n", static_cast<unsigned long>(sim.getNextObstacleVertexNo(i)),
                static_cast<unsigned long>(sim.getPrevObstacleVertexNo(i)));
  }
}

void printDecisions(const RVO::RVOSimulator &sim) {
  for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
    std::printf("agent %lu neighbours", static_cast<unsigned long>(i));
    for (std::size_t k = 0; k < sim.getAgentNumAgentNeighbors(i); ++k) {
      std::printf(" %lu", static_cast<unsigned long>(sim.getAgentAgentNeighbor(i, k)));
    }
    std::printf(" obstacle edges");
    for (std::size_t k = 0; k < sim.getAgentNumObstacleNeighbors(i); ++k) {
      std::printf(" %lu", static_cast<unsigned long>(sim.getAgentObstacleNeighbor(i, k)));
    }
    std::printf(" lines");
    for (std::size_t k = 0; k < sim.getAgentNumORCALines(i); ++k) {
      const RVO::Line &line = sim.getAgentORCALine(i, k);
      print("p", line.point);
      print("d", line.direction);
    }
    std::printf("\n");
  }
}

}  // namespace

int main() {
  RVO::RVOSimulator sim;
  std::printf("time step before %08x\n", bits(sim.getTimeStep()));
  std::printf("agent without defaults %d\n", sim.addAgent(RVO::Vector2(0.0F, 0.0F)) == RVO::RVO_ERROR);
  sim.setTimeStep(0.25F);
  sim.setAgentDefaults(15.0F, 10, 5.0F, 5.0F, 2.0F, 2.0F);

  std::vector<RVO::Vector2> goals;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const float a = 55.0F + i * 10.0F;
      const float b = 55.0F + j * 10.0F;
      sim.addAgent(RVO::Vector2(a, b));
      goals.push_back(RVO::Vector2(-75.0F, -75.0F));
      sim.addAgent(RVO::Vector2(-a, b));
      goals.push_back(RVO::Vector2(75.0F, -75.0F));
      sim.addAgent(RVO::Vector2(a, -b));
      goals.push_back(RVO::Vector2(-75.0F, 75.0F));
      sim.addAgent(RVO::Vector2(-a, -b));
      goals.push_back(RVO::Vector2(75.0F, 75.0F));
    }
  }
  const std::size_t own = sim.addAgent(RVO::Vector2(0.0F, 80.0F), 12.0F, 6, 4.0F, 4.0F, 1.5F, 1.8F,
                                       RVO::Vector2(0.5F, -0.5F));
  goals.push_back(RVO::Vector2(0.0F, -80.0F));
  std::printf("agents %lu own %lu\n", static_cast<unsigned long>(sim.getNumAgents()), static_cast<unsigned long>(own));

  const float blocks[4][4][2] = {
      {{-10.0F, 40.0F}, {-40.0F, 40.0F}, {-40.0F, 10.0F}, {-10.0F, 10.0F}},
      {{10.0F, 40.0F}, {10.0F, 10.0F}, {40.0F, 10.0F}, {40.0F, 40.0F}},
      {{10.0F, -40.0F}, {40.0F, -40.0F}, {40.0F, -10.0F}, {10.0F, -10.0F}},
      {{-10.0F, -40.0F}, {-10.0F, -10.0F}, {-40.0F, -10.0F}, {-40.0F, -40.0F}},
  };
  for (int k = 0; k < 4; ++k) {
    std::vector<RVO::Vector2> polygon;
    for (int v = 0; v < 4; ++v) {
      polygon.push_back(RVO::Vector2(blocks[k][v][0], blocks[k][v][1]));
    }
    std::printf("obstacle %d first vertex %lu\n", k, static_cast<unsigned long>(sim.addObstacle(polygon)));
  }
  // A slanted wall across the lines of the blocks' edges: the obstacle tree splits it.
  std::vector<RVO::Vector2> wall;
  wall.push_back(RVO::Vector2(-60.0F, 50.0F));
  wall.push_back(RVO::Vector2(60.0F, 62.0F));
  std::printf("wall first vertex %lu\n", static_cast<unsigned long>(sim.addObstacle(wall)));
  std::vector<RVO::Vector2> point(1, RVO::Vector2(0.0F, 0.0F));
  std::printf("one-vertex obstacle refused %d\n", sim.addObstacle(point) == RVO::RVO_ERROR);
  printVertices(sim);
  sim.processObstacles();
  printVertices(sim);
  std::printf("visible %d %d %d\n", sim.queryVisibility(RVO::Vector2(-60.0F, 25.0F), RVO::Vector2(60.0F, 25.0F)),
              sim.queryVisibility(RVO::Vector2(0.0F, 60.0F), RVO::Vector2(0.0F, -60.0F), 9.0F),
              sim.queryVisibility(RVO::Vector2(0.0F, 60.0F), RVO::Vector2(0.0F, -60.0F), 11.0F));

  for (int step = 0; step < 300; ++step) {
    for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
      RVO::Vector2 goalVector = goals[i] - sim.getAgentPosition(i);
      if (RVO::absSq(goalVector) > 1.0F) {
        goalVector = RVO::normalize(goalVector);
      }
      sim.setAgentPrefVelocity(i, goalVector);
    }
    if (step == 50) {
      // An obstacle added mid-run: numbered after the split vertices, seen once processed.
      std::vector<RVO::Vector2> triangle;
      triangle.push_back(RVO::Vector2(70.0F, 0.0F));
      triangle.push_back(RVO::Vector2(80.0F, -5.0F));
      triangle.push_back(RVO::Vector2(80.0F, 5.0F));
      std::printf("triangle first vertex %lu\n", static_cast<unsigned long>(sim.addObstacle(triangle)));
      printVertices(sim);
      sim.processObstacles();
      printVertices(sim);
    }
    if (step == 100) {
      sim.setAgentRadius(0, 1.0F);
      sim.setAgentMaxSpeed(1, 1.5F);
      sim.setAgentNeighborDist(2, 8.0F);
      sim.setAgentMaxNeighbors(3, 4);
      sim.setAgentTimeHorizon(4, 3.0F);
      sim.setAgentTimeHorizonObst(5, 2.0F);
    }
    if (step == 150) {
      sim.setAgentPosition(6, sim.getAgentPosition(6) + RVO::Vector2(0.5F, 0.25F));
      sim.setAgentVelocity(7, RVO::Vector2(0.0F, 0.0F));
    }
    sim.doStep();
    std::printf("step %d time %08x\n", step, bits(sim.getGlobalTime()));
    for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
      std::printf("agent %lu", static_cast<unsigned long>(i));
      print("position", sim.getAgentPosition(i));
      print("velocity", sim.getAgentVelocity(i));
      print("preferred", sim.getAgentPrefVelocity(i));
      std::printf("\n");
    }
    if (step % 25 == 0) {
      printDecisions(sim);
    }
  }
  for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
    std::printf("params %lu %08x %lu %08x %08x %08x %08x\n", static_cast<unsigned long>(i),
                bits(sim.getAgentNeighborDist(i)), static_cast<unsigned long>(sim.getAgentMaxNeighbors(i)),
                bits(sim.getAgentTimeHorizon(i)), bits(sim.getAgentTimeHorizonObst(i)), bits(sim.getAgentRadius(i)),
                bits(sim.getAgentMaxSpeed(i)));
  }
  std::printf("done\n");
  return 0;
}
