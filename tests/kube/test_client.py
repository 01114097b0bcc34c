"""gpuscope.kube.client's paging, on its own: every page read in order, a list that never ends refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gpuscope.kube.client import WatchError, pages


def test_pages_follow_continue_in_order_and_stop_at_the_last() -> None:
    asked: list[dict[str, str]] = []
    answers = {"": {"metadata": {"continue": "a"}, "n": 1}, "a": {"metadata": {"continue": "b"}, "n": 2}}

    def read(query: Mapping[str, str]) -> Mapping[str, Any]:
        asked.append(dict(query))
        return answers.get(query.get("continue", ""), {"metadata": {"continue": ""}, "n": 3})

    assert [page["n"] for page in pages(read, limit=7, max_pages=10, what="pods")] == [1, 2, 3]
    assert asked == [{"limit": "7"}, {"limit": "7", "continue": "a"}, {"limit": "7", "continue": "b"}]


@pytest.mark.parametrize("metadata", [None, "x", {"continue": 5}, {}])
def test_a_page_without_a_usable_continue_token_is_the_last(metadata: object) -> None:
    listed = list(pages(lambda query: {"metadata": metadata}, limit=1, max_pages=3, what="nodes"))
    assert len(listed) == 1


def test_a_list_that_never_ends_is_refused_after_max_pages() -> None:
    seen = 0

    def endless(query: Mapping[str, str]) -> Mapping[str, Any]:
        nonlocal seen
        seen += 1
        return {"metadata": {"continue": f"t{seen}"}}

    with pytest.raises(WatchError, match="more than 4 pages of 250 nodes") as refused:
        for _ in pages(endless, limit=250, max_pages=4, what="nodes"):
            pass
    assert refused.value.reason == "bad_response" and seen == 4
