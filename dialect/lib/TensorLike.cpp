//===- TensorLike.cpp - parser, printer and verifier of the tensor types --===//

#include "pld/Dialects.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace pld {

StringRef stringifyLayout(Layout layout) {
  switch (layout) {
  case Layout::ND:
    return "nd";
  case Layout::DN:
    return "dn";
  case Layout::NZ:
    return "nz";
  }
  return "nd";
}

std::optional<Layout> symbolizeLayout(StringRef text) {
  return llvm::StringSwitch<std::optional<Layout>>(text)
      .Case("nd", Layout::ND)
      .Case("dn", Layout::DN)
      .Case("nz", Layout::NZ)
      .Default(std::nullopt);
}

SmallVector<int64_t> TensorLikeInfo::packedStrides() const {
  SmallVector<int64_t> packed(shape.size(), ShapedType::kDynamic);
  int64_t running = 1;
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    packed[i] = running;
    int64_t next;
    // A dynamic dim, or a product past int64 (rejected later by the
    // verifier), leaves the outer strides unknown.
    if (ShapedType::isDynamic(shape[i]) || ShapedType::isDynamic(running) ||
        shape[i] < 0 || llvm::MulOverflow(running, shape[i], next))
      running = ShapedType::kDynamic;
    else
      running = next;
  }
  return packed;
}

bool TensorLikeInfo::stridesProvablyNotPacked() const {
  if (strides.empty())
    return false;
  SmallVector<int64_t> packed = packedStrides();
  for (auto [have, want] : llvm::zip(strides, packed))
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
        have != want)
      return true;
  return false;
}

bool TensorLikeInfo::validProvablyNarrower() const {
  for (auto [v, s] : llvm::zip(valid, shape))
    if (!ShapedType::isDynamic(v) && !ShapedType::isDynamic(s) && v < s)
      return true;
  return false;
}

std::string formatDims(ArrayRef<int64_t> dims) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(dims, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return text;
}

bool isTensorLike(Type type) {
  return isa<pl::TensorType, dist::DTensorType>(type);
}

std::optional<TensorLikeInfo> getTensorLikeInfo(Type type) {
  if (auto t = dyn_cast<pl::TensorType>(type))
    return t.getInfo();
  if (auto t = dyn_cast<dist::DTensorType>(type))
    return t.getInfo();
  return std::nullopt;
}

namespace detail {

static bool isSupportedElementType(Type type) {
  return type.isF32() || type.isF16() || type.isBF16() ||
         type.isSignlessInteger(8) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

/// `[` (int | `?`) (`,` (int | `?`))* `]`. Negative entries are rejected
/// here: one of them (INT64_MIN) would otherwise be stored as `?`.
static ParseResult parseDimList(AsmParser &parser, StringRef key,
                                SmallVectorImpl<int64_t> &out,
                                StringRef typeName) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        if (succeeded(parser.parseOptionalQuestion())) {
          out.push_back(ShapedType::kDynamic);
          return success();
        }
        SMLoc loc = parser.getCurrentLocation();
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        if (value < 0)
          return parser.emitError(loc, "'")
                 << typeName << "' parameter '" << key
                 << "' entries must be >= 0 or '?', got " << value;
        out.push_back(value);
        return success();
      });
}

void normalizeTensorLike(TensorLikeParams &p) {
  if (!p.ranked)
    return;
  if (p.valid == p.shape)
    p.valid.clear();
  // Strides equal to the packed ones are dropped when every packed stride is
  // known (`?x4` has packed strides [4, 1]); a `?` stride is never packed.
  TensorLikeInfo info{p.ranked, p.shape, p.elementType, p.layout, {}, {}};
  SmallVector<int64_t> packed = info.packedStrides();
  if (!p.strides.empty() && llvm::none_of(packed, ShapedType::isDynamic) &&
      ArrayRef<int64_t>(p.strides) == ArrayRef<int64_t>(packed))
    p.strides.clear();
}

/// How deeply tensor types may nest as element types while parsing. Each level
/// recurses through MLIR's type parser; without a bound, 10k nested
/// `!pl.tensor<...>` overflowed the stack. No legal program nests at all (an
/// element type is a scalar, checked after parsing), so the bound is loose.
static constexpr int kMaxTensorNesting = 64;

LogicalResult parseTensorLike(AsmParser &parser, TensorLikeParams &p,
                              StringRef typeName) {
  static thread_local int depth = 0;
  struct Guard {
    Guard() { ++depth; }
    ~Guard() { --depth; }
  } guard;
  if (depth > kMaxTensorNesting)
    return parser.emitError(parser.getCurrentLocation())
           << "'" << typeName << "' types nested more than " << kMaxTensorNesting
           << " deep (an element type must be a scalar)";
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalStar())) {
    p.ranked = false;
    if (parser.parseXInDimensionList())
      return failure();
  } else if (parser.parseDimensionList(p.shape, /*allowDynamic=*/true,
                                       /*withTrailingX=*/true)) {
    return failure();
  }
  if (parser.parseType(p.elementType))
    return failure();

  // Keyword parameters, each at most once and in the documented order.
  // An empty list (`valid = []`) would read as "absent" once stored, so its
  // rank is checked here, at the key.
  int lastIndex = -1;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    int index = llvm::StringSwitch<int>(key)
                    .Case("layout", 0)
                    .Case("valid", 1)
                    .Case("strides", 2)
                    .Default(-1);
    if (index < 0)
      return parser.emitError(keyLoc, "'")
             << typeName << "' parameter '" << key
             << "' is unknown (expected layout, valid or strides)";
    if (index <= lastIndex)
      return parser.emitError(keyLoc, "'")
             << typeName << "' parameter '" << key
             << "' is repeated or out of order (layout, valid, strides)";
    lastIndex = index;
    if (index == 0) {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef text;
      if (parser.parseKeyword(&text))
        return failure();
      std::optional<Layout> layout = symbolizeLayout(text);
      if (!layout)
        return parser.emitError(valueLoc, "'")
               << typeName << "' parameter 'layout' must be nd, dn or nz, got "
               << text;
      p.layout = *layout;
    } else {
      SmallVectorImpl<int64_t> &list = index == 1 ? p.valid : p.strides;
      if (parseDimList(parser, key, list, typeName))
        return failure();
      if (!p.ranked)
        return parser.emitError(keyLoc, "'")
               << typeName << "' parameter '" << key
               << "' needs a ranked shape";
      if (list.size() != p.shape.size())
        return parser.emitError(keyLoc, "'")
               << typeName << "' parameter '" << key << "' has " << list.size()
               << " entries but the shape has rank " << p.shape.size();
    }
  }
  if (parser.parseGreater())
    return failure();
  normalizeTensorLike(p);
  return success();
}

static void printDim(raw_ostream &os, int64_t dim) {
  if (ShapedType::isDynamic(dim))
    os << '?';
  else
    os << dim;
}

void printTensorLike(AsmPrinter &printer, const TensorLikeInfo &info) {
  raw_ostream &os = printer.getStream();
  os << '<';
  if (!info.ranked)
    os << "*x";
  for (int64_t dim : info.shape) {
    printDim(os, dim);
    os << 'x';
  }
  printer.printType(info.elementType);
  if (info.layout != Layout::ND)
    os << ", layout = " << stringifyLayout(info.layout);
  auto printList = [&](StringRef key, ArrayRef<int64_t> list) {
    if (list.empty())
      return;
    os << ", " << key << " = [";
    llvm::interleaveComma(list, os, [&](int64_t d) { printDim(os, d); });
    os << ']';
  };
  printList("valid", info.valid);
  printList("strides", info.strides);
  os << '>';
}

LogicalResult verifyTensorLike(function_ref<InFlightDiagnostic()> emitError,
                               const TensorLikeInfo &info, StringRef typeName) {
  // Every message starts with its subject, the type (docs/diagnostics.md).
  auto emit = [&]() -> InFlightDiagnostic {
    InFlightDiagnostic diag = emitError();
    diag << "'" << typeName << "' ";
    return diag;
  };
  if (!isSupportedElementType(info.elementType))
    return emit() << "element type must be f32, f16, bf16, i8, i32 or "
                          "i64, got "
                       << info.elementType;
  if (!info.ranked && !info.shape.empty())
    return emit() << "an unranked type has no shape";
  int64_t elements = 1;
  for (int64_t dim : info.shape) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (dim < 0)
      return emit() << "shape dimensions must be >= 0 or '?', got "
                         << dim;
    if (llvm::MulOverflow(elements, dim, elements))
      return emit() << "shape has more elements than fit in int64";
  }
  auto checkList = [&](StringRef key, ArrayRef<int64_t> list) -> LogicalResult {
    if (list.empty())
      return success();
    if (!info.ranked)
      return emit() << "parameter '" << key << "' needs a ranked shape";
    if (list.size() != info.shape.size())
      return emit() << "parameter '" << key << "' has " << list.size()
                         << " entries but the shape has rank "
                         << info.shape.size();
    for (int64_t v : list)
      if (!ShapedType::isDynamic(v) && v < 0)
        return emit() << "parameter '" << key
                      << "' entries must be >= 0 or '?', got "
                           << v;
    return success();
  };
  if (failed(checkList("valid", info.valid)) ||
      failed(checkList("strides", info.strides)))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(info.valid, info.shape))) {
    auto [v, s] = pair;
    if (!ShapedType::isDynamic(v) && !ShapedType::isDynamic(s) && v > s)
      return emit() << "parameter 'valid' may not exceed the shape: dimension "
                    << i
                         << " has valid " << v << " > " << s;
  }
  return success();
}

} // namespace detail
} // namespace pld
