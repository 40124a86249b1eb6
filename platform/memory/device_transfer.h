// One transfer that makes ranges of a storage current on one device, copying each from a
// device that holds it. Between GPUs that reach each other's memory a range is one op::Copy
// on the destination's transfer stream (a peer-to-peer copy). Otherwise it goes through
// host memory in two steps, each on a transfer stream: op::Map on the source's stream
// copies it to a host pointer, then op::Unmap on the destination's stream copies it from
// there. The pointer is the map pointer of the side
// with host memory, which is that memory itself, so that side's step is left out (the host
// device and a GPU: one copy); between two other devices it is the destination's
// (page-locked staging on a GPU), in chunks of at most kStagingLimit bytes. Ranges and
// chunks go one after another. The first step waits on the device for the stream points
// it is given (the work of other streams that the command needing the bytes follows on the
// device, which may still be writing them).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backends/backend.h"

namespace cucl {

class CoherentStorage;
class DeviceTransfer;
class MemoryWaiter;

// Hears, as the last thing a transfer does, that it has ended; from then on it owns the
// transfer (MemoryCoherence records what it made current and deletes it).
class TransferOwner {
 public:
  virtual void transfer_ended(DeviceTransfer& transfer, cl_int status) = 0;
  // Submits the transfer's last step (the one on the destination's stream) to `stream`;
  // then commands waiting for the transfer may follow that step on the device. Returns the
  // status of the submission (negative: the step was refused and never runs).
  virtual cl_int hand_over(DeviceTransfer& transfer, backend::Stream& stream) = 0;

 protected:
  ~TransferOwner() = default;
};

class DeviceTransfer final : public backend::Work {
 public:
  static constexpr size_t kStagingLimit = size_t{64} << 20;

  struct Piece {
    size_t begin, end;
    unsigned source;
    bool direct;  // the destination copies it from the source in one step (CoherentStorage::direct_copy)
  };

  DeviceTransfer(TransferOwner& owner, CoherentStorage& storage, unsigned destination,
                 std::vector<Piece> pieces, std::vector<std::shared_ptr<backend::StreamPoint>> waits)
      : owner_(owner),
        storage_(storage),
        destination_(destination),
        pieces_(std::move(pieces)),
        waits_(std::move(waits)) {}

  // The device whose transfer stream runs the first step of copying `piece`: the destination
  // where it copies directly or the source has host memory, else the source (its map).
  static unsigned first_step_device(const CoherentStorage& storage, const Piece& piece, unsigned destination);

  unsigned destination() const { return destination_; }
  const std::vector<Piece>& pieces() const { return pieces_; }
  bool overlaps(size_t begin, size_t end) const;

  // Submits the first step. When the last one ends (or one fails) the transfer reports to
  // its owner's transfer_ended, which deletes it; that may happen before this returns.
  void start();

  const backend::Operation& operation() const override { return operation_; }
  void started() override {}
  void finished(cl_int status) override;
  std::span<const std::shared_ptr<backend::StreamPoint>> device_waits() const override {
    if (first_step_) return waits_;
    return {};
  }

  // Guarded by the owner's lock.
  std::vector<MemoryWaiter*> waiters;    // hear its end
  std::vector<MemoryWaiter*> followers;  // follow its last step on the device (MemoryWaiter::follow)
  backend::Stream* handed_over = nullptr;  // the stream its last step was submitted to
  bool stale = false;  // a write overlapped it while in flight: what it copies is old

 private:
  // Begins the chunk of pieces_[piece_] at cursor_.
  void begin_chunk();
  void begin_unmap();
  void chunk_done();
  // The step being submitted is the last: it copies the end of the last piece into the
  // destination.
  bool last_step() const { return unmapping_ && chunk_end_ == pieces_.back().end && piece_ + 1 == pieces_.size(); }
  // Submits operation_ to `device`'s transfer stream, or ends the transfer if that fails.
  void submit_to(unsigned device);
  void release_staging();
  void end(cl_int status);

  TransferOwner& owner_;
  CoherentStorage& storage_;
  unsigned destination_;
  std::vector<Piece> pieces_;
  std::vector<std::shared_ptr<backend::StreamPoint>> waits_;
  bool first_step_ = true;  // the step on its way is the first (it waits for waits_)
  size_t piece_ = 0;
  size_t cursor_ = 0, chunk_end_ = 0;  // the chunk in flight
  bool unmapping_ = false;             // it is in its second step (or its one direct copy)
  backend::Memory* source_memory_ = nullptr;
  backend::Memory* destination_memory_ = nullptr;
  bool staging_is_source_ = false;  // staging_ is the source's map pointer, else the destination's
  void* staging_ = nullptr;
  backend::Operation operation_;
};

}  // namespace cucl
