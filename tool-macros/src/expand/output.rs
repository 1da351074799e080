//! How a tool's return type becomes its output, and a `Result`'s error a refusal: the code that
//! picks the conversion by autoref (see `tool_core::__private`'s dispatch), spanned at the
//! type so that a type that fits none is an error there.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::ToolFn;

/// The type that becomes the output: the `T` of a `Result<T, E>`, else the return type.
fn ok_type(tool: &ToolFn) -> TokenStream {
    match &tool.output.ty {
        None => quote!(()),
        Some(ty) if tool.output.is_result => {
            quote_spanned!(ok_span(tool)=> <#ty as ::tool_core::__private::ResultParts>::Ok)
        }
        Some(ty) => quote!(#ty),
    }
}

/// Where an error about the output points: at `T` in `Result<T, E>`, else at the return type.
fn ok_span(tool: &ToolFn) -> proc_macro2::Span {
    match &tool.output.ty {
        None => proc_macro2::Span::call_site(),
        Some(ty) => result_argument(ty, 0).unwrap_or(ty).span(),
    }
}

/// The `index`th type argument of a `Result` return type as written (`Result<T, E>`,
/// `io::Result<T>`), if it has one.
fn result_argument(ty: &syn::Type, index: usize) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    crate::model::rules::type_argument(path.path.segments.last()?, index)
}

/// The kind that converts the output, picked by autoref. A return type the macro did not see
/// as a `Result` goes through one level more, which refuses a `Result` under another name; the
/// `T` of a `Result<T, E>` it did see does not, so a `Result` written there is an output.
fn dispatch(tool: &ToolFn) -> TokenStream {
    let ok = ok_type(tool);
    let span = ok_span(tool);
    let (hidden_result, wrap) = match tool.output.is_result {
        false => (
            quote_spanned!(span=> ViaHiddenResult as _,),
            quote_spanned!(span=> &&&&::tool_core::__private::Wrap::<#ok>::NEW),
        ),
        true => (
            quote!(),
            quote_spanned!(span=> &&&::tool_core::__private::Wrap::<#ok>::NEW),
        ),
    };
    quote_spanned! {span=>
        {
            #[allow(unused_imports)]
            use ::tool_core::__private::{
                #hidden_result ViaIntoOutput as _, ViaNothing as _, ViaSerialize as _,
                ViaSerializeOnly as _,
            };
            (#wrap).output_kind()
        }
    }
}

pub fn output_schema(tool: &ToolFn) -> TokenStream {
    let ok = ok_type(tool);
    let dispatch = dispatch(tool);
    quote_spanned!(ok_span(tool)=> #dispatch.output_schema::<#ok>())
}

pub fn convert_return(tool: &ToolFn) -> TokenStream {
    let dispatch = dispatch(tool);
    let Some(ty) = tool.output.ty.as_ref().filter(|_| tool.output.is_result) else {
        return quote!(#dispatch.convert(__returned, &__OUTPUT_SCHEMA));
    };
    let into_refusal = into_refusal(ty);
    quote! {
        match __returned {
            ::core::result::Result::Ok(__value) => #dispatch.convert(__value, &__OUTPUT_SCHEMA),
            ::core::result::Result::Err(__error) => ::core::result::Result::Err(#into_refusal),
        }
    }
}

/// `__error`, of the error type of the `Result` type `ty`, as a refusal. A boxed `dyn Error` or
/// an `anyhow::Error` is made one first; any other error goes to `into_refusal` as it is, whose
/// bound reports a type that is no error (see `tool_core::__private::ViaDynError`).
fn into_refusal(ty: &syn::Type) -> TokenStream {
    // At `E` in `Result<T, E>`; at the whole type for an alias such as `io::Result<T>`.
    let span = result_argument(ty, 1).unwrap_or(ty).span();
    quote_spanned! {span=>
        ::tool_core::__private::into_refusal({
            #[allow(unused_imports)]
            use ::tool_core::__private::{ViaDynError as _, ViaIntoRefusal as _};
            (&&::tool_core::__private::Wrap::<
                <#ty as ::tool_core::__private::ResultParts>::Err,
            >::NEW)
                .error_kind()
                .prepare(__error)
        })
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    #[test]
    fn result_argument_is_a_type_argument_as_written() {
        let argument =
            |ty: syn::Type, index| result_argument(&ty, index).map(|ty| quote!(#ty).to_string());
        let result: syn::Type = parse_quote!(Result<u8, Error>);
        assert_eq!(argument(result.clone(), 0).as_deref(), Some("u8"));
        assert_eq!(argument(result, 1).as_deref(), Some("Error"));
        assert_eq!(argument(parse_quote!(io::Result<u8>), 1), None);
        assert_eq!(
            argument(parse_quote!(Result<'a, u8>), 0).as_deref(),
            Some("u8")
        );
        assert_eq!(argument(parse_quote!(Output), 0), None);
    }
}
