#pragma once
/// \file
/// Doubles as text, for the interchange files: written so that reading them back gives
/// the same double, and parsed strictly (the whole token must be a number).

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace kds::text {

/// The shortest text that reads back as exactly x ("0.1", "2", "1e-300").
inline std::string shortest(double x) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

/// x with 17 significant digits (printf's %.17g): fixed width of precision, so that two
/// programs writing the same double write the same digits, and reading back is exact.
inline std::string significant17(double x) {
  char buf[40];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

/// A token as quoted in an error message: in quotes, cut to its first 40 characters, so
/// that a 1 MB field does not flood the terminal ("'123456...' (1048576 characters)").
inline std::string quoted(std::string_view token) {
  constexpr std::size_t shown = 40;
  if (token.size() <= shown) return "'" + std::string(token) + "'";
  return "'" + std::string(token.substr(0, shown)) + "...' (" + std::to_string(token.size()) + " characters)";
}

/// Why a token is not a number, or the number. NaN and infinities parse (as "nan", "inf",
/// "infinity" in any case) so that the caller can name them; a leading '+' is accepted.
struct Parsed {
  std::optional<double> value;
  const char* problem = nullptr;  ///< set when !value
};

inline Parsed parse(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') token.remove_prefix(1);
  double x = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), x);
  if (ec == std::errc::result_out_of_range) return {std::nullopt, "is out of the range of a double"};
  if (ec != std::errc() || end != token.data() + token.size()) return {std::nullopt, "is not a number"};
  return {x, nullptr};
}

}  // namespace kds::text
