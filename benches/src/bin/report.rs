//! Prints the suite's last run as Markdown tables: medians, the ratios the targets are set in,
//! and whether each target is met. Reads criterion's results in `target/criterion/`;
//! `benches/run` runs the suite and then this.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Median nanoseconds per iteration, by `group/function[/value]`.
type Medians = BTreeMap<String, f64>;

fn main() {
    let root = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
        .join("criterion");
    let mut medians = Medians::new();
    collect(&root, &mut medians);
    if medians.is_empty() {
        eprintln!(
            "no results under {}: run `cargo bench -p tool-benches` first",
            root.display()
        );
        std::process::exit(1);
    }
    let report = Report { medians };
    report.good_call();
    report.good_call_parts();
    report.bad_call();
    report.round_trip();
    report.definitions();
    report.call_all();
    report.arguments_from_value();
}

/// Reads every `new/benchmark.json` (its id) and `new/estimates.json` (its median) below `dir`.
fn collect(dir: &Path, medians: &mut Medians) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|name| name == "new") {
            if let (Some(id), Some(median)) = (read_id(&path), read_median(&path)) {
                medians.insert(id, median);
            }
        } else {
            collect(&path, medians);
        }
    }
}

fn read_json(path: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn read_id(dir: &Path) -> Option<String> {
    Some(
        read_json(&dir.join("benchmark.json"))?["full_id"]
            .as_str()?
            .to_owned(),
    )
}

fn read_median(dir: &Path) -> Option<f64> {
    read_json(&dir.join("estimates.json"))?["median"]["point_estimate"].as_f64()
}

struct Report {
    medians: Medians,
}

/// A duration in the unit that reads best.
fn time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "**not met**" }
}

impl Report {
    fn get(&self, id: &str) -> Option<f64> {
        self.medians.get(id).copied()
    }

    /// Rows of contender, median and ratio to `reference`, for those that ran.
    fn table(&self, title: &str, reference: &str, rows: &[(&str, String)]) {
        let Some(base) = self.get(reference) else {
            return;
        };
        println!("### {title}\n");
        println!("| contender | median | ratio |");
        println!("| --- | ---: | ---: |");
        for (label, id) in rows {
            if let Some(ns) = self.get(id) {
                println!("| {label} | {} | {:.2}× |", time(ns), ns / base);
            }
        }
        println!();
    }

    fn good_call(&self) {
        let g = |name: &str| format!("good call/{name}");
        let rows = [
            ("hand-written baseline (the limit)", g("baseline")),
            (
                "baseline through `serde_json::Value`",
                g("baseline via Value"),
            ),
            (
                "**tool-core** `from_json` → `Registry::call` → JSON",
                g("tool-core"),
            ),
            ("rig `ToolSet::execute`", g("rig ToolSet::execute")),
            (
                "rmcp, JSON-RPC text in process, router kept",
                g("rmcp, router kept"),
            ),
            (
                "rmcp, JSON-RPC text in process, router rebuilt per call",
                g("rmcp, router rebuilt per call"),
            ),
            (
                "tool-mcp `McpServer`, JSON-RPC text in process",
                g("tool-mcp McpServer"),
            ),
        ];
        self.table(
            "One good call in process (ratio to the baseline)",
            &g("baseline"),
            &rows,
        );
        let (Some(base), Some(ours)) = (self.get(&g("baseline")), self.get(&g("tool-core"))) else {
            return;
        };
        println!("| target | measured | |");
        println!("| --- | ---: | --- |");
        let ratio = ours / base;
        println!(
            "| tool-core ≤ 1.2× the baseline | {ratio:.2}× | {} |",
            met(ratio <= 1.2)
        );
        if let Some(rig) = self.get(&g("rig ToolSet::execute")) {
            let faster = rig / ours;
            println!(
                "| ≥ 5× faster than rig | {faster:.1}× | {} |",
                met(faster >= 5.0)
            );
        }
        if let Some(rmcp) = self.get(&g("rmcp, router kept")) {
            let faster = rmcp / ours;
            println!(
                "| ≥ 9× faster than rmcp (router kept) | {faster:.1}× | {} |",
                met(faster >= 9.0)
            );
        }
        println!();
    }

    /// Where the time between the baseline and tool-core goes: each part beside the
    /// baseline's, and what is left of each whole call once its parts are taken out.
    fn good_call_parts(&self) {
        let p = |name: &str| self.get(&format!("good call, part by part/{name}"));
        let g = |name: &str| self.get(&format!("good call/{name}"));
        let (
            Some(envelope_base),
            Some(envelope),
            Some(tool_base),
            Some(tool),
            Some(registry),
            Some(base),
            Some(ours),
        ) = (
            p("envelope, baseline"),
            p("envelope, tool-core"),
            p("tool, baseline"),
            p("tool, tool-core"),
            p("envelope and Registry::call, tool-core"),
            g("baseline"),
            g("tool-core"),
        )
        else {
            return;
        };
        println!("### A good call, part by part\n");
        println!("| part | baseline | tool-core | difference |");
        println!("| --- | ---: | ---: | ---: |");
        let row = |label: &str, a: f64, b: f64| {
            println!("| {label} | {} | {} | {:+.0} ns |", time(a), time(b), b - a);
        };
        row("reading the envelope", envelope_base, envelope);
        row(
            "the tool: arguments read, fn run, output written",
            tool_base,
            tool,
        );
        row(
            "the rest (derived: the whole less the two parts above): dispatch and the answer \
             written",
            base - envelope_base - tool_base,
            ours - envelope - tool,
        );
        println!(
            "| of which the registry's own part (derived: envelope and `Registry::call` less \
             the envelope and the tool; lookup, grants, limits, deadline, cancellation, \
             panics) | | {} | |",
            time(registry - envelope - tool)
        );
        row("the whole call", base, ours);
        println!(
            "\nThe derived rows are differences of medians measured apart, so they carry the \
             drift between those measurements; the instruction counts of the same parts \
             (`benches/instructions part-…`) do not.\n"
        );
    }

    fn arguments_from_value(&self) {
        let a = |name: &str| format!("arguments from a Value/{name}");
        let rows = [
            ("`serde_json::to_string`", a("serde_json::to_string")),
            ("`Arguments::from(&Value)`", a("Arguments::from(&Value)")),
        ];
        self.table(
            "Arguments made from a `serde_json::Value` (ratio to serde_json writing it)",
            &a("serde_json::to_string"),
            &rows,
        );
    }

    fn bad_call(&self) {
        let b = |name: &str| format!("bad call/{name}");
        println!("### Bad arguments (ratio to the baseline's first-error path on the same text)\n");
        println!("| call | baseline, first error | tool-core, every fault | ratio | ≤ 3× |");
        println!("| --- | ---: | ---: | ---: | --- |");
        for (label, base, ours) in [
            (
                "wrong type in a nested field",
                "baseline, first error (nested)",
                "tool-core, nested wrong type",
            ),
            (
                "three faults at once",
                "baseline, first error (three faults)",
                "tool-core, three faults",
            ),
        ] {
            if let (Some(base), Some(ours)) = (self.get(&b(base)), self.get(&b(ours))) {
                let ratio = ours / base;
                println!(
                    "| {label} | {} | {} | {ratio:.2}× | {} |",
                    time(base),
                    time(ours),
                    met(ratio <= 3.0)
                );
            }
        }
        println!();
    }

    fn round_trip(&self) {
        let r = |name: &str| format!("round trip/{name}");
        let rows = [
            (
                "hand-written JSON lines (the limit)",
                r("JSON lines, hand-written"),
            ),
            ("rmcp client → rmcp server", r("rmcp client → rmcp server")),
            (
                "rmcp client → **tool-mcp** server",
                r("rmcp client → tool-mcp server"),
            ),
            (
                "rmcp client → **tool-mcp** server behind `serve_lines` (as over stdio)",
                r("rmcp client → tool-mcp server, serve_lines"),
            ),
            (
                "tool-mcp `RemoteToolkit` → tool-mcp server",
                r("tool-mcp RemoteToolkit → tool-mcp server"),
            ),
        ];
        self.table(
            "One call, client → server → client over `tokio::io::duplex` (ratio to JSON lines)",
            &r("JSON lines, hand-written"),
            &rows,
        );
        if let (Some(rmcp), Some(ours)) = (
            self.get(&r("rmcp client → rmcp server")),
            self.get(&r("rmcp client → tool-mcp server")),
        ) {
            let ratio = ours / rmcp;
            println!("| target | measured | |");
            println!("| --- | ---: | --- |");
            println!(
                "| tool-mcp server no slower than rmcp's own | {ratio:.2}× | {} |",
                met(ratio <= 1.0)
            );
            println!();
        }
    }

    fn definitions(&self) {
        let names = [
            "definitions()",
            "export(Mcp)",
            "export(OpenAi)",
            "export(Anthropic)",
            "export(Gemini)",
        ];
        if self.get("definitions/definitions()/10").is_none() {
            return;
        }
        println!("### Definitions and exports, read again (made once, when tools change)\n");
        println!("| read | 10 tools | 100 tools | 1,000 tools |");
        println!("| --- | ---: | ---: | ---: |");
        for name in names {
            let cells: Vec<String> = [10, 100, 1000]
                .iter()
                .map(|tools| {
                    self.get(&format!("definitions/{name}/{tools}"))
                        .map_or("–".to_owned(), time)
                })
                .collect();
            println!("| `{name}` | {} |", cells.join(" | "));
        }
        println!();
    }

    fn call_all(&self) {
        let per_call = |calls: u32| {
            self.get(&format!("call_all/{calls}"))
                .map(|ns| ns / f64::from(calls))
        };
        let Some(at_ten) = per_call(10) else {
            return;
        };
        println!("### `call_all`, time per call\n");
        println!("| calls | per call | ratio to 10 |");
        println!("| ---: | ---: | ---: |");
        for calls in [1, 10, 100, 1_000, 10_000] {
            if let Some(ns) = per_call(calls) {
                println!("| {calls} | {} | {:.2}× |", time(ns), ns / at_ten);
            }
        }
        if let Some(at_most) = per_call(10_000) {
            let ratio = at_most / at_ten;
            println!(
                "\nTarget, per call at 10,000 within 1.5× of at 10: {ratio:.2}×, {}.",
                met(ratio <= 1.5)
            );
        }
        println!();
    }
}
