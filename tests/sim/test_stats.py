"""The report's statistics against known values: textbook tables and a published worked example."""

from __future__ import annotations

import math

import pytest

from apokalypse.sim.stats import (
    chi_square_equal,
    chi_square_p,
    mean_interval,
    normal_p,
    stratified_proportions,
    t_p,
    t_quantile,
    two_proportions,
    welch,
    wilson,
)


def test_wilson_matches_a_known_value():
    # 8 of 10: centre (0.8 + 0.192) / 1.384 = 0.7168, half-width 0.2265 (z = 1.96)
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_without_trials_is_the_whole_range():
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_of_a_known_sample():
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    # sd = 1.2910, se = 0.6455, half = 1.959964 * 0.6455
    assert mean == 2.5
    assert high - mean == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2, rel=1e-9)
    assert mean - low == pytest.approx(high - mean)


@pytest.mark.parametrize(
    ("t", "df"),
    [(12.706, 1), (4.303, 2), (2.571, 5), (2.228, 10), (2.042, 30), (1.960, 1e9)],
)
def test_t_p_at_the_tables_critical_values_is_5_percent(t, df):
    assert t_p(t, df) == pytest.approx(0.05, abs=2e-4)
    assert t_quantile(df) == pytest.approx(t, abs=2e-3)


@pytest.mark.parametrize(("x", "df"), [(3.841, 1), (5.991, 2), (9.488, 4), (11.070, 5)])
def test_chi_square_p_at_the_tables_critical_values_is_5_percent(x, df):
    assert chi_square_p(x, df) == pytest.approx(0.05, abs=2e-4)


def test_chi_square_p_for_two_degrees_of_freedom_is_an_exponential():
    # with 2 degrees of freedom the tail is exp(-x/2), whatever x
    for x in (0.5, 3.0, 12.5, 40.0):
        assert chi_square_p(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)


def test_normal_p():
    assert normal_p(1.959964) == pytest.approx(0.05, abs=1e-6)
    assert normal_p(0.0) == 1.0


def test_two_proportions_known_value():
    # 60/100 against 40/100: pooled p = 0.5, se = sqrt(0.5 * 0.5 * 0.02) = 0.0707, z = 2.828
    test = two_proportions(60, 100, 40, 100)
    assert test.difference == pytest.approx(0.2)
    assert test.statistic == pytest.approx(2.8284, abs=1e-4)
    assert test.p == pytest.approx(0.00468, abs=1e-5)
    assert test.low < 0.2 < test.high
    assert test.significant


def test_two_proportions_equal_rates_are_not_significant():
    test = two_proportions(50, 100, 100, 200)
    assert test.difference == 0
    assert test.p == pytest.approx(1.0)
    assert not test.significant


def test_welch_matches_the_published_example():
    # Wikipedia, "Welch's t-test", example 2: t = -2.46, df = 24.99, p = 0.021
    a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    test = welch(a, b)
    assert test.statistic == pytest.approx(-2.4554, abs=1e-3)
    assert test.df == pytest.approx(24.99, abs=0.01)
    assert test.p == pytest.approx(0.0214, abs=5e-4)
    assert test.low < test.difference < test.high < 0


def test_welch_needs_two_values_per_group():
    assert math.isnan(welch([1.0], [1.0, 2.0]).p)


def test_chi_square_equal_known_value():
    # 10, 20, 30 of 100 each: expected 20 and 80, chi² = 12.5 on 2 df, p = exp(-6.25)
    test = chi_square_equal([10, 20, 30], [100, 100, 100])
    assert test.statistic == pytest.approx(12.5)
    assert test.df == 2
    assert test.p == pytest.approx(math.exp(-6.25), rel=1e-9)
    assert test.difference == pytest.approx(0.2)


def test_stratified_proportions_sees_through_a_third_variable():
    # Simpson's paradox: within each stratum the rates are equal (90 % and 10 %), but the
    # first group sits mostly in the low stratum; pooled, it looks 66 points worse.
    strata = [(45, 50, 450, 500), (50, 500, 5, 50)]
    pooled = two_proportions(95, 550, 455, 550)
    assert pooled.difference == pytest.approx(-0.6545, abs=1e-4)
    assert pooled.significant
    adjusted = stratified_proportions(strata)
    assert adjusted.difference == pytest.approx(0.0, abs=1e-12)
    assert not adjusted.significant


def test_stratified_proportions_with_one_stratum_is_the_unpooled_test():
    test = stratified_proportions([(60, 100, 40, 100)])
    assert test.difference == pytest.approx(0.2)
    assert (test.low, test.high) == pytest.approx(
        (two_proportions(60, 100, 40, 100).low, two_proportions(60, 100, 40, 100).high)
    )
