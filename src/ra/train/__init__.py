"""Expert iteration on Ra: the search teaches a policy net, the net guides the search, repeat.

``python -m ra.train RUN_DIR`` reruns the whole baseline from nothing (docs/training.md): self-play
rows from the native search (:mod:`ra.train.selfplay`), a policy fitted with PyTorch
(:mod:`ra.train.net`), matches in the arena with duplicate deals (:mod:`ra.train.measure`), the
learning curve (:mod:`ra.train.curve`), all kept in RUN_DIR so a run cut off continues
(:mod:`ra.train.pipeline`).  Needs the native core and the ``train`` extra (numpy, torch);
playing with the result (:mod:`ra.bots.policy`) needs neither.
"""
