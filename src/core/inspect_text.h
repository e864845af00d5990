// An optional side of FamilyModel: a model whose inspect object is large (one entry per
// operator) writes it as JSON text directly, instead of building the DOM that Inspect()
// returns and dumping it. Model::InspectJson() asks for it when the model has it.
#ifndef GRAPHPORT_CORE_INSPECT_TEXT_H_
#define GRAPHPORT_CORE_INSPECT_TEXT_H_

#include <string>

namespace graphport {

class InspectsAsText {
 public:
  virtual ~InspectsAsText() = default;
  // Exactly Inspect().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).
  virtual std::string InspectText() const = 0;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_INSPECT_TEXT_H_
