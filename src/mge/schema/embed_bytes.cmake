# cmake -DOUTPUT=<file.cc> -DENTRIES=<Name>=<file>;... -P embed_bytes.cmake
# Writes a C++ file defining, for each entry, `std::string_view graphport::mge::<Name>()` over
# the file's bytes. The arrays are 16-byte aligned: FlatBuffers reads scalars in place.
set(body "// Generated at build time by src/mge/schema/embed_bytes.cmake; do not edit.\n")
string(APPEND body "#include \"mge/schema/embedded_schemas.h\"\n\nnamespace graphport::mge {\n")
foreach(entry ${ENTRIES})
  string(REGEX MATCH "^([A-Za-z0-9_]+)=(.*)$" matched "${entry}")
  if(NOT matched)
    message(FATAL_ERROR "embed_bytes.cmake: bad entry ${entry}")
  endif()
  set(name "${CMAKE_MATCH_1}")
  set(file "${CMAKE_MATCH_2}")
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
  string(APPEND body "\nnamespace {\nalignas(16) const unsigned char k${name}[${size}] = {\n"
         "${bytes}\n};\n}  // namespace\n\n"
         "std::string_view ${name}() {\n"
         "  return {reinterpret_cast<const char*>(k${name}), sizeof(k${name})};\n}\n")
endforeach()
string(APPEND body "\n}  // namespace graphport::mge\n")
file(WRITE "${OUTPUT}" "${body}")
