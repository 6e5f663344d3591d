"""Chinese poker (RULES §2): naturals, table scoring and the arranger live in submodules."""
