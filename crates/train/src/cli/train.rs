//! `cutoff train [ARGS]` trains the network; `cutoff train wdl ...` fits
//! the WDL model.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TrainCmd {
    #[command(subcommand)]
    tool: Option<TrainTool>,
    #[command(flatten)]
    net: Option<crate::nnue::cli::TrainArgs>,
}

#[derive(Subcommand, Debug)]
enum TrainTool {
    /// Fit the win/draw/loss model of UCI_ShowWDL to datagen results.
    Wdl(crate::wdl::cli::WdlArgs),
}

pub fn main(cmd: TrainCmd) -> ExitCode {
    match cmd {
        TrainCmd {
            tool: Some(TrainTool::Wdl(args)),
            ..
        } => crate::wdl::cli::run(args),
        TrainCmd {
            net: Some(args), ..
        } => crate::nnue::cli::main(args),
        TrainCmd { .. } => ExitCode::FAILURE, // clap requires one
    }
}
