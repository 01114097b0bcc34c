"""Headless Chromium (the Debian packages chromium and chromium-driver) driven through Selenium, and the waits
the console tests share: every wait is for a condition in the page, with a deadline."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

T = TypeVar("T")


def chromium() -> webdriver.Chrome:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        raise RuntimeError("chromium and chromium-driver are needed: run scripts/ensure-binaries")
    os.environ.setdefault("SE_OFFLINE", "true")  # never let Selenium Manager look for a browser to download
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1600,1200",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


@contextmanager
def running_chromium() -> Iterator[webdriver.Chrome]:
    """A headless Chromium for a module's tests, quit afterwards whatever happened."""
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def wait(
    driver: webdriver.Chrome,
    check: Callable[[webdriver.Chrome], T | Literal[False] | None],
    timeout: float = 60,
    what: str = "",
) -> T:
    """Poll ``check`` until it returns something truthy (WebDriverWait's rule), and return that."""
    result = WebDriverWait(driver, timeout, poll_frequency=0.1).until(check, message=what)
    assert result is not None  # until returns a truthy value or raises TimeoutException
    return result


def loaded(driver: webdriver.Chrome, loads: int = 1) -> bool:
    state = driver.execute_script("return [document.body.dataset.state, Number(document.body.dataset.loads || 0)]")
    return bool(state[0] == "ready" and state[1] >= loads)


def panels(driver: webdriver.Chrome) -> list[dict[str, Any]]:
    """Every panel on the page: id, title, type, state (loading/data/empty/error) and its errors."""
    found: list[dict[str, Any]] = driver.execute_script(
        "return [...document.querySelectorAll('section.panel')].map(p => ({id: Number(p.dataset.panelId),"
        " title: p.dataset.title, type: p.dataset.type, state: p.dataset.state, errors: p.dataset.errors || ''}))"
    )
    return found


def errors(driver: webdriver.Chrome) -> list[str]:
    """The browser console's errors since the last call (Chromium hands each entry out once)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


# The panels that show who holds which GPU on the local stack, per dashboard (None: every panel of it): the
# workload half the console test and bench/demo_fill.py wait for.
WORKLOAD_PANELS: dict[str, tuple[str, ...] | None] = {
    "local-l1-fleet": ("GPUs allocated", "GPUs allocated vs actively used", "Allocation efficiency"),
    "local-l5-workload": (
        "GPUs held",
        "Activity",
        "Efficiency",
        "GPUs of the selected pods",
        "GPU memory per pod",
        "Jobs",
        "GPUs of the selected jobs",
    ),
    "local-efficiency": None,
}
