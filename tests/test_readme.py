"""The README's example runs as written and does what its comments say."""

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_example_runs_and_does_what_it_says() -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code.group(1), "README.md", "exec"), scope)
    g = scope["g"]
    assert len(g.library(1)) == 46 - 1  # 14 milled, then a basic land found by the search
    assert [e["kind"] for e in g.events if e["kind"] == "scried"] == ["scried"]
    chalice = g.battlefield()[-1]
    assert g.name(chalice) == "Everflowing Chalice" and g.object(chalice).counters == {"charge": 3}  # CR 702.33c
