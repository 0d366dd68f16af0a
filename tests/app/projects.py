"""Small projects the app tests share, without Qt (the GUI tests and the project-file tests both save them)."""

from __future__ import annotations

from models.scenario import GreenplumAnalytics, Platform, Project, Scenario


def small_project() -> Project:
    return Project(
        name="Test project",
        scenarios=[
            Scenario(name="Small DW", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10)),
            Scenario(
                name="Big DW",
                workload=GreenplumAnalytics(data_tb=200, concurrent_queries=40),
                platform=Platform(deployment="bare-metal"),
            ),
        ],
    )
