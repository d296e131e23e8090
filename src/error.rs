//! arena's errors and how they map to exit codes: 2 when what was asked cannot be (a usage or
//! spec error, a results folder that holds another tournament), 75 when another run holds the
//! results folder, 130 when stopped by a signal, 1 for anything else. Each variant is one kind of
//! failure; its words are made where it is raised.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for something that cannot be: a bad argument, an unknown game, a
    /// missing bot.
    #[error("{0}")]
    Usage(String),
    /// The tournament spec is wrong; the message names its file, line and column.
    #[error("{0}")]
    Spec(String),
    /// The results folder holds games that are not this spec's (another game, other bots or
    /// parameters), or games the spec cannot resume.
    #[error("{0}")]
    Conflict(String),
    /// A record arena reads back (games.csv, a game log, run.json) is not one arena writes; the
    /// message names the file and line.
    #[error("{0}")]
    Corrupt(String),
    /// A replayed game log does not agree with what the referee does now.
    #[error("{0}")]
    Disagrees(String),
    /// Games that were not played: arena could not set them up (see `Setup`), or a run stopped
    /// before them (a full disk); running the same command again plays them.
    #[error("{0}")]
    Unplayed(String),
    /// `arena check` saw the bot fail.
    #[error("{0}")]
    BotFailed(String),
    /// Another run holds the results folder.
    #[error("{0}")]
    Busy(String),
    /// arena could not set a game up (a bot's pipes, folder or sandbox): the machine's fault,
    /// never a bot's. The game is not recorded.
    #[error("{0}")]
    Setup(String),
    /// Stopped by SIGINT or SIGTERM.
    #[error("interrupted")]
    Interrupted,
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
    /// A task of arena's own failed (a bug, or the machine).
    #[error("{0}")]
    Internal(String),
}

/// The exit status of a run refused because another run holds its results folder.
pub const BUSY: i32 = 75;

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) | Error::Spec(_) | Error::Conflict(_) => 2,
            Error::Interrupted => 130,
            // sysexits' EX_TEMPFAIL: a wrapper (cron) tells "still running" from a failure.
            Error::Busy(_) => BUSY,
            _ => 1,
        }
    }

    /// Wrap an I/O error with what arena was doing, e.g. the file it was writing.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
