#include "platform/queue/direct_command.h"

#include <string>

namespace cucl {

void DirectCommand::finished(cl_int status) {
  end_work(spec_, status);
  queue_->direct_command_done();
  delete this;  // may release the queue, and with it the stream that called this
}

void DirectCommand::abandon() {
  end_work(spec_, CL_OUT_OF_RESOURCES);
  delete this;
}

void DirectCommand::report_error(std::string_view message) { queue_->context().notify(std::string(message)); }

}  // namespace cucl
