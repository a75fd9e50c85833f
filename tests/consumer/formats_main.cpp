// A user's program on ccrc::formats: reads a profile of any format, gzip or not, and prints
// its statistics as main.cpp does.
#include <ccrc/ccrc.hpp>
#include <ccrc/formats/read_any_profile.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  ccrc::read_result r = ccrc::read_profile_file(argv[1]);
  ccrc::tree_statistics s = ccrc::statistics(r.profile.tree());
  std::vector<double> ag = ccrc::inclusive(r.profile.tree(), r.profile.column("bytecodes"));
  std::printf("nodes %zu, max depth %u, methods %zu, bytecodes %.0f (%s)\n", s.nodes, s.max_depth, s.methods,
              ag[ccrc::root_node], std::string(ccrc::name_of(r.detected)).c_str());
}
