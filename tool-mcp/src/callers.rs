//! What each caller's searches found, for a registry with deferred loading served over HTTP
//! without a session (every MCP 2026-07-28 request, and every request to a server without
//! sessions): one [`Session`] per caller the host's caller hook names, shared by every clone of
//! the server (rmcp makes one per such request), bounded in number and forgotten once idle.
//!
//! A stdio connection and a 2025-11-25 HTTP session keep their own session in their clone of
//! the server instead; a request with no session and no caller gets an unbound one (see
//! [`Session::unbound`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tool_core::Session;

/// The callers' sessions, shared by every clone of one server.
#[derive(Clone)]
pub(crate) struct Callers {
    kept: Arc<Mutex<HashMap<String, Kept>>>,
    max: usize,
    idle: Duration,
}

/// One caller's session, when it was last used, and how many listen streams wait on it.
struct Kept {
    session: Session,
    /// Tells this entry from one made for the same caller after it was forgotten.
    token: Arc<()>,
    used: Instant,
    listening: usize,
}

impl Kept {
    fn is_idle(&self, now: Instant, idle: Duration) -> bool {
        self.listening == 0 && now.saturating_duration_since(self.used) >= idle
    }
}

impl Callers {
    /// No sessions yet, keeping at most `max` (at least one), each for `idle` after its use.
    pub(crate) fn new(max: usize, idle: Duration) -> Callers {
        Callers {
            kept: Arc::default(),
            max: max.max(1),
            idle,
        }
    }

    /// How long a caller's session is kept after its last use: also how long a shared store
    /// keeps what the caller found.
    pub(crate) fn idle(&self) -> Duration {
        self.idle
    }

    /// `caller`'s session, made afresh if it had none or it was idle past its time.
    pub(crate) fn session(&self, caller: &str) -> Session {
        let now = Instant::now();
        let mut kept = self.lock();
        self.entry(&mut kept, caller, now).session.clone()
    }

    /// `caller`'s session, held as used until the guard is dropped: a listen stream waits on
    /// it, and a session it waits on must not be replaced by a fresh one it does not hear.
    pub(crate) fn listen(&self, caller: &str) -> (Session, Listening) {
        let now = Instant::now();
        let mut kept = self.lock();
        let entry = self.entry(&mut kept, caller, now);
        entry.listening += 1;
        let session = entry.session.clone();
        let guard = Listening {
            callers: self.clone(),
            caller: caller.to_owned(),
            token: entry.token.clone(),
        };
        (session, guard)
    }

    fn entry<'a>(
        &self,
        kept: &'a mut HashMap<String, Kept>,
        caller: &str,
        now: Instant,
    ) -> &'a mut Kept {
        let fresh = kept
            .get(caller)
            .is_none_or(|entry| entry.is_idle(now, self.idle));
        if fresh {
            kept.remove(caller);
            // Making room sweeps the whole map, so it is done only when a caller is added.
            kept.retain(|_, entry| !entry.is_idle(now, self.idle));
            while kept.len() >= self.max {
                // The least recently used goes first, and one with a stream open last.
                let oldest = kept
                    .iter()
                    .min_by_key(|(_, entry)| (entry.listening > 0, entry.used))
                    .map(|(name, _)| name.clone());
                match oldest {
                    Some(name) => kept.remove(&name),
                    None => break,
                };
            }
        }
        let entry = kept.entry(caller.to_owned()).or_insert_with(|| Kept {
            session: Session::new(),
            token: Arc::new(()),
            used: now,
            listening: 0,
        });
        entry.used = now;
        entry
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Kept>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A listen stream's hold on its caller's session; dropping it counts the stream gone.
pub(crate) struct Listening {
    callers: Callers,
    caller: String,
    token: Arc<()>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let now = Instant::now();
        let mut kept = self.callers.lock();
        // The entry may have been forgotten past the bound, and another made since.
        if let Some(entry) = kept.get_mut(&self.caller)
            && Arc::ptr_eq(&entry.token, &self.token)
        {
            entry.listening = entry.listening.saturating_sub(1);
            entry.used = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_keeps_its_session_and_others_have_their_own() {
        let callers = Callers::new(10, Duration::from_secs(60));
        callers.session("ann").load("weather");
        assert_eq!(callers.session("ann").loaded(), ["weather"]);
        assert!(callers.session("bob").loaded().is_empty());
    }

    #[test]
    fn past_the_bound_the_least_recently_used_is_forgotten() {
        let callers = Callers::new(2, Duration::from_secs(30 * 60));
        callers.session("ann").load("weather");
        callers.session("bob").load("weather");
        // Ann is used again, so Bob is the one idle the longest when Cy comes.
        callers.session("ann");
        callers.session("cy");
        assert_eq!(callers.session("ann").loaded(), ["weather"]);
        assert!(callers.session("bob").loaded().is_empty());
    }

    #[test]
    fn an_idle_session_is_forgotten_unless_a_stream_listens() {
        let callers = Callers::new(10, Duration::ZERO);
        callers.session("ann").load("weather");
        assert!(callers.session("ann").loaded().is_empty());

        let (session, listening) = callers.listen("bob");
        session.load("weather");
        assert_eq!(callers.session("bob").loaded(), ["weather"]);
        drop(listening);
        assert!(callers.session("bob").loaded().is_empty());
    }
}
