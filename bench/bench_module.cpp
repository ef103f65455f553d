// The benchmarks' own WebAssembly module (target attention_bench, never shipped): the code the
// benchmarks time inside WebAssembly without the facade in between, compiled with the shipped
// module's flags. Each function runs `reps` calls in a loop so that JS, timing the whole call,
// measures the work and not the crossing; it returns a checksum so nothing is optimised away.
//   gemmShapes()                    the training's multiply shapes (bench/gemm_workloads.hpp)
//   gemm(shape, useKernels, reps)   one shape with Eigen (false) or the training kernels (true)
#include "gemm_workloads.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <vector>

namespace {

using emscripten::val;

std::vector<std::unique_ptr<bench::GemmWorkload>>& gemm_workloads() {
  static std::vector<std::unique_ptr<bench::GemmWorkload>> all = [] {
    std::vector<std::unique_ptr<bench::GemmWorkload>> made;
    for (const auto& shape : bench::training_gemm_shapes()) made.push_back(std::make_unique<bench::GemmWorkload>(shape));
    return made;
  }();
  return all;
}

val gemm_shapes() {
  val out = val::array();
  for (const auto& shape : bench::training_gemm_shapes()) {
    val s = val::object();
    s.set("name", std::string(shape.name));
    s.set("flops", shape.flops());
    out.call<void>("push", s);
  }
  return out;
}

double gemm(int shape, bool use_kernels, int reps) {
  bench::GemmWorkload& w = *gemm_workloads().at(std::size_t(shape));
  for (int r = 0; r < reps; ++r) use_kernels ? w.kernels() : w.eigen();
  return w.checksum();
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_bench) {
  emscripten::function("gemmShapes", &gemm_shapes);
  emscripten::function("gemm", &gemm);
}
