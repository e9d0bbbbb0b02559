//! One self-play game: a randomised and verified start, then node-limited
//! searches for both sides until the game ends or is adjudicated. Every
//! ply is kept; the trainer filters when it reads.

use crate::games::GameRecord;
use cutoff_engine::board::{Board, Color, Position};
use cutoff_engine::search::info::Discard;
use cutoff_engine::search::score::is_mate;
use cutoff_engine::search::{self, SearchJob, Settings, Team, ThreadData, ThreadPool};
use cutoff_engine::time::Limits;

/// What plays a game's searches, each from the state the game's earlier
/// searches left (table and histories) until `new_game`.
pub trait Searcher {
    /// Forgets earlier searches: an empty table, cleared histories.
    fn new_game(&mut self);

    /// Searches one job, silently.
    fn run(&mut self, job: SearchJob) -> search::SearchResult;

    fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        settings: &Settings,
    ) -> search::SearchResult {
        self.run(SearchJob::new(pos.clone(), limits, settings.clone()))
    }
}

/// Searches on a pool of one thread, which waits for each result: for
/// callers on threads of their own (openings, rescoring, tests).
pub struct OnPool<'a>(pub &'a ThreadPool);

impl Searcher for OnPool<'_> {
    fn new_game(&mut self) {
        self.0.new_game();
    }

    fn run(&mut self, job: SearchJob) -> search::SearchResult {
        self.0.search(job, &mut Discard)
    }
}

/// Searches on the pool thread that runs the whole game (`ThreadPool::start`),
/// with no hand-over to another thread per move; the same searches as
/// [`OnPool`] on a pool of one thread, so the same games.
pub struct OnThread<'a> {
    pub data: &'a mut ThreadData,
    pub team: &'a Team,
}

impl Searcher for OnThread<'_> {
    fn new_game(&mut self) {
        self.team.shared().tt.clear(1);
        self.data.clear_histories();
    }

    fn run(&mut self, job: SearchJob) -> search::SearchResult {
        self.team.shared().reset(job.limits.ponder);
        self.team.search(self.data, &job, &mut Discard)
    }
}

/// A small deterministic generator (xorshift64*), one per game.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // One SplitMix64 step spreads the seed; xorshift never leaves zero.
        Self(cutoff_engine::rng::SplitMix(seed).next_u64() | 1)
    }

    /// The generator of game `index` of a run: a game's randomness depends
    /// on the run's seed and its index alone, not on the thread playing it.
    pub fn for_game(seed: u64, index: u64) -> Self {
        Self::new(seed ^ cutoff_engine::rng::SplitMix(index).next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// How games start, are searched and are cut short.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// No new iteration after this many nodes.
    pub soft_nodes: u64,
    /// The search stops at this many nodes.
    pub hard_nodes: u64,
    pub random_plies: usize,
    /// Depth of the search that checks a randomised start is balanced.
    pub verify_depth: u32,
    /// Start from one of the 960 Chess960 positions (chosen at random).
    pub chess960: bool,
    /// Play with the hand-crafted evaluation (generation 0) instead of the network.
    pub hand_crafted: bool,
}

impl Default for GameConfig {
    /// The settings of the committed self-play corpus.
    fn default() -> Self {
        Self {
            soft_nodes: 2000,
            hard_nodes: 50_000,
            random_plies: 8,
            verify_depth: 8,
            chess960: false,
            hand_crafted: false,
        }
    }
}

/// A score this large (cp) for `WIN_PLIES` plies in a row decides the game.
const WIN_SCORE: i32 = 2000;
const WIN_PLIES: usize = 4;
/// After `DRAW_AFTER` plies, scores within `DRAW_SCORE` for `DRAW_PLIES` plies draw.
const DRAW_AFTER: usize = 80;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 12;
const MAX_PLIES: usize = 400;
/// Starts the verification search scores beyond this are thrown away.
pub const MAX_START_SCORE: i32 = 1000;
/// A start is drawn again at most this often before the run gives up.
const START_TRIES: usize = 10_000;

/// The nodes a game's searches cost: where datagen's time goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// Nodes of the searches that checked starts (rejected ones included).
    pub start_nodes: u64,
    /// Nodes of the move searches.
    pub move_nodes: u64,
    /// Move searches (one more than the plies kept when the last one's
    /// score ended the game).
    pub searches: u64,
}

impl Spent {
    pub fn add(&mut self, other: Spent) {
        self.start_nodes += other.start_nodes;
        self.move_nodes += other.move_nodes;
        self.searches += other.searches;
    }
}

/// Plays game `index` with `searcher`: the same (config, openings, seed,
/// index) give the same game, whichever searcher plays it and whatever it
/// played before (each game starts from a fresh state, see `new_game`).
pub fn play(
    config: &GameConfig,
    openings: &[Board],
    seed: u64,
    index: u64,
    searcher: &mut dyn Searcher,
) -> Result<(GameRecord, Spent), String> {
    let mut rng = Rng::for_game(seed, index);
    let mut settings = Settings::default();
    if config.hand_crafted {
        settings.network = None;
    }
    let mut spent = Spent::default();
    for _ in 0..START_TRIES {
        let start = random_start(config, openings, &settings, &mut rng, searcher);
        spent.start_nodes += start.nodes;
        if let Some(pos) = start.position {
            let record = play_from(pos, config, &settings, searcher, &mut spent);
            return Ok((record, spent));
        }
    }
    Err(format!(
        "no usable start in {START_TRIES} tries: the openings end the game or score beyond {MAX_START_SCORE}"
    ))
}

/// A start drawn by [`random_start`]: the position if it is usable, and
/// the nodes its check searched (0 when no search was needed to reject it).
pub struct Start {
    pub position: Option<Position>,
    pub nodes: u64,
}

/// A start: an opening (or a Chess960 position), random plies, then a
/// search (from a fresh state) that must find the position balanced enough
/// to be a game.
pub fn random_start(
    config: &GameConfig,
    openings: &[Board],
    settings: &Settings,
    rng: &mut Rng,
    searcher: &mut dyn Searcher,
) -> Start {
    let rejected = Start {
        position: None,
        nodes: 0,
    };
    let board = if config.chess960 {
        Board::chess960_startpos(rng.below(960) as u32)
    } else {
        openings[rng.below(openings.len())].clone()
    };
    let mut pos = Position::new(board, config.chess960);
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return rejected;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    if natural_end(&pos).is_some() {
        return rejected;
    }
    searcher.new_game();
    let found = searcher.search(&pos, Limits::depth(config.verify_depth), settings);
    Start {
        position: (found.score.abs() <= MAX_START_SCORE).then_some(pos),
        nodes: found.nodes,
    }
}

/// Plays the game out from `pos` with a fresh table and fresh histories,
/// kept from move to move; its searches' nodes are added to `spent`.
fn play_from(
    mut pos: Position,
    config: &GameConfig,
    settings: &Settings,
    searcher: &mut dyn Searcher,
    spent: &mut Spent,
) -> GameRecord {
    let start = pos.board().clone();
    searcher.new_game();
    let limits = Limits {
        nodes: Some(config.hard_nodes),
        soft_nodes: Some(config.soft_nodes),
        ..Limits::default()
    };
    let mut plies = Vec::new();
    let (mut win_run, mut draw_run) = (0, 0);
    let result = loop {
        if let Some(r) = natural_end(&pos) {
            break r;
        }
        let found = searcher.search(&pos, limits.clone(), settings);
        spent.move_nodes += found.nodes;
        spent.searches += 1;
        let Some(best) = found.best else { break 1 };
        let white = white_view(&pos, found.score);
        if is_mate(found.score) {
            break if white > 0 { 2 } else { 0 };
        }
        win_run = if white.abs() >= WIN_SCORE {
            win_run + 1
        } else {
            0
        };
        if win_run >= WIN_PLIES {
            break if white > 0 { 2 } else { 0 };
        }
        draw_run = if white.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if (plies.len() >= DRAW_AFTER && draw_run >= DRAW_PLIES) || plies.len() >= MAX_PLIES {
            break 1;
        }
        plies.push((best, stored_score(white)));
        pos.play(best);
    };
    GameRecord {
        start,
        result,
        plies,
    }
}

/// A search's score (the side to move's) from White's view.
pub fn white_view(pos: &Position, score: i32) -> i32 {
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// A White's-view score as a game record stores it.
pub fn stored_score(white: i32) -> i16 {
    white.clamp(-32_000, 32_000) as i16
}

/// The result (0, 1, 2 from White's view) if the game is over by the rules.
fn natural_end(pos: &Position) -> Option<u8> {
    if !pos.has_legal_move() {
        return Some(if !pos.in_check() {
            1
        } else if pos.side_to_move() == Color::White {
            0
        } else {
            2
        });
    }
    let draw = pos.is_insufficient_material() || pos.is_fifty_move_draw() || pos.is_repetition(0);
    draw.then_some(1)
}
