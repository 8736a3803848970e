"""Stage 2: rate cards. A checked usage document and the catalog (:mod:`pricing`) become the
model the engine computes on: per option, what it costs and how it behaves, as arrays."""
