"""The report's fixed texts, key -> (English, Chinese): the title block, the tables, the
charts, the appendix's formulas. An empty Chinese text falls back to the English one (the
formulas in plain notation).
"""

from __future__ import annotations

REPORT_TEXTS: dict[str, tuple[str, str]] = {
    "list.sep": (", ", "、"),
    "list.and": (" and ", " 和 "),
    "list.or": (" or ", " 或 "),
    "period": (".", "。"),
    "colon": (": ", "："),

    # title block
    "kicker": ("GPU cost report", "GPU 成本报告"),
    "html.title": ("{title}: GPU cost report", "{title}：GPU 成本报告"),
    "meta.horizon": ("{months}-month horizon", "规划期 {months} 个月"),
    "meta.money": ("money in {currency}", "金额单位 {currency}"),
    "meta.discounted": (", discounted at {rate} a year", "，年折现率 {rate}"),
    "meta.catalog": ("catalog data as of {date}", "目录数据截至 {date}"),
    "meta.prices": ("oldest price from {date}", "最早的价格日期 {date}"),
    "meta.no_catalog": ("no catalog data used", "未使用目录数据"),
    "page": ("Page", "第"),
    "page.of": ("of", "页，共"),
    "page.end": ("", " 页"),

    # the answer
    "verb.own": ("Buy", "购买"),
    "verb.cloud": ("Rent", "租用"),
    "verb.free_tier": ("Use", "使用"),
    "verb.other": ("Choose", "选择"),
    "verdict.only_infeasible": (
        "The only option cannot serve the demand; the reasons are listed below.",
        "唯一的方案无法满足需求，原因见下文。"),
    "verdict.none_feasible": (
        "None of the {count} options can serve the demand; the reasons are listed below.",
        "{count} 个方案都无法满足需求，原因见下文。"),
    "verdict.cheapest": ("{verb} {name}: it is the cheapest option over {months} months {figure}",
                         "{verb} {name}：在 {months} 个月内它是成本最低的方案，{figure}"),
    "verdict.figure_pv": ("at {money} in present value ({rate} a year)",
                          "现值 {money}（年折现率 {rate}）"),
    "verdict.figure_total": ("at {money}", "总成本 {money}"),
    "verdict.saving": (", {money} less than the runner-up, {name}.",
                       "，比次优方案 {name} 少 {money}。"),
    "verdict.same_as": ("{name} does none of this work: it is {cheapest}.",
                        "{name} 自身不承担任何工作：它就是 {cheapest}。"),
    "served.overflow": (
        ("{own} serves {served} of the horizon's GPU\u2011hours itself; from month {month}, "
         "{target} serves the other {passed}, at {cost} of its {total}."),
        ("{own} 自身承担规划期内 {served} 的 GPU 小时；从第 {month} 个月起，其余 {passed} 由 "
         "{target} 承担，费用 {cost}（总成本 {total}）。")),
    "served.runner_up": (
        ("The runner-up {name} serves {served} of the GPU\u2011hours itself: {target} serves "
         "the other {passed}, at {cost} of its {total}."),
        ("次优方案 {name} 自身只承担 {served} 的 GPU 小时：其余 {passed} 由 {target} 承担，"
         "费用 {cost}（总成本 {total}）。")),
    "served.cheapest": (
        ("{name} serves {served} of the GPU\u2011hours itself: {target} serves the other "
         "{passed}, at {cost} of its {total}."),
        ("{name} 自身只承担 {served} 的 GPU 小时：其余 {passed} 由 {target} 承担，"
         "费用 {cost}（总成本 {total}）。")),
    "served.cheapest_all": (
        ("{name} serves {served} of the GPU\u2011hours itself: {target} serves the other "
         "{passed}, and all of its {total} is paid to {target}."),
        ("{name} 自身只承担 {served} 的 GPU 小时：其余 {passed} 由 {target} 承担，"
         "其全部成本 {total} 都付给 {target}。")),
    "served.runner_up_all": (
        ("The runner-up {name} serves {served} of the GPU\u2011hours itself: {target} serves "
         "the other {passed}, and all of its {total} is paid to {target}."),
        ("次优方案 {name} 自身只承担 {served} 的 GPU 小时：其余 {passed} 由 {target} 承担，"
         "其全部成本 {total} 都付给 {target}。")),
    "verdict.only": (", and the only one that can serve the demand.",
                     "，也是唯一能满足需求的方案。"),
    "pays.after": ("after {months} against {versus}", "相对 {versus} 在 {months}后回本"),
    "pays.start": ("from the start against {versus}", "相对 {versus} 从一开始就更省"),
    "pays.sentence": ("Buying pays off {parts}", "购买硬件：{parts}"),
    "pays.never_tail": (
        (", and not within {months} months against {names} (cumulative cost, residual value not "
        "counted)"),
        "；相对 {names} 在 {months} 个月内无法回本（按累计成本，不计残值）"),
    "pays.never_own": (
        ("On cumulative cost alone (residual value not counted), buying does not pay off within "
        "{months} months against {names}."),
        "仅按累计成本（不计残值），购买硬件在 {months} 个月内相对 {names} 无法回本。"),
    "pays.never_other": ("Buying never pays off within {months} months ({owns} against {name}).",
                         "购买硬件在 {months} 个月内无法回本（{owns} 相对 {name}）。"),
    "pays.but_dearer": ("Buying {own} pays off {pays}, yet costs more in present value.",
                        "购买 {own}：{pays}，但现值更高。"),
    "decision.cheapest": (("{verb} {name}: the cheapest of the {count} options over {months} "
                          "months."),
                          "{verb} {name}：在 {months} 个月内是 {count} 个方案中成本最低的。"),
    "decision.only": (("{verb} {name}: the only one of the {count} options that can serve the "
                      "demand."),
                      "{verb} {name}：{count} 个方案中唯一能满足需求的方案。"),
    "decision.single": ("{verb} {name}: it can serve the demand over {months} months.",
                        "{verb} {name}：它能在 {months} 个月内满足需求。"),
    "tile.pv": ("present value over {months} months at {rate} a year (total cost {total})",
                "{months} 个月现值，年折现率 {rate}（总成本 {total}）"),
    "tile.total": ("total cost over {months} months, less the residual value",
                   "{months} 个月总成本（已减残值）"),
    "tile.saving": ("less than the runner-up, {name}{basis}", "比次优方案 {name} 少{basis}"),
    "tile.saving_pv": (", in present value", "（按现值）"),
    "tile.no_runner": ("no other option can serve the demand", "没有其他方案能满足需求"),
    "tile.payoff": ("until buying {own} pays off against {versus}",
                    "购买 {own} 相对 {versus} 的回本时间"),
    "tile.payoff_start": ("buying {own} costs less than {versus} from the start",
                          "购买 {own} 从一开始就比 {versus} 便宜"),
    "tile.payoff_never": (("buying {own} does not pay off against {versus} within {months} months "
                          "(cumulative cost)"),
                          "{months} 个月内购买 {own} 相对 {versus} 无法回本（累计成本）"),
    "tile.no_own": ("no option to buy among those compared", "所比较的方案中没有购买硬件的方案"),
    "value.never": ("never", "不回本"),
    "value.start": ("from the start", "从一开始"),
    "uncertainty.buying_wins": (
        "Buying wins in {share} of {samples} draws of the uncertain inputs",
        "在不确定输入的 {samples} 次抽样中，购买硬件在 {share} 的抽样中成本最低"),
    "uncertainty.cheapest_in": (
        "{name} is the cheapest in {share} of {samples} draws of the uncertain inputs",
        "在不确定输入的 {samples} 次抽样中，{name} 在 {share} 的抽样中成本最低"),
    "uncertainty.pays_within": (
        ("; {own} pays off against {versus} in {share} of them, within {low}–{high} months in "
         "90% of those."),
        "；{own} 相对 {versus} 在 {share} 的抽样中能回本，其中 90% 在 {low}–{high} 个月内回本。"),
    "uncertainty.never_pays": (
        "; {own} never pays off against {versus} within the horizon in any draw.",
        "；在任何抽样中，{own} 相对 {versus} 都无法在规划期内回本。"),
    "uncertainty.end": (".", "。"),
    "risk.steady": (
        "Moving each key input by {spread} one at a time never changes the cheapest option.",
        "将每个关键输入逐一变动 {spread}，成本最低的方案都不变。"),
    "risk.moves": ("The break-even month moves most with {input} ({low} to {high}).",
                   "回本月份对{input}最敏感（{low} 至 {high}）。"),
    "risk.change": ("{name} becomes the cheapest if {conditions}.",
                    "若{conditions}，{name} 将成为成本最低的方案。"),
    "risk.none": ("No option can serve the demand if {conditions}.",
                  "若{conditions}，没有方案能满足需求。"),
    "risk.condition": ("{input} is {spread} {direction}", "{input}{direction} {spread}"),
    "risk.lower": ("lower", "降低"),
    "risk.higher": ("higher", "提高"),

    # first page
    "h.glance": ("At a glance", "概览"),
    "h.inputs": ("Inputs that matter most", "最重要的输入"),
    "ranking.caption": (("{basis} over {months} months of every feasible option; the recommended "
                        "one is dark."),
                        "各可行方案在 {months} 个月内的{basis}；深色为推荐方案。"),
    "basis.pv": ("Present value", "现值"),
    "basis.total": ("Total cost", "总成本"),
    "ranking.infeasible": ("cannot serve the demand", "无法满足需求"),

    # options table
    "h.options": ("Options compared", "方案比较"),
    "col.option": ("Option", "方案"),
    "col.kind": ("Kind", "类型"),
    "col.feasible": ("Feasible", "可行"),
    "col.total": ("Total cost", "总成本"),
    "col.pv": ("Present value", "现值"),
    "col.per_hour": ("Per GPU\u2011hour", "每 GPU 小时"),
    "col.gpu_hours": ("Served / month", "自身承担 / 月"),
    "col.capacity": ("Capacity / month", "容量 / 月"),
    "col.residual": ("Residual value", "残值"),
    "col.served": ("Serves itself", "自身承担"),
    "badge.cheapest": ("cheapest", "最低"),
    "yes": ("yes", "是"),
    "no": ("no", "否"),
    "why_not": ("Why not:", "原因："),
    "kind.cloud": ("cloud", "云"),
    "kind.own": ("own", "自购"),
    "kind.free_tier": ("free tier", "免费额度"),
    "capacity.unlimited": ("no limit", "无限制"),
    "gpu.fleet": ("{n} machines of {machine}", "{n} 台 {machine}"),
    "gpu.machine": ("a machine", "整机"),
    "energy.use": ("{kwh} kWh over {months} months", "{months} 个月耗电 {kwh} 千瓦时"),
    "energy.carbon": (", {kg} kg CO2e", "，{kg} 千克二氧化碳当量"),
    "energy.sentence": ("{name} uses {energy}.", "{name} {energy}。"),
    "note.options": (
        ("Total cost: everything paid over {months} months, less the residual value of hardware "
        "kept at the end. Per GPU\u2011hour: total cost over the reference GPU\u2011hours of "
        "demand. Served / month: the GPU\u2011hours an option serves itself in month 1, not "
        "what it passes on; capacity: what it could serve. Both in each option's own "
        "GPU\u2011hours."),
        ("总成本：{months} 个月内的全部支出，减去期末保留硬件的残值。每 GPU 小时：总成本除以需求的"
        "参考 GPU 小时。自身承担 / 月：方案第 1 个月自身承担的 GPU 小时，不含转交给其他方案的部分；"
        "容量：它最多能承担的。两者均按各方案自身的 GPU 小时计。")),

    # warnings
    "h.warnings": ("Warnings", "警告"),

    # break-even
    "h.break_even": ("When buying pays off", "何时回本"),
    "be.corner": ("Own \u2192 against", "自购 \u2192 对比"),
    "be.not_within": ("not within {months} months", "{months} 个月内不回本"),
    "be.system_hours": ("{hours} busy system\u2011hours", "{hours} 整机忙碌小时"),
    "be.usage": ("same cost at {usage} GPU\u2011h/month", "每月 {usage} GPU 小时时成本相同"),
    "be.no_usage": ("no break-even usage", "无盈亏平衡用量"),
    "be.self": ("—", "—"),
    "be.above": ("buying is cheaper above it", "高于此用量时购买更便宜"),
    "be.below": ("buying is cheaper below it", "低于此用量时购买更便宜"),
    "note.break_even": (
        ("Each cell: after how long the owned machine's cumulative cost stays at or below the "
        "other option's to the end of the horizon (residual value not counted), the machine's "
        "busy hours until then, and the demand in month 1, in reference GPU\u2011hours, at "
        "which both cost the same in present value."),
        ("每格依次为：自购机器的累计成本从何时起直至规划期末不高于对比方案（不计残值）、此前机器的"
        "忙碌小时数，以及两者现值相等时第 1 个月的需求（参考 GPU 小时）。")),

    # charts
    "h.cumulative": ("Cumulative cost over time", "累计成本随时间变化"),
    "cap.cumulative": (("Money paid from today to each month, per feasible option{marks}. Residual "
                       "value is not counted here."),
                       "各可行方案从今天到每个月的累计支出{marks}。此处不计残值。"),
    "cap.cumulative_marks": ("; dotted lines mark when buying pays off", "；虚线标出回本时间"),
    "h.usage": ("Cost against usage", "成本与用量"),
    "cap.usage": (("{basis} over {months} months at each level of demand, all else as planned. A "
                  "line stops where the option can no longer serve the demand{marks}."),
                  ("在各需求水平下 {months} 个月的{basis}，其余条件不变。曲线在方案无法满足需求处"
                  "终止{marks}。")),
    "cap.usage_marks": ("; dotted lines mark the break\u2011even usage", "；虚线标出盈亏平衡用量"),
    "h.sensitivity": ("What changes the answer", "什么会改变结论"),
    "cap.sensitivity": (
        ("Each key input moved {spread} one at a time, all else as planned: where the break-even "
        "month of {own} against {versus} lands (bars, from the plan's {base}), and which option "
        "is then the cheapest when that changes. \u201cnever\u201d: not within {months} months."),
        ("每个关键输入逐一变动 {spread}，其余不变：{own} 相对 {versus} 的回本月份落在何处（条形，"
        "以计划值 {base} 为基准），以及最低成本方案若改变则为哪个。“不回本”：{months} 个月内不回本。")),
    "cap.sensitivity_none": ("No effect within {spread}: {names}.",
                             "在 {spread} 范围内无影响：{names}。"),
    "sens.input": ("Input", "输入"),
    "sens.low": ("{spread} lower", "降低 {spread}"),
    "sens.high": ("{spread} higher", "提高 {spread}"),
    "sens.months": ("pays off after", "回本时间"),
    "sens.cheapest": ("cheapest", "最低成本方案"),
    "sens.none": ("none can serve", "无方案可行"),
    "sens.no_pair": (("There is no option to buy, so no break-even month to move; the table says "
                     "which option is the cheapest when each input moves {spread}."),
                     ("没有购买硬件的方案，因此没有回本月份；下表列出每个输入变动 {spread} 时成本"
                     "最低的方案。")),
    "h.breakdown": ("Monthly cost by component", "按构成划分的月度成本"),
    "cap.breakdown": (
        ("What each feasible option costs each month, each on its own scale (mind the axes); "
        "cooling is the energy above the IT load (energy × (1 − 1/PUE), PUE {pue}). Money paid "
        "today (month 0) is left out of the bars and stated above each panel."),
        ("各可行方案每月的成本，各用自己的刻度（请注意纵轴）；制冷为超出 IT 负载的能耗（能耗 × "
        "(1 − 1/PUE)，PUE {pue}）。今天（第 0 个月）支付的金额不在条形中，标注于各小图上方。")),
    "h.cash": ("Cash out by year", "按年现金支出"),
    "cash.today": ("Today", "今天"),
    "cash.year": ("Year {n}", "第 {n} 年"),
    "cash.months": ("Months {a}–{b}", "第 {a}–{b} 个月"),
    "h.costs": ("Cost breakdown over {months} months", "{months} 个月成本明细"),
    "costs.quantity": ("Quantity", "数量"),
    "costs.price": ("Price", "单价"),
    "costs.cost": ("Cost", "成本"),
    "costs.total": ("Total cost", "总成本"),
    "costs.cooling": ("of which cooling", "其中制冷"),
    "costs.cooling_how": ("{energy} × (1 − 1/{pue})", "{energy} × (1 − 1/{pue})"),
    "costs.passed": ("as {name} charges for that work", "按 {name} 对这部分工作的收费"),
    "costs.residual": ("less residual value", "减残值"),
    "costs.zero": ("Components that cost nothing are left out.", "成本为零的构成项未列出。"),
    "costs.none": ("The result carries no cost breakdown.", "结果中没有成本明细。"),
    "h.free": ("Free tiers", "免费额度"),
    "cap.free": (("How much each free tier is used: sessions a week the work it takes needs, and "
                 "the calendar days one job waits to get its hours out of the quotas."),
                 ("各免费额度的使用情况：承担其工作量每周所需的会话数，以及一个作业从配额中凑够所需"
                 "小时要等待的日历天数。")),
    "free.sessions": ("Sessions a week", "每周会话数"),
    "free.wait": ("Days a job waits", "作业等待天数"),
    "free.capacity": ("Usable GPU\u2011hours / month", "可用 GPU 小时 / 月"),
    "free.served": ("Share of its demand served", "自身承担的需求比例"),
    "free.rest": ("Rest goes to", "其余转交"),
    "free.cannot": ("cannot serve the demand", "无法满足需求"),
    "free.nothing": ("—", "—"),
    "free.no_job": ("no job length given", "未给出作业时长"),
    "chart.no_wait": ("days: no job length given", "天：未给出作业时长"),

    # the Markdown report (render/plain.py), where its words differ from the HTML report's
    "md.h.costs": ("What the costs are made of", "成本构成"),
    "md.total": ("total", "合计"),
    "md.residual": ("residual value", "残值"),
    "md.col.component": ("Component", "构成"),
    "md.col.unit": ("Unit", "单位"),
    "md.col.price_per_unit": ("Price per unit", "单价"),
    "md.col.per_hour": ("Per GPU-hour", "每 GPU 小时"),
    "md.h.cash": ("Money paid by year", "按年支付的金额"),
    "md.cash.note": ("Residual value is not a payment and is not counted here.",
                     "残值不是支付，此处不计入。"),
    "md.be.corner": ("Own / against", "自购 / 对比"),
    "md.be.matrix_note": (
        ("Months until buying the row's option pays off against the column's (cumulative "
        "cost, residual value not counted); {never}: not within {months} months."),
        ("购买行中的方案相对列中的方案回本所需的月数（按累计成本，不计残值）；{never}：{months} "
        "个月内不回本。")),
    "md.col.own": ("Own", "自购"),
    "md.col.against": ("Against", "对比"),
    "md.col.pays_off_after": ("Pays off after", "回本时间"),
    "md.col.busy_hours": ("Busy system-hours until then", "届时累计的整机忙碌小时"),
    "md.col.break_even_usage": ("Break-even usage (GPU-hours / month)",
                                "盈亏平衡用量（GPU 小时 / 月）"),
    "md.be.pairs_note": (
        ("Pays off after: cumulative cost, residual value not counted. Break-even usage: "
        "month-1 demand in reference GPU-hours at which both cost the same in present value."),
        ("回本时间：按累计成本计算，不计残值。盈亏平衡用量：第 1 个月的需求（以参考 GPU "
        "小时计），在该用量下两者的现值相同。")),
    "md.sens.pays_off_at": ("Pays off at {change}", "变动 {change} 时回本"),
    "md.sens.cheapest_at": ("Cheapest at {change}", "变动 {change} 时最低"),
    "md.sens.note_pair": (
        ("Each input moved {down} down and {up} up, one at a time: when {own} pays off against "
        "{versus} (as planned: {months}) and which option is then the cheapest (as planned: "
        "{cheapest}; a change in bold)."),
        ("每个输入逐一下调 {down}、上调 {up}：{own} 相对 {versus} 何时回本（按计划：{months}），"
        "以及此时哪个方案成本最低（按计划：{cheapest}；变化以粗体标出）。")),
    "md.sens.note": (
        ("Each input moved {down} down and {up} up, one at a time: which option is then the "
        "cheapest (as planned: {cheapest}; a change in bold)."),
        ("每个输入逐一下调 {down}、上调 {up}：此时哪个方案成本最低（按计划：{cheapest}；"
        "变化以粗体标出）。")),
    "md.h.mix": ("The best mix", "最佳组合"),
    "md.col.alternative": ("Nearest alternative", "最接近的备选"),
    "md.col.against_best": ("Against the best", "与最佳相比"),
    "md.h.uncertainty": ("Uncertainty", "不确定性"),
    "md.col.cheapest_in": ("Cheapest in", "成本最低的比例"),
    "md.col.feasible_in": ("Feasible in", "可行的比例"),
    "md.col.pv_p5": ("Present value P5", "现值 P5"),
    "md.col.pays_off_in": ("Pays off in", "回本的比例"),
    "md.col.months_p5": ("Months P5", "月数 P5"),
    "md.drivers": (
        ("What drives the spread of {own} against {versus} (share of the variance of their "
        "difference in present value each input explains alone):"),
        "{own} 相对 {versus} 的差异由什么驱动（每个输入单独解释的两者现值之差的方差比例）："),
    "md.col.share": ("Share", "比例"),
    "md.no_assumptions": ("No assumptions were recorded.", "未记录任何假设。"),
    "md.oldest_prices": ("The oldest prices used date from {date}.", "所用最早的价格日期为 {date}。"),
    "md.oldest_catalog": (
        ("The oldest catalog figures used date from {date} (specifications and references "
        "included)."), "所用最早的目录数据日期为 {date}（含规格与参考数据）。"),


    # the workbook (render/tables.py, render/xlsx.py): sheet names, column heads, summary
    "tbl.sheet.summary": ("Summary", "摘要"),
    "tbl.sheet.options": ("Options", "方案"),
    "tbl.sheet.monthly": ("Monthly", "月度"),
    "tbl.sheet.monthly_long": ("Monthly (long)", "月度（长表）"),
    "tbl.sheet.breakdown": ("Breakdown", "成本构成"),
    "tbl.sheet.cash_flow_by_year": ("Cash flow by year", "按年现金流"),
    "tbl.sheet.break_even": ("Break-even", "回本"),
    "tbl.sheet.sensitivity": ("Sensitivity", "敏感性"),
    "tbl.sheet.cost_vs_usage": ("Cost vs usage", "成本与用量"),
    "tbl.sheet.assumptions": ("Assumptions", "假设"),
    "tbl.sheet.uncertainty": ("Uncertainty", "不确定性"),
    "tbl.sheet.uncertainty_break_even": ("Uncertain break-even", "不确定性下的回本"),
    "tbl.sheet.uncertainty_drivers": ("Uncertainty drivers", "不确定性来源"),
    "tbl.sheet.mix": ("Best mix", "最佳组合"),
    "tbl.sheet.mix_candidates": ("Mix candidates", "组合候选"),
    "tbl.field.name": ("Option", "方案"),
    "tbl.field.kind": ("Kind", "类型"),
    "tbl.field.feasible": ("Feasible", "可行"),
    "tbl.field.reasons": ("Reasons", "原因"),
    "tbl.field.gpu": ("GPU", "GPU"),
    "tbl.field.gpus": ("GPUs", "GPU 数"),
    "tbl.field.gpu_hours_per_month": ("GPU-hours/month (own)", "GPU 小时/月（自身）"),
    "tbl.field.total_cost": ("Total cost", "总成本"),
    "tbl.field.present_value": ("Present value", "现值"),
    "tbl.field.residual_value": ("Residual value", "残值"),
    "tbl.field.cost_per_gpu_hour": ("Cost per GPU-hour", "每 GPU 小时成本"),
    "tbl.field.energy_kwh": ("Energy (kWh)", "能耗（千瓦时）"),
    "tbl.field.carbon_kg": ("Carbon (kg CO2e)", "碳排放（千克 CO2e）"),
    "tbl.field.capacity_gpu_hours_per_month": ("Capacity (GPU-hours/month)", "容量（GPU 小时/月）"),
    "tbl.field.unmet_gpu_hours_per_month": ("Unmet (GPU-hours/month)", "未满足（GPU 小时/月）"),
    "tbl.field.first_unmet_month": ("First unmet month", "首个未满足的月份"),
    "tbl.field.sessions_per_week": ("Sessions per week", "每周会话数"),
    "tbl.field.job_wait_days": ("Job wait (days)", "作业等待（天）"),
    "tbl.field.served_share": ("Share of its demand served itself", "自身承担的需求比例"),
    "tbl.field.passed_cost": ("Cost of overflow or fallback", "溢出或回退的成本"),
    "tbl.field.passed_cost_share": ("Share of cost passed on", "转交的成本比例"),
    "tbl.field.machines": ("Machines", "机器数"),
    "tbl.field.cost_per_owned_gpu_hour": ("Cost per owned gpu hour", "自有 GPU 每小时成本"),
    "tbl.field.scaling_efficiency": ("Scaling efficiency", "扩展效率"),
    "tbl.field.job_days": ("Days per job", "每个作业的天数"),
    "tbl.field.warnings": ("Warnings", "警告"),
    "tbl.col.option": ("Option", "方案"),
    "tbl.col.component": ("Component", "构成"),
    "tbl.col.month_n": ("Month {m}", "第 {m} 月"),
    "tbl.col.month": ("Month", "月份"),
    "tbl.col.cost": ("Cost", "成本"),
    "tbl.col.quantity": ("Quantity", "数量"),
    "tbl.col.unit": ("Unit", "单位"),
    "tbl.col.price_per_unit": ("Price per unit", "单价"),
    "tbl.col.own": ("Own", "自购"),
    "tbl.col.against": ("Against", "对比"),
    "tbl.col.pays_off_months": ("Pays off after (months)", "回本时间（月）"),
    "tbl.col.busy_hours": ("Busy system-hours until then", "届时累计的整机忙碌小时"),
    "tbl.col.break_even_usage": ("Break-even usage (GPU-hours/month)", "盈亏平衡用量（GPU 小时/月）"),
    "tbl.col.buying_cheaper": ("Buying is cheaper", "购买更便宜的一侧"),
    "tbl.col.input": ("Input", "输入"),
    "tbl.col.low": ("Low (factor)", "下调（倍数）"),
    "tbl.col.high": ("High (factor)", "上调（倍数）"),
    "tbl.col.break_even_months": ("Break-even (months)", "回本（月）"),
    "tbl.col.break_even_low": ("Break-even at low", "下调时回本"),
    "tbl.col.break_even_high": ("Break-even at high", "上调时回本"),
    "tbl.col.cheapest": ("Cheapest", "最低成本方案"),
    "tbl.col.cheapest_low": ("Cheapest at low", "下调时最低成本方案"),
    "tbl.col.cheapest_high": ("Cheapest at high", "上调时最低成本方案"),
    "tbl.col.break_even_of": ("Break-even of", "回本方"),
    "tbl.col.usage": ("Usage (GPU-hours/month)", "用量（GPU 小时/月）"),
    "tbl.col.item": ("Item", "项目"),
    "tbl.col.value": ("Value", "数值"),
    "tbl.col.as_of": ("As of", "日期"),
    "tbl.col.source": ("Source", "来源"),
    "tbl.col.kind": ("Kind", "类型"),
    "tbl.col.price_dated": ("Price dated", "价格日期"),
    "tbl.col.cheapest_in": ("Cheapest in", "成本最低的比例"),
    "tbl.col.feasible_in": ("Feasible in", "可行的比例"),
    "tbl.col.figure_statistic": ("{figure} {statistic}", "{figure} {statistic}"),
    "tbl.col.pays_off_in": ("Pays off in", "回本的比例"),
    "tbl.col.months_statistic": ("Months {statistic}", "月数 {statistic}"),
    "tbl.col.variance_share": ("Share of the variance", "方差占比"),
    "tbl.col.difference_of": ("Difference of", "差异方"),
    "tbl.col.description": ("Description", "说明"),
    "tbl.col.against_best": ("Against the best", "与最佳相比"),
    "tbl.stat.mean": ("mean", "均值"),
    "tbl.sum.title": ("Title", "标题"),
    "tbl.sum.date": ("Date", "日期"),
    "tbl.sum.recommendation": ("Recommendation", "建议"),
    "tbl.sum.currency": ("Currency", "货币"),
    "tbl.sum.horizon": ("Horizon (months)", "规划期（月）"),
    "tbl.sum.hours": ("Hours per month", "每月小时数"),
    "tbl.sum.discount": ("Discount rate (a year)", "折现率（每年）"),
    "tbl.sum.catalog_as_of": ("Catalog data as of", "目录数据日期"),
    "tbl.sum.prices_as_of": ("Prices as of", "价格日期"),
    "tbl.sum.cheapest": ("Cheapest option", "最低成本方案"),
    "tbl.sum.cheapest_total": ("Cheapest: total cost", "最低成本方案：总成本"),
    "tbl.sum.cheapest_pv": ("Cheapest: present value", "最低成本方案：现值"),
    "tbl.sum.warning": ("Warning", "警告"),
    "tbl.sum.sheets": ("Sheets", "工作表"),
    "tbl.note.options": (
        "one row per option, file order: the figures of the JSON result",
        "每个方案一行，按文件顺序：JSON 结果中的数字"),
    "tbl.note.monthly": (
        "cost per option and component in every month (month 0 is today)",
        "每个方案、每个构成在每个月的成本（第 0 月为今天）"),
    "tbl.note.monthly_long": (
        "the same, one row per option, month and component (for pivot tables)",
        "同上，每个方案、月份和构成一行（用于数据透视表）"),
    "tbl.note.breakdown": (
        "what each option's costs are made of: quantity × price per unit",
        "各方案的成本构成：数量 × 单价"),
    "tbl.note.cash_flow_by_year": (
        "money paid today and in each 12 months (residual value not counted)",
        "今天及每 12 个月支付的金额（不计残值）"),
    "tbl.note.break_even": (
        "when buying pays off against each other option, and the break-even usage",
        "购买相对其他各方案何时回本，以及盈亏平衡用量"),
    "tbl.note.sensitivity": (
        "each key input moved down and up: break-even month and cheapest option",
        "每个关键输入下调和上调：回本月份与最低成本方案"),
    "tbl.note.cost_vs_usage": (
        "present value of every option at each monthly usage level",
        "各方案在每个月用量水平下的现值"),
    "tbl.note.assumptions": (
        "what the figures rest on, with the date and source of each",
        "数字所依据的假设，各附日期和来源"),
    "tbl.note.mix": (
        "the best mix of own machines and cloud commitments, its nearest alternatives",
        "自有机器与云承诺的最佳组合，及其最接近的备选"),
    "tbl.note.mix_candidates": (
        "every candidate of the best-mix search and its present value",
        "最佳组合搜索的每个候选及其现值"),

    # assumptions and appendix
    "h.assumptions": ("Assumptions", "假设"),
    "col.item": ("Item", "项目"),
    "col.value": ("Value", "数值"),
    "col.as_of": ("As of", "日期"),
    "col.source": ("Source", "来源"),
    "source.yours": ("your input", "你的输入"),
    "note.oldest": ("The oldest catalog figures used date from {date}.",
                    "所用最旧的目录数据日期为 {date}。"),
    "note.oldest_prices": (
        ("The oldest prices used date from {prices}; prices older than {days} days are warned "
         "about. The oldest catalog figures of any kind, specifications and references "
         "included (they do not go stale), date from {date}."),
        ("所用最旧的价格日期为 {prices}；超过 {days} 天的价格会给出警告。所用最旧的目录数据（含不会过时的"
        "规格与参考数据）日期为 {date}。")),
    "h.prices": ("Prices", "价格"),
    "h.references": ("Specifications and references", "规格与参考数据"),
    "note.no_catalog": ("No catalog data were used.", "未使用目录数据。"),
    "note.month": (("A month is {hours} hours. Prices change; figures are estimates for planning, "
                   "not quotes."),
                   "一个月按 {hours} 小时计。价格会变化；这些数字是规划估算，不是报价。"),
    "h.appendix": ("Appendix: how every figure is computed", "附录：各数字的计算方法"),
    "appendix.intro": (
        ("The rules of the model in plain notation (the full text is docs/model.md in the "
        "planner's repository). Month 0 is today; months 1..T are the horizon; a monthly cost is "
        "paid at the end of its month."),
        ("模型规则的简明记法（完整说明见 planner 仓库的 docs/model.md）。第 0 个月为今天，第 1..T "
        "个月为规划期，月度成本在当月末支付。")),
    "h.formulas": ("Formulas", "公式"),
    "h.worked": ("Each option's figures, by hand", "逐项手算各方案的数字"),
    "worked.intro": (("Every figure of the tables above, redone from this report's own numbers "
                     "(rounded as printed; the last digit may differ)."),
                     "用本报告自身的数字重算上文表格中的各项（按显示值四舍五入，末位可能不同）。"),
    "worked.total": ("Total cost", "总成本"),
    "worked.pv": ("Present value", "现值"),
    "worked.per_hour": ("Per GPU-hour", "每 GPU 小时"),
    "worked.break_even": ("Pays off against {versus}", "相对 {versus} 回本"),
    "worked.cooling": ("Cooling share of energy", "能耗中的制冷部分"),
    "worked.pv_sum": ("Σ v_m·c_m = {flows}", "Σ v_m·c_m = {flows}"),
    "worked.pv_rv": ("{flows} − v_{T}·RV = {flows} − {v_T} × {rv}",
                     "{flows} − v_{T}·RV = {flows} − {v_T} × {rv}"),
    "worked.demand": ("reference GPU-hours of demand", "参考 GPU 小时需求"),
    "worked.never": ("above at month {T}: never", "第 {T} 个月仍更高：不回本"),
    "worked.start": ("never above: from the start", "始终不高于：从一开始"),
    "worked.months": ("Δ_{k} = {a}, Δ_{k1} = {b}: {k} + {a} / ({a} + {bn}) = {months}",
                      "Δ_{k} = {a}，Δ_{k1} = {b}：{k} + {a} / ({a} + {bn}) = {months}"),
    "worked.unit_months": ("months", "个月"),

    # chart texts
    "chart.months_from_today": ("Months from today", "距今月数"),
    "chart.cumulative": ("Cumulative cost", "累计成本"),
    "chart.cheapest": (" (cheapest)", "（最低）"),
    "chart.pays_off": ("{own} pays off vs {versus}\nafter {months}",
                       "{own} 相对 {versus}\n{months}后回本"),
    "chart.same_cost": ("{own} costs the same as {versus}\nat {usage} GPU-h/month",
                        "{own} 与 {versus} 成本相同\n每月 {usage} GPU 小时"),
    "chart.your_demand": ("your demand\n{usage} GPU-h/month", "你的需求\n每月 {usage} GPU 小时"),
    "chart.off_by_month": ("{name} off the chart: {money} by month {month}",
                           "{name} 超出图表：第 {month} 个月达 {money}"),
    "chart.off_at_usage": ("{name} off the chart: {money} at {usage} GPU-h/month",
                           "{name} 超出图表：每月 {usage} GPU 小时时达 {money}"),
    "chart.demand_axis": ("Demand in month 1 [reference GPU-hours per month]",
                          "第 1 个月需求［每月参考 GPU 小时］"),
    "chart.over": ("{basis} over {months} months", "{months} 个月{basis}"),
    "chart.month": ("Month", "月份"),
    "chart.monthly": ("Monthly cost", "月度成本"),
    "chart.today": ("{name} · today {money}", "{name} · 今天 {money}"),
    "chart.sens_axis": ("Break-even month of {own} against {versus}",
                        "{own} 相对 {versus} 的回本月份"),
    "chart.sens_low": ("input {spread} lower", "输入降低 {spread}"),
    "chart.sens_high": ("input {spread} higher", "输入提高 {spread}"),
    "chart.plan": ("plan: {months}", "计划：{months}"),
    "chart.cheapest_is": ("{name} cheapest", "{name} 最低"),
    "chart.never": ("never", "不回本"),
    "label.cumulative": ("Cumulative cost over time per option", "各方案累计成本随时间变化"),
    "label.usage": ("Cost over the horizon against monthly usage per option",
                    "各方案规划期成本与月用量"),
    "label.breakdown": ("Monthly cost by component per option", "各方案按构成划分的月度成本"),
    "label.ranking": ("Cost of every option over the horizon", "各方案规划期成本"),
    "label.sensitivity": ("Sensitivity of the break-even month to each key input",
                          "回本月份对各关键输入的敏感度"),
    "label.bands": ("Cumulative cost under uncertainty, P5 to P95 shaded",
                    "不确定性下的累计成本（阴影为 P5–P95）"),
    "cap.bands": (
        ("Cumulative cost per option, residual value not counted: the median over the draws "
        "in which it is feasible (line) and the 5th to 95th percentile (shaded)."),
        "各方案的累计成本（不计残值）：可行抽样的中位数（线）与第 5 至第 95 百分位（阴影）。"),
    "label.drivers": ("What drives the spread of the answer", "决定结果分布的输入"),
    "chart.drivers": ("Share of the variance explained alone (first-order Sobol' index)",
                      "单独解释的方差占比（一阶 Sobol' 指数）"),
    "h.uncertainty": ("How sure is the answer", "结论有多可靠"),
    "unc.intro": (
        ("The plan evaluated on {samples} draws of its uncertain inputs (a Latin hypercube, "
        "seed {seed}). Present values are over the draws in which the option is feasible; "
        "the months over the draws in which buying pays off."),
        ("在不确定输入的 {samples} 次抽样（拉丁超立方，种子 {seed}）上评估本计划。现值按该方案可行的"
        "抽样统计；回本月数按能回本的抽样统计。")),
    "unc.own": ("Bought", "购买方案"),
    "unc.versus": ("Against", "对比方案"),
    "unc.cheapest": ("Cheapest in", "最低成本占比"),
    "unc.feasible": ("Feasible in", "可行占比"),
    "unc.pays": ("Pays off in", "回本占比"),
    "unc.pv": ("Present value {p}", "现值 {p}"),
    "unc.months": ("Months {p}", "月数 {p}"),
    "cap.drivers": (
        ("Each input's share of the variance of {own}'s present value less {versus}'s, "
        "explained by that input alone, estimated from the draws."),
        "各输入单独解释的 {own} 与 {versus} 现值之差的方差占比，由抽样估计。"),
    "label.free": ("Sessions a week and days a job waits per free tier",
                   "各免费额度的每周会话数与作业等待天数"),

    # components (the chart groups several engine components into one)
    "component.purchase": ("purchase", "购置"),
    "component.resale": ("resale", "转售"),
    "component.financing": ("financing", "融资还款"),
    "component.loan_payoff": ("loan payoff", "贷款结清"),
    "component.energy": ("energy", "能耗"),
    "component.maintenance": ("maintenance", "维护"),
    "component.fixed": ("fixed", "固定费用"),
    "component.operating": ("operating", "运行费用"),
    "component.rental": ("rental", "租金"),
    "component.reservation": ("reservation", "预留"),
    "component.storage": ("storage", "存储"),
    "component.fee": ("fee", "月费"),
    "component.overflow": ("overflow", "溢出"),
    "component.fallback": ("fallback", "回退"),
    "component.residual value": ("less residual value", "减残值"),
    "group.purchase": ("purchase, financing", "购置与融资"),
    "group.it_energy": ("IT energy", "IT 能耗"),
    "group.cooling": ("cooling", "制冷"),
    "group.maintenance": ("maintenance", "维护"),
    "group.running": ("fixed, per-hour", "固定与按时费用"),
    "group.rent": ("rent", "租金"),
    "group.reserved": ("reserved commitment", "预留承诺"),
    "group.storage": ("storage", "存储"),
    "group.fee": ("fee", "月费"),
    "group.passed": ("overflow, fallback", "溢出与回退"),

    # terminal
    "term.option": ("Option (★ cheapest)", "方案（★ 最低）"),
    "term.feasible": ("Feasible", "可行"),
    "term.total": ("Total ({currency})", "总成本（{currency}）"),
    "term.pv": ("Present value", "现值"),
    "term.per_hour": ("Per GPU-hour", "每 GPU 小时"),
    "term.no": ("no: {reasons}", "否：{reasons}"),

    # units of fmt
    "unit.month": ("{n} month", "{n} 个月"),
    "unit.months": ("{n} months", "{n} 个月"),
    "unit.hour": ("{n} hour", "{n} 小时"),
    "unit.hours": ("{n} hours", "{n} 小时"),
    "unit.never": ("never", "不回本"),
    # the appendix's formulas: their names, then the formulas in plain notation
    "f.symbols": ("Symbols", "符号"),
    "f.discount": ("Discount factor", "折现因子"),
    "f.demand": ("Demand", "需求"),
    "f.total": ("Total cost", "总成本"),
    "f.pv": ("Present value", "现值"),
    "f.per_hour": ("Cost per GPU-hour", "每 GPU 小时成本"),
    "f.instance_hours": ("Cloud: rented instance-hours", "云：租用实例小时"),
    "f.rent": ("Cloud: rent and storage", "云：租金与存储"),
    "f.reserved": ("Cloud: reserved capacity", "云：预留容量"),
    "f.capacity": ("Own: capacity and busy hours", "自购：容量与忙碌小时"),
    "f.energy": ("Own: energy", "自购：能耗"),
    "f.cooling": ("Own: cooling share of energy", "自购：能耗中的制冷部分"),
    "f.running": ("Own: running costs", "自购：运行成本"),
    "f.residual": ("Own: residual value", "自购：残值"),
    "f.loan": ("Own: loan payment", "自购：贷款月供"),
    "f.free_tier": ("Free tier: usable capacity", "免费额度：可用容量"),
    "f.break_even_months": ("Break-even month", "回本月份"),
    "f.break_even_usage": ("Break-even usage", "盈亏平衡用量"),
    "fx.symbols": (
        ("T months of horizon; H hours a month; c_m cost of month m; D_m demand of month m "
        "[reference GPU-hours]; RV residual value at T; r discount rate a year; g GPUs per job; "
        "k GPUs per instance"),
        ("T 规划期月数；H 每月小时数；c_m 第 m 个月的成本；D_m 第 m 个月的需求［参考 GPU 小时］；"
        "RV 第 T 个月的残值；r 年折现率；g 每个作业的 GPU 数；k 每个实例的 GPU 数")),
    "fx.discount": ("v_m = (1 + r)^(−m/12),   v_0 = 1", ""),
    "fx.demand": (
        ("D_m = D_1 × (1 + growth)^((m − 1)/12);   an option needs G_m = D_m / (relative_speed × "
        "scaling_efficiency) of its own GPU-hours"),
        ("D_m = D_1 × (1 + growth)^((m − 1)/12)；方案自身需要 G_m = D_m / (relative_speed × "
         "scaling_efficiency) GPU 小时")),
    "fx.total": ("total = Σ_{m=0..T} c_m − RV", ""),
    "fx.pv": ("PV = Σ_{m=0..T} v_m × c_m − v_T × RV", ""),
    "fx.per_hour": ("per GPU-hour = total / Σ_{m=1..T} D_m", "每 GPU 小时 = total / Σ_{m=1..T} D_m"),
    "fx.instance_hours": (
        ("I_m = G_m / g × ⌈g / k⌉ × ρ,   ρ = 1 + interruptions_per_hour × (checkpoint_minutes / 2 "
        "+ restart_minutes) / 60;   billed in increments b: I_m = G_m / (g × L) × ⌈L × ρ / b⌉ × "
        "b × ⌈g / k⌉, L = job_hours / (relative_speed × scaling_efficiency)"),
        ("I_m = G_m / g × ⌈g / k⌉ × ρ，ρ = 1 + interruptions_per_hour × (checkpoint_minutes / 2 + "
        "restart_minutes) / 60；按增量 b 计费：I_m = G_m / (g × L) × ⌈L × ρ / b⌉ × b × ⌈g / k⌉，"
        "L = job_hours / (relative_speed × scaling_efficiency)")),
    "fx.rent": (("rental_m = I_m × price per instance-hour;   storage_m = data_gb × price per "
                "GB-month"),
                "rental_m = I_m × 每实例小时价格；storage_m = data_gb × 每 GB·月价格"),
    "fx.reserved": (("reservation_m = R × p_reserved × H;   rental_m = max(0, I_m − R × H) × "
                    "p_on_demand"), ""),
    "fx.capacity": (("K = gpu_count × H × availability;   S_m = min(G_m, K) / gpu_count [busy "
                    "system-hours];   work above K goes to the overflow"),
                    ("K = gpu_count × H × availability；S_m = min(G_m, K) / gpu_count［整机忙碌小时］；"
                    "超出 K 的工作转交溢出方案")),
    "fx.energy": (("E_m = (P × S_m + P_idle × (H − S_m) × [always_on]) × PUE [kWh];   energy_m = "
                  "E_m × electricity price"),
                  ("E_m = (P × S_m + P_idle × (H − S_m) × [always_on]) × PUE［千瓦时］；energy_m = "
                  "E_m × 电价")),
    # -- fleets and purchase timing (SPEC §6): n machines bought in month p --
    "fx.capacity_fleet": (
        ("K = n × gpu_count × H × availability;   served_m = min(G_m, K × in_service_m), "
         "in_service_m = [m > p];   S_m = served_m / gpu_count [busy system-hours];   work above "
         "K (and all of it in months 1..p) goes to the overflow"),
        ("K = n × gpu_count × H × availability；served_m = min(G_m, K × in_service_m)，"
         "in_service_m = [m > p]；S_m = served_m / gpu_count［整机忙碌小时］；超出 K 的工作"
         "（以及第 1..p 个月的全部工作）转交溢出方案")),
    "fx.energy_fleet": (
        ("E_m = (P × S_m + P_idle × (n × H − S_m) × [always_on] × in_service_m) × PUE [kWh];   "
         "energy_m = E_m × electricity price"),
        ("E_m = (P × S_m + P_idle × (n × H − S_m) × [always_on] × in_service_m) × PUE［千瓦时］；"
         "energy_m = E_m × 电价")),
    "fx.running_fleet": (("maintenance_m = n × maintenance_per_year / 12 × in_service_m;   "
                          "fixed_m = n × fixed_cost_per_month × in_service_m;   operating_m = "
                          "operating_cost_per_hour × S_m"), ""),
    "fx.residual_fleet": (("purchase_m = n × price (m = p, p + L, …);   RV = n × (price − (price − "
                           "resale_fraction × price) × age / L),   age = T − (p + L × ⌊(T − p − "
                           "1) / L⌋),   L = 12 × lifetime_years"), ""),
    "fx.cooling": ("cooling_m = energy_m × (1 − 1 / PUE);   IT energy_m = energy_m / PUE", ""),
    "fx.running": (("maintenance_m = maintenance_per_year / 12;   fixed_m = fixed_cost_per_month;"
                   "   operating_m = operating_cost_per_hour × S_m"), ""),
    "fx.residual": (("RV = price − (price − resale_fraction × price) × age / L,   L = 12 × "
                    "lifetime_years"), ""),
    "fx.loan": (("A = B × i × (1 + i)^n / ((1 + i)^n − 1),   i = annual_rate / 12,   B = price − "
                "down_payment"), ""),
    "fx.free_tier": (("capacity = g × min(H, weekly × H / 168, daily × H / 24, monthly) × "
                     "availability × (session_hours − setup_minutes / 60) / session_hours"), ""),
    "fx.break_even_months": (
        ("C_k = Σ_{m≤k} c_m,   Δ_k = C_k(own) − C_k(other);   months = k* + Δ_k* / (Δ_k* − "
        "Δ_{k*+1}),   k* the last month end with Δ > 0"),
        ("C_k = Σ_{m≤k} c_m，Δ_k = C_k(own) − C_k(other)；months = k* + Δ_k* / (Δ_k* − "
        "Δ_{k*+1})，k* 为 Δ > 0 的最后一个月末")),
    # -- jobs on several GPUs (SPEC §8) --
    "col.job_days": ("Days / job", "天 / 作业"),
    "gpu.scaling": ("{share} scaling", "扩展效率 {share}"),
    "note.job_days": (
        ("Days / job: the wall-clock days one job of demand.job_hours (hours on the reference "
         "GPU) runs on each option, job_hours / (relative_speed × scaling_efficiency), without "
         "interruptions or waits for quotas."),
        ("天 / 作业：一个 demand.job_hours（以参考 GPU 计的小时数）的作业在各方案上运行的日历"
         "天数，即 job_hours / (relative_speed × scaling_efficiency)，不含中断和配额等待。")),
    "fx.break_even_usage": (
        ("the smallest month-1 demand x with PV_own(x) = PV_other(x), or where their difference "
        "changes sign"),
        "使 PV_own(x) = PV_other(x)（或两者之差变号）的最小第 1 个月需求 x"),

    # Jupyter views (issue 16: planner/render/notebook.py, templates/notebook.html)
    "nb.plan": ("Plan", "计划"),
    "nb.options": ("{n} options", "{n} 个方案"),
    "nb.what": ("What", "内容"),
    "nb.passes_to": ("Passes work to", "转交给"),
    "nb.described": ("described in the file", "在文件中描述"),
    "nb.plan_hint": ("plan.evaluate() gives the answer; plan.sweep({…}) a what-if frame.",
                     "plan.evaluate() 给出答案；plan.sweep({…}) 给出假设分析表。"),
    "nb.charts_hint": (("charts: result.plot.cumulative(), .cost_vs_usage(), .breakdown(), "
                        ".tornado()"),
                       ("图表：result.plot.cumulative()、.cost_vs_usage()、.breakdown()、"
                        ".tornado()")),
    "nb.sweep": ("Sweep", "参数扫描"),
    "nb.sweep_size": ("{scenarios} scenarios × {options} options = {rows} rows",
                      "{scenarios} 个情景 × {options} 个方案 = {rows} 行"),
    "nb.axis": ("Axis", "扫描轴"),
    "nb.values": ("Values", "取值数"),
    "nb.from": ("From", "从"),
    "nb.to": ("To", "到"),
    "nb.cheapest_in": ("Cheapest in", "最便宜的情景数"),
    "nb.pv_lowest": ("Present value, lowest", "现值最低"),
    "nb.pv_highest": ("highest", "最高"),
    "nb.before": ("Before: {text}", "之前：{text}"),
    "nb.after": ("After: {text}", "之后：{text}"),

    # the best mix (SPEC §6): planner optimize's table, the report's page "The best mix"
    "mix.title": ("The best mix", "最佳组合"),
    "mix.best": ("Best mix: {words}", "最佳组合：{words}"),
    "mix.figures": ("present value {pv}, total {total}", "现值 {pv}，总成本 {total}"),
    "mix.saving": ("{saving} less than the best single option, {single} ({single_pv})",
                   "比最佳单一方案 {single}（{single_pv}）少 {saving}"),
    "mix.no_saving": ("no saving against the best single option, {single} ({single_pv})",
                      "与最佳单一方案 {single}（{single_pv}）相比没有节省"),
    "mix.join": ("; ", "；"),
    "mix.searched": ("{count} candidates searched", "共搜索 {count} 个候选"),
    "mix.alternative": ("Nearest alternatives", "相邻方案"),
    "mix.change": ("Change", "变化"),
    "mix.versus": ("Against the best", "与最佳相比"),
    "mix.flat": (
        ("How flat the optimum is: the present value of the mix for each count of {option} "
         "machines, one line per purchase month{commit}; the best mix is marked."),
        ("最优解有多平坦：{option} 每种台数下组合的现值，每个购买月份一条线{commit}；"
         "最佳组合已标出。")),
    "mix.flat_commit": (" (commitments the best of each term)", "（每期承诺取最优）"),
    "chart.mix_x": ("{option} machines owned", "拥有的 {option} 台数"),
    "chart.mix_y": ("Present value ({currency})", "现值（{currency}）"),
    "chart.mix_month": ("bought in month {month}", "第 {month} 个月购买"),
    "chart.mix_best": ("best: {machines} from month {month}", "最佳：第 {month} 个月起 {machines} 台"),
    "gpu.bought": ("{machine}, bought in month {month} (serving from month {next})",
                   "{machine}，第 {month} 个月购买（自第 {next} 个月起使用）"),

    # China clouds (issue 15): "What changes the answer" when no input moves anything
    "sens.no_effect": (
        ("Each key input moved {spread} one at a time, all else as planned, moves neither the "
         "break-even month of {own} against {versus} ({base}) nor the cheapest option: {names}."),
        ("每个关键输入逐一变动 {spread}（其余不变），既不改变 {own} 相对 {versus} 的回本月份"
         "（{base}），也不改变成本最低的方案：{names}。")),

    # planner diff: its page, Markdown and terminal summary
    "diff.kicker": ("Plan comparison", "方案对比"),
    "diff.title": ("What changed: {title}", "变化：{title}"),
    "diff.title_two": ("What changed: {old} → {new}", "变化：{old} → {new}"),
    # The sides' names: a file's name is the user's own and stays as it is.
    "diff.side_stdin": ("standard input", "标准输入"),
    "diff.side_with_sets": ("{name} with --set", "{name}（经 --set 修改）"),
    "diff.none_before_after": ("No option can serve the demand, before or after.",
                               "修改前后都没有方案能满足需求。"),
    "diff.stays": ("The cheapest option stays {old}.", "成本最低的方案仍是 {old}。"),
    "diff.now_some": ("Before, no option could serve the demand; now {new} is the cheapest.",
                      "修改前没有方案能满足需求；现在成本最低的是 {new}。"),
    "diff.now_none": ("The cheapest option was {old}; now no option can serve the demand.",
                      "成本最低的方案原为 {old}；现在没有方案能满足需求。"),
    "diff.changes": ("The cheapest option changes from {old} to {new}.",
                     "成本最低的方案从 {old} 变为 {new}。"),
    "diff.not_in_plan": ("not in plan", "不在方案中"),
    "diff.infeasible": ("infeasible", "不可行"),
    "diff.added": ("{name} (added)", "{name}（新增）"),
    "diff.removed": ("{name} (removed)", "{name}（移除）"),
    "diff.h.inputs": ("Inputs changed", "变更的输入"),
    "diff.h.costs": ("Costs", "成本"),
    "diff.h.break_even": ("When buying pays off", "何时回本"),
    "diff.h.recommendation": ("Recommendation", "建议"),
    "diff.inputs_not_compared": (
        "Not compared: one side is an evaluated result without its usage file.",
        "未比较：其中一方是没有用量文件的评估结果。"),
    "diff.no_input_differs": ("No input value differs (defaults filled in).",
                              "没有不同的输入值（已填入默认值）。"),
    "diff.col.key": ("Key", "键"),
    "diff.col.before": ("Before", "修改前"),
    "diff.col.after": ("After", "修改后"),
    "diff.options_added": ("Options added: {names}.", "新增方案：{names}。"),
    "diff.options_removed": ("Options removed: {names}.", "移除方案：{names}。"),
    "diff.col.option": ("Option", "方案"),
    "diff.col.total_before": ("Total before", "修改前总成本"),
    "diff.col.total_after": ("Total after", "修改后总成本"),
    "diff.col.change": ("Change", "变化"),
    "diff.col.pv_before": ("Present value before", "修改前现值"),
    "diff.col.pv_after": ("Present value after", "修改后现值"),
    "diff.col.own": ("Own", "自购"),
    "diff.col.against": ("Against", "对比"),
    "diff.col.pays_before": ("Pays off before", "修改前回本"),
    "diff.col.pays_after": ("Pays off after", "修改后回本"),
    "diff.col.months_change": ("Change (months)", "变化（月）"),
    "diff.col.usage_before": ("Break-even usage before", "修改前盈亏平衡用量"),
    "diff.col.usage_after": ("Break-even usage after", "修改后盈亏平衡用量"),
    "diff.usage_note": ("Break-even usage: month-1 demand in reference GPU-hours.",
                        "盈亏平衡用量：第 1 个月的需求，以参考 GPU 小时计。"),
    "diff.before": ("Before: {text}", "修改前：{text}"),
    "diff.after": ("After: {text}", "修改后：{text}"),
    "diff.before_label": ("Before:", "修改前："),
    "diff.after_label": ("After:", "修改后："),
    "diff.t.inputs_not_compared": ("Inputs not compared (a result on one side).",
                                   "输入未比较（其中一方是评估结果）。"),
    "diff.t.no_input_differs": ("No input value differs.", "没有不同的输入值。"),
    "diff.t.options_added": ("Options added: {names}", "新增方案：{names}"),
    "diff.t.options_removed": ("Options removed: {names}", "移除方案：{names}"),
    "diff.t.costs": ("Costs ({currency}), before → after", "成本（{currency}），修改前 → 修改后"),
    "diff.t.cheapest": ("★ the cheapest option after the change", "★ 修改后成本最低的方案"),
    "diff.t.total": ("Total cost", "总成本"),
    "diff.t.pv": ("Present value", "现值"),
    "diff.t.break_even": ("When buying pays off, before → after", "何时回本，修改前 → 修改后"),
    "diff.t.pays_off": ("Pays off (months)", "回本（月）"),
    "diff.t.usage": ("Break-even usage", "盈亏平衡用量"),
}
