# FindKdsMultiprecision: the multiprecision libraries kds links, as imported targets
#
#   kds::deps::gmp    GMP (C)
#   kds::deps::gmpxx  GMP's C++ classes (mpq_class is kds::Rational, in public headers)
#   kds::deps::mpfr   MPFR
#   kds::deps::mpfi   MPFI (CGAL's algebraic kernel uses it for its bigfloat intervals)
#
# Components: GMP GMPXX MPFR MPFI (all when none is named). Each target names the ones it
# needs (gmpxx and mpfr need gmp, mpfi needs mpfr), so a static link lists them in order.
#
# kds links these targets by name, never by path: the installed kdsConfig.cmake runs this
# same file (installed next to it) on the user's machine, so the package holds no path of
# the machine that built it. None of the libraries ships a CMake package, and MPFI has no
# pkg-config file, hence a small search of our own. Cache variables: KDS_<COMPONENT>_LIBRARY
# and KDS_<COMPONENT>_INCLUDE_DIR (set them to use another copy).

include(FindPackageHandleStandardArgs)

# Finds one library and its header; defines kds::deps::<lowercase component> linking `ARGN`.
function(_kds_find_multiprecision_library component header library)
  find_path(KDS_${component}_INCLUDE_DIR ${header})
  find_library(KDS_${component}_LIBRARY ${library})
  mark_as_advanced(KDS_${component}_INCLUDE_DIR KDS_${component}_LIBRARY)
  if(NOT KDS_${component}_INCLUDE_DIR OR NOT KDS_${component}_LIBRARY)
    set(KdsMultiprecision_${component}_FOUND FALSE PARENT_SCOPE)
    return()
  endif()
  set(KdsMultiprecision_${component}_FOUND TRUE PARENT_SCOPE)
  string(TOLOWER ${component} name)
  if(NOT TARGET kds::deps::${name})
    add_library(kds::deps::${name} UNKNOWN IMPORTED)
    set_target_properties(kds::deps::${name} PROPERTIES
      IMPORTED_LOCATION "${KDS_${component}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${KDS_${component}_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${ARGN}")
  endif()
endfunction()

# Every library is searched, whatever was asked: a component's target needs the ones below it.
_kds_find_multiprecision_library(GMP gmp.h gmp)
_kds_find_multiprecision_library(GMPXX gmpxx.h gmpxx kds::deps::gmp)
_kds_find_multiprecision_library(MPFR mpfr.h mpfr kds::deps::gmp)
_kds_find_multiprecision_library(MPFI mpfi.h mpfi kds::deps::mpfr kds::deps::gmp)

if(NOT KdsMultiprecision_FIND_COMPONENTS)
  set(KdsMultiprecision_FIND_COMPONENTS GMP GMPXX MPFR MPFI)
  foreach(component IN LISTS KdsMultiprecision_FIND_COMPONENTS)
    set(KdsMultiprecision_FIND_REQUIRED_${component} TRUE)
  endforeach()
endif()
find_package_handle_standard_args(KdsMultiprecision
  REQUIRED_VARS KDS_GMP_LIBRARY KDS_GMP_INCLUDE_DIR
  HANDLE_COMPONENTS)
