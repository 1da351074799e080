//! Integration tests of `tool-core` live in this package's test targets; this library is empty.
