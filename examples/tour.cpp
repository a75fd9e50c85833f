// The README's tour: the papers' Figure 1, read from a folded file and analysed.
#include <ccrc/ccrc.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "examples/data/figure1.folded";
  ccrc::profile p = ccrc::read_folded_file(path);
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  std::printf("%zu nodes, depth %u, %zu methods\n", s.nodes, s.max_depth, s.methods);
  std::vector<double> ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  std::printf("ag(main) = %.0f\n", ag[1]);
  for (auto& e : ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes")))
    std::printf("%s %.2f %%\n", std::string(p.symbols().method_name(e.method)).c_str(), e.percent);
}
