from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from gpuscope.errors import SpecError, UsageError
from gpuscope.spec.source import format_loc, load_yaml_model, parse_yaml_model


class Group(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gpus: int
    model: str = "h100"


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    groups: list[Group] = []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name: a\ngroups:\n  - gpus: 8\n  - gpus: eight\n",
            "spec.yaml:4:11: groups[1].gpus: Input should be a valid integer, unable to parse string as an integer "
            "(got 'eight')",
        ),
        (
            "name: a\ngroups:\n  - gpu: 8\n",
            "spec.yaml:3:5: unknown key 'groups[0].gpu' (did you mean 'gpus'?); allowed here: gpus, model",
        ),
        ("nmae: a\n", "spec.yaml:1:1: unknown key 'nmae' (did you mean 'name'?); allowed here: groups, name"),
        ("name: a\nname: b\n", "spec.yaml:2:1: key 'name' appears twice in the same mapping"),
        ("name: [a\n", "spec.yaml:2:1: invalid YAML: expected ',' or ']', but got '<stream end>'"),
        ("- 1\n", "spec.yaml:1:1: expected a mapping of settings at the top, got list"),
        ("groups: []\n", "spec.yaml:1:1: missing required key 'name'"),
        ("name: a\ngroups:\n  - {}\n", "spec.yaml:3:5: missing required key 'groups[0].gpus'"),
    ],
)
def test_errors_point_at_file_line_column(text: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_yaml_model(text, "spec.yaml", Spec)
    assert str(info.value) == message


def test_valid_file_and_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("name: gpu-a\ngroups:\n  - gpus: 8\n    model: a100\n")
    assert load_yaml_model(str(path), Spec) == Spec(name="gpu-a", groups=[Group(gpus=8, model="a100")])
    with pytest.raises(SpecError, match="missing required key 'name'"):
        parse_yaml_model("", "empty.yaml", Spec)
    with pytest.raises(UsageError, match=r"does not exist \(--fleet\)"):
        load_yaml_model(str(tmp_path / "none.yaml"), Spec, "--fleet")


def test_format_loc() -> None:
    assert format_loc(("clusters", 1, "node_groups", 0, "gpus")) == "clusters[1].node_groups[0].gpus"
