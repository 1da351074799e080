//! `McpServer`'s HTTP methods without the `http` feature: each is bounded by
//! [`HttpFeature`], which no type has then, so a call of one is a compile error naming the
//! feature. None of them can be called, so none does anything.
//!
//! The bound is on a reference with a lifetime of the method's own (`&'a Self`) because a
//! bound naming no parameter of the method would be checked where it is written, not where it
//! is used.

use std::future::Future;
use std::net::SocketAddr;

use tool_core::Grant;
use tool_core::call::BoxFuture;

use super::McpServer;
use crate::features::HttpFeature;
use crate::owner::HttpRequestParts;

fn needs_http() -> std::io::Error {
    std::io::Error::other("serving HTTP needs tool-mcp's `http` feature")
}

impl McpServer {
    /// Serves HTTP without sessions. Needs the `http` feature; without it, a call of this is a
    /// compile error naming the feature.
    pub fn stateless<'a>(self) -> Self
    where
        &'a Self: HttpFeature,
    {
        self
    }

    /// Keeps answer streams for resumption without sessions. Needs the `http` feature;
    /// without it, a call of this is a compile error naming the feature.
    pub fn with_resumable_streams<'a>(self) -> Self
    where
        &'a Self: HttpFeature,
    {
        self
    }

    /// Tells who an HTTP caller is. Needs the `http` feature; without it, a call of this is a
    /// compile error naming the feature.
    pub fn with_caller<'a>(
        self,
        identify: impl Fn(&HttpRequestParts) -> Option<String> + Send + Sync + 'static,
    ) -> Self
    where
        &'a Self: HttpFeature,
    {
        drop(identify);
        self
    }

    /// Scopes each HTTP caller to a grant. Needs the `http` feature; without it, a call of
    /// this is a compile error naming the feature.
    pub fn with_grant<'a>(self, grant: impl Fn(&str) -> Grant + Send + Sync + 'static) -> Self
    where
        &'a Self: HttpFeature,
    {
        drop(grant);
        self
    }

    /// What an HTTP request without a caller may use. Needs the `http` feature; without it, a
    /// call of this is a compile error naming the feature.
    pub fn with_anonymous<'a>(self, grant: Grant) -> Self
    where
        &'a Self: HttpFeature,
    {
        drop(grant);
        self
    }

    /// Bounds how long an HTTP client may take to send a request. Needs the `http` feature;
    /// without it, a call of this is a compile error naming the feature.
    pub fn with_read_timeout<'a>(self, timeout: impl Into<Option<std::time::Duration>>) -> Self
    where
        &'a Self: HttpFeature,
    {
        let _: Option<std::time::Duration> = timeout.into();
        self
    }

    /// Serves streamable HTTP at `addr`. Needs the `http` feature; without it, a call of this
    /// is a compile error naming the feature.
    pub fn serve_http<'a>(
        self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> BoxFuture<'static, std::io::Result<()>>
    where
        &'a Self: HttpFeature,
    {
        drop((addr, shutdown));
        Box::pin(std::future::ready(Err(needs_http())))
    }

    /// Binds `addr` to serve streamable HTTP. Needs the `http` feature; without it, a call of
    /// this is a compile error naming the feature.
    #[allow(clippy::type_complexity)]
    pub fn bind_http<'a>(
        self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> BoxFuture<'static, std::io::Result<(SocketAddr, BoxFuture<'static, std::io::Result<()>>)>>
    where
        &'a Self: HttpFeature,
    {
        drop((addr, shutdown));
        Box::pin(std::future::ready(Err(needs_http())))
    }
}
