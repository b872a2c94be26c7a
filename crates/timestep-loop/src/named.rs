//! Named choices: one rule for reading every enum a user picks by name (a mode, a timer, a
//! preset, ...). Names are matched after trimming, ignoring ASCII case, and a miss says which
//! names there are.

use std::fmt;

/// An enum a user picks by name.
pub trait Named: Copy + 'static {
    /// Every value, in the order they are listed.
    const ALL: &'static [Self];
    /// What the values are, for messages: "mode", "timer", "preset".
    const WHAT: &'static str;
    /// The name a user types.
    fn name(self) -> &'static str;

    /// Reads a value from its name: trimmed, ASCII case ignored.
    ///
    /// ```
    /// use timestep_loop::{Mode, Named};
    /// assert_eq!(Mode::parse(" Semi-Fixed "), Ok(Mode::SemiFixed));
    /// let e = Mode::parse("wobbly").unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "unknown mode 'wobbly' (expected variable, semi-fixed, fixed or interpolated)"
    /// );
    /// ```
    fn parse(text: &str) -> Result<Self, UnknownName> {
        let wanted = text.trim();
        let names = Self::ALL.iter().map(|v| v.name());
        let found = Self::ALL
            .iter()
            .find(|v| is_named(v.name(), wanted))
            .copied();
        found.ok_or_else(|| UnknownName::new(Self::WHAT, wanted, names))
    }
}

/// Declares an enum a user picks by name, each variant's name written once beside it, and
/// derives the rest from that one list: an inherent `ALL` (an array, in the order listed) and
/// `name()`, [`Named`] (`WHAT` the text after `as`), `Display` (the name, padded to a width
/// when one is given) and `FromStr` ([`Named::parse`]). The enum's own attributes and each
/// variant's doc are kept; the variants carry no data.
///
/// ```
/// timestep_loop::named_enum! {
///     /// How a lamp is lit.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Lamp as "lamp" {
///         /// Not at all.
///         Off = "off",
///         /// Half way.
///         Dim = "dim",
///     }
/// }
/// assert_eq!(Lamp::ALL, [Lamp::Off, Lamp::Dim]);
/// assert_eq!(format!("{:>4}|", Lamp::Dim), " dim|");
/// assert_eq!(" DIM ".parse::<Lamp>(), Ok(Lamp::Dim));
/// let e = "on".parse::<Lamp>().unwrap_err();
/// assert_eq!(e.to_string(), "unknown lamp 'on' (expected off or dim)");
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident as $what:literal {
            $($(#[$doc:meta])* $variant:ident = $name:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $enum {
            $($(#[$doc])* $variant),+
        }

        impl $enum {
            #[doc = concat!("Every ", $what, ", in order:" $(, " `", $name, "`")+, ".")]
            $vis const ALL: [$enum; [$($name),+].len()] = [$($enum::$variant),+];

            /// The name a user types.
            $vis fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name),+
                }
            }
        }

        impl $crate::Named for $enum {
            const ALL: &'static [$enum] = &$enum::ALL;
            const WHAT: &'static str = $what;
            fn name(self) -> &'static str {
                $enum::name(self)
            }
        }

        impl ::std::fmt::Display for $enum {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.pad(self.name())
            }
        }

        impl ::std::str::FromStr for $enum {
            type Err = $crate::UnknownName;
            fn from_str(s: &str) -> Result<$enum, $crate::UnknownName> {
                <$enum as $crate::Named>::parse(s)
            }
        }
    };
}

/// A name that is none of a [`Named`] enum's names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownName {
    /// What was being chosen ("mode", "timer", ...).
    pub what: &'static str,
    /// What was given.
    pub given: String,
    /// The names there are, as a list for a message ("a, b or c").
    pub expected: String,
}

impl UnknownName {
    /// `given` is none of the `names` of `what` there are: the error a reader of names returns,
    /// its message `unknown WHAT 'GIVEN' (expected a, b or c)`.
    ///
    /// ```
    /// use timestep_loop::UnknownName;
    /// let e = UnknownName::new("lane group", "all", ["modes", "presets", "timers"]);
    /// assert_eq!(
    ///     e.to_string(),
    ///     "unknown lane group 'all' (expected modes, presets or timers)"
    /// );
    /// assert_eq!(e.expected, "modes, presets or timers");
    /// ```
    pub fn new<'a>(
        what: &'static str,
        given: impl Into<String>,
        names: impl IntoIterator<Item = &'a str>,
    ) -> UnknownName {
        UnknownName {
            what,
            given: given.into(),
            expected: one_of(names),
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}' (expected {})",
            self.what, self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

/// Whether `text` is `name` by [`Named`]'s rule: trimmed, ASCII case ignored. For a name that
/// is not one of a [`Named`] enum's (`off` beside a number, a row of a table).
///
/// ```
/// use timestep_loop::is_named;
/// assert!(is_named("off", " OFF "));
/// assert!(!is_named("off", "of"));
/// ```
pub fn is_named(name: &str, text: &str) -> bool {
    name.eq_ignore_ascii_case(text.trim())
}

/// Reads a choice typed as `KEYWORD` or `KEYWORD:PARAM` (`cap:60`, `sway:3s`, `vsync`): the
/// keyword, one of `K`'s names with ASCII case ignored, and what follows the first `:` as typed,
/// for the caller to read. The text is taken as given (trim it first: the keyword is not trimmed
/// again, so `cap :60` names no keyword). `None` when the part before the first `:` names no `K`.
///
/// ```
/// use timestep_loop::{Mode, parse_keyword};
/// assert_eq!(parse_keyword("Fixed:16ms"), Some((Mode::Fixed, Some("16ms"))));
/// assert_eq!(parse_keyword("variable"), Some((Mode::Variable, None)));
/// assert_eq!(parse_keyword::<Mode>("fixed :16ms"), None);
/// ```
pub fn parse_keyword<K: Named>(text: &str) -> Option<(K, Option<&str>)> {
    let (keyword, param) = match text.split_once(':') {
        Some((keyword, param)) => (keyword, Some(param)),
        None => (text, None),
    };
    K::ALL
        .iter()
        .copied()
        .find(|k| k.name().eq_ignore_ascii_case(keyword))
        .map(|k| (k, param))
}

/// `"a, b, c or d"`: a list of names for a message.
pub(crate) fn one_of<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_a_sentence() {
        assert_eq!(one_of([]), "");
        assert_eq!(one_of(["a"]), "a");
        assert_eq!(one_of(["a", "b", "c"]), "a, b or c");
    }
}
