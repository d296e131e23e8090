//! The file an interpreter runs: `python3 students/x/bot.py`, `java -jar bot.jar`. Its program
//! exists (`python3` is in PATH), so only this word says whether the bot can start; a missing
//! one must be reported before the first game, not found as each game's crash naming the bot's
//! temporary folder. Only what is surely a file is checked: the first word after the
//! interpreter's options, when it looks like a path. `-m module`, `--depth 3` and `-cp build
//! Bot` name no file.

use std::path::{Path, PathBuf};

/// How an interpreter's command line names its script.
struct Interpreter {
    /// Options after which no script follows (the program comes inline or from a module).
    inline: &'static [&'static str],
    /// Options whose value is the next word.
    valued: &'static [&'static str],
    /// The option whose value is the script (`java -jar X.jar`); `None`: the first word that
    /// is not an option.
    flag: Option<&'static str>,
}

const PYTHON: Interpreter = Interpreter {
    inline: &["-c", "-m", "-"],
    valued: &["-W", "-X", "--check-hash-based-pycs"],
    flag: None,
};
const NODE: Interpreter = Interpreter {
    inline: &["-e", "--eval", "-p", "--print", "-"],
    valued: &[
        "-r",
        "--require",
        "--import",
        "--loader",
        "-C",
        "--conditions",
    ],
    flag: None,
};
const SHELL: Interpreter = Interpreter {
    inline: &["-c", "-s", "-"],
    valued: &["-o", "+o", "-O", "+O"],
    flag: None,
};
const RUBY: Interpreter = Interpreter {
    inline: &["-e", "-"],
    valued: &["-I", "-r", "-C", "-E"],
    flag: None,
};
const PERL: Interpreter = Interpreter {
    inline: &["-e", "-E", "-"],
    valued: &[],
    flag: None,
};
const LUA: Interpreter = Interpreter {
    inline: &["-e", "-"],
    valued: &["-l"],
    flag: None,
};
const OTHER: Interpreter = Interpreter {
    inline: &["-e", "-E", "-"],
    valued: &[],
    flag: None,
};
const JAVA: Interpreter = Interpreter {
    inline: &[],
    valued: &[],
    flag: Some("-jar"),
};

/// The interpreter a program's name is, if it is one arena knows.
fn interpreter(program: &str) -> Option<&'static Interpreter> {
    let name = Path::new(program).file_name()?.to_str()?;
    // python3.12, pypy3: a version after the name.
    let versioned = |stem: &str| {
        name.strip_prefix(stem)
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    match name {
        _ if versioned("python") || versioned("pypy") => Some(&PYTHON),
        "node" | "nodejs" => Some(&NODE),
        "sh" | "bash" | "dash" | "zsh" | "ksh" => Some(&SHELL),
        "ruby" => Some(&RUBY),
        "perl" => Some(&PERL),
        _ if versioned("lua") || name == "luajit" => Some(&LUA),
        "Rscript" | "julia" | "php" | "dotnet" | "mono" => Some(&OTHER),
        "java" => Some(&JAVA),
        _ => None,
    }
}

/// Extensions of the files interpreters run: a word without a `/` names a file only with one.
const SCRIPT_EXTENSIONS: &[&str] = &[
    "py", "pyc", "pyz", "js", "mjs", "cjs", "rb", "pl", "pm", "sh", "bash", "jar", "class", "lua",
    "r", "jl", "php", "dll", "exe",
];

fn looks_like_a_path(word: &str) -> bool {
    let extension = Path::new(word).extension().and_then(|e| e.to_str());
    word.contains('/')
        || extension.is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Where in `argv` (the program first) the script its interpreter runs is, if it names one.
pub fn index(argv: &[String]) -> Option<usize> {
    let interpreter = interpreter(argv.first()?)?;
    let mut words = argv.iter().enumerate().skip(1);
    while let Some((i, word)) = words.next() {
        if Some(word.as_str()) == interpreter.flag {
            let (j, value) = words.next()?;
            return looks_like_a_path(value).then_some(j);
        }
        if interpreter.inline.contains(&word.as_str()) {
            return None;
        }
        if interpreter.valued.contains(&word.as_str()) {
            words.next();
            continue;
        }
        if word.starts_with('-') || word.starts_with('+') {
            continue;
        }
        // Java's first word is a class, not a file.
        if interpreter.flag.is_some() {
            return None;
        }
        return looks_like_a_path(word).then_some(i);
    }
    None
}

/// A script that is not where the bot runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The word as the command line has it.
    pub written: String,
    /// The interpreter's name (`python3`).
    pub interpreter: String,
    /// Where it was looked for, absolute: from the command's folder, then the bot's `dir`.
    pub looked: Vec<PathBuf>,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let looked: Vec<String> = self
            .looked
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        write!(
            f,
            "{} does not exist ({}'s script; looked for as {})",
            self.written,
            self.interpreter,
            looked.join(" and ")
        )
    }
}

/// The script of `argv` (as `BotCommand::parse` made it: the files found in `base` already
/// absolute) when the bot, run in `dir` or else in an empty folder, would not find it.
pub fn missing(argv: &[String], base: &Path, dir: Option<&Path>) -> Option<Missing> {
    let word = &argv[index(argv)?];
    let path = Path::new(word);
    let base = std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf());
    let looked: Vec<PathBuf> = if path.is_absolute() {
        vec![path.to_path_buf()]
    } else {
        // From `base` it was not a file (else it would be absolute by now), and the bot does
        // not run there: only its `dir` can hold it.
        std::iter::once(base.join(path))
            .chain(dir.map(|d| d.join(path)))
            .collect()
    };
    let found = match dir {
        _ if path.is_absolute() => path.exists(),
        Some(d) => d.join(path).exists(),
        None => false,
    };
    let interpreter = Path::new(&argv[0])
        .file_name()
        .map_or_else(|| argv[0].clone(), |n| n.to_string_lossy().into_owned());
    (!found).then(|| Missing {
        written: word.clone(),
        interpreter,
        looked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        shell_words::split(line).unwrap()
    }

    #[test]
    fn finds_the_script_of_each_interpreter() {
        let cases: &[(&str, Option<usize>)] = &[
            ("/usr/bin/python3 bot.py", Some(1)),
            ("python3 -u students/x/bot", Some(2)),
            ("python3.11 -W ignore bot.py --depth 3", Some(3)),
            ("pypy3 bot.py", Some(1)),
            ("node --require ./x.js bot.js --depth 3", Some(3)),
            ("bash students/x/run.sh", Some(1)),
            ("sh -e run.sh", Some(2)),
            ("java -jar build/bot.jar", Some(2)),
            ("java -Xmx256m -jar bot.jar", Some(3)),
            ("ruby -I lib bot.rb", Some(3)),
            ("perl bot.pl", Some(1)),
        ];
        for (line, expected) in cases {
            assert_eq!(index(&words(line)), *expected, "{line}");
        }
    }

    #[test]
    fn names_no_file_where_the_words_are_not_paths() {
        for line in [
            "python3 -m mybot",
            "python3 -c 'import bot; bot.main()' bot.py",
            "python3 bot --depth 3",
            "java -cp build Bot",
            "java -cp build/classes bots.Main",
            "node -e 'require(\"./bot.js\")'",
            "bash -c './run.sh'",
            "./run.sh students/x/data.py",
            "/usr/bin/env python3 bot.py",
            "python3",
            "python3 -",
        ] {
            assert_eq!(index(&words(line)), None, "{line}");
        }
    }

    #[test]
    fn a_script_is_missing_unless_the_bot_finds_it_where_it_runs() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("alice");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("bot.py"), "").unwrap();
        let argv = words("python3 bot.py");
        assert_eq!(missing(&argv, base.path(), Some(&dir)), None, "in its dir");
        let lost = missing(&argv, base.path(), None).unwrap();
        assert_eq!(
            lost.to_string(),
            format!(
                "bot.py does not exist (python3's script; looked for as {})",
                base.path().join("bot.py").display()
            )
        );
        let absolute = vec!["python3".into(), dir.join("bot.py").display().to_string()];
        assert_eq!(missing(&absolute, Path::new("/"), None), None);
        let gone = vec!["python3".into(), dir.join("gone.py").display().to_string()];
        assert_eq!(
            missing(&gone, Path::new("/"), None).unwrap().looked,
            [dir.join("gone.py")]
        );
    }
}
