"""Package discovery: the top-level folders ``spec/``, ``impl/`` and ``audits/`` are the
subpackages of the ``dptestbed`` namespace (itself implicit, so no bare ``spec``, ``impl`` or
``audits`` module is ever installed), each with every paper subpackage found below it. The
folder ``entry/`` holds the namespace's one module of its own, ``dptestbed.__main__``: the
``dptestbed`` script's entry point, which ``python -m dptestbed`` runs too."""

from setuptools import find_packages, setup

ROOTS = {"spec": "dptestbed.spec", "impl": "dptestbed.impl", "audits": "dptestbed.audits"}

package_dir = {name: folder for folder, name in ROOTS.items()}
packages = [name for name in ROOTS.values()]
for folder, name in ROOTS.items():
    for sub in find_packages(folder):
        packages.append(f"{name}.{sub}")
        package_dir[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"

packages.append("dptestbed")
package_dir["dptestbed"] = "entry"
setup(packages=packages, package_dir=package_dir)
