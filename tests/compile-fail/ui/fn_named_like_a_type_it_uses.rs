use tool_core::{Context, tool};

/// Today's weather somewhere.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    /// In degrees Celsius.
    celsius: f64,
}

/// Tells today's weather in a city.
#[tool(readonly)]
async fn weather(city: String) -> Weather {
    let _ = city;
    Weather { celsius: 20.0 }
}

/// The units a reading is in.
#[derive(serde::Deserialize, schemars::JsonSchema)]
enum Units {
    Metric,
    Imperial,
}

/// Lists the units readings may be in.
#[tool(name = "units_list", readonly)]
async fn units(preferred: Option<Vec<Units>>) -> String {
    let _ = preferred;
    String::new()
}

/// Says which call this is.
#[tool(readonly)]
async fn context(ctx: &Context) -> String {
    let _ = ctx;
    String::new()
}

fn main() {}
