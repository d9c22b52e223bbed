"""A study's manifest: every mistake is one line that names the key and says how to fix it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apdp.study.manifest import ManifestError, load_manifest

GOOD = """\
name = "pilot"
networks = ["switzerland", "france"]
seeds = [1, 2]
tasks = 20
agents = ["naive", "honest"]
language = "python"
rounds = 2

[[generator]]
model = "gpt-x"
base_url = "http://127.0.0.1:8000/v1"
api_key_env = "OPENAI_API_KEY"
strategies = ["a1", "ir"]
samples = 2
"""


def load(tmp_path: Path, text: str) -> object:
    path = tmp_path / "study.toml"
    path.write_text(text, encoding="utf-8")
    return load_manifest(path)


def test_the_issue_s_manifest_is_valid(tmp_path: Path) -> None:
    manifest = load(tmp_path, GOOD)
    jobs = manifest.jobs_wanted()  # type: ignore[attr-defined]
    assert [(g.model, s, k) for g, s, k in jobs] == [
        ("gpt-x", "a1", 1), ("gpt-x", "a1", 2), ("gpt-x", "ir", 1), ("gpt-x", "ir", 2)
    ]


@pytest.mark.parametrize(("change", "message"), [
    (("samples = 2", "samples = 0"),
     "generator[1].samples: Input should be greater than or equal to 1; e.g. samples = 2"),
    (('strategies = ["a1", "ir"]', 'strategies = ["a1", "xx"]'), "generator[1].strategies: unknown strategy 'xx'"),
    (('model = "gpt-x"\n', ""), "missing key 'generator[1].model': add model = \"gpt-x\""),
    (("rounds = 2", "rounds = 2\nround = 3"), "unknown key 'round'"),
    (("seeds = [1, 2]", "seeds = [1, 3]"), "seeds: give consecutive seeds such as [1, 2, 3]"),
    (('base_url = "http://127.0.0.1:8000/v1"', 'base_url = "localhost"'), "generator[1].base_url: give an http(s) URL"),
    (('networks = ["switzerland", "france"]\n', ""), "give networks = [\"france\", ...] or scenario"),
    (('language = "python"', 'language = "perl"'), "language: Input should be 'python' or 'java'"),
    (("tasks = 20", 'tasks = "many"'), "tasks: Input should be a valid integer"),
    (("rounds = 2", "rounds = 2\n[[generator]]\nmodel = \"gpt-x\"\nbase_url = \"http://h/v1\"\n"
                    "strategies = [\"a1\"]"), "model 'gpt-x' has two [[generator]] tables"),
    (("name = \"pilot\"", "name = pilot"), "is not valid TOML"),
    (('strategies = ["a1", "ir"]', 'strategies = ["improve"]'),
     "generator[1]: strategy improve needs the agent to improve: add parent = \"AGENT\""),
    (('strategies = ["a1", "ir"]', 'strategies = ["a1"]\nparent = "honest"'),
     "generator[1]: parent is for strategy improve"),
])
def test_each_mistake_is_one_line_naming_the_key(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in GOOD
    with pytest.raises(ManifestError) as caught:
        load(tmp_path, GOOD.replace(old, new, 1))
    text = str(caught.value)
    assert message in text and "\n" not in text, text


@pytest.mark.parametrize("name", ["/tmp/evil", "../evil", "a/../../b", "..", ".", "a/b", "a\\b", "~", "x\n",
                                  ".hidden", "a" * 101])
def test_a_name_that_is_no_plain_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    """The name chooses the study's folder (studies/NAME): an absolute one or one holding '..' chose
    where `apdp study run` writes."""
    with pytest.raises(ManifestError) as caught:
        load(tmp_path, GOOD.replace('name = "pilot"', f"name = {json.dumps(name)}"))
    text = str(caught.value)
    assert "name: " in text and "is not a plain folder name" in text and "\n" not in text, text
    for name in ("pilot-2", "étude_1.v2", "2024"):
        assert load(tmp_path, GOOD.replace('name = "pilot"', f'name = "{name}"')).name == name  # type: ignore[attr-defined]


def test_improve_takes_its_parent(tmp_path: Path) -> None:
    manifest = load(tmp_path, GOOD.replace('strategies = ["a1", "ir"]', 'strategies = ["a1", "improve"]\n'
                                                                        'parent = "honest"'))
    (generator,) = manifest.generators  # type: ignore[attr-defined]
    assert generator.parent == "honest" and generator.strategies == ["a1", "improve"]


def test_a_missing_manifest_says_so(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="cannot read the manifest"):
        load_manifest(tmp_path / "none.toml")


def test_the_readme_s_manifest_is_valid() -> None:
    import re
    import tomllib

    from apdp.study.manifest import parse_manifest
    from tests.paths import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```toml\n(.*?)```", readme, re.DOTALL) if "[[generator]]" in b]
    manifest = parse_manifest(tomllib.loads(block))
    assert manifest.generators[0].price is not None and manifest.seeds == [1, 2]
