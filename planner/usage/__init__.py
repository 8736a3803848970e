"""Stage 1: usage.yaml read, with positions, checked against the schema and its rules; every
problem at once, each at its file:line:column and key path. Nothing here knows prices."""
