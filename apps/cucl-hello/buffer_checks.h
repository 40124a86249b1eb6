/* cucl-hello's buffer checks: write, copy (with a profiling event), fill, read back and
 * map/unmap 4 MiB buffers on one device, verifying every word. */
#pragma once

#include <CL/cl.h>

#include "check.h"

/* `queue` is an in-order queue of `context` with profiling enabled. Returns 1 if every check
 * passed; otherwise the first failure is in `failure`. Releases everything it creates. */
int run_buffer_checks(cl_context context, cl_command_queue queue, struct Failure* failure);
