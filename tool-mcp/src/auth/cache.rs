//! Tokens already checked, so that a client sending the same token on every request has it
//! checked once: each kept until it expires or for the cache's time to live, whichever comes
//! first, and at most so many, so that the cache itself is bounded. Only tokens that passed are
//! kept, so a caller cannot fill it with garbage.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use super::AccessToken;

/// The checked tokens of one server, shared by its clones.
#[derive(Clone)]
pub(crate) struct TokenCache {
    kept: Arc<Mutex<HashMap<Box<str>, Kept>>>,
    max: usize,
    ttl: Duration,
}

struct Kept {
    token: AccessToken,
    until: Instant,
}

impl TokenCache {
    /// A cache of at most `max` tokens, each kept at most `ttl`.
    pub(crate) fn new(max: usize, ttl: Duration) -> TokenCache {
        TokenCache {
            kept: Arc::default(),
            max,
            ttl,
        }
    }

    /// The checked token of this text, if it is kept and has not expired.
    pub(crate) fn get(&self, text: &str) -> Option<AccessToken> {
        let now = Instant::now();
        let mut kept = self.lock();
        match kept.get(text) {
            Some(entry) if entry.until > now => Some(entry.token.clone()),
            Some(_) => {
                kept.remove(text);
                None
            }
            None => None,
        }
    }

    /// Keeps `token`, checked from `text`, until it expires or the time to live passes.
    pub(crate) fn put(&self, text: &str, token: &AccessToken) {
        if self.max == 0 {
            return;
        }
        let now = Instant::now();
        let mut until = now + self.ttl;
        if let Some(expires) = token.expires_at() {
            let left = expires
                .duration_since(SystemTime::now())
                .unwrap_or_default();
            until = until.min(now + left);
        }
        let mut kept = self.lock();
        if kept.len() >= self.max {
            kept.retain(|_, entry| entry.until > now);
        }
        if kept.len() >= self.max {
            // Still full of live tokens: the one kept for the shortest time left goes.
            let soonest = (kept.iter())
                .min_by_key(|(_, entry)| entry.until)
                .map(|(text, _)| text.clone());
            if let Some(text) = soonest {
                kept.remove(&text);
            }
        }
        let token = token.clone();
        kept.insert(text.into(), Kept { token, until });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Box<str>, Kept>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_kept_until_it_expires_and_the_cache_is_bounded() {
        let cache = TokenCache::new(2, Duration::from_secs(60));
        let live = AccessToken::new("ann");
        cache.put("a", &live);
        assert_eq!(cache.get("a"), Some(live.clone()));
        let expired =
            AccessToken::new("bob").with_expiry(SystemTime::now() - Duration::from_secs(1));
        cache.put("b", &expired);
        assert_eq!(cache.get("b"), None);
        cache.put("c", &live);
        cache.put("d", &live);
        let kept = ["a", "c", "d"]
            .iter()
            .filter(|text| cache.get(text).is_some())
            .count();
        assert_eq!(kept, 2);
    }
}
