//! Content blocks: one block of what a tool gives back ([`Content`]: text, an image or audio
//! as bytes, a link to a resource, a resource embedded whole, structured data with its text), and its JSON in MCP's shape
//! (`{"type": "image", "data": "<base64>", ...}`), which is also how an `Output` of blocks
//! serializes: written, and read back.

use base64::Engine as _;
use serde_json::{Value, json};

/// One block of content a tool gives back: what MCP calls a content block.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Content {
    /// Text.
    Text(String),
    /// An image: its bytes (base64 on the wire) and MIME type, such as `image/png`.
    Image {
        /// The image's bytes.
        data: Vec<u8>,
        /// Its MIME type.
        mime_type: String,
    },
    /// Audio: its bytes (base64 on the wire) and MIME type, such as `audio/wav`.
    Audio {
        /// The audio's bytes.
        data: Vec<u8>,
        /// Its MIME type.
        mime_type: String,
    },
    /// Structured data and the text a model is shown for it, when that text is not the data's
    /// JSON: MCP writes the text as a text block where this block stands and the value as the
    /// result's `structuredContent` (one value per result: the first such block's; for a
    /// 2025-11-25 client, an object's alone), so a program reads the value whole while the
    /// model reads the text; hosts that take only text show the text. A structured output
    /// larger than `Artifacts` (the `artifacts` feature) shows at once becomes one of these,
    /// its text the preview and the handle. Read back from MCP, a result with
    /// `structuredContent` is [`Output::Json`](crate::outcome::Output::Json) of the value.
    Structured {
        /// The data, whole.
        value: serde_json::Value,
        /// What a model is shown in its place.
        text: String,
    },
    /// A link to a resource the caller can fetch.
    ResourceLink {
        /// Where the resource is.
        uri: String,
        /// Its name.
        name: String,
        /// Its MIME type, when known.
        mime_type: Option<String>,
        /// What it is.
        description: Option<String>,
    },
    /// A resource embedded whole: what MCP calls an embedded resource.
    Resource {
        /// Which resource it is.
        uri: String,
        /// Its MIME type, when known.
        mime_type: Option<String>,
        /// What it holds.
        contents: ResourceContents,
    },
}

/// What an embedded [`Content::Resource`] holds: text, or bytes (base64 on the wire).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceContents {
    /// Text.
    Text(String),
    /// Bytes.
    Blob(Vec<u8>),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text(text.into())
    }

    /// An image block.
    pub fn image(data: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// An audio block.
    pub fn audio(data: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// A structured block: `value` for programs, `text` for the model.
    pub fn structured(value: serde_json::Value, text: impl Into<String>) -> Content {
        Content::Structured {
            value,
            text: text.into(),
        }
    }

    /// A resource link.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            mime_type: None,
            description: None,
        }
    }

    /// A text resource embedded whole.
    ///
    /// ```
    /// use tool_core::outcome::Content;
    ///
    /// let readme = Content::resource_text("file:///notes/README.md", "text/markdown", "# Notes");
    /// assert_eq!(readme.as_text(), "[file:///notes/README.md]\n# Notes");
    /// ```
    pub fn resource_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            contents: ResourceContents::Text(text.into()),
        }
    }

    /// A resource of bytes embedded whole.
    pub fn resource_blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        data: impl Into<Vec<u8>>,
    ) -> Content {
        Content::Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            contents: ResourceContents::Blob(data.into()),
        }
    }

    /// The block as text, for hosts that take only text: text itself; a structured block's
    /// text; a one-line stand-in for media (`[image/png image, 1024 bytes]`); a link's URI; an
    /// embedded resource's URI, then its text (or a stand-in for its bytes).
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Content::Text(text) | Content::Structured { text, .. } => text.into(),
            Content::Image { data, mime_type } => {
                format!("[{mime_type} image, {} bytes]", data.len()).into()
            }
            Content::Audio { data, mime_type } => {
                format!("[{mime_type} audio, {} bytes]", data.len()).into()
            }
            Content::ResourceLink { uri, name, .. } => format!("[{name}]({uri})").into(),
            Content::Resource {
                uri,
                mime_type,
                contents,
            } => match contents {
                ResourceContents::Text(text) => format!("[{uri}]\n{text}").into(),
                ResourceContents::Blob(data) => format!(
                    "[{uri}: {} resource, {} bytes]",
                    mime_type.as_deref().unwrap_or("binary"),
                    data.len()
                )
                .into(),
            },
        }
    }
}

/// A content block (`{"type": "image", "data": "<base64>", "mimeType": ...}`), as MCP has
/// them, a structured block as its text; also the JSON of an [`Output`] of blocks.
pub(crate) fn write_block(block: &Content) -> Value {
    let base64 = |data: &[u8]| base64::engine::general_purpose::STANDARD.encode(data);
    match block {
        Content::Text(text) | Content::Structured { text, .. } => {
            json!({"type": "text", "text": text})
        }
        Content::Image { data, mime_type } => {
            json!({"type": "image", "data": base64(data), "mimeType": mime_type})
        }
        Content::Audio { data, mime_type } => {
            json!({"type": "audio", "data": base64(data), "mimeType": mime_type})
        }
        Content::ResourceLink {
            uri,
            name,
            mime_type,
            description,
        } => {
            let mut link = json!({"type": "resource_link", "uri": uri, "name": name});
            if let Some(mime_type) = mime_type {
                link["mimeType"] = mime_type.as_str().into();
            }
            if let Some(description) = description {
                link["description"] = description.as_str().into();
            }
            link
        }
        Content::Resource {
            uri,
            mime_type,
            contents,
        } => {
            let mut resource = json!({"uri": uri});
            if let Some(mime_type) = mime_type {
                resource["mimeType"] = mime_type.as_str().into();
            }
            match contents {
                ResourceContents::Text(text) => resource["text"] = text.as_str().into(),
                ResourceContents::Blob(data) => resource["blob"] = base64(data).into(),
            }
            json!({"type": "resource", "resource": resource})
        }
    }
}

/// A content block read back; `None` for a type this framework does not have or a block
/// missing what its type needs.
pub(crate) fn read_block(block: &Value) -> Option<Content> {
    let field = |key: &str| block.get(key).and_then(Value::as_str);
    let decode = |text: &str| base64::engine::general_purpose::STANDARD.decode(text).ok();
    let bytes = || decode(field("data")?);
    match field("type")? {
        "text" => Some(Content::text(field("text")?)),
        "image" => Some(Content::image(bytes()?, field("mimeType")?)),
        "audio" => Some(Content::audio(bytes()?, field("mimeType")?)),
        "resource_link" => Some(Content::ResourceLink {
            uri: field("uri")?.to_owned(),
            name: field("name")?.to_owned(),
            mime_type: field("mimeType").map(str::to_owned),
            description: field("description").map(str::to_owned),
        }),
        "resource" => {
            let resource = block.get("resource")?;
            let field = |key: &str| resource.get(key).and_then(Value::as_str);
            let contents = match (field("text"), field("blob")) {
                (Some(text), None) => ResourceContents::Text(text.to_owned()),
                (None, Some(blob)) => ResourceContents::Blob(decode(blob)?),
                _ => return None,
            };
            Some(Content::Resource {
                uri: field("uri")?.to_owned(),
                mime_type: field("mimeType").map(str::to_owned),
                contents,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embedded_resource_is_written_in_mcps_shape_and_read_back() {
        let text = Content::resource_text("test://text", "text/plain", "hello");
        assert_eq!(
            write_block(&text),
            json!({"type": "resource", "resource":
                {"uri": "test://text", "mimeType": "text/plain", "text": "hello"}})
        );
        let blob = Content::resource_blob("test://png", "image/png", [1u8, 2, 3]);
        assert_eq!(
            write_block(&blob)["resource"]["blob"],
            "AQID",
            "bytes go as base64"
        );
        for block in [text, blob] {
            assert_eq!(read_block(&write_block(&block)), Some(block));
        }
        let both =
            json!({"type": "resource", "resource": {"uri": "x", "text": "a", "blob": "AQID"}});
        assert_eq!(
            read_block(&both),
            None,
            "a resource is text or bytes, not both"
        );
    }
}
