#include "attn/softmax.hpp"

namespace attn {

Matrix softmax(const Matrix& scores) {
  require_values("scores", scores);
  return softmax_rows_unchecked<float>(scores);
}

}  // namespace attn
