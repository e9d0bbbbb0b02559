# OpenBench convention: `make EXE=<path>` builds the release binary at <path>;
# `EVALFILE=<net>` embeds that network instead of crates/engine/src/eval/nnue/default.nnue
# (CUTOFF_EVALFILE is set only then, so `make` and `cargo build --release`
# share one build instead of rebuilding each other's);
# `FEATURES=spsa` builds the search's tunables as UCI options (docs/search.md);
# spsa/Makefile builds so for OpenBench, whose make command is fixed.
EXE ?= cutoff
EVALFILE ?=
FEATURES ?=

.PHONY: all clean

all:
	$(if $(EVALFILE),CUTOFF_EVALFILE="$(abspath $(EVALFILE))") cargo build --release $(if $(FEATURES),--features $(FEATURES))
	cp target/release/cutoff $(EXE)

clean:
	cargo clean
