// FunctionRef (base/function_ref.h): a call through it reaches the callable it was made
// from, itself rather than a copy, with the arguments and result as given.
#include <gtest/gtest.h>

#include <string>

#include "base/function_ref.h"

namespace cucl {
namespace {

int call_twice(FunctionRef<int(int)> function, int argument) { return function(argument) + function(argument); }

TEST(FunctionRef, CallsTheCallableWithTheArgumentsAndReturnsItsResult) {
  EXPECT_EQ(call_twice([](int value) { return value * 3; }, 7), 42);
  std::string seen;
  auto appender = [&](const std::string& text, char last) {
    seen += text;
    seen += last;
  };
  FunctionRef<void(const std::string&, char)> append = appender;  // must not outlive `appender`
  append("ab", 'c');
  append("d", 'e');
  EXPECT_EQ(seen, "abcde");
}

TEST(FunctionRef, ReachesTheCallableItselfNotACopy) {
  struct Counter {
    int calls = 0;
    int operator()(int value) { return value + ++calls; }
  } counter;
  EXPECT_EQ(call_twice(counter, 10), 11 + 12);
  EXPECT_EQ(counter.calls, 2);
}

}  // namespace
}  // namespace cucl
