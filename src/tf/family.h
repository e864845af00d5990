// The TensorFlow family: GraphDef, MetaGraphDef and SavedModel (one file or a whole SavedModel
// folder), binary or text, exported as tf.train.export_meta_graph does.
#ifndef GRAPHPORT_TF_FAMILY_H_
#define GRAPHPORT_TF_FAMILY_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/family.h"
#include "tf/graph_source.h"
#include "tf/tf_model.h"

namespace graphport::tf {

// What a family above TensorFlow's adds to every TensorFlow model's exports (TensorFlow.js:
// `to: 'tfjs'`): an export schema that extends TfExportSchema(), and the export that reads it.
// tf cannot depend on that family, so the registry (api/families.cc) joins the two.
struct TfExportExtension {
  const OptionSchema* schema = nullptr;
  std::function<nlohmann::json(TfModel*, const OptionValues&, OutputSet*)> export_model;
  // The values of `to` (besides saved-model) whose output is a folder.
  std::vector<std::string> folder_kinds;
  // What its exports give: the type of their info (one more member of TensorflowExportInfo)
  // and the types that names (core/result_schema.h).
  std::string export_info;
  std::vector<ResultType> result_types;
};

// The TensorFlow family, with no extension.
const Family& TensorflowFamily();
// The TensorFlow family whose exports `extension` extends; it must outlive the family.
std::unique_ptr<Family> MakeTensorflowFamily(const TfExportExtension* extension);

// A loaded TensorFlow model as the seam sees it. Other readers that produce a TensorFlow graph
// (TensorFlow.js) wrap one and add to its summary.
class TfFamilyModel : public FamilyModel, public HasGraph {
 public:
  // `inputs` stays owned by the caller and must outlive the model when `passthrough` names
  // files of it: the files of a SavedModel folder besides saved_model.pb (variables/, assets/,
  // assets.extra/, fingerprint.pb), copied byte for byte into a SavedModel export, under their
  // names relative to the folder.
  TfFamilyModel(std::unique_ptr<TfModel> model, InputSet* inputs, std::string primary,
                std::string folder, std::vector<std::string> passthrough,
                const TfExportExtension* extension = nullptr);

  nlohmann::json Inspect() const override;
  nlohmann::json Export(const OptionValues& options, OutputSet* out) override;
  bool WritesFolder(const OptionValues& options) const override;
  GraphSource* Graph() override;
  PreviewRename PreviewRenaming(const OptionValues& options) const override;
  std::vector<PreviewRule> PreviewRules(const OptionValues& options,
                                        const nlohmann::json& info) const override;

  // The summary's fields after the header (tf/results.h: kTfGraphSummaryType): the graph's
  // (tf::InspectGraph), and what the folder around it holds (savedModelFiles, variables...).
  nlohmann::json GraphSummary() const;
  // The header's producerText and counts as TensorFlow tells them, from GraphSummary().
  static std::string ProducerText(const nlohmann::json& graph_summary);
  static nlohmann::json GraphCounts(const nlohmann::json& graph_summary);

  const TfModel& model() const { return *model_; }
  TfModel* mutable_model() { return model_.get(); }
  void set_had_fingerprint(bool had) { had_fingerprint_ = had; }

 private:
  void CopyPassthrough(OutputSet* out, nlohmann::json* info) const;
  void MarkWhatFreezeFixes(const OptionValues& values, OutputSet* out, nlohmann::json* check);

  std::unique_ptr<TfModel> model_;
  InputSet* inputs_;
  std::string primary_;
  std::string folder_;  // the SavedModel folder inside the input set ("" at its root)
  std::vector<std::string> passthrough_;
  bool had_fingerprint_ = false;  // the folder had a fingerprint.pb, which exports leave out
  const TfExportExtension* extension_;
  std::unique_ptr<TfGraphSource> graph_;  // made when first asked for
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FAMILY_H_
