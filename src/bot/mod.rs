//! A bot as arena sees it: what to run (a program, a built-in, a person at the terminal), over which
//! channel, where. `process` starts it and talks to it; nothing else in arena touches a process.

use std::path::{Path, PathBuf};

pub mod chunk;
pub mod cgroup;
pub mod controllers;
pub mod descriptors;
pub mod framing;
pub mod procfs;
pub mod process;
pub mod reaper;
pub mod ready;
pub mod script;
mod spawn;
pub mod tree;
pub mod workdir;

/// One folder for everything arena makes for its bots (working directories, FIFOs). Made on
/// first use; `remove_scratch` removes it at exit, and a run that was killed leaves it for the
/// next start to remove (`remove_stale_scratch`).
static SCRATCH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Held locked for as long as this process lives, inside its scratch folder: a folder whose lock
/// nobody holds was left by a run that was killed.
static ALIVE: std::sync::OnceLock<nix::fcntl::Flock<std::fs::File>> = std::sync::OnceLock::new();
const ALIVE_FILE: &str = ".alive";
const SCRATCH_PREFIX: &str = "arena-";

pub fn scratch() -> std::io::Result<&'static Path> {
    if let Some(p) = SCRATCH.get() {
        return Ok(p);
    }
    let made = tempfile::Builder::new()
        .prefix(SCRATCH_PREFIX)
        .tempdir()?
        .keep();
    // Locked under another name, then renamed: a lock file that can be seen is already held, so
    // a start that cleans up never takes a folder being made for one that was left.
    let aside = made.join(".alive-new");
    let file = std::fs::File::create(&aside)?;
    let lock = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
        .map_err(|(_, e)| std::io::Error::from(e))?;
    std::fs::rename(&aside, made.join(ALIVE_FILE))?;
    // Another thread may have made one first; then ours goes.
    if SCRATCH.set(made.clone()).is_err() {
        drop(lock);
        let _ = std::fs::remove_dir_all(&made);
    } else {
        let _ = ALIVE.set(lock);
    }
    Ok(SCRATCH.get().expect("set above"))
}

/// Whether arena runs as root, asked before every bot starts: arena never changes its user.
pub fn is_root() -> bool {
    static ROOT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ROOT.get_or_init(|| nix::unistd::geteuid().is_root())
}

/// Remove the scratch folder (the games have removed what they put in it), and this run's
/// cgroups.
pub fn remove_scratch() {
    if let Some(p) = SCRATCH.get() {
        let _ = std::fs::remove_dir_all(p);
    }
    cgroup::remove_run();
    controllers::remove_run();
}

/// Remove the scratch folders that runs killed before they could clean up left in the temp
/// folder (those of this user whose lock nobody holds; returns how many), and their cgroups.
pub fn remove_stale_scratch() -> usize {
    cgroup::remove_stale();
    controllers::remove_stale();
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return 0;
    };
    let me = nix::unistd::geteuid().as_raw();
    let mut removed = 0;
    for entry in entries.flatten() {
        let is_ours = entry
            .file_name()
            .to_string_lossy()
            .starts_with(SCRATCH_PREFIX)
            && entry.metadata().is_ok_and(|m| m.is_dir() && m.uid() == me);
        if !is_ours {
            continue;
        }
        let dir = entry.path();
        let Ok(file) = std::fs::File::open(dir.join(ALIVE_FILE)) else {
            continue;
        };
        if let Ok(lock) = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
        {
            let _ = std::fs::remove_dir_all(&dir);
            drop(lock);
            removed += 1;
        }
    }
    removed
}

pub use process::{Capture, Connection, Event, SpectatorSink, Start, StartError};

/// How a program's moves reach arena, exactly as Code Colosseum's `coco -c` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// The bot reads its stdin and writes its stdout; stderr is free.
    #[default]
    Stdio,
    /// Two FIFOs named by `COCO_PIPEIN` (arena to bot) and `COCO_PIPEOUT` (bot to arena).
    Pipe,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotCommand {
    /// A program and its arguments, paths already made absolute.
    Program(Vec<String>),
    /// One of the game's own bots, `builtin:NAME`.
    Builtin(String),
    /// `-`: a person plays on this terminal.
    Terminal,
}

impl BotCommand {
    /// Parse a BOT argument. Relative paths (the program, and any argument naming an existing
    /// file) are taken from `base` and made absolute, because the bot runs in its own directory.
    pub fn parse(text: &str, base: &Path) -> Result<BotCommand, String> {
        let text = text.trim();
        if text == "-" {
            return Ok(BotCommand::Terminal);
        }
        if let Some(name) = text.strip_prefix("builtin:") {
            return Ok(BotCommand::Builtin(name.to_string()));
        }
        // The bot runs in a directory of its own: every path must be absolute.
        let base = std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf());
        let base = base.as_path();
        let words = shell_words::split(text).map_err(|e| format!("cannot split '{text}': {e}"))?;
        let Some((program, args)) = words.split_first() else {
            return Err("empty command".into());
        };
        let mut argv = vec![resolve_program(program, base)?];
        for arg in args {
            let candidate = base.join(arg);
            if Path::new(arg).is_relative() && !arg.starts_with('-') && candidate.is_file() {
                argv.push(candidate.to_string_lossy().into_owned());
            } else {
                argv.push(arg.clone());
            }
        }
        Ok(BotCommand::Program(argv))
    }

    /// As [`BotCommand::parse`], for a command run in an empty folder of its own (every one
    /// but a spec's bot with a `dir`): a script its interpreter would not find is refused.
    pub fn parse_runnable(text: &str, base: &Path) -> Result<BotCommand, String> {
        let command = BotCommand::parse(text, base)?;
        match command.missing_script(base, None) {
            Some(missing) => Err(missing.to_string()),
            None => Ok(command),
        }
    }

    /// The script its interpreter runs, when the bot would not find it in `dir` (its working
    /// folder; `None`: an empty one). `base` is the folder its relative paths were read from.
    pub fn missing_script(&self, base: &Path, dir: Option<&Path>) -> Option<script::Missing> {
        match self {
            BotCommand::Program(argv) => script::missing(argv, base, dir),
            _ => None,
        }
    }

    /// A short name for tables and for the protocols that send names: the script or program's
    /// file stem, the built-in's name, or `human`.
    pub fn default_name(&self) -> String {
        match self {
            BotCommand::Builtin(name) => name.clone(),
            BotCommand::Terminal => "human".into(),
            BotCommand::Program(argv) => {
                // For `python3 bot.py`, the script names the bot better than the interpreter.
                let named = script::index(argv)
                    .map(|i| &argv[i])
                    .or_else(|| argv[1..].iter().rev().find(|a| Path::new(a).is_file()))
                    .unwrap_or(&argv[0]);
                name_of_file(Path::new(named))
            }
        }
    }
}

/// Stems that say nothing of which bot a file is (`bots/alice/run.sh`, `students/bob/main.py`,
/// `Player.java` as CodinGame names every bot): such a bot is named after its folder.
const GENERIC_STEMS: &[&str] = &[
    "run", "main", "bot", "player", "index", "start", "app", "program", "solution", "__main__",
];

/// A bot's name from the file it runs: its stem, or its folder's name when the stem is generic.
fn name_of_file(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let generic = stem
        .as_ref()
        .is_none_or(|s| GENERIC_STEMS.contains(&s.to_ascii_lowercase().as_str()));
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .map(|f| f.to_string_lossy().into_owned())
        .filter(|f| !f.starts_with('.'));
    match (generic, folder, stem) {
        (true, Some(folder), _) => folder,
        (_, _, Some(stem)) => stem,
        _ => "bot".into(),
    }
}

/// A program's argv as one command line that `BotCommand::parse` splits back into it, to show
/// people (a line a log names, to copy into `--referee`). Control characters, newlines and tabs
/// among them, are shown escaped: a line must stay one line, whatever a forged log holds.
pub fn shell_line(argv: &[String]) -> String {
    let line = shell_words::join(argv);
    let mut shown = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '\n' => shown.push_str("\\n"),
            '\t' => shown.push_str("\\t"),
            c => shown.push(c),
        }
    }
    crate::out::shown(&shown).into_owned()
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Find the program as a shell would, but also accept a file in `base` without `./`.
fn resolve_program(program: &str, base: &Path) -> Result<String, String> {
    let local = base.join(program);
    if program.contains('/') || local.is_file() {
        if !local.exists() {
            return Err(format!("'{program}' does not exist"));
        }
        if !is_executable(&local) {
            return Err(format!(
                "'{program}' is not executable (chmod +x it, or name its interpreter: \"python3 {program}\")"
            ));
        }
        return Ok(local.to_string_lossy().into_owned());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
        .map(|p| p.to_string_lossy().into_owned())
        .ok_or_else(|| format!("'{program}' is not a file here and was not found in PATH"))
}

/// Resource limits for a bot's processes, set with setrlimit before the bot starts. `None`
/// leaves a limit as arena's own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Address space, in MiB (RLIMIT_AS).
    pub memory_mb: Option<u64>,
    /// CPU time in seconds (RLIMIT_CPU): the kernel sends SIGXCPU, then SIGKILL.
    pub cpu_seconds: Option<u64>,
    /// Processes and threads of the bot: a pids controller's `pids.max`, else RLIMIT_NPROC in a
    /// user namespace of the bot's own (where it counts the bot's alone), else every process
    /// below the bot counted by arena while it waits for the bot (`controllers::process_hold`).
    pub processes: Option<u64>,
    /// Open file descriptors (RLIMIT_NOFILE).
    pub open_files: Option<u64>,
    /// Largest file the bot may write, and the most of its stderr kept, in MiB.
    pub output_mb: Option<u64>,
    /// In the sandbox, the size of the bot's writable `/tmp` and of its `/dev/shm` (each a
    /// tmpfs), in MiB.
    pub disk_mb: Option<u64>,
}

impl Limits {
    /// Each limit with its name in a spec's `[limits]`.
    pub fn named(&self) -> [(&'static str, Option<u64>); 6] {
        [
            ("memory_mb", self.memory_mb),
            ("cpu_seconds", self.cpu_seconds),
            ("processes", self.processes),
            ("open_files", self.open_files),
            ("output_mb", self.output_mb),
            ("disk_mb", self.disk_mb),
        ]
    }

    /// These limits, with `fallback`'s where these have none.
    pub fn or(self, fallback: Limits) -> Limits {
        Limits {
            memory_mb: self.memory_mb.or(fallback.memory_mb),
            cpu_seconds: self.cpu_seconds.or(fallback.cpu_seconds),
            processes: self.processes.or(fallback.processes),
            open_files: self.open_files.or(fallback.open_files),
            output_mb: self.output_mb.or(fallback.output_mb),
            disk_mb: self.disk_mb.or(fallback.disk_mb),
        }
    }
}

/// Everything needed to start one bot.
#[derive(Debug, Clone)]
pub struct BotSpec {
    pub command: BotCommand,
    pub channel: Channel,
    /// Working directory; `None` gives the bot a fresh temporary directory per game.
    pub dir: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    /// The BOT argument as the user wrote it, for logs and messages.
    pub label: String,
    pub limits: Limits,
    /// Run the bot in a sandbox (see `sandbox`); `None` runs it as the user, unconfined.
    pub sandbox: Option<Sandbox>,
    /// Why the bot cannot start, known before any game (a student's missing script, in a
    /// gauntlet that grades the class anyway): each of its games is lost at once, as a
    /// program that could not be started, with these words.
    pub unstartable: Option<String>,
    /// On the pipe channel, leave the bot arena's own standard input and output, as coco does,
    /// instead of /dev/null: with a terminal there, a person can drive the bot. Never given to a
    /// sandboxed bot, which must not reach the user's terminal.
    pub console: bool,
}

/// Isolation for untrusted bots, with bubblewrap. The bot sees a file system of its own: the
/// system's folders read-only, the files named on its command line and its `dir` read-only, a
/// size-limited tmpfs as `/tmp` (its working directory when it has no `dir`), and on the pipe
/// channel its two FIFOs; nothing else of the machine (no /tmp, /home, /root, results, other
/// bots, other runs). It has its own pid, network, IPC and host-name namespaces, no capability,
/// no terminal (a new session), and dies with arena. Run as root, arena starts it as `user`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// The unprivileged uid and gid the bot runs as when arena runs as root.
    pub user: (u32, u32),
}

/// The system folders a sandboxed bot sees, read-only (each where it exists).
const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The sandbox's own processes above the bot: bwrap, and the first process of the bot's pid
/// namespace (bwrap's reaper there).
pub const SANDBOX_WRAPPERS: usize = 2;

impl Sandbox {
    pub const DEFAULT_USER: &'static str = "nobody";
    /// The writable `/tmp` of a sandboxed bot, in MiB, unless `[limits] disk_mb` says.
    pub const DEFAULT_DISK_MB: u64 = 64;

    /// A sandbox running bots as `user` (a name or a number) when arena runs as root.
    pub fn new(user: &str) -> Result<Sandbox, String> {
        let found = match user.parse::<u32>() {
            Ok(uid) => nix::unistd::User::from_uid(uid.into())
                .ok()
                .flatten()
                .map(|u| (u.uid.as_raw(), u.gid.as_raw()))
                .or(Some((uid, uid))),
            Err(_) => nix::unistd::User::from_name(user)
                .ok()
                .flatten()
                .map(|u| (u.uid.as_raw(), u.gid.as_raw())),
        };
        let Some((uid, gid)) = found else {
            return Err(format!(
                "sandbox_user '{user}' is not a user on this machine"
            ));
        };
        if uid == 0 || gid == 0 {
            return Err(format!(
                "sandbox_user '{user}' is root: sandboxed bots never run as root"
            ));
        }
        Ok(Sandbox { user: (uid, gid) })
    }

    /// The program that provides it, or why there is none.
    pub fn bwrap() -> Result<String, String> {
        resolve_program("bwrap", Path::new("/")).map_err(|_| {
            "the sandbox needs bubblewrap: install the package 'bubblewrap' (the 'bwrap' program)"
                .to_string()
        })
    }

    /// Run as root, arena starts the sandbox as `user`, who must be able to reach the bot's
    /// program, the files its command line names and its `dir`: say which one it cannot, and
    /// why, before any game starts.
    pub fn check_reachable(&self, bot: &BotSpec) -> Result<(), String> {
        use std::os::unix::fs::MetadataExt;
        if !is_root() {
            return Ok(());
        }
        let (uid, gid) = self.user;
        let allows = |m: &std::fs::Metadata, bits: u32| {
            let mode = m.mode();
            let granted = if m.uid() == uid {
                mode >> 6
            } else if m.gid() == gid {
                mode >> 3
            } else {
                mode
            };
            granted & bits == bits
        };
        let BotCommand::Program(argv) = &bot.command else {
            return Ok(());
        };
        let files = argv
            .iter()
            .map(Path::new)
            .filter(|p| p.is_absolute() && p.exists())
            .chain(bot.dir.as_deref());
        for path in files {
            let blocked = path
                .ancestors()
                .skip(1)
                .filter(|a| !a.as_os_str().is_empty())
                .find(|a| std::fs::metadata(a).is_ok_and(|m| !allows(&m, 0o1)))
                .or_else(|| {
                    let m = std::fs::metadata(path).ok()?;
                    let need = if m.is_dir() { 0o5 } else { 0o4 };
                    (!allows(&m, need)).then_some(path)
                });
            if let Some(b) = blocked {
                let mode = std::fs::metadata(b).map_or(0, |m| m.mode() & 0o777);
                return Err(format!(
                    "sandboxed bots run as uid {uid}, who cannot reach {} ({} is mode {mode:o}): \
                     put the bot's files where every user can read them (for Python, use \
                     /usr/bin/python3 rather than one installed in a home folder), or set \
                     sandbox_user",
                    path.display(),
                    b.display()
                ));
            }
        }
        Ok(())
    }

    /// Where the bot works inside the sandbox: its `dir`, or its tmpfs.
    pub fn workdir(dir: Option<&Path>) -> PathBuf {
        dir.map_or_else(|| PathBuf::from("/tmp"), Path::to_path_buf)
    }

    /// The command line that runs `argv` inside the sandbox, in `dir` (read-only) or else in its
    /// tmpfs of `disk_mb` MiB, with `fifos` (the pipe channel's folder) writable. `/dev` is
    /// read-only, and `/dev/shm` a tmpfs of `disk_mb` MiB too: no tmpfs the bot may write is
    /// unsized. The bot is started through a shell that first writes a byte to `ready_fd` (and
    /// closes it): a sandbox that could not be set up never says it is ready, and no bot can say
    /// it for it. With `processes`, the sandbox gets a user namespace of its own (bwrap fails
    /// rather than go on without one), where that shell sets RLIMIT_NPROC: there it counts the
    /// bot's processes and threads, and bwrap's first process, alone.
    #[allow(clippy::too_many_arguments)]
    pub fn wrap(
        &self,
        bwrap: &str,
        argv: &[String],
        dir: Option<&Path>,
        fifos: Option<&Path>,
        disk_mb: u64,
        processes: Option<u64>,
        ready_fd: i32,
    ) -> Vec<String> {
        let s = |p: &Path| p.to_string_lossy().into_owned();
        let mut cmd: Vec<String> = vec![bwrap.into()];
        let mut arg = |words: &[&str]| cmd.extend(words.iter().map(|w| w.to_string()));
        arg(&[
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
        ]);
        if processes.is_some() {
            arg(&["--unshare-user"]);
        }
        for system in SYSTEM_DIRS {
            let path = Path::new(system);
            match std::fs::read_link(path) {
                // Merged /usr: /bin is a link to usr/bin, and stays one.
                Ok(target) => arg(&["--symlink", &s(&target), system]),
                Err(_) if path.is_dir() => arg(&["--ro-bind", system, system]),
                Err(_) => {}
            }
        }
        let bytes = (disk_mb.max(1) * 1024 * 1024).to_string();
        // bwrap's /dev is an unsized tmpfs, /dev/shm a folder in it: sized here, and the rest
        // of /dev read-only.
        arg(&[
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            &bytes,
            "--tmpfs",
            "/dev/shm",
            "--remount-ro",
            "/dev",
            "--size",
            &bytes,
            "--tmpfs",
            "/tmp",
        ]);
        // The program and the files its command line names (its script, its data), where the
        // system folders do not already show them.
        let system = |p: &Path| SYSTEM_DIRS.iter().any(|d| p.starts_with(d));
        for word in argv {
            let path = Path::new(word);
            if path.is_absolute() && path.exists() && !system(path) {
                arg(&["--ro-bind", word, word]);
            }
        }
        if let Some(dir) = dir {
            arg(&["--ro-bind", &s(dir), &s(dir)]);
        }
        if let Some(fifos) = fifos {
            arg(&["--bind", &s(fifos), &s(fifos)]);
        }
        arg(&[
            "--chdir",
            &s(&Self::workdir(dir)),
            "--setenv",
            "TMPDIR",
            "/tmp",
        ]);
        // bwrap's first process in the namespace counts too.
        let nproc = processes.map_or(String::new(), |n| {
            format!("ulimit -u {} && ", n.saturating_add(1))
        });
        let ready = format!(
            "{nproc}printf . >&{fd} && exec {fd}>&- && exec \"$@\"",
            fd = ready_fd
        );
        // bash, not sh: dash cannot name a descriptor above 9.
        arg(&["--", "/bin/bash", "-c", &ready, "arena-sandbox"]);
        cmd.extend(argv.iter().cloned());
        cmd
    }
}

impl BotSpec {
    /// A BOT argument for `game`: as [`BotSpec::parse`], and a built-in must be one of the game's.
    pub fn for_game(
        text: &str,
        base: &Path,
        channel: Channel,
        game: &crate::games::GameInfo,
    ) -> Result<BotSpec, String> {
        let spec = BotSpec::parse(text, base, channel)?;
        if let BotCommand::Builtin(name) = &spec.command {
            game.check_builtin(name)?;
        }
        Ok(spec)
    }

    /// A BOT argument, relative paths from `base`; a script its interpreter would not find is
    /// refused here, before any game.
    pub fn parse(text: &str, base: &Path, channel: Channel) -> Result<BotSpec, String> {
        Ok(BotSpec {
            command: BotCommand::parse_runnable(text, base)?,
            channel,
            dir: None,
            env: Vec::new(),
            label: text.to_string(),
            limits: Limits::default(),
            sandbox: None,
            unstartable: None,
            console: false,
        })
    }
}


/// Names for players in seat order from their plain names: a name that more than one player
/// has gets its seat's number from 1 (`random-1`, `random-2`), or the next number no other
/// player's name takes (`x, x, x-2` are `x-1, x-3, x-2`), so that every name is distinct.
pub fn distinct_names(plain: Vec<String>) -> Vec<String> {
    let count = |name: &String| plain.iter().filter(|&m| m == name).count();
    let mut taken: std::collections::HashSet<String> =
        plain.iter().filter(|n| count(n) == 1).cloned().collect();
    plain
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            if count(name) == 1 {
                return name.clone();
            }
            let free = (seat + 1..)
                .map(|k| format!("{name}-{k}"))
                .find(|candidate| !taken.contains(candidate))
                .expect("some number is free");
            taken.insert(free.clone());
            free
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_kinds_of_bot_argument() {
        let base = std::env::current_dir().unwrap();
        assert_eq!(
            BotCommand::parse("builtin:random", &base),
            Ok(BotCommand::Builtin("random".into()))
        );
        assert_eq!(BotCommand::parse("-", &base), Ok(BotCommand::Terminal));
        let BotCommand::Program(argv) =
            BotCommand::parse("sh -c 'echo a b' Cargo.toml", &base).unwrap()
        else {
            panic!("a program")
        };
        assert!(argv[0].ends_with("/sh"), "{argv:?}");
        assert_eq!(argv[1..3], ["-c".to_string(), "echo a b".to_string()]);
        assert_eq!(
            argv[3],
            base.join("Cargo.toml").to_string_lossy(),
            "existing files are made absolute"
        );
        assert_eq!(
            BotCommand::Program(argv).default_name(),
            "Cargo",
            "named after the file it runs"
        );
    }

    #[test]
    fn a_bot_is_named_after_its_interpreters_script() {
        let base = tempfile::tempdir().unwrap();
        for file in ["alice.py", "weights.txt"] {
            std::fs::write(base.path().join(file), "").unwrap();
        }
        let bot = BotCommand::parse("python3 alice.py weights.txt", base.path()).unwrap();
        assert_eq!(bot.default_name(), "alice", "not after its data file");
    }

    #[test]
    fn a_script_with_a_generic_name_names_its_bot_after_its_folder() {
        let base = tempfile::tempdir().unwrap();
        for (folder, file) in [("alice", "run.sh"), ("bob", "Player.java"), ("carol", "main.py")] {
            std::fs::create_dir(base.path().join(folder)).unwrap();
            std::fs::write(base.path().join(folder).join(file), "").unwrap();
        }
        let name = |line: &str| BotCommand::parse(line, base.path()).unwrap().default_name();
        assert_eq!(name("sh alice/run.sh"), "alice");
        assert_eq!(name("java bob/Player.java"), "bob");
        assert_eq!(name("python3 -u carol/main.py"), "carol");
        assert_eq!(name("python3 carol/../alice/run.sh"), "alice");
    }

    #[test]
    fn names_made_distinct_never_collide() {
        let names = |plain: &[&str]| distinct_names(plain.iter().map(|s| s.to_string()).collect());
        assert_eq!(names(&["x", "x", "x-2"]), ["x-1", "x-3", "x-2"]);
        assert_eq!(names(&["a", "b"]), ["a", "b"]);
        assert_eq!(names(&["r", "r", "r"]), ["r-1", "r-2", "r-3"]);
        for plain in [
            vec!["x", "x-1", "x", "x-2", "x-3"],
            vec!["y-2", "y", "y", "y-2"],
            vec!["z", "z", "z-1", "z-1"],
        ] {
            let made = names(&plain);
            let mut unique = made.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), made.len(), "{plain:?} gave {made:?}");
        }
    }

    #[test]
    fn refuses_a_missing_script() {
        let base = tempfile::tempdir().unwrap();
        let e = BotSpec::parse("python3 -u x/bot.py", base.path(), Channel::Stdio).unwrap_err();
        assert!(
            e.starts_with("x/bot.py does not exist (python3's script"),
            "{e}"
        );
    }

    #[test]
    fn refuses_missing_and_non_executable_programs() {
        let base = std::env::current_dir().unwrap();
        let e = BotCommand::parse("no-such-program-xyz", &base).unwrap_err();
        assert!(e.contains("not found in PATH"), "{e}");
        let e = BotCommand::parse("./missing.py", &base).unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        let e = BotCommand::parse("Cargo.toml", &base).unwrap_err();
        assert!(e.contains("not executable"), "{e}");
        assert!(BotCommand::parse("python3 'unclosed", &base).is_err());
        assert!(BotCommand::parse("  ", &base).is_err());
    }
}
