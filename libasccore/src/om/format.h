// format.h: the byte layout of an .om file (GraphEngine "2022" layout, little-endian).
//
//  offset  size  field
//   0       4    magic            0x444F4D49 ("IMOD" on disk)
//   4       4    headsize         256
//   8       4    version          0x20000000
//  12      64    checksum[64]     asc-tools: the integrity record (checksum.h: "ASCX", XXH3 of
//                                 the header and of each partition; older files "ASCK" and a
//                                 CRC32 of every byte after the header); all zero in files
//                                 from other writers
//  76       4    length           bytes after the header (table + partitions)
//  80       1    is_encrypt       0
//  81       1    is_checksum      0 (CHECK)
//  82       1    modeltype        0
//  83       1    genmode          0 (offline)
//  84      32    name[32]         model name, NUL padded
// 116       4    ops
// 120      32    userdefineinfo[32]
// 152       4    om_ir_version
// 156       4    model_num        1
// 160      20    platform_version[20]  soc_version
// 180       1    platform_type
// 181      75    reserved         (current GE: padd[3], uint64 model_length @184,
//                                 need_check_os_cpu_info @192, is_unknow_model @193)
// 256            partition table: uint32 num, then num x {uint32 type, mem_offset, mem_size};
//                mem_offset counts from the first byte after the table.
//                The CANN 8 generation (length 0, model_length != 0): uint32 num, 4 bytes of
//                padding, then num x {uint32 type, 4 bytes padding, uint64 mem_offset,
//                uint64 mem_size} (docs/om-format.md, "Generations"). asc-tools writes the first.
//                Partitions follow back to back: MODEL_DEF (0), WEIGHTS_DATA (1), TASK_INFO (2).
// Inside WEIGHTS_DATA each tensor sits at a TensorDescriptor.data_offset chosen so that its
// absolute file offset is a multiple of 64 (so it can be used in place from a mapping).
#pragma once

#include <cstdint>

namespace asc::om {

constexpr uint32_t kMagic = 0x444F4D49;
constexpr uint32_t kHeaderSize = 256;
constexpr uint32_t kModelVersion = 0x20000000;
constexpr uint32_t kWeightAlign = 64;
constexpr uint32_t kActivationAlign = 512;
/// The record of asc-tools before 2026-12: "ASCK" and zlib's CRC32 of every byte after the
/// header (still verified when read; new files carry checksum.h's record).
constexpr char kChecksumTag[4] = {'A', 'S', 'C', 'K'};

/// Packed weights: attributes on a Const op's value TensorDescriptor naming a copy of the data
/// in WEIGHTS_DATA in the layout a CPU kernel reads (ir::Value::packed), beside the plain data
/// or, with kPackedOnlyAttr, instead of it.
constexpr const char* kPackingAttr = "_asc_packing";
constexpr const char* kPackedOffsetAttr = "_asc_packed_offset";
constexpr const char* kPackedSizeAttr = "_asc_packed_size";
/// True when WEIGHTS_DATA holds only the packed copy (a blocked layout the reader can name and
/// unpack): data_offset and weight_size then describe that copy.
constexpr const char* kPackedOnlyAttr = "_asc_packed_only";

/// A compute op's IR spelling, beside CANN's (docs/om-format.md, "Op spellings"): its IR op
/// type, and each IR attribute as kIrAttrPrefix + name (IR attributes named "_asc_..." keep their
/// name). Files without kOpTypeAttr (asc-tools before 2026-12) carry the IR's attributes under
/// their own names and the op type as the OpDef's cannType.
constexpr const char* kOpTypeAttr = "_asc_op_type";
constexpr const char* kIrAttrPrefix = "_asc_ir_";
/// On a compute op with CANN input-form parameters (OpDef::cannSpelling's const_inputs): how many
/// of its inputs are the IR's (the rest are those parameters' Const ops, which carry
/// kCannOnlyAttr and which our reader skips).
constexpr const char* kIrInputsAttr = "_asc_op_inputs";
constexpr const char* kCannOnlyAttr = "_asc_cann_only";

enum PartitionType : uint32_t {
  kModelDef = 0,
  kWeightsData = 1,
  kTaskInfo = 2,
  kTbeKernels = 3,
  kCustAicpuKernels = 4,
  kSoBins = 5,
  kModelInoutInfo = 8,
};

#pragma pack(push, 1)
struct FileHeader {
  uint32_t magic;
  uint32_t headsize;
  uint32_t version;
  uint8_t checksum[64];
  uint32_t length;
  uint8_t is_encrypt;
  uint8_t is_checksum;
  uint8_t modeltype;
  uint8_t genmode;
  char name[32];
  uint32_t ops;
  uint8_t userdefineinfo[32];
  uint32_t om_ir_version;
  uint32_t model_num;
  char platform_version[20];
  uint8_t platform_type;
  uint8_t reserved[75];
};
struct PartitionEntry {
  uint32_t type;
  uint32_t mem_offset;
  uint32_t mem_size;
};
struct WidePartitionEntry {  // the CANN 8 generation's table
  uint32_t type;
  uint32_t padding;
  uint64_t mem_offset;
  uint64_t mem_size;
};
#pragma pack(pop)
static_assert(sizeof(FileHeader) == 256, "ModelFileHeader must be 256 bytes");
/// Current GE's `uint8 is_unknow_model` @193 (1: shapes resolved at run time) is byte 12 of
/// the 2022 layout's reserved[75] (@181).
constexpr size_t kUnknownModelByte = 193 - 181;
/// Current GE's `uint64 model_length` @184: the bytes after the header when `length` is 0 (the
/// CANN 8 generation, whose partition table is WidePartitionEntry's).
constexpr size_t kModelLengthByte = 184 - 181;
static_assert(sizeof(WidePartitionEntry) == 24, "64-bit partition entries are 24 bytes");
static_assert(sizeof(PartitionEntry) == 12, "32-bit partition entries are 12 bytes");

}  // namespace asc::om
