// Native side of the time-per-FLOP benchmark (bench/scaling.mjs prints it next to WebAssembly): each
// case of bench/scaling_workloads.hpp, microseconds per call (bench/timing.hpp's rule), as one
// JSON array in the cases' order.
#include "scaling_workloads.hpp"
#include "timing.hpp"

#include <cstdio>

int main() {
  const auto& cases = bench::scaling_cases();
  std::printf("[");
  for (std::size_t i = 0; i < cases.size(); ++i)
    std::printf("%s%.3f", i ? ", " : "", bench::microseconds_per_call([&] { bench::sink = cases[i].run(); }));
  std::printf("]\n");
  return 0;
}
