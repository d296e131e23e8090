//! A bot as arena sees it: what to run (a program, a built-in, a person at the terminal), over which
//! channel, where. `process` starts it and talks to it; nothing else in arena touches a process.

use std::path::{Path, PathBuf};

pub mod process;
pub mod reaper;
pub mod workdir;

/// One folder for everything arena makes for its bots (working directories, FIFOs), so that a
/// sandbox can hide all of it at once. Made on first use; `remove_scratch` removes it at exit.
static SCRATCH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

pub fn scratch() -> std::io::Result<&'static Path> {
    if let Some(p) = SCRATCH.get() {
        return Ok(p);
    }
    let made = tempfile::Builder::new().prefix("arena-").tempdir()?.keep();
    // Another thread may have made one first; then ours goes.
    if SCRATCH.set(made.clone()).is_err() {
        let _ = std::fs::remove_dir(&made);
    }
    Ok(SCRATCH.get().expect("set above"))
}

/// Remove the scratch folder (the games have removed what they put in it).
pub fn remove_scratch() {
    if let Some(p) = SCRATCH.get() {
        let _ = std::fs::remove_dir_all(p);
    }
}

pub use process::{Capture, Connection, Event, SpectatorSink, StartError};

/// How a program's moves reach arena, exactly as Code Colosseum's `coco -c` offers.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
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

    /// A short name for tables and for the protocols that send names: the script or program's
    /// file stem, the built-in's name, or `human`.
    pub fn default_name(&self) -> String {
        match self {
            BotCommand::Builtin(name) => name.clone(),
            BotCommand::Terminal => "human".into(),
            BotCommand::Program(argv) => {
                // For `python3 bot.py`, the script names the bot better than the interpreter.
                let named = argv[1..]
                    .iter()
                    .rev()
                    .find(|a| Path::new(a).is_file())
                    .unwrap_or(&argv[0]);
                Path::new(named)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "bot".into())
            }
        }
    }
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
    /// Processes (RLIMIT_NPROC). The kernel counts every process of the user running arena, not
    /// just the bot's, so set it well above what the user already runs.
    pub processes: Option<u64>,
    /// Open file descriptors (RLIMIT_NOFILE).
    pub open_files: Option<u64>,
    /// Largest file the bot may write, and the most of its stderr kept, in MiB.
    pub output_mb: Option<u64>,
}

impl Limits {
    /// These limits, with `fallback`'s where these have none.
    pub fn or(self, fallback: Limits) -> Limits {
        Limits {
            memory_mb: self.memory_mb.or(fallback.memory_mb),
            cpu_seconds: self.cpu_seconds.or(fallback.cpu_seconds),
            processes: self.processes.or(fallback.processes),
            open_files: self.open_files.or(fallback.open_files),
            output_mb: self.output_mb.or(fallback.output_mb),
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
}

/// Isolation for untrusted bots, with bubblewrap: the file system read-only but for the bot's own
/// directory (and its FIFOs), the other bots' directories and FIFOs out of sight, no network, its
/// own process namespace, and the folders in `hide` (the results, the other bots' `dir`s)
/// replaced by empty, read-only ones.
#[derive(Debug, Clone, Default)]
pub struct Sandbox {
    pub hide: Vec<PathBuf>,
}

impl Sandbox {
    /// The program that provides it, or why there is none.
    pub fn bwrap() -> Result<String, String> {
        resolve_program("bwrap", Path::new("/")).map_err(|_| {
            "the sandbox needs bubblewrap: install the package 'bubblewrap' (the 'bwrap' program)"
                .to_string()
        })
    }

    /// The command line that runs `argv` inside the sandbox, working in `dir`, with `fifos` (the
    /// pipe channel's folder) reachable.
    pub fn wrap(
        &self,
        bwrap: &str,
        argv: &[String],
        dir: &Path,
        fifos: Option<&Path>,
    ) -> Vec<String> {
        let s = |p: &Path| p.to_string_lossy().into_owned();
        let mut cmd: Vec<String> = [
            bwrap,
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
        ]
        .map(String::from)
        .to_vec();
        // Every bot's directory and FIFOs live under arena's scratch folder: hide it all, then
        // open this bot's own.
        if let Ok(scratch) = scratch() {
            cmd.extend(["--tmpfs".into(), s(scratch)]);
        }
        // Hidden folders become empty and read-only: nothing can be read or left there.
        for hidden in self.hide.iter().filter(|h| h.exists()) {
            cmd.extend([
                "--tmpfs".into(),
                s(hidden),
                "--remount-ro".into(),
                s(hidden),
            ]);
        }
        for open in [Some(dir), fifos].into_iter().flatten() {
            cmd.extend(["--bind".into(), s(open), s(open)]);
        }
        cmd.extend(["--unshare-all", "--die-with-parent", "--chdir"].map(String::from));
        cmd.push(s(dir));
        cmd.push("--".into());
        cmd.extend(argv.iter().cloned());
        cmd
    }
}

impl BotSpec {
    pub fn parse(text: &str, base: &Path, channel: Channel) -> Result<BotSpec, String> {
        Ok(BotSpec {
            command: BotCommand::parse(text, base)?,
            channel,
            dir: None,
            env: Vec::new(),
            label: text.to_string(),
            limits: Limits::default(),
            sandbox: None,
        })
    }
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
