//! Child processes a test starts (servers, SDK clients): each is killed and reaped when its
//! guard is dropped, on a panic too, and none is waited for without a limit, so a failing test
//! neither leaves a server running after `cargo test` ends nor hangs.

use std::io::{BufRead, BufReader, Read};
use std::ops::{Deref, DerefMut};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A running child process, killed and reaped when dropped.
pub struct ChildGuard(Child);

impl ChildGuard {
    /// Starts `command`; `what` names it in the panic if it cannot start.
    pub fn spawn(command: &mut Command, what: &str) -> ChildGuard {
        match command.spawn() {
            Ok(child) => ChildGuard(child),
            Err(error) => panic!("{what} did not start: {error}"),
        }
    }

    /// Reads the first line the child writes to its (piped) stdout, waiting at most `limit`.
    pub fn first_line(&mut self, limit: Duration) -> String {
        let stdout = self.0.stdout.take().expect("the child's stdout is piped");
        let (sender, receiver) = mpsc::channel();
        thread::spawn(move || {
            let mut line = String::new();
            let read = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(read.map(|_| line));
        });
        match receiver.recv_timeout(limit) {
            Ok(Ok(line)) if !line.is_empty() => line,
            Ok(Ok(_)) => panic!("the child closed its stdout without writing a line"),
            Ok(Err(error)) => panic!("reading the child's stdout failed: {error}"),
            Err(_) => panic!("the child wrote no line within {limit:?}"),
        }
    }
}

impl ChildGuard {
    /// The URL the child says it serves at in its first line, `listening on URL`, waiting at
    /// most a minute; `what` names it in the panic if it says anything else.
    pub fn listening_on(&mut self, what: &str) -> String {
        let line = self.first_line(Duration::from_secs(60));
        line.trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("expected `listening on URL`, {what} said {line:?}"))
            .to_owned()
    }
}

impl Deref for ChildGuard {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for ChildGuard {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        // Already ended is fine: kill fails, wait reaps.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What a child that ran to its end printed.
pub struct Finished {
    /// How it ended.
    pub status: ExitStatus,
    /// Everything it wrote to stdout.
    pub stdout: Vec<u8>,
    /// Everything it wrote to stderr, as text.
    pub stderr: String,
}

/// Runs `command` to its end with stdout and stderr captured, killing it (and panicking)
/// if it is still running after `limit`.
pub fn run_within(command: &mut Command, limit: Duration, what: &str) -> Finished {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = ChildGuard::spawn(command, what);
    // Both pipes are drained while the child runs, or a full pipe would stall it.
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                drop(child);
                let stderr =
                    String::from_utf8_lossy(&stderr.join().unwrap_or_default()).into_owned();
                panic!(
                    "{what} was still running after {limit:?}, and was stopped; it wrote:\n{stderr}"
                );
            }
            Err(error) => panic!("waiting for {what} failed: {error}"),
        }
    };
    Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap_or_default()).into_owned(),
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}
