//! The `cutoff` command line: UCI by default, tools as subcommands. Each
//! subcommand's arguments live with its module; this file only dispatches.
//! The engine's commands come from `cutoff-engine`, the tools' from
//! `cutoff-train` and `cutoff-lab`. Without the `tools` feature
//! (`--no-default-features`) the binary is the engine alone: UCI, bench,
//! perft, epd, book probe, tb probe, spsa-params.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use cutoff_engine::{bench, board, book, epd, tablebase};

#[derive(Parser)]
#[command(
    name = "cutoff",
    version,
    about = "A UCI chess engine built on alpha-beta search"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// UCI: list the lab's technique switches (`Search_*`) in the answer to
    /// `uci` too; `setoption` accepts them either way.
    #[arg(long)]
    lab_options: bool,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Search the bench positions to a fixed depth; prints `Bench: <N> nodes <M> nps`.
    /// Arguments as Stockfish's: `bench [hash] [threads] [limit] [fen file|default]
    /// [depth|nodes|movetime]` (one number alone is the depth), or the flags.
    Bench(bench::BenchArgs),
    /// Search the bench positions for a fixed time each with the given threads
    /// and Hash, as one session; prints the total nodes and nodes per second.
    Speedtest(bench::SpeedtestArgs),
    /// Run an EPD test suite (bm/am/dm); prints failures and `solved k/n`.
    Epd(epd::EpdArgs),
    /// Count the leaves of the legal move tree, or check a perft suite (--epd).
    Perft(board::cli::PerftArgs),
    /// Opening books: probe a Polyglot book, or build one from PGN games.
    Book(BookArgs),
    /// Syzygy tablebases: `tb probe --path P [--fen F]` (see docs/tablebase.md).
    Tb(tablebase::cli::TbArgs),
    /// The tunables (search and time) in OpenBench's SPSA input format
    /// (name, int, value, min, max, c_end, r_end); a `--features spsa` build
    /// takes them as UCI options (see docs/search.md).
    SpsaParams,
    /// Self-play games written as whole-game records, the network's training data (see docs/nnue.md).
    #[cfg(feature = "tools")]
    Datagen(cutoff_train::datagen::cli::DatagenArgs),
    /// What game files hold: games, positions, positions the trainer keeps.
    #[cfg(feature = "tools")]
    Games(cutoff_train::cli::games::GamesArgs),
    /// Texel-tune the evaluation weights on game, record or EPD data (see docs/eval.md).
    #[cfg(feature = "tools")]
    Tune(cutoff_train::tune::cli::TuneArgs),
    /// Train the evaluation network on self-play data (see docs/nnue.md), or
    /// fit the win/draw/loss model (`train wdl`, see docs/wdl.md).
    #[cfg(feature = "tools")]
    Train(cutoff_train::cli::train::TrainCmd),
    /// The search laboratory: minimax vs alpha-beta, move ordering, ablation, tree drawings.
    #[cfg(feature = "tools")]
    Lab(cutoff_lab::cli::LabArgs),
}

#[derive(clap::Args)]
struct BookArgs {
    #[command(subcommand)]
    command: BookCmd,
}

#[derive(Subcommand)]
enum BookCmd {
    /// Print the book's moves for a position, `<uci move> <weight>`, highest first.
    Probe(book::cli::ProbeArgs),
    /// Build a Polyglot book from PGN games (see docs/book.md).
    #[cfg(feature = "tools")]
    Build(cutoff_train::book::BuildArgs),
}

/// OpenBench's datagen runs `cutoff "genfens N seed S book B" "quit"`:
/// arguments that are commands, answered in order.
#[cfg(feature = "tools")]
fn openbench_commands() -> Option<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.first()?.starts_with("genfens") {
        return None;
    }
    for arg in &args {
        match arg.split_whitespace().next() {
            Some("genfens") => {
                for line in cutoff_train::datagen::genfens::answer(arg) {
                    println!("{line}");
                }
            }
            Some("quit") => break,
            _ => println!("info string error: unknown command '{arg}'"),
        }
    }
    Some(ExitCode::SUCCESS)
}

/// `cutoff ... | head -1`: once the reader has gone, `println!` panics on the
/// next line. That is not an error of ours; end quietly with success.
fn exit_quietly_on_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if text.starts_with("failed printing to stdout") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

fn main() -> ExitCode {
    exit_quietly_on_closed_stdout();
    #[cfg(feature = "tools")]
    if let Some(code) = openbench_commands() {
        return code;
    }
    let cli = Cli::parse();
    match cli.command {
        None | Some(Cmd::Uci) => {
            cutoff_engine::uci::run(cli.lab_options);
            ExitCode::SUCCESS
        }
        Some(Cmd::Bench(args)) => bench::main(args),
        Some(Cmd::Speedtest(args)) => bench::speedtest_main(args),
        Some(Cmd::Epd(args)) => epd::main(args),
        Some(Cmd::Perft(args)) => board::cli::main(args),
        Some(Cmd::Book(args)) => match args.command {
            BookCmd::Probe(args) => book::cli::run(args),
            #[cfg(feature = "tools")]
            BookCmd::Build(args) => cutoff_train::book::run(args),
        },
        Some(Cmd::Tb(args)) => tablebase::cli::run(args),
        Some(Cmd::SpsaParams) => {
            print!("{}", cutoff_engine::search::params::spsa_input());
            ExitCode::SUCCESS
        }
        #[cfg(feature = "tools")]
        Some(Cmd::Datagen(args)) => cutoff_train::datagen::cli::main(args),
        #[cfg(feature = "tools")]
        Some(Cmd::Games(args)) => cutoff_train::cli::games::main(args),
        #[cfg(feature = "tools")]
        Some(Cmd::Tune(args)) => cutoff_train::tune::cli::main(args),
        #[cfg(feature = "tools")]
        Some(Cmd::Train(cmd)) => cutoff_train::cli::train::main(cmd),
        #[cfg(feature = "tools")]
        Some(Cmd::Lab(args)) => cutoff_lab::cli::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every subcommand and every flag of every subcommand says what it is
    /// for in `--help` (clap also checks the definitions for conflicts).
    #[test]
    fn every_command_and_flag_has_a_description() {
        fn check(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) -> usize {
            let mut checked = 0;
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if !matches!(id, "help" | "version") {
                    checked += 1;
                    if arg.get_help().is_none() {
                        missing.push(format!("`{path}`: `{id}`"));
                    }
                }
            }
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                let path = format!("{path} {}", sub.get_name());
                if sub.get_about().is_none() {
                    missing.push(format!("`{path}`"));
                }
                checked += check(sub, &path, missing);
            }
            checked
        }
        let cli = super::Cli::command();
        cli.clone().debug_assert();
        let mut missing = Vec::new();
        let checked = check(&cli, "cutoff", &mut missing);
        assert!(checked > 50, "only {checked} flags seen");
        assert!(missing.is_empty(), "no description: {}", missing.join(", "));
    }
}
