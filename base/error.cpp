#include "base/error.h"

namespace cucl {

const char* Error::what() const noexcept { return "OpenCL error"; }

}  // namespace cucl
