//! Every compile-time check of `#[tool]`, `#[toolkit]` and `registry![...]`, each a case in
//! `ui/` whose `.stderr` is the error a user sees.

#[test]
fn compile_errors_point_at_the_offending_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}

/// The checks that only `cargo build` runs: `registry![...]` compares the tool names of an
/// entry whose type it cannot read from its tokens in a constant of generic code, which
/// `cargo check` does not evaluate. Trybuild runs `cargo check` unless one of its cases is to
/// pass, so `ui/build/` has a case that passes.
#[test]
fn build_errors_point_at_the_offending_token() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/build/registry_distinct_names.rs");
    cases.compile_fail("ui/build/registry_duplicate_unnamed.rs");
}
