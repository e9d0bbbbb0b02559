//! `cutoff train wdl --data F... [--out wdl.svg]`: arguments and output.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Options, Summary, fit, rust_constant};
use cutoff_engine::eval::wdl::Model;
use cutoff_engine::eval::wdl::{MATERIAL_MAX, MATERIAL_MIN};

#[derive(clap::Args, Debug)]
pub struct WdlArgs {
    /// Datagen files (plain or `.xz`); only whole 32-byte records are read.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Draw the observed rates and the fitted curves into this SVG file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Leave out positions scored beyond this many centipawns (the default
    /// leaves out only mate and tablebase scores).
    #[arg(long, default_value_t = 20_000)]
    max_score: i32,
    /// Also fit each band of this many material counts on its own and
    /// compare with the cubic (does the cubic follow the material?).
    #[arg(long, value_name = "WIDTH")]
    by_material: Option<i32>,
}

/// Fits and prints the constants, the fit's quality and where it drew.
pub fn run(args: WdlArgs) -> ExitCode {
    let opts = Options {
        data: args.data,
        max_score: args.max_score,
        out: args.out,
    };
    match super::run(&opts) {
        Ok(s) => {
            print(&s);
            if let Some(width) = args.by_material {
                print_bands(&s, width.max(1));
            }
            if let Some(path) = &opts.out {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `a` and `b` at a few material counts, for reading the fit at a glance.
fn at_materials(m: &Model) -> String {
    let parts: Vec<String> = [20, 40, 58, 78]
        .iter()
        .map(|&mat| {
            let (a, b) = m.params(mat);
            format!("{mat}: a {a:.1} b {b:.1}")
        })
        .collect();
    parts.join("; ")
}

fn print(s: &Summary) {
    println!(
        "wdl: {} positions ({} left out for |score| beyond --max-score)",
        s.positions, s.skipped
    );
    println!("log-loss (nats/position):");
    println!("  overall frequencies         {:.5}", s.constant_loss);
    println!(
        "  score only (a, b constant)  {:.5}   {}",
        s.score_only.loss,
        at_materials(&s.score_only.model)
    );
    println!(
        "  score and material (cubic)  {:.5}   {} ({} iterations)",
        s.fitted.loss,
        at_materials(&s.fitted.model),
        s.fitted.iterations
    );
    println!("  compiled-in model           {:.5}", s.compiled_loss);
    println!("{}", rust_constant(&s.fitted.model));
}

/// Per band of material: positions, a separate fit's `a` and `b` at the
/// band's middle and its log-loss, then the cubic's.
fn print_bands(s: &Summary, width: i32) {
    println!("by material: band, positions, own fit (a b loss), cubic (a b loss)");
    for lo in (MATERIAL_MIN..=MATERIAL_MAX).step_by(width as usize) {
        let hi = (lo + width - 1).min(MATERIAL_MAX);
        let band: Vec<fit::Cell> = s
            .cells
            .iter()
            .filter(|c| (lo..=hi).contains(&c.material))
            .cloned()
            .collect();
        if band.is_empty() {
            continue;
        }
        let own = fit::fit(&band, 0);
        let mid = (lo + hi) / 2;
        let (a, b) = own.model.params(mid);
        let (ca, cb) = s.fitted.model.params(mid);
        let cubic = fit::log_loss(&s.fitted.model, &band);
        println!(
            "  {lo:>2}-{hi:<2} {:>8}   {a:6.1} {b:6.1} {:.5}   {ca:6.1} {cb:6.1} {cubic:.5}",
            fit::positions(&band),
            own.loss
        );
    }
}
