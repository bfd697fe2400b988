// libFuzzer's driver, from the clang runtime that `swiftc -sanitize=fuzzer` links
// (compiler-rt's FuzzerInterface.h declares the same function).
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line in `argc` and `argv`, calling `callback` for every input.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
