// Linked into the test build of the module only (attention_core_test): counts live heap
// blocks for the leak tests (tests/wasm/), which the shipped module has no use for.
//
// These strong definitions replace dlmalloc's weak malloc/free/... (the documented way to hook
// malloc in Emscripten); the work is still done by dlmalloc through its emscripten_builtin_*
// names. liveAllocations() reads the count.
#include <emscripten/bind.h>
#include <emscripten/emmalloc.h>
#include <emscripten/heap.h>

#include <malloc.h>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace {
long live_blocks = 0;
double live_allocations() { return double(live_blocks); }
}  // namespace

extern "C" {
void* malloc(std::size_t size) {
  void* p = emscripten_builtin_malloc(size);
  if (p) ++live_blocks;
  return p;
}
void free(void* p) {
  if (p) --live_blocks;
  emscripten_builtin_free(p);
}
void* memalign(std::size_t alignment, std::size_t size) {
  void* p = emscripten_builtin_memalign(alignment, size);
  if (p) ++live_blocks;
  return p;
}
void* aligned_alloc(std::size_t alignment, std::size_t size) { return memalign(alignment, size); }
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  void* p = memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
void* calloc(std::size_t count, std::size_t size) {
  if (size && count > SIZE_MAX / size) return nullptr;
  void* p = malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}
void* realloc(void* old, std::size_t size) {
  if (!old) return malloc(size);
  if (!size) {
    free(old);
    return nullptr;
  }
  void* p = malloc(size);
  if (!p) return nullptr;
  const std::size_t old_size = malloc_usable_size(old);
  std::memcpy(p, old, old_size < size ? old_size : size);
  free(old);
  return p;
}
}

EMSCRIPTEN_BINDINGS(leak_counters) { emscripten::function("liveAllocations", &live_allocations); }
