//! The validation keywords of one schema object, read in one pass over its keys rather than
//! looked up one by one for every value checked, and what schemars' integer `format`s mean.

use serde_json::{Map, Value};

/// The keywords of one schema object the checker reads.
#[derive(Default)]
pub(crate) struct Keywords<'s> {
    pub(crate) reference: Option<&'s Value>,
    pub(crate) all_of: Option<&'s Value>,
    pub(crate) any_of: Option<&'s Value>,
    pub(crate) one_of: Option<&'s Value>,
    pub(crate) enumeration: Option<&'s Value>,
    pub(crate) constant: Option<&'s Value>,
    pub(crate) types: Option<&'s Value>,
    pub(crate) format: Option<&'s Value>,
    pub(crate) minimum: Option<&'s Value>,
    pub(crate) maximum: Option<&'s Value>,
    pub(crate) exclusive_minimum: Option<&'s Value>,
    pub(crate) exclusive_maximum: Option<&'s Value>,
    pub(crate) min_length: Option<&'s Value>,
    pub(crate) max_length: Option<&'s Value>,
    pub(crate) min_items: Option<&'s Value>,
    pub(crate) max_items: Option<&'s Value>,
    pub(crate) prefix_items: Option<&'s Value>,
    pub(crate) items: Option<&'s Value>,
    pub(crate) properties: Option<&'s Value>,
    pub(crate) additional_properties: Option<&'s Value>,
    pub(crate) required: Option<&'s Value>,
}

impl<'s> Keywords<'s> {
    pub(crate) fn of(schema: &'s Map<String, Value>) -> Self {
        let mut keywords = Keywords::default();
        for (key, value) in schema {
            let slot = match key.as_str() {
                "$ref" => &mut keywords.reference,
                "allOf" => &mut keywords.all_of,
                "anyOf" => &mut keywords.any_of,
                "oneOf" => &mut keywords.one_of,
                "enum" => &mut keywords.enumeration,
                "const" => &mut keywords.constant,
                "type" => &mut keywords.types,
                "format" => &mut keywords.format,
                "minimum" => &mut keywords.minimum,
                "maximum" => &mut keywords.maximum,
                "exclusiveMinimum" => &mut keywords.exclusive_minimum,
                "exclusiveMaximum" => &mut keywords.exclusive_maximum,
                "minLength" => &mut keywords.min_length,
                "maxLength" => &mut keywords.max_length,
                "minItems" => &mut keywords.min_items,
                "maxItems" => &mut keywords.max_items,
                "prefixItems" => &mut keywords.prefix_items,
                "items" => &mut keywords.items,
                "properties" => &mut keywords.properties,
                "additionalProperties" => &mut keywords.additional_properties,
                "required" => &mut keywords.required,
                _ => continue,
            };
            *slot = Some(value);
        }
        keywords
    }
}

/// The Rust integer type schemars names by this `format`.
pub(crate) fn integer_name(format: &str) -> Option<&'static str> {
    Some(match format {
        "int8" => "i8",
        "int16" => "i16",
        "int32" => "i32",
        "int64" => "i64",
        "int128" => "i128",
        "int" => "isize",
        "uint8" => "u8",
        "uint16" => "u16",
        "uint32" => "u32",
        "uint64" => "u64",
        "uint128" => "u128",
        "uint" => "usize",
        _ => return None,
    })
}

/// The range of the Rust integer type schemars names by this `format`.
pub(crate) fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match integer_name(format)? {
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        _ => return None,
    })
}
