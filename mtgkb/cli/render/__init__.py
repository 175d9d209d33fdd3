"""Human text for each result type, one module per topic, in the CLI layer (may import anything).
Each command passes the renderer of its result to :func:`mtgkb.cli.output.emit`; ``--json`` needs none."""
