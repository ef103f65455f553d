# Stands in for a PyTorch test where CMake found no PyTorch (tests/reference/CMakeLists.txt):
# reports SKIPPED and the reason, which ctest counts as skipped (SKIP_REGULAR_EXPRESSION), or,
# under CI=true or ATTN_REQUIRE_TORCH=1, fails.
# Usage: cmake -DREASON=TEXT -P without_torch.cmake
if("$ENV{CI}" STREQUAL "true" OR "$ENV{ATTN_REQUIRE_TORCH}" STREQUAL "1")
  message(FATAL_ERROR "FAILED: ${REASON}. CI=true or ATTN_REQUIRE_TORCH=1 requires PyTorch.")
endif()
message("SKIPPED: ${REASON}")
