// export_meta_graph(clear_extraneous_savers=True), on the nodes: the nodes of every saver but
// the exported one are left out (extraneous_savers.h finds them). The export keeps only the
// exported saver in the "savers" collection and leaves the excluded nodes out of the others.
#ifndef GRAPHPORT_TF_META_GRAPH_CLEAR_EXTRANEOUS_SAVERS_H_
#define GRAPHPORT_TF_META_GRAPH_CLEAR_EXTRANEOUS_SAVERS_H_

#include <set>
#include <string>

#include "tensorflow/saver.pb.h"
#include "tf/meta_graph/node_view.h"

namespace graphport::tf {

class ClearExtraneousSavers final : public NodePass {
 public:
  // `saver`: the exported SaverDef, or null (then every saver is extraneous).
  ClearExtraneousSavers(const ForEachNode& for_each_node, const tensorflow::SaverDef* saver);

  // The names of the nodes left out, as loaded.
  const std::set<std::string>& excluded() const { return excluded_; }

  bool ReadsNode() const override { return true; }
  bool Keeps(const NodeView& node) const override;
  void Edit(const NodeView& /*node*/, NodeEdit* /*edit*/) const override {}

 private:
  std::set<std::string> excluded_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_CLEAR_EXTRANEOUS_SAVERS_H_
