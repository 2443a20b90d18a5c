"""Which packages the wheel holds (everything else is in pyproject.toml).

The top-level ``templates/`` folder ships inside the import package as the data package
``generator.templates`` (read with importlib.resources by generator/resources.py): a static
``packages.find`` cannot map a folder outside ``generator/``, hence this file. Every folder
under ``templates/`` becomes a data package, so a new template folder ships without an edit.
"""

from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"

template_packages = {
    ".".join(("generator.templates", *d.relative_to(TEMPLATES).parts)).rstrip("."): d
    for d in sorted([TEMPLATES, *(p for p in TEMPLATES.rglob("*") if p.is_dir())])
    if d.name != "__pycache__"
}

setup(
    packages=find_packages(include=["generator", "generator.*"]) + list(template_packages),
    package_dir={"generator.templates": "templates"},
    package_data={"generator": ["py.typed"], **{name: ["*"] for name in template_packages}},
)
