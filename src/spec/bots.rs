//! A spec's bots: each `[[bot]]` read and checked (its name, command, folder, reference bots,
//! sandbox), then the bots together.

use std::ops::Range;
use std::path::{Path, PathBuf};
use crate::bot::{BotCommand, BotSpec, Channel, Sandbox};
use crate::error::{Error, Result};
use crate::games::{GameInfo, line_breaks};
use crate::format::{At, Format};

use super::counts::{field, formats_taking};
use super::raw::{Raw, RawBot, Source};
use super::Entrant;

/// A bot's `dir` inside another's lets one read and write the other's files: refused. Two bots
/// may share one folder (one program playing under two names).
pub(super) fn check_nested_dirs(
    raw: &[RawBot],
    bots: &[Entrant],
) -> std::result::Result<(), (Range<usize>, String)> {
    for (i, a) in bots.iter().enumerate() {
        for b in bots.iter() {
            let (Some(da), Some(db)) = (&a.bot.dir, &b.bot.dir) else {
                continue;
            };
            if da != db && da.starts_with(db) {
                let span = raw[i].dir.as_ref().map_or(0..0, |d| d.span());
                return Err((
                    span,
                    format!(
                        "bot '{}': its dir {} is inside bot '{}''s dir {}: each bot's folder \
                         must be its own, or one bot could read and change the other's files",
                        a.name,
                        da.display(),
                        b.name,
                        db.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A name used for folders and tables: printable, no path separators.
pub(super) fn check_name(name: &str) -> std::result::Result<(), String> {
    if name.trim().is_empty() {
        return Err("must not be empty".into());
    }
    // A name is a line of some games' streams: none of the characters a reader ends a line at.
    if name == "." || name == ".." {
        return Err(format!(
            "'{name}' cannot be used: it names a folder that is already there (this one, or the \
             one above), not a folder of its own"
        ));
    }
    let breaks = line_breaks::find(name).is_some();
    if breaks || name.contains(['/', '\\', ',', '"']) {
        return Err(format!(
            "'{}' cannot be used: names may not contain / \\ , \" or line breaks",
            line_breaks::shown(name)
        ));
    }
    Ok(())
}

/// What every bot of a spec is read against.
pub(super) struct ForBots<'a> {
    pub(super) base: &'a Path,
    pub(super) game: &'static GameInfo,
    pub(super) format: &'static dyn Format,
    pub(super) channel: Channel,
    pub(super) sandbox: &'a Option<Sandbox>,
}

/// One `[[bot]]`: its name new, its command runnable (or, in a gauntlet, graded as not
/// started, said in `warnings`), its folder there.
pub(super) fn entrant_of(
    src: &Source,
    raw: &Raw,
    b: &RawBot,
    bots: &ForBots,
    warnings: &mut Vec<String>,
) -> Result<Entrant> {
    let ForBots { base, game, format, channel, sandbox } = *bots;
    let name = b.name.get_ref();
    check_bot_name(src, raw, b)?;
    let at_command =
        |e: String| src.at(Some(b.command.span()), format!("bot '{name}': {e}"));
    let command = BotCommand::parse(b.command.get_ref(), base).map_err(at_command)?;
    match &command {
        BotCommand::Terminal => {
            return Err(at_command(
                "'-' (a person at the terminal) cannot play in a tournament".into(),
            ));
        }
        BotCommand::Builtin(n) => game.check_builtin(n).map_err(at_command)?,
        _ => {}
    }
    let dir = bot_dir(src, base, b)?;
    let seed = b.seed.as_ref().is_some_and(|s| *s.get_ref());
    if let Some(s) = &b.seed
        && seed
        && !format.takes_reference_bots()
    {
        let only = formats_taking(|f| f.takes_reference_bots());
        return Err(src.at(
            Some(s.span()),
            format!("bot '{name}': seed = true is for {only} only"),
        ));
    }
    let mut bot = BotSpec {
        command,
        channel: b.channel.unwrap_or(channel),
        dir,
        env: b.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        label: b.command.get_ref().clone(),
        limits: b.limits.or(raw.limits),
        sandbox: sandbox.clone(),
        unstartable: None,
        console: false,
    };
    if let Some(missing) = bot.command.missing_script(base, bot.dir.as_deref()) {
        let said = src.place(Some(b.command.span()), format!("bot '{name}': {missing}"));
        // A class is graded even when a student handed in nothing: that student's
        // games are lost, and the others' stand. Anywhere else it is a mistake.
        if !format.takes_reference_bots() || seed {
            return Err(Error::Spec(said));
        }
        warnings.push(format!(
            "{said}; graded anyway, as a student of the {}: each of its games is lost by \
             crash (not started)",
            format.name()
        ));
        bot.unstartable = Some(format!("could not start: {missing}"));
    }
    if let Some(sandbox) = &sandbox {
        sandbox.check_reachable(&bot).map_err(at_command)?;
    }
    Ok(Entrant {
        name: name.clone(),
        bot,
        seed,
    })
}

/// A bot's name: well formed, and not one an earlier `[[bot]]` took.
pub(super) fn check_bot_name(src: &Source, raw: &Raw, b: &RawBot) -> Result<()> {
    let name = b.name.get_ref();
    check_name(name).map_err(|e| src.at(Some(b.name.span()), format!("bot name {e}")))?;
    if let Some(first) = raw
        .bots
        .iter()
        .find(|o| o.name.get_ref() == name && o.name.span() != b.name.span())
        && first.name.span().start < b.name.span().start
    {
        let line = src.text[..first.name.span().start].matches('\n').count() + 1;
        return Err(src.at(
            Some(b.name.span()),
            format!("duplicate bot name '{name}' (first used on line {line})"),
        ));
    }
    Ok(())
}

/// A bot's own folder (`dir`), there and absolute; none if it names none.
pub(super) fn bot_dir(src: &Source, base: &Path, b: &RawBot) -> Result<Option<PathBuf>> {
    let name = b.name.get_ref();
    Ok(match &b.dir {
        None => None,
        Some(d) => {
            let p = base.join(d.get_ref());
            if !p.is_dir() {
                return Err(src.at(
                    Some(d.span()),
                    format!(
                        "bot '{name}': the directory '{}' does not exist",
                        p.display()
                    ),
                ));
            }
            Some(
                std::path::absolute(&p)
                    .map_err(Error::io(format!("resolving {}", p.display())))?,
            )
        }
    })
}

/// The sandbox every bot runs in, if the spec asks for one: bwrap there and the user known.
pub(super) fn sandbox_of(src: &Source, raw: &Raw) -> Result<Option<Sandbox>> {
    let sandboxed = raw.sandbox.as_ref().is_some_and(|s| *s.get_ref());
    let sandbox = match raw.sandbox.as_ref().filter(|_| sandboxed) {
        Some(s) => {
            Sandbox::bwrap().map_err(|e| src.at(Some(s.span()), e))?;
            let user = raw.sandbox_user.as_ref();
            let name = user.map_or(Sandbox::DEFAULT_USER, |u| u.get_ref().as_str());
            Some(Sandbox::new(name).map_err(|e| src.at(user.map(|u| u.span()), e))?)
        }
        None => None,
    };
    if let Some(u) = raw.sandbox_user.as_ref().filter(|_| !sandboxed) {
        return Err(src.at(Some(u.span()), "sandbox_user needs sandbox = true"));
    }
    Ok(sandbox)
}

/// The bots together: enough of them for the format and the game, each in a folder of its own.
pub(super) fn check_bots(
    src: &Source,
    raw: &Raw,
    bots: &[Entrant],
    format: &dyn Format,
    players: usize,
) -> Result<()> {
    let whole = Some(0..0);
    check_nested_dirs(&raw.bots, bots).map_err(|(at, e)| src.at(Some(at), e))?;
    if bots.len() < 2 {
        return Err(src.at(
            whole,
            format!(
                "a tournament needs at least two [[bot]] entries, found {}",
                bots.len()
            ),
        ));
    }
    format.check_field(&field(bots, players)).map_err(|(at, e)| {
        let span = match at {
            At::Whole => whole.clone(),
            At::Bot(i) => Some(raw.bots[i].name.span()),
        };
        src.at(span, e)
    })?;
    if bots.len() < players {
        return Err(src.at(
            whole,
            format!(
                "games of {players} players need at least {players} bots, this spec has {}",
                bots.len()
            ),
        ));
    }
    Ok(())
}
