#include "platform/memory/memory_coherence.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <new>

#include "platform/memory/device_transfer.h"

namespace cucl {

bool MemoryCoherence::acquire(unsigned device, size_t begin, size_t end, Access access, MemoryWaiter& waiter,
                              std::span<const std::shared_ptr<backend::StreamPoint>> waits) {
  DeviceTransfer* transfer = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (access != Access::Overwrite) {
      // Bytes already on their way here: wait for them rather than copying them twice.
      for (DeviceTransfer* arriving : arrivals_) {
        if (arriving->destination() == device && arriving->overlaps(begin, end)) {
          arriving->waiters.push_back(&waiter);
          return false;
        }
      }
      if (validity_) {
        std::vector<DeviceTransfer::Piece> pieces;
        for (const ValidityMap::Piece& piece : validity_->missing(begin, end, device)) {
          pieces.push_back({piece.begin, piece.end, pick_source(piece.holders, device)});
        }
        if (!pieces.empty()) {
          auto created = std::make_unique<DeviceTransfer>(static_cast<TransferOwner&>(*this), storage_, device,
                                                          std::move(pieces), waits);
          created->waiters.push_back(&waiter);
          arrivals_.push_back(created.get());
          transfer = created.release();
        }
      }
    }
    if (!transfer && access != Access::Read) {
      if (!validity_) validity_.emplace(size_, all_devices());
      validity_->set_only(begin, end, device);
      // Copies of these bytes still in flight to other devices carry what this replaces.
      for (DeviceTransfer* arriving : arrivals_) {
        if (arriving->destination() != device && arriving->overlaps(begin, end)) arriving->stale = true;
      }
    }
  }
  if (!transfer) return true;
  transfer->start();
  return false;
}

void MemoryCoherence::transfer_ended(DeviceTransfer& transfer, cl_int status) {
  std::vector<MemoryWaiter*> waiters;
  {
    std::lock_guard lock(mutex_);
    arrivals_.erase(std::find(arrivals_.begin(), arrivals_.end(), &transfer));
    if (status >= 0 && !transfer.stale) {
      // This runs on a stream's thread, where nothing may throw. Without memory to record
      // the copy, the bytes just stay missing and the waiters ask for them again.
      try {
        for (const DeviceTransfer::Piece& piece : transfer.pieces()) {
          validity_->add(piece.begin, piece.end, transfer.destination());
        }
      } catch (const std::bad_alloc&) {
      }
    }
    waiters = std::move(transfer.waiters);
  }
  delete &transfer;
  // A waiter may free this object (its command finishes and drops the storage).
  for (MemoryWaiter* waiter : waiters) waiter->memory_ready(status);
}

ValidityMap::Holders MemoryCoherence::holders_at(size_t offset) const {
  std::lock_guard lock(mutex_);
  return validity_ ? validity_->holders_at(offset) : all_devices();
}

ValidityMap::Holders MemoryCoherence::all_devices() const {
  unsigned count = storage_.device_count();
  return count >= ValidityMap::kMaxDevices ? ~ValidityMap::Holders{0} : (ValidityMap::Holders{1} << count) - 1;
}

unsigned MemoryCoherence::pick_source(ValidityMap::Holders holders, unsigned destination) const {
  // A GPU that the destination copies from directly is the fastest way (a peer-to-peer copy
  // outruns the host bus); a holder with host memory needs one copy to reach any device;
  // others need two.
  auto first = [&](auto&& suits) -> std::optional<unsigned> {
    for (ValidityMap::Holders rest = holders; rest; rest &= rest - 1) {
      auto device = static_cast<unsigned>(std::countr_zero(rest));
      if (suits(device)) return device;
    }
    return std::nullopt;
  };
  if (auto peer = first([&](unsigned device) { return storage_.direct_copy(device, destination); })) return *peer;
  if (auto host = first([&](unsigned device) { return storage_.host_memory(device); })) return *host;
  return static_cast<unsigned>(std::countr_zero(holders));
}

}  // namespace cucl
