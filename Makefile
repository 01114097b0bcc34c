# gpuscope: the two commands a fresh Debian machine needs are `make up` and `make test`.
SHELL := /bin/bash
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Four workers on two cores: much of the suite waits on real servers (alert for: times, Alertmanager's group
# interval, timeouts), and the other workers fill those waits. Two of them run the modules that start a whole
# `gpuscope up`, one after another, while the other two take everything else (tests/support/schedule.py).
PYTEST_WORKERS ?= 4
# Some CI images and sandboxes set PYTHONDONTWRITEBYTECODE=1: every Python process then compiles every gpuscope
# module it imports (the package is installed editable, from src/), and pytest rewrites every test module's asserts,
# on every run: collecting the suite took 12.6 s per worker under coverage (8.4 s with the bytecode kept), and
# each of the suite's several hundred CLI subprocesses paid up to 0.2 s more to start.
# The bytecode goes to the usual __pycache__ directories (ignored by git).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: up test quick fmt lint typecheck unit coverage docs deps binaries assets screenshots bench bench-full clean image

$(STAMP): pyproject.toml scripts/bootstrap-venv
	scripts/bootstrap-venv $(VENV)
	touch $@

ASSETS := src/gpuscope/console/static/vendor/.built
$(ASSETS): console/web/package-lock.json scripts/build-console-assets
	scripts/build-console-assets

## assets: the console's chart library (uPlot, from npm with the pinned lock file), copied into the package
assets: $(ASSETS)

deps: $(STAMP) $(ASSETS)

binaries:
	scripts/ensure-binaries

## up: the local stack on simulated GPUs: two clusters, Prometheus HA pairs, a global store, Alertmanager,
## Pushgateway and a notification recorder, with a live view (UP_ARGS="--fast", "--reset", "fleet.yaml", ...)
UP_ARGS ?=
up: deps binaries
	@echo "gpuscope is in $(BIN): in another terminal here, '. $(BIN)/activate' runs the README's tour as pasted"
	$(BIN)/gpuscope up $(UP_ARGS)

## test: lint, types, every test (real Prometheus/Alertmanager/Pushgateway on loopback)
test: deps binaries lint typecheck docs unit

lint: deps
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/lint-imports

## docs: the documentation site (mkdocs, strict: a broken link or anchor fails) into build/site/
docs: deps
	$(BIN)/mkdocs build --strict --quiet

## typecheck: mypy --strict over src and tests (the files and settings are [tool.mypy] in pyproject.toml)
typecheck: deps
	$(BIN)/mypy

## unit: every test, the ten slowest listed, with coverage (subprocesses included: gpuscope up and its children,
## the CLI) against the floor in pyproject.toml (fail_under)
COVERAGE_DIR := build/coverage
PYTEST_COV = COVERAGE_FILE=$(CURDIR)/$(COVERAGE_DIR)/.coverage $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile \
	--durations=10 --cov --cov-report=term:skip-covered
unit: deps
	mkdir -p $(COVERAGE_DIR) && rm -f $(COVERAGE_DIR)/.coverage*
	$(PYTEST_COV)

## coverage: what `make unit` runs, with the HTML report in build/coverage/html
coverage: deps binaries
	mkdir -p $(COVERAGE_DIR) && rm -f $(COVERAGE_DIR)/.coverage*
	$(PYTEST_COV) --cov-report=html:$(COVERAGE_DIR)/html

## quick: the fast loop while coding, under a minute on 2 cores: every test but those marked e2e (real
## Prometheus-family servers, whole stacks) or promtool (the alert scenarios; `pytest -m promtool` runs them).
## `make test` still runs everything.
# Three workers on 2 cores: these tests wait on little (no stacks, no alert `for:` times), and each worker costs
# its own collection of the suite and its session fixtures: 4 took 130 CPU-seconds, 3 took 83 and 50-52 s, 2 took
# 81 CPU-seconds but 62 s, idling a core while one test waits on a server's timeout (measured a minute apart).
QUICK_WORKERS ?= 3
quick: deps
	$(BIN)/pytest -n $(QUICK_WORKERS) -m "not e2e and not promtool" -q

## fmt: format, then apply ruff's safe fixes (import order, upgrades); what `make lint` checks
fmt: deps
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

## bench: benchmarks at fleet scale, scaled down (under 10 minutes on 2 cores); appends to docs/benchmarks.md
bench: deps binaries
	$(BIN)/python bench/run.py --quick --append docs/benchmarks.md

## bench-full: the same at full sizes and durations (1,000-node ingest, rules at 1,000-8,000 GPUs, 30 min churn; about 95 minutes)
bench-full: deps binaries
	$(BIN)/python bench/run.py --append docs/benchmarks.md

## screenshots: L1, L2, L4, L5, Efficiency and the alerts page of a local stack with a fault injected -> docs/img/*.png
screenshots: deps binaries
	$(BIN)/python scripts/screenshots.py docs/img

## image: the exporter's container image (Dockerfile), tagged as the fleet spec's default exporter.image;
## needs a container builder (docker or podman) with a running daemon; IMAGE=... to tag it otherwise
VERSION = $(shell sed -n 's/^__version__ = "\(.*\)"/\1/p' src/gpuscope/__init__.py)
IMAGE ?= ghcr.io/gpuscope/gpuscope:$(VERSION)
image:
	@builder=$$(for b in docker podman; do command -v $$b >/dev/null && $$b info >/dev/null 2>&1 && { echo $$b; break; }; done); \
	if [ -z "$$builder" ]; then \
		echo "make image: no container builder here (docker or podman with a running daemon); nothing built." \
		"tests/test_image.py checks the image's contents from the wheel instead."; \
	else \
		$$builder build --build-arg VERSION=$(VERSION) --build-arg REVISION=$$(git rev-parse --short HEAD) -t $(IMAGE) . ; \
	fi

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache console/web/node_modules src/gpuscope/console/static/vendor
