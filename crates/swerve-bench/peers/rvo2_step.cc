// Peer timing: RVO2 2.0.3 itself, built by `scripts/build-rvo2-peer` with -O3 and OpenMP
// (the reference build; threads from OMP_NUM_THREADS).
//
// Reads a scene written by swerve-bench (`Scene::to_peer_text`), builds it through RVO2's
// public API, and times only `doStep` (preferred velocities are set outside the timed region
// with RVO2's example rule). Prints one JSON line: the median, fastest and every timed step
// (ms), and an FNV-1a hash of the final positions' f32 bits in agent order, which swerve's
// run of the same scene must reproduce.
//
//     rvo2_step scene.txt

#include <RVO.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

// FNV-1a over the bytes of `value` (little-endian, as swerve hashes them).
void hash_f32(std::uint64_t &hash, float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  for (int byte = 0; byte < 4; ++byte) {
    hash ^= (bits >> (8 * byte)) & 0xffu;
    hash *= 0x100000001b3ull;
  }
}

int fail(const char *message) {
  std::fprintf(stderr, "error: %s\n", message);
  return 1;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rvo2_step SCENE.txt\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string magic, name;
  int version = 0;
  if (!(in >> magic >> version) || magic != "swerve-peer-scene" || version != 1) {
    return fail("not a swerve peer scene (version 1)");
  }
  std::getline(in >> std::ws, name);
  float time_step, neighbor_dist, time_horizon, time_horizon_obst, radius, max_speed;
  std::size_t max_neighbors, warmup, steps, agents, polygons;
  if (!(in >> time_step >> neighbor_dist >> max_neighbors >> time_horizon >> time_horizon_obst >>
        radius >> max_speed >> warmup >> steps >> agents)) {
    return fail("bad scene header");
  }
  RVO::RVOSimulator sim(time_step, neighbor_dist, max_neighbors, time_horizon, time_horizon_obst,
                        radius, max_speed);
  std::vector<RVO::Vector2> goals;
  goals.reserve(agents);
  for (std::size_t i = 0; i < agents; ++i) {
    float x, y, gx, gy;
    if (!(in >> x >> y >> gx >> gy)) return fail("bad agent line");
    sim.addAgent(RVO::Vector2(x, y));
    goals.emplace_back(gx, gy);
  }
  if (!(in >> polygons)) return fail("bad obstacle count");
  for (std::size_t k = 0; k < polygons; ++k) {
    std::size_t count;
    if (!(in >> count)) return fail("bad obstacle line");
    std::vector<RVO::Vector2> vertices;
    for (std::size_t v = 0; v < count; ++v) {
      float x, y;
      if (!(in >> x >> y)) return fail("bad obstacle vertex");
      vertices.emplace_back(x, y);
    }
    sim.addObstacle(vertices);
  }
  if (polygons > 0) sim.processObstacles();

  std::vector<double> samples;
  for (std::size_t k = 0; k < warmup + steps; ++k) {
    for (std::size_t i = 0; i < agents; ++i) {
      RVO::Vector2 toward = goals[i] - sim.getAgentPosition(i);
      if (RVO::absSq(toward) > 1.0f) toward = RVO::normalize(toward);
      sim.setAgentPrefVelocity(i, toward);
    }
    auto start = std::chrono::steady_clock::now();
    sim.doStep();
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    if (k >= warmup) samples.push_back(elapsed.count());
  }
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < agents; ++i) {
    hash_f32(hash, sim.getAgentPosition(i).x());
    hash_f32(hash, sim.getAgentPosition(i).y());
  }
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  std::printf("{\"scene\":\"%s\",\"threads\":%d,\"median_ms\":%.3f,\"min_ms\":%.3f,\"steps_ms\":[",
              name.c_str(), threads, sorted.empty() ? 0.0 : sorted[sorted.size() / 2],
              sorted.empty() ? 0.0 : sorted[0]);
  for (std::size_t k = 0; k < samples.size(); ++k) {
    std::printf("%s%.3f", k ? "," : "", samples[k]);
  }
  std::printf("],\"positions_fnv1a\":\"%016llx\"}\n", static_cast<unsigned long long>(hash));
  return 0;
}
