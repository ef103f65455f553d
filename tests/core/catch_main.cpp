// Catch2's main, alone in its translation unit so editing a test does not rebuild it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
