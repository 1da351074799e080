//! The `icon` and `meta` options as code: the builder calls that add a tool's icons and
//! `_meta` entries to its definition.

use proc_macro2::TokenStream;
use quote::quote;

use crate::attr::metadata::{IconAttr, MetaAttr, Theme};

/// The builder calls that add the icons and `_meta` entries to a tool's definition.
pub fn builder_calls(icons: &[IconAttr], meta: &[MetaAttr]) -> TokenStream {
    let icons = icons.iter().map(icon);
    let entries = meta.iter().flat_map(|attr| &attr.entries).map(|entry| {
        let key = &entry.key;
        let value = &entry.value;
        quote!(.with_meta(#key, #value))
    });
    quote!(#(.with_icon(#icons))* #(#entries)*)
}

/// The `tool_core::tool::Icon` an icon option says.
fn icon(icon: &IconAttr) -> TokenStream {
    let src = &icon.src;
    let mut expr = quote!(::tool_core::tool::Icon::new(#src));
    if let Some(mime_type) = &icon.mime_type {
        expr = quote!(#expr.with_mime_type(#mime_type));
    }
    if !icon.sizes.is_empty() {
        let sizes = &icon.sizes;
        expr = quote!(#expr.with_sizes([#(#sizes),*]));
    }
    match icon.theme {
        Some(Theme::Light) => quote!(#expr.with_theme(::tool_core::tool::IconTheme::Light)),
        Some(Theme::Dark) => quote!(#expr.with_theme(::tool_core::tool::IconTheme::Dark)),
        None => expr,
    }
}
