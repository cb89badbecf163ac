#include "structures/collision/io/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "kds/errors.hpp"

namespace kds {
namespace {

/// True when `path` names something that exists and is not a regular file.
bool is_special(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

std::string reason(int error) { return error != 0 ? std::string(": ") + std::strerror(error) : std::string(); }

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw InvalidInput("output file: empty path");
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw InvalidInput("cannot write '" + path_ + "': it is a directory");
  if (is_special(path_)) {
    errno = 0;
    out_.open(path_, std::ios::out | std::ios::trunc);
    if (!out_) fail("cannot open '" + path_ + "' for writing", errno);
    errno = 0;
    return;
  }
  // Beside the path (same directory, so the rename stays on one file system), unique per process.
  temporary_ = path_ + ".tmp-" + std::to_string(::getpid());
  errno = 0;
  out_.open(temporary_, std::ios::out | std::ios::trunc);
  if (!out_) {
    const int error = errno;
    temporary_.clear();
    fail("cannot write '" + path_ + "' (creating the temporary file beside it failed)", error);
  }
  errno = 0;  // from here, errno tells why a write failed
}

OutputFile::~OutputFile() {
  if (out_.is_open()) out_.close();
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

void OutputFile::fail(const std::string& what, int error) {
  if (out_.is_open()) out_.close();
  if (!temporary_.empty()) std::remove(temporary_.c_str());
  temporary_.clear();
  closed_ = true;
  throw InvalidInput(what + reason(error));
}

void OutputFile::close() {
  if (closed_) return;
  // A write that failed while the stream was filled left its errno (nothing else runs
  // system calls in between); else the flush or the close sets it.
  const bool failed_before = !out_;
  const int early_error = errno;
  if (!failed_before) errno = 0;
  out_.flush();
  const bool write_failed = !out_;
  const int write_error = failed_before ? early_error : errno;
  out_.close();
  const int close_error = errno;
  if (write_failed || out_.fail()) fail("error writing '" + path_ + "'", write_failed ? write_error : close_error);
  closed_ = true;
}

void OutputFile::commit() {
  if (committed_) return;
  close();
  if (!temporary_.empty() && std::rename(temporary_.c_str(), path_.c_str()) != 0)
    fail("cannot replace '" + path_ + "' by its new content", errno);
  committed_ = true;
}

}  // namespace kds
