# OpenBench convention: `make EXE=<path>` builds the release binary at <path>.
EXE ?= cutoff

.PHONY: all clean

all:
	cargo build --release
	cp target/release/cutoff $(EXE)

clean:
	cargo clean
