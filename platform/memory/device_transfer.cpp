#include "platform/memory/device_transfer.h"

#include <algorithm>

#include "base/error.h"
#include "platform/memory/coherent_storage.h"

namespace cucl {
namespace {

// The status a failed step reports: the library's own error, else "out of resources".
template <class Body>
cl_int run_step(Body body) {
  try {
    body();
    return CL_SUCCESS;
  } catch (const Error& error) {
    return error.code();
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

}  // namespace

unsigned DeviceTransfer::first_step_device(const CoherentStorage& storage, const Piece& piece, unsigned destination) {
  return piece.direct || storage.host_memory(piece.source) ? destination : piece.source;
}

bool DeviceTransfer::overlaps(size_t begin, size_t end) const {
  for (const Piece& piece : pieces_) {
    if (piece.begin < end && begin < piece.end) return true;
  }
  return false;
}

void DeviceTransfer::start() {
  cursor_ = pieces_.front().begin;
  begin_chunk();
}

void DeviceTransfer::begin_chunk() {
  const Piece& piece = pieces_[piece_];
  cl_int status = run_step([&] {
    source_memory_ = &storage_.memory_on(piece.source);
    destination_memory_ = &storage_.memory_on(destination_);
  });
  if (status < 0) {
    end(status);
    return;
  }
  if (piece.direct) {
    chunk_end_ = piece.end;
    unmapping_ = true;  // its end ends the chunk
    operation_ = backend::op::Copy{backend::Location{source_memory_, nullptr, cursor_},
                                   backend::Location{destination_memory_, nullptr, cursor_}, chunk_end_ - cursor_};
    submit_to(destination_);
    return;
  }
  status = run_step([&] {
    staging_is_source_ = storage_.host_memory(piece.source);
    const bool through_host_memory = staging_is_source_ || storage_.host_memory(destination_);
    chunk_end_ = through_host_memory ? piece.end : std::min(piece.end, cursor_ + kStagingLimit);
    backend::Memory& owner = staging_is_source_ ? *source_memory_ : *destination_memory_;
    staging_ = owner.map_pointer(cursor_, chunk_end_ - cursor_);
  });
  if (status < 0) {
    end(status);
    return;
  }
  // Host memory maps as itself: the step on its side would copy nothing.
  if (staging_is_source_) {
    begin_unmap();
    return;
  }
  unmapping_ = false;
  operation_ = backend::op::Map{backend::Location{source_memory_, nullptr, cursor_}, staging_, chunk_end_ - cursor_,
                                true};
  submit_to(piece.source);
}

void DeviceTransfer::begin_unmap() {
  if (!staging_is_source_ && storage_.host_memory(destination_)) {
    chunk_done();
    return;
  }
  unmapping_ = true;
  operation_ = backend::op::Unmap{backend::Location{destination_memory_, nullptr, cursor_}, staging_,
                                  chunk_end_ - cursor_, true};
  submit_to(destination_);
}

void DeviceTransfer::chunk_done() {
  release_staging();
  cursor_ = chunk_end_;
  if (cursor_ == pieces_[piece_].end) {
    if (++piece_ == pieces_.size()) {
      end(CL_SUCCESS);
      return;
    }
    cursor_ = pieces_[piece_].begin;
  }
  begin_chunk();
}

void DeviceTransfer::finished(cl_int status) {
  first_step_ = false;
  if (status < 0) {
    release_staging();
    end(status);
  } else if (!unmapping_) {
    begin_unmap();
  } else {
    chunk_done();
  }
}

void DeviceTransfer::submit_to(unsigned device) {
  backend::Stream* stream = nullptr;
  cl_int status = run_step([&] { stream = &storage_.transfer_stream(device); });
  if (status >= 0) {
    // From a successful submission on the stream owns the step (it calls finished(), which
    // may end and delete the transfer at once).
    if (last_step()) {
      status = owner_.hand_over(*this, *stream);
      if (status >= 0) return;
    } else {
      try {
        stream->submit(*this);
        return;
      } catch (...) {
        status = CL_OUT_OF_RESOURCES;
      }
    }
  }
  release_staging();
  end(status);
}

void DeviceTransfer::release_staging() {
  if (!staging_) return;
  backend::Memory& owner = staging_is_source_ ? *source_memory_ : *destination_memory_;
  // A failure to give page-locked staging back leaks it, but the copy itself is done.
  run_step([&] { owner.unmap_pointer(staging_); });
  staging_ = nullptr;
}

void DeviceTransfer::end(cl_int status) { owner_.transfer_ended(*this, status); }

}  // namespace cucl
