"""The kit's speed and memory benchmarks, in the shape of the code (see README.md).

- `run.py`      the runner: `python benchmarks/run.py [--quick] [--only AREA] ...`.
- `areas/`      the benchmarks, a module per area of the kit (listing, search, reads, hooks,
                startup, usage, compaction, preprocess, view, baselines, history).
- `harness/`    what every benchmark uses: measuring a command, the run's context and its
                generated roots, the report.
- `generator/`  the deterministic generator of Claude roots the benchmarks read;
                `generate.py` is its command line.

Nothing here is imported by the kit or asserted by the test suite (which only checks the
generator's output, `tests/test_benchmarks_smoke.py`).
"""
