use tool_core::tool;

struct Point {
    x: i32,
}

/// Marks a point on the plan.
#[tool]
async fn plan_mark(
    // A renamed field, or one with a rule, is still one error at its type.
    #[serde(rename = "at")] point: Point,
    #[schemars(range(min = 1))] times: u8,
) -> i32 {
    point.x * i32::from(times)
}

fn main() {}
