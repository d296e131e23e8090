//! arena's errors and how they map to exit codes: 2 for a usage or spec error, 1 for anything else.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The user asked for something that cannot be: a bad argument, an unknown game, a missing bot.
    #[error("{0}")]
    Usage(String),
    /// Something went wrong while doing what was asked.
    #[error("{0}")]
    Failed(String),
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
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => 2,
            Error::Interrupted => 130,
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
