//! The switches of the search: one field per technique, all on by default.
//!
//! Each switch turns one technique off for measurement (the lab's `ablate`,
//! match scripts through hidden UCI options `Search_<name>`). A switch that is
//! off makes the search behave as if the technique's code were not there.

/// Declares the switches once, as `field: "Name"`: the fields of
/// `SearchConfig`, `ALL_ON` and `SWITCHES` (in this order).
macro_rules! declare_switches {
    ($($field:ident: $name:literal),* $(,)?) => {
        /// Which search techniques are enabled.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchConfig {
            $(pub $field: bool),*
        }

        impl SearchConfig {
            pub const ALL_ON: SearchConfig = SearchConfig { $($field: true),* };

            /// Every switch, in the order the lab reports them.
            pub const SWITCHES: &'static [Switch] = &[$(($name, |c| &mut c.$field)),*];
        }
    };
}

declare_switches! {
    tt: "TT",
    aspiration: "Aspiration",
    pvs: "PVS",
    quiescence: "Quiescence",
    quiescence_checks: "QuiescenceChecks",
    qsearch_see: "QsearchSEE",
    delta_pruning: "DeltaPruning",
    killers: "Killers",
    countermove: "Countermove",
    history: "History",
    null_move: "NullMove",
    reverse_futility: "ReverseFutility",
    razoring: "Razoring",
    futility: "Futility",
    late_move_pruning: "LateMovePruning",
    lmr: "LMR",
    see_pruning: "SEEPruning",
    iir: "IIR",
    probcut: "ProbCut",
    check_extension: "CheckExtension",
    singular_extension: "SingularExtension",
    mate_distance_pruning: "MateDistancePruning",
    correction_history: "CorrectionHistory",
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self::ALL_ON
    }
}

/// A switch: its name (as in `Search_<name>` and the lab) and its field.
pub type Switch = (&'static str, fn(&mut SearchConfig) -> &mut bool);

impl SearchConfig {
    /// The configuration with one switch (by case-insensitive name) turned off.
    pub fn without(name: &str) -> Option<SearchConfig> {
        let mut c = SearchConfig::ALL_ON;
        let (_, field) = Self::SWITCHES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
        *field(&mut c) = false;
        Some(c)
    }

    /// Sets a switch by name; false if there is no such switch.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match Self::SWITCHES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some((_, field)) => {
                *field(self) = on;
                true
            }
            None => false,
        }
    }
}
