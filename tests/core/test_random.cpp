#include "attn/random.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace attn;

TEST_CASE("the same seed gives the same stream, another seed another", "[random]") {
  Random a(42), b(42), c(43);
  for (int i = 0; i < 1000; ++i) {
    const double x = a.normal();
    REQUIRE(x == b.normal());
    if (i == 0) REQUIRE(x != c.normal());
  }
}

TEST_CASE("xoshiro256** seeded by splitmix64 gives its published first outputs", "[random]") {
  // splitmix64(0) seeding then xoshiro256**: pinned so a refactor cannot silently change every
  // seeded figure in the project (and so the WebAssembly build can be compared to it).
  Random rng(0);
  const std::uint64_t first = rng.next_u64();
  Random again(0);
  REQUIRE(first == again.next_u64());
  REQUIRE(first == 0x99EC5F36CB75F2B4ull);
}

TEST_CASE("uniform and normal draws have the right moments", "[random]") {
  Random rng(7);
  const int n = 200000;
  double sum_u = 0, sum_n = 0, sum_n2 = 0, sum_n4 = 0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum_u += u;
    const double z = rng.normal();
    sum_n += z;
    sum_n2 += z * z;
    sum_n4 += z * z * z * z;
  }
  // Tolerances are about 5 standard errors of each estimate at n = 200,000.
  REQUIRE(std::abs(sum_u / n - 0.5) < 0.004);
  REQUIRE(std::abs(sum_n / n) < 0.012);
  REQUIRE(std::abs(sum_n2 / n - 1.0) < 0.016);
  REQUIRE(std::abs(sum_n4 / n - 3.0) < 0.1);
}

TEST_CASE("below(n) covers every value and shuffle is a permutation", "[random]") {
  Random rng(9);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(rng.below(7));
  REQUIRE(seen.size() == 7);
  REQUIRE(*seen.rbegin() == 6);
  std::vector<int> items{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  rng.shuffle(items);
  REQUIRE(std::set<int>(items.begin(), items.end()).size() == 10);
}

TEST_CASE("portable_log agrees with libm to a few ulp", "[random]") {
  for (double x : {1e-300, 1e-10, 0.001, 0.3, 0.70710678, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e300}) {
    const double expected = std::log(x);
    REQUIRE(std::abs(portable_log(x) - expected) <= 4e-16 * std::max(1.0, std::abs(expected)));
  }
  REQUIRE(portable_log(1.0) == 0.0);
}
