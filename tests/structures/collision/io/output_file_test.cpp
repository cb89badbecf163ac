// Output files (issue 12, item 2): a write error is an error naming the file, an
// unwritable path fails when opened, and a file that exists is complete: the old content
// stays until commit() renames the new one onto it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "collision_world_support.hpp"
#include "kds/errors.hpp"
#include "structures/collision/io/output_file.hpp"

namespace kds::testing {
namespace {

namespace fs = std::filesystem;

std::string content(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

/// A fresh directory for one test, removed at the end.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("kds_output_file_test_" + std::to_string(::getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(OutputFile, CommitReplacesTheFileOnlyAtTheEnd) {
  TempDir dir;
  const fs::path p = dir.path / "log.txt";
  std::ofstream(p) << "old\n";
  {
    OutputFile out(p.string());
    out.stream() << "new\n";
    EXPECT_EQ(content(p), "old\n");  // not yet
    out.close();
    EXPECT_EQ(content(p), "old\n");
    out.commit();
  }
  EXPECT_EQ(content(p), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);  // no temporary left
}

TEST(OutputFile, AnUncommittedFileLeavesTheOldContentAndNoTemporary) {
  TempDir dir;
  const fs::path p = dir.path / "log.txt";
  std::ofstream(p) << "old\n";
  {
    OutputFile out(p.string());
    out.stream() << "half a log";
  }  // the run failed before commit
  EXPECT_EQ(content(p), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

TEST(OutputFile, AFullDiskIsAnErrorNamingTheFile) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string what = invalid_input_message([] {
    OutputFile out("/dev/full");
    for (int i = 0; i < 1000; ++i) out.stream() << "0.35000000000000003 0 1\n";
    out.commit();
  });
  EXPECT_NE(what.find("error writing '/dev/full'"), std::string::npos) << what;
  EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
}

TEST(OutputFile, AnUnwritablePathFailsWhenOpened) {
  TempDir dir;
  std::string what = invalid_input_message([&] { OutputFile out((dir.path / "missing" / "log.txt").string()); });
  EXPECT_NE(what.find("cannot write '" + (dir.path / "missing" / "log.txt").string() + "'"), std::string::npos) << what;
  what = invalid_input_message([&] { OutputFile out(dir.path.string()); });
  EXPECT_NE(what.find("is a directory"), std::string::npos) << what;
  if (fs::exists("/proc/version")) {
    what = invalid_input_message([] { OutputFile out("/proc/version"); });
    EXPECT_NE(what.find("cannot write '/proc/version'"), std::string::npos) << what;
  }
}

TEST(OutputFile, SpecialFilesAreWrittenInPlace) {
  OutputFile out("/dev/null");
  out.stream() << "discarded\n";
  EXPECT_NO_THROW(out.commit());
  EXPECT_TRUE(fs::exists("/dev/null"));
}

}  // namespace
}  // namespace kds::testing
