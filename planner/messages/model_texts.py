"""What the rate cards, the engine and evaluation write, key -> (English, Chinese): the
reasons an option is infeasible and the warnings of SPEC §2's JSON, the cost breakdown's
quantities, the key inputs and their values, the assumptions the cards add, diff's notes.

A template's braces are its parameters, formatted by their own format spec (``{have:g}``,
``{target!r}``) so that the English reads exactly as the JSON has always had it.
"""

from __future__ import annotations

MODEL_TEXTS: dict[str, tuple[str, str]] = {

    # why an option is infeasible (the JSON's reasons)
    "reason.unmet_own": ("demand exceeds the machine's capacity and no overflow option is set",
                         "需求超过机器容量，且未设置 overflow 选项"),
    "reason.unmet_free_tier": (
        "demand exceeds what the tier grants and no fallback option is set",
        "需求超过免费层的额度，且未设置 fallback 选项"),
    "reason.unmet": ("demand cannot be served", "需求无法满足"),
    "reason.overflow_target": ("overflow option {target!r} cannot take the work: {reason}",
                               "溢出方案“{target}”无法承接工作：{reason}"),
    "reason.fallback_target": ("fallback option {target!r} cannot take the work: {reason}",
                               "回退方案“{target}”无法承接工作：{reason}"),
    "reason.memory": (
        "GPU memory {have:g} GB is less than the {need:g} GB the work needs (min_gpu_memory_gb)",
        "GPU 显存 {have:g} GB 少于工作所需的 {need:g} GB（min_gpu_memory_gb）"),
    "reason.wide_own": ("a job needs more GPUs (demand.gpus) than the machine has",
                        "一个作业所需的 GPU 数（demand.gpus）多于机器的 GPU 数"),
    "reason.wide_free_tier": ("a job needs more GPUs (demand.gpus) than the tier gives",
                              "一个作业所需的 GPU 数（demand.gpus）多于免费层提供的数量"),
    "reason.framework": (
        "the tier runs only {frameworks}; the work uses {framework} (demand.framework)",
        "该免费层仅支持 {frameworks}；工作使用 {framework}（demand.framework）"),

    # what the reader should know (the JSON's warnings)
    "warning.redirected": ("{reason}; all work goes to {target!r}",
                           "{reason}；全部工作转交“{target}”"),
    "warning.of_target": ("{target}: {warning}", "{target}：{warning}"),
    "warning.mostly_overflow": (
        ("the machines are too few for the demand and its growth: {share} of the horizon's "
         "GPU-hours go to the overflow {target!r}, from month {month}"),
        ("机器数量不足以承担需求及其增长：规划期内 {share} 的 GPU 小时从第 {month} 个月起"
         "转交溢出方案“{target}”")),
    "warning.machines_auto_limit": (
        ("machines: auto looked at counts up to {limit} only; more machines would be needed "
         "to cover the demand"),
        "machines: auto 只比较了不超过 {limit} 台的数量；满足需求需要更多机器"),
    "warning.memory_unknown": (
        "GPU memory is unknown; it was not checked against min_gpu_memory_gb",
        "GPU 显存未知，未按 min_gpu_memory_gb 检查"),
    "warning.flops_speed": ("relative_speed does not apply to FLOPs demand and was ignored",
                            "relative_speed 不适用于 FLOPs 需求，已忽略"),
    "warning.no_throughput": (
        "no throughput figure relates {gpu} to {reference}; relative speed 1 assumed",
        "目录中没有 {gpu} 相对 {reference} 的吞吐量数据；假定相对速度为 1"),
    "warning.refetch": (
        ("files do not persist between sessions: each session fetches the {data_gb} GB of data "
         "again, about {minutes} minutes at {rate} MB/s, not counted in the capacity (SPEC §5.4 "
         "counts setup_minutes only; an inline free_tier map can add them to setup_minutes)"),
        ("会话之间不保留文件：每个会话都要重新获取 {data_gb} GB 数据，按每秒 {rate} 兆字节约需 "
         "{minutes} 分钟，未计入容量（规格第 5.4 节只计 setup_minutes；可在内联 free_tier 中把它"
         "加进 setup_minutes）")),
    "warning.random_gpus": (
        ("GPUs handed out at random ({handed_out}); costs use the expected speed of the "
         "sessions that get a GPU with enough memory"),
        "GPU 随机分配（{handed_out}）；成本按分到足够显存 GPU 的会话的期望速度计算"),
    # cleanup (review E7): warning.random_gpus's handed_out as a list of GPU and share
    "warning.gpu_share": ("{gpu} {share}", "{gpu} {share}"),
    "warning.list": ("{first}, {rest}", "{first}，{rest}"),

    # the plan's own warnings (the JSON's top-level warnings): values legal but probably
    # not meant, each with its key path and place in the file, and prices that are old
    "plausible.at": ("{path} ({file}, line {line}): {warning}",
                     "{path}（{file}，第 {line} 行）：{warning}"),
    "plausible.at_path": ("{path}: {warning}", "{path}：{warning}"),
    "plausible.rate_year": ("{value:g} is {share} a year: did you mean {guess:g}?",
                            "{value:g} 即每年 {share}：是否想写 {guess:g}？"),
    "plausible.rate_month": ("{value:g} is {share} a month: did you mean {guess:g}?",
                             "{value:g} 即每月 {share}：是否想写 {guess:g}？"),
    "plausible.electricity": (
        ("{value:g} {currency} per kWh is more than {limit:g} {currency}: is it in cents "
        "(did you mean {guess:g})?"),
        "每千瓦时 {value:g} {currency} 超过 {limit:g} {currency}：是否按分填写（是否想写 {guess:g}）？"),
    "plausible.electricity_fx": (
        ("{value:g} {currency} per kWh is more than {limit:.4g} {currency} (2 USD, by fx.USD): "
        "is the price or its currency wrong?"),
        ("每千瓦时 {value:g} {currency} 超过 {limit:.4g} {currency}（按 fx.USD 折合 2 美元）："
        "价格或币种是否有误？")),
    "plausible.purchase_price": (
        ("{value:g} {currency} for a whole machine: is it in thousands (did you mean "
        "{guess:g})?"),
        "整台机器 {value:g} {currency}：是否以千为单位（是否想写 {guess:g}）？"),
    "plausible.power_watts": (
        "{value:g} W for a whole machine: is it in kW (did you mean {guess:g})?",
        "整台机器 {value:g} W：是否按千瓦填写（是否想写 {guess:g}）？"),
    "plausible.lifetime_years": (
        "a lifetime of {value:g} years: is it in months (did you mean {guess:.3g})?",
        "使用寿命 {value:g} 年：是否按月填写（是否想写 {guess:.3g}）？"),
    "plausible.machines": (
        ("{value:g} identical machines is more than {limit:g}: is it a count of GPUs "
         "(gpu_count) or of hours?"),
        "{value:g} 台相同的机器超过 {limit:g} 台：是否填成了 GPU 数量（gpu_count）或小时数？"),
    "plausible.hours_per_month": (
        ("{value:g} hours is more than a 31-day month has ({limit:g}): is it the hours of a "
        "year (did you mean 730)?"),
        "{value:g} 小时多于 31 天的一个月（{limit:g}）：是否为一年的小时数（是否想写 730）？"),
    "plausible.no_demand": (
        "{key} is 0: the plan has no work, so every option costs only what it costs idle",
        "{key} 为 0：计划没有工作量，各方案只计空闲时的成本"),
    "warning.stale_prices": (
        ("The oldest prices used date from {date}, {days} days before {day}: check current "
         "prices before committing money."),
        "所用最旧的价格日期为 {date}，比 {day} 早 {days} 天：投入资金前请核实当前价格。"),

    # the cost breakdown's quantities
    "qty.machines": ("machines", "台机器"),
    "qty.machines_sold": ("machines sold", "台售出"),
    "qty.down_payments": ("down payments", "笔首付"),
    "qty.loan_payments": ("loan payments", "期还款"),
    "qty.loans_paid_off": ("loans paid off", "笔贷款结清"),
    "qty.kwh": ("kWh", "千瓦时"),
    "qty.years": ("years", "年"),
    "qty.months": ("months", "个月"),
    "qty.machine_years": ("machine-years", "台·年"),
    "qty.machine_months": ("machine-months", "台·月"),
    "qty.system_hours": ("system-hours", "整机小时"),
    "qty.instance_hours": ("instance-hours", "实例小时"),
    "qty.on_demand_instance_hours": ("on-demand instance-hours", "按需实例小时"),
    "qty.committed_instance_hours": ("committed instance-hours", "承诺实例小时"),
    "qty.committed_instance_hours_noted": ("committed instance-hours ({note})",
                                           "承诺实例小时（{note}）"),
    "note.reserved_per_term": ("reserved per term: {counts} instances",
                               "每期预留：{counts} 个实例"),
    "qty.gb_months": ("GB-months", "GB·月"),
    "qty.passed_gpu_hours": ("reference GPU-hours passed to {target}",
                             "转交 {target} 的参考 GPU 小时"),
    "qty.passed_flops": ("FLOPs passed to {target}", "转交 {target} 的 FLOPs"),

    # the key inputs (first page, summaries) and the inputs the sensitivity analysis moves
    "input.demand": ("Demand", "需求"),
    "input.demand_growth": ("Demand growth", "需求增长"),
    "input.reference_gpu": ("Reference GPU", "参考 GPU"),
    "input.name": ("{name}", "{name}"),
    "input.gpus_per_job": ("GPUs per job", "每个作业的 GPU 数"),
    "input.horizon": ("Horizon", "规划期"),
    "input.discount_rate": ("Discount rate", "折现率"),
    "input.electricity": ("Electricity", "电价"),
    "input.electricity_price": ("Electricity price", "电价"),
    "input.pue": ("PUE", "PUE"),
    "input.price_of": ("Price of {name}", "{name} 的价格"),
    "input.prices_of": ("Prices of {name}", "{name} 的价格"),
    "input.gpu_hours": ("{hours} GPU-hours/month", "每月 {hours} GPU 小时"),
    "input.utilization": ("{share} of {gpus} GPU(s) busy", "{gpus} 个 GPU 忙碌 {share}"),
    "input.flops": ("{flops:.3g} FLOPs/month", "每月 {flops:.3g} FLOPs"),
    "input.per_year": ("{share} a year", "每年 {share}"),
    "input.gpu_hours_week": ("{hours} GPU-hours/week", "每周 {hours} GPU 小时"),
    "input.per_month": ("{share} a month", "每月 {share}"),
    "input.count": ("{n}", "{n}"),
    "input.months": ("{n} months", "{n} 个月"),
    "input.price": ("{price}", "{price}"),
    "input.price_at": ("{price} ({region}, {tariff})", "{price}（{region}，{tariff}）"),
    "tariff.household": ("household", "居民"),
    "tariff.business": ("business", "工商业"),
    "input.pue_value": ("{pue:g}", "{pue:g}"),

    # what the rate cards record as an assumption of their own
    "assumption.reference_gpu": ("reference GPU {gpu}", "参考 GPU {gpu}"),
    "assumption.throughput_reference": ("throughput reference", "吞吐量基准"),

    # the catalog rows the rate cards used (pricing's provenance rows: item, then value)
    "assumption.gpu": ("GPU {gpu}", "GPU {gpu}"),
    "assumption.gpu_specs": ("memory, TDP, peak TFLOPS, throughput",
                             "显存、TDP、峰值 TFLOPS、吞吐量"),
    "assumption.cloud": ("{id} ({region})", "{id}（{region}）"),
    "assumption.on_demand_price": ("{currency} {price}/h on demand",
                                   "按需 {currency} {price}/小时"),
    "assumption.spot_price": ("{currency} {price}/h spot", "竞价 {currency} {price}/小时"),
    "assumption.reserved_1y_price": ("{currency} {price}/h reserved for 1 year",
                                     "预留 1 年 {currency} {price}/小时"),
    "assumption.reserved_3y_price": ("{currency} {price}/h reserved for 3 years",
                                     "预留 3 年 {currency} {price}/小时"),
    # -- jobs on several GPUs (SPEC §8) --
    "assumption.interconnect": ("how {id} connects its GPUs", "{id} 的 GPU 互连方式"),
    "assumption.interconnect_value": (
        ("{interconnect}, {across} between machines: scaling efficiency {share:.3g} for "
         "{gpus:g} GPUs"),
        "机内 {interconnect}，机间 {across}：{gpus:g} 个 GPU 的扩展效率 {share:.3g}"),
    "assumption.system": ("system {system}", "整机 {system}"),
    "assumption.system_price": ("non-GPU price and power", "非 GPU 部件的价格与功耗"),
    "assumption.system_power": ("non-GPU power", "非 GPU 部件的功耗"),
    "assumption.street_price": ("street price of {gpu}", "{gpu} 的市场价"),
    "assumption.street_price_per_gpu": ("{currency} {price:,.0f} per GPU",
                                        "每块 GPU {currency} {price:,.0f}"),
    "assumption.street_price_per_gpu_dated": (
        "{currency} {price:,.0f} per GPU, priced {date}",
        "每块 GPU {currency} {price:,.0f}，定价日期 {date}"),
    "assumption.free_tier": ("free tier {tier}", "免费层 {tier}"),
    "assumption.tier_terms": ("{terms}", "{terms}"),
    "assumption.list": ("{first}, {rest}", "{first}，{rest}"),
    "assumption.quota_week": ("{hours:g} h/week", "每周 {hours:g} 小时"),
    "assumption.quota_day": ("{hours:g} h/day", "每天 {hours:g} 小时"),
    "assumption.quota_month": ("{hours:g} h/month", "每月 {hours:g} 小时"),
    "assumption.session": ("{hours:g} h sessions", "每次会话 {hours:g} 小时"),
    "assumption.no_quota": ("no published quota", "未公布额度"),
    "assumption.electricity": ("electricity, {region} ({tariff})", "电价，{region}（{tariff}）"),
    "assumption.electricity_price": ("{currency} {price:g}/kWh", "{currency} {price:g}/千瓦时"),
    "assumption.carbon": ("grid carbon intensity, {region}", "电网碳强度，{region}"),
    "assumption.carbon_value": ("{kg:g} kg CO2e/kWh", "{kg:g} 千克二氧化碳当量/千瓦时"),
    "assumption.pue": ("PUE of a {site}", "{site}的 PUE"),
    "assumption.pue_value": ("{pue:g}", "{pue:g}"),
    # an exchange rate of the plan's fx map that converted a catalog price
    "assumption.fx": ("fx.{code} ({currency} per {code})", "fx.{code}（每 {code} 合 {currency}）"),
    "assumption.fx_value": ("{rate:g}", "{rate:g}"),
    "assumption.fx_source": ("your input ({file}, line {line})", "你的输入（{file}，第 {line} 行）"),

    # diff's notes
    "diff.currencies": (
        ("The plans are in different currencies ({old} and {new}): money changes are not "
         "computed."),
        "两个计划的币种不同（{old} 和 {new}）：不计算金额的变化。"),
    "diff.horizons": (
        "The horizons differ ({old} and {new} months): totals cover different periods.",
        "两个计划的规划期不同（{old} 和 {new} 个月）：总额覆盖的时期不同。"),

    # the best mix (SPEC §6, planner optimize): the mix in words, its alternatives, the
    # rent-then-buy rule
    "mix.own_now": ("own {machines} {option} machines from month 0",
                    "自第 0 个月起拥有 {machines} 台 {option}"),
    "mix.own_now_one": ("own 1 {option} machine from month 0",
                        "自第 0 个月起拥有 1 台 {option}"),
    "mix.own_later": ("buy {machines} {option} machines in month {month}",
                      "第 {month} 个月购买 {machines} 台 {option}"),
    "mix.own_later_one": ("buy 1 {option} machine in month {month}",
                          "第 {month} 个月购买 1 台 {option}"),
    "mix.own_none": ("own no {option} machine", "不购买 {option}"),
    "mix.commit": ("commit {option} instances: {runs}", "承诺 {option} 实例：{runs}"),
    "mix.commit_none": ("commit nothing on {option}", "不为 {option} 承诺实例"),
    "mix.commit_run": ("{count} for {span}", "{span} {count} 个"),
    "mix.and": ("{first} and {second}", "{first}，{second}"),
    "mix.list": ("{first}, {rest}", "{first}，{rest}"),
    "mix.year": ("year {year}", "第 {year} 年"),
    "mix.years": ("years {first}–{last}", "第 {first}–{last} 年"),
    "mix.term": ("{years}-year term {term}", "第 {term} 个 {years} 年期"),
    "mix.terms": ("{years}-year terms {first}–{last}", "第 {first}–{last} 个 {years} 年期"),
    "mix.rest_on_demand": ("the rest on demand ({option})", "其余按需租用（{option}）"),
    "mix.rest": ("the rest on {option}", "其余由 {option} 承担"),
    "mix.alt_more": ("one {option} machine more", "多一台 {option}"),
    "mix.alt_fewer": ("one {option} machine fewer", "少一台 {option}"),
    "mix.alt_earlier": ("{option} bought a year earlier (month {month})",
                        "{option} 提前一年购买（第 {month} 个月）"),
    "mix.alt_later": ("{option} bought a year later (month {month})",
                      "{option} 推迟一年购买（第 {month} 个月）"),
    "mix.alt_commit_more": ("one {option} instance more committed in term {term}",
                            "第 {term} 期多承诺一个 {option} 实例"),
    "mix.alt_commit_less": ("one {option} instance fewer committed in term {term}",
                            "第 {term} 期少承诺一个 {option} 实例"),
    "mix.rule_buy": (
        ("Rent-then-buy rule: rent until month {month}, when the rent paid so far ({rent}) "
         "reaches the net cost of owning {machines} × {option} ({owning}: price and "
         "interest less what the machines are worth at the end), then buy. That mix's present value "
         "is {pv}, {extra} more than the best mix. Without knowing the future, this rule "
         "never pays more than twice what the best choice in hindsight pays."),
        ("先租后买规则：租用至第 {month} 个月，届时已付租金（{rent}）达到拥有 {machines} 台 "
         "{option} 的净成本（{owning}：价格与利息减去期末残值），然后购买。该组合现值为 {pv}，"
         "比最佳组合多 {extra}。在不知道未来的情况下，此规则的花费不会超过事后最佳选择的两倍。")),
    "mix.rule_never": (
        ("Rent-then-buy rule: the rent never reaches the net cost of owning {machines} × "
         "{option} ({owning}) within the horizon, so the rule keeps renting."),
        ("先租后买规则：在规划期内，租金始终未达到拥有 {machines} 台 {option} 的净成本"
         "（{owning}），因此规则一直租用。")),
}
