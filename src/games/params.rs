//! Game parameters (`-a key=value`, `[params]`): declared per game with defaults and bounds,
//! validated with messages that say what was expected.

use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy)]
pub enum ParamKind {
    Int {
        default: i64,
        min: i64,
        max: i64,
    },
    Float {
        default: f64,
        min: f64,
        max: f64,
    },
    Text {
        default: &'static str,
    },
    /// One of a few names. `before` is the value that games recorded before the parameter
    /// existed were played with: replays and resumes of those take it, not `default`.
    Choice {
        default: &'static str,
        choices: &'static [&'static str],
        before: &'static str,
    },
}

impl ParamKind {
    pub fn default_text(&self) -> String {
        match self {
            ParamKind::Int { default, .. } => default.to_string(),
            ParamKind::Float { default, .. } => default.to_string(),
            ParamKind::Text { default: "" } => "(empty)".into(),
            ParamKind::Text { default } | ParamKind::Choice { default, .. } => {
                format!("`{default}`")
            }
        }
    }
    pub fn bounds_text(&self) -> String {
        match self {
            ParamKind::Int { min, max, .. } => format!("{min} to {max}"),
            ParamKind::Float { min, max, .. } => format!("{min} to {max}"),
            ParamKind::Text { .. } => "text".into(),
            ParamKind::Choice { choices, .. } => choices.join(", "),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct ParamSpec {
    pub name: &'static str,
    pub help: &'static str,
    pub kind: ParamKind,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Float(f64),
    Text(String),
}

/// A game's parameters with every default filled in.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Params(BTreeMap<String, Value>);

impl Params {
    /// Check `key=value` pairs against `specs`; unknown keys and values out of bounds are refused.
    pub fn resolve<'a>(
        specs: &[ParamSpec],
        given: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Params, String> {
        let mut values: BTreeMap<String, Value> = specs
            .iter()
            .map(|s| {
                let v = match s.kind {
                    ParamKind::Int { default, .. } => Value::Int(default),
                    ParamKind::Float { default, .. } => Value::Float(default),
                    ParamKind::Text { default } | ParamKind::Choice { default, .. } => {
                        Value::Text(default.to_string())
                    }
                };
                (s.name.to_string(), v)
            })
            .collect();
        for (key, raw) in given {
            let spec = specs.iter().find(|s| s.name == key).ok_or_else(|| {
                let known: Vec<_> = specs.iter().map(|s| s.name).collect();
                if known.is_empty() {
                    format!("unknown parameter '{key}': this game takes none")
                } else {
                    format!("unknown parameter '{key}' (known: {})", known.join(", "))
                }
            })?;
            let raw = raw.trim();
            let value = match spec.kind {
                ParamKind::Int { min, max, .. } => match raw.parse::<i64>() {
                    Ok(v) if (min..=max).contains(&v) => Value::Int(v),
                    _ => {
                        return Err(format!(
                            "parameter '{key}': expected a whole number from {min} to {max}, got '{raw}'"
                        ));
                    }
                },
                ParamKind::Float { min, max, .. } => match raw.parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= min && v <= max => Value::Float(v),
                    _ => {
                        return Err(format!(
                            "parameter '{key}': expected a number from {min} to {max}, got '{raw}'"
                        ));
                    }
                },
                ParamKind::Text { .. } => Value::Text(raw.to_string()),
                ParamKind::Choice { choices, .. } if choices.contains(&raw) => {
                    Value::Text(raw.to_string())
                }
                ParamKind::Choice { choices, .. } => {
                    return Err(format!(
                        "parameter '{key}': expected one of {}, got '{raw}'",
                        choices.join(", ")
                    ));
                }
            };
            values.insert(key.to_string(), value);
        }
        Ok(Params(values))
    }

    /// Parameters read back from a record (a game log's header, `run.json`) written before some
    /// of `specs` existed: each missing choice takes the value those games were played with.
    pub fn recorded(mut self, specs: &[ParamSpec]) -> Params {
        for (name, before) in before_values(specs) {
            self.0
                .entry(name.to_string())
                .or_insert_with(|| Value::Text(before.to_string()));
        }
        self
    }

    /// Parse `key=value` strings as given on the command line.
    pub fn parse_pairs(pairs: &[String]) -> Result<Vec<(&str, &str)>, String> {
        pairs
            .iter()
            .map(|p| {
                p.split_once('=')
                    .ok_or_else(|| format!("'-a {p}': expected key=value"))
            })
            .collect()
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.0.get(name) {
            Some(Value::Int(v)) => *v,
            other => panic!("parameter {name} is not an integer: {other:?}"),
        }
    }
    pub fn float(&self, name: &str) -> f64 {
        match self.0.get(name) {
            Some(Value::Float(v)) => *v,
            Some(Value::Int(v)) => *v as f64,
            other => panic!("parameter {name} is not a number: {other:?}"),
        }
    }
    pub fn text(&self, name: &str) -> &str {
        match self.0.get(name) {
            Some(Value::Text(v)) => v,
            other => panic!("parameter {name} is not text: {other:?}"),
        }
    }

    /// Pairs back in `key=value` form, e.g. to replay a logged game with the same parameters.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::Int(i) => i.to_string(),
                    Value::Float(f) => f.to_string(),
                    Value::Text(t) => t.clone(),
                };
                (k.clone(), v)
            })
            .collect()
    }
}

/// Each choice's value in records written before it existed, and each text's (its default):
/// (name, value).
pub fn before_values(specs: &[ParamSpec]) -> impl Iterator<Item = (&'static str, &'static str)> {
    specs.iter().filter_map(|spec| match spec.kind {
        ParamKind::Choice { before, .. } => Some((spec.name, before)),
        ParamKind::Text { default } => Some((spec.name, default)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // roshambo's table: rounds (integer 1..9999, default 10), pace (number 0..30, default 0).
    const SPECS: &[ParamSpec] = crate::games::roshambo::INFO.params;

    #[test]
    fn defaults_and_overrides() {
        let p = Params::resolve(SPECS, [("rounds", "42")]).unwrap();
        assert_eq!(p.int("rounds"), 42);
        assert_eq!(p.float("pace"), 0.0);
    }

    #[test]
    fn refuses_unknown_and_out_of_bounds() {
        let e = Params::resolve(SPECS, [("round", "3")]).unwrap_err();
        assert!(
            e.contains("unknown parameter 'round'") && e.contains("rounds, pace"),
            "{e}"
        );
        let e = Params::resolve(SPECS, [("rounds", "0")]).unwrap_err();
        assert!(e.contains("from 1 to 9999"), "{e}");
        let e = Params::resolve(SPECS, [("pace", "nan")]).unwrap_err();
        assert!(e.contains("from 0 to 30"), "{e}");
        assert!(Params::parse_pairs(&["rounds".into()]).is_err());
    }

    const CHOICE: &[ParamSpec] = &[ParamSpec {
        name: "protocol",
        help: "",
        kind: ParamKind::Choice {
            default: "server",
            choices: &["server", "docs"],
            before: "docs",
        },
    }];

    #[test]
    fn a_choice_is_one_of_its_names_and_records_without_it_take_the_old_value() {
        assert_eq!(
            Params::resolve(CHOICE, []).unwrap().text("protocol"),
            "server"
        );
        let p = Params::resolve(CHOICE, [("protocol", " docs ")]).unwrap();
        assert_eq!(p.text("protocol"), "docs");
        let e = Params::resolve(CHOICE, [("protocol", "live")]).unwrap_err();
        assert!(
            e.contains("expected one of server, docs, got 'live'"),
            "{e}"
        );
        let old = Params::default().recorded(CHOICE);
        assert_eq!(old.text("protocol"), "docs");
        let new = Params::resolve(CHOICE, []).unwrap().recorded(CHOICE);
        assert_eq!(new.text("protocol"), "server");
    }
}
