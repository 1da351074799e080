//! Random JSON values for the crate's property tests: every kind of value, nested a few levels,
//! with strings and keys drawn from a pattern the test chooses (any text, or the characters
//! JSON escapes and paths quote).

use proptest::prelude::*;

/// Any JSON value, its strings and keys matching the regular expression `text`.
pub(crate) fn any_value(text: &'static str) -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(Into::into),
        any::<i64>().prop_map(Into::into),
        any::<u64>().prop_map(Into::into),
        any::<f64>().prop_map(Into::into),
        text.prop_map(Into::into),
    ];
    leaf.prop_recursive(5, 48, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Into::into),
            proptest::collection::vec((text, inner), 0..4)
                .prop_map(|fields| serde_json::Value::Object(fields.into_iter().collect())),
        ]
    })
}
