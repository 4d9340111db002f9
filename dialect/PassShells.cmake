# cmake -DRECORDS=<llvm-tblgen --dump-json of Passes.td> -DOUTPUT=<file> -P PassShells.cmake
#
# Writes the C++ shell of every pass and pipeline in Passes.td
# (src/bridge/passes.cc and pld/Passes.h include it, each section selected by
# a macro):
#   PLD_GEN_PASS_DEFS    the GEN_PASS_DEF_<PASS> lines for Passes.h.inc;
#   PLD_GEN_PASS_SHELLS  one class per pass over its TableGen base: its
#                        options go to the Rust body as (flag, value as text)
#                        pairs (`aiv-cores`, "4"), its counts come back as
#                        (name, value) pairs (`collectives-lowered`, 3), each
#                        added to the statistic of that name;
#   PLD_GEN_PASS_CREATE  the `create_pass` cases, one per pass;
#   PLD_GEN_PASS_NAMES   the flag of every pass;
#   PLD_GEN_PIPELINE_DECLS         per PassPipeline def: its options struct
#                                  and `build<Def>Pipeline` (pld/Passes.h);
#   PLD_GEN_PIPELINE_DEFS          `build<Def>Pipeline`: its passes in order,
#                                  each pipeline option forwarded to every
#                                  pass option of the same flag;
#   PLD_GEN_PIPELINE_REGISTRATION  its registration.
# So a pass is its Passes.td def and its Rust body (build.rs generates the
# Rust side from the same records: dialect/pass_rust.rs): nothing here names
# an individual pass, option or statistic.
cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
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
    set(body "")
    set(run "runBody()")
    string(JSON options GET "${json}" "${pass}" "options")
    string(JSON option_count LENGTH "${options}")
    if(option_count GREATER 0)
      set(body "    std::vector<PassOption> options;\n")
      set(run "runBody(options)")
      math(EXPR last_option "${option_count} - 1")
      foreach(j RANGE ${last_option})
        string(JSON def GET "${options}" ${j} "def")
        string(JSON cpp_name GET "${json}" "${def}" "cppName")
        string(JSON option GET "${json}" "${def}" "argument")
        string(APPEND body "    options.push_back(passOption(\"${option}\", ${cpp_name}.getValue()));\n")
      endforeach()
    endif()
    string(JSON statistics GET "${json}" "${pass}" "statistics")
    string(JSON stat_count LENGTH "${statistics}")
    if(stat_count GREATER 0)
      string(APPEND body
        "    for (const PassCount &count : ${run}) {\n"
        "      llvm::StringRef name(count.name.data(), count.name.size());\n"
        "      ")
      math(EXPR last_stat "${stat_count} - 1")
      foreach(j RANGE ${last_stat})
        string(JSON def GET "${statistics}" ${j} "def")
        string(JSON cpp_name GET "${json}" "${def}" "cppName")
        string(JSON name GET "${json}" "${def}" "name")
        string(APPEND body
          "if (name == \"${name}\")\n"
          "        PLD_COUNT(${cpp_name}, count.value);\n"
          "      else")
        if(j LESS last_stat)
          string(APPEND body " ")
        endif()
      endforeach()
      string(APPEND body
        "\n"
        "        unknownStatistic(name); // both sides come from Passes.td\n"
        "    }\n")
    else()
      string(APPEND body "    ${run};\n")
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

# The pipelines (Passes.td's PassPipeline defs).
set(pipeline_decls "")
set(pipeline_defs "")
set(pipeline_registration "")
string(JSON pipelines ERROR_VARIABLE no_pipelines GET "${json}" "!instanceof" "PassPipeline")
if(no_pipelines)
  set(pipelines "[]")
endif()
string(JSON pipeline_count LENGTH "${pipelines}")
if(pipeline_count GREATER 0)
  math(EXPR last_pipeline "${pipeline_count} - 1")
  foreach(i RANGE ${last_pipeline})
    string(JSON pipeline GET "${pipelines}" ${i})
    string(JSON argument GET "${json}" "${pipeline}" "argument")
    string(JSON summary GET "${json}" "${pipeline}" "summary")
    string(JSON options GET "${json}" "${pipeline}" "options")
    string(JSON option_count LENGTH "${options}")
    string(JSON members GET "${json}" "${pipeline}" "passes")
    string(JSON member_count LENGTH "${members}")
    # The options struct.
    set(fields "")
    set(forwarded "")
    if(option_count GREATER 0)
      math(EXPR last_option "${option_count} - 1")
      foreach(j RANGE ${last_option})
        string(JSON def GET "${options}" ${j} "def")
        string(JSON kinds GET "${json}" "${def}" "!superclasses")
        if(kinds MATCHES "ListOption")
          message(FATAL_ERROR "pipeline ${pipeline}: ListOption is not supported (PassShells.cmake)")
        endif()
        string(JSON cpp_name GET "${json}" "${def}" "cppName")
        string(JSON option GET "${json}" "${def}" "argument")
        string(JSON type GET "${json}" "${def}" "type")
        string(JSON default GET "${json}" "${def}" "defaultValue")
        string(JSON description GET "${json}" "${def}" "description")
        string(JSON flags GET "${json}" "${def}" "additionalOptFlags")
        set(extra "")
        if(NOT default STREQUAL "")
          string(APPEND extra ", llvm::cl::init(${default})")
        endif()
        if(NOT flags STREQUAL "")
          string(APPEND extra ", ${flags}")
        endif()
        string(APPEND fields
          "  Option<${type}> ${cpp_name}{*this, \"${option}\",\n"
          "      llvm::cl::desc(R\"PD(${description})PD\")${extra}};\n")
        list(APPEND forwarded "${option}")
      endforeach()
    endif()
    # The builder: each pass with the pipeline options of its own flags.
    set(steps "")
    set(order "")
    set(used "")
    if(member_count GREATER 0)
      math(EXPR last_member "${member_count} - 1")
      foreach(j RANGE ${last_member})
        string(JSON pass GET "${members}" ${j} "def")
        string(JSON pass_argument GET "${json}" "${pass}" "argument")
        list(APPEND order "${pass_argument}")
        string(JSON pass_options GET "${json}" "${pass}" "options")
        string(JSON pass_option_count LENGTH "${pass_options}")
        set(assignments "")
        if(pass_option_count GREATER 0)
          math(EXPR last_pass_option "${pass_option_count} - 1")
          foreach(k RANGE ${last_pass_option})
            string(JSON def GET "${pass_options}" ${k} "def")
            string(JSON option GET "${json}" "${def}" "argument")
            if(option IN_LIST forwarded)
              string(JSON pass_cpp_name GET "${json}" "${def}" "cppName")
              # The pipeline's member of that flag.
              foreach(m RANGE ${last_option})
                string(JSON pipeline_def GET "${options}" ${m} "def")
                string(JSON pipeline_option GET "${json}" "${pipeline_def}" "argument")
                if(pipeline_option STREQUAL option)
                  string(JSON pipeline_cpp_name GET "${json}" "${pipeline_def}" "cppName")
                endif()
              endforeach()
              string(APPEND assignments "    passOptions.${pass_cpp_name} = options.${pipeline_cpp_name};\n")
              list(APPEND used "${option}")
            endif()
          endforeach()
        endif()
        if(assignments STREQUAL "")
          string(APPEND steps "  pm.addPass(create${pass}());\n")
        else()
          string(APPEND steps
            "  {\n"
            "    ${pass}Options passOptions;\n"
            "${assignments}"
            "    pm.addPass(create${pass}(passOptions));\n"
            "  }\n")
        endif()
      endforeach()
    endif()
    foreach(option IN LISTS forwarded)
      if(NOT option IN_LIST used)
        message(FATAL_ERROR "pipeline ${pipeline}: option '${option}' is an option of none of its passes")
      endif()
    endforeach()
    list(JOIN order ", " order)
    string(APPEND pipeline_decls
      "/// The options of the `${argument}` pipeline (Passes.td's ${pipeline}),\n"
      "/// each forwarded to the pipeline's passes with an option of that flag.\n"
      "struct ${pipeline}Options\n"
      "    : public mlir::PassPipelineOptions<${pipeline}Options> {\n"
      "${fields}"
      "};\n\n"
      "/// The `${argument}` pipeline: ${order}, each on the module `pm` is\n"
      "/// anchored on.\n"
      "void build${pipeline}Pipeline(mlir::OpPassManager &pm,\n"
      "    const ${pipeline}Options &options);\n\n")
    string(APPEND pipeline_defs
      "void build${pipeline}Pipeline(mlir::OpPassManager &pm,\n"
      "    const ${pipeline}Options &options) {\n"
      "${steps}"
      "}\n\n")
    string(APPEND pipeline_registration
      "registerModulePipeline<${pipeline}Options>(\"${argument}\",\n"
      "    R\"PD(${summary})PD\", build${pipeline}Pipeline);\n")
  endforeach()
endif()

file(WRITE "${OUTPUT}"
  "// Generated from Passes.td by dialect/PassShells.cmake.\n"
  "#ifdef PLD_GEN_PASS_DEFS\n${defs}#undef PLD_GEN_PASS_DEFS\n#endif\n\n"
  "#ifdef PLD_GEN_PASS_SHELLS\n${shells}#undef PLD_GEN_PASS_SHELLS\n#endif\n\n"
  "#ifdef PLD_GEN_PASS_CREATE\n${cases}#undef PLD_GEN_PASS_CREATE\n#endif\n\n"
  "#ifdef PLD_GEN_PASS_NAMES\n${names}#undef PLD_GEN_PASS_NAMES\n#endif\n\n"
  "#ifdef PLD_GEN_PIPELINE_DECLS\n${pipeline_decls}#undef PLD_GEN_PIPELINE_DECLS\n#endif\n\n"
  "#ifdef PLD_GEN_PIPELINE_DEFS\n${pipeline_defs}#undef PLD_GEN_PIPELINE_DEFS\n#endif\n\n"
  "#ifdef PLD_GEN_PIPELINE_REGISTRATION\n${pipeline_registration}#undef PLD_GEN_PIPELINE_REGISTRATION\n#endif\n")
