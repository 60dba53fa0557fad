"""The statistics of the balancing lab's reports: intervals and tests, written with :mod:`math`
alone (no SciPy: the lab must run wherever the game runs).

- :func:`wilson`: a proportion's 95 % interval (good at small n and at rates near 0 or 1);
- :func:`mean_interval`: a mean's normal-approximation interval;
- :func:`two_proportions`: two rates compared, the pooled two-proportion z-test;
- :func:`welch`: two means compared, Welch's t-test (unequal variances);
- :func:`chi_square_equal`: are k rates equal? Pearson's chi-square on the 2 x k table.

The p-values are two-sided. The distributions' tails come from the regularised incomplete beta
and gamma functions, by the continued fractions of Numerical Recipes (ch. 6).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval
_EPS = 1e-15  # the continued fractions stop when a step changes less than this
_TINY = 1e-300  # Lentz's guard against a zero denominator
_MAX_STEPS = 500


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion (good at small n and rates near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # the rate itself always lies inside (rounding at 0 % and 100 % must not push it out)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation interval (sample standard deviation); one value
    has no interval (NaN: ``null`` in the JSON)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


# --- tails of the distributions -----------------------------------------------------------------


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_STEPS):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > _TINY else _TINY)
            c = 1 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1) < _EPS:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    # the fraction converges fast only on the near side of the mean: use the symmetry otherwise
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def t_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom (df may be fractional,
    as Welch's is)."""
    if math.isnan(t) or math.isnan(df) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, p: float = 0.05) -> float:
    """The t value whose two-sided p-value is ``p`` (bisection on :func:`t_p`)."""
    low, high = 0.0, 1.0
    while t_p(high, df) > p:  # widen until the root is bracketed
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if t_p(middle, df) > p else (low, middle)
    return (low + high) / 2


def upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x)."""
    if x <= 0:
        return 1.0
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:  # the series of P converges here, the fraction of Q beyond
        term = total = 1 / a
        ap = a
        for _ in range(_MAX_STEPS):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return 1 - front * total
    b = x + 1 - a
    c, d = 1 / _TINY, 1 / b
    h = d
    for i in range(1, _MAX_STEPS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        if abs(d * c - 1) < _EPS:
            break
    return front * h


def chi_square_p(statistic: float, df: int) -> float:
    """Upper-tail p-value of a chi-square statistic."""
    if math.isnan(statistic) or df <= 0:
        return math.nan
    return upper_gamma(df / 2, statistic / 2)


# --- tests --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Test:
    """A test's outcome: the difference (or the statistic's subject), the statistic, the
    p-value. NaN where the data cannot say (an empty group, no variance)."""

    difference: float
    statistic: float
    p: float
    df: float = math.nan  # degrees of freedom where the distribution has them
    low: float = math.nan  # the difference's 95 % interval, where the test gives one
    high: float = math.nan

    @property
    def significant(self) -> bool:
        """At the 5 % level (NaN is never significant)."""
        return self.p < 0.05


def two_proportions(x1: int, n1: int, x2: int, n2: int) -> Test:
    """Rate 1 minus rate 2 and the pooled two-proportion z-test of their equality."""
    if n1 == 0 or n2 == 0:
        return Test(math.nan, math.nan, math.nan)
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    # the interval is Wald's, without pooling: the test assumes equality, the interval does not
    half = Z95 * math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    if se == 0:  # both 0 % or both 100 %: the same
        return Test(p1 - p2, 0.0, 1.0, low=p1 - p2 - half, high=p1 - p2 + half)
    z = (p1 - p2) / se
    return Test(p1 - p2, z, normal_p(z), low=p1 - p2 - half, high=p1 - p2 + half)


def stratified_proportions(strata: Sequence[tuple[int, int, int, int]]) -> Test:
    """Rate 1 minus rate 2 within strata (x1, n1, x2, n2 each), averaged with the strata's
    sizes as weights, and its z-test: a difference that a third variable (the player count)
    shifting both groups cannot make up. Strata missing either group are left out."""
    kept = [(x1, n1, x2, n2) for x1, n1, x2, n2 in strata if n1 > 0 and n2 > 0]
    weight = sum(n1 + n2 for _, n1, _, n2 in kept)
    if not kept:
        return Test(math.nan, math.nan, math.nan)
    difference = variance = 0.0
    for x1, n1, x2, n2 in kept:
        w = (n1 + n2) / weight
        p1, p2 = x1 / n1, x2 / n2
        difference += w * (p1 - p2)
        variance += w * w * (p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    se = math.sqrt(variance)
    if se == 0:
        return Test(
            difference, 0.0, 1.0 if difference == 0 else 0.0, low=difference, high=difference
        )
    z = difference / se
    return Test(difference, z, normal_p(z), low=difference - Z95 * se, high=difference + Z95 * se)


def welch(a: Sequence[float], b: Sequence[float]) -> Test:
    """Mean of ``a`` minus mean of ``b`` and Welch's t-test of their equality, with the
    Welch-Satterthwaite degrees of freedom."""
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return Test(math.nan, math.nan, math.nan)
    m1, m2 = sum(a) / n1, sum(b) / n2
    v1 = sum((x - m1) ** 2 for x in a) / (n1 - 1) / n1  # the squared standard errors
    v2 = sum((x - m2) ** 2 for x in b) / (n2 - 1) / n2
    if v1 + v2 == 0:
        return Test(m1 - m2, 0.0, 1.0) if m1 == m2 else Test(m1 - m2, math.inf, 0.0)
    se = math.sqrt(v1 + v2)
    t = (m1 - m2) / se
    df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    half = t_quantile(df) * se
    return Test(m1 - m2, t, t_p(t, df), df, m1 - m2 - half, m1 - m2 + half)


def chi_square_equal(successes: Sequence[int], trials: Sequence[int]) -> Test:
    """Pearson's chi-square test that k groups share one success rate (the 2 x k table of
    successes and failures); ``difference`` is the highest rate minus the lowest."""
    kept = [(x, n) for x, n in zip(successes, trials, strict=True) if n > 0]
    if len(kept) < 2:
        return Test(math.nan, math.nan, math.nan)
    total_x = sum(x for x, _ in kept)
    total_n = sum(n for _, n in kept)
    rate = total_x / total_n
    rates = [x / n for x, n in kept]
    if rate in (0.0, 1.0):
        return Test(0.0, 0.0, 1.0, len(kept) - 1)
    statistic = sum(
        (x - n * rate) ** 2 / (n * rate) + ((n - x) - n * (1 - rate)) ** 2 / (n * (1 - rate))
        for x, n in kept
    )
    df = len(kept) - 1
    return Test(max(rates) - min(rates), statistic, chi_square_p(statistic, df), df)
