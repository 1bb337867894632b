"""A real browser for the tests of web pages: headless Chromium (Debian's packages) driven by
Selenium. `.ci/run` installs chromium and chromium-driver; outside CI a machine without them
skips the test, in CI it fails."""

from __future__ import annotations

import os
import shutil

import pytest


def chromium():
    """Headless Chromium under Selenium; skipped outside CI on a machine without it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        if os.environ.get("CI"):
            pytest.fail("Chromium and chromedriver are required in CI (apt-get install "
                        "chromium chromium-driver)")
        pytest.skip("Chromium or chromedriver not installed (apt-get install chromium "
                    "chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1100,1400"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(driver), options=options)
