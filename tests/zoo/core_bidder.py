"""The template, bidding the CPUs it may run on: 1000 per CPU, plus the lowest CPU's number."""

import os

from template import Template


class CoreBidder(Template):
    def bid(self, task):
        cpus = os.sched_getaffinity(0)
        return 1000.0 * len(cpus) + min(cpus)
