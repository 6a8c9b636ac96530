"""The few statistics the balance report needs (standard library only)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


@dataclass(frozen=True)
class Summary:
    """Mean, spread and quantiles of a sample (all 0 for an empty sample)."""

    mean: float
    sd: float
    min: float
    p10: float
    median: float
    p90: float
    max: float


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of a sorted sample, linear between neighbours."""
    if not ordered:
        return 0.0
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    """Sample variance (n - 1); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.fsum((v - m) ** 2 for v in values) / (len(values) - 1)


def summarize(values: Sequence[float]) -> Summary:
    ordered = sorted(values)
    return Summary(
        mean=mean(ordered),
        sd=math.sqrt(variance(ordered)),
        min=ordered[0] if ordered else 0.0,
        p10=quantile(ordered, 0.1),
        median=quantile(ordered, 0.5),
        p90=quantile(ordered, 0.9),
        max=ordered[-1] if ordered else 0.0,
    )


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (ties may count as fractions)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def welch_p(a: Sequence[float], b: Sequence[float]) -> float:
    """p-value of a difference of means (Welch, normal approximation: the samples are large)."""
    if not a or not b:
        return 1.0
    se2 = variance(a) / len(a) + variance(b) / len(b)
    diff = mean(a) - mean(b)
    if se2 == 0:
        return 1.0 if diff == 0 else 0.0
    return two_sided_p(diff / math.sqrt(se2))


def proportions_p(x1: float, n1: int, x2: float, n2: int) -> float:
    """p-value of a difference of two proportions (pooled two-proportion z-test)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    se2 = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    diff = x1 / n1 - x2 / n2
    if se2 == 0:
        return 1.0 if diff == 0 else 0.0
    return two_sided_p(diff / math.sqrt(se2))
