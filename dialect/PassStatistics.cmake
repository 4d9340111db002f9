# cmake -DRECORDS=<llvm-tblgen --dump-json of Passes.td> -DOUTPUT=<file> -P PassStatistics.cmake
#
# Writes one `PLD_PASS_STATISTIC(Pass, cppName, "name", "description")` line
# per statistic of every pass in Passes.td, in declaration order: the table
# src/bridge/passes.cc prints its statistics report from when the LLVM it is
# built against compiles MLIR's statistics out (a release build: Debian's).
file(READ "${RECORDS}" json)
string(JSON passes GET "${json}" "!instanceof" "Pass")
string(JSON pass_count LENGTH "${passes}")
set(text "// Generated from Passes.td by dialect/PassStatistics.cmake.\n")
if(pass_count GREATER 0)
  math(EXPR last_pass "${pass_count} - 1")
  foreach(i RANGE ${last_pass})
    string(JSON pass GET "${passes}" ${i})
    string(JSON statistics GET "${json}" "${pass}" "statistics")
    string(JSON stat_count LENGTH "${statistics}")
    if(stat_count EQUAL 0)
      continue()
    endif()
    math(EXPR last_stat "${stat_count} - 1")
    foreach(j RANGE ${last_stat})
      string(JSON def GET "${statistics}" ${j} "def")
      string(JSON cpp_name GET "${json}" "${def}" "cppName")
      string(JSON name GET "${json}" "${def}" "name")
      string(JSON description GET "${json}" "${def}" "description")
      string(APPEND text "PLD_PASS_STATISTIC(${pass}, ${cpp_name}, \"${name}\", R\"PS(${description})PS\")\n")
    endforeach()
  endforeach()
endif()
file(WRITE "${OUTPUT}" "${text}")
