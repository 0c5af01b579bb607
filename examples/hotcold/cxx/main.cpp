// hotcold++ [--journal] [COUNTERS [STEPS]]: hotcold in C++, with new and
// delete. Creates COUNTERS counters (4096) with three notes each, updates
// the counters STEPS times (100 million) in a shuffled cycle, and prints
// a checksum of both; --journal also prints the notes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "journal.hpp"

namespace {

// The hot path: 64 bytes, updated all the time.
struct Counter {
  explicit Counter(std::uint32_t k) : key(k) {
    std::snprintf(name, sizeof name, "counter %u", unsigned{k});
  }
  Counter *next = nullptr;
  std::uint32_t key;
  std::uint32_t hits = 0;
  char name[48];
};
static_assert(sizeof(Counter) == 64, "a counter is 64 bytes");

class Table {
 public:
  Table() = default;
  Table(const Table &) = delete;
  Table &operator=(const Table &) = delete;
  ~Table() {
    for (Counter *c : counters_)
      delete c;
  }
  void reserve(std::size_t n) { counters_.reserve(n); }
  void add(std::uint32_t key) { counters_.push_back(new Counter(key)); }

  // Chains the counters into one cycle, in a shuffled order (xorshift64:
  // the same everywhere).
  void shuffle(std::uint64_t state) {
    state |= 1;
    for (std::size_t i = counters_.size(); i > 1; i--) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      std::swap(counters_[i - 1], counters_[state % i]);
    }
    for (std::size_t i = 0; i < counters_.size(); i++)
      counters_[i]->next = counters_[(i + 1) % counters_.size()];
  }

  void run(std::uint64_t steps) {
    if (counters_.empty())
      return;
    Counter *c = counters_[0];
    for (std::uint64_t s = 0; s < steps; s++) {
      c->hits += 1 + (c->key & 3);
      c = c->next;
    }
  }

  std::uint64_t checksum() const {
    std::uint64_t sum = 0;
    for (const Counter *c : counters_)
      sum = sum * 31 + c->hits + std::strlen(c->name);
    return sum;
  }

 private:
  std::vector<Counter *> counters_;
};

constexpr unsigned kNotes = 3;

}  // namespace

int main(int argc, char **argv) {
  bool journal = argc > 1 && std::strcmp(argv[1], "--journal") == 0;
  if (journal) {
    argc--;
    argv++;
  }
  std::size_t counters = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4096;
  std::uint64_t steps = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100000000;
  if (!counters || argc > 3) {
    std::fprintf(stderr, "usage: hotcold++ [--journal] [COUNTERS [STEPS]]\n");
    return 2;
  }
  Table table;
  Journal log;
  table.reserve(counters);
  log.reserve(counters * kNotes);
  for (std::size_t i = 0; i < counters; i++) {
    table.add(static_cast<std::uint32_t>(i));
    log.add(static_cast<std::uint32_t>(i), kNotes);
  }
  table.shuffle(0x9e3779b97f4a7c15u);
  table.run(steps);
  std::printf("%zu counters, %llu steps: checksum %016llx %016llx\n", counters,
              static_cast<unsigned long long>(steps),
              static_cast<unsigned long long>(table.checksum()),
              static_cast<unsigned long long>(log.checksum()));
  if (journal)
    log.print(stdout);
  return 0;
}
