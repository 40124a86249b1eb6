#include "platform/memory/memory_coherence.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <new>

#include "platform/memory/device_transfer.h"

namespace cucl {

namespace {

// `pieces` less the ranges that `arriving` brings.
std::vector<ValidityMap::Piece> without(std::vector<ValidityMap::Piece> pieces, const DeviceTransfer& arriving) {
  for (const DeviceTransfer::Piece& brought : arriving.pieces()) {
    std::vector<ValidityMap::Piece> rest;
    for (const ValidityMap::Piece& piece : pieces) {
      if (piece.begin < brought.begin) rest.push_back({piece.begin, std::min(piece.end, brought.begin), piece.holders});
      if (piece.end > brought.end) rest.push_back({std::max(piece.begin, brought.end), piece.end, piece.holders});
    }
    pieces = std::move(rest);
  }
  return pieces;
}

bool followed_by(const DeviceTransfer& transfer, const MemoryWaiter& waiter) {
  return std::find(transfer.followers.begin(), transfer.followers.end(), &waiter) != transfer.followers.end();
}

}  // namespace

bool MemoryCoherence::acquire(unsigned device, size_t begin, size_t end, Access access, MemoryWaiter& waiter) {
  DeviceTransfer* transfer = nullptr;
  {
    std::lock_guard lock(mutex_);
    std::vector<const DeviceTransfer*> followed;
    if (access != Access::Overwrite) {
      // Bytes already on their way here: follow or wait for them rather than copying them
      // twice.
      for (DeviceTransfer* arriving : arrivals_) {
        if (arriving->destination() != device || !arriving->overlaps(begin, end)) continue;
        if (followed_by(*arriving, waiter) || follow_locked(*arriving, waiter)) {
          followed.push_back(arriving);
          continue;
        }
        // What a stale transfer brings is old. Once its last step is on this device's
        // transfer stream, any new copy of the bytes lands after it there: no need to wait.
        if (arriving->stale && arriving->handed_over) continue;
        arriving->waiters.push_back(&waiter);
        return false;
      }
      if (validity_) {
        std::vector<ValidityMap::Piece> missing = validity_->missing(begin, end, device);
        for (const DeviceTransfer* arriving : followed) missing = without(std::move(missing), *arriving);
        std::vector<DeviceTransfer::Piece> pieces;
        for (const ValidityMap::Piece& piece : missing) {
          pieces.push_back(pick_source(piece, device));
        }
        if (!pieces.empty()) {
          std::vector<std::shared_ptr<backend::StreamPoint>> waits;
          const backend::Stream& first_step =
              storage_.transfer_stream(DeviceTransfer::first_step_device(storage_, pieces.front(), device));
          if (!waiter.transfer_waits(first_step, waits)) return false;
          if (DeviceTransfer* unmarked = wait_for_sources_locked(pieces, first_step, waits)) {
            unmarked->waiters.push_back(&waiter);
            return false;
          }
          auto created = std::make_unique<DeviceTransfer>(static_cast<TransferOwner&>(*this), storage_, device,
                                                          std::move(pieces), std::move(waits));
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

DeviceTransfer* MemoryCoherence::wait_for_sources_locked(const std::vector<DeviceTransfer::Piece>& pieces,
                                                         const backend::Stream& first_step,
                                                         std::vector<std::shared_ptr<backend::StreamPoint>>& waits) {
  for (const DeviceTransfer::Piece& piece : pieces) {
    for (DeviceTransfer* arriving : arrivals_) {
      if (arriving->destination() != piece.source || !arriving->handed_over ||
          !arriving->overlaps(piece.begin, piece.end)) {
        continue;
      }
      std::shared_ptr<backend::StreamPoint> point;
      bool marked = false;
      try {
        marked = arriving->handed_over->mark(first_step, point);
      } catch (...) {
      }
      if (!marked) return arriving;
      if (point) waits.push_back(std::move(point));
    }
  }
  return nullptr;
}

bool MemoryCoherence::follow_locked(DeviceTransfer& transfer, MemoryWaiter& waiter) {
  // A stale transfer's bytes are old: its waiters ask again once it has ended.
  if (!transfer.handed_over || transfer.stale) return false;
  const backend::Stream* follower = waiter.follower_of(*transfer.handed_over);
  if (!follower) return false;
  std::shared_ptr<backend::StreamPoint> point;
  try {
    if (!transfer.handed_over->mark(*follower, point)) return false;
  } catch (...) {
    return false;
  }
  transfer.followers.push_back(&waiter);
  waiter.follow(std::move(point));
  return true;
}

cl_int MemoryCoherence::hand_over(DeviceTransfer& transfer, backend::Stream& stream) {
  std::vector<MemoryWaiter*> going_on;
  {
    // Under the lock, so that the transfer cannot end (transfer_ended) before its waiters
    // have been sorted into those that follow it and those that wait for its end. No stream
    // calls finished() from inside submit().
    std::lock_guard lock(mutex_);
    try {
      stream.submit(transfer);
    } catch (...) {
      return CL_OUT_OF_RESOURCES;
    }
    transfer.handed_over = &stream;
    std::erase_if(transfer.waiters, [&](MemoryWaiter* waiter) {
      if (!follow_locked(transfer, *waiter)) return false;
      going_on.push_back(waiter);
      return true;
    });
  }
  // They acquire again, and find the bytes on their way.
  for (MemoryWaiter* waiter : going_on) waiter->memory_ready(CL_SUCCESS);
  return CL_SUCCESS;
}

void MemoryCoherence::transfer_ended(DeviceTransfer& transfer, cl_int status) {
  std::vector<MemoryWaiter*> waiters, followers;
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
    followers = std::move(transfer.followers);
  }
  delete &transfer;
  // A waiter or follower may free this object (its command finishes and drops the storage).
  for (MemoryWaiter* follower : followers) follower->memory_settled(status);
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

DeviceTransfer::Piece MemoryCoherence::pick_source(const ValidityMap::Piece& missing, unsigned destination) const {
  // A GPU that the destination copies from directly is the fastest way (a peer-to-peer copy
  // outruns the host bus); a holder with host memory needs one copy to reach any device;
  // others need two.
  auto first = [&](auto&& suits) -> std::optional<unsigned> {
    for (ValidityMap::Holders rest = missing.holders; rest; rest &= rest - 1) {
      auto device = static_cast<unsigned>(std::countr_zero(rest));
      if (suits(device)) return device;
    }
    return std::nullopt;
  };
  if (auto peer = first([&](unsigned device) { return storage_.direct_copy(device, destination); })) {
    return {missing.begin, missing.end, *peer, true};
  }
  auto host = first([&](unsigned device) { return storage_.host_memory(device); });
  return {missing.begin, missing.end, host ? *host : static_cast<unsigned>(std::countr_zero(missing.holders)), false};
}

}  // namespace cucl
