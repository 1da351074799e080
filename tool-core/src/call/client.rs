//! What a tool may ask of its caller's client besides a person's answer to a form: a message
//! from the client's model ([`SamplingRequest`], answered [`Sampled`]: MCP's sampling), and
//! the client's roots ([`Root`]: the folders or other places it works in). The host's
//! [`Asker`](crate::Asker) answers both; `Context::sample` and `Context::roots` ask.

/// Who wrote a message of a [`SamplingRequest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person, or the tool speaking for them.
    User,
    /// The model.
    Assistant,
}

/// One text message of a [`SamplingRequest`].
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingMessage {
    /// Who wrote it.
    pub role: Role,
    /// What it says.
    pub text: String,
}

/// A request for the client's model to write the next message of a conversation.
///
/// ```
/// use tool_core::call::SamplingRequest;
///
/// let request = SamplingRequest::new("What is the capital of France?")
///     .with_system_prompt("Answer in one word.")
///     .with_max_tokens(20);
/// assert_eq!(request.messages.len(), 1);
/// assert_eq!(request.max_tokens, 20);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingRequest {
    /// The conversation so far, oldest first.
    pub messages: Vec<SamplingMessage>,
    /// The system prompt the tool asks for; the client may use another.
    pub system_prompt: Option<String>,
    /// The most tokens the model may write.
    pub max_tokens: u32,
    /// How much the model may vary, when the tool asks.
    pub temperature: Option<f64>,
}

impl SamplingRequest {
    /// How many tokens a model may write unless the request says otherwise
    /// ([`SamplingRequest::with_max_tokens`]): enough for a paragraph.
    pub const DEFAULT_MAX_TOKENS: u32 = 500;

    /// A conversation of one message from the user: `prompt`.
    pub fn new(prompt: impl Into<String>) -> Self {
        SamplingRequest {
            messages: vec![SamplingMessage {
                role: Role::User,
                text: prompt.into(),
            }],
            system_prompt: None,
            max_tokens: Self::DEFAULT_MAX_TOKENS,
            temperature: None,
        }
    }

    /// Adds a message to the conversation.
    pub fn with_message(mut self, role: Role, text: impl Into<String>) -> Self {
        self.messages.push(SamplingMessage {
            role,
            text: text.into(),
        });
        self
    }

    /// Asks for this system prompt.
    pub fn with_system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Bounds what the model writes to `max_tokens`.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// Asks for this temperature.
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }
}

/// What the client's model wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// Its text: the message's text blocks, one after the other.
    pub text: String,
    /// The model that wrote it, as the client names it.
    pub model: String,
    /// Why it stopped (`endTurn`, `maxTokens`, ...), when the client says.
    pub stop_reason: Option<String>,
}

/// One of the client's roots: a place it works in, such as a project folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Where it is (a `file://` URI, for a folder).
    pub uri: String,
    /// What the client calls it, when it says.
    pub name: Option<String>,
}
