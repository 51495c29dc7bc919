// ophost_helpers.h: what the ophost unit tests share.
#pragma once

#include "asc/ophost/ophost.h"
#include "asc/ops/plugin.h"

namespace ophost_test {

/// Registers what the test added with addPendingOpDef / addKernelEntry, as a plugin's load does.
inline asc::Status load(const char* origin) {
  asc::ops::PluginRegistrar r(origin);
  asc::ophost::registerPending(r);
  return r.status();
}

}  // namespace ophost_test
