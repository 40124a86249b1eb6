/* How cucl-hello's checks report a failure: the first one on a device is kept, named by the
 * step it happened in, for that device's summary line. */
#pragma once

#include <CL/cl.h>

struct Failure {
  const char* step;  /* what was being done, e.g. "buffers" or "SPIR-V kernel" */
  char what[512];    /* the first failure, empty while everything passed */
  char detail[2048]; /* more about it (a build log), printed below the summary line */
};

/* Returns 1 when `status` is CL_SUCCESS; otherwise records "<call> returned <name>". */
int check_cl(struct Failure* failure, cl_int status, const char* call);

/* Records a failure described like printf does; returns 0. */
int check_fail(struct Failure* failure, const char* format, ...);
