import os
import sys

from .cli import main

status = main()
if status == 130:  # interrupted (Ctrl-C), already said in one line: exit with that status now.
    # A Ctrl-C that lands while a module is being imported can leave CPython marked as dying by
    # SIGINT (-2) at its normal exit, even though modbot caught it; leave without that step.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
sys.exit(status)
