#include "check.h"

#include <stdarg.h>
#include <stdio.h>

#include "cl_names.h"

int check_fail(struct Failure* failure, const char* format, ...) {
  if (failure->what[0] != '\0') return 0; /* keep the first failure: later ones follow from it */
  int used = snprintf(failure->what, sizeof failure->what, "%s: ", failure->step ? failure->step : "?");
  if (used < 0 || (size_t)used >= sizeof failure->what) return 0;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(failure->what + used, sizeof failure->what - (size_t)used, format, arguments);
  va_end(arguments);
  return 0;
}

int check_cl(struct Failure* failure, cl_int status, const char* call) {
  if (status == CL_SUCCESS) return 1;
  return check_fail(failure, "%s returned %s (%d)", call, cl_error_name(status), status);
}
