// Placeholder until the module gets code.
