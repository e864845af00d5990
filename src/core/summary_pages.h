// An optional side of FamilyModel: a summary whose list is long (MegEngine's operators: one
// entry per operator, 80 MB of JSON for 100k of them) holds only its first page, and the rest
// is read a page at a time, filtered in the core, so inspect() stays small at any size.
#ifndef GRAPHPORT_CORE_SUMMARY_PAGES_H_
#define GRAPHPORT_CORE_SUMMARY_PAGES_H_

#include <cstddef>
#include <string>

namespace graphport {

struct SummaryPageRequest {
  std::string list;    // the summary's list, by its field name ("operators")
  size_t offset = 0;   // the first item listed, counted among the matching ones
  size_t limit = 100;  // the most items listed
  std::string filter;  // lower case; "" lists every item
};

class PagesSummaryLists {
 public:
  virtual ~PagesSummaryLists() = default;
  // {list, offset, total, matched, items} as JSON text: `items` are the matching items from
  // `offset` on, at most `limit`, in the summary's order; `total` counts all, `matched` those
  // the filter keeps. Throws kInvalidOption for a list the model does not page.
  virtual std::string SummaryPageJson(const SummaryPageRequest& request) const = 0;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_SUMMARY_PAGES_H_
