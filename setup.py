"""Package discovery: ``dptestbed`` is a regular package whose own modules live in ``entry/``
(``__init__.py``, ``__main__.py``: the ``dptestbed`` script, also ``python -m dptestbed``);
the top-level folders ``spec/``, ``impl/`` and ``audits/`` are its subpackages, each with every
paper subpackage found below it, so adding a paper edits no list. No bare ``spec``, ``impl`` or
``audits`` module is ever installed.

Package data, stated file by file pattern: each folder of spec TOMLs is a data package of
``dptestbed.spec`` (``spec/<paper>/*.toml``), the JSON Schemas of the machine outputs are
``audits/schemas/*.json`` and ``junit.xsd``, the measured item costs the executor orders items by are
``audits/run/costs.json``, and ``py.typed`` marks the package as typed (PEP 561)."""

from pathlib import Path

from setuptools import find_packages, setup

ROOTS = {"spec": "dptestbed.spec", "impl": "dptestbed.impl", "audits": "dptestbed.audits"}

package_dir = {"dptestbed": "entry", **{name: folder for folder, name in ROOTS.items()}}
packages = ["dptestbed", *ROOTS.values()]
for folder, name in ROOTS.items():
    packages += [f"{name}.{sub}" for sub in find_packages(folder)]
package_data = {"dptestbed": ["py.typed"], "dptestbed.spec": ["README.md"], "dptestbed.audits.run": ["costs.json"],
                "dptestbed.audits.schemas": ["*.json", "*.xsd"]}
for folder in sorted({path.parent for path in Path("spec").rglob("*.toml")}):
    name = ".".join(("dptestbed", *folder.parts))
    packages += [] if name in packages else [name]
    package_data[name] = ["*.toml", "seeds.json"]
setup(packages=packages, package_dir=package_dir, package_data=package_data)
