//! Connections to the MCP HTTP server: a cap on how many are open at once, and a header-read /
//! idle timeout, so that neither slow nor idle sockets (which need no token to open) can use up
//! the process's file descriptors.
//!
//! - **Cap**: at `max_connections`, a new connection first makes room by closing the oldest
//!   connection that is idle and has never carried an authenticated request (a flood of idle
//!   sockets from one process must not lock the operator's own clients out); a connection
//!   that has authenticated is never the one closed. With no such connection, the new one is
//!   accepted and closed at once (its descriptor is freed immediately; the client sees a reset
//!   and may retry).
//! - **Timeout**: while no request is in flight on a connection, the next request must reach
//!   the router within `header_read_timeout` of the connection opening (or of the previous
//!   response ending); otherwise reads fail and hyper closes the connection. Dribbling header
//!   bytes does not extend it. A request is in flight from the router's first look at it until
//!   its response body (an SSE stream included) is finished or dropped.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, Weak};
use std::task::Waker;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, HttpBody};
use axum::extract::{ConnectInfo, Request};
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Descriptors kept free for the engine's own work (inbox and audit files, the spool, Graph and
/// LLM connections) whatever the MCP clients do.
pub const FD_HEADROOM: usize = 128;

/// State one connection shares between its socket wrapper and the requests it carries.
#[derive(Debug)]
pub struct ConnState {
    opened: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds after `opened` at which the connection last became idle.
    idle_since_ms: AtomicU64,
    /// A request on it passed authentication: never closed to make room.
    authenticated: AtomicBool,
    /// Chosen to make room: the next read fails and hyper closes the connection.
    evicted: AtomicBool,
    /// The pending read's waker, so an eviction takes effect at once.
    reader: Mutex<Option<Waker>>,
}

impl ConnState {
    fn new() -> ConnState {
        ConnState {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(0),
            authenticated: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            reader: Mutex::new(None),
        }
    }

    /// A request on this connection carried a valid credential.
    pub fn mark_authenticated(&self) {
        self.authenticated.store(true, Ordering::Release);
    }

    fn evictable(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
            && !self.authenticated.load(Ordering::Acquire)
            && !self.evicted.load(Ordering::Acquire)
    }

    fn evict(&self) {
        self.evicted.store(true, Ordering::Release);
        if let Some(w) = self.reader.lock().unwrap_or_else(|e| e.into_inner()).take() {
            w.wake();
        }
    }

    fn idle_deadline(&self, timeout: Duration) -> Instant {
        self.opened + Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire)) + timeout
    }
}

/// What the router learns about a connection (`ConnectInfo<ConnMeta>`).
#[derive(Debug, Clone)]
pub struct ConnMeta {
    pub peer: SocketAddr,
    pub state: Arc<ConnState>,
}

impl axum::extract::connect_info::Connected<IncomingStream<'_, CappedListener>> for ConnMeta {
    fn connect_info(stream: IncomingStream<'_, CappedListener>) -> Self {
        stream.remote_addr().clone()
    }
}

/// A TCP listener with a connection cap and the idle rule above.
pub struct CappedListener {
    inner: tokio::net::TcpListener,
    slots: Arc<Semaphore>,
    timeout: Duration,
    refused: u64,
    /// Every open connection (dead entries are pruned when room is made).
    open: Vec<Weak<ConnState>>,
}

impl CappedListener {
    pub fn new(inner: tokio::net::TcpListener, max: usize, timeout: Duration) -> CappedListener {
        CappedListener {
            inner,
            slots: Arc::new(Semaphore::new(max.max(1))),
            timeout,
            refused: 0,
            open: Vec::new(),
        }
    }

    /// Close the oldest idle connection that never authenticated; true when one was chosen.
    fn make_room(&mut self) -> bool {
        self.open.retain(|w| w.strong_count() > 0);
        let victim = self
            .open
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|c| c.evictable())
            .min_by_key(|c| c.opened);
        match victim {
            Some(c) => {
                c.evict();
                true
            }
            None => false,
        }
    }
}

impl Listener for CappedListener {
    type Io = GuardedIo;
    type Addr = ConnMeta;

    async fn accept(&mut self) -> (GuardedIo, ConnMeta) {
        loop {
            // axum's accept already retries (and backs off on EMFILE).
            let (tcp, peer) = Listener::accept(&mut self.inner).await;
            let mut permit = self.slots.clone().try_acquire_owned().ok();
            if permit.is_none() && self.make_room() {
                // The evicted connection's slot comes back once hyper drops its socket.
                permit = tokio::time::timeout(
                    Duration::from_millis(250),
                    self.slots.clone().acquire_owned(),
                )
                .await
                .ok()
                .and_then(Result::ok);
            }
            let Some(permit) = permit else {
                self.refused += 1;
                if self.refused.is_power_of_two() {
                    tracing::warn!(
                        refused = self.refused,
                        "MCP connection limit reached (server.max_connections): new connections are closed at once"
                    );
                }
                drop(tcp);
                continue;
            };
            // Responses go out in several small writes (headers, then SSE events): without
            // TCP_NODELAY Nagle holds the later ones until the client's delayed ACK.
            let _ = tcp.set_nodelay(true);
            let state = Arc::new(ConnState::new());
            self.open.push(Arc::downgrade(&state));
            let io = GuardedIo {
                inner: tcp,
                state: state.clone(),
                timeout: self.timeout,
                sleep: Box::pin(tokio::time::sleep(self.timeout)),
                _permit: permit,
            };
            return (io, ConnMeta { peer, state });
        }
    }

    fn local_addr(&self) -> std::io::Result<ConnMeta> {
        Ok(ConnMeta {
            peer: self.inner.local_addr()?,
            state: Arc::new(ConnState::new()),
        })
    }
}

/// The socket of one connection: reads fail once it has been idle too long. Holds the
/// connection's slot until it is dropped.
pub struct GuardedIo {
    inner: tokio::net::TcpStream,
    state: Arc<ConnState>,
    timeout: Duration,
    sleep: Pin<Box<tokio::time::Sleep>>,
    _permit: OwnedSemaphorePermit,
}

impl AsyncRead for GuardedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.state.evicted.load(Ordering::Acquire) {
            return Poll::Ready(Err(evicted()));
        }
        if self.state.in_flight.load(Ordering::Acquire) == 0 {
            *self.state.reader.lock().unwrap_or_else(|e| e.into_inner()) = Some(cx.waker().clone());
            if self.state.evicted.load(Ordering::Acquire) {
                return Poll::Ready(Err(evicted()));
            }
            let deadline = self.state.idle_deadline(self.timeout);
            if Instant::now() >= deadline {
                return Poll::Ready(Err(timed_out()));
            }
            let deadline = tokio::time::Instant::from_std(deadline);
            if self.sleep.deadline() != deadline {
                self.sleep.as_mut().reset(deadline);
            }
            if self.sleep.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Err(timed_out()));
            }
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

fn evicted() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::ConnectionAborted,
        "closed to make room: idle and never authenticated, at server.max_connections",
    )
}

fn timed_out() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "no request within server.header_read_timeout_secs",
    )
}

impl AsyncWrite for GuardedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Marks a request in flight on its connection until dropped (with the response body).
struct InFlight(Arc<ConnState>);

impl InFlight {
    fn start(state: Arc<ConnState>) -> InFlight {
        state.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(state)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let ms = self.0.opened.elapsed().as_millis() as u64;
        self.0.idle_since_ms.store(ms, Ordering::Release);
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Outermost middleware: a request is in flight until its response body ends.
pub async fn track(req: Request, next: Next) -> Response {
    let state = req
        .extensions()
        .get::<ConnectInfo<ConnMeta>>()
        .map(|c| c.0.state.clone());
    let Some(state) = state else {
        return next.run(req).await;
    };
    let guard = InFlight::start(state);
    let resp = next.run(req).await;
    resp.map(|b| {
        Body::new(TrackedBody {
            inner: b,
            _guard: guard,
        })
    })
}

struct TrackedBody {
    inner: Body,
    _guard: InFlight,
}

impl HttpBody for TrackedBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Raise the soft file limit to the hard one and return how many connections fit beside the
/// engine's own descriptors: `min(configured, soft limit − FD_HEADROOM)`.
pub fn connection_budget(configured: usize) -> usize {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read/write the struct we pass.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0;
    if !ok {
        return configured;
    }
    if lim.rlim_cur < lim.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: lim.rlim_max.min(65_536),
            rlim_max: lim.rlim_max,
        };
        // SAFETY: as above.
        if raised.rlim_cur > lim.rlim_cur
            && unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0
        {
            lim.rlim_cur = raised.rlim_cur;
        }
    }
    let soft = usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX);
    // Never below a handful, so a tiny limit still serves someone.
    let fit = soft.saturating_sub(FD_HEADROOM).max(4);
    if fit < configured {
        tracing::warn!(
            file_limit = soft,
            max_connections = fit,
            "the file limit leaves room for only {fit} MCP connections (server.max_connections = {configured}); {FD_HEADROOM} descriptors stay reserved for the engine"
        );
    }
    fit.min(configured)
}
