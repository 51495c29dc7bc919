// threads_test.cpp: the kernel thread count's policy (threads.cpp): a thread per 4 MFLOP of a
// run, at most the cores no other process keeps busy, at least one; and the busy count sees
// another process's busy loop.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/session_impl.h"

using namespace asc::runtime;

TEST_CASE("threads follow the work and the free cores", "[runtime][threads]") {
  CHECK(threadsForWork(40'000, 2, 0) == 1);  // the digits MLP: one thread
  CHECK(threadsForWork(4'000'000, 8, 0) == 1);
  CHECK(threadsForWork(12'000'000, 8, 0) == 3);
  CHECK(threadsForWork(4'000'000'000, 2, 0) == 2);  // ResNet-50: every core
  CHECK(threadsForWork(4'000'000'000, 2, 1) == 1);  // one core busy elsewhere
  CHECK(threadsForWork(4'000'000'000, 8, 3) == 5);
  CHECK(threadsForWork(4'000'000'000, 2, 7) == 1);   // never below one
  CHECK(threadsForWork(4'000'000'000, 2, -1) == 2);  // unknown load counts as none
  CHECK(resolveThreads(3, 4'000'000'000) == 3);      // a count given wins
}

TEST_CASE("a busy process elsewhere counts, this process's own threads do not",
          "[runtime][threads]") {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    for (volatile unsigned long i = 0;; i = i + 1) {
    }
  }
  usleep(20000);  // let it reach the run queue
  const int busy = busyElsewhere();
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  CHECK(busy >= 1);
}
