// pass_util.h: pattern helpers shared by the pass files.
#pragma once

#include <unordered_map>
#include <vector>

#include "asc/ir/graph.h"
#include "asc/passes/pass.h"

namespace asc::passes {

/// Users of every value, recomputed per pass run.
using Users = std::unordered_map<const ir::Value*, std::vector<ir::Node*>>;

/// The single node using `v`, or nullptr when it has none, several, or is a graph output.
ir::Node* soleUser(const ir::Graph& g, const Users& users, const ir::Value* v);
/// The producing node of `v` if it has type `op`.
ir::Node* producerOf(const ir::Value* v, const char* op);
/// Whether `v` is a constant holding one value within `tol` of `want`.
bool isScalarConst(const ir::Value* v, double want, double tol = 1e-6);
/// The value of a one-element constant (NaN otherwise).
double scalarValue(const ir::Value* v);
/// The other input of a two-input node (nullptr if `v` is not one of them).
ir::Value* otherInput(const ir::Node* n, const ir::Value* v);
/// Appends `from`'s original names to `to`'s.
void inheritNames(ir::Node* to, const ir::Node* from);
/// Redirects `to`'s output 0 to the value `from` produces (the fused node takes over the
/// pattern's final output, so consumers and graph outputs need no change).
void takeOutput(ir::Node* to, ir::Node* from);

/// Whether any of `nodes` is kept by --op_blacklist (logged once per kept node and pass).
bool keepsAny(PassContext& ctx, const std::vector<const ir::Node*>& nodes);

/// The driver every pattern pass shares: for each live node (in order, over a snapshot, so new
/// nodes are not visited), `match(g, users, node, &m)` (side-effect free) and, on a match,
/// `rewrite(g, m, ctx)`, unless a node of the match (`m.involved()`) is kept by
/// --op_blacklist. Nodes a rewrite kills have their outputs cleared and are skipped.
template <typename Match, typename MatchFn, typename RewriteFn>
Status forEachMatch(ir::Graph& g, PassContext& ctx, MatchFn match, RewriteFn rewrite) {
  const Users users = g.users();
  std::vector<ir::Node*> nodes;
  for (const auto& up : g.nodes()) nodes.push_back(up.get());
  for (ir::Node* n : nodes) {
    Match m;
    if (n->outputs.empty() || !match(g, users, *n, &m)) continue;
    if (keepsAny(ctx, m.involved())) continue;
    rewrite(g, m, ctx);
    ctx.markChanged();
  }
  return Status::ok();
}

/// Makes every user of `from` (and the graph outputs) use `to` instead.
void replaceAllUses(ir::Graph& g, const ir::Value* from, ir::Value* to);

}  // namespace asc::passes
