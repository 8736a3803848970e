"""What makes an option unable to run the work: too little GPU memory (a reason), memory that
is unknown (a warning); where it cannot run the work at all, it serves none of it."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, Model
from planner.engine.flows import Flows
from planner.messages import Message


def memory_masks(model: Model, card, rows: int) -> tuple[Array, Array]:
    """Where the GPU has too little memory, and where its memory is unknown but asked for."""
    need = model.demand.min_gpu_memory_gb
    have = card.gpu_memory_gb
    too_small = np.broadcast_to((need > have)[:, 0], (rows,))
    unknown = np.broadcast_to((np.isnan(have) & (need > 0))[:, 0], (rows,))
    return too_small, unknown


def memory_checks(model: Model, card, rows: int, flows: Flows) -> None:
    """Adds the memory reason and warning to ``flows``."""
    too_small, unknown = memory_masks(model, card, rows)
    if too_small.any():
        flows.infeasible.append((too_small, memory_reason(card, model.demand.min_gpu_memory_gb)))
        serves_nothing(flows, too_small)
    if unknown.any():
        flows.warnings.append((unknown, UNKNOWN_MEMORY))


UNKNOWN_MEMORY = Message("warning.memory_unknown")


def serves_nothing(flows: Flows, mask: Array) -> None:
    """Where ``mask`` (S,) holds, the option cannot run the work at all (a job too wide, too
    little memory): it serves none of it and all of it is unmet (SPEC §2). Its costs stay as
    computed; the option is infeasible there and reports none."""
    flows.served = np.where(mask[:, None], 0.0, flows.served)
    flows.__dict__.pop("unmet", None)  # computed again from the new served
    flows.__dict__.pop("unmet_mask", None)


def memory_reason(card, need) -> Message:
    have = float(np.nanmax(card.gpu_memory_gb)) if np.isfinite(card.gpu_memory_gb).any() else 0
    return Message("reason.memory", have=have, need=float(np.max(need)))
