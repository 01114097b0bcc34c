"""Declarative inputs (fleet spec, rules config) loaded from YAML with located errors."""
