//! Bots' working directories: every bot starts in an empty directory of its own, under the
//! scratch folder. A directory the bot left empty is kept for the next bot rather than removed
//! and made again: on some file systems (ext4 without a journal) every new inode is searched for
//! past each one deleted in the last half minute, and two directories per game made that search
//! most of arena's cost in a tournament of short games.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

/// Directories for bots, made under one folder and given back to be reused. arena's bots share
/// one ([`Pool::shared`]), which the orphan sweep recycles; a test makes its own, so that no
/// other test can take or recycle its directories meanwhile.
#[derive(Debug)]
pub struct Pool {
    /// Where new directories are made; `None` for arena's scratch folder.
    root: Option<PathBuf>,
    /// Empty directories ready for a bot.
    ready: Mutex<Vec<PathBuf>>,
    /// Directories given back by finished bots, not yet checked: a process that escaped its
    /// bot's group may still write in one until the next orphan sweep.
    returned: Mutex<Vec<PathBuf>>,
}

static SHARED: LazyLock<Arc<Pool>> = LazyLock::new(|| Arc::new(Pool::new(None)));

impl Pool {
    fn new(root: Option<PathBuf>) -> Pool {
        Pool {
            root,
            ready: Mutex::default(),
            returned: Mutex::default(),
        }
    }

    /// The pool of every bot arena starts, in its scratch folder.
    pub fn shared() -> &'static Arc<Pool> {
        &SHARED
    }

    /// A pool of its own, making directories in `root`.
    pub fn in_dir(root: &Path) -> Arc<Pool> {
        Arc::new(Pool::new(Some(root.to_path_buf())))
    }

    /// An empty directory, reused or new; given back to this pool when dropped.
    pub fn take(self: &Arc<Self>) -> std::io::Result<WorkDir> {
        let reused = lock(&self.ready).pop();
        let path = match reused {
            Some(p) => p,
            None => {
                let root = match &self.root {
                    Some(root) => root.as_path(),
                    None => super::scratch()?,
                };
                tempfile::Builder::new()
                    .prefix("bot-")
                    .tempdir_in(root)?
                    .keep()
            }
        };
        Ok(WorkDir {
            path,
            pool: Arc::clone(self),
        })
    }

    /// The directories given back since the last call, for `recycle` once an orphan sweep
    /// that starts after this call is done: nothing a finished bot started is alive then to
    /// write in them.
    pub fn returned(&self) -> Returned {
        Returned(std::mem::take(&mut *lock(&self.returned)))
    }

    /// Pool those of `returned` left empty, and remove the others.
    pub fn recycle(&self, returned: Returned) {
        let empty: Vec<PathBuf> = returned.0.into_iter().filter(|p| reusable(p)).collect();
        lock(&self.ready).extend(empty);
    }

    /// Pool the directories given back that were left empty; the others stay given back, for
    /// `recycle` to remove. Whether none stayed. For a sweep that found no orphan: nothing a
    /// finished bot started is alive to write in them.
    pub fn pool_empty(&self) -> bool {
        let returned = std::mem::take(&mut *lock(&self.returned));
        let (empty, used): (Vec<PathBuf>, Vec<PathBuf>) = returned
            .into_iter()
            .partition(|p| left_empty(p).unwrap_or(false));
        lock(&self.ready).extend(empty);
        let all = used.is_empty();
        lock(&self.returned).extend(used);
        all
    }
}

/// Directories given back, taken out of their pool until `Pool::recycle`.
#[must_use = "recycled, or the directories are neither reused nor removed"]
pub struct Returned(Vec<PathBuf>);

/// A poisoned lock still holds a list of paths worth keeping.
fn lock(list: &Mutex<Vec<PathBuf>>) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
    list.lock().unwrap_or_else(|e| e.into_inner())
}

/// A bot's working directory; given back to its pool (or removed) when dropped, after the bot
/// and everything it started are gone.
#[derive(Debug)]
pub struct WorkDir {
    path: PathBuf,
    pool: Arc<Pool>,
}

impl WorkDir {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        lock(&self.pool.returned).push(std::mem::take(&mut self.path));
    }
}

/// Whether a bot left its directory as it found it. The bot may have changed the directory's
/// mode (that is put back); what it left inside disqualifies the directory, which is removed,
/// contents and all.
fn reusable(path: &Path) -> bool {
    let empty = left_empty(path).unwrap_or(false);
    if !empty {
        let _ = std::fs::remove_dir_all(path);
    }
    empty
}

/// Whether the directory is empty, with its mode put back to 0700 if the bot changed it. One
/// open answers both, and the mode is written only when it changed: a `chmod` per bot per game
/// dirtied every directory's inode, for the next sync to write out. The entries are read
/// straight from the kernel: `opendir` and `readdir` added four system calls to every check.
fn left_empty(path: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let open = || {
        std::fs::File::options()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
            .open(path)
    };
    let owner_only = || std::fs::Permissions::from_mode(0o700);
    let dir = match open() {
        // A mode without read or search for its owner: put it back first.
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            std::fs::set_permissions(path, owner_only())?;
            open()?
        }
        opened => opened?,
    };
    if dir.metadata()?.mode() & 0o7777 != 0o700 {
        dir.set_permissions(owner_only())?;
    }
    let mut buf = [std::mem::MaybeUninit::uninit(); 1024];
    let mut entries = rustix::fs::RawDir::new(&dir, &mut buf);
    while let Some(entry) = entries.next() {
        if !matches!(entry?.file_name().to_bytes(), b"." | b"..") {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// An empty bot directory whose mode the bot changed to `changed`: reused, mode put back.
    fn reused_after_mode(changed: u32) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot");
        std::fs::create_dir(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(changed)).unwrap();
        assert!(reusable(&path));
        assert_eq!(mode(&path), 0o700);
        (dir, path)
    }

    #[test]
    fn an_emptied_directory_is_reused_with_its_mode_reset_and_a_used_one_removed() {
        let (_dir, path) = reused_after_mode(0o500);
        std::fs::create_dir(path.join(".hidden")).unwrap();
        assert!(!reusable(&path));
        assert!(!path.exists(), "removed, contents and all");
    }

    /// Run as root (as CI does) the first open succeeds and only the mode is put back; as
    /// another user the open is refused and the mode is put back first.
    #[test]
    fn a_directory_closed_to_its_owner_is_opened_again_and_reused() {
        reused_after_mode(0o000);
    }

    #[test]
    fn a_directory_swapped_for_a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = dir.path().join("bot");
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        assert!(!reusable(&path));
        assert!(!path.exists() && !path.is_symlink(), "the link is removed");
        assert_eq!(mode(&elsewhere), 0o755, "what it pointed to is left alone");
    }

    #[test]
    fn a_directory_given_back_is_pooled_only_after_a_recycle() {
        let root = tempfile::tempdir().unwrap();
        let pool = Pool::in_dir(root.path());
        let first = pool.take().unwrap();
        let path = first.path().to_path_buf();
        assert!(path.starts_with(root.path()));
        drop(first);
        assert!(lock(&pool.ready).is_empty(), "not before the sweep");
        assert_eq!(*lock(&pool.returned), std::slice::from_ref(&path));
        pool.recycle(pool.returned());
        assert!(lock(&pool.returned).is_empty());
        assert_eq!(
            *lock(&pool.ready),
            std::slice::from_ref(&path),
            "kept, being empty"
        );
        // Reused; this time the bot leaves something in it, and it is removed.
        let again = pool.take().unwrap();
        assert_eq!(again.path(), path);
        assert!(lock(&pool.ready).is_empty());
        std::fs::write(again.path().join("left"), "x").unwrap();
        // Taken before this one was given back (a sweep under way): not this recycle's.
        let before = pool.returned();
        drop(again);
        pool.recycle(before);
        assert!(path.join("left").exists(), "left for the next sweep");
        pool.recycle(pool.returned());
        assert!(lock(&pool.ready).is_empty());
        assert!(!path.exists(), "removed, contents and all");
    }

    #[test]
    fn pooling_at_once_takes_the_empty_directories_and_leaves_the_used_ones_for_a_recycle() {
        let root = tempfile::tempdir().unwrap();
        let pool = Pool::in_dir(root.path());
        let (empty, used) = (pool.take().unwrap(), pool.take().unwrap());
        let (empty_path, used_path) = (empty.path().to_path_buf(), used.path().to_path_buf());
        std::fs::write(used.path().join("left"), "x").unwrap();
        drop((empty, used));
        assert!(!pool.pool_empty(), "one was not left empty");
        assert_eq!(*lock(&pool.ready), std::slice::from_ref(&empty_path));
        assert_eq!(*lock(&pool.returned), std::slice::from_ref(&used_path));
        assert!(used_path.join("left").exists(), "removing is the recycle's");
        pool.recycle(pool.returned());
        assert!(!used_path.exists());
        assert_eq!(*lock(&pool.ready), std::slice::from_ref(&empty_path));
        let again = pool.take().unwrap();
        drop(again);
        assert!(pool.pool_empty(), "all left empty");
        assert_eq!(*lock(&pool.ready), std::slice::from_ref(&empty_path));
    }
}
