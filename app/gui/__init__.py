"""The desktop window (PySide6)."""
