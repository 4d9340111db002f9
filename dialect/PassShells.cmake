# cmake -DRECORDS=<llvm-tblgen --dump-json of Passes.td> -DOUTPUT=<file> -P PassShells.cmake
#
# Writes the C++ shell of every pass in Passes.td (src/bridge/passes.cc
# includes it in three places, selected by a macro):
#   PLD_GEN_PASS_DEFS    the GEN_PASS_DEF_<PASS> lines for Passes.h.inc;
#   PLD_GEN_PASS_SHELLS  one class per pass over its TableGen base: its
#                        options go to the Rust body by name (option
#                        `aiv-cores` -> PassOptions::aiv_cores), the counts come
#                        back by name (statistic `collectives-lowered` ->
#                        PassStatistics::collectives_lowered);
#   PLD_GEN_PASS_CREATE  the `create_pass` cases, one per pass.
# So a pass is its Passes.td def and its Rust body: nothing here is written
# by hand. A missing PassOptions / PassStatistics field is a C++ compile
# error naming it.
file(READ "${RECORDS}" json)
string(JSON passes GET "${json}" "!instanceof" "Pass")
string(JSON pass_count LENGTH "${passes}")
set(defs "")
set(shells "")
set(cases "")
set(names "")
if(pass_count GREATER 0)
  math(EXPR last_pass "${pass_count} - 1")
  foreach(i RANGE ${last_pass})
    string(JSON pass GET "${passes}" ${i})
    string(JSON argument GET "${json}" "${pass}" "argument")
    string(TOUPPER "${pass}" upper)
    string(APPEND defs "#define GEN_PASS_DEF_${upper}\n")
    string(APPEND cases ".Case(${pass}::getArgumentName(), create${pass})\n")
    string(APPEND names "\"${argument}\",\n")
    set(body "    PassOptions options{};\n")
    string(JSON options GET "${json}" "${pass}" "options")
    string(JSON option_count LENGTH "${options}")
    if(option_count GREATER 0)
      math(EXPR last_option "${option_count} - 1")
      foreach(j RANGE ${last_option})
        string(JSON def GET "${options}" ${j} "def")
        string(JSON cpp_name GET "${json}" "${def}" "cppName")
        string(JSON option GET "${json}" "${def}" "argument")
        string(REPLACE "-" "_" field "${option}")
        string(APPEND body "    options.${field} = ${cpp_name};\n")
      endforeach()
    endif()
    string(JSON statistics GET "${json}" "${pass}" "statistics")
    string(JSON stat_count LENGTH "${statistics}")
    if(stat_count GREATER 0)
      string(APPEND body "    PassStatistics counts = runBody(options);\n")
      math(EXPR last_stat "${stat_count} - 1")
      foreach(j RANGE ${last_stat})
        string(JSON def GET "${statistics}" ${j} "def")
        string(JSON cpp_name GET "${json}" "${def}" "cppName")
        string(JSON name GET "${json}" "${def}" "name")
        string(REPLACE "-" "_" field "${name}")
        string(APPEND body "    PLD_COUNT(${cpp_name}, counts.${field});\n")
      endforeach()
    else()
      string(APPEND body "    runBody(options);\n")
    endif()
    string(APPEND shells
      "struct ${pass} : RustPass<impl::${pass}Base<${pass}>> {\n"
      "  using RustPass::RustPass;\n"
      "  void runOnOperation() override {\n"
      "${body}"
      "  }\n"
      "};\n\n")
  endforeach()
endif()
file(WRITE "${OUTPUT}"
  "// Generated from Passes.td by dialect/PassShells.cmake.\n"
  "#ifdef PLD_GEN_PASS_DEFS\n${defs}#undef PLD_GEN_PASS_DEFS\n#endif\n\n"
  "#ifdef PLD_GEN_PASS_SHELLS\n${shells}#undef PLD_GEN_PASS_SHELLS\n#endif\n\n"
  "#ifdef PLD_GEN_PASS_CREATE\n${cases}#undef PLD_GEN_PASS_CREATE\n#endif\n\n"
  "#ifdef PLD_GEN_PASS_NAMES\n${names}#undef PLD_GEN_PASS_NAMES\n#endif\n")
