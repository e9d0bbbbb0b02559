# OpenBench convention: `make EXE=<path>` builds the release binary at <path>;
# `EVALFILE=<net>` embeds that network instead of src/eval/nnue/default.nnue.
EXE ?= cutoff
EVALFILE ?=

.PHONY: all clean

all:
	CUTOFF_EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" cargo build --release
	cp target/release/cutoff $(EXE)

clean:
	cargo clean
