//! Nothing: this package's one target is its test, `compile_fail.rs`, whose cases are in
//! `ui/`.
