"""The requirement kinds: which property of a requirement is evaluated where (the registry)."""
