#include "args.hpp"
#include "json_writer.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace attn::cli;
using Catch::Matchers::Contains;

namespace {
const std::vector<OptionSpec> kSpec = {{"seed", "S", ""}, {"dk", "LIST", ""}, {"verbose", "", ""}};
}

TEST_CASE("options parse in both spellings, with flags", "[cli]") {
  const auto args = Args::parse({"--seed", "7", "--dk=4,16", "--verbose", "--json"}, kSpec);
  REQUIRE(args.integer("seed", 0, 0, 100) == 7);
  REQUIRE(args.integer_list("dk", {}, 1, 4096, 8) == std::vector<long>{4, 16});
  REQUIRE(args.flag("verbose"));
  REQUIRE(args.flag("json"));
  REQUIRE(args.integer("absent", 3, 0, 10) == 3);
}

TEST_CASE("bad options are usage errors that name the option", "[cli]") {
  REQUIRE_THROWS_WITH(Args::parse({"--nope"}, kSpec), Contains("unknown option '--nope'"));
  REQUIRE_THROWS_WITH(Args::parse({"--seed"}, kSpec), Contains("--seed needs a value"));
  REQUIRE_THROWS_WITH(Args::parse({"stray"}, kSpec), Contains("unexpected argument 'stray'"));
  REQUIRE_THROWS_WITH(Args::parse({"--verbose=1"}, kSpec), Contains("--verbose takes no value"));
  REQUIRE_THROWS_AS(Args::parse({"--seed", "1", "--seed", "2"}, kSpec), UsageError);
  const auto args = Args::parse({"--seed", "12x", "--dk", "4,,16"}, kSpec);
  REQUIRE_THROWS_WITH(args.integer("seed", 0, 0, 100), Contains("--seed must be a whole number, got '12x'"));
  REQUIRE_THROWS_WITH(args.integer_list("dk", {}, 1, 4096, 8), Contains("--dk must be a whole number"));
  const auto trailing = Args::parse({"--dk", "4,", "--seed", " 7"}, kSpec);
  REQUIRE_THROWS_WITH(trailing.integer_list("dk", {}, 1, 4096, 8), Contains("must not end with a comma"));
  REQUIRE_THROWS_WITH(trailing.integer("seed", 0, 0, 100), Contains("--seed must be a whole number, got ' 7'"));
  const auto big = Args::parse({"--seed", "1000"}, kSpec);
  REQUIRE_THROWS_WITH(big.integer("seed", 0, 0, 100), Contains("between 0 and 100, got 1000"));
}

TEST_CASE("JSON output is well formed", "[cli]") {
  std::ostringstream out;
  JsonWriter json(out);
  json.begin_object().field("a", 0.5).field("name", "x\"y").key("list").array(std::vector<double>{1, 2});
  json.field("nan", std::nan("")).end_object();
  REQUIRE(out.str() == "{\"a\":0.5,\"name\":\"x\\\"y\",\"list\":[1,2],\"nan\":null}\n");
}
