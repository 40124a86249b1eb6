// Which devices of a context hold a current copy of each byte of one storage. The storage
// is split into segments of bytes that the same devices hold; neighbours that agree merge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace cucl {

class ValidityMap {
 public:
  using Holders = uint64_t;  // bit i: the context's device i
  static constexpr unsigned kMaxDevices = 64;

  // Every byte of [0, size) held by `holders`.
  ValidityMap(size_t size, Holders holders);

  struct Piece {
    size_t begin, end;
    Holders holders;  // never empty
  };
  // The parts of [begin, end) that `device` does not hold, in order, with who holds them.
  std::vector<Piece> missing(size_t begin, size_t end, unsigned device) const;
  // `device` now holds [begin, end) too.
  void add(size_t begin, size_t end, unsigned device);
  // `device` changed [begin, end): its copy is the only current one.
  void set_only(size_t begin, size_t end, unsigned device);

  Holders holders_at(size_t offset) const;
  size_t segment_count() const { return segments_.size(); }

 private:
  // Makes `at` the start of a segment (unless it is the end of the storage).
  void split(size_t at);
  // Merges the segments of [begin, end] with equal neighbours.
  void merge(size_t begin, size_t end);
  template <class Change>
  void update(size_t begin, size_t end, Change change);

  size_t size_;
  std::map<size_t, Holders> segments_;  // start -> holders, up to the next start (or size_)
};

}  // namespace cucl
