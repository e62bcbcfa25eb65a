// Filled in by the foundation work.
