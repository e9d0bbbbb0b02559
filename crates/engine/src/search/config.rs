//! The switches of the search: one field per technique, all on by default.
//!
//! Each switch turns one technique off for measurement (the lab's `ablate`,
//! match scripts through hidden UCI options `Search_<name>`). A switch that is
//! off makes the search behave as if the technique's code were not there.

/// Which search techniques are enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    pub tt: bool,
    pub aspiration: bool,
    pub pvs: bool,
    pub quiescence: bool,
    pub quiescence_checks: bool,
    pub qsearch_see: bool,
    pub delta_pruning: bool,
    pub killers: bool,
    pub countermove: bool,
    pub history: bool,
    pub null_move: bool,
    pub reverse_futility: bool,
    pub razoring: bool,
    pub futility: bool,
    pub late_move_pruning: bool,
    pub lmr: bool,
    pub see_pruning: bool,
    pub iir: bool,
    pub probcut: bool,
    pub check_extension: bool,
    pub singular_extension: bool,
    pub mate_distance_pruning: bool,
    pub correction_history: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self::ALL_ON
    }
}

/// A switch: its name (as in `Search_<name>` and the lab) and its field.
pub type Switch = (&'static str, fn(&mut SearchConfig) -> &mut bool);

impl SearchConfig {
    pub const ALL_ON: SearchConfig = SearchConfig {
        tt: true,
        aspiration: true,
        pvs: true,
        quiescence: true,
        quiescence_checks: true,
        qsearch_see: true,
        delta_pruning: true,
        killers: true,
        countermove: true,
        history: true,
        null_move: true,
        reverse_futility: true,
        razoring: true,
        futility: true,
        late_move_pruning: true,
        lmr: true,
        see_pruning: true,
        iir: true,
        probcut: true,
        check_extension: true,
        singular_extension: true,
        mate_distance_pruning: true,
        correction_history: true,
    };

    /// Every switch, in the order the lab reports them.
    pub const SWITCHES: &'static [Switch] = &[
        ("TT", |c| &mut c.tt),
        ("Aspiration", |c| &mut c.aspiration),
        ("PVS", |c| &mut c.pvs),
        ("Quiescence", |c| &mut c.quiescence),
        ("QuiescenceChecks", |c| &mut c.quiescence_checks),
        ("QsearchSEE", |c| &mut c.qsearch_see),
        ("DeltaPruning", |c| &mut c.delta_pruning),
        ("Killers", |c| &mut c.killers),
        ("Countermove", |c| &mut c.countermove),
        ("History", |c| &mut c.history),
        ("NullMove", |c| &mut c.null_move),
        ("ReverseFutility", |c| &mut c.reverse_futility),
        ("Razoring", |c| &mut c.razoring),
        ("Futility", |c| &mut c.futility),
        ("LateMovePruning", |c| &mut c.late_move_pruning),
        ("LMR", |c| &mut c.lmr),
        ("SEEPruning", |c| &mut c.see_pruning),
        ("IIR", |c| &mut c.iir),
        ("ProbCut", |c| &mut c.probcut),
        ("CheckExtension", |c| &mut c.check_extension),
        ("SingularExtension", |c| &mut c.singular_extension),
        ("MateDistancePruning", |c| &mut c.mate_distance_pruning),
        ("CorrectionHistory", |c| &mut c.correction_history),
    ];

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
