"""Maintenance commands of the project (regenerating the golden files)."""
