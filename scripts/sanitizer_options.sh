# The sanitizer runtime settings of every sanitized run (the suite, the fuzz targets). Sourced.
#
# use_sigaltstack=0: LLVM (libclang, loaded for C++ sources) installs its own alternate signal stack
# in each thread it runs on; ASan's own then fails to unmap at thread exit and aborts the process.
# The rest: every report fatal, with a stack that names our lines.
export ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [[ -x /usr/lib/llvm-19/bin/llvm-symbolizer ]]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-19/bin/llvm-symbolizer
fi
