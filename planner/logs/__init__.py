"""GPU usage logs read into demand (SPEC §9): ``nvidia-smi --query-gpu … --format=csv`` logs
(:mod:`.nvidia_smi`) and Slurm ``sacct --parsable2`` output (:mod:`.sacct`), summed up by
:mod:`.figures` into the figures ``planner calibrate`` prints and a ``demand:`` block.
"""
