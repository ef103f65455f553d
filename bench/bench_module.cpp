// The benchmarks' own WebAssembly module (target attention_bench, never shipped): the code the
// benchmarks time inside WebAssembly without the facade in between, compiled with the shipped
// module's flags. Each function runs `reps` calls in a loop so that JS, timing the whole call,
// measures the work and not the crossing; it returns a checksum so nothing is optimised away.
//   gemmShapes(set)                 the multiply shapes of "training" or "attention"
//                                   (bench/gemm_workloads.hpp): [{name, flops}]
//   gemm(set, shape, useKernels, reps)  one shape with Eigen (false) or the training kernels (true)
//   attentionDirect(name, reps)     a workload of bench/attention_workloads.hpp, the core called
//                                   directly (its cost without the facade and the binding)
//   scalingCases()                  bench/scaling_workloads.hpp's cases: [{experiment, size, widthHeld, flops, productFlops}]
//   scaling(i, reps)                case i, `reps` calls
#include "attention_workloads.hpp"
#include "gemm_workloads.hpp"
#include "products.hpp"
#include "scaling_workloads.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using emscripten::val;

// The shape set named by JS: "training" or "attention" (bench/gemm_workloads.hpp).
const std::vector<bench::GemmShape>& shapes_of(const std::string& set) {
  if (set == "training") return bench::training_gemm_shapes();
  if (set == "attention") return bench::attention_gemm_shapes();
  throw std::invalid_argument("no shape set named " + set);
}

val gemm_shapes(const std::string& set) {
  val out = val::array();
  for (const auto& shape : shapes_of(set)) {
    val s = val::object();
    s.set("name", std::string(shape.name));
    s.set("flops", shape.flops());
#ifdef __wasm_simd128__
    // What core/src/products.hpp runs for this shape in WebAssembly (training shapes: none of it).
    s.set("coreUses", shape.transposed_b && !attn::scores_use_kernel(shape.k) ? "Eigen" : "kernel");
#endif
    out.call<void>("push", s);
  }
  return out;
}

double gemm(const std::string& set, int shape, bool use_kernels, int reps) {
  static std::map<std::string, std::vector<std::unique_ptr<bench::GemmWorkload>>> made;
  auto& workloads = made[set];
  if (workloads.empty())
    for (const auto& s : shapes_of(set)) workloads.push_back(std::make_unique<bench::GemmWorkload>(s));
  bench::GemmWorkload& w = *workloads.at(std::size_t(shape));
  for (int r = 0; r < reps; ++r) use_kernels ? w.kernels() : w.eigen();
  return w.checksum();
}

double attention_direct(const std::string& name, int reps) {
  static const bench::AttentionWorkloads w;
  float (bench::AttentionWorkloads::*run)() const = name == "soft_lookup"  ? &bench::AttentionWorkloads::soft_lookup
                                                    : name == "self_12x64" ? &bench::AttentionWorkloads::self_12x64
                                                    : name == "mha_10x64"  ? &bench::AttentionWorkloads::mha_10x64
                                                                           : nullptr;
  if (!run) return std::nan("");
  double sum = 0;
  for (int r = 0; r < reps; ++r) sum += (w.*run)();
  return sum;
}

val scaling_cases() {
  val out = val::array();
  for (const auto& c : bench::scaling_cases()) {
    val s = val::object();
    s.set("experiment", c.experiment);
    s.set("size", c.size);
    s.set("widthHeld", c.width_held);
    s.set("flops", c.flops);
    s.set("productFlops", c.product_flops);
    out.call<void>("push", s);
  }
  return out;
}

double scaling(int i, int reps) {
  double sum = 0;
  for (int r = 0; r < reps; ++r) sum += bench::scaling_cases().at(std::size_t(i)).run();
  return sum;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_bench) {
  emscripten::function("gemmShapes", &gemm_shapes);
  emscripten::function("gemm", &gemm);
  emscripten::function("attentionDirect", &attention_direct);
  emscripten::function("scalingCases", &scaling_cases);
  emscripten::function("scaling", &scaling);
}
