"""``planner calibrate``: what GPU usage logs say about the demand (SPEC §9)."""

from __future__ import annotations

import click

from planner.cli.common import epilog, fail

__all__ = ["calibrate"]


@click.command(epilog=epilog("planner calibrate gpu.csv > demand.yaml",
                             "planner calibrate sacct.txt --format json"))
@click.argument("logs", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml",
              show_default=True, help="A demand: block for usage.yaml, or the figures as JSON.")
@click.option("--hours-per-month", type=click.FloatRange(min=0, min_open=True), default=730.0,
              show_default=True, help="Hours in a month, as in usage.yaml.")
def calibrate(logs: tuple[str, ...], fmt: str, hours_per_month: float) -> None:
    """Read GPU usage logs and print the demand they show.

    LOGS are nvidia-smi --query-gpu=timestamp,uuid,utilization.gpu,power.draw --format=csv
    logs (units or not, -l loops, several GPUs), nvidia-smi dmon output (-o DT for its
    times), dcgm-exporter metrics scraped to a file (DCGM_FI_DEV_GPU_UTIL and
    DCGM_FI_DEV_POWER_USAGE; without timestamps, scrapes 30 s apart), or Slurm sacct
    --parsable2 output with AllocTRES or ReqTRES; several files are read together.

    Example: planner calibrate gpu.csv > demand.yaml
    """
    from planner.errors import UserError
    from planner.logs.figures import read_logs
    from planner.render.calibration import calibration_json, demand_yaml

    try:
        calibration = read_logs(list(logs), hours_per_month)
    except UserError as err:
        fail(err)
    click.echo(calibration_json(calibration) if fmt == "json" else demand_yaml(calibration),
               nl=False)
