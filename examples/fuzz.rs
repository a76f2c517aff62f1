//! The long fuzz run: seeded, structure-aware mutations of every text input
//! (orders, the `/game` and `/host` grammar, the terminal's lines, rules
//! scenarios, stored events and cached states), each checked for panics
//! and for a property of its own (see `tests/fuzz_support/mod.rs`).
//!
//! ```sh
//! cargo run --release --example fuzz -- --target all --inputs 1000000 --seed 1
//! cargo run --release --example fuzz -- --target spectrum --seed 1 --only 4242
//! ```
//!
//! Prints per target the inputs run, the distinct classes of outcome, the
//! time, and every failure with the command that reproduces it. Exits
//! non-zero when anything failed.

#[path = "../tests/fuzz_support/mod.rs"]
mod fuzz_support;

use clap::Parser;

#[derive(Parser)]
#[command(about = "Fuzz Orrery's text inputs with a seeded, structure-aware generator")]
struct Args {
    /// A target, a comma-separated list, or `all`.
    #[arg(long, default_value = "all")]
    target: String,
    /// Inputs per target.
    #[arg(long, default_value_t = 100_000)]
    inputs: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run only this input (to reproduce a failure).
    #[arg(long)]
    only: Option<u64>,
    /// Stop a target after this many failures.
    #[arg(long, default_value_t = 20)]
    max_failures: usize,
    /// Also list every outcome class with its count.
    #[arg(long)]
    classes: bool,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let targets: Vec<&str> = if args.target == "all" {
        fuzz_support::targets()
    } else {
        args.target.split(',').map(str::trim).collect()
    };
    let opts = fuzz_support::Options {
        seed: args.seed,
        inputs: args.inputs,
        only: args.only,
        max_failures: args.max_failures,
        progress: args.only.is_none(),
    };
    let mut failed = false;
    for t in targets {
        match fuzz_support::run(t, &opts) {
            Err(e) => {
                eprintln!("{t}: cannot run: {e}");
                failed = true;
            }
            Ok(report) => {
                println!("{}", report.summary());
                if args.classes || args.only.is_some() {
                    for (class, n) in &report.classes {
                        println!("    {n:>9}  {class}");
                    }
                }
                for f in &report.failures {
                    println!("  FAILURE {f}");
                    failed = true;
                }
            }
        }
    }
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
