// atc_singleop.h: atc --singleop: a JSON file of op descriptions -> one single-operator OM per
// op in the --output folder (docs/acl.md, "Single operators").
#pragma once

#include "asc/support/status.h"
#include "atc_options.h"

namespace asc::atc {

/// Compiles every op of --singleop for --soc_version and writes each to
/// `<--output>/<CANN's file name>`; nothing is written unless every op compiles.
Status buildSingleOps(const Options& o);

}  // namespace asc::atc
