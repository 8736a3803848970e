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
    "warning.memory_unknown": (
        "GPU memory is unknown; it was not checked against min_gpu_memory_gb",
        "GPU 显存未知，未按 min_gpu_memory_gb 检查"),
    "warning.flops_speed": ("relative_speed does not apply to FLOPs demand and was ignored",
                            "relative_speed 不适用于 FLOPs 需求，已忽略"),
    "warning.no_throughput": (
        "no throughput figure relates {gpu} to {reference}; relative speed 1 assumed",
        "目录中没有 {gpu} 相对 {reference} 的吞吐量数据；假定相对速度为 1"),
    "warning.random_gpus": (
        ("GPUs handed out at random ({handed_out}); costs use the expected speed of the "
         "sessions that get a GPU with enough memory"),
        "GPU 随机分配（{handed_out}）；成本按分到足够显存 GPU 的会话的期望速度计算"),

    # the cost breakdown's quantities
    "qty.machines": ("machines", "台机器"),
    "qty.machines_sold": ("machines sold", "台售出"),
    "qty.down_payments": ("down payments", "笔首付"),
    "qty.loan_payments": ("loan payments", "期还款"),
    "qty.loans_paid_off": ("loans paid off", "笔贷款结清"),
    "qty.kwh": ("kWh", "千瓦时"),
    "qty.years": ("years", "年"),
    "qty.months": ("months", "个月"),
    "qty.system_hours": ("system-hours", "整机小时"),
    "qty.instance_hours": ("instance-hours", "实例小时"),
    "qty.on_demand_instance_hours": ("on-demand instance-hours", "按需实例小时"),
    "qty.committed_instance_hours": ("committed instance-hours", "承诺实例小时"),
    "qty.gb_months": ("GB-months", "GB·月"),
    "qty.passed_gpu_hours": ("reference GPU-hours passed to {target}",
                             "转交 {target} 的参考 GPU 小时"),
    "qty.passed_flops": ("FLOPs passed to {target}", "转交 {target} 的 FLOPs"),

    # the key inputs (first page, summaries) and the inputs the sensitivity analysis moves
    "input.demand": ("Demand", "需求"),
    "input.demand_growth": ("Demand growth", "需求增长"),
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
    "input.count": ("{n}", "{n}"),
    "input.months": ("{n} months", "{n} 个月"),
    "input.price": ("{price}", "{price}"),
    "input.price_at": ("{price} ({region}, {tariff})", "{price}（{region}，{tariff}）"),
    "input.pue_value": ("{pue:g}", "{pue:g}"),

    # what the rate cards record as an assumption of their own
    "assumption.reference_gpu": ("reference GPU {gpu}", "参考 GPU {gpu}"),
    "assumption.throughput_reference": ("throughput reference", "吞吐量基准"),

    # diff's notes
    "diff.currencies": (
        ("The plans are in different currencies ({old} and {new}): money changes are not "
         "computed."),
        "两个计划的币种不同（{old} 和 {new}）：不计算金额的变化。"),
    "diff.horizons": (
        "The horizons differ ({old} and {new} months): totals cover different periods.",
        "两个计划的规划期不同（{old} 和 {new} 个月）：总额覆盖的时期不同。"),
}
