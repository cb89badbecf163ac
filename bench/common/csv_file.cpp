#include "bench/common/csv_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kds::bench {

CsvFile::CsvFile(std::string program, std::string path, const std::string& header)
    : program_(std::move(program)), path_(std::move(path)) {
  if (path_.empty()) return;
  errno = 0;
  out_.open(path_, std::ios::out | std::ios::trunc);
  if (!out_) fail("cannot write '" + path_ + "'", errno);
  errno = 0;  // from here, errno tells why a write failed
  out_ << header << '\n';
  flush();  // a full disk or a device that refuses writes shows before the runs, not after them
}

void CsvFile::flush() {
  out_.flush();
  if (!out_) fail("error writing '" + path_ + "'", errno);
}

void CsvFile::close() {
  if (!is_open()) return;
  flush();
  out_.close();
  if (out_.fail()) fail("error writing '" + path_ + "'", errno);
}

void CsvFile::fail(const std::string& what, int error) const {
  std::fprintf(stderr, "%s: %s%s%s\n", program_.c_str(), what.c_str(), error != 0 ? ": " : "",
               error != 0 ? std::strerror(error) : "");
  std::exit(1);
}

}  // namespace kds::bench
