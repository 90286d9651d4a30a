// libclang, loaded when the first C++ source is analyzed rather than linked: a run on packages,
// cores and logs never maps LLVM (some 60 MiB of resident memory and the dynamic linking time of
// two very large libraries). Code of parsers/source includes this header instead of
// <clang-c/Index.h> and calls clang_* as usual: each name is a macro reading the function table,
// which `libclang_ready()` fills. A clang_* function missing from the list below does not link,
// because no libclang is linked. Internal to parsers/source.
#pragma once

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include <string>

namespace aoti::parsers::source {

// Every libclang function the C++ front end calls.
#define AOTI_LIBCLANG_FUNCTIONS(X)                \
  X(clang_CompilationDatabase_dispose)            \
  X(clang_CompilationDatabase_fromDirectory)      \
  X(clang_CompilationDatabase_getCompileCommands) \
  X(clang_CompileCommand_getArg)                  \
  X(clang_CompileCommand_getDirectory)            \
  X(clang_CompileCommand_getNumArgs)              \
  X(clang_CompileCommands_dispose)                \
  X(clang_CompileCommands_getCommand)             \
  X(clang_CompileCommands_getSize)                \
  X(clang_Cursor_getArgument)                     \
  X(clang_Cursor_getBinaryOpcode)                 \
  X(clang_Cursor_getNumArguments)                 \
  X(clang_Cursor_isNull)                          \
  X(clang_File_isEqual)                           \
  X(clang_Location_isInSystemHeader)              \
  X(clang_createIndex)                            \
  X(clang_defaultSaveOptions)                     \
  X(clang_disposeDiagnostic)                      \
  X(clang_disposeIndex)                           \
  X(clang_disposeString)                          \
  X(clang_disposeTranslationUnit)                 \
  X(clang_equalCursors)                           \
  X(clang_getCString)                             \
  X(clang_getCanonicalType)                       \
  X(clang_getCursorDefinition)                    \
  X(clang_getCursorExtent)                        \
  X(clang_getCursorKind)                          \
  X(clang_getCursorLocation)                      \
  X(clang_getCursorReferenced)                    \
  X(clang_getCursorSemanticParent)                \
  X(clang_getCursorSpelling)                      \
  X(clang_getCursorType)                          \
  X(clang_getCursorUSR)                           \
  X(clang_getDiagnostic)                          \
  X(clang_getDiagnosticLocation)                  \
  X(clang_getDiagnosticSeverity)                  \
  X(clang_getDiagnosticSpelling)                  \
  X(clang_getExpansionLocation)                   \
  X(clang_getFile)                                \
  X(clang_getFileLocation)                        \
  X(clang_getFileName)                            \
  X(clang_getInclusions)                          \
  X(clang_getNullCursor)                          \
  X(clang_getNumDiagnostics)                      \
  X(clang_getPointeeType)                         \
  X(clang_getRangeEnd)                            \
  X(clang_getRangeStart)                          \
  X(clang_getTranslationUnitCursor)               \
  X(clang_getTypeSpelling)                        \
  X(clang_isCursorDefinition)                     \
  X(clang_isExpression)                           \
  X(clang_isInvalidDeclaration)                   \
  X(clang_parseTranslationUnit2)                  \
  X(clang_saveTranslationUnit)                    \
  X(clang_visitChildren)

struct LibclangApi {
#define AOTI_LIBCLANG_MEMBER(name) decltype(&::name) name = nullptr;
  AOTI_LIBCLANG_FUNCTIONS(AOTI_LIBCLANG_MEMBER)
#undef AOTI_LIBCLANG_MEMBER
};

// Loads libclang once (thread-safe) from the system's library path; false with the reason when it
// is not installed or lacks a function. Call it before any clang_* function.
bool libclang_ready(std::string& why_not);

// The loaded functions; only after libclang_ready() returned true.
const LibclangApi& libclang();

}  // namespace aoti::parsers::source

// clang_getCursorKind(c) → the table's clang_getCursorKind(c). A macro does not expand inside its
// own expansion, so the member access names the member, not the macro again. libclang.cpp, which
// fills the table, goes without them.
#ifndef AOTI_LIBCLANG_LOADER
#define clang_CompilationDatabase_dispose \
  ::aoti::parsers::source::libclang().clang_CompilationDatabase_dispose
#define clang_CompilationDatabase_fromDirectory \
  ::aoti::parsers::source::libclang().clang_CompilationDatabase_fromDirectory
#define clang_CompilationDatabase_getCompileCommands \
  ::aoti::parsers::source::libclang().clang_CompilationDatabase_getCompileCommands
#define clang_CompileCommand_getArg ::aoti::parsers::source::libclang().clang_CompileCommand_getArg
#define clang_CompileCommand_getDirectory \
  ::aoti::parsers::source::libclang().clang_CompileCommand_getDirectory
#define clang_CompileCommand_getNumArgs \
  ::aoti::parsers::source::libclang().clang_CompileCommand_getNumArgs
#define clang_CompileCommands_dispose \
  ::aoti::parsers::source::libclang().clang_CompileCommands_dispose
#define clang_CompileCommands_getCommand \
  ::aoti::parsers::source::libclang().clang_CompileCommands_getCommand
#define clang_CompileCommands_getSize \
  ::aoti::parsers::source::libclang().clang_CompileCommands_getSize
#define clang_Cursor_getArgument ::aoti::parsers::source::libclang().clang_Cursor_getArgument
#define clang_Cursor_getBinaryOpcode \
  ::aoti::parsers::source::libclang().clang_Cursor_getBinaryOpcode
#define clang_Cursor_getNumArguments \
  ::aoti::parsers::source::libclang().clang_Cursor_getNumArguments
#define clang_Cursor_isNull ::aoti::parsers::source::libclang().clang_Cursor_isNull
#define clang_File_isEqual ::aoti::parsers::source::libclang().clang_File_isEqual
#define clang_Location_isInSystemHeader \
  ::aoti::parsers::source::libclang().clang_Location_isInSystemHeader
#define clang_createIndex ::aoti::parsers::source::libclang().clang_createIndex
#define clang_defaultSaveOptions ::aoti::parsers::source::libclang().clang_defaultSaveOptions
#define clang_disposeDiagnostic ::aoti::parsers::source::libclang().clang_disposeDiagnostic
#define clang_disposeIndex ::aoti::parsers::source::libclang().clang_disposeIndex
#define clang_disposeString ::aoti::parsers::source::libclang().clang_disposeString
#define clang_disposeTranslationUnit \
  ::aoti::parsers::source::libclang().clang_disposeTranslationUnit
#define clang_equalCursors ::aoti::parsers::source::libclang().clang_equalCursors
#define clang_getCString ::aoti::parsers::source::libclang().clang_getCString
#define clang_getCanonicalType ::aoti::parsers::source::libclang().clang_getCanonicalType
#define clang_getCursorDefinition ::aoti::parsers::source::libclang().clang_getCursorDefinition
#define clang_getCursorExtent ::aoti::parsers::source::libclang().clang_getCursorExtent
#define clang_getCursorKind ::aoti::parsers::source::libclang().clang_getCursorKind
#define clang_getCursorLocation ::aoti::parsers::source::libclang().clang_getCursorLocation
#define clang_getCursorReferenced ::aoti::parsers::source::libclang().clang_getCursorReferenced
#define clang_getCursorSemanticParent \
  ::aoti::parsers::source::libclang().clang_getCursorSemanticParent
#define clang_getCursorSpelling ::aoti::parsers::source::libclang().clang_getCursorSpelling
#define clang_getCursorType ::aoti::parsers::source::libclang().clang_getCursorType
#define clang_getCursorUSR ::aoti::parsers::source::libclang().clang_getCursorUSR
#define clang_getDiagnostic ::aoti::parsers::source::libclang().clang_getDiagnostic
#define clang_getDiagnosticLocation ::aoti::parsers::source::libclang().clang_getDiagnosticLocation
#define clang_getDiagnosticSeverity ::aoti::parsers::source::libclang().clang_getDiagnosticSeverity
#define clang_getDiagnosticSpelling ::aoti::parsers::source::libclang().clang_getDiagnosticSpelling
#define clang_getExpansionLocation ::aoti::parsers::source::libclang().clang_getExpansionLocation
#define clang_getFile ::aoti::parsers::source::libclang().clang_getFile
#define clang_getFileLocation ::aoti::parsers::source::libclang().clang_getFileLocation
#define clang_getFileName ::aoti::parsers::source::libclang().clang_getFileName
#define clang_getInclusions ::aoti::parsers::source::libclang().clang_getInclusions
#define clang_getNullCursor ::aoti::parsers::source::libclang().clang_getNullCursor
#define clang_getNumDiagnostics ::aoti::parsers::source::libclang().clang_getNumDiagnostics
#define clang_getPointeeType ::aoti::parsers::source::libclang().clang_getPointeeType
#define clang_getRangeEnd ::aoti::parsers::source::libclang().clang_getRangeEnd
#define clang_getRangeStart ::aoti::parsers::source::libclang().clang_getRangeStart
#define clang_getTranslationUnitCursor \
  ::aoti::parsers::source::libclang().clang_getTranslationUnitCursor
#define clang_getTypeSpelling ::aoti::parsers::source::libclang().clang_getTypeSpelling
#define clang_isCursorDefinition ::aoti::parsers::source::libclang().clang_isCursorDefinition
#define clang_isExpression ::aoti::parsers::source::libclang().clang_isExpression
#define clang_isInvalidDeclaration ::aoti::parsers::source::libclang().clang_isInvalidDeclaration
#define clang_parseTranslationUnit2 ::aoti::parsers::source::libclang().clang_parseTranslationUnit2
#define clang_saveTranslationUnit ::aoti::parsers::source::libclang().clang_saveTranslationUnit
#define clang_visitChildren ::aoti::parsers::source::libclang().clang_visitChildren
#endif  // AOTI_LIBCLANG_LOADER
