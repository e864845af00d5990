#include "tf/meta_graph/builtin_op_defaults.h"

#include <map>

#include "proto/text_parse.h"
#include "tensorflow/schemas.h"

namespace graphport::tf {
namespace {

// The default values of the attrs of ops common in inference graphs, as TensorFlow 2.x
// registers them: strip_default_attrs works on a GraphDef-only input with no registry given.
// A test checks every row against TensorFlow's own op registry (ops.pbtxt in the corpus).
// Only defaults are here, not whole OpDefs, so this table never feeds stripped_op_list.
const BuiltinAttrDefault kDefaults[] = {
    {"Placeholder", "shape", "shape", "shape { unknown_rank: true }"},
    {"MatMul", "transpose_a", "bool", "b: false"},
    {"MatMul", "transpose_b", "bool", "b: false"},
    {"BatchMatMul", "adj_x", "bool", "b: false"},
    {"BatchMatMul", "adj_y", "bool", "b: false"},
    {"BatchMatMulV2", "adj_x", "bool", "b: false"},
    {"BatchMatMulV2", "adj_y", "bool", "b: false"},
    {"BiasAdd", "data_format", "string", "s: \"NHWC\""},
    {"Conv2D", "use_cudnn_on_gpu", "bool", "b: true"},
    {"Conv2D", "explicit_paddings", "list(int)", "list { }"},
    {"Conv2D", "data_format", "string", "s: \"NHWC\""},
    {"Conv2D", "dilations", "list(int)", "list { i: 1 i: 1 i: 1 i: 1 }"},
    {"Conv2DBackpropInput", "use_cudnn_on_gpu", "bool", "b: true"},
    {"Conv2DBackpropInput", "explicit_paddings", "list(int)", "list { }"},
    {"Conv2DBackpropInput", "data_format", "string", "s: \"NHWC\""},
    {"Conv2DBackpropInput", "dilations", "list(int)", "list { i: 1 i: 1 i: 1 i: 1 }"},
    {"Conv2DBackpropFilter", "use_cudnn_on_gpu", "bool", "b: true"},
    {"Conv2DBackpropFilter", "explicit_paddings", "list(int)", "list { }"},
    {"Conv2DBackpropFilter", "data_format", "string", "s: \"NHWC\""},
    {"Conv2DBackpropFilter", "dilations", "list(int)", "list { i: 1 i: 1 i: 1 i: 1 }"},
    {"DepthwiseConv2dNative", "data_format", "string", "s: \"NHWC\""},
    {"DepthwiseConv2dNative", "dilations", "list(int)", "list { i: 1 i: 1 i: 1 i: 1 }"},
    {"Conv3D", "data_format", "string", "s: \"NDHWC\""},
    {"Conv3D", "dilations", "list(int)", "list { i: 1 i: 1 i: 1 i: 1 i: 1 }"},
    {"MaxPool", "T", "type", "type: DT_FLOAT"},
    {"MaxPool", "data_format", "string", "s: \"NHWC\""},
    {"AvgPool", "data_format", "string", "s: \"NHWC\""},
    {"MaxPoolV2", "T", "type", "type: DT_FLOAT"},
    {"MaxPoolV2", "data_format", "string", "s: \"NHWC\""},
    {"FusedBatchNorm", "epsilon", "float", "f: 0.0001"},
    {"FusedBatchNorm", "data_format", "string", "s: \"NHWC\""},
    {"FusedBatchNorm", "is_training", "bool", "b: true"},
    {"FusedBatchNormV3", "epsilon", "float", "f: 0.0001"},
    {"FusedBatchNormV3", "data_format", "string", "s: \"NHWC\""},
    {"FusedBatchNormV3", "is_training", "bool", "b: true"},
    {"LeakyRelu", "alpha", "float", "f: 0.2"},
    {"LeakyRelu", "T", "type", "type: DT_FLOAT"},
    {"Mean", "keep_dims", "bool", "b: false"},
    {"Mean", "Tidx", "type", "type: DT_INT32"},
    {"Sum", "keep_dims", "bool", "b: false"},
    {"Sum", "Tidx", "type", "type: DT_INT32"},
    {"Max", "keep_dims", "bool", "b: false"},
    {"Max", "Tidx", "type", "type: DT_INT32"},
    {"Min", "keep_dims", "bool", "b: false"},
    {"Min", "Tidx", "type", "type: DT_INT32"},
    {"Prod", "keep_dims", "bool", "b: false"},
    {"Prod", "Tidx", "type", "type: DT_INT32"},
    {"ArgMax", "Tidx", "type", "type: DT_INT32"},
    {"ArgMax", "output_type", "type", "type: DT_INT64"},
    {"ArgMin", "Tidx", "type", "type: DT_INT32"},
    {"ArgMin", "output_type", "type", "type: DT_INT64"},
    {"Cumsum", "exclusive", "bool", "b: false"},
    {"Cumsum", "reverse", "bool", "b: false"},
    {"Cumsum", "Tidx", "type", "type: DT_INT32"},
    {"Reshape", "Tshape", "type", "type: DT_INT32"},
    {"Squeeze", "squeeze_dims", "list(int)", "list { }"},
    {"ExpandDims", "Tdim", "type", "type: DT_INT32"},
    {"ConcatV2", "Tidx", "type", "type: DT_INT32"},
    {"Pack", "axis", "int", "i: 0"},
    {"Unpack", "axis", "int", "i: 0"},
    {"SplitV", "Tlen", "type", "type: DT_INT64"},
    {"Transpose", "Tperm", "type", "type: DT_INT32"},
    {"StridedSlice", "begin_mask", "int", "i: 0"},
    {"StridedSlice", "end_mask", "int", "i: 0"},
    {"StridedSlice", "ellipsis_mask", "int", "i: 0"},
    {"StridedSlice", "new_axis_mask", "int", "i: 0"},
    {"StridedSlice", "shrink_axis_mask", "int", "i: 0"},
    {"Pad", "Tpaddings", "type", "type: DT_INT32"},
    {"PadV2", "Tpaddings", "type", "type: DT_INT32"},
    {"MirrorPad", "Tpaddings", "type", "type: DT_INT32"},
    {"Tile", "Tmultiples", "type", "type: DT_INT32"},
    {"BroadcastTo", "Tidx", "type", "type: DT_INT32"},
    {"Shape", "out_type", "type", "type: DT_INT32"},
    {"Size", "out_type", "type", "type: DT_INT32"},
    {"Cast", "Truncate", "bool", "b: false"},
    {"Fill", "index_type", "type", "type: DT_INT32"},
    {"Range", "Tidx", "type", "type: DT_INT32"},
    {"OneHot", "axis", "int", "i: -1"},
    {"OneHot", "TI", "type", "type: DT_INT64"},
    {"Gather", "validate_indices", "bool", "b: true"},
    {"GatherV2", "batch_dims", "int", "i: 0"},
    {"ResourceGather", "batch_dims", "int", "i: 0"},
    {"ResourceGather", "validate_indices", "bool", "b: true"},
    {"Where", "T", "type", "type: DT_BOOL"},
    {"Unique", "out_idx", "type", "type: DT_INT32"},
    {"TopKV2", "sorted", "bool", "b: true"},
    {"ResizeBilinear", "align_corners", "bool", "b: false"},
    {"ResizeBilinear", "half_pixel_centers", "bool", "b: false"},
    {"ResizeNearestNeighbor", "align_corners", "bool", "b: false"},
    {"ResizeNearestNeighbor", "half_pixel_centers", "bool", "b: false"},
    {"CropAndResize", "method", "string", "s: \"bilinear\""},
    {"CropAndResize", "extrapolation_value", "float", "f: 0"},
    {"NonMaxSuppressionV3", "T", "type", "type: DT_FLOAT"},
    {"NonMaxSuppressionV3", "T_threshold", "type", "type: DT_FLOAT"},
    {"NonMaxSuppressionV5", "T", "type", "type: DT_FLOAT"},
    {"NonMaxSuppressionV5", "pad_to_max_output_size", "bool", "b: false"},
    {"DepthToSpace", "data_format", "string", "s: \"NHWC\""},
    {"SpaceToDepth", "data_format", "string", "s: \"NHWC\""},
    {"Equal", "incompatible_shape_error", "bool", "b: true"},
    {"NotEqual", "incompatible_shape_error", "bool", "b: true"},
    {"Enter", "is_constant", "bool", "b: false"},
    {"Enter", "parallel_iterations", "int", "i: 10"},
    {"VariableV2", "container", "string", "s: \"\""},
    {"VariableV2", "shared_name", "string", "s: \"\""},
    {"VarHandleOp", "container", "string", "s: \"\""},
    {"VarHandleOp", "shared_name", "string", "s: \"\""},
    {"Assign", "validate_shape", "bool", "b: true"},
    {"Assign", "use_locking", "bool", "b: true"},
    {"MergeV2Checkpoints", "delete_old_dirs", "bool", "b: true"},
    {"StringJoin", "separator", "string", "s: \"\""},
    {"PartitionedCall", "config", "string", "s: \"\""},
    {"PartitionedCall", "config_proto", "string", "s: \"\""},
    {"PartitionedCall", "executor_type", "string", "s: \"\""},
    {"StatefulPartitionedCall", "config", "string", "s: \"\""},
    {"StatefulPartitionedCall", "config_proto", "string", "s: \"\""},
    {"StatefulPartitionedCall", "executor_type", "string", "s: \"\""},
    {"Complex", "T", "type", "type: DT_FLOAT"},
    {"Complex", "Tout", "type", "type: DT_COMPLEX64"},
};

}  // namespace

const std::vector<BuiltinAttrDefault>& BuiltinAttrDefaults() {
  static const std::vector<BuiltinAttrDefault> rows(std::begin(kDefaults), std::end(kDefaults));
  return rows;
}

const tensorflow::OpList& BuiltinDefaultsOpList() {
  static const tensorflow::OpList* list = [] {
    auto* ops = new tensorflow::OpList();
    std::map<std::string, tensorflow::OpDef*> by_name;
    for (const auto& row : kDefaults) {
      tensorflow::OpDef*& op = by_name[row.op];
      if (op == nullptr) {
        op = ops->add_op();
        op->set_name(row.op);
      }
      tensorflow::OpDef::AttrDef* attr = op->add_attr();
      attr->set_name(row.attr);
      attr->set_type(row.type);
      // The rows are compile-time constants checked by a test, so parsing cannot fail here.
      proto::TextParseError error;
      proto::ParseTextMessage(row.default_value, proto::SchemaOf<tensorflow::AttrValue>(),
                              attr->mutable_default_value(), &error);
    }
    return ops;
  }();
  return *list;
}

}  // namespace graphport::tf
