//! Watching the tools folder: a change reloads the vault and, when the tool list changed,
//! calls `on_change` (the MCP server sends `notifications/tools/list_changed`).

use std::sync::Arc;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};
use tokio_util::sync::CancellationToken;

use super::Vault;

/// Events arriving within this window are one change (an editor saves in several steps).
const SETTLE: Duration = Duration::from_millis(150);

/// Watch `vault.dir()` until `stop`. A folder that does not exist yet is not watched (the
/// error says so); the vault then only changes at the next start.
pub fn spawn(
    vault: Arc<Vault>,
    stop: CancellationToken,
    on_change: impl Fn() + Send + Sync + 'static,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if res.is_ok() {
            let _ = tx.send(());
        }
    })
    .map_err(|e| format!("cannot watch the tools folder: {e}"))?;
    watcher
        .watch(vault.dir(), RecursiveMode::Recursive)
        .map_err(|e| format!("cannot watch {}: {e}", vault.dir().display()))?;
    vault
        .watched
        .store(true, std::sync::atomic::Ordering::Relaxed);
    Ok(tokio::spawn(async move {
        let _watcher = watcher; // lives as long as the task
        loop {
            tokio::select! {
                _ = stop.cancelled() => return,
                got = rx.recv() => if got.is_none() { return },
            }
            // Let a burst of events settle, then reload once.
            tokio::time::sleep(SETTLE).await;
            while rx.try_recv().is_ok() {}
            let v = vault.clone();
            let changed = tokio::task::spawn_blocking(move || v.reload())
                .await
                .unwrap_or(false);
            if changed {
                tracing::info!(
                    tools = vault.tools().len(),
                    broken = vault.broken().len(),
                    "vault tools changed"
                );
                on_change();
            }
        }
    }))
}
