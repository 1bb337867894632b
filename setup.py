"""The wheel carries the top-level data/, templates/ and config/ folders inside the package
(modbot/_bundled/), so a regular install (`pip install .`, pipx) works from any directory.
Everything else about the project is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUNDLED = ("data", "templates", "config")


class BuildWithBundledFiles(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "modbot" / "_bundled"
        for name in BUNDLED:
            shutil.copytree(name, target / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.sqlite*", "*.db", "__pycache__"))


setup(cmdclass={"build_py": BuildWithBundledFiles})
