"""Stage 5: evaluation. A plan (usage, catalog, rate cards) evaluated by the engine into a
:class:`planner.result.Result`; sweeps over many scenarios; the comparison of two plans."""
