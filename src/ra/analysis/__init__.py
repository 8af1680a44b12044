"""Game analysis: win chances over a finished game, mistakes, reports (HTML/SVG and terminal),
and the calibration measurement of the evaluator (:mod:`ra.bots.evaluate`)."""
