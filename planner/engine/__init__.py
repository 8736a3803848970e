"""Stage 3: the cost engine. Pure functions over [scenario × month] arrays: cash flows,
present value, break-even in time and in demand, sensitivity. No files, no prose."""
