// ModelV2Schema() in an object of its own: only the checks of the schema files call it (the
// family reads FBS_V2 params through GraphV1Schema()), so the module leaves its bytes out.
#include "mge/schema/embedded_schemas.h"
#include "mge/schema/schema_reflection.h"

namespace graphport::mge {

const reflection::Schema& ModelV2Schema() {
  static const reflection::Schema* schema = reflection::GetSchema(ModelV2Bfbs().data());
  return *schema;
}

}  // namespace graphport::mge
