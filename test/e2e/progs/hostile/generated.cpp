// Functions the compiler makes with no source line even with -g
// (test/e2e/hostile_names.sh): a noexcept function that calls one that
// may throw gets __clang_call_terminate, a thread_local with a dynamic
// initializer gets its TLS wrapper (_ZTW) and init function (_ZTH).
#include <cstdio>
#include <stdexcept>
#include <string>

thread_local std::string tls_name = "t";

struct Guard {
  ~Guard() noexcept { std::puts("done"); }
};

__attribute__((noinline)) void may_throw(int n) {
  if (n > 5)
    throw std::runtime_error("too many arguments");
}

__attribute__((noinline)) void no_throw(int n) noexcept {
  Guard g;
  may_throw(n);
}

int main(int argc, char **) {
  tls_name += "x";
  no_throw(argc);
  return static_cast<int>(tls_name.size()) - 2;
}
