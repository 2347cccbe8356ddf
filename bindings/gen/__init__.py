"""The generator of the bindings' per-op wrappers (see bindings/generate.py)."""
