// The cold path of hotcold++: notes written when a counter is created and
// read again only at the end. 64 bytes each, as the counters are.
#ifndef JOURNAL_HPP
#define JOURNAL_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

class Note {
 public:
  Note(std::uint32_t key, unsigned kind);
  std::uint64_t stamp() const { return stamp_; }
  const char *text() const { return text_; }

 private:
  std::uint64_t stamp_;
  char text_[56];
};
static_assert(sizeof(Note) == 64, "a note is 64 bytes");

class Journal {
 public:
  Journal() = default;
  Journal(const Journal &) = delete;
  Journal &operator=(const Journal &) = delete;
  ~Journal();
  void reserve(std::size_t n) { notes_.reserve(n); }
  void add(std::uint32_t key, unsigned count);
  std::uint64_t checksum() const;
  void print(std::FILE *out) const;

 private:
  std::vector<Note *> notes_;
};

#endif
