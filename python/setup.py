"""The Python module `menagerie` (docs/python.md): `pip install .` here.

The C extension links libmenagerie, which `make` builds in the tree above
(CFG=release-pic, or MENAGERIE_CFG=san-pic for the sanitizers' build); the
library is shipped inside the package, found by the extension's $ORIGIN
run path.
"""
import os
import re
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.environ.get("MENAGERIE_TOP") or os.path.dirname(HERE)
CFG = os.environ.get("MENAGERIE_CFG", "release-pic")
LIBDIR = os.path.join(TOP, "build", CFG)


def version():
    with open(os.path.join(TOP, "debian", "changelog"), encoding="utf-8") as f:
        return re.match(r"[^(]*\(([^)]*)\)", f.readline()).group(1)


class BuildExt(build_ext):
    """Builds libmenagerie first, and puts it next to the extension."""

    def run(self):
        subprocess.check_call(["make", "-C", TOP, "CFG=" + CFG, "build/%s/libmenagerie.so" % CFG])
        super().run()
        dest = os.path.dirname(self.get_ext_fullpath("menagerie._menagerie"))
        self.copy_file(os.path.join(LIBDIR, "libmenagerie.so"), dest)


setup(
    name="menagerie",
    version=version(),
    description="Menagerie's chess variants and mancala engine: rules, notation and search",
    license="MIT",
    packages=["menagerie"],
    ext_modules=[
        Extension(
            "menagerie._menagerie",
            sources=["menagerie/_menagerie.c"],
            include_dirs=[os.path.join(TOP, "src", "lib")],
            library_dirs=[LIBDIR],
            libraries=["menagerie"],
            runtime_library_dirs=["$ORIGIN"],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Werror"],
        )
    ],
    cmdclass={"build_ext": BuildExt},
    zip_safe=False,
)
