"""What every benchmark uses: `measure` (running and timing a command), `report` (rows and
the printed table), `context` (the run's scale, roots and registry) and `fixtures` (helpers
several areas share). Defines no benchmark (`benchmarks/areas/`)."""
