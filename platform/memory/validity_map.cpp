#include "platform/memory/validity_map.h"

#include <algorithm>
#include <iterator>

namespace cucl {

ValidityMap::ValidityMap(size_t size, Holders holders) : size_(size) { segments_.emplace(0, holders); }

std::vector<ValidityMap::Piece> ValidityMap::missing(size_t begin, size_t end, unsigned device) const {
  std::vector<Piece> pieces;
  end = std::min(end, size_);
  if (begin >= end) return pieces;
  const Holders bit = Holders{1} << device;
  auto it = std::prev(segments_.upper_bound(begin));
  for (; it != segments_.end() && it->first < end; ++it) {
    if (it->second & bit) continue;
    auto next = std::next(it);
    size_t piece_begin = std::max(it->first, begin);
    size_t piece_end = std::min(next == segments_.end() ? size_ : next->first, end);
    if (!pieces.empty() && pieces.back().end == piece_begin && pieces.back().holders == it->second) {
      pieces.back().end = piece_end;
    } else {
      pieces.push_back(Piece{piece_begin, piece_end, it->second});
    }
  }
  return pieces;
}

void ValidityMap::add(size_t begin, size_t end, unsigned device) {
  update(begin, end, [bit = Holders{1} << device](Holders holders) { return holders | bit; });
}

void ValidityMap::set_only(size_t begin, size_t end, unsigned device) {
  update(begin, end, [bit = Holders{1} << device](Holders) { return bit; });
}

ValidityMap::Holders ValidityMap::holders_at(size_t offset) const {
  return std::prev(segments_.upper_bound(offset))->second;
}

template <class Change>
void ValidityMap::update(size_t begin, size_t end, Change change) {
  end = std::min(end, size_);
  if (begin >= end) return;
  split(begin);
  split(end);
  for (auto it = segments_.find(begin); it != segments_.end() && it->first < end; ++it) it->second = change(it->second);
  merge(begin, end);
}

void ValidityMap::split(size_t at) {
  if (at >= size_) return;
  auto it = std::prev(segments_.upper_bound(at));
  if (it->first != at) segments_.emplace_hint(std::next(it), at, it->second);
}

void ValidityMap::merge(size_t begin, size_t end) {
  auto it = segments_.find(begin);
  if (it != segments_.begin()) --it;
  while (it != segments_.end() && it->first <= end) {
    auto next = std::next(it);
    if (next != segments_.end() && next->second == it->second) {
      segments_.erase(next);
    } else {
      it = next;
    }
  }
}

}  // namespace cucl
