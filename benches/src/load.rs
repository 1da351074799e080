//! The load generators' one loop (`cluster_load`, `auth_load`): calls made from so many loops
//! at once for a window, after a warm-up, and what they measured.

use std::future::Future;
use std::time::{Duration, Instant};

/// What one window of calls measured.
pub struct Load {
    /// Calls answered in the window.
    pub calls: usize,
    /// Those per second.
    pub per_second: f64,
    /// The median call's latency.
    pub p50: Duration,
    /// The 99th percentile's.
    pub p99: Duration,
}

/// Makes `call()` from `concurrency` loops at once for `window`, after `warm` of warming up
/// (not counted); a call that fails stops the run with its error.
pub async fn drive<F, Fut>(
    concurrency: usize,
    warm: Duration,
    window: Duration,
    call: F,
) -> Result<Load, String>
where
    F: Fn() -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Result<(), String>> + Send,
{
    let warm = Instant::now() + warm;
    let end = warm + window;
    let mut loops = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let call = call.clone();
        loops.spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < end {
                let started = Instant::now();
                call().await?;
                if started >= warm {
                    latencies.push(started.elapsed());
                }
            }
            Ok::<_, String>(latencies)
        });
    }
    let mut latencies = Vec::new();
    while let Some(joined) = loops.join_next().await {
        latencies.extend(joined.map_err(|error| error.to_string())??);
    }
    latencies.sort();
    let at = |share: f64| {
        let index = (latencies.len() as f64 * share) as usize;
        (latencies.get(index.min(latencies.len().saturating_sub(1))))
            .copied()
            .unwrap_or_default()
    };
    Ok(Load {
        calls: latencies.len(),
        per_second: latencies.len() as f64 / window.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
    })
}
