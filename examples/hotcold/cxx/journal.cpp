#include "journal.hpp"

namespace {
const char *const kinds[] = {"created", "registered", "scheduled"};
}

Note::Note(std::uint32_t key, unsigned kind)
    : stamp_(std::uint64_t{key} << 8 | kind) {
  std::snprintf(text_, sizeof text_, "counter %u %s", unsigned{key},
                kinds[kind % 3]);
}

Journal::~Journal() {
  for (Note *n : notes_)
    delete n;
}

void Journal::add(std::uint32_t key, unsigned count) {
  for (unsigned k = 0; k < count; k++)
    notes_.push_back(new Note(key, k));
}

std::uint64_t Journal::checksum() const {
  std::uint64_t sum = 0;
  for (const Note *n : notes_)
    sum += n->stamp();
  return sum;
}

void Journal::print(std::FILE *out) const {
  for (const Note *n : notes_)
    std::fprintf(out, "%llu %s\n", static_cast<unsigned long long>(n->stamp()),
                 n->text());
}
