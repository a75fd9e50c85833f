// ccrc_mpi_merge: profiles merged by the ranks of an MPI job, as hpcprof-mpi merges the CCTs of
// a parallel program's ranks. Each rank reads and merges its share of the inputs (a block of
// consecutive files), then the ranks reduce their trees in log2(P) rounds of pairwise merges,
// sending them to each other as .cctb bytes; rank 0 writes the result. As every merge joins
// neighbours in input order, the result is, byte for byte, what `ccrc merge` writes.
//
//     mpirun -np 4 ccrc_mpi_merge -o all.cctb [--timings] IN...
#include "profile_file.hpp"

#include <ccrc/formats/read_any_profile.hpp>
#include <ccrc/formats/write_profile.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/transform/merge_all.hpp>
#include <ccrc/tree/metric_unit.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

// MPI counts are ints: a tree of any size goes as its byte count, then pieces of 1 GiB at most.
constexpr std::uint64_t piece = std::uint64_t{1} << 30;

void send_tree(const std::optional<ccrc::profile>& tree, int to) {
  std::string bytes;
  if (tree) bytes = ccrc::cctb_bytes(*tree);  // sized exactly: no doubling buffer
  std::uint64_t size = bytes.size();  // 0: a rank with no inputs
  MPI_Send(&size, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
  for (std::uint64_t at = 0; at < size; at += piece)
    MPI_Send(bytes.data() + at, static_cast<int>(std::min(piece, size - at)), MPI_BYTE, to, 1, MPI_COMM_WORLD);
}

std::optional<ccrc::profile> receive_tree(int from) {
  std::uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (size == 0) return std::nullopt;
  std::string bytes(size, '\0');
  for (std::uint64_t at = 0; at < size; at += piece)
    MPI_Recv(bytes.data() + at, static_cast<int>(std::min(piece, size - at)), MPI_BYTE, from, 1, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  return ccrc::read_cctb(bytes);
}

struct rank_times {
  double read_ms = 0;     // reading and merging this rank's inputs
  double wait_ms = 0;     // for the slowest rank to have read its inputs (--timings only)
  double message_ms = 0;  // serialising, sending, receiving and reading the trees of others
  double merge_ms = 0;    // merging the trees received
};

int run(int rank, int ranks, const std::string& out, const std::vector<std::string>& inputs, bool timings) {
  rank_times times;
  auto start = clock_type::now();
  const std::size_t first = inputs.size() * static_cast<std::size_t>(rank) / static_cast<std::size_t>(ranks),
                    last = inputs.size() * static_cast<std::size_t>(rank + 1) / static_cast<std::size_t>(ranks);
  std::optional<ccrc::profile> tree;
  if (first < last)
    tree = ccrc::merge_all(last - first, [&](std::size_t i) {
      return ccrc::read_profile_file(inputs[first + i]).profile;  // its errors name the file
    }, {.threads = 1});
  times.read_ms = ms_since(start);
  if (timings) {  // so that message_ms is the messages' cost, not a wait for a slower rank
    start = clock_type::now();
    MPI_Barrier(MPI_COMM_WORLD);
    times.wait_ms = ms_since(start);
  }

  // Round k: rank r (a multiple of 2^(k+1)) takes the tree of rank r + 2^k, which is done.
  for (int step = 1; step < ranks; step *= 2) {
    if (rank % (2 * step) == step) {
      start = clock_type::now();
      send_tree(tree, rank - step);
      times.message_ms += ms_since(start);
      break;
    }
    if (rank % (2 * step) == 0 && rank + step < ranks) {
      start = clock_type::now();
      std::optional<ccrc::profile> other = receive_tree(rank + step);
      times.message_ms += ms_since(start);
      start = clock_type::now();
      if (other && tree) ccrc::merge(*tree, *other);
      else if (other) tree = std::move(other);
      times.merge_ms += ms_since(start);
    }
  }

  if (timings) {
    double mine[4] = {times.read_ms, times.wait_ms, times.message_ms, times.merge_ms};
    std::vector<double> all(4 * static_cast<std::size_t>(ranks));
    MPI_Gather(mine, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
      for (std::size_t r = 0; r < all.size() / 4; ++r)
        std::fprintf(stderr, "{\"rank\": %zu, \"read_ms\": %.3f, \"wait_ms\": %.3f, \"message_ms\": %.3f, \"merge_ms\": %.3f}\n",
                     r, all[4 * r], all[4 * r + 1], all[4 * r + 2], all[4 * r + 3]);
  }
  if (rank == 0) {
    if (!tree) throw ccrc::error("no inputs");
    if (auto clash = ccrc::unit_disagreement(tree->metric_names()))  // as ccrc merge refuses it
      throw ccrc::error("metrics '" + tree->metric_names()[clash->first] + "' and '" +
                        tree->metric_names()[clash->second] + "' measure one quantity in two units");
    mpi_example::write_profile_file(out, *tree);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::string out;
  bool timings = false;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-o" && i + 1 < argc) out = argv[++i];
    else if (arg == "--timings") timings = true;
    else inputs.emplace_back(arg);
  }
  if (out.empty() || inputs.empty() || !ccrc::writable_format(out)) {
    if (rank == 0) std::fprintf(stderr, "usage: mpirun -np P ccrc_mpi_merge -o OUT.cctb [--timings] IN...\n");
    MPI_Finalize();
    return 2;
  }
  try {
    run(rank, ranks, out, inputs, timings);
  } catch (const std::exception& e) {
    // One rank's failure ends the job: the others may be waiting for its tree.
    std::fprintf(stderr, "ccrc_mpi_merge: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
