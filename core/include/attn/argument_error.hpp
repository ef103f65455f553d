// A bad argument, as a structure every front door can word in its own names.
//
// The core checks its inputs at its public edge and throws ArgumentError: the argument (as C++
// names it), a code saying what kind of failure it is, the numbers involved, named, and an
// English detail built from them. Front doors rename the argument and every {name} in the
// detail (message(name_of)): "numHeads" in JS, "heads" in a widget, "--heads" on the command
// line. The code and the values cross with it, so a translation can word the error from them
// instead of from the English text.
//
// The codes (docs/errors.md gives each front door's view):
//   code                values                       what is wrong
//   out-of-range        min, max, got (index, row)   a number outside its range (a missing end is unbounded)
//   not-whole           got                          a number that must be whole is not
//   not-finite          got (row, col or index)      NaN or an infinity where finite numbers are needed
//   not-one-of          -                            a name outside the choices (listed in the text)
//   must-divide         <the other size>, got        a size that must divide another does not
//   bad-shape           rows, cols, got_rows, got_cols   a matrix or mask of the wrong shape (expected sides that are fixed)
//   bad-length          min, max, got                a list of the wrong length
//   empty               got_rows, got_cols           an empty matrix, mask or set
//   too-many-elements   max, got                     more values (or work) than the core's limit
//   too-large           row (col, head)              inputs so large that a result overflows float32
//   not-allowed         -                            a value some other rule refuses (the text says which)
// The facade adds wrong-type (a value of the wrong JS type), which C++'s types rule out here.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

enum class ErrorCode {
  out_of_range,
  not_whole,
  not_finite,
  not_one_of,
  must_divide,
  bad_shape,
  bad_length,
  empty,
  too_many_elements,
  too_large,
  not_allowed,
};

// The code as every front door shows it: "out-of-range", "must-divide", ...
const char* code_name(ErrorCode code);

// One number an error is about: {"min", 1}, {"got", 9}, {"d_model", 64}. `name` is a string
// literal; a name that is an argument's is renamed by front doors like the argument.
struct ErrorValue {
  const char* name;
  double value;
};

// A bad argument or config field. `detail` follows the argument's name and may name other
// arguments as {name}: ArgumentError("real", ErrorCode::out_of_range, "must be at most {positions} = 6,
// got 9", {{"max", 6}, {"got", 9}}).
class ArgumentError : public std::invalid_argument {
 public:
  ArgumentError(std::string argument, ErrorCode code, std::string detail,
                std::initializer_list<ErrorValue> values = {});
  const std::string& argument() const { return argument_; }
  ErrorCode code() const { return code_; }
  // The text after the argument's name, with other arguments still as {name}.
  const std::string& detail() const { return detail_; }
  const std::vector<ErrorValue>& values() const { return values_; }
  // The message with every argument named by name_of(core name) -> std::string (what() keeps
  // the core's names).
  template <typename NameOf>
  std::string message(NameOf&& name_of) const;

 private:
  std::string argument_, detail_;
  ErrorCode code_;
  std::vector<ErrorValue> values_;
};

// `text` with every {name} replaced by name_of(name).
template <typename NameOf>
std::string substitute_names(const std::string& text, NameOf&& name_of) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t close = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += text[i];
      continue;
    }
    out += name_of(text.substr(i + 1, close - i - 1));
    i = close;
  }
  return out;
}

template <typename NameOf>
std::string ArgumentError::message(NameOf&& name_of) const {
  return substitute_names("{" + argument_ + "} " + detail_, name_of);
}

// 8, 0.003, 1e-07, 9007199254740991: whole numbers in full, others to 15 significant
// digits (enough to tell any two limits apart, and no longer than they were written).
std::string number_text(double value);

}  // namespace attn
