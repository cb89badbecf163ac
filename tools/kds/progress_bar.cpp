#include "tools/kds/progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace kds::cli {

ProgressBar::ProgressBar(double until, bool enabled) : until_(until), enabled_(enabled && isatty(STDERR_FILENO) == 1) {}

void ProgressBar::update(double t, std::uint64_t events) {
  events_ = events;
  // Reading the clock costs about as much as a cheap event: look every 256 updates.
  if (!enabled_ || (++updates_ & 255) != 0) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw(t);
}

void ProgressBar::draw(double t) {
  constexpr int width = 30;
  const double done = until_ > 0 ? std::clamp(t / until_, 0.0, 1.0) : 1.0;
  const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
  char bar[width + 1];
  const int filled = static_cast<int>(done * width);
  for (int k = 0; k < width; ++k) bar[k] = k < filled ? '#' : '.';
  bar[width] = '\0';
  std::fprintf(stderr, "\r[%s] %3.0f%%  t = %-10.4g  %12llu events  %7.1f s", bar, 100 * done, t,
               static_cast<unsigned long long>(events_), wall);
  if (done > 0 && done < 1) std::fprintf(stderr, "  (about %.0f s left)", wall / done - wall);
  std::fprintf(stderr, "\033[K");  // clear what a longer previous line left
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  draw(until_);
  std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace kds::cli
