// Only the carrier of the precompiled headers the tests reuse (tests/CMakeLists.txt, test_pch).
