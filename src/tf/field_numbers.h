// The field numbers of TensorFlow's messages that the readers and writers of a graph's bytes
// use (wire_graph.cc, wire_tensor.cc, wire_nested.cc, meta_graph/wire_node_edit.cc, TF.js's
// const_header.cc, ...): one place, taken from the classes protoc generates from the .proto
// files, so that none is written by hand twice.
#ifndef GRAPHPORT_TF_FIELD_NUMBERS_H_
#define GRAPHPORT_TF_FIELD_NUMBERS_H_

#include "tensorflow/attr_value.pb.h"
#include "tensorflow/function.pb.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/node_def.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/tensor.pb.h"
#include "tensorflow/tensor_shape.pb.h"

namespace graphport::tf::fields {

// A map entry on the wire (NodeDef.attr's, say): key 1, value 2, as protobuf encodes maps.
inline constexpr int kMapKey = 1;
inline constexpr int kMapValue = 2;

// SavedModel.meta_graphs, MetaGraphDef.graph_def.
inline constexpr int kSavedModelMetaGraphs = tensorflow::SavedModel::kMetaGraphsFieldNumber;
inline constexpr int kMetaGraphGraphDef = tensorflow::MetaGraphDef::kGraphDefFieldNumber;

// GraphDef, FunctionDefLibrary, FunctionDef, OpDef.
inline constexpr int kGraphNode = tensorflow::GraphDef::kNodeFieldNumber;
inline constexpr int kGraphLibrary = tensorflow::GraphDef::kLibraryFieldNumber;
inline constexpr int kLibraryFunction = tensorflow::FunctionDefLibrary::kFunctionFieldNumber;
inline constexpr int kFunctionSignature = tensorflow::FunctionDef::kSignatureFieldNumber;
inline constexpr int kFunctionNodeDef = tensorflow::FunctionDef::kNodeDefFieldNumber;
inline constexpr int kOpDefName = tensorflow::OpDef::kNameFieldNumber;

// NodeDef.
inline constexpr int kNodeName = tensorflow::NodeDef::kNameFieldNumber;
inline constexpr int kNodeOp = tensorflow::NodeDef::kOpFieldNumber;
inline constexpr int kNodeInput = tensorflow::NodeDef::kInputFieldNumber;
inline constexpr int kNodeDevice = tensorflow::NodeDef::kDeviceFieldNumber;
inline constexpr int kNodeAttr = tensorflow::NodeDef::kAttrFieldNumber;

// AttrValue and its ListValue.
inline constexpr int kAttrList = tensorflow::AttrValue::kListFieldNumber;
inline constexpr int kAttrTensor = tensorflow::AttrValue::kTensorFieldNumber;
inline constexpr int kAttrFunc = tensorflow::AttrValue::kFuncFieldNumber;
inline constexpr int kListFunc = tensorflow::AttrValue_ListValue::kFuncFieldNumber;

// TensorProto, TensorShapeProto and its Dim.
inline constexpr int kTensorDtype = tensorflow::TensorProto::kDtypeFieldNumber;
inline constexpr int kTensorShape = tensorflow::TensorProto::kTensorShapeFieldNumber;
inline constexpr int kTensorContent = tensorflow::TensorProto::kTensorContentFieldNumber;
inline constexpr int kTensorStringVal = tensorflow::TensorProto::kStringValFieldNumber;
inline constexpr int kTensorFloat8Val = tensorflow::TensorProto::kFloat8ValFieldNumber;
inline constexpr int kShapeDim = tensorflow::TensorShapeProto::kDimFieldNumber;
inline constexpr int kShapeUnknownRank = tensorflow::TensorShapeProto::kUnknownRankFieldNumber;
inline constexpr int kDimSize = tensorflow::TensorShapeProto_Dim::kSizeFieldNumber;

}  // namespace graphport::tf::fields

#endif  // GRAPHPORT_TF_FIELD_NUMBERS_H_
