"""What a report says, as plain data: the answer, the tables, the notes.

Every format (HTML and PDF, Markdown, the terminal summary) is drawn from these functions, so
the recommendation and every figure read the same in all of them. All text formatting goes
through :mod:`planner.render.fmt`, and every fixed text through the catalog of
:mod:`planner.render.i18n` (English unless the caller is inside ``i18n.language("zh")``).
The figures come from the Result as they are, intermediate ones included: nothing here
recomputes the model.

- :mod:`.answer`: the decision, the recommendation, the key figures, what could change it;
- :mod:`.rows`: the tables as rows of text (options, break-even, sensitivity, free tiers,
  notes, assumptions);
- :mod:`.costs`: what the costs are made of (components, the chart's groups, money by year);
- :mod:`.appendix`: the model's rules and the figures worked by hand;
- :mod:`.mix`: the page "The best mix" (SPEC §6);
- :mod:`.common`: what they share (the options' order, verbs, money, sentences).
"""

from planner.engine.flows import COMPONENTS
from planner.render.content.answer import (
    break_even_sentence,
    decision,
    decision_parts,
    headline_pair,
    inputs,
    key_figures,
    marked_break_even,
    recommendation,
    recommendation_parts,
    risk_sentence,
    uncertainty_sentence,
)
from planner.render.content.appendix import formulas, worked_figures
from planner.render.content.common import (
    KIND_LABELS,
    KIND_VERBS,
    component_label,
    option_name,
    ranked_options,
    site_pue,
)
from planner.render.content.costs import (
    COMPONENT_GROUPS,
    Period,
    breakdown_tables,
    component_totals,
    group_label,
    grouped_monthly,
    year_periods,
    yearly_cash_flow,
)
from planner.render.content.mix import mix_section, mix_sentences
from planner.render.content.rows import (
    OptionRow,
    assumption_rows,
    break_even_matrix,
    break_even_rows,
    catalog_age_days,
    free_tier_rows,
    option_rows,
    prices_age_days,
    sensitivity,
    shows_job_days,
    warnings,
)
from planner.render.content.served import decision_notes, served_text
from planner.render.content.uncertainty import uncertainty_section
from planner.result import STALE_AFTER_DAYS

__all__ = [
    "COMPONENTS", "COMPONENT_GROUPS", "KIND_LABELS", "KIND_VERBS", "STALE_AFTER_DAYS",
    "OptionRow", "Period", "assumption_rows", "break_even_matrix", "break_even_rows",
    "break_even_sentence", "breakdown_tables", "catalog_age_days", "component_label",
    "component_totals",
    "decision", "decision_notes", "decision_parts", "formulas", "free_tier_rows", "group_label",
    "grouped_monthly", "headline_pair", "inputs", "key_figures", "marked_break_even",
    "mix_section", "mix_sentences",
    "option_name", "option_rows", "prices_age_days", "ranked_options", "recommendation",
    "recommendation_parts", "risk_sentence", "sensitivity", "served_text", "shows_job_days",
    "site_pue",
    "uncertainty_section", "uncertainty_sentence", "warnings",
    "worked_figures", "year_periods",
    "yearly_cash_flow",
]
