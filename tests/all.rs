//! The integration tests, one binary: each module is a file of tests/, and
//! `common` their UCI-session helper. (One binary links once; a binary per
//! file linked the whole engine with fat LTO two dozen times.)

mod board;
mod book;
mod cli;
mod common;
mod data_manifest;
mod eval_symmetry;
mod eval_terms;
mod games_formats;
mod lab;
mod lab_output;
mod lab_serve;
mod layers;
mod match_files;
mod match_prose;
mod match_records;
mod mates;
mod nnue;
mod nnue_evalfile;
mod nnue_file;
mod perft;
mod pool;
mod search;
#[cfg(feature = "spsa")]
mod spsa;
mod spsa_params;
mod strength;
mod tablebase;
mod tablebase_root;
mod train_datagen;
mod train_nnue;
mod uci;
mod uci_contempt;
mod uci_errors;
mod uci_fuzz;
mod uci_options;
mod uci_rules;
mod uci_testing;
mod uci_wdl;
