"""``python -m hls.fuzz interesting PROG SIGNATURE ...`` (cvise's interestingness test)."""

import sys

from . import _main

sys.exit(_main(sys.argv[1:]))
