"""The expert-iteration baseline (docs/training.md): ``python -m ra.train`` as a benchmark script.

    python benchmarks/expert_iteration.py runs/baseline --games 100

Reruns every step not done yet in the run's folder (a run cut off continues), with progress bars;
needs the native core and the ``train`` extra (numpy, torch).
"""

from __future__ import annotations

import sys

from ra.train.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
