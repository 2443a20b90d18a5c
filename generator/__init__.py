"""PaperProof: print-ready prototypes of paper board games, with every card proven completable.

Layers (dependencies point one way): ``cli`` -> ``families`` -> ``core``; ``families`` ->
``render``. ``core`` is pure (no I/O, no rendering or CLI libraries).
"""

__version__ = "0.1.0"
