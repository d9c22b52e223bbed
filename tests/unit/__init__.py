"""Tests that start no process: the rules, plan checks, planners, schedules, statistics, the store."""
