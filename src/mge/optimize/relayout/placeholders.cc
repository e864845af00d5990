#include "mge/optimize/relayout/placeholders.h"

#include <string>
#include <utility>

#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {

VarRef RelayoutPlaceholders::Make(OprMaker* maker, VarRef x, Key key) {
  const uint64_t op_id = g_->next_id();
  g_->SpendIds(1);
  const VarRef relaid = EmitReformat(maker, x, key.reformat, key.pack);
  auto found = made_.find({x, key.reformat, key.pack});
  if (found != made_.end()) {
    g_->SpendIds(1);
    return found->second;
  }
  OptNode n;
  Operator op;
  // Shown, as an input of what reads it, without its parenthesised input list.
  op.name = "RelayoutPlaceholder[" + std::to_string(op_id) + "]";
  n.set_op(std::move(op));
  n.inputs = {x};
  n.outputs.resize(1);
  const VarRef v{g_->AddNumbered(std::move(n), op_id), 0};
  OptVar& out = g_->mutable_var(v);
  out.shape = g_->var(relaid).shape;
  out.dtype = g_->var(x).dtype;
  OptNode& made = g_->mutable_node(v.node);
  made.value_const = false;  // no value inference: nothing folds through a placeholder
  made.shape_const = g_->node(relaid.node).shape_const;
  made_[{x, key.reformat, key.pack}] = v;
  keys_[v.node] = key;
  return v;
}

std::optional<RelayoutPlaceholders::Key> RelayoutPlaceholders::KeyOf(uint32_t node) const {
  auto it = keys_.find(node);
  if (it == keys_.end()) return std::nullopt;
  return it->second;
}

void RelayoutPlaceholders::Translate() {
  Rewriter rt(g_);
  rt.ForEachOperator([&](uint32_t node) {
    const std::optional<Key> key = KeyOf(node);
    if (!key) return rt.AutoReplaceOutputs(node);
    const VarRef in = rt.Get(g_->node(node).inputs[0]);
    rt.Replace({node, 0}, EmitReformat(&rt.maker(), in, key->reformat, key->pack));
  });
  rt.Apply();
}

}  // namespace graphport::mge::opt
