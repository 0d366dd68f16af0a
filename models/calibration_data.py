"""Calibration data: every figure a model takes from the studies, with its provenance.

The figures live in `resources/calibration/*.json` (one file per dataset); this
module reads and validates them. Models ask for a figure by dataset and point id
(`figure("gp_vsphere_000", "fullscan_1vm_s")`) and never carry study numbers as
literals. Public vendor documentation (Greenplum capacity planning, PostgreSQL
docs) is cited the same way, with `file` naming the document.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

STUDY_FILES = (
    "000_b2a3159111482e98.txt",
    "001_8432df66bbca52f5.txt",
    "002_feb9b45e1f157a35.txt",
    "003_4970b14b1c56345f.txt",
    "004_c20ff83f1741d1fe.txt",
)


class Source(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str = Field(description="study file name, or the public document cited")
    locator: str = Field(description="section / table / figure within the file")
    kind: Literal["quoted", "derived", "read-from-figure", "vendor-doc"]
    quote: str | None = Field(default=None, description="the words of the source, for quoted figures")
    derivation: str | None = Field(default=None, description="how a derived figure follows from quoted ones")

    @model_validator(mode="after")
    def _explained(self) -> Source:
        if self.kind == "quoted" and not self.quote:
            raise ValueError("a quoted figure needs its quote")
        if self.kind in ("derived", "read-from-figure") and not self.derivation:
            raise ValueError(f"a {self.kind} figure needs its derivation")
        return self

    def cite(self) -> str:
        return f"{self.file}, {self.locator}"


class Point(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    value: float
    unit: str
    what: str
    low: float | None = Field(default=None, description="lower end of a stated range, same unit")
    high: float | None = Field(default=None, description="upper end of a stated range, same unit")
    conditions: dict[str, float | int | str | bool] = Field(default_factory=dict)
    source: Source

    @model_validator(mode="after")
    def _range(self) -> Point:
        if (self.low is None) != (self.high is None):
            raise ValueError("low and high come together")
        if self.low is not None and self.high is not None and not (self.low <= self.value <= self.high):
            raise ValueError(f"value {self.value} outside its range [{self.low}, {self.high}]")
        return self


class Dataset(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    dataset: str
    title: str
    points: list[Point]

    @model_validator(mode="after")
    def _unique(self) -> Dataset:
        seen: set[str] = set()
        for p in self.points:
            if p.id in seen:
                raise ValueError(f"duplicate point id '{p.id}' in dataset '{self.dataset}'")
            seen.add(p.id)
        return self

    def point(self, point_id: str) -> Point:
        for p in self.points:
            if p.id == point_id:
                return p
        raise KeyError(f"no point '{point_id}' in calibration dataset '{self.dataset}'")

    def value(self, point_id: str) -> float:
        return self.point(point_id).value

    def series(self, prefix: str) -> list[Point]:
        """Points whose id starts with `prefix`, in file order (a measured curve)."""
        return [p for p in self.points if p.id.startswith(prefix)]


def _calibration_dir() -> resources.abc.Traversable:
    return resources.files("resources") / "calibration"


@cache
def dataset(name: str) -> Dataset:
    path = _calibration_dir() / f"{name}.json"
    if not path.is_file():
        raise KeyError(f"no calibration dataset '{name}' in resources/calibration")
    data = Dataset.model_validate(json.loads(path.read_text(encoding="utf-8")))
    if data.dataset != name:
        raise ValueError(f"resources/calibration/{name}.json declares dataset '{data.dataset}'")
    return data


def dataset_names() -> list[str]:
    return sorted(
        p.name.removesuffix(".json") for p in _calibration_dir().iterdir() if p.name.endswith(".json")
    )


@cache
def _by_id(dataset_name: str) -> dict[str, Point]:
    """The dataset's points by id: a sizing looks figures up thousands of times (a scan of the list took 5 us)."""
    return {p.id: p for p in dataset(dataset_name).points}


def figure(dataset_name: str, point_id: str) -> float:
    return point(dataset_name, point_id).value


def point(dataset_name: str, point_id: str) -> Point:
    found = _by_id(dataset_name).get(point_id)
    if found is None:
        raise KeyError(f"no point '{point_id}' in calibration dataset '{dataset_name}'")
    return found
