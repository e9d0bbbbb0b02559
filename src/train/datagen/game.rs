//! One self-play game: a randomised opening, then fixed-node searches for
//! both sides, recording quiet positions with the search score, until the
//! game ends or is adjudicated.

use crate::board::{Board, Color, Position};
use crate::search::info::Silent;
use crate::search::limits::Limits;
use crate::search::score::is_mate;
use crate::search::{self, Settings, Shared};

use super::format::{RECORD_SIZE, encode};

/// A small deterministic generator (xorshift64*), one per thread.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // One SplitMix64 step spreads the seed; xorshift never leaves zero.
        Self(crate::rng::SplitMix(seed).next_u64() | 1)
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

/// How games are played and cut short.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub nodes: u64,
    pub random_plies: usize,
    /// Play with the hand-crafted evaluation (generation 0) instead of the network.
    pub hand_crafted: bool,
}

/// A score this large (cp) for `WIN_PLIES` plies in a row decides the game.
const WIN_SCORE: i32 = 2000;
const WIN_PLIES: usize = 4;
/// After `DRAW_AFTER` plies, scores within `DRAW_SCORE` for `DRAW_PLIES` plies draw.
const DRAW_AFTER: usize = 80;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 12;
const MAX_PLIES: usize = 400;
/// Openings the first search already scores beyond this are thrown away.
const MAX_OPENING_SCORE: i32 = 1000;

/// Plays one game from `start`; returns the encoded records of its quiet
/// positions, or `None` if the randomised opening was unusable.
pub fn play(start: &Board, config: &GameConfig, rng: &mut Rng) -> Option<Vec<u8>> {
    let mut pos = Position::new(start.clone(), false);
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    let mut kept: Vec<(Board, i16)> = Vec::new();
    let (mut win_run, mut draw_run) = (0, 0);
    let mut ply = 0;
    // One table per game: later moves reuse what earlier searches found.
    let shared = Shared::default();
    let mut settings = Settings::default();
    if config.hand_crafted {
        settings.network = None;
    }
    let result = loop {
        if let Some(r) = natural_end(&pos) {
            break r;
        }
        shared.reset(false);
        let found = search::run(
            &pos,
            &Limits {
                nodes: Some(config.nodes),
                ..Limits::default()
            },
            &settings,
            &shared,
            &mut Silent::default(),
        );
        let best = found.best?;
        let stm = pos.side_to_move();
        let white = if stm == Color::White {
            found.score
        } else {
            -found.score
        };
        if ply == 0 && white.abs() > MAX_OPENING_SCORE {
            return None;
        }
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
        if (ply >= DRAW_AFTER && draw_run >= DRAW_PLIES) || ply >= MAX_PLIES {
            break 1;
        }
        if !pos.in_check() && !pos.is_noisy(best) {
            kept.push((pos.board().clone(), white.clamp(-32000, 32000) as i16));
        }
        pos.play(best);
        ply += 1;
    };
    let mut out = Vec::with_capacity(kept.len() * RECORD_SIZE);
    for (board, score) in &kept {
        out.extend_from_slice(&encode(board, *score, result));
    }
    Some(out)
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
