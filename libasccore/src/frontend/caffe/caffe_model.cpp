// caffe_model.cpp: the Caffe files as protobuf messages (see caffe_model.h).
#include "caffe_model.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <climits>

#include "asc/support/file.h"
#include "support/text_proto_errors.h"
#include "support/protobuf_log.h"

namespace asc::frontend::caffe_import {
namespace {

namespace pb = google::protobuf;

// Deep enough for any real net (NetParameter > LayerParameter > param > BlobShape ...).
constexpr int kMaxProtoDepth = 32;

}  // namespace

Result<caffe::NetParameter> parsePrototxt(const std::string& text, const std::string& source) {
  routeProtobufLogs();
  caffe::NetParameter net;
  pb::TextFormat::Parser parser;
  TextProtoErrors errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &net))
    return Status::error(ErrorCode::TextProtoParseFailed,
                         "Failed to parse the Caffe model {} (protobuf text format of "
                         "caffe.NetParameter): {}",
                         source, errors.describe(text));
  return net;
}

Result<caffe::NetParameter> readPrototxt(const std::string& path) {
  ASC_TRY(auto file, MappedFile::open(path));
  if (file->size() > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::ModelTooLarge, "{}: the prototxt is {} bytes, over 2 GB", path,
                         file->size());
  std::string text(reinterpret_cast<const char*>(file->data()), file->size());
  return parsePrototxt(text, path);
}

Result<caffe::NetParameter> readCaffemodel(const std::string& path) {
  routeProtobufLogs();
  ASC_TRY(auto file, MappedFile::open(path));
  if (file->size() > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::ModelTooLarge,
                         "{}: the caffemodel is {} bytes; protobuf messages are limited to 2 GB",
                         path, file->size());
  caffe::NetParameter net;
  pb::io::CodedInputStream in(file->data(), static_cast<int>(file->size()));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(kMaxProtoDepth);
  if (!net.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    return Status::error(ErrorCode::ModelParseFailed,
                         "{}: not a valid caffemodel (protobuf parse of caffe.NetParameter "
                         "failed); give the binary weights file of the net with --weight, not "
                         "truncated",
                         path);
  return net;
}

std::string v1TypeName(caffe::V1LayerParameter::LayerType t) {
  using V1 = caffe::V1LayerParameter;
  switch (t) {
    case V1::ABSVAL:
      return "AbsVal";
    case V1::ACCURACY:
      return "Accuracy";
    case V1::ARGMAX:
      return "ArgMax";
    case V1::BNLL:
      return "BNLL";
    case V1::CONCAT:
      return "Concat";
    case V1::CONTRASTIVE_LOSS:
      return "ContrastiveLoss";
    case V1::CONVOLUTION:
      return "Convolution";
    case V1::DATA:
      return "Data";
    case V1::DECONVOLUTION:
      return "Deconvolution";
    case V1::DROPOUT:
      return "Dropout";
    case V1::DUMMY_DATA:
      return "DummyData";
    case V1::EUCLIDEAN_LOSS:
      return "EuclideanLoss";
    case V1::ELTWISE:
      return "Eltwise";
    case V1::EXP:
      return "Exp";
    case V1::FLATTEN:
      return "Flatten";
    case V1::HDF5_DATA:
      return "HDF5Data";
    case V1::HDF5_OUTPUT:
      return "HDF5Output";
    case V1::HINGE_LOSS:
      return "HingeLoss";
    case V1::IM2COL:
      return "Im2col";
    case V1::IMAGE_DATA:
      return "ImageData";
    case V1::INFOGAIN_LOSS:
      return "InfogainLoss";
    case V1::INNER_PRODUCT:
      return "InnerProduct";
    case V1::LRN:
      return "LRN";
    case V1::MEMORY_DATA:
      return "MemoryData";
    case V1::MULTINOMIAL_LOGISTIC_LOSS:
      return "MultinomialLogisticLoss";
    case V1::MVN:
      return "MVN";
    case V1::POOLING:
      return "Pooling";
    case V1::POWER:
      return "Power";
    case V1::RELU:
      return "ReLU";
    case V1::SIGMOID:
      return "Sigmoid";
    case V1::SIGMOID_CROSS_ENTROPY_LOSS:
      return "SigmoidCrossEntropyLoss";
    case V1::SILENCE:
      return "Silence";
    case V1::SOFTMAX:
      return "Softmax";
    case V1::SOFTMAX_LOSS:
      return "SoftmaxWithLoss";
    case V1::SPLIT:
      return "Split";
    case V1::SLICE:
      return "Slice";
    case V1::TANH:
      return "TanH";
    case V1::WINDOW_DATA:
      return "WindowData";
    case V1::THRESHOLD:
      return "Threshold";
    default:
      return "";
  }
}

void upgradeV1(caffe::NetParameter& net) {
  if (net.layers_size() == 0) return;
  pb::RepeatedPtrField<caffe::LayerParameter> current;
  current.Swap(net.mutable_layer());
  for (const auto& v1 : net.layers()) {
    caffe::LayerParameter* l = net.add_layer();
    l->set_name(v1.name());
    l->set_type(v1.has_type() ? v1TypeName(v1.type()) : "");
    if (l->type().empty() && v1.has_type()) l->set_type(fmt::format("V1 type {}", v1.type()));
    *l->mutable_bottom() = v1.bottom();
    *l->mutable_top() = v1.top();
    *l->mutable_blobs() = v1.blobs();
    *l->mutable_include() = v1.include();
    *l->mutable_exclude() = v1.exclude();
    if (v1.has_argmax_param()) *l->mutable_argmax_param() = v1.argmax_param();
    if (v1.has_concat_param()) *l->mutable_concat_param() = v1.concat_param();
    if (v1.has_convolution_param()) *l->mutable_convolution_param() = v1.convolution_param();
    if (v1.has_dropout_param()) *l->mutable_dropout_param() = v1.dropout_param();
    if (v1.has_eltwise_param()) *l->mutable_eltwise_param() = v1.eltwise_param();
    if (v1.has_exp_param()) *l->mutable_exp_param() = v1.exp_param();
    if (v1.has_inner_product_param()) *l->mutable_inner_product_param() = v1.inner_product_param();
    if (v1.has_lrn_param()) *l->mutable_lrn_param() = v1.lrn_param();
    if (v1.has_pooling_param()) *l->mutable_pooling_param() = v1.pooling_param();
    if (v1.has_power_param()) *l->mutable_power_param() = v1.power_param();
    if (v1.has_relu_param()) *l->mutable_relu_param() = v1.relu_param();
    if (v1.has_sigmoid_param()) *l->mutable_sigmoid_param() = v1.sigmoid_param();
    if (v1.has_softmax_param()) *l->mutable_softmax_param() = v1.softmax_param();
    if (v1.has_slice_param()) *l->mutable_slice_param() = v1.slice_param();
    if (v1.has_tanh_param()) *l->mutable_tanh_param() = v1.tanh_param();
  }
  for (auto& l : current) *net.add_layer() = std::move(l);
  net.clear_layers();
}

bool inTestPhase(const caffe::LayerParameter& l) {
  if (l.has_phase() && l.phase() != caffe::TEST) return false;
  for (const auto& r : l.exclude())
    if (!r.has_phase() || r.phase() == caffe::TEST) return false;
  if (l.include_size() == 0) return true;
  for (const auto& r : l.include())
    if (!r.has_phase() || r.phase() == caffe::TEST) return true;
  return false;
}

}  // namespace asc::frontend::caffe_import
