#pragma once
/// \file
/// The CSV file a benchmark writes its rows to, checked: a benchmark's numbers are only
/// worth the run if they reach the disk, so a file that cannot be opened or written (a
/// bad path, a full disk) stops the program at once with a message naming the file and
/// the reason, and exit status 1, instead of a run that ends "successfully" with a
/// truncated or empty CSV.

#include <cerrno>
#include <fstream>
#include <string>

namespace kds::bench {

class CsvFile {
 public:
  /// Opens `path` and writes the header line; no file at all when `path` is empty (the
  /// rows then go nowhere). `program` names the benchmark in messages.
  CsvFile(std::string program, std::string path, const std::string& header);

  /// True when rows are written to a file.
  bool is_open() const { return out_.is_open(); }

  /// One line of values separated by commas, as `<<` prints them, flushed at once so
  /// that a stopped run keeps the rows it finished.
  template <class First, class... Rest>
  void row(const First& first, const Rest&... rest) {
    if (!is_open()) return;
    errno = 0;  // so that a failed write's reason is the one reported
    out_ << first;
    ((out_ << ',' << rest), ...);
    out_ << '\n';
    flush();
  }

  /// Closes the file, checking that the close went through too.
  void close();

 private:
  /// Flushes the stream; exits (status 1) naming the file if a write failed.
  void flush();
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::string program_, path_;
  std::ofstream out_;
};

}  // namespace kds::bench
