// ccrc_mpi_ensemble: the ensemble of many runs (statistics per calling context, as `ccrc
// ensemble` computes them) made by the ranks of an MPI job, as hpcprof-mpi summarises the
// profiles of a parallel program's ranks. Each rank reduces its share of the runs (a block of
// consecutive inputs) to a partial ensemble; the ranks agree on the union of their contexts (a
// tree merged in log2(P) rounds as .cctb bytes, then broadcast); each lays its moments out over
// that union, and MPI_Reduce combines them, an operation over (count, mean, m2, min, max) per
// value that is exact (Chan's pairwise update), the ranks' order kept. Rank 0 writes what
// `ccrc ensemble --json` and `-o` write for the same inputs: the same contexts, ids and counts,
// the same statistics up to the rounding of their combination.
//
//     mpirun -np 4 ccrc_mpi_ensemble [--json] [-o OUT] [--timings] IN...
#include "profile_file.hpp"

#include <ccrc/ensemble/ensemble_all.hpp>
#include <ccrc/ensemble/json.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/formats/read_any_profile.hpp>
#include <ccrc/formats/write_profile.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/transform/merge.hpp>
#include <ccrc/tree/metric_unit.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

// MPI counts are ints: bytes go in pieces of 1 GiB at most, moments in pieces of 2^24.
constexpr std::uint64_t piece = std::uint64_t{1} << 30;
constexpr std::size_t moments_piece = std::size_t{1} << 24;

// The contexts and metrics of a partial ensemble, as a profile with every value zero: what the
// ranks exchange to agree on the union (its .cctb bytes).
ccrc::profile structure_of(const ccrc::ensemble& e) { return ccrc::profile(ccrc::call_tree(e.tree()), e.metric_names()); }

void send_bytes(const std::string& bytes, int to) {
  std::uint64_t size = bytes.size();
  MPI_Send(&size, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
  for (std::uint64_t at = 0; at < size; at += piece)
    MPI_Send(bytes.data() + at, static_cast<int>(std::min(piece, size - at)), MPI_BYTE, to, 1, MPI_COMM_WORLD);
}

std::string receive_bytes(int from) {
  std::uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string bytes(size, '\0');
  for (std::uint64_t at = 0; at < size; at += piece)
    MPI_Recv(bytes.data() + at, static_cast<int>(std::min(piece, size - at)), MPI_BYTE, from, 1, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  return bytes;
}

std::string broadcast_bytes(std::string bytes) {
  std::uint64_t size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(size);
  for (std::uint64_t at = 0; at < size; at += piece)
    MPI_Bcast(bytes.data() + at, static_cast<int>(std::min(piece, size - at)), MPI_BYTE, 0, MPI_COMM_WORLD);
  return bytes;
}

// The union of every rank's contexts and metrics, on every rank: merged pairwise, neighbour
// with neighbour, so that its ids and metric order are those of adding the runs in order.
ccrc::profile union_of(const ccrc::ensemble& mine, int rank, int ranks) {
  std::optional<ccrc::profile> tree;
  if (mine.runs() != 0) tree = structure_of(mine);
  for (int step = 1; step < ranks; step *= 2) {
    if (rank % (2 * step) == step) {
      send_bytes(tree ? ccrc::cctb_bytes(*tree) : std::string(), rank - step);
      break;
    }
    if (rank % (2 * step) == 0 && rank + step < ranks) {
      std::string bytes = receive_bytes(rank + step);
      if (bytes.empty()) continue;
      ccrc::profile other = ccrc::read_cctb(bytes);
      if (tree) ccrc::merge(*tree, other);
      else tree = std::move(other);
    }
  }
  std::string bytes = broadcast_bytes(rank == 0 && tree ? ccrc::cctb_bytes(*tree) : std::string());
  if (bytes.empty()) throw ccrc::error("no inputs");
  return ccrc::read_cctb(bytes);
}

// MPI_Reduce's operation on moments: inout = in, then inout (in holds the lower ranks' runs).
void combine_moments(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const ccrc::moments*>(in);
  auto* b = static_cast<ccrc::moments*>(inout);
  for (int i = 0; i < *length; ++i) b[i] = ccrc::combine(a[i], b[i]);
}

static_assert(sizeof(ccrc::moments) == 5 * sizeof(double), "moments travel as five doubles");

// This rank's partial ensemble laid out over the union's nodes and metrics, reduced into rank
// 0's ensemble (the others get nothing).
std::optional<ccrc::ensemble> reduce(const ccrc::ensemble& mine, const ccrc::profile& all, int rank) {
  // Where this rank's contexts are in the union: merged into a copy of it, they add nothing.
  ccrc::profile layout(ccrc::call_tree(all.tree()), all.metric_names());
  const std::vector<ccrc::node_id> map = mine.runs() != 0 ? ccrc::merge(layout, structure_of(mine)) : std::vector<ccrc::node_id>();
  const std::size_t nodes = all.size();
  std::vector<std::uint32_t> present(nodes, 0), total(rank == 0 ? nodes : 0);
  for (ccrc::node_id v = 0; v < map.size(); ++v) present[map[v]] = mine.present(v);
  MPI_Reduce(present.data(), rank == 0 ? total.data() : nullptr, static_cast<int>(nodes), MPI_UINT32_T, MPI_SUM, 0,
             MPI_COMM_WORLD);

  MPI_Datatype type;
  MPI_Type_contiguous(5, MPI_DOUBLE, &type);
  MPI_Type_commit(&type);
  MPI_Op op;
  MPI_Op_create(&combine_moments, 0, &op);  // not commutative: the ranks' order is kept
  std::vector<std::vector<ccrc::moments>> columns;
  const ccrc::moments zeros{static_cast<double>(mine.runs()), 0, 0, 0, 0};  // a context or metric this rank's runs lack
  for (std::size_t m = 0; m < all.metric_count(); ++m) {
    const auto own = mine.find_metric(all.metric_name(m));
    for (ccrc::cost_scope scope : {ccrc::cost_scope::self, ccrc::cost_scope::inclusive}) {
      std::vector<ccrc::moments> values(nodes, zeros), reduced(rank == 0 ? nodes : 0);
      if (own)
        for (ccrc::node_id v = 0; v < map.size(); ++v) values[map[v]] = mine.at(v, *own, scope);
      for (std::size_t at = 0; at < nodes; at += moments_piece)
        MPI_Reduce(values.data() + at, rank == 0 ? reduced.data() + at : nullptr,
                   static_cast<int>(std::min(moments_piece, nodes - at)), type, op, 0, MPI_COMM_WORLD);
      if (rank == 0) columns.push_back(std::move(reduced));
    }
  }
  MPI_Op_free(&op);
  MPI_Type_free(&type);
  if (rank != 0) return std::nullopt;
  const auto runs = static_cast<std::size_t>(columns.empty() ? 0 : columns[0][ccrc::root_node].count);
  return ccrc::ensemble::from_moments(ccrc::call_tree(all.tree()), all.metric_names(), runs, std::move(total), columns);
}

struct options {
  std::string out;
  bool json = false, timings = false;
  std::vector<std::string> inputs;
};

void run(int rank, int ranks, const options& o) {
  auto start = clock_type::now();
  const std::size_t first = o.inputs.size() * static_cast<std::size_t>(rank) / static_cast<std::size_t>(ranks),
                    last = o.inputs.size() * static_cast<std::size_t>(rank + 1) / static_cast<std::size_t>(ranks);
  ccrc::ensemble mine = ccrc::ensemble_all(last - first, [&](std::size_t i) {
    return ccrc::read_profile_file(o.inputs[first + i]).profile;  // its errors name the file
  }, {.threads = 1});
  const double read_ms = ms_since(start);
  start = clock_type::now();
  ccrc::profile all = union_of(mine, rank, ranks);
  const double union_ms = ms_since(start);
  start = clock_type::now();
  std::optional<ccrc::ensemble> e = reduce(mine, all, rank);
  const double reduce_ms = ms_since(start);
  if (o.timings) {
    double times[3] = {read_ms, union_ms, reduce_ms};
    std::vector<double> every(3 * static_cast<std::size_t>(ranks));
    MPI_Gather(times, 3, MPI_DOUBLE, every.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
      for (std::size_t r = 0; r < every.size() / 3; ++r)
        std::fprintf(stderr, "{\"rank\": %zu, \"read_ms\": %.3f, \"union_ms\": %.3f, \"reduce_ms\": %.3f}\n", r, every[3 * r],
                     every[3 * r + 1], every[3 * r + 2]);
  }
  if (rank != 0) return;
  if (auto clash = ccrc::unit_disagreement(e->metric_names()))  // as ccrc ensemble refuses it
    throw ccrc::error("metrics '" + e->metric_names()[clash->first] + "' and '" + e->metric_names()[clash->second] +
                      "' measure one quantity in two units");
  if (!o.out.empty()) mpi_example::write_profile_file(o.out, ccrc::ensemble_profile(*e));
  if (o.json) {
    ccrc::write_ensemble_json(std::cout, *e, {.inputs = o.inputs});
    std::cout.flush();
    if (!std::cout) throw ccrc::error("cannot write to stdout");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-o" && i + 1 < argc) o.out = argv[++i];
    else if (arg == "--json") o.json = true;
    else if (arg == "--timings") o.timings = true;
    else o.inputs.emplace_back(arg);
  }
  if ((o.out.empty() && !o.json) || o.inputs.empty() || (!o.out.empty() && !ccrc::writable_format(o.out))) {
    if (rank == 0) std::fprintf(stderr, "usage: mpirun -np P ccrc_mpi_ensemble [--json] [-o OUT.cctb] [--timings] IN...\n");
    MPI_Finalize();
    return 2;
  }
  try {
    run(rank, ranks, o);
  } catch (const std::exception& e) {
    // One rank's failure ends the job: the others may be waiting for it.
    std::fprintf(stderr, "ccrc_mpi_ensemble: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
