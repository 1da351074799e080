//! Every compile-time check of `#[tool]`, each a case in `ui/` whose `.stderr` is the error a
//! user sees.

#[test]
fn compile_errors_point_at_the_offending_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
