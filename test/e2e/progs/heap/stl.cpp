// Templates, lambdas, virtual calls and the standard library: many
// inlined frames for the symbolizer to agree on.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace app {
template <class T> inline T twice(T x) { return x * 2 + 1; }
struct Base {
  virtual ~Base() {}
  virtual int f(int x) { return x; }
};
struct Derived : Base {
  int f(int x) override { return twice(x) * 3; }
};
class Store {
public:
  void add(const std::string &k, int v) { m_[k].push_back(twice(v)); }
  int sum() const;

private:
  std::map<std::string, std::vector<int>> m_;
};
int Store::sum() const {
  int s = 0;
  for (auto &kv : m_)
    for (int v : kv.second)
      s += v;
  return s;
}
} // namespace app

int main(int argc, char **argv) {
  app::Store st;
  std::vector<int> v;
  std::set<int> s;
  for (int i = 0; i < argc * 20; i++) {
    st.add(std::to_string(i % 7), i);
    v.push_back(argc * 20 - i);
    s.insert(i * 31 % 17);
  }
  std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
  std::function<int(int)> f = [&](int x) { return x + (int)v.size(); };
  std::unique_ptr<app::Base> b(argc > 1 ? new app::Base : new app::Derived);
  return (st.sum() + f(v[0]) + b->f(argc) + (int)s.size() + argv[0][0]) & 1;
}
