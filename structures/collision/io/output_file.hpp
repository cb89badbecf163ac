#pragma once
/// \file
/// An output file that is complete or absent: written to a temporary file beside its path
/// and renamed onto it by commit(), after every byte was written and the file closed
/// without error. A failed run, a full disk or an unwritable second output then leaves an
/// existing file at `path` untouched, and an error names the file.
///
/// Opening happens at construction, so that a program can open all its outputs before a
/// long run and fail at once on a path it cannot write. A path that exists and is not a
/// regular file (a terminal, a pipe, /dev/null, /dev/full) cannot be replaced by a rename:
/// it is written directly, and its errors are still reported by commit().

#include <fstream>
#include <string>

namespace kds {

class OutputFile {
 public:
  /// Opens the temporary file (or the special file); throws InvalidInput naming `path`.
  explicit OutputFile(std::string path);
  /// Removes the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& path() const { return path_; }
  std::ostream& stream() { return out_; }

  /// Flushes and closes; throws InvalidInput naming the path if any write or the close
  /// failed (the temporary file is removed then). Does not rename yet.
  void close();
  /// close() if not done, then renames the temporary file onto the path; throws
  /// InvalidInput naming the path on failure.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what, int error);
  std::string path_;
  std::string temporary_;  ///< empty when writing the path directly (a special file)
  std::ofstream out_;
  bool closed_ = false;
  bool committed_ = false;
};

}  // namespace kds
