// A user's program: reads a folded profile and prints its statistics.
#include <ccrc/ccrc.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  ccrc::profile p = ccrc::read_folded_file(argv[1]);
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  std::vector<double> ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  std::printf("nodes %zu, max depth %u, methods %zu, bytecodes %.0f\n", s.nodes, s.max_depth,
              s.methods, ag[ccrc::root_node]);
}
