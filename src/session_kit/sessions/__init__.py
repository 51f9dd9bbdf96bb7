"""TODO guide."""
